// The pascal executable: exit codes, messages, JSON of `pascal point`, and
// that bad input creates or overwrites no file.
#include <gtest/gtest.h>

#include <algorithm>

#include <cmath>
#include <regex>
#include <stdexcept>
#include <string>

#include "test_util.h"
#include "pascal/version.h"

namespace {

using pascal_test::exists;
using pascal_test::slurp;
using Result = pascal_test::CliResult;

class Cli : public pascal_test::TempDirTest {};

// Value of "key": in a flat JSON object; NaN for null, throws if absent.
double json_number(const std::string &json, const std::string &key)
{
    std::smatch m;
    std::regex re("\"" + key + "\": (null|-?[0-9.eE+-]+)");
    if (!std::regex_search(json, m, re))
        throw std::runtime_error("missing key " + key);
    return m[1] == "null" ? NAN : std::stod(m[1]);
}

const char *kSpec = "name: t\nmodels: [ttl, lru]\nfixed: {N: 64, M: 4, pattern: uniform}\n"
                    "axes:\n  seed: [1, 2, 3]\n  C: {from: 8, to: 40, step: 8}\n";

TEST_F(Cli, VersionAndHelp)
{
    Result r = run("--version");
    EXPECT_EQ(r.status, 0);
    EXPECT_EQ(r.out, std::string("pascal ") + PASCAL_VERSION_STRING + "\n");
    for (const char *cmd : {"run --help", "point --help", "--help"}) {
        r = run(cmd);
        EXPECT_EQ(r.status, 0) << cmd;
        EXPECT_NE(r.out.find("usage: pascal"), std::string::npos) << cmd;
    }
}

// A shard that holds none of a scenario's points says so in its summary,
// instead of a worst case of nan at 0 with empty parentheses.
TEST_F(Cli, AShardSummaryNamesScenariosItDoesNotHold)
{
    std::string spec = write("g.yaml", "name: groups\nmodels: [ttl, lru]\nfixed: {N: 64, M: 4, sigma: 3}\n"
                                       "axes:\n  pattern: [uniform, gaussian]\n  seed: [1, 2]\n  C: [8, 16, 32]\n");
    Result r = run("run " + spec + " -o " + dir + "/g1.h5 --shard 1/2");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("gaussian     no point with a rho_lru value in this shard"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("uniform      none: rho_lru = 0.25 at C = 32 (pattern=uniform, seed=1)"),
              std::string::npos) << r.out;
    for (const char *noise : {"nan", "()", "needed by ,"})
        EXPECT_EQ(r.out.find(noise), std::string::npos) << noise << ": " << r.out;
}

// The test hooks (PASCAL_TEST_*: programs/testhooks.c) are in the tests'
// build/tests/pascal-hooked only: the pascal users run ignores them.
TEST_F(Cli, TheReleaseCommandHasNoTestHooks)
{
    std::string spec = write("s.yaml", kSpec);
    const std::string env = "PASCAL_TEST_KILL_AFTER_BATCH=0 PASCAL_TEST_RAISE_AT=claim-locked:KILL ";
    Result hooked = pascal_test::run_command(dir, env + PASCAL_CLI_HOOKED " run " + spec + " -o " + dir +
                                                      "/h.h5 --quiet");
    EXPECT_NE(hooked.status, 0) << "the hooked build obeys the hooks";
    Result r = pascal_test::run_command(dir, env + PASCAL_CLI " run " + spec + " -o " + dir + "/r.h5 --quiet");
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(exists(dir + "/r.h5"));
}

TEST_F(Cli, UnknownCommandAndFlagsExitTwo)
{
    Result r = run("frobnicate");
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("unknown command \"frobnicate\""), std::string::npos);
    r = run("point --N 10 --C 3 --M 2 --bogus 1");
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("unknown option --bogus"), std::string::npos);
    EXPECT_NE(r.err.find("--clusters"), std::string::npos) << "valid options are listed";
    r = run("point --N abc --C 3 --M 2");
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("--N: expected an integer >= 1, got \"abc\""), std::string::npos);
    r = run("point --N 10 --C 0 --M 2");
    EXPECT_EQ(r.status, 2);
    r = run("point --N 10 --C 3 --phases 0,x");
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("--phases: expected"), std::string::npos);
    r = run("point --N 10 --C 3 --phases 0,12");
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("below N"), std::string::npos);
    r = run("point --N 10 --C 3 --M 2 --pattern spiral");
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("--pattern: expected one of"), std::string::npos);
    // one message each, not the integer's and then the level's
    for (const char *level : {"none", "12"}) {
        r = run(std::string("run configs/default.yaml -o x.h5 --compression ") + level);
        EXPECT_EQ(r.status, 2) << level;
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << level << ": " << r.err;
        EXPECT_NE(r.err.find("--compression: expected"), std::string::npos) << r.err;
    }
}

