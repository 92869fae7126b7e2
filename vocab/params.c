/* The spec vocabulary: parameter, model and column tables, and sizes with
 * units.  See params.h. */
#include "vocab/params.h"

#include "model/dynamic.h"
#include "model/phases.h"
#include "model/step.h"
#include "model/workload.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const pascal_path_names[PASCAL_PATH_COUNT] = {"sync", "tma"};
static const char *const bool_names[2] = {"false", "true"};

/* Expressions and point descriptions keep parameter sets in 64-bit masks. */
_Static_assert(PASCAL_NPARAM <= 64, "parameter masks are 64 bits wide");

#define INNER PASCAL_PF_INNER
#define POS PASCAL_PF_POSITIVE
#define NONNEG PASCAL_PF_NONNEG

const pascal_param_info pascal_params[PASCAL_NPARAM] = {
    [PASCAL_P_N] = {"N", PASCAL_T_INT, POS, "blocks", "blocks in the scanned ring"},
    [PASCAL_P_M] = {"M", PASCAL_T_INT, POS, "workers", "concurrent workers (resident CTAs)"},
    [PASCAL_P_C] = {"C", PASCAL_T_INT, POS | INNER, "blocks", "cache capacity in blocks"},
    [PASCAL_P_DATA_BYTES] = {"data_bytes", PASCAL_T_SIZE, POS, "bytes",
                             "bytes scanned per pass; N = data_bytes / block_bytes"},
    [PASCAL_P_CAPACITY_BYTES] = {"capacity_bytes", PASCAL_T_SIZE, POS | INNER, "bytes",
                                 "cache bytes; C = floor(capacity_bytes / block_bytes)"},
    [PASCAL_P_BLOCK_BYTES] = {"block_bytes", PASCAL_T_SIZE, POS, "bytes", "bytes per data block"},
    [PASCAL_P_SMS] = {"sms", PASCAL_T_INT, POS, "SMs", "streaming multiprocessors; M = sms * occupancy"},
    [PASCAL_P_OCCUPANCY] = {"occupancy", PASCAL_T_INT, POS, "CTAs/SM", "resident CTAs per SM"},
    [PASCAL_P_PATTERN] = {"pattern", PASCAL_T_PATTERN, 0, "",
                          "phase pattern: aligned, clusters, equal, uniform, gaussian, lag, explicit"},
    [PASCAL_P_CLUSTERS] = {"clusters", PASCAL_T_INT, POS, "clusters",
                           "clusters pattern: k equal clusters; worker m joins cluster m mod k"},
    [PASCAL_P_SPREAD] = {"spread", PASCAL_T_INT, NONNEG, "blocks",
                         "clusters pattern: members spread evenly over this many blocks"},
    [PASCAL_P_SIGMA] = {"sigma", PASCAL_T_REAL, NONNEG, "blocks",
                        "gaussian pattern: standard deviation of the wrapped Gaussian"},
    [PASCAL_P_LAG] = {"lag", PASCAL_T_INT, NONNEG, "blocks", "lag pattern: s_m = m * lag mod N"},
    [PASCAL_P_PHASES] = {"phases", PASCAL_T_PHASES, 0, "",
                         "explicit pattern: index of the phase list in /axes/phases"},
    [PASCAL_P_SEED] = {"seed", PASCAL_T_INT, NONNEG, "", "seed of the random patterns"},
    [PASCAL_P_ASSOC] = {"assoc", PASCAL_T_INT, POS | INNER, "ways", "SDCM associativity A (B = C lines)"},
    [PASCAL_P_HORIZON] = {"horizon", PASCAL_T_REAL, NONNEG | INNER, "rounds",
                          "finite trace length H for the residency bound (0: long run)"},
    [PASCAL_P_EPS] = {"eps", PASCAL_T_REAL, NONNEG | INNER, "blocks", "Prop. 7 gap perturbation"},
    [PASCAL_P_LEAD] = {"lead", PASCAL_T_INT, POS | INNER, "requests",
                       "Theorem 5: largest lead of any worker over another"},
    [PASCAL_P_ALPHA] = {"alpha", PASCAL_T_REAL, NONNEG | INNER, "ns", "Theorem 6: issue-to-wait cost"},
    [PASCAL_P_BETA] = {"beta", PASCAL_T_REAL, POS | INNER, "ns", "Theorem 6: release-to-refill cost"},
    [PASCAL_P_LAMBDA_HIT] = {"lambda_hit", PASCAL_T_REAL, NONNEG | INNER, "ns", "Theorem 6: hit latency"},
    [PASCAL_P_LAMBDA_MISS] = {"lambda_miss", PASCAL_T_REAL, NONNEG | INNER, "ns", "Theorem 6: miss latency"},
    [PASCAL_P_DEPTH] = {"depth", PASCAL_T_INT, POS | INNER, "buffers", "Theorem 6: pipeline depth d >= 2"},
    [PASCAL_P_ROUNDS] = {"rounds", PASCAL_T_INT, POS | INNER, "rounds",
                         "belady: rounds of the empty-cache trace (default 6 N)"},
    [PASCAL_P_PATH] = {"path", PASCAL_T_PATH, 0, "",
                       "dynamic: load path, sync (__ldcg; depth does not apply) or tma (depth = prefetch depth)"},
    [PASCAL_P_COMPUTE] = {"compute", PASCAL_T_INT, NONNEG, "ops/block", "dynamic: compute m per block"},
    [PASCAL_P_W] = {"W", PASCAL_T_REAL, POS, "scans/worker",
                    "dynamic: horizon W, CTA scans per resident worker (H = W N)"},
    [PASCAL_P_WORKLOAD] = {"workload", PASCAL_T_NAME, 0, "",
                           "workload kind (attention, gemm), set by the workload: section",
                           pascal_workload_names, PASCAL_WORKLOAD_COUNT},
    [PASCAL_P_BATCH] = {"batch", PASCAL_T_INT, POS, "sequences", "attention: batch size B"},
    [PASCAL_P_Q_HEADS] = {"q_heads", PASCAL_T_INT, POS, "heads", "attention: query heads H_q"},
    [PASCAL_P_KV_HEADS] = {"kv_heads", PASCAL_T_INT, POS, "heads",
                           "attention: KV heads H_kv (H_q for MHA, 1 for MQA, between for GQA)"},
    [PASCAL_P_SEQ_Q] = {"seq_q", PASCAL_T_INT, POS, "tokens", "attention: query sequence length L_q"},
    [PASCAL_P_SEQ_KV] = {"seq_kv", PASCAL_T_INT, POS, "tokens",
                         "attention: KV sequence length L_kv (the context length)"},
    [PASCAL_P_HEAD_DIM] = {"head_dim", PASCAL_T_INT, POS, "elements", "attention: head dimension d"},
    [PASCAL_P_DTYPE] = {"dtype", PASCAL_T_NAME, 0, "",
                        "element type (fp32, tf32, bf16, fp16, fp8, int8, fp4)",
                        pascal_dtype_names, PASCAL_DTYPE_COUNT},
    [PASCAL_P_TILE_Q] = {"tile_q", PASCAL_T_INT, POS, "rows", "attention: query tile T_q (rows per CTA)"},
    [PASCAL_P_TILE_KV] = {"tile_kv", PASCAL_T_INT, POS, "rows",
                          "attention: KV tile T_kv (key/value rows per block)"},
    [PASCAL_P_CAUSAL] = {"causal", PASCAL_T_NAME, 0, "",
                         "attention: causal mask (true, false); true has no ring model",
                         bool_names, 2},
    [PASCAL_P_GEMM_M] = {"gemm_m", PASCAL_T_INT, POS, "rows", "gemm: M, rows of A and C"},
    [PASCAL_P_GEMM_N] = {"gemm_n", PASCAL_T_INT, POS, "columns", "gemm: N, columns of B and C"},
    [PASCAL_P_GEMM_K] = {"gemm_k", PASCAL_T_INT, POS, "elements", "gemm: K, the reduction length"},
    [PASCAL_P_TILE_M] = {"tile_m", PASCAL_T_INT, POS, "rows", "gemm: output tile rows"},
    [PASCAL_P_TILE_N] = {"tile_n", PASCAL_T_INT, POS, "columns", "gemm: output tile columns"},
    [PASCAL_P_TILE_K] = {"tile_k", PASCAL_T_INT, POS, "elements", "gemm: K step per block"},
    [PASCAL_P_RASTER] = {"raster", PASCAL_T_NAME, 0, "",
                         "gemm: tile order (row, column, swizzle: groups of `swizzle` tile rows)",
                         pascal_raster_names, PASCAL_RASTER_COUNT},
    [PASCAL_P_SWIZZLE] = {"swizzle", PASCAL_T_INT, POS, "tile rows",
                          "gemm: tile rows per swizzled group (raster swizzle)"},
    [PASCAL_P_SPLIT_K] = {"split_k", PASCAL_T_INT, POS, "slices", "gemm: split-K slices"},
    [PASCAL_P_FLOPS_PER_S] = {"flops_per_s", PASCAL_T_REAL, POS, "FLOP/s",
                              "tensor throughput at the point's dtype (time columns)"},
    [PASCAL_P_L2_BYTES_PER_S] = {"l2_bytes_per_s", PASCAL_T_REAL, POS, "bytes/s",
                                 "L2 read bandwidth of the whole chip (time columns)"},
    [PASCAL_P_DRAM_BYTES_PER_S] = {"dram_bytes_per_s", PASCAL_T_REAL, POS, "bytes/s",
                                   "DRAM read bandwidth of the whole chip (time columns)"},
    [PASCAL_P_BAND_SEEDS] = {"band_seeds", PASCAL_T_INT, POS, "seeds",
                             "simulate: free-running simulations behind answer_traffic_hi, seeds "
                             "seed .. seed + band_seeds - 1"},
    [PASCAL_P_DEVICE] = {"device", PASCAL_T_NAME, 0, "",
                         "a device axis: the profiles to sweep (each as the top-level device: key "
                         "names one), each point taking its profile's sms, L2, limits, rates and "
                         "sim timing"},
    [PASCAL_P_DRAM_PJ_PER_BYTE] = {"dram_pj_per_byte", PASCAL_T_REAL, POS, "pJ/byte",
                                   "DRAM energy per byte read (energy columns)"},
    [PASCAL_P_L2_PJ_PER_BYTE] = {"l2_pj_per_byte", PASCAL_T_REAL, POS, "pJ/byte",
                                 "L2 energy per byte read by the SMs (energy columns)"},
    [PASCAL_P_L2_MM2_PER_MIB] = {"l2_mm2_per_mib", PASCAL_T_REAL, POS, "mm2/MiB",
                                 "L2 silicon area per MiB of capacity (area_l2_mm2)"},
    [PASCAL_P_THREADS] = {"threads", PASCAL_T_INT, POS, "threads",
                          "threads per CTA, checked with occupancy against the device's "
                          "limits.threads_per_sm"},
    [PASCAL_P_PHASE] = {"phase", PASCAL_T_NAME, 0, "",
                        "model: the step, decode (one new token per sequence against seq_kv "
                        "cached ones) or prefill (a causal prompt of seq_kv tokens)",
                        pascal_phase_names, PASCAL_PHASE_COUNT},
    [PASCAL_P_LAYERS] = {"layers", PASCAL_T_INT, POS, "layers",
                         "model: decoder layers (config.json num_hidden_layers)"},
    [PASCAL_P_HIDDEN] = {"hidden", PASCAL_T_INT, POS, "elements",
                         "model: hidden size (config.json hidden_size)"},
    [PASCAL_P_INTERMEDIATE] = {"intermediate", PASCAL_T_INT, POS, "elements",
                               "model: MLP intermediate size (config.json intermediate_size)"},
    [PASCAL_P_VOCAB] = {"vocab", PASCAL_T_INT, POS, "tokens",
                        "model: vocabulary size, the LM head's N (config.json vocab_size)"},
    [PASCAL_P_KERNEL] = {"kernel", PASCAL_T_NAME, 0, "",
                         "the kernel whose launch is modelled (model: pascal's model kernel; "
                         "flash-attn-2: FlashAttention-2's forward grid, GQA decode fold and "
                         "split-KV; cutlass: CUTLASS's GemmIdentityThreadblockSwizzle<swizzle>; "
                         "flash-attn-3: FlashAttention-3's persistent tile schedulers; flashinfer: "
                         "FlashInfer's batch decode and its partition-kv plan; cutlass-3: CUTLASS "
                         "3's persistent Hopper scheduler; cutlass-streamk: CUTLASS 2.x stream-K "
                         "from sms and occupancy)",
                         pascal_kernel_names, PASCAL_KERNEL_COUNT},
    [PASCAL_P_NUM_SPLITS] = {"num_splits", PASCAL_T_INT, NONNEG, "splits",
                             "attention, kernel flash-attn-2: KV splits; 0 takes the library's "
                             "num_splits_heuristic on the point's sms, as mha_fwd does"},
};

