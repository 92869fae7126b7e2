/* The open scan (paper Algorithm 2) as a discrete-event simulation
 * (model/sim.h).  Every active slot has exactly one pending event, handled
 * in (time, slot) order.  Per block a CTA takes two events:
 *   sync, d = 1:  ISSUE (request block j)  -> WAIT at its arrival;
 *                 WAIT (consume + compute)  -> ISSUE of block j + 1;
 *   tma, d >= 2:  WAIT (consume)            -> REFILL when consumed;
 *                 REFILL (request block j + d - 1, compute)
 *                                            -> WAIT at max(done, arrival).
 * A request is served when its event is handled, at its own time, so the
 * cache sees requests in time order and the FCFS servers are FCFS.
 *
 * A WAIT touches nothing shared but its SM's issue server, and that server
 * takes its jobs in (time, slot) order as long as each SM handles its own
 * events in that order.  So a WAIT is handled as soon as it is its SM's
 * earliest pending event (at once with one CTA per SM), before the machine
 * reaches its time: only ISSUE, REFILL and START events, which touch the
 * shared cache and servers, go through the queue (sim_queue.c), one per
 * block; after each, settle() handles the WAITs of its SM that have become
 * the SM's earliest.  The
 * results are those of handling every event at its own time, event for
 * event.  One exception keeps them so: a trajectory of the sync path
 * records every slot's position when a block is consumed, so there a WAIT
 * is handled early only when it is the SM's earliest event at the moment it
 * is set (as the trajectory has always been taken), otherwise at its time.
 *
 * Several streams (a work table, model/sim.h): a CTA's "block j" is its
 * step j, whose requests request_step issues together and whose arrival is
 * the last of theirs; everything else is the one-ring scan, unchanged (a
 * table describing one ring gives the same run bit for bit).
 *
 * Speed: a slot's state is one record, an SM's slots side by side, with its
 * SM and overhead precomputed; the arrival ring has a power-of-two length;
 * the event loop has its own copy for each path at occupancy 1, 2, 4 and 8. */
#include <math.h>
#include <string.h>

#include "model/phases.h"
#include "model/sim_internal.h"

enum { EV_START, EV_ISSUE, EV_WAIT, EV_REFILL };

#define STOP_POLL_MASK ((1u << 20) - 1)

/* ---- one run -------------------------------------------------------------- */

/* The path and the CTAs per SM, as constants where the event loop is
 * inlined for a common shape (sim_open_scan), so that the tests on them
 * drop out and the scan over an SM's CTAs is unrolled. */
typedef struct shape {
    int tma;
    int64_t o;
} shape;

#define ALWAYS_INLINE inline __attribute__((always_inline))


typedef struct scan {
    pascal_sim *w;
    const pascal_sim_timing *tm;
    const pascal_sim_config *c;
    sim_slot *sl;               /* w->slots */
    double *arr;                /* w->arr */
    int64_t M, N, d, o, mask, ring_shift, next_cta, ctas, consumed, next_sample, samples;
    int64_t requests, hits, merged, fills, req_max;
    double consume_ns, job_work, job_lat, cmp_work, cmp_lat, first_wave_end, makespan;
    int tma;                    /* tma with d >= 2 */
    int compute;                /* m > 0 */
    int eager;                  /* a WAIT is handled when its SM's earliest */
    int oldest;                 /* sm_issue_oldest on the sync path, occupancy > 1 */
    int jitter, traj;           /* jitter_ns > 0, traj_max > 0 */
    const pascal_sim_work *work; /* several streams, or NULL: the one ring */
    int64_t units;              /* requests per CTA per step */
} scan;

static inline double *ring_of(const scan *x, int64_t s)
{
    return x->arr + (s << x->ring_shift);
}

/* Counts a request of CTA cta to cache id b with outcome o (and logs it). */
static ALWAYS_INLINE void tally(scan *x, int64_t cta, int32_t b, int o)
{
    if (x->requests < x->req_max) {
        x->c->req_block[x->requests] = b;
        x->c->req_outcome[x->requests] = (uint8_t)o;
    }
    x->requests++;
    if (o == SIM_HIT) {
        x->hits++;
    } else if (o == SIM_MERGE) {
        x->merged++;
    } else {
        int64_t v = cta / x->M;
        x->fills++;
        if (x->c->K_wave && v < x->c->max_waves)
            x->c->K_wave[v] += 1; /* a count until scan_finish */
    }
}

