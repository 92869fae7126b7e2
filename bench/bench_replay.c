/* Replay throughput and the closed-form-versus-replay ratio.  Prints:
 *   1. fully associative LRU (stack distance, Fenwick tree) requests/s on one
 *      core for C = 1024, 8192, 65536: a fixed-phase ring scan (N = 2C,
 *      M = 64 uniform phases) and a mixed random trace over 2C blocks, with
 *      and without per-request reuse distances; baseline in the same
 *      process: one pass that only sums the trace;
 *   2. set-associative LRU (16 ways, modulo and random mapping), slotted TTL
 *      and Belady (stored trace, and next uses from the phases) requests/s;
 *   3. the ratio: the static model's exact LRU (eq. 15) and residency bound
 *      (Theorem 4) against exact LRU replay (N warm-up rounds + 1) and
 *      Belady (6N rounds) on the same points, N = 8192, M = 384, C = 1280,
 *      with the answers compared;
 *   4. `pascal validate` (the library campaign) wall time on 1 and 2 threads.
 * Medians of REPS runs.  Figures only: nothing here passes or fails. */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "validate/validate.h"
#include "model/phases.h"
#include "model/replay.h"
#include "model/static.h"

#define REPS 5

static int64_t *alloc_trace(int64_t n)
{
    int64_t *t = malloc((size_t)n * sizeof *t);
    if (!t) {
        fprintf(stderr, "bench: out of memory\n");
        exit(1);
    }
    return t;
}

/* A ring scan: M uniform phases over N = 2C blocks, `rounds` rounds. */
static int64_t ring_trace(int64_t N, int64_t M, int64_t rounds, int64_t *out)
{
    int64_t ph[64];
    pascal_pattern pat = {0};
    pat.kind = PASCAL_PATTERN_UNIFORM;
    pat.seed = 7;
    pat.key = (uint64_t)N;
    pascal_phases_generate(&pat, N, M, ph);
    return pascal_trace_phases(ph, M, N, 0, rounds, out);
}

/* Three in four requests continue a sequential scan, one in four is uniform
 * over nb blocks: every reuse distance from 0 to nb occurs. */
static void mixed_trace(int64_t nb, int64_t n, int64_t *out)
{
    for (int64_t i = 0; i < n; i++) {
        uint64_t x = pascal_rng_u64(3, 9, (uint64_t)i);
        out[i] = (x & 3) == 0 ? (int64_t)((x >> 8) % (uint64_t)nb) : (i / 3) % nb;
    }
}

static volatile int64_t sink_;

static double rate(const int64_t *t, int64_t n, int64_t C, int with_rd, int64_t nb,
                   int64_t *rd)
{
    double r[REPS];
    pascal_lru *ws = pascal_lru_create(nb);
    for (int k = 0; k < REPS; k++) {
        pascal_lru_reset(ws);
        double t0 = omp_get_wtime();
        sink_ = pascal_lru_replay(ws, t, n, C, with_rd ? rd : NULL);
        r[k] = (double)n / (omp_get_wtime() - t0);
    }
    pascal_lru_free(ws);
    return median(r, REPS);
}

static double baseline(const int64_t *t, int64_t n)
{
    double r[REPS];
    for (int k = 0; k < REPS; k++) {
        double t0 = omp_get_wtime();
        int64_t s = 0;
        for (int64_t i = 0; i < n; i++)
            s += t[i];
        sink_ = s;
        r[k] = (double)n / (omp_get_wtime() - t0);
    }
    return median(r, REPS);
}

