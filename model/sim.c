/* The progress simulator's workspace, checks and entry point (model/sim.h),
 * and the cache geometry.  The scans themselves are in sim_scan.c (open,
 * Algorithm 2) and sim_barrier.c (Algorithm 1). */
#include "model/sim.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/phases.h"
#include "model/sim_internal.h"

/* Key of the set-index draw: the one pascal_setlru uses for its random
 * mapping, so both caches place every block in the same set. */
#define SET_KEY 0x736574ULL
/* Key of the per-SM port draws. */
#define SM_KEY 0x736d706f7274ULL
/* Keys of the finer mechanisms' draws: per-SM and per-slice latency, the
 * block-to-slice hash (seed 0: a property of the device, the same in every
 * run) and the service noise. */
#define HIT_KEY 0x686974736dULL
#define SLICE_KEY 0x736c6174ULL
#define HASH_KEY 0x736c68617368ULL /* mixed into the slice hash */
#define NOISE_KEY 0x6e6f697365ULL

pascal_sim_config pascal_sim_default_config(void)
{
    pascal_sim_config c;
    memset(&c, 0, sizeof c);
    c.sms = 1;
    c.occupancy = 1;
    c.path = PASCAL_SIM_SYNC;
    c.depth = 1;
    c.N = 1;
    c.W = 1;
    c.C = 1;
    c.block_bytes = 16384;
    c.seed = 1;
    return c;
}

void pascal_sim_free(pascal_sim *w)
{
    if (!w)
        return;
    free(w->cache.line), free(w->cache.set);
    free(w->cache.head), free(w->cache.tail), free(w->cache.count);
    free(w->slots), free(w->arr), free(w->smx), free(w->fly), free(w->queue.buf);
    free(w);
}

pascal_sim *pascal_sim_create(int64_t max_blocks, int64_t max_slots, int64_t max_depth,
                              int64_t max_sets)
{
    pascal_sim *w;
    size_t nb = (size_t)max_blocks, ns = (size_t)max_slots;
    size_t nsets = (size_t)max_sets;
    if (max_blocks < 1 || max_blocks > INT32_MAX || max_slots < 1 || max_slots > INT32_MAX ||
        max_depth < 1 || max_depth > 4096 || max_sets < 1 || max_sets > INT32_MAX)
        return NULL;
    if (!(w = calloc(1, sizeof *w)))
        return NULL;
    w->max_blocks = max_blocks, w->max_slots = max_slots, w->max_depth = max_depth;
    w->max_sets = max_sets;
    w->cache.line = malloc(nb * sizeof *w->cache.line);
    w->cache.set = malloc(nb * sizeof(int32_t));
    w->cache.head = malloc(nsets * sizeof(int32_t));
    w->cache.tail = malloc(nsets * sizeof(int32_t));
    w->cache.count = malloc(nsets * sizeof(int32_t));
    w->ring = 1;
    while (w->ring < max_depth)
        w->ring *= 2;
    w->slots = malloc(ns * sizeof *w->slots);
    w->arr = malloc(ns * (size_t)w->ring * sizeof *w->arr);
    w->smx = malloc(ns * sizeof *w->smx);
    w->fly = malloc(ns * sizeof *w->fly);
    /* The queue: at most one entry per slot, in a buffer eight times longer,
     * moved back to its start when its end is reached. */
    w->queue.cap = 8 * (int64_t)ns;
    w->queue.buf = malloc(8 * ns * sizeof *w->queue.buf);
    if (!w->cache.line || !w->cache.set || !w->cache.head || !w->cache.tail ||
        !w->cache.count || !w->slots || !w->arr || !w->smx || !w->fly || !w->queue.buf) {
        pascal_sim_free(w);
        return NULL;
    }
    return w;
}

static int64_t slots_of(const pascal_sim_config *c)
{
    return c->sms * c->occupancy;
}

/* Sets of the cache: one for a fully associative cache, C / A otherwise. */
static int64_t sets_of(const pascal_sim_config *c)
{
    return c->assoc > 0 ? c->C / c->assoc : 1;
}

/* Cache ids in use: the one ring's N, or the work table's. */
static int64_t blocks_of(const pascal_sim_config *c)
{
    return c->work ? c->work->blocks : c->N;
}

int pascal_sim_fit(pascal_sim **ws, const pascal_sim_config *cfg)
{
    pascal_sim *w = *ws;
    int64_t nb = blocks_of(cfg), ns = slots_of(cfg), nd = cfg->depth > 0 ? cfg->depth : 1;
    int64_t nc = sets_of(cfg);
    if (w && nb <= w->max_blocks && ns <= w->max_slots && nd <= w->max_depth && nc <= w->max_sets)
        return 0;
    if (w) {
        nb = nb > w->max_blocks ? nb : w->max_blocks;
        ns = ns > w->max_slots ? ns : w->max_slots;
        nd = nd > w->max_depth ? nd : w->max_depth;
        nc = nc > w->max_sets ? nc : w->max_sets;
    }
    pascal_sim_free(w);
    *ws = pascal_sim_create(nb, ns, nd, nc);
    return *ws ? 0 : -1;
}

