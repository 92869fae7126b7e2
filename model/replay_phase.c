/* Fixed-phase replays: the trace of eq. 1 generated round by round and run
 * through the simulators, in steady state (after N warm-up rounds, see
 * replay.h) or from an empty cache.  One pascal_replay per thread; memory is
 * O(max_N + max_M) whatever the number of rounds, because no trace is
 * stored: each round is generated into a buffer of M requests, and Belady's
 * next uses come from the phases (worker m's next request to its block is
 * always off_m requests later). */
#include "model/replay.h"

#include <math.h>
#include <stdlib.h>

struct pascal_replay {
    int64_t max_N, max_M;
    pascal_lru *lru;
    pascal_ttl *ttl;
    pascal_opt *opt;
    int64_t *round;     /* one round of requests, max_M */
    int64_t *keys;      /* sort keys, max_M */
    int64_t *off;       /* next-use offsets, max_M */
};

pascal_replay *pascal_replay_create(int64_t max_N, int64_t max_M)
{
    if (max_N < 1 || max_M < 1 || (uint64_t)max_M > SIZE_MAX / 8 / 3)
        return NULL;
    pascal_replay *rp = calloc(1, sizeof *rp);
    if (!rp)
        return NULL;
    rp->max_N = max_N;
    rp->max_M = max_M;
    rp->lru = pascal_lru_create(max_N);
    rp->ttl = pascal_ttl_create(max_N);
    rp->opt = pascal_opt_create(max_N, 0);
    rp->round = malloc((size_t)max_M * sizeof *rp->round);
    rp->keys = malloc((size_t)max_M * sizeof *rp->keys);
    rp->off = malloc((size_t)max_M * sizeof *rp->off);
    if (!rp->lru || !rp->ttl || !rp->opt || !rp->round || !rp->keys || !rp->off) {
        pascal_replay_free(rp);
        return NULL;
    }
    return rp;
}

/* LRU: 4 N + 4 W + W / 8 + 4 (W / 64 + 1) with W the power of two >= 2 N
 * (>= 128); TTL: 8 N; OPT: 24 N; three rounds of M int64 values. */
double pascal_replay_bytes(int64_t max_N, int64_t max_M)
{
    double W = 128, N = (double)max_N;
    while (W < 2 * N)
        W *= 2;
    return 4 * N + 4 * W + W / 8 + 4 * (W / 64 + 1) + 8 * N + 24 * N + 24.0 * (double)max_M;
}

void pascal_replay_free(pascal_replay *rp)
{
    if (!rp)
        return;
    pascal_lru_free(rp->lru);
    pascal_ttl_free(rp->ttl);
    pascal_opt_free(rp->opt);
    free(rp->round);
    free(rp->keys);
    free(rp->off);
    free(rp);
}

static int valid(const pascal_replay *rp, const int64_t *phases, int64_t M,
                 int64_t N)
{
    if (!rp || !phases || M < 1 || M > rp->max_M || N < 1 || N > rp->max_N)
        return 0;
    for (int64_t m = 0; m < M; m++)
        if (phases[m] < 0 || phases[m] >= N)
            return 0;
    return 1;
}

/* Round r of eq. 1 into rp->round. */
static const int64_t *round_of(pascal_replay *rp, const int64_t *phases,
                               int64_t M, int64_t N, int64_t r)
{
    pascal_trace_phases(phases, M, N, r % N, 1, rp->round);
    return rp->round;
}

int64_t pascal_replay_lru_steady(pascal_replay *rp, const int64_t *phases,
                                 int64_t M, int64_t N, int64_t C,
                                 int64_t *rd_out)
{
    if (!valid(rp, phases, M, N))
        return -1;
    pascal_lru_reset(rp->lru);
    for (int64_t r = 0; r < N; r++)
        pascal_lru_replay(rp->lru, round_of(rp, phases, M, N, r), M, C, NULL);
    return pascal_lru_replay(rp->lru, round_of(rp, phases, M, N, N), M, C, rd_out);
}

int64_t pascal_replay_ttl_steady(pascal_replay *rp, const int64_t *phases,
                                 int64_t M, int64_t N, int64_t T,
                                 int64_t *occupancy)
{
    if (!valid(rp, phases, M, N) || T < 0)
        return -1;
    pascal_ttl_reset(rp->ttl, T);
    for (int64_t r = 0; r < N; r++)
        pascal_ttl_round(rp->ttl, round_of(rp, phases, M, N, r), M);
    if (occupancy)
        *occupancy = pascal_ttl_occupancy(rp->ttl);
    return pascal_ttl_round(rp->ttl, round_of(rp, phases, M, N, N), M);
}

