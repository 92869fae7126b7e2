// Spec expansion (pascal_spec_point): coordinates in canonical order,
// derived N, M and C, pattern defaults, where filters, require assertions
// and the errors a point can raise, all against values worked out by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "sweeps/spec.h"

namespace {

const std::string kData = std::string(PASCAL_SOURCE_DIR) + "/tests/data/specs/";
const double KiB = 1024.0, MiB = 1048576.0;

struct Spec {
    pascal_spec *s = nullptr;
    ~Spec() { pascal_spec_free(s); }
};

void parse_ok(const std::string &yaml, Spec *spec)
{
    pascal_error err{};
    int rc = pascal_spec_parse(yaml.data(), yaml.size(), "spec.yaml", &spec->s, &err);
    ASSERT_EQ(rc, 0) << err.msg << "\n" << yaml;
}

pascal_point point(const pascal_spec *s, uint64_t i)
{
    pascal_point p;
    pascal_error err{};
    int rc = pascal_spec_point(s, i, &p, &err);
    EXPECT_EQ(rc, 1) << "point " << i << ": " << err.msg;
    return p;
}

// Kept points out of all raw points.
uint64_t count_kept(const pascal_spec *s)
{
    uint64_t kept = 0;
    for (uint64_t i = 0; i < pascal_spec_size(s); i++) {
        pascal_point p;
        pascal_error err{};
        int rc = pascal_spec_point(s, i, &p, &err);
        EXPECT_GE(rc, 0) << err.msg;
        kept += rc == 1;
    }
    return kept;
}

// The error a point must raise.
std::string point_error(const pascal_spec *s, uint64_t i)
{
    pascal_point p;
    pascal_error err{};
    EXPECT_EQ(pascal_spec_point(s, i, &p, &err), PASCAL_EINPUT) << "point " << i;
    return err.msg;
}

bool same(double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); }

TEST(SpecExpand, EveryPointOfASmallSpec)
{
    Spec spec;
    parse_ok("name: small\nmodels: [ttl]\n"
             "fixed:\n  N: 64\n  block_bytes: 1KiB\n  sms: 2\n"
             "axes:\n"
             "  capacity_bytes: [4KiB, 8KiB]\n"
             "  occupancy: [1, 3]\n"
             "  pattern: [aligned, lag]\n",
             &spec);
    // Dimensions: occupancy, pattern, then capacity_bytes (capacity-like,
    // moved innermost).  Index = occupancy * 4 + pattern * 2 + capacity.
    struct Row {
        double occupancy, pattern, capacity_bytes, M, C;
    } rows[] = {
        {1, 0, 4 * KiB, 2, 4}, {1, 0, 8 * KiB, 2, 8}, {1, 5, 4 * KiB, 2, 4}, {1, 5, 8 * KiB, 2, 8},
        {3, 0, 4 * KiB, 6, 4}, {3, 0, 8 * KiB, 6, 8}, {3, 5, 4 * KiB, 6, 4}, {3, 5, 8 * KiB, 6, 8},
    };
    ASSERT_EQ(pascal_spec_size(spec.s), 8u);
    for (uint64_t i = 0; i < 8; i++) {
        double want[PASCAL_NPARAM];
        for (double &x : want)
            x = NAN;
        want[PASCAL_P_N] = 64;
        want[PASCAL_P_M] = rows[i].M;
        want[PASCAL_P_C] = rows[i].C;
        want[PASCAL_P_CAPACITY_BYTES] = rows[i].capacity_bytes;
        want[PASCAL_P_BLOCK_BYTES] = 1024;
        want[PASCAL_P_SMS] = 2;
        want[PASCAL_P_OCCUPANCY] = rows[i].occupancy;
        want[PASCAL_P_PATTERN] = rows[i].pattern;
        want[PASCAL_P_CLUSTERS] = 1;  // pattern defaults
        want[PASCAL_P_SPREAD] = 0;
        want[PASCAL_P_SIGMA] = 0;
        want[PASCAL_P_LAG] = 1;
        want[PASCAL_P_SEED] = 1;
        pascal_point p = point(spec.s, i);
        for (int k = 0; k < PASCAL_NPARAM; k++)
            EXPECT_TRUE(same(p.v[k], want[k])) << "point " << i << " " << pascal_params[k].name << ": got "
                                               << p.v[k] << ", want " << want[k];
        EXPECT_EQ(p.phases, nullptr);
    }
    // Order of calls does not matter: the spec is read-only.
    pascal_point late = point(spec.s, 6), early = point(spec.s, 1);
    EXPECT_EQ(late.v[PASCAL_P_OCCUPANCY], 3);
    EXPECT_EQ(early.v[PASCAL_P_C], 8);
}

