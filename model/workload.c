/* Workload derivations (workload.h, docs/workloads.md).  Equation numbers
 * W1.. refer to docs/workloads.md. */
#include "model/workload.h"

#include <math.h>
#include <stdio.h>

const char *const pascal_workload_names[PASCAL_WORKLOAD_COUNT] = {"attention", "gemm"};
const char *const pascal_raster_names[PASCAL_RASTER_COUNT] = {"row", "column", "swizzle"};
const char *const pascal_kernel_names[PASCAL_KERNEL_COUNT] = {"model", "flash-attn-2", "cutlass",
                                                               "flash-attn-3", "flashinfer", "cutlass-3",
                                                               "cutlass-streamk"};
const pascal_kernel_info pascal_kernels[PASCAL_KERNEL_COUNT] = {
    {"attention, gemm", "pascal's model kernel: query tile, then query head, then sequence; "
     "GEMM tiles in the raster order asked",
     "docs/workloads.md sections 2.1 to 2.3"},
    {"attention", "FlashAttention-2 forward: grid (query tiles, batch, heads), heads outermost; "
     "one query token of GQA folded into G query rows of each KV head; split-KV (grid (64-row "
     "tiles, splits, batch x heads), each split a range of KV blocks) when num_splits_heuristic "
     "on the SM count or num_splits asks for it",
     "Dao-AILab/flash-attention csrc/flash_attn: run_flash_fwd (src/flash_fwd_launch_template.h), "
     "compute_attn (src/flash_fwd_kernel.h), mha_fwd (flash_api.cpp); split-KV: "
     "num_splits_heuristic, set_params_splitkv (flash_api.cpp), run_mha_fwd_splitkv_dispatch, "
     "run_flash_splitkv_fwd (src/flash_fwd_launch_template.h), compute_attn_splitkv, "
     "compute_attn_1rowblock_splitkv (src/flash_fwd_kernel.h); read at tag "
     "fa4-v4.0.0.beta27 (2026-08-15); docs/workloads.md sections 2.5 and 2.6"},
    {"gemm", "CUTLASS 2.x device::Gemm and GemmIdentityThreadblockSwizzle<N>, N = the swizzle "
     "field (1, the library's default: M tiles fastest); serial split-K: slices outermost, "
     "ceil(k_t / split_k) K tiles each (the last shorter), each slice after the first reading "
     "back the partial sum in D",
     "NVIDIA/cutlass include/cutlass/gemm: GemmIdentityThreadblockSwizzle get_grid_shape, "
     "get_log_tile, get_tile_offset (threadblock/threadblock_swizzle.h), the default in "
     "device/gemm.h, the early exit of padded CTAs, gemm_k_size, problem_size_k and the "
     "semaphore of SplitKSerial (kernel/gemm.h); read at v4.7.0 (2026-08-20); "
     "docs/workloads.md section 2.5"},
    {"attention", "FlashAttention-3 forward on Hopper: one persistent CTA per SM over tiles of "
     "tile_size_fwd_sm90, PackGQA by should_pack_gqa; non-causal tiles in order (query tile, "
     "head, sequence), causal longest first in L2-sized sections of heads; fp16, bf16, fp8; "
     "no split-KV (num_splits must come out 1)",
     "Dao-AILab/flash-attention hopper: tile_size_fwd_sm90 (tile_size.h), should_pack_gqa, "
     "num_splits_heuristic (heuristics.h), get_pack_gqa, get_num_splits, round_up_headdim, mha_fwd "
     "(flash_api.cpp), run_flash_fwd (flash_fwd_launch_template.h), StaticPersistentTileScheduler, "
     "DynamicPersistentTileScheduler (tile_scheduler.hpp), BlockMN::get_n_block_min_max (block.h), "
     "the mainloop's n_block loop (mainloop_fwd_sm90_tma_gmma_ws.hpp); read at tag "
     "fa4-v4.0.0.beta27 (2026-08-15); docs/workloads.md section 2.8"},
    {"attention", "FlashInfer batch decode (BatchDecodeWithPagedKVCache, the CUDA-core kernel): "
     "grid (requests x KV chunks, KV heads), chunks fastest; one CTA per chunk of a KV head "
     "with its G query heads (G in 1, 2, 3, 4, 6, 8); KV read forward in steps of "
     "tile_size_per_bdx x bdy x bdz tokens; the partition-kv plan splits requests into chunks "
     "of pages when they do not fill sms x occupancy CTAs; pages of 16 tokens; one query token",
     "flashinfer-ai/flashinfer include/flashinfer: BatchDecodeWithPagedKVCacheDispatched, "
     "BatchDecodeWithPagedKVCacheDevice (attention/decode.cuh), "
     "BatchDecodeWithPagedKVCacheWorkEstimationDispatched, "
     "PartitionPagedKVCacheBinarySearchMinNumPagePerBatch, DecodeSplitKVIndptr, DecodePlanImpl "
     "(attention/scheduler.cuh), DISPATCH_GQA_GROUP_SIZE (utils.cuh), "
     "DISPATCH_COMPUTE_CAP_DECODE_NUM_STAGES_SMEM; read at nightly-v0.6.18-20260819 (fb28d72, "
     "2026-08-22); docs/workloads.md section 2.9"},
    {"gemm", "CUTLASS 3 GEMM on Hopper with PersistentTileSchedulerSm90, cluster 1 x 1: "
     "min(sms, tiles) persistent CTAs, CTA q taking tiles q, q + grid, ...; the raster order by "
     "its heuristic (along M when there are more N tiles, else along N), swizzled in groups of "
     "up to `swizzle` (its max_swizzle_size; default 1); one K slice",
     "NVIDIA/cutlass include/cutlass/gemm/kernel: PersistentTileSchedulerSm90::"
     "get_work_idx_m_and_n (sm90_tile_scheduler.hpp), StaticPersistentTileScheduler (its "
     "constructor, get_current_work_for_linear_idx, advance_to_next_work; "
     "static_tile_scheduler.hpp), PersistentTileSchedulerSm90Params::initialize, get_grid_shape, "
     "get_log_swizzle_size, get_rasterization_order (tile_scheduler_params.h); read at v4.7.0-6 "
     "(7107b05, 2026-08-20); docs/workloads.md section 2.10"},
    {"gemm", "CUTLASS 2.x GemmUniversalStreamk with ThreadblockSwizzleStreamK (kMixed): from the "
     "sms and occupancy given, the library's heuristic picks how many tiles (the first in tile "
     "order) are shared out as even runs of K iterations over stream-K blocks (launched first, each "
     "walking its tiles from the last down, partial sums in fp32 slots, turnstile order) and "
     "the rest run data-parallel (the first wave semi-persistent, or in 8 x 4 cohorts); "
     "split_k 1; the separate reduction wave is refused",
     "NVIDIA/cutlass include/cutlass/gemm: ThreadblockSwizzleStreamK's constructor, get_blocks, "
     "get_sk_blocks, get_num_blocks, get_block_idx, get_iter_extents, get_sk_block_idx, "
     "get_tile_offset (threadblock/threadblock_swizzle_streamk.h); GemmUniversalStreamk::gemm, "
     "init_sk_tile_work, process_tile, share_accumulators, acquire_accumulators, Params "
     "(kernel/gemm_universal_streamk.h); read at v4.7.0-6 (7107b05, 2026-08-20); "
     "docs/workloads.md section 2.11"},
};
const char *const pascal_dtype_names[PASCAL_DTYPE_COUNT] = {"fp32", "tf32", "bf16", "fp16",
                                                            "fp8",  "int8", "fp4"};
const int pascal_dtype_bits[PASCAL_DTYPE_COUNT] = {32, 32, 16, 16, 8, 8, 4};

#define LIMIT ((int64_t)1 << 53)   /* derived counts are exact in a double */

/* a * b, or -1 past 2^53 (a, b >= 0). */
static int64_t mul(int64_t a, int64_t b)
{
    int64_t p;
    if (a < 0 || b < 0 || __builtin_mul_overflow(a, b, &p) || p > LIMIT)
        return -1;
    return p;
}

static int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

/* How many of len items from start lie below total. */
static int64_t clamp_len(int64_t total, int64_t start, int64_t len)
{
    int64_t n = total - start;
    return n < 0 ? 0 : n < len ? n : len;
}

