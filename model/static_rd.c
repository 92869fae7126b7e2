/* The static PASCAL model, part 2 (paper sections 3.3-3.4 and eq. 15): exact
 * steady-state LRU reuse distances, the SDCM set-associative estimate built on
 * them, and the Theorem 4 residency intervals with their fractional knapsack.
 *
 * Time: request (r, m) happens at r M + m (units 1/M round).  For worker m's
 * round-0 request to block s_m, the previous request to that block is by the
 * worker p maximising -g_j M + j over all j, with lag g_j = (s_j - s_m) mod N
 * and a zero lag replaced by N when j >= m (section 3.4).  For the first
 * (smallest-index) worker of a phase that is the last worker of the next
 * phase round the ring, g = its gap; for a later worker of a phase it is the
 * previous worker of the same phase, g = 0.
 *
 * Reuse distances do not depend on C: prepare computes them once in
 * O(M log M) and every capacity is then a binary search (DESIGN.md 2). */
#include "model/static_ws.h"

#include <math.h>
#include <string.h>

/* ---- Fenwick trees over worker indices 0..M-1 (array of M + 1) ----------- */

static void fen_add(int64_t *f, int64_t n, int64_t i, int64_t v)
{
    for (i++; i <= n; i += i & -i)
        f[i] += v;
}

/* Sum of positions [0, i). */
static int64_t fen_sum(const int64_t *f, int64_t i)
{
    int64_t s = 0;
    for (; i > 0; i -= i & -i)
        s += f[i];
    return s;
}

/* ---- previous request ---------------------------------------------------- */

void pascal_static_build_prev_(pascal_static *ws)
{
    int64_t D = ws->D, M = ws->M;
    for (int64_t k = 0; k < D; k++) {
        int64_t m = ws->minidx[k];
        ws->prev[m] = ws->maxidx[ws->succ[k]];  /* one phase: own group, lag N */
        ws->lag[m] = ws->gaps[k];
    }
    for (int64_t pos = 1; pos < M; pos++) {
        int64_t m = ws->order[pos], q = ws->order[pos - 1];
        if (ws->group[m] == ws->group[q]) {
            ws->prev[m] = q;
            ws->lag[m] = 0;
        }
    }
}

/* ---- reuse distances of the first worker of each phase ----------------- */

/* Eq. 15 for the first worker m = minidx_k of phase k, with p = maxidx_{k+1}
 * and G = g_k.  Worker i's intervening requests form the cyclic arc
 * [s_i - G + [i <= p], s_i - [i >= m]]; merged per phase j they give
 * [y_j - G + a_j, y_j - b_j] with a_j = [maxidx_j <= p], b_j = [minidx_j >= m]
 * (each arc has length G + 1 - a_j - b_j >= 0).  Starts and ends are both
 * nondecreasing round the ring (phases differ by >= 1, a and b by <= 1), so
 * the uncovered blocks are the holes between consecutive arcs; an empty arc
 * (G = 1) has start = end + 1 and leaves the sum unchanged, so none needs
 * skipping.  The holes have size
 *     h_j = [g_j - G - 1 + a_{j+1} + b_j]+ ,
 * one of which (j = k) is the block itself, and RD = N - sum_j h_j.  Writing
 * x_j = maxidx_{j+1} and w_j = minidx_j (so the query is (x_k, w_k)):
 *   g_j >= G + 2:  h_j = g_j - G - 1 + [x_j <= x_k] + [w_j >= w_k]
 *   g_j =  G + 1:  h_j = [x_j <= x_k] + [w_j >= w_k]
 *   g_j =  G:      h_j = [x_j <= x_k] [w_j >= w_k]
 *   g_j <  G:      h_j = 0.
 * Processing phases by descending gap with Fenwick trees over x and w turns
 * the first two lines into dominance counts, and the third into a 2-D
 * dominance count inside each class of equal gaps: O(D log M) in all
 * instead of the O(D^2) direct merge.
 *
 * Several streams (static_multi.c): the requests between the two are those
 * of every stream, and stream s's distinct blocks are the union of its own
 * phases' arcs [y_j - G + a_j, y_j - b_j] on its own ring, with a_j, b_j read
 * against the same positions p and m in the one within-round order.  The
 * holes of stream s sum over its phases j with h_j as above, g_j its own gap
 * and j + 1 its successor round its own ring (this holds for any G, also
 * G >= N_s, where the arcs cover the ring and every hole is 0), so
 *     RD = sum_s (N_s - sum_{j in s} h_j) = N_total - sum_{all j} h_j :
 * the same formula over every stream's phases together, with N = N_total
 * and x_j = maxidx of j's successor in its own stream (succ).  The sweep
 * below is therefore unchanged. */
