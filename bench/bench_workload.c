/* Multi-stream and workload throughput.  Prints:
 *   1. the multi-stream preparation (every stream's gaps, eq. 15 distances,
 *      Theorem 4 intervals) of R = 528 requests on 66 streams, against the
 *      single-stream preparation of 528 workers in the same process (same
 *      R, one ring), and the LRU replay of the same instance's steady round
 *      (the check it replaces);
 *   2. each shipped workload study evaluated by the engine on 2 threads
 *      without output (points/s and time), and the exact kernel replay of
 *      configs/llama70b-decode-attention-h200.yaml's largest shape.
 * Medians of REPS runs.  Figures only: nothing here passes or fails. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "common/clock.h"
#include "engine/run.h"
#include "model/phases.h"
#include "model/replay_streams.h"
#include "model/static_multi.h"

#define REPS 5

/* 66 streams (33 KV heads x K, V) of N = 1024 blocks, 8 CTAs each, every
 * CTA its K then its V, Gaussian phases: a decode attention wave. */
static void decode_wave(int64_t *N, int64_t *stream, int64_t *phase, int64_t *flat)
{
    for (int s = 0; s < 66; s++)
        N[s] = 1024;
    for (int c = 0; c < 264; c++) {
        int64_t ph = (int64_t)(pascal_rng_normal(1, 7, (uint64_t)c) * 4.0 + 4096) % 1024;
        stream[2 * c] = 2 * (c / 8);
        stream[2 * c + 1] = 2 * (c / 8) + 1;
        phase[2 * c] = phase[2 * c + 1] = ph;
        flat[2 * c] = flat[2 * c + 1] = ph;
    }
}

static void bench_prepare(void)
{
    enum { R = 528, ITER = 2000 };
    int64_t N[66], stream[R], phase[R], flat[R];
    double multi[REPS], single[REPS], replay[REPS];
    pascal_static *ws = pascal_static_create(R);
    decode_wave(N, stream, phase, flat);
    pascal_streams st = {66, N, R, stream, phase, NULL};
    unsigned all = PASCAL_STATIC_RD | PASCAL_STATIC_DELTA;
    pascal_lru *lru = pascal_lru_create(66 * 1024);
    int64_t off[66], round[R];
    for (int r = 0; r < REPS; r++) {
        double t0 = pascal_now();
        for (int i = 0; i < ITER; i++)
            pascal_static_prepare_streams(ws, &st, all);
        double t1 = pascal_now();
        for (int i = 0; i < ITER; i++)
            pascal_static_prepare(ws, flat, R, 1024, all);
        double t2 = pascal_now();
        pascal_replay_streams_lru(lru, &st, 512, off, round, NULL);
        double t3 = pascal_now();
        multi[r] = (t1 - t0) / ITER;
        single[r] = (t2 - t1) / ITER;
        replay[r] = t3 - t2;
    }
    double m = median(multi, REPS), s = median(single, REPS), rp = median(replay, REPS);
    printf("prepare, R = 528 requests: 66 streams %.1f us, one ring %.1f us (ratio %.2f); "
           "steady-state LRU replay of the 66-stream instance %.2f ms (%.0fx the closed form)\n",
           m * 1e6, s * 1e6, m / s, rp * 1e3, rp / m);
    pascal_lru_free(lru);
    pascal_static_free(ws);
}

static double run_spec(const char *path, int threads, uint64_t *rows)
{
    pascal_spec *spec = NULL;
    pascal_error err = {0};
    double t[REPS];
    if (pascal_spec_load(path, &spec, &err) != 0) {
        fprintf(stderr, "bench: %s\n", err.msg);
        exit(1);
    }
    for (int r = 0; r < REPS; r++) {
        pascal_run_opts o = {0};
        pascal_run_stats st;
        o.threads = threads;
        o.compression = -1;
        if (pascal_run(spec, &o, &st, &err) != 0) {
            fprintf(stderr, "bench: %s\n", err.msg);
            exit(1);
        }
        t[r] = st.total_seconds;
        *rows = st.rows;
    }
    pascal_spec_free(spec);
    return median(t, REPS);
}

int main(void)
{
    static const char *studies[] = {
        "configs/llama70b-decode-attention-h200.yaml", "configs/llama8b-decode-attention-gb10.yaml",
        "configs/llama70b-mlp-gemm-h200.yaml", "configs/llama8b-mlp-gemm-gb10.yaml"};
    bench_prepare();
    for (size_t i = 0; i < sizeof studies / sizeof studies[0]; i++) {
        uint64_t rows = 0;
        double t = run_spec(studies[i], 2, &rows);
        printf("%s: %llu points in %.3f s (%.0f points/s, 2 threads)\n", studies[i],
               (unsigned long long)rows, t, (double)rows / t);
    }
    return 0;
}
