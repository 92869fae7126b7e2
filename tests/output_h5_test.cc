// Tests of the HDF5 sink (output/sink.h): a round trip checked bit for bit,
// the file layout and attributes read with the HDF5 API directly, the
// temporary-file protocol (unwritable destinations, abort, failed runs leave
// an existing file byte-identical), the readers' errors, and a cross-check
// that h5py reads the file without this project.
#include <gtest/gtest.h>

#include <hdf5.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <regex>
#include <string>
#include <vector>

#include "output/sink.h"
extern "C" {
#include "output/journal.h"
}
#include "test_util.h"
#include "pascal/version.h"

namespace fs = std::filesystem;

namespace {

const char *const kLabels[] = {"sequential", "random", "zipf"};

// Multi-line, quotes, non-ASCII, and long enough (~40 KiB) to rule out the
// 64 KiB object-header limit being hit by accident of size.
std::string SpecText()
{
    std::string s = "# sweep \"h100\" — ünïcödé π≈3.14159 ✓\naxes:\n  capacity: [\"20MiB\", '40MiB']\n";
    for (int i = 0; i < 1200; i++)
        s += "  # line " + std::to_string(i) + ": \"quoted\" \\ back\tslash\n";
    return s;
}

using pascal_test::slurp;
const auto Listing = pascal_test::list_dir;


bool SameBits(double a, double b)
{
    return std::memcmp(&a, &b, sizeof a) == 0;
}

// The table written by the round-trip tests: high-entropy doubles (random
// bit patterns, subnormals, negatives), full-range int64, enum codes, NaNs.
struct Table {
    std::vector<double> capacity, misses, rate, bound;
    std::vector<int64_t> phases, pattern;
    explicit Table(int64_t n, uint64_t seed)
    {
        std::mt19937_64 rng(seed);
        for (int64_t i = 0; i < n; i++) {
            uint64_t bits = rng();
            double d;
            std::memcpy(&d, &bits, sizeof d);
            if (std::isnan(d) || std::isinf(d))
                d = 2.385 * (double)i;
            capacity.push_back(d);
            phases.push_back((int64_t)rng());
            pattern.push_back((int64_t)(rng() % 3));
            misses.push_back(i % 7 == 3 ? NAN : (double)(rng() >> 11) * 0x1p-53);
            rate.push_back(i % 11 == 0 ? NAN : -1e-310 * (double)(i + 1));
            bound.push_back(std::ldexp((double)(rng() >> 11), (int)(rng() % 200) - 100));
        }
    }
};

struct Writer {
    pascal_sink_meta meta{};
    std::vector<pascal_column_desc> points, results;
    std::vector<pascal_axis_desc> axes;
    std::vector<pascal_attr> attrs;
    std::string spec = SpecText();
    std::vector<double> axis_capacity{1048576.0, 2.5e7, 3.75e9}, axis_pattern{0, 1, 2};
    std::vector<int64_t> phase0{3, 1, 4, 1, 5}, phase1{9, 2, 6};
    const int64_t *phase_ptrs[2] = {phase0.data(), phase1.data()};
    int64_t phase_lens[2] = {5, 3};

    explicit Writer(int compression = 0, int shuffle = 0, int64_t chunk = 1000)
    {
        points = {{"capacity", "bytes", "cache capacity", PASCAL_COLTYPE_F64, nullptr, 0},
                  {"phases", "", "phase count", PASCAL_COLTYPE_I64, nullptr, 0},
                  {"pattern", "", "access pattern", PASCAL_COLTYPE_ENUM, kLabels, 3}};
        results = {{"misses", "1", "miss ratio", PASCAL_COLTYPE_F64, nullptr, 0},
                   {"rate", "misses/s", "miss rate, \"signed\"", PASCAL_COLTYPE_F64, nullptr, 0},
                   {"bound", "µs", "Theorem 4 bound", PASCAL_COLTYPE_F64, nullptr, 0}};
        axes = {{"capacity", PASCAL_COLTYPE_F64, "bytes", nullptr, 0, 3, axis_capacity.data()},
                {"pattern", PASCAL_COLTYPE_ENUM, "", kLabels, 3, 3, axis_pattern.data()}};
        attrs = {{"git_commit", "0123abc"}, {"host", "gpu-node-7"}};
        meta.format = PASCAL_SINK_HDF5;
        meta.path = nullptr;
        meta.compression = compression;
        meta.shuffle = shuffle;
        meta.chunk_rows = chunk;
        meta.spec_text = spec.c_str();
        meta.spec_path = "configs/h100.yaml";
        meta.command_line = "pascal run configs/h100.yaml -o out.h5";
        meta.threads = 8;
        meta.attrs = attrs.data();
        meta.nattrs = (int)attrs.size();
        meta.axes = axes.data();
        meta.naxes = (int)axes.size();
        meta.nphase_lists = 2;
        meta.phase_lists = phase_ptrs;
        meta.phase_list_lens = phase_lens;
    }

