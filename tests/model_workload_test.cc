// Tests for model/workload.h: the derivations against shapes computed by
// hand (docs/workloads.md's worked examples), the raster orders against
// their definitions written out tile by tile, the causal request count
// against a direct count, refusals, and the wave instances.
#include <gtest/gtest.h>

#include <cstdint>
#include <algorithm>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "model/workload.h"

namespace {

pascal_workload_shape attention(int64_t b, int64_t hq, int64_t hkv, int64_t lq, int64_t lkv,
                                int64_t d, int dtype, int64_t tq, int64_t tk, int causal = 0)
{
    pascal_workload_shape s = {};
    s.kind = PASCAL_WORKLOAD_ATTENTION;
    s.dtype = dtype;
    s.batch = b, s.q_heads = hq, s.kv_heads = hkv, s.seq_q = lq, s.seq_kv = lkv;
    s.head_dim = d, s.tile_q = tq, s.tile_kv = tk, s.causal = causal;
    return s;
}

pascal_workload_shape gemm(int64_t m, int64_t n, int64_t k, int dtype, int64_t tm, int64_t tn,
                           int64_t tk, int raster = PASCAL_RASTER_ROW, int64_t swz = 8,
                           int64_t split = 1)
{
    pascal_workload_shape s = {};
    s.kind = PASCAL_WORKLOAD_GEMM;
    s.dtype = dtype;
    s.m = m, s.n = n, s.k = k, s.tile_m = tm, s.tile_n = tn, s.tile_k = tk;
    s.raster = raster, s.swizzle = swz, s.split_k = split;
    return s;
}

// Llama 3 70B (64 query heads, 8 KV heads, head dim 128), 8k prefill,
// BF16, 128 x 64 tiles, worked by hand in docs/workloads.md.
TEST(ModelWorkload, AttentionLlama70bByHand)
{
    pascal_workload w;
    auto s = attention(1, 64, 8, 8192, 8192, 128, PASCAL_DTYPE_BF16, 128, 64);
    ASSERT_EQ(pascal_workload_derive(&s, &w), PASCAL_WL_OK);
    EXPECT_EQ(w.streams, 16);            // K and V of 8 KV heads
    EXPECT_EQ(w.blocks, 128);            // 8192 / 64
    EXPECT_EQ(w.block_bytes, 16384);     // 64 x 128 x 2 bytes
    EXPECT_EQ(w.units, 2);
    EXPECT_EQ(w.ctas, 4096);             // 64 heads x 64 query tiles
    EXPECT_EQ(w.group, 8);
    EXPECT_EQ(w.sharers_a, 512);         // 8 heads x 64 tiles per KV head
    EXPECT_EQ(w.sharers_b, 512);
    EXPECT_EQ(w.requests, 4096LL * 2 * 128);
    EXPECT_EQ(w.ideal_bytes, 32LL << 20);   // 16 streams x 128 x 16 KiB
    EXPECT_EQ(w.tensor_bytes, 32LL << 20);  // 2 x 8 x 8192 x 128 x 2
    EXPECT_EQ(w.ring, 1);
    EXPECT_EQ(pascal_workload_waves(&w, 132), 32);   // ceil(4096 / 132)
}

// Padding: L_kv = 1000 with 64-row tiles is 16 blocks (the last holds 40
// rows); the ideal traffic counts whole blocks, the tensor bytes do not.
TEST(ModelWorkload, AttentionPaddingAndMqa)
{
    pascal_workload w;
    auto s = attention(2, 16, 1, 300, 1000, 64, PASCAL_DTYPE_FP16, 128, 64);
    ASSERT_EQ(pascal_workload_derive(&s, &w), PASCAL_WL_OK);
    EXPECT_EQ(w.streams, 4);            // 2 batches x 1 KV head x (K, V)
    EXPECT_EQ(w.blocks, 16);
    EXPECT_EQ(w.block_bytes, 64 * 64 * 2);
    EXPECT_EQ(w.tiles_q, 3);            // ceil(300 / 128)
    EXPECT_EQ(w.ctas, 2 * 16 * 3);
    EXPECT_EQ(w.sharers_a, 16 * 3);
    EXPECT_EQ(w.ideal_bytes, 4LL * 16 * 64 * 64 * 2);
    EXPECT_EQ(w.tensor_bytes, 4LL * 1000 * 64 * 2);
}

// Causal, bottom-right aligned: query row i sees keys j <= i + L_kv - L_q.
// Counted here row by row: a query tile reads every KV block holding a key
// some row of the tile sees.
TEST(ModelWorkload, CausalRequestsMatchDirectCount)
{
    for (auto [lq, lkv, tq, tk] : std::vector<std::tuple<int64_t, int64_t, int64_t, int64_t>>{
             {256, 256, 128, 64}, {300, 1000, 64, 48}, {1000, 300, 128, 64}, {7, 7, 3, 2}}) {
        pascal_workload w;
        auto s = attention(1, 2, 1, lq, lkv, 8, PASCAL_DTYPE_BF16, tq, tk, 1);
        ASSERT_EQ(pascal_workload_derive(&s, &w), PASCAL_WL_OK);
        int64_t per_head = 0, n_q = (lq + tq - 1) / tq;
        for (int64_t t = 0; t < n_q; t++) {
            int64_t last_key = -1;
            for (int64_t i = t * tq; i < std::min((t + 1) * tq, lq); i++)
                last_key = std::max(last_key, std::min(i + lkv - lq, lkv - 1));
            per_head += last_key < 0 ? 0 : last_key / tk + 1;
        }
        EXPECT_EQ(w.requests, 2 * 2 * per_head) << lq << " " << lkv;
        EXPECT_EQ(w.ring, 0);
    }
    // By hand: L = 256, 128 / 64 tiles: tile 0 reads 2 blocks, tile 1 all 4.
    pascal_workload w;
    auto s = attention(1, 2, 1, 256, 256, 8, PASCAL_DTYPE_BF16, 128, 64, 1);
    ASSERT_EQ(pascal_workload_derive(&s, &w), PASCAL_WL_OK);
    EXPECT_EQ(w.requests, 2 * 2 * (2 + 4));
}

// Llama 3 70B MLP up-projection at 8k tokens: 8192 x 28672 x 8192, BF16,
// 128 x 256 x 64 tiles: a B panel is two 128-wide units.
TEST(ModelWorkload, GemmUnitsByHand)
{
    pascal_workload w;
    auto s = gemm(8192, 28672, 8192, PASCAL_DTYPE_BF16, 128, 256, 64);
    ASSERT_EQ(pascal_workload_derive(&s, &w), PASCAL_WL_OK);
    EXPECT_EQ(w.tiles_q, 64);
    EXPECT_EQ(w.tiles_n, 112);
    EXPECT_EQ(w.ua, 1);
    EXPECT_EQ(w.ub, 2);
    EXPECT_EQ(w.units, 3);
    EXPECT_EQ(w.blocks, 128);              // 8192 / 64
    EXPECT_EQ(w.block_bytes, 128 * 64 * 2);
    EXPECT_EQ(w.streams, 64 + 224);
    EXPECT_EQ(w.ctas, 64 * 112);
    EXPECT_EQ(w.sharers_a, 112);
    EXPECT_EQ(w.sharers_b, 64);
    EXPECT_EQ(w.ideal_bytes, (8192LL * 8192 + 8192LL * 28672) * 2);
    EXPECT_EQ(w.tensor_bytes, w.ideal_bytes);
    // 192 x 128 tiles: unit gcd 64, three A units and two B units.
    s = gemm(384, 256, 256, PASCAL_DTYPE_FP8, 192, 128, 128, PASCAL_RASTER_ROW, 8, 2);
    ASSERT_EQ(pascal_workload_derive(&s, &w), PASCAL_WL_OK);
    EXPECT_EQ(w.ua, 3);
    EXPECT_EQ(w.ub, 2);
    EXPECT_EQ(w.block_bytes, 64 * 128);    // 64 x 128 FP8 elements
    EXPECT_EQ(w.blocks, 1);                // 2 K tiles over 2 slices
    EXPECT_EQ(w.streams, 2 * (2 * 3 + 2 * 2));
}

TEST(ModelWorkload, GemmSplitK)
{
    pascal_workload w;
    auto s = gemm(512, 512, 1024, PASCAL_DTYPE_BF16, 128, 128, 64, PASCAL_RASTER_ROW, 8, 4);
    ASSERT_EQ(pascal_workload_derive(&s, &w), PASCAL_WL_OK);
    EXPECT_EQ(w.blocks, 4);                // 16 K tiles / 4 slices
    EXPECT_EQ(w.streams, 4 * (4 + 4));
    EXPECT_EQ(w.ctas, 4 * 4 * 4);
    EXPECT_EQ(w.ideal_bytes, (512LL * 1024 + 1024LL * 512) * 2);
    // Split z is outermost: CTA 16 is tile (0, 0) of slice 1, reading the
    // slice-1 streams of A row 0 and B column 0.
    int64_t st[8], i, j, z;
    pascal_workload_gemm_tile(&w, 16, &i, &j, &z);
    EXPECT_EQ(i, 0);
    EXPECT_EQ(j, 0);
    EXPECT_EQ(z, 1);
    pascal_workload_cta(&w, 16, st);
    EXPECT_EQ(st[0], 4);                   // A: (z m_t + i) = 4
    EXPECT_EQ(st[1], 16 + 4);              // B: after 4 x 4 A streams, (z n_t + j) = 4
}

// Row, column and Triton's grouped order on a 3 x 4 tile grid, written out.
TEST(ModelWorkload, RasterOrdersTileByTile)
{
    using P = std::pair<int64_t, int64_t>;
    std::vector<P> row, col, swz = {{0, 0}, {1, 0}, {0, 1}, {1, 1}, {0, 2}, {1, 2},
                                    {0, 3}, {1, 3}, {2, 0}, {2, 1}, {2, 2}, {2, 3}};
    for (int64_t i = 0; i < 3; i++)
        for (int64_t j = 0; j < 4; j++)
            row.push_back({i, j});
    for (int64_t j = 0; j < 4; j++)
        for (int64_t i = 0; i < 3; i++)
            col.push_back({i, j});
    for (auto [raster, want] : std::vector<std::pair<int, std::vector<P>>>{
             {PASCAL_RASTER_ROW, row}, {PASCAL_RASTER_COLUMN, col}, {PASCAL_RASTER_SWIZZLE, swz}}) {
        pascal_workload w;
        auto s = gemm(300, 400, 64, PASCAL_DTYPE_BF16, 100, 100, 64, raster, 2);
        ASSERT_EQ(pascal_workload_derive(&s, &w), PASCAL_WL_OK);
        for (int64_t c = 0; c < 12; c++) {
            int64_t i, j, z;
            pascal_workload_gemm_tile(&w, c, &i, &j, &z);
            EXPECT_EQ(P(i, j), want[(size_t)c]) << "raster " << raster << " CTA " << c;
            EXPECT_EQ(z, 0);
        }
    }
}

TEST(ModelWorkload, Refusals)
{
    pascal_workload w;
    char why[256];
    auto s = attention(1, 64, 6, 8192, 8192, 128, PASCAL_DTYPE_BF16, 128, 64);
    EXPECT_EQ(pascal_workload_derive(&s, &w), PASCAL_WL_HEADS);
    pascal_workload_explain(&s, PASCAL_WL_HEADS, why, sizeof why);
    EXPECT_EQ(std::string(why).rfind("q_heads = 64, not a multiple of kv_heads = 6", 0), 0u);
    s = attention(1, 8, 8, 64, 64, 1, PASCAL_DTYPE_FP4, 64, 1);   // 4 bits per block
    EXPECT_EQ(pascal_workload_derive(&s, &w), PASCAL_WL_BYTES);
    s = attention(1, 8, 8, 64, 64, 2, PASCAL_DTYPE_FP4, 64, 1);   // 8 bits: a byte
    EXPECT_EQ(pascal_workload_derive(&s, &w), PASCAL_WL_OK);
    EXPECT_EQ(w.block_bytes, 1);
    auto g = gemm(512, 512, 1000, PASCAL_DTYPE_BF16, 128, 128, 64, PASCAL_RASTER_ROW, 8, 3);
    EXPECT_EQ(pascal_workload_derive(&g, &w), PASCAL_WL_SPLIT);   // 16 K tiles, 3 slices
    pascal_workload_explain(&g, PASCAL_WL_SPLIT, why, sizeof why);
    EXPECT_EQ(std::string(why).rfind("split_k = 3, which does not divide the 16 K tiles", 0), 0u);
    g = gemm(512, 512, 512, PASCAL_DTYPE_BF16, 128, 127, 64);      // gcd 1: 255 units
    EXPECT_EQ(pascal_workload_derive(&g, &w), PASCAL_WL_UNITS);
    g = gemm(512, 512, 512, PASCAL_DTYPE_BF16, 0, 128, 64);
    EXPECT_EQ(pascal_workload_derive(&g, &w), PASCAL_WL_RANGE);
    g.kind = 7;
    EXPECT_EQ(pascal_workload_derive(&g, &w), PASCAL_WL_KIND);
}

// FlashAttention-2's forward, as its launch code has it: grid(num_m_block,
// batch, heads) (csrc/flash_attn/src/flash_fwd_launch_template.h), CTAs
// dispatched in linear block order x + y gx + z gx gy, m_block = blockIdx.x,
// bidb = blockIdx.y, bidh = blockIdx.z, KV head bidh / (h / h_k)
// (flash_fwd_kernel.h); for one query token with h > h_k, mha_fwd
// (flash_api.cpp) launches seqlen_q = h / h_k rows of h_k heads.  Here an
// enumeration of that grid, written from those lines, against the model's
// CTA -> streams map, CTA by CTA.
TEST(ModelWorkload, FlashAttention2GridCtaByCta)
{
    struct Case {
        int64_t b, hq, hkv, lq, d, tq;
        bool folded;
    } cases[] = {
        {3, 4, 2, 5, 8, 2, false},   // prefill-like: n_q = 3
        {2, 6, 3, 1, 8, 1, true},    // decode GQA: 2 query rows of 3 heads
        {2, 6, 3, 1, 4, 1, false},   // head_dim 4: not a multiple of 8, no fold
        {3, 4, 4, 1, 8, 4, false},   // MHA decode: no fold
        {2, 8, 1, 1, 16, 4, true},   // MQA decode: 8 rows of 1 head, tiles of 4
    };
    for (const Case &c : cases) {
        auto s = attention(c.b, c.hq, c.hkv, c.lq, 64, c.d, PASCAL_DTYPE_BF16, c.tq, 16);
        s.kernel = PASCAL_KERNEL_FLASH2;
        s.num_splits = 1;   // the standard kernel (section 2.6 has the split one)
        pascal_workload w;
        ASSERT_EQ(pascal_workload_derive(&s, &w), PASCAL_WL_OK);
        EXPECT_EQ(w.folded, c.folded ? 1 : 0) << c.hq << "/" << c.hkv << " d " << c.d;
        int64_t h = c.folded ? c.hkv : c.hq, lq = c.folded ? c.hq / c.hkv : c.lq;
        int64_t gx = (lq + c.tq - 1) / c.tq, gy = c.b, gz = h, ratio = h / c.hkv;
        ASSERT_EQ(w.ctas, gx * gy * gz);
        EXPECT_EQ(w.sharers_a, ratio * gx);
        EXPECT_EQ(w.requests, 2 * w.ctas * w.blocks);
        int64_t ids[2];
        for (int64_t z = 0; z < gz; z++)
            for (int64_t y = 0; y < gy; y++)
                for (int64_t x = 0; x < gx; x++) {
                    int64_t linear = x + y * gx + z * gx * gy, kv_head = z / ratio;
                    pascal_workload_cta(&w, linear, ids);
                    EXPECT_EQ(ids[0], 2 * (y * c.hkv + kv_head)) << "CTA " << linear;
                    EXPECT_EQ(ids[1], ids[0] + 1) << "CTA " << linear;
                }
    }
    // the model kernel: query tile, then head, then batch
    auto s = attention(3, 4, 2, 5, 64, 8, PASCAL_DTYPE_BF16, 2, 16);
    pascal_workload w;
    ASSERT_EQ(pascal_workload_derive(&s, &w), PASCAL_WL_OK);
    int64_t ids[2];
    pascal_workload_cta(&w, 3 * 1 + 1 * 3 * 4, ids);   // t 0, h 1, b 1
    EXPECT_EQ(ids[0], 2 * (1 * 2 + 0));
    // an attention kernel for a gemm is refused
    auto g = gemm(512, 512, 512, PASCAL_DTYPE_BF16, 128, 128, 64);
    g.kernel = PASCAL_KERNEL_FLASH2;
    EXPECT_EQ(pascal_workload_derive(&g, &w), PASCAL_WL_KERNEL);
}

// CUTLASS 2.x device::Gemm with GemmIdentityThreadblockSwizzle<N>
// (include/cutlass/gemm/threadblock/threadblock_swizzle.h): get_log_tile
// picks L = 3, 2 or 1 when N >= 8 and n_t >= 6, N >= 4 and n_t >= 3, N >= 2
// and n_t >= 2, else 0; get_grid_shape is (m_t 2^L, [n_t / 2^L], split_k);
// get_tile_offset gives m = x >> L, n = (y << L) + (x & (2^L - 1)), k = z;
// kernel/gemm.h returns at once from a CTA past the tiles.  An enumeration
// of that grid in linear block order, skipping those, against the model's
// tile of each CTA.
TEST(ModelWorkload, CutlassIdentitySwizzleCtaByCta)
{
    struct Case {
        int64_t m, n, k, tm, tn, tk, swz, split;
        int log_tile;
    } cases[] = {
        {512, 512, 256, 128, 128, 64, 1, 1, 0},    // device::Gemm's default: M fastest
        {384, 896, 256, 128, 128, 64, 8, 1, 3},    // n_t 7: groups of 8, the last 7 wide
        {384, 640, 256, 128, 128, 64, 8, 2, 2},    // n_t 5: 8 allowed, 4 chosen; split-K 2
        {256, 384, 128, 128, 128, 64, 4, 1, 2},    // n_t 3 of 4: one padded group
        {256, 256, 128, 128, 128, 64, 2, 1, 1},
        {256, 128, 128, 128, 128, 64, 8, 1, 0},    // n_t 1
    };
    for (const Case &c : cases) {
        auto g = gemm(c.m, c.n, c.k, PASCAL_DTYPE_BF16, c.tm, c.tn, c.tk, PASCAL_RASTER_ROW, c.swz,
                      c.split);
        g.kernel = PASCAL_KERNEL_CUTLASS;
        pascal_workload w;
        ASSERT_EQ(pascal_workload_derive(&g, &w), PASCAL_WL_OK);
        int64_t m_t = (c.m + c.tm - 1) / c.tm, n_t = (c.n + c.tn - 1) / c.tn;
        ASSERT_EQ(w.log_tile, c.log_tile) << "n_t " << n_t << " N " << c.swz;
        int64_t tile = (int64_t)1 << c.log_tile, gx = m_t * tile, gy = (n_t + tile - 1) / tile;
        int64_t real = 0;
        for (int64_t z = 0; z < c.split; z++)
            for (int64_t y = 0; y < gy; y++)
                for (int64_t x = 0; x < gx; x++) {
                    int64_t mi = x >> c.log_tile, nj = (y << c.log_tile) + (x & (tile - 1));
                    if (mi >= m_t || nj >= n_t)
                        continue;   // the kernel's early return
                    int64_t i, j, zz;
                    pascal_workload_gemm_tile(&w, real, &i, &j, &zz);
                    EXPECT_TRUE(i == mi && j == nj && zz == z)
                        << "CTA " << real << ": (" << i << ", " << j << ", " << zz << ") for ("
                        << mi << ", " << nj << ", " << z << ")";
                    real++;
                }
        EXPECT_EQ(real, w.ctas);
    }
    // the identity swizzle is pascal's column raster
    auto g = gemm(512, 768, 256, PASCAL_DTYPE_BF16, 128, 128, 64, PASCAL_RASTER_ROW, 1);
    auto col = gemm(512, 768, 256, PASCAL_DTYPE_BF16, 128, 128, 64, PASCAL_RASTER_COLUMN, 1);
    g.kernel = PASCAL_KERNEL_CUTLASS;
    pascal_workload a, b;
    ASSERT_EQ(pascal_workload_derive(&g, &a), PASCAL_WL_OK);
    ASSERT_EQ(pascal_workload_derive(&col, &b), PASCAL_WL_OK);
    for (int64_t c = 0; c < a.ctas; c++) {
        int64_t i1, j1, z1, i2, j2, z2;
        pascal_workload_gemm_tile(&a, c, &i1, &j1, &z1);
        pascal_workload_gemm_tile(&b, c, &i2, &j2, &z2);
        EXPECT_TRUE(i1 == i2 && j1 == j2) << c;
    }
    // its swizzle sets the order: another raster is refused, and it is no attention kernel
    g.raster = PASCAL_RASTER_SWIZZLE;
    EXPECT_EQ(pascal_workload_derive(&g, &a), PASCAL_WL_KERNEL);
    auto att = attention(1, 8, 8, 64, 64, 64, PASCAL_DTYPE_BF16, 64, 64);
    att.kernel = PASCAL_KERNEL_CUTLASS;
    EXPECT_EQ(pascal_workload_derive(&att, &a), PASCAL_WL_KERNEL);
}

// CUTLASS 2.x serial split-K, written from kernel::Gemm (kernel/gemm.h):
// Params sets gemm_k_size = ceil(ceil(K / kK) / slices) kK elements; CTA
// (x, y, z) starts at K offset z gemm_k_size, bounds K at problem_size_k =
// min(K, (z + 1) gemm_k_size) and runs (problem_size_k - offset + kK - 1) /
// kK iterations (C division; none below 1); a slice z > 0 takes its
// epilogue's source from D.  Slices of unequal length and more slices than
// K tiles are what the library runs, so they are not refused.
TEST(ModelWorkload, CutlassSerialSplitKByTheSource)
{
    struct Case {
        int64_t m, n, k, tm, tn, tk, swz, split;
    } cases[] = {
        {256, 384, 1000, 128, 128, 64, 1, 3},   // 16 K tiles: 6, 6, 4
        {384, 640, 1000, 128, 128, 64, 8, 5},   // 4, 4, 4, 4, 0: the last slice empty
        {256, 256, 256, 128, 128, 64, 2, 7},    // 4 K tiles, 7 slices: 1, 1, 1, 1, 0, 0, 0
        {128, 256, 512, 64, 128, 32, 1, 4},     // equal slices: a ring
        {200, 200, 130, 64, 64, 64, 1, 2},      // padded M, N and K: 2, 1
    };
    for (const Case &c : cases) {
        auto g = gemm(c.m, c.n, c.k, PASCAL_DTYPE_BF16, c.tm, c.tn, c.tk, PASCAL_RASTER_ROW, c.swz,
                      c.split);
        g.kernel = PASCAL_KERNEL_CUTLASS;
        pascal_workload w;
        ASSERT_EQ(pascal_workload_derive(&g, &w), PASCAL_WL_OK) << c.k << " / " << c.split;
        int64_t m_t = (c.m + c.tm - 1) / c.tm, n_t = (c.n + c.tn - 1) / c.tn;
        int64_t k_iters = (c.k + c.tk - 1) / c.tk, per = (k_iters + c.split - 1) / c.split;
        int64_t gemm_k_size = per * c.tk, u = std::min(c.tm, c.tn);
        EXPECT_EQ(w.ring, k_iters % c.split == 0);
        EXPECT_EQ(w.ctas, m_t * n_t * c.split);
        int64_t requests = 0;
        for (int64_t cta = 0; cta < w.ctas; cta++) {
            int64_t i, j, z;
            pascal_workload_gemm_tile(&w, cta, &i, &j, &z);
            int64_t offset = z * gemm_k_size, size_k = std::min(c.k, (z + 1) * gemm_k_size);
            int64_t iters = std::max<int64_t>((size_k - offset + c.tk - 1) / c.tk, 0);
            ASSERT_EQ(pascal_workload_cta_steps(&w, cta), iters) << "CTA " << cta << " slice " << z;
            EXPECT_EQ(pascal_workload_cta_reduces(&w, cta), z > 0);
            int64_t st[64];
            pascal_workload_cta(&w, cta, st);
            for (int64_t it = 0; it < iters; it++) {
                int64_t b = pascal_workload_cta_block(&w, cta, it), k0 = offset + it * c.tk;
                int64_t cols = std::min(c.tk, size_k - k0), rows = std::min(u, c.m - i * c.tm);
                // unit 0 of the A panel: rows of `cols` bf16, each in whole 32-byte sectors
                EXPECT_EQ(pascal_workload_stored_bytes(&w, st[0], b, 32),
                          rows * ((cols * 2 + 31) / 32 * 32))
                    << "CTA " << cta << " iteration " << it;
            }
            requests += iters * w.units;
        }
        EXPECT_EQ(requests, w.requests);
    }
    // the model kernel's slices stay equal ring scans
    auto g = gemm(256, 384, 1000, PASCAL_DTYPE_BF16, 128, 128, 64, PASCAL_RASTER_ROW, 1, 3);
    pascal_workload w;
    EXPECT_EQ(pascal_workload_derive(&g, &w), PASCAL_WL_SPLIT);
    g.split_k = 2;
    ASSERT_EQ(pascal_workload_derive(&g, &w), PASCAL_WL_OK);
    EXPECT_EQ(pascal_workload_cta_reduces(&w, w.ctas - 1), 0);
}

// The walk puts a serial split-K slice's read of D after every earlier
// slice of its tile has written it (the semaphore), in one wave or across
// waves, and each slice writes once.
TEST(ModelWorkload, CutlassSplitKReadsFollowTheEarlierSlices)
{
    for (int64_t M : {1000, 5, 1}) {
        auto g = gemm(256, 384, 1000, PASCAL_DTYPE_BF16, 128, 128, 64, PASCAL_RASTER_ROW, 1, 5);
        g.kernel = PASCAL_KERNEL_CUTLASS;   // 16 K tiles in slices of 4: 4, 4, 4, 4, 0
        pascal_workload w;
        ASSERT_EQ(pascal_workload_derive(&g, &w), PASCAL_WL_OK);
        struct Seen {
            std::vector<int64_t> writes, reads;
            int bad = 0;
        } seen;
        seen.writes.assign(6, 0), seen.reads.assign(6, 0);
        auto visit = [](void *ctx, int what, int64_t, int64_t id, int64_t bytes) {
            auto *s = static_cast<Seen *>(ctx);
            if (what == PASCAL_ACCESS_OUT_READ) {
                s->reads[id]++;
                s->bad += s->writes[id] != s->reads[id] || bytes != 128 * 128 * 2;
            } else if (what == PASCAL_ACCESS_OUT) {
                s->writes[id]++;
            }
            return 0;
        };
        ASSERT_EQ(pascal_workload_walk(&w, M, nullptr, 32, nullptr, visit, &seen), 0);
        EXPECT_EQ(seen.bad, 0) << "M " << M;
        for (int t = 0; t < 6; t++)
            EXPECT_TRUE(seen.writes[t] == 5 && seen.reads[t] == 4) << "tile " << t << " M " << M;
    }
}

// fp4 packs two elements a byte: a GEMM operand of an odd element count
// takes its last byte whole.  Its size is only informational, so it is no
// refusal (it was: "a derived count past 2^53"); a block must still be
// whole bytes.  (Attention's K and V hold 2 B H_kv L_kv d elements: even.)
TEST(ModelWorkload, Fp4TensorsOfOddElementCounts)
{
    pascal_workload w;
    auto g = gemm(3, 4, 7, PASCAL_DTYPE_FP4, 2, 2, 2);   // A 3 x 7 = 21, B 7 x 4 = 28 elements
    ASSERT_EQ(pascal_workload_derive(&g, &w), PASCAL_WL_OK);
    EXPECT_EQ(w.block_bytes, 2);                        // gcd(2, 2) x 2 = 4 elements
    EXPECT_EQ(w.tensor_bytes, 11 + 14);                 // ceil(21 / 2) + 28 / 2
    g = gemm(3, 4, 7, PASCAL_DTYPE_FP4, 1, 1, 1);       // a block of one element: 4 bits
    EXPECT_EQ(pascal_workload_derive(&g, &w), PASCAL_WL_BYTES);
}

// Waves: CTAs in launch order on the slots, streams numbered locally by
// first appearance, each CTA's requests together (K then V).
TEST(ModelWorkload, WaveInstances)
{
    pascal_workload w;
    // 2 query heads over 1 KV head per batch, 3 query tiles: 6 CTAs per
    // batch, 12 in all; 5 slots give waves of 5, 5, 2.
    auto s = attention(2, 2, 1, 300, 256, 64, PASCAL_DTYPE_BF16, 128, 64);
    ASSERT_EQ(pascal_workload_derive(&s, &w), PASCAL_WL_OK);
    ASSERT_EQ(pascal_workload_waves(&w, 5), 3);
    std::vector<int64_t> ph = {0, 1, 2, 3, 0}, st(10), pp(10), ow(10), N(10), gl(10),
                         scr((size_t)pascal_workload_wave_scratch(&w, 5));
    pascal_streams inst;
    // Wave 1: CTAs 5..9; CTA 5 is batch 0 (streams 0, 1), CTAs 6..9 batch 1
    // (streams 2, 3).
    ASSERT_EQ(pascal_workload_wave(&w, 5, 1, ph.data(), st.data(), pp.data(), ow.data(), N.data(),
                                   gl.data(), scr.data(), &inst), 4);
    EXPECT_EQ(inst.R, 10);
    EXPECT_EQ(std::vector<int64_t>(st.begin(), st.end()),
              (std::vector<int64_t>{0, 1, 2, 3, 2, 3, 2, 3, 2, 3}));
    EXPECT_EQ(std::vector<int64_t>(pp.begin(), pp.end()),
              (std::vector<int64_t>{0, 0, 1, 1, 2, 2, 3, 3, 0, 0}));
    EXPECT_EQ(std::vector<int64_t>(gl.begin(), gl.begin() + 4), (std::vector<int64_t>{0, 1, 2, 3}));
    EXPECT_EQ(ow[9], 9);
    for (int64_t i = 0; i < 4; i++)
        EXPECT_EQ(N[(size_t)i], 4);
    // The last wave has two CTAs.
    ASSERT_EQ(pascal_workload_wave(&w, 5, 2, ph.data(), st.data(), pp.data(), ow.data(), N.data(),
                                   gl.data(), scr.data(), &inst), 2);
    EXPECT_EQ(inst.R, 4);
    EXPECT_EQ(pascal_workload_wave(&w, 5, 3, ph.data(), st.data(), pp.data(), ow.data(), N.data(),
                                   gl.data(), scr.data(), &inst), -1);
}


// FlashAttention-2's num_splits_heuristic (flash_api.cpp), worked by hand:
// the comment's own example, 48 units of work on 108 slots: 1 split is
// 0.44 of a wave, 2 are 0.89, within 85 % of any best (at most 1), so 2.  Llama 3.1 70B decode, batch 1
// (8 folded KV heads, one 64-row tile each) at 8k on an H200 (2 x 132
// slots), 64 KV blocks of 128: k splits are 8 k / 264 of a wave up to 33;
// the best eligible is 32 (and 64), 0.97, and every k from 28 to 31 is
// ineligible (ceil(64 / k) = 3 as for k - 1), so 32.  Work that fills 80 %
// of the slots is one split; max_splits caps the search.
TEST(ModelWorkload, Flash2SplitHeuristicByHand)
{
    EXPECT_EQ(pascal_flash2_num_splits(48, 108, 64, 128), 2);
    EXPECT_EQ(pascal_flash2_num_splits(8, 264, 64, 128), 32);
    EXPECT_EQ(pascal_flash2_num_splits(212, 264, 64, 128), 1);   // 212 >= 0.8 x 264
    // 211 k / 264 is 0.80 of k waves for k <= 4; 5 splits are 0.999 of 4 waves
    EXPECT_EQ(pascal_flash2_num_splits(211, 264, 64, 128), 5);
    EXPECT_EQ(pascal_flash2_num_splits(8, 264, 1, 128), 1);      // one block: nothing to split
    EXPECT_EQ(pascal_flash2_num_splits(8, 264, 64, 4), 4);       // capped at max_splits
}

// The split-KV kernel as its launch code has it, written out here
// independently: run_flash_splitkv_fwd launches grid(n_m, splits, B H)
// with n_m = ceil(L_q / 64) (kBlockM = 64, and kBlockN = 256, 128 or 64
// for d <= 64, <= 128, above: run_mha_fwd_splitkv_dispatch);
// compute_attn_splitkv takes m_block = x, split = y, b = z / H, h = z % H;
// compute_attn_1rowblock_splitkv reads n_block from
// min(n_kv, (y + 1) per, causal cut) - 1 down to y per, per =
// ceil(n_kv / splits).  Every CTA's streams, steps and blocks against that
// enumeration; the request count, the tiles, the partial bytes.
TEST(ModelWorkload, Flash2SplitKvGridCtaByCta)
{
    struct Case {
        int64_t b, hq, hkv, lq, lkv, d, splits;
        int causal;
    } cases[] = {
        {2, 6, 3, 1, 1000, 8, 3, 0},      // GQA decode, folded: 2 rows of 3 heads, 256-row blocks
        {1, 4, 4, 1, 900, 96, 5, 0},      // MHA decode, d 96: 128-row blocks, 8 blocks in 5 splits
        {2, 4, 2, 130, 700, 160, 2, 1},   // causal chunk, d 160: 64-row blocks, 3 query tiles
        {1, 2, 1, 70, 300, 64, 4, 1},     // causal, splits past the cut exit at once
        {3, 2, 2, 1, 40, 128, 7, 0},      // one block: 6 of 7 splits read nothing
    };
    for (const Case &c : cases) {
        auto s = attention(c.b, c.hq, c.hkv, c.lq, c.lkv, c.d, PASCAL_DTYPE_BF16, 16, 16, c.causal);
        s.kernel = PASCAL_KERNEL_FLASH2;
        s.num_splits = c.splits;
        pascal_workload w;
        ASSERT_EQ(pascal_workload_derive(&s, &w), PASCAL_WL_OK);
        bool fold = c.lq == 1 && c.hq > c.hkv && c.d % 8 == 0;
        int64_t H = fold ? c.hkv : c.hq, lq = fold ? c.hq / c.hkv : c.lq, ratio = H / c.hkv;
        int64_t bn = c.d <= 64 ? 256 : c.d <= 128 ? 128 : 64;
        int64_t nkv = (c.lkv + bn - 1) / bn, per = (nkv + c.splits - 1) / c.splits;
        int64_t gx = (lq + 63) / 64, gy = c.splits, gz = c.b * H;
        ASSERT_EQ(w.splits, c.splits);
        ASSERT_EQ(w.ctas, gx * gy * gz);
        EXPECT_EQ(w.ring, 0);
        EXPECT_EQ(w.blocks, nkv);
        EXPECT_EQ(w.block_bytes, bn * c.d * 2);
        EXPECT_EQ(w.ideal_bytes, 2 * c.b * c.hkv * nkv * bn * c.d * 2);
        int64_t dr = c.d <= 128 ? (c.d + 31) / 32 * 32 : (c.d + 63) / 64 * 64;
        EXPECT_EQ(w.partial_bytes, c.splits * c.b * H * lq * (dr + 1) * 4);
        int64_t ids[2], requests = 0, empty = 0;
        for (int64_t z = 0; z < gz; z++)
            for (int64_t y = 0; y < gy; y++)
                for (int64_t x = 0; x < gx; x++) {
                    int64_t linear = x + y * gx + z * gx * gy, bidb = z / H, bidh = z % H;
                    int64_t lo = y * per, hi = std::min(nkv, (y + 1) * per);
                    if (c.causal) {
                        int64_t keys = (x + 1) * 64 + c.lkv - lq;
                        hi = std::min(hi, keys <= 0 ? 0 : (keys + bn - 1) / bn);
                    }
                    int64_t n = std::max<int64_t>(0, hi - lo);
                    empty += n == 0;
                    pascal_workload_cta(&w, linear, ids);
                    EXPECT_EQ(ids[0], 2 * (bidb * c.hkv + bidh / ratio)) << "CTA " << linear;
                    EXPECT_EQ(ids[1], ids[0] + 1);
                    ASSERT_EQ(pascal_workload_cta_steps(&w, linear), n) << "CTA " << linear;
                    for (int64_t j = 0; j < n; j++)
                        EXPECT_EQ(pascal_workload_cta_block(&w, linear, j), hi - 1 - j)
                            << "CTA " << linear << " step " << j;
                    requests += 2 * n;
                }
        EXPECT_EQ(w.requests, requests);
        if (c.lkv == 40 || c.lq == 70)
            EXPECT_GT(empty, 0);   // the early exit is exercised
    }
}

// The split choice on a point: num_splits 0 takes the heuristic on 2 sms
// slots, 1 the standard kernel with the spec's tiles; the standard kernel
// keeps them when the heuristic says 1; refusals.
TEST(ModelWorkload, Flash2SplitChoiceAndRefusals)
{
    // Llama 3.1 70B decode, batch 1, 8k, on 132 SMs: 32 splits (above)
    auto s = attention(1, 64, 8, 1, 8192, 128, PASCAL_DTYPE_BF16, 16, 64);
    s.kernel = PASCAL_KERNEL_FLASH2;
    s.sms = 132;
    pascal_workload w;
    ASSERT_EQ(pascal_workload_derive(&s, &w), PASCAL_WL_OK);
    EXPECT_EQ(w.splits, 32);
    EXPECT_EQ(w.tile_kv, 128);
    EXPECT_EQ(w.ctas, 8 * 32);
    EXPECT_EQ(w.split_blocks, 2);
    // batch 32: 256 CTAs fill 80 % of 264 slots: the standard kernel, spec tiles
    s.batch = 32;
    ASSERT_EQ(pascal_workload_derive(&s, &w), PASCAL_WL_OK);
    EXPECT_EQ(w.splits, 1);
    EXPECT_EQ(w.tile_kv, 64);
    EXPECT_EQ(w.ring, 1);
    EXPECT_EQ(w.partial_bytes, 0);
    // num_splits 1: the standard kernel whatever the SM count
    s.batch = 1, s.num_splits = 1;
    ASSERT_EQ(pascal_workload_derive(&s, &w), PASCAL_WL_OK);
    EXPECT_EQ(w.splits, 1);
    // the heuristic needs the SM count
    s.num_splits = 0, s.sms = 0;
    EXPECT_EQ(pascal_workload_derive(&s, &w), PASCAL_WL_SMS);
    s.num_splits = 129;
    EXPECT_EQ(pascal_workload_derive(&s, &w), PASCAL_WL_SPLITS);
    // the model kernel has no split: 0 and 1 are no split, 2 is refused
    s.kernel = PASCAL_KERNEL_MODEL, s.num_splits = 0;
    ASSERT_EQ(pascal_workload_derive(&s, &w), PASCAL_WL_OK);
    EXPECT_EQ(w.splits, 1);
    s.num_splits = 2;
    EXPECT_EQ(pascal_workload_derive(&s, &w), PASCAL_WL_SPLITS);
    char why[320];
    pascal_workload_explain(&s, PASCAL_WL_SPLITS, why, sizeof why);
    EXPECT_NE(std::string(why).find("kernel model"), std::string::npos) << why;
}


// FlashAttention-3 (hopper/, section 2.8), written out from the sources:
// tile_size_fwd_sm90 picks the tiles (bf16, d 128: 128 x 128 causal, 128 x
// 176 not; d 64 causal 192 x 128; fp8 d 128: 128 x 224); should_pack_gqa
// packs the G query heads of a KV head into one tile's rows when that
// fills tiles 10 % better; StaticPersistentTileScheduler orders tiles
// (query tile, head, sequence); DynamicPersistentTileScheduler's
// get_block_coord takes sections of `swizzle` (sequence, head) pairs
// (2^floor(log2(32 MiB / K+V bytes of one head)) x G without PackGQA), the
// pairs fastest, the last section the remainder wide, query tiles last
// first; BlockMN cuts a causal tile at ceil((m_idx_max + L_kv - L_q) /
// kBlockN), m_idx_max the last packed row's query index + 1.
TEST(ModelWorkload, FlashAttention3TilesAndSchedulersByTheSource)
{
    struct Case {
        int64_t b, hq, hkv, lq, lkv, d;
        int dtype, causal;
        int64_t bm, bn;
        bool packed;
    } cases[] = {
        {1, 8, 2, 1000, 1000, 128, PASCAL_DTYPE_BF16, 1, 128, 128, false},
        {2, 4, 4, 300, 700, 128, PASCAL_DTYPE_BF16, 0, 128, 176, false},
        {1, 8, 2, 100, 900, 64, PASCAL_DTYPE_BF16, 1, 192, 128, true},    // 100 rows: 52 % of a tile; 400: 69 %
        {3, 2, 1, 260, 260, 128, PASCAL_DTYPE_FP8, 0, 128, 224, true},
        {1, 16, 2, 50000, 50000, 128, PASCAL_DTYPE_BF16, 1, 128, 128, false},  // K+V of a head 25 MB: sections of 1 x 8
        {1, 4, 4, 300, 300, 160, PASCAL_DTYPE_BF16, 1, 128, 112, false},       // d 160 -> 192: headdim_v 192 > 128
    };
    for (const Case &c : cases) {
        auto s = attention(c.b, c.hq, c.hkv, c.lq, c.lkv, c.d, c.dtype, 16, 16, c.causal);
        s.kernel = PASCAL_KERNEL_FLASH3;
        s.sms = 4;
        s.num_splits = 1;
        pascal_workload w;
        ASSERT_EQ(pascal_workload_derive(&s, &w), PASCAL_WL_OK) << c.lq;
        EXPECT_EQ(w.tile_q, c.bm);
        EXPECT_EQ(w.tile_kv, c.bn);
        EXPECT_EQ(w.packed, c.packed ? 1 : 0) << c.lq;
        EXPECT_EQ(w.grid, 4);
        EXPECT_EQ(w.persistent, c.causal ? 2 : 1);
        int64_t G = c.hq / c.hkv, H = c.packed ? c.hkv : c.hq, rows = c.packed ? c.lq * G : c.lq;
        int64_t nm = (rows + c.bm - 1) / c.bm, nkv = (c.lkv + c.bn - 1) / c.bn;
        ASSERT_EQ(w.ctas, c.b * H * nm);
        int64_t elem = c.dtype == PASCAL_DTYPE_FP8 ? 1 : 2, kvh = c.lkv * 2 * c.d * elem;
        int64_t l2 = 32 << 20, sw = 1;
        while (kvh <= l2 && sw * 2 <= l2 / kvh)
            sw *= 2;
        sw *= c.packed ? 1 : G;
        int64_t hb_total = c.b * H, quotient = hb_total / sw, rem = hb_total % sw, requests = 0;
        int64_t ids[2];
        for (int64_t tile = 0; tile < w.ctas; tile++) {
            int64_t m, h, b;
            if (!c.causal) {
                m = tile % nm, h = (tile / nm) % H, b = tile / (nm * H);
            } else {
                int64_t bidhb = tile / (sw * nm), l2_mod = tile % (sw * nm), block, resid;
                if (bidhb < quotient)
                    block = l2_mod / sw, resid = l2_mod % sw;
                else
                    block = l2_mod / rem, resid = l2_mod % rem;
                int64_t hb = bidhb * sw + resid;
                b = hb / H, h = hb % H, m = nm - 1 - block;
            }
            int64_t hi = nkv;
            if (c.causal) {
                int64_t m_max = (m + 1) * c.bm;
                if (c.packed)
                    m_max = (m_max - 1) / G + 1;
                int64_t n_idx = m_max + c.lkv - c.lq;
                hi = std::min(hi, n_idx <= 0 ? 0 : (n_idx + c.bn - 1) / c.bn);
            }
            pascal_workload_cta(&w, tile, ids);
            EXPECT_EQ(ids[0], 2 * (b * c.hkv + h / (H / c.hkv))) << "tile " << tile;
            ASSERT_EQ(pascal_workload_cta_steps(&w, tile), hi) << "tile " << tile;
            for (int64_t j = 0; j < hi; j++)
                ASSERT_EQ(pascal_workload_cta_block(&w, tile, j), hi - 1 - j);
            requests += 2 * hi;
        }
        EXPECT_EQ(w.requests, requests);
    }
    // num_splits 0 asks get_num_splits: a decode (8 tiles of work on 132 SMs) splits,
    // which is refused; a prefill does not
    auto s = attention(1, 64, 8, 1, 8192, 128, PASCAL_DTYPE_BF16, 16, 16);
    s.kernel = PASCAL_KERNEL_FLASH3;
    s.sms = 132;
    pascal_workload w;
    EXPECT_EQ(pascal_workload_derive(&s, &w), PASCAL_WL_SPLITS);
    s.seq_q = 8192, s.seq_kv = 8192;
    EXPECT_EQ(pascal_workload_derive(&s, &w), PASCAL_WL_OK);
    s.dtype = PASCAL_DTYPE_FP32;
    EXPECT_EQ(pascal_workload_derive(&s, &w), PASCAL_WL_DTYPE);
    s.dtype = PASCAL_DTYPE_BF16, s.sms = 0;
    EXPECT_EQ(pascal_workload_derive(&s, &w), PASCAL_WL_SMS);
    char why[320];
    pascal_workload_explain(&s, PASCAL_WL_SMS, why, sizeof why);
    EXPECT_NE(std::string(why).find("one persistent CTA per SM"), std::string::npos) << why;
    s.sms = 132, s.head_dim = 512;
    EXPECT_EQ(pascal_workload_derive(&s, &w), PASCAL_WL_DTYPE);
}

} // namespace

