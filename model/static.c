/* The static PASCAL model, part 1 (paper section 3.1-3.3): the workspace, the
 * per-phase-vector preparation (phase groups, cyclic gaps, sorted gaps and
 * their prefix sums) and every query that needs only the gaps: footprint U,
 * K, the water-filling root, the slotted-TTL miss count, the Theorem 3 LRU
 * band, the Proposition 7 margin and the Che baseline.
 *
 * Assumes phases were validated by prepare(); queries are const and O(log D),
 * so one prepared workspace answers every capacity of a sweep.  Reuse
 * distances and residency intervals live in static_rd.c. */
#include "model/static_ws.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- workspace ---------------------------------------------------------- */

/* int64 arrays of the workspace: of max_M entries, and of max_M + 1. */
#define STATIC_ARRAYS 22
#define STATIC_ARRAYS1 7

pascal_static *pascal_static_create(int64_t max_M)
{
    if (max_M < 1 || (uint64_t)max_M > SIZE_MAX / sizeof(int64_t) / 4)
        return NULL;
    pascal_static *ws = calloc(1, sizeof *ws);
    if (!ws)
        return NULL;
    ws->max_M = max_M;
    size_t n = (size_t)max_M, n1 = n + 1;
    int64_t **arrays[] = {&ws->y, &ws->gaps, &ws->minidx, &ws->maxidx,
                          &ws->gsorted, &ws->order, &ws->group, &ws->prev,
                          &ws->lag, &ws->rd, &ws->rd_sorted, &ws->delta,
                          &ws->delta_sorted, &ws->tmp, &ws->tmp2, &ws->tmp3,
                          &ws->succ, &ws->pred, &ws->gstream, &ws->sN,
                          &ws->sgaps, &ws->srd};
    int64_t **arrays1[] = {&ws->gprefix, &ws->delta_prefix, &ws->fen_a,
                           &ws->fen_b, &ws->fen_c, &ws->sgoff, &ws->soff};
    _Static_assert(sizeof arrays / sizeof arrays[0] == STATIC_ARRAYS &&
                       sizeof arrays1 / sizeof arrays1[0] == STATIC_ARRAYS1,
                   "pascal_static_bytes counts the workspace's arrays");
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++)
        if (!(*arrays[i] = calloc(n, sizeof(int64_t)))) {
            pascal_static_free(ws);
            return NULL;
        }
    for (size_t i = 0; i < sizeof arrays1 / sizeof arrays1[0]; i++)
        if (!(*arrays1[i] = calloc(n1, sizeof(int64_t)))) {
            pascal_static_free(ws);
            return NULL;
        }
    return ws;
}

/* STATIC_ARRAYS arrays of max_M and STATIC_ARRAYS1 of max_M + 1 int64
 * values, as created above (the assertion there keeps the counts true). */
double pascal_static_bytes(int64_t max_M)
{
    return (double)sizeof(pascal_static) +
           8.0 * (STATIC_ARRAYS * (double)max_M + STATIC_ARRAYS1 * ((double)max_M + 1));
}

void pascal_static_free(pascal_static *ws)
{
    if (!ws)
        return;
    if (ws->frozen)   /* a summary lives in its caller's memory */
        return;
    int64_t *arrays[] = {ws->y, ws->gaps, ws->minidx, ws->maxidx, ws->gsorted,
                         ws->gprefix, ws->order, ws->group, ws->prev, ws->lag,
                         ws->rd, ws->rd_sorted, ws->delta, ws->delta_sorted,
                         ws->delta_prefix, ws->tmp, ws->tmp2, ws->tmp3,
                         ws->fen_a, ws->fen_b, ws->fen_c, ws->succ, ws->pred,
                         ws->gstream, ws->sN, ws->sgoff, ws->sgaps, ws->soff,
                         ws->srd};
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++)
        free(arrays[i]);
    free(ws);
}

/* ---- prepare ------------------------------------------------------------ */

/* Groups requests by (stream, phase): the distinct phases y_k of each
 * stream in ascending order, streams one after another, and for each the
 * smallest and largest request index (Lemma 1 needs only y; the
 * within-round order needs the indices).  The sort key packs (global block
 * id, index) into one value: the block id off_s + phase orders by stream,
 * then phase, and block * M + index < N_total M fits (checked by the
 * callers). */
