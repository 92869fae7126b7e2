/* The `sample:` section: parsing it and the intervals it allows, the draws
 * (random, Latin hypercube, Sobol through GSL) and their mapping onto the
 * axes.  See sample.h for the definitions and guarantees. */
#include "sweeps/sample.h"
#include "sweeps/spec_internal.h"

#include "common/suggest.h"

#include <gsl/gsl_qrng.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SOBOL_BITS 30                     /* GSL: numerators of 30 bits */
#define BLOCK_BITS 12                     /* a Sobol checkpoint every 4096 draws */
#define BLOCK (UINT64_C(1) << BLOCK_BITS)
#define FEISTEL_ROUNDS 4

/* Stream tags: the three methods never share a counter stream. */
#define TAG_RANDOM 0x72616e646f6dULL      /* "random" */
#define TAG_LHS_PERM 0x6c68732d7065ULL    /* "lhs-pe" */
#define TAG_LHS_JITTER 0x6c68732d6a69ULL  /* "lhs-ji" */

enum { KIND_GRID = 0, KIND_LINEAR = 1, KIND_LOG = 2 };

const char *const pascal_sample_method_names[PASCAL_SAMPLE_COUNT] = {"random", "sobol", "lhs"};

/* Every sampled spec gets its own id, so that a cache keyed by it can never
 * mistake a later spec (at a reused address) for an earlier one. */
static _Atomic uint64_t next_id = 1;

/* The last draw this thread expanded: under inner: grid the rows of a draw
 * are consecutive, and its values (dozens of generator calls for lhs, exp
 * and log for log intervals) are computed once for all of them.  A cache of a pure function: a hit and
 * a miss give the same bits. */
static _Thread_local struct {
    uint64_t id, j;
    double value[PASCAL_NPARAM];  /* per axis (canonical index): its drawn value */
} last_draw;

struct spec_sample {
    pascal_sample_info info;
    uint64_t id;                      /* next_id at parse */
    yml_mark mark, n_mark, seed_mark;/* the section, its `n` and `seed` */
    unsigned char kind[PASCAL_NPARAM];/* per parameter: KIND_* */
    uint64_t key[PASCAL_NPARAM];      /* per dimension: random or LHS jitter stream */
    uint64_t perm_key[PASCAL_NPARAM][FEISTEL_ROUNDS];
    int half;                         /* LHS: Feistel half width, bits */
    /* Sobol: GSL positioned after `built` blocks, stepped under `lock`. */
    gsl_qrng *q;
    double *buf;
    pthread_mutex_t lock;
    int lock_ready;
    uint32_t dir[BLOCK_BITS][PASCAL_NPARAM]; /* direction numbers v_0..v_11 */
    uint32_t *ckpt;                   /* ckpt[b - 1]: x_{b BLOCK}, ndims numerators */
    uint64_t nblocks;
    _Atomic uint64_t built;           /* checkpoints filled */
};

void spec_sample_free(struct spec_sample *s)
{
    if (!s)
        return;
    if (s->q)
        gsl_qrng_free(s->q);
    if (s->lock_ready)
        pthread_mutex_destroy(&s->lock);
    free(s->buf);
    free(s->ckpt);
    free(s);
}

/* ---- parsing ---------------------------------------------------------- */

/* A plain unsigned decimal integer of at most `max`; -1 otherwise. */
static int parse_count(const yaml_node_t *node, uint64_t max, uint64_t *out)
{
    const char *s = yml_scalar_text(node);
    uint64_t v = 0;
    if (!s || yml_is_null(node) || node->data.scalar.style != YAML_PLAIN_SCALAR_STYLE || !*s)
        return -1;
    for (; *s; s++) {
        if (*s < '0' || *s > '9' || v > (max - (uint64_t)(*s - '0')) / 10)
            return -1;
        v = v * 10 + (uint64_t)(*s - '0');
    }
    *out = v;
    return 0;
}

static int parse_method(const spec_ctx *c, const yaml_node_t *val, struct spec_sample *s)
{
    const char *t = yml_scalar_text(val);
    char got[96], hint[96];
    for (int m = 0; t && !yml_is_null(val) && m < PASCAL_SAMPLE_COUNT; m++)
        if (strcmp(t, pascal_sample_method_names[m]) == 0) {
            s->info.method = m;
            return 0;
        }
    yml_describe(val, got, sizeof got);
    return yml_fail(c->y, val, "sample.method", PASCAL_EINPUT,
                     "expected a sampling method (random, sobol, lhs), got %s%s", got,
                     pascal_suggest_hint(t, pascal_sample_method_names, PASCAL_SAMPLE_COUNT, hint,
                                         sizeof hint));
}

