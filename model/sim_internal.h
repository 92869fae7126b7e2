/* Internals of the progress simulator (model/sim.h), shared by its files:
 * the cache and the service layer (here), the workspace (sim.c), the event
 * queue (sim_queue.c), the open scan (sim_scan.c) and the barrier scan
 * (sim_barrier.c).  Not part of the public interface. */
#ifndef PASCAL_MODEL_SIM_INTERNAL_H
#define PASCAL_MODEL_SIM_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "model/sim.h"

#define SIM_ABSENT (-2) /* prev of a block that is not in the cache */

/* Outcome of a cache access. */
enum { SIM_HIT = 0, SIM_MERGE = 1, SIM_MISS = 2 };

/* A block's entry: its links in its set's recency list and its fill time,
 * side by side so that an access touches one line for the block itself. */
typedef struct sim_line {
    int32_t prev, next;     /* more / less recently used block, -1: none;
                               prev == SIM_ABSENT when not cached */
    double ready;           /* when its fill completes, ns */
} sim_line;

/* LRU over global block ids: one intrusive doubly linked list per set,
 * threaded through the per-block entries, so an access is O(1) with no
 * hashing.  head[s] is the most recently used block of set s, tail[s] the
 * least. */
typedef struct sim_cache {
    int64_t nblocks;        /* ids in use: [0, nblocks) */
    int64_t S, A;           /* sets, ways */
    sim_line *line;         /* per block */
    int32_t *set;           /* per block: its set (used when S > 1) */
    int32_t *head, *tail, *count; /* per set */
} sim_cache;

/* An event's place in the order: its time, then its slot, as one 128-bit
 * number: the time's bits above, id = slot << 32 | index (the slot's place
 * in the per-slot arrays) below.  Event times are sums of terms >= 0
 * starting from +0 (a -0 term, which the checks admit, added to them gives
 * +0), so never negative nor -0, and the bits of such doubles and of
 * +INFINITY order as their values: keys compare as (time, slot) in one
 * unsigned comparison. */
typedef unsigned __int128 sim_key;

static inline sim_key sim_key_make(double t, int32_t slot, int64_t index)
{
    uint64_t bits;
    memcpy(&bits, &t, sizeof bits);
    return (sim_key)bits << 64 | (uint64_t)slot << 32 | (uint64_t)index;
}

static inline double sim_key_time(sim_key k)
{
    uint64_t bits = (uint64_t)(k >> 64);
    double t;
    memcpy(&t, &bits, sizeof t);
    return t;
}

static inline int64_t sim_key_index(sim_key k)
{
    return (int64_t)(uint32_t)k;
}

/* The event queue: the pending events that touch shared state (START,
 * ISSUE, REFILL; at most one per slot), sorted, earliest first, in
 * buf[h .. h + n).  A slot's next event usually comes after most others',
 * so it is placed by a short walk from the back; the walk gives way to a
 * binary search when it runs long (sim_queue.c).  Events leave in (time,
 * slot) order, as from a heap over the slots. */
typedef struct sim_queue {
    sim_key *buf;
    int64_t h, n, cap;      /* first entry, entries, capacity of buf */
} sim_queue;

#define SIM_QUEUE_WALK 8    /* entries walked from the back before searching */

void sim_queue_reset(sim_queue *q);
/* Moves the entries to the start of buf (when they reach its end). */
void sim_queue_compact(sim_queue *q);
/* Places k in the hole at `hole` left by the walk, when k belongs before
 * entry hole - 1: by binary search over the entries before (sim_queue.c). */
void sim_queue_insert_far(sim_queue *q, int64_t hole, sim_key k);

/* Adds an event. */
static inline void sim_queue_insert(sim_queue *q, sim_key k)
{
    sim_key *b;
    int64_t pos, stop;
    if (q->h + q->n == q->cap)
        sim_queue_compact(q);
    b = q->buf + q->h;
    pos = q->n;
    stop = pos > SIM_QUEUE_WALK ? pos - SIM_QUEUE_WALK : 0;
    while (pos > 0 && k < b[pos - 1]) {
        if (pos == stop) {
            sim_queue_insert_far(q, pos, k);
            return;
        }
        b[pos] = b[pos - 1];
        pos--;
    }
    b[pos] = k;
    q->n++;
}

