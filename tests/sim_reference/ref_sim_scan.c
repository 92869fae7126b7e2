/* FROZEN REGRESSION ORACLE (see ref_sim.h): model/sim_scan.c before the simulator
 * was made faster, names prefixed with ref_, functions static.  Its
 * original comment follows. */
/* The open scan (paper Algorithm 2) as a discrete-event simulation
 * (model/sim.h).  Every resident slot has exactly one pending event; the
 * queue (ref_queue.c) hands them out in (time, slot) order.
 * Per block a CTA takes two events:
 *   sync, d = 1:  ISSUE (ref_request block j)  -> WAIT at its ref_arrival;
 *                 WAIT (consume + compute)  -> ISSUE of block j + 1;
 *   tma, d >= 2:  WAIT (consume)            -> REFILL when consumed;
 *                 REFILL (ref_request block j + d - 1, compute)
 *                                            -> WAIT at max(done, ref_arrival).
 * A ref_request is served when its event is handled, at its own time, so the
 * cache sees requests in time order and the FCFS servers are FCFS.  A WAIT
 * touches nothing shared but its SM's server; when no other CTA of the SM
 * has an event before it (always with one CTA per SM), the event before it
 * handles it at once (one event per block, the same result): every SM
 * server still takes its jobs in time order.
 *
 * Speed: slot data sit in per-slot arrays with the SM index and the
 * overhead precomputed, and the ref_arrival ring has a power-of-two length. */
#include <math.h>
#include <string.h>

#include "model/phases.h"
#include "ref_sim_internal.h"

enum { REF_EV_START, REF_EV_ISSUE, REF_EV_WAIT, REF_EV_REFILL };

#define REF_STOP_POLL_MASK ((1u << 20) - 1)

/* ---- one run -------------------------------------------------------------- */

typedef struct ref_scan {
    ref_sim *w;
    const pascal_sim_timing *tm;
    const pascal_sim_config *c;
    int64_t M, N, d, mask, next_cta, ctas, consumed, next_sample, samples;
    int64_t requests, hits, merged, fills;
    double consume_ns, job_work, job_lat, cmp_work, cmp_lat, first_wave_end, makespan;
    int tma;                    /* tma with d >= 2 */
    int compute;                /* m > 0 */
    int fuse;                   /* one CTA per SM: a wake-up is no event */
} ref_scan;

/* Requests block j for the CTA in slot s at time t; its ref_arrival goes to the
 * slot's ring. */
static inline void ref_request(ref_scan *x, int32_t s, int64_t j, double t)
{
    ref_sim *w = x->w;
    int o;
    double a = ref_serve(w, x->tm, (int32_t)j, w->sm[s], t, &o);
    if (x->tm->jitter_ns > 0)
        a += x->tm->jitter_ns * pascal_rng_uniform(x->c->seed, (uint64_t)w->cta[s], (uint64_t)j);
    w->arr[s * w->ring + (j & x->mask)] = a;
    if (x->requests < x->c->req_max) {
        x->c->req_block[x->requests] = (int32_t)j;
        x->c->req_outcome[x->requests] = (uint8_t)o;
    }
    x->requests++;
    if (o == REF_HIT) {
        x->hits++;
    } else if (o == REF_MERGE) {
        x->merged++;
    } else {
        int64_t v = w->cta[s] / x->M;
        x->fills++;
        if (x->c->K_wave && v < x->c->max_waves)
            x->c->K_wave[v] += 1; /* a count until ref_scan_finish */
    }
}

static inline double ref_arrival(const ref_scan *x, int32_t s, int64_t j)
{
    return x->w->arr[s * x->w->ring + (j & x->mask)];
}

/* Trajectory samples due now that one more block has been consumed. */
static void ref_sample(ref_scan *x, double t)
{
    const pascal_sim_config *c = x->c;
    x->consumed++;
    while (x->consumed >= x->next_sample && x->samples < c->traj_max) {
        int32_t *pos = c->traj_pos + x->samples * x->M;
        c->traj_t[x->samples] = t;
        c->traj_rounds[x->samples] = (double)x->consumed / (double)x->M;
        for (int64_t s = 0; s < x->M; s++)
            pos[s] = x->w->cta[s] >= 0 ? x->w->j[s] : -1;
        x->samples++;
        x->next_sample += c->traj_every;
    }
}

/* The CTA in slot s has finished its last block at t: the time the slot
 * takes the next CTA, or INFINITY when the grid is done. */
