/* Exact replay simulators: the request traces of the PASCAL model and the
 * caches they run through, so that every closed form of model/static.h can be
 * checked against a cache that actually holds blocks (paper section 5.2,
 * "Symbolic distances agree with warmed trace-derived distances, and SDCM-FA
 * agrees with exact LRU replay in every case").
 *
 *   traces      fixed phases (round k, worker m reads (k + s_m) mod N, workers
 *               in index order within a round) and progress histories (a
 *               sequence of worker ids, section 3.5)
 *   pascal_lru  fully associative LRU by stack distance: a Fenwick tree over
 *               last-access times gives every request's reuse distance in
 *               O(log n), and a request hits in a cache of C blocks iff its
 *               distance is < C (Mattson)
 *   pascal_setlru  A-way set-associative LRU of B lines, modulo or seeded
 *               random set mapping
 *   pascal_ttl  slotted TTL / Denning working set with a window of T rounds
 *               (section 3.2): current-round duplicates share one fill
 *   pascal_opt  Belady / OPT (MIN): on a miss with a full cache, evict the
 *               block whose next use is farthest (next-use priority queue)
 *
 * Warm-up, stated once: a request's outcome under any of these caches depends
 * only on the trace since the previous request to its block.  With fixed
 * phases that request is at most N rounds back, so after N warm-up rounds
 * (rounds 0..N-1: the cache has seen the whole ring) every later round is in
 * steady state; the *_steady functions replay rounds 0..N-1 and measure round
 * N (or rounds N..2N-1 where rounds can differ).  "Empty-cache" replays start
 * from nothing and count every miss, cold ones included.
 *
 * Pure model code: no I/O, no globals; every array is allocated by *_create,
 * and replaying never allocates.  Block ids are integers in [0, nblocks); an
 * id outside that range makes a replay return -1 (the workspace must then be
 * reset).  Times and counts are in requests unless a name says rounds. */
#ifndef PASCAL_MODEL_REPLAY_H
#define PASCAL_MODEL_REPLAY_H

#include <stdint.h>

#include "pascal/model.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- traces --------------------------------------------------------------- */

/* Fixed phases (eq. 1): writes rounds r0 .. r0 + rounds - 1, request
 * (r - r0) M + m reading block (r + phases[m]) mod N.  Requires N >= 1,
 * M >= 1, rounds >= 0, r0 >= 0 and 0 <= phases[m] < N.  Returns rounds M, or
 * -1 on bad input. */
int64_t pascal_trace_phases(const int64_t *phases, int64_t M, int64_t N,
                            int64_t r0, int64_t rounds, int64_t *out);

/* A progress history (section 3.5): event u is a request by worker
 * events[u] in [0, M); a worker's k-th request (k counted from 0, never
 * reset between scans) reads block k mod N, so every worker starts at block
 * 0.  Writes out[u] = k mod N and, when index_out is not NULL,
 * index_out[u] = k.  counts is caller scratch of M entries.  Returns E, or
 * -1 on bad input. */
int64_t pascal_trace_history(const int32_t *events, int64_t E, int32_t M,
                             int64_t N, int64_t *counts, int64_t *out,
                             int64_t *index_out);

/* ---- fully associative LRU by stack distance ------------------------------ */

typedef struct pascal_lru pascal_lru;

/* A workspace for block ids in [0, nblocks), 1 <= nblocks <= 2^28; NULL on
 * failure.  Memory about 4 nblocks + 12 W bytes, W = 2 nblocks rounded up to
 * a power of two (time slots). */
pascal_lru *pascal_lru_create(int64_t nblocks);
/* Bytes pascal_lru_create(nblocks) allocates. */
double pascal_lru_bytes(int64_t nblocks);
void pascal_lru_free(pascal_lru *ws);
/* Empties the cache (forgets every request). */
void pascal_lru_reset(pascal_lru *ws);