static int parse_key(const spec_ctx *c, const char *key, const yaml_node_t *val,
                     struct spec_sample *s)
{
    static const char *const inner_names[] = {"sample", "grid"};
    char path[YML_PATH_MAX], got[96], hint[96];
    const char *t = yml_scalar_text(val);
    yml_path_key(path, "sample", key);
    yml_describe(val, got, sizeof got);
    if (strcmp(key, "method") == 0)
        return parse_method(c, val, s);
    if (strcmp(key, "n") == 0) {
        yml_mark_of(c->y, val, path, &s->n_mark);
        if (parse_count(val, PASCAL_SAMPLE_MAX_N, &s->info.n) != 0 || s->info.n < 1)
            return yml_fail(c->y, val, path, PASCAL_EINPUT,
                             "expected a number of draws, a positive integer of at most 2^53, got %s",
                             got);
        return 0;
    }
    if (strcmp(key, "seed") == 0) {
        yml_mark_of(c->y, val, path, &s->seed_mark);
        if (parse_count(val, UINT64_MAX, &s->info.seed) != 0)
            return yml_fail(c->y, val, path, PASCAL_EINPUT,
                             "expected a seed, a non-negative integer below 2^64, got %s", got);
        return 0;
    }
    if (t && strcmp(t, "grid") == 0)
        s->info.inner_grid = 1;
    else if (!t || strcmp(t, "sample") != 0)
        return yml_fail(c->y, val, path, PASCAL_EINPUT,
                         "expected sample (every axis drawn) or grid (capacity-like axes enumerated "
                         "at every draw), got %s%s", got,
                         pascal_suggest_hint(t, inner_names, 2, hint, sizeof hint));
    return 0;
}

int spec_parse_sample(const spec_ctx *c, const yaml_node_t *node)
{
    static const char *const keys[] = {"method", "n", "seed", "inner"};
    const yaml_node_pair_t *pr;
    struct spec_sample *s;
    int have_method = 0, have_n = 0, have_seed = 0, rc;
    if (yml_is_null(node))
        return 0;
    rc = yml_check_mapping(c->y, node, "sample",
                            "a mapping like {method: sobol, n: 100000, seed: 1}", keys, 4);
    if (rc)
        return rc;
    if (!(s = calloc(1, sizeof *s)))
        return pascal_error_set(c->y->err, PASCAL_ENOMEM, "out of memory");
    c->spec->sample = s;   /* freed with the spec, whatever happens next */
    s->id = atomic_fetch_add(&next_id, 1);
    s->info.seed = 1;
    yml_mark_of(c->y, node, "sample", &s->mark);
    for (pr = node->data.mapping.pairs.start; pr < node->data.mapping.pairs.top; pr++) {
        const char *key = yml_scalar_text(yml_node(c->y, pr->key));
        have_method |= strcmp(key, "method") == 0;
        have_n |= strcmp(key, "n") == 0;
        have_seed |= strcmp(key, "seed") == 0;
        if ((rc = parse_key(c, key, yml_node(c->y, pr->value), s)))
            return rc;
    }
    if (!have_method || !have_n)
        return yml_fail(c->y, node, have_method ? "sample.n" : "sample.method", PASCAL_EINPUT,
                         "expected %s, got nothing (the key is missing)",
                         have_method ? "a number of draws" : "a sampling method (random, sobol, lhs)");
    if (s->info.method == PASCAL_SAMPLE_SOBOL && have_seed)
        return yml_fail_mark(c->y->err, &s->seed_mark, PASCAL_EINPUT,
                              "expected no seed with sobol (GSL's Sobol sequence is one fixed "
                              "sequence; random and lhs take a seed), got %llu",
                              (unsigned long long)s->info.seed);
    if (s->info.method == PASCAL_SAMPLE_SOBOL)
        s->info.seed = 0;
    if (s->info.method == PASCAL_SAMPLE_SOBOL && s->info.n > PASCAL_SAMPLE_SOBOL_MAX_N)
        return yml_fail_mark(c->y->err, &s->n_mark, PASCAL_EINPUT,
                              "expected at most %llu draws for sobol (GSL's Sobol numerators have "
                              "%d bits), got %llu; use random or lhs",
                              (unsigned long long)PASCAL_SAMPLE_SOBOL_MAX_N, SOBOL_BITS,
                              (unsigned long long)s->info.n);
    return 0;
}