static double ref_finish(ref_scan *x, int32_t s, double t)
{
    int64_t cta = x->w->cta[s];
    if (x->c->cta_end_ns)
        x->c->cta_end_ns[cta] = t;
    if (cta < x->M && t > x->first_wave_end)
        x->first_wave_end = t;
    if (t > x->makespan)
        x->makespan = t;
    x->w->cta[s] = -1;
    x->w->kind[s] = REF_EV_START;
    return x->next_cta < x->ctas ? t + x->tm->launch_ns : INFINITY;
}

/* Slot s's CTA has block j's data at t on the sync path: it consumes it
 * and computes; then it issues block j + 1 (or ends). */
static double ref_consume_sync(ref_scan *x, int32_t s, int64_t j, double t)
{
    ref_sim *w = x->w;
    double next = ref_sm_job(w, w->sm[s], t, x->job_work, x->job_lat) + w->ovh[s];
    if (x->c->traj_max > 0)
        ref_sample(x, t);
    w->j[s] = (int32_t)(j + 1);
    if (j + 1 == x->N)
        return ref_finish(x, s, next);
    w->kind[s] = REF_EV_ISSUE;
    return next;
}

/* Slot s's CTA has its next block's data at t on the tma path: it consumes
 * it; the refill follows. */
static double ref_consume_tma(ref_scan *x, int32_t s, double t)
{
    x->w->kind[s] = REF_EV_REFILL;
    return ref_sm_job(x->w, x->w->sm[s], t, x->consume_ns, x->consume_ns);
}

/* Whether every other CTA on slot s's SM has its next event after (t, s):
 * then none of them can use the SM's server before s does at t. */
static int ref_sm_quiet_until(const ref_scan *x, int32_t s, double t)
{
    const double *qt = x->w->queue.t;
    for (int64_t k = x->w->sm[s]; k < x->M; k += x->c->sms)
        if (k != s && !(qt[k] > t || (qt[k] == t && k > s)))
            return 0;
    return 1;
}

/* The CTA in slot s resumes at t with the data it waits for.  The wake-up
 * touches nothing shared but its SM's server; when no other CTA of that SM
 * can reach the server first (always, with one CTA per SM), the consumption
 * is decided now, exactly as its own event would decide it, and costs no
 * event. */
static double ref_resume(ref_scan *x, int32_t s, int64_t j, double t)
{
    if (!x->fuse && !ref_sm_quiet_until(x, s, t)) {
        x->w->kind[s] = REF_EV_WAIT;
        return t;
    }
    return x->tma ? ref_consume_tma(x, s, t) : ref_consume_sync(x, s, j, t);
}

/* A CTA starts in slot s at t: it primes d - 1 stages on the tma path.
 * Slots freed within launch_ns of each other may all have seen a CTA left
 * when they were freed; the first to ref_start takes it, the others retire. */
static double ref_start(ref_scan *x, int32_t s, double t)
{
    ref_sim *w = x->w;
    if (x->next_cta >= x->ctas)
        return INFINITY;
    w->cta[s] = x->next_cta++;
    w->j[s] = 0;
    if (x->c->cta_start_ns)
        x->c->cta_start_ns[w->cta[s]] = t;
    if (!x->tma) {
        w->kind[s] = REF_EV_ISSUE;
        return t;
    }
    for (int64_t k = 0; k < x->d - 1 && k < x->N; k++)
        ref_request(x, s, k, t);
    return ref_resume(x, s, 0, t > ref_arrival(x, s, 0) ? t : ref_arrival(x, s, 0));
}

/* Handles slot s's event at time t; returns the time of its next event
 * (INFINITY: the slot retires). */
static inline double ref_step(ref_scan *x, int32_t s, double t)
{
    ref_sim *w = x->w;
    int64_t j = w->j[s];
    double next;
    switch (w->kind[s]) {
    case REF_EV_START:
        return ref_start(x, s, t);
    case REF_EV_ISSUE:
        ref_request(x, s, j, t);
        return ref_resume(x, s, j, ref_arrival(x, s, j));
    case REF_EV_WAIT:
        return x->tma ? ref_consume_tma(x, s, t) : ref_consume_sync(x, s, j, t);
    default: /* REF_EV_REFILL */
        if (j + x->d - 1 < x->N)
            ref_request(x, s, j + x->d - 1, t);
        next = (x->compute ? ref_sm_job(w, w->sm[s], t, x->cmp_work, x->cmp_lat) : t) + w->ovh[s];
        if (x->c->traj_max > 0)
            ref_sample(x, t);
        w->j[s] = (int32_t)(j + 1);
        if (j + 1 == x->N)
            return ref_finish(x, s, next);
        return ref_resume(x, s, j + 1, next > ref_arrival(x, s, j + 1) ? next : ref_arrival(x, s, j + 1));
    }
}

