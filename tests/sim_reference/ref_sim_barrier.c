/* FROZEN REGRESSION ORACLE (see ref_sim.h): model/sim_barrier.c before the simulator
 * was made faster, names prefixed with ref_, functions static.  Its
 * original comment follows. */
/* The static scan of the paper's Algorithm 1 on the simulated machine
 * (model/sim.h): the M resident CTAs, worker m reading block
 * (r + phases[m]) mod N in round r, a grid barrier after every round.  All
 * requests of a round are issued when the barrier releases, and they reach
 * the cache in worker order, as the static model assumes (section 3.1); so
 * the fills per round in steady state are the static model's exact LRU K
 * for a fully associative cache (the simulator's correctness anchor).
 *
 * Rounds 0..N-1 warm up (every later round is in steady state: a ref_request's
 * outcome depends only on the trace since the previous ref_request to its block,
 * at most N rounds back); rounds N..2N-1 are measured. */
#include <math.h>

#include "model/phases.h"
#include "ref_sim_internal.h"

static int ref_barrier_scan(ref_sim *w, const pascal_sim_timing *tm, const pascal_sim_config *c,
                     pascal_sim_result *out)
{
    int64_t M = c->sms * c->occupancy, N = c->N, measured_fills = 0;
    double t = 0, measured_ns = 0, consume = tm->consume_ns * c->block_bytes / 16384.0;
    double work = consume + (double)c->compute * tm->wmma_sm_ns;
    double lat = consume + (double)c->compute * tm->wmma_ns;
    out->M = M;
    out->ctas = M;
    out->waves = 1;
    for (int64_t r = 0; r < 2 * N; r++) {
        double end = t;
        int64_t fills0 = out->fills;
        for (int64_t m = 0; m < M; m++) {
            int o;
            int64_t b = (r + c->phases[m]) % N;
            double a = ref_serve(w, tm, (int32_t)b, m % c->sms, t, &o);
            if (tm->jitter_ns > 0)
                a += tm->jitter_ns * pascal_rng_uniform(c->seed, (uint64_t)m, (uint64_t)r);
            /* Consume and compute on the worker's SM, then its overhead. */
            a = ref_sm_job(w, m % c->sms, a, work, lat) + tm->loop_ns +
                (c->slot_extra_ns ? c->slot_extra_ns[m] : 0);
            end = a > end ? a : end;
            if (out->requests < c->req_max) {
                c->req_block[out->requests] = (int32_t)b;
                c->req_outcome[out->requests] = (uint8_t)o;
            }
            out->requests++;
            out->hits += o == REF_HIT;
            out->merged += o == REF_MERGE;
            out->fills += o == REF_MISS;
        }
        end += tm->barrier_ns;
        if (r >= N) {
            measured_fills += out->fills - fills0;
            measured_ns += end - t;
        }
        t = end;
        if ((r & 1023) == 1023 && c->should_stop && c->should_stop(c->stop_ctx))
            return PASCAL_SIM_STOPPED;
    }
    out->makespan_ns = t;
    out->H = (double)(2 * N);
    out->K_H = (double)out->fills / out->H;
    out->K_steady = (double)measured_fills / (double)N;
    out->ns_per_round = measured_ns / (double)N;
    out->first_wave_ns_per_round = out->ns_per_round;
    return PASCAL_SIM_OK;
}
