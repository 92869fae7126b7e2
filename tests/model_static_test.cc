// Tests for model/static.h: every closed form is checked against an
// independent brute force written here — the actual request trace replayed
// through a fully associative LRU cache, a slotted TTL cache and Belady, and
// reuse distances read straight off the trace — on exhaustive tiny cases and
// thousands of seeded random small ones.  Nothing is compared against values
// copied from the implementation's own output.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "model/phases.h"
#include "model/static.h"

namespace {

using Vec = std::vector<int64_t>;

constexpr double kExact = 1e-12;       // values that are exact small integers
constexpr double kThetaTol = 1e-9;     // U(theta) = C in double arithmetic
constexpr double kBoundSlack = 1e-9;   // K_bound vs replayed integer misses
constexpr unsigned kAll = PASCAL_STATIC_RD | PASCAL_STATIC_DELTA;

struct WsDeleter {
    void operator()(pascal_static *ws) const { pascal_static_free(ws); }
};
using Ws = std::unique_ptr<pascal_static, WsDeleter>;

Ws make_ws(int64_t max_M)
{
    Ws ws(pascal_static_create(max_M));
    EXPECT_NE(ws.get(), nullptr);
    return ws;
}

int64_t mod(int64_t a, int64_t n) { return ((a % n) + n) % n; }

// ---- brute force ---------------------------------------------------------

// Request t = r M + m reads block (r + s_m) mod N.
Vec make_trace(const Vec &s, int64_t N, int64_t rounds)
{
    int64_t M = (int64_t)s.size();
    Vec t((size_t)(rounds * M));
    for (int64_t r = 0; r < rounds; r++)
        for (int64_t m = 0; m < M; m++)
            t[(size_t)(r * M + m)] = mod(r + s[(size_t)m], N);
    return t;
}

// Distinct blocks strictly between request t and the previous request to the
// same block, read off the trace (-1 if there is none).
int64_t trace_rd(const Vec &trace, int64_t t, int64_t N)
{
    std::vector<char> seen((size_t)N, 0);
    int64_t distinct = 0;
    for (int64_t u = t - 1; u >= 0; u--) {
        int64_t b = trace[(size_t)u];
        if (b == trace[(size_t)t])
            return distinct;
        if (!seen[(size_t)b]) {
            seen[(size_t)b] = 1;
            distinct++;
        }
    }
    return -1;
}

// Fully associative LRU of C blocks from empty; misses[r] per round.
Vec replay_lru(const Vec &trace, int64_t M, int64_t N, int64_t C)
{
    std::vector<int64_t> last((size_t)N, -1);  // last use, -1: not resident
    int64_t resident = 0, rounds = (int64_t)trace.size() / M;
    Vec misses((size_t)rounds, 0);
    for (int64_t t = 0; t < (int64_t)trace.size(); t++) {
        int64_t b = trace[(size_t)t];
        if (last[(size_t)b] < 0) {
            misses[(size_t)(t / M)]++;
            if (resident == C) {
                int64_t victim = -1;
                for (int64_t x = 0; x < N; x++)
                    if (last[(size_t)x] >= 0 &&
                        (victim < 0 || last[(size_t)x] < last[(size_t)victim]))
                        victim = x;
                last[(size_t)victim] = -1;
            } else {
                resident++;
            }
        }
        last[(size_t)b] = t;
    }
    return misses;
}

// Slotted TTL / working set with window T: at a round boundary the cache
// holds the blocks referenced in the last T complete rounds; duplicates in the
// current round share one fill.  misses[r] per round; occupancy[r] at the
// boundary before round r.
void replay_ttl(const Vec &trace, int64_t M, int64_t N, int64_t T, Vec *misses,
                Vec *occupancy)
{
    int64_t rounds = (int64_t)trace.size() / M;
    std::vector<int64_t> last_round((size_t)N, INT64_MIN / 2);
    misses->assign((size_t)rounds, 0);
    occupancy->assign((size_t)rounds, 0);
    for (int64_t r = 0; r < rounds; r++) {
        for (int64_t b = 0; b < N; b++)
            (*occupancy)[(size_t)r] += last_round[(size_t)b] >= r - T;
        for (int64_t m = 0; m < M; m++) {
            int64_t b = trace[(size_t)(r * M + m)];
            bool held = last_round[(size_t)b] >= r - T;  // includes == r
            if (!held)
                (*misses)[(size_t)r]++;
            last_round[(size_t)b] = r;
        }
    }
}

// Belady (evict the block whose next use is farthest) from empty; total
// misses over the whole trace.
int64_t replay_belady(const Vec &trace, int64_t N, int64_t C)
{
    int64_t L = (int64_t)trace.size();
    Vec next((size_t)L), upcoming((size_t)N, INT64_MAX);
    for (int64_t t = L - 1; t >= 0; t--) {
        next[(size_t)t] = upcoming[(size_t)trace[(size_t)t]];
        upcoming[(size_t)trace[(size_t)t]] = t;
    }
    std::vector<int64_t> nextuse((size_t)N, -1);  // -1: not resident
    int64_t resident = 0, misses = 0;
    for (int64_t t = 0; t < L; t++) {
        int64_t b = trace[(size_t)t];
        if (nextuse[(size_t)b] < 0) {
            misses++;
            if (resident == C) {
                int64_t victim = -1;
                for (int64_t x = 0; x < N; x++)
                    if (nextuse[(size_t)x] >= 0 &&
                        (victim < 0 ||
                         nextuse[(size_t)x] > nextuse[(size_t)victim]))
                        victim = x;
                nextuse[(size_t)victim] = -1;
            } else {
                resident++;
            }
        }
        nextuse[(size_t)b] = next[(size_t)t];
    }
    return misses;
}

// The previous request to worker m's round-0 block straight from the
// definition: maximise the time -g_j M + j over j (section 3.4).
void brute_prev(const Vec &s, int64_t N, int64_t m, int64_t *p, int64_t *g)
{
    int64_t M = (int64_t)s.size(), best = INT64_MIN;
    for (int64_t j = 0; j < M; j++) {
        int64_t lag = mod(s[(size_t)j] - s[(size_t)m], N);
        if (lag == 0 && j >= m)
            lag = N;
        if (-lag * M + j > best) {
            best = -lag * M + j;
            *p = j;
            *g = lag;
        }
    }
}

// Eq. 15 directly: the union of every worker's cyclic arc of intervening
// requests, merged as ordinary intervals.
int64_t brute_rd_arcs(const Vec &s, int64_t N, int64_t m)
{
    int64_t M = (int64_t)s.size(), p = 0, g = 0;
    brute_prev(s, N, m, &p, &g);
    std::vector<std::pair<int64_t, int64_t>> iv;
    for (int64_t i = 0; i < M; i++) {
        int64_t a = s[(size_t)i] - g + (i <= p), b = s[(size_t)i] - (i >= m);
        int64_t len = b - a + 1;
        if (len <= 0)
            continue;
        if (len >= N)
            return N;
        int64_t st = mod(a, N);
        if (st + len <= N) {
            iv.push_back({st, st + len - 1});
        } else {
            iv.push_back({st, N - 1});
            iv.push_back({0, st + len - 1 - N});
        }
    }
    std::sort(iv.begin(), iv.end());
    int64_t covered = 0, cur_lo = -1, cur_hi = -2;
    for (auto &x : iv) {
        if (x.first > cur_hi + 1) {
            covered += cur_hi - cur_lo + 1;
            cur_lo = x.first;
            cur_hi = x.second;
        } else {
            cur_hi = std::max(cur_hi, x.second);
        }
    }
    return covered + cur_hi - cur_lo + 1;
}

Vec brute_gaps_sorted(const Vec &s, int64_t N)
{
    std::set<int64_t> ys(s.begin(), s.end());
    Vec y(ys.begin(), ys.end()), g;
    for (size_t i = 0; i < y.size(); i++)
        g.push_back(i + 1 < y.size() ? y[i + 1] - y[i] : y[0] + N - y[i]);
    std::sort(g.begin(), g.end());
    return g;
}

// Random small phase vector: uniform, a few shared values, or a single phase.
Vec random_phases(std::mt19937_64 &rng, int64_t N, int64_t M)
{
    Vec s((size_t)M);
    std::uniform_int_distribution<int64_t> pos(0, N - 1);
    int mode = (int)(rng() % 4);
    Vec pool;
    int64_t distinct = 1 + (int64_t)(rng() % (uint64_t)std::max<int64_t>(1, M / 2));
    for (int64_t i = 0; i < distinct; i++)
        pool.push_back(pos(rng));
    for (auto &x : s) {
        if (mode == 0 || mode == 3)
            x = pos(rng);
        else if (mode == 1)
            x = pool[rng() % pool.size()];
        else
            x = pool[0];
    }
    return s;
}

// ---- the per-case check ---------------------------------------------------

struct CheckOptions {
    bool belady = false;
};

int64_t count_above(const Vec &gs, double t)
{
    return (int64_t)std::count_if(gs.begin(), gs.end(),
                                  [&](int64_t g) { return g > t; });
}

// Capacity C < N: water-filling, Theorem 2 by TTL replay, Theorem 3 against
// the exact LRU count, Proposition 7 against the sorted gaps.
void check_window(const pascal_static *ws, const Vec &trace, int64_t M,
                  int64_t N, int64_t C, const Vec &gs, double k_lru)
{
    int64_t D = (int64_t)gs.size();
    double lo = 0, hi = 0;
    pascal_static_lru_band(ws, C, &lo, &hi);
    // Eq. 3: theta solves sum_i min(g_i, theta) = C; T* = floor(theta).
    double theta = pascal_static_theta(ws, C);
    int64_t T = pascal_static_tstar(ws, C);
    double u = 0;
    for (int64_t g : gs)
        u += std::min((double)g, theta);
    ASSERT_NEAR(u, (double)C, kThetaTol * (double)C);
    ASSERT_EQ(T, (int64_t)std::floor(theta));
    ASSERT_LE(pascal_static_U(ws, T), C);
    ASSERT_GT(pascal_static_U(ws, T + 1), C);

    // Theorem 2: the T*-window slotted TTL misses K(T*) in every round and
    // holds U(T*) <= C blocks at every boundary.
    int64_t k_ttl = pascal_static_k_ttl(ws, C);
    ASSERT_EQ(k_ttl, count_above(gs, (double)T));
    Vec miss, occ;
    replay_ttl(trace, M, N, T, &miss, &occ);
    for (int64_t r = 2 * N; r < 3 * N; r++) {
        ASSERT_EQ(miss[(size_t)r], k_ttl) << "round " << r;
        ASSERT_EQ(occ[(size_t)r], pascal_static_U(ws, T)) << "round " << r;
        ASSERT_LE(occ[(size_t)r], C);
    }

    // Theorem 3 where D <= C; NaN otherwise.
    if (D <= C) {
        ASSERT_EQ(lo, (double)count_above(gs, (double)(T + 1)));
        ASSERT_EQ(hi, (double)count_above(gs, (double)(T - 1)));
        ASSERT_LE(lo, k_lru);
        ASSERT_LE(k_lru, hi);
    } else {
        ASSERT_TRUE(std::isnan(lo));
        ASSERT_TRUE(std::isnan(hi));
    }

    // Proposition 7 margin.
    for (double eps : {0.0, 0.37, 2.385}) {
        double w = (double)(D + 1) * eps;
        int64_t want = (int64_t)std::count_if(gs.begin(), gs.end(), [&](int64_t g) {
            return std::fabs((double)g - theta) <= w;
        });
        ASSERT_EQ(pascal_static_margin(ws, C, eps), (double)want) << eps;
    }
}

// One capacity of one phase vector: exact LRU and SDCM-FA by replay,
// Theorem 4 against LRU (and Belady), then the window laws.
void check_capacity(const pascal_static *ws, const Vec &trace, int64_t M,
                    int64_t N, int64_t C, const Vec &gs, const CheckOptions &opt)
{
    // Exact LRU: every steady-state round misses exactly K_lru times.
    Vec lru = replay_lru(trace, M, N, C);
    double k_lru = pascal_static_k_lru(ws, C);
    for (int64_t r = 2 * N; r < 3 * N; r++)
        ASSERT_EQ((double)lru[(size_t)r], k_lru) << "round " << r;
    // SDCM's fully associative limit (A >= B) is exact LRU with B = C.
    ASSERT_NEAR(pascal_static_k_sdcm(ws, C, C), k_lru, kExact);
    ASSERT_NEAR(pascal_static_k_sdcm(ws, C + 3, C), k_lru, kExact);
    // Theorem 4: LRU cannot beat the residency bound in the long run.
    ASSERT_LE(pascal_static_k_bound(ws, C, 0.0), k_lru + kBoundSlack);
    if (opt.belady) {
        double H = (double)trace.size() / (double)M;
        double belady = (double)replay_belady(trace, N, C) / H;
        ASSERT_LE(pascal_static_k_bound(ws, C, H), belady + kBoundSlack);
    }

    if (C >= N) {
        double lo = 0, hi = 0;
        pascal_static_lru_band(ws, C, &lo, &hi);
        ASSERT_EQ(pascal_static_k_ttl(ws, C), 0);
        ASSERT_EQ(k_lru, 0.0);
        ASSERT_EQ(lo, 0.0);
        ASSERT_EQ(hi, 0.0);
        ASSERT_TRUE(std::isnan(pascal_static_theta(ws, C)));
        ASSERT_EQ(pascal_static_tstar(ws, C), -1);
        ASSERT_EQ(pascal_static_residency(ws, C), (double)M);
        ASSERT_EQ(pascal_static_k_bound(ws, C, 0.0), 0.0);
        ASSERT_TRUE(std::isnan(pascal_static_margin(ws, C, 0.5)));
        return;
    }

    check_window(ws, trace, M, N, C, gs, k_lru);
}

// Checks one phase vector at every capacity 1..N+2 against trace replay.
void check_case(pascal_static *ws, const Vec &s, int64_t N,
                const CheckOptions &opt)
{
    int64_t M = (int64_t)s.size();
    ASSERT_EQ(pascal_static_prepare(ws, s.data(), M, N, kAll), 0);
    int64_t D = pascal_static_D(ws);
    Vec gs = brute_gaps_sorted(s, N);
    ASSERT_EQ(D, (int64_t)gs.size());
    ASSERT_EQ(pascal_static_N(ws), N);
    ASSERT_EQ(pascal_static_M(ws), M);

    // Three periods: two warm up (every block seen), the third is measured.
    Vec trace = make_trace(s, N, 3 * N);

    // Lemma 1: U(t) = distinct blocks in t consecutive rounds; K(t) from gaps.
    std::vector<char> seen((size_t)N, 0);
    int64_t distinct = 0;
    for (int64_t t = 0; t <= N + 1; t++) {
        ASSERT_EQ(pascal_static_U(ws, t), distinct) << "t=" << t;
        ASSERT_EQ(pascal_static_K(ws, t),
                  (int64_t)std::count_if(gs.begin(), gs.end(),
                                         [&](int64_t g) { return g > t; }));
        for (int64_t m = 0; m < M && N + t < 3 * N; m++) {
            int64_t b = trace[(size_t)((N + t) * M + m)];
            distinct += !seen[(size_t)b];
            seen[(size_t)b] = 1;
        }
    }
    ASSERT_EQ(pascal_static_K(ws, -1), D);
    ASSERT_EQ(pascal_static_U(ws, -3), 0);

    // Eq. 15 reuse distances equal the trace's; Theorem 4 intervals equal
    // the definition and sum to N M.
    const int64_t *rd = pascal_static_rd(ws);
    const int64_t *dn = pascal_static_delta_num(ws);
    ASSERT_NE(rd, nullptr);
    ASSERT_NE(dn, nullptr);
    int64_t dsum = 0;
    for (int64_t m = 0; m < M; m++) {
        ASSERT_EQ(rd[m], trace_rd(trace, 2 * N * M + m, N)) << "worker " << m;
        int64_t p = 0, g = 0;
        brute_prev(s, N, m, &p, &g);
        ASSERT_EQ(dn[m], g * M + m - p) << "worker " << m;
        dsum += dn[m];
    }
    ASSERT_EQ(dsum, N * M);

    for (int64_t C = 1; C <= N + 2; C++) {
        SCOPED_TRACE(::testing::Message() << "C=" << C);
        check_capacity(ws, trace, M, N, C, gs, opt);
        if (::testing::Test::HasFatalFailure())
            return;
    }
}

std::string describe(const Vec &s, int64_t N)
{
    std::string d = "N=" + std::to_string(N) + " phases=";
    for (int64_t x : s)
        d += std::to_string(x) + ",";
    return d;
}

Vec phases_of(const pascal_pattern &pat, int64_t N, int64_t M)
{
    Vec s((size_t)M);
    EXPECT_EQ(pascal_phases_generate(&pat, N, M, s.data()), 0);
    return s;
}

}  // namespace