    int Open(const std::string &path, pascal_sink **sink, pascal_error *err)
    {
        meta.path = path.c_str();
        return pascal_sink_open(&meta, points.data(), (int)points.size(), results.data(),
                                (int)results.size(), sink, err);
    }
};

int AppendRows(pascal_sink *sink, const Table &t, int64_t from, int64_t n, pascal_error *err)
{
    const void *pts[3] = {t.capacity.data() + from, t.phases.data() + from,
                          t.pattern.data() + from};
    const double *res[3] = {t.misses.data() + from, t.rate.data() + from, t.bound.data() + from};
    return pascal_sink_append(sink, n, pts, res, err);
}

// Writes t in the given batch sizes and finishes.
void WriteFile(Writer &w, const std::string &path, const Table &t,
               const std::vector<int64_t> &batches)
{
    pascal_sink *sink = nullptr;
    pascal_error err{};
    ASSERT_EQ(w.Open(path, &sink, &err), 0) << err.msg;
    int64_t at = 0;
    for (int64_t n : batches) {
        ASSERT_EQ(AppendRows(sink, t, at, n, &err), 0) << err.msg;
        at += n;
    }
    ASSERT_EQ(pascal_sink_finish(sink, &err), 0) << err.msg;
}

std::string ReadAttr(const std::string &path, const char *key)
{
    char *v = nullptr;
    pascal_error err{};
    EXPECT_EQ(pascal_h5_read_attr_alloc(path.c_str(), key, &v, &err), 0) << err.msg;
    std::string s = v ? v : "";
    std::free(v);
    return s;
}

// A string attribute of an object, read with the HDF5 API.
std::string ObjAttr(hid_t file, const char *obj, const char *key)
{
    hid_t attr = H5Aopen_by_name(file, obj, key, H5P_DEFAULT, H5P_DEFAULT);
    EXPECT_GE(attr, 0) << obj << " @" << key;
    hid_t ftype = H5Aget_type(attr);
    EXPECT_EQ(H5Tget_class(ftype), H5T_STRING);
    EXPECT_GT(H5Tis_variable_str(ftype), 0);
    EXPECT_EQ(H5Tget_cset(ftype), H5T_CSET_UTF8);
    hid_t mtype = H5Tcopy(H5T_C_S1);
    H5Tset_size(mtype, H5T_VARIABLE);
    H5Tset_cset(mtype, H5T_CSET_UTF8);
    char *s = nullptr;
    EXPECT_GE(H5Aread(attr, mtype, &s), 0);
    std::string out = s ? s : "<null>";
    H5free_memory(s);
    H5Tclose(mtype);
    H5Tclose(ftype);
    H5Aclose(attr);
    return out;
}

void ExpectEnumLabels(hid_t file, const char *dset_name, const char *const *labels, int n,
                      size_t base_size)
{
    hid_t d = H5Dopen2(file, dset_name, H5P_DEFAULT);
    ASSERT_GE(d, 0) << dset_name;
    hid_t t = H5Dget_type(d);
    ASSERT_EQ(H5Tget_class(t), H5T_ENUM) << dset_name;
    ASSERT_EQ(H5Tget_nmembers(t), n);
    hid_t super = H5Tget_super(t);
    EXPECT_EQ(H5Tget_size(super), base_size);
    for (int i = 0; i < n; i++) {
        char *name = H5Tget_member_name(t, (unsigned)i);
        EXPECT_STREQ(name, labels[i]);
        H5free_memory(name);
        int64_t value = -1;
        ASSERT_GE(H5Tget_member_value(t, (unsigned)i, &value), 0);
        if (base_size == 1)
            EXPECT_EQ(((int8_t *)&value)[0], i);
        else
            EXPECT_EQ(((int16_t *)&value)[0], i);
    }
    H5Tclose(super);
    H5Tclose(t);
    H5Dclose(d);
}

// Open HDF5 files, groups, datasets and attributes (transient types,
// spaces and property lists cannot be counted through the public API); a
// leak shows as a count that grew across a test.
ssize_t OpenIds()
{
    return H5Fget_obj_count(H5F_OBJ_ALL, H5F_OBJ_ALL);
}

class OutputH5 : public pascal_test::TempDirTest {
protected:
    ssize_t ids_before = 0;
    void SetUp() override
    {
        ASSERT_NO_FATAL_FAILURE(TempDirTest::SetUp());
        H5open();
        ids_before = OpenIds();
    }
    void TearDown() override
    {
        EXPECT_EQ(OpenIds(), ids_before) << "HDF5 identifiers left open";
        TempDirTest::TearDown();
    }
};

void ExpectColumn(const std::string &path, const char *group, const char *name,
                  const std::vector<double> &want)
{
    double *got = nullptr;
    int64_t n = -1;
    pascal_error err{};
    ASSERT_EQ(pascal_h5_read_column(path.c_str(), group, name, &got, &n, &err), 0) << err.msg;
    ASSERT_EQ(n, (int64_t)want.size()) << group << "/" << name;
    for (int64_t i = 0; i < n; i++) {
        if (std::isnan(want[i]))
            ASSERT_TRUE(std::isnan(got[i])) << group << "/" << name << " row " << i;
        else
            ASSERT_TRUE(SameBits(got[i], want[i]))
                << group << "/" << name << " row " << i << ": " << got[i] << " vs " << want[i];
    }
    std::free(got);
}

template <typename T> std::vector<double> AsDoubles(const std::vector<T> &v)
{
    return std::vector<double>(v.begin(), v.end());
}

// Every column of t as written at path; the int64 phases go around double
// (values beyond 2^53) and are read with HDF5 directly.
void ExpectTable(const std::string &path, const Table &t)
{
    ExpectColumn(path, "points", "capacity", t.capacity);
    ExpectColumn(path, "points", "pattern", AsDoubles(t.pattern));
    ExpectColumn(path, "results", "misses", t.misses);
    ExpectColumn(path, "results", "rate", t.rate);
    ExpectColumn(path, "results", "bound", t.bound);
    hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    ASSERT_GE(file, 0);
    hid_t d = H5Dopen2(file, "points/phases", H5P_DEFAULT);
    hid_t ft = H5Dget_type(d);
    EXPECT_EQ(H5Tget_class(ft), H5T_INTEGER);
    EXPECT_EQ(H5Tget_size(ft), 8u);
    std::vector<int64_t> phases(t.phases.size());
    EXPECT_GE(H5Dread(d, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, phases.data()), 0);
    EXPECT_EQ(phases, t.phases);
    H5Tclose(ft);
    H5Dclose(d);
    H5Fclose(file);
}

}  // namespace

