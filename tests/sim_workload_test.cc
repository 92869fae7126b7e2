// The progress simulator on workload points (engine/eval_sim.h): with a
// grid barrier per round, wave after wave, its fills are the traffic
// model's exact replay of the kernel's trace (fill_bytes_replay, itself
// checked against a brute-force replay in tests/engine_workload_test.cc)
// at every capacity, for attention with KV-head transitions and GEMM in
// every raster order with split-K, aligned and spread phases.  The open
// scan's columns are those of its own run: traffic_sim = fill_bytes_sim /
// ideal_bytes, K_sim counts the workload's waves N rounds.  The planner
// counts the simulation's requests and the simulator's memory.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "engine/eval.h"
#include "engine/eval_sim.h"
#include "engine/plan.h"
#include "model/sim.h"
#include "model/workload.h"
#include "sweeps/spec.h"

namespace {

pascal_sim_timing test_timing()
{
    pascal_sim_timing t{};
    t.hit_ns = 229.1, t.l2_bytes_per_ns = 2101.3, t.sm_bytes_per_ns = 40.9, t.sm_spread = 0.05;
    t.dram_ns = 170.3, t.dram_bytes_per_ns = 281.7, t.consume_ns = 49.9, t.loop_ns = 10.7;
    t.wmma_ns = 13.1, t.wmma_sm_ns = 6.7, t.launch_ns = 197.0, t.barrier_ns = 1003.0;
    t.jitter_ns = 23.9;
    return t;
}

struct Point {
    pascal_spec *spec = nullptr;
    pascal_eval *ev = nullptr;
    pascal_wl_sim *wl = nullptr;
    pascal_sim *sim = nullptr;
    ~Point()
    {
        pascal_sim_free(sim);
        pascal_wl_sim_free(wl);
        pascal_eval_free(ev);
        pascal_spec_free(spec);
    }
};

std::string phases_of(int64_t M, int64_t N, bool spread)
{
    std::string t = ", pattern: explicit, phases: [";
    for (int64_t q = 0; q < M; q++)
        t += (q ? ", " : "") + std::to_string(spread ? (q * 5 + 3) % N : 0);
    return t + "]";
}

// Every point of the spec: the barrier simulation's fill bytes against the
// kernel replay column.
void barrier_equals_replay(const std::string &workload, int64_t M, int64_t N, int64_t maxC,
                           bool spread)
{
    char buf[1024];
    std::snprintf(buf, sizeof buf,
                  "name: t\nmodels: [traffic, lru_replay, simulate]\nworkload:\n  %s\n"
                  "fixed: {sms: %lld, occupancy: 1, path: tma, depth: 3, compute: 2%s}\n"
                  "axes:\n  C: {from: 1, to: %lld, step: 1}\n",
                  workload.c_str(), (long long)M, phases_of(M, N, spread).c_str(), (long long)maxC);
    Point pt;
    pascal_error err{};
    ASSERT_EQ(pascal_spec_parse(buf, std::strlen(buf), nullptr, &pt.spec, &err), 0) << err.msg;
    pt.ev = pascal_eval_create(pascal_spec_models(pt.spec));
    pt.wl = pascal_wl_sim_create();
    pascal_sim_timing t = test_timing();
    const int col = PASCAL_COL_FILL_BYTES_REPLAY;
    for (uint64_t i = 0; i < pascal_spec_size(pt.spec); i++) {
        pascal_point p;
        pascal_sim_config c;
        pascal_workload w;
        pascal_sim_result r;
        double replay;
        ASSERT_EQ(pascal_spec_point(pt.spec, i, &p, &err), 1) << err.msg;
        ASSERT_EQ(pascal_eval_point(pt.ev, &p, &col, 1, &replay), 0);
        ASSERT_EQ(pascal_wl_sim_config(pt.wl, &p, &c, &w), 0);
        ASSERT_EQ(c.work->ctas, w.ctas);
        c.barrier = 1;
        c.seed = 11 + i;
        ASSERT_EQ(pascal_sim_fit(&pt.sim, &c), 0);
        ASSERT_EQ(pascal_sim_run(pt.sim, &t, &c, &r), PASCAL_SIM_OK);
        ASSERT_EQ((double)r.fills * (double)w.block_bytes, replay)
            << workload << " M " << M << " C " << c.C << (spread ? " spread" : " aligned");
        EXPECT_EQ(r.requests, w.requests);
        EXPECT_EQ(r.waves, (w.ctas + M - 1) / M);
    }
}

TEST(SimWorkload, BarrierEqualsKernelReplayAttention)
{
    // 2 batches x 4 query heads over 2 KV heads, 3 query tiles: 24 CTAs,
    // 8 streams of 7 blocks; waves straddle KV heads.
    const std::string attn = "attention: {batch: 2, q_heads: 4, kv_heads: 2, seq_q: 40, "
                             "seq_kv: 100, head_dim: 4, dtype: bf16, tile_q: 16, tile_kv: 16}";
    for (int64_t M : {1, 4, 7})
        for (bool spread : {false, true})
            barrier_equals_replay(attn, M, 7, 8 * 7 + 2, spread);
}

TEST(SimWorkload, BarrierEqualsKernelReplayGemm)
{
    // 5 x 4 tiles of 64 x 128 (units of 64: 1 A, 2 B), split-K 2 over 8 K
    // tiles: 40 CTAs, 4 blocks per slice.
    for (const char *raster : {"row", "column", "swizzle"}) {
        std::string g = std::string("gemm: {gemm_m: 300, gemm_n: 500, gemm_k: 256, dtype: fp8, "
                                    "tile_m: 64, tile_n: 128, tile_k: 32, raster: ") +
                        raster + ", swizzle: 2, split_k: 2}";
        for (int64_t M : {1, 4, 7})
            for (bool spread : {false, true})
                barrier_equals_replay(g, M, 4, 90, spread);
    }
}

// The sweep's columns on a workload point come from one open-scan run of
// the kernel: the same configuration run here gives them, and the traffic
// columns are its fills in bytes and their ratio to the ideal.  Without the
// simulate model the traffic-by-simulation columns are NaN.
TEST(SimWorkload, SweepColumnsAreTheKernelRun)
{
    const char *text = "name: t\nmodels: [traffic, simulate]\nworkload:\n"
                       "  attention: {batch: 2, q_heads: 8, kv_heads: 2, seq_q: 1, seq_kv: 2048, "
                       "head_dim: 64, dtype: bf16, tile_q: 64, tile_kv: 64}\n"
                       "fixed: {sms: 3, occupancy: 2, path: tma, depth: 4, compute: 1, "
                       "pattern: gaussian, sigma: 1.5}\naxes: {capacity_bytes: [256KiB]}\n";
    Point pt;
    pascal_error err{};
    ASSERT_EQ(pascal_spec_parse(text, std::strlen(text), nullptr, &pt.spec, &err), 0) << err.msg;
    pt.ev = pascal_eval_create(pascal_spec_models(pt.spec));
    pascal_sim_timing t = test_timing();
    pascal_eval_set_sim(pt.ev, &t, 0, nullptr, nullptr);
    const int cols[] = {PASCAL_COL_K_SIM, PASCAL_COL_RHO_SIM, PASCAL_COL_NS_PER_ROUND_SIM,
                        PASCAL_COL_FILL_BYTES_SIM, PASCAL_COL_TRAFFIC_SIM, PASCAL_COL_IDEAL_BYTES};
    double out[6];
    pascal_point p;
    ASSERT_EQ(pascal_spec_point(pt.spec, 0, &p, &err), 1) << err.msg;
    ASSERT_EQ(pascal_eval_point(pt.ev, &p, cols, 6, out), 0);
    // The same kernel, run here.
    pascal_sim_config c;
    pascal_workload w;
    pascal_sim_result r;
    pt.wl = pascal_wl_sim_create();
    ASSERT_EQ(pascal_wl_sim_config(pt.wl, &p, &c, &w), 0);
    ASSERT_EQ(pascal_sim_fit(&pt.sim, &c), 0);
    ASSERT_EQ(pascal_sim_run(pt.sim, &t, &c, &r), PASCAL_SIM_OK);
    // 2 x 8 CTAs of 2 requests (K, V) per step, 32 steps of 8 KiB blocks;
    // 6 slots: 3 waves.
    ASSERT_EQ(w.ctas, 16);
    ASSERT_EQ(w.blocks, 32);
    ASSERT_EQ(w.block_bytes, 8192);
    EXPECT_EQ(r.requests, 16 * 2 * 32);
    EXPECT_EQ(c.C, 32);
    double rounds = 3.0 * 32;
    EXPECT_EQ(out[0], (double)r.fills / rounds);
    EXPECT_EQ(out[1], (double)r.fills / (16.0 * 2 * 32));
    EXPECT_EQ(out[2], r.makespan_ns / rounds);
    EXPECT_EQ(out[3], (double)r.fills * 8192);
    EXPECT_EQ(out[4], out[3] / out[5]);
    EXPECT_EQ(out[5], 8.0 * 32 * 8192); // K and V of 2 x 2 KV heads: 8 streams of 32 blocks
    EXPECT_GE(out[3], out[5]);              // every block fetched at least once
    // Without timing the columns are NaN; so are the traffic columns by
    // simulation in a sweep without the simulate model.
    pascal_eval *bare = pascal_eval_create(pascal_spec_models(pt.spec));
    ASSERT_EQ(pascal_eval_point(bare, &p, cols, 6, out), 0);
    for (int k = 0; k < 5; k++)
        EXPECT_TRUE(std::isnan(out[k])) << k;
    pascal_eval_free(bare);
    bare = pascal_eval_create(1u << PASCAL_MODEL_TRAFFIC);
    pascal_eval_set_sim(bare, &t, 0, nullptr, nullptr);
    ASSERT_EQ(pascal_eval_point(bare, &p, cols + 3, 2, out), 0);
    EXPECT_TRUE(std::isnan(out[0]) && std::isnan(out[1]));
    pascal_eval_free(bare);
}

// The planner prices a workload simulation at 35 ns per block request (one
// CTA per SM; 60 above) on top of the timed rest, and bounds the
// simulator's workspace: a cache entry per block of every stream.
TEST(SimWorkload, PlannerCountsTheKernelSimulation)
{
    // 64 x 64 query heads over 8 KV heads: 4096 CTAs x 2 requests x N steps.
    auto text = [](const char *models, const char *seq) {
        return std::string("name: t\nmodels: [") + models +
               "]\nworkload:\n  attention: {batch: 64, q_heads: 64, kv_heads: 8, seq_q: 1, "
               "seq_kv: 8192, head_dim: 128, dtype: bf16, tile_q: 64, tile_kv: 64}\n"
               "fixed: {sms: 132, occupancy: 1, path: tma, depth: 3, compute: 0}\n"
               "axes:\n  seq_kv: [" + seq + "]\n  capacity_bytes: [50MiB]\n";
    };
    pascal_plan_opts o{};
    o.threads = 2;
    o.memory_bytes = 1e12;
    pascal_plan_estimate with{};
    std::string a = text("traffic, simulate", "8192");
    pascal_spec *sa = nullptr, *sb = nullptr;
    pascal_error err{};
    ASSERT_EQ(pascal_spec_parse(a.data(), a.size(), "a.yaml", &sa, &err), 0) << err.msg;
    pascal_plan_estimate_run(sa, 0, 1, &o, &with);
    // at least the simulator's price at occupancy 1, 20 ns a request
    // (docs/limits.md)
    double requests = 4096.0 * 2 * 128;
    EXPECT_GE(with.run_seconds, 20e-9 * requests / o.threads);
    pascal_spec_free(sa);
    // 1024 streams of 2^14 blocks: the simulator's cache entries alone are
    // 24 bytes x 2^24 = 384 MiB, over a 300 MB budget.
    std::string big = text("traffic, simulate", "1048576");
    ASSERT_EQ(pascal_spec_parse(big.data(), big.size(), "c.yaml", &sa, &err), 0) << err.msg;
    o.threads = 1;
    o.memory_bytes = 300e6;
    pascal_plan_result r{};
    EXPECT_EQ(pascal_plan_check(sa, 0, 1, &o, &r, &err), PASCAL_EINPUT);
    EXPECT_NE(std::string(err.msg).find("expected the models' workspaces to fit in memory"),
              std::string::npos) << err.msg;
    pascal_spec_free(sa);
    // The static waves alone fit.
    std::string waves = text("traffic", "1048576");
    ASSERT_EQ(pascal_spec_parse(waves.data(), waves.size(), "d.yaml", &sb, &err), 0) << err.msg;
    EXPECT_EQ(pascal_plan_check(sb, 0, 1, &o, &r, &err), 0) << err.msg;
    pascal_spec_free(sb);
}

} // namespace

