/* Workloads as architects describe them, mapped onto the multi-stream model
 * (docs/workloads.md gives every derivation as equations, with worked
 * examples).  Two operators, the paper's own motivation:
 *
 * attention  FlashAttention-style forward: one CTA per (batch, query head,
 *            query tile), launched with the query tile fastest; CTA step j
 *            reads K tile j and V tile j of its KV head (GQA: query head h
 *            reads KV head h / (q_heads / kv_heads)).  Streams: the K and
 *            the V of every KV head of every batch (2 B H_kv), each
 *            ceil(L_kv / T_kv) blocks of T_kv x d elements; a CTA issues two
 *            requests per round (K, then V).
 * gemm       C = A B with output tiles tile_m x tile_n, K in steps of
 *            tile_k, split-K into split_k slices (the grid's outermost
 *            dimension), tiles rasterised by rows, columns, or swizzled
 *            groups of `swizzle` tile rows (the grouped order of Triton's
 *            matmul tutorial).  A CTA reads its A row panel and its B column
 *            panel at once: both are streams, read in the same round.  The
 *            cache model needs one block size, so the unit is
 *            u = gcd(tile_m, tile_n) rows or columns: an A panel is
 *            tile_m / u unit streams and a B panel tile_n / u, all of
 *            u x tile_k elements, and a CTA issues (tile_m + tile_n) / u
 *            requests per round, its A units then its B units.  This is
 *            exact for LRU: units of one panel are always requested
 *            together, so each has the reuse distance of the panel block
 *            (docs/workloads.md).
 *
 * Pure code: no I/O, no globals, no allocation. */
#ifndef PASCAL_MODEL_WORKLOAD_H
#define PASCAL_MODEL_WORKLOAD_H

#include <stdint.h>

#include "model/streams.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum pascal_workload_kind {
    PASCAL_WORKLOAD_ATTENTION = 0,
    PASCAL_WORKLOAD_GEMM = 1,
    PASCAL_WORKLOAD_COUNT = 2
} pascal_workload_kind;

typedef enum pascal_raster {
    PASCAL_RASTER_ROW = 0,      /* tile (i, j) at t = i n_t + j */
    PASCAL_RASTER_COLUMN = 1,   /* t = j m_t + i */
    PASCAL_RASTER_SWIZZLE = 2,  /* groups of `swizzle` tile rows, column-major inside */
    PASCAL_RASTER_COUNT = 3
} pascal_raster;

/* Element types and their widths in bits. */
typedef enum pascal_dtype {
    PASCAL_DTYPE_FP32 = 0, PASCAL_DTYPE_TF32, PASCAL_DTYPE_BF16, PASCAL_DTYPE_FP16,
    PASCAL_DTYPE_FP8, PASCAL_DTYPE_INT8, PASCAL_DTYPE_FP4, PASCAL_DTYPE_COUNT
} pascal_dtype;

extern const char *const pascal_workload_names[PASCAL_WORKLOAD_COUNT]; /* attention, gemm */
extern const char *const pascal_raster_names[PASCAL_RASTER_COUNT];     /* row, column, swizzle */

/* Whose launch the CTAs follow (docs/workloads.md section 2.5). */
typedef enum pascal_kernel {
    PASCAL_KERNEL_MODEL = 0,    /* pascal's model kernel: c = (b H_q + h) n_q + t */
    PASCAL_KERNEL_FLASH2 = 1,   /* FlashAttention-2 forward: c = (h B + b) n_q + t, GQA
                                   decode folded (seqlenq_ngroups_swapped) */
    PASCAL_KERNEL_CUTLASS = 2,  /* CUTLASS 2.x device::Gemm with GemmIdentityThreadblockSwizzle<N>,
                                   N = the `swizzle` field: M fastest in groups of 2^log_tile
                                   N tiles */
    PASCAL_KERNEL_FLASH3 = 3,   /* FlashAttention-3 forward (Hopper): persistent CTAs, one per SM,
                                   over tiles of tile_size_fwd_sm90; causal: longest first in
                                   L2-sized sections of heads (DynamicPersistentTileScheduler) */
    PASCAL_KERNEL_FLASHINFER = 4, /* FlashInfer's batch decode over a paged KV cache: grid
                                   (requests x chunks, KV heads), the G query heads of a KV
                                   head in one CTA, chunks of the partition-kv plan */
    PASCAL_KERNEL_CUTLASS3 = 5, /* CUTLASS 3 GEMM on Hopper, PersistentTileSchedulerSm90 (cluster
                                   1 x 1): min(sms, tiles) persistent CTAs over the tiles, the
                                   raster order by its heuristic, swizzle up to `swizzle` */
    PASCAL_KERNEL_CUTLASS_SK = 6, /* CUTLASS 2.x GemmUniversalStreamk with ThreadblockSwizzleStreamK:
                                   stream-K blocks over the K iterations of the last tiles, with
                                   turnstile fixup of partial sums, then data-parallel blocks */
    PASCAL_KERNEL_COUNT = 7
} pascal_kernel;
extern const char *const pascal_kernel_names[PASCAL_KERNEL_COUNT];     /* model, flash-attn-2, cutlass, flash-attn-3, flashinfer, cutlass-3,
                                                                          cutlass-streamk */
