/* The `workload:` section of a sweep spec (workload.h): parsing, the static
 * checks once every section is read, and each point's derivation of N and
 * block_bytes from its workload fields. */
#include "sweeps/workload.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sweeps/spec_internal.h"

/* Fields of each kind, in the order a spec lists them; `required` ones
 * have no default. */
typedef struct wl_field {
    int param;
    int required;
    double dflt;       /* NaN: kv_heads defaults to q_heads */
} wl_field;

static const wl_field attention_fields[] = {
    {PASCAL_P_BATCH, 0, 1}, {PASCAL_P_Q_HEADS, 1, 0}, {PASCAL_P_KV_HEADS, 0, NAN},
    {PASCAL_P_SEQ_Q, 1, 0}, {PASCAL_P_SEQ_KV, 1, 0},  {PASCAL_P_HEAD_DIM, 1, 0},
    {PASCAL_P_DTYPE, 1, 0}, {PASCAL_P_TILE_Q, 1, 0},  {PASCAL_P_TILE_KV, 1, 0},
    {PASCAL_P_CAUSAL, 0, 0}, {PASCAL_P_KERNEL, 0, PASCAL_KERNEL_MODEL}, {PASCAL_P_NUM_SPLITS, 0, 0},
};
static const wl_field gemm_fields[] = {
    {PASCAL_P_GEMM_M, 1, 0}, {PASCAL_P_GEMM_N, 1, 0}, {PASCAL_P_GEMM_K, 1, 0},
    {PASCAL_P_DTYPE, 1, 0},  {PASCAL_P_TILE_M, 1, 0}, {PASCAL_P_TILE_N, 1, 0},
    {PASCAL_P_TILE_K, 1, 0}, {PASCAL_P_RASTER, 0, PASCAL_RASTER_ROW},
    {PASCAL_P_SWIZZLE, 0, 8}, {PASCAL_P_SPLIT_K, 0, 1}, {PASCAL_P_KERNEL, 0, PASCAL_KERNEL_MODEL},
};
/* The `model:` section (docs/workloads.md section 11): a model's
 * config.json numbers, the step, and the kernels' tiles.  NaN defaults:
 * kv_heads = q_heads, head_dim = hidden / q_heads. */
static const wl_field model_fields[] = {
    {PASCAL_P_PHASE, 1, 0},          {PASCAL_P_LAYERS, 1, 0},       {PASCAL_P_HIDDEN, 1, 0},
    {PASCAL_P_Q_HEADS, 1, 0},        {PASCAL_P_KV_HEADS, 0, NAN},   {PASCAL_P_HEAD_DIM, 0, NAN},
    {PASCAL_P_INTERMEDIATE, 1, 0},   {PASCAL_P_VOCAB, 1, 0},        {PASCAL_P_DTYPE, 1, 0},
    {PASCAL_P_BATCH, 0, 1},          {PASCAL_P_SEQ_KV, 1, 0},
    {PASCAL_P_KERNEL, 0, PASCAL_KERNEL_FLASH2}, {PASCAL_P_TILE_Q, 0, 128}, {PASCAL_P_TILE_KV, 0, 64},
    {PASCAL_P_NUM_SPLITS, 0, 0},     {PASCAL_P_TILE_M, 0, 128},     {PASCAL_P_TILE_N, 0, 256},
    {PASCAL_P_TILE_K, 0, 64},        {PASCAL_P_RASTER, 0, PASCAL_RASTER_COLUMN},
    {PASCAL_P_SWIZZLE, 0, 8},
};
#define NATT ((int)(sizeof attention_fields / sizeof attention_fields[0]))
#define NGEMM ((int)(sizeof gemm_fields / sizeof gemm_fields[0]))
#define NMODEL ((int)(sizeof model_fields / sizeof model_fields[0]))
/* fields_of's kind for the model: section */
#define KIND_MODEL PASCAL_WORKLOAD_COUNT

static const wl_field *fields_of(int kind, int *n)
{
    *n = kind == KIND_MODEL ? NMODEL : kind == PASCAL_WORKLOAD_GEMM ? NGEMM : NATT;
    return kind == KIND_MODEL ? model_fields : kind == PASCAL_WORKLOAD_GEMM ? gemm_fields : attention_fields;
}

