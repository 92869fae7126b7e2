/* Fully associative LRU in bytes (replay_bytes.h). */
#include "model/replay_bytes.h"

#include <stdlib.h>
#include <string.h>

struct pascal_blru {
    int64_t nblocks;
    int64_t W;          /* time slots, a power of two >= 2 nblocks, >= 64 */
    int32_t *last;      /* per block: slot of its latest request, -1: none */
    int32_t *owner;     /* per slot: its block, -1 when no longer its latest */
    int64_t *size;      /* per block: bytes */
    int64_t *fen;       /* Fenwick tree (1-based) of live bytes per slot */
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
    ws->last = malloc((size_t)nblocks * sizeof *ws->last);
    ws->size = malloc((size_t)nblocks * sizeof *ws->size);
    ws->owner = malloc((size_t)W * sizeof *ws->owner);
    ws->fen = malloc((size_t)(W + 1) * sizeof *ws->fen);
    if (!ws->last || !ws->size || !ws->owner || !ws->fen) {
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
    return (double)sizeof(pascal_blru) + 12.0 * (double)nblocks + 4 * W + 8 * (W + 1);
}

void pascal_blru_free(pascal_blru *ws)
{
    if (!ws)
        return;
    free(ws->last);
    free(ws->size);
    free(ws->owner);
    free(ws->fen);
    free(ws);
}

void pascal_blru_reset(pascal_blru *ws)
{
    memset(ws->last, 0xff, (size_t)ws->nblocks * sizeof *ws->last);
    memset(ws->fen, 0, (size_t)(ws->W + 1) * sizeof *ws->fen);
    ws->t = ws->live = ws->nlive = 0;
}

static inline void fen_add(int64_t *fen, int64_t n, int64_t slot, int64_t v)
{
    for (int64_t i = slot + 1; i <= n; i += i & -i)
        fen[i] += v;
}

/* Bytes in slots [0, slot]. */
static inline int64_t fen_upto(const int64_t *fen, int64_t slot)
{
    int64_t s = 0;
    for (int64_t i = slot + 1; i > 0; i -= i & -i)
        s += fen[i];
    return s;
}

/* Renumbers the live slots 0 .. nlive - 1 in time order and rebuilds the
 * tree in O(W). */
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
    memset(ws->fen, 0, (size_t)(ws->W + 1) * sizeof *ws->fen);
    for (int64_t s = 0; s < k; s++)
        ws->fen[s + 1] = ws->size[ws->owner[s]];
    for (int64_t i = 1; i <= ws->W; i++) {   /* linear Fenwick build */
        int64_t j = i + (i & -i);
        if (j <= ws->W)
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
        need = ws->live - fen_upto(ws->fen, L) + ws->size[b];
        fen_add(ws->fen, ws->W, L, -ws->size[b]);
        ws->owner[L] = -1;
        ws->live -= ws->size[b];
        ws->nlive--;
    }
    if (ws->t == ws->W)
        compact(ws);
    int64_t s = ws->t++;
    ws->size[b] = bytes;
    ws->owner[s] = (int32_t)b;
    ws->last[b] = (int32_t)s;
    fen_add(ws->fen, ws->W, s, bytes);
    ws->live += bytes;
    ws->nlive++;
    return need;
}
