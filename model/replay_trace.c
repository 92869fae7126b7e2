/* Request traces of the PASCAL model: fixed phases (eq. 1, section 3.1) and
 * progress histories (section 3.5).  See replay.h. */
#include "model/replay.h"

/* Eq. 1: in round r worker m reads (r + s_m) mod N; workers in index order.
 * The block is advanced incrementally (one add and one compare per request)
 * rather than by a division. */
int64_t pascal_trace_phases(const int64_t *phases, int64_t M, int64_t N,
                            int64_t r0, int64_t rounds, int64_t *out)
{
    if (!phases || !out || M < 1 || N < 1 || r0 < 0 || rounds < 0 ||
        rounds > INT64_MAX / M)
        return -1;
    int64_t base = r0 % N;
    for (int64_t m = 0; m < M; m++)
        if (phases[m] < 0 || phases[m] >= N)
            return -1;
    for (int64_t r = 0; r < rounds; r++) {
        int64_t *row = out + r * M;
        for (int64_t m = 0; m < M; m++) {
            int64_t b = phases[m] + base;
            row[m] = b >= N ? b - N : b;
        }
        if (++base == N)
            base = 0;
    }
    return rounds * M;
}

/* Section 3.5: counts n_i(u) never reset between scans, so a worker one
 * whole scan behind is N requests behind even at the same block. */
int64_t pascal_trace_history(const int32_t *events, int64_t E, int32_t M,
                             int64_t N, int64_t *counts, int64_t *out,
                             int64_t *index_out)
{
    if (E < 0 || M < 1 || N < 1 || !counts || (E > 0 && (!events || !out)))
        return -1;
    for (int32_t i = 0; i < M; i++)
        counts[i] = 0;
    for (int64_t u = 0; u < E; u++) {
        int32_t w = events[u];
        if (w < 0 || w >= M)
            return -1;
        int64_t k = counts[w]++;
        out[u] = k % N;
        if (index_out)
            index_out[u] = k;
    }
    return E;
}
