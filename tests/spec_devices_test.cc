// Device profiles by name (devices/profile.h): the search order (beside the
// spec, configs/ beside it, the source tree, the share folder), paths as
// before, the figures of the shipped profiles as their YAML files state
// them, and the messages for names that exist nowhere.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>
#include <sys/stat.h>

#include "devices/profile.h"
#include "engine/eval.h"
#include "sweeps/spec.h"
#include "test_util.h"

namespace {

const std::string kSrc = PASCAL_SOURCE_DIR;
const double MiB = 1048576.0;

class Devices : public pascal_test::TempDirTest {
protected:
    // A profile at dir/rel with the given sms (distinct from any shipped one).
    void profile(const std::string &rel, int sms)
    {
        std::string path = dir + "/" + rel;
        for (size_t s = path.find('/', dir.size() + 1); s != std::string::npos; s = path.find('/', s + 1))
            mkdir(path.substr(0, s).c_str(), 0755);
        pascal_test::write_file(path.substr(0, path.rfind('/')), path.substr(path.rfind('/') + 1),
                                "name: test device\nsms: " + std::to_string(sms) + "\nl2_bytes: 3MiB\n");
    }
    std::string resolve(const std::string &ref, std::string *msg = nullptr)
    {
        char out[PASCAL_DEVICE_PATH_MAX];
        pascal_error err{};
        int rc = pascal_device_resolve(ref.c_str(), dir.c_str(), out, sizeof out, &err);
        if (msg)
            *msg = err.msg;
        return rc ? "error " + std::to_string(rc) : std::string(out);
    }
    // sms that a spec in dir naming `device: ref` gets.
    double spec_sms(const std::string &ref)
    {
        std::string yaml = "name: d\ndevice: " + ref + "\nmodels: [che]\nfixed: {N: 64, occupancy: 1, C: 8}\n"
                           "axes: {seed: [1]}\n";
        pascal_spec *s = nullptr;
        pascal_error err{};
        std::string file = dir + "/spec.yaml";
        EXPECT_EQ(pascal_spec_parse(yaml.data(), yaml.size(), file.c_str(), &s, &err), 0) << err.msg;
        double sms = s ? pascal_spec_fixed(s)->v[PASCAL_P_SMS] : NAN;
        pascal_spec_free(s);
        return sms;
    }
};

TEST_F(Devices, SearchFoldersInOrder)
{
    char dirs[PASCAL_DEVICE_DIRS][PASCAL_DEVICE_PATH_MAX];
    int n = pascal_device_dirs(dir.c_str(), dirs);
    ASSERT_EQ(n, 4);
    EXPECT_EQ(std::string(dirs[0]), dir + "/devices");
    EXPECT_EQ(std::string(dirs[1]), dir + "/configs/devices");
    EXPECT_EQ(std::string(dirs[2]), kSrc + "/configs/devices");
    std::string share = dirs[3];
    EXPECT_EQ(share.substr(share.size() - std::string("/pascal/devices").size()), "/pascal/devices") << share;
    n = pascal_device_dirs("", dirs);  // the working directory
    EXPECT_EQ(std::string(dirs[0]), "devices");
    EXPECT_EQ(std::string(dirs[1]), "configs/devices");
}

TEST_F(Devices, ANameFindsTheShippedProfile)
{
    EXPECT_EQ(resolve("gb10"), kSrc + "/configs/devices/gb10.yaml");
    EXPECT_EQ(resolve("h200"), kSrc + "/configs/devices/h200.yaml");
    EXPECT_EQ(spec_sms("gb10"), 48);  // configs/devices/gb10.yaml: sms: 48
}

TEST_F(Devices, EarlierFoldersHideLaterOnes)
{
    profile("configs/devices/gb10.yaml", 7);
    EXPECT_EQ(resolve("gb10"), dir + "/configs/devices/gb10.yaml");
    EXPECT_EQ(spec_sms("gb10"), 7);
    profile("devices/gb10.yaml", 5);
    EXPECT_EQ(resolve("gb10"), dir + "/devices/gb10.yaml");
    EXPECT_EQ(spec_sms("gb10"), 5);
    EXPECT_EQ(spec_sms("h100"), 132);  // not hidden: still the shipped one
}

TEST_F(Devices, PathsWorkAsBefore)
{
    profile("devices/mine.yaml", 9);
    profile("plain", 11);
    EXPECT_EQ(resolve("devices/mine.yaml"), dir + "/devices/mine.yaml");
    EXPECT_EQ(spec_sms("devices/mine.yaml"), 9);
    EXPECT_EQ(resolve("plain"), dir + "/plain");  // a file of that name is a path
    EXPECT_EQ(spec_sms("plain"), 11);
    std::string abs = kSrc + "/configs/devices/h100.yaml";
    EXPECT_EQ(resolve(abs), abs);
    // a path that is not there stays a path, and reading it says why
    EXPECT_EQ(resolve("nope.yaml"), dir + "/nope.yaml");
}

TEST_F(Devices, UnknownNamesSuggestTheNearest)
{
    std::string msg;
    EXPECT_EQ(resolve("gb11", &msg), "error " + std::to_string(PASCAL_EINPUT));
    EXPECT_EQ(msg.find("expected a device profile path or the name of a shipped profile (gb10, h100, h200, "
                       "h200-2x-sms-hypothetical), "
                       "got \"gb11\" (did you mean 'gb10'?); names are looked up in " + dir + "/devices, " + dir +
                       "/configs/devices, " + kSrc + "/configs/devices, "),
              0u)
        << msg;
    resolve("zzzz", &msg);
    EXPECT_NE(msg.find("got \"zzzz\"; names are looked up in"), std::string::npos) << msg;
    resolve("gb 10", &msg);
    EXPECT_EQ(msg, "expected a device profile path or name (letters, digits, '_', '-', '.'), got \"gb 10\"");
    resolve("", &msg);
    EXPECT_EQ(msg, "expected a device profile path or name, got nothing");
}

TEST_F(Devices, SpecMessageForAnUnknownName)
{
    std::string yaml = "name: d\ndevice: H100\nmodels: [che]\nfixed: {N: 64, M: 4, C: 8}\naxes: {seed: [1]}\n";
    pascal_spec *s = nullptr;
    pascal_error err{};
    std::string file = dir + "/spec.yaml";
    EXPECT_EQ(pascal_spec_parse(yaml.data(), yaml.size(), file.c_str(), &s, &err), PASCAL_EINPUT);
    EXPECT_EQ(s, nullptr);
    std::string msg = err.msg;
    EXPECT_EQ(msg.find(file + ":2:9: device: expected a device profile path or the name of a shipped profile"), 0u)
        << msg;
    EXPECT_NE(msg.find("got \"H100\" (did you mean 'h100'?)"), std::string::npos) << msg;
}

// Figures as configs/devices/*.yaml write them.
TEST_F(Devices, LoadReadsEveryKey)
{
    pascal_device_profile d;
    pascal_error err{};
    ASSERT_EQ(pascal_device_load((kSrc + "/configs/devices/gb10.yaml").c_str(), &d, &err), 0) << err.msg;
    EXPECT_STREQ(d.name, "gb10");
    EXPECT_STREQ(d.title, "NVIDIA GB10");
    EXPECT_EQ(d.sms, 48);
    EXPECT_EQ(d.l2_bytes, 24 * MiB);
    EXPECT_EQ(d.effective_l2_bytes, 20 * MiB);
    EXPECT_STREQ(d.compute_capability, "12.1");
    EXPECT_EQ(std::string(d.notes).find("Effective L2 from the PASCAL paper's"), 0u) << d.notes;
    ASSERT_EQ(pascal_device_load((kSrc + "/configs/devices/h100.yaml").c_str(), &d, &err), 0) << err.msg;
    EXPECT_EQ(d.sms, 132);
    EXPECT_EQ(d.l2_bytes, 50 * MiB);
    EXPECT_TRUE(std::isnan(d.effective_l2_bytes));
}

TEST_F(Devices, LoadRejectsABadProfileNamingIt)
{
    std::string path = write("bad.yaml", "name: x\nsms: many\n");
    pascal_device_profile d;
    pascal_error err{};
    EXPECT_EQ(pascal_device_load(path.c_str(), &d, &err), PASCAL_EINPUT);
    EXPECT_EQ(std::string(err.msg).find(path + ":2:6: sms: expected a positive integer"), 0u) << err.msg;
    EXPECT_EQ(pascal_device_load((dir + "/none.yaml").c_str(), &d, &err), PASCAL_EIO);
}

TEST_F(Devices, ListInSearchOrderWithoutHiddenNames)
{
    profile("devices/zz.yaml", 3);
    profile("devices/gb10.yaml", 5);
    pascal_device_profile *list = nullptr;
    pascal_error err{};
    int n = 0;
    ASSERT_EQ(pascal_device_list(dir.c_str(), &list, &n, &err), 0) << err.msg;
    ASSERT_EQ(n, 5);
    EXPECT_STREQ(list[0].name, "gb10");
    EXPECT_EQ(list[0].sms, 5);  // the one beside the spec, not the shipped one
    EXPECT_STREQ(list[1].name, "zz");
    EXPECT_STREQ(list[2].name, "h100");
    EXPECT_EQ(std::string(list[2].path), kSrc + "/configs/devices/h100.yaml");
    EXPECT_STREQ(list[3].name, "h200");
    EXPECT_STREQ(list[4].name, "h200-2x-sms-hypothetical");
    free(list);
}

} // namespace