// ---- replay against brute force ------------------------------------------

// Like the paper's exhaustive check: every phase vector for N <= 6, M <= 3.
TEST(ModelStatic, ExhaustiveTinyCasesMatchReplay)
{
    Ws ws = make_ws(3);
    CheckOptions opt;
    opt.belady = true;
    for (int64_t N = 1; N <= 6; N++)
        for (int64_t M = 1; M <= 3; M++) {
            int64_t total = 1;
            for (int64_t i = 0; i < M; i++)
                total *= N;
            for (int64_t code = 0; code < total; code++) {
                Vec s((size_t)M);
                for (int64_t i = 0, c = code; i < M; i++, c /= N)
                    s[(size_t)i] = c % N;
                SCOPED_TRACE(describe(s, N));
                check_case(ws.get(), s, N, opt);
                if (HasFatalFailure())
                    return;
            }
        }
}

// Seeded random small cases, one workspace reused across all of them.
TEST(ModelStatic, RandomCasesMatchReplay)
{
    constexpr int kCases = 2000;
    std::mt19937_64 rng(0x5eed2385);
    Ws ws = make_ws(8);
    for (int i = 0; i < kCases; i++) {
        int64_t N = 1 + (int64_t)(rng() % 40), M = 1 + (int64_t)(rng() % 8);
        Vec s = random_phases(rng, N, M);
        CheckOptions opt;
        opt.belady = i % 8 == 0;
        SCOPED_TRACE(describe(s, N));
        check_case(ws.get(), s, N, opt);
        if (HasFatalFailure())
            return;
    }
}

