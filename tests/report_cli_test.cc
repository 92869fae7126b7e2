// `pascal report`: a sweep run by `pascal run` becomes one HTML page whose
// data block counts the sweep's points and sizes every metric of its menu;
// flags and bad input give status 2, one message line, and no output file.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

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

// M x seed x C of a uniform pattern: two scenarios (M), each sized over two
// random draws, with four miss rates that disagree about the capacity.
const char *kSizingSpec = "name: report-sizing\nmodels: [ttl, lru, residency, che]\n"
                          "fixed: {N: 64, pattern: uniform}\n"
                          "axes:\n  M: [3, 5]\n  seed: [1, 2]\n  C: {from: 8, to: 64, step: 8}\n";

struct Csv {
    std::vector<std::string> header;
    std::vector<std::vector<std::string>> rows;
    int col(const std::string &name) const
    {
        for (size_t i = 0; i < header.size(); i++)
            if (header[i] == name)
                return (int)i;
        return -1;
    }
    double num(size_t r, int c) const
    {
        const std::string &v = rows[r][(size_t)c];
        return v.empty() ? NAN : std::stod(v);
    }
};

Csv ReadCsv(const std::string &path)
{
    Csv csv;
    std::ifstream in(path);
    std::string line;
    for (bool first = true; std::getline(in, line); first = false) {
        std::vector<std::string> cells;
        std::stringstream ss(line);
        std::string cell;
        while (std::getline(ss, cell, ','))
            cells.push_back(cell);
        if (!line.empty() && line.back() == ',')
            cells.push_back("");
        (first ? csv.header : (csv.rows.emplace_back(), csv.rows.back())) = cells;
    }
    return csv;
}

// The metrics the page's menu offers, from the file: miss rates and traffic
// ratios that are not band edges and have a value in some row.
std::set<std::string> OfferedMetrics(const Csv &csv)
{
    std::set<std::string> out;
    for (size_t c = 0; c < csv.header.size(); c++) {
        const std::string &n = csv.header[c];
        bool metric = n.rfind("rho_", 0) == 0 || n.rfind("traffic_", 0) == 0 || n == "answer_traffic";
        bool edge = n.size() > 3 && (n.substr(n.size() - 3) == "_lo" || n.substr(n.size() - 3) == "_hi");
        for (size_t r = 0; metric && !edge && r < csv.rows.size(); r++)
            if (!std::isnan(csv.num(r, (int)c))) {
                out.insert(n);
                break;
            }
    }
    return out;
}

// Per value of `by`, the smallest C at which the worst draw of `metric` is
// at or below target (a NaN draw never is); NaN when no C is.
std::map<double, double> HandSizing(const Csv &csv, const std::string &by, const std::string &metric,
                                    double target)
{
    int b = csv.col(by), cc = csv.col("C"), m = csv.col(metric);
    std::map<double, std::map<double, double>> worst; // by -> C -> worst draw
    for (size_t r = 0; r < csv.rows.size(); r++) {
        double v = csv.num(r, m), &w = worst[csv.num(r, b)].emplace(csv.num(r, cc), -INFINITY).first->second;
        w = std::isnan(v) ? INFINITY : std::max(w, v);
    }
    std::map<double, double> need;
    for (auto &[key, byC] : worst) {
        need[key] = NAN;
        for (auto &[C, w] : byC)   // ascending C
            if (w <= target) {
                need[key] = C;
                break;
            }
    }
    return need;
}

// The sizing data block of the page, and the rows of one metric's table as
// scenario value -> smallest capacity (NaN for null).
std::string SizingJson(const std::string &html)
{
    size_t a = html.find("\"sizing\":{\"default\":"), b = html.find("\n\"cube\":", a);
    return a == std::string::npos || b == std::string::npos ? "" : html.substr(a, b - a);
}

std::map<double, double> TableRows(const std::string &sizing, const std::string &metric)
{
    std::map<double, double> rows;
    std::string head = "\"" + metric + "\":{\"metric\":\"" + metric + "\"";
    size_t a = sizing.find(head), r = sizing.find("\"rows\":[", a), e = sizing.find("],\"more\":", r);
    if (a == std::string::npos || r == std::string::npos || e == std::string::npos)
        return rows;
    std::string text = sizing.substr(r, e - r);
    std::regex row("\\[\\[([-0-9.e+]+)\\],([-0-9.e+]+|null),");
    for (std::sregex_iterator it(text.begin(), text.end(), row), end; it != end; ++it)
        rows[std::stod((*it)[1])] = (*it)[2] == "null" ? NAN : std::stod((*it)[2]);
    return rows;
}

TEST_F(ReportCli, SizingForEveryOfferedMetric)
{
    if (!pascal_report_has_plot_library())
        GTEST_SKIP() << "built without the plotting library (no npm at build time)";
    const double target = 0.3;
    std::string spec = write("s.yaml", kSizingSpec);
    ASSERT_EQ(run("run " + spec + " -o " + dir + "/s.h5 --quiet").status, 0);
    ASSERT_EQ(run("run " + spec + " -o " + dir + "/s.csv --quiet").status, 0);
    Result r = run("report " + dir + "/s.h5 -o " + dir + "/s.html --target 0.3");
    ASSERT_EQ(r.status, 0) << r.err;
    Csv csv = ReadCsv(dir + "/s.csv");
    ASSERT_EQ(csv.rows.size(), 32u);
    std::string sizing = SizingJson(slurp(dir + "/s.html"));
    ASSERT_FALSE(sizing.empty());
    EXPECT_EQ(sizing.rfind("\"sizing\":{\"default\":\"rho_lru\",", 0), 0u) << sizing.substr(0, 80);

    std::set<std::string> offered = OfferedMetrics(csv), listed, tables;
    std::smatch m;
    ASSERT_TRUE(std::regex_search(sizing, m, std::regex("\"metrics\":\\[([^\\]]*)\\]")));
    std::string names = m[1];
    std::regex quoted("\"([^\"]+)\"");
    for (std::sregex_iterator it(names.begin(), names.end(), quoted), end; it != end; ++it)
        listed.insert((*it)[1]);
    std::regex table("\"([a-z_]+)\":\\{\"metric\":\"([a-z_]+)\"");
    for (std::sregex_iterator it(sizing.begin(), sizing.end(), table), end; it != end; ++it) {
        EXPECT_EQ((*it)[1], (*it)[2]);
        tables.insert((*it)[1]);
    }
    EXPECT_EQ(offered, (std::set<std::string>{"rho_bound", "rho_che", "rho_lru", "rho_ttl"}));
    EXPECT_EQ(listed, offered);
    EXPECT_EQ(tables, offered);

    // rho_ttl and rho_lru need different capacities at M = 5: a table of
    // the wrong metric fails here.
    for (const char *metric : {"rho_ttl", "rho_lru", "rho_bound"}) {
        std::map<double, double> want = HandSizing(csv, "M", metric, target), got = TableRows(sizing, metric);
        ASSERT_EQ(got.size(), 2u) << metric;
        for (auto &[M, C] : want) {
            ASSERT_TRUE(got.count(M)) << metric << " M=" << M;
            if (std::isnan(C))
                EXPECT_TRUE(std::isnan(got[M])) << metric << " M=" << M;
            else
                EXPECT_EQ(got[M], C) << metric << " M=" << M;
        }
    }
    EXPECT_NE(HandSizing(csv, "M", "rho_ttl", target)[5], HandSizing(csv, "M", "rho_lru", target)[5]);
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
