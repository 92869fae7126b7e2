// Load path names come from one table (vocab/params.h): the list quoted in
// messages matches it, names and codes go both ways, and every parser of a
// path name (spec values, expressions, the calibration CSV, predict and
// measure-refs) accepts the table's names and rejects others.
#include <gtest/gtest.h>

#include <string>

#include "model/dynamic.h"
#include "vocab/params.h"
#include "test_util.h"

namespace {

TEST(SpecPaths, ListQuotedInMessagesIsTheTable)
{
    std::string joined;
    for (int i = 0; i < PASCAL_PATH_COUNT; i++)
        joined += std::string(i ? ", " : "") + pascal_path_names[i];
    EXPECT_EQ(joined, PASCAL_PATH_LIST);
}

TEST(SpecPaths, NamesAndCodesGoBothWays)
{
    for (int i = 0; i < PASCAL_PATH_COUNT; i++)
        EXPECT_EQ(pascal_path_from_name(pascal_path_names[i]), i);
    // The dynamic model's key stores the same codes.
    EXPECT_EQ(pascal_path_from_name("sync"), PASCAL_DYN_SYNC);
    EXPECT_EQ(pascal_path_from_name("tma"), PASCAL_DYN_TMA);
    EXPECT_EQ(pascal_path_from_name("TMA"), -1);
    EXPECT_EQ(pascal_path_from_name("tma "), -1);
    EXPECT_EQ(pascal_path_from_name(""), -1);
    EXPECT_EQ(pascal_path_from_name(nullptr), -1);
}

class SpecPathsCli : public pascal_test::TempDirTest {};

TEST_F(SpecPathsCli, MeasureRefsTakesAListOfTableNames)
{
    const std::string o = " -o " + dir + "/refs.csv";
    auto r = run("measure-refs --dry-run --path tma,sync --occupancy 1 --depth 3 --compute 8 --W 4");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("2 configurations"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("  1,tma,3,8,4096,4\n"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("  1,sync,0,8,4096,4\n"), std::string::npos) << r.out;
    for (const char *bad : {"sync,sync", "tma,", ",tma", "sync;tma", "ldg"}) {
        r = run(std::string("measure-refs --path '") + bad + "'" + o);
        EXPECT_EQ(r.status, 2) << bad;
        EXPECT_EQ(r.err, std::string("pascal measure-refs: --path: expected load paths (sync, "
                                     "tma), comma-separated, each once, got \"") + bad + "\"\n")
            << bad;
    }
    EXPECT_FALSE(pascal_test::exists(dir + "/refs.csv"));
}

TEST_F(SpecPathsCli, PointDescriptionsNameThePath)
{
    // A point that breaks `require` is described by its coordinates; the
    // path coordinate by its name from the table.
    const std::string spec = write("p.yaml",
                                   "name: paths\n"
                                   "models: [ttl]\n"
                                   "fixed: {N: 4096, M: 4, C: 100, pattern: aligned}\n"
                                   "axes: {path: [sync, tma]}\n"
                                   "require: 'path == \"sync\"'\n");
    auto r = run("run " + spec + " --dry-run");
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("point 1 (path=tma)"), std::string::npos) << r.err;
}

} // namespace