// Larger vectors (too big to replay) against eq. 15 evaluated directly: each
// worker's arc of intervening requests, merged as plain intervals.
TEST(ModelStatic, LargeCasesMatchDirectArcUnion)
{
    constexpr int kCases = 60;
    std::mt19937_64 rng(0xa4c5);
    Ws ws = make_ws(160);
    for (int i = 0; i < kCases; i++) {
        int64_t M = 20 + (int64_t)(rng() % 141), N = 150 + (int64_t)(rng() % 5000);
        pascal_pattern pat{};
        switch (i % 4) {
        case 0: pat.kind = PASCAL_PATTERN_UNIFORM; break;
        case 1: pat.kind = PASCAL_PATTERN_CLUSTERS;
                pat.clusters = 1 + (int64_t)(rng() % 12);
                pat.spread = (int64_t)(rng() % 40); break;
        case 2: pat.kind = PASCAL_PATTERN_GAUSSIAN; pat.sigma = 3.7; break;
        default: pat.kind = PASCAL_PATTERN_EQUAL; break;
        }
        pat.seed = rng();
        pat.key = (uint64_t)i;
        Vec s = phases_of(pat, N, M);
        SCOPED_TRACE(describe(s, N));
        ASSERT_EQ(pascal_static_prepare(ws.get(), s.data(), M, N, kAll), 0);
        const int64_t *rd = pascal_static_rd(ws.get());
        const int64_t *dn = pascal_static_delta_num(ws.get());
        Vec want((size_t)M);
        int64_t dsum = 0;
        for (int64_t m = 0; m < M; m++) {
            want[(size_t)m] = brute_rd_arcs(s, N, m);
            ASSERT_EQ(rd[m], want[(size_t)m]) << "worker " << m;
            int64_t p = 0, g = 0;
            brute_prev(s, N, m, &p, &g);
            ASSERT_EQ(dn[m], g * M + m - p);
            dsum += dn[m];
        }
        ASSERT_EQ(dsum, N * M);
        for (int64_t C : {(int64_t)1, N / 7, N / 3, N - 1, N}) {
            int64_t k = (int64_t)std::count_if(want.begin(), want.end(),
                                               [&](int64_t r) { return r >= C; });
            ASSERT_EQ(pascal_static_k_lru(ws.get(), C), (double)k) << C;
        }
    }
}

