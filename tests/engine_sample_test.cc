// Sampled runs: for each method the file is bit-identical whatever the
// thread count, batch size or sharding (merged shards equal the single
// run), a stopped run resumes into the same file, the file names its
// sampling, and a bad sample section exits 2 before any file exists.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "engine/run.h"
#include "output/h5_info.h"
#include "output/sink.h"
#include "sweeps/spec.h"
#include "test_util.h"

namespace {

struct Spec {
    pascal_spec *s = nullptr;
    explicit Spec(const std::string &text)
    {
        pascal_error err{};
        if (pascal_spec_parse(text.data(), text.size(), "sample.yaml", &s, &err) != 0)
            ADD_FAILURE() << err.msg;
    }
    ~Spec() { pascal_spec_free(s); }
};

std::string sampled(const std::string &method, const std::string &inner)
{
    return "name: sampled\n"
           "models: [ttl, lru, residency]\n"
           "fixed: {N: 512, block_bytes: 4KiB, assoc: 4}\n"
           "sample: {method: " + method + ", n: 1500, " + (method == "sobol" ? "" : "seed: 11, ") +
           "inner: " + inner + "}\n"
           "axes:\n"
           "  M: [3, 17, 40]\n"
           "  pattern: [uniform, gaussian, clusters]\n"
           "  sigma: {from: 0.5, to: 200, scale: log}\n"
           "  clusters: {from: 1, to: 9}\n"
           "  seed: {from: 1, to: 1000000}\n"
           "  capacity_bytes: [64KiB, 256KiB, 1MiB, 2MiB]\n"
           "where: 'pattern != \"clusters\" || clusters <= M'\n"
           "output: {chunk_rows: 64}\n";
}

std::vector<double> column(const std::string &path, const char *group, const char *name)
{
    double *v = nullptr;
    int64_t n = 0;
    pascal_error err{};
    EXPECT_EQ(pascal_h5_read_column(path.c_str(), group, name, &v, &n, &err), 0) << err.msg;
    std::vector<double> out(v, v + n);
    free(v);
    return out;
}

bool same_bits(const std::vector<double> &a, const std::vector<double> &b)
{
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * 8) == 0;
}

class SampleRun : public pascal_test::TempDirTest {
protected:
    pascal_run_stats run(const pascal_spec *spec, const std::string &out, int threads, int64_t batch,
                         int shard = 0, int shards = 0)
    {
        pascal_run_opts o{};
        pascal_run_stats st{};
        pascal_error err{};
        o.out_path = out.c_str();
        o.threads = threads;
        o.batch_points = batch;
        o.shard_index = shard;
        o.shard_count = shards;
        o.compression = -1;
        o.target = 0.05;
        EXPECT_EQ(pascal_run(spec, &o, &st, &err), 0) << err.msg;
        return st;
    }

    void expect_same_file(const pascal_spec *spec, const std::string &a, const std::string &b,
                          const std::string &what)
    {
        for (int j = 0; j < pascal_spec_ncolumns(spec); j++) {
            const char *name = pascal_columns[pascal_spec_columns(spec)[j]].name;
            EXPECT_TRUE(same_bits(column(a, "results", name), column(b, "results", name)))
                << name << ": " << what;
        }
        for (const char *p : {"M", "C", "pattern", "sigma", "clusters", "seed", "capacity_bytes"})
            EXPECT_TRUE(same_bits(column(a, "points", p), column(b, "points", p))) << p << ": " << what;
    }
};

TEST_F(SampleRun, ThreadsBatchesAndShardsGiveOneFile)
{
    for (std::string method : {"random", "lhs", "sobol"})
        for (std::string inner : {"sample", "grid"}) {
            Spec spec(sampled(method, inner));
            ASSERT_NE(spec.s, nullptr);
            std::string tag = method + "-" + inner, ref = dir + "/" + tag + ".h5";
            pascal_run_stats st = run(spec.s, ref, 1, 0);
            EXPECT_EQ(st.raw_points, inner == "grid" ? 6000u : 1500u);
            EXPECT_GT(st.rows, st.raw_points / 2);
            EXPECT_LT(st.rows, st.raw_points) << "where drops some clusters draws";
            std::string t3 = dir + "/" + tag + "-t3.h5";
            EXPECT_EQ(run(spec.s, t3, 3, 37).rows, st.rows);
            expect_same_file(spec.s, ref, t3, tag + " 3 threads, batch 37");
            std::vector<std::string> parts;
            std::vector<const char *> in;
            for (int k = 1; k <= 3; k++) {
                // A fresh spec per shard, as in a separate process: Sobol's
                // checkpoints are then first reached from the shard's slice.
                Spec own(sampled(method, inner));
                parts.push_back(dir + "/" + tag + "-part" + std::to_string(k) + ".h5");
                run(own.s, parts.back(), 2, 101, k, 3);
            }
            for (auto &p : parts)
                in.push_back(p.c_str());
            std::string merged = dir + "/" + tag + "-merged.h5";
            pascal_error err{};
            ASSERT_EQ(pascal_h5_merge(merged.c_str(), in.data(), 3, &err), 0) << err.msg;
            expect_same_file(spec.s, ref, merged, tag + " merged shards");
        }
}