/* Step j of the CTA of slot index s over a work table (several streams):
 * its requests in order, all issued at t, request i reading cache id
 * base + (j + phase) mod len; the step's data is in when the last request's
 * is (one pipeline stage holds a step).  Jitter is keyed by (CTA,
 * j units + i): with one request per step, the one ring's key. */
static void request_step(scan *x, int64_t s, int64_t j, double t)
{
    const pascal_sim_work *k = x->work;
    sim_slot *sl = &x->sl[s];
    int64_t u = x->units, e = sl->cta * u;
    double step = -INFINITY;
    for (int64_t i = 0; i < u; i++, e++) {
        int64_t at = k->dir && k->dir[e] < 0 ? ((k->phase[e] - j) % k->len[e] + k->len[e]) % k->len[e]
                                             : (j + k->phase[e]) % k->len[e];
        int32_t b = (int32_t)(k->base[e] + at);
        int o;
        double a = sim_serve(x->w, x->tm, b, sl->sm, t, &o);
        if (x->jitter)
            a += x->tm->jitter_ns *
                 pascal_rng_uniform(x->c->seed, (uint64_t)sl->cta, (uint64_t)(j * u + i));
        step = a > step ? a : step;
        tally(x, sl->cta, b, o);
    }
    ring_of(x, s)[j & x->mask] = step;
}

/* Requests block j (step j of a work table) for the CTA of slot index s at
 * time t; its arrival goes to the slot's ring. */
static ALWAYS_INLINE void request(scan *x, int64_t s, int64_t j, double t)
{
    sim_slot *sl = &x->sl[s];
    int o;
    if (x->work) {
        request_step(x, s, j, t);
        return;
    }
    double a = sim_serve(x->w, x->tm, (int32_t)j, sl->sm, t, &o);
    if (x->jitter)
        a += x->tm->jitter_ns * pascal_rng_uniform(x->c->seed, (uint64_t)sl->cta, (uint64_t)j);
    ring_of(x, s)[j & x->mask] = a;
    tally(x, sl->cta, (int32_t)j, o);
}

static inline double arrival(const scan *x, int64_t s, int64_t j)
{
    return ring_of(x, s)[j & x->mask];
}

/* Trajectory samples due now that one more block has been consumed. */
static void sample(scan *x, double t)
{
    const pascal_sim_config *c = x->c;
    x->consumed++;
    while (x->consumed >= x->next_sample && x->samples < c->traj_max) {
        int32_t *pos = c->traj_pos + x->samples * x->M;
        c->traj_t[x->samples] = t;
        c->traj_rounds[x->samples] = (double)x->consumed / (double)x->M;
        for (int64_t i = 0; i < x->M; i++)
            pos[x->sl[i].slot] = x->sl[i].cta >= 0 ? x->sl[i].j : -1;
        x->samples++;
        x->next_sample += c->traj_every;
    }
}

/* The CTA in slot index s has finished its last block at t: the time the
 * slot takes the next CTA, or INFINITY when the grid is done. */
static double finish(scan *x, int64_t s, double t)
{
    int64_t cta = x->sl[s].cta;
    if (x->c->cta_end_ns)
        x->c->cta_end_ns[cta] = t;
    if (cta < x->M && t > x->first_wave_end)
        x->first_wave_end = t;
    if (t > x->makespan)
        x->makespan = t;
    x->sl[s].cta = -1;
    x->sl[s].kind = EV_START;
    if (x->work && x->work->chain && x->work->chain[cta]) {
        x->sl[s].succ = cta + 1;   /* the same CTA's next tile: no launch */
        return t;
    }
    return x->next_cta < x->ctas ? t + x->tm->launch_ns : INFINITY;
}

/* Slot index s's CTA has block j's data at t on the sync path: it consumes
 * it and computes; then it issues block j + 1 (or ends). */
static ALWAYS_INLINE double consume_sync(scan *x, int64_t s, int64_t j, double t)
{
    sim_slot *sl = &x->sl[s];
    double next = sim_sm_job(x->w, sl->sm, t, x->job_work, x->job_lat) + sl->ovh;
    if (x->traj)
        sample(x, t);
    sl->j = (int32_t)(j + 1);
    if (j + 1 == sl->n)
        return finish(x, s, next);
    sl->kind = EV_ISSUE;
    return next;
}

/* Slot index s's CTA has its next block's data at t on the tma path: it
 * consumes it; the refill follows. */
static ALWAYS_INLINE double consume_tma(scan *x, int64_t s, double t)
{
    x->sl[s].kind = EV_REFILL;
    return sim_sm_job(x->w, x->sl[s].sm, t, x->consume_ns, x->consume_ns);
}

