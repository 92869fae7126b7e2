// Golden sweep tables (tests/data/golden): a small sweep over every model
// and every phase pattern, whose expected values come from an independent
// reference written here, not from pascal:
//   - phases from the patterns' documented definitions (model/phases.h), the
//     random ones from the generator's definition there and the stream key's
//     definition in engine/eval.h, with SplitMix64's published first outputs
//     pinning the finaliser;
//   - every static column by brute force on the request trace: LRU, TTL and
//     Belady caches that hold blocks, reuse distances and residency intervals
//     read off the trace, or the defining sums of the paper's closed forms;
//   - the dynamic columns from the paper's rules (eq. 20-24, the fallback
//     table of docs/dynamic.md) over a synthetic calibration whose keys have
//     a constant K, and the leave-one-key-out band.
// Each test recomputes its table and requires the checked-in file to match
// (so the file cannot drift from its source), then checks pascal against it
// column by column through `pascal run`, `pascal point --json` and
// `pascal predict --json`.  PASCAL_GOLDEN_WRITE=1 rewrites the files from
// the reference.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <list>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "test_util.h"

namespace {

using pascal_test::json_num;
using pascal_test::json_str;
using pascal_test::slurp;

const std::string kGolden = std::string(PASCAL_SOURCE_DIR) + "/tests/data/golden/";
const double kTol = 1e-12; // relative, for columns that are not whole numbers

// ---- tables ----------------------------------------------------------------

struct Table {
    std::vector<std::string> cols;
    std::vector<std::vector<std::string>> rows;
    int col(const std::string &name) const
    {
        auto it = std::find(cols.begin(), cols.end(), name);
        return it == cols.end() ? -1 : (int)(it - cols.begin());
    }
};

std::vector<std::string> split(const std::string &line)
{
    std::vector<std::string> out;
    std::stringstream ss(line);
    std::string f;
    while (std::getline(ss, f, ','))
        out.push_back(f);
    if (!line.empty() && line.back() == ',')
        out.push_back("");
    return out;
}

// CSV without quoting; lines starting with '#' are comments.
Table parse_csv(const std::string &text)
{
    Table t;
    std::stringstream ss(text);
    std::string line;
    while (std::getline(ss, line)) {
        if (line.empty() || line[0] == '#')
            continue;
        if (t.cols.empty())
            t.cols = split(line);
        else
            t.rows.push_back(split(line));
    }
    return t;
}

std::string fmt(double v)
{
    char buf[40];
    if (std::isnan(v))
        return "";
    snprintf(buf, sizeof buf, "%.17g", v);
    return buf;
}

double num(const std::string &s)
{
    return s.empty() ? NAN : std::strtod(s.c_str(), nullptr);
}

bool close(double got, double want)
{
    if (std::isnan(want) || std::isnan(got))
        return std::isnan(want) && std::isnan(got);
    return std::fabs(got - want) <= kTol * std::max(1.0, std::fabs(want));
}

std::string to_csv(const Table &t, const std::string &comment)
{
    std::string out = comment;
    for (size_t j = 0; j < t.cols.size(); j++)
        out += (j ? "," : "") + t.cols[j];
    out += "\n";
    for (const auto &r : t.rows) {
        for (size_t j = 0; j < r.size(); j++)
            out += (j ? "," : "") + r[j];
        out += "\n";
    }
    return out;
}

// The checked-in table equals the reference's (or is rewritten from it).
void check_or_write(const Table &ref, const std::string &file, const std::string &comment)
{
    if (std::getenv("PASCAL_GOLDEN_WRITE")) {
        FILE *f = std::fopen(file.c_str(), "w");
        ASSERT_TRUE(f) << file;
        std::string text = to_csv(ref, comment);
        std::fwrite(text.data(), 1, text.size(), f);
        std::fclose(f);
        return;
    }
    Table got = parse_csv(slurp(file));
    ASSERT_EQ(got.cols, ref.cols) << file;
    ASSERT_EQ(got.rows.size(), ref.rows.size()) << file;
    for (size_t i = 0; i < ref.rows.size(); i++)
        for (size_t j = 0; j < ref.cols.size(); j++)
            ASSERT_TRUE(got.rows[i][j] == ref.rows[i][j] || close(num(got.rows[i][j]), num(ref.rows[i][j])))
                << file << " row " << i << " " << ref.cols[j] << ": file " << got.rows[i][j] << ", reference "
                << ref.rows[i][j];
}

// pascal's table against the golden one, column by column: every golden
// column must be there with the same rows.
void compare_tables(const Table &golden, const Table &got, const std::string &what)
{
    ASSERT_EQ(got.rows.size(), golden.rows.size()) << what;
    for (size_t j = 0; j < golden.cols.size(); j++) {
        int k = got.col(golden.cols[j]);
        ASSERT_GE(k, 0) << what << ": no column " << golden.cols[j];
        int bad = 0;
        for (size_t i = 0; i < golden.rows.size() && bad < 5; i++) {
            const std::string &w = golden.rows[i][j], &g = got.rows[i][(size_t)k];
            if (w == g || close(num(g), num(w)))
                continue;
            ADD_FAILURE() << what << " row " << i << ", column " << golden.cols[j] << ": pascal " << g
                          << ", golden " << w;
            bad++;
        }
    }
}

// ---- the random generator, from model/phases.h and engine/eval.h -----------

namespace gen {
const uint64_t G = 0x9e3779b97f4a7c15ULL;

uint64_t f(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}
uint64_t mix(uint64_t key, uint64_t v) { return f(key + G + f(v ^ 0xd1b54a32d192ed03ULL)); }
uint64_t u64(uint64_t seed, uint64_t key, uint64_t c) { return f(f(f(seed + G) ^ key) + (c + 1) * G); }
double uniform(uint64_t seed, uint64_t key, uint64_t c) { return (double)(u64(seed, key, c) >> 11) * 0x1.0p-53; }
double normal(uint64_t seed, uint64_t key, uint64_t c)
{
    uint64_t k = mix(key, 0x6e6f726d616cULL);
    double u1 = uniform(seed, k, 2 * c), u2 = uniform(seed, k, 2 * c + 1);
    return std::sqrt(-2.0 * std::log(1.0 - u1)) * std::cos(6.283185307179586 * u2);
}
// engine/eval.h: key = mix(mix(mix("pascal", N), M), kind) [, sigma bits].
uint64_t stream_key(int64_t N, int64_t M, int kind, double sigma)
{
    uint64_t k = mix(mix(mix(0x70617363616cULL, (uint64_t)N), (uint64_t)M), (uint64_t)kind);
    if (kind == 4) {
        uint64_t bits;
        std::memcpy(&bits, &sigma, sizeof bits);
        k = mix(k, bits);
    }
    return k;
}
} // namespace gen

TEST(GoldenGenerator, FinaliserIsSplitMix64)
{
    // SplitMix64 from state 0 (Vigna's reference): the state advances by G
    // and each output is f(state).
    EXPECT_EQ(gen::f(gen::G), 0xe220a8397b1dcdafULL);
    EXPECT_EQ(gen::f(2 * gen::G), 0x6e789e6aa1b965f4ULL);
    EXPECT_EQ(gen::f(3 * gen::G), 0x06c45d188009454fULL);
}

// ---- phases, from model/phases.h ---------------------------------------------

enum { ALIGNED, CLUSTERS, EQUAL, UNIFORM, GAUSSIAN, LAG, EXPLICIT };
const char *kPatterns[] = {"aligned", "clusters", "equal", "uniform", "gaussian", "lag", "explicit"};

struct Params {
    int64_t clusters = 3, spread = 2, lag = 3, assoc = 2, lead = 3, depth = 3;
    double sigma = 2.5, horizon = 60, eps = 0.5, alpha = 1.5, beta = 2.25, lambda_hit = 3.5,
           lambda_miss = 40;
};

std::vector<int64_t> phases(int kind, const Params &P, uint64_t seed, int64_t N, int64_t M,
                            const std::vector<int64_t> &list)
{
    std::vector<int64_t> s((size_t)M, 0);
    uint64_t key = gen::stream_key(N, M, kind, P.sigma);
    for (int64_t m = 0; m < M; m++) {
        switch (kind) {
        case CLUSTERS: { // cluster m mod k at floor(c N / k); q-th of n members at floor(q spread / n) ahead
            int64_t k = P.clusters, c = m % k, q = m / k, n = 0;
            for (int64_t j = c; j < M; j += k)
                n++;
            s[(size_t)m] = (c * N / k + q * P.spread / n) % N;
            break;
        }
        case EQUAL: s[(size_t)m] = m * N / M; break;
        case UNIFORM: s[(size_t)m] = std::min(N - 1, (int64_t)(gen::uniform(seed, key, (uint64_t)m) * (double)N)); break;
        case GAUSSIAN: {
            int64_t x = (int64_t)std::round(P.sigma * gen::normal(seed, key, (uint64_t)m));
            s[(size_t)m] = ((x % N) + N) % N;
            break;
        }
        case LAG: s[(size_t)m] = m * P.lag % N; break;
        case EXPLICIT: s[(size_t)m] = list[(size_t)m]; break;
        default: break;
        }
    }
    return s;
}

// ---- brute force on the trace (eq. 1) ------------------------------------------

// Rounds 0..rounds-1: request r M + m reads block (r + s_m) mod N.
std::vector<int64_t> trace(const std::vector<int64_t> &s, int64_t N, int64_t rounds)
{
    std::vector<int64_t> t;
    for (int64_t r = 0; r < rounds; r++)
        for (int64_t x : s)
            t.push_back((r + x) % N);
    return t;
}

// A fully associative LRU cache of C blocks that holds them: misses in round R.
int64_t lru_misses(const std::vector<int64_t> &t, int64_t M, int64_t C, int64_t R)
{
    std::list<int64_t> cache; // most recent first
    int64_t misses = 0;
    for (int64_t i = 0; i < (R + 1) * M; i++) {
        auto it = std::find(cache.begin(), cache.end(), t[(size_t)i]);
        bool hit = it != cache.end();
        if (hit)
            cache.erase(it);
        else if ((int64_t)cache.size() == C)
            cache.pop_back();
        cache.push_front(t[(size_t)i]);
        if (i >= R * M && !hit)
            misses++;
    }
    return misses;
}

// Slotted TTL with window T (section 3.2): a request of round R misses unless
// its block was requested in rounds R-T..R-1 or earlier in round R.
int64_t ttl_misses(const std::vector<int64_t> &t, int64_t M, int64_t T, int64_t R)
{
    int64_t misses = 0;
    for (int64_t m = 0; m < M; m++) {
        bool seen = false;
        for (int64_t i = (R - T) * M; i < R * M + m && !seen; i++)
            seen = t[(size_t)i] == t[(size_t)(R * M + m)];
        misses += !seen;
    }
    return misses;
}

// Belady's MIN from an empty cache of C blocks over the whole trace.
int64_t belady_misses(const std::vector<int64_t> &t, int64_t C)
{
    std::vector<int64_t> cache;
    int64_t misses = 0, n = (int64_t)t.size();
    auto next_use = [&](int64_t b, int64_t from) {
        for (int64_t j = from; j < n; j++)
            if (t[(size_t)j] == b)
                return j;
        return n; // never again: farthest
    };
    for (int64_t i = 0; i < n; i++) {
        if (std::find(cache.begin(), cache.end(), t[(size_t)i]) != cache.end())
            continue;
        misses++;
        if ((int64_t)cache.size() == C) {
            size_t far = 0;
            for (size_t k = 1; k < cache.size(); k++)
                if (next_use(cache[k], i + 1) > next_use(cache[far], i + 1))
                    far = k;
            cache.erase(cache.begin() + (long)far);
        }
        cache.push_back(t[(size_t)i]);
    }
    return misses;
}

// ---- the static columns of one point -----------------------------------------

// Lemma 1's cyclic gaps from the smallest phase.
std::vector<int64_t> gaps_of(std::vector<int64_t> s, int64_t N)
{
    std::sort(s.begin(), s.end());
    s.erase(std::unique(s.begin(), s.end()), s.end());
    std::vector<int64_t> g;
    for (size_t i = 0; i < s.size(); i++)
        g.push_back(i + 1 < s.size() ? s[i + 1] - s[i] : s[0] + N - s[i]);
    return g;
}

std::map<std::string, double> static_columns(const std::vector<int64_t> &s, int64_t N, int64_t M, int64_t C,
                                             const Params &P)
{
    std::map<std::string, double> c;
    std::vector<int64_t> g = gaps_of(s, N);
    int64_t D = (int64_t)g.size(), R = 2 * N; // round R is in steady state (after N rounds)
    auto U = [&](int64_t t) { int64_t u = 0; for (int64_t x : g) u += std::min(x, std::max<int64_t>(t, 0)); return u; };
    auto K = [&](int64_t t) { int64_t k = 0; for (int64_t x : g) k += t < 0 || x > t; return k; };
    std::vector<int64_t> t = trace(s, N, 6 * N);
    c["D"] = (double)D;
    if (C < N) {
        int64_t T = 0; // the largest T with U(T) <= C: theta in [T, T + 1)
        while (U(T + 1) <= C)
            T++;
        double theta = (double)T + (double)(C - U(T)) / (double)K(T);
        c["theta"] = theta;
        c["T_star"] = (double)T;
        c["K_ttl"] = (double)ttl_misses(t, M, T, R);
        c["K_lru_lo"] = D <= C ? (double)K(T + 1) : NAN;
        c["K_lru_hi"] = D <= C ? (double)K(T - 1) : NAN;
        int64_t near = 0;
        for (int64_t x : g)
            near += std::fabs((double)x - theta) <= (double)(D + 1) * P.eps;
        c["margin"] = (double)near;
        c["rho_che"] = 1.0 - (double)C / (double)N;
    } else {
        c["theta"] = c["T_star"] = c["margin"] = NAN;
        c["K_ttl"] = c["K_lru_lo"] = c["K_lru_hi"] = c["rho_che"] = 0;
    }
    c["rho_ttl"] = c["K_ttl"] / (double)M;
    c["K_lru"] = (double)lru_misses(t, M, C, R);
    c["rho_lru"] = c["K_lru"] / (double)M;
    // SDCM (eq. 6) over the reuse distances of round R, A ways of B = C lines.
    double sdcm = 0, p = (double)P.assoc / (double)C;
    std::vector<int64_t> deltas;
    for (int64_t m = 0; m < M; m++) {
        int64_t i = R * M + m, rd = pascal_test::naive_rd(t, (size_t)i), prev = i - 1;
        double hit = 0;
        if (P.assoc >= C)
            hit = rd < C;
        else
            for (int64_t a = 0; a < P.assoc; a++)
                hit += std::exp(std::lgamma(rd + 1.0) - std::lgamma(a + 1.0) - std::lgamma(rd - a + 1.0)) *
                       std::pow(p, (double)a) * std::pow(1 - p, (double)(rd - a));
        sdcm += 1 - hit;
        while (t[(size_t)prev] != t[(size_t)i])
            prev--;
        deltas.push_back(i - prev); // Theorem 4's delta, in units of 1/M round
    }
    c["K_sdcm"] = sdcm;
    c["rho_sdcm"] = sdcm / (double)M;
    // Theorem 4: fractional knapsack of the deltas into C M (units 1/M).
    std::sort(deltas.begin(), deltas.end());
    double V = 0, room = (double)(C * M);
    for (int64_t d : deltas) {
        double x = std::min(1.0, room / (double)d);
        V += x;
        room -= x * (double)d;
        if (room <= 0)
            break;
    }
    c["V"] = V;
    c["K_bound"] = std::max(0.0, (double)M - V - (double)N / P.horizon);
    c["rho_bound"] = c["K_bound"] / (double)M;
    c["K_che"] = (double)M * c["rho_che"];
    c["C_share"] = (double)(2 * P.lead - 1); // Theorem 5
    c["shares"] = C >= 2 * P.lead - 1;
    // Theorem 6: P_d(lambda) = max(alpha + beta, (lambda + beta) / (d - 1)).
    double d1 = (double)(P.depth - 1), th = d1 * (P.alpha + P.beta) - P.beta;
    c["P_hit"] = std::max(P.alpha + P.beta, (P.lambda_hit + P.beta) / d1);
    c["P_miss"] = std::max(P.alpha + P.beta, (P.lambda_miss + P.beta) / d1);
    c["G"] = (std::max(P.lambda_miss - th, 0.0) - std::max(P.lambda_hit - th, 0.0)) / d1;
    c["K_lru_replay"] = (double)lru_misses(t, M, C, N); // round N after N warm-up rounds
    c["rho_lru_replay"] = c["K_lru_replay"] / (double)M;
    c["K_belady"] = (double)belady_misses(t, C) / (double)(6 * N); // rounds default to 6 N
    c["rho_belady"] = c["K_belady"] / (double)M;
    return c;
}

const char *kStaticCols[] = {"D", "theta", "T_star", "K_ttl", "rho_ttl", "K_lru_lo", "K_lru_hi", "K_lru",
                             "rho_lru", "K_sdcm", "rho_sdcm", "V", "K_bound", "rho_bound", "rho_che",
                             "K_che", "margin", "C_share", "shares", "P_hit", "P_miss", "G",
                             "K_lru_replay", "rho_lru_replay", "K_belady", "rho_belady"};

struct StaticRow {
    int64_t N, M, list, C;
    int kind;
    uint64_t seed;
    std::vector<int64_t> s;
};

// The rows of static.yaml in canonical order: N, (M, phases), pattern,
// seed, then the capacity axis innermost.
std::vector<StaticRow> static_rows()
{
    const std::vector<std::vector<int64_t>> lists = {{0, 0, 4, 9, 12}, {1, 1, 1, 6, 6, 11, 12, 3}};
    std::vector<StaticRow> rows;
    Params P;
    for (int64_t N : {13, 20})
        for (int64_t z = 0; z < 2; z++)
            for (int kind = 0; kind < 7; kind++)
                for (uint64_t seed : {7ull, 1234567ull})
                    for (int64_t C : {1, 3, 6, 12, 25}) {
                        int64_t M = (int64_t)lists[(size_t)z].size();
                        rows.push_back({N, M, z, C, kind, seed, phases(kind, P, seed, N, M, lists[(size_t)z])});
                    }
    return rows;
}

Table static_reference()
{
    Table t;
    Params P;
    t.cols = {"N", "M", "phases", "pattern", "seed", "C"};
    for (const char *c : kStaticCols)
        t.cols.push_back(c);
    for (const StaticRow &r : static_rows()) {
        std::map<std::string, double> c = static_columns(r.s, r.N, r.M, r.C, P);
        std::vector<std::string> row = {fmt((double)r.N), fmt((double)r.M), fmt((double)r.list),
                                        kPatterns[r.kind], fmt((double)r.seed), fmt((double)r.C)};
        for (const char *k : kStaticCols)
            row.push_back(fmt(c.at(k)));
        t.rows.push_back(row);
    }
    return t;
}

class Golden : public pascal_test::TempDirTest {};

TEST_F(Golden, StaticSweepMatchesTheIndependentReference)
{
    Table ref = static_reference();
    check_or_write(ref, kGolden + "static.csv",
                   "# Expected values of static.yaml, from the independent reference in tests/golden_test.cc.\n");
    pascal_test::CliResult r = run("run " + kGolden + "static.yaml -o " + dir + "/out.csv --quiet");
    ASSERT_EQ(r.status, 0) << r.err;
    compare_tables(ref, parse_csv(slurp(dir + "/out.csv")), "pascal run static.yaml");
}

// `pascal point --json` at every distinct point of the static table.
TEST_F(Golden, PointJsonMatchesTheIndependentReference)
{
    const std::vector<std::vector<int64_t>> lists = {{0, 0, 4, 9, 12}, {1, 1, 1, 6, 6, 11, 12, 3}};
    Params P;
    std::map<std::string, int> seen;
    for (const StaticRow &row : static_rows()) {
        std::string args = "point --json --N " + std::to_string(row.N) + " --C " + std::to_string(row.C) +
                           " --horizon 60";
        if (row.kind == EXPLICIT) {
            std::string l;
            for (int64_t x : lists[(size_t)row.list])
                l += (l.empty() ? "" : ",") + std::to_string(x);
            args += " --phases " + l;
        } else {
            args += " --M " + std::to_string(row.M) + " --pattern " + kPatterns[row.kind];
        }
        if (row.kind == CLUSTERS)
            args += " --clusters 3 --spread 2";
        if (row.kind == GAUSSIAN)
            args += " --sigma 2.5";
        if (row.kind == LAG)
            args += " --lag 3";
        if (row.kind == UNIFORM || row.kind == GAUSSIAN)
            args += " --seed " + std::to_string(row.seed);
        bool sdcm = P.assoc <= row.C; // more ways than lines is refused
        if (sdcm)
            args += " --assoc 2";
        if (seen[args]++)
            continue;
        pascal_test::CliResult r = run(args);
        ASSERT_EQ(r.status, 0) << args << "\n" << r.err;
        std::map<std::string, double> c = static_columns(row.s, row.N, row.M, row.C, P);
        for (const char *k : {"D", "theta", "T_star", "K_ttl", "rho_ttl", "K_lru_lo", "K_lru_hi", "K_lru",
                              "rho_lru", "V", "K_bound", "rho_bound", "rho_che", "K_che", "K_sdcm", "rho_sdcm"}) {
            if (!sdcm && std::string(k).find("sdcm") != std::string::npos)
                continue;
            EXPECT_TRUE(close(json_num(r.out, k), c.at(k))) << args << ": " << k << " = " << json_num(r.out, k)
                                                            << ", reference " << c.at(k);
        }
        std::string gaps;
        for (int64_t g : gaps_of(row.s, row.N))
            gaps += (gaps.empty() ? "" : ", ") + std::to_string(g);
        EXPECT_NE(r.out.find("\"gaps\": [" + gaps + "]"), std::string::npos) << args << "\n" << r.out;
    }
}

// ---- the dynamic model, from the paper's rules ------------------------------

const double kEta = 4, kDynEps = 0.01;

double enc(double L) { return std::log(std::max(std::exp(L) - 1, 0.0) + kDynEps); } // eq. 20
double dec(double a, double M) { return std::min(M, 1 + std::max(std::exp(a) - kDynEps, 0.0)); } // eq. 21
int cls(int64_t m) { return (int)std::min<int64_t>(m % 4, 2); }

struct DKey {
    int64_t o, path, d, m;
    double K;
};

struct DPred {
    int code;
    double a, near_m, near_d;
};

// The nearer of two held values to the query (ties to the smaller).
void hold(double *near, double v, double q)
{
    if (std::isnan(*near) || std::fabs(v - q) < std::fabs(*near - q) ||
        (std::fabs(v - q) == std::fabs(*near - q) && v < *near))
        *near = v;
}

// Rules 0-2 inside one family (keys of one (o, path, d)).
double within(const std::vector<DKey> &fam, int64_t q, int *code, double *near_m)
{
    const DKey *L = nullptr, *R = nullptr, *lo = nullptr, *hi = nullptr;
    for (const DKey &k : fam) {
        if (k.m == q) {
            *code = 1; // a reference key: its own curve
            return enc(std::log(k.K));
        }
        if (k.m < q && (!lo || k.m > lo->m))
            lo = &k;
        if (k.m > q && (!hi || k.m < hi->m))
            hi = &k;
        if (cls(k.m) != cls(q))
            continue;
        if (k.m < q && (!L || k.m > L->m))
            L = &k;
        if (k.m > q && (!R || k.m < R->m))
            R = &k;
    }
    if (!L || !R) { // one side only: the nearest same-class compute
        *code = 2;
        hold(near_m, (double)(L ? L : R)->m, (double)q);
        return enc(std::log((L ? L : R)->K));
    }
    // eq. 24: p linear between the neighbours of any class, blended with
    // the same-class bracket.
    double am = enc(std::log(lo->K)), ap = enc(std::log(hi->K));
    double p = am + (ap - am) * (double)(q - lo->m) / (double)(hi->m - lo->m);
    double c0 = 1.0 / (double)(q - lo->m) + 1.0 / (double)(hi->m - q);
    double dL = (double)(q - L->m), dR = (double)(R->m - q);
    *code = 0;
    return (c0 * p + kEta * enc(std::log(L->K)) / dL + kEta * enc(std::log(R->K)) / dR) /
           (c0 + kEta / dL + kEta / dR);
}

DPred dyn_predict(const std::vector<DKey> &keys, int64_t o, int64_t path, int64_t d, int64_t m)
{
    DPred out = {10, NAN, NAN, NAN};
    std::map<int64_t, std::vector<DKey>> fams; // depth -> keys of (o, path)
    for (const DKey &k : keys)
        if (k.o == o && k.path == path)
            fams[k.d].push_back(k);
    if (fams.empty())
        return out; // rule 10: no reference for (o, path)
    auto has_class = [&](const std::vector<DKey> &f) {
        return std::any_of(f.begin(), f.end(), [&](const DKey &k) { return cls(k.m) == cls(m); });
    };
    const std::vector<DKey> *below = nullptr, *above = nullptr;
    int64_t dlo = 0, dhi = 0;
    for (auto &[fd, f] : fams) {
        if (!has_class(f))
            continue;
        if (fd == d) {
            out.a = within(f, m, &out.code, &out.near_m);
            return out;
        }
        if (fd < d)
            below = &f, dlo = fd;
        else if (!above)
            above = &f, dhi = fd;
    }
    if (!below && !above) {
        out.code = 11; // Prop. 8: the class is unsampled at every depth
        return out;
    }
    int sub;
    if (!below || !above) { // rule 3, one side: held at that depth
        hold(&out.near_d, (double)(below ? dlo : dhi), (double)d);
        out.a = within(below ? *below : *above, m, &sub, &out.near_m);
    } else { // rule 3: linear in d
        double alo = within(*below, m, &sub, &out.near_m), ahi = within(*above, m, &sub, &out.near_m);
        out.a = alo + (ahi - alo) * (double)(d - dlo) / (double)(dhi - dlo);
    }
    out.code = 3;
    return out;
}

// The synthetic references: one K per key (the file repeats it per horizon).
std::vector<DKey> dyn_keys(const Table &refs)
{
    std::vector<DKey> keys;
    for (const auto &r : refs.rows) {
        DKey k = {std::stoll(r[(size_t)refs.col("o")]), r[(size_t)refs.col("path")] == "tma",
                  std::stoll(r[(size_t)refs.col("d")]), std::stoll(r[(size_t)refs.col("m")]),
                  num(r[(size_t)refs.col("K")])};
        auto same = std::find_if(keys.begin(), keys.end(), [&](const DKey &e) {
            return e.o == k.o && e.path == k.path && e.d == k.d && e.m == k.m;
        });
        if (same == keys.end())
            keys.push_back(k);
        else
            EXPECT_EQ(same->K, k.K) << "the golden references hold K constant per key";
    }
    return keys;
}

// The band's log radius: the 0.9 quantile (linear between order statistics)
// of |log(K / K_hat)| over the scored runs (W > 1) of every key, each
// predicted from the other keys only.
double band_radius(const std::vector<DKey> &keys, const Table &refs)
{
    std::vector<double> res;
    for (const auto &r : refs.rows) {
        if (num(r[(size_t)refs.col("W")]) <= 1)
            continue;
        DKey z = dyn_keys({refs.cols, {r}})[0];
        std::vector<DKey> rest;
        for (const DKey &k : keys)
            if (!(k.o == z.o && k.path == z.path && k.d == z.d && k.m == z.m))
                rest.push_back(k);
        DPred p = dyn_predict(rest, z.o, z.path, z.d, z.m);
        if (p.code < 10)
            res.push_back(std::fabs(std::log(z.K / dec(p.a, 4.0 * (double)z.o))));
    }
    std::sort(res.begin(), res.end());
    double h = (double)(res.size() - 1) * 0.9;
    size_t lo = (size_t)std::floor(h);
    return lo + 1 < res.size() ? res[lo] + (h - (double)lo) * (res[lo + 1] - res[lo]) : res[lo];
}

const char *kDynCols[] = {"K_dyn", "rho_dyn", "band_lo", "band_hi", "fallback", "clamp_x", "clamp_compute",
                          "clamp_depth"};

struct DynRow {
    int64_t o, path, d, m;
    double W;
};

// The rows of dynamic.yaml in canonical order: occupancy, path, compute, W,
// then depth innermost (capacity-like); `where` keeps tma, or depth 2.
std::vector<DynRow> dyn_rows()
{
    std::vector<DynRow> rows;
    for (int64_t o : {1, 2})
        for (int64_t path : {0, 1})
            for (int64_t m : {0, 1, 2, 4, 5, 8, 9, 12})
                for (double W : {0.5, 8.0, 32.0})
                    for (int64_t d : {2, 3, 4, 6, 8})
                        if (path == 1 || d == 2)
                            rows.push_back({o, path, d, m, W});
    return rows;
}

std::map<std::string, double> dyn_columns(const std::vector<DKey> &keys, double r, const DynRow &q)
{
    // sync has no prefetch pipeline: its key has d = 0 whatever depth says.
    DPred p = dyn_predict(keys, q.o, q.path, q.path ? q.d : 0, q.m);
    double M = 4.0 * (double)q.o; // sms 4
    std::map<std::string, double> c;
    c["fallback"] = p.code;
    if (p.code >= 10) {
        c["K_dyn"] = c["rho_dyn"] = c["band_lo"] = c["band_hi"] = NAN;
        c["clamp_x"] = c["clamp_compute"] = c["clamp_depth"] = NAN;
        return c;
    }
    double K = dec(p.a, M);
    c["K_dyn"] = K;
    c["rho_dyn"] = K / M;
    c["band_lo"] = K * std::exp(-r) / M;
    c["band_hi"] = std::min(M, K * std::exp(r)) / M;
    // Every reference key spans x = W N / 4096 = 1..16 (N = 4096).
    c["clamp_x"] = q.W < 1 ? 1 : q.W > 16 ? 16 : NAN;
    c["clamp_compute"] = p.near_m;
    c["clamp_depth"] = p.near_d;
    return c;
}

TEST_F(Golden, DynamicSweepMatchesTheIndependentReference)
{
    Table refs = parse_csv(slurp(kGolden + "dynamic-refs.csv"));
    std::vector<DKey> keys = dyn_keys(refs);
    ASSERT_EQ(keys.size(), 9u);
    double r = band_radius(keys, refs);
    Table ref;
    ref.cols = {"occupancy", "path", "compute", "W", "depth"};
    for (const char *c : kDynCols)
        ref.cols.push_back(c);
    for (const DynRow &q : dyn_rows()) {
        std::map<std::string, double> c = dyn_columns(keys, r, q);
        std::vector<std::string> row = {fmt((double)q.o), q.path ? "tma" : "sync", fmt((double)q.m), fmt(q.W),
                                        fmt((double)q.d)};
        for (const char *k : kDynCols)
            row.push_back(fmt(c.at(k)));
        ref.rows.push_back(row);
    }
    check_or_write(ref, kGolden + "dynamic.csv",
                   "# Expected values of dynamic.yaml, from the independent reference in tests/golden_test.cc.\n");
    // Calibrate the synthetic references beside a copy of the spec.
    write("dynamic.yaml", slurp(kGolden + "dynamic.yaml"));
    pascal_test::CliResult c = run("calibrate " + kGolden + "dynamic-refs.csv --sms 4 --C 100 -o " + dir +
                                   "/model.h5");
    ASSERT_EQ(c.status, 0) << c.err;
    c = run("run " + dir + "/dynamic.yaml -o " + dir + "/out.csv --quiet");
    ASSERT_EQ(c.status, 0) << c.err;
    compare_tables(ref, parse_csv(slurp(dir + "/out.csv")), "pascal run dynamic.yaml");
    // pascal predict --json (a process each): every configuration of
    // occupancy 1 inside the horizons, the held horizons at the ends of the
    // compute axis, and an unsupported occupancy.
    std::map<std::string, int> seen;
    const char *names[] = {"none", "reference", "compute", "depth"};
    for (const DynRow &q : dyn_rows()) {
        if (!(q.o == 1 ? q.W == 8 || q.m == 0 || q.m == 12 : q.W == 8 && q.m == 0))
            continue;
        std::string args = "predict --json --model " + dir + "/model.h5 --o " + std::to_string(q.o) + " --path " +
                           (q.path ? "tma --d " + std::to_string(q.d) : std::string("sync")) + " --m " +
                           std::to_string(q.m) + " --N 4096 --W " + fmt(q.W);
        if (seen[args]++)
            continue;
        pascal_test::CliResult p = run(args);
        ASSERT_EQ(p.status, 0) << args << "\n" << p.err;
        std::map<std::string, double> want = dyn_columns(keys, r, q);
        EXPECT_TRUE(close(json_num(p.out, "K"), want["K_dyn"])) << args << "\n" << p.out;
        EXPECT_TRUE(close(json_num(p.out, "rho"), want["rho_dyn"])) << args << "\n" << p.out;
        EXPECT_TRUE(close(json_num(p.out, "band_lo"), want["band_lo"])) << args << "\n" << p.out;
        EXPECT_TRUE(close(json_num(p.out, "band_hi"), want["band_hi"])) << args << "\n" << p.out;
        EXPECT_TRUE(close(json_num(p.out, "clamp_x"), want["clamp_x"])) << args << "\n" << p.out;
        EXPECT_TRUE(close(json_num(p.out, "clamp_compute"), want["clamp_compute"])) << args << "\n" << p.out;
        EXPECT_TRUE(close(json_num(p.out, "clamp_depth"), want["clamp_depth"])) << args << "\n" << p.out;
        int code = (int)want["fallback"];
        std::string name = code < 4 ? names[code] : code == 10 ? "family" : "class";
        EXPECT_EQ(json_str(p.out, "fallback"), "\"" + name + "\"") << args;
    }
}

} // namespace