static int field_of(int kind, int param)
{
    int n;
    const wl_field *f = fields_of(kind, &n);
    for (int i = 0; i < n; i++)
        if (f[i].param == param)
            return i;
    return -1;
}

/* ---- parsing ---------------------------------------------------------------- */

static int parse_fields(const spec_ctx *c, int kind, const yaml_node_t *map, const char *path)
{
    pascal_spec *spec = c->spec;
    const char *names[24];
    char sub[YML_PATH_MAX];
    int n, rc;
    const wl_field *f = fields_of(kind, &n);
    for (int i = 0; i < n; i++)
        names[i] = pascal_params[f[i].param].name;
    if ((rc = yml_check_mapping(c->y, map, path, "a mapping of workload fields", names, n)))
        return rc;
    for (const yaml_node_pair_t *pr = map->data.mapping.pairs.start; pr < map->data.mapping.pairs.top;
         pr++) {
        int param = pascal_param_from_name(yml_scalar_text(yml_node(c->y, pr->key)));
        const yaml_node_t *val = yml_node(c->y, pr->value);
        double v;
        yml_path_key(sub, path, pascal_params[param].name);
        if (val && val->type == YAML_SEQUENCE_NODE)
            return yml_fail(c->y, val, sub, PASCAL_EINPUT,
                             "expected %s, got a list (sweep a workload field under axes)",
                             yml_expected(param));
        if ((rc = yml_value(c->y, val, param, sub, &v)))
            return rc;
        spec->fixed.v[param] = v;
        spec->source[param] = SRC_WORKLOAD;
        yml_mark_of(c->y, val, sub, &spec->src[param]);
    }
    return 0;
}

int spec_parse_workload(const spec_ctx *c, const yaml_node_t *node)
{
    pascal_spec *spec = c->spec;
    const yaml_node_pair_t *pr;
    char path[YML_PATH_MAX], got[96];
    int rc;
    if (yml_is_null(node))
        return 0;
    rc = yml_check_mapping(c->y, node, "workload", "a mapping with one key, attention or gemm",
                            pascal_workload_names, PASCAL_WORKLOAD_COUNT);
    if (rc)
        return rc;
    if (node->data.mapping.pairs.top - node->data.mapping.pairs.start != 1)
        return yml_fail(c->y, node, "workload", PASCAL_EINPUT,
                         "expected one workload, attention or gemm, got %d",
                         (int)(node->data.mapping.pairs.top - node->data.mapping.pairs.start));
    pr = node->data.mapping.pairs.start;
    const yaml_node_t *key = yml_node(c->y, pr->key), *map = yml_node(c->y, pr->value);
    int kind = strcmp(yml_scalar_text(key), "gemm") == 0 ? PASCAL_WORKLOAD_GEMM
                                                            : PASCAL_WORKLOAD_ATTENTION;
    yml_path_key(path, "workload", pascal_workload_names[kind]);
    if (!map || map->type != YAML_MAPPING_NODE) {
        yml_describe(map, got, sizeof got);
        return yml_fail(c->y, map, path, PASCAL_EINPUT, "expected a mapping of %s fields, got %s",
                         pascal_workload_names[kind], got);
    }
    spec->fixed.v[PASCAL_P_WORKLOAD] = kind;
    spec->source[PASCAL_P_WORKLOAD] = SRC_WORKLOAD;
    yml_mark_of(c->y, key, path, &spec->src[PASCAL_P_WORKLOAD]);
    return parse_fields(c, kind, map, path);
}

