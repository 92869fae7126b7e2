/* Fully associative LRU over blocks of different sizes, capacity in bytes
 * (docs/workloads.md section 2.7): the replay behind the sector-exact
 * columns.
 *
 * A cache of C bytes that evicts its least recently used blocks until a
 * new one fits holds, at every moment, the longest prefix of the recency
 * stack (most recent first) whose sizes add up to at most C: eviction only
 * ever takes the bottom, a hit only reorders the held prefix.  So a request
 * to block b hits iff its need, the bytes of b and of every distinct block
 * requested since b's previous request, is at most C, and one pass that
 * records each request's need answers every capacity (Mattson's stack
 * property, in bytes).
 *
 * Method: every block's latest request owns a time slot weighted by the
 * block's bytes; the slots come in groups of 64, and a Fenwick tree over
 * the complete groups plus at most 32 slots of the request's own group sum
 * the weights up to a slot.  When the slots run out the live ones are
 * renumbered in time order and the tree rebuilt, O(W) every W / 2
 * requests.  Pure model code: no I/O, no globals; replaying never
 * allocates. */
#ifndef PASCAL_MODEL_REPLAY_BYTES_H
#define PASCAL_MODEL_REPLAY_BYTES_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pascal_blru pascal_blru;

/* A workspace for block ids in [0, nblocks), 1 <= nblocks <= 2^28; NULL on
 * failure. */
pascal_blru *pascal_blru_create(int64_t nblocks);
/* Bytes pascal_blru_create(nblocks) allocates. */
double pascal_blru_bytes(int64_t nblocks);
void pascal_blru_free(pascal_blru *ws);
/* Empties the cache. */
void pascal_blru_reset(pascal_blru *ws);

/* One request to block b of `bytes` > 0 bytes (a block keeps its size):
 * returns its need (above), or 0 for a first request, or -1 for a bad id or
 * size. */
int64_t pascal_blru_access(pascal_blru *ws, int64_t b, int64_t bytes);

#ifdef __cplusplus
}
#endif

#endif
