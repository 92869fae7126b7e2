/* Progress-simulator throughput (model/sim.h).  Prints, for the GB10
 * profile's timing (configs/devices/gb10.yaml, or the profile given as
 * argv[1]):
 *   1. block requests per second on one core for the paper's configurations
 *      (N 4096, C 1280) at occupancy 1, 2, 4 and 8, diverging and aligned;
 *      wall-clock and this thread's CPU time (the machine is shared: CPU
 *      time is the per-core figure), and the baseline in the same process:
 *      the simulator's former implementation (tests/sim_reference, kept as
 *      the tests' regression oracle) on the same configuration, its CPU
 *      time over the new one's (the speed-up), runs alternating; a line says
 *      whether both gave the same fills, hits, merges and makespan;
 *   2. how the cost grows with W M N: ns per request over W, M and N;
 *   3. the baseline of the cache alone: exact LRU replay (model/replay.h,
 *      a Fenwick tree, no timing) of as many requests of a ring scan, and
 *      the ratio;
 *   4. the paper's reference set through `measure-refs --simulate`'s engine
 *      (engine/simrefs.h) at 60 keys, on 1 and 2 threads;
 *   5. the finer mechanisms (docs/simulate.md 3.1) on against the same
 *      timing with them off, runs alternating in this process: requests per
 *      CPU second each, and the ratio;
 *   6. each of those mechanisms alone against none, and the oldest-first
 *      issue order (sm_issue_oldest).
 * argv[2] picks sections (digits, default 12345).  Medians of REPS runs.
 * Figures only: nothing here passes or fails. */
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
#include "devices/sim_timing.h"
#include "tests/sim_reference/ref_sim.h"

#define REPS 5

/* CPU time of every thread of the process, s. */
static double process_cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

typedef struct figure {
    double wall, cpu;      /* requests per second */
    double ref_cpu;        /* the former implementation, requests per CPU second */
    double speedup;        /* median over runs of its CPU time / the new one's */
    double K;
    int64_t requests;
    int same;              /* both gave the same counts and makespan */
} figure;

static int same_result(const pascal_sim_result *a, const pascal_sim_result *b)
{
    return a->requests == b->requests && a->fills == b->fills && a->hits == b->hits &&
           a->merged == b->merged && a->makespan_ns == b->makespan_ns;
}

/* Runs c REPS times; with_ref: each run followed by the former
 * implementation's run of the same configuration. */
