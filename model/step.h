/* A whole model step (docs/workloads.md section 11): the kernels of one
 * decoder layer of a dense transformer, and the LM head, derived from the
 * numbers of a model's config.json, each an ordinary workload shape with
 * the count of times it runs in one step.
 *
 *   qkv_proj      C[T, (H + 2 H_kv) d] = X[T, hidden] W_qkv     per layer
 *   attention     B sequences, H query heads, H_kv KV heads, head dim d:
 *                 decode one query token against `context` keys; prefill
 *                 the whole prompt, causal, seq_q = seq_kv = context
 *   o_proj        C[T, hidden] = O[T, H d] W_o                  per layer
 *   gate_up_proj  C[T, 2 I] = X[T, hidden] W_gate_up (gate and up fused)
 *   down_proj     C[T, hidden] = act[T, I] W_down               per layer
 *   lm_head       logits[B, vocab] = X[B, hidden] W_vocab       once
 *
 * T, the tokens of the step, is B for decode (one new token per sequence)
 * and B x context for prefill; the LM head reads one row per sequence
 * (prefill: its last token's).  Norms, RoPE, the SiLU product and residual
 * adds are not kernels here (their bytes are activations, small beside
 * the weights and the KV cache at decode).
 *
 * Pure code: no I/O, no globals, no allocation. */
#ifndef PASCAL_MODEL_STEP_H
#define PASCAL_MODEL_STEP_H

#include <stdint.h>

#include "model/workload.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum pascal_step_op {
    PASCAL_OP_QKV = 0,
    PASCAL_OP_ATTENTION,
    PASCAL_OP_O,
    PASCAL_OP_GATE_UP,
    PASCAL_OP_DOWN,
    PASCAL_OP_LM_HEAD,
    PASCAL_OP_COUNT
} pascal_step_op;
/* qkv_proj attention o_proj gate_up_proj down_proj lm_head */
extern const char *const pascal_step_op_names[PASCAL_OP_COUNT];

typedef enum pascal_phase {
    PASCAL_PHASE_DECODE = 0,   /* one new token per sequence */
    PASCAL_PHASE_PREFILL = 1,  /* the whole prompt of `context` tokens, causal */
    PASCAL_PHASE_COUNT = 2
} pascal_phase;
extern const char *const pascal_phase_names[PASCAL_PHASE_COUNT]; /* decode prefill */

/* A model and the step asked of it.  The kernel fields are taken from
 * `kernels`: attention's kernel, tile_q, tile_kv and num_splits, and sms;
 * the GEMMs' tile_m, tile_n, tile_k, raster and swizzle (pascal's GEMM
 * kernel, one slice); its dtype is every kernel's. */
typedef struct pascal_step {
    int phase;                  /* pascal_phase */
    int64_t layers, hidden, heads, kv_heads, head_dim, intermediate, vocab;
    int64_t batch, context;
    pascal_workload_shape kernels;
} pascal_step;

/* Tokens the step computes: B (decode) or B x context (prefill). */
int64_t pascal_step_tokens(const pascal_step *s);

/* Kernel op's shape and how many times it runs in one step (layers, or 1
 * for the LM head).  Returns PASCAL_WL_OK, or PASCAL_WL_RANGE for a field
 * below 1 or an unknown op or phase (the shape's own refusals come from
 * pascal_workload_derive). */
int pascal_step_kernel(const pascal_step *s, int op, pascal_workload_shape *out, int64_t *count);

#ifdef __cplusplus
}
#endif

#endif
