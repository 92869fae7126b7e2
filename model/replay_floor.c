/* A floor on the misses of every demand-paging cache from a trace's reuse
 * gaps (replay.h; the proof is docs/workloads.md section 6.1).
 *
 * Request j hits only if its block stayed resident since its previous
 * request i: through the g - 1 slots between requests i + 1 .. j - 1, in
 * each of which the block just requested is resident too, so at most C - 1
 * blocks are held there for a later hit.  Summed over the hits, the gaps
 * less one are at most (C - 1)(n - 1), and the hits are at most the number
 * of smallest gaps that fit.  The gaps are kept in a histogram: exact below
 * 2^12, and above in buckets of 256 per power of two, each counted at its
 * lower edge; a gap counted short lets more hits fit, so the floor stays a
 * floor (within 1/256 of the exact one). */
#include <stdlib.h>
#include <string.h>

#include "model/replay.h"

#define EXACT 4096             /* gaps less one below this are exact */
#define SUB 256                /* buckets per power of two above */
#define MAX_REQUESTS ((int64_t)1 << 31)   /* keeps every sum below 2^62 */
/* a gap is below MAX_REQUESTS = 2^31, so its top bit is 30 at most */
#define NBUCKETS (EXACT + (31 - 12) * SUB)

struct pascal_gapfloor {
    int64_t nblocks;
    int64_t n;          /* requests so far */
    int dirty;          /* the sums below lag the counts */
    int64_t *last;      /* per block: its last request's index, or -1 */
    int64_t *count;     /* per bucket */
    int64_t *sum_c;     /* NBUCKETS + 1: counts of the buckets below i */
    int64_t *sum_v;     /* NBUCKETS + 1: their gaps less one, at the edges */
};

static int64_t bucket(int64_t v)
{
    if (v < EXACT)
        return v;
    int e = 63 - __builtin_clzll((unsigned long long)v);
    return EXACT + (int64_t)(e - 12) * SUB + ((v >> (e - 8)) & (SUB - 1));
}

static int64_t edge(int64_t i)
{
    if (i < EXACT)
        return i;
    int64_t e = 12 + (i - EXACT) / SUB, m = (i - EXACT) % SUB;
    return (SUB + m) << (e - 8);
}

double pascal_gapfloor_bytes(int64_t nblocks)
{
    return (double)sizeof(pascal_gapfloor) + 8.0 * (double)nblocks + 8.0 * (3.0 * NBUCKETS + 2);
}

pascal_gapfloor *pascal_gapfloor_create(int64_t nblocks)
{
    if (nblocks < 1 || nblocks > PASCAL_REPLAY_MAX_N)
        return NULL;
    pascal_gapfloor *g = calloc(1, sizeof *g);
    if (!g)
        return NULL;
    g->nblocks = nblocks;
    g->last = malloc((size_t)nblocks * sizeof *g->last);
    g->count = malloc(NBUCKETS * sizeof *g->count);
    g->sum_c = malloc((NBUCKETS + 1) * sizeof *g->sum_c);
    g->sum_v = malloc((NBUCKETS + 1) * sizeof *g->sum_v);
    if (!g->last || !g->count || !g->sum_c || !g->sum_v) {
        pascal_gapfloor_free(g);
        return NULL;
    }
    pascal_gapfloor_reset(g);
    return g;
}

void pascal_gapfloor_free(pascal_gapfloor *g)
{
    if (!g)
        return;
    free(g->last);
    free(g->count);
    free(g->sum_c);
    free(g->sum_v);
    free(g);
}

void pascal_gapfloor_reset(pascal_gapfloor *g)
{
    memset(g->last, 0xff, (size_t)g->nblocks * sizeof *g->last);   /* -1 */
    memset(g->count, 0, NBUCKETS * sizeof *g->count);
    g->n = 0;
    g->dirty = 1;
}

int pascal_gapfloor_add(pascal_gapfloor *g, const int64_t *trace, int64_t n)
{
    if (n < 0 || n > MAX_REQUESTS - g->n)
        return -1;
    int64_t t = g->n;
    for (int64_t i = 0; i < n; i++, t++) {
        int64_t b = trace[i];
        if (b < 0 || b >= g->nblocks) {
            g->n = t;
            return -1;
        }
        if (g->last[b] >= 0)
            g->count[bucket(t - g->last[b] - 1)]++;
        g->last[b] = t;
    }
    g->n = t;
    g->dirty = 1;
    return 0;
}

int64_t pascal_gapfloor_requests(const pascal_gapfloor *g) { return g->n; }

int64_t pascal_gapfloor_misses(pascal_gapfloor *g, int64_t C)
{
    if (g->n == 0)
        return 0;
    if (C < 1)
        return g->n;
    if (g->dirty) {
        g->sum_c[0] = g->sum_v[0] = 0;
        for (int64_t i = 0; i < NBUCKETS; i++) {
            g->sum_c[i + 1] = g->sum_c[i] + g->count[i];
            g->sum_v[i + 1] = g->sum_v[i] + g->count[i] * edge(i);
        }
        g->dirty = 0;
    }
    /* (C - 1)(n - 1), saturated where it passes every gap anyway */
    int64_t slots = g->n - 1, budget = g->sum_v[NBUCKETS];
    if (slots == 0 || C - 1 < (budget + slots - 1) / slots)
        budget = (C - 1) * slots;
    /* the last bucket boundary i whose gaps below all fit */
    int64_t lo = 0, hi = NBUCKETS;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo + 1) / 2;
        if (g->sum_v[mid] <= budget)
            lo = mid;
        else
            hi = mid - 1;
    }
    int64_t hits = g->sum_c[lo];
    if (lo < NBUCKETS) {   /* part of bucket lo: its edge is at least 1 */
        int64_t more = (budget - g->sum_v[lo]) / edge(lo);
        hits += more < g->count[lo] ? more : g->count[lo];
    }
    return g->n - hits;
}