TEST_F(OutputH5, RoundTripValuesBitForBit)
{
    const std::string path = dir + "/sweep.h5";
    // 1000 rows land on a chunk boundary (written directly), 2345 straddle
    // chunks (gathered), 777 end in a partial chunk written by finish.
    Table t(4122, 20240611);
    Writer w;
    WriteFile(w, path, t, {1000, 2345, 777});
    ExpectTable(path, t);
}

TEST_F(OutputH5, RootAttributes)
{
    const std::string path = dir + "/sweep.h5";
    Table t(2500, 7);
    Writer w;
    WriteFile(w, path, t, {1200, 1200, 100});
    EXPECT_EQ(ReadAttr(path, "format"), "pascal-sweep");
    EXPECT_EQ(ReadAttr(path, "format_version"), "2");
    EXPECT_EQ(ReadAttr(path, "pascal_version"), PASCAL_VERSION_STRING);
    EXPECT_EQ(ReadAttr(path, "complete"), "1");
    EXPECT_EQ(ReadAttr(path, "points"), "2500");
    EXPECT_EQ(ReadAttr(path, "threads"), "8");
    EXPECT_EQ(ReadAttr(path, "spec"), SpecText());
    EXPECT_EQ(ReadAttr(path, "spec_path"), "configs/h100.yaml");
    EXPECT_EQ(ReadAttr(path, "command_line"), "pascal run configs/h100.yaml -o out.h5");
    EXPECT_EQ(ReadAttr(path, "git_commit"), "0123abc");
    EXPECT_EQ(ReadAttr(path, "host"), "gpu-node-7");
    EXPECT_TRUE(std::regex_match(ReadAttr(path, "created"),
                                 std::regex("[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z")));

    // The fixed-buffer reader: fits, and too small is an error, not truncation.
    char buf[32];
    pascal_error err{};
    ASSERT_EQ(pascal_h5_read_attr(path.c_str(), "format", buf, sizeof buf, &err), 0) << err.msg;
    EXPECT_STREQ(buf, "pascal-sweep");
    ASSERT_EQ(pascal_h5_read_attr(path.c_str(), "points", buf, sizeof buf, &err), 0) << err.msg;
    EXPECT_STREQ(buf, "2500");
    EXPECT_EQ(pascal_h5_read_attr(path.c_str(), "spec", buf, sizeof buf, &err), PASCAL_EINPUT);
    EXPECT_NE(std::string(err.msg).find("longer than the 31-byte buffer"), std::string::npos)
        << err.msg;
    EXPECT_EQ(pascal_h5_read_attr(path.c_str(), "format", buf, 12, &err), PASCAL_EINPUT);
}

TEST_F(OutputH5, ColumnAttributesAxesAndEnums)
{
    const std::string path = dir + "/sweep.h5";
    Table t(10, 3);
    Writer w;
    WriteFile(w, path, t, {10});
    hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    ASSERT_GE(file, 0);
    EXPECT_EQ(ObjAttr(file, "points/capacity", "units"), "bytes");
    EXPECT_EQ(ObjAttr(file, "points/capacity", "description"), "cache capacity");
    EXPECT_EQ(ObjAttr(file, "points/phases", "units"), "");
    EXPECT_EQ(ObjAttr(file, "points/pattern", "description"), "access pattern");
    EXPECT_EQ(ObjAttr(file, "results/misses", "units"), "1");
    EXPECT_EQ(ObjAttr(file, "results/rate", "description"), "miss rate, \"signed\"");
    EXPECT_EQ(ObjAttr(file, "results/bound", "units"), "µs");
    EXPECT_EQ(ObjAttr(file, "results/bound", "description"), "Theorem 4 bound");
    EXPECT_EQ(ObjAttr(file, "axes/capacity", "units"), "bytes");
    ExpectEnumLabels(file, "points/pattern", kLabels, 3, 1);
    ExpectEnumLabels(file, "axes/pattern", kLabels, 3, 1);
    H5Fclose(file);

    ExpectColumn(path, "axes", "capacity", w.axis_capacity);
    ExpectColumn(path, "axes", "pattern", w.axis_pattern);
    double *v = nullptr;
    int64_t n = 0;
    pascal_error err{};
    // /axes/phases/<i> sit one level deeper than the reader's group/name.
    file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    hid_t d = H5Dopen2(file, "axes/phases/1", H5P_DEFAULT);
    ASSERT_GE(d, 0);
    std::vector<int64_t> got(3);
    ASSERT_GE(H5Dread(d, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, got.data()), 0);
    EXPECT_EQ(got, w.phase1);
    H5Dclose(d);
    H5Fclose(file);
    EXPECT_NE(pascal_h5_read_column(path.c_str(), "axes", "phases", &v, &n, &err), 0);
}

