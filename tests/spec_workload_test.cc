// The `workload:` section of a sweep spec (sweeps/workload.c): fields as
// parameters (section values, axes overriding them, defaults), N and
// block_bytes derived per point against hand-computed shapes, names in
// expressions, and every refusal with its exact "file:line:col: key:"
// prefix.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "sweeps/spec.h"
#include "sweeps/workload.h"

namespace {

struct Spec {
    pascal_spec *s = nullptr;
    ~Spec() { pascal_spec_free(s); }
};

// Lines 1-6; tests append axes (line 7 on).
const std::string kAtt =
    "name: t\n"                                                             // 1
    "models: [traffic]\n"                                                   // 2
    "workload:\n"                                                           // 3
    "  attention: {q_heads: 64, kv_heads: 8, seq_q: 8192, seq_kv: 8192, "
    "head_dim: 128, dtype: bf16, tile_q: 128, tile_kv: 64}\n"               // 4
    "fixed: {M: 132, capacity_bytes: 60MiB}\n"                              // 5
    "axes:\n";                                                              // 6

void parse_ok(const std::string &yaml, Spec *spec)
{
    pascal_error err{};
    ASSERT_EQ(pascal_spec_parse(yaml.data(), yaml.size(), "spec.yaml", &spec->s, &err), 0)
        << err.msg << "\n" << yaml;
}

std::string parse_bad(const std::string &yaml)
{
    pascal_spec *s = nullptr;
    pascal_error err{};
    EXPECT_EQ(pascal_spec_parse(yaml.data(), yaml.size(), "spec.yaml", &s, &err), PASCAL_EINPUT)
        << yaml;
    EXPECT_EQ(s, nullptr);
    pascal_spec_free(s);
    return err.msg;
}

// The first point's error (the plan checks every point before output).
std::string point_bad(const std::string &yaml, uint64_t i = 0)
{
    Spec spec;
    parse_ok(yaml, &spec);
    if (!spec.s)
        return "";
    pascal_point p;
    pascal_error err{};
    EXPECT_EQ(pascal_spec_point(spec.s, i, &p, &err), PASCAL_EINPUT);
    return err.msg;
}

bool starts(const std::string &s, const std::string &prefix)
{
    return s.rfind(prefix, 0) == 0;
}

// Section values, an axis overriding seq_kv, defaults (batch 1, causal
// false), and the derived N = ceil(seq_kv / 64), block_bytes = 64 x 128 x 2,
// C = floor(60 MiB / 16 KiB) = 3840.
TEST(SpecWorkload, FieldsAxesDefaultsAndDerivedValues)
{
    Spec spec;
    parse_ok(kAtt + "  seq_kv: [8192, 100000]\n", &spec);
    ASSERT_EQ(pascal_spec_size(spec.s), 2u);
    pascal_point p;
    pascal_error err{};
    ASSERT_EQ(pascal_spec_point(spec.s, 1, &p, &err), 1) << err.msg;
    EXPECT_EQ(p.v[PASCAL_P_WORKLOAD], PASCAL_WORKLOAD_ATTENTION);
    EXPECT_EQ(p.v[PASCAL_P_SEQ_KV], 100000);
    EXPECT_EQ(p.v[PASCAL_P_BATCH], 1);
    EXPECT_EQ(p.v[PASCAL_P_CAUSAL], 0);
    EXPECT_EQ(p.v[PASCAL_P_DTYPE], PASCAL_DTYPE_BF16);
    EXPECT_EQ(p.v[PASCAL_P_N], 1563);             // ceil(100000 / 64)
    EXPECT_EQ(p.v[PASCAL_P_BLOCK_BYTES], 16384);
    EXPECT_EQ(p.v[PASCAL_P_C], 3840);
    EXPECT_EQ(p.v[PASCAL_P_M], 132);
    pascal_workload w;
    ASSERT_EQ(pascal_workload_of_point(p.v, &w), 0);
    EXPECT_EQ(w.streams, 16);
    EXPECT_EQ(w.ctas, 64 * 64);
}

TEST(SpecWorkload, KvHeadsDefaultToQueryHeadsAndGemmDefaults)
{
    Spec a;
    parse_ok("name: t\nmodels: [workload]\nworkload:\n  attention: {q_heads: 4, seq_q: 64, "
             "seq_kv: 64, head_dim: 16, dtype: fp16, tile_q: 16, tile_kv: 16}\n"
             "fixed: {M: 8, C: 10}\naxes:\n  batch: [1, 2]\n", &a);
    pascal_point p;
    pascal_error err{};
    ASSERT_EQ(pascal_spec_point(a.s, 1, &p, &err), 1) << err.msg;
    EXPECT_EQ(p.v[PASCAL_P_KV_HEADS], 4);   // MHA
    Spec g;
    parse_ok("name: t\nmodels: [workload]\nworkload:\n  gemm: {gemm_m: 512, gemm_n: 512, "
             "gemm_k: 512, dtype: bf16, tile_m: 128, tile_n: 128, tile_k: 64}\n"
             "fixed: {M: 8, C: 10}\naxes:\n  raster: [row, swizzle]\n", &g);
    ASSERT_EQ(pascal_spec_point(g.s, 1, &p, &err), 1) << err.msg;
    EXPECT_EQ(p.v[PASCAL_P_RASTER], PASCAL_RASTER_SWIZZLE);
    EXPECT_EQ(p.v[PASCAL_P_SWIZZLE], 8);
    EXPECT_EQ(p.v[PASCAL_P_SPLIT_K], 1);
    EXPECT_EQ(p.v[PASCAL_P_N], 8);
    EXPECT_EQ(p.v[PASCAL_P_BLOCK_BYTES], 128 * 64 * 2);
    EXPECT_EQ(p.v[PASCAL_P_KERNEL], PASCAL_KERNEL_MODEL);   // the default
}

// `kernel` is a field of the section and an axis like any other; an
// attention kernel for a gemm is refused at the field.
TEST(SpecWorkload, KernelFieldAndAxis)
{
    Spec a;
    parse_ok("name: t\nmodels: [workload]\nworkload:\n  attention: {q_heads: 8, kv_heads: 2, "
             "seq_q: 1, seq_kv: 64, head_dim: 16, dtype: fp16, tile_q: 16, tile_kv: 16, "
             "num_splits: 1}\nfixed: {M: 8, C: 10}\naxes:\n  kernel: [model, flash-attn-2]\n", &a);
    pascal_point p;
    pascal_error err{};
    ASSERT_EQ(pascal_spec_point(a.s, 1, &p, &err), 1) << err.msg;
    EXPECT_EQ(p.v[PASCAL_P_KERNEL], PASCAL_KERNEL_FLASH2);
    pascal_workload w;
    ASSERT_EQ(pascal_workload_of_point(p.v, &w), PASCAL_WL_OK);
    EXPECT_EQ(w.folded, 1);
    EXPECT_EQ(w.ctas, 2);            // one CTA per KV head: 4 query heads folded
    EXPECT_EQ(w.sharers_a, 1);
    std::string m = point_bad("name: t\nmodels: [traffic]\nworkload:\n  gemm: {gemm_m: 512, "
                              "gemm_n: 512, gemm_k: 512, dtype: bf16, tile_m: 128, tile_n: 128, "
                              "tile_k: 64, kernel: flash-attn-2}\nfixed: {M: 8}\n"
                              "axes:\n  C: [10]\n");
    EXPECT_NE(m.find("workload.gemm.kernel: expected a workload the model can take, got kernel "
                     "flash-attn-2, an attention kernel, for a gemm"), std::string::npos) << m;
}

TEST(SpecWorkload, NamesInExpressions)
{
    Spec spec;
    parse_ok(kAtt + "  dtype: [bf16, fp8, fp32]\nwhere: 'dtype != \"fp32\"'\n", &spec);
    pascal_point p;
    pascal_error err{};
    EXPECT_EQ(pascal_spec_point(spec.s, 0, &p, &err), 1);
    EXPECT_EQ(pascal_spec_point(spec.s, 1, &p, &err), 1);
    EXPECT_EQ(p.v[PASCAL_P_BLOCK_BYTES], 8192);   // FP8: one byte per element
    EXPECT_EQ(pascal_spec_point(spec.s, 2, &p, &err), 0);   // dropped
    std::string m = parse_bad(kAtt + "  seq_kv: [1]\nwhere: 'dtype == \"bf17\"'\n");
    EXPECT_TRUE(starts(m, "spec.yaml:8:19: where: expected a name of dtype")) << m;
}

TEST(SpecWorkload, SectionErrors)
{
    std::string m;
    m = parse_bad("name: t\nmodels: [traffic]\nworkload:\n  conv: {}\nfixed: {M: 1, C: 1}\naxes:\n  seq_kv: [1]\n");
    EXPECT_TRUE(starts(m, "spec.yaml:4:3: workload.conv: ")) << m;
    EXPECT_NE(m.find("attention, gemm"), std::string::npos) << m;
    m = parse_bad("name: t\nmodels: [traffic]\nworkload:\n  attention: {q_heads: 2, tile_m: 3}\n"
                  "fixed: {M: 1, C: 1}\naxes:\n  C: [1]\n");
    EXPECT_TRUE(starts(m, "spec.yaml:4:27: workload.attention.tile_m: expected one of the keys batch, ")) << m;
    m = parse_bad(kAtt + "  N: [1, 2]\n");
    EXPECT_TRUE(starts(m, "spec.yaml:7:6: axes.N: expected no N with a workload")) << m;
    m = parse_bad(kAtt + "  workload: [gemm]\n");
    EXPECT_TRUE(starts(m, "spec.yaml:7:3: axes.workload: expected the workload kind in a workload: "
                          "section")) << m;
    m = parse_bad(kAtt + "  gemm_m: [1, 2]\n");
    EXPECT_TRUE(starts(m, "spec.yaml:7:11: axes.gemm_m: expected a field of attention, got gemm_m"))
        << m;
    m = parse_bad("name: t\nmodels: [traffic]\nworkload:\n  attention: {q_heads: 2, seq_q: 8}\n"
                  "fixed: {M: 1, C: 1}\naxes:\n  batch: [1]\n");
    EXPECT_TRUE(starts(m, "spec.yaml:4:3: workload.attention: expected seq_kv")) << m;
    m = parse_bad("name: t\nmodels: [ttl]\nfixed: {N: 8, M: 1}\naxes:\n  C: [1]\n  seq_kv: [4]\n");
    EXPECT_TRUE(starts(m, "spec.yaml:6:11: axes.seq_kv: expected a workload: section")) << m;
    m = parse_bad(kAtt + "  dtype: [bf16, bf17]\n");
    EXPECT_TRUE(starts(m, "spec.yaml:7:17: axes.dtype[1]: expected element type")) << m;
    m = parse_bad(kAtt + "  dtype: {from: 1, to: 2, step: 1}\n");
    EXPECT_TRUE(starts(m, "spec.yaml:7:10: axes.dtype: expected a list of names, got a range")) << m;
    // A field in the section and in fixed.
    std::string dup = kAtt;
    dup.replace(dup.find("fixed: {"), 8, "fixed: {seq_q: 4, ");
    m = parse_bad(dup + "  C: [1]\n");
    EXPECT_TRUE(starts(m, "spec.yaml:5:9: fixed.seq_q: expected seq_q in the workload or in fixed"))
        << m;
}

// Causal attention has no ring model: a clear refusal at the causal value,
// unless only the derived columns are asked for.
TEST(SpecWorkload, CausalIsRefusedForCacheModels)
{
    std::string m = parse_bad(kAtt + "  causal: [false, true]\n");
    EXPECT_TRUE(starts(m, "spec.yaml:7:11: axes.causal: expected causal: false with models traffic"))
        << m;
    Spec spec;
    std::string only = kAtt;
    only.replace(only.find("[traffic]"), 9, "[workload]");
    parse_ok(only + "  causal: [false, true]\n", &spec);
    pascal_point p;
    pascal_error err{};
    ASSERT_EQ(pascal_spec_point(spec.s, 1, &p, &err), 1) << err.msg;
    pascal_workload w;
    ASSERT_EQ(pascal_workload_of_point(p.v, &w), 0);
    EXPECT_EQ(w.ring, 0);
    // The exact replay takes it, beside traffic; the other cache models and
    // any phase pattern but aligned are still refused, at their marks.
    std::string replay = kAtt;
    replay.replace(replay.find("[traffic]"), 9, "[traffic, lru_replay]");
    Spec ok;
    parse_ok(replay + "  causal: [false, true]\n", &ok);
    m = parse_bad(replay + "  causal: [true]\n  pattern: [aligned, equal]\n");
    EXPECT_TRUE(starts(m, "spec.yaml:8:12: axes.pattern: expected pattern: aligned with causal: true"))
        << m;
    std::string res = kAtt;
    res.replace(res.find("[traffic]"), 9, "[traffic, lru_replay, residency]");
    m = parse_bad(res + "  causal: [true]\n");
    EXPECT_TRUE(starts(m, "spec.yaml:7:11: axes.causal: expected causal: false with models residency "
                          "(causal attention is not a ring scan")) << m;
}

// Shapes the model cannot take are point errors naming the field.
TEST(SpecWorkload, RefusedShapesNameTheField)
{
    std::string m = point_bad(kAtt + "  kv_heads: [6]\n");
    EXPECT_TRUE(starts(m, "spec.yaml:7:13: axes.kv_heads: expected a workload the model can take, "
                          "got q_heads = 64, not a multiple of kv_heads = 6")) << m;
    EXPECT_NE(m.find("at point 0 (kv_heads=6)"), std::string::npos) << m;
    m = point_bad("name: t\nmodels: [traffic]\nworkload:\n  gemm: {gemm_m: 512, gemm_n: 512, "
                  "gemm_k: 1000, dtype: bf16, tile_m: 128, tile_n: 128, tile_k: 64, split_k: 3}\n"
                  "fixed: {M: 8, C: 10}\naxes:\n  tile_n: [128]\n");
    EXPECT_TRUE(starts(m, "spec.yaml:4:110: workload.gemm.split_k: expected a workload the model "
                          "can take, got split_k = 3, which does not divide the 16 K tiles")) << m;
    // Too many requests for the per-wave evaluation (2^22): 64 heads x 2^16
    // query tiles x 2 requests.
    m = point_bad(kAtt + "  seq_q: [8388608]\n");
    EXPECT_TRUE(starts(m, "spec.yaml:4:3: workload.attention: expected at most 4194304 block "
                          "requests per round over all waves")) << m;
}

} // namespace
