/* Exact replays of a multi-stream instance (model/streams.h): the request
 * trace of every stream in the one within-round order, run through the
 * simulators of model/replay.h over global block ids (N_total of them), so
 * that the multi-stream closed forms of model/static_multi.h can be checked
 * against a cache that holds blocks.
 *
 * Warm-up: a request's previous request to its block is at most N_s rounds
 * back, so after Nmax = max_s N_s rounds every block has been requested and
 * every later round is in steady state; every round then has the same
 * outcomes, because each stream's part of a window is invariant under
 * rotating that stream (the window of G rounds covers the same number of
 * each stream's blocks in every round).  The *_steady functions replay
 * rounds 0..Nmax-1 and measure round Nmax.
 *
 * Scratch: off (S entries) and round (R entries) are caller memory; the
 * simulators must hold N_total block ids.  Pure code, no allocation. */
#ifndef PASCAL_MODEL_REPLAY_STREAMS_H
#define PASCAL_MODEL_REPLAY_STREAMS_H

#include <stdint.h>

#include "model/replay.h"
#include "model/streams.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Nmax = max_s N_s, the warm-up length in rounds. */
int64_t pascal_streams_max_N(const pascal_streams *st);

/* Exact fully associative LRU of C blocks in steady state: misses in round
 * Nmax after Nmax warm-up rounds; rd_out (optional, R entries) receives each
 * request's trace-derived reuse distance in that round.  -1 on bad input. */
int64_t pascal_replay_streams_lru(pascal_lru *lru, const pascal_streams *st,
                                  int64_t C, int64_t *off, int64_t *round,
                                  int64_t *rd_out);

/* Slotted TTL with window T in steady state: misses in round Nmax;
 * *occupancy (optional) gets the boundary occupancy before it.  -1 on bad
 * input. */
int64_t pascal_replay_streams_ttl(pascal_ttl *ttl, const pascal_streams *st,
                                  int64_t T, int64_t *off, int64_t *round,
                                  int64_t *occupancy);

/* Belady's MIN from an empty cache of C blocks over rounds 0..rounds-1:
 * total misses, cold ones included.  trace holds rounds R entries and opt
 * was created with max_len >= rounds R.  -1 on bad input. */
int64_t pascal_replay_streams_belady(pascal_opt *opt, const pascal_streams *st,
                                     int64_t rounds, int64_t C, int64_t *off,
                                     int64_t *trace);

#ifdef __cplusplus
}
#endif

#endif
