// The layout of a sweep file beyond its flat columns (output/h5_chunks.c,
// output/h5_cube.c): chunks no longer than the sweep, and the /cube view for
// netCDF-4 tools, read here with the HDF5 API and, in the Python test, with
// Debian's pandas, xarray and h5netcdf.  Expected shapes, coordinates and
// units come from the specs written below and the vocabulary's units; every
// cube element is checked against the row that canonical order puts there,
// unravelled by hand.
#include <gtest/gtest.h>

#include <hdf5.h>
#include <hdf5_hl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "engine/run.h"
#include "output/sink.h"
#include "report/report.h"
#include "sweeps/spec.h"
#include "test_util.h"

extern "C" {
#include "output/sink_internal.h" // pascal_h5_chunk_rows
}

namespace {

class OutputCube : public pascal_test::TempDirTest {
protected:
    // `pascal run` of spec text into dir/name; returns the file's path.
    std::string Run(const std::string &name, const std::string &spec, const std::string &extra = "")
    {
        std::string yaml = write(name + ".yaml", spec), out = dir + "/" + name + ".h5";
        pascal_test::CliResult r = run("run " + yaml + " -o " + out + " --quiet " + extra);
        EXPECT_EQ(r.status, 0) << r.err;
        return out;
    }
};

const char *kCartesian = "name: cart\nmodels: [ttl, che]\nfixed: {N: 4096, M: 64, clusters: 4}\n"
                         "axes:\n  pattern: [aligned, uniform, clusters]\n  seed: [3, 1]\n"
                         "  C: [256, 512, 1024, 2048]\n";

const char *kZip = "name: z\nmodels: [ttl]\nfixed: {N: 4096, M: 64}\nzip:\n  - [block_bytes, capacity_bytes]\n"
                   "axes:\n  pattern: [aligned, uniform]\n  block_bytes: [4KiB, 8KiB, 16KiB]\n"
                   "  capacity_bytes: [4MiB, 4MiB, 8MiB]\n  seed: [1, 2]\n";
const char *kWhere = "name: w\nmodels: [ttl]\nfixed: {N: 4096, M: 64, clusters: 4}\n"
                     "axes:\n  pattern: [aligned, clusters, uniform]\n  C: [256, 512, 1024]\n"
                     "where: 'pattern != \"aligned\" || C == 256'\n";

struct H5File {
    hid_t id;
    explicit H5File(const std::string &path) : id(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT)) {}
    ~H5File() { if (id >= 0) H5Fclose(id); }
};

std::vector<hsize_t> Shape(hid_t file, const std::string &name)
{
    hid_t d = H5Dopen2(file, name.c_str(), H5P_DEFAULT), s = H5Dget_space(d);
    int rank = H5Sget_simple_extent_ndims(s);
    std::vector<hsize_t> dims(rank > 0 ? (size_t)rank : 0);
    if (rank > 0)
        H5Sget_simple_extent_dims(s, dims.data(), nullptr);
    H5Sclose(s);
    H5Dclose(d);
    return dims;
}

// Every element as double (HDF5 converts integers and enum codes).
std::vector<double> Values(hid_t file, const std::string &name)
{
    std::vector<hsize_t> dims = Shape(file, name);
    size_t n = 1;
    for (hsize_t x : dims)
        n *= x;
    std::vector<double> v(n);
    hid_t d = H5Dopen2(file, name.c_str(), H5P_DEFAULT);
    EXPECT_GE(H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data()), 0) << name;
    H5Dclose(d);
    return v;
}

// A 1-D dataset of strings, fixed or variable length; *vlen says which.
std::vector<std::string> Strings(hid_t file, const std::string &name, bool *vlen = nullptr)
{
    hid_t d = H5Dopen2(file, name.c_str(), H5P_DEFAULT), t = H5Dget_type(d);
    EXPECT_EQ(H5Tget_class(t), H5T_STRING) << name;
    bool var = H5Tis_variable_str(t) > 0;
    size_t w = var ? sizeof(char *) : H5Tget_size(t), n = Shape(file, name)[0];
    std::vector<char> buf(n * w);
    EXPECT_GE(H5Dread(d, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf.data()), 0);
    std::vector<std::string> out;
    for (size_t i = 0; i < n; i++)
        out.emplace_back(var ? ((char **)(void *)buf.data())[i]
                             : std::string(buf.data() + i * w, w).c_str());
    if (var) {
        hid_t s = H5Dget_space(d);
        H5Dvlen_reclaim(t, s, H5P_DEFAULT, buf.data());
        H5Sclose(s);
    }
    if (vlen)
        *vlen = var;
    H5Tclose(t);
    H5Dclose(d);
    return out;
}