// A swept "phases" axis indexes the phase lists, which own /axes/phases:
// its values become the group's int64 attribute `values`.
TEST_F(OutputH5, PhasesAxisBecomesAttributeOfPhaseListGroup)
{
    const std::string path = dir + "/phases.h5";
    Writer w;
    std::vector<double> idx{1, 0, 1};
    w.axes[0] = {"phases", PASCAL_COLTYPE_I64, "", nullptr, 0, 3, idx.data()};
    Table t(5, 2);
    WriteFile(w, path, t, {5});
    hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    ASSERT_GE(file, 0);
    H5O_info_t info;
    ASSERT_GE(H5Oget_info_by_name(file, "axes/phases", &info, H5P_DEFAULT), 0);
    EXPECT_EQ(info.type, H5O_TYPE_GROUP);
    hid_t a = H5Aopen_by_name(file, "axes/phases", "values", H5P_DEFAULT, H5P_DEFAULT);
    ASSERT_GE(a, 0);
    hid_t space = H5Aget_space(a);
    EXPECT_EQ(H5Sget_simple_extent_npoints(space), 3);
    std::vector<int64_t> got(3);
    ASSERT_GE(H5Aread(a, H5T_NATIVE_INT64, got.data()), 0);
    EXPECT_EQ(got, (std::vector<int64_t>{1, 0, 1}));
    H5Sclose(space);
    H5Aclose(a);
    EXPECT_EQ(ObjAttr(file, "axes/phases", "units"), "");
    H5Fclose(file);
    ExpectColumn(path, "axes", "pattern", w.axis_pattern);
}

TEST_F(OutputH5, EnumWithManyLabelsUsesInt16)
{
    const std::string path = dir + "/wide.h5";
    std::vector<std::string> names;
    for (int i = 0; i < 200; i++)
        names.push_back("label_" + std::to_string(i * 7919 % 1000));
    std::vector<const char *> labels;
    for (auto &s : names)
        labels.push_back(s.c_str());
    pascal_column_desc col{"kind", "", "a wide enum", PASCAL_COLTYPE_ENUM, labels.data(), 200};
    pascal_sink_meta meta{};
    meta.format = PASCAL_SINK_HDF5;
    meta.path = path.c_str();
    meta.chunk_rows = 64;
    std::vector<int64_t> codes;
    for (int i = 0; i < 500; i++)
        codes.push_back(i * 37 % 200);
    pascal_sink *sink = nullptr;
    pascal_error err{};
    ASSERT_EQ(pascal_sink_open(&meta, &col, 1, nullptr, 0, &sink, &err), 0) << err.msg;
    const void *pts[1] = {codes.data()};
    ASSERT_EQ(pascal_sink_append(sink, 500, pts, nullptr, &err), 0) << err.msg;
    ASSERT_EQ(pascal_sink_finish(sink, &err), 0) << err.msg;
    ExpectColumn(path, "points", "kind", AsDoubles(codes));
    hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    ExpectEnumLabels(file, "points/kind", labels.data(), 200, 2);
    H5Fclose(file);
}

// Layout of every column dataset: chunked, chunk length, unlimited, filters.
void ExpectLayout(const std::string &path, const char *name, hsize_t chunk,
                  const std::vector<H5Z_filter_t> &filters, unsigned level)
{
    hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    ASSERT_GE(file, 0);
    hid_t d = H5Dopen2(file, name, H5P_DEFAULT);
    ASSERT_GE(d, 0) << name;
    hid_t dcpl = H5Dget_create_plist(d);
    EXPECT_EQ(H5Pget_layout(dcpl), H5D_CHUNKED);
    hsize_t dims[1] = {0}, maxdims[1] = {0};
    ASSERT_EQ(H5Pget_chunk(dcpl, 1, dims), 1);
    EXPECT_EQ(dims[0], chunk) << name;
    hid_t space = H5Dget_space(d);
    H5Sget_simple_extent_dims(space, dims, maxdims);
    EXPECT_EQ(maxdims[0], H5S_UNLIMITED);
    ASSERT_EQ(H5Pget_nfilters(dcpl), (int)filters.size()) << name;
    for (size_t i = 0; i < filters.size(); i++) {
        unsigned flags = 0, cd[4] = {0};
        size_t ncd = 4;
        char fname[64];
        H5Z_filter_t id = H5Pget_filter2(dcpl, (unsigned)i, &flags, &ncd, cd, sizeof fname,
                                         fname, nullptr);
        EXPECT_EQ(id, filters[i]) << name << " filter " << i;
        if (id == H5Z_FILTER_DEFLATE) {
            ASSERT_GE(ncd, 1u);
            EXPECT_EQ(cd[0], level);
        }
    }
    H5Sclose(space);
    H5Pclose(dcpl);
    H5Dclose(d);
    H5Fclose(file);
}

TEST_F(OutputH5, ChunkingAndCompressionFilters)
{
    Table t(5000, 11);
    const std::string plain = dir + "/plain.h5", packed = dir + "/packed.h5",
                      deflated = dir + "/deflated.h5";
    Writer w0(0, 1, 1000), w4(4, 1, 1024), w1(1, 0, 333);
    WriteFile(w0, plain, t, {5000});
    WriteFile(w4, packed, t, {4000, 1000});
    WriteFile(w1, deflated, t, {1, 4998, 1});
    ExpectLayout(plain, "results/misses", 1000, {}, 0);
    ExpectLayout(plain, "points/pattern", 1000, {}, 0);
    ExpectLayout(packed, "results/misses", 1024, {H5Z_FILTER_SHUFFLE, H5Z_FILTER_DEFLATE}, 4);
    ExpectLayout(packed, "points/capacity", 1024, {H5Z_FILTER_SHUFFLE, H5Z_FILTER_DEFLATE}, 4);
    ExpectLayout(deflated, "results/bound", 333, {H5Z_FILTER_DEFLATE}, 1);
    for (const std::string &p : {packed, deflated}) {
        ExpectColumn(p, "points", "capacity", t.capacity);
        ExpectColumn(p, "points", "pattern", AsDoubles(t.pattern));
        ExpectColumn(p, "results", "misses", t.misses);
        ExpectColumn(p, "results", "bound", t.bound);
    }
}