/* Replays trace[0..n-1] after whatever came before.  rd_out (optional, n
 * entries) receives each request's reuse distance: the number of distinct
 * blocks requested strictly between it and the previous request to the same
 * block, or -1 for a first request.  Returns the misses of a fully
 * associative LRU cache of C blocks: requests with RD >= C or RD = -1 (a
 * capacity C < 1 misses everything).  -1 on a bad block id.
 * Cost O(log nblocks) per request, amortised. */
int64_t pascal_lru_replay(pascal_lru *ws, const int64_t *trace, int64_t n,
                          int64_t C, int64_t *rd_out);
/* The same replay for every capacity at once: hist[RD]++ for each request
 * with a reuse distance RD (RD < the distinct blocks requested since the
 * last reset, so hist needs that many entries; nblocks always do), ++*cold
 * for each first request.  The misses of a cache of C blocks are then
 * *cold plus the hist entries at C and above.  0, or -1 on a bad block id
 * (the requests before it are counted). */
int pascal_lru_replay_hist(pascal_lru *ws, const int64_t *trace, int64_t n, int64_t *hist,
                           int64_t *cold);

/* ---- set-associative LRU --------------------------------------------------- */

typedef enum pascal_setmap {
    PASCAL_SETMAP_MODULO = 0, /* block b goes to set b mod S */
    PASCAL_SETMAP_RANDOM = 1  /* a uniform set per block, drawn from the
                                 counter generator keyed by (seed, b) */
} pascal_setmap;

typedef struct pascal_setlru pascal_setlru;

/* A workspace for caches of up to max_lines lines over block ids in
 * [0, nblocks); NULL on failure.  Configure it with pascal_setlru_reset. */
pascal_setlru *pascal_setlru_create(int64_t max_lines, int64_t nblocks);
void pascal_setlru_free(pascal_setlru *ws);
/* Empties the cache and sets its geometry: A ways, B lines (S = B / A sets;
 * B must be a multiple of A, 1 <= A <= B <= max_lines), mapping `map` with
 * `seed` (RANDOM only).  Returns 0, or -1 on a bad geometry. */
int pascal_setlru_reset(pascal_setlru *ws, int64_t A, int64_t B,
                        pascal_setmap map, uint64_t seed);
/* Empties the cache, keeping its geometry and mapping. */
void pascal_setlru_clear(pascal_setlru *ws);
/* The set block b maps to (0 .. S-1), for b in [0, nblocks). */
int64_t pascal_setlru_set_of(const pascal_setlru *ws, int64_t b);
/* Replays trace[0..n-1]; hit_out (optional) gets 1 for a hit, 0 for a miss.
 * Returns the misses, or -1 on a bad block id.  O(1) per hit, O(A) per
 * miss. */
int64_t pascal_setlru_replay(pascal_setlru *ws, const int64_t *trace,
                             int64_t n, uint8_t *hit_out);

/* ---- slotted TTL (working set) --------------------------------------------- */

typedef struct pascal_ttl pascal_ttl;

pascal_ttl *pascal_ttl_create(int64_t nblocks);
void pascal_ttl_free(pascal_ttl *ws);
/* Empties the cache, sets the window to T >= 0 rounds (larger values are
 * clamped to 2^61) and the round counter to 0. */
void pascal_ttl_reset(pascal_ttl *ws, int64_t T);
/* Replays one round of n requests and advances the round counter.  Section
 * 3.2: at the start of round r the cache holds the blocks requested in
 * rounds r - T .. r - 1; a request misses iff its block was requested in
 * none of rounds r - T .. r (a current-round duplicate shares the first
 * one's fill).  Returns the misses, or -1 on a bad block id. */
int64_t pascal_ttl_round(pascal_ttl *ws, const int64_t *reqs, int64_t n);
/* Boundary occupancy before the next round: blocks requested in the last T
 * complete rounds.  O(nblocks). */
int64_t pascal_ttl_occupancy(const pascal_ttl *ws);

/* ---- Belady / OPT ------------------------------------------------------------ */

typedef struct pascal_opt pascal_opt;

/* A workspace for block ids in [0, nblocks) and general traces of up to
 * max_len requests (max_len may be 0 when only pascal_replay_belady is
 * used); NULL on failure. */
