/* The progress half of the validation campaign (paper sections 3.5, 3.6):
 * Theorem 5 on random progress histories and on its sharpness construction,
 * and Theorem 6's closed-form rate against the issue-time recurrence
 * iterated numerically.  Every history and grid point is a pure function of
 * (seed, index), so the outcome does not depend on the thread count. */
#include "validate/validate.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/parallel.h"
#include "model/phases.h"
#include "model/progress.h"
#include "model/replay.h"

#define HIST_MAX_M 6
#define HIST_MAX_S 12
#define HIST_MAX_N (2 * HIST_MAX_S + 41)
#define HIST_EVENTS_PER (4 * HIST_MAX_N * HIST_MAX_M)
#define KEY_THM5 0x7468356869737431ULL
#define KEY_THM6 0x74683669737375ULL

typedef struct hist_ws {
    int32_t *events;
    int64_t *counts, *blocks, *index, *rd;
    pascal_lru *lru;
} hist_ws;

static void hist_free(hist_ws *h)
{
    free(h->events);
    free(h->counts);
    free(h->blocks);
    free(h->index);
    free(h->rd);
    pascal_lru_free(h->lru);
}

static int hist_alloc(hist_ws *h, int64_t max_events, int64_t max_N)
{
    memset(h, 0, sizeof *h);
    h->events = malloc((size_t)max_events * sizeof *h->events);
    h->counts = malloc(HIST_MAX_M * sizeof *h->counts);
    h->blocks = malloc((size_t)max_events * sizeof *h->blocks);
    h->index = malloc((size_t)max_events * sizeof *h->index);
    h->rd = malloc((size_t)max_events * sizeof *h->rd);
    h->lru = pascal_lru_create(max_N);
    return h->events && h->counts && h->blocks && h->index && h->rd && h->lru ? 0 : -1;
}

/* A random history whose lead never exceeds s: at each event a uniformly
 * drawn worker moves if that keeps it within s of the slowest, else the
 * slowest (lowest index among them) moves. */
static int64_t random_history(uint64_t seed, uint64_t h, int32_t M, int64_t s,
                              int64_t E, int32_t *ev, int64_t *n)
{
    for (int32_t i = 0; i < M; i++)
        n[i] = 0;
    for (int64_t u = 0; u < E; u++) {
        int32_t w = (int32_t)(pascal_rng_u64(seed, h, 16 + (uint64_t)u) % (uint64_t)M);
        int32_t slow = 0;
        for (int32_t i = 1; i < M; i++)
            if (n[i] < n[slow])
                slow = i;
        if (n[w] + 1 - n[slow] > s)
            w = slow;
        n[w]++;
        ev[u] = w;
    }
    return E;
}

/* Theorem 5 on history h: an initially empty LRU of C = 2 sigma_E - 1 < N
 * blocks hits every request to an index some worker already requested, and
 * the miss count A_E obeys A_E <= max_i n_i(E) and eq. 9. */
static int thm5_history(const pascal_validate_opts *o, uint64_t h, hist_ws *w,
                        char *why, size_t len)
{
    uint64_t key = pascal_rng_mix(KEY_THM5, h);
    int32_t M = 2 + (int32_t)(pascal_rng_u64(o->seed, key, 0) % (HIST_MAX_M - 1));
    int64_t s = 1 + (int64_t)(pascal_rng_u64(o->seed, key, 1) % HIST_MAX_S);
    int64_t N = 2 * s + 1 + (int64_t)(pascal_rng_u64(o->seed, key, 2) % 41);
    int64_t E = N * M + (int64_t)(pascal_rng_u64(o->seed, key, 3) % (uint64_t)(3 * N * M));
    random_history(o->seed, key, M, s, E, w->events, w->counts);
    int64_t sigma = pascal_thm5_sigma(w->events, E, M, w->counts);
    int64_t C = pascal_thm5_capacity(sigma);
    if (sigma < 1 || sigma > s || C >= N ||
        pascal_trace_history(w->events, E, M, N, w->counts, w->blocks, w->index) != E) {
        snprintf(why, len, "history %llu: sigma_E = %lld outside 1..%lld", (unsigned long long)h,
                 (long long)sigma, (long long)s);
        return 1;
    }
    pascal_lru_reset(w->lru);
    int64_t misses = pascal_lru_replay(w->lru, w->blocks, E, C, w->rd), first = 0, bad = -1;
    for (int64_t u = 0; u < E && bad < 0; u++) {
        int hit = w->rd[u] >= 0 && w->rd[u] < C;
        if (w->index[u] < first && !hit)
            bad = u;               /* a shared index was lost */
        if (w->index[u] + 1 > first)
            first = w->index[u] + 1;  /* indices 0..first-1 requested */
    }
    int eq9 = (double)M * (double)misses / (double)E <=
              1.0 + (double)(M - 1) * (double)sigma / (double)E + 1e-12;
    if (bad >= 0 || misses > first || !eq9) {
        snprintf(why, len, "history %llu (M = %d, N = %lld, sigma_E = %lld, C = %lld): %s",
                 (unsigned long long)h, M, (long long)N, (long long)sigma, (long long)C,
                 bad >= 0 ? "a request to an already requested index missed"
                          : "the miss count breaks eq. 9");
        return 1;
    }
    return 0;
}