/* A range without step, num or factor: an interval, in a sampled spec. */
int spec_sample_is_interval(const spec_ctx *c, const yaml_node_t *node, int param)
{
    int type = pascal_params[param].type;
    const yaml_node_pair_t *pr;
    if (!c->spec->sample || !node || node->type != YAML_MAPPING_NODE || type == PASCAL_T_PATTERN ||
        type == PASCAL_T_PHASES || type == PASCAL_T_PATH)
        return 0;
    for (pr = node->data.mapping.pairs.start; pr < node->data.mapping.pairs.top; pr++) {
        const char *k = yml_scalar_text(yml_node(c->y, pr->key));
        if (k && (strcmp(k, "step") == 0 || strcmp(k, "num") == 0 || strcmp(k, "factor") == 0))
            return 0;
    }
    return 1;
}

int spec_sample_interval(const spec_ctx *c, const yaml_node_t *node, int param, const char *path,
                         double **values, int64_t *count)
{
    static const char *const keys[] = {"from", "to", "step", "num", "factor", "scale"};
    const yaml_node_t *end[2] = {0}, *scale = NULL;
    const yaml_node_pair_t *pr;
    char sub[YML_PATH_MAX];
    double v[2];
    int rc = yml_check_mapping(c->y, node, path, "a range", keys, 6), log_scale = 0;
    if (rc)
        return rc;
    for (pr = node->data.mapping.pairs.start; pr < node->data.mapping.pairs.top; pr++) {
        const char *k = yml_scalar_text(yml_node(c->y, pr->key));
        const yaml_node_t *val = yml_node(c->y, pr->value);
        if (strcmp(k, "scale") == 0)
            scale = val;
        else
            end[strcmp(k, "to") == 0] = val;
    }
    for (int k = 0; k < 2; k++) {
        yml_path_key(sub, path, k ? "to" : "from");
        if (!end[k])
            return yml_fail(c->y, node, sub, PASCAL_EINPUT, "expected %s, got nothing (the interval has no %s)",
                             yml_expected(param), k ? "to" : "from");
        if ((rc = yml_value(c->y, end[k], param, sub, &v[k])))
            return rc;
    }
    if (scale) {
        const char *t = yml_scalar_text(scale);
        char got[96];
        yml_path_key(sub, path, "scale");
        yml_describe(scale, got, sizeof got);
        if (!t || (strcmp(t, "linear") != 0 && strcmp(t, "log") != 0))
            return yml_fail(c->y, scale, sub, PASCAL_EINPUT, "expected linear or log, got %s", got);
        log_scale = strcmp(t, "log") == 0;
    }
    if (!(v[0] < v[1]))
        return yml_fail(c->y, node, path, PASCAL_EINPUT,
                         "expected from < to for a sampled interval (one value goes under fixed), got "
                         "from %.17g, to %.17g", v[0], v[1]);
    if (log_scale && !(v[0] > 0))
        return yml_fail(c->y, node, path, PASCAL_EINPUT,
                         "expected from > 0 for scale: log, got from %.17g", v[0]);
    if (!(*values = malloc(2 * sizeof **values)))
        return pascal_error_set(c->y->err, PASCAL_ENOMEM, "out of memory");
    memcpy(*values, v, sizeof v);
    *count = 2;
    c->spec->sample->kind[param] = log_scale ? KIND_LOG : KIND_LINEAR;
    return 0;
}

/* ---- Sobol (GSL) -------------------------------------------------------- */

/* GSL's point as 30-bit numerators; -1 when it is not such a fraction (the
 * construction below would then not be GSL's). */
static int sobol_next(struct spec_sample *s, uint32_t *x)
{
    if (gsl_qrng_get(s->q, s->buf) != 0)
        return -1;
    for (int d = 0; d < s->info.ndims; d++) {
        double t = ldexp(s->buf[d], SOBOL_BITS);
        if (!(t >= 0 && t < (double)(UINT64_C(1) << SOBOL_BITS)) || t != floor(t))
            return -1;
        x[d] = (uint32_t)t;
    }
    return 0;
}