// Hand computation: N = 10, phases {0, 0, 5}: D = 2, gaps (5, 5).  C = 3:
// U(t) = 2 min(5, t) = 3 gives theta = 1.5, T* = 1, K_ttl = #{g > 1} = 2.
TEST_F(Cli, PointJsonHandComputed)
{
    Result r = run("point --N 10 --C 3 --phases 0,0,5 --json");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("\"gaps\": [5, 5]"), std::string::npos) << r.out;
    EXPECT_EQ(json_number(r.out, "N"), 10);
    EXPECT_EQ(json_number(r.out, "M"), 3);
    EXPECT_EQ(json_number(r.out, "D"), 2);
    EXPECT_DOUBLE_EQ(json_number(r.out, "theta"), 1.5);
    EXPECT_EQ(json_number(r.out, "T_star"), 1);
    EXPECT_EQ(json_number(r.out, "K_ttl"), 2);
    EXPECT_DOUBLE_EQ(json_number(r.out, "rho_ttl"), 2.0 / 3.0);
    EXPECT_DOUBLE_EQ(json_number(r.out, "rho_che"), 0.7);
    EXPECT_THROW(json_number(r.out, "K_sdcm"), std::runtime_error) << "only with --assoc";
    for (const char *k : {"K_lru_lo", "K_lru_hi", "K_lru", "V", "K_bound"})
        EXPECT_NO_THROW(json_number(r.out, k)) << k;
    r = run("point --N 10 --C 3 --phases 0,0,5 --assoc 2 --json");
    ASSERT_EQ(r.status, 0);
    EXPECT_FALSE(std::isnan(json_number(r.out, "K_sdcm")));
}

TEST_F(Cli, PointPaperFacts)
{
    // k equal clusters of M = 48 at N = 8192, C = 1280 (16 KiB blocks): K = k.
    Result r = run("point --N 8192 --C 1280 --pattern clusters --clusters 12 --M 48 --json");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(json_number(r.out, "D"), 12);
    EXPECT_EQ(json_number(r.out, "K_ttl"), 12);
    // A single phase: one shared fill per round.
    r = run("point --N 8192 --C 1280 --M 48 --json");
    ASSERT_EQ(r.status, 0);
    EXPECT_EQ(json_number(r.out, "K_ttl"), 1);
    EXPECT_EQ(json_number(r.out, "K_lru"), 1);
    // C >= N: theta undefined, nothing misses.
    r = run("point --N 100 --C 100 --pattern equal --M 10 --json");
    ASSERT_EQ(r.status, 0);
    EXPECT_TRUE(std::isnan(json_number(r.out, "theta")));
    EXPECT_TRUE(std::isnan(json_number(r.out, "T_star")));
    EXPECT_EQ(json_number(r.out, "K_ttl"), 0);
    // D > C: the Theorem 3 band is not valid and must be null.
    r = run("point --N 100 --C 2 --pattern equal --M 10 --json");
    ASSERT_EQ(r.status, 0);
    EXPECT_TRUE(std::isnan(json_number(r.out, "K_lru_lo")));
    EXPECT_TRUE(std::isnan(json_number(r.out, "K_lru_hi")));
    EXPECT_EQ(json_number(r.out, "K_lru"), 10);
}

TEST_F(Cli, PointTextExplains)
{
    Result r = run("point --capacity-bytes 20MiB --block-bytes 16KiB --N 8192 --M 48 "
                   "--pattern clusters --clusters 4");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("cache of 1280 blocks"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("Theorem 2"), std::string::npos);
    EXPECT_NE(r.out.find("Theorem 4"), std::string::npos);
}