// A string attribute, fixed or variable length; "<none>" when absent.
std::string Attr(hid_t file, const std::string &obj, const char *key)
{
    if (H5Aexists_by_name(file, obj.c_str(), key, H5P_DEFAULT) <= 0)
        return "<none>";
    hid_t a = H5Aopen_by_name(file, obj.c_str(), key, H5P_DEFAULT, H5P_DEFAULT), t = H5Aget_type(a);
    std::string out;
    if (H5Tis_variable_str(t) > 0) {
        char *s = nullptr;
        H5Aread(a, t, &s);
        out = s ? s : "";
        H5free_memory(s);
    } else {
        std::vector<char> buf(H5Tget_size(t) + 1, 0);
        H5Aread(a, t, buf.data());
        out = buf.data();
    }
    H5Tclose(t);
    H5Aclose(a);
    return out;
}

int64_t IntAttr(hid_t file, const std::string &obj, const char *key)
{
    int64_t v = -999;
    hid_t a = H5Aopen_by_name(file, obj.c_str(), key, H5P_DEFAULT, H5P_DEFAULT);
    EXPECT_GE(a, 0) << obj << "@" << key;
    if (a >= 0) {
        H5Aread(a, H5T_NATIVE_INT64, &v);
        H5Aclose(a);
    }
    return v;
}

// Names of the dimension scales attached to each axis of a variable.
std::vector<std::string> DimNames(hid_t file, const std::string &name)
{
    std::vector<std::string> out;
    hid_t d = H5Dopen2(file, name.c_str(), H5P_DEFAULT);
    for (size_t i = 0; i < Shape(file, name).size(); i++) {
        int n = H5DSget_num_scales(d, (unsigned)i);
        if (n != 1) {   // a dimension scale itself, or a broken attachment
            out.push_back(std::to_string(n) + " scales");
            continue;
        }
        hid_t scale = -1;
        H5DSiterate_scales(d, (unsigned)i, nullptr,
                           [](hid_t, unsigned, hid_t s, void *p) -> herr_t {
                               *(hid_t *)p = H5Dopen2(s, ".", H5P_DEFAULT);
                               return 1;
                           },
                           &scale);
        char buf[256] = "";
        H5Iget_name(scale, buf, sizeof buf);
        out.push_back(buf);
        H5Dclose(scale);
    }
    H5Dclose(d);
    return out;
}