// FlashInfer's decode plan, worked by hand from
// PartitionPagedKVCacheBinarySearchMinNumPagePerBatch: the fewest pages per
// chunk, from max(128 / 16, 1) = 8 up, with batch x chunks x KV heads <=
// max_grid, and a split only when that makes more chunks than requests.
TEST(ModelWorkload, FlashInferPlanByHand)
{
    int64_t pages;
    // 8 KV heads, 512 pages (8k tokens), 264 CTAs: ceil(512 / p) x 8 <= 264 at p = 16
    EXPECT_EQ(pascal_flashinfer_chunks(1, 8, 512, 264, 16, &pages), 32);
    EXPECT_EQ(pages, 16);
    // batch 4: 4 ceil(512 / p) 8 <= 264 wants ceil(512 / p) <= 8, p = 64
    EXPECT_EQ(pascal_flashinfer_chunks(4, 8, 512, 264, 16, &pages), 8);
    EXPECT_EQ(pages, 64);
    // 64 x 8 = 512 CTAs fill 264: no split, a chunk of every page
    EXPECT_EQ(pascal_flashinfer_chunks(64, 8, 512, 264, 16, &pages), 1);
    EXPECT_EQ(pages, 512);
    // 4 pages, below the 8-page floor: one chunk, no split
    EXPECT_EQ(pascal_flashinfer_chunks(1, 8, 4, 264, 16, &pages), 1);
    // 2 requests of 100 pages, 1 KV head, 16 CTAs: the search visits 54, 31,
    // 19, 13, 10, 12 and stops at 13 (2 ceil(100 / 13) = 16), 8 chunks
    EXPECT_EQ(pascal_flashinfer_chunks(2, 1, 100, 16, 16, &pages), 8);
    EXPECT_EQ(pages, 13);
}