// Compressed chunks go through the caller's parallel_for, one column per
// task, in any order; what HDF5 reads back is the data, bit for bit.
int g_tasks = 0;
void ReverseParallelFor(int n, void (*body)(void *, int), void *arg)
{
    for (int i = n - 1; i >= 0; i--, g_tasks++)
        body(arg, i);
}

TEST_F(OutputH5, CompressedChunksThroughParallelFor)
{
    Table t(2500, 77);
    const std::string path = dir + "/par.h5";
    Writer w(6, 1, 256);
    w.meta.parallel_for = ReverseParallelFor;
    g_tasks = 0;
    WriteFile(w, path, t, {256, 1000, 1244});   // direct, gathered, and a partial tail chunk
    EXPECT_EQ(g_tasks, 6 * 10) << "6 columns x 10 chunks of 256 rows";
    ExpectLayout(path, "results/rate", 256, {H5Z_FILTER_SHUFFLE, H5Z_FILTER_DEFLATE}, 6);
    ExpectTable(path, t);
}

TEST_F(OutputH5, ChunkRowsDefaultAndClamp)
{
    Table t(0, 1);
    const std::string a = dir + "/a.h5", b = dir + "/b.h5", c = dir + "/c.h5";
    Writer wa(0, 0, 0), wb(0, 0, int64_t(1) << 30), wc(0, 0, -5);
    WriteFile(wa, a, t, {});
    WriteFile(wb, b, t, {});
    WriteFile(wc, c, t, {});
    ExpectLayout(a, "results/misses", 65536, {}, 0);
    ExpectLayout(b, "results/misses", 1u << 20, {}, 0);
    ExpectLayout(c, "results/misses", 65536, {}, 0);
    EXPECT_EQ(ReadAttr(a, "points"), "0");
    EXPECT_EQ(ReadAttr(a, "complete"), "1");
    ExpectColumn(a, "results", "misses", {});
}

TEST_F(OutputH5, IncompleteUntilFinish)
{
    const std::string path = dir + "/run.h5";
    Table t(100, 5);
    Writer w;
    pascal_sink *sink = nullptr;
    pascal_error err{};
    ASSERT_EQ(w.Open(path, &sink, &err), 0) << err.msg;
    ASSERT_EQ(AppendRows(sink, t, 0, 100, &err), 0) << err.msg;
    EXPECT_FALSE(fs::exists(path));
    std::vector<std::string> names = Listing(dir);
    ASSERT_EQ(names.size(), 1u);
    EXPECT_EQ(names[0], "run.h5.tmp." + std::to_string(getpid()));
    // The temporary file is a valid HDF5 file already marked incomplete.
    EXPECT_EQ(ReadAttr(dir + "/" + names[0], "complete"), "0");
    EXPECT_EQ(ReadAttr(dir + "/" + names[0], "points"), "0");
    ASSERT_EQ(pascal_sink_finish(sink, &err), 0) << err.msg;
    EXPECT_EQ(Listing(dir), std::vector<std::string>{"run.h5"});
}

TEST_F(OutputH5, UnwritableDestinationFailsAtOpen)
{
    std::ofstream(dir + "/plain_file") << "not a directory";
    const std::vector<std::pair<std::string, std::string>> cases = {
        {dir + "/no/such/dir/out.h5", "No such file or directory"},
        {dir + "/plain_file/out.h5", "Not a directory"},
    };
    for (const auto &[path, reason] : cases) {
        Writer w;
        pascal_sink *sink = reinterpret_cast<pascal_sink *>(0x1);
        pascal_error err{};
        EXPECT_EQ(w.Open(path, &sink, &err), PASCAL_EIO) << path;
        EXPECT_EQ(sink, nullptr);
        std::string msg = err.msg, want = "cannot create " + path + ".tmp.";
        EXPECT_EQ(msg.rfind(want, 0), 0u) << msg;
        EXPECT_NE(msg.find(reason), std::string::npos) << msg;
    }
    EXPECT_EQ(Listing(dir), std::vector<std::string>{"plain_file"});

    // A destination that is a directory, and HDF5 to stdout.
    fs::create_directory(dir + "/subdir");
    Writer w;
    pascal_sink *sink = nullptr;
    pascal_error err{};
    EXPECT_EQ(w.Open(dir + "/subdir", &sink, &err), PASCAL_EIO);
    EXPECT_NE(std::string(err.msg).find("Is a directory"), std::string::npos) << err.msg;
    EXPECT_EQ(w.Open("-", &sink, &err), PASCAL_EINPUT);
    EXPECT_EQ(Listing(dir), (std::vector<std::string>{"plain_file", "subdir"}));
}