void sim_cache_reset(sim_cache *c, int64_t nblocks, int64_t S, int64_t A, uint64_t seed)
{
    c->nblocks = nblocks;
    c->S = S;
    c->A = A;
    for (int64_t b = 0; b < nblocks; b++) {
        c->line[b].prev = SIM_ABSENT;
        c->line[b].next = -1;
        c->line[b].ready = 0;
    }
    if (S > 1)
        for (int64_t b = 0; b < nblocks; b++)
            c->set[b] = (int32_t)(pascal_rng_u64(seed, SET_KEY, (uint64_t)b) % (uint64_t)S);
    for (int64_t s = 0; s < S; s++)
        c->head[s] = c->tail[s] = -1, c->count[s] = 0;
}

static int finite_nonneg(double v)
{
    return isfinite(v) && v >= 0;
}

static int timing_ok(const pascal_sim_timing *t)
{
    return finite_nonneg(t->hit_ns) && t->l2_bytes_per_ns > 0 && t->sm_bytes_per_ns > 0 &&
           finite_nonneg(t->sm_spread) && t->sm_spread <= 1 && finite_nonneg(t->dram_ns) &&
           t->dram_bytes_per_ns > 0 && finite_nonneg(t->consume_ns) &&
           finite_nonneg(t->loop_ns) && finite_nonneg(t->wmma_ns) &&
           finite_nonneg(t->wmma_sm_ns) && finite_nonneg(t->launch_ns) &&
           finite_nonneg(t->barrier_ns) && finite_nonneg(t->jitter_ns) &&
           finite_nonneg(t->hit_sm_spread) && t->hit_sm_spread <= 1 &&
           finite_nonneg(t->l2_slices) && t->l2_slices <= PASCAL_SIM_MAX_SLICES &&
           t->l2_slices == floor(t->l2_slices) && finite_nonneg(t->l2_slice_bytes) &&
           finite_nonneg(t->hit_slice_spread) &&
           t->hit_slice_spread <= 1 && finite_nonneg(t->sm_inflight_bytes) &&
           finite_nonneg(t->service_noise) && t->service_noise <= 1 &&
           (t->sm_issue_oldest == 0 || t->sm_issue_oldest == 1);
}

/* Chunks of a block of `bytes` on the slices. */
static double chunks_of(const pascal_sim_timing *tm, double bytes)
{
    return tm->l2_slices >= 2 && tm->l2_slice_bytes > 0 && bytes > tm->l2_slice_bytes
               ? ceil(bytes / tm->l2_slice_bytes)
               : 1;
}

/* Requests an SM may have in flight under tm for blocks of `bytes` (0: no
 * limit). */
static double inflight_of(const pascal_sim_timing *tm, double bytes)
{
    double n = floor(tm->sm_inflight_bytes / bytes);
    return tm->sm_inflight_bytes > 0 ? (n > 1 ? n : 1) : 0;
}

/* A work table (model/sim.h): every request's stream within [0, blocks). */
static int work_ok(const pascal_sim_work *k)
{
    if (k->ctas < 1 || k->units < 1 || k->units > PASCAL_SIM_MAX_UNITS ||
        k->ctas > INT64_MAX / k->units || k->blocks < 1 || k->blocks > INT32_MAX || !k->base ||
        !k->len || !k->phase)
        return 0;
    for (int64_t i = 0; i < k->ctas * k->units; i++)
        if (k->base[i] < 0 || k->len[i] < 1 || k->len[i] > k->blocks - k->base[i] ||
            k->phase[i] < 0 || k->phase[i] >= k->len[i] ||
            (k->dir && k->dir[i] != 1 && k->dir[i] != -1))
            return 0;
    return 1;
}

/* A program's step counts within 0 .. N. */
static int steps_ok(const pascal_sim_work *k, int64_t N)
{
    for (int64_t c = 0; k->steps && c < k->ctas; c++)
        if (k->steps[c] < 0 || k->steps[c] > N)
            return 0;
    return 1;
}

