/* A program that needs only the model (docs/library.md): it includes
 * <pascal/model.h> and links libpascal_model, which depends on nothing but
 * libc and libm.
 *
 * The worked example of consumer.c: N = 10, phases 0, 2, 7, C = 7: exact
 * LRU K_lru = 2 (reuse distances 4, 9, 8: two are >= 7), and the exact
 * replay of the ring (round 10 after 10 warm-up rounds) must miss the same
 * 2 blocks.  Theorem 4: the residency intervals (in rounds) are the gaps
 * between a worker's request and the previous one to its block: 2 - 1/3,
 * 5 - 1/3 and 3 + 2/3 (they sum to N = 10); a cache of 7 blocks holds the
 * two shortest whole (5.33 blocks) and 1.67 / 4.67 of the third, so
 * V = 2.357 and K_bound = M - V = 0.643.  The equally spaced pattern of
 * M = 3 on N = 12 is 0, 4, 8. */
#include <stdio.h>

#include <pascal/model.h>

int main(void)
{
    const int64_t phases[3] = {0, 2, 7};
    int64_t equal[3];
    pascal_pattern pat = {PASCAL_PATTERN_EQUAL, 0, 0, 0, 0, 0, 0, NULL};
    pascal_static *ws = pascal_static_create(3);
    pascal_replay *rp = pascal_replay_create(10, 3);
    if (!ws || !rp || pascal_static_prepare(ws, phases, 3, 10, PASCAL_STATIC_RD | PASCAL_STATIC_DELTA) ||
        pascal_phases_generate(&pat, 12, 3, equal)) {
        fprintf(stderr, "model: cannot set up the example\n");
        return 1;
    }
    printf("model %s: K_lru %g, replayed %lld, K_bound %.3f, equal phases %lld %lld %lld\n",
           pascal_version(), pascal_static_k_lru(ws, 7),
           (long long)pascal_replay_lru_steady(rp, phases, 3, 10, 7, NULL),
           pascal_static_k_bound(ws, 7, 0), (long long)equal[0], (long long)equal[1],
           (long long)equal[2]);
    pascal_replay_free(rp);
    pascal_static_free(ws);
    return 0;
}
