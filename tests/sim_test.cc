// Tests for the progress simulator (model/sim.h).  The cache is checked
// against independent references: the static model's exact LRU (eq. 15,
// symbolic reuse distances) for the barrier scan on every small phase vector
// and on seeded larger ones, the set-associative replay of model/replay.h
// for hashed sets, and a naive recency-list LRU replaying the open scan's
// own request log.  The timing is checked against Theorem 6: the issue
// period of eq. 11, the gain of eq. 13 and the two-worker divergence rate
// of eq. 12, all computed by model/progress.h.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "model/progress.h"
#include "model/replay.h"
#include "model/sim.h"
#include "model/static.h"

namespace {

using Vec = std::vector<int64_t>;

// A device with high-entropy values (none is a round number).
pascal_sim_timing test_timing()
{
    pascal_sim_timing t{};
    t.hit_ns = 237.5;
    t.l2_bytes_per_ns = 2113.7;
    t.sm_bytes_per_ns = 41.3;
    t.sm_spread = 0.0317;
    t.dram_ns = 181.9;
    t.dram_bytes_per_ns = 271.3;
    t.consume_ns = 53.1;
    t.loop_ns = 11.7;
    t.wmma_ns = 13.3;
    t.wmma_sm_ns = 6.9;
    t.launch_ns = 211.0;
    t.barrier_ns = 997.0;
    t.jitter_ns = 0;
    return t;
}

// Fixed latencies: no bandwidth limit anywhere (Theorem 6's setting).
pascal_sim_timing fixed_latency_timing()
{
    pascal_sim_timing t = test_timing();
    t.l2_bytes_per_ns = t.sm_bytes_per_ns = t.dram_bytes_per_ns = INFINITY;
    t.sm_spread = 0;
    return t;
}

struct Sim {
    pascal_sim *ws = nullptr;
    ~Sim() { pascal_sim_free(ws); }
    int run(const pascal_sim_timing &t, const pascal_sim_config &c, pascal_sim_result *r)
    {
        EXPECT_EQ(pascal_sim_fit(&ws, &c), 0);
        return pascal_sim_run(ws, &t, &c, r);
    }
};

pascal_sim_config barrier_config(const Vec &phases, int64_t N, int64_t C, int64_t sms)
{
    pascal_sim_config c = pascal_sim_default_config();
    c.sms = sms;
    c.occupancy = (int64_t)phases.size() / sms;
    c.N = N;
    c.C = C;
    c.barrier = 1;
    c.phases = phases.data();
    return c;
}

double static_k_lru(const Vec &phases, int64_t N, int64_t C)
{
    pascal_static *ws = pascal_static_create((int64_t)phases.size());
    EXPECT_EQ(pascal_static_prepare(ws, phases.data(), (int64_t)phases.size(), N, PASCAL_STATIC_RD), 0);
    double k = pascal_static_k_lru(ws, C);
    pascal_static_free(ws);
    return k;
}

// The static-limit anchor: with a barrier per round and requests in worker
// order, steady-state fills per round equal the exact LRU K for every phase
// vector of N = 2..6 blocks and M = 1..3 workers and every C = 1..N+1.
TEST(Sim, BarrierEqualsExactLruOnEverySmallCase)
{
    Sim sim;
    pascal_sim_timing t = test_timing();
    int64_t cases = 0;
    for (int64_t N = 2; N <= 6; N++)
        for (int64_t M = 1; M <= 3; M++) {
            int64_t total = 1;
            for (int64_t m = 0; m < M; m++)
                total *= N;
            for (int64_t code = 0; code < total; code++) {
                Vec ph((size_t)M);
                for (int64_t m = 0, x = code; m < M; m++, x /= N)
                    ph[(size_t)m] = x % N;
                for (int64_t C = 1; C <= N + 1; C++) {
                    pascal_sim_result r;
                    ASSERT_EQ(sim.run(t, barrier_config(ph, N, C, M), &r), PASCAL_SIM_OK);
                    ASSERT_EQ(r.K_steady, static_k_lru(ph, N, C))
                        << "N " << N << " M " << M << " code " << code << " C " << C;
                    cases += C < N;
                }
            }
        }
    EXPECT_EQ(cases, 2254); // the paper's exhaustive count (section 5.2)
}

Vec random_phases(std::mt19937_64 &rng, int64_t N, int64_t M)
{
    Vec s((size_t)M);
    int64_t spread = 1 + (int64_t)(rng() % (uint64_t)N); // clustered or spread out
    for (auto &x : s)
        x = (int64_t)(rng() % (uint64_t)spread);
    return s;
}

// Seeded larger cases, with jitter and several SMs per case: timing never
// changes what the cache decides.
TEST(Sim, BarrierEqualsExactLruOnSeededLargerCases)
{
    Sim sim;
    std::mt19937_64 rng(20260907);
    for (int k = 0; k < 300; k++) {
        pascal_sim_timing t = test_timing();
        int64_t N = 7 + (int64_t)(rng() % 400), sms = 1 + (int64_t)(rng() % 8);
        int64_t M = sms * (1 + (int64_t)(rng() % 8));
        int64_t C = 1 + (int64_t)(rng() % (uint64_t)(N + 5));
        Vec ph = random_phases(rng, N, M);
        t.jitter_ns = (double)(rng() % 500);
        pascal_sim_config c = barrier_config(ph, N, C, sms);
        c.seed = rng();
        pascal_sim_result r;
        ASSERT_EQ(sim.run(t, c, &r), PASCAL_SIM_OK);
        ASSERT_EQ(r.K_steady, static_k_lru(ph, N, C)) << "case " << k;
        EXPECT_EQ(r.requests, 2 * N * M);
        EXPECT_EQ(r.hits + r.merged + r.fills, r.requests);
    }
}

// Hashed sets: the same set of each block as pascal_setlru's random mapping
// with the same seed, so the steady state equals its replay.
TEST(Sim, BarrierHashedSetsEqualSetAssociativeReplay)
{
    Sim sim;
    std::mt19937_64 rng(4242);
    for (int k = 0; k < 120; k++) {
        int64_t N = 5 + (int64_t)(rng() % 200), M = 1 + (int64_t)(rng() % 24);
        int64_t A = 1 + (int64_t)(rng() % 6), S = 1 + (int64_t)(rng() % 12), C = A * S;
        uint64_t seed = rng();
        Vec ph = random_phases(rng, N, M);
        pascal_sim_config c = barrier_config(ph, N, C, 1);
        c.assoc = A;
        c.seed = seed;
        pascal_sim_result r;
        ASSERT_EQ(sim.run(test_timing(), c, &r), PASCAL_SIM_OK);
        pascal_replay *rp = pascal_replay_create(N, M);
        pascal_setlru *set = pascal_setlru_create(C, N);
        ASSERT_EQ(pascal_setlru_reset(set, A, C, PASCAL_SETMAP_RANDOM, seed), 0);
        double want = pascal_replay_set_steady(rp, set, ph.data(), M, N);
        EXPECT_DOUBLE_EQ(r.K_steady, want) << "case " << k;
        pascal_setlru_free(set);
        pascal_replay_free(rp);
    }
}

// Misses of a naive recency-list LRU on a request log, per request.
std::vector<bool> naive_lru_misses(const std::vector<int32_t> &log, int64_t C)
{
    std::vector<int32_t> stack;
    std::vector<bool> miss;
    for (int32_t b : log) {
        auto it = std::find(stack.begin(), stack.end(), b);
        miss.push_back(it == stack.end());
        if (it != stack.end())
            stack.erase(it);
        stack.insert(stack.begin(), b);
        if ((int64_t)stack.size() > C)
            stack.pop_back();
    }
    return miss;
}

// The open scan's cache is LRU in the order requests reach it: replaying its
// own request log through a naive LRU gives the same fill at every request,
// and a merge is a request to a block allocated but not yet filled (so never
// a fill).  Diverging workers, jitter, two CTAs per SM and several waves.
TEST(Sim, OpenScanCacheIsLruInRequestOrder)
{
    for (int path = 0; path < 2; path++) {
        Sim sim;
        pascal_sim_timing t = test_timing();
        t.jitter_ns = 300;
        t.sm_spread = 0.3;
        pascal_sim_config c = pascal_sim_default_config();
        c.sms = 3, c.occupancy = 2, c.path = path, c.depth = 3, c.compute = 2;
        c.N = 97, c.C = 23, c.W = 5;
        int64_t n = (int64_t)(c.W * 6) * c.N;
        std::vector<int32_t> blocks((size_t)n);
        std::vector<uint8_t> outcome((size_t)n);
        c.req_max = n, c.req_block = blocks.data(), c.req_outcome = outcome.data();
        pascal_sim_result r;
        ASSERT_EQ(sim.run(t, c, &r), PASCAL_SIM_OK);
        ASSERT_EQ(r.requests, n);
        std::vector<bool> miss = naive_lru_misses(blocks, c.C);
        int64_t fills = 0, merged = 0;
        for (int64_t i = 0; i < n; i++) {
            ASSERT_EQ(outcome[(size_t)i] == 2, miss[(size_t)i]) << "request " << i;
            fills += outcome[(size_t)i] == 2;
            merged += outcome[(size_t)i] == 1;
        }
        EXPECT_EQ(fills, r.fills);
        EXPECT_EQ(merged, r.merged);
        EXPECT_GT(r.fills, c.N); // drifting workers lose sharing at C < N
    }
}

// Identical aligned workers: the first request of each block fills it, the
// others find the fill in flight or done; one fill per block.
TEST(Sim, AlignedWorkersShareOneFillPerBlock)
{
    Sim sim;
    pascal_sim_timing t = test_timing();
    t.sm_spread = 0;
    pascal_sim_config c = pascal_sim_default_config();
    c.sms = 8, c.path = PASCAL_SIM_TMA, c.depth = 2, c.N = 50, c.C = 10, c.W = 1;
    pascal_sim_result r;
    ASSERT_EQ(sim.run(t, c, &r), PASCAL_SIM_OK);
    EXPECT_EQ(r.fills, c.N);
    EXPECT_EQ(r.hits + r.merged, (c.sms - 1) * c.N);
    EXPECT_GT(r.merged, 0);
    EXPECT_DOUBLE_EQ(r.K_H, 1.0);
}

// One worker scanning a ring longer than the cache misses every request
// (LRU on a cyclic scan); a ring that fits misses only the first scan.
TEST(Sim, OneWorkerCyclicScan)
{
    Sim sim;
    for (int64_t C : {int64_t(40), int64_t(41), int64_t(500)}) {
        pascal_sim_config c = pascal_sim_default_config();
        c.N = 41, c.C = C, c.W = 3;
        pascal_sim_result r;
        ASSERT_EQ(sim.run(test_timing(), c, &r), PASCAL_SIM_OK);
        EXPECT_EQ(r.fills, C < c.N ? 3 * c.N : c.N) << "C " << C;
        EXPECT_DOUBLE_EQ(r.H, 3.0 * 41);
    }
}

// Mean time per block of CTA k, from its start and end.
double period_of(Sim &sim, const pascal_sim_timing &t, pascal_sim_config c, int64_t cta)
{
    std::vector<double> st((size_t)(c.W * (double)(c.sms * c.occupancy))), en(st.size());
    c.cta_start_ns = st.data(), c.cta_end_ns = en.data();
    pascal_sim_result r;
    EXPECT_EQ(sim.run(t, c, &r), PASCAL_SIM_OK);
    return (en[(size_t)cta] - st[(size_t)cta]) / (double)c.N;
}

// Theorem 6, eq. 11: one worker with fixed latency lambda issues one copy
// every P_d(lambda) = max(alpha + beta, (lambda + beta)/(d - 1)), with
// beta = consume and alpha = m WMMA latencies + loop overhead; eq. 13's gain
// is the difference between the all-miss and all-hit periods.
TEST(Sim, PipelinePeriodIsTheorem6)
{
    Sim sim;
    pascal_sim_timing t = fixed_latency_timing();
    const int64_t N = 4000;
    for (int64_t d : {2, 3, 4, 6})
        for (int64_t m : {0, 3, 40}) {
            pascal_sim_config c = pascal_sim_default_config();
            c.path = PASCAL_SIM_TMA, c.depth = d, c.compute = m, c.N = N;
            double alpha = t.loop_ns + (double)m * t.wmma_ns, beta = t.consume_ns;
            double lh = t.hit_ns, lm = t.hit_ns + t.dram_ns;
            c.C = 1, c.W = 1; // every request misses
            double p_miss = period_of(sim, t, c, 0);
            c.C = N, c.W = 2; // the second CTA hits everything
            double p_hit = period_of(sim, t, c, 1);
            double tol = 2 * (lm + beta + alpha) / (double)N; // start-up, O(1) per scan
            EXPECT_NEAR(p_miss, pascal_thm6_period(alpha, beta, lm, d), tol) << d << " " << m;
            EXPECT_NEAR(p_hit, pascal_thm6_period(alpha, beta, lh, d), tol) << d << " " << m;
            EXPECT_NEAR(p_miss - p_hit, pascal_thm6_gain(alpha, beta, lh, lm, d), 2 * tol);
        }
}

// The sync path exposes the whole latency: lambda + beta + alpha per block.
TEST(Sim, SyncPeriodExposesLatency)
{
    Sim sim;
    pascal_sim_timing t = fixed_latency_timing();
    pascal_sim_config c = pascal_sim_default_config();
    c.path = PASCAL_SIM_SYNC, c.compute = 7, c.N = 3000, c.C = 1, c.W = 1;
    double want = t.hit_ns + t.dram_ns + t.consume_ns + 7 * t.wmma_ns + t.loop_ns;
    EXPECT_NEAR(period_of(sim, t, c, 0), want, 1e-6 * want);
}

// Eq. 12 with two workers: worker 1 leads and misses everything, worker 2
// follows and hits; its deficit grows at eps = P_2(lambda_hit) -
// P_1(lambda_miss) per block when eps > 0 and stays bounded otherwise.
TEST(Sim, TwoWorkerDeficitFollowsEq12)
{
    pascal_sim_timing t = fixed_latency_timing();
    const int64_t d = 3;
    double beta = t.consume_ns, lh = t.hit_ns, lm = t.hit_ns + t.dram_ns;
    for (double extra : {0.0, 60.0, 150.0, 400.0}) {
        double a1 = t.loop_ns, a2 = t.loop_ns + extra;
        double eps = pascal_thm6_divergence(a1, beta, lm, d, a2, beta, lh, d);
        double deficit[2];
        for (int k = 0; k < 2; k++) {
            Sim sim;
            double slot_extra[2] = {0, extra};
            pascal_sim_config c = pascal_sim_default_config();
            c.sms = 2, c.path = PASCAL_SIM_TMA, c.depth = d, c.N = 2000 * (k + 1), c.C = c.N;
            c.slot_extra_ns = slot_extra;
            std::vector<double> st(2), en(2);
            c.cta_start_ns = st.data(), c.cta_end_ns = en.data();
            pascal_sim_result r;
            ASSERT_EQ(sim.run(t, c, &r), PASCAL_SIM_OK);
            deficit[k] = en[1] - en[0];
        }
        double slope = (deficit[1] - deficit[0]) / 2000;
        if (eps > 0)
            EXPECT_NEAR(slope, eps, 1e-3 * eps + 1e-3) << "extra " << extra;
        else
            EXPECT_LT(std::fabs(slope), 0.05) << "extra " << extra << " eps " << eps;
    }
}

// Symmetric workers without spread or jitter never drift; with per-SM
// spread, the port-bound deep TMA pipeline drifts while the latency-bound
// sync path stays aligned (the catch-up that Theorem 6 allows when G > 0).
TEST(Sim, DriftNeedsPortBoundPipelineAndSpread)
{
    Sim sim;
    pascal_sim_timing t = test_timing();
    pascal_sim_config c = pascal_sim_default_config();
    c.sms = 24, c.path = PASCAL_SIM_TMA, c.depth = 4, c.N = 1024, c.C = 320, c.W = 24;
    pascal_sim_result r;
    t.sm_spread = 0;
    ASSERT_EQ(sim.run(t, c, &r), PASCAL_SIM_OK);
    EXPECT_DOUBLE_EQ(r.K_H, 1.0);
    t.sm_spread = 0.08;
    ASSERT_EQ(sim.run(t, c, &r), PASCAL_SIM_OK);
    EXPECT_GT(r.K_H, 1.5);
    c.path = PASCAL_SIM_SYNC;
    ASSERT_EQ(sim.run(t, c, &r), PASCAL_SIM_OK);
    EXPECT_DOUBLE_EQ(r.K_H, 1.0);
}

TEST(Sim, RepeatedRunsAreBitIdentical)
{
    pascal_sim_timing t = test_timing();
    t.jitter_ns = 77.7;
    pascal_sim_config c = pascal_sim_default_config();
    c.sms = 6, c.occupancy = 2, c.path = PASCAL_SIM_TMA, c.depth = 4, c.N = 300, c.C = 90;
    c.W = 7.5, c.compute = 5, c.seed = 99;
    double kw[2][16];
    pascal_sim_result r[2];
    for (int k = 0; k < 2; k++) {
        Sim sim;
        c.K_wave = kw[k], c.max_waves = 16;
        ASSERT_EQ(sim.run(t, c, &r[k]), PASCAL_SIM_OK);
    }
    EXPECT_EQ(std::memcmp(&r[0], &r[1], sizeof r[0]), 0);
    EXPECT_EQ(std::memcmp(kw[0], kw[1], sizeof kw[0]), 0);
    EXPECT_EQ(r[0].ctas, 90); // round(7.5 x 12)
    EXPECT_EQ(r[0].waves, 8);
}

// Per-wave counts add up to the run's fills (the last wave is partial).
TEST(Sim, WavesAddUpToTheRun)
{
    Sim sim;
    pascal_sim_timing t = test_timing();
    t.sm_spread = 0.5;
    pascal_sim_config c = pascal_sim_default_config();
    c.sms = 5, c.occupancy = 3, c.path = PASCAL_SIM_TMA, c.depth = 3, c.N = 211, c.C = 40;
    c.W = 6.4;
    double kw[8];
    c.K_wave = kw, c.max_waves = 8;
    pascal_sim_result r;
    ASSERT_EQ(sim.run(t, c, &r), PASCAL_SIM_OK);
    ASSERT_EQ(r.waves, 7);
    double fills = 0;
    for (int64_t v = 0; v < r.waves; v++) {
        int64_t n = std::min<int64_t>(15, r.ctas - 15 * v);
        fills += kw[v] * (double)n * (double)c.N / 15.0;
    }
    EXPECT_NEAR(fills, (double)r.fills, 1e-6);
    EXPECT_DOUBLE_EQ(r.K_H, (double)r.fills / r.H);
}

// The grid runs exactly round(W M) CTAs, each once: also when several slots
// are freed within launch_ns of each other while fewer CTAs are left than
// slots waiting (a partial last wave).  Entries past the grid stay untouched.
TEST(Sim, GridRunsExactlyItsCtas)
{
    const double guard = -7.25;
    for (int64_t o : {1, 2, 3})
        for (int path = 0; path < 2; path++)
            for (double W : {1.5, 2.25, 3.7, 5.0}) {
                Sim sim;
                pascal_sim_config c = pascal_sim_default_config();
                c.sms = 2, c.occupancy = o, c.path = path, c.depth = 3, c.N = 64, c.C = 16;
                c.W = W;
                int64_t ctas = std::llround(W * (double)(2 * o));
                std::vector<double> st((size_t)ctas + 8, guard), en(st.size(), guard);
                c.cta_start_ns = st.data(), c.cta_end_ns = en.data();
                pascal_sim_result r;
                ASSERT_EQ(sim.run(test_timing(), c, &r), PASCAL_SIM_OK);
                EXPECT_EQ(r.ctas, ctas);
                EXPECT_EQ(r.requests, ctas * c.N) << "o " << o << " path " << path << " W " << W;
                for (size_t k = 0; k < st.size(); k++)
                    if ((int64_t)k < ctas)
                        EXPECT_GT(en[k], st[k]) << "CTA " << k;
                    else
                        EXPECT_TRUE(st[k] == guard && en[k] == guard) << "entry " << k;
            }
}

// Block scheduler: the first wave starts at 0 in slot order; every later CTA
// starts launch_ns after some CTA ended, in launch order.
TEST(Sim, FreedSlotsTakeTheNextCtaInOrder)
{
    Sim sim;
    pascal_sim_timing t = test_timing();
    t.sm_spread = 0.6;
    pascal_sim_config c = pascal_sim_default_config();
    c.sms = 4, c.occupancy = 2, c.N = 64, c.C = 16, c.W = 4;
    std::vector<double> st(32), en(32);
    c.cta_start_ns = st.data(), c.cta_end_ns = en.data();
    pascal_sim_result r;
    ASSERT_EQ(sim.run(t, c, &r), PASCAL_SIM_OK);
    for (int k = 0; k < 8; k++)
        EXPECT_EQ(st[(size_t)k], 0.0);
    for (size_t k = 8; k < 32; k++) {
        EXPECT_GE(st[k], st[k - 1]);
        bool found = false;
        for (size_t e = 0; e < k; e++)
            found |= en[e] + t.launch_ns == st[k];
        EXPECT_TRUE(found) << "CTA " << k;
    }
    EXPECT_EQ(r.makespan_ns, *std::max_element(en.begin(), en.end()));
}

TEST(Sim, TrajectorySamples)
{
    Sim sim;
    pascal_sim_config c = pascal_sim_default_config();
    c.sms = 4, c.path = PASCAL_SIM_TMA, c.depth = 2, c.N = 100, c.C = 30, c.W = 2;
    std::vector<double> tt(10), rr(10);
    std::vector<int32_t> pos(40);
    c.traj_every = 100, c.traj_max = 10; // every 25 rounds of 4 workers
    c.traj_t = tt.data(), c.traj_rounds = rr.data(), c.traj_pos = pos.data();
    pascal_sim_result r;
    ASSERT_EQ(sim.run(test_timing(), c, &r), PASCAL_SIM_OK);
    EXPECT_EQ(r.samples, 8); // 800 blocks consumed
    for (int64_t k = 0; k < r.samples; k++) {
        EXPECT_DOUBLE_EQ(rr[(size_t)k], 25.0 * (double)(k + 1));
        if (k > 0)
            EXPECT_GE(tt[(size_t)k], tt[(size_t)k - 1]);
        for (int s = 0; s < 4; s++)
            EXPECT_TRUE(pos[(size_t)(k * 4 + s)] >= -1 && pos[(size_t)(k * 4 + s)] < 100);
    }
}

TEST(Sim, PhaseGroups)
{
    std::vector<int32_t> scratch(8);
    auto groups = [&](std::vector<int32_t> p, int64_t N, int64_t gap) {
        return pascal_sim_phase_groups(p.data(), (int64_t)p.size(), N, gap, scratch.data());
    };
    EXPECT_EQ(groups({0, 10, 20}, 100, 32), 1);
    EXPECT_EQ(groups({0, 40, 80}, 100, 32), 2); // 80 and 0 are 20 apart across the wrap
    EXPECT_EQ(groups({0, 25, 50, 75}, 100, 24), 4);
    EXPECT_EQ(groups({5, 5, -1}, 100, 32), 1);
    EXPECT_EQ(groups({-1, -1}, 100, 32), 0);
    EXPECT_EQ(groups({3}, 4096, 32), 1);
}

TEST(Sim, RejectsBadInputAndSmallWorkspaces)
{
    pascal_sim *ws = pascal_sim_create(100, 4, 4, 1);
    ASSERT_NE(ws, nullptr);
    pascal_sim_timing t = test_timing();
    pascal_sim_result r;
    auto ok = pascal_sim_default_config();
    ok.sms = 4, ok.N = 100, ok.C = 50;
    EXPECT_EQ(pascal_sim_run(ws, &t, &ok, &r), PASCAL_SIM_OK);
    auto bad = [&](auto edit) {
        pascal_sim_config c = ok;
        pascal_sim_timing tt = t;
        edit(c, tt);
        return pascal_sim_run(ws, &tt, &c, &r);
    };
    using C = pascal_sim_config;
    using T = pascal_sim_timing;
    EXPECT_EQ(bad([](C &c, T &) { c.N = 0; }), PASCAL_SIM_EINVAL);
    EXPECT_EQ(bad([](C &c, T &) { c.C = 0; }), PASCAL_SIM_EINVAL);
    EXPECT_EQ(bad([](C &c, T &) { c.W = 0; }), PASCAL_SIM_EINVAL);
    EXPECT_EQ(bad([](C &c, T &) { c.W = NAN; }), PASCAL_SIM_EINVAL);
    EXPECT_EQ(bad([](C &c, T &) { c.path = 2; }), PASCAL_SIM_EINVAL);
    EXPECT_EQ(bad([](C &c, T &) { c.path = PASCAL_SIM_TMA, c.depth = 0; }), PASCAL_SIM_EINVAL);
    EXPECT_EQ(bad([](C &c, T &) { c.assoc = 3; }), PASCAL_SIM_EINVAL); // 50 % 3 != 0
    EXPECT_EQ(bad([](C &c, T &) { c.compute = -1; }), PASCAL_SIM_EINVAL);
    EXPECT_EQ(bad([](C &c, T &) { c.block_bytes = 0; }), PASCAL_SIM_EINVAL);
    EXPECT_EQ(bad([](C &c, T &) { c.barrier = 1; }), PASCAL_SIM_EINVAL); // no phases
    EXPECT_EQ(bad([](C &c, T &) { c.req_max = 5; }), PASCAL_SIM_EINVAL);  // no log arrays
    EXPECT_EQ(bad([](C &, T &x) { x.hit_ns = -1; }), PASCAL_SIM_EINVAL);
    EXPECT_EQ(bad([](C &, T &x) { x.dram_bytes_per_ns = 0; }), PASCAL_SIM_EINVAL);
    EXPECT_EQ(bad([](C &, T &x) { x.sm_spread = 1.5; }), PASCAL_SIM_EINVAL);
    EXPECT_EQ(bad([](C &, T &x) { x.jitter_ns = INFINITY; }), PASCAL_SIM_EINVAL);
    EXPECT_EQ(bad([](C &c, T &) { c.N = 101; }), PASCAL_SIM_ESIZE);
    EXPECT_EQ(bad([](C &c, T &) { c.sms = 5; }), PASCAL_SIM_ESIZE);
    EXPECT_EQ(bad([](C &c, T &) { c.path = PASCAL_SIM_TMA, c.depth = 5; }), PASCAL_SIM_ESIZE);
    EXPECT_EQ(bad([](C &c, T &) { c.assoc = 5; }), PASCAL_SIM_ESIZE); // 10 sets
    pascal_sim_config big = ok;
    big.N = 5000, big.sms = 9, big.assoc = 5;
    ASSERT_EQ(pascal_sim_fit(&ws, &big), 0);
    EXPECT_EQ(pascal_sim_run(ws, &t, &big, &r), PASCAL_SIM_OK);
    pascal_sim_free(ws);
}

int stop_now(void *ctx)
{
    return ++*(int *)ctx >= 2;
}

TEST(Sim, StopsWhenAsked)
{
    Sim sim;
    int polls = 0;
    pascal_sim_config c = pascal_sim_default_config();
    c.sms = 48, c.N = 4096, c.C = 1280, c.W = 64;
    c.should_stop = stop_now, c.stop_ctx = &polls;
    pascal_sim_result r;
    EXPECT_EQ(sim.run(test_timing(), c, &r), PASCAL_SIM_STOPPED);
    EXPECT_EQ(polls, 2);
    EXPECT_LT(r.requests, 48 * 4096 * 64);
}

} // namespace