int StopAfter(void *ctx)
{
    return --*static_cast<int *>(ctx) < 0;
}

TEST_F(SampleRun, StoppedSobolRunResumesIntoTheSameFile)
{
    Spec spec(sampled("sobol", "grid"));
    ASSERT_NE(spec.s, nullptr);
    std::string full = dir + "/full.h5", out = dir + "/out.h5";
    pascal_run_stats want = run(spec.s, full, 2, 50);
    pascal_run_opts o{};
    pascal_run_stats st{};
    pascal_error err{};
    int left = 30;
    o.out_path = out.c_str();
    o.threads = 2;
    o.batch_points = 50;
    o.compression = -1;
    o.should_stop = StopAfter;
    o.stop_ctx = &left;
    ASSERT_EQ(pascal_run(spec.s, &o, &st, &err), PASCAL_EINTR) << err.msg;
    EXPECT_GT(st.rows_done, 0u);
    EXPECT_LT(st.rows_done, want.rows);
    o.should_stop = nullptr;
    o.resume = 1;
    ASSERT_EQ(pascal_run(spec.s, &o, &st, &err), 0) << err.msg;
    EXPECT_GT(st.rows_resumed, 0u);
    expect_same_file(spec.s, full, out, "resumed");
}

TEST_F(SampleRun, FileNamesItsSampling)
{
    Spec spec(sampled("lhs", "grid"));
    ASSERT_NE(spec.s, nullptr);
    std::string out = dir + "/a.h5";
    run(spec.s, out, 2, 0);
    struct {
        const char *key, *value;
    } want[] = {{"sample_method", "lhs"},
                {"sample_n", "1500"},
                {"sample_seed", "11"},
                {"sample_inner", "grid"},
                {"sample_intervals", "sigma,clusters,seed"}};
    for (auto &w : want) {
        char buf[256];
        pascal_error err{};
        ASSERT_EQ(pascal_h5_read_attr(out.c_str(), w.key, buf, sizeof buf, &err), 0) << err.msg;
        EXPECT_STREQ(buf, w.value) << w.key;
    }
    // An interval axis lists its two ends.
    std::vector<double> ends = column(out, "points", "sigma");
    for (double s : ends)
        ASSERT_TRUE(s >= 0.5 && s <= 200) << s;
}

TEST_F(SampleRun, CliRunsAndRejects)
{
    std::string good = write("good.yaml", sampled("sobol", "sample"));
    auto r = pascal_test::run_cli(dir, "run " + good + " -o " + dir + "/g.h5 --quiet");
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("1500 raw points"), std::string::npos) << r.out;
    // pascal info says how the rows were drawn, and an interval as one.
    auto info = pascal_test::run_cli(dir, "info " + dir + "/g.h5");
    EXPECT_EQ(info.status, 0) << info.err;
    EXPECT_NE(info.out.find("  sample_method  sobol\n"), std::string::npos) << info.out;
    EXPECT_NE(info.out.find("  sample_n       1500\n"), std::string::npos) << info.out;
    EXPECT_NE(info.out.find("sigma            drawn from the interval 0.5 .. 200"), std::string::npos)
        << info.out;
    EXPECT_NE(info.out.find("M                3 values"), std::string::npos) << info.out;
    // The report plots grids: it refuses intervals, naming them.
    r = pascal_test::run_cli(dir, "report " + dir + "/g.h5 -o " + dir + "/g.html");
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("got a sample with intervals (sigma,clusters,seed)"), std::string::npos) << r.err;
    EXPECT_FALSE(pascal_test::exists(dir + "/g.html"));
    std::string bad = write("bad.yaml", "name: b\nmodels: [ttl]\nfixed: {N: 64, M: 4}\n"
                                        "sample: {method: sobol, n: many}\naxes:\n  C: [8]\n");
    r = pascal_test::run_cli(dir, "run " + bad + " -o " + dir + "/b.h5");
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err.rfind(bad + ":4:28: sample.n: expected a number of draws", 0), 0u) << r.err;
    EXPECT_FALSE(pascal_test::exists(dir + "/b.h5"));
}

