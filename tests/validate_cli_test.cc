// `pascal validate`: the table, the exit codes, the failure report (which
// `pascal point` must accept), and that bad input creates or overwrites no
// file.
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <string>

#include "test_util.h"
#include "validate/validate.h"

namespace {

using pascal_test::exists;
using pascal_test::slurp;
using CliRun = pascal_test::CliResult;

class ValidateCli : public pascal_test::TempDirTest {};

}  // namespace

// The issue's counts on a fresh build: 2254 exhaustive + 500 seeded, every
// row of the table with zero failures.
TEST_F(ValidateCli, PassesAndPrintsTheCounts)
{
    CliRun r = run("validate --threads 2 -o " + dir + "/v.h5");
    ASSERT_EQ(r.status, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("2754 static cases = 2254 exhaustive"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("+ 500 seeded (N <= 256, M <= 32)"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("seed 1,"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("all checks hold (2754 static cases, 8052 multi-stream cases)"),
              std::string::npos);
    EXPECT_NE(r.out.find("8052 multi-stream cases = 7752 exhaustive"), std::string::npos) << r.out;
    std::regex row(R"(\n  (.{62}) +([0-9]+) +([0-9]+)(?=\n))");
    int rows = 0;
    for (std::sregex_iterator it(r.out.begin(), r.out.end(), row), end; it != end; ++it) {
        rows++;
        EXPECT_EQ((*it)[3], "0") << (*it)[0];
        EXPECT_NE((*it)[2], "0") << (*it)[0];
    }
    EXPECT_EQ(rows, PASCAL_VCHECK_COUNT) << r.out;   // 10 single-stream, 6 multi-stream
    EXPECT_TRUE(exists(dir + "/v.h5"));
    EXPECT_EQ(r.err, "");

    CliRun q = run("validate --quiet --seed 7");
    EXPECT_EQ(q.status, 0);
    EXPECT_EQ(q.out, "all checks hold (2754 static cases, 8052 multi-stream cases)\n");
}

// A disagreement exits 1 and names the smallest failing case as a command
// line that `pascal point` accepts.
TEST_F(ValidateCli, FailureReportIsAPointCommand)
{
    CliRun r = run("validate --quiet --fault ttl");
    ASSERT_EQ(r.status, 1) << r.out << r.err;
    std::smatch m;
    ASSERT_TRUE(std::regex_search(r.out, m, std::regex("\n  pascal (point [^\n]+)\n"))) << r.out;
    EXPECT_EQ(m[1], "point --N 4 --C 1 --phases 0,1 --assoc 1 --horizon 24");
    EXPECT_NE(r.out.find("failed: ttl)"), std::string::npos) << r.out;
    CliRun p = run(m[1]);
    EXPECT_EQ(p.status, 0) << p.err;
    EXPECT_NE(p.out.find("slotted TTL (Theorem 2): 2 misses per round"), std::string::npos)
        << p.out;

    CliRun t = run("validate --quiet --fault thm6");
    EXPECT_EQ(t.status, 1);
    EXPECT_NE(t.out.find("first progress failure: Theorem 6 at alpha"), std::string::npos)
        << t.out;
}

TEST_F(ValidateCli, BadInputWritesNothing)
{
    std::string keep = dir + "/keep.h5";
    std::ofstream(keep) << "precious";
    CliRun r = run("validate --threads 0 -o " + keep);
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err.rfind("pascal validate: --threads: expected an integer >= 1, got \"0\"", 0),
              0u) << r.err;
    r = run("validate --seed -3 -o " + keep);
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err.rfind("pascal validate: --seed: expected an integer >= 0", 0), 0u) << r.err;
    r = run("validate --fault nope -o " + keep);
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err.rfind("pascal validate: --fault: expected one of rd, lru", 0), 0u) << r.err;
    r = run("validate --bogus");
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err.rfind("pascal validate: unknown option --bogus", 0), 0u) << r.err;
    r = run("validate extra");
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(slurp(keep), "precious");

    r = run("validate -o " + dir + "/no/such/dir/v.h5");
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err.rfind("pascal validate: --output: expected a writable path, got \"" + dir +
                          "/no/such/dir/v.h5\"", 0), 0u) << r.err;
    EXPECT_EQ(r.out, "");
    EXPECT_FALSE(exists(dir + "/no"));

    r = run("validate --help");
    EXPECT_EQ(r.status, 0);
    EXPECT_NE(r.out.find("usage: pascal validate"), std::string::npos);
}