#define END -1
const pascal_model_info pascal_models[PASCAL_NMODEL] = {
    [PASCAL_MODEL_TTL] = {"ttl", "slotted TTL / working set, Theorem 2", {END}},
    [PASCAL_MODEL_LRU_BAND] = {"lru_band", "Theorem 3 LRU certificate (D <= C)", {END}},
    [PASCAL_MODEL_LRU] = {"lru", "exact fully associative LRU from symbolic reuse distances (eq. 15)", {END}},
    [PASCAL_MODEL_SDCM] = {"sdcm", "SDCM (eq. 6), A ways, B = C lines", {PASCAL_P_ASSOC, END}},
    [PASCAL_MODEL_RESIDENCY] = {"residency", "Theorem 4 policy-independent residency bound", {END}},
    [PASCAL_MODEL_CHE] = {"che", "Che / IRM phase-blind baseline", {END}},
    [PASCAL_MODEL_MARGIN] = {"margin", "Proposition 7 gap-margin count", {PASCAL_P_EPS, END}},
    [PASCAL_MODEL_SHARING] = {"sharing", "Theorem 5 capacity to preserve sharing", {PASCAL_P_LEAD, END}},
    [PASCAL_MODEL_CATCHUP] = {"catchup", "Theorem 6 catch-up limit",
                              {PASCAL_P_ALPHA, PASCAL_P_BETA, PASCAL_P_LAMBDA_HIT,
                               PASCAL_P_LAMBDA_MISS, PASCAL_P_DEPTH, END}},
    [PASCAL_MODEL_LRU_REPLAY] = {"lru_replay", "exact LRU by trace replay after N warm-up rounds (cross-check of lru)", {END}},
    [PASCAL_MODEL_BELADY] = {"belady", "Belady/OPT replay of the empty-cache trace of `rounds` rounds (default 6N)", {END}},
    [PASCAL_MODEL_DYNAMIC] = {"dynamic", "section 4 calibrated whole-run fills (spec key `calibration`)",
                              {PASCAL_P_OCCUPANCY, PASCAL_P_PATH, PASCAL_P_COMPUTE, PASCAL_P_W, END}},
    [PASCAL_MODEL_WORKLOAD] = {"workload", "a workload's streams, grid, waves and ideal traffic",
                               {PASCAL_P_WORKLOAD, END}},
    [PASCAL_MODEL_TRAFFIC] = {"traffic", "a workload's DRAM fill bytes over its waves, and their ratio to ideal",
                              {PASCAL_P_WORKLOAD, END}},
    [PASCAL_MODEL_SIMULATE] = {"simulate", "progress simulator: the open scan on the device profile's "
                               "timing (slow; docs/simulate.md)",
                               {PASCAL_P_OCCUPANCY, PASCAL_P_PATH, PASCAL_P_COMPUTE, PASCAL_P_W, END}},
    [PASCAL_MODEL_STEP] = {"step", "a whole model step (the model: section): tokens, tokens/s bound, "
                           "per-token and per-sequence bytes and energy, each kernel's fills",
                           {PASCAL_P_PHASE, END}},
};