void pascal_static_build_groups_(pascal_static *ws, const int64_t *phases,
                                 const int64_t *stream, const int64_t *off,
                                 int64_t M)
{
    for (int64_t m = 0; m < M; m++)
        ws->order[m] = ((stream ? off[stream[m]] : 0) + phases[m]) * M + m;
    pascal_static_sort_(ws->order, M, ws->tmp);
    int64_t D = 0, last = -1;
    for (int64_t pos = 0; pos < M; pos++) {
        int64_t key = ws->order[pos], m = key % M, block = key / M;
        ws->order[pos] = m;
        if (pos == 0 || block != last) {
            ws->y[D] = phases[m];
            ws->gstream[D] = stream ? stream[m] : 0;
            ws->minidx[D] = m;   /* index order within a phase: smallest */
            D++;
            last = block;
        }
        ws->maxidx[D - 1] = m;
        ws->group[m] = D - 1;
    }
    ws->D = D;
}

/* Lemma 1 within each stream: cyclic gaps g_k = y_{k+1} - y_k, and for the
 * stream's last group y_first + N_s - y_last; a stream's gaps sum to N_s (a
 * single phase gives N_s), so all of them sum to N_total.  Sorted copy and
 * prefix sums serve U, K and the water-filling search over every stream's
 * gaps together. */
void pascal_static_build_gaps_(pascal_static *ws, const int64_t *Nring)
{
    int64_t D = ws->D;
    for (int64_t first = 0, k = 0; k < D; k++) {
        if (k > 0 && ws->gstream[k] != ws->gstream[k - 1])
            first = k;
        int64_t last = k + 1 == D || ws->gstream[k + 1] != ws->gstream[k];
        ws->succ[k] = last ? first : k + 1;
        ws->gaps[k] = last ? ws->y[first] + Nring[ws->gstream[k]] - ws->y[k]
                           : ws->y[k + 1] - ws->y[k];
        ws->pred[ws->succ[k]] = k;
    }
    memcpy(ws->gsorted, ws->gaps, (size_t)D * sizeof(int64_t));
    pascal_static_sort_(ws->gsorted, D, ws->tmp);
    ws->gprefix[0] = 0;
    for (int64_t k = 0; k < D; k++)
        ws->gprefix[k + 1] = ws->gprefix[k] + ws->gsorted[k];
}

void pascal_static_finish_(pascal_static *ws, unsigned what)
{
    what &= PASCAL_STATIC_RD | PASCAL_STATIC_DELTA;
    if (what)
        pascal_static_build_prev_(ws);
    if (what & PASCAL_STATIC_RD)
        pascal_static_build_rd_(ws);
    if (what & PASCAL_STATIC_DELTA)
        pascal_static_build_delta_(ws);
    ws->what = what;
}

int pascal_static_prepare(pascal_static *ws, const int64_t *phases, int64_t M,
                          int64_t N, unsigned what)
{
    if (!ws || ws->frozen)
        return -1;
    ws->M = ws->N = ws->D = ws->S = 0;
    ws->what = 0;
    if (!phases || M < 1 || M > ws->max_M || N < 1 || N > INT64_MAX / M)
        return -1;
    for (int64_t m = 0; m < M; m++)
        if (phases[m] < 0 || phases[m] >= N)
            return -1;
    ws->M = M;
    ws->N = N;
    ws->S = 1;
    pascal_static_build_groups_(ws, phases, NULL, NULL, M);
    pascal_static_build_gaps_(ws, &N);
    pascal_static_finish_(ws, what);
    return 0;
}

/* ---- gap queries -------------------------------------------------------- */

int64_t pascal_static_N(const pascal_static *ws) { return ws->N; }
int64_t pascal_static_M(const pascal_static *ws) { return ws->M; }
int64_t pascal_static_D(const pascal_static *ws) { return ws->D; }

const int64_t *pascal_static_gaps(const pascal_static *ws)
{
    return ws->D > 0 ? ws->gaps : NULL;
}

