/* Static sweep throughput.  Prints points per second for:
 *   1. TTL + LRU band + residency bound, M = 192, N = 8192, 64 capacities per
 *      uniform-random phase vector, on 1 and 2 threads (engine, no output);
 *   2. exact LRU (K_lru) at M = 192, with 64 capacities per phase vector and
 *      with a new phase vector at every point;
 *   3. a baseline in the same process: the same points as case 1 with the
 *      phase-vector work redone at every point (what the innermost-capacity
 *      order saves);
 *   4. end to end: 10 million points, 8 result columns, HDF5 write,
 *      uncompressed and at the spec's default deflate level, with wall time
 *      (median of REPS_E2E), file size and peak resident memory.
 * Each case runs REPS times; the median is printed.  Figures only: nothing
 * here passes or fails. */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench_util.h"
#include "common/clock.h"
#include "engine/run.h"
#include "model/phases.h"
#include "model/static.h"

#define REPS 5
#define REPS_E2E 3

static pascal_spec *make_spec(const char *text)
{
    pascal_spec *spec = NULL;
    pascal_error err = {0};
    if (pascal_spec_parse(text, strlen(text), "bench.yaml", &spec, &err) != 0) {
        fprintf(stderr, "bench: %s\n", err.msg);
        exit(1);
    }
    return spec;
}

/* Median points/s of pascal_run over REPS runs (no output file). */
static double engine_rate(const pascal_spec *spec, int threads, const char *out)
{
    double rates[REPS];
    for (int r = 0; r < REPS; r++) {
        pascal_run_opts o = {0};
        pascal_run_stats st;
        pascal_error err = {0};
        o.threads = threads;
        o.compression = -1;
        o.out_path = out;
        if (pascal_run(spec, &o, &st, &err) != 0) {
            fprintf(stderr, "bench: %s\n", err.msg);
            exit(1);
        }
        rates[r] = (double)st.rows / (st.eval_seconds + st.plan_seconds);
    }
    return median(rates, REPS);
}

/* Baseline: every point regenerates and re-prepares its phase vector. */
static double baseline_rate(int64_t nvec, int64_t ncap)
{
    double rates[REPS];
    int64_t M = 192, N = 8192, *ph = malloc((size_t)M * sizeof *ph);
    pascal_static *ws = pascal_static_create(M);
    volatile double sink = 0;
    for (int r = 0; r < REPS; r++) {
        double t0 = pascal_now();
        for (int64_t v = 0; v < nvec; v++)
            for (int64_t c = 0; c < ncap; c++) {
                pascal_pattern pat = {.kind = PASCAL_PATTERN_UNIFORM, .seed = (uint64_t)v, .key = 7};
                int64_t C = 64 + c * 64;
                double lo, hi;
                pascal_phases_generate(&pat, N, M, ph);
                pascal_static_prepare(ws, ph, M, N, PASCAL_STATIC_DELTA);
                pascal_static_lru_band(ws, C, &lo, &hi);
                sink += (double)pascal_static_k_ttl(ws, C) + lo + hi +
                        pascal_static_k_bound(ws, C, 0);
            }
        rates[r] = (double)(nvec * ncap) / (pascal_now() - t0);
    }
    pascal_static_free(ws);
    free(ph);
    return median(rates, REPS);
}

static const char *spec_ttl =
    "name: bench-ttl\nmodels: [ttl, lru_band, residency]\n"
    "columns: [K_ttl, rho_ttl, K_lru_lo, K_lru_hi, K_bound]\n"
    "fixed: {N: 8192, M: 192, pattern: uniform}\n"
    "axes:\n  seed: {from: 1, to: 8000, step: 1}\n  C: {from: 64, to: 4096, step: 64}\n";
static const char *spec_lru64 =
    "name: bench-lru\nmodels: [lru]\ncolumns: [K_lru]\n"
    "fixed: {N: 8192, M: 192, pattern: uniform}\n"
    "axes:\n  seed: {from: 1, to: 2000, step: 1}\n  C: {from: 64, to: 4096, step: 64}\n";
