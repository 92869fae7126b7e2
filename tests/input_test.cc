// Input details a careful user tries: sizes are exact (no hexadecimal, no
// value above 2^53 rounded in silence) and unit errors list the units; a
// list axis may not repeat a value; `pascal point` flags that would have no
// effect are errors; -o NAME.csv writes CSV; --threads beyond the cores
// warns; messages state the real limits.
#include <gtest/gtest.h>

#include <omp.h>

#include <chrono>
#include <string>

#include "vocab/params.h"
#include "sweeps/spec.h"
#include "test_util.h"

namespace {

using pascal_test::exists;
using pascal_test::slurp;
using Result = pascal_test::CliResult;

// The error of parsing a spec (empty when it parses).
std::string spec_error(const std::string &yaml)
{
    pascal_spec *s = nullptr;
    pascal_error err{};
    int rc = pascal_spec_parse(yaml.data(), yaml.size(), "spec.yaml", &s, &err);
    pascal_spec_free(s);
    return rc ? err.msg : "";
}

const std::string kHead = "name: t\nmodels: [ttl]\nfixed: {N: 64, M: 4, block_bytes: 1}\naxes:\n";

TEST(InputSizes, ExactOrRefused)
{
    struct Case {
        const char *text;
        int code;
        double bytes;
    } cases[] = {
        {"20MiB", 0, 20971520}, {"16 KiB", 0, 16384}, {"1.5GiB", 0, 1610612736}, {"2kB", 0, 2000},
        {"2KB", 0, 2000}, {"1e3", 0, 1000}, {".5KiB", 0, 512}, {"8192TiB", 0, 9007199254740992.0},
        {"9007199254740992", 0, 9007199254740992.0},
        {"9007199254740993", PASCAL_SIZE_BIG, 0}, // strtod would round it to 2^53
        {"8193TiB", PASCAL_SIZE_BIG, 0}, {"1e99999999", PASCAL_SIZE_BIG, 0},
        {"0x10", PASCAL_SIZE_BAD, 0}, {"0x1p4KiB", PASCAL_SIZE_BAD, 0}, {"-3", PASCAL_SIZE_BAD, 0},
        {"0", PASCAL_SIZE_BAD, 0}, {"inf", PASCAL_SIZE_BAD, 0},
        {"20MiBs", PASCAL_SIZE_UNIT, 0}, {"3PiB", PASCAL_SIZE_UNIT, 0},
        {"1.3B", PASCAL_SIZE_FRACTION, 0}, {"0.3KiB", PASCAL_SIZE_FRACTION, 0},
    };
    for (const Case &c : cases) {
        double b = 0;
        EXPECT_EQ(pascal_size_parse(c.text, &b), c.code) << c.text;
        if (c.code == 0)
            EXPECT_EQ(b, c.bytes) << c.text;
    }
}

TEST(InputSizes, MessagesSayWhy)
{
    EXPECT_EQ(spec_error(kHead + "  capacity_bytes: [20MiBs]\n"),
              "spec.yaml:5:20: axes.capacity_bytes[0]: expected a size like 20MiB, got \"20MiBs\": unknown "
              "unit \"MiBs\" (units: B, KiB, MiB, GiB, TiB, kB, KB, MB, GB, TB)");
    EXPECT_EQ(spec_error(kHead + "  capacity_bytes: [0x1p4KiB]\n"),
              "spec.yaml:5:20: axes.capacity_bytes[0]: expected a size like 20MiB, got \"0x1p4KiB\": "
              "hexadecimal is not accepted");
    EXPECT_EQ(spec_error(kHead + "  capacity_bytes: [9007199254740993]\n"),
              "spec.yaml:5:20: axes.capacity_bytes[0]: expected a size like 20MiB, got \"9007199254740993\": "
              "more than 2^53 = 9007199254740992 bytes, the largest size held exactly");
    EXPECT_EQ(spec_error(kHead + "  capacity_bytes: {from: 1KiB, to: 8KiB, step: 1KiBs}\n"),
              "spec.yaml:5:48: axes.capacity_bytes.step: expected a step like 1MiB or -4096, got \"1KiBs\": "
              "unknown unit \"KiBs\" (units: B, KiB, MiB, GiB, TiB, kB, KB, MB, GB, TB)");
    EXPECT_EQ(spec_error(kHead + "  C: {from: 1, to: 8, step: 9007199254740993}\n"),
              "spec.yaml:5:29: axes.C.step: expected a step of at most 2^53, got 9007199254740993");
    EXPECT_EQ(spec_error(kHead + "  C: [1]\nwhere: 'capacity_bytes > 0x10'\n"),
              "spec.yaml:6:26: where: expected a number or a size like 20MiB, got \"0x10\": hexadecimal is "
              "not accepted");
    EXPECT_EQ(spec_error(kHead + "  capacity_bytes: [2kB, 1MB]\n"), "");
}

// Bounded before libyaml reads anything (vocab/yaml.h): a document's size
// and the depth of its flow collections, whose scan is quadratic in libyaml.
TEST(InputLimits, DeepOrHugeDocumentsAreRefusedAtOnce)
{
    std::string deep = kHead + "  C: " + std::string(40000, '[') + "1" + std::string(40000, ']') + "\n";
    auto t0 = std::chrono::steady_clock::now();
    std::string e = spec_error(deep);
    double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    EXPECT_EQ(e.rfind("spec.yaml:5:262: expected collections nested at most 256 deep, got deeper", 0), 0u) << e;
    EXPECT_LT(took, 5.0) << "a behavioural bound: the refusal comes before libyaml's scan";
    // Brackets inside quotes and comments do not count; 256 levels parse.
    std::string quoted = kHead + "  C: [8]  # [[[[[[\ndescription: \"" + std::string(600, '[') + "\"\n";
    EXPECT_EQ(spec_error(quoted), "");
    std::string ok = "name: t\nmodels: [ttl]\nfixed: {N: 64, M: 4, block_bytes: 1}\ndescription: " +
                     std::string(256, '[') + std::string(256, ']') + "\naxes:\n  C: [8]\n";
    EXPECT_EQ(spec_error(ok).find("nested at most"), std::string::npos) << spec_error(ok);
    std::string big(((size_t)128 << 20) + 1, ' ');
    pascal_spec *s = nullptr;
    pascal_error err{};
    EXPECT_EQ(pascal_spec_parse(big.data(), big.size(), "big.yaml", &s, &err), PASCAL_EINPUT);
    EXPECT_STREQ(err.msg, "big.yaml: expected a document of at most 128 MiB, got 134217729 bytes");
}

TEST(InputAxes, ListsMayNotRepeatAValue)
{
    EXPECT_EQ(spec_error(kHead + "  C: [4, 8, 4]\n"),
              "spec.yaml:5:13: axes.C[2]: expected distinct values, got \"4\" again (first at axes.C[0]); "
              "each would give the same points twice");
    // The same size in two spellings.
    EXPECT_EQ(spec_error(kHead + "  capacity_bytes: [2KiB, 1KiB, 1024]\n"),
              "spec.yaml:5:32: axes.capacity_bytes[2]: expected distinct values, got \"1024\" again (first at "
              "axes.capacity_bytes[1]); each would give the same points twice");
    // The earliest repeat is reported, not the smallest value.
    EXPECT_EQ(spec_error(kHead + "  C: [9, 3, 9, 3]\n").substr(0, 40), "spec.yaml:5:13: axes.C[2]: expected dist");
    EXPECT_EQ(spec_error(kHead + "  C: [1]\n  pattern: [uniform, aligned, uniform]\n").substr(0, 49),
              "spec.yaml:6:31: axes.pattern[2]: expected distinc");
    EXPECT_EQ(spec_error("name: t\nmodels: [ttl]\nfixed: {N: 64, C: 4}\naxes:\n  pattern: [explicit]\n"
                         "  phases: [[0, 1], [1, 0], [0, 1]]\n"),
              "spec.yaml:6:28: axes.phases[2]: expected distinct values, got the same phase list again (first "
              "at axes.phases[0]); each would give the same points twice");
    EXPECT_EQ(spec_error(kHead + "  C: [4, 8, 16]\n  pattern: [uniform, aligned]\n"), "");
}

// A zipped axis may repeat a value (its points differ in the other members);
// a zip group whose combination repeats is the error.
TEST(InputAxes, ZipGroupsMayNotRepeatACombination)
{
    const std::string head = "name: t\nmodels: [ttl]\nfixed: {N: 4096, M: 64}\nzip:\n  - [block_bytes, "
                             "capacity_bytes]\naxes:\n";
    EXPECT_EQ(spec_error(head + "  block_bytes: [4KiB, 8KiB, 16KiB]\n  capacity_bytes: [4MiB, 4MiB, 8MiB]\n"), "");
    EXPECT_EQ(spec_error(head + "  block_bytes: [4KiB, 8KiB, 4KiB]\n  capacity_bytes: [4MiB, 4MiB, 4MiB]\n"),
              "spec.yaml:7:29: axes.block_bytes[2]: expected distinct combinations of the zip group "
              "[block_bytes, capacity_bytes], got (\"4KiB\", \"4MiB\") again at index 2 (first at index 0); "
              "each would give the same points twice");
    // A range member makes every combination distinct.
    EXPECT_EQ(spec_error(head + "  block_bytes: {from: 4KiB, to: 12KiB, num: 3}\n"
                                "  capacity_bytes: [4MiB, 4MiB, 4MiB]\n"), "");
    // An axis outside the group is still checked on its own.
    EXPECT_EQ(spec_error(head + "  block_bytes: [4KiB, 8KiB]\n  capacity_bytes: [4MiB, 4MiB]\n  seed: [1, 1]\n")
                  .substr(0, 37),
              "spec.yaml:9:13: axes.seed[1]: expecte");
}

class InputCli : public pascal_test::TempDirTest {};

TEST_F(InputCli, PointFlagsWithoutEffectAreErrors)
{
    struct Case {
        const char *args, *err;
    } cases[] = {
        {"--N 100 --M 4 --C 10 --lag 3",
         "pascal point: --lag: expected --pattern lag for it to take effect, got --pattern aligned\n"},
        {"--N 100 --M 4 --C 10 --pattern uniform --clusters 3",
         "pascal point: --clusters: expected --pattern clusters for it to take effect, got --pattern uniform\n"},
        {"--N 100 --M 4 --C 10 --pattern clusters --sigma 2",
         "pascal point: --sigma: expected --pattern gaussian for it to take effect, got --pattern clusters\n"},
        {"--N 100 --C 10 --phases 0,3 --seed 2",
         "pascal point: --seed: expected --pattern uniform or gaussian for it to take effect, got --phases\n"},
        {"--N 100 --M 4 --C 10 --capacity-bytes 1MiB --block-bytes 1KiB",
         "pascal point: --capacity-bytes: expected either --C or --capacity-bytes with --block-bytes, got "
         "both\n"},
        {"--N 100 --M 4 --C 10 --block-bytes 1KiB",
         "pascal point: --block-bytes: expected either --C or --capacity-bytes with --block-bytes, got both\n"},
        {"--N 100 --M 4 --capacity-bytes 64KiB --block-bytes 4KiB --assoc 17",
         "pascal point: --assoc: expected at most C = 16 ways (an A-way cache of B = C lines has at most C "
         "ways), got 17\n"},
        {"--N 100 --M 4 --capacity-bytes 20MiBs --block-bytes 4KiB",
         "pascal point: --capacity-bytes: expected a size like 20MiB, got \"20MiBs\": unknown unit \"MiBs\" "
         "(units: B, KiB, MiB, GiB, TiB, kB, KB, MB, GB, TB)\n"},
        {"--N 9007199254740993 --M 4 --C 10",
         "pascal point: --N: expected an integer >= 1 of at most 2^53, got \"9007199254740993\"\n"},
    };
    for (const Case &c : cases) {
        Result r = run(std::string("point ") + c.args);
        EXPECT_EQ(r.status, 2) << c.args;
        EXPECT_EQ(r.err, c.err) << c.args;
        EXPECT_EQ(r.out, "");
    }
    // With their pattern they are fine.
    EXPECT_EQ(run("point --N 100 --M 4 --C 10 --pattern lag --lag 3").status, 0);
    EXPECT_EQ(run("point --N 100 --M 4 --C 10 --pattern gaussian --sigma 2 --seed 5").status, 0);
    EXPECT_EQ(run("point --N 100 --M 4 --C 10 --assoc 10").status, 0);
}

const char *kSpec = "name: t\nmodels: [ttl]\nfixed: {N: 64, M: 4}\naxes:\n  C: [8, 16, 32]\n";

TEST_F(InputCli, OutputNameChoosesCsv)
{
    std::string spec = write("s.yaml", kSpec);
    Result r = run("run " + spec + " -o " + dir + "/x.csv --quiet");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(slurp(dir + "/x.csv").substr(0, 16), "C,N,M,D,theta,T_");
    EXPECT_NE(r.out.find("(CSV, "), std::string::npos) << r.out;
    r = run("run " + spec + " -o " + dir + "/X.CSV --format csv --quiet");
    ASSERT_EQ(r.status, 0) << r.err;
    r = run("run " + spec + " -o " + dir + "/y.csv --format hdf5");
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, "pascal run: --format: expected csv for an output named \"" + dir + "/y.csv\", got hdf5\n");
    r = run("run " + spec + " -o " + dir + "/y.h5 --format csv");
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, "pascal run: --format: expected hdf5 for an output named \"" + dir + "/y.h5\", got csv\n");
    EXPECT_FALSE(exists(dir + "/y.csv"));
    EXPECT_FALSE(exists(dir + "/y.h5"));
    // Any other name: HDF5 unless --format says csv.
    r = run("run " + spec + " -o " + dir + "/z.out --quiet");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(slurp(dir + "/z.out").substr(1, 3), "HDF");
}