/* Number of sorted gaps < t (strict = 1) or <= t (strict = 0). */
static int64_t count_gaps_below(const pascal_static *ws, int64_t t, int strict)
{
    int64_t lo = 0, hi = ws->D;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        int64_t g = ws->gsorted[mid];
        if (strict ? g < t : g <= t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Lemma 1: U(t) = sum_i min(g_i, t); gaps below t count whole, the rest t. */
int64_t pascal_static_U(const pascal_static *ws, int64_t t)
{
    if (t <= 0 || ws->D == 0)
        return 0;
    int64_t k = count_gaps_below(ws, t, 1);
    return ws->gprefix[k] + (ws->D - k) * t;
}

/* K(t) = U(t+1) - U(t) = #{i : g_i > t}; all gaps are >= 1, so K = D for
 * t < 0 as the header promises. */
int64_t pascal_static_K(const pascal_static *ws, int64_t t)
{
    return ws->D - count_gaps_below(ws, t, 0);
}

/* Eq. 3: the number j of sorted gaps g_(k) with U(g_(k)) <= C, where
 * U(g_(k)) = prefix_k + (D - k) g_(k) is nondecreasing in k.  The root then
 * lies in [g_(j-1), g_(j)) and theta = (C - prefix_j) / (D - j).  For C < N,
 * U(g_(D-1)) = N > C, so j < D. */
static int64_t waterfill_index(const pascal_static *ws, int64_t C)
{
    int64_t lo = 0, hi = ws->D;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        int64_t u = ws->gprefix[mid] + (ws->D - mid) * ws->gsorted[mid];
        if (u <= C)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

double pascal_static_theta(const pascal_static *ws, int64_t C)
{
    if (ws->D == 0 || C < 1 || C >= ws->N)
        return NAN;
    int64_t j = waterfill_index(ws, C);
    return (double)(C - ws->gprefix[j]) / (double)(ws->D - j);
}

/* T* = floor(theta) by integer division: both operands are nonnegative, so
 * this is exact where the double theta might round across an integer. */
int64_t pascal_static_tstar(const pascal_static *ws, int64_t C)
{
    if (ws->D == 0 || C < 1 || C >= ws->N)
        return -1;
    int64_t j = waterfill_index(ws, C);
    return (C - ws->gprefix[j]) / (ws->D - j);
}

/* Theorem 2: K(T*) misses per round.  C >= N keeps the whole ring resident.
 * C < 1 has no boundary storage (T* = -1 here, and also for the window 0 the
 * theorem would pick at C = 0), so every distinct phase misses: K = D. */
int64_t pascal_static_k_ttl(const pascal_static *ws, int64_t C)
{
    if (C >= ws->N)
        return 0;
    return pascal_static_K(ws, pascal_static_tstar(ws, C));
}

/* Theorem 3: K(T*+1) <= K_lru <= K(T*-1), only under its condition D <= C. */
void pascal_static_lru_band(const pascal_static *ws, int64_t C, double *lo,
                            double *hi)
{
    double l = NAN, h = NAN;
    if (ws->D > 0 && C >= ws->N) {
        l = h = 0.0;
    } else if (ws->D > 0 && ws->D <= C) {
        int64_t t = pascal_static_tstar(ws, C);
        l = (double)pascal_static_K(ws, t + 1);
        h = (double)pascal_static_K(ws, t - 1);
    }
    if (lo)
        *lo = l;
    if (hi)
        *hi = h;
}

void pascal_static_window(const pascal_static *ws, int64_t C, pascal_static_win *w)
{
    int64_t t = -1;
    w->theta = NAN;
    if (ws->D > 0 && C >= 1 && C < ws->N) {
        int64_t j = waterfill_index(ws, C);
        w->theta = (double)(C - ws->gprefix[j]) / (double)(ws->D - j);
        t = (C - ws->gprefix[j]) / (ws->D - j);
    }
    w->tstar = t;
    w->k_ttl = C >= ws->N ? 0 : pascal_static_K(ws, t);
    w->band_lo = w->band_hi = NAN;
    if (ws->D > 0 && C >= ws->N) {
        w->band_lo = w->band_hi = 0.0;
    } else if (ws->D > 0 && ws->D <= C) {
        w->band_lo = (double)pascal_static_K(ws, t + 1);
        w->band_hi = (double)pascal_static_K(ws, t - 1);
    }
}

/* Proposition 7: gaps within (D + 1) eps of theta are the only ones whose
 * classification (above or below the window) a perturbation of size eps can
 * flip.  Counted on the sorted gaps: #{g <= theta + w} - #{g < theta - w}. */
double pascal_static_margin(const pascal_static *ws, int64_t C, double eps)
{
    double theta = pascal_static_theta(ws, C);
    if (isnan(theta) || !(eps >= 0.0))
        return NAN;
    double w = (double)(ws->D + 1) * eps;
    int64_t lo = 0, hi = ws->D, a, b;
    while (lo < hi) { /* first gap >= theta - w */
        int64_t mid = lo + (hi - lo) / 2;
        if ((double)ws->gsorted[mid] < theta - w) lo = mid + 1; else hi = mid;
    }
    a = lo;
    hi = ws->D;
    while (lo < hi) { /* first gap > theta + w */
        int64_t mid = lo + (hi - lo) / 2;
        if ((double)ws->gsorted[mid] <= theta + w) lo = mid + 1; else hi = mid;
    }
    b = lo;
    return (double)(b - a);
}

/* Che / IRM: with independent uniform references over N blocks, a cache of C
 * holds each block with probability C/N, whatever the phases. */
double pascal_che_miss_rate(int64_t C, int64_t N)
{
    if (N < 1 || C < 0)
        return NAN;
    return C >= N ? 0.0 : 1.0 - (double)C / (double)N;
}