/* The CTA of slot index s wakes at t with the data it waits for. */
static ALWAYS_INLINE double wake(scan *x, shape f, int64_t s, int64_t j, double t)
{
    return f.tma ? consume_tma(x, s, t) : consume_sync(x, s, j, t);
}

/* Whether every other CTA on the SM of slot index s has its next event
 * after (t, s): then none of them can use the SM's server before s does at
 * t.  An SM's slots sit in index order, which is their slot order. */
static int sm_quiet_until(const scan *x, int64_t s, double t)
{
    int64_t base = s - s % x->o;
    for (int64_t k = base; k < base + x->o; k++)
        if (k != s && !(x->sl[k].t > t || (x->sl[k].t == t && k > s)))
            return 0;
    return 1;
}

/* The CTA of slot index s resumes at t with the data it waits for.  With
 * one CTA per SM nothing can reach its SM's server first: the wake-up is
 * handled now.  Otherwise it becomes a WAIT event, which settle() handles
 * as soon as it is the SM's earliest (or, for a sync trajectory, now if it
 * already is, else at its time). */
static ALWAYS_INLINE double resume(scan *x, shape f, int64_t s, int64_t j, double t)
{
    if (f.o == 1 || (!x->eager && sm_quiet_until(x, s, t)))
        return wake(x, f, s, j, t);
    x->sl[s].kind = EV_WAIT;
    return t;
}

/* A CTA starts in slot index s at t: it primes d - 1 stages on the tma
 * path.  Slots freed within launch_ns of each other may all have seen a CTA
 * left when they were freed; the first to start takes it, the others
 * retire. */
static double start(scan *x, shape f, int64_t s, double t)
{
    sim_slot *sl = &x->sl[s];
    const uint8_t *chain = x->work ? x->work->chain : NULL;
    if (sl->succ >= 0) {
        sl->cta = sl->succ;
        sl->succ = -1;
    } else {
        while (chain && x->next_cta > 0 && x->next_cta < x->ctas && chain[x->next_cta - 1])
            x->next_cta++;   /* a later tile of a CTA: its slot runs it */
        if (x->next_cta >= x->ctas)
            return INFINITY;
        sl->cta = x->next_cta++;
    }
    sl->j = 0;
    sl->n = x->work && x->work->steps ? (int32_t)x->work->steps[sl->cta] : (int32_t)x->N;
    if (x->c->cta_start_ns)
        x->c->cta_start_ns[sl->cta] = t;
    if (sl->n == 0)
        return finish(x, s, t);   /* a CTA without steps exits at once */
    if (!f.tma) {
        sl->kind = EV_ISSUE;
        return t;
    }
    for (int64_t k = 0; k < x->d - 1 && k < sl->n; k++)
        request(x, s, k, t);
    return resume(x, f, s, 0, t > arrival(x, s, 0) ? t : arrival(x, s, 0));
}

/* Slot index s's REFILL at t: request block j + d - 1 (lines 10-12 of
 * Algorithm 2), compute, and wait for block j + 1. */
static ALWAYS_INLINE double refill(scan *x, shape f, int64_t s, double t)
{
    sim_slot *sl = &x->sl[s];
    int64_t j = sl->j;
    double next, a;
    if (j + x->d - 1 < sl->n)
        request(x, s, j + x->d - 1, t);
    next = (x->compute ? sim_sm_job(x->w, sl->sm, t, x->cmp_work, x->cmp_lat) : t) + sl->ovh;
    if (x->traj)
        sample(x, t);
    sl->j = (int32_t)(j + 1);
    if (j + 1 == sl->n)
        return finish(x, s, next);
    a = arrival(x, s, j + 1);
    return resume(x, f, s, j + 1, next > a ? next : a);
}

/* Handles slot index s's event at time t; returns the time of its next
 * event (INFINITY: the slot retires). */
static ALWAYS_INLINE double step(scan *x, shape f, int64_t s, double t)
{
    sim_slot *sl = &x->sl[s];
    switch (sl->kind) {
    case EV_REFILL:
        return refill(x, f, s, t);
    case EV_ISSUE:
        request(x, s, sl->j, t);
        return resume(x, f, s, sl->j, arrival(x, s, sl->j));
    case EV_WAIT:
        return wake(x, f, s, sl->j, t);
    default: /* EV_START */
        return start(x, f, s, t);
    }
}

/* Slot index s's next event (t) goes to the queue, unless the slot retires
 * or waits (an eager WAIT is handled by settle()). */
