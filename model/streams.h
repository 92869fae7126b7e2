/* Several streams sharing one cache: the description of a multi-stream
 * static instance (docs/workloads.md, "Several streams").
 *
 * S streams with disjoint blocks; stream s is a ring of N_s blocks.  Every
 * round issues the same R requests, in a fixed within-round order
 * g = 0 .. R-1: request g belongs to stream stream[g] and has phase phase[g],
 * and in round k it reads block (k + phase[g]) mod N_{stream[g]} of that
 * stream.  Every stream advances one block per round.  The M_s requests of
 * stream s (M_s = #{g : stream[g] = s} >= 1) are its workers, ordered within
 * the stream by their position g; the order across streams is the position
 * order itself, which is therefore stated exactly: it can put all of stream
 * 0 first ("stream-major"), alternate streams (a GEMM CTA's A block, then
 * its B block), or anything else.  S = 1 with stream[g] = 0 is the
 * single-stream model of model/static.h (worker m at position m).
 *
 * `owner` groups requests into the CTAs that issue them (optional).  The
 * static model does not need it: a CTA that reads two streams in a round is
 * two requests at adjacent positions with the same phase.  A simulator that
 * lets CTAs drift needs it: CTA c issues, per step, the requests with
 * owner[g] = c in position order, so its requests stay together.
 *
 * Global block ids (for traces): block b of stream s is off_s + b with
 * off_s = N_0 + ... + N_{s-1}; N_total = sum_s N_s.  Pure code: no I/O, no
 * globals, no allocation. */
#ifndef PASCAL_MODEL_STREAMS_H
#define PASCAL_MODEL_STREAMS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pascal_streams {
    int64_t S;              /* streams, >= 1 */
    const int64_t *N;       /* S entries: N_s, blocks in stream s's ring, >= 1 */
    int64_t R;              /* requests per round (sum of M_s), >= 1 */
    const int64_t *stream;  /* R entries in within-round order: 0 <= stream[g] < S */
    const int64_t *phase;   /* R entries: 0 <= phase[g] < N_{stream[g]}, blocks */
    const int64_t *owner;   /* R entries or NULL: the CTA issuing request g */
} pascal_streams;

/* 0 when st is well formed: S >= 1, R >= 1, every N_s >= 1, every stream
 * index and phase in range, every stream with at least one request, and
 * N_total R <= INT64_MAX (the model's exact integer arithmetic); else -1.
 * count (S entries, caller scratch) receives M_s, the requests of each
 * stream. */
int pascal_streams_check(const pascal_streams *st, int64_t *count);

/* N_total = sum_s N_s (assumes a checked description). */
int64_t pascal_streams_blocks(const pascal_streams *st);

/* off[s] = N_0 + ... + N_{s-1}: stream s's first global block id (S
 * entries). */
void pascal_streams_offsets(const pascal_streams *st, int64_t *off);

/* The request trace of rounds r0 .. r0 + rounds - 1 as global block ids:
 * entry (r - r0) R + g reads off[stream[g]] + (r + phase[g]) mod N_stream.
 * off from pascal_streams_offsets.  Returns rounds R, or -1 on bad input. */
int64_t pascal_trace_streams(const pascal_streams *st, const int64_t *off,
                             int64_t r0, int64_t rounds, int64_t *out);

#ifdef __cplusplus
}
#endif

#endif
