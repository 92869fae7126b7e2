/* The static model for several streams sharing one cache (static_multi.h).
 *
 * The single-stream preparation already works on phase groups, gaps and
 * within-round positions; with several streams a phase group is one
 * stream's phase, its gap and successor are taken round its own stream's
 * ring, and positions are those of the one within-round order.  Then:
 *   - U(t) = sum over every group of min(g, t) = sum_s U_s(t), so the TTL
 *     boundary occupancy of a window shared by all streams is the sum of
 *     their footprints and eq. 3 water-fills all gaps together;
 *   - eq. 15's reuse distance is N_total minus the holes between the arcs of
 *     every stream (static_rd.c states the derivation), which is the same
 *     sweep over all groups;
 *   - Theorem 4's intervals are measured in the shared time r + g / R.
 * So preparing the groups is all that is new here; the rest reuses
 * static.c and static_rd.c unchanged.  This file adds the per-stream views
 * (each stream's share of the misses) and the read-only summary. */
#include "model/static_multi.h"

#include <math.h>
#include <string.h>

#include "model/static_ws.h"

/* Per-stream views that need no reuse distances: stream sizes, request
 * offsets (from the counts M_s) and each stream's gaps sorted within its
 * group range. */
static void build_stream_gaps(pascal_static *ws, const pascal_streams *st,
                              const int64_t *count)
{
    int64_t S = st->S, D = ws->D;
    ws->soff[0] = 0;
    for (int64_t s = 0; s < S; s++) {
        ws->sN[s] = st->N[s];
        ws->soff[s + 1] = ws->soff[s] + count[s];
    }
    memcpy(ws->sgaps, ws->gaps, (size_t)D * sizeof(int64_t));
    for (int64_t s = 0, k = 0; s < S; s++) {
        ws->sgoff[s] = k;
        while (k < D && ws->gstream[k] == s)
            k++;
        pascal_static_sort_(ws->sgaps + ws->sgoff[s], k - ws->sgoff[s], ws->tmp);
    }
    ws->sgoff[S] = D;
}

/* Each stream's reuse distances sorted, packed as stream * N_total + RD
 * (RD < N_total, and S N_total <= R N_total fits). */
static void build_stream_rd(pascal_static *ws, const pascal_streams *st)
{
    int64_t M = ws->M, N = ws->N;
    for (int64_t g = 0; g < M; g++)
        ws->srd[g] = st->stream[g] * N + ws->rd[g];
    pascal_static_sort_(ws->srd, M, ws->tmp);
    for (int64_t g = 0; g < M; g++)
        ws->srd[g] %= N;
}

int pascal_static_prepare_streams(pascal_static *ws, const pascal_streams *st,
                                  unsigned what)
{
    if (!ws || ws->frozen)
        return -1;
    ws->M = ws->N = ws->D = ws->S = 0;
    ws->what = 0;
    /* tmp2 and tmp3 hold S <= R entries: the counts M_s and the offsets. */
    if (!st || st->R < 1 || st->R > ws->max_M || st->S > st->R ||
        pascal_streams_check(st, ws->tmp2) != 0)
        return -1;
    pascal_streams_offsets(st, ws->tmp3);
    ws->M = st->R;
    ws->N = pascal_streams_blocks(st);
    ws->S = st->S;
    pascal_static_build_groups_(ws, st->phase, st->stream, ws->tmp3, st->R);
    pascal_static_build_gaps_(ws, st->N);
    build_stream_gaps(ws, st, ws->tmp2);
    pascal_static_finish_(ws, what);   /* may reuse tmp2 and tmp3 */
    if (ws->what & PASCAL_STATIC_RD)
        build_stream_rd(ws, st);
    return 0;
}

int64_t pascal_static_S(const pascal_static *ws) { return ws->S; }

static int stream_ok(const pascal_static *ws, int64_t s)
{
    return ws->D > 0 && s >= 0 && s < ws->S;
}

int64_t pascal_static_stream_N(const pascal_static *ws, int64_t s)
{
    return !stream_ok(ws, s) ? -1 : ws->S == 1 ? ws->N : ws->sN[s];
}

int64_t pascal_static_stream_M(const pascal_static *ws, int64_t s)
{
    return !stream_ok(ws, s) ? -1 : ws->S == 1 ? ws->M : ws->soff[s + 1] - ws->soff[s];
}

/* #{a[i] > t} over the ascending a[0..n-1] (t < 0 counts every entry). */
static int64_t count_above(const int64_t *a, int64_t n, int64_t t)
{
    int64_t lo = 0, hi = n;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (a[mid] <= t) lo = mid + 1; else hi = mid;
    }
    return n - lo;
}

double pascal_static_stream_k_lru(const pascal_static *ws, int64_t s, int64_t C)
{
    if (!stream_ok(ws, s) || !(ws->what & PASCAL_STATIC_RD))
        return NAN;
    if (ws->S == 1)
        return pascal_static_k_lru(ws, C);
    /* Mattson per stream: its requests with RD >= C, i.e. RD > C - 1. */
    return (double)count_above(ws->srd + ws->soff[s], ws->soff[s + 1] - ws->soff[s], C - 1);
}

