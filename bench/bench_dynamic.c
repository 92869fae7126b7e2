/* Dynamic-model throughput (paper section 4).  Prints:
 *   1. pascal_dyn_predict calls per second on one thread (mixed queries:
 *      brackets, clamps, depth fallbacks, rejections);
 *   2. a dynamic sweep through the engine (occupancy x path x depth x
 *      compute x N x W, 2.56 million points, no output file) on 1 and 2
 *      threads, beside a baseline in the same process: the same points with
 *      the `sharing` model, whose per-point work is a comparison, i.e. the
 *      engine's own cost of expanding and storing a point;
 *   3. leave-one-key-out cross-validation over 100 keys x 10 horizons (3000
 *      runs), PASCAL alone and with the four baselines.
 * Each case runs REPS times; the median is printed.  Figures only: nothing
 * here passes or fails. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench_util.h"
#include "calibrate/calibrate.h"
#include "common/clock.h"
#include "engine/run.h"

#define REPS 3

static void die(const char *what, const pascal_error *err)
{
    fprintf(stderr, "bench_dynamic: %s: %s\n", what, err ? err->msg : "");
    exit(1);
}

/* The synthetic law of configs/calibration/generate_synthetic.py, with a
 * small deterministic multiplicative wobble standing in for noise. */
static double law(int64_t o, int path, int64_t d, int64_t m, double x, uint64_t *s)
{
    static const double cf[3] = {1.0, 0.55, 0.8};
    double depth = path == PASCAL_DYN_SYNC ? 1.0 : 1.4 / sqrt((double)d);
    double beta = 1.2 * pow((double)o, 0.8) * depth * (1 + 0.02 * (double)m) * cf[pascal_dyn_class(m)];
    double ell = 20.0 * (1 + (double)m / 16.0) / sqrt((double)o) * (path ? 1 + 0.3 * (double)d : 1.0);
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    return (1 + beta * (1 - (ell / x) * (1 - exp(-x / ell)))) *
           (1 + 0.06 * ((double)(*s >> 11) / 9007199254740992.0 - 0.5));
}

/* 100 keys (o 1-2, tma depths 2-6, 10 computes) x 10 horizons x 3 runs. */
static pascal_refs make_refs(void)
{
    static const int64_t ms[10] = {0, 2, 5, 8, 13, 16, 22, 24, 32, 41};
    pascal_refs r = {0, malloc(3000 * sizeof(pascal_dyn_ref)), NULL};
    uint64_t s = 2385;
    for (int64_t o = 1; o <= 2; o++)
        for (int64_t d = 2; d <= 6; d++)
            for (int k = 0; k < 10; k++)
                for (int h = 0; h < 10; h++)
                    for (int rep = 0; rep < 3; rep++) {
                        double W = (double)(1 << h);
                        r.rows[r.n++] = (pascal_dyn_ref){o, PASCAL_DYN_TMA, d, ms[k], 4096, W,
                                                         law(o, PASCAL_DYN_TMA, d, ms[k], W, &s)};
                    }
    return r;
}

static pascal_dyn_params params(void)
{
    pascal_dyn_params p = pascal_dyn_default_params();
    p.sms = 48, p.C = 1280, p.block_bytes = 16384;
    return p;
}

static double predict_rate(const pascal_dyn_model *m)
{
    double rates[REPS];
    volatile double sink = 0;
    for (int r = 0; r < REPS; r++) {
        int64_t n = 0;
        double t0 = pascal_now();
        for (int64_t o = 1; o <= 3; o++)
            for (int64_t d = 1; d <= 7; d++)
                for (int64_t mm = 0; mm < 64; mm++)
                    for (int w = 1; w <= 1000; w++, n++) {
                        pascal_dyn_query q = {o, PASCAL_DYN_TMA, d, mm, 4096, (double)w, NAN};
                        pascal_dyn_pred p;
                        pascal_dyn_predict(m, &q, &p);
                        sink += p.K;
                    }
        rates[r] = (double)n / (pascal_now() - t0);
    }
    (void)sink;
    return median(rates, REPS);
}

static const char *sweep_fmt =
    "name: bench-dynamic\n"
    "models: [%s]\n"
    "%s%s%s"
    "fixed: {sms: 48, capacity_bytes: 20MiB, block_bytes: 16KiB, lead: 100}\n"
    "axes:\n"
    "  occupancy: [1, 2]\n"
    "  path: [sync, tma]\n"
    "  depth: [2, 3, 4, 5, 6]\n"
    "  compute: {from: 0, to: 127, step: 1}\n"
    "  N: [4096, 8192]\n"
    "  W: {from: 1, to: 500, step: 1}\n";