// ---- paper facts ---------------------------------------------------------

// Section 3.2: coincident phases miss once per round, whatever C < N.
TEST(ModelStatic, SinglePhaseMissesOncePerRound)
{
    Ws ws = make_ws(48);
    for (int64_t N : {2, 7, 8192})
        for (int64_t M : {1, 5, 48}) {
            Vec s((size_t)M, N / 3);
            ASSERT_EQ(pascal_static_prepare(ws.get(), s.data(), M, N, kAll), 0);
            ASSERT_EQ(pascal_static_D(ws.get()), 1);
            ASSERT_EQ(pascal_static_gaps(ws.get())[0], N);
            for (int64_t C = 1; C < N; C += 1 + C / 3) {
                ASSERT_EQ(pascal_static_k_ttl(ws.get(), C), 1) << N << " " << C;
                ASSERT_EQ(pascal_static_k_lru(ws.get(), C), 1.0);
            }
        }
}

// Section 3.2: if every gap exceeds C / D then theta = C / D and K = D.
TEST(ModelStatic, AllGapsAboveShareGiveDMisses)
{
    std::mt19937_64 rng(77);
    Ws ws = make_ws(64);
    for (int i = 0; i < 200; i++) {
        int64_t N = 100 + (int64_t)(rng() % 9000), M = 2 + (int64_t)(rng() % 60);
        Vec s((size_t)M);
        for (auto &x : s)
            x = (int64_t)(rng() % (uint64_t)N);
        ASSERT_EQ(pascal_static_prepare(ws.get(), s.data(), M, N, 0), 0);
        int64_t D = pascal_static_D(ws.get());
        const int64_t *g = pascal_static_gaps(ws.get());
        int64_t gmin = *std::min_element(g, g + D);
        int64_t C = std::min(D * gmin - 1, N - 1);   // C / D < every gap
        if (C < 1)
            continue;
        ASSERT_NEAR(pascal_static_theta(ws.get(), C), (double)C / (double)D,
                    kThetaTol);
        ASSERT_EQ(pascal_static_k_ttl(ws.get(), C), D);
    }
}