/* Stream s's gaps, ascending. */
static const int64_t *stream_gaps(const pascal_static *ws, int64_t s, int64_t *n)
{
    if (ws->S == 1) {
        *n = ws->D;
        return ws->gsorted;
    }
    *n = ws->sgoff[s + 1] - ws->sgoff[s];
    return ws->sgaps + ws->sgoff[s];
}

/* Theorem 2 per stream: the shared window T* (the water level of every
 * stream's gaps together) decides each gap, so stream s misses once per
 * round for each of its gaps above T*. */
int64_t pascal_static_stream_k_ttl(const pascal_static *ws, int64_t s, int64_t C)
{
    int64_t n;
    if (!stream_ok(ws, s))
        return -1;
    if (C >= ws->N)
        return 0;
    const int64_t *g = stream_gaps(ws, s, &n);
    return count_above(g, n, pascal_static_tstar(ws, C));
}

void pascal_static_stream_lru_band(const pascal_static *ws, int64_t s,
                                   int64_t C, double *lo, double *hi)
{
    double l = NAN, h = NAN;
    int64_t n;
    if (stream_ok(ws, s) && C >= ws->N) {
        l = h = 0.0;
    } else if (stream_ok(ws, s) && ws->D <= C) {
        const int64_t *g = stream_gaps(ws, s, &n);
        int64_t t = pascal_static_tstar(ws, C);
        l = (double)count_above(g, n, t + 1);
        h = (double)count_above(g, n, t - 1);
    }
    if (lo)
        *lo = l;
    if (hi)
        *hi = h;
}

/* ---- summaries ------------------------------------------------------------ */

/* The arrays a summary keeps, with their lengths for workspace ws. */
typedef struct frozen_part {
    int64_t **field;     /* in the summary's struct */
    const int64_t *src;
    int64_t n;
} frozen_part;

static int summary_parts(const pascal_static *ws, pascal_static *dst, frozen_part *p)
{
    int64_t D = ws->D, M = ws->M, S = ws->S, n = 0;
    int rd = (ws->what & PASCAL_STATIC_RD) != 0, dl = (ws->what & PASCAL_STATIC_DELTA) != 0;
    int multi = S > 1;
    p[n++] = (frozen_part){&dst->gsorted, ws->gsorted, D};
    p[n++] = (frozen_part){&dst->gprefix, ws->gprefix, D + 1};
    if (rd)
        p[n++] = (frozen_part){&dst->rd_sorted, ws->rd_sorted, M};
    if (dl) {
        p[n++] = (frozen_part){&dst->delta_sorted, ws->delta_sorted, M};
        p[n++] = (frozen_part){&dst->delta_prefix, ws->delta_prefix, M + 1};
    }
    if (multi) {
        p[n++] = (frozen_part){&dst->sN, ws->sN, S};
        p[n++] = (frozen_part){&dst->sgoff, ws->sgoff, S + 1};
        p[n++] = (frozen_part){&dst->sgaps, ws->sgaps, D};
        p[n++] = (frozen_part){&dst->soff, ws->soff, S + 1};
        if (rd)
            p[n++] = (frozen_part){&dst->srd, ws->srd, M};
    }
    return (int)n;
}

#define HEAD_BYTES ((sizeof(pascal_static) + 7) / 8 * 8)

size_t pascal_static_summary_bytes(const pascal_static *ws)
{
    frozen_part p[12];
    pascal_static dummy;
    size_t bytes = HEAD_BYTES;
    if (!ws || ws->D == 0)
        return 0;
    int n = summary_parts(ws, &dummy, p);
    for (int i = 0; i < n; i++)
        bytes += (size_t)p[i].n * sizeof(int64_t);
    return bytes;
}

/* summary_parts with D <= M and S <= M, M = R (the distinct phases and the
 * streams are at most the requests of a round). */
size_t pascal_static_summary_max_bytes(int64_t R, unsigned what)
{
    size_t n = (size_t)(R > 0 ? R : 0), words = 2 * n + 1;
    int rd = (what & PASCAL_STATIC_RD) != 0, dl = (what & PASCAL_STATIC_DELTA) != 0;
    words += rd ? n : 0;
    words += dl ? 2 * n + 1 : 0;
    words += 4 * n + 2 + (rd ? n : 0); /* several streams */
    return HEAD_BYTES + words * sizeof(int64_t);
}

const pascal_static *pascal_static_summarize(const pascal_static *ws, void *mem,
                                             size_t len)
{
    frozen_part p[12];
    size_t need = pascal_static_summary_bytes(ws);
    if (need == 0 || !mem || len < need || ((uintptr_t)mem & 7u))
        return NULL;
    pascal_static *dst = mem;
    memset(dst, 0, sizeof *dst);
    dst->M = ws->M;
    dst->N = ws->N;
    dst->D = ws->D;
    dst->S = ws->S;
    dst->what = ws->what;
    dst->frozen = 1;
    int64_t *at = (int64_t *)((char *)mem + HEAD_BYTES);
    int n = summary_parts(ws, dst, p);
    for (int i = 0; i < n; i++) {
        memcpy(at, p[i].src, (size_t)p[i].n * sizeof(int64_t));
        *p[i].field = at;
        at += p[i].n;
    }
    return dst;
}
