// `pascal lab`: the scripted form (text and JSON), the interactive
// instrument driven through stdin, and its error messages and exit codes.
#include <gtest/gtest.h>

#include <regex>
#include <stdexcept>
#include <string>

#include "test_util.h"

namespace {

using Result = pascal_test::CliResult;

class LabCli : public pascal_test::TempDirTest {
protected:
    // Runs pascal lab ARGS with `input` on stdin.
    Result Lab(const std::string &args, const std::string &input = "")
    {
        return run("lab " + args, input);
    }
};

long Field(const std::string &text, const std::string &key, int nth = 0)
{
    std::regex re(key + " (-?[0-9]+)");
    auto it = std::sregex_iterator(text.begin(), text.end(), re);
    for (int i = 0; i < nth && it != std::sregex_iterator(); i++)
        ++it;
    if (it == std::sregex_iterator())
        throw std::runtime_error("no " + key + " in: " + text);
    return std::stol((*it)[1]);
}

const char *kNotGpu = "Not a GPU cache: no sectors, no associativity conflicts, no cache "
                      "operators, no hardware replacement policy.";

TEST_F(LabCli, ScriptedFacts)
{
    Result r = Lab("--capacity 4 --stride 4 --steps 1");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find(kNotGpu), std::string::npos) << r.out;
    EXPECT_EQ(Field(r.out, "requests"), 17);
    EXPECT_EQ(Field(r.out, "hits"), 13);
    EXPECT_EQ(Field(r.out, "misses"), 4);
    EXPECT_NE(r.out.find("most recent first: [0 3 2 1]"), std::string::npos) << r.out;

    r = Lab("--capacity 2 --stride 4 --steps 1");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(Field(r.out, "requests"), 17);
    EXPECT_EQ(Field(r.out, "hits"), 0);
}

TEST_F(LabCli, ScriptedJson)
{
    Result r = Lab("--capacity 3 --stride 3 --steps 5 --json");
    ASSERT_EQ(r.status, 0) << r.err;
    // 21 requests on a 3-cycle that fits: 3 cold misses, 18 hits
    EXPECT_NE(r.out.find("\"requests\": 21, \"hits\": 18, \"misses\": 3"), std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("\"cache\": [2, 1, 0]"), std::string::npos) << r.out; // request 20 -> 2
    EXPECT_NE(r.out.find("\"last\": \"hit\""), std::string::npos) << r.out;
    EXPECT_NE(r.out.find(kNotGpu), std::string::npos);
}

TEST_F(LabCli, InteractiveSession)
{
    Result r = Lab("", "show\ncapacity 4\nstride 4\nreset\nstep\n  # a comment\n\ncapacity 2\n"
                       "step 3\nhelp\nquit\nstep\n");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find(kNotGpu), std::string::npos);
    // the states printed after each command, in order
    std::regex re("requests ([0-9]+) +hits ([0-9]+) +misses ([0-9]+)");
    std::vector<std::string> got;
    for (auto it = std::sregex_iterator(r.out.begin(), r.out.end(), re); it != std::sregex_iterator(); ++it)
        got.push_back((*it)[1].str() + "/" + (*it)[2].str() + "/" + (*it)[3].str());
    // start (4 lines, stride 5: nothing hits), show, capacity 4, stride 4
    // (replays 16: 12 hits), reset, step (13 of 17), capacity 2 (0 of 17),
    // step 3; quit stops before the last step
    std::vector<std::string> want = {"16/0/16", "16/0/16", "16/0/16", "16/12/4", "16/12/4",
                                     "17/13/4", "17/0/17", "20/0/20"};
    EXPECT_EQ(got, want) << r.out;
    EXPECT_NE(r.out.find("step [K]"), std::string::npos); // help
}

TEST_F(LabCli, PipedErrorStopsWithStatus2)
{
    Result r = Lab("", "step\ncapacity 99\nstep\n");
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, "<stdin>:2:10: capacity: expected an integer 1..64, got \"99\"\n");
    EXPECT_EQ(Field(r.out, "requests", 1), 17); // the first step ran, the last did not
    EXPECT_THROW(Field(r.out, "requests", 2), std::runtime_error);

    r = Lab("", "stride\n");
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, "<stdin>:1:7: stride: expected an integer 1..4096, got nothing\n");
    r = Lab("", "  flush\n");
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err.rfind("<stdin>:1:3: command: expected reset, capacity N, stride N, step [K], "
                          "show, help or quit, got \"flush\"", 0), 0u) << r.err;
    r = Lab("", "step 2 3\n");
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, "<stdin>:1:8: step: expected one argument, got \"3\"\n");
    r = Lab("", "reset now\n");
    EXPECT_EQ(r.err, "<stdin>:1:7: reset: expected no argument, got \"now\"\n");
}

TEST_F(LabCli, BadFlags)
{
    Result r = Lab("--capacity 0");
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, "pascal lab: --capacity: expected an integer 1..64, got \"0\"\n");
    r = Lab("--stride 4097 --steps 1");
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, "pascal lab: --stride: expected an integer 1..4096, got \"4097\"\n");
    r = Lab("--steps -1");
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err.rfind("pascal lab: --steps: expected an integer 0..", 0), 0u) << r.err;
    r = Lab("--steps 2.5");
    EXPECT_EQ(r.status, 2);
    r = Lab("--ways 2");
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err.rfind("pascal lab: unknown option --ways", 0), 0u) << r.err;
    EXPECT_TRUE(r.out.empty());
}

} // namespace