/* Steps GSL through the first block: x_t for t = 1..BLOCK.  The direction
 * numbers are v_k = x_{2^k} XOR x_{2^k - 1} (GSL's point t follows point
 * t - 1 by v_k, k the lowest zero bit of t - 1); x_BLOCK is checkpoint 1. */
static int sobol_init(const spec_ctx *c, struct spec_sample *s)
{
    int nd = s->info.ndims;
    uint32_t prev[PASCAL_NPARAM] = {0}, cur[PASCAL_NPARAM];
    s->nblocks = s->info.n >> BLOCK_BITS;
    s->q = gsl_qrng_alloc(gsl_qrng_sobol, (unsigned)nd);
    s->buf = malloc((size_t)nd * sizeof *s->buf);
    s->ckpt = malloc((size_t)(s->nblocks ? s->nblocks : 1) * (size_t)nd * sizeof *s->ckpt);
    if (!s->q || !s->buf || !s->ckpt)
        return pascal_error_set(c->y->err, PASCAL_ENOMEM, "out of memory for the Sobol sequence");
    if (pthread_mutex_init(&s->lock, NULL) != 0)
        return pascal_error_set(c->y->err, PASCAL_ENOMEM, "cannot create a lock for the Sobol sequence");
    s->lock_ready = 1;
    for (uint64_t t = 1; t <= BLOCK; t++) {
        if (sobol_next(s, cur) != 0)
            return pascal_error_set(c->y->err, PASCAL_EINTERNAL,
                                    "GSL's Sobol point %llu is not a %d-bit fraction",
                                    (unsigned long long)t, SOBOL_BITS);
        if ((t & (t - 1)) == 0 && t < BLOCK)   /* t = 2^k, k < BLOCK_BITS */
            for (int d = 0; d < nd; d++)
                s->dir[__builtin_ctzll(t)][d] = cur[d] ^ prev[d];
        memcpy(prev, cur, sizeof cur);
    }
    memcpy(s->ckpt, prev, (size_t)nd * sizeof *s->ckpt);
    atomic_store(&s->built, 1);
    return 0;
}

/* Fills checkpoints up to block b (the lazily paid cost of reaching a
 * draw).  GSL only fails past 2^30 - 1 points, which the parser excludes,
 * so a failure leaves the checkpoint at zero rather than aborting. */
static void sobol_reach(struct spec_sample *s, uint64_t b)
{
    int nd = s->info.ndims;
    if (atomic_load_explicit(&s->built, memory_order_acquire) >= b)
        return;
    pthread_mutex_lock(&s->lock);
    for (uint64_t k = atomic_load_explicit(&s->built, memory_order_relaxed); k < b; k++) {
        uint32_t *x = s->ckpt + k * (uint64_t)nd;
        memset(x, 0, (size_t)nd * sizeof *x);
        for (uint64_t t = 0; t < BLOCK; t++)
            if (sobol_next(s, x) != 0)
                break;
        atomic_store_explicit(&s->built, k + 1, memory_order_release);
    }
    pthread_mutex_unlock(&s->lock);
}

/* Draw j is x_t, t = j + 1: the checkpoint of t's block XOR the direction
 * numbers of gray(t) below the block's bits. */
static void sobol_unit(struct spec_sample *s, uint64_t j, double *u)
{
    uint64_t t = j + 1, b = t >> BLOCK_BITS, r = t & (BLOCK - 1), g = r ^ (r >> 1);
    uint32_t x[PASCAL_NPARAM] = {0};
    int nd = s->info.ndims;
    if (b > 0) {
        sobol_reach(s, b);
        memcpy(x, s->ckpt + (b - 1) * (uint64_t)nd, (size_t)nd * sizeof *x);
    }
    for (int k = 0; g; k++, g >>= 1)
        if (g & 1)
            for (int d = 0; d < nd; d++)
                x[d] ^= s->dir[k][d];
    for (int d = 0; d < nd; d++)
        u[d] = ldexp((double)x[d], -SOBOL_BITS);
}

/* ---- random and Latin hypercube ---------------------------------------- */

/* pi_d(j): a Feistel network on 2 half bits, keyed by (seed, d, round), is
 * a bijection of [0, 4^half); walking its cycle until the value is below n
 * restricts it to a bijection of [0, n). */
static uint64_t lhs_perm(const struct spec_sample *s, int d, uint64_t j)
{
    uint64_t mask = (UINT64_C(1) << s->half) - 1, x = j;
    do {
        uint64_t L = x >> s->half, R = x & mask;
        for (int k = 0; k < FEISTEL_ROUNDS; k++) {
            uint64_t t = L ^ (pascal_rng_u64(s->info.seed, s->perm_key[d][k], R) & mask);
            L = R;
            R = t;
        }
        x = (L << s->half) | R;
    } while (x >= s->info.n);
    return x;
}

