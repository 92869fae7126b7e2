/* Fully associative LRU by stack distance (Mattson): a request hits in a
 * cache of C blocks iff its reuse distance RD, the number of distinct blocks
 * requested since the previous request to its block, is < C.  This is the
 * trace-side counterpart of eq. 15's symbolic distances.
 *
 * Method.  Every block's latest request owns one "time slot"; a bit marks
 * each slot that is still some block's latest.  The RD of a request whose
 * block was last requested at slot L is the number of marks after L, i.e.
 * the live marks minus those at or before L.  Marks are bits in 64-bit words
 * and a Fenwick tree counts the marks per word, so a query is one
 * O(log(W/64)) prefix sum plus a popcount, and moving a block's mark is one
 * bit flip plus one O(log(W/64)) update.  The last RECENT words (the one
 * being filled and those before it) are not in the tree yet: a mark there
 * is counted by popcounts, so a reuse within the last 64 RECENT requests or
 * so (a block shared by the CTAs of one wave) costs a few popcounts and a
 * bit flip, no tree walk; a word enters the tree RECENT words after it is
 * complete, with the marks it still has.
 * When the W slots run out, the live marks (at most nblocks <= W/2) are
 * renumbered 0, 1, ... in time order and the tree is rebuilt in O(W): an
 * amortised O(1) per request.  With W/64 words the whole tree of a 65536-
 * block cache is 8 KiB, so queries stay in L1. */
#include "model/replay.h"

#include <stdlib.h>
#include <string.h>

/* Words at the end of the slots that are not in the Fenwick tree. */
#define RECENT 8

struct pascal_lru {
    int64_t nblocks;
    int64_t W;          /* time slots, a power of two >= 2 nblocks, >= 128 */
    int64_t nwords;     /* W / 64 */
    int32_t *last;      /* per block: slot of its latest request, -1: none */
    int32_t *owner;     /* per slot: the block whose latest request it was */
    uint64_t *bits;     /* per slot: 1 while it is some block's latest */
    int32_t *fen;       /* Fenwick tree (1-based) of marks per complete word */
    int64_t t;          /* next free slot */
    int64_t live;       /* marks set: distinct blocks seen */
};

pascal_lru *pascal_lru_create(int64_t nblocks)
{
    if (nblocks < 1 || nblocks > ((int64_t)1 << 28))
        return NULL;
    pascal_lru *ws = calloc(1, sizeof *ws);
    if (!ws)
        return NULL;
    int64_t W = 128;
    while (W < 2 * nblocks)
        W *= 2;
    ws->nblocks = nblocks;
    ws->W = W;
    ws->nwords = W / 64;
    ws->last = malloc((size_t)nblocks * sizeof *ws->last);
    ws->owner = malloc((size_t)W * sizeof *ws->owner);
    ws->bits = malloc((size_t)ws->nwords * sizeof *ws->bits);
    ws->fen = malloc((size_t)(ws->nwords + 1) * sizeof *ws->fen);
    if (!ws->last || !ws->owner || !ws->bits || !ws->fen) {
        pascal_lru_free(ws);
        return NULL;
    }
    pascal_lru_reset(ws);
    return ws;
}

double pascal_lru_bytes(int64_t nblocks)
{
    double W = 128;
    while (W < 2.0 * (double)nblocks)
        W *= 2;
    return (double)sizeof(pascal_lru) + 4.0 * (double)nblocks + 4 * W + 8 * (W / 64) + 4 * (W / 64 + 1);
}

void pascal_lru_free(pascal_lru *ws)
{
    if (!ws)
        return;
    free(ws->last);
    free(ws->owner);
    free(ws->bits);
    free(ws->fen);
    free(ws);
}

void pascal_lru_reset(pascal_lru *ws)
{
    memset(ws->last, 0xff, (size_t)ws->nblocks * sizeof *ws->last);
    memset(ws->bits, 0, (size_t)ws->nwords * sizeof *ws->bits);
    memset(ws->fen, 0, (size_t)(ws->nwords + 1) * sizeof *ws->fen);
    ws->t = 0;
    ws->live = 0;
}

