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

// SHA-256 of a file by the system's sha256sum, run in dir.
std::string Sha256(const std::string &dir, const std::string &path)
{
    Result r = pascal_test::run_command(dir, "sha256sum " + path);
    EXPECT_EQ(r.status, 0) << r.err;
    return r.out.substr(0, 64);
}

// Beside a finished sweep, a stopped run of the same output is noted; every
// input is shown by its digest, and a file without digests says so.
TEST_F(InfoCli, InputDigestsAndAStoppedRunBeside)
{
    std::string text = std::string(kSpec) + "output: {chunk_rows: 4}\n", f = Run("p.h5", text);
    std::string sha = Sha256(dir, dir + "/p.h5.yaml");
    Result r = run("info " + f);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(Has(r.out, "inputs         spec " + dir + "/p.h5.yaml sha256 " + sha)) << r.out;
    EXPECT_TRUE(Has(r.out, "                 column set sha256 ")) << r.out;
    EXPECT_FALSE(Has(r.out, "partial        ")) << r.out;
    EXPECT_EQ(Json(f, "d['inputs']['spec']['sha256'] == '" + sha + "', d['partial'], d['journal']"),
              "True None None");

    pascal_spec *spec = nullptr;
    pascal_error err{};
    ASSERT_EQ(pascal_spec_parse(text.c_str(), text.size(), "p.yaml", &spec, &err), 0) << err.msg;
    pascal_run_opts o{};
    pascal_run_stats st{};
    o.out_path = f.c_str();
    o.threads = 1;
    o.batch_points = 8;
    o.compression = -1;
    o.should_stop = [](void *) { return 1; };   // after the first batch of 8 rows
    ASSERT_EQ(pascal_run(spec, &o, &st, &err), PASCAL_EINTR) << err.msg;
    pascal_spec_free(spec);
    r = run("info " + f);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(Has(r.out, "partial        " + f + ".partial: a stopped run's 8 rows")) << r.out;
    EXPECT_EQ(Json(f, "d['partial']['rows'], d['journal']"), "8 None");

    hid_t h = H5Fopen(f.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
    ASSERT_GE(h, 0);
    for (const char *key : {"sha256_spec", "sha256_device", "sha256_calibration", "sha256_columns"})
        if (H5Aexists(h, key) > 0)
            H5Adelete(h, key);
    H5Fclose(h);
    r = run("info " + f);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(Has(r.out, "inputs         no digests (written before pascal recorded them)"))
        << r.out;
    EXPECT_EQ(Json(f, "d['inputs']"), "{}");
}

// A run killed outright: its journal, its own file (which HDF5 cannot
// open) and the missing output each say what --resume recovers.
TEST_F(InfoCli, KilledRunSaysWhatResumeRecovers)
{
    // 150 000 points: batches of 65536 (docs/reliability.md), 4096-row chunks.
    std::string yaml = write("big.yaml", "name: big\nmodels: [ttl]\nfixed: {N: 2048, M: 64, "
                                         "pattern: uniform}\naxes:\n  seed: {from: 1, to: 600, "
                                         "step: 1}\n  C: {from: 1, to: 2000, num: 250}\n"
                                         "output: {chunk_rows: 4096}\n");
    std::string out = dir + "/big.h5", sha = Sha256(dir, yaml), tmp;
    Result r = pascal_test::run_command(dir, "PASCAL_TEST_KILL_AFTER_BATCH=1 " PASCAL_CLI_HOOKED " run " +
                                                 yaml + " -o " + out + " --quiet");
    ASSERT_EQ(r.status, 137) << r.err;
    for (const std::string &name : pascal_test::list_dir(dir))
        if (name.rfind("big.h5.tmp.", 0) == 0)
            tmp = name;
    ASSERT_FALSE(tmp.empty());
    // Killed after batch 1: batches 0 and 1, 2 x 65536 rows, are in whole chunks.
    r = run("info " + out + ".journal");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(Has(r.out, "journal of a killed pascal run: pascal run SPEC -o OUT --resume "
                           "recovers 131072 rows of " + tmp)) << r.out;
    EXPECT_TRUE(Has(r.out, "inputs         spec sha256 " + sha)) << r.out;
    EXPECT_EQ(Json(out + ".journal", "d['kind'], d['rows'], d['attributes']['chunk_rows'], "
                                     "d['inputs']['spec']['sha256'] == '" + sha + "'"),
              "journal 131072 4096 True");
    r = run("info " + dir + "/" + tmp);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(Has(r.out, "the file of a killed pascal run")) << r.out;
    EXPECT_EQ(Json(dir + "/" + tmp, "d['kind'], d['rows'], d['journal']['rows']"),
              "killed 131072 131072");
    r = run("info " + out);
    EXPECT_EQ(r.status, 2);
    EXPECT_TRUE(Has(r.err, out + ".journal: a killed run of it, pascal run SPEC -o " + out +
                               " --resume recovers 131072 rows")) << r.err;

    r = run("run " + yaml + " -o " + out + " --resume --quiet");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(Json(out, "d['kind'], d['rows'], d['journal'], d['partial'], "
                        "d['inputs']['spec']['sha256'] == '" + sha + "'"),
              "sweep 150000 None None True");
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
