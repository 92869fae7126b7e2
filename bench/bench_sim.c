/* Progress-simulator throughput (model/sim.h).  Prints, for the GB10
 * profile's timing (configs/devices/gb10.yaml, or the profile given as
 * argv[1]):
 *   1. block requests per second on one core for the paper's configurations
 *      (N 4096, C 1280): tma d = 4 at occupancy 1 (one event per block), sync
 *      and tma at occupancy 2 and 4 (two events per block), diverging and
 *      aligned; both wall-clock and this thread's CPU time (the machine is
 *      shared: CPU time is the per-core figure);
 *   2. how the cost grows with W M N: ns per request over W, M and N;
 *   3. the baseline in the same process: exact LRU replay (model/replay.h,
 *      a Fenwick tree, no timing) of as many requests of a ring scan, and
 *      the ratio;
 *   4. the paper's reference set through `measure-refs --simulate`'s engine
 *      (engine/simrefs.h) at 60 keys, on 1 and 2 threads.
 * Medians of REPS runs.  Figures only: nothing here passes or fails. */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_util.h"
#include "engine/simrefs.h"
#include "model/replay.h"
#include "model/sim.h"
#include "sweeps/device.h"

#define REPS 5

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

typedef struct figure {
    double wall, cpu;      /* requests per second */
    double K;
    int64_t requests;
} figure;

static figure measure(const pascal_sim_timing *tm, pascal_sim_config c)
{
    double w[REPS], u[REPS];
    pascal_sim *ws = NULL;
    pascal_sim_result r = {0};
    figure f = {0};
    if (pascal_sim_fit(&ws, &c) != 0) {
        fprintf(stderr, "bench_sim: out of memory\n");
        exit(1);
    }
    for (int k = 0; k < REPS; k++) {
        double t0 = omp_get_wtime(), c0 = cpu_now();
        if (pascal_sim_run(ws, tm, &c, &r) != PASCAL_SIM_OK) {
            fprintf(stderr, "bench_sim: the simulator refused a configuration\n");
            exit(1);
        }
        u[k] = (double)r.requests / (cpu_now() - c0);
        w[k] = (double)r.requests / (omp_get_wtime() - t0);
    }
    pascal_sim_free(ws);
    f.wall = median(w, REPS), f.cpu = median(u, REPS), f.K = r.K_H, f.requests = r.requests;
    return f;
}

static pascal_sim_config paper(int64_t o, int path, int64_t d, int64_t m, int64_t N, double W)
{
    pascal_sim_config c = pascal_sim_default_config();
    c.sms = 48, c.occupancy = o, c.path = path, c.depth = d, c.compute = m;
    c.N = N, c.W = W, c.C = 1280;
    return c;
}

static void section_configs(const pascal_sim_timing *tm)
{
    static const struct {
        const char *what;
        int64_t o;
        int path;
        int64_t d, m;
        double W;
    } cases[] = {
        {"tma o1 d4 m0 W32 (diverges)", 1, PASCAL_SIM_TMA, 4, 0, 32},
        {"tma o1 d2 m8 W16", 1, PASCAL_SIM_TMA, 2, 8, 16},
        {"sync o1 m0 W16 (aligned)", 1, PASCAL_SIM_SYNC, 1, 0, 16},
        {"tma o2 d3 m0 W16", 2, PASCAL_SIM_TMA, 3, 0, 16},
        {"sync o4 m0 W8", 4, PASCAL_SIM_SYNC, 1, 0, 8},
    };
    printf("1. one core, GB10 timing, N 4096, C 1280 (median of %d)\n", REPS);
    printf("   %-30s %12s %14s %14s %8s\n", "configuration", "requests", "M req/s wall",
           "M req/s CPU", "K_H");
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        figure f = measure(tm, paper(cases[i].o, cases[i].path, cases[i].d, cases[i].m, 4096,
                                     cases[i].W));
        printf("   %-30s %12lld %14.2f %14.2f %8.3f\n", cases[i].what, (long long)f.requests,
               f.wall / 1e6, f.cpu / 1e6, f.K);
    }
}

static void section_scaling(const pascal_sim_timing *tm)
{
    static const struct {
        int64_t o, N;
        double W;
    } grid[] = {{1, 1024, 4}, {1, 4096, 1}, {1, 4096, 4}, {1, 4096, 16}, {1, 16384, 4},
                {2, 4096, 4}, {4, 4096, 4}};
    printf("\n2. cost against W M N (tma d 3, m 0, one core, CPU time)\n");
    printf("   %4s %6s %4s %14s %12s\n", "M", "N", "W", "W M N", "ns/request");
    for (size_t i = 0; i < sizeof grid / sizeof grid[0]; i++) {
        figure f = measure(tm, paper(grid[i].o, PASCAL_SIM_TMA, 3, 0, grid[i].N, grid[i].W));
        printf("   %4lld %6lld %4g %14lld %12.1f\n", (long long)(48 * grid[i].o),
               (long long)grid[i].N, grid[i].W, (long long)f.requests, 1e9 / f.cpu);
    }
}