bool SameBits(const std::vector<double> &a, const std::vector<double> &b)
{
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

TEST_F(OutputCube, SmallSweepGivesSmallFileAndShortChunks)
{
    std::string path = Run("two", "name: two\nmodels: [ttl, lru_band, lru, residency, che]\n"
                                  "fixed: {N: 8192, M: 192, pattern: uniform}\naxes:\n  C: [1024, 2048]\n");
    struct stat st;
    ASSERT_EQ(stat(path.c_str(), &st), 0);
    EXPECT_LT(st.st_size, 40 * 1024) << "a 2-point sweep took " << st.st_size << " bytes";
    H5File f(path);
    for (const char *col : {"/results/K_lru", "/points/C", "/points/N"}) {
        hid_t d = H5Dopen2(f.id, col, H5P_DEFAULT), p = H5Dget_create_plist(d);
        hsize_t chunk[1] = {0};
        ASSERT_EQ(H5Pget_chunk(p, 1, chunk), 1) << col;
        EXPECT_EQ(chunk[0], 2u) << col;
        H5Pclose(p);
        H5Dclose(d);
    }
    EXPECT_EQ(Values(f.id, "/results/K_lru").size(), 2u);
}

TEST(OutputChunks, ChunkRowsFollowTheRowCount)
{
    // requested (0: the default of 65536), expected rows (0: unknown)
    EXPECT_EQ(pascal_h5_chunk_rows(0, 0), 65536);
    EXPECT_EQ(pascal_h5_chunk_rows(0, 2), 2);
    EXPECT_EQ(pascal_h5_chunk_rows(0, 70000), 65536);
    EXPECT_EQ(pascal_h5_chunk_rows(1000, 37), 37);
    EXPECT_EQ(pascal_h5_chunk_rows(int64_t(1) << 30, 0), 1 << 20);
    EXPECT_EQ(pascal_h5_chunk_rows(-5, 1), 1);
}

// Flat column `name` of /points as labels (enum) or numbers printed as %g.
std::vector<std::string> PointText(hid_t file, const std::string &name)
{
    std::vector<std::string> out;
    hid_t d = H5Dopen2(file, ("/points/" + name).c_str(), H5P_DEFAULT), t = H5Dget_type(d);
    bool is_enum = H5Tget_class(t) == H5T_ENUM;
    for (double v : Values(file, "/points/" + name)) {
        char buf[64];
        if (is_enum) {
            int8_t code = (int8_t)v;
            H5Tenum_nameof(t, &code, buf, sizeof buf);
        } else {
            snprintf(buf, sizeof buf, "%g", v);
        }
        out.push_back(buf);
    }
    H5Tclose(t);
    H5Dclose(d);
    return out;
}

std::vector<std::string> CoordText(hid_t file, const std::string &name)
{
    hid_t d = H5Dopen2(file, name.c_str(), H5P_DEFAULT), t = H5Dget_type(d);
    bool str = H5Tget_class(t) == H5T_STRING;
    H5Tclose(t);
    H5Dclose(d);
    if (str)
        return Strings(file, name);
    std::vector<std::string> out;
    for (double v : Values(file, name)) {
        char buf[64];
        snprintf(buf, sizeof buf, "%g", v);
        out.push_back(buf);
    }
    return out;
}

TEST_F(OutputCube, CartesianSweepIsALabelledCubeOverTheFlatColumns)
{
    std::string path = Run("cart", kCartesian);
    H5File f(path);
    ASSERT_GE(f.id, 0);
    EXPECT_EQ(Attr(f.id, "/cube", "layout"), "cube");
    // Canonical order: axes as listed, the capacity-like C innermost.
    const std::vector<std::string> dims = {"pattern", "seed", "C"};
    const std::vector<std::vector<std::string>> coords = {
        {"aligned", "uniform", "clusters"}, {"3", "1"}, {"256", "512", "1024", "2048"}};
    for (size_t k = 0; k < dims.size(); k++) {
        std::string c = "/cube/" + dims[k];
        EXPECT_EQ(Attr(f.id, c, "CLASS"), "DIMENSION_SCALE") << c;
        EXPECT_EQ(Attr(f.id, c, "NAME"), dims[k]);
        EXPECT_EQ(IntAttr(f.id, c, "_Netcdf4Dimid"), (int64_t)k);
        EXPECT_EQ(CoordText(f.id, c), coords[k]) << c;
    }
    EXPECT_EQ(Attr(f.id, "/cube/pattern", "_Encoding"), "<none>") << "str already, not bytes";
    bool vlen = false;
    Strings(f.id, "/cube/pattern", &vlen);
    EXPECT_TRUE(vlen) << "netCDF-C 4.9.0 reads only variable-length string arrays";
    EXPECT_EQ(Attr(f.id, "/cube/C", "units"), "blocks");
    EXPECT_EQ(Attr(f.id, "/cube/rho_ttl", "units"), "misses/request");
    EXPECT_EQ(Attr(f.id, "/cube/theta", "units"), "rounds");
    EXPECT_EQ(Attr(f.id, "/cube/rho_ttl", "coordinates"), "M N");
    for (const char *v : {"/cube/rho_ttl", "/cube/K_che", "/cube/M"}) {
        EXPECT_EQ(Shape(f.id, v), (std::vector<hsize_t>{3, 2, 4})) << v;
        EXPECT_EQ(DimNames(f.id, v),
                  (std::vector<std::string>{"/cube/pattern", "/cube/seed", "/cube/C"})) << v;
    }
    EXPECT_TRUE(SameBits(Values(f.id, "/cube/rho_ttl"), Values(f.id, "/results/rho_ttl")));
    EXPECT_TRUE(SameBits(Values(f.id, "/cube/M"), Values(f.id, "/points/M")));
    // Row r is cube element (i, j, k) with r = (i * 2 + j) * 4 + k.
    std::vector<std::vector<std::string>> flat;
    for (const std::string &d : dims)
        flat.push_back(PointText(f.id, d));
    ASSERT_EQ(flat[0].size(), 24u);
    for (size_t r = 0; r < 24; r++) {
        size_t idx[3] = {r / 8, r / 4 % 2, r % 4};
        for (size_t k = 0; k < 3; k++)
            EXPECT_EQ(flat[k][r], coords[k][idx[k]]) << "row " << r << " " << dims[k];
    }
}

TEST_F(OutputCube, ZipGroupSharesADimensionAndWhereGivesPoints)
{
    std::string zip = Run("zip", kZip);
    H5File z(zip);
    EXPECT_EQ(Attr(z.id, "/cube", "layout"), "cube");
    EXPECT_EQ(DimNames(z.id, "/cube/rho_ttl"),
              (std::vector<std::string>{"/cube/pattern", "/cube/block_bytes", "/cube/seed"}));
    EXPECT_EQ(DimNames(z.id, "/cube/capacity_bytes"), std::vector<std::string>{"/cube/block_bytes"});
    EXPECT_EQ(Attr(z.id, "/cube/capacity_bytes", "CLASS"), "<none>");
    EXPECT_EQ(CoordText(z.id, "/cube/capacity_bytes"),
              (std::vector<std::string>{"4.1943e+06", "4.1943e+06", "8.38861e+06"}));
    EXPECT_EQ(Attr(z.id, "/cube/rho_ttl", "coordinates"), "capacity_bytes C M N");
    // C = capacity_bytes / block_bytes: 1024, 512, 512 along block_bytes.
    std::vector<double> c = Values(z.id, "/cube/C");
    ASSERT_EQ(c.size(), 12u);
    const double want[3] = {1024, 512, 512};
    for (size_t r = 0; r < 12; r++)
        EXPECT_EQ(c[r], want[r / 2 % 3]) << r;

    std::string where = Run("where", kWhere);
    H5File w(where);
    EXPECT_EQ(Attr(w.id, "/cube", "layout"), "points");
    EXPECT_EQ(Attr(w.id, "/cube/point", "NAME"),
              "This is a netCDF dimension but not a netCDF variable.         7");
    EXPECT_EQ(Shape(w.id, "/cube/rho_ttl"), std::vector<hsize_t>{7});
    EXPECT_EQ(DimNames(w.id, "/cube/pattern"), std::vector<std::string>{"/cube/point"});
    // Labels along `point` keep their codes, in the enum type committed as
    // /cube/pattern_t, with CF's flag_meanings: aligned 0, clusters 1, uniform 3.
    EXPECT_TRUE(SameBits(Values(w.id, "/cube/pattern"), {0, 1, 1, 1, 3, 3, 3}));
    EXPECT_EQ(Attr(w.id, "/cube/pattern", "flag_meanings"),
              "aligned clusters equal uniform gaussian lag explicit");
    {
        hid_t d = H5Dopen2(w.id, "/cube/pattern", H5P_DEFAULT), t = H5Dget_type(d);
        EXPECT_EQ(H5Tget_class(t), H5T_ENUM);
        EXPECT_GT(H5Tcommitted(t), 0) << "netCDF-4 reads committed enum types";
        H5Tclose(t);
        H5Dclose(d);
    }
    EXPECT_EQ(Attr(w.id, "/cube/rho_ttl", "coordinates"), "C M N pattern");
    EXPECT_TRUE(SameBits(Values(w.id, "/cube/C"), Values(w.id, "/points/C")));
    EXPECT_TRUE(SameBits(Values(w.id, "/cube/rho_ttl"), Values(w.id, "/results/rho_ttl")));
}

// Names of the members of /cube.
std::vector<std::string> Members(hid_t file)
{
    std::vector<std::string> out;
    H5Literate_by_name(file, "/cube", H5_INDEX_NAME, H5_ITER_INC, nullptr,
                       [](hid_t, const char *name, const H5L_info_t *, void *p) -> herr_t {
                           ((std::vector<std::string> *)p)->push_back(name);
                           return 0;
                       },
                       &out, H5P_DEFAULT);
    return out;
}

// The /cube of `got` is that of `want`: members, shapes, dimensions,
// attributes and every value (labels as strings).
void ExpectSameCube(const std::string &want, const std::string &got, size_t min_members)
{
    H5File a(want), b(got);
    EXPECT_EQ(Attr(b.id, "/cube", "layout"), Attr(a.id, "/cube", "layout"));
    std::vector<std::string> names = Members(a.id);
    EXPECT_EQ(Members(b.id), names);
    EXPECT_GE(names.size(), min_members);
    for (const std::string &n : names) {
        std::string v = "/cube/" + n;
        EXPECT_EQ(Shape(b.id, v), Shape(a.id, v)) << v;
        EXPECT_EQ(DimNames(b.id, v), DimNames(a.id, v)) << v;
        for (const char *key : {"units", "long_name", "coordinates", "_Encoding"})
            EXPECT_EQ(Attr(b.id, v, key), Attr(a.id, v, key)) << v << "@" << key;
        if (n == "pattern")
            EXPECT_EQ(Strings(b.id, v), Strings(a.id, v));
        else
            EXPECT_TRUE(SameBits(Values(b.id, v), Values(a.id, v))) << v;
    }
}

TEST_F(OutputCube, MergedShardsHaveTheSingleRunsCube)
{
    std::string full = Run("full", kCartesian), merged = dir + "/merged.h5", args;
    for (int k = 1; k <= 3; k++)
        args += " " + Run("s" + std::to_string(k), kCartesian, "--shard " + std::to_string(k) + "/3");
    {
        H5File s1(dir + "/s1.h5");
        EXPECT_EQ(Attr(s1.id, "/cube", "layout"), "points") << "a shard is a slice of the rows";
    }
    pascal_test::CliResult r = run("merge -o " + merged + args);
    ASSERT_EQ(r.status, 0) << r.err;
    {
        H5File b(merged);
        EXPECT_EQ(Attr(b.id, "/cube", "layout"), "cube");
    }
    ExpectSameCube(full, merged, 10);
}

// 150 000 points: three batches of the CLI (65536 points each), chunks of
// 4096 rows, so that a run can be killed with whole chunks written.  The
// zip group makes the cube's shape depend on the axes' recorded dimensions.
const char *kLarge = "name: large\nmodels: [ttl, che]\nfixed: {N: 2048}\nzip:\n  - [seed, M]\n"
                     "axes:\n  pattern: [aligned, uniform]\n  seed: {from: 1, to: 300, step: 1}\n"
                     "  M: {from: 64, to: 363, step: 1}\n  C: {from: 1, to: 2000, num: 250}\n"
                     "output: {chunk_rows: 4096}\n";

// A run killed outright (SIGKILL) and recovered from its journal by --resume
// ends with the uninterrupted run's /cube; so do shards, one of them killed
// and recovered, once merged (the merge checks the shards' input digests).
TEST_F(OutputCube, RecoveredAfterAKillTheUninterruptedRunsCube)
{
    std::string full = Run("full", kLarge), spec = dir + "/large.yaml", out = dir + "/killed.h5";
    auto kill_after = [&](int batch, const std::string &to, const std::string &extra) {
        pascal_test::CliResult r = pascal_test::run_command(
            dir, "PASCAL_TEST_KILL_AFTER_BATCH=" + std::to_string(batch) + " " PASCAL_CLI_HOOKED
                 " run " + spec + " -o " + to + " --quiet " + extra);
        ASSERT_EQ(r.status, 137) << "expected a SIGKILL: " << r.err;
        struct stat st;
        EXPECT_EQ(stat((to + ".journal").c_str(), &st), 0);
        EXPECT_NE(stat(to.c_str(), &st), 0);
    };
    write("large.yaml", kLarge);
    kill_after(1, out, "");
    pascal_test::CliResult r = run("run " + spec + " -o " + out + " --resume --quiet");
    ASSERT_EQ(r.status, 0) << r.err;
    // The kill after batch 1 leaves two whole batches of whole chunks.
    EXPECT_NE(r.out.find("recovered: 131072 rows"), std::string::npos) << r.out;
    {
        H5File b(out);
        EXPECT_EQ(IntAttr(b.id, "/", "format_version"), 2);
        EXPECT_EQ(Attr(b.id, "/cube", "layout"), "cube");
        EXPECT_EQ(Shape(b.id, "/cube/rho_ttl"), (std::vector<hsize_t>{2, 300, 250}));
        EXPECT_EQ(DimNames(b.id, "/cube/M"), std::vector<std::string>{"/cube/seed"});
    }
    ExpectSameCube(full, out, 6);

    std::string s1 = dir + "/s1.h5", s2 = dir + "/s2.h5", merged = dir + "/merged.h5";
    kill_after(0, s1, "--shard 1/2");   // 75 000 rows: killed after its first batch
    r = run("run " + spec + " -o " + s1 + " --shard 1/2 --resume --quiet");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("recovered: 65536 rows"), std::string::npos) << r.out;
    ASSERT_EQ(run("run " + spec + " -o " + s2 + " --shard 2/2 --quiet").status, 0);
    r = run("merge -o " + merged + " " + s1 + " " + s2);
    ASSERT_EQ(r.status, 0) << r.err;
    ExpectSameCube(full, merged, 6);
}