TEST_F(Cli, RunWritesFileAndSummary)
{
    std::string spec = write("s.yaml", kSpec), out = dir + "/r.h5";
    Result r = run("run " + spec + " -o " + out + " --threads 2");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(exists(out));
    EXPECT_NE(r.out.find("15 points"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("wrote " + out), std::string::npos);
    EXPECT_NE(r.out.find("headline: rho_lru"), std::string::npos);
    r = run("run " + spec + " -o " + dir + "/r.csv --format csv --quiet");
    ASSERT_EQ(r.status, 0) << r.err;
    std::string csv = slurp(dir + "/r.csv");
    EXPECT_EQ(csv.substr(0, csv.find('\n')), "seed,C,N,M,D,theta,T_star,K_ttl,rho_ttl,K_lru,rho_lru");
    EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 16);
    // CSV on stdout: stdout holds the table only, the summary goes to stderr.
    r = run("run " + spec + " -o - --format csv --quiet");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out, csv);
    EXPECT_NE(r.err.find("15 points"), std::string::npos);
    r = run("run " + spec + " --dry-run");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("dry run"), std::string::npos);
}

TEST_F(Cli, BadSpecExitsTwoAndKeepsExistingOutput)
{
    std::string out = write("keep.h5", "precious");
    std::string spec = write("bad.yaml", "name: t\nmodels: [ttl]\nfixed: {N: 64, M: 4}\n"
                                         "axes:\n  C: [8, 16]\n  colour: [red]\n");
    Result r = run("run " + spec + " -o " + out);
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err.rfind(spec + ":6:3: axes.colour:", 0), 0u) << r.err;
    EXPECT_EQ(slurp(out), "precious");
    // A point that breaks `require` is found before any output exists.
    spec = write("req.yaml", "name: t\nmodels: [ttl]\nfixed: {N: 64, M: 4}\n"
                             "axes:\n  C: [8, 64]\nrequire: 'C < N'\n");
    r = run("run " + spec + " -o " + out);
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("C < N"), std::string::npos) << r.err;
    EXPECT_EQ(slurp(out), "precious");
    r = run("run " + dir + "/missing.yaml -o " + out);
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("missing.yaml"), std::string::npos);
}

TEST_F(Cli, ShardAndMerge)
{
    std::string spec = write("s.yaml", kSpec);
    for (const char *bad : {"0/2", "3/2", "2", "1/0", "a/b", "1/2x"}) {
        Result r = run("run " + spec + " -o " + dir + "/x.h5 --shard " + bad);
        EXPECT_EQ(r.status, 2) << bad;
        EXPECT_NE(r.err.find("--shard: expected K/N"), std::string::npos) << r.err;
    }
    EXPECT_FALSE(exists(dir + "/x.h5"));
    Result r = run("run " + spec + " -o " + dir + "/a.h5 --shard 1/2 --quiet");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("shard 1/2: raw points 0 to 6"), std::string::npos) << r.out;
    ASSERT_EQ(run("run " + spec + " -o " + dir + "/b.h5 --shard 2/2 --quiet").status, 0);
    r = run("merge -o " + dir + "/m.h5 " + dir + "/b.h5 " + dir + "/a.h5");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(exists(dir + "/m.h5"));
    r = run("merge -o " + dir + "/m2.h5 " + dir + "/a.h5");
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("split into 2"), std::string::npos) << r.err;
    EXPECT_FALSE(exists(dir + "/m2.h5"));
    // A shard given twice is named as such, not as a split into 3.
    r = run("merge -o " + dir + "/m3.h5 " + dir + "/a.h5 " + dir + "/b.h5 " + dir + "/b.h5");
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("expected each shard once, got shard 2/2 twice"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("split into"), std::string::npos) << r.err;
    r = run("merge " + dir + "/a.h5");
    EXPECT_EQ(r.status, 2);
    // --resume with nothing to continue (a run killed before its first
    // chunk, a requeued job) starts from the first point and says so.
    r = run("run " + spec + " -o " + dir + "/never.h5 --resume --quiet");
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("nothing to resume (no " + dir + "/never.h5.partial)"),
              std::string::npos) << r.out;
    EXPECT_TRUE(exists(dir + "/never.h5"));
}

TEST_F(Cli, UnwritableOutputExitsTwo)
{
    std::string spec = write("s.yaml", kSpec);
    Result r = run("run " + spec + " -o " + dir + "/no/such/dir/x.h5");
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find(dir + "/no/such/dir/x.h5"), std::string::npos) << r.err;
    EXPECT_FALSE(exists(dir + "/no"));
    r = run("run " + spec);
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("-o/--output"), std::string::npos);
    r = run("run " + spec + " -o " + dir + "/x.h5 --threads 0");
    EXPECT_EQ(r.status, 2);
    EXPECT_FALSE(exists(dir + "/x.h5"));
}

}  // namespace
