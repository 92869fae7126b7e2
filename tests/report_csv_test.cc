// `pascal report` of the CSV that `pascal run --format csv` writes: the page
// is the one the HDF5 file of the same spec gives, apart from what a CSV
// cannot carry (spec text, device, provenance attributes; the title falls
// back to the file name; the sizing table's exact column, which searches the
// file's spec again: the CSV's table keeps the swept capacities and says
// why, and its swept columns are the HDF5 page's); a CSV it cannot use is refused with one line and
// status 2, and no page is written.  Pages are compared through their JSON
// data blocks, parsed by Python's json module.
#include <gtest/gtest.h>

#include <string>

#include "report/report.h"
#include "test_util.h"

namespace {

using Result = pascal_test::CliResult;

class ReportCsv : public pascal_test::TempDirTest {
protected:
    // Runs spec to NAME.h5 and NAME.csv, reports both, and returns what
    // differs between the two pages' data blocks (python's output).
    std::string Compare(const std::string &name, const std::string &spec)
    {
        std::string yaml = write(name + ".yaml", spec), base = dir + "/" + name;
        for (const char *ext : {".h5", ".csv"}) {
            std::string fmt = std::string(ext) == ".csv" ? " --format csv" : "";
            Result r = run("run " + yaml + " -o " + base + ext + " --quiet" + fmt);
            EXPECT_EQ(r.status, 0) << r.err;
            r = run("report " + base + ext + " -o " + base + ext + ".html");
            EXPECT_EQ(r.status, 0) << r.err;
        }
        std::string script = write("cmp.py", R"PY(
import json, re, sys
def data(path):
    html = open(path, encoding="utf-8").read()
    m = re.search(r'<script type="application/json" id="pascal-data">(.*?)</script>', html, re.S)
    return json.loads(m.group(1))
a, b = data(sys.argv[1]), data(sys.argv[2])
assert set(a) == set(b), set(a) ^ set(b)
if a.get("sizing"):
    m = a["sizing"]["default"]
    sa, sb = a["sizing"]["by_metric"][m], b["sizing"]["by_metric"][m]
    assert not sb["exact"] and "spec" in sb["exact_note"], sb["exact_note"]
    if sa["exact"]:
        sa["rows"] = [r[:5] for r in sa["rows"]]
    for s in (sa, sb):
        del s["exact"], s["exact_note"]
print(" ".join(k for k in a if a[k] != b[k]))
fmt = dict(b["attrs"])["format"]
assert fmt.startswith("CSV from pascal run --format csv"), fmt
assert b["title"] == sys.argv[2].split("/")[-1][:-5], b["title"]
assert b["spec"] is None and b["points"] == a["points"]
)PY");
        Result r = pascal_test::run_command(dir, "python3 " + script + " " + base + ".h5.html " +
                                                     base + ".csv.html");
        EXPECT_EQ(r.status, 0) << r.err;
        return r.out;
    }
};

const std::string kProvenance = "title file spec device report_command attrs\n";

TEST_F(ReportCsv, SameReportAsTheHdf5FileOfTheSameSpec)
{
    if (!pascal_report_has_plot_library())
        GTEST_SKIP() << "built without the plotting library (no npm at build time)";
    // Random draws averaged, a capacity axis with the LRU band, a heatmap.
    EXPECT_EQ(Compare("cart", "name: cart\nmodels: [ttl, lru_band, lru, residency, che]\n"
                              "fixed: {N: 256, M: 16, sigma: 30, clusters: 3}\naxes:\n"
                              "  pattern: [uniform, gaussian, clusters]\n  seed: [1, 2, 3]\n"
                              "  C: {from: 8, to: 200, num: 12}\n"),
              kProvenance);
    // Capacity in bytes: C derived, and M from occupancy (the default sweep).
    EXPECT_EQ(Compare("bytes", "name: bytes\nmodels: [ttl, che]\nfixed: {N: 4096, sms: 48, "
                               "block_bytes: 16KiB, seed: 1}\naxes:\n  occupancy: [1, 2, 4]\n"
                               "  pattern: [aligned, uniform]\n"
                               "  capacity_bytes: {from: 4MiB, to: 64MiB, num: 5, scale: log}\n"),
              kProvenance);
    // N swept last among the axes: it precedes M and C in the CSV but is no
    // derived column (nothing in the file derives it).
    EXPECT_EQ(Compare("ring", "name: ring\nmodels: [ttl, che]\nfixed: {M: 16, C: 64, seed: 4}\n"
                              "axes:\n  pattern: [uniform, equal]\n  N: [128, 256, 512]\n"),
              kProvenance);
    // Rows dropped by where.
    EXPECT_EQ(Compare("where", "name: where\nmodels: [ttl]\nfixed: {N: 4096, M: 64, clusters: 4}\n"
                               "axes:\n  pattern: [aligned, clusters, uniform]\n"
                               "  C: [256, 512, 1024]\nwhere: 'pattern != \"aligned\" || C == 256'\n"),
              kProvenance);
    // A workload: named axes (raster, kernel) are labels, and its trailing
    // block_bytes is derived, as N, M and C are (they were read as a number
    // and refused, and as four more axes).
    EXPECT_EQ(Compare("gemm", "name: gemm\nmodels: [workload, traffic, lru]\nworkload:\n"
                              "  gemm: {gemm_m: 512, gemm_n: 512, gemm_k: 256, dtype: bf16, "
                              "tile_m: 128, tile_n: 128, tile_k: 64}\nfixed: {M: 8}\naxes:\n"
                              "  raster: [row, column]\n  capacity_bytes: [256KiB, 1MiB]\n"),
              kProvenance);
    EXPECT_EQ(Compare("attn", "name: attn\nmodels: [workload, traffic, lru]\nworkload:\n"
                              "  attention: {batch: 2, q_heads: 8, kv_heads: 2, seq_q: 2, "
                              "seq_kv: 512, head_dim: 64, dtype: bf16, tile_q: 64, tile_kv: 64, "
                              "num_splits: 1}\nfixed: {M: 8}\naxes:\n  kernel: [model, flash-attn-2]\n"
                              "  capacity_bytes: [64KiB, 256KiB]\n"),
              kProvenance);
}

// -o NAME.csv without --format writes the CSV that --format csv writes, and
// the report reads it as such.
TEST_F(ReportCsv, OutputNamedCsvIsTheReportsCsv)
{
    std::string yaml = write("s.yaml", "name: s\nmodels: [ttl, che]\nfixed: {N: 256, M: 16}\naxes:\n"
                                       "  pattern: [uniform, equal]\n  C: {from: 8, to: 200, num: 6}\n");
    ASSERT_EQ(run("run " + yaml + " -o " + dir + "/named.csv --quiet").status, 0);
    ASSERT_EQ(run("run " + yaml + " -o " + dir + "/asked.out --format csv --quiet").status, 0);
    std::string named = pascal_test::slurp(dir + "/named.csv");
    EXPECT_EQ(named.rfind("pattern,", 0), 0u) << named.substr(0, 80);
    EXPECT_EQ(named, pascal_test::slurp(dir + "/asked.out"));
    Result r = run("report " + dir + "/named.csv -o " + dir + "/named.html");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(pascal_test::slurp(dir + "/named.html").find("CSV from pascal run"), std::string::npos);
}

TEST_F(ReportCsv, UnusableCsvRefusedWithOneLine)
{
    struct Case {
        std::string text, says;
    };
    const Case cases[] = {
        {"C,colour\n1,red\n", "t.csv:1: expected an HDF5 sweep file or the CSV of pascal run "
                              "--format csv, got a column \"colour\" that is neither a sweep "
                              "parameter nor a result column"},
        {"seed,C\n1,2\n", "t.csv: expected at least one result column, got none"},
        {"C,rho_ttl\n", "t.csv: expected at least one row, got none"},
        {"C,rho_ttl\n8,0.5\n16,x\n", "t.csv:3: rho_ttl: expected a number, got \"x\""},
        {"pattern,C,rho_ttl\nuniform,8,0.5\nzigzag,16,0.25\n",
         "t.csv:3: pattern: expected a label, got \"zigzag\""},
        {"C,rho_ttl\n8,0.5\n16\n", "t.csv:3: expected 2 fields as in the header, got 1"},
        {"o,path,d,m,N,W,K\n1,sync,0,0,4096,1,1.04\n", "got a column \"o\""},
        // a grid's rows twice over (appended to itself, or every line doubled)
        {"C,seed,rho_ttl\n8,1,0.5\n16,1,0.25\n8,2,0.5\n16,2,0.125\n"
         "8,1,0.5\n16,1,0.25\n8,2,0.5\n16,2,0.125\n",
         "t.csv: expected each point once, got every one of its 4 points 2 times (8 rows)"},
        {"C,rho_ttl\n8,0.5\n8,0.5\n16,0.25\n16,0.25\n32,0.125\n32,0.125\n",
         "got every one of its 3 points 2 times (6 rows)"},
    };
    std::string out = write("r.html", "previous page");
    for (const Case &c : cases) {
        std::string csv = write("t.csv", c.text);
        Result r = run("report " + csv + " -o " + out);
        EXPECT_EQ(r.status, 2) << c.text;
        EXPECT_NE(r.err.find(c.says), std::string::npos) << r.err;
        EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "one line: " << r.err;
        EXPECT_EQ(pascal_test::slurp(out), "previous page");
    }
}

// A point drawn again, as a sampled sweep may, is not a repetition of the
// whole file: the report counts each row.
TEST_F(ReportCsv, ARepeatedPointIsNotARepeatedFile)
{
    std::string csv = write("s.csv", "C,rho_ttl\n8,0.5\n16,0.25\n8,0.5\n32,0.125\n16,0.25\n");
    Result r = run("report " + csv + " -o " + dir + "/s.html");
    EXPECT_EQ(r.status, 0) << r.err;
}

} // namespace
