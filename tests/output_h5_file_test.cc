// output/h5_file.h, the HDF5 walk that readers outside output/ use: a file
// written here with the HDF5 C API (groups, numeric, enum and 2-D
// datasets, string, number and array attributes) is read back through it,
// and every kind of lookup that must fail does.
#include <gtest/gtest.h>

#include <hdf5.h>

#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "output/h5_file.h"
#include "test_util.h"

namespace {

class OutputH5File : public pascal_test::TempDirTest {
protected:
    std::string path;

    void SetUp() override
    {
        TempDirTest::SetUp();
        path = dir + "/walk.h5";
        hid_t f = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
        ASSERT_GE(f, 0);
        attr_str(f, "format", "walk-test");
        attr_num(f, "points", 7.25);
        hid_t g = H5Gcreate2(f, "cols", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
        // Created out of name order: links come back sorted by name.
        const int64_t ints[5] = {10, -3, 7, 2, 99};
        dataset(g, "zeta", H5T_NATIVE_INT64, 5, ints);
        const double reals[5] = {0.5, 1.25, -2.0, 1e300, 3.0};
        hid_t d = dataset(g, "alpha", H5T_NATIVE_DOUBLE, 5, reals);
        attr_str(d, "units", "blocks");
        H5Dclose(d);
        hid_t e = H5Tenum_create(H5T_NATIVE_INT8);
        const char *names[3] = {"aligned", "clusters", "uniform"};
        for (signed char v = 0; v < 3; v++)
            H5Tenum_insert(e, names[v], &v);
        const signed char codes[4] = {2, 0, 2, 1};
        hsize_t n4 = 4;
        hid_t s = H5Screate_simple(1, &n4, NULL);
        d = H5Dcreate2(g, "pattern", e, s, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
        H5Dwrite(d, e, H5S_ALL, H5S_ALL, H5P_DEFAULT, codes);
        H5Dclose(d);
        H5Sclose(s);
        H5Tclose(e);
        hsize_t dims2[2] = {2, 3};
        s = H5Screate_simple(2, dims2, NULL);
        const double grid[6] = {1, 2, 3, 4, 5, 6};
        d = H5Dcreate2(f, "grid", H5T_NATIVE_DOUBLE, s, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
        H5Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, grid);
        hsize_t n3 = 3;
        hid_t as = H5Screate_simple(1, &n3, NULL);
        const int64_t list[3] = {4, 0, 9};
        hid_t a = H5Acreate2(d, "values", H5T_NATIVE_INT64, as, H5P_DEFAULT, H5P_DEFAULT);
        H5Awrite(a, H5T_NATIVE_INT64, list);
        H5Aclose(a);
        H5Sclose(as);
        H5Dclose(d);
        H5Sclose(s);
        H5Gclose(g);
        H5Fclose(f);
    }

    static hid_t dataset(hid_t loc, const char *name, hid_t type, hsize_t n, const void *data)
    {
        hid_t s = H5Screate_simple(1, &n, NULL);
        hid_t d = H5Dcreate2(loc, name, type, s, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
        H5Dwrite(d, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data);
        H5Sclose(s);
        return d;
    }
    static void attr_str(hid_t obj, const char *key, const char *value)
    {
        hid_t t = H5Tcopy(H5T_C_S1), s = H5Screate(H5S_SCALAR);
        H5Tset_size(t, H5T_VARIABLE);
        hid_t a = H5Acreate2(obj, key, t, s, H5P_DEFAULT, H5P_DEFAULT);
        H5Awrite(a, t, &value);
        H5Aclose(a);
        H5Sclose(s);
        H5Tclose(t);
    }
    static void attr_num(hid_t obj, const char *key, double v)
    {
        hid_t s = H5Screate(H5S_SCALAR);
        hid_t a = H5Acreate2(obj, key, H5T_NATIVE_DOUBLE, s, H5P_DEFAULT, H5P_DEFAULT);
        H5Awrite(a, H5T_NATIVE_DOUBLE, &v);
        H5Aclose(a);
        H5Sclose(s);
    }
};

int collect(void *ctx, const char *key, const char *text)
{
    auto *v = static_cast<std::vector<std::string> *>(ctx);
    v->push_back(std::string(key) + "=" + (text ? text : "(null)"));
    return 0;
}

int stop_at_second(void *ctx, const char *, const char *)
{
    return ++*static_cast<int *>(ctx) == 2 ? 42 : 0;
}

TEST_F(OutputH5File, WalksObjectsLinksAndAttributes)
{
    EXPECT_EQ(pascal_h5_is_hdf5(path.c_str()), 1);
    EXPECT_EQ(pascal_h5_is_hdf5(write("plain.txt", "not hdf5\n").c_str()), 0);
    EXPECT_EQ(pascal_h5_is_hdf5((dir + "/missing.h5").c_str()), 0);
    pascal_h5_file *h = nullptr;
    pascal_error err{};
    ASSERT_EQ(pascal_h5_file_open(path.c_str(), &h, &err), 0) << err.msg;
    EXPECT_EQ(pascal_h5_file_kind(h, "cols"), PASCAL_H5_GROUP);
    EXPECT_EQ(pascal_h5_file_kind(h, "/"), PASCAL_H5_GROUP);
    EXPECT_EQ(pascal_h5_file_kind(h, "cols/alpha"), PASCAL_H5_DATASET);
    EXPECT_EQ(pascal_h5_file_kind(h, "cols/missing"), PASCAL_H5_NONE);
    EXPECT_EQ(pascal_h5_file_kind(h, "nowhere/x"), PASCAL_H5_NONE);
    ASSERT_EQ(pascal_h5_file_nlinks(h, "cols"), 3);
    EXPECT_EQ(pascal_h5_file_nlinks(h, "missing"), -1);
    const char *order[3] = {"alpha", "pattern", "zeta"};
    for (int i = 0; i < 3; i++) {
        char buf[16];
        ASSERT_EQ(pascal_h5_file_link(h, "cols", i, buf, sizeof buf), 0);
        EXPECT_STREQ(buf, order[i]);
    }
    char tiny[4];
    EXPECT_EQ(pascal_h5_file_link(h, "cols", 1, tiny, sizeof tiny), -1); // "pattern" does not fit
    char *s = pascal_h5_file_attr_text(h, "/", "format");
    ASSERT_NE(s, nullptr);
    EXPECT_STREQ(s, "walk-test");
    free(s);
    s = pascal_h5_file_attr_text(h, "/", "points");
    ASSERT_NE(s, nullptr);
    EXPECT_STREQ(s, "7.25");
    free(s);
    s = pascal_h5_file_attr_text(h, "cols/alpha", "units");
    ASSERT_NE(s, nullptr);
    EXPECT_STREQ(s, "blocks");
    free(s);
    EXPECT_EQ(pascal_h5_file_attr_text(h, "cols/alpha", "description"), nullptr);
    EXPECT_EQ(pascal_h5_file_attr_text(h, "missing", "units"), nullptr);
    std::vector<std::string> attrs;
    EXPECT_EQ(pascal_h5_file_attrs(h, "/", collect, &attrs), 0);
    EXPECT_EQ(attrs, (std::vector<std::string>{"format=walk-test", "points=7.25"}));
    int calls = 0;
    EXPECT_EQ(pascal_h5_file_attrs(h, "/", stop_at_second, &calls), 42);
    EXPECT_EQ(pascal_h5_file_attrs(h, "missing", collect, &attrs), -1);
    // An array attribute: its count and values; a string one is not numeric.
    ASSERT_EQ(pascal_h5_file_attr_count(h, "grid", "values"), 3);
    double list[3];
    ASSERT_EQ(pascal_h5_file_attr_doubles(h, "grid", "values", list), 0);
    EXPECT_EQ(list[0], 4);
    EXPECT_EQ(list[1], 0);
    EXPECT_EQ(list[2], 9);
    EXPECT_EQ(pascal_h5_file_attr_count(h, "/", "format"), -1);
    EXPECT_EQ(pascal_h5_file_attr_count(h, "grid", "absent"), -1);
    EXPECT_EQ(pascal_h5_file_attr_doubles(h, "/", "format", list), -1);
    pascal_h5_file_close(h);
    pascal_h5_file_close(nullptr);
}

TEST_F(OutputH5File, ReadsDatasetsEnumLabelsAndRowBlocks)
{
    pascal_h5_file *h = nullptr;
    pascal_error err{};
    ASSERT_EQ(pascal_h5_file_open(path.c_str(), &h, &err), 0) << err.msg;
    EXPECT_EQ(pascal_h5_file_length(h, "cols/zeta"), 5);
    EXPECT_EQ(pascal_h5_file_length(h, "cols/pattern"), 4);
    EXPECT_EQ(pascal_h5_file_length(h, "grid"), -1); // 2-D
    EXPECT_EQ(pascal_h5_file_length(h, "cols"), -1); // a group
    double v[5];
    ASSERT_EQ(pascal_h5_file_read(h, "cols/zeta", v), 0);
    EXPECT_EQ(std::vector<double>(v, v + 5), (std::vector<double>{10, -3, 7, 2, 99}));
    EXPECT_EQ(pascal_h5_file_read(h, "cols/missing", v), -1);
    double codes[4];
    ASSERT_EQ(pascal_h5_file_read(h, "cols/pattern", codes), 0);
    char *labels[4] = {};
    ASSERT_EQ(pascal_h5_file_enum_labels(h, "cols/pattern", codes, 4, labels), 0);
    const char *want[4] = {"uniform", "aligned", "uniform", "clusters"};
    for (int k = 0; k < 4; k++) {
        EXPECT_STREQ(labels[k], want[k]);
        free(labels[k]);
    }
    char *none[5] = {};
    EXPECT_EQ(pascal_h5_file_enum_labels(h, "cols/zeta", v, 5, none), 1);
    EXPECT_EQ(none[0], nullptr);
    const double unknown[2] = {1, 5};
    char *partial[2] = {};
    EXPECT_EQ(pascal_h5_file_enum_labels(h, "cols/pattern", unknown, 2, partial), -1);
    free(partial[0]);
    free(partial[1]);
    pascal_h5_file_close(h);

    pascal_h5_columns *c = nullptr;
    const char *names[2] = {"cols/alpha", "cols/pattern"};
    ASSERT_EQ(pascal_h5_columns_open(path.c_str(), names, 2, &c, &err), 0) << err.msg;
    double a[2], p[2];
    double *bufs[2] = {a, p};
    ASSERT_EQ(pascal_h5_columns_read(c, 1, 2, bufs, &err), 0) << err.msg;
    EXPECT_EQ(a[0], 1.25);
    EXPECT_EQ(a[1], -2.0);
    EXPECT_EQ(p[0], 0);
    EXPECT_EQ(p[1], 2);
    EXPECT_NE(pascal_h5_columns_read(c, 4, 2, bufs, &err), 0); // row 5 of 4
    EXPECT_NE(std::string(err.msg).find("reading rows 4..5 failed"), std::string::npos) << err.msg;
    pascal_h5_columns_close(c);
    const char *bad[2] = {"cols/alpha", "cols/nothing"};
    EXPECT_EQ(pascal_h5_columns_open(path.c_str(), bad, 2, &c, &err), PASCAL_EIO);
    EXPECT_EQ(std::string(err.msg), path + ": cannot open /cols/nothing");
    EXPECT_EQ(pascal_h5_columns_open((dir + "/none.h5").c_str(), names, 2, &c, &err), PASCAL_EIO);
    EXPECT_EQ(std::string(err.msg), dir + "/none.h5: cannot open as HDF5");
}

} // namespace
