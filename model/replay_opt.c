/* Belady's MIN (OPT): the demand-paging policy with the fewest misses.  On a
 * miss with a full cache it evicts the resident block whose next request is
 * farthest in the future.  Theorem 4 bounds it from below: no demand-paging
 * policy, Belady included, misses less than M - V(C) per round in the long
 * run (minus N / H on an H-round trace).
 *
 * The resident blocks sit in a binary max-heap keyed by next-use time, with
 * each block's heap position, so a hit (the block's key grows from "now" to
 * its next use: a sift up) and a miss (replace the root, sift down) are
 * O(log C).  Resident blocks have distinct next uses (one request reads one
 * block), so the order is total except among blocks never used again, where
 * any choice is optimal. */
#include "model/replay.h"

#include <stdlib.h>

#define OPT_NEVER INT64_MAX

struct pascal_opt {
    int64_t nblocks, max_len;
    int64_t C;          /* capacity of the current replay */
    int64_t size;       /* resident blocks */
    int64_t *key;       /* heap: next-use time */
    int32_t *blk;       /* heap: block */
    int32_t *pos;       /* per block: heap index, -1 when not resident */
    int64_t *next;      /* general traces: next use of each request */
    int64_t *upcoming;  /* per block: its next request, scanning backwards */
};

pascal_opt *pascal_opt_create(int64_t nblocks, int64_t max_len)
{
    if (nblocks < 1 || nblocks > INT32_MAX || max_len < 0 ||
        (uint64_t)max_len > SIZE_MAX / sizeof(int64_t))
        return NULL;
    pascal_opt *ws = calloc(1, sizeof *ws);
    if (!ws)
        return NULL;
    ws->nblocks = nblocks;
    ws->max_len = max_len;
    ws->key = malloc((size_t)nblocks * sizeof *ws->key);
    ws->blk = malloc((size_t)nblocks * sizeof *ws->blk);
    ws->pos = malloc((size_t)nblocks * sizeof *ws->pos);
    ws->upcoming = malloc((size_t)nblocks * sizeof *ws->upcoming);
    ws->next = malloc((size_t)(max_len > 0 ? max_len : 1) * sizeof *ws->next);
    if (!ws->key || !ws->blk || !ws->pos || !ws->upcoming || !ws->next) {
        pascal_opt_free(ws);
        return NULL;
    }
    pascal_opt_reset(ws, 0);
    return ws;
}

void pascal_opt_free(pascal_opt *ws)
{
    if (!ws)
        return;
    free(ws->key);
    free(ws->blk);
    free(ws->pos);
    free(ws->next);
    free(ws->upcoming);
    free(ws);
}

void pascal_opt_reset(pascal_opt *ws, int64_t C)
{
    ws->C = C < 0 ? 0 : C > ws->nblocks ? ws->nblocks : C;
    ws->size = 0;
    for (int64_t b = 0; b < ws->nblocks; b++)
        ws->pos[b] = -1;
}

static inline void place(pascal_opt *ws, int64_t i, int64_t k, int32_t b)
{
    ws->key[i] = k;
    ws->blk[i] = b;
    ws->pos[b] = (int32_t)i;
}

static void sift_up(pascal_opt *ws, int64_t i)
{
    int64_t k = ws->key[i];
    int32_t b = ws->blk[i];
    while (i > 0) {
        int64_t p = (i - 1) / 2;
        if (ws->key[p] >= k)
            break;
        place(ws, i, ws->key[p], ws->blk[p]);
        i = p;
    }
    place(ws, i, k, b);
}

static void sift_down(pascal_opt *ws, int64_t i)
{
    int64_t k = ws->key[i], n = ws->size;
    int32_t b = ws->blk[i];
    for (;;) {
        int64_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && ws->key[c + 1] > ws->key[c])
            c++;
        if (ws->key[c] <= k)
            break;
        place(ws, i, ws->key[c], ws->blk[c]);
        i = c;
    }
    place(ws, i, k, b);
}

int pascal_opt_access(pascal_opt *ws, int64_t b, int64_t next)
{
    if ((uint64_t)b >= (uint64_t)ws->nblocks)
        return -1;
    int32_t i = ws->pos[b];
    if (i >= 0) {               /* hit: its key grows from now to next */
        ws->key[i] = next;
        sift_up(ws, i);
        return 1;
    }
    if (ws->C == 0)
        return 0;
    if (ws->size < ws->C) {     /* room: no eviction */
        place(ws, ws->size++, next, (int32_t)b);
        sift_up(ws, ws->size - 1);
        return 0;
    }
    ws->pos[ws->blk[0]] = -1;   /* evict the farthest next use */
    place(ws, 0, next, (int32_t)b);
    sift_down(ws, 0);
    return 0;
}

int64_t pascal_opt_replay(pascal_opt *ws, const int64_t *trace, int64_t n,
                          int64_t C)
{
    if (!ws || n < 0 || n > ws->max_len || (n > 0 && !trace))
        return -1;
    for (int64_t b = 0; b < ws->nblocks; b++)
        ws->upcoming[b] = OPT_NEVER;
    for (int64_t t = n - 1; t >= 0; t--) {
        int64_t b = trace[t];
        if ((uint64_t)b >= (uint64_t)ws->nblocks)
            return -1;
        ws->next[t] = ws->upcoming[b];
        ws->upcoming[b] = t;
    }
    pascal_opt_reset(ws, C);
    int64_t misses = 0;
    for (int64_t t = 0; t < n; t++)
        misses += pascal_opt_access(ws, trace[t], ws->next[t]) == 0;
    return misses;
}