TEST(SpecExpand, CapacityInnermostCoordinates)
{
    Spec spec;
    parse_ok("name: o\nmodels: [ttl]\nfixed: {N: 4096, M: 8, block_bytes: 1KiB}\n"
             "axes:\n"
             "  capacity_bytes: [1KiB, 2KiB, 4KiB]\n"
             "  pattern: [aligned, clusters]\n"
             "  clusters: [1, 2, 4, 8]\n",
             &spec);
    // Dimensions pattern (2) x clusters (4) x capacity_bytes (3), 24 points:
    // i = pattern * 12 + clusters * 3 + capacity.
    ASSERT_EQ(pascal_spec_size(spec.s), 24u);
    pascal_point p = point(spec.s, 17);  // 17 = 1*12 + 1*3 + 2
    EXPECT_EQ(p.v[PASCAL_P_PATTERN], 1);
    EXPECT_EQ(p.v[PASCAL_P_CLUSTERS], 2);
    EXPECT_EQ(p.v[PASCAL_P_CAPACITY_BYTES], 4 * KiB);
    EXPECT_EQ(p.v[PASCAL_P_C], 4);
    p = point(spec.s, 5);  // 0*12 + 1*3 + 2
    EXPECT_EQ(p.v[PASCAL_P_PATTERN], 0);
    EXPECT_EQ(p.v[PASCAL_P_CLUSTERS], 2);
    EXPECT_EQ(p.v[PASCAL_P_C], 4);
    p = point(spec.s, 22);  // 1*12 + 3*3 + 1
    EXPECT_EQ(p.v[PASCAL_P_PATTERN], 1);
    EXPECT_EQ(p.v[PASCAL_P_CLUSTERS], 8);
    EXPECT_EQ(p.v[PASCAL_P_C], 2);
    // Consecutive points share everything but capacity.
    pascal_point a = point(spec.s, 9), b = point(spec.s, 10);
    EXPECT_EQ(a.v[PASCAL_P_CLUSTERS], b.v[PASCAL_P_CLUSTERS]);
    EXPECT_EQ(a.v[PASCAL_P_C] * 2, b.v[PASCAL_P_C]);
}

TEST(SpecExpand, ZipAdvancesTogether)
{
    Spec spec;
    parse_ok("name: z\nmodels: [ttl]\nfixed: {N: 4096, sms: 48}\n"
             "axes:\n"
             "  occupancy: [1, 2]\n"
             "  block_bytes: [16KiB, 32KiB, 64KiB]\n"
             "  capacity_bytes: [1MiB, 4MiB, 16MiB]\n"
             "zip: [[block_bytes, capacity_bytes]]\n",
             &spec);
    // i = occupancy * 3 + group
    const double block[] = {16 * KiB, 32 * KiB, 64 * KiB}, C[] = {64, 128, 256};
    for (uint64_t i = 0; i < 6; i++) {
        pascal_point p = point(spec.s, i);
        EXPECT_EQ(p.v[PASCAL_P_OCCUPANCY], 1 + (double)(i / 3)) << i;
        EXPECT_EQ(p.v[PASCAL_P_BLOCK_BYTES], block[i % 3]) << i;
        EXPECT_EQ(p.v[PASCAL_P_C], C[i % 3]) << i;
        EXPECT_EQ(p.v[PASCAL_P_M], 48 * p.v[PASCAL_P_OCCUPANCY]) << i;
    }
}