// Section 5 cluster sweep: k equally spaced clusters at N = 8192, C = 1280,
// M = 48 give K = k.
TEST(ModelStatic, EquallySpacedClustersGiveK)
{
    constexpr int64_t N = 8192, C = 1280, M = 48;
    Ws ws = make_ws(M);
    for (int64_t k : {1, 2, 3, 4, 6, 8, 12, 16, 24, 48}) {
        pascal_pattern pat{};
        pat.kind = PASCAL_PATTERN_CLUSTERS;
        pat.clusters = k;
        Vec s = phases_of(pat, N, M);
        ASSERT_EQ(pascal_static_prepare(ws.get(), s.data(), M, N, kAll), 0);
        ASSERT_EQ(pascal_static_D(ws.get()), k);
        ASSERT_EQ(pascal_static_k_ttl(ws.get(), C), k) << k;
        ASSERT_EQ(pascal_static_k_lru(ws.get(), C), (double)k) << k;
    }
}

// ---- SDCM ----------------------------------------------------------------

TEST(ModelStatic, SdcmMatchesDirectBinomialSum)
{
    constexpr double kTol = 1e-12;
    for (int64_t B : {2, 5, 16, 37})
        for (int64_t A = 1; A < B; A += 1 + A / 2)
            for (int64_t R = 0; R <= 60; R++) {
                // Pascal's triangle for binom(R, a), exact in double here.
                std::vector<double> row(1, 1.0);
                for (int64_t r = 1; r <= R; r++) {
                    std::vector<double> nxt((size_t)r + 1, 1.0);
                    for (int64_t a = 1; a < r; a++)
                        nxt[(size_t)a] = row[(size_t)a - 1] + row[(size_t)a];
                    row = nxt;
                }
                double p = (double)A / (double)B, want = 0;
                for (int64_t a = 0; a < A && a <= R; a++)
                    want += row[(size_t)a] * std::pow(p, (double)a) *
                            std::pow(1 - p, (double)(R - a));
                ASSERT_NEAR(pascal_sdcm_hit_probability(R, A, B), want, kTol)
                    << R << " " << A << " " << B;
            }
}