namespace {

class SpecDevices : public pascal_test::TempDirTest {
protected:
    // A profile with limits: 4 CTAs per SM, 100000 bytes per SM, 60000 per CTA.
    std::string limited(const std::string &extra = "")
    {
        return write("lim.yaml",
                     "name: limited\nsms: 2\nl2_bytes: 1MiB\nlimits:\n"
                     "  ctas_per_sm: {value: 4, source: \"assumed: a test\"}\n"
                     "  smem_per_sm_bytes: {value: 100000, source: \"assumed: a test\"}\n"
                     "  smem_per_cta_bytes: {value: 60000, source: \"assumed: a test\"}\n"
                     "  threads_per_sm: {value: 1024, source: \"assumed: a test\"}\n" + extra);
    }
    // The columns cols at every point of the spec text yaml (written as
    // dir/spec.yaml, so that profiles beside it are found).
    std::vector<std::vector<double>> eval_points(const std::string &yaml, const std::vector<int> &cols)
    {
        std::vector<std::vector<double>> out;
        pascal_spec *s = nullptr;
        pascal_error err{};
        std::string file = dir + "/spec.yaml";
        EXPECT_EQ(pascal_spec_parse(yaml.data(), yaml.size(), file.c_str(), &s, &err), 0) << err.msg;
        if (!s)
            return out;
        pascal_eval *ev = pascal_eval_create(pascal_spec_models(s));
        for (uint64_t i = 0; i < pascal_spec_size(s); i++) {
            pascal_point p;
            std::vector<double> v(cols.size());
            EXPECT_EQ(pascal_spec_point(s, i, &p, &err), 1) << err.msg;
            EXPECT_EQ(pascal_eval_point(ev, &p, cols.data(), (int)cols.size(), v.data()), 0);
            out.push_back(v);
        }
        pascal_eval_free(ev);
        pascal_spec_free(s);
        return out;
    }
    int parse(const std::string &yaml, pascal_spec **s, std::string *msg)
    {
        pascal_error err{};
        std::string file = dir + "/spec.yaml";
        int rc = pascal_spec_parse(yaml.data(), yaml.size(), file.c_str(), s, &err);
        *msg = err.msg;
        return rc;
    }
};

// A named kernel holds what its library allocates, not pascal's stages:
// FlashAttention-2's Q tile and one K and one V tile of kHeadDim = 64
// columns, bf16.  The standard kernel with 64 x 64 tiles: (64 + 2 x 64) x
// 64 x 2 = 24576 bytes per CTA, and 4 of them (98304) fit in 100000 per SM
// even at depth 4 on the TMA path (pascal's stages would be 4 x 2 x 8192 =
// 65536 > 60000).  Split in two, the split kernel's 64 x 256 tiles:
// (64 + 2 x 256) x 64 x 2 = 73728 > 60000 per CTA, refused by that name.
TEST_F(SpecDevices, NamedKernelsHoldTheirOwnTiles)
{
    limited();
    auto spec = [](const char *splits) {
        return std::string("name: d\ndevice: lim.yaml\nmodels: [workload]\nworkload:\n"
                           "  attention: {q_heads: 4, seq_q: 1, seq_kv: 1024, head_dim: 64, "
                           "dtype: bf16, tile_q: 64, tile_kv: 64, kernel: flash-attn-2, "
                           "num_splits: ") + splits + "}\nfixed: {occupancy: 4, path: tma}\n"
                           "axes:\n  depth: [4]\n";
    };
    pascal_spec *s = nullptr;
    std::string msg;
    pascal_point p;
    pascal_error err{};
    ASSERT_EQ(parse(spec("1"), &s, &msg), 0) << msg;
    EXPECT_EQ(pascal_spec_point(s, 0, &p, &err), 1) << err.msg;
    pascal_spec_free(s);
    s = nullptr;
    ASSERT_EQ(parse(spec("2"), &s, &msg), 0) << msg;
    EXPECT_EQ(pascal_spec_point(s, 0, &p, &err), PASCAL_EINPUT);
    EXPECT_NE(std::string(err.msg).find("got 73728 bytes of shared memory per CTA (the kernel's Q, "
                                        "K and V tiles), more than the device's 60000"),
              std::string::npos) << err.msg;
    pascal_spec_free(s);
}

// Hand-computed points: occupancy 5 > 4 CTAs; 4 stages x 16384 = 65536 >
// 60000 bytes per CTA; occupancy 4 x 2 stages x 16384 = 131072 > 100000
// per SM; the sync path holds no stage.  refuse names the point, the limit
// and its source at the spec's own key; skip drops exactly those points.
TEST_F(SpecDevices, LimitsRefuseOrSkipPointsTheDeviceCannotRun)
{
    limited();
    const std::string head = "name: d\ndevice: lim.yaml\nmodels: [sharing]\n";
    const std::string body = "fixed: {N: 64, C: 8, block_bytes: 16KiB, lead: 1}\naxes:\n";
    struct Case {
        std::string axes;
        const char *msg;   // prefix after "spec.yaml:"
    } bad[] = {
        {"  occupancy: [1, 5]\n", "6:14: axes.occupancy: expected a point the device can run, got "
                                  "occupancy 5, more than the device's 4 resident CTAs per SM"},
        {"  occupancy: [1]\n  path: [tma]\n  depth: [2, 4]\n",
         "8:10: axes.depth: expected a point the device can run, got 4 stages of 1 x 16384 bytes = "
         "65536 bytes of shared memory per CTA, more than the device's 60000"},
        {"  occupancy: [2, 4]\n  path: [tma]\n  depth: [2]\n",
         "8:10: axes.depth: expected a point the device can run, got occupancy 4 x 32768 bytes per "
         "CTA = 131072 bytes of shared memory per SM, more than the device's 100000"},
        // 3 CTAs of 384 threads: 1152 > 1024 threads per SM; 2 of them fit.
        {"  occupancy: [2, 3]\n  threads: [384]\n",
         "6:14: axes.occupancy: expected a point the device can run, got occupancy 3 x 384 threads per "
         "CTA = 1152 threads per SM, more than the device's 1024"},
    };
    for (const Case &c : bad) {
        pascal_spec *s = nullptr;
        std::string msg;
        ASSERT_EQ(parse(head + body + c.axes, &s, &msg), 0) << msg;
        pascal_error err{};
        pascal_point p;
        int rc = 1;
        for (uint64_t i = 0; i < pascal_spec_size(s) && rc >= 0; i++)
            rc = pascal_spec_point(s, i, &p, &err);
        EXPECT_EQ(rc, PASCAL_EINPUT) << c.axes;
        EXPECT_EQ(std::string(err.msg).find(dir + "/spec.yaml:" + c.msg), 0u) << err.msg;
        EXPECT_NE(std::string(err.msg).find("limits."), std::string::npos) << err.msg;
        EXPECT_NE(std::string(err.msg).find("assumed: a test"), std::string::npos) << err.msg;
        pascal_spec_free(s);
        // skip: the same sweep keeps only the points that fit.
        s = nullptr;
        ASSERT_EQ(parse(head + "infeasible: skip\n" + body + c.axes, &s, &msg), 0) << msg;
        int kept = 0;
        for (uint64_t i = 0; i < pascal_spec_size(s); i++) {
            int k = pascal_spec_point(s, i, &p, &err);
            ASSERT_GE(k, 0) << err.msg;
            kept += k;
        }
        EXPECT_EQ(kept, (int)pascal_spec_size(s) - 1) << c.axes;
        pascal_spec_free(s);
    }
    // The sync path holds no stage: occupancy 4 x any depth fits.
    pascal_spec *s = nullptr;
    std::string msg;
    ASSERT_EQ(parse(head + body + "  occupancy: [4]\n  path: [sync]\n  depth: [6]\n", &s, &msg), 0)
        << msg;
    pascal_point p;
    pascal_error err{};
    EXPECT_EQ(pascal_spec_point(s, 0, &p, &err), 1) << err.msg;
    pascal_spec_free(s);
    // A limit without a source, or not a whole number, is refused where it is written.
    std::string path = write("nosrc.yaml", "name: x\nlimits:\n  ctas_per_sm: {value: 4}\n");
    pascal_device_profile d;
    EXPECT_EQ(pascal_device_load(path.c_str(), &d, &err), PASCAL_EINPUT);
    EXPECT_NE(std::string(err.msg).find(":3:16: limits.ctas_per_sm.source: expected where the "
                                        "value comes from"), std::string::npos) << err.msg;
    path = write("frac.yaml", "name: x\nlimits:\n  ctas_per_sm: {value: 2.5, source: \"assumed: x\"}\n");
    EXPECT_EQ(pascal_device_load(path.c_str(), &d, &err), PASCAL_EINPUT);
    EXPECT_NE(std::string(err.msg).find("limits.ctas_per_sm.value: expected a whole number of CTAs"),
              std::string::npos) << err.msg;
    // The shipped profiles state theirs, with sources.
    ASSERT_EQ(pascal_device_load((std::string(PASCAL_SOURCE_DIR) + "/configs/devices/h200.yaml").c_str(),
                                 &d, &err), 0) << err.msg;
    EXPECT_EQ(d.limits.ctas_per_sm, 32);
    EXPECT_EQ(d.limits.smem_per_sm_bytes, 228 * 1024);
    EXPECT_EQ(d.limits.threads_per_sm, 2048);
    EXPECT_EQ(std::string(d.limits.source[0]).rfind("datasheet:", 0), 0u);
    EXPECT_EQ(std::string(d.limits.source[PASCAL_LIMIT_THREADS]).rfind("datasheet:", 0), 0u);
}

} // namespace