int spec_parse_model(const spec_ctx *c, const yaml_node_t *key, const yaml_node_t *node)
{
    pascal_spec *spec = c->spec;
    char got[96];
    if (!node || yml_is_null(node))
        return 0;
    if (node->type != YAML_MAPPING_NODE) {
        yml_describe(node, got, sizeof got);
        return yml_fail(c->y, node, "model", PASCAL_EINPUT,
                         "expected a mapping of model fields (layers, hidden, q_heads, kv_heads, "
                         "intermediate, vocab, dtype, phase, batch, seq_kv, ...), got %s", got);
    }
    if (spec->source[PASCAL_P_WORKLOAD] != SRC_NONE)
        return yml_fail(c->y, key, "model", PASCAL_EINPUT,
                         "expected a workload: section (one kernel) or a model: section (a whole "
                         "step), not both; got both (workload at line %d)",
                         spec->src[PASCAL_P_WORKLOAD].line);
    spec->step = 1;
    yml_mark_of(c->y, key, "model", &spec->step_mark);
    int rc = parse_fields(c, KIND_MODEL, node, "model");
    if (rc)
        return rc;
    /* The step's own point: one block of a sector (each kernel derives its
     * own N and block_bytes). */
    spec->fixed.v[PASCAL_P_N] = 1;
    spec->fixed.v[PASCAL_P_BLOCK_BYTES] = 32;
    spec->source[PASCAL_P_N] = spec->source[PASCAL_P_BLOCK_BYTES] = SRC_WORKLOAD;
    spec->src[PASCAL_P_N] = spec->src[PASCAL_P_BLOCK_BYTES] = spec->step_mark;
    return 0;
}

/* ---- checks once everything is read ----------------------------------------- */

/* An axis of the parameter has a value other than `value`. */
static int axis_values_other(const pascal_spec *spec, int param, double value)
{
    for (int a = 0; a < spec->naxes; a++)
        if (spec->axes[a].param == param)
            for (int64_t k = 0; k < spec->axes[a].count; k++)
                if (spec->axes[a].values[k] != value)
                    return 1;
    return 0;
}

/* Some value the parameter can take is `value` (fixed or any axis value). */
static int can_be(const pascal_spec *spec, int param, double value)
{
    if (spec->source[param] != SRC_AXIS)
        return spec->fixed.v[param] == value;
    for (int a = 0; a < spec->naxes; a++)
        if (spec->axes[a].param == param)
            for (int64_t k = 0; k < spec->axes[a].count; k++)
                if (spec->axes[a].values[k] == value)
                    return 1;
    return 0;
}

/* Causal attention: query tile t reads KV blocks 0 .. last(t) only, so the
 * CTAs scan different lengths and waves drain unevenly; the ring models do
 * not apply, the exact replay does (lru_replay: every CTA's steps in
 * lock-step waves).  `traffic` is taken beside lru_replay (its closed-form
 * columns are NaN there); the other cache models are refused, and so is a
 * phase pattern other than aligned (phases rotate ring scans). */
static int check_causal(const spec_ctx *c)
{
    pascal_spec *spec = c->spec;
    char names[256];
    size_t off = 0;
    if (!can_be(spec, PASCAL_P_CAUSAL, 1))
        return 0;
    unsigned fine = (1u << PASCAL_MODEL_WORKLOAD) | (1u << PASCAL_MODEL_LRU_REPLAY) |
                    (1u << PASCAL_MODEL_TRAFFIC) | (1u << PASCAL_MODEL_SIMULATE);
    int replay = spec->models >> PASCAL_MODEL_LRU_REPLAY & 1u;
    int answered = replay || (spec->models >> PASCAL_MODEL_SIMULATE & 1u);
    for (int m = 0; m < PASCAL_NMODEL && off < sizeof names; m++)
        if ((spec->models >> m & 1u) && (!(fine >> m & 1u) || (m == PASCAL_MODEL_TRAFFIC && !answered)))
            off += (size_t)snprintf(names + off, sizeof names - off, "%s%s", off ? ", " : "",
                                    pascal_models[m].name);
    if (off)
        return yml_fail_mark(c->y->err, &spec->src[PASCAL_P_CAUSAL], PASCAL_EINPUT,
                              "expected causal: false with models %s (causal attention is not a "
                              "ring scan: query tile t reads KV blocks 0..last(t) only, so its CTAs "
                              "scan different lengths and only the exact replay and the simulator "
                              "apply: models: [traffic, lru_replay] gives fill_bytes_replay and "
                              "traffic_replay, simulate the free-running CTAs, models: [workload] "
                              "the derived columns), got causal: true",
                              names);
    int pattern = PASCAL_P_PATTERN;
    int other = spec->source[pattern] != SRC_AXIS
                    ? !isnan(spec->fixed.v[pattern]) && spec->fixed.v[pattern] != PASCAL_PATTERN_ALIGNED
                    : axis_values_other(spec, pattern, PASCAL_PATTERN_ALIGNED);
    if (replay && other)
        return yml_fail_mark(c->y->err, &spec->src[pattern], PASCAL_EINPUT,
                              "expected pattern: aligned with causal: true (a causal CTA scans a "
                              "prefix of its KV blocks from its first step; phases rotate ring "
                              "scans and there is none to rotate), got another pattern");
    return 0;
}

