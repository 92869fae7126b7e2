// Planning (engine/plan.h): the factored check pass reaches the verdict a
// point-by-point pass reaches (same kept count, same first error) while
// visiting far fewer points; a 10^12-point spec is counted and estimated at
// once and Ctrl-C or SIGTERM stop planning and evaluation within a second;
// derived values are bounded with a file:line:col error; alias fan-out is
// refused; a `where` that keeps nothing and a calibration that supports no
// point are errors.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "engine/plan.h"
#include "engine/run.h"
#include "sweeps/spec.h"
#include "test_util.h"

extern char **environ;

namespace {

using pascal_test::exists;
using pascal_test::slurp;
using Result = pascal_test::CliResult;

const std::string kSrc = PASCAL_SOURCE_DIR;

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

// The verdict of a pass over every point of [begin, end): kept count, or
// the first error's message.
struct Verdict {
    uint64_t rows = 0;
    std::string error;
};

Verdict every_point(const pascal_spec *s, uint64_t begin, uint64_t end)
{
    Verdict v;
    for (uint64_t i = begin; i < end; i++) {
        pascal_point p;
        pascal_error err{};
        int rc = pascal_spec_point(s, i, &p, &err);
        if (rc < 0) {
            v.error = err.msg;
            return v;
        }
        v.rows += rc == 1;
    }
    return v;
}

Verdict planned(const pascal_spec *s, uint64_t begin, uint64_t end, uint64_t *checked, int threads)
{
    pascal_plan_opts o{};
    pascal_plan_result r{};
    pascal_error err{};
    Verdict v;
    o.threads = threads;
    o.memory_bytes = 1e18; // the bounds are tested on their own below
    if (pascal_plan_check(s, begin, end, &o, &r, &err) != 0)
        v.error = err.msg;
    v.rows = r.rows;
    *checked = r.checked;
    return v;
}

// Specs whose checks read a few of their axes: filters and rules on one or
// two axes, derived N, M and C, explicit phase lists, zip groups.
const char *kFactored[] = {
    // require on C and N (derived from data_bytes): fails at a late point
    "name: a\nmodels: [ttl]\nfixed: {block_bytes: 16KiB, sms: 4}\n"
    "axes:\n  occupancy: [1, 2, 3]\n  seed: {from: 0, to: 39, step: 1}\n"
    "  data_bytes: [1MiB, 2MiB]\n  capacity_bytes: {from: 1MiB, to: 3MiB, num: 9}\n"
    "require: 'C < N'\n",
    // where on seed alone, require on occupancy: passes
    "name: b\nmodels: [ttl]\nfixed: {N: 97, sms: 4}\n"
    "axes:\n  occupancy: [1, 2, 3]\n  seed: {from: 0, to: 39, step: 1}\n  C: {from: 1, to: 60, num: 30}\n"
    "where: 'seed % 3 != 1'\nrequire: 'M <= 12'\n",
    // where on two axes, derived C below one block at some points
    "name: c\nmodels: [ttl]\nfixed: {N: 500, M: 7}\n"
    "axes:\n  seed: {from: 0, to: 29, step: 1}\n  block_bytes: [1KiB, 64KiB]\n"
    "  capacity_bytes: [2KiB, 32KiB, 1MiB]\n  lag: [1, 2, 3, 4]\n"
    "where: 'block_bytes < 4KiB || capacity_bytes > 100KiB'\n",
    // explicit lists of the wrong length for some M
    "name: d\nmodels: [ttl]\nfixed: {N: 16}\n"
    "axes:\n  seed: {from: 0, to: 49, step: 1}\n  pattern: [explicit]\n"
    "  phases: [[0, 1, 2], [0, 5], [3, 3, 3]]\n  M: [3, 2]\n  C: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]\n"
    "where: 'M == 3 || seed > 40'\n",
    // zip group and a rule on the pair: passes
    "name: e\nmodels: [ttl]\nfixed: {N: 300, M: 5}\n"
    "axes:\n  seed: {from: 0, to: 59, step: 1}\n  block_bytes: [1KiB, 2KiB, 4KiB]\n"
    "  capacity_bytes: [16KiB, 32KiB, 64KiB]\n  horizon: [0, 10]\n"
    "zip: [[block_bytes, capacity_bytes]]\nrequire: 'C == 16'\n",
    // a rule that reads every axis: the pass visits every point
    "name: f\nmodels: [ttl]\nfixed: {N: 300, M: 5}\n"
    "axes:\n  seed: {from: 0, to: 19, step: 1}\n  C: {from: 1, to: 40, num: 40}\n"
    "require: 'seed * 1000 + C != 17031'\n",
    // a workload: kv_heads 6 does not divide 32 query heads (refused where
    // `where` keeps it); N and block_bytes derive from the fields
    "name: g\nmodels: [traffic]\nworkload:\n  attention: {q_heads: 32, seq_q: 1, seq_kv: 4096, head_dim: 64,\n"
    "              dtype: bf16, tile_q: 16, tile_kv: 64}\nfixed: {M: 8}\n"
    "axes:\n  seed: {from: 0, to: 39, step: 1}\n  kv_heads: [8, 6, 4]\n"
    "  capacity_bytes: [64KiB, 256KiB]\n  horizon: [0, 10, 20]\n"
    "where: 'seed < 30 || kv_heads != 6'\n",
    // a workload: C from capacity_bytes over the derived block_bytes, N from
    // seq_kv over tile_kv; the rule on both fails only at the second
    // seq_kv (N = 32 blocks of 8 KiB, C = 256 KiB / 8 KiB = 32)
    "name: h\nmodels: [traffic]\nworkload:\n  attention: {q_heads: 8, kv_heads: 8, seq_q: 1, seq_kv: 4096,\n"
    "              head_dim: 64, dtype: bf16, tile_q: 16, tile_kv: 64}\nfixed: {M: 8}\n"
    "axes:\n  seed: {from: 0, to: 29, step: 1}\n  tile_kv: [64, 32]\n  seq_kv: [4096, 2048]\n"
    "  capacity_bytes: {from: 64KiB, to: 256KiB, num: 4}\n  horizon: [0, 10, 20]\n"
    "where: 'seed != 3'\nrequire: 'C < N'\n",
};

TEST(PlanFactored, SameVerdictAsEveryPointWithFewerChecks)
{
    for (const char *text : kFactored) {
        Spec spec(text);
        ASSERT_TRUE(spec.s) << spec.err;
        uint64_t n = pascal_spec_size(spec.s), checked = 0;
        Verdict want = every_point(spec.s, 0, n);
        for (int threads : {1, 2, 3}) {
            Verdict got = planned(spec.s, 0, n, &checked, threads);
            EXPECT_EQ(got.error, want.error) << text;
            if (want.error.empty())
                EXPECT_EQ(got.rows, want.rows) << text;
        }
        // Every rule but the last reads few of the axes (`where` adds its
        // own to each): the pass makes well under one check per point.
        if (text != kFactored[5])
            EXPECT_LT(checked * 2, n) << text;
        else
            EXPECT_EQ(checked, n) << text;
    }
}

TEST(PlanFactored, ShardsCheckTheirSliceAndCountTheirRows)
{
    for (const char *text : {kFactored[1], kFactored[2], kFactored[4]}) {
        Spec spec(text);
        ASSERT_TRUE(spec.s) << spec.err;
        uint64_t n = pascal_spec_size(spec.s), checked = 0, total = 0;
        for (int k = 1; k <= 3; k++) {
            uint64_t b, e;
            pascal_run_shard_range(n, k, 3, &b, &e);
            Verdict want = every_point(spec.s, b, e), got = planned(spec.s, b, e, &checked, 2);
            EXPECT_EQ(got.error, want.error) << text;
            EXPECT_EQ(got.rows, want.rows) << text << " shard " << k;
            total += got.rows;
        }
        EXPECT_EQ(total, every_point(spec.s, 0, n).rows);
    }
}

// A 10^12-point spec: 4 occupancies x 250000 seeds x 10^6 capacities.  Its
// checks read occupancy and capacity_bytes only.
const char *kHuge =
    "name: huge\nmodels: [ttl, lru]\nfixed: {N: 8192, block_bytes: 16KiB, sms: 48}\n"
    "axes:\n  occupancy: [1, 2, 4, 8]\n  seed: {from: 0, to: 249999, step: 1}\n"
    "  capacity_bytes: {from: 1MiB, to: 1000000MiB, num: 1000000}\n";

double seconds_since(std::chrono::steady_clock::time_point t0)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

class PlanCli : public pascal_test::TempDirTest {
protected:
    // Starts `pascal ARGS` with stderr in dir/err; returns its pid.
    pid_t spawn(const std::vector<std::string> &args)
    {
        std::vector<std::string> all = {PASCAL_CLI};
        all.insert(all.end(), args.begin(), args.end());
        std::vector<char *> argv;
        for (auto &a : all)
            argv.push_back(a.data());
        argv.push_back(nullptr);
        posix_spawn_file_actions_t fa;
        posix_spawn_file_actions_init(&fa);
        posix_spawn_file_actions_addopen(&fa, 1, (dir + "/out").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        posix_spawn_file_actions_addopen(&fa, 2, (dir + "/err").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        pid_t pid = -1;
        EXPECT_EQ(posix_spawn(&pid, argv[0], &fa, nullptr, argv.data(), environ), 0);
        posix_spawn_file_actions_destroy(&fa);
        return pid;
    }
    // Waits (at most `limit` seconds) until dir/err holds `text`.
    bool wait_for(const std::string &text, double limit)
    {
        auto t0 = std::chrono::steady_clock::now();
        while (seconds_since(t0) < limit) {
            if (slurp(dir + "/err").find(text) != std::string::npos)
                return true;
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
        return false;
    }
    // Sends sig and returns the seconds until the process exits (its status
    // in *status); kills it after `limit` seconds.
    double stop(pid_t pid, int sig, double limit, int *status)
    {
        auto t0 = std::chrono::steady_clock::now();
        kill(pid, sig);
        while (seconds_since(t0) < limit) {
            if (waitpid(pid, status, WNOHANG) == pid)
                return seconds_since(t0);
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
        kill(pid, SIGKILL);
        waitpid(pid, status, 0);
        return limit;
    }
};

TEST_F(PlanCli, HugeSpecIsCountedAndEstimatedAtOnce)
{
    std::string spec = write("huge.yaml", kHuge);
    auto t0 = std::chrono::steady_clock::now();
    // `timeout` turns a pass over every point (hours) into a failure; KILL,
    // since a pass that ignores signals would ignore TERM too.
    Result r = pascal_test::run_command(dir, "timeout -s KILL 60 " + std::string(PASCAL_CLI) + " run " + spec +
                                                 " --dry-run");
    double wall = seconds_since(t0);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_LT(wall, 30.0) << "a behavioural bound, not a benchmark";
    EXPECT_NE(r.err.find("huge.yaml: 1000000000000 points"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("check: 1000004 points (the checks read only occupancy, capacity_bytes)"),
              std::string::npos) << r.err;
    EXPECT_NE(r.err.find("run: about 1e+12 rows"), std::string::npos) << r.err;
    EXPECT_NE(r.out.find("1000000000000 points of"), std::string::npos) << r.out;
}

TEST_F(PlanCli, SignalsStopPlanningWithinASecond)
{
    // The rule reads every axis: each of the 10^12 points must be checked,
    // which would take a day.
    std::string spec = write("huge.yaml", std::string(kHuge) + "require: 'seed + capacity_bytes + M > 0'\n");
    for (int sig : {SIGINT, SIGTERM}) {
        pid_t pid = spawn({"run", spec, "-o", dir + "/x.h5"});
        int status = 0;
        if (!wait_for("check: every point", 30)) {
            stop(pid, SIGKILL, 5, &status); // leave no process behind
            FAIL() << "no estimate: " << slurp(dir + "/err");
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(300)); // well inside the pass
        double t = stop(pid, sig, 20, &status);
        EXPECT_LT(t, 3.0) << "signal " << sig << " (a generous bound on 'within a second')";
        ASSERT_TRUE(WIFEXITED(status)) << "signal " << sig;
        EXPECT_EQ(WEXITSTATUS(status), 130);
        EXPECT_NE(slurp(dir + "/err").find("stopped while checking the spec"), std::string::npos)
            << slurp(dir + "/err");
        EXPECT_EQ(pascal_test::list_dir(dir), (std::vector<std::string>{"err", "huge.yaml", "out"}));
    }
}

TEST_F(PlanCli, SignalsStopEvaluationWithinASecond)
{
    // About 0.1 s per point (Belady over 6N rounds of 8 workers): one batch
    // of 65536 points is hours, so stopping only between batches fails.
    std::string spec = write("slow.yaml", "name: slow\nmodels: [belady]\nfixed: {N: 65536, M: 8}\n"
                                          "axes:\n  seed: {from: 0, to: 999, step: 1}\n"
                                          "  pattern: [uniform]\n  C: [100, 200]\n");
    pid_t pid = spawn({"run", spec, "-o", dir + "/x.h5", "--threads", "2"});
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));
    int status = 0;
    double t = stop(pid, SIGINT, 20, &status);
    EXPECT_LT(t, 3.0);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 130) << slurp(dir + "/err");
    EXPECT_FALSE(exists(dir + "/x.h5"));
}

// Bounds on derived values: located at the key the value comes from.
TEST_F(PlanCli, DerivedValuesAreBounded)
{
    struct Case {
        const char *spec, *flags, *prefix;
    } cases[] = {
        {"name: t\nmodels: [belady]\nfixed: {N: 3000000000, M: 4}\naxes:\n  C: [100]\n", "",
         "spec.yaml:3:12: fixed.N: expected N <= 268435456 blocks (2^28, the largest ring the belady "
         "model's LRU replay holds), got N = 3000000000 at point 0 (C=100, N=3000000000)"},
        {"name: t\nmodels: [lru_replay]\nfixed: {M: 4}\naxes:\n  N: [1000, 300000000]\n  C: [100]\n", "",
         "spec.yaml:5:6: axes.N: expected N <= 268435456 blocks"},
        {"name: t\nmodels: [ttl]\nfixed: {N: 8192, sms: 1099511627776}\naxes:\n  occupancy: [1, 1048576]\n"
         "  C: [100]\n", "",
         "spec.yaml:5:14: axes.occupancy: expected M <= 3000000000 workers (the patterns' exact integer "
         "arithmetic), got M = 1099511627776 at point 0"},
        {"name: t\nmodels: [ttl]\nfixed: {M: 1000000}\naxes:\n  N: [8192, 1099511627776000]\n  C: [100]\n",
         "", "spec.yaml:5:6: axes.N: expected N * M <= 2^63 - 1"},
        {"name: t\nmodels: [belady]\nfixed: {N: 1000, M: 2048}\naxes:\n  rounds: [10, 4503599627370496]\n"
         "  C: [100]\n", "", "spec.yaml:5:11: axes.rounds: expected rounds * M <= 2^62 (belady's request "
         "times), got 4503599627370496 * 2048 at point 1"},
        {"name: t\nmodels: [lru]\nfixed: {N: 8192}\naxes:\n  M: [48, 1000000]\n  C: [100]\n",
         " --memory 64MiB --threads 2",
         // 29 int64 arrays of 2^20 (M rounded up to a power of two; the
         // static workspace's 22 of M and 7 of M + 1) and two more in the
         // evaluator: 248 MiB per thread
         "spec.yaml:5:6: axes.M: expected the models' workspaces to fit in memory (64.0 MiB, --memory), got "
         "248.0 MiB per thread at N = 8192, M = 1000000, 496.0 MiB for 2 threads"},
    };
    for (const Case &c : cases) {
        std::string spec = write("spec.yaml", c.spec);
        Result r = pascal_test::run_command(dir, "cd " + dir + " && " + PASCAL_CLI + " run spec.yaml -o x.h5" +
                                                     c.flags);
        EXPECT_EQ(r.status, 2) << c.spec;
        // The error is the last line (an estimate may come first).
        std::string last = r.err.substr(r.err.rfind('\n', r.err.size() - 2) + 1);
        EXPECT_EQ(last.rfind(c.prefix, 0), 0u) << r.err;
        EXPECT_FALSE(exists(dir + "/x.h5"));
    }
}

TEST(PlanBounds, MemoryBoundFollowsTheThreads)
{
    Spec spec("name: t\nmodels: [lru]\nfixed: {N: 8192, M: 100000}\naxes:\n  C: [100, 200]\n");
    ASSERT_TRUE(spec.s) << spec.err;
    pascal_plan_opts o{};
    pascal_plan_result r{};
    pascal_error err{};
    // One workspace of M = 100000 is 31 MiB: 248 bytes x 2^17, the static
    // workspace's 29 int64 arrays (22 of M, 7 of M + 1, model/static.c)
    // plus the phases and the sorted distances.
    o.memory_bytes = 100e6;
    for (int threads : {1, 3})
    {
        o.threads = threads;
        EXPECT_EQ(pascal_plan_check(spec.s, 0, 2, &o, &r, &err), 0) << err.msg;
    }
    o.threads = 4;
    EXPECT_EQ(pascal_plan_check(spec.s, 0, 2, &o, &r, &err), PASCAL_EINPUT);
    EXPECT_NE(std::string(err.msg).find("got 31.0 MiB per thread at N = 8192, M = 100000, 124.0 MiB for 4 "
                                        "threads"), std::string::npos) << err.msg;
}

// A workload point's memory is its wave evaluator's (eval_workload.h):
// decode attention on 1000 slots with lru_replay holds the kernel replay's
// stack over 2 x 64 x 8 streams of 16384 blocks (2^24 blocks: over 200 MB
// of stack and counts); at seq_kv 4096 (2^16 blocks) a few MB.
TEST(PlanBounds, WorkloadMemoryIsBoundedAtItsField)
{
    Spec spec("name: t\nmodels: [traffic, lru_replay]\nworkload:\n  attention: {batch: 64, q_heads: 64,\n"
              "    kv_heads: 8, seq_q: 1, seq_kv: 1048576, head_dim: 128, dtype: bf16, tile_q: 64,\n"
              "    tile_kv: 64}\nfixed: {M: 1000}\naxes:\n  seq_kv: [4096, 1048576]\n  capacity_bytes: [50MiB]\n");
    ASSERT_TRUE(spec.s) << spec.err;
    pascal_plan_opts o{};
    pascal_plan_result r{};
    pascal_error err{};
    o.threads = 2;
    o.memory_bytes = 200e6;
    ASSERT_EQ(pascal_plan_check(spec.s, 0, 2, &o, &r, &err), PASCAL_EINPUT);
    EXPECT_EQ(std::string(err.msg).rfind("spec.yaml:9:11: axes.seq_kv: expected the models' workspaces to fit in "
                                         "memory (190.7 MiB, --memory), got ", 0), 0u) << err.msg;
    EXPECT_NE(std::string(err.msg).find("smaller M or workload"), std::string::npos) << err.msg;
    EXPECT_NE(std::string(err.msg).find("at point 1 (seq_kv=1048576"), std::string::npos) << err.msg;
    // The first point (256 blocks per stream) fits.
    EXPECT_EQ(pascal_plan_check(spec.s, 0, 1, &o, &r, &err), 0) << err.msg;
    // Without lru_replay no stack over the kernel's blocks is kept.
    Spec waves("name: t\nmodels: [traffic]\nworkload:\n  attention: {batch: 64, q_heads: 64,\n"
               "    kv_heads: 8, seq_q: 1, seq_kv: 1048576, head_dim: 128, dtype: bf16, tile_q: 64,\n"
               "    tile_kv: 64}\nfixed: {M: 1000}\naxes:\n  seq_kv: [4096, 1048576]\n  capacity_bytes: [50MiB]\n");
    ASSERT_TRUE(waves.s) << waves.err;
    EXPECT_EQ(pascal_plan_check(waves.s, 0, 2, &o, &r, &err), 0) << err.msg;
}

TEST_F(PlanCli, AliasFanOutIsRefused)
{
    // One 2000-phase list used 9000 times: 18 million phases from 42 KB.
    std::string list = "&p [0";
    for (int k = 1; k < 2000; k++)
        list += ", 0";
    list += "]";
    std::string uses;
    for (int k = 0; k < 9000; k++)
        uses += ", *p";
    std::string spec = write("spec.yaml", "name: fan\nmodels: [ttl]\nfixed: {N: 8192, C: 100}\naxes:\n"
                                          "  pattern: [explicit]\n  phases: [" + list + uses + "]\n");
    Result r = run("run " + spec + " --dry-run");
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err.rfind(spec + ":6:", 0), 0u) << r.err;
    EXPECT_NE(r.err.find("expected at most 16777216 YAML nodes once aliases are expanded, got more at "
                         "this alias (*p stands for 2001 nodes)"), std::string::npos) << r.err;
    // Nested: ten aliases per level, nine levels (a billion laughs).
    std::string doc = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n";
    for (int l = 1; l <= 9; l++) {
        doc += "a" + std::to_string(l) + ": &a" + std::to_string(l) + " [";
        for (int k = 0; k < 10; k++)
            doc += std::string(k ? ", " : "") + "*a" + std::to_string(l - 1);
        doc += "]\n";
    }
    spec = write("laughs.yaml", doc);
    r = run("run " + spec + " --dry-run");
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err.rfind(spec + ":8:", 0), 0u) << r.err;
    // An alias that stays under the limit is fine.
    spec = write("ok.yaml", "name: ok\nmodels: [ttl]\nfixed: {N: 64}\naxes:\n  M: &m [1, 2]\n  C: *m\n");
    EXPECT_EQ(run("run " + spec + " --dry-run").status, 0);
}

TEST_F(PlanCli, WhereThatKeepsNothingIsAnError)
{
    std::string spec = write("spec.yaml", "name: t\nmodels: [ttl]\nfixed: {N: 64, M: 4}\naxes:\n"
                                          "  C: [8, 16, 32]\nwhere: 'C > N'\n");
    for (const char *fmt : {"x.h5", "x.csv"}) {
        Result r = run("run " + spec + " -o " + dir + "/" + fmt);
        EXPECT_EQ(r.status, 2);
        EXPECT_EQ(r.err, spec + ":6:8: where: expected at least one point to pass `where`, got none of the 3 "
                               "points\n");
        EXPECT_FALSE(exists(dir + "/" + fmt));
    }
    // A shard may hold none of the kept points.
    spec = write("spec.yaml", "name: t\nmodels: [ttl]\nfixed: {N: 64, M: 4}\naxes:\n"
                              "  C: [8, 16, 32, 48]\nwhere: 'C > 20'\n");
    EXPECT_EQ(run("run " + spec + " -o " + dir + "/a.h5 --shard 1/2").status, 0);
}

TEST_F(PlanCli, CalibrationThatSupportsNoPointIsAnError)
{
    std::string model = dir + "/gb10.h5";
    ASSERT_EQ(run("calibrate " + kSrc + "/configs/calibration/synthetic-gb10-refs.csv --device " + kSrc +
                  "/configs/devices/gb10.yaml -o " + model).status, 0);
    std::string spec = write("spec.yaml", "name: t\ndevice: " + kSrc + "/configs/devices/h100.yaml\n"
                                          "calibration: gb10.h5\nmodels: [dynamic]\n"
                                          "fixed: {block_bytes: 16KiB, N: 4096, path: tma, depth: 3}\n"
                                          "axes:\n  occupancy: [1, 2]\n  compute: [8, 40]\n  W: [1, 32]\n");
    Result r = run("run " + spec + " -o " + dir + "/x.h5");
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err.rfind(spec + ":3:14: calibration: expected a calibration that supports some point of the "
                          "sweep, got none of 8 distinct points (every point): 8 device (M, C or block_bytes "
                          "differ from the calibration's device: M = 48 x occupancy, C = 1280 blocks of 16384 "
                          "bytes)", 0), 0u) << r.err;
    EXPECT_FALSE(exists(dir + "/x.h5"));
    // The GB10 profile: supported.
    spec = write("spec.yaml", "name: t\ndevice: " + kSrc + "/configs/devices/gb10.yaml\n"
                              "calibration: gb10.h5\nmodels: [dynamic]\n"
                              "fixed: {block_bytes: 16KiB, N: 4096, path: tma, depth: 3}\n"
                              "axes:\n  occupancy: [1, 2]\n  compute: [8, 40]\n  W: [1, 32]\n");
    r = run("run " + spec + " -o " + dir + "/x.h5");
    EXPECT_EQ(r.status, 0) << r.err;
}

} // namespace
