/* Request-program replay speed (docs/workloads.md section 2.6).  Prints:
 *   1. the exact kernel replay (lock-step waves, one stack-distance pass
 *      that answers every capacity) of six named kernels' programs, block
 *      requests per second on one core, in a fresh evaluator and again for
 *      a next point (another seed) in the memory it has touched, against a
 *      baseline in the same process: generating the same requests (every
 *      CTA's streams, steps and blocks) without replaying them; and, on a
 *      program (no ring), its floor (fill_bytes_bound: one pass over the
 *      reuse gaps, every capacity);
 *   2. a Llama 3.1 70B decode sizing study of 10^4 points (context x batch
 *      x kernel x 250 capacities, FlashAttention-2 with its split-KV choice
 *      and the model kernel, H200) through `pascal run`'s engine on 2
 *      threads, no output.
 * argv[1] picks rows (digits: 1-6 the programs in the order above, 7 the
 * study; default all).  Medians of REPS runs.  Figures only: nothing here
 * passes or fails. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "common/clock.h"
#include "engine/eval.h"
#include "engine/run.h"
#include "model/workload.h"
#include "sweeps/spec.h"
#include "sweeps/workload.h"
#include "vocab/params.h"

#define REPS 5

static pascal_spec *parse(const char *text)
{
    pascal_spec *spec = NULL;
    pascal_error err = {0};
    char path[1024];
    snprintf(path, sizeof path, "%s/configs/bench-program.yaml", PASCAL_SOURCE_DIR);
    if (pascal_spec_parse(text, strlen(text), path, &spec, &err) != 0) {
        fprintf(stderr, "bench: %s\n", err.msg);
        exit(1);
    }
    return spec;
}

/* Generates every request of w's program; returns a checksum. */
static int64_t generate(const pascal_workload *w)
{
    int64_t sum = 0, st[64];
    for (int64_t c = 0; c < w->ctas; c++) {
        int64_t n = pascal_workload_cta_steps(w, c);
        pascal_workload_cta(w, c, st);
        for (int64_t j = 0; j < n; j++) {
            int64_t b = pascal_workload_cta_block(w, c, j);
            for (int64_t u = 0; u < w->units; u++)
                sum += st[u] * w->blocks + b;
        }
    }
    return sum;
}

static void program_rate(const char *what, const char *text)
{
    /* a second point that differs only in its seed, which a program
     * ignores: the replay again in the evaluator's memory, already touched */
    char with_seed[2048];
    snprintf(with_seed, sizeof with_seed, "%s  seed: [1, 2]\n", text);
    pascal_spec *spec = parse(with_seed);
    pascal_error err = {0};
    pascal_point p, p2;
    pascal_workload w;
    double replay[REPS], warm[REPS], gen[REPS], gaps[REPS], fills = 0, fills2 = 0, floor = 0;
    int64_t check = 0;
    if (pascal_spec_point(spec, 0, &p, &err) != 1 || pascal_spec_point(spec, 1, &p2, &err) != 1 ||
        p.v[PASCAL_P_SEED] == p2.v[PASCAL_P_SEED] || pascal_workload_of_point(p.v, &w) != 0) {
        fprintf(stderr, "bench: %s: %s\n", what, err.msg);
        exit(1);
    }
    const int col = PASCAL_COL_FILL_BYTES_REPLAY, fcol = PASCAL_COL_FILL_BYTES_BOUND;
    for (int r = 0; r < REPS; r++) {
        pascal_eval *ev = pascal_eval_create(pascal_spec_models(spec));
        double t0 = pascal_now();
        if (!ev || pascal_eval_point(ev, &p, &col, 1, &fills) != 0) {
            fprintf(stderr, "bench: %s: the replay failed\n", what);
            exit(1);
        }
        double t1 = pascal_now();
        if (pascal_eval_point(ev, &p2, &col, 1, &fills2) != 0 || fills2 != fills) {
            fprintf(stderr, "bench: %s: the second replay failed or differs\n", what);
            exit(1);
        }
        double t1w = pascal_now();
        check += generate(&w);
        double t2 = pascal_now();
        replay[r] = t1 - t0, warm[r] = t1w - t1, gen[r] = t2 - t1w;
        pascal_eval_free(ev);
        if (w.ring)
            continue;
        ev = pascal_eval_create(pascal_spec_models(spec));
        double t3 = pascal_now();
        if (!ev || pascal_eval_point(ev, &p, &fcol, 1, &floor) != 0) {
            fprintf(stderr, "bench: %s: the floor failed\n", what);
            exit(1);
        }
        gaps[r] = pascal_now() - t3;
        pascal_eval_free(ev);
    }
    double rp = median(replay, REPS), wr = median(warm, REPS), g = median(gen, REPS),
           n = (double)w.requests;
    printf("%s: %lld CTAs, %.3g block requests; replay %.1f M requests/s (a fresh evaluator; "
           "the next point in its memory %.1f M/s), generation alone %.1f M/s (replay / "
           "generation time %.2f), %.4gx ideal (check %lld)\n",
           what, (long long)w.ctas, n, n / rp / 1e6, n / wr / 1e6, n / g / 1e6, rp / g,
           fills / (double)w.ideal_bytes, (long long)(check % 1000));
    if (!w.ring)
        printf("  its floor: %.1f M requests/s (floor / replay time %.2f), %.4gx ideal\n",
               n / median(gaps, REPS) / 1e6, median(gaps, REPS) / rp, floor / (double)w.ideal_bytes);
    pascal_spec_free(spec);
}

