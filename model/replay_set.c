/* A-way set-associative LRU of B lines (S = B / A sets): the cache that
 * SDCM (eq. 6) describes statistically.  Each block maps to one set, by
 * b mod S or by a seeded uniform draw (SDCM's random-mapping assumption);
 * within a set the least recently used of the A lines is the victim.
 *
 * A per-block slot index makes a hit O(1); a miss scans the A stamps of its
 * set for the oldest (empty lines have stamp -1 and go first). */
#include "model/replay.h"

#include <stdlib.h>
#include <string.h>

#include "model/phases.h"

struct pascal_setlru {
    int64_t max_lines, nblocks;
    int64_t A, S;        /* ways, sets (A S = B lines) */
    pascal_setmap map;
    int32_t *set;        /* RANDOM: set of each block */
    int32_t *slot;       /* per block: its line (set * A + way), -1: absent */
    int32_t *tag;        /* per line: the block held, -1: empty */
    int64_t *stamp;      /* per line: time of its latest request, -1: empty */
    int64_t now;
};

pascal_setlru *pascal_setlru_create(int64_t max_lines, int64_t nblocks)
{
    if (max_lines < 1 || nblocks < 1 || max_lines > INT32_MAX ||
        nblocks > INT32_MAX)
        return NULL;
    pascal_setlru *ws = calloc(1, sizeof *ws);
    if (!ws)
        return NULL;
    ws->max_lines = max_lines;
    ws->nblocks = nblocks;
    ws->set = malloc((size_t)nblocks * sizeof *ws->set);
    ws->slot = malloc((size_t)nblocks * sizeof *ws->slot);
    ws->tag = malloc((size_t)max_lines * sizeof *ws->tag);
    ws->stamp = malloc((size_t)max_lines * sizeof *ws->stamp);
    if (!ws->set || !ws->slot || !ws->tag || !ws->stamp ||
        pascal_setlru_reset(ws, 1, 1, PASCAL_SETMAP_MODULO, 0) != 0) {
        pascal_setlru_free(ws);
        return NULL;
    }
    return ws;
}

void pascal_setlru_free(pascal_setlru *ws)
{
    if (!ws)
        return;
    free(ws->set);
    free(ws->slot);
    free(ws->tag);
    free(ws->stamp);
    free(ws);
}

int pascal_setlru_reset(pascal_setlru *ws, int64_t A, int64_t B,
                        pascal_setmap map, uint64_t seed)
{
    if (!ws || A < 1 || B < A || B > ws->max_lines || B % A != 0 ||
        (map != PASCAL_SETMAP_MODULO && map != PASCAL_SETMAP_RANDOM))
        return -1;
    ws->A = A;
    ws->S = B / A;
    ws->map = map;
    /* SDCM's random mapping: each block's set uniform and independent. */
    if (map == PASCAL_SETMAP_RANDOM)
        for (int64_t b = 0; b < ws->nblocks; b++)
            ws->set[b] = (int32_t)(pascal_rng_u64(seed, 0x736574ULL, (uint64_t)b) %
                                   (uint64_t)ws->S);
    pascal_setlru_clear(ws);
    return 0;
}

void pascal_setlru_clear(pascal_setlru *ws)
{
    int64_t B = ws->A * ws->S;
    memset(ws->slot, 0xff, (size_t)ws->nblocks * sizeof *ws->slot);
    memset(ws->tag, 0xff, (size_t)B * sizeof *ws->tag);
    memset(ws->stamp, 0xff, (size_t)B * sizeof *ws->stamp);
    ws->now = 0;
}

int64_t pascal_setlru_set_of(const pascal_setlru *ws, int64_t b)
{
    return ws->map == PASCAL_SETMAP_RANDOM ? ws->set[b] : b % ws->S;
}

/* A miss on block b: the oldest line of its set (an empty one first). */
static void fill(pascal_setlru *ws, int64_t b)
{
    int64_t base = pascal_setlru_set_of(ws, b) * ws->A, victim = base;
    for (int64_t i = base + 1; i < base + ws->A; i++)
        if (ws->stamp[i] < ws->stamp[victim])
            victim = i;
    if (ws->tag[victim] >= 0)
        ws->slot[ws->tag[victim]] = -1;
    ws->tag[victim] = (int32_t)b;
    ws->slot[b] = (int32_t)victim;
    ws->stamp[victim] = ws->now;
}

int64_t pascal_setlru_replay(pascal_setlru *ws, const int64_t *trace,
                             int64_t n, uint8_t *hit_out)
{
    if (!ws || n < 0 || (n > 0 && !trace))
        return -1;
    int64_t misses = 0;
    uint64_t nb = (uint64_t)ws->nblocks;
    for (int64_t i = 0; i < n; i++, ws->now++) {
        int64_t b = trace[i];
        if ((uint64_t)b >= nb)
            return -1;
        int32_t line = ws->slot[b];
        if (line >= 0) {
            ws->stamp[line] = ws->now;
        } else {
            fill(ws, b);
            misses++;
        }
        if (hit_out)
            hit_out[i] = line >= 0;
    }
    return misses;
}