/* A model: section: its required fields, no field of one kernel, no N,
 * block_bytes or C of the user's, the models a step answers with. */
static int check_model(const spec_ctx *c)
{
    pascal_spec *spec = c->spec;
    int n;
    const wl_field *f = fields_of(KIND_MODEL, &n);
    for (int p = PASCAL_P_WORKLOAD + 1; p <= PASCAL_P_WORKLOAD_LAST; p++)
        if (spec->source[p] != SRC_NONE && field_of(KIND_MODEL, p) < 0)
            return yml_fail_mark(c->y->err, &spec->src[p], PASCAL_EINPUT,
                                  "expected a field of the model: section, got %s (a field of one "
                                  "kernel: the step derives each kernel's shape)",
                                  pascal_params[p].name);
    for (int i = 0; i < n; i++)
        if (f[i].required && spec->source[f[i].param] == SRC_NONE)
            return yml_fail_mark(c->y->err, &spec->step_mark, PASCAL_EINPUT,
                                  "expected %s (%s) in the model, fixed or axes, got none",
                                  pascal_params[f[i].param].name, yml_expected(f[i].param));
    static const int own[] = {PASCAL_P_N, PASCAL_P_BLOCK_BYTES};
    for (int i = 0; i < 2; i++)
        if (spec->source[own[i]] != SRC_WORKLOAD)
            return yml_fail_mark(c->y->err, &spec->src[own[i]], PASCAL_EINPUT,
                                  "expected no %s with a model: section (each kernel derives its "
                                  "own), got %s", pascal_params[own[i]].name, pascal_params[own[i]].name);
    static const int blocks[] = {PASCAL_P_C, PASCAL_P_DATA_BYTES, PASCAL_P_PHASES};
    for (int i = 0; i < 3; i++)
        if (spec->source[blocks[i]] != SRC_NONE)
            return yml_fail_mark(c->y->err, &spec->src[blocks[i]], PASCAL_EINPUT,
                                  "expected no %s with a model: section (its kernels have blocks of "
                                  "different sizes: give capacity_bytes), got %s",
                                  pascal_params[blocks[i]].name, pascal_params[blocks[i]].name);
    int pattern = PASCAL_P_PATTERN;
    int other = spec->source[pattern] != SRC_AXIS
                    ? !isnan(spec->fixed.v[pattern]) && spec->fixed.v[pattern] != PASCAL_PATTERN_ALIGNED
                    : axis_values_other(spec, pattern, PASCAL_PATTERN_ALIGNED);
    if (other)
        return yml_fail_mark(c->y->err, &spec->src[pattern], PASCAL_EINPUT,
                              "expected pattern: aligned with a model: section (the step's kernels "
                              "run in lock-step waves, each from its first block), got another pattern");
    unsigned fine = (1u << PASCAL_MODEL_TRAFFIC) | (1u << PASCAL_MODEL_LRU_REPLAY) |
                    (1u << PASCAL_MODEL_STEP);
    for (int m = 0; m < PASCAL_NMODEL; m++)
        if ((spec->models >> m & 1u) && !(fine >> m & 1u))
            return yml_fail_mark(c->y->err, &spec->models_mark, PASCAL_EINPUT,
                                  "expected models among traffic, lru_replay with a model: section "
                                  "(a step sums its kernels' answers, times and energy), got %s",
                                  pascal_models[m].name);
    if (!(spec->models >> PASCAL_MODEL_TRAFFIC & 1u))
        return yml_fail_mark(c->y->err, &spec->models_mark, PASCAL_EINPUT,
                              "expected models: [traffic, lru_replay] with a model: section (the "
                              "step's totals are its kernels' answers), got no traffic");
    return 0;
}

