/* Multi-stream replays: the trace of pascal_trace_streams through the exact
 * simulators.  See replay_streams.h for the warm-up argument. */
#include "model/replay_streams.h"

#include <stddef.h>

int64_t pascal_streams_max_N(const pascal_streams *st)
{
    int64_t n = 0;
    for (int64_t s = 0; s < st->S; s++)
        if (st->N[s] > n)
            n = st->N[s];
    return n;
}

int64_t pascal_replay_streams_lru(pascal_lru *lru, const pascal_streams *st,
                                  int64_t C, int64_t *off, int64_t *round,
                                  int64_t *rd_out)
{
    if (!lru || !st || !off || !round || st->S < 1 || !st->N)
        return -1;
    int64_t warm = pascal_streams_max_N(st);
    pascal_streams_offsets(st, off);
    pascal_lru_reset(lru);
    for (int64_t r = 0; r <= warm; r++) {
        if (pascal_trace_streams(st, off, r, 1, round) < 0)
            return -1;
        int64_t k = pascal_lru_replay(lru, round, st->R, C, r == warm ? rd_out : NULL);
        if (k < 0 || r == warm)
            return k;
    }
    return -1;
}

int64_t pascal_replay_streams_ttl(pascal_ttl *ttl, const pascal_streams *st,
                                  int64_t T, int64_t *off, int64_t *round,
                                  int64_t *occupancy)
{
    if (!ttl || !st || !off || !round || T < 0 || st->S < 1 || !st->N)
        return -1;
    int64_t warm = pascal_streams_max_N(st);
    pascal_streams_offsets(st, off);
    pascal_ttl_reset(ttl, T);
    for (int64_t r = 0; r <= warm; r++) {
        if (pascal_trace_streams(st, off, r, 1, round) < 0)
            return -1;
        if (r == warm && occupancy)
            *occupancy = pascal_ttl_occupancy(ttl);
        int64_t k = pascal_ttl_round(ttl, round, st->R);
        if (k < 0 || r == warm)
            return k;
    }
    return -1;
}

int64_t pascal_replay_streams_belady(pascal_opt *opt, const pascal_streams *st,
                                     int64_t rounds, int64_t C, int64_t *off,
                                     int64_t *trace)
{
    if (!opt || !st || !off || !trace || st->S < 1 || !st->N)
        return -1;
    pascal_streams_offsets(st, off);
    int64_t n = pascal_trace_streams(st, off, 0, rounds, trace);
    return n < 0 ? -1 : pascal_opt_replay(opt, trace, n, C);
}