/* Each kernel's workload kinds, and where its launch was read (pascal list
 * kernels). */
typedef struct pascal_kernel_info {
    const char *kinds;      /* "attention, gemm" */
    const char *what;
    const char *source;     /* library, files and functions, version read */
} pascal_kernel_info;
extern const pascal_kernel_info pascal_kernels[PASCAL_KERNEL_COUNT];
extern const char *const pascal_dtype_names[PASCAL_DTYPE_COUNT]; /* fp32 tf32 bf16 fp16 fp8 int8 fp4 */
extern const int pascal_dtype_bits[PASCAL_DTYPE_COUNT];          /* 32 32 16 16 8 8 4 */

/* A workload as written in a spec (elements and tiles, not bytes). */
typedef struct pascal_workload_shape {
    int kind;               /* pascal_workload_kind */
    int dtype;              /* pascal_dtype */
    /* attention */
    int64_t batch, q_heads, kv_heads, seq_q, seq_kv, head_dim, tile_q, tile_kv;
    int causal;             /* 1: causal mask (bottom-right aligned) */
    /* gemm */
    int64_t m, n, k, tile_m, tile_n, tile_k, split_k, swizzle;
    int raster;             /* pascal_raster */
    int kernel;             /* pascal_kernel */
    /* attention, kernel flash-attn-2 (docs/workloads.md section 2.6) */
    int64_t num_splits;     /* KV splits; 0: num_splits_heuristic on sms, as mha_fwd */
    int64_t sms;            /* the device's SMs (the heuristic's input; 0: none given) */
    int64_t occupancy;      /* resident CTAs per SM (flashinfer's max_grid_size = sms x this;
                               0: none given) */
} pascal_workload_shape;

/* CUTLASS 2.x stream-K's block mapping (ThreadblockSwizzleStreamK,
 * docs/workloads.md section 2.11): the library's own quantities, named as
 * there. */
typedef struct pascal_streamk {
    int64_t sms, occupancy;     /* avail_sms = device_sms, sm_occupancy */
    int64_t ipt;                /* iters_per_tile: K tiles of an output tile */
    int64_t sk_tiles;           /* the first sk_tiles tiles are stream-K's */
    int64_t sk_blocks, regions, bpr, normal, bigpr, ipr;  /* sk blocks, sk_regions,
                                   sk_blocks_per_region, sk_iters_per_normal_block,
                                   sk_big_blocks_per_region, sk_iters_per_region */
    int64_t sk_waves, dp_blocks, dp_first;  /* ..., dp_first_wave_tiles */
    int64_t launches;           /* get_num_blocks: the grid's x extent */
    int64_t items;              /* work items numbered per launch: at most this many */
    int remap, cohort;          /* remap_block_indices, cohort_raster */
    int64_t cohort_n;           /* cohorts across N: ceil(n_t / 4) */
} pascal_streamk;

