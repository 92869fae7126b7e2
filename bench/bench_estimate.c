/* How far the estimate is from the exact answer.  The estimate
 * (traffic_lru: the per-wave closed forms of docs/workloads.md section 3)
 * against the exact lock-step replay of the kernel's trace (traffic_replay),
 * point by point:
 *   1. every point of each shipped workload study, its models replaced by
 *      [workload, traffic, lru_replay];
 *   2. random workload points (a fixed seed): attention decode and
 *      non-causal prefill, GQA and MHA, every kernel, and GEMM in every
 *      raster and kernel, aligned and drifting CTAs, capacities from a
 *      sixteenth to twice the footprint.
 * Prints, per set: points, the worst relative error |lru - replay| / replay
 * with the point, the median, and the share of points off by more than 1 %
 * and 10 %.  Figures only: nothing here passes or fails; docs/workloads.md
 * quotes them.
 *
 *   build/bench_estimate [SOURCE_DIR]      (default: the source tree) */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "common/readfile.h"
#include "engine/eval.h"
#include "sweeps/spec.h"

typedef struct stats {
    double *err;
    int n, cap;
    double worst;
    char at[512];
} stats;

static void push(stats *s, double e);

static void add(stats *s, double lru, double replay, const pascal_spec *spec, uint64_t i)
{
    if (!(replay > 0) || isnan(lru))
        return;
    double e = fabs(lru - replay) / replay;
    push(s, e);
    if (e > s->worst || s->n == 1) {
        s->worst = e;
        snprintf(s->at, sizeof s->at, "%s point %llu: %.4g vs %.4g", pascal_spec_name(spec),
                 (unsigned long long)i, lru, replay);
    }
}

static void push(stats *s, double e)
{
    if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 1024;
        s->err = realloc(s->err, (size_t)s->cap * sizeof *s->err);
        if (!s->err)
            exit(1);
    }
    s->err[s->n++] = e;
}

/* Folds part's errors and worst point into all. */
static void merge(stats *all, const stats *part)
{
    for (int k = 0; k < part->n; k++)
        push(all, part->err[k]);
    if (part->n && (part->worst > all->worst || all->n == part->n)) {
        all->worst = part->worst;
        snprintf(all->at, sizeof all->at, "%s", part->at);
    }
}

static void report(const char *what, stats *s)
{
    int over1 = 0, over10 = 0;
    for (int k = 0; k < s->n; k++) {
        over1 += s->err[k] > 0.01;
        over10 += s->err[k] > 0.10;
    }
    double med = s->n ? median(s->err, s->n) : NAN;
    printf("%-44s %6d points  worst %6.1f%%  median %5.2f%%  > 1%%: %5.1f%%  > 10%%: %5.1f%%\n", what,
           s->n, 100 * s->worst, 100 * med, s->n ? 100.0 * over1 / s->n : NAN,
           s->n ? 100.0 * over10 / s->n : NAN);
    printf("    worst at %s\n", s->at);
}

/* Every point of a spec's text: lru and replay. */
static int run_spec(const char *text, size_t len, const char *name, stats *s)
{
    pascal_spec *spec = NULL;
    pascal_error err = {0};
    if (pascal_spec_parse(text, len, name, &spec, &err) != 0) {
        fprintf(stderr, "bench_estimate: %s\n", err.msg);
        return -1;
    }
    pascal_eval *ev = pascal_eval_create(pascal_spec_models(spec));
    const int cols[] = {PASCAL_COL_TRAFFIC_LRU, PASCAL_COL_TRAFFIC_REPLAY};
    for (uint64_t i = 0; i < pascal_spec_size(spec); i++) {
        pascal_point p;
        double v[2];
        if (pascal_spec_point(spec, i, &p, &err) != 1)
            continue;
        if (pascal_eval_point(ev, &p, cols, 2, v) == 0)
            add(s, v[0], v[1], spec, i);
    }
    pascal_eval_free(ev);
    pascal_spec_free(spec);
    return 0;
}

