// "Did you mean" in spec messages: every kind of name a spec can misspell
// (keys of every mapping, models, columns, patterns, load paths, names in
// expressions) ends its message with the nearest valid name, worked out by
// hand; a name near nothing gets no guess.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "calibrate/calibrate.h"
#include "sweeps/spec.h"
#include "test_util.h"

namespace {

// The message for a spec that must be rejected (PASCAL_EINPUT).
std::string rejected(const std::string &yaml, const std::string &file = "spec.yaml")
{
    pascal_spec *s = nullptr;
    pascal_error err{};
    EXPECT_EQ(pascal_spec_parse(yaml.data(), yaml.size(), file.c_str(), &s, &err), PASCAL_EINPUT) << yaml;
    pascal_spec_free(s);
    return err.msg;
}

bool ends_with(const std::string &s, const std::string &tail)
{
    return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

#define EXPECT_ENDS(msg, tail) EXPECT_TRUE(ends_with(msg, tail)) << (msg)

const std::string kHead = "name: t\nmodels: [ttl]\nfixed: {N: 64, M: 4}\n";

TEST(SpecSuggest, MisspelledKeys)
{
    std::string m = rejected(kHead + "axes: {C: [8]}\nwehre: C < N\n");
    EXPECT_EQ(m.rfind("spec.yaml:5:1: wehre: expected one of the keys name,", 0), 0u) << m;
    EXPECT_ENDS(m, "got \"wehre\" (did you mean 'where'?)");
    m = rejected("name: t\nmodels: [ttl]\nfixed: {N: 64, M: 4, capcity_bytes: 1MiB, block_bytes: 4KiB}\n"
                 "axes: {seed: [1]}\n");
    EXPECT_ENDS(m, "got \"capcity_bytes\" (did you mean 'capacity_bytes'?)");
    m = rejected(kHead + "axes: {capacity: [1MiB]}\n");
    EXPECT_ENDS(m, "got \"capacity\" (did you mean 'capacity_bytes'?)");
    m = rejected(kHead + "axes: {C: {from: 1, to: 8, stpe: 1}}\n");
    EXPECT_ENDS(m, "got \"stpe\" (did you mean 'step'?)");
    m = rejected(kHead + "axes: {C: [8]}\noutput: {compresion: 4}\n");
    EXPECT_ENDS(m, "got \"compresion\" (did you mean 'compression'?)");
    m = rejected(kHead + "axes: {C: [8]}\nfrobnicate: 1\n");
    EXPECT_ENDS(m, "got \"frobnicate\"");  // near nothing: no guess
}

TEST(SpecSuggest, MisspelledDeviceKey)
{
    std::string dir = pascal_test::make_temp_dir();
    pascal_test::write_file(dir, "dev.yaml", "name: x\nsms: 4\neffective_l2: 1MiB\n");
    std::string m = rejected("name: t\ndevice: dev.yaml\nmodels: [ttl]\nfixed: {N: 64, occupancy: 1, C: 8}\n"
                             "axes: {seed: [1]}\n",
                             dir + "/spec.yaml");
    EXPECT_EQ(m.rfind(dir + "/dev.yaml:3:1: effective_l2: expected one of the keys", 0), 0u) << m;
    EXPECT_ENDS(m, "got \"effective_l2\" (did you mean 'effective_l2_bytes'?)");
    pascal_test::remove_dir(dir);
}

TEST(SpecSuggest, MisspelledModelsAndColumns)
{
    std::string m = rejected("name: t\nmodels: [ttl, lur]\nfixed: {N: 8, M: 1}\naxes: {C: [1]}\n");
    EXPECT_ENDS(m, "got \"lur\" (did you mean 'lru'?)");
    m = rejected("name: t\nmodels: [residence]\nfixed: {N: 8, M: 1}\naxes: {C: [1]}\n");
    EXPECT_ENDS(m, "got \"residence\" (did you mean 'residency'?)");
    // a column of the requested models first ...
    m = rejected("name: t\nmodels: [ttl, lru]\ncolumns: [rho_lur]\nfixed: {N: 8, M: 1}\naxes: {C: [1]}\n");
    EXPECT_ENDS(m, "got \"rho_lur\" (did you mean 'rho_lru'?)");
    // ... else any column (whose model then has to be added)
    m = rejected("name: t\nmodels: [ttl]\ncolumns: [K_sdmc]\nfixed: {N: 8, M: 1}\naxes: {C: [1]}\n");
    EXPECT_ENDS(m, "got \"K_sdmc\" (did you mean 'K_sdcm'?)");
}

TEST(SpecSuggest, MisspelledPatternsAndPaths)
{
    std::string m = rejected("name: t\nmodels: [ttl]\nfixed: {N: 64, M: 4, pattern: gausian}\naxes: {C: [8]}\n");
    EXPECT_ENDS(m, "got \"gausian\" (did you mean 'gaussian'?)");
    m = rejected("name: t\nmodels: [ttl]\nfixed: {N: 64, M: 4}\naxes: {C: [8], pattern: [aligned, clusterz]}\n");
    EXPECT_EQ(m.rfind("spec.yaml:4:35: axes.pattern[1]: expected a pattern name", 0), 0u) << m;
    EXPECT_ENDS(m, "got \"clusterz\" (did you mean 'clusters'?)");
    m = rejected("name: t\nmodels: [ttl]\nfixed: {N: 64, M: 4, path: TMA}\naxes: {C: [8]}\n");
    EXPECT_ENDS(m, "got \"TMA\" (did you mean 'tma'?)");
}

TEST(SpecSuggest, MisspelledNamesInExpressions)
{
    std::string m = rejected(kHead + "axes: {C: [8]}\nwhere: C < N && ocupancy > 1\n");
    EXPECT_EQ(m.rfind("spec.yaml:5:17: where: expected a parameter name (N, M, C,", 0), 0u) << m;
    EXPECT_ENDS(m, "got \"ocupancy\" (did you mean 'occupancy'?)");
    m = rejected(kHead + "axes: {C: [8]}\nwhere: 'pattern == \"unifrom\"'\n");
    EXPECT_ENDS(m, "got \"unifrom\" (did you mean 'uniform'?)");
    m = rejected(kHead + "axes: {C: [8]}\nwhere: 'path != \"snyc\"'\n");
    EXPECT_ENDS(m, "got \"snyc\" (did you mean 'sync'?)");
}

// The calibration CSV's path column (calibrate/refs.c).
TEST(SpecSuggest, MisspelledLoadPathInReferenceRuns)
{
    const std::string csv = "o,path,d,m,N,W,K\n1,Sync,0,8,4096,4,1.5\n";
    pascal_refs refs{};
    pascal_error err{};
    EXPECT_EQ(pascal_calibrate_parse_csv(csv.data(), csv.size(), "refs.csv", NAN, &refs, &err), PASCAL_EINPUT);
    EXPECT_EQ(std::string(err.msg), "refs.csv:2:3: path: expected sync or tma, got \"Sync\" (did you mean 'sync'?)");
    pascal_calibrate_refs_free(&refs);
}

} // namespace
