/* Internal layout of the pascal_static workspace, shared by static.c (phase
 * groups, gaps, water-filling) and static_rd.c (reuse distances, residency).
 * Not part of the public API: callers use model/static.h and treat the
 * workspace as opaque.  Every array is allocated once, for max_M workers, in
 * pascal_static_create(); prepare() and the queries only read and write them. */
#ifndef PASCAL_MODEL_STATIC_WS_H
#define PASCAL_MODEL_STATIC_WS_H

#include <stdint.h>

#include "model/static.h"

struct pascal_static {
    int64_t max_M;      /* capacity of every per-worker array */
    int64_t M, N, D;    /* the prepared vector; all 0 when not prepared */
    unsigned what;      /* PASCAL_STATIC_* flags of the last good prepare */

    /* Per distinct phase k = 0..D-1, in ring (ascending phase) order. */
    int64_t *y;         /* phase value y_k, blocks */
    int64_t *gaps;      /* g_k = y_{k+1} - y_k, cyclic (Lemma 1), blocks */
    int64_t *minidx;    /* smallest worker index with phase y_k */
    int64_t *maxidx;    /* largest worker index with phase y_k */
    int64_t *gsorted;   /* the gaps in ascending order */
    int64_t *gprefix;   /* D + 1 prefix sums of gsorted; gprefix[D] = N */

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

    /* Scratch for prepare (never read by queries). */
    int64_t *tmp, *tmp2, *tmp3; /* M entries each */
    int64_t *fen_a, *fen_b, *fen_c; /* Fenwick trees over worker indices,
                                       M + 1 entries each */
};

/* Sorts a[0..n-1] ascending using tmp (n entries).  O(n log n), no
 * allocation. */
void pascal_static_sort_(int64_t *a, int64_t n, int64_t *tmp);

/* Fills prev, lag, rd and rd_sorted (static_rd.c); needs groups and gaps. */
void pascal_static_build_prev_(pascal_static *ws);
void pascal_static_build_rd_(pascal_static *ws);
/* Fills delta, delta_sorted and delta_prefix; needs prev and lag. */
void pascal_static_build_delta_(pascal_static *ws);

#endif
