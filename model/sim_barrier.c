/* The static scan of the paper's Algorithm 1 on the simulated machine
 * (model/sim.h): the M resident CTAs, worker m reading block
 * (r + phases[m]) mod N in round r, a grid barrier after every round.  All
 * requests of a round are issued when the barrier releases, and they reach
 * the cache in worker order, as the static model assumes (section 3.1); so
 * the fills per round in steady state are the static model's exact LRU K
 * for a fully associative cache (the simulator's correctness anchor).
 *
 * Rounds 0..N-1 warm up (every later round is in steady state: a request's
 * outcome depends only on the trace since the previous request to its block,
 * at most N rounds back); rounds N..2N-1 are measured.
 *
 * With a work table (several streams) the CTAs run in waves of M, each
 * wave N rounds; with one wave of N = 2 Nmax rounds the measured rounds are
 * the steady state of model/replay_streams.h. */
#include <math.h>

#include "model/phases.h"
#include "model/sim_internal.h"

int sim_barrier_scan(pascal_sim *w, const pascal_sim_timing *tm, const pascal_sim_config *c,
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
            double a = sim_serve(w, tm, (int32_t)b, m % c->sms, t, &o);
            if (tm->jitter_ns > 0)
                a += tm->jitter_ns * pascal_rng_uniform(c->seed, (uint64_t)m, (uint64_t)r);
            /* Consume and compute on the worker's SM, then its overhead. */
            a = sim_sm_job(w, m % c->sms, a, work, lat) + tm->loop_ns +
                (c->slot_extra_ns ? c->slot_extra_ns[m] : 0);
            end = a > end ? a : end;
            if (out->requests < c->req_max) {
                c->req_block[out->requests] = (int32_t)b;
                c->req_outcome[out->requests] = (uint8_t)o;
            }
            out->requests++;
            out->hits += o == SIM_HIT;
            out->merged += o == SIM_MERGE;
            out->fills += o == SIM_MISS;
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

/* Fills and time of one barrier round of wave v (CTAs c0 .. c0 + n - 1 in
 * slots 0..n-1) released at t: every CTA's requests in CTA order, then
 * request order, each served at t; a CTA consumes its step when its last
 * request's data is in.  Returns when the round's last CTA is done. */
static double work_round(pascal_sim *w, const pascal_sim_timing *tm, const pascal_sim_config *c,
                         int64_t c0, int64_t n, int64_t r, double t, pascal_sim_result *out)
{
    const pascal_sim_work *k = c->work;
    int64_t u = k->units;
    double consume = tm->consume_ns * c->block_bytes / 16384.0 * (double)u;
    double work = consume + (double)c->compute * tm->wmma_sm_ns;
    double lat = consume + (double)c->compute * tm->wmma_ns, end = t;
    for (int64_t q = 0; q < n; q++) {
        int64_t cta = c0 + q;
        double step = -INFINITY;
        for (int64_t i = 0; i < u; i++) {
            int64_t e = cta * u + i;
            int32_t b = (int32_t)(k->base[e] + (r + k->phase[e]) % k->len[e]);
            int o;
            double a = sim_serve(w, tm, b, q % c->sms, t, &o);
            if (tm->jitter_ns > 0)
                a += tm->jitter_ns *
                     pascal_rng_uniform(c->seed, (uint64_t)cta, (uint64_t)(r * u + i));
            step = a > step ? a : step;
            if (out->requests < c->req_max) {
                c->req_block[out->requests] = b;
                c->req_outcome[out->requests] = (uint8_t)o;
            }
            out->requests++;
            out->hits += o == SIM_HIT;
            out->merged += o == SIM_MERGE;
            out->fills += o == SIM_MISS;
        }
        step = sim_sm_job(w, q % c->sms, step, work, lat) + tm->loop_ns +
               (c->slot_extra_ns ? c->slot_extra_ns[q] : 0);
        end = step > end ? step : end;
    }
    return end + tm->barrier_ns;
}

/* Waves of M CTAs of a work table, each N rounds with a grid barrier per
 * round (a kernel whose grid syncs every step; its fills are the exact LRU
 * replay of the kernel's trace, wave after wave).  K_steady and the time
 * per round measure the last wave's rounds floor(N / 2) .. N - 1. */
int sim_barrier_work(pascal_sim *w, const pascal_sim_timing *tm, const pascal_sim_config *c,
                     pascal_sim_result *out)
{
    int64_t M = c->sms * c->occupancy, N = c->N, ctas = c->work->ctas, from = N / 2;
    int64_t waves = (ctas + M - 1) / M, measured_fills = 0, rounds = 0;
    double t = 0, measured_ns = 0;
    out->M = M;
    out->ctas = ctas;
    out->waves = waves;
    for (int64_t v = 0; v < waves; v++) {
        int64_t n = ctas - v * M < M ? ctas - v * M : M;
        for (int64_t r = 0; r < N; r++, rounds++) {
            int64_t fills0 = out->fills;
            double end = work_round(w, tm, c, v * M, n, r, t, out);
            if (v == waves - 1 && r >= from) {
                measured_fills += out->fills - fills0;
                measured_ns += end - t;
            }
            t = end;
            if ((rounds & 1023) == 1023 && c->should_stop && c->should_stop(c->stop_ctx))
                return PASCAL_SIM_STOPPED;
        }
    }
    out->makespan_ns = t;
    out->H = (double)(waves * N);
    out->K_H = (double)out->fills / out->H;
    out->K_steady = (double)measured_fills / (double)(N - from);
    out->ns_per_round = measured_ns / (double)(N - from);
    out->first_wave_ns_per_round = out->ns_per_round;
    return PASCAL_SIM_OK;
}