TEST(SpecExpand, WhereFiltersCount)
{
    const std::string head = "name: w\nmodels: [ttl]\nfixed: {N: 100}\n"
                             "axes:\n  C: {from: 10, to: 200, step: 10}\n  M: [1, 2, 4]\n";
    Spec all, one, two, none;
    parse_ok(head, &all);
    EXPECT_EQ(count_kept(all.s), 60u);
    parse_ok(head + "where: C < N\n", &one);
    EXPECT_EQ(count_kept(one.s), 27u);  // C in 10..90, 3 values of M
    parse_ok(head + "where: [C < N, M != 2]\n", &two);
    EXPECT_EQ(count_kept(two.s), 18u);
    parse_ok(head + "where: sms > 0\n", &none);  // sms unset: NaN, false
    EXPECT_EQ(count_kept(none.s), 0u);

    Spec pat;
    parse_ok("name: w\nmodels: [ttl]\nfixed: {N: 100, M: 8, C: 10}\n"
             "axes:\n  pattern: [aligned, clusters, lag]\n  clusters: [1, 2, 4]\n"
             "where: 'pattern == \"clusters\" || clusters == 1'\n",
             &pat);
    EXPECT_EQ(count_kept(pat.s), 5u);  // aligned/1, clusters/1,2,4, lag/1

    Spec sizes;
    parse_ok("name: w\nmodels: [ttl]\nfixed: {N: 100000, M: 8, block_bytes: 16KiB}\n"
             "axes:\n  capacity_bytes: {from: 1MiB, to: 64MiB, num: 7, scale: log}\n"
             "where: capacity_bytes >= 4MiB && C % 512 == 0\n",
             &sizes);
    EXPECT_EQ(count_kept(sizes.s), 4u);  // C = 256..4096; 512, 1024, 2048, 4096
}

TEST(SpecExpand, DerivedN)
{
    Spec spec;
    parse_ok("name: n\nmodels: [ttl]\nfixed: {M: 4, C: 2, block_bytes: 16KiB}\n"
             "axes:\n  data_bytes: [1MiB, 100000, 16KiB]\n",
             &spec);
    EXPECT_EQ(point(spec.s, 0).v[PASCAL_P_N], 64);
    EXPECT_EQ(point(spec.s, 1).v[PASCAL_P_N], 6);  // floor(100000 / 16384) = 6
    EXPECT_EQ(point(spec.s, 2).v[PASCAL_P_N], 1);

    Spec given;  // N given overrides data_bytes / block_bytes
    parse_ok("name: n\nmodels: [ttl]\nfixed: {N: 10, M: 4, C: 2, block_bytes: 16KiB, data_bytes: 1MiB}\n"
             "axes:\n  seed: [7]\n",
             &given);
    EXPECT_EQ(point(given.s, 0).v[PASCAL_P_N], 10);
    EXPECT_EQ(point(given.s, 0).v[PASCAL_P_SEED], 7);
}

TEST(SpecExpand, DerivedM)
{
    Spec prod;
    parse_ok("name: m\nmodels: [ttl]\nfixed: {N: 64, C: 8, sms: 48}\naxes:\n  occupancy: [1, 3]\n", &prod);
    EXPECT_EQ(point(prod.s, 0).v[PASCAL_P_M], 48);
    EXPECT_EQ(point(prod.s, 1).v[PASCAL_P_M], 144);

    Spec given;
    parse_ok("name: m\nmodels: [ttl]\nfixed: {N: 64, C: 8, sms: 48, M: 5}\naxes:\n  occupancy: [1, 3]\n", &given);
    EXPECT_EQ(point(given.s, 1).v[PASCAL_P_M], 5);

    // Explicit lists set M by their length; other patterns use sms * occupancy.
    Spec mixed;
    parse_ok("name: m\nmodels: [ttl]\nfixed: {N: 16, C: 4, sms: 2, occupancy: 4}\n"
             "axes:\n  pattern: [aligned, explicit]\n  phases: [[0, 0, 5], [0, 1, 2, 3, 9]]\n",
             &mixed);
    ASSERT_EQ(pascal_spec_size(mixed.s), 4u);
    pascal_point p = point(mixed.s, 0);
    EXPECT_EQ(p.v[PASCAL_P_M], 8);
    EXPECT_EQ(p.phases, nullptr);
    p = point(mixed.s, 2);
    EXPECT_EQ(p.v[PASCAL_P_PATTERN], 6);
    EXPECT_EQ(p.v[PASCAL_P_PHASES], 0);
    EXPECT_EQ(p.v[PASCAL_P_M], 3);
    ASSERT_NE(p.phases, nullptr);
    EXPECT_EQ(std::vector<int64_t>(p.phases, p.phases + 3), std::vector<int64_t>({0, 0, 5}));
    p = point(mixed.s, 3);
    EXPECT_EQ(p.v[PASCAL_P_M], 5);
    EXPECT_EQ(p.phases[4], 9);
}