TEST_F(OutputH5, AbortAndFailureLeaveExistingFileByteIdentical)
{
    const std::string path = dir + "/result.h5";
    Table t(3000, 99);
    Writer w;
    WriteFile(w, path, t, {3000});
    const std::string before = slurp(path);
    ASSERT_GT(before.size(), 1000u);

    // Abort after some rows.
    pascal_sink *sink = nullptr;
    pascal_error err{};
    Table other(2000, 100);
    ASSERT_EQ(w.Open(path, &sink, &err), 0) << err.msg;
    ASSERT_EQ(AppendRows(sink, other, 0, 2000, &err), 0) << err.msg;
    pascal_sink_abort(sink);
    EXPECT_EQ(slurp(path), before);
    EXPECT_EQ(Listing(dir), std::vector<std::string>{"result.h5"});

    // A bad enum code fails the append; finish then refuses to publish.
    ASSERT_EQ(w.Open(path, &sink, &err), 0) << err.msg;
    ASSERT_EQ(AppendRows(sink, other, 0, 1500, &err), 0) << err.msg;
    other.pattern[1600] = 3;
    EXPECT_EQ(AppendRows(sink, other, 1500, 500, &err), PASCAL_EINTERNAL);
    EXPECT_NE(std::string(err.msg).find("points/pattern: row 1600: code 3 is not in 0..2"),
              std::string::npos)
        << err.msg;
    EXPECT_NE(AppendRows(sink, other, 0, 10, &err), 0);
    EXPECT_NE(pascal_sink_finish(sink, &err), 0);
    EXPECT_EQ(slurp(path), before);
    EXPECT_EQ(Listing(dir), std::vector<std::string>{"result.h5"});
    pascal_sink_abort(nullptr);
}

TEST_F(OutputH5, BadColumnDescriptionsRejected)
{
    const std::string path = dir + "/bad.h5";
    const char *const dup[] = {"a", "a"};
    struct Case {
        pascal_column_desc col;
        const char *msg;
    } cases[] = {
        {{"", "", "", PASCAL_COLTYPE_F64, nullptr, 0}, "empty name"},
        {{"a/b", "", "", PASCAL_COLTYPE_F64, nullptr, 0}, "may not contain '/'"},
        {{"e", "", "", PASCAL_COLTYPE_ENUM, nullptr, 0}, "at least one label"},
        {{"e", "", "", PASCAL_COLTYPE_ENUM, dup, 2}, "label \"a\" appears twice"},
    };
    for (const Case &c : cases) {
        pascal_sink_meta meta{};
        meta.format = PASCAL_SINK_HDF5;
        meta.path = path.c_str();
        pascal_sink *sink = nullptr;
        pascal_error err{};
        EXPECT_EQ(pascal_sink_open(&meta, &c.col, 1, nullptr, 0, &sink, &err), PASCAL_EINPUT);
        EXPECT_EQ(std::string(err.msg).rfind(path + ": points", 0), 0u) << err.msg;
        EXPECT_NE(std::string(err.msg).find(c.msg), std::string::npos) << err.msg;
    }
    pascal_sink_meta meta{};
    meta.format = PASCAL_SINK_HDF5;
    meta.path = path.c_str();
    meta.compression = 10;
    pascal_sink *sink = nullptr;
    pascal_error err{};
    EXPECT_EQ(pascal_sink_open(&meta, nullptr, 0, nullptr, 0, &sink, &err), PASCAL_EINPUT);
    EXPECT_NE(std::string(err.msg).find("compression level 10"), std::string::npos) << err.msg;
    EXPECT_TRUE(Listing(dir).empty());
}

TEST_F(OutputH5, BadMetadataFailsAtOpenAndRemovesTheFile)
{
    const std::string path = dir + "/meta.h5";
    std::vector<double> fractional{1.0, 2.5}, bad_code{0, 3};
    struct Case {
        const char *msg;
        void (*tweak)(Writer &, std::vector<double> &, std::vector<double> &);
    } cases[] = {
        {"extra attribute \"format\" is already a root attribute",
         [](Writer &w, std::vector<double> &, std::vector<double> &) {
             w.attrs[1].key = "format";
         }},
        {"axes/phases: value 1 is 2.5, not an int64",
         [](Writer &w, std::vector<double> &f, std::vector<double> &) {
             w.axes[0] = {"phases", PASCAL_COLTYPE_I64, "", nullptr, 0, 2, f.data()};
             w.meta.nphase_lists = 0;
         }},
        {"axes/pattern: value 1 is 3, not a label code",
         [](Writer &w, std::vector<double> &, std::vector<double> &c) {
             w.axes[1].values = c.data();
             w.axes[1].count = 2;
         }},
        {"axes/phases: value 1 is 2, not a phase list index",
         [](Writer &w, std::vector<double> &, std::vector<double> &c) {
             c = {1, 2};
             w.axes[0] = {"phases", PASCAL_COLTYPE_I64, "", nullptr, 0, 2, c.data()};
         }},
        {"axes/capacity: duplicate axis name",
         [](Writer &w, std::vector<double> &, std::vector<double> &) {
             w.axes[1].name = "capacity";
         }},
    };
    for (const Case &c : cases) {
        Writer w;
        c.tweak(w, fractional, bad_code);
        pascal_sink *sink = nullptr;
        pascal_error err{};
        EXPECT_EQ(w.Open(path, &sink, &err), PASCAL_EINPUT) << c.msg;
        EXPECT_EQ(sink, nullptr);
        // Named by the destination the caller gave, not the temporary file.
        EXPECT_EQ(std::string(err.msg).rfind(path + ": ", 0), 0u) << err.msg;
        EXPECT_NE(std::string(err.msg).find(c.msg), std::string::npos) << err.msg;
        EXPECT_TRUE(Listing(dir).empty());
    }
}