int sim_check(const pascal_sim *w, const pascal_sim_timing *tm, const pascal_sim_config *c)
{
    int64_t M;
    if (!tm || !c || !timing_ok(tm) || c->sms < 1 || c->occupancy < 1 || c->N < 1 ||
        c->N > INT32_MAX || c->C < 1 || c->assoc < 0 || c->compute < 0 || c->compute > (1 << 30) ||
        !(c->block_bytes > 0) || !isfinite(c->block_bytes) ||
        (c->path != PASCAL_SIM_SYNC && c->path != PASCAL_SIM_TMA) ||
        (c->path == PASCAL_SIM_TMA && c->depth < 1) ||
        (c->assoc > 0 && c->C % c->assoc != 0) || c->sms > INT32_MAX / c->occupancy ||
        inflight_of(tm, c->block_bytes) > PASCAL_SIM_MAX_INFLIGHT ||
        chunks_of(tm, c->block_bytes) > PASCAL_SIM_MAX_CHUNKS)
        return PASCAL_SIM_EINVAL;
    M = slots_of(c);
    if (c->work) {
        /* a program runs in the open scan only */
        if (!work_ok(c->work) || !steps_ok(c->work, c->N) ||
            (c->barrier && (c->work->steps || c->work->dir)))
            return PASCAL_SIM_EINVAL;
    } else if (c->barrier) {
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
            if (!finite_nonneg(c->slot_extra_ns[m]))
                return PASCAL_SIM_EINVAL;
    if (!w || blocks_of(c) > w->max_blocks || M > w->max_slots || sets_of(c) > w->max_sets ||
        (c->path == PASCAL_SIM_TMA && c->depth > w->max_depth))
        return PASCAL_SIM_ESIZE;
    return PASCAL_SIM_OK;
}

void sim_setup(pascal_sim *w, const pascal_sim_timing *tm, const pascal_sim_config *c)
{
    sim_cache_reset(&w->cache, blocks_of(c), sets_of(c), c->assoc > 0 ? c->assoc : c->C, c->seed);
    sim_mem *m = &w->mem;
    m->slices = tm->l2_slices >= 2 ? (int64_t)tm->l2_slices : 1;
    m->chunks = (int64_t)chunks_of(tm, c->block_bytes);
    m->inflight = (int64_t)inflight_of(tm, c->block_bytes);
    m->noise = tm->service_noise;
    m->stream = pascal_rng_u64(c->seed, NOISE_KEY, 0);
    m->draws = 0;
    m->fine = m->slices > 1 || m->inflight > 0 || m->noise > 0;
    m->l2_free = m->dram_free = 0;
    m->tx_l2 = c->block_bytes / (double)m->chunks / (tm->l2_bytes_per_ns / (double)m->slices);
    m->tx_dram = c->block_bytes / tm->dram_bytes_per_ns;
    for (int64_t z = 0; z < m->slices; z++) {
        double v = pascal_rng_uniform(c->seed, SLICE_KEY, (uint64_t)z);
        m->slice_free[z] = 0;
        m->slice_lat[z] = m->slices > 1 ? tm->hit_ns * tm->hit_slice_spread * (v - 0.5) : 0;
    }
    /* A block's farthest chunk, by its first slice. */
    for (int64_t z = 0; z < m->slices; z++) {
        m->far[z] = -INFINITY;
        for (int64_t k = 0; k < m->chunks; k++)
            if (m->slice_lat[(z + k) % m->slices] > m->far[z])
                m->far[z] = m->slice_lat[(z + k) % m->slices];
    }
    for (int64_t s = 0; s < c->sms; s++) {
        double u = pascal_rng_uniform(c->seed, SM_KEY, (uint64_t)s);
        double v = pascal_rng_uniform(c->seed, HIT_KEY, (uint64_t)s);
        w->smx[s].issue_free = w->smx[s].port_free = 0;
        w->smx[s].tx_port =
            c->block_bytes / (tm->sm_bytes_per_ns * (1 + tm->sm_spread * (u - 0.5)));
        w->smx[s].hit_ns = tm->hit_ns * (1 + tm->hit_sm_spread * (v - 0.5));
        w->fly[s].busy = 0;
    }
}

/* The in-flight heap of an SM: the root is the earliest data time. */
static void heap_down(double *h, int64_t n, int64_t i)
{
    double v = h[i];
    for (;;) {
        int64_t k = 2 * i + 1;
        if (k >= n)
            break;
        if (k + 1 < n && h[k + 1] < h[k])
            k++;
        if (!(h[k] < v))
            break;
        h[i] = h[k];
        i = k;
    }
    h[i] = v;
}

static void heap_push(double *h, int64_t n, double v)
{
    int64_t i = n;
    while (i > 0 && v < h[(i - 1) / 2]) {
        h[i] = h[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h[i] = v;
}

/* splitmix64's finalizer. */
static inline uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* The first slice of block b: a fixed hash of b onto [0, slices) (the high
 * half of a 32 x 32-bit product, no division).  Chunk k is on slice
 * first + k mod slices: consecutive chunks on consecutive slices, as
 * interleaved addresses are. */
static inline int64_t first_slice(uint64_t b, int64_t slices)
{
    uint64_t z = mix64(b + HASH_KEY);
    return (int64_t)(((z >> 32) * (uint64_t)slices) >> 32);
}

/* sim_serve with the finer mechanisms (model/sim.h, docs/simulate.md 3.1).
 * The cache decides the request at its issue time t, as without them; its
 * service starts at t, or when the SM's earliest request in flight lands if
 * the SM has its limit in flight; each chunk of its block takes its slice of
 * the L2 (all chunks at once, each slice first come first served), then the
 * block takes the SM's port, and a miss the DRAM, each for its service time
 * (scaled by the noise); the data lands after the SM's latency and the
 * farthest of its chunks' slices' latencies. */
double sim_serve_fine(pascal_sim *w, const pascal_sim_timing *tm, int32_t b, int64_t sm, double t,
                      int *outcome)
{
    sim_mem *m = &w->mem;
    sim_smx *x = &w->smx[sm];
    sim_fly *y = &w->fly[sm];
    double tx_l2 = m->tx_l2, tx_dram = m->tx_dram, tp = x->tx_port, ts = t, l2_done = 0, p, data;
    double far = 0, lat;
    int o = sim_cache_access(&w->cache, b, t);
    int full = m->inflight > 0 && y->busy == m->inflight;
    if (full && y->land[0] > ts)
        ts = y->land[0];
    if (m->noise > 0) {
        /* one draw per request: 26 bits for the L2's factor, 26 for the DRAM's */
        uint64_t u = mix64(m->stream + ++m->draws * 0x9e3779b97f4a7c15ULL);
        tx_l2 *= 1 + m->noise * ((double)(u >> 38) * 0x1.0p-25 - 1);
        tx_dram *= 1 + m->noise * ((double)((u >> 12) & 0x3ffffff) * 0x1.0p-25 - 1);
    }
    if (m->slices > 1) {
        int64_t z = first_slice((uint64_t)b, m->slices);
        far = m->far[z];
        /* the chunks' slices: z .. end, then from 0 when they wrap */
        for (int64_t k = 0, n = m->chunks; n > 0; z = 0) {
            int64_t run = z + n <= m->slices ? n : m->slices - z;
            double *f = m->slice_free + z;
            for (k = 0; k < run; k++) {
                double s = f[k] > ts ? f[k] : ts;
                f[k] = s + tx_l2;
                l2_done = s + tx_l2 > l2_done ? s + tx_l2 : l2_done;
            }
            n -= run;
        }
    } else {
        double s = ts > m->l2_free ? ts : m->l2_free;
        m->l2_free = s + tx_l2;
        l2_done = s + tx_l2;
    }
    p = l2_done > x->port_free ? l2_done : x->port_free;
    x->port_free = p + tp;
    data = p + tp;
    if (o == SIM_MISS) {
        double d = ts > m->dram_free ? ts : m->dram_free;
        m->dram_free = d + tx_dram;
        w->cache.line[b].ready = d + tx_dram + tm->dram_ns;
    }
    if (o != SIM_HIT && w->cache.line[b].ready + tp > data)
        data = w->cache.line[b].ready + tp;
    lat = x->hit_ns + far;
    data += lat > 0 ? lat : 0;
    if (m->inflight > 0) {
        if (full) {
            y->land[0] = data;
            heap_down(y->land, y->busy, 0);
        } else {
            heap_push(y->land, y->busy, data);
            y->busy++;
        }
    }
    *outcome = o;
    return data;
}

int pascal_sim_run(pascal_sim *w, const pascal_sim_timing *tm, const pascal_sim_config *cfg,
                   pascal_sim_result *out)
{
    int rc = sim_check(w, tm, cfg);
    memset(out, 0, sizeof *out);
    out->K_H = out->K_steady = out->ns_per_round = out->first_wave_ns_per_round = NAN;
    if (rc != PASCAL_SIM_OK)
        return rc;
    sim_setup(w, tm, cfg);
    if (cfg->barrier)
        return cfg->work ? sim_barrier_work(w, tm, cfg, out) : sim_barrier_scan(w, tm, cfg, out);
    return sim_open_scan(w, tm, cfg, out);
}

static int cmp_i32(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

/* Groups are separated by the cyclic gaps longer than `gap`. */
int64_t pascal_sim_phase_groups(const int32_t *pos, int64_t n, int64_t N, int64_t gap,
                                int32_t *scratch)
{
    int64_t k = 0, groups = 0;
    for (int64_t i = 0; i < n; i++)
        if (pos[i] >= 0)
            scratch[k++] = pos[i];
    if (k == 0)
        return 0;
    qsort(scratch, (size_t)k, sizeof *scratch, cmp_i32);
    for (int64_t i = 0; i + 1 < k; i++)
        groups += scratch[i + 1] - scratch[i] > gap;
    groups += (int64_t)scratch[0] + N - scratch[k - 1] > gap;
    return groups > 0 ? groups : 1;
}