int spec_check_workload(const spec_ctx *c, const yaml_node_t *root)
{
    pascal_spec *spec = c->spec;
    int kind, n;
    if (spec->step)
        return check_model(c);
    if (spec->source[PASCAL_P_WORKLOAD] == SRC_NONE) {
        for (int p = PASCAL_P_WORKLOAD + 1; p <= PASCAL_P_WORKLOAD_LAST; p++)
            if (spec->source[p] != SRC_NONE)
                return yml_fail_mark(c->y->err, &spec->src[p], PASCAL_EINPUT,
                                      "expected a workload: section (attention or gemm) to use %s, "
                                      "got none", pascal_params[p].name);
        return 0;
    }
    kind = (int)spec->fixed.v[PASCAL_P_WORKLOAD];
    const wl_field *f = fields_of(kind, &n);
    for (int p = PASCAL_P_WORKLOAD + 1; p <= PASCAL_P_WORKLOAD_LAST; p++)
        if (spec->source[p] != SRC_NONE && field_of(kind, p) < 0)
            return yml_fail_mark(c->y->err, &spec->src[p], PASCAL_EINPUT,
                                  "expected a field of %s, got %s (a field of the other workload kind)",
                                  pascal_workload_names[kind], pascal_params[p].name);
    for (int i = 0; i < n; i++)
        if (f[i].required && spec->source[f[i].param] == SRC_NONE)
            return yml_fail_mark(c->y->err, &spec->src[PASCAL_P_WORKLOAD], PASCAL_EINPUT,
                                  "expected %s (%s) in the workload, fixed or axes, got none",
                                  pascal_params[f[i].param].name, yml_expected(f[i].param));
    static const int derived[] = {PASCAL_P_N, PASCAL_P_DATA_BYTES, PASCAL_P_BLOCK_BYTES};
    for (int i = 0; i < 3; i++)
        if (spec->source[derived[i]] != SRC_NONE)
            return yml_fail_mark(c->y->err, &spec->src[derived[i]], PASCAL_EINPUT,
                                  "expected no %s with a workload (it derives N and block_bytes), "
                                  "got %s", pascal_params[derived[i]].name, pascal_params[derived[i]].name);
    (void)root;
    return check_causal(c);
}

/* ---- points ------------------------------------------------------------------ */

static void apply_defaults(double *v)
{
    int n, kind = (int)v[PASCAL_P_WORKLOAD];
    const wl_field *f = fields_of(kind, &n);
    for (int i = 0; i < n; i++)
        if (isnan(v[f[i].param]))
            v[f[i].param] = !isnan(f[i].dflt) ? f[i].dflt
                            : f[i].param == PASCAL_P_KV_HEADS ? v[PASCAL_P_Q_HEADS] : NAN;
}

static int64_t i64(double x) { return isnan(x) ? 0 : (int64_t)x; }

int pascal_workload_of_point(const double *v, pascal_workload *w)
{
    pascal_workload_shape s = {0};
    if (isnan(v[PASCAL_P_WORKLOAD]))
        return -1;
    s.kind = (int)v[PASCAL_P_WORKLOAD];
    s.dtype = (int)i64(v[PASCAL_P_DTYPE]);
    s.batch = i64(v[PASCAL_P_BATCH]);
    s.q_heads = i64(v[PASCAL_P_Q_HEADS]);
    s.kv_heads = i64(v[PASCAL_P_KV_HEADS]);
    s.seq_q = i64(v[PASCAL_P_SEQ_Q]);
    s.seq_kv = i64(v[PASCAL_P_SEQ_KV]);
    s.head_dim = i64(v[PASCAL_P_HEAD_DIM]);
    s.tile_q = i64(v[PASCAL_P_TILE_Q]);
    s.tile_kv = i64(v[PASCAL_P_TILE_KV]);
    s.causal = v[PASCAL_P_CAUSAL] == 1;
    s.m = i64(v[PASCAL_P_GEMM_M]);
    s.n = i64(v[PASCAL_P_GEMM_N]);
    s.k = i64(v[PASCAL_P_GEMM_K]);
    s.tile_m = i64(v[PASCAL_P_TILE_M]);
    s.tile_n = i64(v[PASCAL_P_TILE_N]);
    s.tile_k = i64(v[PASCAL_P_TILE_K]);
    s.split_k = i64(v[PASCAL_P_SPLIT_K]);
    s.swizzle = i64(v[PASCAL_P_SWIZZLE]);
    s.raster = (int)i64(v[PASCAL_P_RASTER]);
    s.kernel = (int)i64(v[PASCAL_P_KERNEL]);
    s.num_splits = i64(v[PASCAL_P_NUM_SPLITS]);
    s.sms = v[PASCAL_P_SMS] >= 1 ? i64(v[PASCAL_P_SMS]) : 0;
    s.occupancy = v[PASCAL_P_OCCUPANCY] >= 1 ? i64(v[PASCAL_P_OCCUPANCY]) : 0;
    return pascal_workload_derive(&s, w);
}