static inline void enqueue(scan *x, int64_t s, double t)
{
    if (t != INFINITY && (x->sl[s].kind != EV_WAIT || !x->eager))
        sim_queue_insert(&x->w->queue, sim_key_make(t, x->sl[s].slot, s));
}

/* The slot index of SM m's earliest event, ties to the smaller index (the
 * smaller slot), and its time.  Which CTA comes first is close to random:
 * selects, not branches. */
static ALWAYS_INLINE int64_t earliest(const sim_slot *sl, int64_t base, int64_t o, double *t_out)
{
    int64_t b = base;
    double tb = sl[base].t;
    for (int64_t k = base + 1; k < base + o; k++) {
        double tk = sl[k].t;
        int64_t lt = tk < tb;
        b += (k - b) & -lt;
        tb = lt ? tk : tb;
    }
    *t_out = tb;
    return b;
}

/* Of SM m's WAITs at time t, the slot index of the oldest CTA (the first
 * launched: the smallest CTA index). */
static int64_t oldest_at(const sim_slot *sl, int64_t base, int64_t o, double t)
{
    int64_t b = -1;
    for (int64_t k = base; k < base + o; k++)
        if (sl[k].kind == EV_WAIT && sl[k].t == t && (b < 0 || sl[k].cta < sl[b].cta))
            b = k;
    return b;
}

/* Handles SM m's WAITs that come before every other event of the SM, in
 * (time, slot) order, queueing what follows each (eager only).  With the
 * oldest-first issue order (sync path) a WAIT that finds the SM's server
 * busy waits until it frees, when every job waiting by then is known (the
 * SM's other events all come later); the oldest CTA among them takes it,
 * its job's latency floor counted from its data's arrival. */
static ALWAYS_INLINE void settle(scan *x, shape f, int64_t m)
{
    sim_slot *sl = x->sl;
    for (;;) {
        double tb;
        int64_t b = earliest(sl, m * f.o, f.o, &tb);
        if (sl[b].kind != EV_WAIT || tb == INFINITY)
            return;
        if (!f.tma && x->oldest) {
            double busy = x->w->smx[m].issue_free;
            if (busy > tb) {
                sl[b].t = busy;
                continue;
            }
            b = oldest_at(sl, m * f.o, f.o, tb);
            sl[b].t = wake(x, f, b, sl[b].j, arrival(x, b, sl[b].j));
        } else {
            sl[b].t = wake(x, f, b, sl[b].j, tb);
        }
        enqueue(x, b, sl[b].t);
    }
}

static void scan_init(scan *x, pascal_sim *w, const pascal_sim_timing *tm,
                      const pascal_sim_config *c)
{
    double scale = c->block_bytes / 16384.0, m = (double)c->compute;
    memset(x, 0, sizeof *x);
    x->w = w, x->tm = tm, x->c = c;
    x->sl = w->slots, x->arr = w->arr;
    x->M = c->sms * c->occupancy;
    x->N = c->N;
    x->tma = c->path == PASCAL_SIM_TMA && c->depth >= 2;
    x->d = x->tma ? c->depth : 1;
    x->mask = w->ring - 1;
    while (((int64_t)1 << x->ring_shift) < w->ring)
        x->ring_shift++;
    x->work = c->work;
    x->units = c->work ? c->work->units : 1;
    x->ctas = c->work ? c->work->ctas : llround(c->W * (double)x->M);
    /* A step of a work table is consumed whole: units blocks. */
    x->consume_ns = tm->consume_ns * scale * (c->work ? (double)x->units : 1.0);
    x->cmp_work = m * tm->wmma_sm_ns;
    x->cmp_lat = m * tm->wmma_ns;
    x->compute = c->compute > 0;
    x->o = c->occupancy;
    x->oldest = !x->tma && c->occupancy > 1 && tm->sm_issue_oldest > 0;
    /* Sync trajectories read every slot's position at a consumption: its
     * WAITs wait for their time, but under the oldest-first order (which
     * needs the eager handling), where a sample may see a CTA of another
     * SM one block ahead. */
    x->eager = x->tma || c->traj_max <= 0 || x->oldest;
    x->jitter = tm->jitter_ns > 0;
    x->traj = c->traj_max > 0;
    x->req_max = c->req_max;
    x->job_work = x->consume_ns + x->cmp_work;
    x->job_lat = x->consume_ns + x->cmp_lat;
    x->next_sample = c->traj_every > 0 ? c->traj_every : INT64_MAX;
    for (int64_t v = 0; c->K_wave && v < c->max_waves; v++)
        c->K_wave[v] = 0;
    /* The first wave: CTA s in slot s at time 0 (slots beyond the grid idle);
     * slot s is place k = s / sms of SM m = s mod sms, index m o + k. */
    for (int64_t i = 0; i < x->M; i++) {
        int64_t sm = i / x->o, s = sm + (i % x->o) * c->sms;
        sim_slot *sl = &w->slots[i];
        sl->cta = -1;
        sl->succ = -1;
        sl->j = 0;
        sl->slot = (int32_t)s;
        sl->sm = (int32_t)sm;
        sl->kind = EV_START;
        sl->ovh = tm->loop_ns + (c->slot_extra_ns ? c->slot_extra_ns[s] : 0);
        sl->t = s < x->ctas ? 0 : INFINITY;
    }
    sim_queue_reset(&w->queue);
    for (int64_t s = 0; s < x->M && s < x->ctas; s++)
        enqueue(x, (s % c->sms) * x->o + s / c->sms, 0);
}

