/* Multi-stream descriptions: checks, global block ids and request traces.
 * See streams.h. */
#include "model/streams.h"

int pascal_streams_check(const pascal_streams *st, int64_t *count)
{
    if (!st || !count || st->S < 1 || st->R < 1 || !st->N || !st->stream ||
        !st->phase || st->S > st->R)   /* every stream needs a request */
        return -1;
    int64_t total = 0;
    for (int64_t s = 0; s < st->S; s++) {
        if (st->N[s] < 1 || st->N[s] > INT64_MAX - total)
            return -1;
        total += st->N[s];
        count[s] = 0;
    }
    if (total > INT64_MAX / st->R)
        return -1;
    for (int64_t g = 0; g < st->R; g++) {
        int64_t s = st->stream[g];
        if (s < 0 || s >= st->S || st->phase[g] < 0 || st->phase[g] >= st->N[s])
            return -1;
        count[s]++;
    }
    for (int64_t s = 0; s < st->S; s++)
        if (count[s] == 0)
            return -1;
    return 0;
}

int64_t pascal_streams_blocks(const pascal_streams *st)
{
    int64_t total = 0;
    for (int64_t s = 0; s < st->S; s++)
        total += st->N[s];
    return total;
}

void pascal_streams_offsets(const pascal_streams *st, int64_t *off)
{
    int64_t total = 0;
    for (int64_t s = 0; s < st->S; s++) {
        off[s] = total;
        total += st->N[s];
    }
}

/* Eq. 1 per stream: round r, request g reads (r + phase) mod N of its
 * stream, shifted to the stream's global ids. */
int64_t pascal_trace_streams(const pascal_streams *st, const int64_t *off,
                             int64_t r0, int64_t rounds, int64_t *out)
{
    if (!st || !off || !out || r0 < 0 || rounds < 0 || st->R < 1 ||
        rounds > INT64_MAX / st->R)
        return -1;
    for (int64_t g = 0; g < st->R; g++) {
        int64_t s = st->stream[g];
        if (s < 0 || s >= st->S || st->phase[g] < 0 || st->phase[g] >= st->N[s])
            return -1;
    }
    for (int64_t r = 0; r < rounds; r++) {
        int64_t *row = out + r * st->R;
        for (int64_t g = 0; g < st->R; g++) {
            int64_t s = st->stream[g], n = st->N[s];
            row[g] = off[s] + (r0 + r + st->phase[g]) % n;
        }
    }
    return rounds * st->R;
}