static figure measure(const pascal_sim_timing *tm, pascal_sim_config c, int with_ref)
{
    double w[REPS], u[REPS], ru[REPS], sp[REPS];
    pascal_sim *ws = NULL;
    ref_sim *rs = NULL;
    pascal_sim_result r = {0}, rr = {0};
    figure f = {0};
    if (pascal_sim_fit(&ws, &c) != 0 || (with_ref && ref_sim_fit(&rs, &c) != 0)) {
        fprintf(stderr, "bench_sim: out of memory\n");
        exit(1);
    }
    f.same = 1;
    for (int k = 0; k < REPS; k++) {
        double t0 = omp_get_wtime(), c0 = cpu_now(), c1;
        if (pascal_sim_run(ws, tm, &c, &r) != PASCAL_SIM_OK) {
            fprintf(stderr, "bench_sim: the simulator refused a configuration\n");
            exit(1);
        }
        c1 = cpu_now();
        u[k] = (double)r.requests / (c1 - c0);
        w[k] = (double)r.requests / (omp_get_wtime() - t0);
        if (with_ref) {
            ref_sim_run(rs, tm, &c, &rr);
            ru[k] = (double)rr.requests / (cpu_now() - c1);
            sp[k] = u[k] / ru[k];
            f.same &= same_result(&r, &rr);
        }
    }
    pascal_sim_free(ws);
    ref_sim_free(rs);
    f.wall = median(w, REPS), f.cpu = median(u, REPS), f.K = r.K_H, f.requests = r.requests;
    if (with_ref)
        f.ref_cpu = median(ru, REPS), f.speedup = median(sp, REPS);
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
        {"sync o2 m0 W16", 2, PASCAL_SIM_SYNC, 1, 0, 16},
        {"tma o2 d3 m0 W16", 2, PASCAL_SIM_TMA, 3, 0, 16},
        {"tma o2 d6 m16 W16", 2, PASCAL_SIM_TMA, 6, 16, 16},
        {"sync o4 m0 W8", 4, PASCAL_SIM_SYNC, 1, 0, 8},
        {"tma o4 d2 m8 W8", 4, PASCAL_SIM_TMA, 2, 8, 8},
        {"tma o8 d3 m0 W4", 8, PASCAL_SIM_TMA, 3, 0, 4},
    };
    int same = 1;
    printf("1. one core, GB10 timing, N 4096, C 1280 (median of %d); baseline: the former\n"
           "   implementation in the same process\n", REPS);
    printf("   %-28s %9s %10s %10s %10s %8s %7s\n", "configuration", "requests", "Mreq/s wall",
           "Mreq/s CPU", "former CPU", "speed-up", "K_H");
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        figure f = measure(tm, paper(cases[i].o, cases[i].path, cases[i].d, cases[i].m, 4096,
                                     cases[i].W), 1);
        printf("   %-28s %9lld %10.2f %10.2f %10.2f %7.2fx %7.3f%s\n", cases[i].what,
               (long long)f.requests, f.wall / 1e6, f.cpu / 1e6, f.ref_cpu / 1e6, f.speedup, f.K,
               f.same ? "" : "  DIFFERENT RESULTS");
        same &= f.same;
    }
    printf("   fills, hits, merges and makespan %s the former implementation's\n",
           same ? "equal" : "DIFFER FROM");
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
        figure f = measure(tm, paper(grid[i].o, PASCAL_SIM_TMA, 3, 0, grid[i].N, grid[i].W), 0);
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
    figure f = measure(tm, paper(1, PASCAL_SIM_TMA, 4, 0, N, 4), 0);
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

/* The set's keys at one horizon (N 4096, W 8), one thread, each run by the
 * simulator and then by its former implementation: the speed-up on the
 * set's mix of configurations, in the same process. */
static void section_refset_former(const pascal_sim_timing *tm, const pascal_simref *runs,
                                  int64_t n)
{
    double cpu_new = 0, cpu_old = 0, req = 0;
    int same = 1;
    pascal_sim *ws = NULL;
    ref_sim *rs = NULL;
    for (int64_t k = 0; k < n; k++) {
        pascal_sim_result a, b;
        pascal_sim_config c;
        double c0, c1;
        if (runs[k].N != 4096 || runs[k].W != 8)
            continue;
        c = paper(runs[k].o, runs[k].path, runs[k].d, runs[k].m, 4096, 8);
        c.seed = runs[k].seed;
        if (pascal_sim_fit(&ws, &c) != 0 || ref_sim_fit(&rs, &c) != 0) {
            fprintf(stderr, "bench_sim: out of memory\n");
            exit(1);
        }
        c0 = cpu_now();
        pascal_sim_run(ws, tm, &c, &a);
        c1 = cpu_now();
        ref_sim_run(rs, tm, &c, &b);
        cpu_new += c1 - c0, cpu_old += cpu_now() - c1, req += (double)a.requests;
        same &= same_result(&a, &b);
    }
    pascal_sim_free(ws);
    ref_sim_free(rs);
    printf("   its keys at N 4096, W 8 (%.3g requests), one thread: %.2f M req/s CPU, the former\n"
           "   implementation %.2f M req/s CPU: %.2fx; results %s\n",
           req, req / cpu_new / 1e6, req / cpu_old / 1e6, cpu_old / cpu_new,
           same ? "equal" : "DIFFER");
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
    section_refset_former(tm, runs, n);
    for (int threads = 1; threads <= 2; threads++) {
        pascal_simrefs_opts o = {
            .tm = tm, .sms = 48, .C = 1280, .block_bytes = 16384, .threads = threads};
        pascal_error err = {0};
        double t0 = omp_get_wtime(), c0 = process_cpu_now();
        if (pascal_simrefs_run(&o, runs, n, &err) != 0) {
            fprintf(stderr, "bench_sim: %s\n", err.msg);
            exit(1);
        }
        double dt = omp_get_wtime() - t0, dc = process_cpu_now() - c0;
        printf("   %d thread%s: %.1f s wall, %.2f M req/s; %.1f s CPU, %.2f M req/s per CPU "
               "second\n",
               threads, threads > 1 ? "s" : "", dt, req / dt / 1e6, dc, req / dc / 1e6);
    }
}