// Debian's /usr/bin/python3 (python3-pandas, python3-xarray, python3-h5netcdf,
// installed by scripts/setup.sh) reads the files as docs/hdf5.md shows.
TEST_F(OutputCube, PandasAndXarrayReadTheSweep)
{
    if (std::system("/usr/bin/python3 -c 'import h5py, pandas, xarray, h5netcdf' >/dev/null 2>&1") != 0)
        GTEST_SKIP() << "/usr/bin/python3 lacks h5py, pandas, xarray or h5netcdf (scripts/setup.sh)";
    std::string a = Run("cart", kCartesian), b = Run("zip", kZip), c = Run("where", kWhere);
    pascal_test::CliResult r = pascal_test::run_command(
        dir, "/usr/bin/python3 " + std::string(PASCAL_SOURCE_DIR) + "/tests/python/check_read.py " +
                 a + " " + b + " " + c);
    EXPECT_EQ(r.status, 0) << r.out << r.err;
    EXPECT_EQ(r.out, "ok\n");
}

// netCDF's and HDF5's own dump tools accept the file (when installed).
TEST_F(OutputCube, NcdumpAndH5dumpAcceptTheFile)
{
    std::string a = Run("cart", kCartesian), c = Run("where", kWhere);
    if (std::system("command -v ncdump >/dev/null 2>&1") != 0)
        GTEST_SKIP() << "ncdump not installed (netcdf-bin)";
    pascal_test::CliResult r = pascal_test::run_command(dir, "ncdump -h " + a);
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("double rho_ttl(pattern, seed, C) ;"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("string pattern(pattern) ;"), std::string::npos) << r.out;
    r = pascal_test::run_command(dir, "ncdump -h " + c);
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("point = 7 ;"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("double rho_ttl(point) ;"), std::string::npos) << r.out;
    r = pascal_test::run_command(dir, "ncdump -v C " + a);
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("C = 256, 512, 1024, 2048 ;"), std::string::npos) << r.out;
    // Every value, labels included (netCDF-C 4.9.0 aborts on arrays of
    // fixed-length strings, so there must be none).
    for (const std::string &f : {a, c}) {
        r = pascal_test::run_command(dir, "ncdump " + f);
        EXPECT_EQ(r.status, 0) << f << ": " << r.err;
    }
    EXPECT_NE(r.out.find("rho_ttl = 0.015625, 0.0625,"), std::string::npos) << r.out;
    if (std::system("command -v h5dump >/dev/null 2>&1") == 0) {
        r = pascal_test::run_command(dir, "h5dump -H " + a);
        EXPECT_EQ(r.status, 0) << r.err;
        EXPECT_NE(r.out.find("GROUP \"cube\""), std::string::npos);
    }
}