/* The field a refusal is about, for the message's location. */
static int culprit(int error, int kind)
{
    switch (error) {
    case PASCAL_WL_HEADS: return PASCAL_P_KV_HEADS;
    case PASCAL_WL_BYTES: return PASCAL_P_DTYPE;
    case PASCAL_WL_SPLIT: return PASCAL_P_SPLIT_K;
    case PASCAL_WL_KERNEL: return PASCAL_P_KERNEL;
    case PASCAL_WL_SMS: return PASCAL_P_KERNEL;
    case PASCAL_WL_SPLITS: return PASCAL_P_NUM_SPLITS;
    case PASCAL_WL_DTYPE: return PASCAL_P_DTYPE;
    case PASCAL_WL_REDUCE: return PASCAL_P_OCCUPANCY;
    case PASCAL_WL_UNITS: return kind == PASCAL_WORKLOAD_GEMM ? PASCAL_P_TILE_N : PASCAL_P_WORKLOAD;
    default: return PASCAL_P_WORKLOAD;
    }
}

int spec_workload_point(const pascal_spec *spec, double *v, uint64_t i, pascal_error *err)
{
    pascal_workload w;
    char why[320], where[512];
    apply_defaults(v);
    int rc = pascal_workload_of_point(v, &w);
    if (rc == PASCAL_WL_OK) {
        v[PASCAL_P_N] = (double)w.blocks;
        v[PASCAL_P_BLOCK_BYTES] = (double)w.block_bytes;
        /* The per-wave models evaluate every wave: bound their work. */
        if (spec->models & ~(1u << PASCAL_MODEL_WORKLOAD) &&
            w.ctas > PASCAL_WORKLOAD_MAX_REQUESTS / w.units)
        {
            spec_describe_point(spec, v, i, 0, where, sizeof where);
            return yml_fail_mark(err, &spec->src[PASCAL_P_WORKLOAD], PASCAL_EINPUT,
                                  "expected at most %lld block requests per round over all waves "
                                  "(CTAs x units), got %lld CTAs x %lld at %s; use models: "
                                  "[workload] for its derived columns",
                                  (long long)PASCAL_WORKLOAD_MAX_REQUESTS, (long long)w.ctas,
                                  (long long)w.units, where);
        }
        return 0;
    }
    pascal_workload_explain(&w.shape, rc, why, sizeof why);
    spec_describe_point(spec, v, i, 0, where, sizeof where);
    return yml_fail_mark(err, &spec->src[culprit(rc, w.shape.kind)], PASCAL_EINPUT,
                          "expected a workload the model can take, got %s at %s", why, where);
}

/* ---- model steps (docs/workloads.md section 11) ---------------------------------- */

static void apply_model_defaults(double *v)
{
    int n;
    const wl_field *f = fields_of(KIND_MODEL, &n);
    for (int i = 0; i < n; i++)
        if (isnan(v[f[i].param]) && !isnan(f[i].dflt))
            v[f[i].param] = f[i].dflt;
    if (isnan(v[PASCAL_P_KV_HEADS]))
        v[PASCAL_P_KV_HEADS] = v[PASCAL_P_Q_HEADS];
    /* head_dim = hidden / q_heads where it divides (else left unset: refused) */
    if (isnan(v[PASCAL_P_HEAD_DIM]) && v[PASCAL_P_Q_HEADS] >= 1 &&
        fmod(v[PASCAL_P_HIDDEN], v[PASCAL_P_Q_HEADS]) == 0)
        v[PASCAL_P_HEAD_DIM] = v[PASCAL_P_HIDDEN] / v[PASCAL_P_Q_HEADS];
}

