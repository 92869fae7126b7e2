// The progress simulator (model/sim.h) against its frozen former
// implementation (tests/sim_reference/ref_sim.h, a REGRESSION ORACLE: the
// old code compiled into this test, not a record of printed output).  The
// faster simulator must decide every event as the old one did, so every
// output must be the same bit for bit: the result (fills, hits, merges,
// times), K per wave, CTA start and end times, the request log with each
// outcome, and the phase trajectory.  The configurations cross the paths
// and depths (sync, tma d 1-4 and 6), occupancies 1, 2, 4 and 8, computes
// 0, 8 and 40, fully and set-associative caches, six timings (one with
// exact ties everywhere, one with negative zeros, one without bandwidth
// limits, one with jitter and a wide spread) and small to paper-sized N
// and W, and the barrier scan.
//
// Independent of the oracle, every open-scan request log is replayed
// through the exact LRU of model/replay.h (stack distances for a fully
// associative cache, the set-associative replay with the same seeded set
// mapping otherwise): each request's fill must be that replay's miss.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "model/replay.h"
#include "model/sim.h"
#include "devices/sim_timing.h"
#include "tests/sim_reference/ref_sim.h"

namespace {

struct Out {
    int rc = 0;
    pascal_sim_result r{};
    std::vector<double> kw, st, en, tt, tr;
    std::vector<int32_t> blk, pos;
    std::vector<uint8_t> oc;
};

// Runs cfg through the new simulator (ref = false) or the oracle, with
// every optional output switched on (the trajectory only when traj).
Out run(const pascal_sim_timing &t, pascal_sim_config c, bool traj, bool ref)
{
    Out o;
    int64_t M = c.sms * c.occupancy;
    int64_t ctas = c.barrier ? M : std::llround(c.W * (double)M);
    int64_t n = c.barrier ? 2 * c.N * M : ctas * c.N;
    int64_t waves = (ctas + M - 1) / M;
    o.kw.assign((size_t)waves + 1, -1);
    o.st.assign((size_t)ctas, -1), o.en.assign((size_t)ctas, -1);
    o.blk.assign((size_t)n, -1), o.oc.assign((size_t)n, 9);
    c.K_wave = o.kw.data(), c.max_waves = waves + 1;
    if (!c.barrier)
        c.cta_start_ns = o.st.data(), c.cta_end_ns = o.en.data();
    c.req_max = n, c.req_block = o.blk.data(), c.req_outcome = o.oc.data();
    if (traj) {
        c.traj_max = 40, c.traj_every = n / 37 > 0 ? n / 37 : 1;
        o.tt.assign(40, -1), o.tr.assign(40, -1), o.pos.assign((size_t)(40 * M), -9);
        c.traj_t = o.tt.data(), c.traj_rounds = o.tr.data(), c.traj_pos = o.pos.data();
    }
    if (ref) {
        ref_sim *ws = nullptr;
        EXPECT_EQ(ref_sim_fit(&ws, &c), 0);
        o.rc = ref_sim_run(ws, &t, &c, &o.r);
        ref_sim_free(ws);
    } else {
        pascal_sim *ws = nullptr;
        EXPECT_EQ(pascal_sim_fit(&ws, &c), 0);
        o.rc = pascal_sim_run(ws, &t, &c, &o.r);
        pascal_sim_free(ws);
    }
    return o;
}

bool same_bits(const void *a, const void *b, size_t n)
{
    return std::memcmp(a, b, n) == 0;
}

template <class T> bool same(const std::vector<T> &a, const std::vector<T> &b)
{
    return a.size() == b.size() &&
           (a.empty() || same_bits(a.data(), b.data(), a.size() * sizeof(T)));
}

// The new run equals the oracle's in every output.
void expect_same(const Out &a, const Out &b, const std::string &what)
{
    EXPECT_EQ(a.rc, b.rc) << what;
    EXPECT_EQ(a.r.requests, b.r.requests) << what;
    EXPECT_EQ(a.r.fills, b.r.fills) << what;
    EXPECT_EQ(a.r.hits, b.r.hits) << what;
    EXPECT_EQ(a.r.merged, b.r.merged) << what;
    EXPECT_TRUE(same_bits(&a.r.makespan_ns, &b.r.makespan_ns, sizeof(double)))
        << what << ": makespan " << a.r.makespan_ns << " vs " << b.r.makespan_ns;
    EXPECT_TRUE(same_bits(&a.r, &b.r, sizeof a.r)) << what << ": result";
    EXPECT_TRUE(same(a.blk, b.blk) && same(a.oc, b.oc)) << what << ": request log";
    EXPECT_TRUE(same(a.kw, b.kw)) << what << ": K per wave";
    EXPECT_TRUE(same(a.st, b.st) && same(a.en, b.en)) << what << ": CTA times";
    EXPECT_TRUE(same(a.tt, b.tt) && same(a.tr, b.tr) && same(a.pos, b.pos))
        << what << ": trajectory";
}

// Exact LRU replay of the request log: a fill exactly where it misses.
void expect_lru_fills(const Out &o, const pascal_sim_config &c, const std::string &what)
{
    std::vector<int64_t> trace(o.blk.begin(), o.blk.end());
    std::vector<uint8_t> hit(trace.size());
    int64_t n = (int64_t)trace.size();
    if (c.assoc == 0) {
        std::vector<int64_t> rd(trace.size());
        pascal_lru *l = pascal_lru_create(c.N);
        pascal_lru_replay(l, trace.data(), n, c.C, rd.data());
        for (size_t i = 0; i < rd.size(); i++)
            hit[i] = rd[i] >= 0 && rd[i] < c.C;
        pascal_lru_free(l);
    } else {
        pascal_setlru *s = pascal_setlru_create(c.C, c.N);
        ASSERT_EQ(pascal_setlru_reset(s, c.assoc, c.C, PASCAL_SETMAP_RANDOM, c.seed), 0);
        pascal_setlru_replay(s, trace.data(), n, hit.data());
        pascal_setlru_free(s);
    }
    int64_t bad = 0;
    for (size_t i = 0; i < hit.size(); i++)
        bad += (o.oc[i] == 2) == (hit[i] != 0);
    EXPECT_EQ(bad, 0) << what << ": requests whose fill disagrees with exact LRU";
    EXPECT_EQ(o.r.requests, n) << what;
    EXPECT_EQ(o.r.hits + o.r.merged + o.r.fills, o.r.requests) << what;
}

pascal_sim_timing entropy_timing()
{
    pascal_sim_timing t{};
    t.hit_ns = 237.5, t.l2_bytes_per_ns = 2113.7, t.sm_bytes_per_ns = 41.3;
    t.sm_spread = 0.0317, t.dram_ns = 181.9, t.dram_bytes_per_ns = 271.3;
    t.consume_ns = 53.1, t.loop_ns = 11.7, t.wmma_ns = 13.3, t.wmma_sm_ns = 6.9;
    t.launch_ns = 211.0, t.barrier_ns = 997.0, t.jitter_ns = 0;
    return t;
}

// Whole numbers everywhere (a 16 KiB block: 1 ns in the L2, 16 ns in a
// port, 4 ns in the DRAM): many events fall on the same instant, so the
// (time, slot) order of ties decides.
pascal_sim_timing tie_timing()
{
    pascal_sim_timing t{};
    t.hit_ns = 100, t.l2_bytes_per_ns = 16384, t.sm_bytes_per_ns = 1024, t.sm_spread = 0;
    t.dram_ns = 100, t.dram_bytes_per_ns = 4096, t.consume_ns = 48, t.loop_ns = 0;
    t.wmma_ns = 8, t.wmma_sm_ns = 4, t.launch_ns = 200, t.barrier_ns = 1000, t.jitter_ns = 0;
    return t;
}

std::vector<std::pair<std::string, pascal_sim_timing>> timings()
{
    std::vector<std::pair<std::string, pascal_sim_timing>> v;
    pascal_sim_timing gb10{};
    pascal_error err{};
    std::string path = std::string(PASCAL_SOURCE_DIR) + "/configs/devices/gb10.yaml";
    EXPECT_EQ(pascal_device_sim_load(path.c_str(), &gb10, &err), 0) << err.msg;
    pascal_sim_timing wide = entropy_timing(), fixed = entropy_timing();
    wide.jitter_ns = 143.7, wide.sm_spread = 0.41;
    fixed.l2_bytes_per_ns = fixed.sm_bytes_per_ns = fixed.dram_bytes_per_ns = INFINITY;
    fixed.sm_spread = 0;
    v.push_back({"entropy", entropy_timing()});
    v.push_back({"gb10", gb10});
    v.push_back({"ties", tie_timing()});
    v.push_back({"jitter+spread", wide});
    v.push_back({"fixed-latency", fixed});
    // Negative zeros, which the checks admit (-0 >= 0): event times must
    // still order as before (the queue compares their bits).
    pascal_sim_timing nz = tie_timing();
    nz.loop_ns = nz.launch_ns = nz.wmma_ns = nz.wmma_sm_ns = nz.dram_ns = -0.0;
    v.push_back({"negative-zeros", nz});
    return v;
}

struct Shape {
    int64_t sms, N, C, A;
    double W;
};

const struct {
    int path;
    int64_t d;
} kPaths[] = {{PASCAL_SIM_SYNC, 1}, {PASCAL_SIM_TMA, 1}, {PASCAL_SIM_TMA, 2},
              {PASCAL_SIM_TMA, 3},  {PASCAL_SIM_TMA, 4}, {PASCAL_SIM_TMA, 6}};

// Runs one open-scan configuration both ways (with and without the
// trajectory) and checks it.
void check_open(const pascal_sim_timing &t, const pascal_sim_config &c, const std::string &what)
{
    for (bool traj : {false, true}) {
        std::string w = what + (traj ? " traj" : "");
        Out a = run(t, c, traj, false), b = run(t, c, traj, true);
        ASSERT_EQ(b.rc, PASCAL_SIM_OK) << w;
        expect_same(a, b, w);
        expect_lru_fills(a, c, w);
        if (::testing::Test::HasFailure()) {
            ADD_FAILURE() << "first failing configuration: " << w;
            return;
        }
    }
}

std::string describe(const std::string &tname, const pascal_sim_config &c)
{
    return tname + " path " + std::to_string(c.path) + " d " + std::to_string(c.depth) + " o " +
           std::to_string(c.occupancy) + " m " + std::to_string(c.compute) + " sms " +
           std::to_string(c.sms) + " N " + std::to_string(c.N) + " C " + std::to_string(c.C) +
           " A " + std::to_string(c.assoc) + " W " + std::to_string(c.W);
}

// Every combination on small grids (ties and edge cases: a partial last
// wave, N close to C, one SM), twice with distinct seeds and one slot slowed.
TEST(SimEquivalence, EveryCombinationOnSmallGrids)
{
    const Shape shapes[] = {{3, 37, 11, 0, 3.5}, {3, 37, 11, 1, 3.5}, {1, 5, 2, 0, 2.0},
                            {2, 24, 12, 4, 4.25}};
    int64_t runs = 0;
    for (auto &[tname, t] : timings())
        for (const Shape &sh : shapes)
            for (auto p : kPaths)
                for (int64_t o : {1, 2, 4, 8})
                    for (int64_t m : {0, 8, 40}) {
                        pascal_sim_config c = pascal_sim_default_config();
                        c.sms = sh.sms, c.occupancy = o, c.path = p.path, c.depth = p.d;
                        c.compute = m, c.N = sh.N, c.C = sh.C, c.assoc = sh.A, c.W = sh.W;
                        c.seed = 1000 + (uint64_t)runs;
                        std::vector<double> extra((size_t)(sh.sms * o), 0);
                        if (runs % 3 == 0) {
                            extra[0] = 17.3; // a slower worker (Theorem 6's test)
                            c.slot_extra_ns = extra.data();
                        }
                        check_open(t, c, describe(tname, c));
                        if (HasFailure())
                            return;
                        runs++;
                    }
    EXPECT_EQ(runs, 6 * 4 * 6 * 4 * 3);
}

// Medium grids (drift has time to build up): a seeded sample of the same
// cross, with set-associative caches in half of it.
TEST(SimEquivalence, SampledMediumGrids)
{
    static const int64_t kComputes[] = {0, 8, 40}, kWays[] = {1, 4, 6, 12};
    std::mt19937_64 rng(777);
    auto tms = timings();
    for (int k = 0; k < 60; k++) {
        auto &[tname, t] = tms[(size_t)k % tms.size()];
        auto p = kPaths[rng() % 6];
        pascal_sim_config c = pascal_sim_default_config();
        c.sms = 4 + (int64_t)(rng() % 6), c.occupancy = (int64_t)1 << (rng() % 4);
        c.path = p.path, c.depth = p.d, c.compute = kComputes[rng() % 3];
        c.N = 300 + (int64_t)(rng() % 400), c.C = 60 * (1 + (int64_t)(rng() % 4));
        c.assoc = k % 2 ? kWays[rng() % 4] : 0;
        c.W = 2 + (double)(rng() % 40) / 8, c.seed = rng();
        check_open(t, c, describe(tname, c));
        if (HasFailure())
            return;
    }
}

// Paper-sized runs on GB10's timing (48 SMs, C 1280, N 4096 in the paper;
// here N 2048, C 640 to keep the test short) in the regimes that drift:
// deep tma at occupancy 1 and 2, sync at occupancy 4.
TEST(SimEquivalence, PaperSizedDriftingRuns)
{
    auto tms = timings();
    const pascal_sim_timing &gb10 = tms[1].second;
    const struct {
        int path;
        int64_t o, d, m;
        double W;
    } cases[] = {{PASCAL_SIM_TMA, 1, 4, 0, 8}, {PASCAL_SIM_TMA, 2, 3, 0, 4},
                 {PASCAL_SIM_SYNC, 4, 1, 0, 2}, {PASCAL_SIM_TMA, 4, 2, 8, 2}};
    for (auto &k : cases) {
        pascal_sim_config c = pascal_sim_default_config();
        c.sms = 48, c.occupancy = k.o, c.path = k.path, c.depth = k.d, c.compute = k.m;
        c.N = 2048, c.C = 640, c.W = k.W;
        check_open(gb10, c, describe("gb10", c));
        if (HasFailure())
            return;
    }
}

// The barrier scan (Algorithm 1): random phase vectors, several SMs and
// occupancies, both caches, jitter.
TEST(SimEquivalence, BarrierScan)
{
    std::mt19937_64 rng(31337);
    auto tms = timings();
    for (int k = 0; k < 100; k++) {
        auto &[tname, t] = tms[(size_t)k % tms.size()];
        pascal_sim_config c = pascal_sim_default_config();
        c.sms = 1 + (int64_t)(rng() % 4), c.occupancy = 1 + (int64_t)(rng() % 4);
        c.N = 5 + (int64_t)(rng() % 300), c.compute = (int64_t)(rng() % 20);
        c.assoc = k % 2 ? 1 + (int64_t)(rng() % 4) : 0;
        c.C = (c.assoc ? c.assoc : 1) * (1 + (int64_t)(rng() % (uint64_t)c.N));
        c.seed = rng();
        std::vector<int64_t> ph((size_t)(c.sms * c.occupancy));
        for (auto &x : ph)
            x = (int64_t)(rng() % (uint64_t)c.N);
        c.barrier = 1, c.phases = ph.data();
        std::string w = "barrier " + describe(tname, c);
        Out a = run(t, c, false, false), b = run(t, c, false, true);
        ASSERT_EQ(b.rc, PASCAL_SIM_OK) << w;
        expect_same(a, b, w);
        if (HasFailure()) {
            ADD_FAILURE() << "first failing configuration: " << w;
            return;
        }
    }
}

} // namespace