static void unit_point(struct spec_sample *s, uint64_t j, double *u)
{
    if (s->info.method == PASCAL_SAMPLE_SOBOL) {
        sobol_unit(s, j, u);
        return;
    }
    for (int d = 0; d < s->info.ndims; d++) {
        double r = pascal_rng_uniform(s->info.seed, s->key[d], j);
        if (s->info.method == PASCAL_SAMPLE_LHS) {
            r = ((double)lhs_perm(s, d, j) + r) / (double)s->info.n;
            if (r >= 1.0)   /* (n - 1 + r) / n can round up to 1 */
                r = 0x1.fffffffffffffp-1;
        }
        u[d] = r;
    }
}

/* ---- mapping onto the axes --------------------------------------------- */

static double map_axis(const struct spec_sample *s, const pascal_axis *a, double u)
{
    int kind = s->kind[a->param], type = pascal_params[a->param].type;
    int whole = type == PASCAL_T_INT || type == PASCAL_T_SIZE;
    double from, to, x;
    if (kind == KIND_GRID) {   /* a list of any length, one value included */
        int64_t k = (int64_t)(u * (double)a->count);
        return a->values[k < a->count ? k : a->count - 1];
    }
    from = a->values[0], to = a->values[1];   /* an interval: its two ends */
    if (kind == KIND_LOG) {
        double top = whole ? to + 1 : to;
        x = exp(log(from) + u * (log(top) - log(from)));
    } else {
        x = whole ? from + u * (to - from + 1) : from + u * (to - from);
    }
    if (whole)
        x = floor(x);
    return x < from ? from : x > to ? to : x;
}

void spec_sample_values(const pascal_spec *spec, uint64_t i, double *v)
{
    struct spec_sample *s = spec->sample;
    uint64_t j = i / s->info.inner, r = i % s->info.inner;
    int64_t idx[PASCAL_NPARAM];
    for (int d = spec->ndims - 1; d >= s->info.ndims; d--) {
        idx[d] = (int64_t)(r % (uint64_t)spec->dim_size[d]);
        r /= (uint64_t)spec->dim_size[d];
    }
    if (last_draw.id != s->id || last_draw.j != j) {
        double u[PASCAL_NPARAM];
        unit_point(s, j, u);
        for (int a = 0; a < spec->naxes; a++)
            if (spec->axes[a].dim < s->info.ndims)
                last_draw.value[a] = map_axis(s, &spec->axes[a], u[spec->axes[a].dim]);
        last_draw.id = s->id;
        last_draw.j = j;
    }
    for (int a = 0; a < spec->naxes; a++) {
        const pascal_axis *ax = &spec->axes[a];
        v[ax->param] = ax->dim < s->info.ndims ? last_draw.value[a] : ax->values[idx[ax->dim]];
    }
}

/* ---- after the axes ------------------------------------------------------ */

static int dim_is_inner(const pascal_spec *spec, int d)
{
    for (int a = 0; a < spec->naxes; a++)
        if (spec->axes[a].dim == d && !(pascal_params[spec->axes[a].param].flags & PASCAL_PF_INNER))
            return 0;
    return 1;
}

int spec_sample_check_zip(const spec_ctx *c, const yaml_node_t *zip)
{
    const yaml_node_item_t *g, *it;
    char path[YML_PATH_MAX], sub[YML_PATH_MAX];
    if (!zip || zip->type != YAML_SEQUENCE_NODE)
        return 0;   /* parse_zip reports the shape */
    for (g = zip->data.sequence.items.start; g < zip->data.sequence.items.top; g++) {
        const yaml_node_t *gn = yml_node(c->y, *g);
        if (!gn || gn->type != YAML_SEQUENCE_NODE)
            continue;
        yml_path_index(path, "zip", (long)(g - zip->data.sequence.items.start));
        for (it = gn->data.sequence.items.start; it < gn->data.sequence.items.top; it++) {
            const yaml_node_t *m = yml_node(c->y, *it);
            int p = pascal_param_from_name(yml_scalar_text(m));
            if (p < 0 || c->spec->source[p] != SRC_AXIS || !c->spec->sample->kind[p])
                continue;
            yml_path_index(sub, path, (long)(it - gn->data.sequence.items.start));
            return yml_fail(c->y, m, sub, PASCAL_EINPUT,
                             "expected axes that are lists or grid ranges (step, num or factor) in a "
                             "zip group, whose axes share one index; got %s, a sampled interval",
                             pascal_params[p].name);
        }
    }
    return 0;
}