static void rd_first_class(pascal_static *ws, const int64_t *ids, int64_t lo,
                           int64_t hi, int64_t ins_cnt, int64_t ins_sum)
{
    int64_t M = ws->M, G = ws->gaps[ids[lo]];
    /* ids[lo..hi) share gap G and are sorted by x ascending (x distinct). */
    for (int64_t t = lo; t < hi; t++) {
        int64_t k = ids[t];
        int64_t x = ws->maxidx[ws->succ[k]], w = ws->minidx[k];
        fen_add(ws->fen_c, M, w, 1);
        int64_t s3 = (t - lo + 1) - fen_sum(ws->fen_c, w);
        int64_t s1 = ins_sum - ins_cnt * (G + 1);
        int64_t s2 = fen_sum(ws->fen_a, x + 1) +
                     (ins_cnt - fen_sum(ws->fen_b, w));
        ws->rd[w] = ws->N - (s1 + s2 + s3);
    }
    for (int64_t t = lo; t < hi; t++)
        fen_add(ws->fen_c, M, ws->minidx[ids[t]], -1);
}

static void rd_first_workers(pascal_static *ws)
{
    int64_t D = ws->D, M = ws->M;
    if (D == 1) {   /* previous request N rounds back: all other blocks */
        ws->rd[ws->minidx[0]] = ws->N - 1;
        return;
    }
    /* Phases ordered by (gap, x), packed as g M + x (g <= N, N M fits); the
     * phase is recovered from x, which is a worker of phase k + 1. */
    int64_t *ids = ws->tmp2, *x = ws->tmp3;
    for (int64_t k = 0; k < D; k++) {
        x[k] = ws->maxidx[ws->succ[k]];
        ids[k] = ws->gaps[k] * M + x[k];
    }
    pascal_static_sort_(ids, D, ws->tmp);
    for (int64_t t = 0; t < D; t++)
        ids[t] = ws->pred[ws->group[ids[t] % M]];
    memset(ws->fen_a, 0, (size_t)(M + 1) * sizeof(int64_t));
    memset(ws->fen_b, 0, (size_t)(M + 1) * sizeof(int64_t));
    memset(ws->fen_c, 0, (size_t)(M + 1) * sizeof(int64_t));
    int64_t ins_cnt = 0, ins_sum = 0;  /* phases with a larger gap so far */
    for (int64_t hi = D; hi > 0;) {
        int64_t lo = hi - 1, G = ws->gaps[ids[hi - 1]];
        while (lo > 0 && ws->gaps[ids[lo - 1]] == G)
            lo--;
        rd_first_class(ws, ids, lo, hi, ins_cnt, ins_sum);
        for (int64_t t = lo; t < hi; t++) {
            fen_add(ws->fen_a, M, x[ids[t]], 1);
            fen_add(ws->fen_b, M, ws->minidx[ids[t]], 1);
        }
        ins_cnt += hi - lo;
        ins_sum += (hi - lo) * G;
        hi = lo;
    }
}

/* A later worker m of a phase re-reads, in the same round, the block its
 * predecessor p of that phase just read (g = 0): the blocks in between are
 * the round-0 blocks of workers p < i < m, so RD is the number of distinct
 * phases among them.  Classic offline distinct-count: sweeping i upward, a
 * Fenwick tree marks only the latest index of each phase, and the answer is
 * the number of marks in (p, m).  May well reach C when D > C.  With several
 * streams a phase group is one stream's phase, so the count is of distinct
 * blocks of every stream, as eq. 15 asks. */
static void rd_later_workers(pascal_static *ws)
{
    int64_t M = ws->M, *last = ws->tmp2;
    memset(ws->fen_a, 0, (size_t)(M + 1) * sizeof(int64_t));
    for (int64_t k = 0; k < ws->D; k++)
        last[k] = -1;
    for (int64_t i = 0; i < M; i++) {
        int64_t k = ws->group[i];
        if (last[k] >= 0) {
            ws->rd[i] = fen_sum(ws->fen_a, i) - fen_sum(ws->fen_a, last[k] + 1);
            fen_add(ws->fen_a, M, last[k], -1);
        }
        fen_add(ws->fen_a, M, i, 1);
        last[k] = i;
    }
}

void pascal_static_build_rd_(pascal_static *ws)
{
    rd_first_workers(ws);
    rd_later_workers(ws);
    memcpy(ws->rd_sorted, ws->rd, (size_t)ws->M * sizeof(int64_t));
    pascal_static_sort_(ws->rd_sorted, ws->M, ws->tmp);
}

const int64_t *pascal_static_rd(const pascal_static *ws)
{
    return (ws->what & PASCAL_STATIC_RD) ? ws->rd : NULL;
}

/* Mattson: a request hits in an LRU cache of C blocks iff RD < C, so the
 * misses per round are the workers with RD >= C (first one found by binary
 * search on the sorted distances). */
double pascal_static_k_lru(const pascal_static *ws, int64_t C)
{
    if (!(ws->what & PASCAL_STATIC_RD))
        return NAN;
    int64_t lo = 0, hi = ws->M;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (ws->rd_sorted[mid] < C) lo = mid + 1; else hi = mid;
    }
    return (double)(ws->M - lo);
}