const pascal_column_info pascal_columns[PASCAL_NCOLUMN] = {
    [PASCAL_COL_D] = {"D", PASCAL_MODEL_TTL, "phases", "distinct phases"},
    [PASCAL_COL_THETA] = {"theta", PASCAL_MODEL_TTL, "rounds",
                          "water-filling root U(theta) = C (eq. 3); NaN when C >= N"},
    [PASCAL_COL_T_STAR] = {"T_star", PASCAL_MODEL_TTL, "rounds", "floor(theta); NaN when C >= N"},
    [PASCAL_COL_K_TTL] = {"K_ttl", PASCAL_MODEL_TTL, "misses/round",
                          "slotted-TTL misses per round K(T*) (Theorem 2)"},
    [PASCAL_COL_RHO_TTL] = {"rho_ttl", PASCAL_MODEL_TTL, "misses/request", "K_ttl / M"},
    [PASCAL_COL_K_LRU_LO] = {"K_lru_lo", PASCAL_MODEL_LRU_BAND, "misses/round",
                             "Theorem 3 lower bound K(T*+1) on LRU misses; NaN when D > C"},
    [PASCAL_COL_K_LRU_HI] = {"K_lru_hi", PASCAL_MODEL_LRU_BAND, "misses/round",
                             "Theorem 3 upper bound K(T*-1) on LRU misses; NaN when D > C"},
    [PASCAL_COL_K_LRU] = {"K_lru", PASCAL_MODEL_LRU, "misses/round",
                          "exact steady-state fully associative LRU misses per round"},
    [PASCAL_COL_RHO_LRU] = {"rho_lru", PASCAL_MODEL_LRU, "misses/request", "K_lru / M"},
    [PASCAL_COL_K_SDCM] = {"K_sdcm", PASCAL_MODEL_SDCM, "misses/round",
                           "SDCM expected misses per round, A ways, B = C lines"},
    [PASCAL_COL_RHO_SDCM] = {"rho_sdcm", PASCAL_MODEL_SDCM, "misses/request", "K_sdcm / M"},
    [PASCAL_COL_V] = {"V", PASCAL_MODEL_RESIDENCY, "requests/round",
                      "residency budget V(C): most reuse intervals C blocks can hold (Theorem 4)"},
    [PASCAL_COL_K_BOUND] = {"K_bound", PASCAL_MODEL_RESIDENCY, "misses/round",
                            "M - V(C) (minus N/H for a finite horizon): no policy misses less"},
    [PASCAL_COL_RHO_BOUND] = {"rho_bound", PASCAL_MODEL_RESIDENCY, "misses/request", "K_bound / M"},
    [PASCAL_COL_RHO_CHE] = {"rho_che", PASCAL_MODEL_CHE, "misses/request",
                            "Che/IRM baseline miss rate 1 - C/N (phase-blind)"},
    [PASCAL_COL_K_CHE] = {"K_che", PASCAL_MODEL_CHE, "misses/round", "M * rho_che"},
    [PASCAL_COL_MARGIN] = {"margin", PASCAL_MODEL_MARGIN, "gaps",
                           "gaps within (D+1) eps of theta (Prop. 7): most K_ttl can change"},
    [PASCAL_COL_C_SHARE] = {"C_share", PASCAL_MODEL_SHARING, "blocks",
                            "capacity 2 lead - 1 that preserves all sharing (Theorem 5)"},
    [PASCAL_COL_SHARES] = {"shares", PASCAL_MODEL_SHARING, "bool",
                           "1 when C >= 2 lead - 1 (sharing guaranteed), else 0"},
    [PASCAL_COL_P_HIT] = {"P_hit", PASCAL_MODEL_CATCHUP, "time/request",
                          "Theorem 6 issue period P_d(lambda_hit)"},
    [PASCAL_COL_P_MISS] = {"P_miss", PASCAL_MODEL_CATCHUP, "time/request",
                           "Theorem 6 issue period P_d(lambda_miss)"},
    [PASCAL_COL_G] = {"G", PASCAL_MODEL_CATCHUP, "time/request",
                      "eq. 13: most time per request that hits can save"},
    [PASCAL_COL_K_LRU_REPLAY] = {"K_lru_replay", PASCAL_MODEL_LRU_REPLAY, "misses/round",
                                 "exact LRU replay: misses in round N after N warm-up rounds"},
    [PASCAL_COL_RHO_LRU_REPLAY] = {"rho_lru_replay", PASCAL_MODEL_LRU_REPLAY, "misses/request",
                                   "K_lru_replay / M"},
    [PASCAL_COL_K_BELADY] = {"K_belady", PASCAL_MODEL_BELADY, "misses/round",
                             "Belady misses on the empty-cache trace of `rounds` rounds, cold ones included, per round"},
    [PASCAL_COL_RHO_BELADY] = {"rho_belady", PASCAL_MODEL_BELADY, "misses/request", "K_belady / M"},
    [PASCAL_COL_K_DYN] = {"K_dyn", PASCAL_MODEL_DYNAMIC, "fills/work",
                          "section 4 whole-run fill count K_H = A(H)/H; NaN when unsupported (see fallback)"},
    [PASCAL_COL_RHO_DYN] = {"rho_dyn", PASCAL_MODEL_DYNAMIC, "misses/request", "K_dyn / M"},
    [PASCAL_COL_BAND_LO] = {"band_lo", PASCAL_MODEL_DYNAMIC, "misses/request",
                            "K_dyn e^-r / M, r the out-of-fold 90th-percentile log error"},
    [PASCAL_COL_BAND_HI] = {"band_hi", PASCAL_MODEL_DYNAMIC, "misses/request", "min(M, K_dyn e^r) / M"},
    [PASCAL_COL_FALLBACK] = {"fallback", PASCAL_MODEL_DYNAMIC, "code",
                             "rule: 0 same-class bracket (eq. 24), 1 reference key, 2 nearest same-class "
                             "compute, 3 across depth, 4 nearest same-class compute across a regime "
                             "(band widened); K_dyn NaN: 10 unsupported (occupancy, path), "
                             "11 unsampled class (Prop. 8), 12 invalid point, 13 device differs from "
                             "the calibration, 14 a workload point the dynamic model does not cover "
                             "(docs/workloads.md), 15 outside the calibrated range with extrapolation: "
                             "nan, 16 capacity outside a calibration over several"},
    [PASCAL_COL_STREAMS] = {"streams", PASCAL_MODEL_WORKLOAD, "streams",
                            "streams of unit blocks: K and V of every KV head; A and B panels "
                            "in units of gcd(tile_m, tile_n), per split"},
    [PASCAL_COL_UNITS] = {"units", PASCAL_MODEL_WORKLOAD, "requests/CTA",
                          "block requests per CTA per round (2: K, V; GEMM: (tile_m + tile_n) / gcd)"},
    [PASCAL_COL_CTAS] = {"ctas", PASCAL_MODEL_WORKLOAD, "CTAs", "CTAs in the grid"},
    [PASCAL_COL_SHARERS_A] = {"sharers_a", PASCAL_MODEL_WORKLOAD, "CTAs",
                              "CTAs reading each K/V stream (attention) or A panel (GEMM)"},
    [PASCAL_COL_SHARERS_B] = {"sharers_b", PASCAL_MODEL_WORKLOAD, "CTAs",
                              "CTAs reading each B panel (GEMM; attention: as sharers_a)"},
    [PASCAL_COL_WAVES] = {"waves", PASCAL_MODEL_WORKLOAD, "waves", "ceil(ctas / M), M resident CTAs"},
    [PASCAL_COL_REQUESTS] = {"requests", PASCAL_MODEL_WORKLOAD, "requests",
                             "block requests in the whole kernel"},
    [PASCAL_COL_IDEAL_BYTES] = {"ideal_bytes", PASCAL_MODEL_WORKLOAD, "bytes",
                                "ideal DRAM traffic: every block of every stream fetched once"},
    [PASCAL_COL_TENSOR_BYTES] = {"tensor_bytes", PASCAL_MODEL_WORKLOAD, "bytes",
                                 "the shared operands' exact size (no tile padding)"},
    [PASCAL_COL_FILL_BYTES_LRU] = {"fill_bytes_lru", PASCAL_MODEL_TRAFFIC, "bytes",
                                   "DRAM fills of exact LRU over the kernel's waves (per-wave steady "
                                   "state, every new stream's blocks at least once)"},
    [PASCAL_COL_TRAFFIC_LRU] = {"traffic_lru", PASCAL_MODEL_TRAFFIC, "x ideal", "fill_bytes_lru / ideal_bytes"},
    [PASCAL_COL_FILL_BYTES_TTL] = {"fill_bytes_ttl", PASCAL_MODEL_TRAFFIC, "bytes",
                                   "DRAM fills of the Theorem 2 TTL cache over the kernel's waves"},
    [PASCAL_COL_TRAFFIC_TTL] = {"traffic_ttl", PASCAL_MODEL_TRAFFIC, "x ideal", "fill_bytes_ttl / ideal_bytes"},
    [PASCAL_COL_FILL_BYTES_BOUND] = {"fill_bytes_bound", PASCAL_MODEL_TRAFFIC, "bytes",
                                     "floor on the fills of any demand-paging policy, Belady included (first reads, and Theorem 4 per wave less what the cache may hold at its start; docs/workloads.md section 3)"},
    [PASCAL_COL_TRAFFIC_BOUND] = {"traffic_bound", PASCAL_MODEL_TRAFFIC, "x ideal",
                                  "fill_bytes_bound / ideal_bytes"},
    [PASCAL_COL_FILL_BYTES_DYN] = {"fill_bytes_dyn", PASCAL_MODEL_TRAFFIC, "bytes",
                                   "dynamic model over the kernel's real horizon, where it applies "
                                   "(with model dynamic; docs/workloads.md), else NaN"},
    [PASCAL_COL_TRAFFIC_DYN] = {"traffic_dyn", PASCAL_MODEL_TRAFFIC, "x ideal", "fill_bytes_dyn / ideal_bytes"},
    [PASCAL_COL_FILL_BYTES_REPLAY] = {"fill_bytes_replay", PASCAL_MODEL_TRAFFIC, "bytes",
                                      "exact LRU replay of the whole kernel's trace, wave after wave "
                                      "(with model lru_replay), else NaN"},
    [PASCAL_COL_TRAFFIC_REPLAY] = {"traffic_replay", PASCAL_MODEL_TRAFFIC, "x ideal",
                                   "fill_bytes_replay / ideal_bytes"},
    [PASCAL_COL_CLAMP_X] = {"clamp_x", PASCAL_MODEL_DYNAMIC, "work",
                            "nearest calibrated work x = W N / 4096 where the horizon lies outside the "
                            "references and the endpoint value is held (eq. 19); NaN inside"},
    [PASCAL_COL_CLAMP_COMPUTE] = {"clamp_compute", PASCAL_MODEL_DYNAMIC, "ops/block",
                                  "nearest same-class reference compute the answer is held at (rule 2); "
                                  "NaN when the compute is bracketed"},
    [PASCAL_COL_CLAMP_DEPTH] = {"clamp_depth", PASCAL_MODEL_DYNAMIC, "buffers",
                                "nearest reference depth the answer is held at (rule 3 with one side); "
                                "NaN when the depth is bracketed or referenced"},
    [PASCAL_COL_K_SIM] = {"K_sim", PASCAL_MODEL_SIMULATE, "fills/work",
                          "simulated whole-run fill count K_H = A(H)/H of the open scan; NaN outside "
                          "the simulator's range"},
    [PASCAL_COL_RHO_SIM] = {"rho_sim", PASCAL_MODEL_SIMULATE, "misses/request", "K_sim / M"},
    [PASCAL_COL_NS_PER_ROUND_SIM] = {"ns_per_round_sim", PASCAL_MODEL_SIMULATE, "ns/round",
                                     "simulated run time per round of work (makespan / W N)"},
    [PASCAL_COL_FILL_BYTES_SIM] = {"fill_bytes_sim", PASCAL_MODEL_TRAFFIC, "bytes",
                                   "DRAM fills of the progress simulator over the kernel's CTAs, "
                                   "every wave (with model simulate; docs/workloads.md), else NaN"},
    [PASCAL_COL_TRAFFIC_SIM] = {"traffic_sim", PASCAL_MODEL_TRAFFIC, "x ideal",
                                "fill_bytes_sim / ideal_bytes"},
    [PASCAL_COL_ANSWER_FILL_BYTES] = {"answer_fill_bytes", PASCAL_MODEL_TRAFFIC, "bytes",
                                      "the point's answer: the fills of the most faithful model "
                                      "present, the simulator, else the exact replay, else the "
                                      "estimate (answer_source says which)"},
    [PASCAL_COL_ANSWER_TRAFFIC] = {"answer_traffic", PASCAL_MODEL_TRAFFIC, "x ideal",
                                   "answer_fill_bytes / ideal_bytes: what the run summary, report, "
                                   "size and info size on"},
    [PASCAL_COL_ANSWER_SOURCE] = {"answer_source", PASCAL_MODEL_TRAFFIC, "code",
                                  "who answered: 1 simulate (fill_bytes_sim), 2 lru_replay "
                                  "(fill_bytes_replay), 3 estimate (fill_bytes_lru)"},
    [PASCAL_COL_FILL_BYTES_REPLAY_ANY] = {"fill_bytes_replay_any", PASCAL_MODEL_TRAFFIC, "bytes",
                                          "the exact replay with each lock-step round's CTAs in a "
                                          "random order (drawn from seed): what arrival order within "
                                          "a round costs (with model lru_replay), else NaN"},
    [PASCAL_COL_TRAFFIC_REPLAY_ANY] = {"traffic_replay_any", PASCAL_MODEL_TRAFFIC, "x ideal",
                                       "fill_bytes_replay_any / ideal_bytes"},
    [PASCAL_COL_FLOPS] = {"flops", PASCAL_MODEL_TRAFFIC, "FLOP",
                          "the kernel's useful FLOPs: attention 4 B H_q d x the visible (query, key) "
                          "pairs, GEMM 2 M N K"},
    [PASCAL_COL_TIME_COMPUTE_S] = {"time_compute_s", PASCAL_MODEL_TRAFFIC, "s",
                                   "flops / flops_per_s: the compute floor"},
    [PASCAL_COL_TIME_L2_S] = {"time_l2_s", PASCAL_MODEL_TRAFFIC, "s",
                              "requests x block_bytes / l2_bytes_per_s: the L2 floor"},
    [PASCAL_COL_TIME_DRAM_S] = {"time_dram_s", PASCAL_MODEL_TRAFFIC, "s",
                                "answer_fill_bytes / dram_bytes_per_s: the DRAM floor"},
    [PASCAL_COL_TIME_BOUND_S] = {"time_bound_s", PASCAL_MODEL_TRAFFIC, "s",
                                 "the largest of the three floors: no kernel runs faster (roofline)"},
    [PASCAL_COL_BOUND_TERM] = {"bound_term", PASCAL_MODEL_TRAFFIC, "code",
                               "which floor binds: 1 compute, 2 L2, 3 DRAM"},
    [PASCAL_COL_ANSWER_TRAFFIC_LO] = {"answer_traffic_lo", PASCAL_MODEL_TRAFFIC, "x ideal",
                                      "the band's low end: the lock-step kernel (traffic_replay, "
                                      "else traffic_lru), or the answer where that is lower"},
    [PASCAL_COL_ANSWER_TRAFFIC_HI] = {"answer_traffic_hi", PASCAL_MODEL_TRAFFIC, "x ideal",
                                      "the band's high end: the 90th percentile of traffic_sim over "
                                      "band_seeds free-running simulations, or the answer where "
                                      "that is higher (with model simulate), else NaN"},
    [PASCAL_COL_TIME_SIM_S] = {"time_sim_s", PASCAL_MODEL_TRAFFIC, "s",
                               "the simulator's makespan of the whole kernel, beside time_bound_s "
                               "(with model simulate), else NaN"},
    [PASCAL_COL_ENERGY_DRAM_J] = {"energy_dram_j", PASCAL_MODEL_TRAFFIC, "J",
                                  "answer_fill_bytes x dram_pj_per_byte: the DRAM reads' energy"},
    [PASCAL_COL_ENERGY_L2_J] = {"energy_l2_j", PASCAL_MODEL_TRAFFIC, "J",
                                "requests x block_bytes x l2_pj_per_byte: the L2 reads' energy"},
    [PASCAL_COL_ENERGY_J] = {"energy_j", PASCAL_MODEL_TRAFFIC, "J",
                             "energy_dram_j + energy_l2_j: the memory reads' energy (no compute)"},
    [PASCAL_COL_AREA_L2_MM2] = {"area_l2_mm2", PASCAL_MODEL_TRAFFIC, "mm2",
                                "the capacity's silicon area: C x block_bytes / MiB x l2_mm2_per_mib"},
    [PASCAL_COL_KV_SPLITS] = {"kv_splits", PASCAL_MODEL_WORKLOAD, "splits",
                              "attention: KV splits the kernel launches (flash-attn-2's num_splits; "
                              "1 without a split)"},
    [PASCAL_COL_PARTIAL_BYTES] = {"partial_bytes", PASCAL_MODEL_WORKLOAD, "bytes",
                                  "attention, split-KV: fp32 partial outputs and log-sum-exps the "
                                  "split kernel writes and its combine kernel reads back; 0 "
                                  "without a split"},
    [PASCAL_COL_FILL_BYTES_EXACT] = {"fill_bytes_exact", PASCAL_MODEL_TRAFFIC, "bytes",
                                     "DRAM fills of the sector-exact replay: every tile at its stored "
                                     "bytes (partial tiles too), each CTA's Q read and output written, "
                                     "through LRU of capacity_bytes (with model lru_replay)"},
    [PASCAL_COL_TRAFFIC_EXACT] = {"traffic_exact", PASCAL_MODEL_TRAFFIC, "x ideal",
                                  "fill_bytes_exact / ideal_bytes_exact"},
    [PASCAL_COL_IDEAL_BYTES_EXACT] = {"ideal_bytes_exact", PASCAL_MODEL_TRAFFIC, "bytes",
                                      "every byte the kernel reads (K, V and Q; A and B), once, in "
                                      "whole sectors (with model lru_replay)"},
    [PASCAL_COL_WRITE_BYTES_EXACT] = {"write_bytes_exact", PASCAL_MODEL_TRAFFIC, "bytes",
                                      "the output tiles the CTAs write (O, split-KV partials, C), in "
                                      "whole sectors (with model lru_replay)"},
    [PASCAL_COL_STEP_TOKENS] = {"step_tokens", PASCAL_MODEL_STEP, "tokens",
                                "tokens the step computes: batch (decode), batch x seq_kv (prefill)"},
    [PASCAL_COL_TOKENS_PER_S_BOUND] = {"tokens_per_s_bound", PASCAL_MODEL_STEP, "tokens/s",
                                       "step_tokens / time_bound_s: no faster on this device "
                                       "(kernels one after another, each at its floor)"},
    [PASCAL_COL_FILL_BYTES_PER_TOKEN] = {"fill_bytes_per_token", PASCAL_MODEL_STEP, "bytes",
                                         "answer_fill_bytes / step_tokens"},
    [PASCAL_COL_ENERGY_PER_TOKEN_J] = {"energy_per_token_j", PASCAL_MODEL_STEP, "J",
                                       "energy_j / step_tokens"},
    [PASCAL_COL_FILL_BYTES_PER_SEQUENCE] = {"fill_bytes_per_sequence", PASCAL_MODEL_STEP, "bytes",
                                            "answer_fill_bytes / batch: one sequence's share "
                                            "(decode: of one token; prefill: of its prompt)"},
    [PASCAL_COL_ENERGY_PER_SEQUENCE_J] = {"energy_per_sequence_j", PASCAL_MODEL_STEP, "J",
                                          "energy_j / batch"},
    [PASCAL_COL_FILL_BYTES_QKV_PROJ] = {"fill_bytes_qkv_proj", PASCAL_MODEL_STEP, "bytes",
                                        "the QKV projections' answer_fill_bytes, all layers"},
    [PASCAL_COL_FILL_BYTES_ATTENTION] = {"fill_bytes_attention", PASCAL_MODEL_STEP, "bytes",
                                         "attention's answer_fill_bytes, all layers"},
    [PASCAL_COL_FILL_BYTES_O_PROJ] = {"fill_bytes_o_proj", PASCAL_MODEL_STEP, "bytes",
                                      "the output projections' answer_fill_bytes, all layers"},
    [PASCAL_COL_FILL_BYTES_GATE_UP_PROJ] = {"fill_bytes_gate_up_proj", PASCAL_MODEL_STEP, "bytes",
                                            "the gate/up GEMMs' answer_fill_bytes, all layers"},
    [PASCAL_COL_FILL_BYTES_DOWN_PROJ] = {"fill_bytes_down_proj", PASCAL_MODEL_STEP, "bytes",
                                         "the down GEMMs' answer_fill_bytes, all layers"},
    [PASCAL_COL_FILL_BYTES_LM_HEAD] = {"fill_bytes_lm_head", PASCAL_MODEL_STEP, "bytes",
                                       "the LM head's answer_fill_bytes"},
    [PASCAL_COL_FILL_BYTES_CHAINED] = {"fill_bytes_chained", PASCAL_MODEL_STEP, "bytes",
                                       "the step's kernels replayed as one program in bytes through "
                                       "one LRU of capacity_bytes, the activations one kernel writes "
                                       "read by the next (with model lru_replay; NaN past a layer's "
                                       "distinct bytes)"},
    [PASCAL_COL_TRAFFIC_CHAINED] = {"traffic_chained", PASCAL_MODEL_STEP, "x ideal",
                                    "fill_bytes_chained / ideal_bytes_exact"},
    [PASCAL_COL_REUSE_BYTES] = {"reuse_bytes", PASCAL_MODEL_STEP, "bytes",
                                "fill_bytes_exact - fill_bytes_chained: the fills that reuse "
                                "across kernels saves"},
};