/* Buckets of the event queue: eight per slot, at most the workspace's. */
static int64_t ref_buckets(const ref_sim *w, int64_t M)
{
    int64_t nb = 64;
    while (nb < 8 * M && nb < w->max_buckets)
        nb *= 2;
    return nb;
}

/* Bucket width: about a CTA's unloaded time per block shared by the 2 M
 * events it holds, so a bucket holds about one event and the calendar spans
 * a few periods.  Any width gives the same simulation; this one makes it
 * fast. */
static double ref_bucket_width(const pascal_sim_timing *tm, const pascal_sim_config *c, int64_t M)
{
    double b = c->block_bytes;
    double P = tm->hit_ns + tm->consume_ns * b / 16384.0 + tm->loop_ns +
               (double)c->compute * tm->wmma_ns + b / tm->sm_bytes_per_ns + b / tm->l2_bytes_per_ns;
    double w = P / (2.0 * (double)M);
    return w > 1e-3 ? (w < 1e6 ? w : 1e6) : 1e-3;
}

static void ref_scan_init(ref_scan *x, ref_sim *w, const pascal_sim_timing *tm,
                      const pascal_sim_config *c)
{
    double scale = c->block_bytes / 16384.0, m = (double)c->compute;
    memset(x, 0, sizeof *x);
    x->w = w, x->tm = tm, x->c = c;
    x->M = c->sms * c->occupancy;
    x->N = c->N;
    x->tma = c->path == PASCAL_SIM_TMA && c->depth >= 2;
    x->d = x->tma ? c->depth : 1;
    x->mask = w->ring - 1;
    x->ctas = llround(c->W * (double)x->M);
    x->consume_ns = tm->consume_ns * scale;
    x->cmp_work = m * tm->wmma_sm_ns;
    x->cmp_lat = m * tm->wmma_ns;
    x->compute = c->compute > 0;
    x->fuse = c->occupancy == 1;
    x->job_work = x->consume_ns + x->cmp_work;
    x->job_lat = x->consume_ns + x->cmp_lat;
    x->next_sample = c->traj_every > 0 ? c->traj_every : INT64_MAX;
    for (int64_t v = 0; c->K_wave && v < c->max_waves; v++)
        c->K_wave[v] = 0;
    ref_queue_reset(&w->queue, ref_buckets(w, x->M), ref_bucket_width(tm, c, x->M), x->M);
    /* The first wave: CTA s in slot s at time 0 (slots beyond the grid idle). */
    for (int64_t s = 0; s < x->M; s++) {
        w->cta[s] = -1;
        w->j[s] = 0;
        w->sm[s] = (int32_t)(s % c->sms);
        w->kind[s] = REF_EV_START;
        w->ovh[s] = tm->loop_ns + (c->slot_extra_ns ? c->slot_extra_ns[s] : 0);
        if (s < x->ctas)
            ref_queue_push(&w->queue, (int32_t)s, 0);
    }
}

static void ref_scan_finish(const ref_scan *x, pascal_sim_result *o)
{
    const pascal_sim_config *c = x->c;
    o->M = x->M;
    o->ctas = x->ctas;
    o->waves = (x->ctas + x->M - 1) / x->M;
    o->requests = x->requests, o->hits = x->hits, o->merged = x->merged, o->fills = x->fills;
    o->samples = x->samples;
    o->makespan_ns = x->makespan;
    o->H = (double)x->ctas * (double)c->N / (double)x->M;
    o->K_H = (double)o->fills / o->H;
    o->ns_per_round = o->makespan_ns / o->H;
    o->first_wave_ns_per_round = x->first_wave_end / (double)c->N;
    for (int64_t v = 0; c->K_wave && v < o->waves && v < c->max_waves; v++) {
        int64_t n = x->ctas - v * x->M < x->M ? x->ctas - v * x->M : x->M;
        c->K_wave[v] = c->K_wave[v] * (double)x->M / ((double)n * (double)c->N);
    }
}

static int ref_open_scan(ref_sim *w, const pascal_sim_timing *tm, const pascal_sim_config *c,
                  pascal_sim_result *out)
{
    ref_scan x;
    uint64_t events = 0;
    double t;
    int32_t s;
    ref_scan_init(&x, w, tm, c);
    while ((s = ref_queue_pop(&w->queue, &t)) >= 0) {
        double next = ref_step(&x, s, t);
        if (next != INFINITY)
            ref_queue_push(&w->queue, s, next);
        if ((++events & REF_STOP_POLL_MASK) == 0 && c->should_stop && c->should_stop(c->stop_ctx)) {
            ref_scan_finish(&x, out);
            return PASCAL_SIM_STOPPED;
        }
    }
    ref_scan_finish(&x, out);
    return PASCAL_SIM_OK;
}