TEST_F(InputCli, ThreadsAboveTheCoresWarnAndTheLimitsAreStated)
{
    std::string spec = write("s.yaml", kSpec);
    int cores = omp_get_num_procs();
    Result r = run("run " + spec + " -o " + dir + "/x.h5 --threads 4096 --quiet");
    ASSERT_EQ(r.status, 0) << r.err;
    if (cores < 4096)
        EXPECT_EQ(r.err, "pascal run: warning: --threads 4096 is more than the " + std::to_string(cores) +
                             " cores available; the threads will share them\n");
    r = run("run " + spec + " -o " + dir + "/y.h5 --threads 1 --quiet");
    EXPECT_EQ(r.err, "");
    r = run("run " + spec + " -o " + dir + "/z.h5 --threads 4097");
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, "pascal run: --threads: expected an integer from 1 to 4096, got \"4097\"\n");
    r = run("validate --threads 5000 --quiet");
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, "pascal validate: --threads: expected an integer from 1 to 4096, got \"5000\"\n");
    r = run("run " + spec + " -o " + dir + "/z.h5 --shard 1/1000001");
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, "pascal run: --shard: expected K/N with 1 <= K <= N <= 1000000, like 2/8, got "
                     "\"1/1000001\"\n");
    EXPECT_FALSE(exists(dir + "/z.h5"));
}

// A YAML tag is never obeyed for one key and ignored for another.
TEST(InputLimits, TaggedScalarsAreRefused)
{
    EXPECT_EQ(spec_error(kHead + "  C: [!!str 8]\n"),
              "spec.yaml:5:7: expected a value without a YAML tag (each key's type is pascal's), got the tag !!str");
    EXPECT_EQ(spec_error(kHead + "  C: [!!int \"8\"]\n"),
              "spec.yaml:5:7: expected a value without a YAML tag (each key's type is pascal's), got the tag !!int");
    EXPECT_EQ(spec_error("name: !custom t\nmodels: [ttl]\n").rfind("spec.yaml:1:7: expected a value without", 0), 0u);
}

TEST_F(InputCli, EndlessOrFolderInputsAreRefused)
{
    Result r = run("run /dev/zero --dry-run");
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("/dev/zero: expected a file of at most 128 MiB, got a longer one"),
              std::string::npos) << r.err;
    r = run("calibrate " + dir + " --device gb10 -o " + dir + "/m.h5");
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("cannot read " + dir + ": Is a directory"), std::string::npos) << r.err;
}

} // namespace