/* The sharpness construction (N = 2s): sigma_E = s, and the last request
 * (worker 1 to index s-1, already requested by worker 0) misses at
 * C = 2s - 2 but hits at C = 2s - 1. */
static int thm5_sharp(int64_t s, hist_ws *w, char *why, size_t len)
{
    int64_t E = pascal_thm5_sharpness_history(s, w->events), N = 2 * s;
    if (E < 0 || pascal_thm5_sigma(w->events, E, 2, w->counts) != s ||
        pascal_trace_history(w->events, E, 2, N, w->counts, w->blocks, NULL) != E) {
        snprintf(why, len, "sharpness s = %lld: history or sigma_E wrong", (long long)s);
        return 1;
    }
    pascal_lru_reset(w->lru);
    pascal_lru_replay(w->lru, w->blocks, E, 1, w->rd);
    int64_t last = w->rd[E - 1];
    if (!(last >= 2 * s - 2) || !(last < 2 * s - 1)) {
        snprintf(why, len, "sharpness s = %lld (N = %lld): last request has reuse distance "
                 "%lld, expected to miss at C = %lld and hit at C = %lld",
                 (long long)s, (long long)N, (long long)last, (long long)(2 * s - 2),
                 (long long)(2 * s - 1));
        return 1;
    }
    return 0;
}

/* ---- Theorem 6 ------------------------------------------------------------ */

static const double thm6_alpha[] = {0.0, 0.4, 2.385};
static const double thm6_beta[] = {0.25, 1.0, 3.7};
static const double thm6_lambda[] = {0.0, 0.5, 5.0, 40.0, 400.0};
static const int64_t thm6_depth[] = {2, 3, 4, 6, 9};
#define THM6_POINTS 225   /* 3 x 3 x 5 x 5 */
#define THM6_MAX_R 8

static void thm6_params(int64_t p, double *a, double *b, double *l, int64_t *d)
{
    *a = thm6_alpha[p % 3];
    *b = thm6_beta[(p / 3) % 3];
    *l = thm6_lambda[(p / 9) % 5];
    *d = thm6_depth[(p / 45) % 5];
}

/* Eq. 10 with r = d - 1 from initial issue times init[0..r-1]:
 * I_{k+r} = max(I_{k+r-1} + alpha, I_k + lambda) + beta; returns I_n. */
static double thm6_iterate(double a, double b, double l, int64_t d, int64_t n,
                           const double *init)
{
    int64_t r = d - 1;
    double ring[THM6_MAX_R], last = init[r - 1];
    for (int64_t i = 0; i < r; i++)
        ring[i] = init[i];
    for (int64_t k = 0; k + r <= n; k++) {
        double x = last + a, y = ring[k % r] + l;
        last = (x > y ? x : y) + b;
        ring[k % r] = last;
    }
    return last;
}

/* The proof's two-sided bound around n P: the one-index chain gives
 * I_n >= I_{r-1} + (n - r + 1)(alpha + beta), the r-index chain
 * I_n >= I_{n mod r} + floor(n / r)(lambda + beta), hence
 * I_n >= n P - max(K1, K2); induction gives I_n <= n P + max_j (I_j - j P).
 * A wrong P breaks one side once n |error| exceeds these O(1) constants.
 * *err gets |I_n / n - P|. */
