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

// A decode attention whose cost figures the spec sets (no device profile):
// 3 random draws x 2 context lengths x 6 capacities.  The figures have high
// entropy, so a cell made with the wrong one fails; the draws are listed
// so that neither the first nor the last is the worst everywhere, so a
// cell of one draw (or of their mean) rather than the worst fails too.
const double kDramPj = 27.3, kL2Pj = 3.71, kMm2PerMiB = 0.417; // pJ/byte, pJ/byte, mm^2/MiB
const double kFlops = 6.13e14, kL2Rate = 5.29e12, kDramRate = 3.87e12; // per second

std::string BuysSpec()
{
    std::ostringstream s;
    s.precision(17);
    s << "name: report-buys\nmodels: [workload, traffic, lru_replay]\nworkload:\n"
         "  attention: {batch: 2, q_heads: 8, kv_heads: 2, seq_q: 1, seq_kv: 2048, head_dim: 128, "
         "dtype: bf16, tile_q: 64, tile_kv: 64}\n"
         "fixed: {occupancy: 1, path: tma, depth: 3, compute: 0, pattern: gaussian, sigma: 2, M: 96, "
      << "dram_pj_per_byte: " << kDramPj << ", l2_pj_per_byte: " << kL2Pj << ", l2_mm2_per_mib: " << kMm2PerMiB
      << ", flops_per_s: " << kFlops << ", l2_bytes_per_s: " << kL2Rate << ", dram_bytes_per_s: " << kDramRate
      << "}\naxes:\n  seed: [1, 3, 2]\n  seq_kv: [2048, 4096]\n"
         "  capacity_bytes: {from: 64KiB, to: 2MiB, num: 6, scale: log}\n";
    return s.str();
}

// What a scenario's answer buys: the capacity, and there the area, the
// energy and the time floor, each the worst over the draws.
struct Buys {
    double cap = NAN, area = NAN, energy = NAN, time = NAN;
};

// By hand from the CSV's fills, requests, flops and C (docs/workloads.md
// sections 10 and 10.1), per seq_kv: the smallest capacity_bytes from which
// every larger one has its worst answer_traffic at or below target.
std::map<double, Buys> HandBuys(const Csv &csv, double target)
{
    int seq = csv.col("seq_kv"), cap = csv.col("capacity_bytes"), C = csv.col("C"), bb = csv.col("block_bytes");
    int fill = csv.col("answer_fill_bytes"), req = csv.col("requests"), fl = csv.col("flops");
    int ans = csv.col("answer_traffic");
    std::map<double, std::map<double, std::pair<double, Buys>>> worst; // seq -> cap -> (answer, costs)
    for (size_t r = 0; r < csv.rows.size(); r++) {
        double l2 = csv.num(r, req) * csv.num(r, bb), dram = csv.num(r, fill);
        auto &[a, b] = worst[csv.num(r, seq)].emplace(csv.num(r, cap), std::pair<double, Buys>{-INFINITY, {}})
                           .first->second;
        a = std::max(a, csv.num(r, ans));
        b.area = csv.num(r, C) * csv.num(r, bb) / 1048576.0 * kMm2PerMiB;
        b.energy = std::fmax(b.energy, (dram * kDramPj + l2 * kL2Pj) * 1e-12);
        b.time = std::fmax(b.time, std::max({csv.num(r, fl) / kFlops, l2 / kL2Rate, dram / kDramRate}));
    }
    std::map<double, Buys> out;
    for (auto &[s, byCap] : worst) {
        Buys found;
        for (auto &[c, ab] : byCap) // ascending capacity
            if (!(ab.first <= target))
                found = Buys{};
            else if (std::isnan(found.cap))
                found = ab.second, found.cap = c;
        out[s] = found;
    }
    return out;
}

// The answer_traffic table's rows in order (scenario, capacity; NaN for
// null), its "costs" names and its "costs_at" cells.
struct PageBuys {
    std::vector<std::pair<double, double>> rows;
    std::vector<std::string> costs;
    std::vector<std::vector<double>> at;
};

PageBuys TableBuys(const std::string &sizing, const std::string &metric)
{
    PageBuys b;
    auto num = [](const std::string &v) { return v == "null" ? NAN : std::stod(v); };
    size_t a = sizing.find("\"" + metric + "\":{\"metric\":\"" + metric + "\"");
    size_t r = sizing.find("\"rows\":[", a), e = sizing.find("],\"more\":", r);
    size_t c = sizing.find("\"costs\":[", e), ca = sizing.find("\"costs_at\":[", c);
    size_t ce = sizing.find("],\"costs_note\":", ca);
    if (a == std::string::npos || e == std::string::npos || ce == std::string::npos)
        return b;
    std::string rows = sizing.substr(r, e - r), names = sizing.substr(c, ca - c), at = sizing.substr(ca, ce - ca);
    std::regex row("\\[\\[([-0-9.eE+]+)\\],([-0-9.eE+]+|null),"), quoted("\"([a-z_0-9]+)\""), cells("\\[([^\\[\\]]*)\\]");
    for (std::sregex_iterator it(rows.begin(), rows.end(), row), end; it != end; ++it)
        b.rows.emplace_back(std::stod((*it)[1]), num((*it)[2]));
    for (std::sregex_iterator it(names.begin() + 9, names.end(), quoted), end; it != end; ++it)
        b.costs.push_back((*it)[1]);
    for (std::sregex_iterator it(at.begin() + 11, at.end(), cells), end; it != end; ++it) {
        std::string v = (*it)[1], cell;
        std::stringstream ss(v);
        b.at.emplace_back();
        while (std::getline(ss, cell, ','))
            b.at.back().push_back(num(cell));
    }
    return b;
}