/* Intervals cannot be enumerated. */
static int check_intervals(const spec_ctx *c, struct spec_sample *s)
{
    const pascal_spec *spec = c->spec;
    for (int a = 0; a < spec->naxes; a++) {
        const pascal_axis *ax = &spec->axes[a];
        if (!s->kind[ax->param])
            continue;
        if (ax->dim >= s->info.ndims)
            return yml_fail_mark(c->y->err, &spec->src[ax->param], PASCAL_EINPUT,
                                  "expected a list or a grid range (step, num or factor): sample.inner: "
                                  "grid enumerates %s at every draw; got an interval",
                                  pascal_params[ax->param].name);
    }
    return 0;
}

static void make_keys(struct spec_sample *s)
{
    uint64_t tag = s->info.method == PASCAL_SAMPLE_LHS ? TAG_LHS_JITTER : TAG_RANDOM;
    for (int d = 0; d < s->info.ndims; d++) {
        s->key[d] = pascal_rng_mix(tag, (uint64_t)d);
        for (int k = 0; k < FEISTEL_ROUNDS; k++)
            s->perm_key[d][k] = pascal_rng_mix(pascal_rng_mix(TAG_LHS_PERM, (uint64_t)d), (uint64_t)k);
    }
    s->half = 1;
    while (s->half < 32 && (UINT64_C(1) << (2 * s->half)) < s->info.n)
        s->half++;
}

int spec_sample_finish(const spec_ctx *c)
{
    pascal_spec *spec = c->spec;
    struct spec_sample *s = spec->sample;
    uint64_t inner = 1;
    int ns = spec->ndims, rc;
    if (s->info.inner_grid)   /* capacity-like dimensions are the last ones */
        while (ns > 0 && dim_is_inner(spec, ns - 1))
            ns--;
    if (ns == 0)
        return yml_fail_mark(c->y->err, &s->mark, PASCAL_EINPUT,
                              "expected an axis to draw, got only capacity-like axes, which inner: grid "
                              "enumerates");
    s->info.ndims = ns;
    if ((rc = check_intervals(c, s)))
        return rc;
    for (int d = ns; d < spec->ndims; d++)
        if (__builtin_mul_overflow(inner, (uint64_t)spec->dim_size[d], &inner))
            inner = UINT64_MAX;
    if (__builtin_mul_overflow(s->info.n, inner, &spec->size))
        return yml_fail_mark(c->y->err, &s->n_mark, PASCAL_EINPUT,
                              "expected fewer than 2^64 rows, got %llu draws x %llu enumerated points",
                              (unsigned long long)s->info.n, (unsigned long long)inner);
    s->info.inner = inner;
    if (s->info.method == PASCAL_SAMPLE_SOBOL && ns > PASCAL_SAMPLE_SOBOL_MAX_DIMS)
        return yml_fail_mark(c->y->err, &s->mark, PASCAL_EINPUT,
                              "expected at most %d sampled dimensions for sobol (GSL's table), got %d; "
                              "use random or lhs, or zip axes", PASCAL_SAMPLE_SOBOL_MAX_DIMS, ns);
    make_keys(s);
    return s->info.method == PASCAL_SAMPLE_SOBOL ? sobol_init(c, s) : 0;
}

/* ---- public accessors ---------------------------------------------------- */

const pascal_sample_info *pascal_spec_sample(const pascal_spec *spec)
{
    return spec->sample ? &spec->sample->info : NULL;
}

int pascal_spec_axis_sampled(const pascal_spec *spec, int i)
{
    return spec->sample && i >= 0 && i < spec->naxes && spec->axes[i].dim < spec->sample->info.ndims;
}

int pascal_spec_axis_interval(const pascal_spec *spec, int i)
{
    return spec->sample && i >= 0 && i < spec->naxes ? spec->sample->kind[spec->axes[i].param] : 0;
}

void pascal_spec_sample_unit(const pascal_spec *spec, uint64_t j, double *u)
{
    if (spec->sample && j < spec->sample->info.n)
        unit_point(spec->sample, j, u);
}