int pascal_step_of_point(const double *v, pascal_step *s)
{
    *s = (pascal_step){0};
    if (isnan(v[PASCAL_P_PHASE]))
        return -1;
    s->phase = (int)v[PASCAL_P_PHASE];
    s->layers = i64(v[PASCAL_P_LAYERS]);
    s->hidden = i64(v[PASCAL_P_HIDDEN]);
    s->heads = i64(v[PASCAL_P_Q_HEADS]);
    s->kv_heads = i64(v[PASCAL_P_KV_HEADS]);
    s->head_dim = i64(v[PASCAL_P_HEAD_DIM]);
    s->intermediate = i64(v[PASCAL_P_INTERMEDIATE]);
    s->vocab = i64(v[PASCAL_P_VOCAB]);
    s->batch = i64(v[PASCAL_P_BATCH]);
    s->context = i64(v[PASCAL_P_SEQ_KV]);
    pascal_workload_shape *k = &s->kernels;
    k->dtype = (int)i64(v[PASCAL_P_DTYPE]);
    k->kernel = (int)i64(v[PASCAL_P_KERNEL]);
    k->tile_q = i64(v[PASCAL_P_TILE_Q]);
    k->tile_kv = i64(v[PASCAL_P_TILE_KV]);
    k->num_splits = i64(v[PASCAL_P_NUM_SPLITS]);
    k->tile_m = i64(v[PASCAL_P_TILE_M]);
    k->tile_n = i64(v[PASCAL_P_TILE_N]);
    k->tile_k = i64(v[PASCAL_P_TILE_K]);
    k->raster = (int)i64(v[PASCAL_P_RASTER]);
    k->swizzle = i64(v[PASCAL_P_SWIZZLE]);
    k->sms = v[PASCAL_P_SMS] >= 1 ? i64(v[PASCAL_P_SMS]) : 0;
    k->occupancy = v[PASCAL_P_OCCUPANCY] >= 1 ? i64(v[PASCAL_P_OCCUPANCY]) : 0;
    return 0;
}

int pascal_step_kernel_point(const double *v, int op, double *sub, int64_t *count)
{
    pascal_step s;
    pascal_workload_shape k;
    pascal_workload w;
    *count = 0;
    if (pascal_step_of_point(v, &s) != 0)
        return -1;
    int rc = pascal_step_kernel(&s, op, &k, count);
    if (rc != PASCAL_WL_OK)
        return rc;
    memcpy(sub, v, PASCAL_NPARAM * sizeof *sub);
    sub[PASCAL_P_PHASE] = NAN;
    sub[PASCAL_P_WORKLOAD] = k.kind;
    sub[PASCAL_P_KERNEL] = k.kernel;
    if (k.kind == PASCAL_WORKLOAD_GEMM) {
        sub[PASCAL_P_GEMM_M] = (double)k.m;
        sub[PASCAL_P_GEMM_N] = (double)k.n;
        sub[PASCAL_P_GEMM_K] = (double)k.k;
        sub[PASCAL_P_SPLIT_K] = 1;
        static const int att[] = {PASCAL_P_BATCH, PASCAL_P_Q_HEADS, PASCAL_P_KV_HEADS, PASCAL_P_SEQ_Q,
                                  PASCAL_P_SEQ_KV, PASCAL_P_HEAD_DIM, PASCAL_P_TILE_Q,
                                  PASCAL_P_TILE_KV, PASCAL_P_CAUSAL, PASCAL_P_NUM_SPLITS};
        for (size_t i = 0; i < sizeof att / sizeof att[0]; i++)
            sub[att[i]] = NAN;
    } else {
        sub[PASCAL_P_SEQ_Q] = (double)k.seq_q;
        sub[PASCAL_P_CAUSAL] = k.causal;
        static const int gemm[] = {PASCAL_P_GEMM_M, PASCAL_P_GEMM_N, PASCAL_P_GEMM_K, PASCAL_P_TILE_M,
                                   PASCAL_P_TILE_N, PASCAL_P_TILE_K, PASCAL_P_RASTER,
                                   PASCAL_P_SWIZZLE, PASCAL_P_SPLIT_K};
        for (size_t i = 0; i < sizeof gemm / sizeof gemm[0]; i++)
            sub[gemm[i]] = NAN;
    }
    rc = pascal_workload_of_point(sub, &w);
    if (rc != PASCAL_WL_OK)
        return rc;
    sub[PASCAL_P_N] = (double)w.blocks;
    sub[PASCAL_P_BLOCK_BYTES] = (double)w.block_bytes;
    sub[PASCAL_P_C] = floor(v[PASCAL_P_CAPACITY_BYTES] / (double)w.block_bytes);
    return 0;
}