static void bench_lru(void)
{
    const int64_t n = 16 << 20;
    int64_t *t = alloc_trace(n), *rd = alloc_trace(n);
    printf("1. fully associative LRU replay (stack distance, Fenwick), one core, %lld requests\n",
           (long long)n);
    printf("   %-8s %-28s %14s %14s %14s\n", "C", "trace", "with RD Mreq/s", "misses Mreq/s",
           "sum-only Mreq/s");
    for (int64_t C = 1024; C <= 65536; C *= 8) {
        int64_t nb = 2 * C;
        ring_trace(nb, 64, n / 64, t);
        printf("   %-8lld %-28s %14.1f %14.1f %14.1f\n", (long long)C, "ring, N = 2C, M = 64",
               rate(t, n, C, 1, nb, rd) / 1e6, rate(t, n, C, 0, nb, rd) / 1e6,
               baseline(t, n) / 1e6);
        mixed_trace(nb, n, t);
        printf("   %-8lld %-28s %14.1f %14.1f %14.1f\n", (long long)C, "mixed random, 2C blocks",
               rate(t, n, C, 1, nb, rd) / 1e6, rate(t, n, C, 0, nb, rd) / 1e6,
               baseline(t, n) / 1e6);
    }
    free(t);
    free(rd);
}

static void bench_others(void)
{
    const int64_t C = 8192, nb = 2 * C, n = 4 << 20;
    int64_t *t = alloc_trace(n), ph[64];
    double r[REPS];
    pascal_pattern pat = {0};
    pat.kind = PASCAL_PATTERN_UNIFORM;
    pat.seed = 7;
    pat.key = (uint64_t)nb;
    pascal_phases_generate(&pat, nb, 64, ph);
    pascal_trace_phases(ph, 64, nb, 0, n / 64, t);
    printf("\n2. other simulators, one core, ring N = %lld, M = 64, %lld requests (Mreq/s)\n",
           (long long)nb, (long long)n);
    pascal_setlru *set = pascal_setlru_create(C, nb);
    for (int map = 0; map < 2; map++) {
        pascal_setlru_reset(set, 16, C, (pascal_setmap)map, 5);
        for (int k = 0; k < REPS; k++) {
            pascal_setlru_clear(set);
            double t0 = omp_get_wtime();
            sink_ = pascal_setlru_replay(set, t, n, NULL);
            r[k] = (double)n / (omp_get_wtime() - t0);
        }
        printf("   set-associative LRU, 16 ways x %lld sets, %-7s %10.1f\n",
               (long long)(C / 16), map ? "random" : "modulo", median(r, REPS) / 1e6);
    }
    pascal_setlru_free(set);
    pascal_ttl *ttl = pascal_ttl_create(nb);
    for (int k = 0; k < REPS; k++) {
        pascal_ttl_reset(ttl, 200);
        double t0 = omp_get_wtime();
        for (int64_t i = 0; i < n; i += 64)
            sink_ = pascal_ttl_round(ttl, t + i, 64);
        r[k] = (double)n / (omp_get_wtime() - t0);
    }
    pascal_ttl_free(ttl);
    printf("   slotted TTL, T = 200 rounds                      %10.1f\n", median(r, REPS) / 1e6);
    pascal_opt *opt = pascal_opt_create(nb, n);
    for (int k = 0; k < REPS; k++) {
        double t0 = omp_get_wtime();
        sink_ = pascal_opt_replay(opt, t, n, C);
        r[k] = (double)n / (omp_get_wtime() - t0);
    }
    pascal_opt_free(opt);
    printf("   Belady, stored trace (next-use pass + heap)      %10.1f\n", median(r, REPS) / 1e6);
    pascal_replay *rp = pascal_replay_create(nb, 64);
    for (int k = 0; k < REPS; k++) {
        double t0 = omp_get_wtime();
        sink_ = pascal_replay_belady(rp, ph, 64, nb, n / 64, C);
        r[k] = (double)n / (omp_get_wtime() - t0);
    }
    pascal_replay_free(rp);
    printf("   Belady, next uses from the phases (no trace)     %10.1f\n", median(r, REPS) / 1e6);
    free(t);
}

