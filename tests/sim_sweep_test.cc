// The `simulate` sweep model inside the runner: a stop request cuts a
// simulation short, the cut batch is not kept, and --resume completes the
// file bit for bit as one uninterrupted run writes it.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "engine/run.h"
#include "output/sink.h"
#include "sweeps/spec.h"
#include "test_util.h"

namespace {

class SimSweep : public pascal_test::TempDirTest {
protected:
    pascal_spec *spec = nullptr;
    void TearDown() override
    {
        pascal_spec_free(spec);
        pascal_test::TempDirTest::TearDown();
    }
    void parse()
    {
        // Points of about a million events each, so a simulation polls.
        std::string text = "name: s\ndevice: " + std::string(PASCAL_SOURCE_DIR) +
                           "/configs/devices/gb10.yaml\nmodels: [simulate]\n"
                           "fixed: {N: 4096, block_bytes: 16KiB, occupancy: 1, path: tma, compute: 0, W: 8}\n"
                           "axes:\n  depth: [2, 3, 4, 5]\n  seed: [1, 2]\n"
                           "output: {chunk_rows: 1}\n";
        pascal_error err{};
        ASSERT_EQ(pascal_spec_parse(text.c_str(), text.size(), "s.yaml", &spec, &err), 0) << err.msg;
    }
};

std::vector<double> column(const std::string &path, const char *name)
{
    double *v = nullptr;
    int64_t n = 0;
    pascal_error err{};
    EXPECT_EQ(pascal_h5_read_column(path.c_str(), "results", name, &v, &n, &err), 0) << err.msg;
    std::vector<double> out(v, v + n);
    free(v);
    return out;
}

// Stops at the `left`-th poll, which falls inside a simulation.
int stop_after(void *ctx)
{
    return --*static_cast<int *>(ctx) < 0;
}

TEST_F(SimSweep, StopInsideASimulationThenResume)
{
    parse();
    std::string full = dir + "/full.h5", out = dir + "/out.h5";
    pascal_run_opts o{};
    pascal_run_stats st{};
    pascal_error err{};
    o.out_path = full.c_str();
    o.threads = 2;
    o.compression = -1;
    ASSERT_EQ(pascal_run(spec, &o, &st, &err), 0) << err.msg;
    EXPECT_EQ(st.rows, 8u);
    // Batches of 4 points on 2 threads, one poll per simulation: the first
    // batch (4 polls) and its own poll pass, the second batch is cut short.
    int left = 6;
    o.out_path = out.c_str();
    o.should_stop = stop_after;
    o.stop_ctx = &left;
    ASSERT_EQ(pascal_run(spec, &o, &st, &err), PASCAL_EINTR) << err.msg;
    EXPECT_EQ(st.rows_done, 4u);
    o.should_stop = nullptr;
    o.resume = 1;
    ASSERT_EQ(pascal_run(spec, &o, &st, &err), 0) << err.msg;
    for (const char *name : {"K_sim", "rho_sim", "ns_per_round_sim"}) {
        std::vector<double> a = column(full, name), b = column(out, name);
        ASSERT_EQ(a.size(), 8u);
        ASSERT_EQ(b.size(), a.size());
        EXPECT_EQ(std::memcmp(a.data(), b.data(), a.size() * sizeof(double)), 0) << name;
    }
}

// A workload's kernel is simulated as its streams in waves (docs/
// workloads.md); causal attention, whose CTAs scan different lengths, is
// simulated as its request program, but a ring model beside it is refused
// at the causal key, before any output.
TEST(SimSpec, CausalWorkloadIsRefused)
{
    std::string text = "name: w\ndevice: " + std::string(PASCAL_SOURCE_DIR) +
                       "/configs/devices/gb10.yaml\nmodels: [workload, simulate, ttl]\n"
                       "workload:\n  attention: {batch: 1, q_heads: 8, kv_heads: 2, seq_q: 512, "
                       "seq_kv: 1024, head_dim: 128, dtype: bf16, tile_q: 64, tile_kv: 64, "
                       "causal: true}\n"
                       "fixed: {occupancy: 1, path: sync, compute: 0}\n"
                       "axes:\n  capacity_bytes: [4MiB]\n";
    pascal_spec *spec = nullptr;
    pascal_error err{};
    EXPECT_EQ(pascal_spec_parse(text.c_str(), text.size(), "w.yaml", &spec, &err), PASCAL_EINPUT);
    // Column 137: the value true on line 5.
    EXPECT_EQ(std::string(err.msg).rfind("w.yaml:5:137: workload.attention.causal: expected causal: "
                                         "false with models ttl (causal attention is not a "
                                         "ring scan", 0), 0u) << err.msg;
    pascal_spec_free(spec);
    // The simulator alone takes the mask.
    std::string sim = text;
    sim.replace(sim.find(", ttl]"), 6, "]");
    ASSERT_EQ(pascal_spec_parse(sim.c_str(), sim.size(), "w.yaml", &spec, &err), 0) << err.msg;
    pascal_spec_free(spec);
    // Without the mask the same spec is taken.
    text.replace(text.find("causal: true"), 12, "causal: false");
    ASSERT_EQ(pascal_spec_parse(text.c_str(), text.size(), "w.yaml", &spec, &err), 0) << err.msg;
    pascal_spec_free(spec);
}

} // namespace
