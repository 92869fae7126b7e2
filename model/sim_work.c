/* Work tables for the progress simulator (model/sim.h, pascal_sim_work):
 * several streams, from a multi-stream instance (model/streams.h) or from a
 * workload's whole kernel (model/workload.h).  docs/workloads.md ("For the
 * progress simulator") says how a description maps to simulated CTAs:
 * one CTA per distinct owner, its requests in position order; stream s's
 * blocks take disjoint cache ids.  Pure code: no I/O, no allocation. */
#include "model/sim.h"

#include <stddef.h>

#include "model/streams.h"
#include "model/workload.h"

int pascal_sim_work_of_streams(const pascal_streams *st, int64_t *base, int64_t *len,
                               int64_t *phase, int64_t *off, pascal_sim_work *out)
{
    int64_t units = 0, ctas = 0, run = 0, blocks;
    /* off holds the check's per-stream counts before it holds offsets. */
    if (!st || !base || !len || !phase || !off || !out || pascal_streams_check(st, off) != 0)
        return -1;
    pascal_streams_offsets(st, off);
    blocks = pascal_streams_blocks(st);
    if (blocks > INT32_MAX)
        return -1;
    /* A CTA is a run of equal owners, all runs of one length; its owner may
     * not have had an earlier run (compared with the first request of each,
     * O(ctas^2): for the small instances tests and tools build). */
    for (int64_t g = 0; g < st->R; g++) {
        if (!st->owner || g == 0 || st->owner[g] != st->owner[g - 1]) {
            for (int64_t h = 0; st->owner && h < g; h += units ? units : g)
                if (st->owner[h] == st->owner[g])
                    return -1;
            if (g > 0 && !units)
                units = run;
            else if (g > 0 && run != units)
                return -1;
            ctas++;
            run = 0;
        }
        run++;
        base[g] = off[st->stream[g]];
        len[g] = st->N[st->stream[g]];
        phase[g] = st->phase[g];
    }
    if (!units)
        units = run;
    if (run != units || units > PASCAL_SIM_MAX_UNITS)
        return -1;
    *out = (pascal_sim_work){ctas, units, blocks, base, len, phase, NULL, NULL, NULL};
    return 0;
}

/* The wave's description (pascal_workload_wave) needs its request arrays
 * (stream, phase, owner, N, global: R units each) and its own scratch. */
int64_t pascal_sim_work_scratch(const pascal_workload *w, int64_t R)
{
    return 5 * R * w->units + pascal_workload_wave_scratch(w, R);
}

int pascal_sim_work_of_workload(const pascal_workload *w, int64_t R,
                                const int64_t *slot_phase, int64_t *base, int64_t *len,
                                int64_t *phase, int64_t *scratch, pascal_sim_work *out)
{
    int64_t N = w->blocks, U = R * w->units, waves = pascal_workload_waves(w, R);
    int64_t *stream = scratch, *ph = scratch + U, *owner = scratch + 2 * U;
    int64_t *Ns = scratch + 3 * U, *global = scratch + 4 * U, *rest = scratch + 5 * U;
    if (R < 1 || w->units > PASCAL_SIM_MAX_UNITS || w->streams > INT32_MAX / N)
        return -1;
    for (int64_t v = 0; v < waves; v++) {
        pascal_streams inst;
        if (pascal_workload_wave(w, R, v, slot_phase, stream, ph, owner, Ns, global, rest,
                                 &inst) < 0)
            return -1;
        /* Requests are in slot order, each CTA's in its request order: CTA
         * v R + q's are entries q units .. of the wave. */
        for (int64_t g = 0; g < inst.R; g++) {
            int64_t i = v * U + g;
            base[i] = global[stream[g]] * N;
            len[i] = N;
            phase[i] = ph[g];
        }
    }
    *out = (pascal_sim_work){w->ctas, w->units, w->streams * N, base, len, phase, NULL, NULL, NULL};
    return 0;
}