/* Set bits of x.  HW: the instruction (in code built for a target that has
 * it); else a few shifts and adds inline (the generic builtin is a library
 * call).  The replay loop is built both ways on x86 and picks at run time
 * (pascal_lru_replay). */
#if defined(__POPCNT__)
#define HW_POPCNT 1
#else
#define HW_POPCNT hw
#endif
#define ALWAYS_INLINE inline __attribute__((always_inline))

static ALWAYS_INLINE int64_t pop64(uint64_t x, int hw)
{
    if (HW_POPCNT)
        return __builtin_popcountll(x);
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
    return (int64_t)((x * 0x0101010101010101ULL) >> 56);
}

static inline void fen_add(int32_t *fen, int64_t n, int64_t w, int32_t v)
{
    for (int64_t i = w + 1; i <= n; i += i & -i)
        fen[i] += v;
}

/* Marks in words [0, w). */
static inline int64_t fen_prefix(const int32_t *fen, int64_t w)
{
    int64_t s = 0;
    for (int64_t i = w; i > 0; i -= i & -i)
        s += fen[i];
    return s;
}

/* Renumbers the live marks 0..live-1 in time order (owner moves down in
 * place: the k-th live slot is at or after k) and rebuilds the tree over
 * the words before the last RECENT ones, all full now. */
static void compact(pascal_lru *ws)
{
    int64_t k = 0;
    for (int64_t w = 0; w < ws->nwords; w++) {
        uint64_t x = ws->bits[w];
        while (x) {
            int64_t p = w * 64 + __builtin_ctzll(x);
            int32_t b = ws->owner[p];
            ws->owner[k] = b;
            ws->last[b] = (int32_t)k;
            k++;
            x &= x - 1;
        }
    }
    memset(ws->bits, 0, (size_t)ws->nwords * sizeof *ws->bits);
    for (int64_t w = 0; w < k / 64; w++)
        ws->bits[w] = ~0ULL;
    if (k % 64)
        ws->bits[k / 64] = (1ULL << (k % 64)) - 1;
    /* Linear Fenwick build over the words in the tree (64 marks each). */
    int64_t n = ws->nwords, full = k / 64 - RECENT;
    memset(ws->fen, 0, (size_t)(n + 1) * sizeof *ws->fen);
    for (int64_t i = 1; i <= n; i++) {
        if (i <= full)
            ws->fen[i] += 64;
        int64_t j = i + (i & -i);
        if (j <= n)
            ws->fen[j] += ws->fen[i];
    }
    ws->t = k;
}

/* One request to block b, with a free slot (t < W): returns its RD (-1 for
 * a first request).  With want_rd = 0 and an upper bound below C available
 * for free (slots between the two requests >= distinct blocks between
 * them), the prefix query is skipped and some value < C is returned. */
static ALWAYS_INLINE int64_t access(pascal_lru *ws, int64_t b, int want_rd, int64_t C, int hw)
{
    int64_t L = ws->last[b], rd = -1;
    int64_t tree = (ws->t >> 6) - RECENT;   /* words [0, tree) are in the tree */
    if (L >= 0) {
        int64_t w = L >> 6;
        uint64_t bit = 1ULL << (L & 63);
        uint64_t upto = (bit << 1) - 1;   /* bits 0..L&63; all at bit 63 */
        if (!want_rd && ws->t - L - 1 < C) {
            rd = ws->t - L - 1;
        } else if (w >= tree) {           /* the marks after L, word by word */
            rd = pop64(ws->bits[w] & ~upto, hw);
            for (int64_t v = w + 1; v <= ws->t >> 6 && v < ws->nwords; v++)
                rd += pop64(ws->bits[v], hw);
        } else {
            rd = ws->live - fen_prefix(ws->fen, w) -
                 pop64(ws->bits[w] & upto, hw);
        }
        ws->bits[w] &= ~bit;
        if (w < tree)
            fen_add(ws->fen, ws->nwords, w, -1);
        ws->live--;
    }
    int64_t s = ws->t++;   /* < W: the caller compacts first */
    ws->bits[s >> 6] |= 1ULL << (s & 63);
    ws->owner[s] = (int32_t)b;
    ws->last[b] = (int32_t)s;
    ws->live++;
    if ((ws->t & 63) == 0 && (s >> 6) - RECENT >= 0) {
        /* word s>>6 is complete: the one RECENT words before it enters the tree */
        int64_t w = (s >> 6) - RECENT;
        fen_add(ws->fen, ws->nwords, w, (int32_t)pop64(ws->bits[w], hw));
    }
    return rd;
}