/* Takes the earliest event (n > 0). */
static inline sim_key sim_queue_pop(sim_queue *q)
{
    q->n--;
    return q->buf[q->h++];
}

/* The FCFS servers of the memory system. */
typedef struct sim_mem {
    double l2_free, dram_free;  /* when each server is next idle, ns (one L2) */
    double tx_l2, tx_dram;      /* service time of one block, ns (tx_l2: of a slice) */
    int fine;                   /* any of the finer mechanisms is on (slices,
                                   in-flight limit, noise): sim_serve_fine */
    int64_t slices;             /* L2 slices (1: the one server above) */
    int64_t chunks;             /* chunks per block on the slices */
    int64_t inflight;           /* requests an SM may have in flight (0: no limit) */
    double noise;               /* service_noise */
    uint64_t stream, draws;     /* the noise's stream (from the seed); draws so far */
    double slice_free[PASCAL_SIM_MAX_SLICES]; /* per slice: next idle, ns */
    double slice_lat[PASCAL_SIM_MAX_SLICES];  /* per slice: latency added, ns */
    double far[PASCAL_SIM_MAX_SLICES];        /* a block starting on slice z: its
                                                 chunks' largest slice_lat, ns */
} sim_mem;

/* An SM's servers. */
typedef struct sim_smx {
    double issue_free;      /* issue / tensor server: next idle, ns */
    double port_free;       /* port from the L2: next idle, ns */
    double tx_port;         /* port time of one block, ns */
    double hit_ns;          /* its hit latency, ns */
} sim_smx;

/* An SM's requests in flight, under an in-flight limit (apart from sim_smx,
 * which the loop without the finer mechanisms keeps small). */
typedef struct sim_fly {
    int64_t busy;           /* requests in flight in the heap below */
    double land[PASCAL_SIM_MAX_INFLIGHT]; /* min-heap of their data times, ns */
} sim_fly;

/* A slot's state.  Slots are stored SM by SM: index i = m o + k holds slot
 * m + k sms (the k-th CTA place of SM m), so an SM's CTAs sit side by side. */
typedef struct sim_slot {
    double t;               /* its pending event, ns; INFINITY: none */
    double ovh;             /* its per-iteration overhead, ns */
    int64_t cta;            /* CTA running in the slot, -1: none */
    int64_t succ;           /* the tile it runs next (pascal_sim_work.chain), -1: none */
    int32_t j;              /* block the CTA waits for (or issues) next */
    int32_t n;              /* the CTA's steps (N, or its program's) */
    int32_t sm;             /* its SM, m */
    int32_t slot;           /* its number, m + k sms */
    uint8_t kind;           /* its pending event */
} sim_slot;

struct pascal_sim {
    int64_t max_blocks, max_slots, max_depth, max_sets;
    sim_cache cache;
    sim_mem mem;
    sim_slot *slots;        /* per slot, by index */
    double *arr;            /* ring of arrival times per slot index, by block
                               mod ring (a power of two >= depth) */
    int64_t ring;
    sim_smx *smx;           /* per SM (at most max_slots SMs) */
    sim_fly *fly;           /* per SM */
    sim_queue queue;
};

/* Empties the cache and sets its geometry (S sets of A ways) for ids
 * [0, nblocks); the set index of block b is drawn from (seed, b) when S > 1. */
void sim_cache_reset(sim_cache *c, int64_t nblocks, int64_t S, int64_t A, uint64_t seed);

/* One request to block b at time now: SIM_HIT, SIM_MERGE (allocated, fill
 * not complete) or SIM_MISS (allocated now as most recently used; the caller
 * sets its ready time).  The block becomes most recently used in every case. */