namespace {

// The simulator's timing is the profile's chip: an sms that is not the
// profile's is refused with simulate, at the sms value; without simulate,
// or at the profile's own count, it is taken.
TEST(SpecDevicesSim, AnotherSmCountIsRefusedWithTheSimulator)
{
    const std::string head = "name: d\ndevice: gb10\nmodels: [workload, traffic";
    const std::string body = "]\nworkload:\n  attention: {batch: 1, q_heads: 8, kv_heads: 1, seq_q: 1, "
                             "seq_kv: 4096, head_dim: 128, dtype: bf16, tile_q: 64, tile_kv: 64}\n"
                             "fixed: {occupancy: 1, path: tma, depth: 2, compute: 0}\naxes:\n";
    auto parse = [](const std::string &y, std::string *msg) {
        pascal_spec *s = nullptr;
        pascal_error err{};
        int rc = pascal_spec_parse(y.data(), y.size(), "spec.yaml", &s, &err);
        *msg = err.msg;
        pascal_spec_free(s);
        return rc;
    };
    std::string msg;
    EXPECT_EQ(parse(head + ", simulate" + body + "  sms: [48, 96]\n", &msg), PASCAL_EINPUT);
    EXPECT_EQ(msg.find("spec.yaml:8:8: axes.sms: expected sms = 48 (the device profile's) with model "
                       "simulate, got 96"), 0u) << msg;
    EXPECT_EQ(parse(head + body + "  sms: [48, 96]\n", &msg), 0) << msg;
    EXPECT_EQ(parse(head + ", simulate" + body + "  sms: [48]\n", &msg), 0) << msg;
}

} // namespace