pascal_opt *pascal_opt_create(int64_t nblocks, int64_t max_len);
void pascal_opt_free(pascal_opt *ws);
/* Belady's MIN from an empty cache of C blocks over trace[0..n-1], n <=
 * max_len: demand paging, evicting on a miss with a full cache the resident
 * block whose next request is farthest (never requested again counts as
 * farthest).  Returns the misses, cold ones included; -1 on bad input.
 * O(log C) per request after an O(n) next-use pass. */
int64_t pascal_opt_replay(pascal_opt *ws, const int64_t *trace, int64_t n,
                          int64_t C);
/* The streaming form, for a caller that knows each request's next use
 * without storing the trace: pascal_opt_reset empties a cache of C blocks
 * (C < 1 caches nothing); pascal_opt_access serves one request to block b
 * whose next request is at time `next` (a value at least every later time of
 * the trace when there is none; only the order matters).  Returns 1 for a
 * hit, 0 for a miss, -1 for a bad block id. */
void pascal_opt_reset(pascal_opt *ws, int64_t C);
int pascal_opt_access(pascal_opt *ws, int64_t b, int64_t next);

/* ---- a floor for every demand-paging cache, from reuse gaps --------------- */

/* For any cache of C blocks that, from empty, holds each request's block
 * at least until the next request (every cache that fills on a miss:
 * LRU, Belady's MIN, set-associative, ...), a lower bound on its misses over
 * a trace, for every C at once from one pass (docs/workloads.md section
 * 6.1).  Memory 8 nblocks bytes and about 400 KiB of histogram; at most
 * 2^31 requests in all. */
typedef struct pascal_gapfloor pascal_gapfloor;

/* A workspace for block ids in [0, nblocks), 1 <= nblocks <= 2^28; NULL on
 * failure. */
pascal_gapfloor *pascal_gapfloor_create(int64_t nblocks);
double pascal_gapfloor_bytes(int64_t nblocks);
void pascal_gapfloor_free(pascal_gapfloor *g);
/* Forgets every request. */
void pascal_gapfloor_reset(pascal_gapfloor *g);
/* Appends trace[0..n-1].  -1 for a block id out of range (the requests
 * before it are kept) or past 2^31 requests, else 0. */
int pascal_gapfloor_add(pascal_gapfloor *g, const int64_t *trace, int64_t n);
int64_t pascal_gapfloor_requests(const pascal_gapfloor *g);
/* The floor with C blocks (C < 1: every request misses): at least the
 * distinct blocks, and exact at C = 1 and wherever C holds them all. */
int64_t pascal_gapfloor_misses(pascal_gapfloor *g, int64_t C);

/* ---- fixed-phase replays (steady state and empty cache) ------------------ */

/* Bytes pascal_replay_create(max_N, max_M) allocates, 44 to 53 max_N +
 * 24 max_M (planners bound memory with it before creating anything).  The
 * LRU part limits max_N to PASCAL_REPLAY_MAX_N blocks. */
#define PASCAL_REPLAY_MAX_N ((int64_t)1 << 28)
double pascal_replay_bytes(int64_t max_N, int64_t max_M);

/* Set-associative LRU (configured by pascal_setlru_reset, over at least N
 * block ids) in steady state: the mean misses per round over rounds
 * N..2N-1 after N warm-up rounds (a random set mapping breaks the symmetry
 * that makes every round equal).  NaN on bad input.  The cache is reset
 * to empty first, keeping its geometry. */
double pascal_replay_set_steady(pascal_replay *rp, pascal_setlru *set,
                                const int64_t *phases, int64_t M, int64_t N);

/* The offset, in requests, from worker m's request to the next request of
 * the same block in the infinite fixed-phase trace, for each m (M entries):
 * g M + j - m for the worker j reading it next, g rounds later.  They sum to
 * N M (the mirror of Theorem 4's delta).  -1 on bad input, else 0. */
int pascal_replay_next_offsets(pascal_replay *rp, const int64_t *phases,
                               int64_t M, int64_t N, int64_t *out);

#ifdef __cplusplus
}
#endif

#endif