TEST_F(OutputH5, ReaderErrorsNameWhatIsMissing)
{
    const std::string path = dir + "/sweep.h5";
    Table t(10, 3);
    Writer w;
    WriteFile(w, path, t, {10});
    double *v = nullptr;
    int64_t n = 0;
    pascal_error err{};
    const std::string missing = dir + "/missing.h5";
    EXPECT_EQ(pascal_h5_read_column(missing.c_str(), "results", "misses", &v, &n, &err),
              PASCAL_EIO);
    EXPECT_EQ(std::string(err.msg), "cannot open " + missing + ": No such file or directory");
    EXPECT_EQ(pascal_h5_read_column(path.c_str(), "nope", "misses", &v, &n, &err),
              PASCAL_EINPUT);
    EXPECT_EQ(std::string(err.msg), path + ": no group /nope");
    EXPECT_EQ(pascal_h5_read_column(path.c_str(), "results", "nope", &v, &n, &err),
              PASCAL_EINPUT);
    EXPECT_EQ(std::string(err.msg), path + ": no dataset /results/nope");
    char buf[16];
    EXPECT_EQ(pascal_h5_read_attr(path.c_str(), "nope", buf, sizeof buf, &err), PASCAL_EINPUT);
    EXPECT_EQ(std::string(err.msg), path + ": no root attribute nope");
    std::ofstream(dir + "/text.h5") << "plain text, not HDF5\n";
    const std::string text = dir + "/text.h5";
    EXPECT_EQ(pascal_h5_read_attr(text.c_str(), "format", buf, sizeof buf, &err), PASCAL_EIO);
    EXPECT_EQ(std::string(err.msg).rfind(text + ": opening as HDF5 failed", 0), 0u) << err.msg;
}

// Files written by other tools: fixed-length strings and float attributes.
TEST_F(OutputH5, ReadsFixedLengthAndFloatAttributes)
{
    const std::string path = dir + "/foreign.h5";
    hid_t file = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    ASSERT_GE(file, 0);
    hid_t space = H5Screate(H5S_SCALAR), str = H5Tcopy(H5T_C_S1);
    H5Tset_size(str, 6);
    H5Tset_strpad(str, H5T_STR_NULLPAD);
    hid_t a = H5Acreate2(file, "label", str, space, H5P_DEFAULT, H5P_DEFAULT);
    ASSERT_GE(H5Awrite(a, str, "abc\0\0\0"), 0);
    H5Aclose(a);
    double x = 2.385;
    a = H5Acreate2(file, "ratio", H5T_IEEE_F64LE, space, H5P_DEFAULT, H5P_DEFAULT);
    ASSERT_GE(H5Awrite(a, H5T_NATIVE_DOUBLE, &x), 0);
    H5Aclose(a);
    int32_t i = -42;
    a = H5Acreate2(file, "small", H5T_STD_I32BE, space, H5P_DEFAULT, H5P_DEFAULT);
    ASSERT_GE(H5Awrite(a, H5T_NATIVE_INT32, &i), 0);
    H5Aclose(a);
    H5Tclose(str);
    H5Sclose(space);
    H5Fclose(file);
    EXPECT_EQ(ReadAttr(path, "label"), "abc");
    EXPECT_EQ(ReadAttr(path, "ratio"), "2.3849999999999998");
    EXPECT_EQ(ReadAttr(path, "small"), "-42");
}

TEST_F(OutputH5, PythonH5pyReadsTheFile)
{
    if (access("/usr/bin/python3", X_OK) != 0)
        GTEST_SKIP() << "/usr/bin/python3 not found";
    if (std::system("/usr/bin/python3 -c 'import h5py' >/dev/null 2>&1") != 0)
        GTEST_SKIP() << "/usr/bin/python3 cannot import h5py";
    const std::string path = dir + "/py.h5", spec_file = dir + "/spec.txt",
                      script = dir + "/check.py";
    // Values Python can recompute exactly: i * 0.5 + 0.125, i / 3, NaN when i % 7 == 3.
    const int64_t n = 3000;
    Table t(n, 1);
    for (int64_t i = 0; i < n; i++) {
        t.capacity[i] = (double)i * 0.5 + 0.125;
        t.phases[i] = i * 1000003;
        t.pattern[i] = i % 3;
        t.misses[i] = i % 7 == 3 ? NAN : (double)i / 3.0;
    }
    Writer w(4, 1, 1000);
    WriteFile(w, path, t, {1000, 1500, 500});
    std::ofstream(spec_file, std::ios::binary) << SpecText();
    std::ofstream(script) << R"PY(
import math, sys
import h5py, numpy as np
path, spec_file = sys.argv[1], sys.argv[2]
spec = open(spec_file, encoding="utf-8").read()
with h5py.File(path, "r") as f:
    a = f.attrs
    for key in ("format", "spec", "spec_path", "command_line", "created", "pascal_version", "git_commit"):
        assert isinstance(a[key], str), (key, type(a[key]))
    assert a["format"] == "pascal-sweep"
    assert a["spec"] == spec
    assert int(a["complete"]) == 1 and int(a["points"]) == 3000 and int(a["threads"]) == 8
    assert int(a["format_version"]) == 2
    n = 3000
    i = np.arange(n)
    assert np.array_equal(f["points/capacity"][:], i * 0.5 + 0.125)
    assert np.array_equal(f["points/phases"][:], i * 1000003)
    pat = f["points/pattern"]
    assert h5py.check_enum_dtype(pat.dtype) == {"sequential": 0, "random": 1, "zipf": 2}, pat.dtype
    assert np.array_equal(pat[:], i % 3)
    m = f["results/misses"][:]
    assert m.dtype == np.float64
    nan = (i % 7) == 3
    assert np.array_equal(np.isnan(m), nan)
    assert np.array_equal(m[~nan], i[~nan] / 3.0)
    d = f["results/rate"]
    assert isinstance(d.attrs["units"], str) and d.attrs["units"] == "misses/s"
    assert d.attrs["description"] == 'miss rate, "signed"'
    assert f["results/bound"].attrs["units"] == "\u00b5s"
    assert d.chunks == (1000,) and d.maxshape == (None,) and d.compression == "gzip"
    assert list(f["axes/phases/0"][:]) == [3, 1, 4, 1, 5]
    assert np.array_equal(f["axes/capacity"][:], [1048576.0, 2.5e7, 3.75e9])
print("ok")
)PY";
    std::string cmd = "/usr/bin/python3 " + script + " " + path + " " + spec_file;
    EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
}