TEST(ModelStatic, SdcmIsRobustForLargeDistances)
{
    constexpr double kRel = 1e-9, kAbs = 1e-300;
    for (int64_t R : {1000, 65536, 1000000})
        for (int64_t A : {1, 16, 64})
            for (int64_t B : {A + 1, (int64_t)1280, (int64_t)16384, (int64_t)1000000,
                              (int64_t)40000000}) {
                double got = pascal_sdcm_hit_probability(R, A, B);
                ASSERT_TRUE(std::isfinite(got));
                ASSERT_GE(got, 0.0);
                ASSERT_LE(got, 1.0);
                // Independent: each term through lgammal in long double.
                long double p = (long double)A / B, want = 0;
                for (int64_t a = 0; a < A; a++)
                    want += std::exp(std::lgamma((long double)R + 1) -
                                     std::lgamma((long double)a + 1) -
                                     std::lgamma((long double)(R - a) + 1) +
                                     a * std::log(p) + (R - a) * std::log1p(-p));
                ASSERT_NEAR(got, (double)want, kRel * (double)want + kAbs)
                    << R << " " << A << " " << B;
            }
    ASSERT_EQ(pascal_sdcm_hit_probability(5, 8, 8), 1.0);
    ASSERT_EQ(pascal_sdcm_hit_probability(8, 8, 8), 0.0);
    ASSERT_EQ(pascal_sdcm_hit_probability(3, 4, 100), 1.0);
    ASSERT_TRUE(std::isnan(pascal_sdcm_hit_probability(3, 0, 100)));
    ASSERT_TRUE(std::isnan(pascal_sdcm_hit_probability(3, 4, 0)));
}