double pascal_replay_set_steady(pascal_replay *rp, pascal_setlru *set,
                                const int64_t *phases, int64_t M, int64_t N)
{
    if (!valid(rp, phases, M, N) || !set)
        return NAN;
    pascal_setlru_clear(set);
    int64_t misses = 0;
    for (int64_t r = 0; r < 2 * N; r++) {
        int64_t k = pascal_setlru_replay(set, round_of(rp, phases, M, N, r), M, NULL);
        if (k < 0)
            return NAN;
        if (r >= N)
            misses += k;
    }
    return (double)misses / (double)N;
}

/* In-place heapsort of n int64 values (no scratch, no allocation). */
static void heapsort64(int64_t *a, int64_t n)
{
    for (int64_t start = n / 2 - 1, end = n; end > 1;) {
        int64_t root;
        if (start >= 0) {
            root = start--;
        } else {
            int64_t t = a[0];
            a[0] = a[--end];
            a[end] = t;
            root = 0;
        }
        for (int64_t v = a[root];;) {
            int64_t c = 2 * root + 1;
            if (c >= end)
                break;
            if (c + 1 < end && a[c + 1] > a[c])
                c++;
            if (a[c] <= v)
                break;
            a[root] = a[c];
            a[c] = v;
            root = c;
        }
    }
}

/* The next request to worker m's block is by the next worker of the same
 * phase in this round (g = 0) if there is one; otherwise by the first
 * worker of the phase just below, g = the gap between them rounds later
 * (N rounds for a single phase): the mirror of section 3.4's previous
 * request.  Workers are sorted by (phase, index), packed as s M + m. */
int pascal_replay_next_offsets(pascal_replay *rp, const int64_t *phases,
                               int64_t M, int64_t N, int64_t *out)
{
    if (!valid(rp, phases, M, N) || !out || N > INT64_MAX / M - 1)
        return -1;
    int64_t *k = rp->keys;
    for (int64_t m = 0; m < M; m++)
        k[m] = phases[m] * M + m;
    heapsort64(k, M);
    int64_t prev_first = -1;   /* first position of the phase below */
    for (int64_t pos = 0, first = 0; pos < M; pos++) {
        if (pos > 0 && k[pos] / M != k[pos - 1] / M) {
            prev_first = first;
            first = pos;
        }
        int64_t m = k[pos] % M;
        if (pos + 1 < M && k[pos + 1] / M == k[pos] / M) {
            out[m] = k[pos + 1] % M - m;
            continue;
        }
        /* Last of its phase: the phase below, cyclically (the first group's
         * lower neighbour is the last group, found after the loop). */
        if (prev_first >= 0)
            out[m] = (k[pos] / M - k[prev_first] / M) * M + k[prev_first] % M - m;
        else
            out[m] = -1 - first;   /* placeholder: first group */
    }
    int64_t last_first = M - 1;    /* first position of the highest phase */
    while (last_first > 0 && k[last_first - 1] / M == k[M - 1] / M)
        last_first--;
    for (int64_t m = 0; m < M; m++) {
        if (out[m] >= 0)
            continue;
        int64_t g = k[last_first] / M == phases[m] ? N
                  : phases[m] + N - k[last_first] / M;
        out[m] = g * M + k[last_first] % M - m;
    }
    return 0;
}

int64_t pascal_replay_belady(pascal_replay *rp, const int64_t *phases,
                             int64_t M, int64_t N, int64_t rounds, int64_t C)
{
    if (!valid(rp, phases, M, N) || rounds < 0 || rounds > INT64_MAX / M / 2 ||
        pascal_replay_next_offsets(rp, phases, M, N, rp->off) != 0)
        return -1;
    pascal_opt_reset(rp->opt, C);
    int64_t misses = 0;
    for (int64_t r = 0; r < rounds; r++) {
        const int64_t *req = round_of(rp, phases, M, N, r);
        for (int64_t m = 0; m < M; m++)
            misses += pascal_opt_access(rp->opt, req[m], r * M + m + rp->off[m]) == 0;
    }
    return misses;
}