static int thm6_within(double In, double P, int64_t n, double a, double b, double l,
                       int64_t d, const double *init, double *err)
{
    int64_t r = d - 1;
    double c = a + b, B = -INFINITY, lo_init = INFINITY;
    for (int64_t j = 0; j < r; j++) {
        if (init[j] - (double)j * P > B)
            B = init[j] - (double)j * P;
        if (init[j] < lo_init)
            lo_init = init[j];
    }
    double K1 = (double)(r - 1) * c - init[r - 1];
    double K2 = (l + b) * (double)(r - 1) / (double)r - lo_init;
    double K = K1 > K2 ? K1 : K2, nP = (double)n * P;
    double tol = 1e-9 * (fabs(nP) + fabs(In) + 1.0);
    *err = fabs(In / (double)n - P);
    return In >= nP - K - tol && In <= nP + B + tol;
}

/* Grid point p: the library's recurrence (zero initial times) and the one
 * above from random initial times in [0, 10), both against P_d (eq. 11).
 * Returns the number of failed sub-checks (0..2). */
static int thm6_point(const pascal_validate_opts *o, int64_t p, double *err, char *why,
                      size_t len)
{
    double a, b, l, init[THM6_MAX_R] = {0}, zero[THM6_MAX_R] = {0}, scratch[THM6_MAX_R + 1];
    int64_t d, n = o->thm6_steps;
    thm6_params(p, &a, &b, &l, &d);
    double P = pascal_thm6_period(a, b, l, d);
    if (o->fault == 1 + PASCAL_VCHECK_THM6)
        P += 0.01 * (1.0 + P);
    for (int64_t j = 0; j < d - 1; j++)
        init[j] = 10.0 * pascal_rng_uniform(o->seed, pascal_rng_mix(KEY_THM6, (uint64_t)p),
                                            (uint64_t)j);
    double e1 = 0, e2 = 0;
    double I0 = pascal_thm6_simulate(a, b, l, d, n, scratch) * (double)n;
    double I1 = thm6_iterate(a, b, l, d, n, init);
    int bad = !thm6_within(I0, P, n, a, b, l, d, zero, &e1);
    bad += !thm6_within(I1, P, n, a, b, l, d, init, &e2);
    *err = e1 > e2 ? e1 : e2;
    if (bad)
        snprintf(why, len, "Theorem 6 at alpha = %g, beta = %g, lambda = %g, d = %lld: "
                 "I_n/n = %.9g (n = %lld) but P_d = %.9g", a, b, l, (long long)d,
                 I0 / (double)n, (long long)n, P);
    return bad;
}

/* ---- driver --------------------------------------------------------------- */

/* Per item: failed (1) or not, and the Theorem 6 error; collected in item
 * order afterwards, so the outcome and the reported first failure do not
 * depend on the thread count. */
typedef struct prog_items {
    int64_t nh, ns;
    uint8_t *fail_h, *fail_s, *fail_6;
    double *err_6;
} prog_items;

typedef struct items_team {
    const pascal_validate_opts *o;
    prog_items *it;
    int64_t max_events, max_N;
    int *nomem;
} items_team;

static void items_body(void *ctx)
{
    const items_team *t = ctx;
    const pascal_validate_opts *o = t->o;
    prog_items *it = t->it;
    hist_ws w;
    char why[512];
    int ok = hist_alloc(&w, t->max_events, t->max_N) == 0;
    if (!ok) {
#pragma omp atomic write
        *t->nomem = 1;
    }
#pragma omp for schedule(dynamic, 4)
    for (int64_t h = 0; h < it->nh; h++)
        if (ok)
            it->fail_h[h] = (uint8_t)thm5_history(o, (uint64_t)h, &w, why, sizeof why);
#pragma omp for schedule(dynamic, 1)
    for (int64_t s = 0; s < it->ns; s++)
        if (ok)
            it->fail_s[s] = (uint8_t)thm5_sharp(s + 2, &w, why, sizeof why);
#pragma omp for schedule(dynamic, 4)
    for (int64_t p = 0; p < THM6_POINTS; p++)
        it->fail_6[p] = (uint8_t)thm6_point(o, p, &it->err_6[p], why, sizeof why);
    hist_free(&w);
}