TEST(SpecExpand, DerivedCFromDevice)
{
    Spec spec;
    pascal_error err{};
    ASSERT_EQ(pascal_spec_load((kData + "device_defaults.yaml").c_str(), &spec.s, &err), 0) << err.msg;
    // 20MiB effective L2 / 16KiB blocks = 1280; M = 48 SMs * occupancy.
    for (uint64_t i = 0; i < 3; i++) {
        pascal_point p = point(spec.s, i);
        EXPECT_EQ(p.v[PASCAL_P_C], 1280);
        EXPECT_EQ(p.v[PASCAL_P_CAPACITY_BYTES], 20 * MiB);
        EXPECT_EQ(p.v[PASCAL_P_M], 48.0 * (1 << i));
    }
    Spec sizing;
    ASSERT_EQ(pascal_spec_load((kData + "gb10_sizing.yaml").c_str(), &sizing.s, &err), 0) << err.msg;
    // pattern (2) x capacity_bytes (7): 1MiB..64MiB over 16KiB blocks.
    pascal_point p = point(sizing.s, 0);
    EXPECT_EQ(p.v[PASCAL_P_C], 64);
    EXPECT_EQ(p.v[PASCAL_P_M], 96);
    p = point(sizing.s, 13);
    EXPECT_EQ(p.v[PASCAL_P_PATTERN], 1);
    EXPECT_EQ(p.v[PASCAL_P_C], 4096);

    Spec floor_c;  // not a multiple: floor
    parse_ok("name: c\nmodels: [ttl]\nfixed: {N: 64, M: 4, block_bytes: 16KiB}\n"
             "axes:\n  capacity_bytes: [1000000]\n",
             &floor_c);
    EXPECT_EQ(point(floor_c.s, 0).v[PASCAL_P_C], 61);
}

TEST(SpecExpand, PatternParametersGivenOverrideDefaults)
{
    Spec spec;
    parse_ok("name: d\nmodels: [ttl]\nfixed: {N: 64, M: 4, C: 8, pattern: gaussian, sigma: 2.385, seed: 9}\n"
             "axes:\n  lag: [0, 3]\n",
             &spec);
    pascal_point p = point(spec.s, 1);
    EXPECT_EQ(p.v[PASCAL_P_PATTERN], 4);
    EXPECT_EQ(p.v[PASCAL_P_SIGMA], 2.385);
    EXPECT_EQ(p.v[PASCAL_P_SEED], 9);
    EXPECT_EQ(p.v[PASCAL_P_LAG], 3);
    EXPECT_EQ(point(spec.s, 0).v[PASCAL_P_LAG], 0);
    EXPECT_EQ(p.v[PASCAL_P_CLUSTERS], 1);
    EXPECT_TRUE(std::isnan(p.v[PASCAL_P_ASSOC]));  // no default for model parameters
}

TEST(SpecExpandErrors, DerivedCBelowOne)
{
    Spec spec;
    parse_ok("name: c0\nmodels: [ttl]\nfixed:\n  N: 64\n  M: 4\n  block_bytes: 16KiB\n"
             "axes:\n  capacity_bytes: [1KiB, 64KiB]\n",
             &spec);
    EXPECT_EQ(point_error(spec.s, 0),
              "spec.yaml:8:19: axes.capacity_bytes: expected C >= 1, got C = floor(capacity_bytes / block_bytes) = "
              "floor(1024 / 16384) = 0 at point 0 (capacity_bytes=1KiB, block_bytes=16KiB)");
    EXPECT_EQ(point(spec.s, 1).v[PASCAL_P_C], 4);

    // A where filter may drop the invalid combination first.
    Spec filtered;
    parse_ok("name: c0\nmodels: [ttl]\nfixed:\n  N: 64\n  M: 4\n  block_bytes: 16KiB\n"
             "axes:\n  capacity_bytes: [1KiB, 64KiB]\nwhere: capacity_bytes >= block_bytes\n",
             &filtered);
    EXPECT_EQ(count_kept(filtered.s), 1u);
}

