/* The pattern description of a sweep point (engine/eval_phases.h): the
 * point's pattern parameters, or their defaults, and the key of its random
 * phases.  Calls nothing of the engine. */
#include "engine/eval_phases.h"
#include "engine/eval_util.h"

#include <math.h>
#include <stdint.h>
#include <string.h>


void pascal_eval_pattern(const pascal_point *p, pascal_pattern *pat)
{
    const double *v = p->v;
    memset(pat, 0, sizeof *pat);
    pat->kind = (pascal_pattern_kind)pascal_or_default(v[PASCAL_P_PATTERN], PASCAL_PATTERN_ALIGNED);
    pat->clusters = (int64_t)pascal_or_default(v[PASCAL_P_CLUSTERS], 1);
    pat->spread = (int64_t)pascal_or_default(v[PASCAL_P_SPREAD], 0);
    pat->sigma = pascal_or_default(v[PASCAL_P_SIGMA], 0);
    pat->lag = (int64_t)pascal_or_default(v[PASCAL_P_LAG], 1);
    pat->seed = (uint64_t)pascal_or_default(v[PASCAL_P_SEED], 1);
    pat->explicit_phases = p->phases;
    /* The stream key names the phase vector, not the point: a random pattern
     * drawn for (N, M, kind, sigma) is the same at every capacity, on every
     * thread and in every shard. */
    pat->key = pascal_rng_mix(pascal_rng_mix(pascal_rng_mix(0x70617363616cULL,
                                                            (uint64_t)v[PASCAL_P_N]),
                                             (uint64_t)v[PASCAL_P_M]),
                              (uint64_t)pat->kind);
    if (pat->kind == PASCAL_PATTERN_GAUSSIAN)
        pat->key = pascal_rng_mix(pat->key, pascal_bits_of(pat->sigma));
}
