// Progress reaches the caller through pascal_run_opts.progress: the library
// calls it (0 first, then after every batch, never backwards, ending at the
// total) and prints nothing itself; the CLI draws its bar from these calls
// on a terminal only.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <unistd.h>

#include <cstring>
#include <string>
#include <vector>

#include "engine/run.h"
#include "sweeps/spec.h"
#include "test_util.h"

namespace {

// 6 x 50 = 300 raw points, of which `where` keeps 150.
const char *kSpec =
    "name: progress\n"
    "models: [ttl]\n"
    "fixed: {N: 512, pattern: uniform, seed: 7}\n"
    "axes:\n"
    "  M: [3, 5, 8, 13, 21, 34]\n"
    "  C: {from: 1, to: 500, num: 50}\n"
    "where: 'C < 250'\n";

struct Calls {
    std::vector<uint64_t> done, total;
};

void record(void *ctx, uint64_t done, uint64_t total)
{
    auto *c = static_cast<Calls *>(ctx);
    c->done.push_back(done);
    c->total.push_back(total);
}

class EngineProgress : public pascal_test::TempDirTest {};

TEST_F(EngineProgress, CallbackSeesEveryBatchAndTheLibraryPrintsNothing)
{
    pascal_spec *spec = nullptr;
    pascal_error err{};
    ASSERT_EQ(pascal_spec_parse(kSpec, strlen(kSpec), "p.yaml", &spec, &err), 0) << err.msg;
    for (int threads : {1, 2}) {
        const std::string out = dir + "/p" + std::to_string(threads) + ".h5";
        pascal_run_opts o{};
        pascal_run_stats st{};
        Calls calls;
        o.out_path = out.c_str();
        o.threads = threads;
        o.batch_points = 64; // 300 raw points: batches end at 64, 128, 192, 256, 300
        o.compression = -1;
        o.progress = record;
        o.progress_ctx = &calls;
        // Everything the library writes to stderr lands in a file.
        const std::string errfile = dir + "/stderr" + std::to_string(threads);
        int saved = dup(2), fd = open(errfile.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        ASSERT_GE(fd, 0);
        dup2(fd, 2);
        int rc = pascal_run(spec, &o, &st, &err);
        fflush(stderr);
        dup2(saved, 2);
        close(saved);
        close(fd);
        ASSERT_EQ(rc, 0) << err.msg;
        EXPECT_EQ(pascal_test::slurp(errfile), "");
        EXPECT_EQ(st.rows, 150u);
        EXPECT_EQ(calls.done, (std::vector<uint64_t>{0, 64, 128, 192, 256, 300})) << threads;
        EXPECT_EQ(calls.total, std::vector<uint64_t>(6, 300)) << threads;
    }
    pascal_spec_free(spec);
}

TEST_F(EngineProgress, CliDrawsTheBarOnATerminalOnly)
{
    const std::string spec = write("p.yaml", kSpec);
    // Not a terminal: no bar.
    auto r = run("run " + spec + " -o " + dir + "/a.h5");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.err.find("ETA"), std::string::npos) << r.err;
    // A pseudo-terminal (script(1)): the bar ends at 100% on its own line.
    r = pascal_test::run_command(dir, "script -qec '" + std::string(PASCAL_CLI) + " run " + spec +
                                          " -o " + dir + "/b.h5' /dev/null");
    ASSERT_EQ(r.status, 0) << r.out;
    EXPECT_NE(r.out.find("100.0% 300/300 points"), std::string::npos) << r.out;
    // --quiet: none on a terminal either.
    r = pascal_test::run_command(dir, "script -qec '" + std::string(PASCAL_CLI) + " run " + spec +
                                          " -o " + dir + "/c.h5 --quiet' /dev/null");
    ASSERT_EQ(r.status, 0) << r.out;
    EXPECT_EQ(r.out.find("ETA"), std::string::npos) << r.out;
}

} // namespace