namespace {

// The open scan on a request program (causal, split-KV, FlashInfer's
// chunks): one slot runs the CTAs one after another, so the simulator's
// request log is the launch order written out here CTA by CTA, each step
// a K then a V block; with a cache that holds everything it fills each
// block once.  More slots run the same requests, and the time columns
// count the program's own rounds.
TEST(SimWorkload, RequestProgramsRunTheirOwnSteps)
{
    struct Case {
        const char *workload;
        std::vector<int64_t> order;   // block ids, one slot
    } cases[] = {
        // FlashAttention-2 causal, 2 heads of 32 rows, tiles 16 x 8: grid
        // (2 query tiles, 1, 2 heads), tile 0 reads KV blocks 1, 0 and tile
        // 1 blocks 3 .. 0 (from the last down); K is stream 0 (ids 0..3),
        // V stream 1 (ids 4..7)
        {"attention: {q_heads: 2, kv_heads: 1, seq_q: 32, seq_kv: 32, head_dim: 16, dtype: bf16, "
         "tile_q: 16, tile_kv: 8, causal: true, kernel: flash-attn-2}",
         {1, 5, 0, 4, 3, 7, 2, 6, 1, 5, 0, 4, 1, 5, 0, 4, 3, 7, 2, 6, 1, 5, 0, 4}},
        // its split-KV kernel, 2 splits of 64 x 128 tiles over 300 keys (3
        // blocks: splits of 2 and 1), one query token, 2 heads folded into
        // one KV head's rows: grid (1, 2 splits, 1), each range from its last
        {"attention: {q_heads: 2, kv_heads: 1, seq_q: 1, seq_kv: 300, head_dim: 128, dtype: bf16, "
         "tile_q: 16, tile_kv: 8, kernel: flash-attn-2, num_splits: 2}",
         {1, 4, 0, 3, 2, 5}},
        // FlashInfer, G 2 over 2 KV heads, 8-token steps, 40 pages; on 4
        // SMs x 1 the plan splits each request into 2 chunks of 20 pages
        // (40 blocks), KV head outermost, each chunk read forward
        {"attention: {q_heads: 4, kv_heads: 2, seq_q: 1, seq_kv: 640, head_dim: 128, dtype: bf16, "
         "tile_q: 16, tile_kv: 8, kernel: flashinfer}",
         {}},
    };
    // FlashInfer's requests: per CTA 40 steps of K (stream 2 h) then V
    // (2 h + 1), N = 80 (their order across 4 slots interleaves)
    for (int64_t h = 0; h < 2; h++)
        for (int64_t k = 0; k < 2; k++)
            for (int64_t j = 0; j < 40; j++) {
                cases[2].order.push_back(2 * h * 80 + k * 40 + j);
                cases[2].order.push_back((2 * h + 1) * 80 + k * 40 + j);
            }
    pascal_sim_timing t = test_timing();
    std::vector<Case> all(std::begin(cases), std::end(cases));
    // FlashAttention-3's persistent CTAs (causal, its 192 x 128 tiles for d
    // 64): one SM runs its one CTA over the tiles in the scheduler's order,
    // as the lock-step walk of one slot gives them
    all.push_back({"attention: {q_heads: 2, kv_heads: 1, seq_q: 256, seq_kv: 256, head_dim: 64, "
                   "dtype: bf16, tile_q: 16, tile_kv: 8, causal: true, kernel: flash-attn-3}",
                   {}});
    {
        pascal_workload_shape fa3{};
        fa3.kind = PASCAL_WORKLOAD_ATTENTION, fa3.dtype = PASCAL_DTYPE_BF16, fa3.batch = 1;
        fa3.q_heads = 2, fa3.kv_heads = 1, fa3.seq_q = 256, fa3.seq_kv = 256, fa3.head_dim = 64;
        fa3.tile_q = 16, fa3.tile_kv = 8, fa3.causal = 1, fa3.kernel = PASCAL_KERNEL_FLASH3, fa3.sms = 1;
        pascal_workload w;
        ASSERT_EQ(pascal_workload_derive(&fa3, &w), PASCAL_WL_OK);
        ASSERT_EQ(w.persistent, 2);
        int64_t slots[2];
        auto visit = [](void *ctx, int what, int64_t, int64_t id, int64_t) {
            if (what == PASCAL_ACCESS_BLOCK)
                static_cast<std::vector<int64_t> *>(ctx)->push_back(id);
            return 0;
        };
        ASSERT_EQ(pascal_workload_walk(&w, 1, nullptr, 32, slots, visit, &all.back().order), 0);
        ASSERT_GT(all.back().order.size(), 4u);
    }
    for (const Case &cs : all)
        for (int64_t sms : {1, 4}) {
            bool flashinfer = std::strstr(cs.workload, "flashinfer") != nullptr;
            bool fa3 = std::strstr(cs.workload, "flash-attn-3") != nullptr;
            if ((flashinfer && sms == 1) || (fa3 && sms != 1))
                continue;   /* one slot fills the plan's grid: no split; FA3: one SM */
            char buf[1024];
            std::snprintf(buf, sizeof buf,
                          "name: t\nmodels: [traffic, lru_replay, simulate]\nworkload:\n  %s\n"
                          "fixed: {sms: %lld, occupancy: 1, path: tma, depth: 2, compute: 0}\n"
                          "axes:\n  C: [1000]\n",
                          cs.workload, (long long)sms);
            Point pt;
            pascal_error err{};
            ASSERT_EQ(pascal_spec_parse(buf, std::strlen(buf), nullptr, &pt.spec, &err), 0) << err.msg;
            pt.wl = pascal_wl_sim_create();
            pascal_point p;
            pascal_sim_config c;
            pascal_workload w;
            pascal_sim_result r;
            ASSERT_EQ(pascal_spec_point(pt.spec, 0, &p, &err), 1) << err.msg;
            ASSERT_EQ(pascal_wl_sim_config(pt.wl, &p, &c, &w), 0) << cs.workload;
            EXPECT_EQ(w.ring, 0);
            std::vector<int32_t> blocks(4096);
            std::vector<uint8_t> outcome(4096);
            c.req_block = blocks.data(), c.req_outcome = outcome.data(), c.req_max = 4096;
            ASSERT_EQ(pascal_sim_fit(&pt.sim, &c), 0);
            ASSERT_EQ(pascal_sim_run(pt.sim, &t, &c, &r), PASCAL_SIM_OK);
            ASSERT_EQ(r.requests, (int64_t)cs.order.size()) << cs.workload;
            EXPECT_EQ(r.requests, w.requests);
            std::vector<int64_t> distinct(cs.order);
            std::sort(distinct.begin(), distinct.end());
            distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
            EXPECT_EQ(r.fills, (int64_t)distinct.size());
            std::vector<int64_t> got(blocks.begin(), blocks.begin() + r.requests);
            if (sms == 1) {
                for (size_t i = 0; i < cs.order.size(); i++)
                    ASSERT_EQ(got[i], cs.order[i]) << cs.workload << " request " << i;
            } else {   /* the same requests, interleaved */
                std::vector<int64_t> want(cs.order);
                std::sort(want.begin(), want.end());
                std::sort(got.begin(), got.end());
                EXPECT_EQ(got, want) << cs.workload;
            }
            // the program's steps (requests / 2 units) over its M slots
            EXPECT_DOUBLE_EQ(r.H, (double)r.requests / 2 / (double)sms);
        }
}

// CUTLASS stream-K's blocks of several tiles (kernel cutlass-streamk): the
// simulator runs each launch's tiles one after another in its slot, the
// next starting the moment the last ends (no launch between), and launches
// without work not at all; every K iteration of every tile once.  sms 4,
// occupancy 1: 2 x 5 tiles of 13 K iterations (2 full waves and 2 tiles
// left); get_sk_blocks on the last wave and the 2 (6 tiles, 78
// iterations) with 4 blocks saves 26 - 20 - int(2 + 0.8 + 4) = 0 >= 0
// iterations, so 4 stream-K blocks run iterations [0, 20), [20, 40),
// [40, 59), [59, 78): tiles {1, 0}, {3, 2, 1}, {4, 3}, {5, 4} from the last
// down (5 tiles follow another in their slot), and 4 data-parallel
// blocks tiles 6 to 9.
TEST(SimWorkload, StreamKBlocksRunTheirTilesInTheirSlot)
{
    const char *text = "name: t\nmodels: [traffic, lru_replay, simulate]\nworkload:\n  gemm: {gemm_m: 32, "
                       "gemm_n: 80, gemm_k: 208, dtype: bf16, tile_m: 16, tile_n: 16, tile_k: 16, "
                       "kernel: cutlass-streamk}\n"
                       "fixed: {sms: 4, occupancy: 1, path: tma, depth: 2, compute: 0}\naxes:\n  C: [8, 1000]\n";
    Point pt;
    pascal_error err{};
    ASSERT_EQ(pascal_spec_parse(text, std::strlen(text), nullptr, &pt.spec, &err), 0) << err.msg;
    pt.wl = pascal_wl_sim_create();
    pascal_sim_timing t = test_timing();
    for (uint64_t i = 0; i < pascal_spec_size(pt.spec); i++) {
        pascal_point p;
        pascal_sim_config c;
        pascal_workload w;
        pascal_sim_result r;
        ASSERT_EQ(pascal_spec_point(pt.spec, i, &p, &err), 1) << err.msg;
        ASSERT_EQ(pascal_wl_sim_config(pt.wl, &p, &c, &w), 0);
        ASSERT_EQ(w.persistent, 3);
        ASSERT_EQ(w.sk.sk_tiles, 6);
        ASSERT_EQ(w.sk.sk_blocks, 4);
        // the work items with steps, launch by launch
        int64_t items = 0, chained = 0;
        for (int64_t k = 0; k < w.ctas; k++)
            items += pascal_workload_cta_steps(&w, k) > 0;
        ASSERT_EQ(c.work->ctas, items);
        ASSERT_NE(c.work->chain, nullptr);
        std::vector<double> start((size_t)items, -1), end((size_t)items, -1);
        c.cta_start_ns = start.data(), c.cta_end_ns = end.data();
        ASSERT_EQ(pascal_sim_fit(&pt.sim, &c), 0);
        ASSERT_EQ(pascal_sim_run(pt.sim, &t, &c, &r), PASCAL_SIM_OK);
        EXPECT_EQ(r.requests, w.requests);   // 10 tiles x 13 iterations x 2 units
        EXPECT_EQ(r.requests, 10 * 13 * 2);
        EXPECT_EQ(items, 9 + 4);
        for (int64_t k = 0; k < items; k++) {
            ASSERT_GE(start[(size_t)k], 0) << k;
            ASSERT_GT(end[(size_t)k], start[(size_t)k]) << k;
            if (c.work->chain[k]) {
                chained++;
                EXPECT_EQ(start[(size_t)k + 1], end[(size_t)k]) << "tile " << k + 1;
            }
        }
        EXPECT_EQ(chained, 5);
        if (c.C >= 1000)   // everything fits: each block once
            EXPECT_EQ(r.fills, w.streams * w.blocks);
    }
}

} // namespace