/* Section 3: one point = one phase vector at one capacity. */
static void ratio_point(const char *name, const pascal_pattern *pat, pascal_static *st,
                        pascal_replay *rp)
{
    enum { N = 8192, M = 384, C = 1280, CLOSED_REPS = 200 };
    int64_t ph[M];
    double tc[REPS], tr[REPS], tb[REPS], tq[REPS], k_closed = 0, k_replay = 0, bound = 0;
    int64_t bel = 0;
    pascal_phases_generate(pat, N, M, ph);
    for (int k = 0; k < REPS; k++) {
        double t0 = omp_get_wtime();
        for (int i = 0; i < CLOSED_REPS; i++) {   /* the whole per-point work */
            pascal_static_prepare(st, ph, M, N, PASCAL_STATIC_RD | PASCAL_STATIC_DELTA);
            k_closed = pascal_static_k_lru(st, C);
            bound = pascal_static_k_bound(st, C, 6.0 * N);
        }
        tc[k] = (omp_get_wtime() - t0) / CLOSED_REPS;
        t0 = omp_get_wtime();
        for (int i = 0; i < 100000; i++)          /* a further capacity */
            k_closed += 0 * pascal_static_k_lru(st, C + (i & 255));
        tq[k] = (omp_get_wtime() - t0) / 100000;
        t0 = omp_get_wtime();
        k_replay = (double)pascal_replay_lru_steady(rp, ph, M, N, C, NULL);
        tr[k] = omp_get_wtime() - t0;
    }
    for (int k = 0; k < 3; k++) {
        double t0 = omp_get_wtime();
        bel = pascal_replay_belady(rp, ph, M, N, 6 * N, C);
        tb[k] = omp_get_wtime() - t0;
    }
    double c = median(tc, REPS), q = median(tq, REPS), r = median(tr, REPS), b = median(tb, 3);
    printf("   %-22s %9.1f %9.3f %10.1f %9.0f %12.0f %10.0f", name, c * 1e6, q * 1e6, r * 1e3,
           r / c, r / q, b / c);
    printf("   K_lru %g = %g; Belady %.4f >= bound %.4f\n", k_closed, k_replay,
           (double)bel / (6.0 * N), bound);
}

static void bench_ratio(void)
{
    pascal_static *st = pascal_static_create(384);
    pascal_replay *rp = pascal_replay_create(8192, 384);
    pascal_pattern pat = {0};
    printf("\n3. closed form vs exact replay, same points, N = 8192, M = 384, C = 1280, "
           "one core\n");
    printf("   closed form: prepare (sort, eq. 15 distances, Theorem 4 deltas) + K_lru + K_bound;\n"
           "   per extra C: one binary search; LRU replay: N + 1 rounds (3.15M requests);\n"
           "   Belady: 6N rounds (18.9M requests)\n");
    printf("   %-22s %9s %9s %10s %9s %12s %10s\n", "pattern", "closed us", "per-C us",
           "LRU rep ms", "LRU/clsd", "LRU/per-C", "Belady/cl");
    pat.kind = PASCAL_PATTERN_UNIFORM;
    pat.seed = 1;
    pat.key = 11;
    ratio_point("uniform", &pat, st, rp);
    pat.kind = PASCAL_PATTERN_CLUSTERS;
    pat.clusters = 12;
    pat.spread = 64;
    ratio_point("clusters 12, spread 64", &pat, st, rp);
    pat.kind = PASCAL_PATTERN_GAUSSIAN;
    pat.sigma = 300;
    ratio_point("gaussian sigma 300", &pat, st, rp);
    pascal_static_free(st);
    pascal_replay_free(rp);
}

static void bench_validate(void)
{
    printf("\n4. the validation campaign (pascal validate, defaults)\n");
    for (int threads = 1; threads <= 2; threads++) {
        double r[3];
        int ok = 0;
        for (int k = 0; k < 3; k++) {
            pascal_validate_opts o;
            pascal_validate_result *res = NULL;
            pascal_error err = {0};
            pascal_validate_defaults(&o);
            o.threads = threads;
            double t0 = omp_get_wtime();
            if (pascal_validate_run(&o, &res, &err) != 0) {
                fprintf(stderr, "bench: %s\n", err.msg);
                exit(1);
            }
            r[k] = omp_get_wtime() - t0;
            ok = res->ok;
            pascal_validate_free(res);
        }
        printf("   %d thread%s: %.3f s (%s)\n", threads, threads > 1 ? "s" : " ", median(r, 3),
               ok ? "all checks hold" : "FAILED");
    }
}

int main(void)
{
    bench_lru();
    bench_others();
    bench_ratio();
    bench_validate();
    return 0;
}
