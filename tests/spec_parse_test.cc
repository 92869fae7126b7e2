// Spec parsing (sweeps/spec.h): every axis form against values worked out
// by hand, zip, columns, output options, device profiles, and every kind of
// bad input with the exact "file:line:col: key.path:" prefix of its message.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "sweeps/spec.h"

namespace {

const std::string kData = std::string(PASCAL_SOURCE_DIR) + "/tests/data/specs/";
const double MiB = 1048576.0, KiB = 1024.0;

struct Spec {
    pascal_spec *s = nullptr;
    ~Spec() { pascal_spec_free(s); }
};

// A valid base: lines 1-7; tests append or swap lines.
const std::string kHead = "name: t\n"        // 1
                          "models: [ttl]\n"  // 2
                          "fixed:\n"         // 3
                          "  N: 8192\n"      // 4
                          "  M: 16\n"        // 5
                          "axes:\n";         // 6

void parse_ok(const std::string &yaml, Spec *spec)
{
    pascal_error err{};
    int rc = pascal_spec_parse(yaml.data(), yaml.size(), "spec.yaml", &spec->s, &err);
    ASSERT_EQ(rc, 0) << err.msg << "\n" << yaml;
    ASSERT_NE(spec->s, nullptr);
}

// Parses text that must be rejected with PASCAL_EINPUT; returns the message.
std::string parse_bad(const std::string &yaml)
{
    pascal_spec *s = nullptr;
    pascal_error err{};
    int rc = pascal_spec_parse(yaml.data(), yaml.size(), "spec.yaml", &s, &err);
    EXPECT_EQ(rc, PASCAL_EINPUT) << yaml;
    EXPECT_EQ(s, nullptr);
    pascal_spec_free(s);
    return err.msg;
}

std::string load_bad(const std::string &file, int code = PASCAL_EINPUT)
{
    pascal_spec *s = nullptr;
    pascal_error err{};
    int rc = pascal_spec_load((kData + file).c_str(), &s, &err);
    EXPECT_EQ(rc, code) << file;
    EXPECT_EQ(s, nullptr);
    pascal_spec_free(s);
    return err.msg;
}

#define EXPECT_PREFIX(msg, prefix)                                                   \
    do {                                                                             \
        std::string m_ = (msg), p_ = (prefix);                                       \
        EXPECT_EQ(m_.compare(0, p_.size(), p_), 0) << "message: " << m_ << "\nwant prefix: " << p_; \
        EXPECT_NE(m_.find("expected"), std::string::npos) << m_;                     \
        EXPECT_NE(m_.find("got"), std::string::npos) << m_;                          \
    } while (0)

std::vector<double> axis_values(const pascal_spec *s, int param)
{
    for (int i = 0; i < pascal_spec_naxes(s); i++) {
        const pascal_axis *a = pascal_spec_axis(s, i);
        if (a->param == param)
            return std::vector<double>(a->values, a->values + a->count);
    }
    ADD_FAILURE() << "no axis " << pascal_params[param].name;
    return {};
}

std::vector<double> axis_of(const std::string &axis_line, int param)
{
    Spec spec;
    parse_ok(kHead + axis_line + "\n  C: [100]\n", &spec);
    if (!spec.s)
        return {};
    return axis_values(spec.s, param);
}

typedef std::vector<double> V;

std::string read_file(const std::string &path)
{
    std::ifstream f(path, std::ios::binary);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

TEST(SpecParse, ListAxes)
{
    EXPECT_EQ(axis_of("  occupancy: [1, 2, 4, 8]", PASCAL_P_OCCUPANCY), V({1, 2, 4, 8}));
    EXPECT_EQ(axis_of("  capacity_bytes: [1MiB, 1536KiB, 20 MiB, 4096, 2GB]", PASCAL_P_CAPACITY_BYTES),
              V({MiB, 1536 * KiB, 20 * MiB, 4096, 2e9}));
    EXPECT_EQ(axis_of("  sigma: [0, 2.385, 1e3]", PASCAL_P_SIGMA), V({0, 2.385, 1000}));
    EXPECT_EQ(axis_of("  pattern: [aligned, clusters, uniform, explicit]\n  phases: [[0]]", PASCAL_P_PATTERN),
              V({0, 1, 3, 6}));
    EXPECT_EQ(axis_of("  spread:\n    - 0\n    - 17", PASCAL_P_SPREAD), V({0, 17}));
}

TEST(SpecParse, StepRanges)
{
    EXPECT_EQ(axis_of("  clusters: {from: 1, to: 9, step: 2}", PASCAL_P_CLUSTERS), V({1, 3, 5, 7, 9}));
    EXPECT_EQ(axis_of("  clusters: {from: 1, to: 10, step: 4}", PASCAL_P_CLUSTERS), V({1, 5, 9}));
    EXPECT_EQ(axis_of("  clusters: {from: 8, to: 2, step: -2}", PASCAL_P_CLUSTERS), V({8, 6, 4, 2}));
    EXPECT_EQ(axis_of("  clusters: {from: 5, to: 5, step: 3}", PASCAL_P_CLUSTERS), V({5}));
    EXPECT_EQ(axis_of("  capacity_bytes: {from: 1MiB, to: 4MiB, step: 1MiB}", PASCAL_P_CAPACITY_BYTES),
              V({MiB, 2 * MiB, 3 * MiB, 4 * MiB}));
    EXPECT_EQ(axis_of("  capacity_bytes: {from: 3MiB, to: 1MiB, step: -1MiB}", PASCAL_P_CAPACITY_BYTES),
              V({3 * MiB, 2 * MiB, MiB}));
    EXPECT_EQ(axis_of("  capacity_bytes: {from: 8KiB, to: 16KiB, step: 4096}", PASCAL_P_CAPACITY_BYTES),
              V({8 * KiB, 12 * KiB, 16 * KiB}));
    // Real steps come out as the decimals they name, not accumulated noise.
    EXPECT_EQ(axis_of("  horizon: {from: 0, to: 1, step: 0.1}", PASCAL_P_HORIZON),
              V({0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1}));
}

TEST(SpecParse, NumRanges)
{
    EXPECT_EQ(axis_of("  clusters: {from: 1, to: 10, num: 4}", PASCAL_P_CLUSTERS), V({1, 4, 7, 10}));
    // 5.5 rounds half away from zero.
    EXPECT_EQ(axis_of("  clusters: {from: 1, to: 10, num: 3, scale: linear}", PASCAL_P_CLUSTERS), V({1, 6, 10}));
    EXPECT_EQ(axis_of("  clusters: {from: 7, to: 7, num: 1}", PASCAL_P_CLUSTERS), V({7}));
    // Log range 1MiB..64MiB, 7 points: the powers of two.
    EXPECT_EQ(axis_of("  capacity_bytes: {from: 1MiB, to: 64MiB, num: 7, scale: log}", PASCAL_P_CAPACITY_BYTES),
              V({MiB, 2 * MiB, 4 * MiB, 8 * MiB, 16 * MiB, 32 * MiB, 64 * MiB}));
    EXPECT_EQ(axis_of("  eps: {from: 0.001, to: 1, num: 4, scale: log}", PASCAL_P_EPS), V({0.001, 0.01, 0.1, 1}));
    EXPECT_EQ(axis_of("  alpha: {from: 0.1, to: 0.5, num: 5}", PASCAL_P_ALPHA), V({0.1, 0.2, 0.3, 0.4, 0.5}));
    // 3 log points from 10 to 1000 on an integer axis: 10, 100, 1000.
    EXPECT_EQ(axis_of("  lead: {from: 10, to: 1000, num: 3, scale: log}", PASCAL_P_LEAD), V({10, 100, 1000}));
}

TEST(SpecParse, FactorRanges)
{
    EXPECT_EQ(axis_of("  clusters: {from: 1, to: 48, factor: 2}", PASCAL_P_CLUSTERS), V({1, 2, 4, 8, 16, 32}));
    EXPECT_EQ(axis_of("  clusters: {from: 3, to: 81, factor: 3}", PASCAL_P_CLUSTERS), V({3, 9, 27, 81}));
    EXPECT_EQ(axis_of("  capacity_bytes: {from: 1MiB, to: 64MiB, factor: 4}", PASCAL_P_CAPACITY_BYTES),
              V({MiB, 4 * MiB, 16 * MiB, 64 * MiB}));
    EXPECT_EQ(axis_of("  sigma: {from: 0.5, to: 5, factor: 1.5}", PASCAL_P_SIGMA),
              V({0.5, 0.75, 1.125, 1.6875, 2.53125, 3.796875}));
}

TEST(SpecParse, PhaseListsAndExplicitPattern)
{
    Spec spec;
    parse_ok("name: p\nmodels: [ttl]\nfixed: {N: 16, C: 4, pattern: explicit}\n"
             "axes:\n  phases: [[0, 0, 5], [0, 1, 2, 3]]\n",
             &spec);
    EXPECT_EQ(pascal_spec_nphase_lists(spec.s), 2);
    int64_t len = 0;
    const int64_t *l0 = pascal_spec_phase_list(spec.s, 0, &len);
    ASSERT_EQ(len, 3);
    EXPECT_EQ(std::vector<int64_t>(l0, l0 + 3), std::vector<int64_t>({0, 0, 5}));
    const int64_t *l1 = pascal_spec_phase_list(spec.s, 1, &len);
    ASSERT_EQ(len, 4);
    EXPECT_EQ(std::vector<int64_t>(l1, l1 + 4), std::vector<int64_t>({0, 1, 2, 3}));
    EXPECT_EQ(pascal_spec_phase_list(spec.s, 2, &len), nullptr);
    EXPECT_EQ(axis_values(spec.s, PASCAL_P_PHASES), V({0, 1}));

    Spec fixed;
    parse_ok("name: p\nmodels: [ttl]\nfixed: {N: 16, C: 4, pattern: explicit, phases: [3, 1, 4, 1, 5]}\n"
             "axes:\n  seed: [1, 2]\n",
             &fixed);
    const pascal_point *f = pascal_spec_fixed(fixed.s);
    EXPECT_EQ(f->v[PASCAL_P_PHASES], 0);
    ASSERT_NE(f->phases, nullptr);
    EXPECT_EQ(f->phases[2], 4);
}

TEST(SpecParse, ZipGroupsShareADimension)
{
    Spec spec;
    parse_ok("name: z\nmodels: [ttl]\nfixed: {N: 4096, sms: 48}\n"
             "axes:\n"
             "  occupancy: [1, 2]\n"
             "  block_bytes: [16KiB, 32KiB, 64KiB]\n"
             "  capacity_bytes: [1MiB, 2MiB, 4MiB]\n"
             "zip:\n  - [block_bytes, capacity_bytes]\n",
             &spec);
    EXPECT_EQ(pascal_spec_ndims(spec.s), 2);
    EXPECT_EQ(pascal_spec_size(spec.s), 6u);
    EXPECT_EQ(pascal_spec_dim_size(spec.s, 0), 2);
    EXPECT_EQ(pascal_spec_dim_size(spec.s, 1), 3);
    ASSERT_EQ(pascal_spec_naxes(spec.s), 3);
    // block_bytes is not capacity-like, so the group keeps its place.
    EXPECT_EQ(pascal_spec_axis(spec.s, 0)->param, PASCAL_P_OCCUPANCY);
    EXPECT_EQ(pascal_spec_axis(spec.s, 1)->param, PASCAL_P_BLOCK_BYTES);
    EXPECT_EQ(pascal_spec_axis(spec.s, 2)->param, PASCAL_P_CAPACITY_BYTES);
    EXPECT_EQ(pascal_spec_axis(spec.s, 1)->dim, 1);
    EXPECT_EQ(pascal_spec_axis(spec.s, 2)->dim, 1);
}

TEST(SpecParse, CanonicalOrderMovesInnerDimensionsLast)
{
    Spec spec;
    parse_ok("name: o\nmodels: [ttl, sdcm]\nfixed: {N: 4096, M: 8, block_bytes: 1KiB}\n"
             "axes:\n"
             "  capacity_bytes: [1KiB, 2KiB, 4KiB]\n"
             "  assoc: [4, 16]\n"
             "  pattern: [aligned, clusters]\n"
             "  C: [10]\n"
             "  clusters: [1, 2, 4, 8]\n",
             &spec);
    // Spec order capacity_bytes, assoc, pattern, C, clusters; the INNER ones
    // (capacity_bytes, assoc, C) move after pattern and clusters, keeping
    // their relative order.
    const int want[] = {PASCAL_P_PATTERN, PASCAL_P_CLUSTERS, PASCAL_P_CAPACITY_BYTES, PASCAL_P_ASSOC, PASCAL_P_C};
    ASSERT_EQ(pascal_spec_naxes(spec.s), 5);
    for (int i = 0; i < 5; i++) {
        EXPECT_EQ(pascal_spec_axis(spec.s, i)->param, want[i]) << i;
        EXPECT_EQ(pascal_spec_axis(spec.s, i)->dim, i);
    }
    EXPECT_EQ(pascal_spec_size(spec.s), 2u * 4 * 3 * 2 * 1);
}

TEST(SpecParse, ColumnsDefaultAndExplicit)
{
    Spec all;
    parse_ok(kHead + "  C: [100]\n", &all);
    // Default: every column of ttl, in pascal_column_id order.
    const int ttl[] = {PASCAL_COL_D, PASCAL_COL_THETA, PASCAL_COL_T_STAR, PASCAL_COL_K_TTL, PASCAL_COL_RHO_TTL};
    ASSERT_EQ(pascal_spec_ncolumns(all.s), 5);
    EXPECT_EQ(std::vector<int>(pascal_spec_columns(all.s), pascal_spec_columns(all.s) + 5),
              std::vector<int>(ttl, ttl + 5));
    EXPECT_EQ(pascal_spec_models(all.s), 1u << PASCAL_MODEL_TTL);

    Spec two;
    parse_ok("name: t\nmodels: [che, ttl]\n"
             "fixed: {N: 8192, M: 16}\naxes:\n  C: [100]\n",
             &two);
    // Column order follows pascal_column_id, not the models list.
    ASSERT_EQ(pascal_spec_ncolumns(two.s), 7);
    EXPECT_EQ(pascal_spec_columns(two.s)[0], PASCAL_COL_D);
    EXPECT_EQ(pascal_spec_columns(two.s)[5], PASCAL_COL_RHO_CHE);
    EXPECT_EQ(pascal_spec_columns(two.s)[6], PASCAL_COL_K_CHE);
    EXPECT_EQ(pascal_spec_models(two.s), (1u << PASCAL_MODEL_TTL) | (1u << PASCAL_MODEL_CHE));

    Spec some;
    parse_ok("name: t\nmodels: [ttl, che]\ncolumns: [rho_che, K_ttl]\n"
             "fixed: {N: 8192, M: 16}\naxes:\n  C: [100]\n",
             &some);
    ASSERT_EQ(pascal_spec_ncolumns(some.s), 2);
    EXPECT_EQ(pascal_spec_columns(some.s)[0], PASCAL_COL_RHO_CHE);
    EXPECT_EQ(pascal_spec_columns(some.s)[1], PASCAL_COL_K_TTL);
}

TEST(SpecParse, TextNameOutputAndNullSections)
{
    std::string yaml = "name: out\ndescription: a test\nmodels: [ttl]\nfixed:\n"
                       "axes: {N: [64], M: [4], C: [8]}\nwhere:\nzip:\n"
                       "output: {compression: 7, shuffle: false, chunk_rows: 1024}\n";
    Spec spec;
    parse_ok(yaml, &spec);
    EXPECT_STREQ(pascal_spec_name(spec.s), "out");
    EXPECT_STREQ(pascal_spec_description(spec.s), "a test");
    EXPECT_STREQ(pascal_spec_filename(spec.s), "spec.yaml");
    EXPECT_EQ(pascal_spec_text(spec.s), yaml);
    EXPECT_STREQ(pascal_spec_device_text(spec.s), "");
    pascal_spec_output o = pascal_spec_output_options(spec.s);
    EXPECT_EQ(o.compression, 7);
    EXPECT_EQ(o.shuffle, 0);
    EXPECT_EQ(o.chunk_rows, 1024);

    Spec defaults;
    parse_ok(kHead + "  C: [100]\n", &defaults);
    o = pascal_spec_output_options(defaults.s);
    EXPECT_EQ(o.compression, 1);
    EXPECT_EQ(o.shuffle, 1);
    EXPECT_EQ(o.chunk_rows, 65536);

    Spec named;
    parse_ok(kHead + "  C: [100]\noutput: {compression: gzip}\n", &named);
    EXPECT_EQ(pascal_spec_output_options(named.s).compression, 4);
    Spec none;
    parse_ok(kHead + "  C: [100]\noutput: {compression: none}\n", &none);
    EXPECT_EQ(pascal_spec_output_options(none.s).compression, 0);
}

TEST(SpecParse, DeviceProfileSuppliesDefaults)
{
    Spec spec;
    pascal_error err{};
    ASSERT_EQ(pascal_spec_load((kData + "gb10_sizing.yaml").c_str(), &spec.s, &err), 0) << err.msg;
    const pascal_point *f = pascal_spec_fixed(spec.s);
    EXPECT_EQ(f->v[PASCAL_P_SMS], 48);
    // capacity_bytes is an axis, so the device's 20MiB is not a fixed value.
    EXPECT_TRUE(std::isnan(f->v[PASCAL_P_CAPACITY_BYTES]));
    EXPECT_EQ(f->v[PASCAL_P_BLOCK_BYTES], 16 * KiB);
    EXPECT_EQ(f->v[PASCAL_P_N], 8192);
    EXPECT_TRUE(std::isnan(f->v[PASCAL_P_C]));
    EXPECT_EQ(pascal_spec_size(spec.s), 14u);
    EXPECT_EQ(std::string(pascal_spec_device_text(spec.s)), read_file(kData + "devices/gb10.yaml"));
    EXPECT_EQ(std::string(pascal_spec_text(spec.s)), read_file(kData + "gb10_sizing.yaml"));
    EXPECT_EQ(std::string(pascal_spec_device_path(spec.s)), kData + "devices/gb10.yaml");
    EXPECT_STREQ(pascal_spec_description(spec.s), "capacity sweep with device defaults");
    pascal_spec_output o = pascal_spec_output_options(spec.s);
    EXPECT_EQ(o.compression, 4);
    EXPECT_EQ(o.shuffle, 0);
    EXPECT_EQ(o.chunk_rows, 1024);
    EXPECT_EQ(pascal_spec_ncolumns(spec.s), 14);

    Spec dflt;
    ASSERT_EQ(pascal_spec_load((kData + "device_defaults.yaml").c_str(), &dflt.s, &err), 0) << err.msg;
    EXPECT_EQ(pascal_spec_fixed(dflt.s)->v[PASCAL_P_CAPACITY_BYTES], 20 * MiB);  // effective, not 24MiB

    Spec l2;
    ASSERT_EQ(pascal_spec_load((kData + "l2_only.yaml").c_str(), &l2.s, &err), 0) << err.msg;
    EXPECT_EQ(pascal_spec_fixed(l2.s)->v[PASCAL_P_CAPACITY_BYTES], 50 * MiB);   // no effective: l2_bytes
    EXPECT_EQ(pascal_spec_fixed(l2.s)->v[PASCAL_P_SMS], 132);
}

TEST(SpecParse, FixedOverridesDevice)
{
    std::string yaml = "name: o\ndevice: devices/gb10.yaml\nmodels: [ttl]\n"
                       "fixed: {N: 8192, block_bytes: 16KiB, sms: 24, capacity_bytes: 4MiB}\n"
                       "axes:\n  occupancy: [1, 2]\n";
    Spec spec;
    pascal_error err{};
    std::string name = kData + "inline.yaml";  // resolves devices/ beside it
    ASSERT_EQ(pascal_spec_parse(yaml.data(), yaml.size(), name.c_str(), &spec.s, &err), 0) << err.msg;
    EXPECT_EQ(pascal_spec_fixed(spec.s)->v[PASCAL_P_SMS], 24);
    EXPECT_EQ(pascal_spec_fixed(spec.s)->v[PASCAL_P_CAPACITY_BYTES], 4 * MiB);
}

// ---- bad input ----

TEST(SpecParseErrors, UnknownKeysListTheValidOnes)
{
    std::string m = parse_bad(kHead + "  C: [100, 200]\ncolums: [D]\n");
    EXPECT_PREFIX(m, "spec.yaml:8:1: colums: expected one of the keys name, description, device, models, columns, "
                     "fixed, axes, zip, where, require, output, calibration, workload, extrapolation, sample, search, infeasible, model; got \"colums\"");
    m = parse_bad(kHead + "  C: {from: 1, to: 8, stp: 1}\n");
    EXPECT_PREFIX(m, "spec.yaml:7:23: axes.C.stp: expected one of the keys from, to, step, num, factor, scale; "
                     "got \"stp\"");
    m = parse_bad("name: t\nmodels: [ttl]\nfixed:\n  NN: 8192\n  M: 16\naxes:\n  C: [1]\n");
    EXPECT_PREFIX(m, "spec.yaml:4:3: fixed.NN: expected one of the keys N, M, C, data_bytes, capacity_bytes,");
    m = parse_bad(kHead + "  C: [100]\noutput: {level: 3}\n");
    EXPECT_PREFIX(m, "spec.yaml:8:10: output.level: expected one of the keys compression, shuffle, chunk_rows;");
    m = load_bad("bad_device_key.yaml");
    EXPECT_PREFIX(m, kData + "devices/bad_key.yaml:3:1: l2: expected one of the keys name, sms, l2_bytes, "
                             "effective_l2_bytes, compute_capability, notes, sim, limits, rates, costs; got \"l2\"");
}

TEST(SpecParseErrors, WrongTypes)
{
    const std::string tail = "  M: 16\naxes:\n  C: [1]\n";
    EXPECT_PREFIX(parse_bad("name: t\nmodels: [ttl]\nfixed:\n  N: abc\n" + tail),
                  "spec.yaml:4:6: fixed.N: expected a positive integer, got \"abc\"");
    EXPECT_PREFIX(parse_bad("name: t\nmodels: [ttl]\nfixed:\n  N: 1.5\n" + tail),
                  "spec.yaml:4:6: fixed.N: expected a positive integer, got \"1.5\"");
    EXPECT_PREFIX(parse_bad("name: t\nmodels: [ttl]\nfixed:\n  N: \"8192\"\n" + tail),
                  "spec.yaml:4:6: fixed.N: expected a positive integer, got \"8192\" (quoted, so a string)");
    EXPECT_PREFIX(parse_bad("name: t\nmodels: [ttl]\nfixed:\n  N: -3\n" + tail),
                  "spec.yaml:4:6: fixed.N: expected a positive integer, got -3");
    EXPECT_PREFIX(parse_bad("name: t\nmodels: [ttl]\nfixed:\n  N: 9007199254740993\n" + tail),
                  "spec.yaml:4:6: fixed.N: expected a positive integer of at most 2^53, got 9007199254740993");
    EXPECT_PREFIX(parse_bad("name: t\nmodels: [ttl]\nfixed:\n  N: [1, 2]\n" + tail),
                  "spec.yaml:4:6: fixed.N: expected a positive integer, got a list (lists go under axes)");
    EXPECT_PREFIX(parse_bad("name: t\nmodels: [ttl]\nfixed:\n  N: 8\n  spread: -1\n" + tail),
                  "spec.yaml:5:11: fixed.spread: expected a non-negative integer, got -1");
    EXPECT_PREFIX(parse_bad("name: t\nmodels: [ttl]\nfixed:\n  N: 8\n  sigma: 1.2.3\n" + tail),
                  "spec.yaml:5:10: fixed.sigma: expected a non-negative number, got \"1.2.3\"");
    EXPECT_PREFIX(parse_bad("name: t\nmodels: [ttl]\nfixed:\n  N: 8\n  pattern: clustered\n" + tail),
                  "spec.yaml:5:12: fixed.pattern: expected a pattern name (aligned, clusters, equal, uniform, "
                  "gaussian, lag, explicit), got \"clustered\"");
    EXPECT_PREFIX(parse_bad("name: t\nmodels: 5\nfixed: {N: 8, M: 16}\naxes:\n  C: [1]\n"),
                  "spec.yaml:2:9: models: expected a non-empty list of models (ttl, lru_band, lru, sdcm, "
                  "residency, che, margin, sharing, catchup, lru_replay, belady, dynamic, workload, traffic, simulate, step), got \"5\"");
    EXPECT_PREFIX(parse_bad("name: [a]\nmodels: [ttl]\nfixed: {N: 8, M: 1}\naxes:\n  C: [1]\n"),
                  "spec.yaml:1:7: name: expected a sweep name, got a list");
    EXPECT_PREFIX(parse_bad(kHead + "  C: 100\n"),
                  "spec.yaml:7:6: axes.C: expected a list like [1, 2, 4] or a range like {from: 1, to: 8, step: 1}");
    EXPECT_PREFIX(parse_bad(kHead + "  C: [1]\n  pattern: {from: 1, to: 2, step: 1}\n"),
                  "spec.yaml:8:12: axes.pattern: expected a list of pattern names, got a range");
    EXPECT_PREFIX(parse_bad(kHead + "  C: [1]\n  pattern: [explicit]\n  phases: [0, 0, 5]\n"),
                  "spec.yaml:9:12: axes.phases[0]: expected a phase list like [0, 0, 5] (an axis of phases is a "
                  "list of lists), got \"0\"");
    EXPECT_PREFIX(parse_bad(kHead + "  C: [1]\n  pattern: [explicit]\n  phases: [[0, -1]]\n"),
                  "spec.yaml:9:16: axes.phases[0][1]: expected a non-negative integer phase, got \"-1\"");
    EXPECT_PREFIX(parse_bad(kHead + "  C: [1]\noutput: {compression: 10}\n"),
                  "spec.yaml:8:23: output.compression: expected a deflate level 0..9, none or gzip (level 4), "
                  "got \"10\"");
    EXPECT_PREFIX(parse_bad(kHead + "  C: [1]\noutput: {shuffle: maybe}\n"),
                  "spec.yaml:8:19: output.shuffle: expected true or false, got \"maybe\"");
    EXPECT_PREFIX(parse_bad(kHead + "  C: [1]\noutput: {chunk_rows: 0}\n"),
                  "spec.yaml:8:22: output.chunk_rows: expected a positive integer of at most 1048576 rows, "
                  "got \"0\"");
    EXPECT_PREFIX(parse_bad(kHead + "  C: [1]\nwhere: [C < N, [1]]\n"),
                  "spec.yaml:8:16: where[1]: expected an expression like \"C < N\", got a list");
}

TEST(SpecParseErrors, BadSizes)
{
    // negative, zero, malformed unit
    EXPECT_PREFIX(parse_bad(kHead + "  capacity_bytes: [1MiB, 2MiB, -3]\n"),
                  "spec.yaml:7:32: axes.capacity_bytes[2]: expected a size like 20MiB, got \"-3\"");
    EXPECT_PREFIX(parse_bad(kHead + "  C: [1]\n  block_bytes: [0]\n"),
                  "spec.yaml:8:17: axes.block_bytes[0]: expected a size like 20MiB, got \"0\"");
    EXPECT_PREFIX(parse_bad("name: t\nmodels: [ttl]\nfixed:\n  block_bytes: 0\n"),
                  "spec.yaml:4:16: fixed.block_bytes: expected a size like 20MiB, got \"0\"");
    EXPECT_PREFIX(parse_bad("name: t\nmodels: [ttl]\nfixed:\n  block_bytes: 20MiBs\n"),
                  "spec.yaml:4:16: fixed.block_bytes: expected a size like 20MiB, got \"20MiBs\"");
    EXPECT_PREFIX(parse_bad("name: t\nmodels: [ttl]\nfixed:\n  block_bytes: 0.3KiB\n"),
                  "spec.yaml:4:16: fixed.block_bytes: expected a size like 20MiB, got \"0.3KiB\"");
    EXPECT_PREFIX(parse_bad("name: t\nmodels: [ttl]\nfixed:\n  block_bytes: 1.3B\n"),
                  "spec.yaml:4:16: fixed.block_bytes: expected a size like 20MiB, got \"1.3B\"");
}

TEST(SpecParseErrors, BadAxes)
{
    EXPECT_PREFIX(parse_bad(kHead + "  C: []\n"),
                  "spec.yaml:7:6: axes.C: expected at least one value, got an empty axis []");
    EXPECT_PREFIX(parse_bad(kHead + "  C: {from: 1, to: 8, step: 0}\n"),
                  "spec.yaml:7:29: axes.C.step: expected a nonzero step (a range with zero step never ends), got 0");
    EXPECT_PREFIX(parse_bad(kHead + "  capacity_bytes: {from: 1MiB, to: 8MiB, step: 0}\n"),
                  "spec.yaml:7:48: axes.capacity_bytes.step: expected a nonzero step");
    EXPECT_PREFIX(parse_bad(kHead + "  C: {from: 8, to: 1, step: 1}\n"),
                  "spec.yaml:7:29: axes.C.step: expected a negative step to go from 8 to 1, got 1");
    EXPECT_PREFIX(parse_bad(kHead + "  C: {from: 1, to: 8, step: 1.5}\n"),
                  "spec.yaml:7:29: axes.C.step: expected an integer step, got \"1.5\"");
    EXPECT_PREFIX(parse_bad(kHead + "  C: {from: 1, to: 8}\n"),
                  "spec.yaml:7:6: axes.C: expected exactly one of step, num or factor, got none");
    EXPECT_PREFIX(parse_bad(kHead + "  C: {from: 1, to: 8, step: 1, num: 8}\n"),
                  "spec.yaml:7:6: axes.C: expected exactly one of step, num or factor, got more than one");
    EXPECT_PREFIX(parse_bad(kHead + "  C: {to: 8, num: 8}\n"),
                  "spec.yaml:7:6: axes.C.from: expected a positive integer, got nothing (the range has no from)");
    EXPECT_PREFIX(parse_bad(kHead + "  C: {from: 1, to: 8, step: 1, scale: log}\n"),
                  "spec.yaml:7:39: axes.C.scale: expected scale only with num, got scale with step");
    EXPECT_PREFIX(parse_bad(kHead + "  C: {from: 1, to: 8, num: 4, scale: ln}\n"),
                  "spec.yaml:7:38: axes.C.scale: expected linear or log, got \"ln\"");
    EXPECT_PREFIX(parse_bad(kHead + "  C: [1]\n  horizon: {from: 0, to: 8, num: 4, scale: log}\n"),
                  "spec.yaml:8:12: axes.horizon: expected from > 0 and to > 0 for scale: log, got from 0, to 8");
    EXPECT_PREFIX(parse_bad(kHead + "  C: {from: 1, to: 8, num: 0}\n"),
                  "spec.yaml:7:28: axes.C.num: expected a positive integer, got \"0\"");
    EXPECT_PREFIX(parse_bad(kHead + "  C: {from: 1, to: 8, num: 1}\n"),
                  "spec.yaml:7:28: axes.C.num: expected num >= 2 for a range whose from and to differ, got 1");
    EXPECT_PREFIX(parse_bad(kHead + "  C: {from: 1, to: 8, factor: 1}\n"),
                  "spec.yaml:7:31: axes.C.factor: expected a factor > 1, got \"1\"");
    EXPECT_PREFIX(parse_bad(kHead + "  C: {from: 8, to: 1, factor: 2}\n"),
                  "spec.yaml:7:6: axes.C: expected 0 < from <= to for a factor range, got from 8, to 1");
    // 8 points between 1 and 4 cannot all be distinct integers: never drop silently.
    EXPECT_PREFIX(parse_bad(kHead + "  C: {from: 1, to: 4, num: 8}\n"),
                  "spec.yaml:7:6: axes.C: expected distinct values after rounding to whole numbers, got 1 twice");
    EXPECT_PREFIX(parse_bad(kHead + "  C: {from: 1, to: 20000000, step: 1}\n"),
                  "spec.yaml:7:6: axes.C: expected at most 10000000 values per axis, got 20000000");
    EXPECT_PREFIX(parse_bad(kHead + "  C: {from: 1, to: 2, num: 10000001}\n"),
                  "spec.yaml:7:28: axes.C.num: expected at most 10000000 values per axis, got 10000001");
    EXPECT_PREFIX(parse_bad("name: t\nmodels: [ttl]\nfixed: {N: 8, M: 1, C: 1}\naxes: {}\n"),
                  "spec.yaml:4:7: axes: expected at least one axis, got an empty mapping");
}

TEST(SpecParseErrors, MoreThanTwoToThe64Points)
{
    // 7 axes of 1000 values: 10^21 > 2^64 (about 1.8e19).
    std::string yaml = "name: big\nmodels: [ttl]\nfixed: {N: 100000}\naxes:\n";
    const char *names[] = {"M", "C", "clusters", "spread", "lag", "seed", "assoc"};
    for (const char *n : names)
        yaml += std::string("  ") + n + ": {from: 1, to: 1000, step: 1}\n";
    std::string m = parse_bad(yaml);
    EXPECT_PREFIX(m, "spec.yaml:4:1: axes: expected fewer than 2^64 points, got more: the sweep has more than 2^64 "
                     "points (1000 (M) x 1000 (clusters) x 1000 (spread) x 1000 (lag) x 1000 (seed) x 1000 (C) x "
                     "1000 (assoc))");

    // Six of them fit: 10^18 points, allocated lazily.
    std::string ok = "name: big\nmodels: [ttl]\nfixed: {N: 100000}\naxes:\n";
    for (int i = 0; i < 6; i++)
        ok += std::string("  ") + names[i] + ": {from: 1, to: 1000, step: 1}\n";
    Spec spec;
    parse_ok(ok, &spec);
    EXPECT_EQ(pascal_spec_size(spec.s), 1000000000000000000ull);
}

TEST(SpecParseErrors, NotYaml)
{
    EXPECT_PREFIX(load_bad("truncated.yaml"),
                  kData + "truncated.yaml:8:1: expected valid YAML, got a syntax error: did not find expected node "
                          "content");
    // Cut in the middle of a flow list, in memory.
    std::string full = kHead + "  C: [100, 200, 400]\n";
    std::string cut = full.substr(0, full.find("200"));
    EXPECT_PREFIX(parse_bad(cut), "spec.yaml:8:1: expected valid YAML, got a syntax error: did not find expected "
                                  "node content while parsing a flow node");
    EXPECT_PREFIX(load_bad("garbage.yaml"),
                  kData + "garbage.yaml:1:1: expected YAML text, got control characters are not allowed (byte 0x7f)");
    EXPECT_PREFIX(parse_bad("name: t\n\tmodels:\t[ttl\n"),
                  "spec.yaml:2:1: expected valid YAML, got a syntax error: found a tab character that violates "
                  "indentation");
    EXPECT_PREFIX(parse_bad(std::string("name: t\nx: \x01\x02\n", 13)),
                  "spec.yaml:2:4: expected YAML text, got control characters are not allowed (byte 0x01)");
    EXPECT_PREFIX(parse_bad("- name: t\n- models: [ttl]\n"),
                  "spec.yaml:1:1: expected a YAML mapping with keys name, models, axes, ..., got a list");
    EXPECT_PREFIX(parse_bad("just some text\n"),
                  "spec.yaml:1:1: expected a YAML mapping with keys name, models, axes, ..., got \"just some text\"");
    EXPECT_PREFIX(parse_bad(kHead + "  C: [1]\n---\nname: second\n"),
                  "spec.yaml:8:1: expected a single YAML document, got a second one");
    EXPECT_PREFIX(parse_bad(""), "spec.yaml:1:1: expected a YAML mapping, got an empty file");
    EXPECT_PREFIX(parse_bad("# only a comment\n"), "spec.yaml:1:1: expected a YAML mapping, got an empty file");
    EXPECT_PREFIX(load_bad("empty.yaml"), kData + "empty.yaml:1:1: expected a YAML mapping, got an empty file");
}

TEST(SpecParseErrors, UnreadableFile)
{
    std::string m = load_bad("no-such-spec.yaml", PASCAL_EIO);
    EXPECT_EQ(m, "cannot read " + kData + "no-such-spec.yaml: No such file or directory");
    m = load_bad("missing_device.yaml");
    EXPECT_PREFIX(m, kData + "missing_device.yaml:2:9: device: expected a readable device profile, got cannot read " +
                         kData + "devices/nope.yaml: No such file or directory");
}

TEST(SpecParseErrors, ModelsAndColumns)
{
    EXPECT_PREFIX(parse_bad("name: t\nfixed: {N: 8, M: 1}\naxes:\n  C: [1]\n"),
                  "spec.yaml:1:1: models: expected a list of models such as [ttl, lru], got nothing (the key is "
                  "missing)");
    EXPECT_PREFIX(parse_bad("name: t\nmodels: []\nfixed: {N: 8, M: 1}\naxes:\n  C: [1]\n"),
                  "spec.yaml:2:9: models: expected a non-empty list of models (ttl, lru_band, lru, sdcm, residency, "
                  "che, margin, sharing, catchup, lru_replay, belady, dynamic, workload, traffic, simulate, step), got an empty list");
    EXPECT_PREFIX(parse_bad("name: t\nmodels: [ttl, lur]\nfixed: {N: 8, M: 1}\naxes:\n  C: [1]\n"),
                  "spec.yaml:2:15: models[1]: expected a model name (ttl, lru_band, lru, sdcm, residency, che, "
                  "margin, sharing, catchup, lru_replay, belady, dynamic, workload, traffic, simulate, step), got \"lur\"");
    EXPECT_PREFIX(parse_bad("name: t\nmodels: [ttl, ttl]\nfixed: {N: 8, M: 1}\naxes:\n  C: [1]\n"),
                  "spec.yaml:2:15: models[1]: expected each model once, got \"ttl\" again");
    EXPECT_PREFIX(parse_bad("name: t\nmodels: [ttl, sdcm]\nfixed: {N: 8, M: 1}\naxes:\n  C: [1]\n"),
                  "spec.yaml:2:15: models[1]: model sdcm needs assoc: expected assoc (a positive integer) in fixed or "
                  "axes, got none");
    EXPECT_PREFIX(parse_bad("name: t\nmodels: [catchup]\nfixed: {N: 8, M: 1, alpha: 1, beta: 2, lambda_hit: 3,"
                            " lambda_miss: 4}\naxes:\n  C: [1]\n"),
                  "spec.yaml:2:10: models[0]: model catchup needs depth: expected depth (a positive integer) in "
                  "fixed or axes, got none");
    EXPECT_PREFIX(parse_bad("name: t\nmodels: [ttl]\ncolumns: [K_tll]\nfixed: {N: 8, M: 1}\naxes:\n  C: [1]\n"),
                  "spec.yaml:3:11: columns[0]: expected a column of the requested models (D, theta, T_star, K_ttl, "
                  "rho_ttl), got \"K_tll\"");
    EXPECT_PREFIX(parse_bad("name: t\nmodels: [ttl]\ncolumns: [D, K_lru]\nfixed: {N: 8, M: 1}\naxes:\n  C: [1]\n"),
                  "spec.yaml:3:14: columns[1]: expected a column of the requested models (D, theta, T_star, K_ttl, "
                  "rho_ttl), got \"K_lru\" (a column of model lru, which is not in models)");
    EXPECT_PREFIX(parse_bad("name: t\nmodels: [ttl]\ncolumns: [D, D]\nfixed: {N: 8, M: 1}\naxes:\n  C: [1]\n"),
                  "spec.yaml:3:14: columns[1]: expected each column once, got \"D\" again");
}

TEST(SpecParseErrors, MissingOrConflictingParameters)
{
    EXPECT_PREFIX(parse_bad("name: t\nmodels: [ttl]\nfixed: {M: 1, block_bytes: 1KiB}\naxes:\n  C: [1]\n"),
                  "spec.yaml:1:1: N: N is not set: expected N, or data_bytes and block_bytes, in fixed or axes; "
                  "got only block_bytes");
    EXPECT_PREFIX(parse_bad("name: t\nmodels: [ttl]\nfixed: {M: 1, N: 8}\naxes:\n  capacity_bytes: [1MiB]\n"),
                  "spec.yaml:1:1: C: C is not set: expected C, or capacity_bytes (or a device profile) and "
                  "block_bytes, in fixed or axes; got only capacity_bytes");
    EXPECT_PREFIX(parse_bad("name: t\nmodels: [ttl]\nfixed: {N: 8, occupancy: 2}\naxes:\n  C: [1]\n"),
                  "spec.yaml:1:1: M: M is not set: expected M, or sms (or a device profile) and occupancy, in fixed "
                  "or axes; got only occupancy");
    EXPECT_PREFIX(parse_bad(kHead + "  C: [1]\n  N: [1, 2]\n"),
                  "spec.yaml:8:3: axes.N: expected N in fixed or in axes, not both; got it in both (fixed.N at line "
                  "4)");
    EXPECT_PREFIX(parse_bad("name: t\nmodels: [ttl]\nfixed: {N: 8, C: 1, pattern: explicit}\naxes:\n  seed: [1]\n"),
                  "spec.yaml:3:30: fixed.pattern: expected phases (in fixed or axes) for the explicit pattern, got "
                  "none");
    EXPECT_PREFIX(parse_bad("name: t\nmodels: [ttl]\nfixed: {N: 8, C: 1, M: 2}\naxes:\n  phases: [[0, 1]]\n"),
                  "spec.yaml:5:11: axes.phases: expected pattern: explicit (in fixed or axes) to use these phases, "
                  "got no pattern (aligned)");
}

TEST(SpecParseErrors, ZipAndDuplicates)
{
    EXPECT_PREFIX(parse_bad(kHead + "  C: [100, 200]\n  clusters: [1, 2, 4]\nzip: [[C, clusters]]\n"),
                  "spec.yaml:9:11: zip[0][1]: expected axes of equal length in a zip group, got C with 2 values and "
                  "clusters with 3");
    EXPECT_PREFIX(parse_bad(kHead + "  C: [100, 200]\n  clusters: [1, 2]\nzip: [[C, lag]]\n"),
                  "spec.yaml:9:11: zip[0][1]: expected the name of an axis (C, clusters), got \"lag\"");
    EXPECT_PREFIX(parse_bad(kHead + "  C: [100, 200]\n  clusters: [1, 2]\nzip: [[C]]\n"),
                  "spec.yaml:9:7: zip[0]: expected a group of at least two axis names, got 1");
    EXPECT_PREFIX(parse_bad(kHead + "  C: [1, 2]\n  clusters: [1, 2]\n  lag: [1, 2]\nzip: [[C, clusters], [lag, C]]\n"),
                  "spec.yaml:10:28: zip[1][1]: expected each axis in at most one zip group, got \"C\" again");
    EXPECT_PREFIX(parse_bad("name: t\nmodels: [ttl]\nfixed:\n  N: 8192\n  N: 16\naxes:\n  C: [1]\n"),
                  "spec.yaml:5:3: fixed.N: expected each key once, got \"N\" again (first at line 4)");
    EXPECT_PREFIX(parse_bad(kHead + "  C: [1]\nname: u\n"),
                  "spec.yaml:8:1: name: expected each key once, got \"name\" again (first at line 1)");
    EXPECT_PREFIX(parse_bad(kHead + "  C: {from: 1, to: 2, from: 3, step: 1}\n"),
                  "spec.yaml:7:23: axes.C.from: expected each key once, got \"from\" again (first at line 7)");
}

TEST(SpecParseErrors, ExpressionSyntaxPointsIntoTheScalar)
{
    // Plain scalar: column of the scalar plus the offset in the expression.
    EXPECT_PREFIX(parse_bad(kHead + "  C: [1]\nwhere: C < N && clusters <= MM\n"),
                  "spec.yaml:8:29: where: expected a parameter name (N, M, C,");
    // Quoted: one more for the quote.
    EXPECT_PREFIX(parse_bad(kHead + "  C: [1]\nwhere: \"C <> N\"\n"),
                  "spec.yaml:8:12: where: expected a number, a parameter, a name in quotes or \"(\", got "
                  "\">\"");
    EXPECT_PREFIX(parse_bad(kHead + "  C: [1]\nwhere:\n  - C < N\n  - 'pattern == \"cluster\"'\n"),
                  "spec.yaml:10:18: where[1]: expected a pattern name (aligned, clusters, equal, uniform, gaussian, "
                  "lag, explicit), got \"cluster\"");
    EXPECT_PREFIX(parse_bad(kHead + "  C: [1]\nrequire: \"C < N &&\"\n"),
                  "spec.yaml:8:19: require: expected a number, a parameter, a name in quotes or \"(\", got "
                  "the end of the expression");
}

}  // namespace

namespace {

// A size with a decimal unit is taken as written (50MB = 50,000,000
// bytes) and noted, with where it is and the binary spelling; binary and
// plain sizes are not.
TEST(SpecDecimalSizes, TheFirstDecimalSizeIsNoted)
{
    auto note = [](const std::string &y) {
        pascal_spec *s = nullptr;
        pascal_error err{};
        EXPECT_EQ(pascal_spec_parse(y.data(), y.size(), "spec.yaml", &s, &err), 0) << err.msg;
        std::string n = s ? pascal_spec_decimal_note(s) : "";
        double cap = s ? pascal_spec_axis(s, 0)->values[0] : 0;
        pascal_spec_free(s);
        return std::make_pair(n, cap);
    };
    auto r = note("name: t\nmodels: [lru]\nfixed: {N: 64, M: 4, block_bytes: 1KiB}\naxes:\n"
                  "  capacity_bytes: [50MB, 2GB, 1MiB]\n");
    EXPECT_EQ(r.first, "50MB (spec.yaml:5:20) is a decimal size: 50000000 bytes = 47.68 MiB; write "
                       "50MiB for the binary unit (and 1 more decimal sizes)");
    EXPECT_EQ(r.second, 50e6);
    r = note("name: t\nmodels: [lru]\nfixed: {N: 64, M: 4, block_bytes: 1KiB}\naxes:\n"
             "  capacity_bytes: [48MiB, 4096]\n");
    EXPECT_EQ(r.first, "");
}

} // namespace
