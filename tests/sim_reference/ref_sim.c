/* FROZEN REGRESSION ORACLE (see ref_sim.h): model/sim.c before the simulator
 * was made faster, names prefixed with ref_, functions static.  Its
 * original comment follows. */
/* The progress simulator's workspace, checks and entry point (model/sim.h),
 * and the cache geometry.  The scans themselves are in sim_scan.c (open,
 * Algorithm 2) and sim_barrier.c (Algorithm 1). */
#include "model/sim.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/phases.h"
#include "ref_sim_internal.h"

/* Key of the set-index draw: the one pascal_setlru uses for its random
 * mapping, so both caches place every block in the same set. */
#define REF_SET_KEY 0x736574ULL
/* Key of the per-SM port draws. */
#define REF_SM_KEY 0x736d706f7274ULL

static void ref_sim_free(ref_sim *w)
{
    if (!w)
        return;
    free(w->cache.prev), free(w->cache.next), free(w->cache.ready), free(w->cache.set);
    free(w->cache.head), free(w->cache.tail), free(w->cache.count);
    free(w->cta), free(w->j), free(w->sm), free(w->kind), free(w->ovh), free(w->arr);
    free(w->sm_free);
    free(w->port_free), free(w->tx_port);
    free(w->queue.head), free(w->queue.bits), free(w->queue.next), free(w->queue.t);
    free(w);
}

static ref_sim *ref_sim_create(int64_t max_blocks, int64_t max_slots, int64_t max_depth,
                              int64_t max_sets)
{
    ref_sim *w;
    size_t nb = (size_t)max_blocks, ns = (size_t)max_slots;
    size_t nsets = (size_t)max_sets;
    if (max_blocks < 1 || max_blocks > INT32_MAX || max_slots < 1 || max_slots > INT32_MAX ||
        max_depth < 1 || max_depth > 4096 || max_sets < 1 || max_sets > INT32_MAX)
        return NULL;
    if (!(w = (ref_sim *)calloc(1, sizeof *w)))
        return NULL;
    w->max_blocks = max_blocks, w->max_slots = max_slots, w->max_depth = max_depth;
    w->max_sets = max_sets;
    w->cache.prev = (int32_t *)malloc(nb * sizeof(int32_t));
    w->cache.next = (int32_t *)malloc(nb * sizeof(int32_t));
    w->cache.ready = (double *)malloc(nb * sizeof(double));
    w->cache.set = (int32_t *)malloc(nb * sizeof(int32_t));
    w->cache.head = (int32_t *)malloc(nsets * sizeof(int32_t));
    w->cache.tail = (int32_t *)malloc(nsets * sizeof(int32_t));
    w->cache.count = (int32_t *)malloc(nsets * sizeof(int32_t));
    w->ring = 1;
    while (w->ring < max_depth)
        w->ring *= 2;
    w->cta = (int64_t *)malloc(ns * sizeof *w->cta);
    w->j = (int32_t *)malloc(ns * sizeof *w->j);
    w->sm = (int32_t *)malloc(ns * sizeof *w->sm);
    w->kind = (uint8_t *)malloc(ns);
    w->ovh = (double *)malloc(ns * sizeof *w->ovh);
    w->arr = (double *)malloc(ns * (size_t)w->ring * sizeof *w->arr);
    w->sm_free = (double *)malloc(ns * sizeof *w->sm_free);
    w->port_free = (double *)malloc(ns * sizeof *w->port_free);
    w->tx_port = (double *)malloc(ns * sizeof *w->tx_port);
    /* Eight ref_buckets per slot (sim_scan.c chooses the width). */
    w->max_buckets = 64;
    while (w->max_buckets < 8 * max_slots)
        w->max_buckets *= 2;
    w->queue.head = (int32_t *)malloc((size_t)w->max_buckets * sizeof *w->queue.head);
    w->queue.bits = (uint64_t *)malloc((size_t)(w->max_buckets / 64) * sizeof *w->queue.bits);
    w->queue.next = (int32_t *)malloc(ns * sizeof *w->queue.next);
    w->queue.t = (double *)malloc(ns * sizeof *w->queue.t);
    if (!w->cache.prev || !w->cache.next || !w->cache.ready || !w->cache.set || !w->cache.head ||
        !w->cache.tail || !w->cache.count || !w->cta || !w->j || !w->sm || !w->kind || !w->ovh ||
        !w->arr || !w->sm_free || !w->port_free || !w->tx_port || !w->queue.head || !w->queue.bits ||
        !w->queue.next || !w->queue.t) {
        ref_sim_free(w);
        return NULL;
    }
    return w;
}

static int64_t ref_slots_of(const pascal_sim_config *c)
{
    return c->sms * c->occupancy;
}

/* Sets of the cache: one for a fully associative cache, C / A otherwise. */
static int64_t ref_sets_of(const pascal_sim_config *c)
{
    return c->assoc > 0 ? c->C / c->assoc : 1;
}

static int ref_sim_fit(ref_sim **ws, const pascal_sim_config *cfg)
{
    ref_sim *w = *ws;
    int64_t nb = cfg->N, ns = ref_slots_of(cfg), nd = cfg->depth > 0 ? cfg->depth : 1;
    int64_t nc = ref_sets_of(cfg);
    if (w && nb <= w->max_blocks && ns <= w->max_slots && nd <= w->max_depth && nc <= w->max_sets)
        return 0;
    if (w) {
        nb = nb > w->max_blocks ? nb : w->max_blocks;
        ns = ns > w->max_slots ? ns : w->max_slots;
        nd = nd > w->max_depth ? nd : w->max_depth;
        nc = nc > w->max_sets ? nc : w->max_sets;
    }
    ref_sim_free(w);
    *ws = ref_sim_create(nb, ns, nd, nc);
    return *ws ? 0 : -1;
}

