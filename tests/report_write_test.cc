// Tests for report/report.h (pascal_report_write): sweep files are written
// here through output/sink.h, the page's JSON data block is parsed back with
// a small JSON reader written here, and its numbers are compared with values
// recomputed in the test from the same inputs: the sizing table (worst case
// over random draws, every row), the plotted means, the derived K/M rates,
// the chosen plots, down-sampling, Theorem 5 capacities, escaping, bad input
// and determinism.
#include <gtest/gtest.h>

#include <hdf5.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <map>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/run.h"
#include "engine/size.h"
#include "output/sink.h"
#include "report/report.h"
#include "test_util.h"

namespace {

// ---- a small JSON reader -------------------------------------------------

struct J {
    enum Type { Null, Bool, Num, Str, Arr, Obj } t = Null;
    double n = 0;
    bool b = false;
    std::string s;
    std::vector<J> a;
    std::vector<std::pair<std::string, J>> o;
    bool has(const std::string &k) const
    {
        for (auto &p : o)
            if (p.first == k)
                return true;
        return false;
    }
    const J &operator[](const std::string &k) const
    {
        for (auto &p : o)
            if (p.first == k)
                return p.second;
        throw std::runtime_error("no key " + k);
    }
    const J &operator[](size_t i) const { return a.at(i); }
    bool null() const { return t == Null; }
};

struct JParser {
    const std::string &s;
    size_t i = 0;
    void ws()
    {
        while (i < s.size() && std::isspace((unsigned char)s[i]))
            i++;
    }
    void expect(char c)
    {
        ws();
        if (i >= s.size() || s[i] != c)
            throw std::runtime_error(std::string("expected ") + c + " at " + std::to_string(i));
        i++;
    }
    static void utf8(std::string &out, unsigned u)
    {
        if (u < 0x80)
            out += (char)u;
        else if (u < 0x800)
            out += (char)(0xC0 | (u >> 6)), out += (char)(0x80 | (u & 63));
        else
            out += (char)(0xE0 | (u >> 12)), out += (char)(0x80 | ((u >> 6) & 63)),
                out += (char)(0x80 | (u & 63));
    }
    std::string str()
    {
        std::string out;
        expect('"');
        while (s.at(i) != '"') {
            char c = s[i++];
            if (c != '\\') {
                out += c;
                continue;
            }
            c = s.at(i++);
            if (c == 'n')
                out += '\n';
            else if (c == 't')
                out += '\t';
            else if (c == 'u') {
                utf8(out, (unsigned)std::stoul(s.substr(i, 4), nullptr, 16));
                i += 4;
            } else
                out += c;
        }
        i++;
        return out;
    }
    J value()
    {
        J v;
        ws();
        char c = s.at(i);
        if (c == '{') {
            v.t = J::Obj;
            i++;
            ws();
            if (s.at(i) == '}')
                return i++, v;
            for (;;) {
                std::string k = str();
                expect(':');
                v.o.push_back({k, value()});
                ws();
                if (s.at(i++) == '}')
                    return v;
            }
        }
        if (c == '[') {
            v.t = J::Arr;
            i++;
            ws();
            if (s.at(i) == ']')
                return i++, v;
            for (;;) {
                v.a.push_back(value());
                ws();
                if (s.at(i++) == ']')
                    return v;
            }
        }
        if (c == '"') {
            v.t = J::Str;
            v.s = str();
        } else if (s.compare(i, 4, "null") == 0) {
            i += 4;
        } else if (s.compare(i, 4, "true") == 0 || s.compare(i, 5, "false") == 0) {
            v.t = J::Bool;
            v.b = s[i] == 't';
            i += v.b ? 4 : 5;
        } else {
            size_t used;
            v.t = J::Num;
            v.n = std::stod(s.substr(i, 40), &used);
            i += used;
        }
        return v;
    }
};

using pascal_test::exists;
using pascal_test::slurp;

const char *kOpen = "<script type=\"application/json\" id=\"pascal-data\">";

J PageData(const std::string &html)
{
    size_t a = html.find(kOpen), b;
    if (a == std::string::npos)
        throw std::runtime_error("no data block");
    a += strlen(kOpen);
    b = html.find("</script>", a);
    std::string text = html.substr(a, b - a);
    JParser p{text};
    return p.value();
}

// The sizing table of the report's default metric.
const J &Table(const J &d)
{
    return d["sizing"]["by_metric"][d["sizing"]["default"].s];
}

// ---- sweep files written through output/sink.h ----------------------------

struct Axis {
    std::string name, units;
    pascal_coltype type;
    std::vector<double> values;
    std::vector<const char *> labels;
};

using Idx = std::vector<int>; // one value index per axis
using Fn = std::function<double(const Idx &)>;

struct Col {
    std::string name, units, description;
    Fn fn;
};

struct Grid {
    std::vector<Axis> axes;
    std::vector<Col> points, results; // extra point columns (F64), results
    std::function<bool(const Idx &)> keep = [](const Idx &) { return true; };
    std::string spec = "name: test\n";
    int complete = 1;