static const char *spec_lru1 =
    "name: bench-lru1\nmodels: [lru]\ncolumns: [K_lru]\n"
    "fixed: {N: 8192, M: 192, pattern: uniform, C: 1280}\n"
    "axes:\n  seed: {from: 1, to: 20000, step: 1}\n";
static const char *spec_e2e =
    "name: bench-e2e\nmodels: [ttl, lru_band, residency, che]\n"
    "columns: [theta, T_star, K_ttl, rho_ttl, K_lru_lo, K_lru_hi, K_bound, rho_che]\n"
    "fixed: {N: 8192, M: 192, pattern: uniform}\n"
    "axes:\n  seed: {from: 1, to: 39063, step: 1}\n  C: {from: 16, to: 4096, step: 16}\n";

int main(int argc, char **argv)
{
    int maxt = omp_get_max_threads() < 2 ? 2 : omp_get_max_threads();
    const char *dir = argc > 1 ? argv[1] : "/tmp";
    char path[4096];
    pascal_spec *s;
    double r1, r2, base;
    struct rusage ru;
    printf("pascal static benchmarks (median of %d runs, %d cores online)\n", REPS,
           (int)sysconf(_SC_NPROCESSORS_ONLN));

    s = make_spec(spec_ttl);
    r1 = engine_rate(s, 1, NULL);
    r2 = engine_rate(s, maxt, NULL);
    base = baseline_rate(500, 64);
    printf("ttl+band+residency  M=192 N=8192 64 caps/vector: %.3g pts/s (1 thread), %.3g pts/s "
           "(%d threads), scaling %.2fx\n", r1, r2, maxt, r2 / r1);
    printf("  baseline (phase vector rebuilt per point, 1 thread): %.3g pts/s; engine/baseline "
           "= %.1fx\n", base, r1 / base);
    pascal_spec_free(s);

    s = make_spec(spec_lru64);
    printf("exact LRU           M=192 64 caps/vector: %.3g pts/s (%d threads)\n",
           engine_rate(s, maxt, NULL), maxt);
    pascal_spec_free(s);
    s = make_spec(spec_lru1);
    printf("exact LRU           M=192 new vector every point: %.3g pts/s (%d threads)\n",
           engine_rate(s, maxt, NULL), maxt);
    pascal_spec_free(s);

    s = make_spec(spec_e2e);
    snprintf(path, sizeof path, "%s/pascal-bench-e2e.h5", dir);
    for (int level = 0; level >= -1; level--) { /* uncompressed, then the spec's default */
        double secs[REPS_E2E], plan = 0, bytes = 0;
        pascal_run_stats st;
        for (int r = 0; r < REPS_E2E; r++) {
            pascal_run_opts o = {0};
            pascal_error err = {0};
            struct stat sb;
            o.threads = maxt, o.compression = level, o.out_path = path;
            if (pascal_run(s, &o, &st, &err) != 0) {
                fprintf(stderr, "bench: %s\n", err.msg);
                return 1;
            }
            secs[r] = st.total_seconds;
            plan += st.plan_seconds / REPS_E2E;
            bytes = stat(path, &sb) == 0 ? (double)sb.st_size : 0;
            unlink(path);
        }
        getrusage(RUSAGE_SELF, &ru);
        printf("end to end          %llu points x 8 columns -> HDF5 %s: %.2f s (plan %.2f s), "
               "%.3g pts/s, %.0f MiB, peak RSS %.0f MiB (%d threads)\n",
               (unsigned long long)st.rows, level == 0 ? "uncompressed" : "default deflate",
               median(secs, REPS_E2E), plan, (double)st.rows / median(secs, REPS_E2E),
               bytes / 1048576.0, (double)ru.ru_maxrss / 1024.0, maxt);
    }
    pascal_spec_free(s);
    return 0;
}