// Its launch, written from BatchDecodeWithPagedKVCacheDispatched: KV steps
// of tile_size_per_bdx x bdy x bdz tokens, grid (requests x chunks, KV
// heads) with the chunks fastest, each chunk read forward, and the CTA's
// shared memory; enumerated blockIdx by blockIdx.
TEST(ModelWorkload, FlashInferDecodeCtaByCta)
{
    struct Case {
        int64_t b, hq, hkv, lkv, d;
        int dtype;
        int64_t sms, occ, step, smem;
    } cases[] = {
        // G 8, d 128 bf16: vec 8, bdx 16, bdy 8, bdz 1: 8 tokens a step;
        // 2 x 2 x 8 x 128 x 2 + 128 x 8 = 9216 bytes
        {1, 64, 8, 8192, 128, PASCAL_DTYPE_BF16, 132, 2, 8, 9216},
        // G 1: bdz = 128 / 16 = 8, tile_size_per_bdx 4: 32 tokens; 4 x 32 x 128 x 2 + 4 x 128 x 8
        {2, 4, 4, 5000, 128, PASCAL_DTYPE_FP16, 4, 2, 32, 36864},
        // G 4, d 64 fp8: vec 16, bdx 4, bdz 8: 32 tokens; 4 x 32 x 64 + 1024
        {3, 8, 2, 3000, 64, PASCAL_DTYPE_FP8, 8, 1, 32, 9216},
        // G 6, d 256 bf16: bdx 32, 192 threads, bdz 1: 6 tokens; a full grid, no split
        {16, 48, 8, 700, 256, PASCAL_DTYPE_BF16, 32, 2, 6, 4 * 6 * 256 * 2 + 192 * 8},
    };
    for (const Case &c : cases) {
        auto s = attention(c.b, c.hq, c.hkv, 1, c.lkv, c.d, c.dtype, 16, 16, 0);
        s.kernel = PASCAL_KERNEL_FLASHINFER;
        s.sms = c.sms, s.occupancy = c.occ;
        pascal_workload w;
        ASSERT_EQ(pascal_workload_derive(&s, &w), PASCAL_WL_OK) << c.hq << "/" << c.hkv;
        int64_t G = c.hq / c.hkv, pages = (c.lkv + 15) / 16, chunk, elem = pascal_dtype_bits[c.dtype] / 8;
        int64_t S = pascal_flashinfer_chunks(c.b, c.hkv, pages, c.sms * c.occ, 16, &chunk);
        int64_t nkv = (c.lkv + c.step - 1) / c.step, per = S > 1 ? chunk * 16 / c.step : nkv;
        EXPECT_EQ(w.tile_kv, c.step);
        EXPECT_EQ(w.block_bytes, c.step * c.d * elem);
        EXPECT_EQ(w.smem_bytes, c.smem);
        EXPECT_EQ(w.splits, S);
        EXPECT_EQ(w.ring, S == 1);
        ASSERT_EQ(w.ctas, c.b * S * c.hkv);
        EXPECT_EQ(w.partial_bytes, S > 1 ? S * c.b * c.hq * (c.d * elem + 4) : 0);
        int64_t ids[2], requests = 0;
        for (int64_t y = 0; y < c.hkv; y++)
            for (int64_t x = 0; x < c.b * S; x++) {
                int64_t linear = x + y * c.b * S, req = x / S, tile = x % S;
                int64_t lo = tile * per, hi = std::min(nkv, lo + per);
                pascal_workload_cta(&w, linear, ids);
                EXPECT_EQ(ids[0], 2 * (req * c.hkv + y)) << "CTA " << linear;
                EXPECT_EQ(ids[1], ids[0] + 1);
                ASSERT_EQ(pascal_workload_cta_steps(&w, linear), hi - lo) << "CTA " << linear;
                for (int64_t j = 0; j < hi - lo; j++)
                    EXPECT_EQ(pascal_workload_cta_block(&w, linear, j), lo + j);
                // Q and O: the G heads of one token
                int64_t q, qid, o, oid;
                pascal_workload_cta_io(&w, linear, 32, &q, &qid, &o, &oid);
                int64_t row = (c.d * elem + 31) / 32 * 32;
                EXPECT_EQ(q, G * row);
                EXPECT_EQ(o, S > 1 ? G * row + (G * 4 + 31) / 32 * 32 : G * row);
                requests += 2 * (hi - lo);
            }
        EXPECT_EQ(w.requests, requests);
        if (c.b == 1)
            EXPECT_GT(S, 1);   // the split is exercised
    }
    // Refusals: a query chunk, a group size the dispatch lacks, a head dim,
    // a forced split, no grid to plan on, and chunks off the kernel's steps
    // (G 1: 32-token steps, 9 pages a chunk).
    auto s = attention(1, 8, 8, 1, 4000, 128, PASCAL_DTYPE_BF16, 16, 16, 0);
    s.kernel = PASCAL_KERNEL_FLASHINFER;
    s.sms = 16, s.occupancy = 1;
    pascal_workload w;
    int64_t chunk;
    ASSERT_EQ(pascal_flashinfer_chunks(1, 8, 250, 16, 16, &chunk), 2);
    EXPECT_EQ(chunk, 125);   // 125 x 16 = 2000 tokens, not a multiple of 32
    EXPECT_EQ(pascal_workload_derive(&s, &w), PASCAL_WL_SPLITS);
    s.num_splits = 1;
    EXPECT_EQ(pascal_workload_derive(&s, &w), PASCAL_WL_OK);
    EXPECT_EQ(w.splits, 1);
    auto bad = s;
    bad.seq_q = 2;
    EXPECT_EQ(pascal_workload_derive(&bad, &w), PASCAL_WL_KERNEL);
    bad = s, bad.q_heads = 40;   // G = 5
    EXPECT_EQ(pascal_workload_derive(&bad, &w), PASCAL_WL_HEADS);
    bad = s, bad.head_dim = 96;
    EXPECT_EQ(pascal_workload_derive(&bad, &w), PASCAL_WL_DTYPE);
    bad = s, bad.num_splits = 3;
    EXPECT_EQ(pascal_workload_derive(&bad, &w), PASCAL_WL_SPLITS);
    bad = s, bad.num_splits = 0, bad.occupancy = 0;
    EXPECT_EQ(pascal_workload_derive(&bad, &w), PASCAL_WL_SMS);
    char why[320];
    pascal_workload_explain(&bad, PASCAL_WL_SMS, why, sizeof why);
    EXPECT_NE(std::string(why).find("give sms and occupancy"), std::string::npos) << why;
    bad = s, bad.q_heads = 40;
    pascal_workload_explain(&bad, PASCAL_WL_HEADS, why, sizeof why);
    EXPECT_NE(std::string(why).find("group sizes 1, 2, 3, 4, 6 and 8"), std::string::npos) << why;
}