/* Exact LRU replay of a ring scan of the same length: the cache alone. */
static void section_baseline(const pascal_sim_timing *tm)
{
    int64_t M = 48, N = 4096, rounds = 4 * N, n = M * rounds, ph[48];
    int64_t *trace = malloc((size_t)n * sizeof *trace);
    double r[REPS];
    static volatile int64_t sink;
    figure f = measure(tm, paper(1, PASCAL_SIM_TMA, 4, 0, N, 4));
    for (int64_t m = 0; m < M; m++)
        ph[m] = (m * 37) % 64; /* a tight group, as aligned workers drift */
    pascal_trace_phases(ph, M, N, 0, rounds, trace);
    pascal_lru *ws = pascal_lru_create(N);
    for (int k = 0; k < REPS; k++) {
        pascal_lru_reset(ws);
        double c0 = cpu_now();
        sink = pascal_lru_replay(ws, trace, n, 1280, NULL);
        r[k] = (double)n / (cpu_now() - c0);
    }
    printf("\n3. baseline: exact LRU replay (Fenwick, no timing) of %lld requests: %.2f M req/s "
           "CPU;\n   the simulator (tma o1 d4 W4, same length) %.2f M req/s: %.2fx the replay's "
           "cost per request\n",
           (long long)n, median(r, REPS) / 1e6, f.cpu / 1e6, median(r, REPS) / f.cpu);
    pascal_lru_free(ws);
    free(trace);
}

/* 60 keys of the paper's test-set shape (section 5.4): sync at occupancy
 * 1, 2, 4 and tma at 1, 2 with d 2, 3, 5, 6 (11 families), 6 computes
 * (66 keys, the first 60 kept), 7 horizons (N, W) each. */
static void section_refset(const pascal_sim_timing *tm)
{
    static const int64_t m[] = {3, 11, 20, 28, 36, 44};
    static const struct {
        int64_t N;
        double W;
    } hw[] = {{4096, 1}, {4096, 2}, {4096, 8}, {4096, 32}, {8192, 4}, {8192, 16}, {8192, 40}};
    pascal_simref runs[60 * 7];
    int64_t n = 0, keys = 0;
    double req = 0;
    for (int f = 0; f < 11 && keys < 60; f++)
        for (int k = 0; k < 6 && keys < 60; k++, keys++)
            for (int h = 0; h < 7; h++, n++) {
                int tma = f >= 3;
                runs[n] = (pascal_simref){tma ? 1 + (f - 3) / 4 : (int64_t)1 << f, tma,
                                          tma ? (int64_t[]){2, 3, 5, 6}[(f - 3) % 4] : 0, m[k],
                                          hw[h].N, hw[h].W, 1, NAN, NAN};
                req += 48.0 * (double)runs[n].o * hw[h].W * (double)hw[h].N;
            }
    printf("\n4. a 60-key reference set of the paper's size (%lld runs, %.3g requests), GB10\n",
           (long long)n, req);
    for (int threads = 1; threads <= 2; threads++) {
        pascal_simrefs_opts o = {tm, 48, 1280, 16384, threads, 0, NULL, NULL};
        pascal_error err = {0};
        double t0 = omp_get_wtime();
        if (pascal_simrefs_run(&o, runs, n, &err) != 0) {
            fprintf(stderr, "bench_sim: %s\n", err.msg);
            exit(1);
        }
        double dt = omp_get_wtime() - t0;
        printf("   %d thread%s: %.1f s wall, %.2f M req/s\n", threads, threads > 1 ? "s" : "", dt,
               req / dt / 1e6);
    }
}

int main(int argc, char **argv)
{
    const char *profile = argc > 1 ? argv[1] : "configs/devices/gb10.yaml";
    pascal_sim_timing tm;
    pascal_error err = {0};
    if (pascal_device_sim_load(profile, &tm, &err) != 0) {
        fprintf(stderr, "bench_sim: %s (run from the source folder, or give a profile)\n", err.msg);
        return 1;
    }
    section_configs(&tm);
    section_scaling(&tm);
    section_baseline(&tm);
    section_refset(&tm);
    return 0;
}
