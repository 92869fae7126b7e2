// `pascal info`: each kind of file (sweep, shard, partial run, calibration,
// reference runs, a sweep written as CSV), files that are none of them (exit
// 2, saying what they are), and --json read back with Python's json module.
// Expected counts and ranges come from the specs below or from reading the
// input files here, never from the program's own output.
#include <gtest/gtest.h>

#include <hdf5.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "engine/run.h"
#include "sweeps/spec.h"
#include "test_util.h"

namespace {

using Result = pascal_test::CliResult;

class InfoCli : public pascal_test::TempDirTest {
protected:
    std::string Run(const std::string &name, const std::string &spec, const std::string &extra = "")
    {
        std::string yaml = write(name + ".yaml", spec), out = dir + "/" + name;
        Result r = run("run " + yaml + " -o " + out + " --quiet " + extra);
        EXPECT_EQ(r.status, 0) << r.err;
        return out;
    }
    // A Python expression over the --json object `d`, printed.
    std::string Json(const std::string &file, const std::string &expr)
    {
        std::string script = write("expr.py", "import json, sys\nd = json.load(sys.stdin)\nprint(" +
                                                  expr + ")\n");
        Result r = pascal_test::run_command(
            dir, std::string(PASCAL_CLI) + " info " + file + " --json | python3 " + script);
        EXPECT_EQ(r.status, 0) << r.err;
        return r.out.substr(0, r.out.find_last_not_of('\n') + 1);
    }
};

const char *kSpec = "name: cart\nmodels: [ttl, che]\nfixed: {N: 4096, M: 64, clusters: 4}\n"
                    "axes:\n  pattern: [aligned, uniform, clusters]\n  seed: [3, 1]\n"
                    "  C: [256, 512, 1024, 2048]\n";

bool Has(const std::string &text, const std::string &part)
{
    return text.find(part) != std::string::npos;
}

TEST_F(InfoCli, SweepShowsSpecPointsAxesUnitsAndView)
{
    std::string f = Run("cart.h5", kSpec);
    Result r = run("info " + f);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(Has(r.out, "pascal sweep, complete: 24 points")) << r.out;
    EXPECT_TRUE(Has(r.out, "spec           cart (")) << r.out;
    EXPECT_TRUE(Has(r.out, "pattern          3 values: aligned, uniform, clusters")) << r.out;
    EXPECT_TRUE(Has(r.out, "seed             2 values 1 .. 3")) << r.out;
    EXPECT_TRUE(Has(r.out, "C                4 values 256 .. 2048 blocks")) << r.out;
    EXPECT_TRUE(Has(r.out, "rho_ttl          (misses/request)")) << r.out;
    EXPECT_TRUE(Has(r.out, "format_version 2")) << r.out;
    EXPECT_TRUE(Has(r.out, "/cube: cube (pattern x seed x C)")) << r.out;
    EXPECT_EQ(Json(f, "d['kind'], d['rows'], d['complete'], d['spec_name']"),
              "sweep 24 True cart");
    EXPECT_EQ(Json(f, "[a['name'] for a in d['axes']]"), "['pattern', 'seed', 'C']");
    EXPECT_EQ(Json(f, "d['axes'][2]['min'], d['axes'][2]['max'], d['axes'][2]['units']"),
              "256 2048 blocks");
    EXPECT_EQ(Json(f, "d['axes'][0]['labels']"), "['aligned', 'uniform', 'clusters']");
    EXPECT_EQ(Json(f, "[c['units'] for c in d['columns'] if c['name'] == 'rho_ttl']"),
              "['misses/request']");
    EXPECT_EQ(Json(f, "d['attributes']['format'], d['attributes']['points']"), "pascal-sweep 24");
}

TEST_F(InfoCli, ShardAndPartialRun)
{
    std::string s = Run("s2.h5", kSpec, "--shard 2/3");
    Result r = run("info " + s);
    ASSERT_EQ(r.status, 0) << r.err;
    // 24 raw points in 3 slices: [8, 16).
    EXPECT_TRUE(Has(r.out, "pascal sweep shard 2/3, complete: 8 points of raw points 8 16")) << r.out;
    EXPECT_EQ(Json(s, "d['kind']"), "shard");

    pascal_spec *spec = nullptr;
    pascal_error err{};
    std::string text = std::string(kSpec) + "output: {chunk_rows: 4}\n", out = dir + "/p.h5";
    ASSERT_EQ(pascal_spec_parse(text.c_str(), text.size(), "p.yaml", &spec, &err), 0) << err.msg;
    pascal_run_opts o{};
    pascal_run_stats st{};
    o.out_path = out.c_str();
    o.threads = 1;
    o.batch_points = 8;
    o.compression = -1;
    o.should_stop = [](void *) { return 1; };   // after the first batch of 8 rows
    ASSERT_EQ(pascal_run(spec, &o, &st, &err), PASCAL_EINTR) << err.msg;
    pascal_spec_free(spec);
    r = run("info " + out + ".partial");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(Has(r.out, "pascal sweep, NOT complete: 8 rows kept so far")) << r.out;
    EXPECT_TRUE(Has(r.out, "--resume")) << r.out;
    EXPECT_EQ(Json(out + ".partial", "d['kind'], d['complete'], d['rows']"), "partial False 8");
}

// Rows of a reference CSV and the range of its column o, read here.
void CountRefs(const std::string &path, int *rows, int *omin, int *omax)
{
    std::ifstream in(path);
    std::string line;
    bool header = false;
    *rows = 0, *omin = 1 << 30, *omax = -1;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#')
            continue;
        if (!header) {
            header = true;
            ASSERT_EQ(line.rfind("o,", 0), 0u) << "column o first";
            continue;
        }
        int o = std::stoi(line);
        ++*rows;
        *omin = std::min(*omin, o);
        *omax = std::max(*omax, o);
    }
}