// Chunks large enough for the byte-plane probe: planes of random bits
// (capacity, phases, misses' low bytes) are stored, the others deflated,
// and HDF5's own filters read every value back, NaN and subnormals
// included; the compressible columns still shrink.
// Levels 1 and 2 are written by igzip, 3..9 by zlib (output/zchunk.h): both
// must store random byte planes rather than expand them, still deflate the
// rest, and give a standard stream that HDF5's own filter reads back.
TEST_F(OutputH5, IncompressiblePlanesAreStoredAndReadBack)
{
    for (int level : {1, 2, 6}) {
        SCOPED_TRACE("deflate level " + std::to_string(level));
        Table t(150000, 91);
        const std::string path = dir + "/planes" + std::to_string(level) + ".h5";
        Writer w(level, 1, 65536);
        w.meta.parallel_for = ReverseParallelFor;
        WriteFile(w, path, t, {70000, 1, 79999});   // whole chunks and a partial tail
        ExpectLayout(path, "results/rate", 65536, {H5Z_FILTER_SHUFFLE, H5Z_FILTER_DEFLATE}, level);
        ExpectTable(path, t);
        hid_t f = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
        ASSERT_GE(f, 0);
        hid_t rate = H5Dopen2(f, "results/rate", H5P_DEFAULT), cap = H5Dopen2(f, "points/capacity", H5P_DEFAULT);
        hsize_t rate_bytes = H5Dget_storage_size(rate), cap_bytes = H5Dget_storage_size(cap);
        H5Dclose(rate);
        H5Dclose(cap);
        H5Fclose(f);
        EXPECT_LT(rate_bytes, 150000u * 8 / 2) << "rate (a slow ramp) still deflates";
        // capacity: 150000 random 8-byte values, then the last chunk's zero tail
        EXPECT_GT(cap_bytes, 150000u * 8) << "random bits cannot shrink";
        EXPECT_LT(cap_bytes, 196608u * 8 + 3 * 8 * 2 * 5 + 3 * 64) << "stored, never expanded";
        if (level <= 2)
            EXPECT_LT(cap_bytes, 150000u * 8 * 101 / 100) << "the zero tail of the last chunk deflates";
    }
}

// The journal takes chunk addresses from the sink (pascal_h5sink_chunk_info)
// instead of HDF5's index walk: for recent chunks the sink remembers where
// it found them, for older ones it asks the index.  Every answer, for every
// column and chunk, must be what HDF5's own lookup says.
TEST_F(OutputH5, ChunkAddressesAreTheIndexs)
{
    for (int level : {0, 1, 6}) {
        SCOPED_TRACE("deflate level " + std::to_string(level));
        Table t(100 * 1000 + 17, 5);
        const std::string path = dir + "/where" + std::to_string(level) + ".h5";
        Writer w(level, 1, 1000);
        pascal_sink *sink = nullptr;
        pascal_error err{};
        ASSERT_EQ(w.Open(path, &sink, &err), 0) << err.msg;
        for (int64_t at = 0, n = 333; at < (int64_t)t.rate.size(); at += n, n = n * 7 % 4001 + 1) {
            n = std::min<int64_t>(n, (int64_t)t.rate.size() - at);
            ASSERT_EQ(AppendRows(sink, t, at, n, &err), 0) << err.msg;
        }
        for (int j = 0; j < 6; j++)
            for (int64_t row = 0; row < 100 * 1000; row += 1000) {
                unsigned mask = 7, hmask = 9;
                uint64_t addr = 0, size = 0;
                haddr_t haddr = HADDR_UNDEF;
                hsize_t hsize = 0, off[1] = {(hsize_t)row};
                ASSERT_EQ(pascal_h5sink_chunk_info(sink, j, row, &mask, &addr, &size), 0);
                ASSERT_GE(H5Dget_chunk_info_by_coord(pascal_h5sink_dataset(sink, j), off, &hmask,
                                                     &haddr, &hsize), 0);
                EXPECT_EQ(addr, (uint64_t)haddr) << "column " << j << " row " << row;
                EXPECT_EQ(size, (uint64_t)hsize) << "column " << j << " row " << row;
                EXPECT_EQ(mask, hmask) << "column " << j << " row " << row;
            }
        ASSERT_EQ(pascal_sink_finish(sink, &err), 0) << err.msg;
        ExpectTable(path, t);
    }
}