    std::vector<Idx> Rows() const
    {
        std::vector<Idx> rows;
        Idx idx(axes.size(), 0);
        for (;;) {
            if (keep(idx))
                rows.push_back(idx);
            int d = (int)axes.size() - 1;
            while (d >= 0 && ++idx[d] == (int)axes[d].values.size())
                idx[d--] = 0;
            if (d < 0)
                return rows;
        }
    }
    double Value(int a, const Idx &idx) const { return axes[a].values[idx[a]]; }

    void Write(const std::string &path) const;
};

void Grid::Write(const std::string &path) const
{
    std::vector<pascal_axis_desc> ad;
    std::vector<pascal_column_desc> pc, rc;
    for (auto &a : axes) {
        ad.push_back({a.name.c_str(), a.type, a.units.c_str(), a.labels.data(),
                      (int)a.labels.size(), (int64_t)a.values.size(), a.values.data()});
        pc.push_back({a.name.c_str(), a.units.c_str(), "axis", a.type, a.labels.data(),
                      (int)a.labels.size()});
    }
    for (auto &c : points)
        pc.push_back({c.name.c_str(), c.units.c_str(), c.description.c_str(), PASCAL_COLTYPE_F64,
                      nullptr, 0});
    for (auto &c : results)
        rc.push_back({c.name.c_str(), c.units.c_str(), c.description.c_str(), PASCAL_COLTYPE_F64,
                      nullptr, 0});
    pascal_attr attrs[] = {{"spec_name", "report-test"}};
    pascal_sink_meta meta{};
    meta.format = PASCAL_SINK_HDF5;
    meta.path = path.c_str();
    meta.chunk_rows = 64;
    meta.spec_text = spec.c_str();
    meta.spec_path = "test.yaml";
    meta.command_line = "test";
    meta.threads = 1;
    meta.attrs = attrs;
    meta.nattrs = 1;
    meta.axes = ad.data();
    meta.naxes = (int)ad.size();
    pascal_sink *sink = nullptr;
    pascal_error err{};
    ASSERT_EQ(pascal_sink_open(&meta, pc.data(), (int)pc.size(), rc.data(), (int)rc.size(), &sink,
                               &err), 0) << err.msg;
    std::vector<Idx> rows = Rows();
    std::vector<std::vector<int64_t>> ints(axes.size());
    std::vector<std::vector<double>> dbl(axes.size() + points.size()), res(results.size());
    for (auto &r : rows) {
        for (size_t a = 0; a < axes.size(); a++) {
            ints[a].push_back((int64_t)Value((int)a, r));
            dbl[a].push_back(Value((int)a, r));
        }
        for (size_t c = 0; c < points.size(); c++)
            dbl[axes.size() + c].push_back(points[c].fn(r));
        for (size_t c = 0; c < results.size(); c++)
            res[c].push_back(results[c].fn(r));
    }
    std::vector<const void *> pp;
    std::vector<const double *> rp;
    for (size_t a = 0; a < axes.size(); a++)
        pp.push_back(axes[a].type == PASCAL_COLTYPE_F64 ? (const void *)dbl[a].data()
                                                        : (const void *)ints[a].data());
    for (size_t c = 0; c < points.size(); c++)
        pp.push_back(dbl[axes.size() + c].data());
    for (auto &r : res)
        rp.push_back(r.data());
    ASSERT_EQ(pascal_sink_append(sink, (int64_t)rows.size(), pp.data(), rp.data(), &err), 0)
        << err.msg;
    ASSERT_EQ(pascal_sink_finish(sink, &err), 0) << err.msg;
}

// ---- fixture ----------------------------------------------------------------

// The exact sizing searches with the engine's evaluator, as the CLI wires it.
const pascal_report_sizer kEngineSizer = {pascal_size_searcher_open, pascal_size_searcher_at,
                                          pascal_size_searcher_free};

class ReportWrite : public pascal_test::TempDirTest {
protected:
    void SetUp() override
    {
        ASSERT_NO_FATAL_FAILURE(TempDirTest::SetUp());
        if (!pascal_report_has_plot_library())
            GTEST_SKIP() << "built without the plotting library (no npm at build time)";
    }