static int64_t gcd(int64_t a, int64_t b)
{
    while (b) {
        int64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* Bytes of `elems` elements, or -1 when not whole or too large. */
static int64_t bytes_of(int64_t elems, int dtype)
{
    int64_t bits = mul(elems, pascal_dtype_bits[dtype]);
    return bits < 0 || bits % 8 ? -1 : bits / 8;
}

/* Bytes that store `elems` elements (a tensor: a partial last byte counts
 * whole, as fp4 packs two elements a byte), or -1 when too large.  Only
 * informational: a block must be whole bytes (bytes_of). */
static int64_t storage_bytes(int64_t elems, int dtype)
{
    int64_t bits = mul(elems, pascal_dtype_bits[dtype]);
    return bits < 0 ? -1 : bits / 8 + (bits % 8 != 0);
}

/* KV blocks query tile t reads under the causal mask, bottom-right aligned
 * (query row i attends keys j <= i + L_kv - L_q): up to the key of its last
 * row (W11). */
static int64_t causal_blocks(const pascal_workload_shape *s, int64_t t, int64_t n_kv)
{
    int64_t last = (t + 1) * s->tile_q < s->seq_q ? (t + 1) * s->tile_q : s->seq_q;
    int64_t keys = last + s->seq_kv - s->seq_q;   /* keys 0 .. keys - 1 */
    int64_t nb = keys <= 0 ? 0 : cdiv(keys, s->tile_kv);
    return nb < n_kv ? nb : n_kv;
}

int64_t pascal_flash2_num_splits(int64_t work, int64_t slots, int64_t n_blocks, int64_t max_splits)
{
    /* float arithmetic, as the library's host code has it */
    if ((float)work >= 0.8f * (float)slots)
        return 1;
    if (max_splits > slots)
        max_splits = slots;
    if (max_splits > n_blocks)
        max_splits = n_blocks;
    float best = 0.f, eff[128];
    if (max_splits > 128)
        max_splits = 128;
    for (int64_t k = 1; k <= max_splits; k++) {
        eff[k - 1] = 0.f;
        if (k == 1 || cdiv(n_blocks, k) != cdiv(n_blocks, k - 1)) {   /* eligible */
            float waves = (float)(work * k) / (float)slots;
            eff[k - 1] = waves / ceilf(waves);
            if (eff[k - 1] > best)
                best = eff[k - 1];
        }
    }
    for (int64_t k = 1; k <= max_splits; k++)
        if ((k == 1 || cdiv(n_blocks, k) != cdiv(n_blocks, k - 1)) &&
            (double)eff[k - 1] >= 0.85 * (double)best)
            return k;
    return 1;
}

/* FlashAttention-2's split-KV choice (docs/workloads.md section 2.6):
 * mha_fwd calls set_params_splitkv with num_splits = 0, which takes the
 * heuristic on 2 SMs' worth of 128-thread CTAs; a num_splits > 1 forces
 * that many (flash_attn_with_kvcache's argument).  More than one split
 * runs run_mha_fwd_splitkv_dispatch: kBlockM = 64 and kBlockN = 256, 128
 * or 64 by head dim, whatever tiles the spec names.  Sets w->splits,
 * w->tile_q and w->tile_kv; 0, or the refusal. */
static int flash2_splits(const pascal_workload_shape *s, int64_t seq_q, pascal_workload *w)
{
    w->splits = 1;
    w->tile_q = s->tile_q;
    w->tile_kv = s->tile_kv;
    if (s->num_splits < 0 || s->num_splits > 128)
        return PASCAL_WL_SPLITS;
    if (s->kernel != PASCAL_KERNEL_FLASH2)
        return s->num_splits > 1 ? PASCAL_WL_SPLITS : PASCAL_WL_OK;
    int64_t block_n = s->head_dim <= 64 ? 256 : s->head_dim <= 128 ? 128 : 64;
    int64_t n_kv = cdiv(s->seq_kv, block_n), work = mul(mul(s->batch, w->heads), cdiv(seq_q, 64));
    int64_t splits = s->num_splits;
    if (splits == 0) {
        if (s->sms < 1)
            return PASCAL_WL_SMS;
        if (work < 0 || work > INT32_MAX)
            return PASCAL_WL_RANGE;
        splits = pascal_flash2_num_splits(work, 2 * s->sms, n_kv, 128);
    }
    if (splits > 1) {
        w->splits = splits;
        w->tile_q = 64;
        w->tile_kv = block_n;
    }
    return PASCAL_WL_OK;
}

/* KV blocks [*lo, *hi) the split kernel's CTA (query tile t, split k)
 * reads (compute_attn_1rowblock_splitkv, flash_fwd_kernel.h): its split's
 * range, under a causal mask cut at ceil(((t + 1) 64 + L_kv - L_q) /
 * kBlockN); empty when lo >= hi (the CTA exits at once). */
static void split_range(const pascal_workload *w, int64_t seq_q, int causal, int64_t t, int64_t k,
                        int64_t *lo, int64_t *hi)
{
    int64_t n_kv = w->blocks;
    *lo = k * w->split_blocks;
    *hi = (k + 1) * w->split_blocks < n_kv ? (k + 1) * w->split_blocks : n_kv;
    if (causal) {
        int64_t keys = (t + 1) * w->tile_q + w->shape.seq_kv - seq_q;
        int64_t cut = keys <= 0 ? 0 : cdiv(keys, w->tile_kv);
        if (cut < *hi)
            *hi = cut;
    }
    if (*hi < *lo)
        *hi = *lo;
}

/* ---- FlashInfer's batch decode (docs/workloads.md section 2.9) ------------------- */

int64_t pascal_flashinfer_chunks(int64_t batch, int64_t kv_heads, int64_t pages, int64_t max_grid,
                                 int64_t page_size, int64_t *chunk_pages)
{
    *chunk_pages = pages;
    if (batch < 1 || kv_heads < 1 || pages < 1 || page_size < 1 || batch * kv_heads >= max_grid)
        return 1;
    int64_t low = 128 / page_size > 1 ? 128 / page_size : 1, high = pages;
    while (low < high) {   /* batch equal requests: the sum is batch ceil(pages / mid) */
        int64_t mid = (low + high) / 2;
        if (batch * cdiv(pages, mid) * kv_heads > max_grid)
            low = mid + 1;
        else
            high = mid;
    }
    int64_t chunks = cdiv(pages, low);
    if (chunks == 1)
        return 1;   /* new_batch_size == batch_size: the kernel without partition-kv */
    *chunk_pages = low;
    return chunks;
}

/* BatchDecodeWithPagedKVCacheDispatched: vec_size = max(16 / sizeof(DTypeKV),
 * HEAD_DIM / 32), bdx = HEAD_DIM / vec_size, bdy = G, 128 threads at least,
 * bdz = threads / (bdx bdy), tile_size_per_bdx = 1 (4 for G = 1, 2 for
 * fp8); each iteration reads tile_size_per_bdx bdy bdz tokens of K and V.
 * Sets the launch in *w; 0, or the refusal. */
static int flashinfer_launch(const pascal_workload_shape *s, pascal_workload *w)
{
    int64_t G = s->q_heads / s->kv_heads, d = s->head_dim;
    int bits = pascal_dtype_bits[s->dtype];
    if (s->seq_q != 1)
        return PASCAL_WL_KERNEL;
    if (!(G == 1 || G == 2 || G == 3 || G == 4 || G == 6 || G == 8))
        return PASCAL_WL_HEADS;
    if (!(bits == 16 || s->dtype == PASCAL_DTYPE_FP8) || !(d == 64 || d == 128 || d == 256))
        return PASCAL_WL_DTYPE;
    if (s->num_splits > 1 || s->num_splits < 0)
        return PASCAL_WL_SPLITS;
    int64_t elem = bits / 8, vec = 16 / elem > d / 32 ? 16 / elem : d / 32, bdx = d / vec;
    int64_t threads = bdx * G > 128 ? bdx * G : 128, bdz = threads / (bdx * G);
    int64_t tile = G == 1 ? (elem == 1 ? 2 : 4) : 1, step = tile * G * bdz;
    w->folded = 1;
    w->heads = s->kv_heads;
    w->tile_q = G;
    w->tile_kv = step;
    w->splits = 1;
    int64_t pages = cdiv(s->seq_kv, PASCAL_FLASHINFER_PAGE), chunk = pages;
    w->split_blocks = cdiv(s->seq_kv, step);
    if (s->num_splits == 0) {
        if (s->sms < 1 || s->occupancy < 1)
            return PASCAL_WL_SMS;
        int64_t n = pascal_flashinfer_chunks(s->batch, s->kv_heads, pages, mul(s->sms, s->occupancy),
                                             PASCAL_FLASHINFER_PAGE, &chunk);
        if (n > 1) {
            /* a chunk's tokens must fall on the kernel's steps */
            if ((chunk * PASCAL_FLASHINFER_PAGE) % step)
                return PASCAL_WL_SPLITS;
            w->splits = n;
            w->split_blocks = chunk * PASCAL_FLASHINFER_PAGE / step;
        }
    }
    /* 2 stages (compute capability 8 and up) of K and V, and the page
     * offsets or the merge's floats */
    int64_t extra = tile * threads * 8 > 2 * G * bdz * 4 ? tile * threads * 8 : 2 * G * bdz * 4;
    w->smem_bytes = 2 * 2 * step * d * elem + extra;
    return PASCAL_WL_OK;
}

/* FlashAttention-3 (docs/workloads.md section 2.8). */

/* tile_size_fwd_sm90 (hopper/tile_size.h) for headdim = headdim_v = d_r,
 * no local window, paging or softcap: {kBlockM, kBlockN}. */
static void fa3_tiles(int64_t d_r, int causal, int elem, int64_t *bm, int64_t *bn)
{
    if (elem == 2) {
        if (d_r <= 64)
            *bm = 192, *bn = causal ? 128 : 192;
        else if (d_r <= 96)
            *bm = 192, *bn = 144;
        else if (d_r <= 128)
            *bm = 128, *bn = causal ? 128 : 176;
        else if (d_r <= 192)
            *bm = 128, *bn = d_r <= 128 ? 128 : 112;   /* headdim_v = d_r > 128: 112 */
        else
            *bm = 128, *bn = 80;
    } else {
        if (d_r <= 64)
            *bm = 192, *bn = 160;
        else if (d_r <= 96)
            *bm = 192, *bn = 128;
        else if (d_r <= 128)
            *bm = 128, *bn = 224;
        else if (d_r <= 192)
            *bm = 128, *bn = 160;
        else
            *bm = 128, *bn = 128;
    }
}

/* should_pack_gqa (hopper/heuristics.h), not varlen. */
static int fa3_pack(int64_t seq_q, int64_t g, int64_t bm)
{
    float no = (float)seq_q / (float)(cdiv(seq_q, bm) * bm);
    float yes = (float)(seq_q * g) / (float)(cdiv(seq_q * g, bm) * bm);
    return no < 0.9 * yes;
}

/* FlashAttention-3's num_splits_heuristic (hopper/heuristics.h). */
static int64_t fa3_splits(int64_t mblocks, int64_t sms, int64_t n_blocks, int64_t m_blocks,
                          int64_t kv_head_bytes, int causal)
{
    if ((float)mblocks >= 0.8f * (float)sms) {
        const int64_t l2 = (int64_t)50 << 20;
        if (kv_head_bytes > l2 && m_blocks >= 2 * sms && !causal)
            return cdiv(kv_head_bytes, l2) < 128 ? cdiv(kv_head_bytes, l2) : 128;
        return 1;
    }
    if (n_blocks <= 4)
        return 1;
    int64_t max = 128 < sms ? 128 : sms;
    max = max < n_blocks ? max : n_blocks;
    float best = 0.f, eff[128];
    for (int64_t k = 1; k <= max; k++) {
        float waves = (float)(mblocks * k) / (float)sms;
        eff[k - 1] = waves / ceilf(waves);
        best = eff[k - 1] > best ? eff[k - 1] : best;
    }
    for (int64_t k = 1; k <= max; k++)
        if ((double)eff[k - 1] >= 0.85 * (double)best)
            return k;
    return 1;
}

/* The launch: tiles, PackGQA, the split check, the scheduler.  Sets
 * w->tile_q, tile_kv, heads, packed, grid, persistent, l2_swizzle, splits
 * and *seq_q (the rows launched per head); 0, or the refusal. */
static int fa3_launch(const pascal_workload_shape *s, int causal, pascal_workload *w, int64_t *seq_q)
{
    int bits = pascal_dtype_bits[s->dtype];
    if (!(bits == 16 || s->dtype == PASCAL_DTYPE_FP8))
        return PASCAL_WL_DTYPE;
    if (s->head_dim > 256)
        return PASCAL_WL_DTYPE;   /* explained: head dims up to 256 */
    int elem = bits / 8;
    int64_t d_r = s->head_dim <= 64 ? 64 : s->head_dim <= 96 ? 96 : s->head_dim <= 128 ? 128
                  : s->head_dim <= 192 ? 192 : 256;
    int64_t bm, bn, g = s->q_heads / s->kv_heads;
    fa3_tiles(d_r, causal, elem, &bm, &bn);
    if (s->sms < 1)
        return PASCAL_WL_SMS;
    w->packed = g > 1 && fa3_pack(s->seq_q, g, bm);
    w->heads = w->packed ? s->kv_heads : s->q_heads;
    *seq_q = w->packed ? s->seq_q * g : s->seq_q;
    w->tile_q = bm, w->tile_kv = bn;
    /* get_num_splits: PackGQA rows over the KV heads of every sequence */
    int64_t m_blocks = cdiv(s->seq_q * g, bm), n_blocks = cdiv(s->seq_kv, bn);
    int64_t kv_head = mul(s->seq_kv, 2 * s->head_dim * elem);
    int64_t splits = s->num_splits;
    if (splits == 0)
        splits = fa3_splits(mul(mul(s->batch, s->kv_heads), m_blocks), s->sms, n_blocks, m_blocks,
                            kv_head, causal);
    if (splits != 1 || s->num_splits > 1)
        return PASCAL_WL_SPLITS;
    w->splits = 1;
    w->grid = s->sms;
    w->persistent = causal ? 2 : 1;
    /* DynamicPersistentTileScheduler: sections of (sequence, head) pairs
     * whose K and V fit 32 MiB, a power of two, times G without PackGQA */
    int64_t l2 = (int64_t)32 << 20, sw = 1;
    if (kv_head >= 0 && kv_head <= l2)
        while (sw * 2 <= l2 / kv_head)
            sw *= 2;
    w->l2_swizzle = sw * (w->packed ? 1 : g);
    w->smem_bytes = storage_bytes(mul(bm + 4 * bn, d_r), s->dtype);   /* Q, 2 stages of K and V */
    return PASCAL_WL_OK;
}

/* KV blocks FlashAttention-3's query tile t reads under the causal mask
 * (BlockMN::get_n_block_min_max, hopper/block.h): up to the key of its last
 * row, the last packed row's query index with PackGQA. */
static int64_t fa3_blocks(const pascal_workload *w, int64_t seq_q, int64_t t)
{
    int64_t m_max = (t + 1) * w->tile_q, g = w->shape.q_heads / w->shape.kv_heads;
    if (w->packed)
        m_max = (m_max - 1) / g + 1;
    int64_t keys = m_max + w->shape.seq_kv - (w->packed ? seq_q / g : seq_q);
    int64_t n = keys <= 0 ? 0 : cdiv(keys, w->tile_kv), n_kv = cdiv(w->shape.seq_kv, w->tile_kv);
    return n < n_kv ? n : n_kv;
}

/* W1-W6: attention. */
static int derive_attention(const pascal_workload_shape *s, pascal_workload *w)
{
    if (s->batch < 1 || s->q_heads < 1 || s->kv_heads < 1 || s->seq_q < 1 || s->seq_kv < 1 ||
        s->head_dim < 1 || s->tile_q < 1 || s->tile_kv < 1)
        return PASCAL_WL_RANGE;
    if (s->q_heads % s->kv_heads)
        return PASCAL_WL_HEADS;
    if (s->kernel < 0 || s->kernel >= PASCAL_KERNEL_COUNT)
        return PASCAL_WL_KIND;
    if (s->kernel == PASCAL_KERNEL_CUTLASS)
        return PASCAL_WL_KERNEL;
    /* FlashAttention-2 (flash_api.cpp, mha_fwd): one query token with more
     * query heads than KV heads is launched as G = H_q / H_kv query rows of
     * H_kv heads, so that one CTA serves the G heads of a KV head (no
     * window, dropout or ALiBi is modelled; head_dim a multiple of 8).  A
     * causal mask is no mask for one query token there (bottom-right). */
    w->folded = s->kernel == PASCAL_KERNEL_FLASH2 && s->seq_q == 1 && s->q_heads > s->kv_heads &&
                s->head_dim % 8 == 0;
    int causal = s->causal && !((s->kernel == PASCAL_KERNEL_FLASH2 || s->kernel == PASCAL_KERNEL_FLASH3 ||
                                 s->kernel == PASCAL_KERNEL_FLASHINFER) && s->seq_q == 1);
    int64_t seq_q = w->folded ? s->q_heads / s->kv_heads : s->seq_q;
    w->heads = w->folded ? s->kv_heads : s->q_heads;
    int rc = s->kernel == PASCAL_KERNEL_FLASH3      ? fa3_launch(s, causal, w, &seq_q)
             : s->kernel == PASCAL_KERNEL_FLASHINFER ? flashinfer_launch(s, w)
                                                     : flash2_splits(s, seq_q, w);
    if (s->kernel == PASCAL_KERNEL_FLASHINFER)
        seq_q = s->q_heads / s->kv_heads;   /* the G heads as one CTA's rows */
    if (rc != PASCAL_WL_OK)
        return rc;
    int64_t n_kv = cdiv(s->seq_kv, w->tile_kv), n_q = cdiv(seq_q, w->tile_q);
    int64_t tile = mul(w->tile_kv, s->head_dim);
    w->block_bytes = tile < 0 ? -1 : bytes_of(tile, s->dtype);
    if (w->block_bytes < 0)
        return tile < 0 ? PASCAL_WL_RANGE : PASCAL_WL_BYTES;
    w->group = w->heads / s->kv_heads;
    w->tiles_q = n_q;
    w->tiles_n = 1;
    w->ua = w->ub = 1;
    w->units = 2;                                           /* W3: K, then V */
    w->streams = mul(2, mul(s->batch, s->kv_heads));        /* W1 */
    w->blocks = n_kv;                                       /* W2 */
    if (s->kernel != PASCAL_KERNEL_FLASHINFER)
        w->split_blocks = cdiv(n_kv, w->splits);
    w->ctas = mul(mul(mul(s->batch, w->heads), n_q), w->splits);  /* W4 */
    w->sharers_a = w->sharers_b = mul(w->group, n_q);       /* W5, readers of each block */
    w->ring = !causal && w->splits == 1 && !w->persistent;
    int64_t per_head = 0;                                   /* blocks over one head's CTAs */
    if (w->persistent && causal) {
        for (int64_t t = 0; t < n_q; t++)
            per_head += fa3_blocks(w, seq_q, t);
    } else if (w->splits > 1) {
        for (int64_t t = 0; t < n_q; t++)
            for (int64_t k = 0; k < w->splits; k++) {
                int64_t lo, hi;
                split_range(w, seq_q, causal, t, k, &lo, &hi);
                per_head += hi - lo;
            }
    } else if (causal) {
        for (int64_t t = 0; t < n_q; t++)
            per_head += causal_blocks(s, t, n_kv);
    } else {
        per_head = mul(n_q, n_kv);
    }
    w->requests = mul(2, mul(mul(s->batch, w->heads), per_head));  /* W6 */
    w->ideal_bytes = mul(mul(w->streams, n_kv), w->block_bytes);     /* W7 */
    w->tensor_bytes = storage_bytes(mul(mul(w->streams, s->seq_kv), s->head_dim), s->dtype);
    /* out_accum (splits, B, H, L_q, d_rounded) and softmax_lse_accum
     * (splits, B, H, L_q), fp32 (set_params_splitkv); d_rounded rounds d
     * up to 32 (d <= 128) or 64 (mha_fwd). */
    int64_t d_r = s->head_dim <= 128 ? cdiv(s->head_dim, 32) * 32 : cdiv(s->head_dim, 64) * 64;
    /* Flash_fwd_kernel_traits::kSmemSize without Share_Q_K_smem: a Q tile
     * and one K and one V tile of kHeadDim columns (d rounded up to 32,
     * 64, 96, 128, 192 or 256 by HEADDIM_SWITCH, static_switch.h). */
    if (s->kernel == PASCAL_KERNEL_FLASH2) {
        int64_t kd = s->head_dim <= 32 ? 32 : s->head_dim <= 64 ? 64 : s->head_dim <= 96 ? 96
                     : s->head_dim <= 128 ? 128 : s->head_dim <= 192 ? 192 : cdiv(s->head_dim, 64) * 64;
        int64_t tiles = mul(w->tile_q + 2 * w->tile_kv, kd);
        w->smem_bytes = tiles < 0 ? -1 : storage_bytes(tiles, s->dtype);
        if (w->smem_bytes < 0)
            return PASCAL_WL_RANGE;
    }
    w->partial_bytes = w->splits == 1 ? 0
                       : s->kernel == PASCAL_KERNEL_FLASHINFER
                           /* tmp_v (chunks, H_q, d) at the output's dtype, tmp_s (chunks, H_q) fp32 */
                           ? mul(mul(mul(w->splits, s->batch), s->q_heads),
                                 bytes_of(s->head_dim, s->dtype) + 4)
                           : mul(mul(mul(mul(w->splits, s->batch), w->heads), seq_q), mul(d_r + 1, 4));
    return w->streams < 0 || w->ctas < 0 || w->sharers_a < 0 || w->requests < 0 ||
                   w->ideal_bytes < 0 || w->tensor_bytes < 0 || per_head < 0 ||
                   w->partial_bytes < 0
               ? PASCAL_WL_RANGE : PASCAL_WL_OK;
}

/* ---- stream-K work items (docs/workloads.md section 2.11) -------------------------- */

/* get_block_idx: launch x's block index (the first two waves remapped SM
 * by SM, stream-K regions interleaved). */
static int64_t sk_block_of(const pascal_streamk *k, int64_t x)
{
    int64_t b = x;
    if (k->remap && b < 2 * k->sms)
        b = b / 2 + b % 2 * k->sms;
    if (b < k->sk_blocks)
        b = b % k->regions * k->bpr + b / k->regions;
    return b;
}

/* Its inverse: the launch of block b. */
static int64_t sk_launch_of(const pascal_streamk *k, int64_t b)
{
    if (b < k->sk_blocks)
        b = b % k->bpr * k->regions + b / k->bpr;
    if (k->remap && b < 2 * k->sms)
        b = 2 * (b % k->sms) + b / k->sms;
    return b;
}

/* get_iter_extents: stream-K block b's global MAC iterations [*lo, *hi). */
static void sk_extents(const pascal_streamk *k, int64_t b, int64_t *lo, int64_t *hi)
{
    int64_t region = b / k->bpr, in = b % k->bpr;
    *lo = region * k->ipr + in * k->normal + (in < k->bigpr ? in : k->bigpr);
    *hi = *lo + k->normal + (in < k->bigpr);
}

/* get_sk_block_idx: the stream-K block that runs global iteration `iter`. */
static int64_t sk_owner(const pascal_streamk *k, int64_t iter)
{
    int64_t region = iter / k->ipr, in = iter % k->ipr, big = in / (k->normal + 1);
    int64_t b = big < k->bigpr ? big : k->bigpr + (in - k->bigpr * (k->normal + 1)) / k->normal;
    return k->bpr * region + b;
}

/* get_tile_offset: tile t's (i, j): along the longer side, or in cohorts of
 * 8 x 4 tiles. */
static void sk_tile_ij(const pascal_workload *w, int64_t t, int64_t *i, int64_t *j)
{
    int64_t m_t = w->tiles_q, n_t = w->tiles_n;
    *i = t / n_t, *j = t % n_t;
    if (m_t < n_t)
        *j = t / m_t, *i = t % m_t;
    if (w->sk.cohort) {
        int64_t cti = t / 32, in = t % 32;
        *i = cti / w->sk.cohort_n * 8 + in / 4;
        *j = cti % w->sk.cohort_n * 4 + in % 4;
    }
}

typedef struct sk_work {
    int64_t tile, k0, k1;   /* the tile and its K tiles [k0, k1) */
    int64_t block;          /* the stream-K block, -1: a data-parallel one */
} sk_work;

/* Item c: launch c / items, its (c % items)-th tile, as gemm() walks them:
 * a data-parallel block its tiles at a stride of avail_sms, a stream-K
 * block its tiles from the last down, each over its part of the
 * iterations.  0 when there is no such item. */
static int sk_item(const pascal_workload *w, int64_t c, sk_work *it)
{
    const pascal_streamk *k = &w->sk;
    int64_t x = c / k->items, n = c % k->items, b = sk_block_of(k, x), ipt = k->ipt;
    int64_t dp_start = k->sk_waves * k->sms;
    if (b >= dp_start && b < dp_start + k->dp_blocks) {
        int64_t d = b - dp_start, t0 = (k->cohort ? 0 : k->sk_tiles) + d, allot = k->dp_first, i, j;
        if (d >= k->sms)
            allot = 1, t0 += (k->dp_first - 1) * k->sms;
        sk_tile_ij(w, t0, &i, &j);
        if (n >= allot || t0 < k->sk_tiles || i >= w->tiles_q || j >= w->tiles_n)
            return 0;   /* past its allotment, or it exits at once */
        *it = (sk_work){t0 + n * k->sms, 0, ipt, -1};
        return 1;
    }
    if (b >= k->sk_blocks)
        return 0;       /* padding */
    int64_t lo, hi;
    sk_extents(k, b, &lo, &hi);
    int64_t last = (hi - 1) / ipt, t = last - n;
    if (t < lo / ipt)
        return 0;
    *it = (sk_work){t, (lo > t * ipt ? lo : t * ipt) - t * ipt,
                    (hi < (t + 1) * ipt ? hi : (t + 1) * ipt) - t * ipt, b};
    return 1;
}

/* The round in which stream-K block b, whose first iteration is inside a
 * tile another block started, shares or takes that tile's partial sum: its
 * last step's, or the round after (same round, later slot) its
 * predecessor's, whichever is later.  Every stream-K block starts in round
 * 0 (they are the first launches, all resident), and only such a block's
 * last tile waits: a chain of blocks inside one tile waits in turn. */
static int64_t sk_arrival(const pascal_streamk *k, int64_t b)
{
    int64_t ipt = k->ipt, lo, hi, p = b, plo, phi, A;
    sk_extents(k, b, &lo, &hi);
    int64_t T = lo / ipt;
    for (;;) {   /* back to the block whose round on tile T waits for nobody */
        sk_extents(k, p - 1, &plo, &phi);
        if (plo > T * ipt)
            p--;
        else
            break;
    }
    sk_extents(k, p - 1, &plo, &phi);
    /* block p - 1 started tile T: its first tile (from the last down) when
     * it spans more than T, else its only one */
    A = plo < T * ipt ? phi - T * ipt - 1 : phi - plo - 1;
    for (int64_t q = p; q <= b; q++) {
        int64_t qlo, qhi;
        sk_extents(k, q, &qlo, &qhi);
        int64_t later = sk_launch_of(k, q) < sk_launch_of(k, q - 1);
        A = qhi - qlo - 1 > A + later ? qhi - qlo - 1 : A + later;
    }
    return A;
}

/* ---- CUTLASS 2.x stream-K (docs/workloads.md section 2.11) ------------------------
 *
 * ThreadblockSwizzleStreamK (threadblock/threadblock_swizzle_streamk.h) with
 * its kMixed reduction strategy, as GemmUniversalStreamk (kernel/
 * gemm_universal_streamk.h) runs it.  The heuristics use the library's int
 * and float arithmetic, in its order. */

/* get_sk_blocks: the stream-K block count for sk_tiles tiles that saves the
 * most iterations against data-parallel waves (the last trial of a tie). */
static void sk_get_sk_blocks(int64_t *sk_blocks, int64_t *savings, int64_t sk_tiles, int64_t ipt,
                             int64_t sms, int64_t max_occ, int partial)
{
    *savings = INT64_MIN;
    *sk_blocks = 0;
    if (sk_tiles == 0)
        return;
    int64_t sk_iters = sk_tiles * ipt, dp_equiv = ipt * cdiv(sk_tiles, sms);
    int64_t lo = partial ? (sms < sk_tiles + 1 ? sms : sk_tiles + 1) : sms;
    int64_t hi = sms * max_occ < sk_iters / 2 ? sms * max_occ : sk_iters / 2;   /* kMinItersPerSkBlock */
    for (int64_t trial = lo; trial <= hi; trial++) {
        int64_t waves = cdiv(trial, sms), equiv = cdiv(sk_iters, trial) * waves;
        int64_t peers = cdiv(trial, sk_tiles) + 1;   /* one more for alignment skew */
        float iter_cost = 0.02f * (float)peers * (float)equiv;
        if (trial % sk_tiles == 0) {
            peers = trial / sk_tiles;
            iter_cost = 0.0f;
        }
        float peer_cost = 2.0f * (float)peers, base_cost = 2.0f * (float)waves;
        int64_t fixup = (int64_t)(base_cost + iter_cost + peer_cost);
        int64_t s = dp_equiv - equiv - fixup;
        if (s >= *savings)
            *savings = s, *sk_blocks = trial;
    }
}

/* get_blocks: how many tiles stay data-parallel and how many stream-K
 * blocks make the rest. */
static void sk_get_blocks(int64_t *dp_tiles, int64_t *sk_blocks, int64_t tiles, int64_t ipt,
                          int64_t sms, int64_t occ)
{
    int64_t full_waves = tiles / sms, full_tiles = full_waves * sms, partial = tiles - full_tiles;
    int64_t score = -1;
    *dp_tiles = tiles;
    *sk_blocks = 0;
    if (partial == 0)
        return;   /* perfect quantization */
    if (full_waves < occ) {   /* the partial wave's tiles fill the GPU's occupancy */
        *dp_tiles = full_tiles;
        sk_get_sk_blocks(sk_blocks, &score, partial, ipt, sms, occ - full_waves, 1);
        if (score < 0)
            *sk_blocks = 0, *dp_tiles = tiles;
        return;
    }
    if (occ > 1 && full_waves % occ == occ - 1) {
        *dp_tiles = full_tiles;
        sk_get_sk_blocks(sk_blocks, &score, partial, ipt, sms, 1, 1);
        if (score >= 0)
            return;
    }
    /* the last full wave and the partial one */
    *dp_tiles = full_tiles - sms;
    sk_get_sk_blocks(sk_blocks, &score, partial + sms, ipt, sms, occ - (full_waves - 1) % occ, 0);
    if (score < 0)
        *sk_blocks = 0, *dp_tiles = tiles;
}

/* The constructor ThreadblockSwizzleStreamK(kGemm, ...) and the kernel's
 * block classes: w->sk, the launches and the work items. */
static int derive_streamk(const pascal_workload_shape *s, pascal_workload *w)
{
    pascal_streamk *k = &w->sk;
    int64_t m_t = w->tiles_q, n_t = w->tiles_n, tiles = m_t * n_t;
    if (s->sms < 1 || s->occupancy < 1)
        return PASCAL_WL_SMS;
    if (s->split_k != 1)
        return PASCAL_WL_SPLIT;
    /* the library's ints */
    if (tiles > INT32_MAX || mul(tiles, w->blocks) < 0 || mul(tiles, w->blocks) > INT32_MAX ||
        s->sms > 65536 || s->occupancy > 64)
        return PASCAL_WL_RANGE;
    *k = (pascal_streamk){0};
    k->sms = s->sms;
    k->occupancy = s->occupancy;
    k->ipt = w->blocks;
    k->dp_first = 1;
    k->regions = 1;
    int64_t dp_tiles = tiles, sk_blocks = 0, sms = k->sms, occ = k->occupancy, ipt = k->ipt;
    if (sms > 1)
        sk_get_blocks(&dp_tiles, &sk_blocks, tiles, ipt, sms, occ);
    k->sk_tiles = tiles - dp_tiles;
    if (sk_blocks > 0) {
        k->sk_waves = cdiv(sk_blocks, sms);
        int64_t sk_iters = k->sk_tiles * ipt;
        sk_blocks = sk_blocks < sk_iters ? sk_blocks : sk_iters;
        k->normal = sk_iters / sk_blocks;
        int64_t big = sk_iters - k->normal * sk_blocks;
        if (sk_blocks > k->sk_tiles && sk_blocks % k->sk_tiles == 0)
            k->regions = k->sk_tiles;   /* split-K decomposition */
        k->bpr = sk_blocks / k->regions;
        k->bigpr = big / k->regions;
        k->ipr = sk_iters / k->regions;
        k->sk_blocks = k->regions * k->bpr;
        /* kMixed: a separate wave of reduction blocks, one per accumulator
         * fragment of each stream-K tile */
        if (k->sk_waves < occ && sk_blocks > 2 * k->sk_tiles)
            return PASCAL_WL_REDUCE;
        /* get_num_active_blocks() here counts dp_blocks before it is set: 0 */
        k->remap = occ > 1 && k->sk_waves * sms > 2 * sms;
    }
    k->dp_blocks = dp_tiles;
    int64_t cm = cdiv(m_t, 8), cn = cdiv(n_t, 4), cohort_blocks = cm * cn * 32;   /* kCohortCtasM, N */
    float cohort_eff = (float)k->dp_blocks / (float)cohort_blocks;
    int sk_in_range = 1;
    if (k->sk_tiles > 0) {
        int64_t cti = (k->sk_tiles - 1) / 32, cgm = cti / cn, cgn = cgm > 0 ? cn - 1 : cti % cn;
        if ((cgm + 1) * 8 >= m_t || (cgn + 1) * 4 >= n_t)
            sk_in_range = 0;
    }
    k->cohort_n = cn;
    if (sk_in_range && k->dp_blocks >= sms * occ * 2 && cohort_eff > 0.85f) {
        k->cohort = 1;
        k->dp_blocks = cohort_blocks;
    } else if (k->sk_waves > 0) {
        /* the first data-parallel wave semi-persistent, so the waves fill wave sets */
        int64_t dp_waves = cdiv(dp_tiles, sms), full = dp_tiles / sms;
        int64_t excess = (k->sk_waves + dp_waves) % occ;
        if (k->dp_first + excess <= full)
            k->dp_first += excess, k->dp_blocks -= excess * sms;
    }
    int64_t active = k->sk_waves * sms + k->dp_blocks;
    k->launches = k->remap && active < 4 * sms ? 4 * sms : active;
    /* a stream-K block spans at most ceil((normal + 1) / ipt) + 1 tiles */
    int64_t most = k->sk_blocks > 0 ? cdiv(k->normal + 1, ipt) + 1 : 1;
    k->items = most > k->dp_first ? most : k->dp_first;
    w->ctas = mul(k->launches, k->items);
    w->grid = sms * occ;
    w->persistent = 3;
    w->ring = 0;
    return PASCAL_WL_OK;
}

/* W8-W10: GEMM with unit streams. */
static int derive_gemm(const pascal_workload_shape *s, pascal_workload *w)
{
    if (s->m < 1 || s->n < 1 || s->k < 1 || s->tile_m < 1 || s->tile_n < 1 || s->tile_k < 1 ||
        s->split_k < 1 || s->swizzle < 1 || s->raster < 0 || s->raster >= PASCAL_RASTER_COUNT)
        return PASCAL_WL_RANGE;
    int64_t m_t = cdiv(s->m, s->tile_m), n_t = cdiv(s->n, s->tile_n), k_t = cdiv(s->k, s->tile_k);
    if (s->kernel < 0 || s->kernel >= PASCAL_KERNEL_COUNT)
        return PASCAL_WL_KIND;
    /* CUTLASS 2.x cuts K into slices of gemm_k_size = ceil(k_t / split_k)
     * tiles (kernel::Gemm::Params), the last ones shorter or empty; the
     * model kernel's slices are equal ring scans */
    if (k_t % s->split_k && s->kernel != PASCAL_KERNEL_CUTLASS && s->kernel != PASCAL_KERNEL_CUTLASS_SK)
        return PASCAL_WL_SPLIT;
    if (s->kernel == PASCAL_KERNEL_FLASH2 || s->kernel == PASCAL_KERNEL_FLASH3 ||
        s->kernel == PASCAL_KERNEL_FLASHINFER ||
        ((s->kernel == PASCAL_KERNEL_CUTLASS || s->kernel == PASCAL_KERNEL_CUTLASS3 ||
          s->kernel == PASCAL_KERNEL_CUTLASS_SK) && s->raster != PASCAL_RASTER_ROW))
        return PASCAL_WL_KERNEL;
    if (s->kernel == PASCAL_KERNEL_CUTLASS3 && s->split_k != 1)
        return PASCAL_WL_SPLIT;
    if (s->kernel == PASCAL_KERNEL_CUTLASS3 && s->sms < 1)
        return PASCAL_WL_SMS;
    /* GemmIdentityThreadblockSwizzle<N>::get_log_tile: the widest of 8, 4,
     * 2 allowed by N with enough N tiles ("so that it doesn't cause too
     * many no-op CTAs") */
    w->log_tile = 0;
    if (s->kernel == PASCAL_KERNEL_CUTLASS) {
        if (s->swizzle >= 8 && n_t >= 6)
            w->log_tile = 3;
        else if (s->swizzle >= 4 && n_t >= 3)
            w->log_tile = 2;
        else if (s->swizzle >= 2 && n_t >= 2)
            w->log_tile = 1;
    }
    int64_t u = gcd(s->tile_m, s->tile_n);
    int64_t unit = mul(u, s->tile_k);
    w->block_bytes = unit < 0 ? -1 : bytes_of(unit, s->dtype);
    if (w->block_bytes < 0)
        return unit < 0 ? PASCAL_WL_RANGE : PASCAL_WL_BYTES;
    w->tiles_q = m_t;
    w->tiles_n = n_t;
    w->group = 1;
    w->heads = 1;
    w->splits = 1;
    w->ua = s->tile_m / u;
    w->ub = s->tile_n / u;
    w->units = w->ua + w->ub;                               /* W9 */
    if (w->units > 64)
        return PASCAL_WL_UNITS;
    w->blocks = cdiv(k_t, s->split_k);                      /* W8 */
    w->streams = mul(s->split_k, mul(m_t, w->ua) + mul(n_t, w->ub));
    w->ctas = mul(mul(m_t, n_t), s->split_k);
    w->sharers_a = n_t;                                     /* W10 */
    w->sharers_b = m_t;
    w->ring = k_t % s->split_k == 0;
    if (s->kernel == PASCAL_KERNEL_CUTLASS3) {
        /* PersistentTileSchedulerSm90Params: get_log_swizzle_size on the
         * tile counts, each rounded up to the swizzle, the heuristic raster
         * order on the rounded counts, and get_grid_shape's min(sms, tiles)
         * for a 1 x 1 cluster */
        int64_t mn = m_t < n_t ? m_t : n_t;
        int L = s->swizzle >= 8 && mn >= 6 ? 3 : s->swizzle >= 4 && mn >= 3 ? 2
                : s->swizzle >= 2 && mn >= 2 ? 1 : 0;
        w->log_tile = L;
        w->blocks_m = cdiv(m_t, (int64_t)1 << L) << L;
        w->blocks_n = cdiv(n_t, (int64_t)1 << L) << L;
        w->along_n = !(w->blocks_n > w->blocks_m);
        w->ctas = mul(w->blocks_m, w->blocks_n);   /* tiles, padding ones too */
        w->grid = w->ctas < s->sms ? w->ctas : s->sms;
        w->persistent = 1;
        w->ring = 0;
    }
    if (s->kernel == PASCAL_KERNEL_CUTLASS_SK) {
        int rc = derive_streamk(s, w);
        if (rc != PASCAL_WL_OK)
            return rc;
    }
    /* every K tile of every output tile once; padding tiles and empty
     * slices: none */
    w->requests = mul(mul(mul(m_t, n_t), w->units), k_t);
    w->ideal_bytes = mul(mul(mul(m_t, w->ua) + mul(n_t, w->ub), k_t), w->block_bytes);
    int64_t a_bytes = storage_bytes(mul(s->m, s->k), s->dtype);   /* A and B, each packed */
    int64_t b_bytes = storage_bytes(mul(s->k, s->n), s->dtype);
    w->tensor_bytes = a_bytes < 0 || b_bytes < 0 || a_bytes > LIMIT - b_bytes ? -1 : a_bytes + b_bytes;
    return w->streams < 0 || w->ctas < 0 || w->requests < 0 || w->ideal_bytes < 0 ||
                   w->tensor_bytes < 0 || mul(m_t, w->ua) < 0 || mul(n_t, w->ub) < 0
               ? PASCAL_WL_RANGE : PASCAL_WL_OK;
}

int pascal_workload_derive(const pascal_workload_shape *in, pascal_workload *out)
{
    *out = (pascal_workload){0};
    out->shape = *in;
    if (in->dtype < 0 || in->dtype >= PASCAL_DTYPE_COUNT)
        return PASCAL_WL_KIND;
    if (in->kind == PASCAL_WORKLOAD_ATTENTION)
        return derive_attention(in, out);
    if (in->kind == PASCAL_WORKLOAD_GEMM)
        return derive_gemm(in, out);
    return PASCAL_WL_KIND;
}

void pascal_workload_explain(const pascal_workload_shape *s, int error, char *buf, int len)
{
    int64_t tiles = s->tile_k > 0 ? cdiv(s->k, s->tile_k) : 0;
    int64_t u = s->tile_m > 0 && s->tile_n > 0 ? gcd(s->tile_m, s->tile_n) : 1;
    const char *dt = s->dtype >= 0 && s->dtype < PASCAL_DTYPE_COUNT ? pascal_dtype_names[s->dtype] : "?";
    switch (error) {
    case PASCAL_WL_HEADS:
        if (s->kernel == PASCAL_KERNEL_FLASHINFER && s->kv_heads > 0 && s->q_heads % s->kv_heads == 0) {
            snprintf(buf, (size_t)len, "q_heads / kv_heads = %lld with kernel flashinfer, whose decode "
                     "kernel takes group sizes 1, 2, 3, 4, 6 and 8 (DISPATCH_GQA_GROUP_SIZE, utils.cuh)",
                     (long long)(s->q_heads / s->kv_heads));
            break;
        }
        snprintf(buf, (size_t)len, "q_heads = %lld, not a multiple of kv_heads = %lld "
                 "(grouped-query attention shares each KV head among q_heads / kv_heads "
                 "query heads)", (long long)s->q_heads, (long long)s->kv_heads);
        break;
    case PASCAL_WL_BYTES:
        snprintf(buf, (size_t)len, "a block of %s elements that is not a whole number of bytes", dt);
        break;
    case PASCAL_WL_SPLIT:
        if (s->kernel == PASCAL_KERNEL_CUTLASS_SK) {
            snprintf(buf, (size_t)len, "split_k = %lld with kernel cutlass-streamk, which decides "
                     "its own split of K (its split-K emulation, batch_split > 1, is not modelled: "
                     "kernel cutlass runs serial split-K)", (long long)s->split_k);
            break;
        }
        if (s->kernel == PASCAL_KERNEL_CUTLASS3) {
            snprintf(buf, (size_t)len, "split_k = %lld with kernel cutlass-3, whose data-parallel "
                     "persistent scheduler takes one K slice (split-K and stream-K are other "
                     "schedulers, not modelled)", (long long)s->split_k);
            break;
        }
        snprintf(buf, (size_t)len, "split_k = %lld, which does not divide the %lld K tiles "
                 "ceil(gemm_k / tile_k) = ceil(%lld / %lld) (the model kernel's slices are equal "
                 "ring scans; kernel cutlass runs unequal ones)",
                 (long long)s->split_k, (long long)tiles, (long long)s->k, (long long)s->tile_k);
        break;
    case PASCAL_WL_REDUCE:
        snprintf(buf, (size_t)len, "a stream-K split that ThreadblockSwizzleStreamK reduces in a "
                 "separate wave of reduction blocks (fewer stream-K waves than the occupancy and "
                 "more than two stream-K blocks per stream-K tile): not modelled; occupancy 1, or "
                 "kernel cutlass with split_k, is");
        break;
    case PASCAL_WL_UNITS:
        snprintf(buf, (size_t)len, "(tile_m + tile_n) / gcd(tile_m, tile_n) = (%lld + %lld) / %lld "
                 "requests per CTA per round, more than 64", (long long)s->tile_m,
                 (long long)s->tile_n, (long long)u);
        break;
    case PASCAL_WL_RANGE:
        snprintf(buf, (size_t)len, "a field below 1 or a derived count past 2^53");
        break;
    case PASCAL_WL_SMS:
        if (s->kernel == PASCAL_KERNEL_CUTLASS_SK)
            snprintf(buf, (size_t)len, "kernel cutlass-streamk without sms and occupancy (its "
                     "heuristic, ThreadblockSwizzleStreamK::get_blocks, shares tiles out by the SM "
                     "count and the CTAs per SM): give sms and occupancy, or a device and occupancy");
        else if (s->kernel == PASCAL_KERNEL_CUTLASS3)
            snprintf(buf, (size_t)len, "kernel cutlass-3 and no sms (its persistent grid is min(sms, "
                     "tiles), PersistentTileSchedulerSm90Params::get_grid_shape): give sms or a device");
        else if (s->kernel == PASCAL_KERNEL_FLASHINFER)
            snprintf(buf, (size_t)len, "kernel flashinfer with num_splits 0 and no sms or occupancy "
                     "(its plan splits the KV when the requests do not fill sms x occupancy CTAs, "
                     "BatchDecodeWithPagedKVCacheWorkEstimationDispatched in scheduler.cuh): give "
                     "sms and occupancy, a device, or num_splits 1");
        else if (s->kernel == PASCAL_KERNEL_FLASH3)
            snprintf(buf, (size_t)len, "kernel flash-attn-3 and no sms (it launches one persistent "
                     "CTA per SM, get_grid_shape in tile_scheduler.hpp): give sms or a device");
        else
            snprintf(buf, (size_t)len, "kernel flash-attn-2 with num_splits 0 and no sms (mha_fwd "
                     "picks its KV splits from the SM count, num_splits_heuristic in flash_api.cpp): "
                     "give sms, a device, or num_splits");
        break;
    case PASCAL_WL_DTYPE:
        if (s->kernel == PASCAL_KERNEL_FLASHINFER) {
            snprintf(buf, (size_t)len, "dtype %s and head_dim %lld with kernel flashinfer, which takes "
                     "fp16, bf16 and fp8 and head dims 64, 128 and 256", dt, (long long)s->head_dim);
            break;
        }
        snprintf(buf, (size_t)len, "dtype %s and head_dim %lld with kernel %s, which takes fp16, "
                 "bf16 and fp8 (e4m3) and head dims up to 256", dt, (long long)s->head_dim,
                 s->kernel >= 0 && s->kernel < PASCAL_KERNEL_COUNT ? pascal_kernel_names[s->kernel] : "?");
        break;
    case PASCAL_WL_SPLITS:
        if (s->kernel == PASCAL_KERNEL_FLASHINFER && (s->num_splits == 0))
            snprintf(buf, (size_t)len, "a partition-kv plan whose chunks (whole pages of %d tokens) "
                     "do not fall on the flashinfer kernel's KV steps (%lld query heads per KV head): "
                     "not modelled; num_splits: 1 takes the kernel without partition-kv",
                     PASCAL_FLASHINFER_PAGE, (long long)(s->kv_heads > 0 ? s->q_heads / s->kv_heads : 0));
        else if (s->kernel == PASCAL_KERNEL_FLASHINFER)
            snprintf(buf, (size_t)len, "num_splits = %lld with kernel flashinfer, whose plan chooses "
                     "its chunks (0) or takes none (1)", (long long)s->num_splits);
        else if (s->kernel == PASCAL_KERNEL_FLASH3)
            snprintf(buf, (size_t)len, "a split-KV launch of kernel flash-attn-3 (num_splits = %lld; "
                     "0 asks get_num_splits, which splits when the tiles do not fill the SMs): its "
                     "split kernel is not modelled; num_splits: 1 takes the persistent kernel",
                     (long long)s->num_splits);
        else if (s->num_splits > 128 || s->num_splits < 0)
            snprintf(buf, (size_t)len, "num_splits = %lld, outside 0 .. 128 (set_params_splitkv "
                     "refuses more than 128)", (long long)s->num_splits);
        else
            snprintf(buf, (size_t)len, "num_splits = %lld with kernel %s, whose launch has no KV "
                     "split (kernel flash-attn-2 has)", (long long)s->num_splits,
                     s->kernel >= 0 && s->kernel < PASCAL_KERNEL_COUNT ? pascal_kernel_names[s->kernel] : "?");
        break;
    case PASCAL_WL_KERNEL:
        if (s->kind == PASCAL_WORKLOAD_ATTENTION && s->kernel == PASCAL_KERNEL_FLASHINFER)
            snprintf(buf, (size_t)len, "seq_q = %lld with kernel flashinfer, a decode kernel (one query "
                     "token per request)", (long long)s->seq_q);
        else if (s->kind == PASCAL_WORKLOAD_GEMM &&
                 (s->kernel == PASCAL_KERNEL_CUTLASS || s->kernel == PASCAL_KERNEL_CUTLASS3 ||
                  s->kernel == PASCAL_KERNEL_CUTLASS_SK))
            snprintf(buf, (size_t)len, "raster %s with kernel %s, whose swizzle sets the "
                     "order (raster row, the default, stands for it)",
                     s->raster >= 0 && s->raster < PASCAL_RASTER_COUNT ? pascal_raster_names[s->raster] : "?",
                     pascal_kernel_names[s->kernel]);
        else
            snprintf(buf, (size_t)len, "kernel %s, %s kernel, for %s",
                     s->kernel >= 0 && s->kernel < PASCAL_KERNEL_COUNT ? pascal_kernel_names[s->kernel] : "?",
                     s->kind == PASCAL_WORKLOAD_GEMM ? "an attention" : "a gemm",
                     s->kind == PASCAL_WORKLOAD_GEMM ? "a gemm" : "attention");
        break;
    default:
        snprintf(buf, (size_t)len, "an unknown workload kind, dtype or raster order");
        break;
    }
}

void pascal_workload_gemm_tile(const pascal_workload *w, int64_t c, int64_t *i, int64_t *j,
                               int64_t *z)
{
    int64_t m_t = w->tiles_q, n_t = w->tiles_n, per = m_t * n_t, t = c % per, g;
    *z = c / per;
    if (w->persistent == 3) {
        sk_work it;
        *z = 0;
        if (!sk_item(w, c, &it)) {
            *i = m_t, *j = 0;   /* no item: outside the problem */
            return;
        }
        sk_tile_ij(w, it.tile, i, j);
        return;
    }
    if (w->shape.kernel == PASCAL_KERNEL_CUTLASS3) {
        /* get_work_idx_m_and_n, cluster 1 x 1: the swizzle's offset fastest,
         * then the major dimension (N along N, M along M), then the rest;
         * tile (i, j) past the problem is padding (no steps) */
        int64_t L = w->log_tile, major = w->along_n ? w->blocks_n : w->blocks_m;
        int64_t offset = c & (((int64_t)1 << L) - 1), extra = c >> L;
        int64_t minor = (extra / major << L) + offset, maj = extra % major;
        *z = 0;
        *i = w->along_n ? minor : maj;
        *j = w->along_n ? maj : minor;
        return;
    }
    if (w->shape.kernel == PASCAL_KERNEL_CUTLASS) {
        /* grid (m_t 2^L, [n_t / 2^L], split_k), blockIdx.x fastest; the
         * tile of (x, y) is m = x >> L, n = (y << L) + (x & (2^L - 1)), and
         * one with n >= n_t exits at once: in launch order, the real CTAs
         * of each full group of 2^L N tiles, then of the last, r wide. */
        int64_t wide = (int64_t)1 << w->log_tile, group = m_t * wide, full = n_t / wide;
        int64_t gi = t / group;
        if (gi < full) {
            *i = (t % group) / wide;
            *j = gi * wide + (t % group) % wide;
        } else {
            int64_t r = n_t - full * wide, u = t - full * group;
            *i = u / r;
            *j = full * wide + u % r;
        }
        return;
    }
    switch (w->shape.raster) {
    case PASCAL_RASTER_COLUMN:
        *i = t % m_t;
        *j = t / m_t;
        break;
    case PASCAL_RASTER_SWIZZLE: {
        /* Triton's grouped order: groups of `swizzle` tile rows, each walked
         * column by column (W12). */
        int64_t in_group = w->shape.swizzle * n_t, first;
        g = t / in_group;
        first = g * w->shape.swizzle;
        int64_t size = m_t - first < w->shape.swizzle ? m_t - first : w->shape.swizzle;
        *i = first + (t % in_group) % size;
        *j = (t % in_group) / size;
        break;
    }
    default:
        *i = t / n_t;
        *j = t % n_t;
        break;
    }
}

/* Attention: the (batch, launched head, query tile, split) of CTA c. */
static void attention_cta(const pascal_workload *w, int64_t c, int64_t *b, int64_t *h, int64_t *t,
                          int64_t *k)
{
    int64_t rest = c / w->tiles_q;
    *t = c % w->tiles_q;
    *k = 0;
    if (w->persistent == 2) {
        /* DynamicPersistentTileScheduler::get_block_coord: sections of
         * l2_swizzle (sequence, head) pairs, the pairs fastest inside one,
         * the last section the remainder wide; query tiles longest first */
        int64_t n_m = w->tiles_q, hb_total = w->shape.batch * w->heads, sw = w->l2_swizzle;
        int64_t quotient = hb_total / sw, rem = hb_total % sw;
        int64_t section = c / (sw * n_m), l2_mod = c % (sw * n_m), block, resid;
        if (section < quotient)
            block = l2_mod / sw, resid = l2_mod % sw;
        else
            block = l2_mod / (rem ? rem : 1), resid = l2_mod % (rem ? rem : 1);
        int64_t hb = section * sw + resid;
        *b = hb / w->heads;
        *h = hb % w->heads;
        *t = n_m - 1 - block;
        return;
    }
    if (w->persistent == 1) {
        /* StaticPersistentTileScheduler: query tile fastest, then head, then sequence */
        *h = rest % w->heads;
        *b = rest / w->heads;
        return;
    }
    if (w->shape.kernel == PASCAL_KERNEL_FLASHINFER) {
        /* grid (padded_batch_size, num_kv_heads), blockIdx.x fastest: the
         * (request, chunk) pairs of DecodeSplitKVIndptr, requests in order */
        *k = rest % w->splits;
        *b = rest / w->splits % w->shape.batch;
        *h = rest / w->splits / w->shape.batch;
        return;
    }
    if (w->splits > 1) {
        /* run_flash_splitkv_fwd: grid(n_m, splits, B H), blockIdx.z = b H + h
         * (compute_attn_splitkv: bidb = z / h) */
        *k = rest % w->splits;
        rest /= w->splits;
        *b = rest / w->heads;
        *h = rest % w->heads;
    } else if (w->shape.kernel == PASCAL_KERNEL_FLASH2) {
        /* FlashAttention-2's grid(n_q, B, H): query tile fastest, then
         * batch, then head (flash_fwd_launch_template.h) */
        *b = rest % w->shape.batch;
        *h = rest / w->shape.batch;
    } else {
        /* the model kernel: query tile fastest, then query head, then batch */
        *h = rest % w->heads;
        *b = rest / w->heads;
    }
}

void pascal_workload_cta(const pascal_workload *w, int64_t c, int64_t *streams)
{
    if (w->shape.kind == PASCAL_WORKLOAD_ATTENTION) {
        int64_t b, h, t, k;
        attention_cta(w, c, &b, &h, &t, &k);
        int64_t kv = b * w->shape.kv_heads + h / w->group;
        streams[0] = 2 * kv;       /* K */
        streams[1] = 2 * kv + 1;   /* V */
        return;
    }
    int64_t i, j, z, u = 0;
    pascal_workload_gemm_tile(w, c, &i, &j, &z);
    int64_t b0 = w->shape.split_k * w->tiles_q * w->ua;
    for (int64_t a = 0; a < w->ua; a++)
        streams[u++] = (z * w->tiles_q + i) * w->ua + a;
    for (int64_t b = 0; b < w->ub; b++)
        streams[u++] = b0 + (z * w->tiles_n + j) * w->ub + b;
}

/* The query rows the attention kernel launches (G when folded). */
static int64_t launched_seq_q(const pascal_workload *w)
{
    if (w->packed)
        return w->shape.seq_q * (w->shape.q_heads / w->shape.kv_heads);
    return w->folded ? w->shape.q_heads / w->shape.kv_heads : w->shape.seq_q;
}

static int launched_causal(const pascal_workload *w)
{
    return w->shape.causal && !((w->shape.kernel == PASCAL_KERNEL_FLASH2 ||
                                 w->shape.kernel == PASCAL_KERNEL_FLASH3 ||
                                 w->shape.kernel == PASCAL_KERNEL_FLASHINFER) && w->shape.seq_q == 1);
}

int64_t pascal_workload_cta_steps(const pascal_workload *w, int64_t c)
{
    if (w->ring)
        return w->blocks;
    if (w->persistent == 3) {
        sk_work it;
        return sk_item(w, c, &it) ? it.k1 - it.k0 : 0;
    }
    if (w->persistent) {
        if (w->shape.kind == PASCAL_WORKLOAD_GEMM) {
            int64_t i, j, z;
            pascal_workload_gemm_tile(w, c, &i, &j, &z);
            return i < w->tiles_q && j < w->tiles_n ? w->blocks : 0;
        }
        if (w->persistent == 1)
            return w->blocks;
        int64_t b, h, t, k;
        attention_cta(w, c, &b, &h, &t, &k);
        return fa3_blocks(w, launched_seq_q(w), t);
    }
    if (w->shape.kind == PASCAL_WORKLOAD_GEMM) {
        /* CUTLASS's slice z: K tiles z g .. min(k_t, (z + 1) g) - 1, g = N */
        int64_t i, j, z, k_t = cdiv(w->shape.k, w->shape.tile_k);
        pascal_workload_gemm_tile(w, c, &i, &j, &z);
        return clamp_len(k_t, z * w->blocks, w->blocks);
    }
    if (w->splits > 1) {
        int64_t b, h, t, k, lo, hi;
        attention_cta(w, c, &b, &h, &t, &k);
        split_range(w, launched_seq_q(w), launched_causal(w), t, k, &lo, &hi);
        return hi - lo;
    }
    return causal_blocks(&w->shape, c % w->tiles_q, w->blocks);
}

int64_t pascal_workload_cta_block(const pascal_workload *w, int64_t c, int64_t j)
{
    /* FlashAttention-2 walks n_block from n_block_max - 1 down to
     * n_block_min (flash_fwd_kernel.h, compute_attn_1rowblock and
     * compute_attn_1rowblock_splitkv); on a ring that is the forward scan
     * with the blocks numbered backwards. */
    if (w->persistent == 3) {   /* the item's K tiles, forward */
        sk_work it;
        return sk_item(w, c, &it) ? it.k0 + j : j;
    }
    if (w->splits > 1) {
        int64_t b, h, t, k, lo, hi;
        attention_cta(w, c, &b, &h, &t, &k);
        split_range(w, launched_seq_q(w), launched_causal(w), t, k, &lo, &hi);
        /* FlashInfer reads its chunk forward (BatchDecodeWithPagedKVCacheDevice) */
        return w->shape.kernel == PASCAL_KERNEL_FLASHINFER ? lo + j : hi - 1 - j;
    }
    if (!w->ring && (w->shape.kernel == PASCAL_KERNEL_FLASH2 || w->shape.kernel == PASCAL_KERNEL_FLASH3))
        return pascal_workload_cta_steps(w, c) - 1 - j;
    return j;
}

/* ---- sector-exact bytes (docs/workloads.md section 2.7) --------------------------- */

/* rows rows of cols elements, each row in whole sectors. */
static int64_t rows_bytes(int64_t rows, int64_t cols, int dtype, int64_t sector)
{
    if (rows <= 0 || cols <= 0)
        return 0;
    int64_t bits = cols * pascal_dtype_bits[dtype], row = bits / 8 + (bits % 8 != 0);
    return rows * ((row + sector - 1) / sector * sector);
}

int64_t pascal_workload_stored_bytes(const pascal_workload *w, int64_t s, int64_t b,
                                     int64_t sector)
{
    const pascal_workload_shape *sh = &w->shape;
    if (sh->kind == PASCAL_WORKLOAD_ATTENTION)
        return rows_bytes(clamp_len(sh->seq_kv, b * w->tile_kv, w->tile_kv), sh->head_dim,
                          sh->dtype, sector);
    int64_t u = sh->tile_m / w->ua, b0 = sh->split_k * w->tiles_q * w->ua;
    if (s < b0) {   /* A: unit a of row panel i of slice z, K step z N + b */
        int64_t per = w->tiles_q * w->ua, z = s / per, i = s % per / w->ua, a = s % w->ua;
        int64_t rows = clamp_len(sh->m, i * sh->tile_m + a * u, u);
        int64_t cols = clamp_len(sh->k, (z * w->blocks + b) * sh->tile_k, sh->tile_k);
        return rows_bytes(rows, cols, sh->dtype, sector);
    }
    s -= b0;        /* B: unit bb of column panel j of slice z */
    int64_t per = w->tiles_n * w->ub, z = s / per, j = s % per / w->ub, bb = s % w->ub;
    int64_t rows = clamp_len(sh->k, (z * w->blocks + b) * sh->tile_k, sh->tile_k);
    int64_t cols = clamp_len(sh->n, j * sh->tile_n + bb * u, u);
    return rows_bytes(rows, cols, sh->dtype, sector);
}

void pascal_workload_io_tiles(const pascal_workload *w, int64_t *q_tiles, int64_t *o_tiles)
{
    if (w->shape.kind == PASCAL_WORKLOAD_ATTENTION) {
        *q_tiles = w->shape.batch * w->heads * w->tiles_q;
        *o_tiles = w->ctas;
    } else {
        *q_tiles = 0;
        /* stream-K: the partial-sum slots after the tiles */
        *o_tiles = w->tiles_q * w->tiles_n + (w->persistent == 3 ? w->sk.sk_blocks : 0);
    }
}

void pascal_workload_cta_io(const pascal_workload *w, int64_t c, int64_t sector, int64_t *q,
                            int64_t *q_id, int64_t *o, int64_t *o_id)
{
    const pascal_workload_shape *sh = &w->shape;
    if (sh->kind == PASCAL_WORKLOAD_ATTENTION) {
        int64_t b, h, t, k;
        attention_cta(w, c, &b, &h, &t, &k);
        int64_t rows = clamp_len(launched_seq_q(w), t * w->tile_q, w->tile_q);
        *q_id = (b * w->heads + h) * w->tiles_q + t;
        *o_id = c;
        /* the split kernel's early exit reads no Q */
        *q = pascal_workload_cta_steps(w, c) > 0 ? rows_bytes(rows, sh->head_dim, sh->dtype, sector)
                                                  : 0;
        if (w->splits > 1 && sh->kernel == PASCAL_KERNEL_FLASHINFER) {
            /* tmp_v rows at the output's dtype, one fp32 tmp_s each */
            *o = rows_bytes(rows, sh->head_dim, sh->dtype, sector) +
                 rows_bytes(1, rows, PASCAL_DTYPE_FP32, sector);
        } else if (w->splits > 1) {   /* fp32 partial rows of d_rounded, and one LSE per row */
            int64_t d_r = sh->head_dim <= 128 ? cdiv(sh->head_dim, 32) * 32 : cdiv(sh->head_dim, 64) * 64;
            *o = rows_bytes(rows, d_r, PASCAL_DTYPE_FP32, sector) +
                 rows_bytes(1, rows, PASCAL_DTYPE_FP32, sector);
        } else {
            *o = rows_bytes(rows, sh->head_dim, sh->dtype, sector);
        }
        return;
    }
    int64_t i, j, z;
    pascal_workload_gemm_tile(w, c, &i, &j, &z);
    *q = 0, *q_id = 0;
    *o_id = i * w->tiles_n + j;
    *o = rows_bytes(clamp_len(sh->m, i * sh->tile_m, sh->tile_m),
                    clamp_len(sh->n, j * sh->tile_n, sh->tile_n), sh->dtype, sector);
    sk_work it;
    if (w->persistent == 3 && sk_item(w, c, &it) && it.block >= 0 && it.k1 < w->sk.ipt) {
        /* a stream-K block that does not finish its tile shares its fp32
         * accumulators in the slot of the tile's first block */
        *o_id = w->tiles_q * w->tiles_n + sk_owner(&w->sk, it.tile * w->sk.ipt);
        *o = rows_bytes(1, sh->tile_m * sh->tile_n, PASCAL_DTYPE_FP32, sector);
    }
}

int pascal_workload_cta_reduces(const pascal_workload *w, int64_t c)
{
    if (w->persistent == 3) {
        /* share_accumulators (a later peer adds into the slot) and
         * acquire_accumulators (the finishing block): all but the first */
        sk_work it;
        return sk_item(w, c, &it) && it.block >= 0 && it.k0 > 0;
    }
    if (w->shape.kind != PASCAL_WORKLOAD_GEMM || w->shape.kernel != PASCAL_KERNEL_CUTLASS ||
        w->shape.split_k < 2)
        return 0;
    int64_t i, j, z;
    pascal_workload_gemm_tile(w, c, &i, &j, &z);
    return z > 0;
}

void pascal_workload_cta_out_read(const pascal_workload *w, int64_t c, int64_t sector,
                                  int64_t *id, int64_t *bytes)
{
    sk_work it;
    if (w->persistent == 3 && sk_item(w, c, &it) && it.block >= 0) {
        *id = w->tiles_q * w->tiles_n + sk_owner(&w->sk, it.tile * w->sk.ipt);
        *bytes = rows_bytes(1, w->shape.tile_m * w->shape.tile_n, PASCAL_DTYPE_FP32, sector);
        return;
    }
    int64_t q, qid;
    pascal_workload_cta_io(w, c, sector, &q, &qid, bytes, id);
}

int64_t pascal_workload_cta_rounds(const pascal_workload *w, int64_t c)
{
    sk_work it;
    if (w->persistent != 3 || !sk_item(w, c, &it))
        return pascal_workload_cta_steps(w, c);
    if (it.block < 0 || it.k0 == 0)
        return it.k1 - it.k0;
    /* a block's only waiting tile is its last: it ran all its iterations first */
    int64_t lo, hi;
    sk_extents(&w->sk, it.block, &lo, &hi);
    return it.k1 - it.k0 + sk_arrival(&w->sk, it.block) - (hi - lo - 1);
}

/* ---- the walk of a kernel's accesses (workload.h) --------------------------------- */

typedef struct walk_ctx {
    const pascal_workload *w;
    int64_t sector;
    pascal_workload_visit visit;
    void *ctx;
} walk_ctx;

static int walk_io(const walk_ctx *k, int64_t c, int out)
{
    int64_t q, qid, o, oid;
    pascal_workload_cta_io(k->w, c, k->sector, &q, &qid, &o, &oid);
    if (!out)
        return k->visit(k->ctx, PASCAL_ACCESS_Q, c, qid, q);
    int rc = 0;
    if (pascal_workload_cta_reduces(k->w, c)) {
        int64_t rid, rb;
        pascal_workload_cta_out_read(k->w, c, k->sector, &rid, &rb);
        rc = k->visit(k->ctx, PASCAL_ACCESS_OUT_READ, c, rid, rb);
    }
    return rc ? rc : k->visit(k->ctx, PASCAL_ACCESS_OUT, c, oid, o);
}

/* Step j of CTA c: a block of each of its streams, b shifted by `shift` on a ring. */
static int walk_step(const walk_ctx *k, int64_t c, int64_t j, int64_t shift)
{
    const pascal_workload *w = k->w;
    int64_t st[64], N = w->blocks, b = pascal_workload_cta_block(w, c, j);
    if (w->ring)
        b = (b + shift) % N;
    pascal_workload_cta(w, c, st);
    for (int64_t u = 0; u < w->units; u++) {
        int rc = k->visit(k->ctx, PASCAL_ACCESS_BLOCK, c, st[u] * N + b,
                          pascal_workload_stored_bytes(w, st[u], b, k->sector));
        if (rc)
            return rc;
    }
    return 0;
}

/* A stepless tile's output, as the persistent schedule passes it over. */
static int walk_skip(void *ctx, int64_t tile)
{
    return walk_io(ctx, tile, 1);
}

/* The round in which CTA c (n steps, of the wave from c0) writes its
 * output: after its last step; a serial split-K slice not before the
 * slices of its tile earlier in the wave (its semaphore waits on them; the
 * slices shrink with z, so the first of them is the longest). */
static int64_t out_round(const pascal_workload *w, int64_t c, int64_t c0, int64_t n)
{
    int64_t last = n > 0 ? n - 1 : 0;
    if (pascal_workload_cta_reduces(w, c)) {
        /* the tile's first slice in this wave: c less whole grids of tiles */
        int64_t per = w->tiles_q * w->tiles_n, first = c0 + (c - c0) % per;
        int64_t m = pascal_workload_cta_steps(w, first);
        last = m - 1 > last ? m - 1 : last;
    }
    return last;
}

int pascal_workload_walk(const pascal_workload *w, int64_t M, const int64_t *slot_phase,
                         int64_t sector, int64_t *slots, pascal_workload_visit visit, void *ctx)
{
    walk_ctx k = {w, sector, visit, ctx};
    int rc = 0;
    if (w->persistent) {
        pascal_psched ps;
        if (!slots)
            return -1;
        pascal_psched_init(&ps, w, slots, slots + w->grid);
        for (int64_t q = 0; q < ps.G && rc == 0; q++)
            rc = pascal_psched_take(&ps, q, 1, &k, walk_skip);
        for (int live = 1; live && rc == 0;) {
            live = 0;
            for (int64_t q = 0; q < ps.G && rc == 0; q++) {
                int64_t c = ps.tile[q];
                if (c < 0)
                    continue;
                int64_t n = pascal_workload_cta_steps(w, c);
                if (ps.step[q] == 0)
                    rc = walk_io(&k, c, 0);
                if (rc == 0 && ps.step[q] < n)
                    rc = walk_step(&k, c, ps.step[q], 0);
                if (rc == 0 && ps.step[q] + 1 == (w->persistent == 3 ? pascal_workload_cta_rounds(w, c) : n))
                    rc = walk_io(&k, c, 1);
            }
            for (int64_t q = 0; q < ps.G && rc == 0; q++)
                if (ps.tile[q] >= 0 && ++ps.step[q] == pascal_workload_cta_rounds(w, ps.tile[q]))
                    rc = pascal_psched_take(&ps, q, 0, &k, walk_skip);
            for (int64_t q = 0; q < ps.G; q++)
                live |= ps.tile[q] >= 0;
        }
        return rc;
    }
    if (M < 1)
        return -1;
    for (int64_t c0 = 0; c0 < w->ctas && rc == 0; c0 += M) {
        int64_t c1 = c0 + M < w->ctas ? c0 + M : w->ctas, longest = 0;
        for (int64_t c = c0; c < c1; c++) {
            int64_t n = pascal_workload_cta_steps(w, c);
            longest = n > longest ? n : longest;
        }
        for (int64_t t = 0; t < (longest > 0 ? longest : 1) && rc == 0; t++)
            for (int64_t c = c0; c < c1 && rc == 0; c++) {
                int64_t n = pascal_workload_cta_steps(w, c);
                if (t == 0 && n > 0)
                    rc = walk_io(&k, c, 0);
                if (rc == 0 && t < n)
                    rc = walk_step(&k, c, t, slot_phase ? slot_phase[c - c0] : 0);
                if (rc == 0 && t == out_round(w, c, c0, n))
                    rc = walk_io(&k, c, 1);
            }
    }
    return rc;
}

/* ---- the persistent schedule (docs/workloads.md section 2.8) ---------------------- */

void pascal_psched_init(pascal_psched *ps, const pascal_workload *w, int64_t *tile, int64_t *step)
{
    ps->w = w;
    ps->G = w->grid;
    ps->next = ps->G;
    ps->tile = tile;
    ps->step = step;
    for (int64_t q = 0; q < ps->G; q++)
        ps->tile[q] = q < w->ctas ? q : -1, ps->step[q] = 0;
    if (w->persistent == 3)   /* slot q on launch q */
        for (int64_t q = 0; q < ps->G; q++)
            ps->tile[q] = q < w->sk.launches ? q * w->sk.items : -1;
}

int pascal_psched_take(pascal_psched *ps, int64_t q, int first, void *ctx,
                       int (*skip)(void *ctx, int64_t tile))
{
    const pascal_workload *w = ps->w;
    for (;;) {
        if (!first && w->persistent == 3) {
            /* the launch's next item, else the next launch's first */
            int64_t c = ps->tile[q], n = w->sk.items;
            if (c % n + 1 < n && pascal_workload_cta_steps(w, c + 1) > 0)
                ps->tile[q] = c + 1;
            else
                ps->tile[q] = ps->next < w->sk.launches ? ps->next++ * n : -1;
        } else if (!first) {
            if (w->persistent == 1)
                ps->tile[q] = ps->tile[q] + ps->G < w->ctas ? ps->tile[q] + ps->G : -1;
            else
                ps->tile[q] = ps->next < w->ctas ? ps->next++ : -1;
        }
        first = 0;
        ps->step[q] = 0;
        if (ps->tile[q] < 0 || pascal_workload_cta_steps(w, ps->tile[q]) > 0)
            return 0;
        if (w->persistent == 3)
            continue;   /* a launch without work (padding, an early exit): no output */
        int rc = skip ? skip(ctx, ps->tile[q]) : 0;
        if (rc)
            return rc;
    }
}

double pascal_workload_flops(const pascal_workload *w)
{
    const pascal_workload_shape *s = &w->shape;
    if (s->kind == PASCAL_WORKLOAD_GEMM)
        return 2.0 * (double)s->m * (double)s->n * (double)s->k;
    /* Q K^T and P V: 2 d multiply-adds per visible (query, key) pair and
     * head.  Causal, bottom-right aligned: query row i sees keys
     * 0 .. i + L_kv - L_q, an arithmetic series from the first row that
     * sees any key to the last, which sees all L_kv. */
    double pairs = (double)s->seq_q * (double)s->seq_kv;
    if (s->causal && s->seq_q > 1) {
        int64_t off = s->seq_kv - s->seq_q, i0 = off < 0 ? -off : 0;
        double n = (double)(s->seq_q - i0);
        pairs = n > 0 ? n * ((double)(i0 + 1 + off) + (double)s->seq_kv) / 2.0 : 0.0;
    }
    return 4.0 * (double)s->batch * (double)s->q_heads * (double)s->head_dim * pairs;
}

int64_t pascal_workload_waves(const pascal_workload *w, int64_t R)
{
    return R < 1 ? 0 : cdiv(w->ctas, R);
}

/* The table holds 2^p >= 2 R units slots of (global id, local id). */
static int64_t table_slots(const pascal_workload *w, int64_t R)
{
    int64_t need = 2 * R * w->units, n = 16;
    while (n < need)
        n *= 2;
    return n;
}

int64_t pascal_workload_wave_scratch(const pascal_workload *w, int64_t R)
{
    return 2 * table_slots(w, R);
}

int64_t pascal_workload_wave(const pascal_workload *w, int64_t R, int64_t wave,
                             const int64_t *slot_phase, int64_t *stream, int64_t *phase,
                             int64_t *owner, int64_t *N, int64_t *global, int64_t *scratch,
                             pascal_streams *out)
{
    int64_t c0 = wave * R, Rw, S = 0, g = 0, ids[64];
    if (R < 1 || wave < 0 || c0 >= w->ctas || w->units > 64)
        return -1;
    Rw = w->ctas - c0 < R ? w->ctas - c0 : R;
    int64_t slots = table_slots(w, R), *key = scratch, *val = scratch + slots;
    for (int64_t i = 0; i < slots; i++)
        key[i] = -1;
    for (int64_t q = 0; q < Rw; q++) {
        pascal_workload_cta(w, c0 + q, ids);
        for (int64_t u = 0; u < w->units; u++, g++) {
            uint64_t h = (uint64_t)ids[u] * 0x9E3779B97F4A7C15ull;
            int64_t at = (int64_t)(h >> 17) & (slots - 1);
            while (key[at] >= 0 && key[at] != ids[u])
                at = (at + 1) & (slots - 1);
            if (key[at] < 0) {   /* first appearance: the next local id */
                key[at] = ids[u];
                val[at] = S;
                global[S] = ids[u];
                N[S++] = w->blocks;
            }
            stream[g] = val[at];
            phase[g] = slot_phase[q];
            owner[g] = c0 + q;
        }
    }
    *out = (pascal_streams){S, N, g, stream, phase, owner};
    return S;
}