// Turns a file into one as written before format version 2: no /cube, no
// /axes/<name>@dim or @order, format_version 1.
void MakeVersion1(const std::string &path)
{
    hid_t f = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
    ASSERT_GE(f, 0);
    if (H5Lexists(f, "cube", H5P_DEFAULT) > 0)
        H5Ldelete(f, "cube", H5P_DEFAULT);
    std::vector<std::string> axes;
    H5Literate_by_name(f, "/axes", H5_INDEX_NAME, H5_ITER_INC, nullptr,
                       [](hid_t, const char *name, const H5L_info_t *, void *p) -> herr_t {
                           ((std::vector<std::string> *)p)->push_back(name);
                           return 0;
                       },
                       &axes, H5P_DEFAULT);
    for (const std::string &a : axes)
        for (const char *key : {"dim", "order"})
            if (H5Aexists_by_name(f, ("/axes/" + a).c_str(), key, H5P_DEFAULT) > 0)
                H5Adelete_by_name(f, ("/axes/" + a).c_str(), key, H5P_DEFAULT);
    int64_t one = 1;
    hid_t at = H5Aopen(f, "format_version", H5P_DEFAULT);
    H5Awrite(at, H5T_NATIVE_INT64, &one);
    H5Aclose(at);
    H5Fclose(f);
}