// Expected set-associative misses equal the sum of 1 - P(hit | RD) over the
// trace-derived reuse distances.
TEST(ModelStatic, SdcmMissesSumOverTraceDistances)
{
    constexpr double kTol = 1e-9;
    std::mt19937_64 rng(4242);
    Ws ws = make_ws(8);
    for (int i = 0; i < 100; i++) {
        int64_t N = 2 + (int64_t)(rng() % 38), M = 1 + (int64_t)(rng() % 8);
        Vec s = random_phases(rng, N, M);
        ASSERT_EQ(pascal_static_prepare(ws.get(), s.data(), M, N,
                                        PASCAL_STATIC_RD), 0);
        Vec trace = make_trace(s, N, 2 * N);
        int64_t A = 1 + (int64_t)(rng() % 4), B = A + 1 + (int64_t)(rng() % 30);
        double want = 0;
        for (int64_t m = 0; m < M; m++)
            want += 1 - pascal_sdcm_hit_probability(trace_rd(trace, N * M + m, N),
                                                    A, B);
        ASSERT_NEAR(pascal_static_k_sdcm(ws.get(), A, B), want, kTol);
    }
}

// ---- contract edges -------------------------------------------------------

TEST(ModelStatic, RejectsBadInputAndFlagsMissingParts)
{
    ASSERT_EQ(pascal_static_create(0), nullptr);
    Ws ws = make_ws(4);
    Vec ok = {0, 3, 3, 1}, bad = {0, 5, 1, 2};
    ASSERT_EQ(pascal_static_prepare(ws.get(), ok.data(), 5, 6, kAll), -1);
    ASSERT_EQ(pascal_static_prepare(ws.get(), ok.data(), 0, 6, kAll), -1);
    ASSERT_EQ(pascal_static_prepare(ws.get(), ok.data(), 4, 0, kAll), -1);
    ASSERT_EQ(pascal_static_prepare(ws.get(), bad.data(), 4, 5, kAll), -1);
    ASSERT_EQ(pascal_static_prepare(ws.get(), nullptr, 4, 5, kAll), -1);
    ASSERT_EQ(pascal_static_prepare(ws.get(), ok.data(), 4, INT64_MAX / 3, kAll),
              -1);   // N M must fit in int64
    ASSERT_EQ(pascal_static_rd(ws.get()), nullptr);
    ASSERT_TRUE(std::isnan(pascal_static_k_lru(ws.get(), 2)));

    ASSERT_EQ(pascal_static_prepare(ws.get(), ok.data(), 4, 6, 0), 0);
    ASSERT_EQ(pascal_static_rd(ws.get()), nullptr);
    ASSERT_EQ(pascal_static_delta_num(ws.get()), nullptr);
    ASSERT_TRUE(std::isnan(pascal_static_k_lru(ws.get(), 2)));
    ASSERT_TRUE(std::isnan(pascal_static_k_sdcm(ws.get(), 2, 4)));
    ASSERT_TRUE(std::isnan(pascal_static_residency(ws.get(), 2)));
    ASSERT_TRUE(std::isnan(pascal_static_k_bound(ws.get(), 2, 0)));
    ASSERT_TRUE(std::isnan(pascal_static_theta(ws.get(), 0)));
    ASSERT_EQ(pascal_static_tstar(ws.get(), 0), -1);
    ASSERT_EQ(pascal_static_k_ttl(ws.get(), 0), 3);   // D: nothing kept
    ASSERT_TRUE(std::isnan(pascal_static_margin(ws.get(), 2, -1.0)));
    // D = 3 > C = 2: Theorem 3 does not apply.
    double lo = 0, hi = 0;
    pascal_static_lru_band(ws.get(), 2, &lo, &hi);
    ASSERT_TRUE(std::isnan(lo) && std::isnan(hi));

    ASSERT_NEAR(pascal_che_miss_rate(1280, 8192), 1.0 - 1280.0 / 8192.0, kExact);
    ASSERT_EQ(pascal_che_miss_rate(8192, 8192), 0.0);
    ASSERT_EQ(pascal_che_miss_rate(9000, 8192), 0.0);
    ASSERT_TRUE(std::isnan(pascal_che_miss_rate(3, 0)));
}