namespace {

// The time columns on hand-computed points.  Profile rates: 1e12 FLOP/s at
// bf16, L2 1e9 and DRAM 1e8 bytes/s.  Attention B 1, H_q 2 over 1 KV head,
// L_q 4, L_kv 8, d 8, bf16, tiles 4 x 4: 2 CTAs x 2 steps x (K, V) = 8
// requests of 4 x 8 x 2 = 64 bytes; at C = 64 every block once: 4 blocks,
// 256 bytes.  FLOPs 4 x 2 x 8 x (4 x 8) = 2048; causal (bottom-right):
// rows see 5, 6, 7, 8 keys, 26 pairs, 1664 FLOPs.  Floors: compute 2.048e-9
// s, L2 512 / 1e9 = 5.12e-7 s, DRAM 256 / 1e8 = 2.56e-6 s: DRAM binds.  A
// dram_bytes_per_s axis is a what-if: 1e10 makes the L2 bind.
TEST_F(SpecDevices, TimeColumnsFromTheProfilesRates)
{
    write("rates.yaml", "name: rated\nsms: 1\nl2_bytes: 1MiB\nrates:\n"
                        "  flops_bf16: {value: 1e12, source: \"assumed: a test\"}\n"
                        "  l2_bytes_per_s: {value: 1e9, source: \"assumed: a test\"}\n"
                        "  dram_bytes_per_s: {value: 1e8, source: \"assumed: a test\"}\n");
    for (int causal = 0; causal < 2; causal++) {
        std::string yaml = std::string("name: t\ndevice: rates.yaml\nmodels: [workload, traffic") +
                           (causal ? ", lru_replay" : "") +
                           "]\nworkload:\n  attention: {batch: 1, q_heads: 2, kv_heads: 1, seq_q: 4, "
                           "seq_kv: 8, head_dim: 8, dtype: bf16, tile_q: 4, tile_kv: 4" +
                           (causal ? ", causal: true" : "") +
                           "}\nfixed: {M: 2, C: 64}\naxes:\n  dram_bytes_per_s: [1e8, 1e10]\n";
        auto rows = eval_points(yaml, {PASCAL_COL_FLOPS, PASCAL_COL_TIME_COMPUTE_S, PASCAL_COL_TIME_L2_S,
                                       PASCAL_COL_TIME_DRAM_S, PASCAL_COL_TIME_BOUND_S,
                                       PASCAL_COL_BOUND_TERM, PASCAL_COL_REQUESTS});
        ASSERT_EQ(rows.size(), 2u);
        for (uint64_t i = 0; i < 2; i++) {
            const std::vector<double> &v = rows[i];
            double flops = causal ? 1664 : 2048, requested = v[6] * 64;
            EXPECT_EQ(v[0], flops);
            EXPECT_DOUBLE_EQ(v[1], flops / 1e12);
            EXPECT_DOUBLE_EQ(v[2], requested / 1e9);
            EXPECT_DOUBLE_EQ(v[3], 256 / (i ? 1e10 : 1e8));
            EXPECT_DOUBLE_EQ(v[4], i ? requested / 1e9 : 2.56e-6);
            EXPECT_EQ(v[5], i ? 2 : 3);
            if (!causal)
                EXPECT_EQ(v[6], 8);
        }
    }
}

// The costs (docs/workloads.md section 10.1), by hand: 1 query head of
// 4 rows over 8 keys of head_dim 8 in BF16, tiles of 4: one CTA, 2 steps
// of a K and a V block of 64 bytes, every one fetched once (256 bytes) and
// read once (4 requests x 64 bytes = 256 bytes from L2); C = 64 blocks of 64
// bytes = 4096 bytes = 1/256 MiB.  The profile gives the DRAM energy, the
// spec sweeps it; l2_mm2_per_mib comes from the profile.
TEST_F(SpecDevices, CostColumnsFromTheProfilesCosts)
{
    write("costs.yaml", "name: costed\nsms: 1\nl2_bytes: 1MiB\ncosts:\n"
                        "  dram_pj_per_byte: {value: 25, source: \"assumed: a test\"}\n"
                        "  l2_pj_per_byte: {value: 3, source: \"assumed: a test\"}\n"
                        "  l2_mm2_per_mib: {value: 0.5, source: \"assumed: a test\"}\n");
    std::string yaml = "name: t\ndevice: costs.yaml\nmodels: [workload, traffic]\nworkload:\n"
                       "  attention: {batch: 1, q_heads: 1, kv_heads: 1, seq_q: 4, seq_kv: 8, head_dim: 8, "
                       "dtype: bf16, tile_q: 4, tile_kv: 4}\nfixed: {M: 2, C: 64}\n"
                       "axes:\n  dram_pj_per_byte: [25, 100]\n";
    auto rows = eval_points(yaml, {PASCAL_COL_ENERGY_DRAM_J, PASCAL_COL_ENERGY_L2_J, PASCAL_COL_ENERGY_J,
                                   PASCAL_COL_AREA_L2_MM2, PASCAL_COL_TIME_SIM_S,
                                   PASCAL_COL_ANSWER_FILL_BYTES, PASCAL_COL_REQUESTS});
    ASSERT_EQ(rows.size(), 2u);
    for (uint64_t i = 0; i < 2; i++) {
        const std::vector<double> &v = rows[i];
        double pj = i ? 100 : 25;
        EXPECT_EQ(v[5], 256);   // every block once
        EXPECT_EQ(v[6], 4);
        EXPECT_DOUBLE_EQ(v[0], 256 * pj * 1e-12);
        EXPECT_DOUBLE_EQ(v[1], 256 * 3 * 1e-12);
        EXPECT_DOUBLE_EQ(v[2], (256 * pj + 256 * 3) * 1e-12);
        EXPECT_DOUBLE_EQ(v[3], 0.5 / 256);
        EXPECT_TRUE(std::isnan(v[4]));   // no simulator
    }
    std::string file = dir + "/spec.yaml";
    pascal_error err{};

    // A cost out of range, and a costs key the profile does not know, name the key.
    write("bad_cost.yaml", "name: bad\nsms: 1\ncosts:\n  dram_pj_per_byte: {value: -1, source: \"assumed: x\"}\n");
    std::string bad = "name: t\ndevice: bad_cost.yaml\nmodels: [workload, traffic]\nworkload:\n"
                      "  attention: {batch: 1, q_heads: 1, kv_heads: 1, seq_q: 4, seq_kv: 8, head_dim: 8, "
                      "dtype: bf16, tile_q: 4, tile_kv: 4}\nfixed: {M: 2, C: 64}\naxes:\n  C: [64, 128]\n";
    pascal_spec *b = nullptr;
    EXPECT_EQ(pascal_spec_parse(bad.data(), bad.size(), file.c_str(), &b, &err), PASCAL_EINPUT);
    EXPECT_NE(std::string(err.msg).find("bad_cost.yaml:4:"), std::string::npos) << err.msg;
    EXPECT_NE(std::string(err.msg).find("bad_cost.yaml:4:29: costs.dram_pj_per_byte.value: expected an energy > 0 in pJ per byte read, got \"-1\""),
              std::string::npos) << err.msg;
    pascal_spec_free(b);
    write("bad_key.yaml", "name: bad\nsms: 1\ncosts:\n  dram_pj: {value: 1, source: \"assumed: x\"}\n");
    bad.replace(bad.find("bad_cost.yaml"), 13, "bad_key.yaml");
    EXPECT_EQ(pascal_spec_parse(bad.data(), bad.size(), file.c_str(), &b, &err), PASCAL_EINPUT);
    EXPECT_NE(std::string(err.msg).find("expected one of the keys dram_pj_per_byte, l2_pj_per_byte, "
                                        "l2_mm2_per_mib"), std::string::npos) << err.msg;
    pascal_spec_free(b);
}

} // namespace
