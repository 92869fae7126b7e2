// Golden sweep tables (tests/data/golden): a small sweep over every static
// model and every phase pattern, whose expected values come from an
// independent reference written here, not from pascal:
//   - phases from the patterns' documented definitions (model/phases.h), the
//     random ones from the generator's definition there and the stream key's
//     definition in engine/eval.h, with SplitMix64's published first outputs
//     pinning the finaliser;
//   - every static column by brute force on the request trace: LRU, TTL and
//     Belady caches that hold blocks, reuse distances and residency intervals
//     read off the trace, or the defining sums of the paper's closed forms.
// The dynamic model's tables are in tests/golden_dynamic_test.cc.  Each test
// recomputes its table and requires the checked-in file to match (so the
// file cannot drift from its source), then checks pascal against it column
// by column through `pascal run` and `pascal point --json`.
// PASCAL_GOLDEN_WRITE=1 rewrites the files from the reference.
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

#include "golden_util.h"
#include "test_util.h"

namespace {

using golden::check_or_write;
using golden::close;
using golden::compare_tables;
using golden::fmt;
using golden::kGolden;
using golden::num;
using golden::parse_csv;
using golden::Table;
using pascal_test::json_num;
using pascal_test::json_str;
using pascal_test::slurp;

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


} // namespace