/* ---- SDCM ---------------------------------------------------------------- */

/* Eq. 6: the binomial CDF P(X <= A-1), X ~ Bin(R, p), p = A/B.  Terms are
 * built in log space by the ratio recurrence
 *     log t_a = log t_{a-1} + log((R - a + 1) / a) + log(p / (1 - p)),
 * starting from log t_0 = R log1p(-p), and summed relative to the largest so
 * neither R = 1e6 (t_0 underflows) nor large A overflows.  No lgamma: it is
 * not thread-safe (signgam). */
double pascal_sdcm_hit_probability(int64_t R, int64_t A, int64_t B)
{
    if (A < 1 || B < 1 || R < 0)
        return NAN;
    if (A >= B)
        return R < B ? 1.0 : 0.0;
    if (R < A)
        return 1.0;   /* at most R < A lines of the set can be taken */
    double p = (double)A / (double)B, lodds = log(p) - log1p(-p);
    double l = (double)R * log1p(-p), lmax = l;
    for (int64_t a = 1; a < A; a++) {   /* first pass: the largest term */
        l += log((double)(R - a + 1) / (double)a) + lodds;
        if (l > lmax)
            lmax = l;
    }
    double sum = 0.0;
    l = (double)R * log1p(-p);
    for (int64_t a = 0; a < A; a++) {
        if (a > 0)
            l += log((double)(R - a + 1) / (double)a) + lodds;
        sum += exp(l - lmax);
    }
    double P = exp(lmax + log(sum));
    return P > 1.0 ? 1.0 : P;
}

/* Sum over workers of 1 - P(hit | RD_m); equal distances are evaluated once,
 * walking the sorted copy. */
double pascal_static_k_sdcm(const pascal_static *ws, int64_t A, int64_t B)
{
    if (!(ws->what & PASCAL_STATIC_RD) || A < 1 || B < 1)
        return NAN;
    double k = 0.0, miss = 0.0;
    for (int64_t i = 0; i < ws->M; i++) {
        if (i == 0 || ws->rd_sorted[i] != ws->rd_sorted[i - 1])
            miss = 1.0 - pascal_sdcm_hit_probability(ws->rd_sorted[i], A, B);
        k += miss;
    }
    return k;
}

/* ---- Theorem 4 residency ------------------------------------------------- */

/* Section 3.4: delta_m = (m - max_j(-g_j M + j)) / M = (g M + m - p) / M; the
 * numerators are exact integers.  They sum to N M because each block's
 * inter-request intervals tile one period of N rounds.  With several streams
 * time is the one within-round order (request (r, g) at r + g / M); stream
 * s's intervals sum to N_s per round, all of them to N_total, and the
 * knapsack below is Theorem 4 over every stream's requests together: the C
 * blocks are shared by all of them. */
void pascal_static_build_delta_(pascal_static *ws)
{
    int64_t M = ws->M;
    for (int64_t m = 0; m < M; m++)
        ws->delta[m] = ws->lag[m] * M + m - ws->prev[m];
    memcpy(ws->delta_sorted, ws->delta, (size_t)M * sizeof(int64_t));
    pascal_static_sort_(ws->delta_sorted, M, ws->tmp);
    ws->delta_prefix[0] = 0;
    for (int64_t i = 0; i < M; i++)
        ws->delta_prefix[i + 1] = ws->delta_prefix[i] + ws->delta_sorted[i];
}

const int64_t *pascal_static_delta_num(const pascal_static *ws)
{
    return (ws->what & PASCAL_STATIC_DELTA) ? ws->delta : NULL;
}

/* Eq. 7 is a fractional knapsack with unit values: take the shortest
 * intervals whole while the budget C (here C M, in 1/M rounds) lasts, then a
 * fraction of the next. */
double pascal_static_residency(const pascal_static *ws, int64_t C)
{
    if (!(ws->what & PASCAL_STATIC_DELTA) || C < 0)
        return NAN;
    int64_t M = ws->M;
    if (C >= ws->N)
        return (double)M;
    int64_t budget = C * M, lo = 0, hi = M;
    while (lo < hi) {   /* j = #{i : prefix[i + 1] <= budget} */
        int64_t mid = lo + (hi - lo) / 2;
        if (ws->delta_prefix[mid + 1] <= budget) lo = mid + 1; else hi = mid;
    }
    double v = (double)lo;
    if (lo < M)
        v += (double)(budget - ws->delta_prefix[lo]) /
             (double)ws->delta_sorted[lo];
    return v;
}

/* Theorem 4: K_policy >= M - V(C), minus N / H for an H-round trace whose
 * first references may hit blocks left from before it. */
double pascal_static_k_bound(const pascal_static *ws, int64_t C, double H)
{
    double v = pascal_static_residency(ws, C);
    if (isnan(v) || isnan(H))
        return NAN;
    double k = (double)ws->M - v - (H > 0.0 ? (double)ws->N / H : 0.0);
    return k > 0.0 ? k : 0.0;
}
