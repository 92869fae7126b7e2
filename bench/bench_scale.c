/* Scale benchmarks (docs/scale.md).  Prints, for this machine:
 *   e2e POINTS [DIR] [LEVEL]  a static sweep of POINTS points (256
 *       capacities per uniform phase vector, M = 192, N = 8192; 8 float64
 *       result columns and 4 int64 point columns) through pascal_run into
 *       an HDF5 file in DIR (default /tmp) at deflate LEVEL (default 1,
 *       shuffled): wall and CPU seconds, plan/evaluation split, points/s,
 *       peak resident memory, file size; the file is deleted afterwards;
 *   sample [POINTS]  sampled runs (random, lhs, sobol) over an 8-axis space
 *       (two lists, a grid range and five intervals, log ones included),
 *       evaluated without output: POINTS rows as POINTS / 64 draws at 64
 *       capacities each (inner: grid), POINTS / 10 draws each its own row
 *       and phase vector (inner: sample), and POINTS draws expanded only
 *       (the cost of sampling itself); default 10^7;
 *   size  pascal size against the equivalent grid: 2000 scenarios searched
 *       over C = 1..8192 by bisection, and the grid sweep of every C in
 *       that range (same answers) evaluated without output;
 *   (no argument)  sample, size, and e2e at 10^7 points.
 * One run each for e2e (the 10^9 sweep takes minutes), medians of REPS for
 * the others.  Figures only: nothing here passes or fails. */
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
#include "engine/size.h"
#include "sweeps/sample.h"

#define REPS 3

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

static double cpu_seconds(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_utime.tv_sec + 1e-6 * (double)ru.ru_utime.tv_usec +
           (double)ru.ru_stime.tv_sec + 1e-6 * (double)ru.ru_stime.tv_usec;
}

static double peak_mib(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_maxrss / 1024.0;
}

static void run_or_die(const pascal_spec *spec, pascal_run_opts *o, pascal_run_stats *st)
{
    pascal_error err = {0};
    if (pascal_run(spec, o, st, &err) != 0) {
        fprintf(stderr, "bench: %s\n", err.msg);
        exit(1);
    }
}

static void bench_e2e(double points, const char *dir, int level)
{
    char text[1024], path[4096];
    long seeds = (long)ceil(points / 256.0);
    struct stat sb;
    pascal_run_opts o = {0};
    pascal_run_stats st;
    double c0 = cpu_seconds(), t0 = pascal_now(), wall, cpu;
    snprintf(text, sizeof text,
             "name: bench-e2e\nmodels: [ttl, lru_band, residency, che]\n"
             "columns: [theta, T_star, K_ttl, rho_ttl, K_lru_lo, K_lru_hi, K_bound, rho_che]\n"
             "fixed: {N: 8192, M: 192, pattern: uniform}\n"
             "axes:\n  seed: {from: 1, to: %ld, step: 1}\n  C: {from: 16, to: 4096, step: 16}\n"
             "output: {compression: %d, shuffle: true}\n", seeds, level);
    pascal_spec *spec = make_spec(text);
    snprintf(path, sizeof path, "%s/pascal-bench-scale-%d.h5", dir, (int)getpid());
    o.out_path = path;
    o.compression = -1;
    run_or_die(spec, &o, &st);
    wall = pascal_now() - t0;
    cpu = cpu_seconds() - c0;
    if (stat(path, &sb) != 0)
        sb.st_size = 0;
    printf("e2e    %llu points x 8 result + 4 point columns -> HDF5 (deflate %d, shuffle): %.1f s wall "
           "(plan %.1f s, evaluate and write %.1f s), %.1f CPU s, %.3g points/s, peak RSS %.0f MiB, "
           "file %.2f GB (%.1f bytes/row), %d threads\n",
           (unsigned long long)st.rows, level, wall, st.plan_seconds, st.eval_seconds, cpu,
           (double)st.rows / wall, peak_mib(), (double)sb.st_size / 1e9, (double)sb.st_size / (double)st.rows,
           st.threads);
    unlink(path);
    pascal_spec_free(spec);
}

/* The 8-axis space: two lists, a log grid of 64 capacities and five
 * intervals (two of them log). */
static const char *sample_space =
    "name: bench-sample\nmodels: [ttl, lru_band, residency]\n"
    "columns: [K_ttl, rho_ttl, K_lru_lo, K_lru_hi, rho_bound]\n"
    "fixed: {block_bytes: 16KiB, sms: 48}\n"
    "sample: {method: %s, n: %.0f%s, inner: %s}\n"
    "axes:\n"
    "  occupancy: [1, 2, 3, 4]\n"
    "  pattern: [uniform, gaussian, clusters]\n"
    "  capacity_bytes: {from: 2MiB, to: 128MiB, num: 64, scale: log}\n"
    "  sigma: {from: 1, to: 2000, scale: log}\n"
    "  clusters: {from: 1, to: 48}\n"
    "  spread: {from: 0, to: 64}\n"
    "  seed: {from: 1, to: 1000000000}\n"
    "  N: {from: 4096, to: 16384, scale: log}\n";

static pascal_spec *sample_spec(int m, double draws, const char *inner)
{
    static const char *methods[] = {"random", "lhs", "sobol"};
    char text[2048];
    snprintf(text, sizeof text, sample_space, methods[m], draws, m == 2 ? "" : ", seed: 7", inner);
    return make_spec(text);
}