static const char *split_decode =
    "name: b\ndevice: h200\nmodels: [workload, traffic, lru_replay]\nworkload:\n"
    "  attention: {batch: 1, q_heads: 64, kv_heads: 8, seq_q: 1, seq_kv: 131072, head_dim: 128,\n"
    "              dtype: bf16, tile_q: 64, tile_kv: 128, kernel: flash-attn-2}\n"
    "fixed: {occupancy: 2}\naxes:\n  capacity_bytes: [16MiB]\n";
static const char *two_token =
    "name: b\ndevice: h200\nmodels: [workload, traffic, lru_replay]\nworkload:\n"
    "  attention: {batch: 16, q_heads: 64, kv_heads: 8, seq_q: 2, seq_kv: 131072, head_dim: 128,\n"
    "              dtype: bf16, tile_q: 64, tile_kv: 128, kernel: flash-attn-2}\n"
    "fixed: {occupancy: 2}\naxes:\n  capacity_bytes: [16MiB]\n";
static const char *causal =
    "name: b\ndevice: h200\nmodels: [workload, traffic, lru_replay]\nworkload:\n"
    "  attention: {batch: 1, q_heads: 64, kv_heads: 8, seq_q: 32768, seq_kv: 32768, head_dim: 128,\n"
    "              dtype: bf16, tile_q: 128, tile_kv: 64, causal: true, kernel: flash-attn-2}\n"
    "fixed: {occupancy: 1}\naxes:\n  capacity_bytes: [16MiB]\n";
static const char *fa3 =
    "name: b\ndevice: h200\nmodels: [workload, traffic, lru_replay]\nworkload:\n"
    "  attention: {batch: 1, q_heads: 64, kv_heads: 8, seq_q: 32768, seq_kv: 32768, head_dim: 128,\n"
    "              dtype: bf16, tile_q: 128, tile_kv: 128, causal: true, kernel: flash-attn-3,\n"
    "              num_splits: 1}\n"
    "fixed: {occupancy: 1}\naxes:\n  capacity_bytes: [16MiB]\n";
static const char *gemm =
    "name: b\ndevice: h200\nmodels: [workload, traffic, lru_replay]\nworkload:\n"
    "  gemm: {gemm_m: 8192, gemm_n: 28672, gemm_k: 8192, dtype: bf16, tile_m: 128, tile_n: 256,\n"
    "         tile_k: 64, kernel: cutlass, swizzle: 8}\n"
    "fixed: {occupancy: 1}\naxes:\n  capacity_bytes: [16MiB]\n";
static const char *streamk =
    "name: b\ndevice: h200\nmodels: [workload, traffic, lru_replay]\nworkload:\n"
    "  gemm: {gemm_m: 1024, gemm_n: 8192, gemm_k: 28672, dtype: bf16, tile_m: 128, tile_n: 128,\n"
    "         tile_k: 64, kernel: cutlass-streamk}\n"
    "fixed: {occupancy: 1}\naxes:\n  capacity_bytes: [16MiB]\n";

/* 5 contexts x 4 batches x 2 kernels x 250 capacities = 10^4 points. */
static const char *study =
    "name: b\ndevice: h200\nmodels: [workload, traffic, lru_replay]\nworkload:\n"
    "  attention: {batch: 1, q_heads: 64, kv_heads: 8, seq_q: 1, seq_kv: 8192, head_dim: 128,\n"
    "              dtype: bf16, tile_q: 64, tile_kv: 128}\n"
    "fixed: {occupancy: 2}\naxes:\n  seq_kv: [4096, 8192, 16384, 32768, 65536]\n"
    "  batch: [1, 4, 16, 64]\n  kernel: [flash-attn-2, model]\n"
    "  capacity_bytes: {from: 1MiB, to: 256MiB, num: 250, scale: log}\n";

int main(int argc, char **argv)
{
    /* argv[1] picks rows (digits 1-7, default all): the six programs, then the study */
    const char *pick = argc > 1 ? argv[1] : "1234567";
    static const struct {
        const char *what, **text;
    } cases[] = {
        {"flash-attn-2 split-KV decode, 70B, 128k, batch 1", &split_decode},
        {"flash-attn-2 two-token decode, 70B, 128k, batch 16", &two_token},
        {"flash-attn-2 causal prefill, 70B, 32k", &causal},
        {"flash-attn-3 causal prefill (persistent), 70B, 32k", &fa3},
        {"cutlass swizzle 8, 70B MLP up, M 8192", &gemm},
        {"cutlass-streamk, 70B MLP down, M 1024", &streamk},
    };
    for (int i = 0; i < 6; i++)
        if (strchr(pick, '1' + i))
            program_rate(cases[i].what, *cases[i].text);
    if (!strchr(pick, '7'))
        return 0;
    pascal_spec *spec = parse(study);
    double t[REPS];
    uint64_t rows = 0;
    for (int r = 0; r < REPS; r++) {
        pascal_run_opts o = {0};
        pascal_run_stats st;
        pascal_error err = {0};
        o.threads = 2;
        o.compression = -1;
        if (pascal_run(spec, &o, &st, &err) != 0) {
            fprintf(stderr, "bench: %s\n", err.msg);
            exit(1);
        }
        t[r] = st.total_seconds;
        rows = st.rows;
    }
    double m = median(t, REPS);
    printf("70B decode sizing study: %llu points in %.2f s on 2 threads (%.0f points/s)\n",
           (unsigned long long)rows, m, (double)rows / m);
    pascal_spec_free(spec);
    return 0;
}