/* What the model needs, derived (docs/workloads.md, equations W1-W12). */
typedef struct pascal_workload {
    pascal_workload_shape shape;
    int64_t streams;        /* S: unit streams in the kernel */
    int64_t blocks;         /* N: blocks per stream = rounds a CTA scans */
    int64_t block_bytes;    /* bytes of one (unit) block */
    int64_t units;          /* requests per CTA per round */
    int64_t ctas;           /* CTAs in the grid */
    int64_t sharers_a;      /* CTAs reading each stream of the first operand
                               (attention: K and V; GEMM: A) */
    int64_t sharers_b;      /* ... of the second (attention: = sharers_a; GEMM: B) */
    int64_t requests;       /* block requests in the whole kernel */
    int64_t ideal_bytes;    /* every block of every stream fetched once */
    int64_t tensor_bytes;   /* the shared operands' exact bytes (no tile padding) */
    int ring;               /* 1 when every CTA scans all N blocks of its
                               streams (the model applies); 0 for causal
                               and split-KV */
    /* Grid geometry. */
    int64_t tiles_q;        /* attention: query tiles ceil(L_q / T_q); GEMM: m_t */
    int64_t tiles_n;        /* GEMM: n_t (attention: 1) */
    int64_t group;          /* attention: query heads per KV head (of a launched head) */
    int64_t heads;          /* attention: query heads launched (H_kv when folded) */
    int folded;             /* attention: the GQA decode fold applies */
    int64_t ua, ub;         /* GEMM: units per A panel and per B panel
                               (attention: 1 K, 1 V) */
    int log_tile;           /* GEMM, kernel cutlass: the swizzle's log2 width */
    /* attention: the tiles launched (the shape's, but for FlashAttention-2's
     * split-KV kernel: 64 x kBlockN of run_mha_fwd_splitkv_dispatch) */
    int64_t tile_q, tile_kv;
    int64_t splits;         /* attention: KV splits launched (1: none) */
    int64_t split_blocks;   /* ... KV blocks per split, n_blocks_per_split */
    int64_t partial_bytes;  /* ... fp32 O and LSE partials written (0 without splits) */
    int64_t smem_bytes;     /* a named kernel's shared memory per CTA (flash-attn-2: its Q,
                               K and V tiles, kSmemSize); 0: pascal's stages (spec_point.c) */
    /* Persistent kernels (flash-attn-3, docs/workloads.md section 2.8): `ctas`
     * counts work tiles in the scheduler's tile order, run by `grid`
     * persistent CTAs in lock step, each taking its next tile the round
     * after it finishes one: its own next (tile + grid) when persistent is
     * 1, the next unclaimed one when 2 (the dynamic scheduler). */
    int persistent;         /* 0: one CTA per tile, in waves of M */
    int along_n;            /* GEMM, kernel cutlass-3: RasterOrder::AlongN (else AlongM) */
    int64_t blocks_m, blocks_n; /* ... the tile grid rounded up to the swizzle */
    int64_t grid;           /* persistent CTAs (the SM count) */
    int64_t l2_swizzle;     /* 2: (sequence, head) pairs per L2 section */
    int packed;             /* flash-attn-3: PackGQA (G query heads in one tile's rows) */
    /* persistent 3 (cutlass-streamk): `ctas` counts work items, launch x's
     * k-th at x sk.items + k; `grid` slots (sms x occupancy) take launches
     * in order as they free, each running its launch's items in turn. */
    pascal_streamk sk;
} pascal_workload;

/* Reasons a shape is refused (pascal_workload_derive's return value). */
typedef enum pascal_workload_error {
    PASCAL_WL_OK = 0,
    PASCAL_WL_HEADS,        /* q_heads not a multiple of kv_heads */
    PASCAL_WL_BYTES,        /* a block is not a whole number of bytes */
    PASCAL_WL_SPLIT,        /* split_k does not divide the K tiles */
    PASCAL_WL_RANGE,        /* a field < 1, or a derived count past 2^53 */
    PASCAL_WL_UNITS,        /* more than 64 unit requests per CTA per round */
    PASCAL_WL_KIND,         /* unknown kind, dtype or raster */
    PASCAL_WL_KERNEL,       /* a kernel of the other workload kind */
    PASCAL_WL_SMS,          /* flash-attn-2's split heuristic without sms */
    PASCAL_WL_SPLITS,       /* num_splits past the library's 128, or on a kernel without splits */
    PASCAL_WL_DTYPE,        /* a dtype the named kernel does not take */
    PASCAL_WL_REDUCE        /* cutlass-streamk: a separate reduction wave (not modelled) */
} pascal_workload_error;

/* Derives *out from *in; returns PASCAL_WL_OK or the reason for refusing
 * it (then *out is unspecified).  Cost O(1) (O(tiles_q) for causal). */
int pascal_workload_derive(const pascal_workload_shape *in, pascal_workload *out);
/* What is wrong, for a refusal: "q_heads = 64, not a multiple of
 * kv_heads = 6 (...)". */
void pascal_workload_explain(const pascal_workload_shape *in, int error, char *buf, int len);

/* CTA c's streams in request order (w->units global stream ids). */
void pascal_workload_cta(const pascal_workload *w, int64_t c, int64_t *streams);
/* GEMM: the output tile (i, j) and split z of CTA c under the raster order. */
void pascal_workload_gemm_tile(const pascal_workload *w, int64_t c, int64_t *i, int64_t *j,
                               int64_t *z);