int pascal_step_column(int col)
{
    if (col < 0 || col >= PASCAL_NCOLUMN)
        return 0;
    if (pascal_columns[col].model == PASCAL_MODEL_STEP)
        return 1;
    switch (col) {
    case PASCAL_COL_FILL_BYTES_LRU: case PASCAL_COL_TRAFFIC_LRU:
    case PASCAL_COL_FILL_BYTES_REPLAY: case PASCAL_COL_TRAFFIC_REPLAY:
    case PASCAL_COL_FILL_BYTES_REPLAY_ANY: case PASCAL_COL_TRAFFIC_REPLAY_ANY:
    case PASCAL_COL_ANSWER_FILL_BYTES: case PASCAL_COL_ANSWER_TRAFFIC: case PASCAL_COL_ANSWER_SOURCE:
    case PASCAL_COL_FLOPS: case PASCAL_COL_TIME_COMPUTE_S: case PASCAL_COL_TIME_L2_S:
    case PASCAL_COL_TIME_DRAM_S: case PASCAL_COL_TIME_BOUND_S: case PASCAL_COL_BOUND_TERM:
    case PASCAL_COL_ENERGY_DRAM_J: case PASCAL_COL_ENERGY_L2_J: case PASCAL_COL_ENERGY_J:
    case PASCAL_COL_AREA_L2_MM2:
    case PASCAL_COL_FILL_BYTES_EXACT: case PASCAL_COL_TRAFFIC_EXACT:
    case PASCAL_COL_IDEAL_BYTES_EXACT: case PASCAL_COL_WRITE_BYTES_EXACT:
        return 1;
    default:
        return 0;
    }
}

