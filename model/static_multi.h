/* The static model for several streams sharing one cache (docs/workloads.md,
 * "Several streams"): S streams (model/streams.h), all advancing one block
 * per round, in one within-round order, share a cache of C blocks.
 *
 * pascal_static_prepare_streams() prepares an ordinary pascal_static
 * workspace from a multi-stream description, so every query of
 * model/static.h answers for the whole instance:
 *   - gaps, U, K, theta, T*: Lemma 1 and eq. 3 over every stream's gaps
 *     together (the TTL boundary occupancy is the sum of the streams'
 *     footprints, U(t) = sum_s U_s(t)); N is N_total = sum_s N_s and D the
 *     phase groups of all streams;
 *   - k_ttl: Theorem 2 with the one window T* shared by all streams;
 *   - lru_band: Theorem 3, where D <= C;
 *   - rd, k_lru, k_sdcm: eq. 15 where a reuse distance counts the distinct
 *     blocks of every stream in its window;
 *   - delta, residency, k_bound: Theorem 4 with time in the one within-round
 *     order (request g of round r at r + g / R);
 *   - margin: Proposition 7 on the shared water level.
 * "Workers" are requests: M = R.  S = 1 gives exactly the single-stream
 * results.  The functions below add per-stream counts (each stream's share
 * of the misses) and a compact read-only summary that keeps every
 * per-capacity query of a prepared instance in O(R) memory.
 *
 * Pure model code: no I/O, no globals, no allocation (summaries live in
 * caller memory). */
#ifndef PASCAL_MODEL_STATIC_MULTI_H
#define PASCAL_MODEL_STATIC_MULTI_H

#include <stddef.h>
#include <stdint.h>

#include "model/static.h"
#include "model/streams.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Prepares ws (max_M >= st->R) for the instance st; `what` as for
 * pascal_static_prepare.  Returns 0, or -1 when st is not well formed
 * (pascal_streams_check) or R > max_M.  Cost O(R log R). */
int pascal_static_prepare_streams(pascal_static *ws, const pascal_streams *st,
                                  unsigned what);

/* Streams of the prepared instance (1 after pascal_static_prepare). */
int64_t pascal_static_S(const pascal_static *ws);
/* Stream s's ring size N_s and requests per round M_s; -1 for s outside
 * [0, S). */
int64_t pascal_static_stream_N(const pascal_static *ws, int64_t s);
int64_t pascal_static_stream_M(const pascal_static *ws, int64_t s);

/* Stream s's share of the exact LRU misses per round: #{its requests with
 * RD >= C}.  NaN without PASCAL_STATIC_RD or for a bad s. */
double pascal_static_stream_k_lru(const pascal_static *ws, int64_t s, int64_t C);
/* Stream s's share of Theorem 2's K(T*): #{its gaps > T*} for C < N_total,
 * 0 for C >= N_total, D_s for C < 1.  -1 for a bad s. */
int64_t pascal_static_stream_k_ttl(const pascal_static *ws, int64_t s, int64_t C);
/* Theorem 3 per stream, where D <= C (D over all streams): #{its gaps >
 * T*+1} <= its LRU misses <= #{its gaps > T*-1}; 0 for C >= N_total; NaN
 * when D > C or s is bad. */
void pascal_static_stream_lru_band(const pascal_static *ws, int64_t s,
                                   int64_t C, double *lo, double *hi);

/* A read-only summary of a prepared workspace: every per-capacity query
 * (U, K, theta, T*, k_ttl, lru_band, k_lru, k_sdcm, residency, k_bound,
 * margin, the per-stream ones above, and N, M, D, S) answers exactly as on
 * ws; pascal_static_gaps, _rd and _delta_num return NULL, and prepare
 * refuses it.  pascal_static_summary_bytes(ws) is the memory it needs;
 * pascal_static_summarize writes it into mem (len bytes, 8-byte aligned)
 * and returns it, or NULL when len is short or ws is not prepared.  The
 * summary borrows nothing from ws; free it with the memory (never with
 * pascal_static_free, which ignores it). */
size_t pascal_static_summary_bytes(const pascal_static *ws);
/* The most pascal_static_summary_bytes can be for a workspace prepared with
 * `what` (PASCAL_STATIC_* flags) on R requests per round (planners bound
 * memory with it before preparing anything). */
size_t pascal_static_summary_max_bytes(int64_t R, unsigned what);
const pascal_static *pascal_static_summarize(const pascal_static *ws, void *mem,
                                             size_t len);

#ifdef __cplusplus
}
#endif

#endif
