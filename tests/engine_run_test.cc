// The sweep runner: bit-identical output whatever the thread count or batch
// size, the phase-vector cache never changes a result, planning rejects bad
// points before any file exists, and the headline matches the data.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "engine/eval.h"
#include "engine/run.h"
#include "output/sink.h"
#include "sweeps/spec.h"
#include "test_util.h"

namespace {

const char *kSpec =
    "name: determinism\n"
    "models: [ttl, lru_band, lru, sdcm, residency, che, margin]\n"
    "fixed: {assoc: 4, eps: 1.5, horizon: 1000}\n"
    "axes:\n"
    "  N: [97, 256]\n"
    "  M: [3, 17]\n"
    "  pattern: [uniform, gaussian, clusters, equal]\n"
    "  sigma: [5.5]\n"
    "  clusters: [3]\n"
    "  seed: [11, 12, 13]\n"
    "  C: {from: 1, to: 300, num: 23}\n"
    "where: 'C < N + 5'\n";

struct Spec {
    pascal_spec *s = nullptr;
    explicit Spec(const char *text)
    {
        pascal_error err{};
        if (pascal_spec_parse(text, strlen(text), "test.yaml", &s, &err) != 0)
            ADD_FAILURE() << err.msg;
    }
    ~Spec() { pascal_spec_free(s); }
};

class Run : public pascal_test::TempDirTest {
protected:
    pascal_run_stats run(const pascal_spec *spec, const std::string &out, int threads,
                         int64_t batch, int shard = 0, int shards = 0)
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
};

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

TEST_F(Run, BitIdenticalAcrossThreadsAndBatches)
{
    Spec spec(kSpec);
    ASSERT_NE(spec.s, nullptr);
    std::string ref = dir + "/t1.h5";
    pascal_run_stats st = run(spec.s, ref, 1, 0);
    ASSERT_GT(st.rows, 100u);
    EXPECT_LT(st.rows, st.raw_points) << "the where filter drops C >= N + 5";
    struct Variant { int threads; int64_t batch; };
    for (Variant v : {Variant{2, 0}, Variant{8, 0}, Variant{3, 7}, Variant{2, 1000}}) {
        std::string out = dir + "/t" + std::to_string(v.threads) + "b" + std::to_string(v.batch) + ".h5";
        pascal_run_stats s2 = run(spec.s, out, v.threads, v.batch);
        EXPECT_EQ(s2.rows, st.rows);
        for (int j = 0; j < pascal_spec_ncolumns(spec.s); j++) {
            const char *name = pascal_columns[pascal_spec_columns(spec.s)[j]].name;
            EXPECT_TRUE(same_bits(column(ref, "results", name), column(out, "results", name)))
                << name << " differs with " << v.threads << " threads, batch " << v.batch;
        }
        for (const char *p : {"N", "M", "C", "seed", "pattern"})
            EXPECT_TRUE(same_bits(column(ref, "points", p), column(out, "points", p))) << p;
    }
}

// Shards cover the raw indices once, in order, and merged they are the single
// run's file, column for column, bit for bit.
TEST_F(Run, ShardsMergeIntoTheSingleRun)
{
    uint64_t b, e, prev = 0;
    for (int k = 1; k <= 7; k++) {
        pascal_run_shard_range(1000003, k, 7, &b, &e);
        EXPECT_EQ(b, prev);
        EXPECT_GE(e - b, 1000003u / 7);
        EXPECT_LE(e - b, 1000003u / 7 + 1);
        prev = e;
    }
    EXPECT_EQ(prev, 1000003u);
    pascal_run_shard_range(UINT64_MAX, 3, 3, &b, &e);   // no overflow at the top
    EXPECT_EQ(e, UINT64_MAX);

    Spec spec(kSpec);
    ASSERT_NE(spec.s, nullptr);
    std::string full = dir + "/full.h5", merged = dir + "/merged.h5";
    pascal_run_stats st = run(spec.s, full, 2, 0);
    std::vector<std::string> shards;
    uint64_t rows = 0;
    for (int k = 3; k >= 1; k--) {   // any order on the command line
        shards.push_back(dir + "/s" + std::to_string(k) + ".h5");
        rows += run(spec.s, shards.back(), k, 5, k, 3).rows;
    }
    EXPECT_EQ(rows, st.rows);
    std::vector<const char *> in;
    for (auto &p : shards)
        in.push_back(p.c_str());
    pascal_error err{};
    ASSERT_EQ(pascal_h5_merge(merged.c_str(), in.data(), 3, &err), 0) << err.msg;
    for (int j = 0; j < pascal_spec_ncolumns(spec.s); j++) {
        const char *name = pascal_columns[pascal_spec_columns(spec.s)[j]].name;
        EXPECT_TRUE(same_bits(column(full, "results", name), column(merged, "results", name)))
            << name;
    }
    for (const char *p : {"N", "M", "C", "seed", "pattern", "sigma"})
        EXPECT_TRUE(same_bits(column(full, "points", p), column(merged, "points", p))) << p;
    char buf[64];
    ASSERT_EQ(pascal_h5_read_attr(merged.c_str(), "points", buf, sizeof buf, &err), 0);
    EXPECT_EQ(std::string(buf), std::to_string(st.rows));
    ASSERT_EQ(pascal_h5_read_attr(merged.c_str(), "shard", buf, sizeof buf, &err), 0);
    EXPECT_EQ(std::string(buf), "1/1");
}

TEST_F(Run, MergeRejectsIncompleteSets)
{
    Spec spec(kSpec), other("name: other\nmodels: [ttl]\nfixed: {N: 64, M: 4}\naxes:\n  C: [8, 16]\n");
    std::string s1 = dir + "/s1.h5", s2 = dir + "/s2.h5", o2 = dir + "/o2.h5",
                out = write("out.h5", "precious");
    run(spec.s, s1, 2, 0, 1, 2);
    run(spec.s, s2, 2, 0, 2, 2);
    run(other.s, o2, 2, 0, 2, 2);
    struct Case {
        std::vector<std::string> files;
        const char *message;
    } cases[] = {
        {{s1}, "expected 1 shards as given on the command line, got a split into 2"},
        {{s1, s1}, "expected each shard once, got shard 1/2 twice"},
        {{s1, o2}, "expected the spec of"},
        {{s1, dir + "/missing.h5"}, "missing.h5"},
    };
    for (const Case &c : cases) {
        std::vector<const char *> in;
        for (auto &p : c.files)
            in.push_back(p.c_str());
        pascal_error err{};
        EXPECT_NE(pascal_h5_merge(out.c_str(), in.data(), (int)in.size(), &err), 0);
        EXPECT_NE(std::string(err.msg).find(c.message), std::string::npos) << err.msg;
        EXPECT_EQ(pascal_test::slurp(out), "precious") << "a failed merge leaves the output";
    }
}

// A run stopped after some batches keeps its whole chunks in OUT.partial;
// --resume finishes it into the file one uninterrupted run writes, and the
// headline covers every row.
int StopAfter(void *ctx)
{
    int *left = static_cast<int *>(ctx);
    return --*left < 0;
}

TEST_F(Run, StopAndResumeGiveTheUninterruptedFile)
{
    // Small chunks, so that a stopped run has whole chunks to keep.
    std::string text = std::string(kSpec) + "output: {chunk_rows: 16}\n";
    Spec spec(text.c_str());
    ASSERT_NE(spec.s, nullptr);
    for (int compression : {0, 3}) {
        std::string full = dir + "/full.h5", out = dir + "/out" + std::to_string(compression) + ".h5";
        pascal_run_stats want = run(spec.s, full, 2, 7);
        pascal_run_opts o{};
        pascal_run_stats st{};
        pascal_error err{};
        int left = 40;
        o.out_path = out.c_str();
        o.threads = 2;
        o.batch_points = 7;
        o.compression = compression;
        o.target = 0.05;
        o.should_stop = StopAfter;
        o.stop_ctx = &left;
        ASSERT_EQ(pascal_run(spec.s, &o, &st, &err), PASCAL_EINTR) << err.msg;
        EXPECT_NE(std::string(err.msg).find(".partial; continue with --resume"), std::string::npos)
            << err.msg;
        EXPECT_FALSE(pascal_test::exists(out));
        ASSERT_TRUE(pascal_test::exists(out + ".partial"));
        EXPECT_GT(st.rows_done, 0u);
        EXPECT_LT(st.rows_done, want.rows);
        o.should_stop = nullptr;
        o.resume = 1;
        ASSERT_EQ(pascal_run(spec.s, &o, &st, &err), 0) << err.msg;
        EXPECT_FALSE(pascal_test::exists(out + ".partial"));
        EXPECT_GT(st.rows_resumed, 0u);
        EXPECT_EQ(st.rows, want.rows);
        for (int j = 0; j < pascal_spec_ncolumns(spec.s); j++) {
            const char *name = pascal_columns[pascal_spec_columns(spec.s)[j]].name;
            EXPECT_TRUE(same_bits(column(full, "results", name), column(out, "results", name)))
                << name << " compression " << compression;
        }
        for (const char *p : {"N", "M", "C", "seed", "pattern"})
            EXPECT_TRUE(same_bits(column(full, "points", p), column(out, "points", p))) << p;
        EXPECT_EQ(st.min, want.min);
        EXPECT_EQ(st.max, want.max);
        ASSERT_EQ(st.ngroups, want.ngroups);
        for (int g = 0; g < st.ngroups; g++)
            EXPECT_TRUE(std::memcmp(&st.sizing[g].cap_value, &want.sizing[g].cap_value, 8) == 0)
                << "group " << g;
    }
}

TEST_F(Run, ResumeNeedsTheSameRunsPartialFile)
{
    Spec spec(kSpec), other("name: other\nmodels: [ttl]\nfixed: {N: 64, M: 4}\naxes:\n  C: [8, 16]\n");
    std::string out = dir + "/r.h5";
    pascal_run_opts o{};
    pascal_run_stats st{};
    pascal_error err{};
    int left = 3;
    o.compression = -1;
    o.batch_points = 5;
    o.resume = 1;
    // Nothing to resume: the run starts from the first point.
    std::string fresh = dir + "/r0.h5";
    o.out_path = fresh.c_str();
    EXPECT_EQ(pascal_run(spec.s, &o, &st, &err), 0) << err.msg;
    EXPECT_EQ(st.resumed_nothing, 1);
    EXPECT_EQ(st.rows_resumed, 0u);
    EXPECT_TRUE(pascal_test::exists(fresh));
    // A damaged partial file is refused and left as it was.
    std::string damaged = dir + "/d.h5";
    pascal_test::write_file(dir, "d.h5.partial", "not HDF5");
    o.out_path = damaged.c_str();
    EXPECT_EQ(pascal_run(spec.s, &o, &st, &err), PASCAL_EINPUT);
    EXPECT_NE(std::string(err.msg).find("d.h5.partial: expected the file an interrupted run left"),
              std::string::npos) << err.msg;
    EXPECT_EQ(pascal_test::slurp(damaged + ".partial"), "not HDF5");
    o.out_path = out.c_str();
    o.resume = 0;
    o.should_stop = StopAfter;
    o.stop_ctx = &left;
    ASSERT_EQ(pascal_run(spec.s, &o, &st, &err), PASCAL_EINTR) << err.msg;
    std::string before = pascal_test::slurp(out + ".partial");
    o.should_stop = nullptr;
    o.resume = 1;
    EXPECT_EQ(pascal_run(other.s, &o, &st, &err), PASCAL_EINPUT);
    EXPECT_NE(std::string(err.msg).find("expected an interrupted run of this spec"),
              std::string::npos) << err.msg;
    EXPECT_EQ(pascal_test::slurp(out + ".partial"), before) << "a refused resume changes nothing";
    EXPECT_FALSE(pascal_test::exists(out));
    // CSV keeps nothing: it cannot be resumed, and says so.
    std::string csv = dir + "/r.csv";
    left = 2;
    o.resume = 0;
    o.should_stop = StopAfter;
    o.out_path = csv.c_str();
    o.format = PASCAL_SINK_CSV;
    EXPECT_EQ(pascal_run(spec.s, &o, &st, &err), PASCAL_EINTR);
    EXPECT_NE(std::string(err.msg).find("a CSV run cannot be resumed"), std::string::npos)
        << err.msg;
    EXPECT_FALSE(pascal_test::exists(csv));
}

// Every row equals a fresh evaluator's answer at that point: the cached phase
// vector is only ever reused for the same phase-defining coordinates.
TEST_F(Run, PhaseCacheNeverChangesAResult)
{
    Spec spec(kSpec);
    ASSERT_NE(spec.s, nullptr);
    std::string out = dir + "/c.h5";
    run(spec.s, out, 2, 0);
    int ncol = pascal_spec_ncolumns(spec.s);
    const int *cols = pascal_spec_columns(spec.s);
    std::vector<std::vector<double>> got;
    for (int j = 0; j < ncol; j++)
        got.push_back(column(out, "results", pascal_columns[cols[j]].name));
    size_t row = 0;
    for (uint64_t i = 0; i < pascal_spec_size(spec.s); i++) {
        pascal_point p;
        if (pascal_spec_point(spec.s, i, &p, nullptr) != 1)
            continue;
        pascal_eval *ev = pascal_eval_create(pascal_spec_models(spec.s));
        std::vector<double> want(ncol);
        ASSERT_EQ(pascal_eval_point(ev, &p, cols, ncol, want.data()), 0);
        pascal_eval_free(ev);
        for (int j = 0; j < ncol; j++)
            ASSERT_TRUE(std::memcmp(&want[j], &got[j][row], 8) == 0)
                << "row " << row << " column " << pascal_columns[cols[j]].name;
        row++;
    }
    EXPECT_EQ(row, got[0].size());
}

TEST_F(Run, PlanRejectsBeforeCreatingOutput)
{
    Spec spec("name: r\nmodels: [ttl]\nfixed: {N: 64, M: 4}\naxes:\n  C: [8, 70, 80]\n"
              "require: 'C < N'\n");
    ASSERT_NE(spec.s, nullptr);
    std::string out = dir + "/never.h5";
    pascal_run_opts o{};
    pascal_run_stats st{};
    pascal_error err{};
    o.out_path = out.c_str();
    o.compression = -1;
    EXPECT_EQ(pascal_run(spec.s, &o, &st, &err), PASCAL_EINPUT);
    EXPECT_NE(std::string(err.msg).find("C < N"), std::string::npos) << err.msg;
    EXPECT_NE(std::string(err.msg).find("70"), std::string::npos)
        << "the first failing point is reported: " << err.msg;
    struct stat sb;
    EXPECT_NE(stat(out.c_str(), &sb), 0);
}

TEST_F(Run, HeadlineMatchesTheData)
{
    Spec spec("name: h\nmodels: [ttl]\nfixed: {N: 512, M: 32}\n"
              "axes:\n  pattern: [aligned, equal, uniform]\n  C: {from: 16, to: 512, step: 16}\n");
    ASSERT_NE(spec.s, nullptr);
    std::string out = dir + "/h.h5";
    pascal_run_stats st = run(spec.s, out, 2, 5);
    ASSERT_EQ(st.metric, PASCAL_COL_RHO_TTL);
    std::vector<double> rho = column(out, "results", "rho_ttl"), C = column(out, "points", "C");
    double lo = INFINITY, hi = -INFINITY;
    for (double v : rho)
        lo = std::fmin(lo, v), hi = std::fmax(hi, v);
    EXPECT_EQ(st.min, lo);
    EXPECT_EQ(st.max, hi);
    // Per pattern, the smallest C whose rho_ttl is <= 0.05, by brute force.
    std::vector<double> pat = column(out, "points", "pattern");
    ASSERT_EQ(st.group_axis, 0);
    ASSERT_EQ(st.ngroups, 3);
    for (int g = 0; g < 3; g++) {
        double want = NAN, code = st.sizing[g].group_value;
        for (double c = 16; c <= 512 && std::isnan(want); c += 16)
            for (size_t i = 0; i < rho.size(); i++)
                if (C[i] == c && pat[i] == code && rho[i] <= 0.05)
                    want = c;
        EXPECT_EQ(st.sizing[g].cap_value, want) << "pattern code " << code;
    }
    // Aligned workers share one fill (rho = 1/32) at every C; 32 equally
    // spaced phases (gaps of 16) miss on every request until the ring fits.
    EXPECT_EQ(st.sizing[0].cap_value, 16);
    EXPECT_EQ(st.sizing[1].cap_value, 512);
}

}  // namespace