static void run_items(const pascal_validate_opts *o, int threads, prog_items *it,
                      int64_t max_events, int64_t max_N, int *nomem)
{
    items_team t = {o, it, max_events, max_N, nomem};
    pascal_parallel(threads, items_body, &t);
}

/* The history sizes, recomputed from the same draws (thm5_history). */
static int64_t history_events(const pascal_validate_opts *o, uint64_t h)
{
    uint64_t key = pascal_rng_mix(KEY_THM5, h);
    int64_t M = 2 + (int64_t)(pascal_rng_u64(o->seed, key, 0) % (HIST_MAX_M - 1));
    int64_t s = 1 + (int64_t)(pascal_rng_u64(o->seed, key, 1) % HIST_MAX_S);
    int64_t N = 2 * s + 1 + (int64_t)(pascal_rng_u64(o->seed, key, 2) % 41);
    return N * M + (int64_t)(pascal_rng_u64(o->seed, key, 3) % (uint64_t)(3 * N * M));
}

/* Tallies the items and describes the first failure (re-run serially). */
static void collect(const pascal_validate_opts *o, prog_items *it, pascal_validate_result *r,
                    int64_t max_events, int64_t max_N)
{
    char *why = r->progress_failure;
    size_t len = sizeof r->progress_failure;
    hist_ws w;
    int have = hist_alloc(&w, max_events, max_N) == 0;
    r->checked[PASCAL_VCHECK_THM5] = it->nh;
    r->checked[PASCAL_VCHECK_THM5_SHARP] = it->ns;
    r->checked[PASCAL_VCHECK_THM6] = 2 * THM6_POINTS;
    for (int64_t h = 0; h < it->nh; h++) {
        r->thm5_events += history_events(o, (uint64_t)h);
        r->failed[PASCAL_VCHECK_THM5] += it->fail_h[h];
        if (it->fail_h[h] && !why[0] && have)
            thm5_history(o, (uint64_t)h, &w, why, len);
    }
    for (int64_t s = 0; s < it->ns; s++) {
        r->failed[PASCAL_VCHECK_THM5_SHARP] += it->fail_s[s];
        if (it->fail_s[s] && !why[0] && have)
            thm5_sharp(s + 2, &w, why, len);
    }
    for (int64_t p = 0; p < THM6_POINTS; p++) {
        double e;
        r->failed[PASCAL_VCHECK_THM6] += it->fail_6[p];
        if (it->err_6[p] > r->thm6_max_error)
            r->thm6_max_error = it->err_6[p];
        if (it->fail_6[p] && !why[0])
            thm6_point(o, p, &e, why, len);
    }
    hist_free(&w);
}

int pascal_validate_progress(const pascal_validate_opts *o, int threads,
                             pascal_validate_result *r)
{
    prog_items it = {0};
    int nomem = 0;
    int64_t smax = o->sharp_max_s >= 2 ? o->sharp_max_s : 1;
    int64_t max_events = HIST_EVENTS_PER > 3 * smax ? HIST_EVENTS_PER : 3 * smax;
    int64_t max_N = HIST_MAX_N > 2 * smax ? HIST_MAX_N : 2 * smax;
    it.nh = o->histories > 0 ? o->histories : 0;
    it.ns = smax - 1;
    it.fail_h = calloc((size_t)it.nh + 1, 1);
    it.fail_s = calloc((size_t)it.ns + 1, 1);
    it.fail_6 = calloc(THM6_POINTS, 1);
    it.err_6 = calloc(THM6_POINTS, sizeof *it.err_6);
    if (it.fail_h && it.fail_s && it.fail_6 && it.err_6) {
        run_items(o, threads, &it, max_events, max_N, &nomem);
        if (!nomem)
            collect(o, &it, r, max_events, max_N);
    } else {
        nomem = 1;
    }
    free(it.fail_h);
    free(it.fail_s);
    free(it.fail_6);
    free(it.err_6);
    return nomem ? PASCAL_ENOMEM : 0;
}
