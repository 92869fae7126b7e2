// A whole model step (docs/workloads.md section 11): the kernels a model's
// config numbers give, the step's totals worked out by hand on a toy model,
// the same totals as the sum of each kernel run as a workload spec of its
// own (written out here, not derived by pascal), and the refusals.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "engine/eval.h"
#include "model/step.h"
#include "sweeps/spec.h"
#include "test_util.h"

namespace {

// The toy: 2 layers, hidden 64, 4 query heads of 16 over 2 KV heads, MLP 96,
// vocab 64, bf16; decode at batch 4 against 16 cached tokens.
pascal_step toy(int phase)
{
    pascal_step s{};
    s.phase = phase;
    s.layers = 2, s.hidden = 64, s.heads = 4, s.kv_heads = 2, s.head_dim = 16;
    s.intermediate = 96, s.vocab = 64, s.batch = 4, s.context = 16;
    s.kernels.dtype = PASCAL_DTYPE_BF16;
    s.kernels.kernel = PASCAL_KERNEL_FLASH2;
    s.kernels.tile_q = 16, s.kernels.tile_kv = 8, s.kernels.num_splits = 1;
    s.kernels.tile_m = 16, s.kernels.tile_n = 16, s.kernels.tile_k = 16;
    s.kernels.raster = PASCAL_RASTER_COLUMN, s.kernels.swizzle = 8;
    return s;
}

TEST(ModelStep, KernelsOfTheConfigNumbers)
{
    for (int phase = 0; phase < 2; phase++) {
        pascal_step s = toy(phase);
        int64_t T = phase ? 4 * 16 : 4;
        EXPECT_EQ(pascal_step_tokens(&s), T);
        // {M, N, K} of each GEMM, written from the shapes in step.h
        const int64_t mnk[PASCAL_OP_COUNT][3] = {
            {T, (4 + 2 * 2) * 16, 64}, {0, 0, 0}, {T, 64, 4 * 16}, {T, 2 * 96, 64}, {T, 64, 96}, {4, 64, 64}};
        for (int op = 0; op < PASCAL_OP_COUNT; op++) {
            pascal_workload_shape k;
            int64_t count;
            ASSERT_EQ(pascal_step_kernel(&s, op, &k, &count), PASCAL_WL_OK);
            EXPECT_EQ(count, op == PASCAL_OP_LM_HEAD ? 1 : 2) << op;
            EXPECT_EQ(k.dtype, PASCAL_DTYPE_BF16);
            if (op == PASCAL_OP_ATTENTION) {
                EXPECT_EQ(k.kind, PASCAL_WORKLOAD_ATTENTION);
                EXPECT_EQ(k.batch, 4);
                EXPECT_EQ(k.q_heads, 4);
                EXPECT_EQ(k.kv_heads, 2);
                EXPECT_EQ(k.head_dim, 16);
                EXPECT_EQ(k.seq_q, phase ? 16 : 1);
                EXPECT_EQ(k.seq_kv, 16);
                EXPECT_EQ(k.causal, phase);
                EXPECT_EQ(k.kernel, PASCAL_KERNEL_FLASH2);
                continue;
            }
            EXPECT_EQ(k.kind, PASCAL_WORKLOAD_GEMM);
            EXPECT_EQ(k.m, mnk[op][0]) << op;
            EXPECT_EQ(k.n, mnk[op][1]) << op;
            EXPECT_EQ(k.k, mnk[op][2]) << op;
            EXPECT_EQ(k.split_k, 1);
            EXPECT_EQ(k.kernel, PASCAL_KERNEL_MODEL);
        }
    }
    pascal_step bad = toy(0);
    pascal_workload_shape k;
    int64_t count;
    bad.vocab = 0;
    EXPECT_EQ(pascal_step_kernel(&bad, PASCAL_OP_QKV, &k, &count), PASCAL_WL_RANGE);
    EXPECT_EQ(pascal_step_kernel(&bad, PASCAL_OP_COUNT, &k, &count), PASCAL_WL_RANGE);
}

class StepSpec : public pascal_test::TempDirTest {
protected:
    std::vector<std::vector<double>> eval(const std::string &yaml, const std::vector<int> &cols)
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
    std::string refused(const std::string &yaml)
    {
        pascal_spec *s = nullptr;
        pascal_error err{};
        std::string file = dir + "/spec.yaml";
        int rc = pascal_spec_parse(yaml.data(), yaml.size(), file.c_str(), &s, &err);
        if (rc == 0) {
            // a refusal at a point comes from expanding it
            pascal_point p;
            for (uint64_t i = 0; i < pascal_spec_size(s) && rc == 0; i++)
                rc = pascal_spec_point(s, i, &p, &err) < 0 ? PASCAL_EINPUT : 0;
            pascal_spec_free(s);
        }
        EXPECT_EQ(rc, PASCAL_EINPUT) << yaml;
        return err.msg;
    }
};

const std::string kModel =
    "model:\n"
    "  layers: 2\n  hidden: 64\n  q_heads: 4\n  kv_heads: 2\n  intermediate: 96\n  vocab: 64\n"
    "  dtype: bf16\n  phase: decode\n  batch: 4\n  seq_kv: 16\n  kernel: flash-attn-2\n"
    "  num_splits: 1\n  tile_q: 16\n  tile_kv: 8\n  tile_m: 16\n  tile_n: 16\n  tile_k: 16\n";
const std::string kRates = "fixed:\n  M: 2\n  flops_per_s: 1e15\n  l2_bytes_per_s: 1e15\n"
                           "  dram_bytes_per_s: 1e9\n  dram_pj_per_byte: 10\n  l2_pj_per_byte: 1\n"
                           "  l2_mm2_per_mib: 0.5\n";

// The toy at 1 MiB, where every kernel fetches each byte it reads once.
// By hand, per layer (bf16: 2 bytes an element; the head dim is 64 / 4 =
// 16; GEMM tiles 16 x 16 x 16, so the block replay reads A as whole tiles
// of 16 rows for M = 4):
//   qkv_proj  A 16 x 64 + B 64 x 128  = (1024 + 8192) x 2  = 18432 bytes
//   attention K and V of 4 sequences x 2 KV heads x 16 x 16 = 2 x 2048 x 2 = 8192
//   o_proj    A 16 x 64 + B 64 x 64   = (1024 + 4096) x 2  = 10240
//   gate_up   A 16 x 64 + B 64 x 192  = (1024 + 12288) x 2 = 26624
//   down      A 16 x 96 + B 96 x 64   = (1536 + 6144) x 2  = 15360
// = 78848 a layer, 157696 for two, and the LM head (as o_proj) 10240:
// 167936 bytes.  Read from L2 (each CTA its A panel and its B panel, K
// long): qkv 8 tiles x (16 + 16) x 64 x 2 = 32768; o 4 tiles: 16384;
// gate_up 12: 49152; down 4 x 32 x 96 x 2 = 24576; attention, folded (a CTA
// per sequence and KV head reads its K and V once): 8192; a layer 131072,
// the step 262144 + 16384 = 278528.  FLOPs: 2 M N K each GEMM, 4 B H_q d
// L_q L_kv = 4 x 4 x 4 x 16 x 16 = 16384 for attention: a layer 65536 +
// 16384 + 32768 + 98304 + 49152 = 262144, the step 524288 + 32768 =
// 557056.  With the DRAM at 1e9 bytes/s and the rest at 1e15, every kernel
// is DRAM-bound: the step takes 167936 ns, for 4 tokens.
//
// Sector-exact (rows in whole 32-byte sectors, which every row here is):
// A is its 4 real rows (512 bytes for K = 64, 768 for K = 96), and each
// attention CTA reads its Q (2 heads x 16 x 2 = 64 bytes, 8 CTAs): qkv
// 16896, attention 8704, o 8704, gate_up 25088, down 13056; a layer 72448,
// the step 144896 + 8704 = 153600.
TEST_F(StepSpec, TotalsOfTheToyByHand)
{
    std::string yaml = "name: step\nmodels: [traffic, lru_replay]\n" + kModel + kRates +
                       "axes:\n  capacity_bytes: [1MiB]\n";
    std::vector<int> cols = {PASCAL_COL_ANSWER_FILL_BYTES, PASCAL_COL_ANSWER_TRAFFIC, PASCAL_COL_FLOPS,
                             PASCAL_COL_TIME_BOUND_S, PASCAL_COL_BOUND_TERM, PASCAL_COL_ENERGY_DRAM_J,
                             PASCAL_COL_ENERGY_L2_J, PASCAL_COL_ENERGY_J, PASCAL_COL_AREA_L2_MM2,
                             PASCAL_COL_STEP_TOKENS, PASCAL_COL_TOKENS_PER_S_BOUND,
                             PASCAL_COL_FILL_BYTES_PER_TOKEN, PASCAL_COL_ENERGY_PER_TOKEN_J,
                             PASCAL_COL_FILL_BYTES_PER_SEQUENCE, PASCAL_COL_FILL_BYTES_QKV_PROJ,
                             PASCAL_COL_FILL_BYTES_ATTENTION, PASCAL_COL_FILL_BYTES_O_PROJ,
                             PASCAL_COL_FILL_BYTES_GATE_UP_PROJ, PASCAL_COL_FILL_BYTES_DOWN_PROJ,
                             PASCAL_COL_FILL_BYTES_LM_HEAD, PASCAL_COL_TIME_L2_S,
                             PASCAL_COL_FILL_BYTES_EXACT, PASCAL_COL_IDEAL_BYTES_EXACT};
    auto rows = eval(yaml, cols);
    ASSERT_EQ(rows.size(), 1u);
    const std::vector<double> &v = rows[0];
    const double fill = 167936, requested = 278528, energy = fill * 10e-12 + requested * 1e-12;
    EXPECT_EQ(v[0], fill);
    EXPECT_DOUBLE_EQ(v[1], 1.0);
    EXPECT_EQ(v[2], 557056);
    EXPECT_DOUBLE_EQ(v[3], fill * 1e-9);
    EXPECT_EQ(v[4], 3);   // DRAM
    EXPECT_DOUBLE_EQ(v[5], fill * 10e-12);
    EXPECT_DOUBLE_EQ(v[6], requested * 1e-12);
    EXPECT_DOUBLE_EQ(v[7], energy);
    EXPECT_DOUBLE_EQ(v[8], 0.5);   // 1 MiB at 0.5 mm2 per MiB
    EXPECT_EQ(v[9], 4);
    EXPECT_DOUBLE_EQ(v[10], 4 / (fill * 1e-9));
    EXPECT_DOUBLE_EQ(v[11], fill / 4);
    EXPECT_DOUBLE_EQ(v[12], energy / 4);
    EXPECT_DOUBLE_EQ(v[13], fill / 4);   // one token per sequence
    const double per_op[PASCAL_OP_COUNT] = {2 * 18432, 2 * 8192, 2 * 10240, 2 * 26624, 2 * 15360, 10240};
    for (int op = 0; op < PASCAL_OP_COUNT; op++)
        EXPECT_EQ(v[14 + op], per_op[op]) << pascal_step_op_names[op];
    EXPECT_DOUBLE_EQ(v[20], requested / 1e15);
    EXPECT_EQ(v[21], 153600);
    EXPECT_EQ(v[22], 153600);
}

// The same step at a capacity where reuse is partial, against each kernel
// written as a workload spec of its own: the step is their sum, each times
// the layers (the LM head once).
TEST_F(StepSpec, StepIsTheSumOfItsKernelsRunAlone)
{
    const char *kernels[PASCAL_OP_COUNT] = {
        "gemm: {gemm_m: 4, gemm_n: 128, gemm_k: 64",
        "attention: {batch: 4, q_heads: 4, kv_heads: 2, seq_q: 1, seq_kv: 16, head_dim: 16, "
        "tile_q: 16, tile_kv: 8, kernel: flash-attn-2, num_splits: 1",
        "gemm: {gemm_m: 4, gemm_n: 64, gemm_k: 64",
        "gemm: {gemm_m: 4, gemm_n: 192, gemm_k: 64",
        "gemm: {gemm_m: 4, gemm_n: 64, gemm_k: 96",
        "gemm: {gemm_m: 4, gemm_n: 64, gemm_k: 64"};
    std::vector<int> cols = {PASCAL_COL_ANSWER_FILL_BYTES, PASCAL_COL_TIME_BOUND_S, PASCAL_COL_ENERGY_J,
                             PASCAL_COL_FILL_BYTES_EXACT, PASCAL_COL_FLOPS};
    const char *caps = "axes:\n  capacity_bytes: [1024, 4096, 12000]\n";
    std::vector<std::vector<double>> sum(3, std::vector<double>(cols.size(), 0.0));
    for (int op = 0; op < PASCAL_OP_COUNT; op++) {
        std::string tiles = op == PASCAL_OP_ATTENTION ? "" : ", tile_m: 16, tile_n: 16, tile_k: 16, raster: column";
        std::string yaml = "name: k\nmodels: [traffic, lru_replay]\nworkload:\n  " + std::string(kernels[op]) +
                           ", dtype: bf16" + tiles + "}\n" + kRates + caps;
        auto rows = eval(yaml, cols);
        ASSERT_EQ(rows.size(), 3u) << op;
        for (int i = 0; i < 3; i++)
            for (size_t j = 0; j < cols.size(); j++)
                sum[i][j] += (op == PASCAL_OP_LM_HEAD ? 1 : 2) * rows[i][j];
    }
    auto step = eval("name: step\nmodels: [traffic, lru_replay]\n" + kModel + kRates + caps, cols);
    ASSERT_EQ(step.size(), 3u);
    for (int i = 0; i < 3; i++)
        for (size_t j = 0; j < cols.size(); j++)
            EXPECT_DOUBLE_EQ(step[i][j], sum[i][j]) << "capacity " << i << " column " << j;
    // Partial reuse: 1 KiB holds less than a kernel's panels.
    EXPECT_GT(step[0][0], 167936);
}

TEST_F(StepSpec, RefusalsNameTheirKey)
{
    std::string head = "name: step\nmodels: [traffic, lru_replay]\n";
    std::string tail = kRates + "axes:\n  capacity_bytes: [1MiB]\n";
    std::string msg;
    msg = refused(head + "workload:\n  gemm: {gemm_m: 4, gemm_n: 4, gemm_k: 4, dtype: bf16, tile_m: 4, "
                         "tile_n: 4, tile_k: 4}\n" + kModel + tail);
    EXPECT_NE(msg.find("spec.yaml:5:1: model: expected a workload: section (one kernel) or a model: "
                       "section (a whole step), not both"), std::string::npos) << msg;
    std::string no_vocab = kModel;
    no_vocab.erase(no_vocab.find("  vocab: 64\n"), 12);
    msg = refused(head + no_vocab + tail);
    EXPECT_NE(msg.find("model: expected vocab (a positive integer) in the model, fixed or axes, got none"),
              std::string::npos) << msg;
    msg = refused("name: step\nmodels: [traffic, ttl]\n" + kModel + tail);
    EXPECT_NE(msg.find("expected models among traffic, lru_replay with a model: section"),
              std::string::npos) << msg;
    msg = refused(head + "columns: [fill_bytes_ttl]\n" + kModel + tail);
    EXPECT_NE(msg.find("columns[0]: expected a column a model step gives"), std::string::npos) << msg;
    msg = refused(head + kModel + tail + "  C: [64]\n");
    EXPECT_NE(msg.find("expected no C with a model: section"), std::string::npos) << msg;
    std::string odd = kModel;
    odd.replace(odd.find("hidden: 64"), 10, "hidden: 62");
    msg = refused(head + odd + tail);
    EXPECT_NE(msg.find("expected a step whose kernels the model can take, got qkv_proj: a model field "
                       "below 1 or head_dim unset (hidden 62 is not a multiple of q_heads 4"),
              std::string::npos) << msg;
    // A kernel the shape cannot take names the kernel and the field.
    std::string big = kModel;
    big.replace(big.find("num_splits: 1"), 13, "num_splits: 200");
    msg = refused(head + big + tail);
    EXPECT_NE(msg.find("model.num_splits: expected a step whose kernels the model can take, got "
                       "attention:"), std::string::npos) << msg;
}

} // namespace