/* CPU requests per second of one run of c under tm. */
static double cpu_rate(pascal_sim *ws, const pascal_sim_timing *tm, const pascal_sim_config *c,
                       double *K)
{
    pascal_sim_result r;
    double c0 = cpu_now();
    if (pascal_sim_run(ws, tm, c, &r) != PASCAL_SIM_OK) {
        fprintf(stderr, "bench_sim: the simulator refused a configuration\n");
        exit(1);
    }
    *K = r.K_H;
    return (double)r.requests / (cpu_now() - c0);
}

/* The configurations sections 5 and 6 time the finer mechanisms on. */
typedef struct bench_case {
    const char *what;
    int64_t o;
    int path;
    int64_t d, m;
    double W;
} bench_case;
static const bench_case mech_cases[] = {
    {"tma o1 d4 m0 W32", 1, PASCAL_SIM_TMA, 4, 0, 32},
    {"sync o1 m0 W16", 1, PASCAL_SIM_SYNC, 1, 0, 16},
    {"tma o2 d3 m0 W16", 2, PASCAL_SIM_TMA, 3, 0, 16},
    {"sync o4 m48 W8", 4, PASCAL_SIM_SYNC, 1, 48, 8},
};
#define NMECH_CASES (sizeof mech_cases / sizeof mech_cases[0])

static void section_mechanisms(const pascal_sim_timing *tm)
{
    const bench_case *cases = mech_cases;
    pascal_sim_timing off = *tm, on = *tm, trial;
    off.hit_sm_spread = off.l2_slices = off.l2_slice_bytes = off.hit_slice_spread = 0;
    off.sm_inflight_bytes = off.service_noise = off.sm_issue_oldest = 0;
    trial = off;
    trial.hit_sm_spread = 0.42, trial.service_noise = 0.1;
    on.hit_sm_spread = 0.42, on.l2_slices = 48, on.l2_slice_bytes = 2048;
    on.hit_slice_spread = 0.2, on.sm_inflight_bytes = 8 * 16384.0, on.service_noise = 0.1;
    printf("5. the finer mechanisms, one core, N 4096, C 1280 (median of %d, runs alternating):\n"
           "   trial = hit_sm_spread 0.42 and service_noise 0.1 (the trial profile's two);\n"
           "   all = those, l2_slices 48 of 2048-byte grain, hit_slice_spread 0.2 and\n"
           "   sm_inflight_bytes 128 KiB; off = the same timing without them\n",
           REPS);
    printf("   %-20s %11s %11s %11s %7s %7s %7s %7s %7s\n", "configuration", "off Mreq/s",
           "trial", "all", "trial/", "all/", "K off", "K trial", "K all");
    for (size_t i = 0; i < NMECH_CASES; i++) {
        pascal_sim_config c = paper(cases[i].o, cases[i].path, cases[i].d, cases[i].m, 4096,
                                    cases[i].W);
        pascal_sim *ws = NULL;
        double a[REPS], b[REPS], d[REPS], ka = 0, kb = 0, kd = 0;
        if (pascal_sim_fit(&ws, &c) != 0) {
            fprintf(stderr, "bench_sim: out of memory\n");
            exit(1);
        }
        for (int k = 0; k < REPS; k++) {
            a[k] = cpu_rate(ws, &off, &c, &ka);
            d[k] = cpu_rate(ws, &trial, &c, &kd);
            b[k] = cpu_rate(ws, &on, &c, &kb);
        }
        pascal_sim_free(ws);
        double ma = median(a, REPS), mb = median(b, REPS), md = median(d, REPS);
        printf("   %-20s %11.2f %11.2f %11.2f %6.2fx %6.2fx %7.3f %7.3f %7.3f\n", cases[i].what,
               ma / 1e6, md / 1e6, mb / 1e6, md / ma, mb / ma, ka, kd, kb);
    }
}