TEST_F(InfoCli, CalibrationAndReferenceRuns)
{
    std::string refs = std::string(PASCAL_SOURCE_DIR) + "/configs/calibration/synthetic-gb10-refs.csv";
    int rows, omin, omax;
    CountRefs(refs, &rows, &omin, &omax);
    ASSERT_GT(rows, 100);
    Result r = run("info " + refs);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(Has(r.out, "reference runs for pascal calibrate (CSV): " + std::to_string(rows) +
                               " rows")) << r.out;
    EXPECT_TRUE(Has(r.out, "o                " + std::to_string(omin) + " .. " +
                               std::to_string(omax) + " CTAs/SM")) << r.out;
    EXPECT_TRUE(Has(r.out, "SYNTHETIC reference runs")) << "the file's comments are its provenance";
    EXPECT_EQ(Json(refs, "d['kind'], d['rows']"), "reference " + std::to_string(rows));

    std::string model = dir + "/model.h5";
    r = run("calibrate " + refs + " --device " + PASCAL_SOURCE_DIR +
            "/configs/devices/gb10.yaml -o " + model);
    ASSERT_EQ(r.status, 0) << r.err;
    r = run("info " + model);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(Has(r.out, "pascal calibration of the dynamic model: " + std::to_string(rows) +
                               " reference rows")) << r.out;
    EXPECT_TRUE(Has(r.out, "device         NVIDIA GB10")) << r.out;
    EXPECT_TRUE(Has(r.out, "references")) << r.out;
    EXPECT_EQ(Json(model, "d['kind'], d['attributes']['refs_rows']"),
              "calibration " + std::to_string(rows));
}

TEST_F(InfoCli, SweepWrittenAsCsv)
{
    std::string f = Run("cart.csv", kSpec, "--format csv");
    Result r = run("info " + f);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(Has(r.out, "pascal sweep written as CSV: 24 rows")) << r.out;
    EXPECT_TRUE(Has(r.out, "pattern          labels: aligned, uniform, clusters")) << r.out;
    EXPECT_TRUE(Has(r.out, "C                256 .. 2048 blocks")) << r.out;
    EXPECT_TRUE(Has(r.out, "rho_che          ")) << r.out;
    // rho_che = 1 - C/N (Che/IRM) over C = 256 .. 2048, N = 4096.
    EXPECT_EQ(Json(f, "[(c['min'], c['max']) for c in d['columns'] if c['name'] == 'rho_che']"),
              "[(0.5, 0.9375)]");
}

TEST_F(InfoCli, OtherFilesExitTwoSayingWhatTheyAre)
{
    struct Case {
        std::string file, says;
    };
    std::string h5 = dir + "/other.h5";
    hid_t f = H5Fcreate(h5.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    hid_t s = H5Screate(H5S_SCALAR), t = H5Tcopy(H5T_C_S1);
    H5Tset_size(t, 6);
    hid_t a = H5Acreate2(f, "format", t, s, H5P_DEFAULT, H5P_DEFAULT);
    H5Awrite(a, t, "netcdf");
    H5Aclose(a), H5Tclose(t), H5Sclose(s), H5Fclose(f);
    std::string bare = dir + "/bare.h5";
    H5Fclose(H5Fcreate(bare.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT));
    std::string bin = write("data.bin", std::string("\x7f" "ELF\0\1\2", 7));
    const Case cases[] = {
        {write("spec.yaml", kSpec), "a text file whose first line \"name: cart\" is not a CSV header"},
        {write("t.csv", "a,b\n1,2\n"), "a CSV file whose column \"a\" is neither a sweep parameter"},
        {h5, "an HDF5 file whose format attribute is \"netcdf\""},
        {bare, "an HDF5 file without a format attribute"},
        {bin, "a binary file that is not HDF5"},
    };
    for (const Case &c : cases) {
        Result r = run("info " + c.file);
        EXPECT_EQ(r.status, 2) << c.file;
        EXPECT_EQ(r.err, c.file + ": not a pascal sweep, shard, partial run, calibration or "
                                  "reference file: " + r.err.substr(r.err.find("file: ") + 6))
            << r.err;
        EXPECT_TRUE(Has(r.err, c.says)) << r.err;
        EXPECT_TRUE(r.out.empty());
    }
    Result r = run("info " + dir + "/missing.h5");
    EXPECT_EQ(r.status, 2);
    EXPECT_TRUE(Has(r.err, "missing.h5")) << r.err;
    r = run("info");
    EXPECT_EQ(r.status, 2);
}

} // namespace