const char *const pascal_answer_names[PASCAL_ANSWER_COUNT] = {"", "simulate", "lru_replay",
                                                              "estimate"};
const int pascal_answer_columns[PASCAL_ANSWER_COUNT] = {-1, PASCAL_COL_FILL_BYTES_SIM,
                                                        PASCAL_COL_FILL_BYTES_REPLAY,
                                                        PASCAL_COL_FILL_BYTES_LRU};

int pascal_answer_of_models(unsigned models)
{
    if (!(models >> PASCAL_MODEL_TRAFFIC & 1u))
        return 0;
    if (models >> PASCAL_MODEL_SIMULATE & 1u)
        return PASCAL_ANSWER_SIMULATE;
    if (models >> PASCAL_MODEL_LRU_REPLAY & 1u)
        return PASCAL_ANSWER_REPLAY;
    return PASCAL_ANSWER_ESTIMATE;
}

int pascal_answer_describe(unsigned models, char *buf, size_t len)
{
    int first = pascal_answer_of_models(models);
    size_t off = 0;
    if (len)
        buf[0] = '\0';
    for (int a = first ? first : PASCAL_ANSWER_COUNT; a < PASCAL_ANSWER_COUNT && off < len; a++)
        if (a == first || a == PASCAL_ANSWER_ESTIMATE ||
            (a == PASCAL_ANSWER_REPLAY && (models >> PASCAL_MODEL_LRU_REPLAY & 1u)))
            off += (size_t)snprintf(buf + off, len - off, "%s%s (%s)", off ? ", else " : "",
                                    pascal_answer_names[a],
                                    pascal_columns[pascal_answer_columns[a]].name);
    return first;
}

static int find_name(const char *name, const void *table, int n, size_t stride)
{
    for (int i = 0; i < n; i++) {
        const char *const *entry = (const char *const *)((const char *)table + (size_t)i * stride);
        if (strcmp(*entry, name) == 0)
            return i;
    }
    return -1;
}

const char *const *pascal_param_labels(int param, int *n)
{
    *n = 0;
    if (param < 0 || param >= PASCAL_NPARAM)
        return NULL;
    switch (pascal_params[param].type) {
    case PASCAL_T_PATTERN:
        *n = PASCAL_PATTERN_COUNT;
        return pascal_pattern_names;
    case PASCAL_T_PATH:
        *n = PASCAL_PATH_COUNT;
        return pascal_path_names;
    case PASCAL_T_NAME:
        *n = pascal_params[param].nlabels;
        return pascal_params[param].labels;
    default:
        return NULL;
    }
}

int pascal_param_from_name(const char *name)
{
    return find_name(name, pascal_params, PASCAL_NPARAM, sizeof pascal_params[0]);
}

int pascal_model_from_name(const char *name)
{
    return find_name(name, pascal_models, PASCAL_NMODEL, sizeof pascal_models[0]);
}

int pascal_column_from_name(const char *name)
{
    return find_name(name, pascal_columns, PASCAL_NCOLUMN, sizeof pascal_columns[0]);
}

static const struct {
    const char *suffix;
    unsigned base, power; /* factor base^power */
} units[] = {
    {"B", 1, 0},
    {"KiB", 1024, 1}, {"MiB", 1024, 2}, {"GiB", 1024, 3}, {"TiB", 1024, 4},
    {"kB", 1000, 1}, {"KB", 1000, 1}, {"MB", 1000, 2}, {"GB", 1000, 3}, {"TB", 1000, 4},
};

#define MAX_DIGITS 30 /* significant digits of a size's number */
#define TWO53 ((unsigned __int128)1 << 53)

typedef unsigned __int128 u128;

/* v *= k, or 1 on overflow. */
static int mul(u128 *v, u128 k)
{
    if (k && *v > ~(u128)0 / k)
        return 1;
    *v *= k;
    return 0;
}

/* [digits][.digits][e[+-]digits] into digits D and a power of ten E, so
 * that the number is D 10^E exactly; *end after it.  0, or BAD. */
static int read_decimal(const char *s, u128 *D, long *E, const char **end)
{
    int sig = 0, any = 0, dot = 0;
    long fd = 0, ex = 0, exsign = 1;
    *D = 0;
    for (;; s++) {
        if (*s == '.' && !dot) {
            dot = 1;
            continue;
        }
        if (!isdigit((unsigned char)*s))
            break;
        any = 1;
        if ((*D || *s != '0') && ++sig > MAX_DIGITS)
            return PASCAL_SIZE_BAD;
        *D = *D * 10 + (unsigned)(*s - '0');
        fd += dot;
    }
    if (!any)
        return PASCAL_SIZE_BAD;
    if (*s == 'e' || *s == 'E') {
        const char *e = s + 1;
        if (*e == '+' || *e == '-')
            exsign = *e++ == '-' ? -1 : 1;
        if (!isdigit((unsigned char)*e))
            return PASCAL_SIZE_BAD;
        for (; isdigit((unsigned char)*e); e++)
            if (ex < 100000)
                ex = ex * 10 + (*e - '0');
        s = e;
    }
    *E = exsign * ex - fd;
    *end = s;
    return 0;
}