static inline int sim_cache_access(sim_cache *c, int32_t b, double now)
{
    sim_line *L = c->line;
    int32_t s = c->S > 1 ? c->set[b] : 0;
    int32_t p = L[b].prev, h = c->head[s];
    if (p != SIM_ABSENT) {
        if (h != b) { /* unlink, then push in front */
            int32_t n = L[b].next;
            L[p].next = n;
            if (n >= 0)
                L[n].prev = p;
            else
                c->tail[s] = p;
            L[b].prev = -1;
            L[b].next = h;
            L[h].prev = b;
            c->head[s] = b;
        }
        return L[b].ready > now ? SIM_MERGE : SIM_HIT;
    }
    if (c->count[s] == c->A) { /* evict the least recently used */
        int32_t v = c->tail[s], q = L[v].prev;
        L[v].prev = SIM_ABSENT;
        c->tail[s] = q;
        if (q >= 0)
            L[q].next = -1;
        else
            c->head[s] = -1;
        c->count[s]--;
        h = c->head[s];
    }
    L[b].prev = -1;
    L[b].next = h;
    if (h >= 0)
        L[h].prev = b;
    else
        c->tail[s] = b;
    c->head[s] = b;
    c->count[s]++;
    return SIM_MISS;
}

/* sim_serve with slices, an in-flight limit or noise (sim.c). */
double sim_serve_fine(pascal_sim *w, const pascal_sim_timing *tm, int32_t b, int64_t sm, double t,
                      int *outcome);

/* Serves one request for block b issued at t by a CTA on SM sm; returns when
 * its data reaches the CTA (before jitter) and sets *outcome. */
static inline double sim_serve(pascal_sim *w, const pascal_sim_timing *tm, int32_t b,
                               int64_t sm, double t, int *outcome)
{
    sim_mem *m = &w->mem;
    sim_smx *x = &w->smx[sm];
    if (m->fine)
        return sim_serve_fine(w, tm, b, sm, t, outcome);
    int o = sim_cache_access(&w->cache, b, t);
    double l2 = t > m->l2_free ? t : m->l2_free, p, data, tp = x->tx_port;
    m->l2_free = l2 + m->tx_l2;
    p = l2 + m->tx_l2 > x->port_free ? l2 + m->tx_l2 : x->port_free;
    x->port_free = p + tp;
    data = p + tp;
    if (o == SIM_MISS) {
        double d = t > m->dram_free ? t : m->dram_free;
        m->dram_free = d + m->tx_dram;
        w->cache.line[b].ready = d + m->tx_dram + tm->dram_ns;
    }
    if (o != SIM_HIT && w->cache.line[b].ready + tp > data)
        data = w->cache.line[b].ready + tp;
    *outcome = o;
    return data + x->hit_ns;
}

/* A job of `work` ns on SM sm's shared issue/tensor server submitted at t,
 * with latency floor `lat`: when it ends. */
static inline double sim_sm_job(pascal_sim *w, int64_t sm, double t, double work, double lat)
{
    sim_smx *x = &w->smx[sm];
    double s = t > x->issue_free ? t : x->issue_free;
    double end = s + work;
    x->issue_free = end;
    return end > t + lat ? end : t + lat;
}

/* Validates cfg and tm against the workspace; PASCAL_SIM_OK or an error. */
int sim_check(const pascal_sim *w, const pascal_sim_timing *tm, const pascal_sim_config *cfg);
/* Resets cache and servers for a run of cfg. */
void sim_setup(pascal_sim *w, const pascal_sim_timing *tm, const pascal_sim_config *cfg);
/* The two scans (sim_scan.c, sim_barrier.c). */
int sim_open_scan(pascal_sim *w, const pascal_sim_timing *tm, const pascal_sim_config *cfg,
                  pascal_sim_result *out);
int sim_barrier_scan(pascal_sim *w, const pascal_sim_timing *tm, const pascal_sim_config *cfg,
                     pascal_sim_result *out);
/* The barrier scan over a work table (several streams, waves of M CTAs). */
int sim_barrier_work(pascal_sim *w, const pascal_sim_timing *tm, const pascal_sim_config *cfg,
                     pascal_sim_result *out);

#endif