// CUTLASS 3's PersistentTileSchedulerSm90 for a 1 x 1 cluster, written
// from tile_scheduler_params.h and sm90_tile_scheduler.hpp: the swizzle
// from the smaller tile count and max_swizzle_size, both counts rounded up
// to it, the heuristic raster order on the rounded counts, min(sms, tiles)
// CTAs, and linear tile t at (m, n) by get_work_idx_m_and_n; CTA q runs t
// = q, q + grid, ... (StaticPersistentTileScheduler), padding tiles past
// the problem without steps.
TEST(ModelWorkload, Cutlass3PersistentSchedulerByTheSource)
{
    struct Case {
        int64_t m, n, swizzle, sms;
    } cases[] = {
        {3 * 128, 5 * 128, 1, 132},   // 3 x 5 tiles: more N tiles, along M, no swizzle
        {5 * 128, 3 * 128, 1, 4},     // 5 x 3: along N; 4 SMs for 15 tiles
        {7 * 128 - 5, 10 * 128, 4, 16}, // 7 x 10 tiles, swizzle 4: log 2, rounded to 8 x 12
        {9 * 128, 9 * 128, 8, 132},   // 9 x 9: log 3 (both >= 6), rounded to 16 x 16, along N
    };
    for (const Case &c : cases) {
        auto s = gemm(c.m, c.n, 512, PASCAL_DTYPE_BF16, 128, 128, 64, PASCAL_RASTER_ROW, c.swizzle);
        s.kernel = PASCAL_KERNEL_CUTLASS3;
        s.sms = c.sms;
        pascal_workload w;
        ASSERT_EQ(pascal_workload_derive(&s, &w), PASCAL_WL_OK);
        int64_t mt = (c.m + 127) / 128, nt = (c.n + 127) / 128, mn = std::min(mt, nt);
        int L = c.swizzle >= 8 && mn >= 6 ? 3 : c.swizzle >= 4 && mn >= 3 ? 2 : c.swizzle >= 2 && mn >= 2 ? 1 : 0;
        int64_t bm = (mt + (1 << L) - 1) / (1 << L) * (1 << L), bn = (nt + (1 << L) - 1) / (1 << L) * (1 << L);
        bool along_n = !(bn > bm);
        EXPECT_EQ(w.persistent, 1);
        EXPECT_EQ(w.ring, 0);
        EXPECT_EQ(w.along_n, along_n);
        ASSERT_EQ(w.ctas, bm * bn);
        EXPECT_EQ(w.grid, std::min(c.sms, bm * bn));
        EXPECT_EQ(w.requests, mt * nt * 2 * 8);   // 2 units a step (u = 128), 8 K steps
        int64_t real = 0;
        std::vector<int> seen(mt * nt, 0);
        for (int64_t t = 0; t < bm * bn; t++) {
            // get_work_idx_m_and_n: cluster_id = t; offset, extra; the
            // major divmod by the rounded count along the raster
            int64_t offset = t & ((1 << L) - 1), extra = t >> L, major = along_n ? bn : bm;
            int64_t minor = extra / major * (1 << L) + offset, maj = extra % major;
            int64_t wm = along_n ? minor : maj, wn = along_n ? maj : minor, i, j, z;
            pascal_workload_gemm_tile(&w, t, &i, &j, &z);
            EXPECT_EQ(i, wm) << "tile " << t;
            EXPECT_EQ(j, wn) << "tile " << t;
            bool inside = wm < mt && wn < nt;
            EXPECT_EQ(pascal_workload_cta_steps(&w, t), inside ? 8 : 0) << "tile " << t;
            if (inside) {
                real++;
                seen[wm * nt + wn]++;
            }
        }
        EXPECT_EQ(real, mt * nt);
        for (int v : seen)
            EXPECT_EQ(v, 1);   // every tile of the problem once
    }
    // Refusals: another raster, split-K, no SMs.
    auto s = gemm(512, 512, 512, PASCAL_DTYPE_BF16, 128, 128, 64, PASCAL_RASTER_COLUMN);
    s.kernel = PASCAL_KERNEL_CUTLASS3, s.sms = 8;
    pascal_workload w;
    EXPECT_EQ(pascal_workload_derive(&s, &w), PASCAL_WL_KERNEL);
    s.raster = PASCAL_RASTER_ROW, s.split_k = 2;
    EXPECT_EQ(pascal_workload_derive(&s, &w), PASCAL_WL_SPLIT);
    char why[320];
    pascal_workload_explain(&s, PASCAL_WL_SPLIT, why, sizeof why);
    EXPECT_NE(std::string(why).find("stream-K are other schedulers"), std::string::npos) << why;
    s.split_k = 1, s.sms = 0;
    EXPECT_EQ(pascal_workload_derive(&s, &w), PASCAL_WL_SMS);
}