// A workload spec samples like any other: its draws of list axes are grid
// points, and each sampled row has the results the grid run gives that
// point, bit for bit (the workload's N and block_bytes derived per draw).
// The summary does not group rows by a drawn axis.
const char *kWorkload =
    "name: w\nmodels: [workload, traffic, lru, ttl]\n"
    "workload:\n  attention: {batch: 2, q_heads: 8, kv_heads: 2, seq_q: 1, seq_kv: 1024,\n"
    "    head_dim: 128, dtype: bf16, tile_q: 64, tile_kv: 64}\n"
    "fixed: {sms: 8, occupancy: 2, sigma: 2}\n";
const char *kWorkloadAxes =
    "axes:\n  seq_kv: [1024, 4096, 8192]\n  pattern: [aligned, gaussian]\n"
    "  capacity_bytes: [256KiB, 1MiB, 4MiB]\n";

TEST_F(SampleRun, WorkloadDrawsHaveTheGridsResults)
{
    Spec grid(std::string(kWorkload) + kWorkloadAxes);
    Spec drawn(std::string(kWorkload) + "sample: {method: lhs, n: 4, seed: 5, inner: grid}\n" + kWorkloadAxes);
    ASSERT_NE(grid.s, nullptr);
    ASSERT_NE(drawn.s, nullptr);
    std::string g = dir + "/grid.h5", d = dir + "/drawn.h5";
    pascal_run_stats gs = run(grid.s, g, 2, 0), ds = run(drawn.s, d, 2, 5);
    EXPECT_EQ(gs.rows, 18u);
    EXPECT_EQ(ds.rows, 12u);   // 4 draws x 3 capacities
    // The summary sizes the grid per context length; a drawn axis has no
    // grid position to group rows by.
    EXPECT_EQ(gs.group_axis, 0);
    EXPECT_EQ(ds.group_axis, -1);
    std::vector<double> gk = column(g, "points", "seq_kv"), gp = column(g, "points", "pattern"),
                        gc = column(g, "points", "capacity_bytes");
    std::vector<double> dk = column(d, "points", "seq_kv"), dp = column(d, "points", "pattern"),
                        dc = column(d, "points", "capacity_bytes");
    ASSERT_EQ(dk.size(), 12u);
    for (int j = 0; j < pascal_spec_ncolumns(drawn.s); j++) {
        const char *name = pascal_columns[pascal_spec_columns(drawn.s)[j]].name;
        std::vector<double> gv = column(g, "results", name), dv = column(d, "results", name);
        for (size_t r = 0; r < dk.size(); r++) {
            size_t at = gk.size();
            for (size_t q = 0; q < gk.size(); q++)
                if (gk[q] == dk[r] && gp[q] == dp[r] && gc[q] == dc[r])
                    at = q;
            ASSERT_LT(at, gk.size()) << "row " << r << " is not a grid point";
            EXPECT_TRUE(std::memcmp(&gv[at], &dv[r], 8) == 0) << name << " row " << r << ": " << dv[r]
                                                               << " vs the grid's " << gv[at];
        }
    }
}

// A sampled file's rows are draws, not a product of the axes, even when
// their count is the product's: /cube is then a point list, as for `where`.
TEST_F(SampleRun, CubeViewIsAPointList)
{
    Spec grid(std::string(kWorkload) + kWorkloadAxes);
    Spec drawn(std::string(kWorkload) + "sample: {method: random, n: 18, seed: 2}\n" + kWorkloadAxes);
    ASSERT_NE(grid.s, nullptr);
    ASSERT_NE(drawn.s, nullptr);
    std::string g = dir + "/grid.h5", d = dir + "/drawn.h5";
    EXPECT_EQ(run(grid.s, g, 2, 0).rows, 18u);
    EXPECT_EQ(run(drawn.s, d, 2, 0).rows, 18u);
    for (const std::string &path : {g, d}) {
        pascal_file_info info{};
        pascal_error err{};
        ASSERT_EQ(pascal_h5_describe(path.c_str(), &info, &err), 0) << err.msg;
        std::string view = info.view;
        if (path == g)
            EXPECT_EQ(view, "/cube: cube (seq_kv x pattern x capacity_bytes)");
        else
            EXPECT_EQ(view.rfind("/cube: points", 0), 0u) << view;
        pascal_file_info_free(&info);
    }
}

}  // namespace
