/* A whole model step's kernels (step.h, docs/workloads.md section 11). */
#include "model/step.h"

const char *const pascal_step_op_names[PASCAL_OP_COUNT] = {
    "qkv_proj", "attention", "o_proj", "gate_up_proj", "down_proj", "lm_head"};
const char *const pascal_phase_names[PASCAL_PHASE_COUNT] = {"decode", "prefill"};

/* Products past 2^53 are refused as the workloads refuse them. */
#define LIMIT ((int64_t)1 << 53)

static int64_t mul(int64_t a, int64_t b)
{
    return a > 0 && b > 0 && a <= LIMIT / b ? a * b : -1;
}

int64_t pascal_step_tokens(const pascal_step *s)
{
    return s->phase == PASCAL_PHASE_PREFILL ? mul(s->batch, s->context) : s->batch;
}

static void gemm(const pascal_step *s, int64_t m, int64_t n, int64_t k, pascal_workload_shape *o)
{
    const pascal_workload_shape *t = &s->kernels;
    *o = (pascal_workload_shape){0};
    o->kind = PASCAL_WORKLOAD_GEMM;
    o->dtype = t->dtype;
    o->m = m, o->n = n, o->k = k;
    o->tile_m = t->tile_m, o->tile_n = t->tile_n, o->tile_k = t->tile_k;
    o->raster = t->raster, o->swizzle = t->swizzle;
    o->split_k = 1;
    o->kernel = PASCAL_KERNEL_MODEL;
    o->sms = t->sms;
}

int pascal_step_kernel(const pascal_step *s, int op, pascal_workload_shape *out, int64_t *count)
{
    *out = (pascal_workload_shape){0};
    *count = 0;
    if (s->phase < 0 || s->phase >= PASCAL_PHASE_COUNT || op < 0 || op >= PASCAL_OP_COUNT ||
        s->layers < 1 || s->hidden < 1 || s->heads < 1 || s->kv_heads < 1 || s->head_dim < 1 ||
        s->intermediate < 1 || s->vocab < 1 || s->batch < 1 || s->context < 1)
        return PASCAL_WL_RANGE;
    int64_t T = pascal_step_tokens(s), qd = mul(s->heads, s->head_dim);
    int64_t qkv = mul(s->heads + 2 * s->kv_heads, s->head_dim), gu = mul(2, s->intermediate);
    if (T < 0 || qd < 0 || qkv < 0 || gu < 0)
        return PASCAL_WL_RANGE;
    *count = op == PASCAL_OP_LM_HEAD ? 1 : s->layers;
    switch (op) {
    case PASCAL_OP_QKV: gemm(s, T, qkv, s->hidden, out); break;
    case PASCAL_OP_O: gemm(s, T, s->hidden, qd, out); break;
    case PASCAL_OP_GATE_UP: gemm(s, T, gu, s->hidden, out); break;
    case PASCAL_OP_DOWN: gemm(s, T, s->hidden, s->intermediate, out); break;
    case PASCAL_OP_LM_HEAD: gemm(s, s->batch, s->vocab, s->hidden, out); break;
    default: {   /* attention */
        const pascal_workload_shape *t = &s->kernels;
        out->kind = PASCAL_WORKLOAD_ATTENTION;
        out->dtype = t->dtype;
        out->batch = s->batch;
        out->q_heads = s->heads;
        out->kv_heads = s->kv_heads;
        out->seq_q = s->phase == PASCAL_PHASE_PREFILL ? s->context : 1;
        out->seq_kv = s->context;
        out->head_dim = s->head_dim;
        out->tile_q = t->tile_q, out->tile_kv = t->tile_kv;
        out->causal = s->phase == PASCAL_PHASE_PREFILL;
        out->kernel = t->kernel;
        out->num_splits = t->num_splits;
        out->sms = t->sms;
        out->occupancy = t->occupancy;
        break;
    }
    }
    return PASCAL_WL_OK;
}