/* The steps CTA c runs, each one block of each of its streams: N on a
 * ring; under a causal mask W11 of its query tile (0 for a tile that sees
 * no key). */
int64_t pascal_workload_cta_steps(const pascal_workload *w, int64_t c);
/* The block CTA c reads at step j (0 <= j < its steps) before any phase:
 * j, or for FlashAttention-2 under a causal mask steps - 1 - j (its KV
 * loop runs from the last block down). */
int64_t pascal_workload_cta_block(const pascal_workload *w, int64_t c, int64_t j);

/* Sector-exact bytes (docs/workloads.md section 2.7).  Every tile is rows
 * of contiguous elements (a K or V row of one head, an A row segment of
 * tile_k, a B row segment of u columns), each row counted in whole sectors
 * of `sector` bytes; a tile past the tensor's edge holds only its rows
 * inside it (0 for a unit wholly outside). */
/* What block b of unit stream s stores. */
int64_t pascal_workload_stored_bytes(const pascal_workload *w, int64_t s, int64_t b,
                                     int64_t sector);
/* What CTA c reads before its first step and writes after its last:
 * attention the Q tile of its (sequence, head, query tile) and the O tile
 * (the split kernel: its fp32 partial rows of d_rounded, and their
 * log-sum-exps); GEMM no Q, and the C tile of its (i, j), at the operands'
 * dtype.  *q_id and *o_id number the tiles (0 .. q_tiles - 1 and 0 ..
 * o_tiles - 1): split CTAs of one query tile share their Q, split-K slices
 * their C tile. */
void pascal_workload_cta_io(const pascal_workload *w, int64_t c, int64_t sector, int64_t *q,
                            int64_t *q_id, int64_t *o, int64_t *o_id);
/* 1 when CTA c reads its output tile before it writes it: CUTLASS 2.x's
 * serial split-K (kernel::Gemm with SplitKSerial), where slice z > 0
 * waits on the tile's semaphore and its epilogue takes the source from D,
 * the sum of the slices before it (beta 0: slice 0 reads no C). */
int pascal_workload_cta_reduces(const pascal_workload *w, int64_t c);
/* What CTA c reads there: its output tile (serial split-K), or under
 * cutlass-streamk the partial-sum slot of the tile's first stream-K block
 * (an id past the output tiles; its fp32 accumulators) before it adds its
 * own to it or takes it into the tile's epilogue. */
void pascal_workload_cta_out_read(const pascal_workload *w, int64_t c, int64_t sector,
                                  int64_t *id, int64_t *bytes);
/* Rounds tile c holds its slot in a persistent schedule: its steps, and
 * under cutlass-streamk the rounds a stream-K block waits at the end of
 * its last tile for the peer before it (the turnstile, docs/workloads.md
 * section 2.11); it writes its output in the last of them. */
int64_t pascal_workload_cta_rounds(const pascal_workload *w, int64_t c);
/* The counts of Q and output tiles those ids run over. */
void pascal_workload_io_tiles(const pascal_workload *w, int64_t *q_tiles, int64_t *o_tiles);

/* The kernel's accesses in the order of the lock-step replay (docs/workloads.md
 * sections 2.7 and 2.8), each at its sector-exact bytes.  Waves of M slots,
 * CTA c = wave M + q in slot q; round t of a wave serves, slot by slot,
 * step t of each CTA that has one: before its first step its Q read
 * (attention), then one block of each of its streams in request order
 * (block pascal_workload_cta_block, on a ring shifted by slot_phase[q]
 * modulo N; slot_phase NULL: none), after its last its output written (a
 * CTA without steps writes its output at t = 0), read just before that
 * where pascal_workload_cta_reduces (what PASCAL_ACCESS_OUT_READ, the
 * output's id and bytes).  A persistent kernel runs
 * its schedule (pascal_psched) in `slots` (2 grid entries of caller memory;
 * NULL for other kernels) and ignores M.  visit gets what (below), the CTA
 * (the tile), the id (a block: s N + b; Q: q_id; output: o_id) and the
 * bytes; a nonzero return stops the walk and is returned. */
enum { PASCAL_ACCESS_BLOCK = 0, PASCAL_ACCESS_Q = 1, PASCAL_ACCESS_OUT = 2, PASCAL_ACCESS_OUT_READ = 3 };
typedef int (*pascal_workload_visit)(void *ctx, int what, int64_t c, int64_t id, int64_t bytes);
int pascal_workload_walk(const pascal_workload *w, int64_t M, const int64_t *slot_phase,
                         int64_t sector, int64_t *slots, pascal_workload_visit visit, void *ctx);