// A finite horizon loosens the residency bound by exactly N / H (until 0).
TEST(ModelStatic, ResidencyHorizonCorrection)
{
    Ws ws = make_ws(6);
    Vec s = {5, 17, 17, 40, 2, 33};
    constexpr int64_t N = 61, C = 23;
    ASSERT_EQ(pascal_static_prepare(ws.get(), s.data(), 6, N, kAll), 0);
    double inf = pascal_static_k_bound(ws.get(), C, 0.0);
    double h = 2.385 * N;
    ASSERT_NEAR(pascal_static_k_bound(ws.get(), C, h),
                std::max(0.0, inf - N / h), kExact);
    ASSERT_EQ(pascal_static_k_bound(ws.get(), C, 0.5), 0.0);
    // V(C) from the sorted intervals by hand.
    Vec d(pascal_static_delta_num(ws.get()), pascal_static_delta_num(ws.get()) + 6);
    std::sort(d.begin(), d.end());
    double budget = (double)C * 6, v = 0;
    for (int64_t x : d) {
        double take = std::min(1.0, budget / (double)x);
        v += take;
        budget -= take * (double)x;
        if (budget <= 0)
            break;
    }
    ASSERT_NEAR(pascal_static_residency(ws.get(), C), v, kThetaTol);
}