/* A shipped study with its models line replaced. */
static void shipped(const char *src, const char *file, stats *all)
{
    char path[1024], *text = NULL, *out;
    size_t len;
    pascal_error err = {0};
    stats s = {0};
    snprintf(path, sizeof path, "%s/configs/%s", src, file);
    if (pascal_read_file(path, 1 << 20, &text, &len, &err) != 0) {
        fprintf(stderr, "bench_estimate: %s\n", err.msg);
        return;
    }
    char *m = strstr(text, "\nmodels:");
    char *eol = m ? strchr(m + 1, '\n') : NULL;
    if (!eol) {
        free(text);
        return;
    }
    const char *models = "\nmodels: [workload, traffic, lru_replay]";
    size_t head = (size_t)(m - text), n = head + strlen(models) + strlen(eol) + 1;
    out = malloc(n);
    if (!out)
        exit(1);
    snprintf(out, n, "%.*s%s%s", (int)head, text, models, eol);
    /* Relative device paths resolve against the spec's folder. */
    if (run_spec(out, strlen(out), path, &s) == 0) {
        report(file, &s);
        merge(all, &s);
    }
    free(s.err);
    free(out);
    free(text);
}

static uint64_t rng = 20261201;
static int64_t draw(int64_t lo, int64_t hi)
{
    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
    return lo + (int64_t)((rng >> 33) % (uint64_t)(hi - lo + 1));
}

/* One random shape as a spec over capacity (a sixteenth to twice the
 * footprint, 8 steps) and pattern (aligned, gaussian sigma 2). */
static void random_point(int attention, stats *s)
{
    char buf[2048], shape[512];
    int64_t M = draw(4, 64);
    if (attention) {
        static const char *kernels[] = {"model", "flash-attn-2"};
        int64_t kv = draw(1, 4), g = (int64_t[]){1, 2, 4, 8}[draw(0, 3)];
        int64_t seq_q = draw(0, 1) ? 1 : 64 * draw(1, 8), seq_kv = 64 * draw(4, 64);
        snprintf(shape, sizeof shape,
                 "attention: {batch: %lld, q_heads: %lld, kv_heads: %lld, seq_q: %lld, seq_kv: %lld, "
                 "head_dim: 64, dtype: bf16, tile_q: 64, tile_kv: 64, kernel: %s}",
                 (long long)draw(1, 4), (long long)(kv * g), (long long)kv, (long long)seq_q,
                 (long long)seq_kv, kernels[draw(0, 1)]);
    } else {
        static const char *rasters[] = {"row", "column", "swizzle"};
        int cutlass = (int)draw(0, 3) == 0;
        snprintf(shape, sizeof shape,
                 "gemm: {gemm_m: %lld, gemm_n: %lld, gemm_k: %lld, dtype: fp8, tile_m: 64, tile_n: %lld, "
                 "tile_k: 64, raster: %s, swizzle: %lld%s}",
                 (long long)(64 * draw(1, 24)), (long long)(64 * draw(1, 24)),
                 (long long)(64 * draw(2, 32)), (long long)(64 * draw(1, 2)),
                 cutlass ? "row" : rasters[draw(0, 2)], (long long)(1 << draw(0, 3)),
                 cutlass ? ", kernel: cutlass" : "");
    }
    snprintf(buf, sizeof buf,
             "name: random\nmodels: [workload, traffic, lru_replay]\nworkload:\n  %s\n"
             "fixed: {M: %lld, sigma: 2}\naxes:\n  pattern: [aligned, gaussian]\n"
             "  C: {from: 4, to: 65536, num: 8, scale: log}\n",
             shape, (long long)M);
    double before = s->n ? s->worst : -1;
    run_spec(buf, strlen(buf), "random", s);
    if (s->worst > before) {   /* name the shape, not its throwaway spec */
        char at[512];
        snprintf(at, sizeof at, "%s", s->at);
        snprintf(s->at, sizeof s->at, "%s, M %lld, %s", shape, (long long)M,
                 strstr(at, "point") ? strstr(at, "point") : at);
    }
}

int main(int argc, char **argv)
{
    const char *src = argc > 1 ? argv[1] : PASCAL_SOURCE_DIR;
    static const char *const studies[] = {
        "llama70b-decode-attention-h200.yaml", "llama8b-decode-attention-gb10.yaml",
        "llama70b-mlp-gemm-h200.yaml", "llama8b-mlp-gemm-gb10.yaml"};
    stats all = {0}, att = {0}, gemm = {0};
    printf("estimate (traffic_lru) against the exact replay (traffic_replay), relative error:\n");
    for (size_t k = 0; k < sizeof studies / sizeof studies[0]; k++)
        shipped(src, studies[k], &all);
    report("the four shipped studies together", &all);
    for (int i = 0; i < 150; i++)
        random_point(1, &att);
    for (int i = 0; i < 150; i++)
        random_point(0, &gemm);
    report("random attention (150 shapes x 16)", &att);
    report("random GEMM (150 shapes x 16)", &gemm);
    free(all.err);
    free(att.err);
    free(gemm.err);
    return 0;
}