/* FlashAttention-2's num_splits_heuristic (flash_api.cpp): the fewest
 * eligible splits whose wave efficiency n / ceil(n), n = work x splits /
 * slots, is within 85 % of the best, 1 when work fills 80 % of the slots.
 * mha_fwd passes work = B H ceil(L_q / 64), slots = 2 sms, the KV blocks
 * of the split kernel's kBlockN and max_splits = 128. */
int64_t pascal_flash2_num_splits(int64_t work, int64_t slots, int64_t n_blocks, int64_t max_splits);

/* FlashInfer's decode plan (BatchDecodeWithPagedKVCacheWorkEstimationDispatched
 * and PartitionPagedKVCacheBinarySearchMinNumPagePerBatch, scheduler.cuh)
 * for `batch` requests of `pages` pages each over `kv_heads` KV heads and a
 * grid of max_grid CTAs: no split when batch x kv_heads >= max_grid; else
 * the fewest pages per chunk, at least max(128 / page_size, 1), whose
 * chunks x kv_heads fit max_grid, and a split only if that makes more
 * chunks than requests.  Returns the chunks per request (1: no split) and
 * sets *chunk_pages (pages when there is no split). */
int64_t pascal_flashinfer_chunks(int64_t batch, int64_t kv_heads, int64_t pages, int64_t max_grid,
                                 int64_t page_size, int64_t *chunk_pages);
/* The page size pascal gives FlashInfer's paged KV cache: 16 tokens. */
#define PASCAL_FLASHINFER_PAGE 16

/* A persistent kernel's lock-step schedule (docs/workloads.md section
 * 2.8): `grid` slots, slot q starting on tile q; the round after a slot
 * runs its tile's last round (pascal_workload_cta_rounds) it takes its
 * next: its own tile + grid (persistent 1), the next tile nobody has taken
 * (persistent 2; slots in index order within a round), or (persistent 3,
 * cutlass-streamk) its launch's next item, else the first item of the next
 * launch nobody has taken (slot q starts on launch q).  A tile without
 * steps is taken and left at once (persistent 3: without output). */
typedef struct pascal_psched {
    const pascal_workload *w;
    int64_t G, next, *tile, *step;   /* per slot: its tile (-1: done) and step */
} pascal_psched;
/* Starts the slots in caller memory (tile and step: w->grid entries each);
 * then call pascal_psched_take(ps, q, 1, ...) for every slot q. */
void pascal_psched_init(pascal_psched *ps, const pascal_workload *w, int64_t *tile, int64_t *step);
/* Moves slot q on (first: to a first tile with steps); each stepless tile
 * passed over goes to skip(ctx, tile) when skip is not NULL.  Returns what
 * skip returned when nonzero, else 0. */
int pascal_psched_take(pascal_psched *ps, int64_t q, int first, void *ctx,
                       int (*skip)(void *ctx, int64_t tile));

/* The kernel's useful FLOPs (a multiply-add is two): GEMM 2 M N K;
 * attention 4 B H_q d times the (query, key) pairs the mask lets through
 * (L_q L_kv without one).  Tile padding and masked-out work inside a tile
 * are not counted. */
double pascal_workload_flops(const pascal_workload *w);

/* Waves of R resident CTAs: ceil(ctas / R). */
int64_t pascal_workload_waves(const pascal_workload *w, int64_t R);

/* Scratch entries pascal_workload_wave needs for R slots (a hash table
 * from global to local stream ids: at most 8 R units). */
int64_t pascal_workload_wave_scratch(const pascal_workload *w, int64_t R);

/* The multi-stream instance of wave `wave` with R resident slots: CTAs
 * c = wave R + q for slots q = 0 .. R_w - 1 (R_w = R but for a last,
 * partial wave), CTA c taking slot q's phase slot_phase[q].  Requests are
 * in slot order, each CTA's in its request order; streams are numbered
 * locally by first appearance.  Caller memory: stream, phase, owner
 * (R units entries each), N and global (R units entries: the local
 * streams' ring sizes and global ids), scratch (see above).  Fills *out
 * (pointing into those arrays) and returns the number of local streams
 * S_w, or -1 for a wave outside the grid. */
int64_t pascal_workload_wave(const pascal_workload *w, int64_t R, int64_t wave,
                             const int64_t *slot_phase, int64_t *stream, int64_t *phase,
                             int64_t *owner, int64_t *N, int64_t *global, int64_t *scratch,
                             pascal_streams *out);

#ifdef __cplusplus
}
#endif

#endif