/* Exact: bytes = D 10^E base^power, a whole number from 1 to 2^53. */
int pascal_size_parse(const char *text, double *bytes)
{
    const char *end;
    u128 D, v;
    long E;
    size_t i, n = sizeof units / sizeof units[0];
    if (!text)
        return PASCAL_SIZE_BAD;
    while (isspace((unsigned char)*text))
        text++;
    /* No sign, no "inf" or "nan", no hexadecimal (0x10, 0x1p4). */
    if ((!isdigit((unsigned char)*text) && *text != '.') ||
        (text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) || read_decimal(text, &D, &E, &end))
        return PASCAL_SIZE_BAD;
    while (isspace((unsigned char)*end))
        end++;
    for (i = 0; *end && i < n; i++)
        if (strcmp(end, units[i].suffix) == 0)
            break;
    if (*end && i == n)
        return PASCAL_SIZE_UNIT;
    if (D == 0)
        return PASCAL_SIZE_BAD; /* not positive */
    v = D;
    for (unsigned k = 0; *end && k < units[i].power; k++)
        if (mul(&v, units[i].base))
            return PASCAL_SIZE_BIG;
    for (; E > 0; E--)
        if (mul(&v, 10) || v > TWO53)
            return PASCAL_SIZE_BIG;
    for (; E < 0; E++) {
        if (v % 10)
            return PASCAL_SIZE_FRACTION;
        v /= 10;
    }
    if (v > TWO53)
        return PASCAL_SIZE_BIG;
    *bytes = (double)v;
    return 0;
}

void pascal_size_explain(int code, const char *text, char *buf, int len)
{
    const char *u = text;
    if (!buf || len < 1)
        return;
    buf[0] = 0;
    while (u && isspace((unsigned char)*u))
        u++;
    switch (code) {
    case PASCAL_SIZE_UNIT:
        while (*u && (isdigit((unsigned char)*u) || *u == '.' ||
                      ((*u == 'e' || *u == 'E') && (isdigit((unsigned char)u[1]) || u[1] == '-' || u[1] == '+')) ||
                      ((*u == '-' || *u == '+') && (u[-1] == 'e' || u[-1] == 'E'))))
            u++;
        while (isspace((unsigned char)*u))
            u++;
        snprintf(buf, (size_t)len, "unknown unit \"%s\" (units: %s)", u, PASCAL_SIZE_UNITS);
        break;
    case PASCAL_SIZE_BIG:
        snprintf(buf, (size_t)len, "more than 2^53 = 9007199254740992 bytes, the largest size held exactly");
        break;
    case PASCAL_SIZE_FRACTION:
        snprintf(buf, (size_t)len, "not a whole number of bytes");
        break;
    default:
        if (u && u[0] == '0' && (u[1] == 'x' || u[1] == 'X'))
            snprintf(buf, (size_t)len, "hexadecimal is not accepted");
        break;
    }
}

void pascal_size_format(double bytes, char *buf, int len)
{
    static const char *names[] = {"TiB", "GiB", "MiB", "KiB"};
    static const double factors[] = {1099511627776.0, 1073741824.0, 1048576.0, 1024.0};
    for (int i = 0; i < 4; i++) {
        if (bytes >= factors[i] && fmod(bytes, factors[i]) == 0) {
            snprintf(buf, (size_t)len, "%.0f%s", bytes / factors[i], names[i]);
            return;
        }
    }
    snprintf(buf, (size_t)len, "%.0fB", bytes);
}

/* ---- discovery: paper references and defaults (params.h) ---------------- */

const char *const pascal_param_refs[PASCAL_NPARAM] = {
    [PASCAL_P_N] = "section 3.1 (ring Z_N)",
    [PASCAL_P_M] = "section 3.1 (M streams)",
    [PASCAL_P_C] = "section 3.1 (capacity in blocks)",
    [PASCAL_P_DATA_BYTES] = "",
    [PASCAL_P_CAPACITY_BYTES] = "section 5.1 (effective L2, Figure 2)",
    [PASCAL_P_BLOCK_BYTES] = "section 5.1 (16 KiB blocks)",
    [PASCAL_P_SMS] = "section 5.1 (48 SMs on GB10)",
    [PASCAL_P_OCCUPANCY] = "section 4 (configuration key o)",
    [PASCAL_P_PATTERN] = "section 5.2",
    [PASCAL_P_CLUSTERS] = "section 5.2 (cluster sweep)",
    [PASCAL_P_SPREAD] = "",
    [PASCAL_P_SIGMA] = "section 5.2 (wrapped Gaussian)",
    [PASCAL_P_LAG] = "section 3.1 (leader at lag g)",
    [PASCAL_P_PHASES] = "section 3.1 (phases s_m)",
    [PASCAL_P_SEED] = "",
    [PASCAL_P_ASSOC] = "eq. 6 (SDCM)",
    [PASCAL_P_HORIZON] = "Theorem 4 (finite trace)",
    [PASCAL_P_EPS] = "Prop. 7",
    [PASCAL_P_LEAD] = "Theorem 5 (sigma)",
    [PASCAL_P_ALPHA] = "Theorem 6",
    [PASCAL_P_BETA] = "Theorem 6",
    [PASCAL_P_LAMBDA_HIT] = "Theorem 6",
    [PASCAL_P_LAMBDA_MISS] = "Theorem 6",
    [PASCAL_P_DEPTH] = "Theorem 6; section 4 (prefetch depth d)",
    [PASCAL_P_ROUNDS] = "section 5.2 (Belady on 6N-round traces)",
    [PASCAL_P_PATH] = "section 4 (configuration key: data path)",
    [PASCAL_P_COMPUTE] = "section 4 (configuration key: compute m)",
    [PASCAL_P_W] = "section 4 (horizon H = W N)",
    /* Workloads: the paper's motivating operators (abstract, section 1),
     * described as architects do (docs/workloads.md). */
    [PASCAL_P_WORKLOAD] = "section 1 (attention and GEMM)",
    [PASCAL_P_BATCH] = "",
    [PASCAL_P_Q_HEADS] = "",
    [PASCAL_P_KV_HEADS] = "",
    [PASCAL_P_SEQ_Q] = "",
    [PASCAL_P_SEQ_KV] = "",
    [PASCAL_P_HEAD_DIM] = "",
    [PASCAL_P_DTYPE] = "",
    [PASCAL_P_TILE_Q] = "",
    [PASCAL_P_TILE_KV] = "section 5.1 (16 KiB K/V blocks)",
    [PASCAL_P_CAUSAL] = "",
    [PASCAL_P_GEMM_M] = "",
    [PASCAL_P_GEMM_N] = "",
    [PASCAL_P_GEMM_K] = "",
    [PASCAL_P_TILE_M] = "",
    [PASCAL_P_TILE_N] = "",
    [PASCAL_P_TILE_K] = "",
    [PASCAL_P_RASTER] = "",
    [PASCAL_P_SWIZZLE] = "",
    [PASCAL_P_SPLIT_K] = "",
    [PASCAL_P_KERNEL] = "docs/workloads.md section 2.5",
    [PASCAL_P_NUM_SPLITS] = "docs/workloads.md section 2.6",
    [PASCAL_P_BAND_SEEDS] = "docs/workloads.md section 3.1 (the band)",
    [PASCAL_P_DEVICE] = "docs/workloads.md section 9 (devices as data)",
    [PASCAL_P_DRAM_PJ_PER_BYTE] = "docs/workloads.md section 10.1 (device costs)",
    [PASCAL_P_L2_PJ_PER_BYTE] = "docs/workloads.md section 10.1 (device costs)",
    [PASCAL_P_L2_MM2_PER_MIB] = "docs/workloads.md section 10.1 (device costs)",
    [PASCAL_P_THREADS] = "docs/workloads.md section 9 (points the device can run)",
    [PASCAL_P_PHASE] = "docs/workloads.md section 11 (a whole model step)",
    [PASCAL_P_LAYERS] = "docs/workloads.md section 11 (a whole model step)",
    [PASCAL_P_HIDDEN] = "docs/workloads.md section 11 (a whole model step)",
    [PASCAL_P_INTERMEDIATE] = "docs/workloads.md section 11 (a whole model step)",
    [PASCAL_P_VOCAB] = "docs/workloads.md section 11 (a whole model step)",
    [PASCAL_P_FLOPS_PER_S] = "docs/workloads.md section 10 (device rates)",
    [PASCAL_P_L2_BYTES_PER_S] = "docs/workloads.md section 10 (device rates)",
    [PASCAL_P_DRAM_BYTES_PER_S] = "docs/workloads.md section 10 (device rates)",
};