TEST(SpecExpandErrors, DerivedNBelowOne)
{
    Spec spec;
    parse_ok("name: n0\nmodels: [ttl]\nfixed: {M: 4, C: 2, block_bytes: 16KiB}\n"
             "axes:\n  data_bytes: [8KiB, 1MiB]\n",
             &spec);
    EXPECT_EQ(point_error(spec.s, 0),
              "spec.yaml:5:15: axes.data_bytes: expected N >= 1, got N = floor(data_bytes / block_bytes) = "
              "floor(8192 / 16384) = 0 at point 0 (data_bytes=8KiB, block_bytes=16KiB)");
}

TEST(SpecExpandErrors, RequireNamesTheRuleAndThePoint)
{
    Spec spec;
    parse_ok("name: r\nmodels: [ttl]\nfixed:\n  N: 1000\n  M: 4\naxes:\n  C: [500, 1000]\nrequire: C < N\n", &spec);
    EXPECT_EQ(point(spec.s, 0).v[PASCAL_P_C], 500);
    EXPECT_EQ(point_error(spec.s, 1),
              "spec.yaml:8:10: require: expected \"C < N\" at every point, got false at point 1 (C=1000) with "
              "N=1000, C=1000");

    Spec list;
    parse_ok("name: r\nmodels: [ttl]\nfixed:\n  N: 1000\n  M: 4\naxes:\n  capacity_bytes: [4MiB, 32MiB]\n"
             "  block_bytes: [16KiB]\nrequire: [\"M >= 1\", \"C < N\"]\n",
             &list);
    // 32MiB / 16KiB = 2048 >= 1000.
    EXPECT_EQ(point_error(list.s, 1),
              "spec.yaml:9:21: require[1]: expected \"C < N\" at every point, got false at point 1 "
              "(block_bytes=16KiB, capacity_bytes=32MiB) with N=1000, C=2048");

    // Dropped points are not checked.
    Spec dropped;
    parse_ok("name: r\nmodels: [ttl]\nfixed:\n  N: 1000\n  M: 4\naxes:\n  C: [500, 1000]\nrequire: C < N\n"
             "where: C <= 500\n",
             &dropped);
    EXPECT_EQ(count_kept(dropped.s), 1u);
}

TEST(SpecExpandErrors, ExplicitListsAgainstMAndN)
{
    Spec wrong_m;
    parse_ok("name: e\nmodels: [ttl]\nfixed: {N: 16, C: 4, M: 4, pattern: explicit}\n"
             "axes:\n  phases: [[0, 1, 2, 3], [0, 1, 2]]\n",
             &wrong_m);
    EXPECT_EQ(point(wrong_m.s, 0).v[PASCAL_P_M], 4);
    EXPECT_EQ(point_error(wrong_m.s, 1),
              "spec.yaml:5:11: axes.phases: expected a phase list of M = 4 phases, got 3 phases at point 1 "
              "(phases=list 1, M=4)");

    Spec big_phase;
    parse_ok("name: e\nmodels: [ttl]\nfixed: {N: 4, C: 2, pattern: explicit}\n"
             "axes:\n  phases: [[0, 3], [1, 4]]\n",
             &big_phase);
    EXPECT_EQ(point(big_phase.s, 0).v[PASCAL_P_M], 2);
    EXPECT_EQ(point_error(big_phase.s, 1),
              "spec.yaml:5:11: axes.phases: expected phases < N = 4, got phase 4 (worker 1) at point 1 "
              "(phases=list 1, N=4)");
}

TEST(SpecExpandErrors, IndexOutOfRange)
{
    Spec spec;
    parse_ok("name: x\nmodels: [ttl]\nfixed: {N: 8, M: 2}\naxes:\n  C: [1, 2]\n", &spec);
    pascal_point p;
    pascal_error err{};
    EXPECT_EQ(pascal_spec_point(spec.s, 2, &p, &err), PASCAL_EINTERNAL);
    EXPECT_EQ(std::string(err.msg), "spec.yaml: point 2 is outside the sweep's 2 points");
}

}  // namespace