int spec_model_point(const pascal_spec *spec, double *v, uint64_t i, pascal_error *err)
{
    double sub[PASCAL_NPARAM];
    char why[320], where[512];
    apply_model_defaults(v);
    for (int op = 0; op < PASCAL_OP_COUNT; op++) {
        int64_t count;
        pascal_step s;
        pascal_workload_shape k = {0};
        pascal_workload w;
        int rc = pascal_step_kernel_point(v, op, sub, &count);
        if (rc == 0 && pascal_workload_of_point(sub, &w) == 0 &&
            w.ctas > PASCAL_WORKLOAD_MAX_REQUESTS / w.units) {
            spec_describe_point(spec, v, i, 0, where, sizeof where);
            return yml_fail_mark(err, &spec->step_mark, PASCAL_EINPUT,
                                  "expected at most %lld block requests per round over all waves "
                                  "(CTAs x units) in each kernel, got %s with %lld CTAs x %lld at %s",
                                  (long long)PASCAL_WORKLOAD_MAX_REQUESTS, pascal_step_op_names[op],
                                  (long long)w.ctas, (long long)w.units, where);
        }
        if (rc == 0)
            continue;
        pascal_step_of_point(v, &s);
        if (rc == PASCAL_WL_RANGE && pascal_step_kernel(&s, op, &k, &count) != PASCAL_WL_OK)
            snprintf(why, sizeof why, "a model field below 1 or head_dim unset (hidden %g is not a "
                     "multiple of q_heads %g: give head_dim)", v[PASCAL_P_HIDDEN], v[PASCAL_P_Q_HEADS]);
        else {
            pascal_step_kernel(&s, op, &k, &count);
            pascal_workload_explain(&k, rc, why, sizeof why);
        }
        int at = culprit(rc, k.kind);
        spec_describe_point(spec, v, i, 0, where, sizeof where);
        return yml_fail_mark(err, spec->source[at] != SRC_NONE ? &spec->src[at] : &spec->step_mark,
                              PASCAL_EINPUT, "expected a step whose kernels the model can take, got "
                              "%s: %s at %s", pascal_step_op_names[op], why, where);
    }
    return 0;
}

/* ---- words --------------------------------------------------------------------- */

const char *pascal_workload_phrase(int param)
{
    switch (param) {
    case PASCAL_P_SEQ_KV: return "context length";
    case PASCAL_P_SEQ_Q: return "query length";
    case PASCAL_P_BATCH: return "batch";
    case PASCAL_P_Q_HEADS: return "query heads";
    case PASCAL_P_KV_HEADS: return "KV heads";
    case PASCAL_P_HEAD_DIM: return "head dim";
    case PASCAL_P_TILE_Q: return "query tile";
    case PASCAL_P_TILE_KV: return "KV tile";
    case PASCAL_P_GEMM_M: return "M";
    case PASCAL_P_GEMM_N: return "N";
    case PASCAL_P_GEMM_K: return "K";
    case PASCAL_P_SPLIT_K: return "split-K";
    case PASCAL_P_RASTER: return "raster";
    case PASCAL_P_SWIZZLE: return "swizzle group";
    case PASCAL_P_DTYPE: return "dtype";
    case PASCAL_P_KERNEL: return "kernel";
    case PASCAL_P_NUM_SPLITS: return "KV splits";
    default: return NULL;
    }
}
