/* Slotted TTL / Denning working set with a window of T rounds (section 3.2):
 * at the start of round r the cache remembers the blocks requested in the T
 * complete rounds r - T .. r - 1; current-round duplicates share one fill.
 * Theorem 2 says that in steady state the T*-window cache misses exactly
 * K(T*) = #{i : g_i > T*} times per round with boundary occupancy U(T*) <= C.
 *
 * State: the round of each block's latest request.  A request in round r
 * hits iff that round is >= r - T (== r: a duplicate in this round). */
#include "model/replay.h"

#include <stdlib.h>

#define TTL_NEVER (INT64_MIN / 2)   /* below every round - T */
#define TTL_MAX_T ((int64_t)1 << 61)

struct pascal_ttl {
    int64_t nblocks;
    int64_t T;          /* window, rounds */
    int64_t round;      /* the next round to replay */
    int64_t *last;      /* per block: round of its latest request */
};

pascal_ttl *pascal_ttl_create(int64_t nblocks)
{
    if (nblocks < 1 || (uint64_t)nblocks > SIZE_MAX / sizeof(int64_t))
        return NULL;
    pascal_ttl *ws = calloc(1, sizeof *ws);
    if (!ws)
        return NULL;
    ws->nblocks = nblocks;
    ws->last = malloc((size_t)nblocks * sizeof *ws->last);
    if (!ws->last) {
        free(ws);
        return NULL;
    }
    pascal_ttl_reset(ws, 0);
    return ws;
}

void pascal_ttl_free(pascal_ttl *ws)
{
    if (!ws)
        return;
    free(ws->last);
    free(ws);
}

void pascal_ttl_reset(pascal_ttl *ws, int64_t T)
{
    ws->T = T < 0 ? 0 : T > TTL_MAX_T ? TTL_MAX_T : T;
    ws->round = 0;
    for (int64_t b = 0; b < ws->nblocks; b++)
        ws->last[b] = TTL_NEVER;
}

int64_t pascal_ttl_round(pascal_ttl *ws, const int64_t *reqs, int64_t n)
{
    if (!ws || n < 0 || (n > 0 && !reqs))
        return -1;
    int64_t r = ws->round, oldest = r - ws->T, misses = 0;
    uint64_t nb = (uint64_t)ws->nblocks;
    for (int64_t i = 0; i < n; i++) {
        int64_t b = reqs[i];
        if ((uint64_t)b >= nb)
            return -1;
        misses += ws->last[b] < oldest;
        ws->last[b] = r;
    }
    ws->round = r + 1;
    return misses;
}

/* Blocks requested in rounds round - T .. round - 1. */
int64_t pascal_ttl_occupancy(const pascal_ttl *ws)
{
    int64_t oldest = ws->round - ws->T, held = 0;
    for (int64_t b = 0; b < ws->nblocks; b++)
        held += ws->last[b] >= oldest;
    return held;
}