static void scan_finish(const scan *x, pascal_sim_result *o)
{
    const pascal_sim_config *c = x->c;
    o->M = x->M;
    o->ctas = x->ctas;
    o->waves = (x->ctas + x->M - 1) / x->M;
    o->requests = x->requests, o->hits = x->hits, o->merged = x->merged, o->fills = x->fills;
    o->samples = x->samples;
    o->makespan_ns = x->makespan;
    /* a program's work is its steps; every CTA's N otherwise */
    const int64_t *steps = x->work ? x->work->steps : NULL;
    double total = 0;
    for (int64_t k = 0; steps && k < x->ctas; k++)
        total += (double)steps[k];
    o->H = (steps ? total : (double)x->ctas * (double)c->N) / (double)x->M;
    o->K_H = (double)o->fills / o->H;
    o->ns_per_round = o->makespan_ns / o->H;
    o->first_wave_ns_per_round = x->first_wave_end / (double)c->N;
    for (int64_t v = 0; c->K_wave && v < o->waves && v < c->max_waves; v++) {
        int64_t n = x->ctas - v * x->M < x->M ? x->ctas - v * x->M : x->M;
        double work = (double)n * (double)c->N;
        if (steps) {
            work = 0;
            for (int64_t k = v * x->M; k < v * x->M + n; k++)
                work += (double)steps[k];
        }
        c->K_wave[v] = work > 0 ? c->K_wave[v] * (double)x->M / work : 0;
    }
}

/* Takes the events in order until none is left (PASCAL_SIM_OK) or a stop
 * is asked for (PASCAL_SIM_STOPPED). */
static ALWAYS_INLINE int event_loop(scan *x, shape f)
{
    pascal_sim *w = x->w;
    const pascal_sim_config *c = x->c;
    uint64_t events = 0;
    while (w->queue.n > 0) {
        sim_key top = sim_queue_pop(&w->queue);
        int64_t i = sim_key_index(top);
        double next = step(x, f, i, sim_key_time(top));
        x->sl[i].t = next;
        enqueue(x, i, next);
        if (f.o > 1 && x->eager)
            settle(x, f, x->sl[i].sm);
        if ((++events & STOP_POLL_MASK) == 0 && c->should_stop && c->should_stop(c->stop_ctx))
            return PASCAL_SIM_STOPPED;
    }
    return PASCAL_SIM_OK;
}

int sim_open_scan(pascal_sim *w, const pascal_sim_timing *tm, const pascal_sim_config *c,
                  pascal_sim_result *out)
{
    scan x;
    int rc;
    scan_init(&x, w, tm, c);
    /* The paper's occupancies (and 8) get their own copies of the loop. */
    if (x.tma)
        rc = x.o == 1   ? event_loop(&x, (shape){1, 1})
             : x.o == 2 ? event_loop(&x, (shape){1, 2})
             : x.o == 4 ? event_loop(&x, (shape){1, 4})
             : x.o == 8 ? event_loop(&x, (shape){1, 8})
                        : event_loop(&x, (shape){1, x.o});
    else
        rc = x.o == 1   ? event_loop(&x, (shape){0, 1})
             : x.o == 2 ? event_loop(&x, (shape){0, 2})
             : x.o == 4 ? event_loop(&x, (shape){0, 4})
             : x.o == 8 ? event_loop(&x, (shape){0, 8})
                        : event_loop(&x, (shape){0, x.o});
    scan_finish(&x, out);
    return rc;
}