TEST_F(ReportCli, WhatEachAnswerBuys)
{
    if (!pascal_report_has_plot_library())
        GTEST_SKIP() << "built without the plotting library (no npm at build time)";
    const double target = 1.32, rel = 1e-12; // 17 significant digits in the page
    std::string spec = write("b.yaml", BuysSpec());
    ASSERT_EQ(run("run " + spec + " -o " + dir + "/b.h5 --quiet").status, 0);
    ASSERT_EQ(run("run " + spec + " -o " + dir + "/b.csv --quiet").status, 0);
    Result r = run("report " + dir + "/b.h5 -o " + dir + "/b.html --target 1.32");
    ASSERT_EQ(r.status, 0) << r.err;
    Csv csv = ReadCsv(dir + "/b.csv");
    ASSERT_EQ(csv.rows.size(), 36u);
    std::map<double, Buys> want = HandBuys(csv, target);
    ASSERT_EQ(want.size(), 2u);
    // The two scenarios need different capacities, and the worst draw's
    // energy there is not every draw's: the cells must follow both.
    ASSERT_NE(want[2048].cap, want[4096].cap);
    int spread = 0;
    for (size_t i = 0; i < csv.rows.size(); i++)
        spread += csv.num(i, csv.col("capacity_bytes")) == want[4096].cap &&
                  csv.num(i, csv.col("seq_kv")) == 4096 && csv.num(i, csv.col("energy_j")) < want[4096].energy * (1 - 1e-6);
    ASSERT_GT(spread, 0);

    std::string html = slurp(dir + "/b.html");
    PageBuys got = TableBuys(SizingJson(html), "answer_traffic");
    EXPECT_EQ(got.costs, (std::vector<std::string>{"area_l2_mm2", "energy_j", "time_bound_s"}));
    ASSERT_EQ(got.rows.size(), 2u);
    ASSERT_EQ(got.at.size(), 2u);
    for (size_t k = 0; k < got.rows.size(); k++) {
        const Buys &w = want[got.rows[k].first];
        ASSERT_EQ(got.at[k].size(), 3u);
        EXPECT_EQ(got.rows[k].second, w.cap) << "seq_kv " << got.rows[k].first;
        EXPECT_NEAR(got.at[k][0], w.area, rel * w.area) << "area, seq_kv " << got.rows[k].first;
        EXPECT_NEAR(got.at[k][1], w.energy, rel * w.energy) << "energy, seq_kv " << got.rows[k].first;
        EXPECT_NEAR(got.at[k][2], w.time, rel * w.time) << "time, seq_kv " << got.rows[k].first;
    }
    // The cost-vs-area plot: the capacity axis, the area, the costs with
    // data (no simulator: no time_sim_s), lines by the context length.
    EXPECT_NE(html.find("\"pareto\":{\"x\":\"capacity_bytes\",\"area\":\"area_l2_mm2\",\"series\":\"seq_kv\","
                        "\"costs\":[\"energy_j\",\"time_bound_s\"]}"), std::string::npos);

    // A target no swept capacity meets: no answer, nothing bought.
    ASSERT_EQ(run("report " + dir + "/b.h5 -o " + dir + "/none.html --target 1.0").status, 0);
    got = TableBuys(SizingJson(slurp(dir + "/none.html")), "answer_traffic");
    ASSERT_EQ(got.at.size(), 2u);
    for (size_t k = 0; k < got.at.size(); k++) {
        EXPECT_TRUE(std::isnan(got.rows[k].second));
        for (double v : got.at[k])
            EXPECT_TRUE(std::isnan(v)) << "seq_kv " << got.rows[k].first;
    }
}

// Without area and costs (no workload), no cost-vs-area plot, and the
// page says why.
TEST_F(ReportCli, NoCostsNoParetoPlot)
{
    if (!pascal_report_has_plot_library())
        GTEST_SKIP() << "built without the plotting library (no npm at build time)";
    std::string spec = write("s.yaml", kSizingSpec);
    ASSERT_EQ(run("run " + spec + " -o " + dir + "/s.h5 --quiet").status, 0);
    Result r = run("report " + dir + "/s.h5 -o " + dir + "/s.html");
    ASSERT_EQ(r.status, 0) << r.err;
    std::string html = slurp(dir + "/s.html");
    EXPECT_NE(html.find("\"pareto\":null}"), std::string::npos);
    EXPECT_NE(html.find("\"pareto\":\"no area_l2_mm2 beside an energy_j"), std::string::npos);
    EXPECT_TRUE(TableBuys(SizingJson(html), "rho_lru").costs.empty());
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