/* Seconds of pascal_run without output, and its rows. */
static double eval_seconds(const pascal_spec *spec, uint64_t *rows)
{
    pascal_run_opts o = {0};
    pascal_run_stats st;
    double t0 = pascal_now();
    o.compression = -1;
    run_or_die(spec, &o, &st);
    *rows = st.rows;
    return pascal_now() - t0;
}

/* POINTS rows: inner: grid (POINTS / 64 draws, each at the 64 capacities,
 * sharing its phase vector), inner: sample at POINTS / 10 draws (every row
 * its own phase vector), and the expansion alone of POINTS draws. */
static void bench_sample(double points)
{
    static const char *methods[] = {"random", "lhs", "sobol"};
    for (int m = 0; m < 3; m++) {
        pascal_spec *grid = sample_spec(m, points / 64, "grid"), *each = sample_spec(m, points / 10, "sample");
        pascal_spec *expand = sample_spec(m, points, "sample");
        uint64_t rg, re, kept = 0;
        double tg = eval_seconds(grid, &rg), te = eval_seconds(each, &re), t0 = pascal_now(), tx;
#pragma omp parallel for reduction(+ : kept) schedule(static)
        for (uint64_t i = 0; i < (uint64_t)points; i++) {
            pascal_point p;
            kept += pascal_spec_point(expand, i, &p, NULL) == 1;
        }
        tx = pascal_now() - t0;
        printf("sample %-6s 8 axes: %llu points (%.0f draws x 64 capacities, inner: grid) in %.1f s, "
               "%.3g points/s; %llu draws each its own phase vector (inner: sample) %.3g points/s; "
               "%.0f draws expanded only in %.2f s, %.3g draws/s (plan + 5 columns, no output)\n",
               methods[m], (unsigned long long)rg, points / 64, tg, (double)rg / tg, (unsigned long long)re,
               (double)re / te, points, tx, (double)kept / tx);
        pascal_spec_free(grid), pascal_spec_free(each), pascal_spec_free(expand);
    }
    /* GSL's Sobol sequence only steps forward: the first draw of a shard
     * deep in the sequence pays for the draws before it, once. */
    {
        pascal_spec *spec = sample_spec(2, 1073741823.0, "sample");
        double u[8], t0 = pascal_now(), t1, t2;
        pascal_spec_sample_unit(spec, (uint64_t)points - 1, u);
        t1 = pascal_now() - t0;
        t0 = pascal_now();
        pascal_spec_sample_unit(spec, (uint64_t)points / 2, u);
        t2 = pascal_now() - t0;
        printf("sample sobol  reaching draw %.0f of a fresh spec: %.2f s (%.0f ns a draw, 8 dimensions); "
               "then any earlier draw: %.1f us\n", points - 1, t1, 1e9 * t1 / points, 1e6 * t2);
        pascal_spec_free(spec);
    }
}

static void bench_size(void)
{
    const char *scen = "name: bench-size\nmodels: [lru]\nfixed: {N: 8192, M: 192, pattern: uniform}\n"
                       "axes:\n  seed: {from: 1, to: 2000, step: 1}\n  C: {from: 1, to: 8192, step: 1}\n";
    pascal_spec *spec = make_spec(scen);
    double ts[REPS], tg[REPS];
    pascal_size_stats ss;
    for (int r = 0; r < REPS; r++) {
        pascal_size_opts so = {0};
        pascal_run_opts o = {0};
        pascal_run_stats st;
        pascal_error err = {0};
        double t0 = pascal_now();
        so.target = (pascal_target){PASCAL_COL_RHO_LRU, PASCAL_TARGET_LE, 0.05};
        if (pascal_size_run(spec, &so, &ss, &err) != 0) {
            fprintf(stderr, "bench: %s\n", err.msg);
            exit(1);
        }
        ts[r] = pascal_now() - t0;
        o.compression = -1;
        t0 = pascal_now();
        run_or_die(spec, &o, &st);
        tg[r] = pascal_now() - t0;
    }
    printf("size   2000 scenarios, C = 1..8192, rho_lru <= 0.05: bisection %.3f s (%llu evaluations), "
           "grid of every C %.2f s (%llu points): %.0fx faster, same answers\n", median(ts, REPS),
           (unsigned long long)ss.evaluations, median(tg, REPS), (unsigned long long)ss.grid_points,
           median(tg, REPS) / median(ts, REPS));
    pascal_spec_free(spec);
}

int main(int argc, char **argv)
{
    const char *what = argc > 1 ? argv[1] : "all";
    printf("pascal scale benchmarks (%d threads, %d cores online)\n", omp_get_max_threads(),
           (int)sysconf(_SC_NPROCESSORS_ONLN));
    if (strcmp(what, "e2e") == 0) {
        bench_e2e(argc > 2 ? atof(argv[2]) : 1e7, argc > 3 ? argv[3] : "/tmp", argc > 4 ? atoi(argv[4]) : 1);
    } else if (strcmp(what, "sample") == 0) {
        bench_sample(argc > 2 ? atof(argv[2]) : 1e7);
    } else if (strcmp(what, "size") == 0) {
        bench_size();
    } else {
        bench_sample(1e7);
        bench_size();
        bench_e2e(1e7, "/tmp", 1);
    }
    return 0;
}