TEST_F(OutputCube, FilesOfFormatVersion1StillMergeReportAndDescribe)
{
    std::string full = Run("full", kCartesian), merged = dir + "/merged.h5", args;
    for (int k = 1; k <= 2; k++) {
        std::string s = Run("s" + std::to_string(k), kCartesian, "--shard " + std::to_string(k) + "/2");
        MakeVersion1(s);
        args += " " + s;
    }
    pascal_test::CliResult r = run("merge -o " + merged + args);
    ASSERT_EQ(r.status, 0) << r.err;
    {
        H5File a(full), b(merged);
        EXPECT_EQ(H5Lexists(b.id, "cube", H5P_DEFAULT), 0) << "no dimensions recorded: no view";
        for (const char *col : {"/results/rho_ttl", "/points/pattern", "/points/C"})
            EXPECT_TRUE(SameBits(Values(b.id, col), Values(a.id, col))) << col;
    }
    r = run("info " + merged);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("view           none (written before format version 2)"), std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("C                4 values 256 .. 2048 blocks"), std::string::npos) << r.out;
    if (pascal_report_has_plot_library()) {
        r = run("report " + merged + " -o " + dir + "/m.html");
        EXPECT_EQ(r.status, 0) << r.err;
        EXPECT_NE(r.out.find("from 24 points"), std::string::npos) << r.out;
    }
}

