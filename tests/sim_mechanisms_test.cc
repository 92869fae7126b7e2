// The progress simulator's finer mechanisms (model/sim.h, docs/simulate.md
// section 3.1): per-SM hit latency, L2 slices with an address hash and their
// latencies, a limit on requests in flight per SM, and service-time noise.
// Each is checked on a machine where its effect has a closed form (the other
// servers made infinitely fast), and off, each leaves the machine as it was.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "devices/sim_timing.h"
#include "model/sim.h"

namespace {

// No bandwidth limit anywhere and no SM work: a request's time is its latency.
pascal_sim_timing bare()
{
    pascal_sim_timing t{};
    t.hit_ns = 211.3;
    t.l2_bytes_per_ns = t.sm_bytes_per_ns = t.dram_bytes_per_ns = INFINITY;
    return t;
}

struct Sim {
    pascal_sim *ws = nullptr;
    ~Sim() { pascal_sim_free(ws); }
    pascal_sim_result run(const pascal_sim_timing &t, const pascal_sim_config &c)
    {
        pascal_sim_result r{};
        EXPECT_EQ(pascal_sim_fit(&ws, &c), 0);
        EXPECT_EQ(pascal_sim_run(ws, &t, &c, &r), PASCAL_SIM_OK);
        return r;
    }
};

bool same(const pascal_sim_result &a, const pascal_sim_result &b)
{
    return a.fills == b.fills && a.hits == b.hits && a.merged == b.merged &&
           a.makespan_ns == b.makespan_ns && a.first_wave_ns_per_round == b.first_wave_ns_per_round;
}

// Off is off: a slice count of 1 ignores the slice spread and grain, and
// every mechanism at 0 gives the machine without them, bit for bit.
TEST(SimMechanisms, OffLeavesTheMachineAsItWas)
{
    Sim sim;
    pascal_sim_timing t{};
    t.hit_ns = 237.5, t.l2_bytes_per_ns = 2113.7, t.sm_bytes_per_ns = 41.3, t.sm_spread = 0.0317;
    t.dram_ns = 181.9, t.dram_bytes_per_ns = 271.3, t.consume_ns = 53.1, t.loop_ns = 11.7;
    t.wmma_ns = 13.3, t.wmma_sm_ns = 6.9, t.launch_ns = 211, t.jitter_ns = 31.7;
    pascal_sim_timing one = t;
    one.l2_slices = 1, one.hit_slice_spread = 0.8, one.l2_slice_bytes = 512;
    for (int path : {PASCAL_SIM_SYNC, PASCAL_SIM_TMA})
        for (int64_t o : {1, 2, 3}) {
            pascal_sim_config c = pascal_sim_default_config();
            c.sms = 8, c.occupancy = o, c.path = path, c.depth = 4, c.compute = 5;
            c.N = 300, c.W = 6, c.C = 200, c.seed = 9;
            pascal_sim_result a = sim.run(t, c), b = sim.run(one, c);
            EXPECT_TRUE(same(a, b)) << path << " " << o;
            EXPECT_GT(a.fills, 0);
        }
}

// Each SM's hit latency is hit_ns (1 + s (v - 1/2)), v uniform per SM: with
// nothing else taking time, CTA s's N blocks take N times its SM's latency.
// Over 400 SMs the latencies fill the interval and centre on hit_ns.
TEST(SimMechanisms, HitLatencyDependsOnTheSm)
{
    Sim sim;
    const int64_t sms = 400, N = 50;
    for (double spread : {0.0, 0.42}) {
        pascal_sim_timing t = bare();
        t.hit_sm_spread = spread;
        pascal_sim_config c = pascal_sim_default_config();
        std::vector<double> end(sms);
        c.sms = sms, c.N = N, c.C = N, c.W = 1;
        c.cta_end_ns = end.data();
        sim.run(t, c);
        double lo = INFINITY, hi = -INFINITY, sum = 0;
        for (double e : end) {
            double per = e / (double)N;
            lo = std::min(lo, per), hi = std::max(hi, per), sum += per;
        }
        double h = t.hit_ns, mean = sum / (double)sms;
        if (spread == 0) {
            EXPECT_DOUBLE_EQ(lo, h);
            EXPECT_DOUBLE_EQ(hi, h);
            continue;
        }
        EXPECT_GE(lo, h * (1 - spread / 2) - 1e-9);
        EXPECT_LE(hi, h * (1 + spread / 2) + 1e-9);
        EXPECT_LT(lo, h * (1 - 0.4 * spread));   // 400 draws reach the ends
        EXPECT_GT(hi, h * (1 + 0.4 * spread));
        EXPECT_NEAR(mean, h, 0.05 * spread * h); // and centre on hit_ns
    }
}

// Slices split the L2's bandwidth.  With a barrier per round, M aligned
// workers request the same block in the same instant: with the block whole
// on one slice (no grain) the round waits for M transfers at
// l2_bytes_per_ns / S, S times one server's round.  Cut into S chunks, on
// S consecutive slices, the block is on every slice once and the round is
// one server's again; cut into S / 2, half the slices serve it, twice.
TEST(SimMechanisms, AHotBlockQueuesOnItsSlice)
{
    Sim sim;
    const int64_t M = 16, N = 400, S = 8;
    pascal_sim_timing t = bare();
    t.hit_ns = 0;
    t.l2_bytes_per_ns = 1024; // a 16 KiB block: 16 ns
    std::vector<int64_t> phases(M, 0);
    pascal_sim_config c = pascal_sim_default_config();
    c.sms = M, c.N = N, c.C = N, c.barrier = 1, c.phases = phases.data();
    double one = sim.run(t, c).ns_per_round;
    EXPECT_NEAR(one, M * 16.0, 1e-6);
    t.l2_slices = S;
    double whole = sim.run(t, c).ns_per_round;
    EXPECT_NEAR(whole, M * 16.0 * S, 1e-6);
    t.l2_slice_bytes = 16384.0 / S;
    EXPECT_NEAR(sim.run(t, c).ns_per_round, one, 1e-6);
    t.l2_slice_bytes = 16384.0 / (S / 2);
    EXPECT_NEAR(sim.run(t, c).ns_per_round, 2 * one, 1e-6);
    // Without the barrier the workers stagger, one slice's transfer apart,
    // and their requests spread over the slices: far from the aligned round.
    c.barrier = 0, c.phases = nullptr, c.W = 1, t.l2_slice_bytes = 0;
    double open = sim.run(t, c).makespan_ns / (double)N;
    EXPECT_LT(open, whole * 0.5);
    EXPECT_GE(open, one - 1e-6);
}

// Streams of distinct blocks read at once spread over the slices: with far
// more requests in flight than slices, the slices together serve at about
// the one server's rate.
TEST(SimMechanisms, ColdBlocksSpreadOverTheSlices)
{
    Sim sim;
    const int64_t sms = 64, N = 64, S = 16;
    pascal_sim_timing t = bare();
    t.hit_ns = 0, t.l2_bytes_per_ns = 1024;
    std::vector<int64_t> base(sms), len(sms, N), phase(sms, 0);
    for (int64_t i = 0; i < sms; i++)
        base[i] = i * N;
    pascal_sim_work k{};
    k.ctas = sms, k.units = 1, k.blocks = sms * N;
    k.base = base.data(), k.len = len.data(), k.phase = phase.data();
    pascal_sim_config c = pascal_sim_default_config();
    c.sms = sms, c.N = N, c.C = sms * N, c.work = &k, c.path = PASCAL_SIM_TMA, c.depth = 16;
    double one = sim.run(t, c).makespan_ns;
    t.l2_slices = S;
    double sliced = sim.run(t, c).makespan_ns;
    EXPECT_GT(sliced, one);        // never better than one server of the same bandwidth
    EXPECT_LT(sliced, one * 1.25); // but close, when the load spreads
}

// A slice's distance: slice z adds hit_ns s (v_z - 1/2).  One CTA reading
// whole blocks unloaded sees the mean of its blocks' slices; cut into many
// chunks each block waits for its farthest slice.
TEST(SimMechanisms, SliceLatencyAddsTheFarthestChunks)
{
    Sim sim;
    const int64_t N = 4000, S = 32;
    const double s = 0.5;
    pascal_sim_timing t = bare();
    t.l2_slices = S, t.hit_slice_spread = s;
    pascal_sim_config c = pascal_sim_default_config();
    c.N = N, c.C = N;
    double h = t.hit_ns, whole = sim.run(t, c).makespan_ns / (double)N;
    EXPECT_NEAR(whole, h, 0.25 * s * h); // the mean of the slices' draws
    EXPECT_NE(whole, h);
    t.l2_slice_bytes = 16384.0 / 64; // 64 chunks over 32 slices
    double chunked = sim.run(t, c).makespan_ns / (double)N;
    EXPECT_GT(chunked, h * (1 + 0.3 * s));
    EXPECT_LE(chunked, h * (1 + s / 2) + 1e-9);
}

// At most L requests of an SM in flight: a CTA whose pipeline would keep
// d - 1 = 7 in flight, with latency alone, takes hit_ns / min(L, 7) per block.
TEST(SimMechanisms, InFlightLimitBoundsThePipeline)
{
    Sim sim;
    const int64_t N = 2000;
    pascal_sim_timing t = bare();
    pascal_sim_config c = pascal_sim_default_config();
    c.path = PASCAL_SIM_TMA, c.depth = 8, c.N = N, c.C = N;
    for (int64_t L : {0, 1, 2, 3, 7, 9}) {
        t.sm_inflight_bytes = 16384.0 * (double)L;
        double per = sim.run(t, c).makespan_ns / (double)N;
        double want = t.hit_ns / (double)(L == 0 ? 7 : std::min<int64_t>(L, 7));
        EXPECT_NEAR(per, want, 1e-6 * want + 2 * t.hit_ns / (double)N) << L;
    }
    // Two CTAs on the SM share its limit.
    c.occupancy = 2, c.W = 1;
    t.sm_inflight_bytes = 16384.0 * 2;
    double per = sim.run(t, c).makespan_ns / (double)N;
    EXPECT_NEAR(per, 2 * t.hit_ns / 2, 0.01 * t.hit_ns);
    // A limit past PASCAL_SIM_MAX_INFLIGHT requests is refused.
    t.sm_inflight_bytes = 16384.0 * (PASCAL_SIM_MAX_INFLIGHT + 1);
    pascal_sim_result r{};
    ASSERT_EQ(pascal_sim_fit(&sim.ws, &c), 0);
    EXPECT_EQ(pascal_sim_run(sim.ws, &t, &c, &r), PASCAL_SIM_EINVAL);
}

// The oldest-first issue order (sync path).  One SM, four CTAs reading the
// same blocks, no bandwidth limit: a block's data comes h = hit_ns after its
// request, and each block is a job of w = 500 ns on the SM (no latency floor,
// no loop overhead).  First come, first served, the CTAs take turns and the
// server never idles: CTA k ends at h + w (4 (N - 1) + k + 1).  Oldest first,
// CTA 0's data (back h < w after its job) waits for CTA 1's job and then
// takes the server before CTAs 2 and 3, which starve: CTAs 0 and 1
// alternate, CTA 0's job j in [h + 2 w j, h + 2 w j + w], until both are
// done (h + 2 w N - w and h + 2 w N), then CTAs 2 and 3 do the same
// (h + 4 w N - w and h + 4 w N): two slots.
TEST(SimMechanisms, OldestFirstIssueLetsTheOldestCtasRunAhead)
{
    Sim sim;
    const int64_t N = 20;
    const double w = 500;
    pascal_sim_timing t = bare();
    t.wmma_sm_ns = w;
    pascal_sim_config c = pascal_sim_default_config();
    std::vector<double> end(4);
    c.sms = 1, c.occupancy = 4, c.path = PASCAL_SIM_SYNC, c.compute = 1;
    c.N = N, c.C = N, c.W = 1, c.cta_end_ns = end.data();
    const double h = t.hit_ns;
    sim.run(t, c);
    for (int k = 0; k < 4; k++)
        EXPECT_NEAR(end[k], h + w * (4 * (N - 1) + k + 1), 1e-6) << k;
    t.sm_issue_oldest = 1;
    sim.run(t, c);
    const double want[4] = {h + 2 * w * N - w, h + 2 * w * N, h + 4 * w * N - w, h + 4 * w * N};
    for (int k = 0; k < 4; k++)
        EXPECT_NEAR(end[k], want[k], 1e-6) << k;
}

// One SM of o slots on the bare machine, written out as a plain loop: each
// block's data comes h after its request; its job (w on the server, ending
// no earlier than its data's arrival + lat) starts when the server is free
// and the data is in, taken by the oldest CTA among those ready then
// (oldest) or the one whose data came first, ties to the smaller slot
// (first come, first served); a CTA requests its next block when its job
// ends, and a CTA's end frees its slot for the next CTA at once.  CTA end
// times.
std::vector<double> one_sm(int64_t o, int64_t ctas, int64_t N, double h, double w, double lat,
                           bool oldest)
{
    std::vector<int64_t> cta(o, -1), j(o, 0);
    std::vector<double> ready(o, INFINITY), end(ctas, NAN);
    int64_t next = 0;
    for (int64_t k = 0; k < o && next < ctas; k++)
        cta[k] = next++, ready[k] = h;
    double free = 0;
    for (;;) {
        int64_t b = -1;
        for (int64_t k = 0; k < o; k++)
            if (cta[k] >= 0 && (b < 0 || ready[k] < ready[b]))
                b = k;
        if (b < 0)
            return end;
        double start = std::max(free, ready[b]);
        if (oldest)
            for (int64_t k = 0; k < o; k++)
                if (cta[k] >= 0 && ready[k] <= start && cta[k] < cta[b])
                    b = k;
        double done = std::max(start + w, ready[b] + lat);
        free = start + w;
        if (++j[b] < N) {
            ready[b] = done + h;
            continue;
        }
        end[cta[b]] = done;
        j[b] = 0;
        cta[b] = next < ctas ? next++ : -1;
        ready[b] = cta[b] >= 0 ? done + h : INFINITY;
    }
}

// The simulator's two orders against that loop, on random shapes: several
// waves (a younger CTA then sits in an older one's slot), latency floors
// longer and shorter than the job.
TEST(SimMechanisms, IssueOrdersMatchAPlainLoop)
{
    Sim sim;
    uint64_t z = 12345;
    auto uni = [&z]() {
        z = z * 6364136223846793005ull + 1442695040888963407ull;
        return (double)(z >> 11) * 0x1.0p-53;
    };
    for (int trial = 0; trial < 200; trial++) {
        pascal_sim_timing t = bare();
        t.hit_ns = 50 + 400 * uni();
        t.wmma_sm_ns = 100 + 600 * uni();
        t.wmma_ns = 900 * uni();
        pascal_sim_config c = pascal_sim_default_config();
        c.sms = 1, c.occupancy = 2 + (int64_t)(4 * uni()), c.path = PASCAL_SIM_SYNC;
        c.compute = 1, c.N = 3 + (int64_t)(30 * uni()), c.W = 1 + (int64_t)(12 * uni()) / 4.0;
        c.C = c.N;
        int64_t ctas = llround(c.W * (double)c.occupancy);
        std::vector<double> end(ctas);
        c.cta_end_ns = end.data();
        for (int oldest : {0, 1}) {
            t.sm_issue_oldest = oldest;
            sim.run(t, c);
            std::vector<double> want =
                one_sm(c.occupancy, ctas, c.N, t.hit_ns, t.wmma_sm_ns, t.wmma_ns, oldest);
            for (int64_t k = 0; k < ctas; k++)
                ASSERT_NEAR(end[k], want[k], 1e-6 * want[k])
                    << "trial " << trial << " oldest " << oldest << " o " << c.occupancy << " W "
                    << c.W << " N " << c.N << " CTA " << k;
        }
    }
}

// The order applies where CTAs share an SM's server on the sync path: at
// occupancy 1 and on the tma path it changes nothing, bit for bit; a
// trajectory (which moves a sync run's wake-ups onto their times otherwise)
// leaves the run as it is; and a value other than 0 or 1 is refused.
TEST(SimMechanisms, OldestFirstIssueOnlyOrdersSharedSyncServers)
{
    Sim sim;
    pascal_sim_timing t{};
    t.hit_ns = 237.5, t.l2_bytes_per_ns = 2113.7, t.sm_bytes_per_ns = 41.3, t.sm_spread = 0.0317;
    t.dram_ns = 181.9, t.dram_bytes_per_ns = 271.3, t.consume_ns = 53.1, t.loop_ns = 11.7;
    t.wmma_ns = 13.3, t.wmma_sm_ns = 13.3, t.launch_ns = 211;
    pascal_sim_timing on = t;
    on.sm_issue_oldest = 1;
    for (int path : {PASCAL_SIM_SYNC, PASCAL_SIM_TMA})
        for (int64_t o : {1, 4}) {
            pascal_sim_config c = pascal_sim_default_config();
            c.sms = 8, c.occupancy = o, c.path = path, c.depth = 4, c.compute = 48;
            c.N = 300, c.W = 6, c.C = 200, c.seed = 9;
            pascal_sim_result a = sim.run(t, c), b = sim.run(on, c);
            if (path == PASCAL_SIM_SYNC && o > 1) {
                EXPECT_FALSE(same(a, b)) << "the order moved nothing";
                std::vector<double> tt(64), rounds(64);
                std::vector<int32_t> pos(64 * c.sms * o);
                c.traj_every = 100, c.traj_max = 64;
                c.traj_t = tt.data(), c.traj_rounds = rounds.data(), c.traj_pos = pos.data();
                pascal_sim_result d = sim.run(on, c);
                EXPECT_TRUE(same(b, d));
                EXPECT_GT(d.samples, 0);
            } else {
                EXPECT_TRUE(same(a, b)) << path << " " << o;
            }
        }
    on.sm_issue_oldest = 0.5;
    pascal_sim_config c = pascal_sim_default_config();
    pascal_sim_result r{};
    ASSERT_EQ(pascal_sim_fit(&sim.ws, &c), 0);
    EXPECT_EQ(pascal_sim_run(sim.ws, &on, &c, &r), PASCAL_SIM_EINVAL);
}

// Noise scales each service time by 1 + n (2u - 1): the same run for a seed,
// another for another seed, and the L2's rate kept on average.
TEST(SimMechanisms, ServiceNoiseIsSeededAndKeepsTheMeanRate)
{
    Sim sim;
    const int64_t M = 16, N = 2000;
    pascal_sim_timing t = bare();
    t.hit_ns = 0, t.l2_bytes_per_ns = 1024;
    pascal_sim_config c = pascal_sim_default_config();
    c.sms = M, c.N = N, c.C = N, c.W = 1;
    double quiet = sim.run(t, c).makespan_ns;
    t.service_noise = 0.6;
    pascal_sim_result a = sim.run(t, c), b = sim.run(t, c);
    c.seed = 2;
    pascal_sim_result d = sim.run(t, c);
    EXPECT_TRUE(same(a, b));
    EXPECT_NE(a.makespan_ns, d.makespan_ns);
    EXPECT_NE(a.makespan_ns, quiet);
    EXPECT_NEAR(a.makespan_ns, quiet, 0.02 * quiet);
    EXPECT_NEAR(d.makespan_ns, quiet, 0.02 * quiet);
}

// The profile's keys: the mechanisms are optional, and a bad value names the
// key, what it accepts and what it got.
TEST(SimMechanisms, ProfileKeysAreOptionalAndChecked)
{
    std::string head = "sim:\n";
    const char *req[] = {"hit_ns", "l2_bytes_per_ns", "sm_bytes_per_ns", "sm_spread", "dram_ns",
                         "dram_bytes_per_ns", "consume_ns", "loop_ns", "wmma_ns", "wmma_sm_ns",
                         "launch_ns", "barrier_ns", "jitter_ns"};
    for (const char *k : req)
        head += std::string("  ") + k + ": {value: 1, source: \"assumed: test\"}\n";
    pascal_sim_timing t{};
    pascal_error err{};
    ASSERT_EQ(pascal_device_sim_parse(head.data(), head.size(), "p.yaml", &t, &err), 0) << err.msg;
    EXPECT_EQ(t.l2_slices, 0);
    EXPECT_EQ(t.sm_inflight_bytes, 0);
    std::string on = head + "  l2_slices: {value: 48, source: \"assumed: test\"}\n" +
                     "  service_noise: {value: 0.25, source: \"assumed: test\"}\n";
    ASSERT_EQ(pascal_device_sim_parse(on.data(), on.size(), "p.yaml", &t, &err), 0) << err.msg;
    EXPECT_EQ(t.l2_slices, 48);
    EXPECT_EQ(t.service_noise, 0.25);
    struct {
        const char *line, *want;
    } bad[] = {
        {"  l2_slices: {value: 2.5, source: \"assumed: x\"}\n", "sim.l2_slices.value: expected a whole number of slices from 0 to 256, got \"2.5\""},
        {"  l2_slices: {value: 257, source: \"assumed: x\"}\n", "expected a whole number of slices"},
        {"  service_noise: {value: 1.5, source: \"assumed: x\"}\n", "sim.service_noise.value: expected a fraction from 0 to 1"},
        {"  sm_inflight_bytes: {value: -1, source: \"assumed: x\"}\n", "sim.sm_inflight_bytes.value: expected a size >= 0 in bytes"},
        {"  hit_sm_spread: {value: 0.2}\n", "sim.hit_sm_spread.source: expected where the value comes from"},
        {"  sm_issue_oldest: {value: 0.5, source: \"assumed: x\"}\n", "sim.sm_issue_oldest.value: expected 0 (first come, first served) or 1 (the oldest CTA first), got \"0.5\""},
    };
    for (const auto &b : bad) {
        std::string text = head + b.line;
        pascal_error e{};
        EXPECT_NE(pascal_device_sim_parse(text.data(), text.size(), "p.yaml", &t, &e), 0) << b.line;
        EXPECT_NE(std::string(e.msg).find(b.want), std::string::npos) << e.msg;
        EXPECT_NE(std::string(e.msg).find("p.yaml:15:"), std::string::npos) << e.msg;
    }
}

} // namespace