const char *const pascal_param_defaults[PASCAL_NPARAM] = {
    [PASCAL_P_N] = "data_bytes / block_bytes",
    [PASCAL_P_M] = "sms * occupancy, or the length of the phase list",
    [PASCAL_P_C] = "floor(capacity_bytes / block_bytes)",
    [PASCAL_P_DATA_BYTES] = "none",
    [PASCAL_P_CAPACITY_BYTES] = "the device profile's effective_l2_bytes, else l2_bytes",
    [PASCAL_P_BLOCK_BYTES] = "none",
    [PASCAL_P_SMS] = "the device profile's sms",
    [PASCAL_P_OCCUPANCY] = "none",
    [PASCAL_P_PATTERN] = "aligned",
    [PASCAL_P_CLUSTERS] = "1",
    [PASCAL_P_SPREAD] = "0",
    [PASCAL_P_SIGMA] = "0",
    [PASCAL_P_LAG] = "1",
    [PASCAL_P_PHASES] = "none",
    [PASCAL_P_SEED] = "1",
    [PASCAL_P_ASSOC] = "none (sdcm needs it)",
    [PASCAL_P_HORIZON] = "0 (long run)",
    [PASCAL_P_EPS] = "0",
    [PASCAL_P_LEAD] = "none (sharing needs it)",
    [PASCAL_P_ALPHA] = "none (catchup needs it)",
    [PASCAL_P_BETA] = "none (catchup needs it)",
    [PASCAL_P_LAMBDA_HIT] = "none (catchup needs it)",
    [PASCAL_P_LAMBDA_MISS] = "none (catchup needs it)",
    [PASCAL_P_DEPTH] = "none (catchup and dynamic tma need it)",
    [PASCAL_P_ROUNDS] = "6 N",
    [PASCAL_P_PATH] = "none (dynamic needs it)",
    [PASCAL_P_COMPUTE] = "none (dynamic needs it)",
    [PASCAL_P_W] = "none (dynamic needs it)",
    [PASCAL_P_WORKLOAD] = "none (the workload: section sets it)",
    [PASCAL_P_BATCH] = "1",
    [PASCAL_P_Q_HEADS] = "none (attention needs it)",
    [PASCAL_P_KV_HEADS] = "q_heads",
    [PASCAL_P_SEQ_Q] = "none (attention needs it)",
    [PASCAL_P_SEQ_KV] = "none (attention needs it)",
    [PASCAL_P_HEAD_DIM] = "none (attention needs it)",
    [PASCAL_P_DTYPE] = "none (workloads need it)",
    [PASCAL_P_TILE_Q] = "none (attention needs it)",
    [PASCAL_P_TILE_KV] = "none (attention needs it)",
    [PASCAL_P_CAUSAL] = "false",
    [PASCAL_P_GEMM_M] = "none (gemm needs it)",
    [PASCAL_P_GEMM_N] = "none (gemm needs it)",
    [PASCAL_P_GEMM_K] = "none (gemm needs it)",
    [PASCAL_P_TILE_M] = "none (gemm needs it)",
    [PASCAL_P_TILE_N] = "none (gemm needs it)",
    [PASCAL_P_TILE_K] = "none (gemm needs it)",
    [PASCAL_P_RASTER] = "row",
    [PASCAL_P_SWIZZLE] = "8",
    [PASCAL_P_SPLIT_K] = "1",
    [PASCAL_P_KERNEL] = "model",
    [PASCAL_P_NUM_SPLITS] = "0 (flash-attn-2: the library's heuristic)",
    [PASCAL_P_BAND_SEEDS] = "5",
    [PASCAL_P_DEVICE] = "none (the top-level device: key names one profile for every point)",
    [PASCAL_P_DRAM_PJ_PER_BYTE] = "the device profile's costs.dram_pj_per_byte",
    [PASCAL_P_L2_PJ_PER_BYTE] = "the device profile's costs.l2_pj_per_byte",
    [PASCAL_P_L2_MM2_PER_MIB] = "the device profile's costs.l2_mm2_per_mib",
    [PASCAL_P_THREADS] = "none (the threads check is skipped)",
    [PASCAL_P_PHASE] = "none (set by the model: section; a step point)",
    [PASCAL_P_LAYERS] = "none (required by the model: section)",
    [PASCAL_P_HIDDEN] = "none (required by the model: section)",
    [PASCAL_P_INTERMEDIATE] = "none (required by the model: section)",
    [PASCAL_P_VOCAB] = "none (required by the model: section)",
    [PASCAL_P_FLOPS_PER_S] = "the device profile's rate for the point's dtype (rates.flops_DTYPE)",
    [PASCAL_P_L2_BYTES_PER_S] = "the device profile's rates.l2_bytes_per_s",
    [PASCAL_P_DRAM_BYTES_PER_S] = "the device profile's rates.dram_bytes_per_s",
};

const char *const pascal_model_refs[PASCAL_NMODEL] = {
    [PASCAL_MODEL_TTL] = "Lemma 1, eq. 3, Theorem 2",
    [PASCAL_MODEL_LRU_BAND] = "Theorem 3",
    [PASCAL_MODEL_LRU] = "Theorem 3, eq. 15",
    [PASCAL_MODEL_SDCM] = "eq. 6",
    [PASCAL_MODEL_RESIDENCY] = "Theorem 4",
    [PASCAL_MODEL_CHE] = "section 2.1 (Che-IRM)",
    [PASCAL_MODEL_MARGIN] = "Prop. 7",
    [PASCAL_MODEL_SHARING] = "Theorem 5",
    [PASCAL_MODEL_CATCHUP] = "Theorem 6, eq. 13",
    [PASCAL_MODEL_LRU_REPLAY] = "section 5.2 (replay check)",
    [PASCAL_MODEL_BELADY] = "Theorem 4, Figure 3b",
    [PASCAL_MODEL_DYNAMIC] = "section 4",
    [PASCAL_MODEL_WORKLOAD] = "section 1 (attention and GEMM); docs/workloads.md",
    [PASCAL_MODEL_TRAFFIC] = "Theorems 2-4 over several streams; docs/workloads.md",
    [PASCAL_MODEL_SIMULATE] = "Algorithm 2 (open scan), simulated; docs/simulate.md",
    [PASCAL_MODEL_STEP] = "docs/workloads.md section 11",
};