// Removes the input digests, as in a file written before pascal recorded them.
void DropDigests(const std::string &path)
{
    hid_t f = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
    ASSERT_GE(f, 0) << path;
    for (const char *key : {"sha256_spec", "sha256_device", "sha256_calibration", "sha256_columns"})
        if (H5Aexists(f, key) > 0)
            H5Adelete(f, key);
    H5Fclose(f);
}

// A merge takes shard 1's format version (version 1: no /cube); shards
// with and without input digests are not merged, and a stopped run without
// them is not resumed (docs/hdf5.md, docs/reliability.md).
TEST_F(OutputCube, MixedVersionsTakeShardOnesAndFilesWithoutDigestsAreRefused)
{
    std::string full = Run("full", kCartesian), v1[3], v2[3];
    for (int k = 1; k <= 2; k++) {
        v2[k] = Run("s" + std::to_string(k), kCartesian, "--shard " + std::to_string(k) + "/2");
        v1[k] = dir + "/old" + std::to_string(k) + ".h5";
        ASSERT_EQ(std::system(("cp " + v2[k] + " " + v1[k]).c_str()), 0);
        MakeVersion1(v1[k]);
    }
    std::string m12 = dir + "/m12.h5", m21 = dir + "/m21.h5", m = dir + "/m.h5";
    ASSERT_EQ(run("merge -o " + m12 + " " + v2[1] + " " + v1[2]).status, 0);
    ASSERT_EQ(run("merge -o " + m21 + " " + v1[1] + " " + v2[2]).status, 0);
    ExpectSameCube(full, m12, 10);
    {
        H5File a(full), b(m12), c(m21);
        EXPECT_EQ(IntAttr(b.id, "/", "format_version"), 2);
        EXPECT_EQ(IntAttr(c.id, "/", "format_version"), 1);
        EXPECT_EQ(H5Lexists(c.id, "cube", H5P_DEFAULT), 0);
        for (const char *col : {"/results/rho_ttl", "/points/pattern", "/points/C"})
            EXPECT_TRUE(SameBits(Values(c.id, col), Values(a.id, col))) << col;
    }
    DropDigests(v1[2]);
    pascal_test::CliResult r = run("merge -o " + m + " " + v2[1] + " " + v1[2]);
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find(v1[2] + ": expected a shard that records the digests of its inputs, as " +
                         v2[1] + " does, got one written before pascal recorded them"),
              std::string::npos) << r.err;
    struct stat st;
    EXPECT_NE(stat(m.c_str(), &st), 0);
    DropDigests(v1[1]);
    r = run("merge -o " + m + " " + v1[1] + " " + v1[2]);
    ASSERT_EQ(r.status, 0) << "shards that all lack digests still merge: " << r.err;

    std::string text = std::string(kCartesian) + "output: {chunk_rows: 4}\n", out = dir + "/p.h5";
    pascal_spec *spec = nullptr;
    pascal_error err{};
    ASSERT_EQ(pascal_spec_parse(text.c_str(), text.size(), "p.yaml", &spec, &err), 0) << err.msg;
    pascal_run_opts o{};
    pascal_run_stats stats{};
    o.out_path = out.c_str();
    o.threads = 1;
    o.batch_points = 8;
    o.compression = -1;
    o.should_stop = [](void *) { return 1; };
    ASSERT_EQ(pascal_run(spec, &o, &stats, &err), PASCAL_EINTR) << err.msg;
    DropDigests(out + ".partial");
    o.should_stop = nullptr;
    o.resume = 1;
    err = pascal_error{};
    EXPECT_EQ(pascal_run(spec, &o, &stats, &err), PASCAL_EINPUT);
    EXPECT_NE(std::string(err.msg).find(out + ".partial: expected a stopped run that records the "
                                        "digests of its inputs"), std::string::npos) << err.msg;
    EXPECT_EQ(stat((out + ".partial").c_str(), &st), 0) << "the stopped run's rows are kept";
    pascal_spec_free(spec);
}