static void ref_cache_reset(ref_cache *c, int64_t nblocks, int64_t S, int64_t A, uint64_t seed)
{
    c->nblocks = nblocks;
    c->S = S;
    c->A = A;
    for (int64_t b = 0; b < nblocks; b++) {
        c->prev[b] = REF_ABSENT;
        c->next[b] = -1;
        c->ready[b] = 0;
    }
    if (S > 1)
        for (int64_t b = 0; b < nblocks; b++)
            c->set[b] = (int32_t)(pascal_rng_u64(seed, REF_SET_KEY, (uint64_t)b) % (uint64_t)S);
    for (int64_t s = 0; s < S; s++)
        c->head[s] = c->tail[s] = -1, c->count[s] = 0;
}

static int ref_finite_nonneg(double v)
{
    return isfinite(v) && v >= 0;
}

static int ref_timing_ok(const pascal_sim_timing *t)
{
    return ref_finite_nonneg(t->hit_ns) && t->l2_bytes_per_ns > 0 && t->sm_bytes_per_ns > 0 &&
           ref_finite_nonneg(t->sm_spread) && t->sm_spread <= 1 && ref_finite_nonneg(t->dram_ns) &&
           t->dram_bytes_per_ns > 0 && ref_finite_nonneg(t->consume_ns) &&
           ref_finite_nonneg(t->loop_ns) && ref_finite_nonneg(t->wmma_ns) &&
           ref_finite_nonneg(t->wmma_sm_ns) && ref_finite_nonneg(t->launch_ns) &&
           ref_finite_nonneg(t->barrier_ns) && ref_finite_nonneg(t->jitter_ns);
}

static int ref_check(const ref_sim *w, const pascal_sim_timing *tm, const pascal_sim_config *c)
{
    int64_t M;
    if (!tm || !c || !ref_timing_ok(tm) || c->sms < 1 || c->occupancy < 1 || c->N < 1 ||
        c->N > INT32_MAX || c->C < 1 || c->assoc < 0 || c->compute < 0 || c->compute > (1 << 30) ||
        !(c->block_bytes > 0) || !isfinite(c->block_bytes) ||
        (c->path != PASCAL_SIM_SYNC && c->path != PASCAL_SIM_TMA) ||
        (c->path == PASCAL_SIM_TMA && c->depth < 1) ||
        (c->assoc > 0 && c->C % c->assoc != 0) || c->sms > INT32_MAX / c->occupancy)
        return PASCAL_SIM_EINVAL;
    M = ref_slots_of(c);
    if (c->barrier) {
        if (!c->phases)
            return PASCAL_SIM_EINVAL;
        for (int64_t m = 0; m < M; m++)
            if (c->phases[m] < 0 || c->phases[m] >= c->N)
                return PASCAL_SIM_EINVAL;
    } else if (!(c->W > 0) || !isfinite(c->W) || c->W * (double)M > 4.0e15 ||
               llround(c->W * (double)M) < 1) {
        return PASCAL_SIM_EINVAL;
    }
    if ((c->req_max > 0 && (!c->req_block || !c->req_outcome)) ||
        (c->traj_max > 0 && (c->traj_every < 1 || !c->traj_t || !c->traj_rounds || !c->traj_pos)) ||
        (c->K_wave && c->max_waves < 0))
        return PASCAL_SIM_EINVAL;
    if (c->slot_extra_ns)
        for (int64_t m = 0; m < M; m++)
            if (!ref_finite_nonneg(c->slot_extra_ns[m]))
                return PASCAL_SIM_EINVAL;
    if (!w || c->N > w->max_blocks || M > w->max_slots || ref_sets_of(c) > w->max_sets ||
        (c->path == PASCAL_SIM_TMA && c->depth > w->max_depth))
        return PASCAL_SIM_ESIZE;
    return PASCAL_SIM_OK;
}

static void ref_setup(ref_sim *w, const pascal_sim_timing *tm, const pascal_sim_config *c)
{
    ref_cache_reset(&w->cache, c->N, ref_sets_of(c), c->assoc > 0 ? c->assoc : c->C, c->seed);
    w->mem.l2_free = w->mem.dram_free = 0;
    w->mem.tx_l2 = c->block_bytes / tm->l2_bytes_per_ns;
    w->mem.tx_dram = c->block_bytes / tm->dram_bytes_per_ns;
    for (int64_t s = 0; s < c->sms; s++) {
        double u = pascal_rng_uniform(c->seed, REF_SM_KEY, (uint64_t)s);
        w->sm_free[s] = w->port_free[s] = 0;
        w->tx_port[s] = c->block_bytes / (tm->sm_bytes_per_ns * (1 + tm->sm_spread * (u - 0.5)));
    }
}

static int ref_sim_run(ref_sim *w, const pascal_sim_timing *tm, const pascal_sim_config *cfg,
                   pascal_sim_result *out)
{
    int rc = ref_check(w, tm, cfg);
    memset(out, 0, sizeof *out);
    out->K_H = out->K_steady = out->ns_per_round = out->first_wave_ns_per_round = NAN;
    if (rc != PASCAL_SIM_OK)
        return rc;
    ref_setup(w, tm, cfg);
    return cfg->barrier ? ref_barrier_scan(w, tm, cfg, out) : ref_open_scan(w, tm, cfg, out);
}