static double sweep_rate(const char *model_path, const char *models, int threads, uint64_t *rows)
{
    char text[2048];
    double rates[REPS];
    pascal_spec *spec = NULL;
    pascal_error err = {0};
    int dyn = strcmp(models, "dynamic") == 0;
    snprintf(text, sizeof text, sweep_fmt, models, dyn ? "calibration: " : "", dyn ? model_path : "",
             dyn ? "\n" : "");
    if (pascal_spec_parse(text, strlen(text), "/bench.yaml", &spec, &err) != 0)
        die("spec", &err);
    for (int r = 0; r < REPS; r++) {
        pascal_run_opts o = {0};
        pascal_run_stats st;
        o.threads = threads;
        o.compression = -1;
        if (pascal_run(spec, &o, &st, &err) != 0)
            die("run", &err);
        rates[r] = (double)st.rows / (st.eval_seconds + st.plan_seconds);
        *rows = st.rows;
    }
    pascal_spec_free(spec);
    return median(rates, REPS);
}

static double cv_seconds(const pascal_refs *refs, const pascal_dyn_agg *agg, int baselines,
                         double *mape)
{
    double t[REPS];
    pascal_dyn_params par = params();
    pascal_cv_opts o = pascal_cv_default_opts();
    o.baselines = baselines;
    for (int r = 0; r < REPS; r++) {
        pascal_cv_result cv;
        pascal_error err = {0};
        double t0 = pascal_now();
        if (pascal_calibrate_cv(refs, agg, &par, &o, &cv, &err) != 0)
            die("cv", &err);
        t[r] = pascal_now() - t0;
        for (int k = 0; k < PASCAL_CV_NMETHOD; k++)
            mape[k] = cv.mape[k];
        pascal_calibrate_cv_free(&cv);
    }
    return median(t, REPS);
}

int main(void)
{
    pascal_refs refs = make_refs();
    pascal_dyn_agg *agg = NULL;
    pascal_dyn_model *m = NULL;
    pascal_dyn_params par = params();
    pascal_cal_prov prov;
    pascal_error err = {0};
    char dir[] = "/tmp/pascal-bench-dyn-XXXXXX", path[64];
    double mape[PASCAL_CV_NMETHOD], r1, r2, b1, b2, s0, s1;
    uint64_t rows = 0;
    if (pascal_dyn_aggregate(refs.rows, refs.n, PASCAL_DYN_N0, &agg) || pascal_dyn_fit(agg, -1, &par, &m))
        die("fit", NULL);
    pascal_dyn_model_set_band(m, 0.1);
    if (!mkdtemp(dir))
        die("mkdtemp", NULL);
    snprintf(path, sizeof path, "%s/model.h5", dir);
    memset(&prov, 0, sizeof prov);
    prov.cv = pascal_cv_default_opts();
    if (pascal_calibrate_save(path, m, &refs, NULL, NULL, 0, &prov, &err) != 0)
        die("save", &err);

    printf("bench_dynamic (median of %d)\n", REPS);
    printf("  pascal_dyn_predict, 1 thread: %.3g predictions/s\n", predict_rate(m));
    r1 = sweep_rate(path, "dynamic", 1, &rows);
    r2 = sweep_rate(path, "dynamic", 2, &rows);
    b1 = sweep_rate(path, "sharing", 1, &rows);
    b2 = sweep_rate(path, "sharing", 2, &rows);
    printf("  dynamic sweep, %llu points, no output: 1 thread %.3g points/s, 2 threads %.3g points/s\n",
           (unsigned long long)rows, r1, r2);
    printf("  baseline (sharing model, same points): 1 thread %.3g points/s, 2 threads %.3g points/s\n",
           b1, b2);
    printf("  dynamic / baseline: %.2f (1 thread), %.2f (2 threads)\n", r1 / b1, r2 / b2);
    s0 = cv_seconds(&refs, agg, 0, mape);
    s1 = cv_seconds(&refs, agg, 1, mape);
    printf("  leave-one-key-out CV, %lld keys x 10 horizons (%lld runs): %.3f s PASCAL only, "
           "%.3f s with baselines\n",
           (long long)agg->nkeys, (long long)refs.n, s0, s1);
    printf("    key-balanced MAPE %%: pascal %.2f, aligned %.2f, nearest %.2f, knn %.2f, ridge %.2f\n",
           mape[0], mape[1], mape[2], mape[3], mape[4]);
    unlink(path);
    rmdir(dir);
    pascal_dyn_model_free(m);
    pascal_dyn_agg_free(agg);
    free(refs.rows);
    return 0;
}
