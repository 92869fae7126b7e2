/* Internal layout of the pascal_static workspace, shared by static.c (phase
 * groups, gaps, water-filling), static_rd.c (reuse distances, residency),
 * static_multi.c (several streams: the same workspace, prepared from a
 * pascal_streams description) and static_sort.c (the sort they all use).
 * Not part of the public API: callers use model/static.h and treat the
 * workspace as opaque.  Every array is allocated once, for max_M workers, in
 * pascal_static_create(); prepare() and the queries only read and write them. */
#ifndef PASCAL_MODEL_STATIC_WS_H
#define PASCAL_MODEL_STATIC_WS_H

#include <stdint.h>

#include "model/static.h"

struct pascal_static {
    int64_t max_M;      /* capacity of every per-worker array */
    int64_t M, N, D;    /* the prepared vector; all 0 when not prepared.
                           Several streams: M requests per round, N = N_total
                           blocks, D phase groups over all streams */
    int64_t S;          /* streams (1 for a single phase vector) */
    unsigned what;      /* PASCAL_STATIC_* flags of the last good prepare */

    /* Per phase group k = 0..D-1: the requests of one stream with one
     * phase, by stream, then in ring (ascending phase) order. */
    int64_t *y;         /* phase value y_k within its stream, blocks */
    int64_t *gaps;      /* g_k = y_{succ k} - y_k, cyclic within the stream
                           (Lemma 1), blocks */
    int64_t *succ;      /* the next group of the same stream round its ring
                           (k + 1, or the stream's first group) */
    int64_t *pred;      /* the inverse of succ */
    int64_t *gstream;   /* the stream of group k */
    int64_t *minidx;    /* smallest worker index with phase y_k */
    int64_t *maxidx;    /* largest worker index with phase y_k */
    int64_t *gsorted;   /* the gaps in ascending order */
    int64_t *gprefix;   /* D + 1 prefix sums of gsorted; gprefix[D] = N */
    int frozen;         /* a read-only summary (static_multi.c): only the
                           sorted arrays and their prefix sums are present */

    /* Per worker m = 0..M-1. */
    int64_t *order;     /* worker indices sorted by (phase, index) */
    int64_t *group;     /* k such that s_m = y_k */
    int64_t *prev;      /* p: worker whose request is the previous one to
                           m's round-0 block */
    int64_t *lag;       /* g: that request was in round -g (0, a gap, or N) */
    int64_t *rd;        /* exact reuse distance (eq. 15), blocks */
    int64_t *rd_sorted; /* rd ascending, for per-capacity binary search */
    int64_t *delta;     /* Theorem 4 numerators, units of 1/M round */
    int64_t *delta_sorted;  /* delta ascending */
    int64_t *delta_prefix;  /* M + 1 prefix sums of delta_sorted */

    /* Per stream s = 0..S-1 (static_multi.c; S = 1 uses the arrays above). */
    int64_t *sN;        /* N_s, blocks */
    int64_t *sgoff;     /* S + 1 offsets: stream s's groups are
                           [sgoff[s], sgoff[s+1]) */
    int64_t *sgaps;     /* each stream's gaps, ascending within its range */
    int64_t *soff;      /* S + 1 offsets into srd: stream s's requests */
    int64_t *srd;       /* each stream's reuse distances, ascending */

    /* Scratch for prepare (never read by queries). */
    int64_t *tmp, *tmp2, *tmp3; /* M entries each */
    int64_t *fen_a, *fen_b, *fen_c; /* Fenwick trees over worker indices,
                                       M + 1 entries each */
};

/* Sorts a[0..n-1] ascending using tmp (n entries).  O(n log n), no
 * allocation (static_sort.c). */
void pascal_static_sort_(int64_t *a, int64_t n, int64_t *tmp);

/* Groups requests 0..M-1 by (stream, phase): fills order, group, y,
 * minidx, maxidx, gstream and D.  stream == NULL means one stream; off
 * (per stream: its first global block id) may then be NULL.  Inputs are
 * trusted (validated by the caller). */
void pascal_static_build_groups_(pascal_static *ws, const int64_t *phases,
                                 const int64_t *stream, const int64_t *off,
                                 int64_t M);
/* Cyclic gaps within each stream (Nring[s]: its ring size), succ, pred,
 * the sorted gaps and their prefix sums; needs the groups. */
void pascal_static_build_gaps_(pascal_static *ws, const int64_t *Nring);
/* The work that follows the gaps, as the flags in `what` ask. */
void pascal_static_finish_(pascal_static *ws, unsigned what);

/* Fills prev, lag, rd and rd_sorted (static_rd.c); needs groups and gaps. */
void pascal_static_build_prev_(pascal_static *ws);
void pascal_static_build_rd_(pascal_static *ws);
/* Fills delta, delta_sorted and delta_prefix; needs prev and lag. */
void pascal_static_build_delta_(pascal_static *ws);

#endif
