// `pascal report`: a sweep run by `pascal run` becomes one HTML page whose
// data block counts the sweep's points; flags and bad input give status 2,
// one message line, and no output file.
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <string>

#include "report/report.h"
#include "test_util.h"

namespace {

using pascal_test::slurp;
using Result = pascal_test::CliResult;

class ReportCli : public pascal_test::TempDirTest {};

// 3 seeds x 5 capacities of a uniform pattern: 15 points.
const char *kSpec = "name: report-cli\nmodels: [ttl, lru_band, lru, residency, che]\n"
                    "fixed: {N: 64, M: 4, pattern: uniform}\n"
                    "axes:\n  seed: [1, 2, 3]\n  C: {from: 8, to: 40, step: 8}\n";

TEST_F(ReportCli, RunThenReport)
{
    if (!pascal_report_has_plot_library())
        GTEST_SKIP() << "built without the plotting library (no npm at build time)";
    std::ofstream(dir + "/s.yaml") << kSpec;
    ASSERT_EQ(run("run " + dir + "/s.yaml -o " + dir + "/s.h5 --quiet").status, 0);
    Result r = run("report " + dir + "/s.h5 -o " + dir + "/s.html --target 0.3");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out.rfind("pascal report: " + dir + "/s.html (", 0), 0u) << r.out;
    EXPECT_NE(r.out.find("from 15 points"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("averaged over random draws"), std::string::npos) << r.out;
    std::string html = slurp(dir + "/s.html");
    EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
    EXPECT_NE(html.find("\"points\":15,"), std::string::npos);
    EXPECT_NE(html.find("\"target\":0.29999999999999999"), std::string::npos);
    EXPECT_NE(html.find("\"report_command\":\"pascal report "), std::string::npos);
    std::smatch m;
    std::regex title("<title>([^<]*)</title>");
    ASSERT_TRUE(std::regex_search(html, m, title));
    EXPECT_EQ(m[1].str(), "report-cli - pascal report");
    // --help: usage on stdout, status 0
    r = run("report --help");
    EXPECT_EQ(r.status, 0);
    EXPECT_NE(r.out.find("usage: pascal report RESULT.h5 -o REPORT.html"), std::string::npos);
}

TEST_F(ReportCli, BadInputStatus2NoOutput)
{
    std::string out = dir + "/r.html";
    std::ofstream(dir + "/x.h5") << "plain text";
    Result r = run("report " + dir + "/x.h5");
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, "pascal report: -o/--output: expected an output path, got nothing\n");
    r = run("report -o " + out);
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, "pascal report: expected a sweep file (RESULT.h5), got nothing\n");
    r = run("report " + dir + "/x.h5 -o " + out + " --target -1");
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, "pascal report: --target: expected a number >= 0, got \"-1\"\n");
    r = run("report " + dir + "/x.h5 -o " + out + " --colour red");
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err.rfind("pascal report: unknown option --colour", 0), 0u) << r.err;
    std::ofstream(out) << "previous report";
    r = run("report " + dir + "/x.h5 -o " + out);
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, dir + "/x.h5:1: expected an HDF5 sweep file or the CSV of pascal run "
                           "--format csv, got a column \"plain text\" that is neither a sweep "
                           "parameter nor a result column\n");
    r = run("report " + dir + "/nothing.h5 -o " + out);
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err.rfind(dir + "/nothing.h5: cannot open: ", 0), 0u) << r.err;
    EXPECT_EQ(slurp(out), "previous report");
    EXPECT_TRUE(r.out.empty());
}

} // namespace