const char *const pascal_column_refs[PASCAL_NCOLUMN] = {
    [PASCAL_COL_D] = "Lemma 1",
    [PASCAL_COL_THETA] = "eq. 3",
    [PASCAL_COL_T_STAR] = "Theorem 2",
    [PASCAL_COL_K_TTL] = "Theorem 2",
    [PASCAL_COL_RHO_TTL] = "Theorem 2",
    [PASCAL_COL_K_LRU_LO] = "Theorem 3",
    [PASCAL_COL_K_LRU_HI] = "Theorem 3",
    [PASCAL_COL_K_LRU] = "eq. 15",
    [PASCAL_COL_RHO_LRU] = "eq. 15",
    [PASCAL_COL_K_SDCM] = "eq. 6",
    [PASCAL_COL_RHO_SDCM] = "eq. 6",
    [PASCAL_COL_V] = "Theorem 4, eq. 7",
    [PASCAL_COL_K_BOUND] = "Theorem 4",
    [PASCAL_COL_RHO_BOUND] = "Theorem 4",
    [PASCAL_COL_RHO_CHE] = "section 2.1 (Che-IRM)",
    [PASCAL_COL_K_CHE] = "section 2.1 (Che-IRM)",
    [PASCAL_COL_MARGIN] = "Prop. 7",
    [PASCAL_COL_C_SHARE] = "Theorem 5",
    [PASCAL_COL_SHARES] = "Theorem 5",
    [PASCAL_COL_P_HIT] = "Theorem 6",
    [PASCAL_COL_P_MISS] = "Theorem 6",
    [PASCAL_COL_G] = "eq. 13",
    [PASCAL_COL_K_LRU_REPLAY] = "section 5.2 (replay check)",
    [PASCAL_COL_RHO_LRU_REPLAY] = "section 5.2 (replay check)",
    [PASCAL_COL_K_BELADY] = "Theorem 4, Figure 3b",
    [PASCAL_COL_RHO_BELADY] = "Theorem 4, Figure 3b",
    [PASCAL_COL_K_DYN] = "section 4",
    [PASCAL_COL_RHO_DYN] = "section 4",
    [PASCAL_COL_BAND_LO] = "section 4 (out-of-fold band)",
    [PASCAL_COL_BAND_HI] = "section 4 (out-of-fold band)",
    [PASCAL_COL_FALLBACK] = "section 4 (eq. 24 and fallbacks)",
    [PASCAL_COL_STREAMS] = "docs/workloads.md",
    [PASCAL_COL_UNITS] = "docs/workloads.md",
    [PASCAL_COL_CTAS] = "docs/workloads.md",
    [PASCAL_COL_SHARERS_A] = "docs/workloads.md",
    [PASCAL_COL_SHARERS_B] = "docs/workloads.md",
    [PASCAL_COL_WAVES] = "docs/workloads.md",
    [PASCAL_COL_REQUESTS] = "docs/workloads.md",
    [PASCAL_COL_IDEAL_BYTES] = "docs/workloads.md",
    [PASCAL_COL_TENSOR_BYTES] = "docs/workloads.md",
    [PASCAL_COL_FILL_BYTES_LRU] = "eq. 15 over several streams",
    [PASCAL_COL_TRAFFIC_LRU] = "eq. 15 over several streams",
    [PASCAL_COL_FILL_BYTES_TTL] = "Theorem 2 over several streams",
    [PASCAL_COL_TRAFFIC_TTL] = "Theorem 2 over several streams",
    [PASCAL_COL_FILL_BYTES_BOUND] = "Theorem 4 over several streams",
    [PASCAL_COL_TRAFFIC_BOUND] = "Theorem 4 over several streams",
    [PASCAL_COL_FILL_BYTES_DYN] = "section 4",
    [PASCAL_COL_TRAFFIC_DYN] = "section 4",
    [PASCAL_COL_FILL_BYTES_REPLAY] = "section 5.2 (replay check)",
    [PASCAL_COL_TRAFFIC_REPLAY] = "section 5.2 (replay check)",
    [PASCAL_COL_CLAMP_X] = "section 4.2, eq. 19 (endpoint hold in x)",
    [PASCAL_COL_CLAMP_COMPUTE] = "section 4 (rule 2: nearest same-class compute)",
    [PASCAL_COL_CLAMP_DEPTH] = "section 4 (rule 3: across depth)",
    [PASCAL_COL_K_SIM] = "eq. 14 (K_H = A(H) / H), simulated",
    [PASCAL_COL_RHO_SIM] = "eq. 14 (rho_H = K_H / M), simulated",
    [PASCAL_COL_NS_PER_ROUND_SIM] = "section 3.6 (ns per normalized round), simulated",
    [PASCAL_COL_FILL_BYTES_SIM] = "Algorithm 2 over several streams, simulated",
    [PASCAL_COL_TRAFFIC_SIM] = "Algorithm 2 over several streams, simulated",
    [PASCAL_COL_ANSWER_FILL_BYTES] = "the most faithful of the above (docs/workloads.md 3.1)",
    [PASCAL_COL_ANSWER_TRAFFIC] = "the most faithful of the above (docs/workloads.md 3.1)",
    [PASCAL_COL_ANSWER_SOURCE] = "the most faithful of the above (docs/workloads.md 3.1)",
    [PASCAL_COL_FILL_BYTES_REPLAY_ANY] = "section 5.2 (replay check), CTAs in any order per round",
    [PASCAL_COL_TRAFFIC_REPLAY_ANY] = "section 5.2 (replay check), CTAs in any order per round",
    [PASCAL_COL_FLOPS] = "docs/workloads.md section 10",
    [PASCAL_COL_TIME_COMPUTE_S] = "docs/workloads.md section 10",
    [PASCAL_COL_TIME_L2_S] = "docs/workloads.md section 10",
    [PASCAL_COL_TIME_DRAM_S] = "docs/workloads.md section 10",
    [PASCAL_COL_TIME_BOUND_S] = "docs/workloads.md section 10",
    [PASCAL_COL_BOUND_TERM] = "docs/workloads.md section 10",
    [PASCAL_COL_ANSWER_TRAFFIC_LO] = "docs/workloads.md 3.1 (the band)",
    [PASCAL_COL_ANSWER_TRAFFIC_HI] = "docs/workloads.md 3.1 (the band)",
    [PASCAL_COL_TIME_SIM_S] = "docs/workloads.md section 10",
    [PASCAL_COL_ENERGY_DRAM_J] = "docs/workloads.md section 10.1",
    [PASCAL_COL_ENERGY_L2_J] = "docs/workloads.md section 10.1",
    [PASCAL_COL_ENERGY_J] = "docs/workloads.md section 10.1",
    [PASCAL_COL_AREA_L2_MM2] = "docs/workloads.md section 10.1",
    [PASCAL_COL_KV_SPLITS] = "docs/workloads.md section 2.6",
    [PASCAL_COL_PARTIAL_BYTES] = "docs/workloads.md section 2.6",
    [PASCAL_COL_FILL_BYTES_EXACT] = "docs/workloads.md section 2.7",
    [PASCAL_COL_TRAFFIC_EXACT] = "docs/workloads.md section 2.7",
    [PASCAL_COL_IDEAL_BYTES_EXACT] = "docs/workloads.md section 2.7",
    [PASCAL_COL_WRITE_BYTES_EXACT] = "docs/workloads.md section 2.7",
    [PASCAL_COL_STEP_TOKENS] = "docs/workloads.md section 11",
    [PASCAL_COL_TOKENS_PER_S_BOUND] = "docs/workloads.md section 11",
    [PASCAL_COL_FILL_BYTES_PER_TOKEN] = "docs/workloads.md section 11",
    [PASCAL_COL_ENERGY_PER_TOKEN_J] = "docs/workloads.md section 11",
    [PASCAL_COL_FILL_BYTES_PER_SEQUENCE] = "docs/workloads.md section 11",
    [PASCAL_COL_ENERGY_PER_SEQUENCE_J] = "docs/workloads.md section 11",
    [PASCAL_COL_FILL_BYTES_QKV_PROJ] = "docs/workloads.md section 11",
    [PASCAL_COL_FILL_BYTES_ATTENTION] = "docs/workloads.md section 11",
    [PASCAL_COL_FILL_BYTES_O_PROJ] = "docs/workloads.md section 11",
    [PASCAL_COL_FILL_BYTES_GATE_UP_PROJ] = "docs/workloads.md section 11",
    [PASCAL_COL_FILL_BYTES_DOWN_PROJ] = "docs/workloads.md section 11",
    [PASCAL_COL_FILL_BYTES_LM_HEAD] = "docs/workloads.md section 11",
    [PASCAL_COL_FILL_BYTES_CHAINED] = "docs/workloads.md section 11.2",
    [PASCAL_COL_TRAFFIC_CHAINED] = "docs/workloads.md section 11.2",
    [PASCAL_COL_REUSE_BYTES] = "docs/workloads.md section 11.2",
};

static const pascal_unit_info unit_table[] = {
    {"FLOP/s", "floating-point (or integer tensor) operations per second"},
    {"bytes/s", "bytes per second"},
    {"FLOP", "floating-point operations, a multiply-add counted as two"},
    {"s", "seconds"},
    {"J", "joules"},
    {"pJ/byte", "picojoules per byte read"},
    {"mm2", "square millimetres of silicon"},
    {"mm2/MiB", "square millimetres of silicon per MiB of cache"},
    {"seeds", "random seeds, one simulation each"},
    {"threads", "threads of one CTA"},
    {"blocks", "data blocks of block_bytes bytes (the unit of N, C and phases)"},
    {"bytes", "bytes; a spec writes sizes with B, KiB, MiB, GiB, TiB, kB, KB, MB, GB, TB"},
    {"workers", "concurrent workers (resident CTAs), M"},
    {"SMs", "streaming multiprocessors"},
    {"CTAs/SM", "resident CTAs per SM (occupancy)"},
    {"clusters", "phase clusters of the clusters pattern"},
    {"ways", "cache associativity A"},
    {"rounds", "rounds: in one round every worker reads one block"},
    {"requests", "block requests, one per worker per round"},
    {"ns", "nanoseconds (Theorem 6 costs and latencies)"},
    {"buffers", "pipeline buffers (prefetch depth d)"},
    {"ops/block", "compute operations per block scanned"},
    {"scans/worker", "full scans of the ring per resident worker (horizon W)"},
    {"phases", "distinct phase values, D"},
    {"misses/round", "fills (misses) per round of M requests, K"},
    {"misses/request", "fills per request, rho = K / M"},
    {"requests/round", "requests per round that a capacity can keep resident"},
    {"gaps", "cyclic gaps between distinct phases"},
    {"bool", "1 true, 0 false"},
    {"time/request", "time per request, in the unit of alpha, beta and the latencies"},
    {"fills/work", "whole-run fill-equivalent blocks per unit of work, K_H = A(H) / H"},
    {"code", "an integer code whose meanings the column's description lists"},
    {"sequences", "sequences in a batch"},
    {"heads", "attention heads"},
    {"tokens", "sequence positions"},
    {"elements", "tensor elements along one dimension"},
    {"rows", "tensor rows (tokens of a tile, or rows of a matrix)"},
    {"columns", "matrix columns"},
    {"tile rows", "rows of output tiles"},
    {"slices", "split-K slices of the reduction"},
    {"splits", "KV splits of a split-KV attention kernel"},
    {"streams", "disjoint block streams sharing the cache"},
    {"requests/CTA", "block requests per CTA per round"},
    {"CTAs", "thread blocks (cooperative thread arrays)"},
    {"waves", "waves of resident CTAs, ceil(ctas / M)"},
    {"x ideal", "a multiple of the ideal traffic (every block fetched once)"},
    {"", "a name or an index, no unit (pattern, phases, seed, path)"},
    {"work", "the dynamic model's work coordinate x = W N / 4096 (section 4.2)"},
    {"ns/round", "nanoseconds of simulated run time per round of work"},
    {"layers", "decoder layers of a model"},
    {"tokens/s", "tokens computed per second"},
};

int pascal_unit(int i, pascal_unit_info *out)
{
    if (i < 0 || i >= (int)(sizeof unit_table / sizeof unit_table[0]))
        return -1;
    *out = unit_table[i];
    return 0;
}

int pascal_size_unit(int i, const char **suffix, double *bytes)
{
    if (i < 0 || i >= (int)(sizeof units / sizeof units[0]))
        return -1;
    *suffix = units[i].suffix;
    *bytes = pow(units[i].base, units[i].power);
    return 0;
}

/* The dynamic model's key uses the table's codes. */
_Static_assert(PASCAL_DYN_SYNC == 0 && PASCAL_DYN_TMA == 1 && PASCAL_PATH_COUNT == 2,
               "load path codes follow pascal_path_names");

int pascal_path_from_name(const char *name)
{
    for (int i = 0; name && i < PASCAL_PATH_COUNT; i++)
        if (strcmp(name, pascal_path_names[i]) == 0)
            return i;
    return -1;
}