/* The loop of both entry points: misses with C blocks, each RD to rd_out
 * (when not NULL), or counted in hist[RD] (first requests in *cold) when
 * hist is not NULL; -1 on a bad id. */
static ALWAYS_INLINE int64_t replay(pascal_lru *ws, const int64_t *trace, int64_t n, int64_t C,
                                    int64_t *rd_out, int64_t *hist, int64_t *cold, int hw)
{
    /* The state in a local copy, which the compiler keeps in registers: the
     * stores to hist and rd_out may alias ws's fields, not a local's.
     * Compacting before a request instead of within it renumbers its
     * block's mark with the others: the same marks after it, the same RD. */
    pascal_lru s = *ws;
    int64_t misses = 0;
    uint64_t nb = (uint64_t)s.nblocks;
    for (int64_t i = 0; i < n; i++) {
        int64_t b = trace[i];
        if ((uint64_t)b >= nb) {
            *ws = s;
            return -1;
        }
        if (s.t == s.W) {
            *ws = s;
            compact(ws);
            s = *ws;
        }
        int64_t rd = access(&s, b, rd_out || hist, C, hw);
        misses += rd < 0 || rd >= C;
        if (rd_out)
            rd_out[i] = rd;
        if (hist) {
            if (rd < 0)
                ++*cold;
            else
                hist[rd]++;
        }
    }
    *ws = s;
    return misses;
}

static int64_t replay_soft(pascal_lru *ws, const int64_t *trace, int64_t n, int64_t C,
                           int64_t *rd_out, int64_t *hist, int64_t *cold)
{
    return replay(ws, trace, n, C, rd_out, hist, cold, 0);
}

#if defined(__x86_64__) && !defined(__POPCNT__)
__attribute__((target("popcnt"))) static int64_t replay_popcnt(pascal_lru *ws,
                                                               const int64_t *trace, int64_t n,
                                                               int64_t C, int64_t *rd_out,
                                                               int64_t *hist, int64_t *cold)
{
    return replay(ws, trace, n, C, rd_out, hist, cold, 1);
}
#endif

static int64_t dispatch(pascal_lru *ws, const int64_t *trace, int64_t n, int64_t C,
                        int64_t *rd_out, int64_t *hist, int64_t *cold)
{
#if defined(__x86_64__) && !defined(__POPCNT__)
    if (__builtin_cpu_supports("popcnt"))
        return replay_popcnt(ws, trace, n, C, rd_out, hist, cold);
#endif
    return replay_soft(ws, trace, n, C, rd_out, hist, cold);
}

int64_t pascal_lru_replay(pascal_lru *ws, const int64_t *trace, int64_t n,
                          int64_t C, int64_t *rd_out)
{
    if (!ws || n < 0 || (n > 0 && !trace))
        return -1;
    return dispatch(ws, trace, n, C, rd_out, NULL, NULL);
}

int pascal_lru_replay_hist(pascal_lru *ws, const int64_t *trace, int64_t n, int64_t *hist,
                           int64_t *cold)
{
    if (!ws || n < 0 || (n > 0 && (!trace || !hist || !cold)))
        return -1;
    return dispatch(ws, trace, n, 1, NULL, hist, cold) < 0 ? -1 : 0;
}
