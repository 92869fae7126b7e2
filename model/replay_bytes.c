/* Fully associative LRU in bytes (replay_bytes.h). */
#include "model/replay_bytes.h"

#include <stdlib.h>
#include <string.h>

/* Slots come in groups of 64.  sb holds each slot's bytes (0 once it is no
 * longer its block's latest), gs each group's sum, and a Fenwick tree sums
 * the complete groups; the group being filled is not in the tree yet, so an
 * append costs two stores and a group enters the tree when it is full.  A
 * query adds the tree's prefix of the groups before the slot's own to the
 * shorter half of that group (at most 32 slots, from sb).  The tree of a
 * 2^20-slot workspace is 128 KiB. */
#define GROUP 64

struct pascal_blru {
    int64_t nblocks;
    int64_t W;          /* time slots, a power of two >= 2 nblocks, >= 64 */
    int64_t ngroups;    /* W / GROUP */
    int32_t *last;      /* per block: slot of its latest request, -1: none */
    int32_t *owner;     /* per slot: its block, -1 when no longer its latest */
    int64_t *size;      /* per block: bytes */
    int64_t *sb;        /* per slot: its block's bytes while it is the latest, else 0 */
    int64_t *gs;        /* per group: the sum of its slots' sb */
    int64_t *fen;       /* Fenwick tree (1-based) of gs over complete groups */
    int64_t t;          /* next free slot */
    int64_t live;       /* bytes of the distinct blocks seen */
    int64_t nlive;      /* ... and their count */
};

pascal_blru *pascal_blru_create(int64_t nblocks)
{
    if (nblocks < 1 || nblocks > ((int64_t)1 << 28))
        return NULL;
    pascal_blru *ws = calloc(1, sizeof *ws);
    if (!ws)
        return NULL;
    int64_t W = 64;
    while (W < 2 * nblocks)
        W *= 2;
    ws->nblocks = nblocks;
    ws->W = W;
    ws->ngroups = W / GROUP;
    ws->last = malloc((size_t)nblocks * sizeof *ws->last);
    ws->size = malloc((size_t)nblocks * sizeof *ws->size);
    ws->owner = malloc((size_t)W * sizeof *ws->owner);
    ws->sb = malloc((size_t)W * sizeof *ws->sb);
    ws->gs = malloc((size_t)ws->ngroups * sizeof *ws->gs);
    ws->fen = malloc((size_t)(ws->ngroups + 1) * sizeof *ws->fen);
    if (!ws->last || !ws->size || !ws->owner || !ws->sb || !ws->gs || !ws->fen) {
        pascal_blru_free(ws);
        return NULL;
    }
    pascal_blru_reset(ws);
    return ws;
}

double pascal_blru_bytes(int64_t nblocks)
{
    double W = 64;
    while (W < 2.0 * (double)nblocks)
        W *= 2;
    return (double)sizeof(pascal_blru) + 12.0 * (double)nblocks + 12.0 * W +
           8.0 * (2.0 * W / GROUP + 1);
}

void pascal_blru_free(pascal_blru *ws)
{
    if (!ws)
        return;
    free(ws->last);
    free(ws->size);
    free(ws->owner);
    free(ws->sb);
    free(ws->gs);
    free(ws->fen);
    free(ws);
}

void pascal_blru_reset(pascal_blru *ws)
{
    memset(ws->last, 0xff, (size_t)ws->nblocks * sizeof *ws->last);
    memset(ws->sb, 0, (size_t)ws->W * sizeof *ws->sb);
    memset(ws->gs, 0, (size_t)ws->ngroups * sizeof *ws->gs);
    memset(ws->fen, 0, (size_t)(ws->ngroups + 1) * sizeof *ws->fen);
    ws->t = ws->live = ws->nlive = 0;
}

static inline void fen_add(int64_t *fen, int64_t n, int64_t g, int64_t v)
{
    for (int64_t i = g + 1; i <= n; i += i & -i)
        fen[i] += v;
}

/* Bytes in the groups [0, g). */
static inline int64_t fen_before(const int64_t *fen, int64_t g)
{
    int64_t s = 0;
    for (int64_t i = g; i > 0; i -= i & -i)
        s += fen[i];
    return s;
}

/* Bytes in slots [0, slot]. */
static inline int64_t upto(const pascal_blru *ws, int64_t slot)
{
    int64_t g = slot / GROUP, g0 = g * GROUP, in = 0;
    if (slot - g0 < GROUP / 2) {
        for (int64_t s = g0; s <= slot; s++)
            in += ws->sb[s];
    } else {
        in = ws->gs[g];
        for (int64_t s = slot + 1; s < g0 + GROUP; s++)
            in -= ws->sb[s];
    }
    return fen_before(ws->fen, g) + in;
}

/* Renumbers the live slots 0 .. nlive - 1 in time order and rebuilds the
 * groups and the tree in O(W). */
static void compact(pascal_blru *ws)
{
    int64_t k = 0;
    for (int64_t s = 0; s < ws->t; s++) {
        int32_t b = ws->owner[s];
        if (b < 0)
            continue;
        ws->owner[k] = b;
        ws->last[b] = (int32_t)k;
        k++;
    }
    memset(ws->sb, 0, (size_t)ws->W * sizeof *ws->sb);
    memset(ws->gs, 0, (size_t)ws->ngroups * sizeof *ws->gs);
    memset(ws->fen, 0, (size_t)(ws->ngroups + 1) * sizeof *ws->fen);
    for (int64_t s = 0; s < k; s++) {
        ws->sb[s] = ws->size[ws->owner[s]];
        ws->gs[s / GROUP] += ws->sb[s];
    }
    int64_t n = ws->ngroups, full = k / GROUP;
    for (int64_t i = 1; i <= n; i++) {   /* linear Fenwick build over the complete groups */
        if (i <= full)
            ws->fen[i] += ws->gs[i - 1];
        int64_t j = i + (i & -i);
        if (j <= n)
            ws->fen[j] += ws->fen[i];
    }
    ws->t = k;
}

int64_t pascal_blru_access(pascal_blru *ws, int64_t b, int64_t bytes)
{
    if (!ws || b < 0 || b >= ws->nblocks || bytes <= 0)
        return -1;
    int64_t L = ws->last[b], need = 0;
    if (L >= 0) {
        /* the bytes after slot L, then b's own */
        int64_t sz = ws->size[b], g = L / GROUP;
        need = ws->live - upto(ws, L) + sz;
        ws->sb[L] = 0;
        ws->gs[g] -= sz;
        if (g < ws->t / GROUP)
            fen_add(ws->fen, ws->ngroups, g, -sz);
        ws->owner[L] = -1;
        ws->live -= sz;
        ws->nlive--;
    }
    if (ws->t == ws->W)
        compact(ws);
    int64_t s = ws->t++;
    ws->size[b] = bytes;
    ws->owner[s] = (int32_t)b;
    ws->last[b] = (int32_t)s;
    ws->sb[s] = bytes;
    ws->gs[s / GROUP] += bytes;
    if (ws->t % GROUP == 0)   /* group s / GROUP is complete: it enters the tree */
        fen_add(ws->fen, ws->ngroups, s / GROUP, ws->gs[s / GROUP]);
    ws->live += bytes;
    ws->nlive++;
    return need;
}