// A run stopped by Ctrl-C and resumed gets the view of an uninterrupted run.
TEST_F(OutputCube, ResumedRunHasTheUninterruptedRunsCube)
{
    std::string text = std::string(kCartesian) + "output: {chunk_rows: 4}\n";
    std::string full = Run("full", text), out = dir + "/resumed.h5";
    pascal_spec *spec = nullptr;
    pascal_error err{};
    ASSERT_EQ(pascal_spec_parse(text.c_str(), text.size(), "r.yaml", &spec, &err), 0) << err.msg;
    pascal_run_opts o{};
    pascal_run_stats st{};
    o.out_path = out.c_str();
    o.threads = 1;
    o.batch_points = 8;
    o.compression = -1;
    o.should_stop = [](void *) { return 1; };
    ASSERT_EQ(pascal_run(spec, &o, &st, &err), PASCAL_EINTR) << err.msg;
    {
        H5File p(out + ".partial");
        EXPECT_EQ(H5Lexists(p.id, "cube", H5P_DEFAULT), 0) << "the view comes with the last row";
    }
    o.should_stop = nullptr;
    o.resume = 1;
    ASSERT_EQ(pascal_run(spec, &o, &st, &err), 0) << err.msg;
    pascal_spec_free(spec);
    H5File a(full), b(out);
    std::vector<std::string> names = Members(a.id);
    EXPECT_EQ(Members(b.id), names);
    for (const std::string &n : names) {
        std::string v = "/cube/" + n;
        EXPECT_EQ(DimNames(b.id, v), DimNames(a.id, v)) << v;
        if (n != "pattern")
            EXPECT_TRUE(SameBits(Values(b.id, v), Values(a.id, v))) << v;
    }
}

// A table with a column called `point` (the spot-check tables have one)
// names its row dimension `row` instead.
TEST_F(OutputCube, ColumnCalledPointRenamesTheDimension)
{
    pascal_column_desc pc[] = {{"point", "", "sweep point", PASCAL_COLTYPE_I64, nullptr, 0}};
    pascal_column_desc rc[] = {{"K", "fills", "measured", PASCAL_COLTYPE_F64, nullptr, 0}};
    pascal_sink_meta meta{};
    std::string path = dir + "/t.h5";
    meta.format = PASCAL_SINK_HDF5;
    meta.path = path.c_str();
    meta.spec_text = "";
    pascal_sink *sink = nullptr;
    pascal_error err{};
    ASSERT_EQ(pascal_sink_open(&meta, pc, 1, rc, 1, &sink, &err), 0) << err.msg;
    int64_t pts[3] = {4, 9, 2};
    double k[3] = {1.5, 2.25, 0.125};
    const void *p[] = {pts};
    const double *r[] = {k};
    ASSERT_EQ(pascal_sink_append(sink, 3, p, r, &err), 0) << err.msg;
    ASSERT_EQ(pascal_sink_finish(sink, &err), 0) << err.msg;
    H5File f(path);
    EXPECT_EQ(Attr(f.id, "/cube", "layout"), "points");
    EXPECT_EQ(DimNames(f.id, "/cube/K"), std::vector<std::string>{"/cube/row"});
    EXPECT_EQ(DimNames(f.id, "/cube/point"), std::vector<std::string>{"/cube/row"});
    EXPECT_TRUE(SameBits(Values(f.id, "/cube/point"), {4, 9, 2}));
    EXPECT_TRUE(SameBits(Values(f.id, "/cube/K"), {1.5, 2.25, 0.125}));
}

// Filters of a column: (shuffle, deflate level or -1).
std::pair<bool, int> Filters(const std::string &path, const char *col)
{
    H5File f(path);
    hid_t d = H5Dopen2(f.id, col, H5P_DEFAULT), p = H5Dget_create_plist(d);
    bool shuffle = false;
    int level = -1;
    for (int i = 0; i < H5Pget_nfilters(p); i++) {
        unsigned flags, cd[4] = {0};
        size_t ncd = 4;
        H5Z_filter_t id = H5Pget_filter2(p, (unsigned)i, &flags, &ncd, cd, 0, nullptr, nullptr);
        if (id == H5Z_FILTER_SHUFFLE)
            shuffle = true;
        if (id == H5Z_FILTER_DEFLATE)
            level = (int)cd[0];
    }
    H5Pclose(p);
    H5Dclose(d);
    return {shuffle, level};
}

TEST_F(OutputCube, CompressedByDefaultAndOffWithCompressionZero)
{
    std::string on = Run("on", kCartesian), off = Run("off", kCartesian, "--compression 0"),
                spec = Run("spec", std::string(kCartesian) + "output: {compression: none}\n");
    EXPECT_EQ(Filters(on, "/results/rho_ttl"), std::make_pair(true, 1));
    EXPECT_EQ(Filters(on, "/points/pattern"), std::make_pair(true, 1));
    EXPECT_EQ(Filters(off, "/results/rho_ttl"), std::make_pair(false, -1));
    EXPECT_EQ(Filters(spec, "/results/rho_ttl"), std::make_pair(false, -1));
    H5File a(on), b(off);
    EXPECT_TRUE(SameBits(Values(a.id, "/results/rho_ttl"), Values(b.id, "/results/rho_ttl")));
}

} // namespace
