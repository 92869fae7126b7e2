// The planner's memory bound (engine/plan.h) rests on byte counts that the
// workspaces do not report themselves: pascal_static_bytes, pascal_lru_bytes,
// pascal_eval_bytes, pascal_wl_eval_bytes and pascal_wl_sim_bytes.  Each is checked here against
// the heap the allocator reports around the real allocation (mallinfo2, or
// the sanitizer's count of allocated bytes under AddressSanitizer), so that
// a workspace that grows an array without its count growing fails.
#include <gtest/gtest.h>

#include <malloc.h>

#include <cmath>
#include <cstring>
#include <string>

#if defined(__SANITIZE_ADDRESS__)
// The sanitizer runtime's allocator statistics (its public interface,
// declared here: the header is not installed everywhere).
extern "C" size_t __sanitizer_get_current_allocated_bytes(void);
#endif

#include "engine/eval.h"
#include "engine/eval_sim.h"
#include "engine/eval_workload.h"
#include "engine/run.h"
#include "model/replay.h"
#include "model/static.h"
#include "devices/sim_timing.h"
#include "sweeps/spec.h"

namespace {

// Bytes in use on the heap now.
double heap_bytes()
{
#if defined(__SANITIZE_ADDRESS__)
    return (double)__sanitizer_get_current_allocated_bytes();
#else
    struct mallinfo2 m = mallinfo2();
    return (double)m.uordblks + (double)m.hblkhd;
#endif
}

// The allocator adds at most a header per block and, for large blocks, a
// page: a few kilobytes over the tens of megabytes measured here.
const double kSlackBytes = 256.0 * 1024;

TEST(PlanMemory, StaticWorkspaceBytesAreWhatItAllocates)
{
    for (int64_t M : {100000, 1 << 20}) {
        double before = heap_bytes();
        pascal_static *ws = pascal_static_create(M);
        ASSERT_NE(ws, nullptr);
        double used = heap_bytes() - before;
        pascal_static_free(ws);
        EXPECT_GE(used, pascal_static_bytes(M)) << M;
        EXPECT_LE(used, pascal_static_bytes(M) + kSlackBytes) << M;
    }
}

TEST(PlanMemory, LruBytesAreWhatItAllocates)
{
    for (int64_t n : {3000000, 1 << 22}) {
        double before = heap_bytes();
        pascal_lru *lru = pascal_lru_create(n);
        ASSERT_NE(lru, nullptr);
        double used = heap_bytes() - before;
        pascal_lru_free(lru);
        EXPECT_GE(used, pascal_lru_bytes(n)) << n;
        EXPECT_LE(used, pascal_lru_bytes(n) + kSlackBytes) << n;
    }
}

struct Spec {
    pascal_spec *s = nullptr;
    std::string err;
    explicit Spec(const std::string &text)
    {
        pascal_error e{};
        if (pascal_spec_parse(text.data(), text.size(), "spec.yaml", &s, &e) != 0)
            err = e.msg;
    }
    ~Spec() { pascal_spec_free(s); }
};

// What an evaluator holds after evaluating point 0 of a spec, and the bound
// the planner uses for it.
void held_and_bound(const Spec &spec, double *held, double *bound)
{
    pascal_point p;
    pascal_error err{};
    ASSERT_EQ(pascal_spec_point(spec.s, 0, &p, &err), 1) << err.msg;
    const int *cols = pascal_spec_columns(spec.s);
    int ncols = pascal_spec_ncolumns(spec.s);
    double out[PASCAL_NCOLUMN];
    unsigned models = pascal_spec_models(spec.s);
    double before = heap_bytes();
    pascal_eval *ev = pascal_eval_create(models);
    ASSERT_NE(ev, nullptr);
    ASSERT_EQ(pascal_eval_point(ev, &p, cols, ncols, out), 0);
    *held = heap_bytes() - before;
    pascal_eval_free(ev);
    *bound = std::isnan(p.v[PASCAL_P_WORKLOAD])
                 ? pascal_eval_bytes(models, (int64_t)p.v[PASCAL_P_N], (int64_t)p.v[PASCAL_P_M])
                 : pascal_eval_bytes(0, 0, 0) + pascal_wl_eval_bytes(models, p.v);
}

TEST(PlanMemory, EvaluatorBytesBoundWhatItHolds)
{
    // M = 100000 rounds up to 2^17 workers; the replay's ring of 2^21
    // blocks with 2 workers (N M requests to replay: a fraction of a second).
    Spec wide("name: m\nmodels: [ttl, lru, residency]\nfixed: {N: 4096, M: 100000, pattern: uniform}\n"
              "axes:\n  C: [500]\n");
    Spec ring("name: r\nmodels: [lru_replay]\nfixed: {N: 2097152, M: 2, pattern: uniform}\naxes:\n  C: [500]\n");
    for (const Spec *s : {&wide, &ring}) {
        ASSERT_TRUE(s->s) << s->err;
        double held, bound;
        held_and_bound(*s, &held, &bound);
        EXPECT_LE(held, bound + kSlackBytes);
        EXPECT_GE(held, 0.9 * bound); // the bound is the workspaces, not a guess
    }
}

TEST(PlanMemory, WorkloadEvaluatorBytesBoundWhatItHolds)
{
    // 16 x 32 decode CTAs on M = 132 slots: R = 264 requests per wave, 4
    // waves; 256 streams of 1024 blocks, so lru_replay replays the kernel.
    Spec wl("name: w\nmodels: [traffic, lru, residency, lru_replay]\nworkload:\n  attention: {batch: 16, "
            "q_heads: 32, kv_heads: 8, seq_q: 1, seq_kv: 65536, head_dim: 128, dtype: bf16, tile_q: 64, "
            "tile_kv: 64}\nfixed: {M: 132}\naxes:\n  capacity_bytes: [8MiB]\n");
    ASSERT_TRUE(wl.s) << wl.err;
    double held, bound;
    held_and_bound(wl, &held, &bound);
    EXPECT_LE(held, bound);
    EXPECT_GT(held, 0.0);
    // Without waves to build (models: [workload]) nothing is held.
    pascal_point p;
    ASSERT_EQ(pascal_spec_point(wl.s, 0, &p, nullptr), 1);
    EXPECT_EQ(pascal_wl_eval_bytes(1u << PASCAL_MODEL_WORKLOAD, p.v), 0.0);
}

// The simulate model on a workload point holds the kernel's work table and
// the simulator's workspace (a cache entry per block of every stream).
TEST(PlanMemory, WorkloadSimulationBytesBoundWhatItHolds)
{
    // 512 decode CTAs x 2 requests on M = 96 slots; 256 streams of 1024
    // blocks: 2^18 cache entries.
    Spec wl("name: w\nmodels: [simulate]\nworkload:\n  attention: {batch: 16, q_heads: 32, "
            "kv_heads: 8, seq_q: 1, seq_kv: 65536, head_dim: 128, dtype: bf16, tile_q: 64, "
            "tile_kv: 64}\nfixed: {sms: 48, occupancy: 2, path: tma, depth: 4, compute: 0}\n"
            "axes:\n  capacity_bytes: [8MiB]\n");
    ASSERT_TRUE(wl.s) << wl.err;
    pascal_sim_timing tm;
    pascal_error err{};
    ASSERT_EQ(pascal_device_sim_load((std::string(PASCAL_SOURCE_DIR) +
                                      "/configs/devices/gb10.yaml").c_str(), &tm, &err), 0)
        << err.msg;
    pascal_point p;
    ASSERT_EQ(pascal_spec_point(wl.s, 0, &p, &err), 1) << err.msg;
    const int col = PASCAL_COL_K_SIM;
    double out, before = heap_bytes();
    pascal_eval *ev = pascal_eval_create(pascal_spec_models(wl.s));
    ASSERT_NE(ev, nullptr);
    pascal_eval_set_sim(ev, &tm, 0, nullptr, nullptr);
    ASSERT_EQ(pascal_eval_point(ev, &p, &col, 1, &out), 0);
    ASSERT_FALSE(std::isnan(out));
    double held = heap_bytes() - before;
    pascal_eval_free(ev);
    double bound = pascal_eval_bytes(0, 0, 0) + pascal_wl_eval_bytes(1u << PASCAL_MODEL_SIMULATE, p.v) +
                   pascal_wl_sim_bytes(p.v);
    EXPECT_LE(held, bound);
    EXPECT_GE(held, 0.7 * bound); // the bound is the workspaces, not a guess
}

// The batch loop's buffers (engine/run.h: two batches of slots, one
// evaluated while the other is written, and the exact sizing's per-slot
// results) against the heap pascal_run holds when it reports progress 0,
// just before its team starts: nothing else of that size is live then.
struct HeapAtStart {
    double before = 0, at_start = -1;
};

void note_start(void *ctx, uint64_t done, uint64_t total)
{
    HeapAtStart *h = static_cast<HeapAtStart *>(ctx);
    (void)total;
    if (done == 0)
        h->at_start = heap_bytes();
}

const char *kBatchSpec = "name: b\nmodels: [ttl, lru_band, lru, residency, che]\n"
                         "fixed: {N: 1000, M: 8}\naxes:\n  pattern: [uniform, gaussian]\n"
                         "  seed: {from: 1, to: 400, step: 1}\n  C: {from: 10, to: 1000, num: 200}\n";

TEST(PlanMemory, RunBufferBytesAreWhatTheBatchLoopHolds)
{
    Spec spec(kBatchSpec);   // 160000 points: two full batches of 65536
    ASSERT_TRUE(spec.s) << spec.err;
    pascal_run_opts o{};
    pascal_run_stats st{};
    pascal_error err{};
    HeapAtStart h;
    o.threads = 1;
    o.progress = note_start;
    o.progress_ctx = &h;
    ASSERT_EQ(pascal_run(spec.s, &o, &st, &err), 0) << err.msg;   // the runtime's own first allocations
    ASSERT_EQ(st.sizing_exact, 1) << st.sizing_note;
    h.before = heap_bytes();
    ASSERT_EQ(pascal_run(spec.s, &o, &st, &err), 0) << err.msg;
    double used = h.at_start - h.before, bytes = pascal_run_buffer_bytes(spec.s, &o, 0, 160000);
    // Two batches of 65536 slots of 5 point and 14 result columns (16 bytes
    // each: slot and compacted copy) are 38 MiB; the sizing slots add more.
    EXPECT_GT(bytes, 2.0 * 65536 * 19 * 16);
    EXPECT_GE(used, bytes);
    EXPECT_LE(used, bytes + kSlackBytes);
}

// The planner holds the buffers against --memory beside the workspaces:
// a budget that fits the workspaces but not the buffers is refused.
TEST(PlanMemory, PlannerCountsTheRunBuffers)
{
    Spec spec(kBatchSpec);
    ASSERT_TRUE(spec.s) << spec.err;
    pascal_run_opts o{};
    pascal_run_stats st{};
    pascal_error err{};
    o.threads = 2;
    o.dry_run = 1;
    double buffers = pascal_run_buffer_bytes(spec.s, &o, 0, 160000);
    double work = 2 * pascal_eval_bytes(pascal_spec_models(spec.s), 1000, 8);
    o.memory_bytes = work + buffers + 1024;
    EXPECT_EQ(pascal_run(spec.s, &o, &st, &err), 0) << err.msg;
    o.memory_bytes = work + buffers / 2;
    ASSERT_EQ(pascal_run(spec.s, &o, &st, &err), PASCAL_EINPUT);
    // The workspaces alone fit: the batch is named, not a key of the spec.
    EXPECT_EQ(std::string(err.msg).rfind("--batch: expected batch buffers that fit in memory", 0), 0u)
        << err.msg;
    EXPECT_NE(std::string(err.msg).find("a smaller --batch"), std::string::npos) << err.msg;
    // Workspaces that do not fit on their own are the spec's M or N.
    o.memory_bytes = work / 2;
    ASSERT_EQ(pascal_run(spec.s, &o, &st, &err), PASCAL_EINPUT);
    EXPECT_NE(std::string(err.msg).find("for 2 threads plus "), std::string::npos) << err.msg;
    EXPECT_NE(std::string(err.msg).find(" of batch buffers (fewer --threads"), std::string::npos) << err.msg;
}

} // namespace