/* What each finer mechanism costs alone (one core, the configurations of
 * section 5): rates with one mechanism on against the timing with none. */
static void section_each(const pascal_sim_timing *tm)
{
    const bench_case *cases = mech_cases;
    enum { NT = 7 };
    pascal_sim_timing t[NT];
    const char *names[NT] = {"off", "sm spread", "noise", "slices", "inflight", "oldest", "all"};
    t[0] = *tm;
    t[0].hit_sm_spread = t[0].l2_slices = t[0].l2_slice_bytes = t[0].hit_slice_spread = 0;
    t[0].sm_inflight_bytes = t[0].service_noise = t[0].sm_issue_oldest = 0;
    for (int k = 1; k < NT; k++)
        t[k] = t[0];
    t[1].hit_sm_spread = 0.42;
    t[2].service_noise = 0.1;
    t[3].l2_slices = 48, t[3].l2_slice_bytes = 2048, t[3].hit_slice_spread = 0.2;
    t[4].sm_inflight_bytes = 8 * 16384.0;
    t[5].sm_issue_oldest = 1;
    t[6] = t[3];
    t[6].hit_sm_spread = 0.42, t[6].service_noise = 0.1, t[6].sm_inflight_bytes = 8 * 16384.0;
    t[6].sm_issue_oldest = 1;
    printf("6. each finer mechanism alone, one core, N 4096, C 1280 (M req/s CPU, median of %d,\n"
           "   runs alternating; the settings of section 5, oldest = sm_issue_oldest 1, all =\n"
           "   every one of them)\n   %-20s", REPS, "configuration");
    for (int k = 0; k < NT; k++)
        printf(" %10s", names[k]);
    printf("\n");
    for (size_t i = 0; i < NMECH_CASES; i++) {
        pascal_sim_config c = paper(cases[i].o, cases[i].path, cases[i].d, cases[i].m, 4096,
                                    cases[i].W);
        pascal_sim *ws = NULL;
        double r[NT][REPS], K;
        if (pascal_sim_fit(&ws, &c) != 0) {
            fprintf(stderr, "bench_sim: out of memory\n");
            exit(1);
        }
        for (int rep = 0; rep < REPS; rep++)
            for (int k = 0; k < NT; k++)
                r[k][rep] = cpu_rate(ws, &t[k], &c, &K);
        pascal_sim_free(ws);
        printf("   %-20s", cases[i].what);
        for (int k = 0; k < NT; k++)
            printf(" %10.2f", median(r[k], REPS) / 1e6);
        printf("\n");
    }
}

int main(int argc, char **argv)
{
    const char *profile = argc > 1 ? argv[1] : "configs/devices/gb10.yaml";
    const char *sections = argc > 2 ? argv[2] : "12345";
    pascal_sim_timing tm;
    pascal_error err = {0};
    if (pascal_device_sim_load(profile, &tm, &err) != 0) {
        fprintf(stderr, "bench_sim: %s (run from the source folder, or give a profile)\n", err.msg);
        return 1;
    }
    if (strchr(sections, '1'))
        section_configs(&tm);
    if (strchr(sections, '2'))
        section_scaling(&tm);
    if (strchr(sections, '3'))
        section_baseline(&tm);
    if (strchr(sections, '4'))
        section_refset(&tm);
    if (strchr(sections, '5'))
        section_mechanisms(&tm);
    if (strchr(sections, '6'))
        section_each(&tm);
    return 0;
}