    int Report(const std::string &in, const std::string &out, pascal_error *err,
               double target = 0.05, int64_t max_values = 0, int64_t block = 0)
    {
        pascal_report_opts o{};
        pascal_report_stats st{};
        o.in_path = in.c_str();
        o.out_path = out.c_str();
        o.target = target;
        o.max_values = max_values;
        o.block_rows = block;
        o.command_line = "pascal report test";
        o.sizer = sizer;
        return pascal_report_write(&o, &st, err);
    }
    const pascal_report_sizer *sizer = &kEngineSizer;
    J ReportData(const Grid &g, double target = 0.05, int64_t max_values = 0)
    {
        std::string in = dir + "/in.h5", out = dir + "/out.html";
        pascal_error err{};
        g.Write(in);
        EXPECT_EQ(Report(in, out, &err, target, max_values), 0) << err.msg;
        return PageData(slurp(out));
    }
};

const char *const kPatterns[] = {"aligned", "uniform"};
const double kMiB = 1048576.0;

// occupancy x pattern x seed x capacity_bytes, rho_lru pseudo-random with
// some NaN; capacities listed out of order.
Grid SizingGrid(std::map<Idx, double> &rho)
{
    Grid g;
    std::mt19937 rng(2385);
    g.axes = {{"occupancy", "CTAs/SM", PASCAL_COLTYPE_I64, {1, 2}, {}},
              {"pattern", "", PASCAL_COLTYPE_ENUM, {0, 1}, {kPatterns[0], kPatterns[1]}},
              {"seed", "", PASCAL_COLTYPE_I64, {1, 2, 3}, {}},
              {"capacity_bytes", "bytes", PASCAL_COLTYPE_F64,
               {8 * kMiB, 1 * kMiB, 4 * kMiB, 2 * kMiB, 16 * kMiB}, {}}};
    for (const Idx &r : g.Rows()) {
        double cap = g.Value(3, r) / kMiB;
        double v = std::uniform_real_distribution<double>(0, 0.3)(rng) / std::sqrt(cap);
        rho[r] = rng() % 17 == 0 ? NAN : v;
    }
    g.points = {{"M", "workers", "", [&g](const Idx &r) { return 48 * g.Value(0, r); }},
                {"C", "blocks", "", [&g](const Idx &r) { return g.Value(3, r) / 16384; }}};
    g.results = {{"rho_lru", "misses/request", "exact LRU", [&rho](const Idx &r) { return rho.at(r); }},
                 {"K_lru_lo", "misses/round", "band lo",
                  [&rho, &g](const Idx &r) { return 0.9 * rho.at(r) * 48 * g.Value(0, r); }},
                 {"K_lru_hi", "misses/round", "band hi",
                  [&rho, &g](const Idx &r) { return 1.1 * rho.at(r) * 48 * g.Value(0, r); }},
                 {"rho_che", "misses/request", "Che", [](const Idx &) { return 0.5; }}};
    return g;
}

TEST_F(ReportWrite, SizingIsTheWorstDrawOverEveryRow)
{
    std::map<Idx, double> rho;
    Grid g = SizingGrid(rho);
    const double target = 0.1;
    J d = ReportData(g, target);
    const J &s = Table(d);
    ASSERT_FALSE(s.null());
    EXPECT_EQ(s["metric"].s, "rho_lru");
    EXPECT_EQ(s["cap_axis"].s, "capacity_bytes");
    ASSERT_EQ(s["axes"].a.size(), 2u);
    EXPECT_EQ(s["averaged"][0].s, "seed");
    ASSERT_EQ(s["rows"].a.size(), 4u);
    std::vector<int> caps = {1, 3, 2, 0, 4}; // listed indices in ascending capacity
    int k = 0;
    for (int o = 0; o < 2; o++)
        for (int p = 0; p < 2; p++, k++) {
            double want = NAN;
            for (int c : caps) {
                double worst = -1;
                for (int sd = 0; sd < 3; sd++) {
                    double v = rho.at({o, p, sd, c});
                    worst = std::isnan(v) ? INFINITY : std::max(worst, v);
                }
                if (worst <= target) {
                    want = g.axes[3].values[c];
                    break;
                }
            }
            const J &row = s["rows"][k];
            EXPECT_EQ(row[0][0].n, g.axes[0].values[o]);
            EXPECT_EQ(row[0][1].s, kPatterns[p]);
            if (std::isnan(want))
                EXPECT_TRUE(row[1].null()) << "scenario " << k;
            else {
                EXPECT_EQ(row[1].n, want) << "scenario " << k;
                EXPECT_EQ(row[2].n, want / 16384) << "blocks";
            }
        }
}

// Value of column `col` at the plotted cell with the given axis values.
double Cell(const J &d, const std::string &col, const std::map<std::string, double> &at)
{
    const J &cube = d["cube"];
    int64_t flat = 0;
    for (size_t k = 0; k < cube["dims"].a.size(); k++) {
        const std::string &name = cube["dims"][k].s;
        const J *axis = nullptr;
        for (auto &a : d["axes"].a)
            if (a["name"].s == name)
                axis = &a;
        int64_t pos = -1;
        for (size_t j = 0; j < axis->operator[]("values").a.size(); j++)
            if (axis->operator[]("values")[j].n == at.at(name))
                pos = (int64_t)j;
        if (pos < 0)
            throw std::runtime_error("value not plotted");
        flat = flat * (int64_t)cube["shape"][k].n + pos;
    }
    for (size_t i = 0; i < cube["cells"].a.size(); i++)
        if ((int64_t)cube["cells"][i].n == flat) {
            const J &v = cube["columns"][col][i];
            return v.null() ? NAN : v.n;
        }
    throw std::runtime_error("no such cell");
}

TEST_F(ReportWrite, PlotCellsAreMeansOverDrawsAndDerivedRates)
{
    std::map<Idx, double> rho;
    Grid g = SizingGrid(rho);
    J d = ReportData(g);
    EXPECT_EQ(d["points"].n, 60);
    // canonical axis order, although HDF5 lists names alphabetically
    std::vector<std::string> order;
    for (auto &a : d["axes"].a)
        order.push_back(a["name"].s);
    EXPECT_EQ(order, (std::vector<std::string>{"occupancy", "pattern", "seed", "capacity_bytes"}));
    EXPECT_EQ(d["axes"][2]["role"].s, "averaged");
    EXPECT_EQ(d["axes"][1]["labels"][1].s, "uniform");
    for (int o = 0; o < 2; o++)
        for (int p = 0; p < 2; p++)
            for (int c = 0; c < 5; c++) {
                double sum = 0, lo = 0;
                int n = 0;
                for (int sd = 0; sd < 3; sd++) {
                    double v = rho.at({o, p, sd, c});
                    if (std::isnan(v))
                        continue;
                    sum += v;
                    lo += 0.9 * v; // K_lru_lo / M
                    n++;
                }
                std::map<std::string, double> at = {{"occupancy", g.axes[0].values[o]},
                                                    {"pattern", (double)p},
                                                    {"capacity_bytes", g.axes[3].values[c]}};
                double got = Cell(d, "rho_lru", at), gotlo = Cell(d, "rho_lru_lo", at);
                if (n == 0) {
                    EXPECT_TRUE(std::isnan(got));
                    continue;
                }
                EXPECT_NEAR(got, sum / n, 1e-5 * sum / n + 1e-12);
                EXPECT_NEAR(gotlo, lo / n, 1e-5 * lo / n + 1e-12);
                EXPECT_EQ(Cell(d, "C", at), g.axes[3].values[c] / 16384);
            }
    const J &cap = d["plots"]["capacity"];
    EXPECT_EQ(cap["x"].s, "capacity_bytes");
    EXPECT_EQ(cap["metric"].s, "rho_lru");
    EXPECT_EQ(cap["band_lo"].s, "rho_lru_lo");
    EXPECT_EQ(cap["band_hi"].s, "rho_lru_hi");
    EXPECT_EQ(cap["che"].s, "rho_che");
    EXPECT_TRUE(cap["bound"].null());
    EXPECT_EQ(cap["series"].s, "pattern");
    EXPECT_EQ(cap["blocks"].s, "C");
    EXPECT_EQ(d["plots"]["heatmap"]["x"].s, "capacity_bytes");
    EXPECT_EQ(d["plots"]["heatmap"]["y"].s, "occupancy");
    EXPECT_TRUE(d["plots"]["dynamic"].null());
    EXPECT_NE(d["why_not"]["dynamic"].s.find("K_dyn"), std::string::npos);
    bool averaged_note = false;
    for (auto &n : d["notes"].a)
        averaged_note |= n.s.find("seed: 3 random draws") == 0;
    EXPECT_TRUE(averaged_note);
}

// A long capacity axis and a tight budget: the plots thin, the sizing does not.
TEST_F(ReportWrite, DownSamplingKeepsTheSizingExact)
{
    Grid g;
    std::vector<double> caps, ns = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
    for (int i = 1; i <= 300; i++)
        caps.push_back(i);
    g.axes = {{"N", "blocks", PASCAL_COLTYPE_I64, ns, {}},
              {"C", "blocks", PASCAL_COLTYPE_I64, caps, {}}};
    g.results = {{"rho_lru", "misses/request", "",
                  [&g](const Idx &r) { return 1.0 / (1.0 + g.Value(1, r) / (3.0 * g.Value(0, r))); }}};
    J full = ReportData(g, 0.2);
    J thin = ReportData(g, 0.2, 1000);
    EXPECT_EQ(full["cube"]["cells"].a.size(), 12u * 256u); // RP_AXIS_CAP values of C
    EXPECT_LE(thin["cube"]["cells"].a.size() * thin["columns"].a.size(), 1000u);
    const J &tc = thin["axes"][1]["values"];
    EXPECT_EQ(tc[0].n, 1);
    EXPECT_EQ(tc.a.back().n, 300);
    bool said = false;
    for (auto &n : thin["notes"].a)
        said |= n.s.find("values plotted (evenly spaced)") != std::string::npos;
    EXPECT_TRUE(said);
    // rho <= 0.2  <=>  C >= 12 N: the smallest swept C is 12 N
    ASSERT_EQ(Table(thin)["rows"].a.size(), 12u);
    for (int n = 1; n <= 12; n++) {
        EXPECT_EQ(Table(thin)["rows"][n - 1][1].n, 12 * n);
        EXPECT_EQ(Table(full)["rows"][n - 1][1].n, 12 * n);
    }
}

// The dynamic plot appears with K_dyn and a W axis; the band goes with the
// prediction of the same units.
TEST_F(ReportWrite, DynamicPlotFromKdynAndHorizon)
{
    for (std::string band_units : {"misses/request", "misses/round"}) {
        Grid g;
        g.axes = {{"occupancy", "CTAs/SM", PASCAL_COLTYPE_I64, {1, 2, 4}, {}},
                  {"depth", "buffers", PASCAL_COLTYPE_I64, {2, 3}, {}},
                  {"W", "scans", PASCAL_COLTYPE_F64, {1, 4, 16, 64}, {}}};
        g.points = {{"M", "workers", "", [&g](const Idx &r) { return 48 * g.Value(0, r); }}};
        auto rho = [&g](const Idx &r) { return 0.1 + 0.5 / std::sqrt(g.Value(2, r)) / g.Value(1, r); };
        g.results = {{"K_dyn", "misses/round", "", [&g, rho](const Idx &r) { return 48 * g.Value(0, r) * rho(r); }},
                     {"rho_dyn", "misses/request", "", rho},
                     {"band_lo", band_units, "", [rho](const Idx &r) { return 0.8 * rho(r); }},
                     {"band_hi", band_units, "", [rho](const Idx &r) { return 1.2 * rho(r); }},
                     // a static column beside it (aligned phases: one fill per round)
                     {"rho_ttl", "misses/request", "", [&g](const Idx &r) { return 1.0 / (48 * g.Value(0, r)); }}};
        J d = ReportData(g);
        const J &dyn = d["plots"]["dynamic"];
        ASSERT_FALSE(dyn.null());
        EXPECT_EQ(dyn["x"].s, "W");
        EXPECT_EQ(dyn["metric"].s, band_units == "misses/round" ? "K_dyn" : "rho_dyn");
        EXPECT_EQ(dyn["band_lo"].s, "band_lo");
        EXPECT_EQ(dyn["band_hi"].s, "band_hi");
        EXPECT_EQ(dyn["series"].s, "depth");
        EXPECT_EQ(d["plots"]["heatmap"]["x"].s, "depth"); // occupancy x depth
        EXPECT_EQ(d["plots"]["heatmap"]["y"].s, "occupancy");
        // No capacity axis: the map shows the dynamic miss rate, whatever the band's units.
        EXPECT_EQ(d["plots"]["heatmap"]["metric"].s, "rho_dyn");
        EXPECT_TRUE(d["plots"]["capacity"].null());
        EXPECT_TRUE(d["sizing"].null());
        double want = 0.1 + 0.5 / std::sqrt(16.0) / 3.0;
        EXPECT_NEAR(Cell(d, "rho_dyn", {{"occupancy", 2}, {"depth", 3}, {"W", 16}}), want, 1e-6);
    }
}

// A sweep with `simulate` beside `dynamic` plots the simulated K against the
// horizon with the prediction, in the prediction's units; a sweep with the
// simulator alone plots the simulated miss rate.
TEST_F(ReportWrite, SimulatedKBesideTheDynamicPrediction)
{
    for (std::string band_units : {"misses/request", "misses/round"}) {
        Grid g;
        g.axes = {{"depth", "buffers", PASCAL_COLTYPE_I64, {2, 4}, {}},
                  {"W", "scans", PASCAL_COLTYPE_F64, {1, 8, 32}, {}}};
        g.points = {{"M", "workers", "", [](const Idx &) { return 48.0; }}};
        auto rho = [&g](const Idx &r) { return 0.02 + 0.01 * std::log(g.Value(1, r)) / g.Value(0, r); };
        auto sim = [&g](const Idx &r) { return 0.021 + 0.012 * std::log(g.Value(1, r)) / g.Value(0, r); };
        g.results = {{"K_dyn", "misses/round", "", [rho](const Idx &r) { return 48 * rho(r); }},
                     {"rho_dyn", "misses/request", "", rho},
                     {"band_lo", band_units, "", [rho](const Idx &r) { return 0.9 * rho(r); }},
                     {"band_hi", band_units, "", [rho](const Idx &r) { return 1.1 * rho(r); }},
                     {"K_sim", "fills/work", "", [sim](const Idx &r) { return 48 * sim(r); }},
                     {"rho_sim", "misses/request", "", sim},
                     {"ns_per_round_sim", "ns/round", "", [](const Idx &) { return 424.0; }}};
        J d = ReportData(g);
        const J &dyn = d["plots"]["dynamic"];
        ASSERT_FALSE(dyn.null());
        bool per_round = band_units == "misses/round";
        EXPECT_EQ(dyn["metric"].s, per_round ? "K_dyn" : "rho_dyn");
        EXPECT_EQ(dyn["sim"].s, per_round ? "K_sim" : "rho_sim");
        double want = 0.021 + 0.012 * std::log(32.0) / 4;
        EXPECT_NEAR(Cell(d, "rho_sim", {{"depth", 4}, {"W", 32}}), want, 1e-5 * want);
    }
    Grid g;
    g.axes = {{"occupancy", "CTAs/SM", PASCAL_COLTYPE_I64, {1, 2}, {}},
              {"W", "scans", PASCAL_COLTYPE_F64, {1, 4, 16}, {}}};
    g.points = {{"M", "workers", "", [&g](const Idx &r) { return 48 * g.Value(0, r); }}};
    g.results = {{"K_sim", "fills/work", "", [&g](const Idx &r) { return 1 + g.Value(1, r) / 8; }},
                 {"rho_sim", "misses/request", "",
                  [&g](const Idx &r) { return (1 + g.Value(1, r) / 8) / (48 * g.Value(0, r)); }}};
    J d = ReportData(g);
    const J &dyn = d["plots"]["dynamic"];
    ASSERT_FALSE(dyn.null());
    EXPECT_EQ(dyn["metric"].s, "rho_sim");
    EXPECT_TRUE(dyn["sim"].null());
    EXPECT_TRUE(dyn["band_lo"].null());
    EXPECT_EQ(d["why_not"]["dynamic"].s, "");
}

TEST_F(ReportWrite, Theorem5CapacityWhereSigmaIsKnown)
{
    for (int with_column = 0; with_column < 2; with_column++) {
        Grid g;
        g.axes = {{"lead", "requests", PASCAL_COLTYPE_I64, {3, 10}, {}},
                  {"C", "blocks", PASCAL_COLTYPE_I64, {2, 5, 8, 19, 40}, {}}};
        g.results = {{"rho_lru", "misses/request", "",
                      [&g](const Idx &r) { return g.Value(1, r) >= 2 * g.Value(0, r) - 1 ? 0.0 : 0.7; }}};
        if (with_column)
            g.results.push_back({"C_share", "blocks", "",
                                 [&g](const Idx &r) { return 2 * g.Value(0, r) - 1; }});
        J d = ReportData(g);
        const J &s = Table(d);
        EXPECT_TRUE(s["has_cshare"].b);
        ASSERT_EQ(s["rows"].a.size(), 2u);
        EXPECT_EQ(s["rows"][0][4].n, 5);  // 2 * 3 - 1
        EXPECT_EQ(s["rows"][1][4].n, 19); // 2 * 10 - 1
        EXPECT_EQ(s["rows"][0][1].n, 5);  // the smallest swept C >= 5
        EXPECT_EQ(s["rows"][1][1].n, 19);
    }
}

TEST_F(ReportWrite, NoSigmaNoTheorem5)
{
    std::map<Idx, double> rho;
    J d = ReportData(SizingGrid(rho));
    EXPECT_FALSE(Table(d)["has_cshare"].b);
    EXPECT_TRUE(Table(d)["rows"][0][4].null());
}

// A fixed cache with swept block sizes sweeps C: plotted in blocks, lines by
// cluster count (the paper's Figure 3a sweep), and no sizing table.
TEST_F(ReportWrite, BlockSizesSweepCapacityInBlocks)
{
    Grid g;
    g.axes = {{"block_bytes", "bytes", PASCAL_COLTYPE_F64, {4096, 8192, 16384}, {}},
              {"clusters", "clusters", PASCAL_COLTYPE_I64, {1, 2, 4, 8}, {}}};
    g.points = {{"C", "blocks", "", [&g](const Idx &r) { return 20 * kMiB / g.Value(0, r); }}};
    g.results = {{"rho_lru", "misses/request", "",
                  [&g](const Idx &r) { return 1.0 / g.Value(1, r); }}};
    J d = ReportData(g);
    const J &cap = d["plots"]["capacity"];
    ASSERT_FALSE(cap.null());
    EXPECT_EQ(cap["x"].s, "block_bytes");
    EXPECT_TRUE(cap["blocks_only"].b);
    EXPECT_EQ(cap["blocks"].s, "C");
    EXPECT_EQ(cap["series"].s, "clusters");
    EXPECT_TRUE(d["sizing"].null());
    EXPECT_EQ(Cell(d, "C", {{"block_bytes", 8192}, {"clusters", 4}}), 2560);
    EXPECT_EQ(Cell(d, "rho_lru", {{"block_bytes", 8192}, {"clusters", 4}}), 0.25);
}

TEST_F(ReportWrite, SpecTextCannotBreakThePage)
{
    std::map<Idx, double> rho;
    Grid g = SizingGrid(rho);
    g.spec = "name: x\n# </script><script>alert(1)</script> <!-- & \"q\" \\ é\n";
    J d = ReportData(g);
    std::string html = slurp(dir + "/out.html");
    EXPECT_EQ(d["spec"].s, g.spec);
    EXPECT_EQ(html.find("<script>alert(1)"), std::string::npos);
    EXPECT_EQ(html.find("<script src"), std::string::npos); // everything inlined
    EXPECT_EQ(html.find("<link"), std::string::npos);
    EXPECT_NE(html.find("Content-Security-Policy"), std::string::npos);
    EXPECT_NE(html.find("connect-src 'none'"), std::string::npos);
    EXPECT_NE(html.find("vegaEmbed"), std::string::npos);
    EXPECT_NE(html.find("PascalLab"), std::string::npos);
    EXPECT_NE(html.find("not a GPU cache"), std::string::npos);
}

TEST_F(ReportWrite, SameInputSameBytesWhateverTheBlockSize)
{
    std::map<Idx, double> rho;
    Grid g = SizingGrid(rho);
    pascal_error err{};
    g.Write(dir + "/in.h5");
    ASSERT_EQ(Report(dir + "/in.h5", dir + "/a.html", &err), 0) << err.msg;
    ASSERT_EQ(Report(dir + "/in.h5", dir + "/b.html", &err, 0.05, 0, 7), 0) << err.msg;
    ASSERT_EQ(Report(dir + "/in.h5", dir + "/c.html", &err, 0.05, 0, 1), 0) << err.msg;
    std::string a = slurp(dir + "/a.html");
    EXPECT_GT(a.size(), 100000u);
    EXPECT_EQ(a, slurp(dir + "/b.html"));
    EXPECT_EQ(a, slurp(dir + "/c.html"));
}

TEST_F(ReportWrite, SinglePointHasNoPlots)
{
    Grid g;
    g.results = {{"rho_lru", "misses/request", "", [](const Idx &) { return 0.25; }}};
    J d = ReportData(g);
    EXPECT_EQ(d["points"].n, 1);
    EXPECT_TRUE(d["plots"]["capacity"].null());
    EXPECT_TRUE(d["plots"]["heatmap"].null());
    EXPECT_TRUE(d["sizing"].null());
    EXPECT_EQ(d["cube"]["columns"]["rho_lru"][0].n, 0.25);
}

// ---- bad input: an error naming the file, and no output -------------------

TEST_F(ReportWrite, BadInputWritesNothing)
{
    std::string out = dir + "/out.html", txt = dir + "/notes.txt", in = dir + "/in.h5";
    pascal_error err{};
    std::ofstream(out) << "keep me";
    std::ofstream(txt) << "not hdf5";
    EXPECT_EQ(Report(dir + "/missing.h5", out, &err), PASCAL_EINPUT);
    EXPECT_EQ(std::string(err.msg).rfind(dir + "/missing.h5: cannot open", 0), 0u) << err.msg;
    EXPECT_EQ(Report(txt, out, &err), PASCAL_EINPUT);
    EXPECT_EQ(std::string(err.msg), txt + ":1: expected an HDF5 sweep file or the CSV of pascal "
                                          "run --format csv, got a column \"not hdf5\" that is "
                                          "neither a sweep parameter nor a result column");
    std::map<Idx, double> rho;
    Grid g = SizingGrid(rho);
    g.Write(in);
    EXPECT_EQ(Report(in, out, &err, -0.5), PASCAL_EINPUT);
    EXPECT_EQ(std::string(err.msg), "report: --target: expected a miss rate >= 0, got -0.5");
    EXPECT_EQ(Report(in, in, &err), PASCAL_EINPUT);
    EXPECT_EQ(std::string(err.msg), in + ": -o: expected a file that is not one of the inputs, "
                                        "got the sweep file " + in + " itself");
    EXPECT_EQ(Report(in, dir + "/no/such/dir/r.html", &err), PASCAL_EINPUT);
    EXPECT_EQ(std::string(err.msg).rfind(dir + "/no/such/dir/r.html: cannot write", 0), 0u);
    EXPECT_EQ(slurp(out), "keep me");
    for (auto name : {"out.html.tmp", "r.html"})
        EXPECT_FALSE(exists(dir + "/" + name));
}

// Overwrites a root attribute of a finished file (HDF5 API directly).
void SetAttr(const std::string &path, const char *key, int64_t value, const char *text)
{
    hid_t f = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
    ASSERT_GE(f, 0);
    H5Adelete(f, key);
    hid_t space = H5Screate(H5S_SCALAR), type = text ? H5Tcopy(H5T_C_S1) : H5T_STD_I64LE;
    if (text)
        H5Tset_size(type, strlen(text) + 1);
    hid_t a = H5Acreate2(f, key, type, space, H5P_DEFAULT, H5P_DEFAULT);
    ASSERT_GE(a, 0);
    if (text)
        H5Awrite(a, type, text);
    else
        H5Awrite(a, H5T_NATIVE_INT64, &value);
    H5Aclose(a);
    if (text)
        H5Tclose(type);
    H5Sclose(space);
    H5Fclose(f);
}

// HDF5 files that are not finished pascal sweeps.
TEST_F(ReportWrite, NotAFinishedSweep)
{
    std::string out = dir + "/out.html", in = dir + "/in.h5";
    std::map<Idx, double> rho;
    pascal_error err{};
    SizingGrid(rho).Write(in);
    SetAttr(in, "complete", 0, nullptr);
    EXPECT_EQ(Report(in, out, &err), PASCAL_EINPUT);
    EXPECT_EQ(std::string(err.msg), in + ": /@complete: expected 1 (a finished run), got 0");
    SetAttr(in, "complete", 1, nullptr);
    SetAttr(in, "format", 0, "calibration"); // fixed-length text this time
    EXPECT_EQ(Report(in, out, &err), PASCAL_EINPUT);
    EXPECT_EQ(std::string(err.msg), in + ": /@format: expected \"pascal-sweep\" (a file written "
                                         "by pascal run), got \"calibration\"");
    SetAttr(in, "format", 0, "pascal-sweep");
    EXPECT_FALSE(exists(out));
    EXPECT_EQ(Report(in, out, &err), 0) << err.msg;
    // a point column missing for an axis
    hid_t f = H5Fopen(in.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
    ASSERT_GE(f, 0);
    H5Ldelete(f, "points/pattern", H5P_DEFAULT);
    H5Fclose(f);
    EXPECT_EQ(Report(in, out, &err), PASCAL_EINPUT);
    EXPECT_EQ(std::string(err.msg), in + ": /points/pattern: expected a column for axis pattern, "
                                         "got none");
}

// The sizing table made exact from the file's own spec: per scenario, the
// draw (seed) that needs the most capacity, as pascal_size_run finds it for
// each (scenario, seed); the swept column brackets it from above.  A file
// whose spec cannot be re-evaluated keeps the swept capacities and says why.
int CollectSize(void *ctx, const pascal_size_result *r)
{
    static_cast<std::vector<pascal_size_result> *>(ctx)->push_back(*r);
    return 0;
}

TEST_F(ReportWrite, ExactSizingFromTheFilesSpec)
{
    std::string text = "name: x\nmodels: [ttl, lru]\nfixed: {N: 900, block_bytes: 4KiB, sms: 8}\n"
                       "axes:\n  occupancy: [2, 5]\n  pattern: [uniform, gaussian]\n  sigma: [40]\n"
                       "  seed: [1, 2, 3, 4]\n  capacity_bytes: {from: 256KiB, to: 3600KiB, num: 6}\n";
    std::string path = write("x.yaml", text), in = dir + "/x.h5", out = dir + "/x.html";
    pascal_spec *spec = nullptr;
    pascal_error err{};
    ASSERT_EQ(pascal_spec_load(path.c_str(), &spec, &err), 0) << err.msg;
    pascal_run_opts o{};
    pascal_run_stats st{};
    o.out_path = in.c_str();
    o.compression = -1;
    ASSERT_EQ(pascal_run(spec, &o, &st, &err), 0) << err.msg;
    std::vector<pascal_size_result> per;
    pascal_size_opts so{};
    pascal_size_stats ss{};
    so.target = pascal_target{PASCAL_COL_RHO_LRU, PASCAL_TARGET_LE, 0.1};
    so.emit = CollectSize;
    so.emit_ctx = &per;
    ASSERT_EQ(pascal_size_run(spec, &so, &ss, &err), 0) << err.msg;
    ASSERT_EQ(per.size(), 16u);   // occupancy x pattern x seed
    ASSERT_EQ(Report(in, out, &err, 0.1), 0) << err.msg;
    J d = PageData(slurp(out));
    const J &s = Table(d);
    ASSERT_TRUE(s["exact"].b) << s["exact_note"].s;
    ASSERT_EQ(s["rows"].a.size(), 4u);
    for (size_t k = 0; k < 4; k++) {
        double want = 0, bytes = 0;
        bool none = false;
        for (size_t sd = 0; sd < 4; sd++) {   // the seeds of scenario k
            const pascal_size_result &r = per[k * 4 + sd];
            none |= r.C < 0;
            want = std::max(want, (double)r.C);
            bytes = std::max(bytes, r.capacity_bytes);
        }
        const J &row = s["rows"][k];
        if (none) {
            EXPECT_TRUE(row[5].null()) << "scenario " << k;
            continue;
        }
        EXPECT_EQ(row[5].n, want) << "scenario " << k;
        EXPECT_EQ(row[6].n, bytes);
        EXPECT_LE(row[7].n, 0.1);
        if (!row[1].null())
            EXPECT_GE(row[1].n, row[6].n) << "the swept answer brackets the exact one";
    }
    pascal_spec_free(spec);
    // A program that gives no sizer gets the swept capacities and the reason.
    sizer = nullptr;
    ASSERT_EQ(Report(in, out, &err, 0.1), 0) << err.msg;
    J none = PageData(slurp(out));
    EXPECT_FALSE(Table(none)["exact"].b);
    EXPECT_EQ(Table(none)["exact_note"].s, "this program gave the report no model to search with");
    EXPECT_EQ(Table(none)["rows"][0].a.size(), 5u);
    sizer = &kEngineSizer;

    std::map<Idx, double> rho;
    J g = ReportData(SizingGrid(rho));
    EXPECT_FALSE(Table(g)["exact"].b);
    EXPECT_NE(Table(g)["exact_note"].s.find("spec"), std::string::npos) << Table(g)["exact_note"].s;
    EXPECT_EQ(Table(g)["rows"][0].a.size(), 5u);
}

} // namespace
