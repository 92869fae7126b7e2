/* Internals of the progress simulator (model/sim.h), shared by its files:
 * the cache (sim_cache.c), the service layer and the workspace (sim.c), the
 * open scan (sim_scan.c) and the barrier scan (sim_barrier.c).  Not part of
 * the public interface. */
#ifndef PASCAL_MODEL_SIM_INTERNAL_H
#define PASCAL_MODEL_SIM_INTERNAL_H

#include <stdint.h>

#include "model/sim.h"

#define SIM_ABSENT (-2) /* prev[] of a block that is not in the cache */

/* Outcome of a cache access. */
enum { SIM_HIT = 0, SIM_MERGE = 1, SIM_MISS = 2 };

/* LRU over global block ids: one intrusive doubly linked list per set,
 * threaded through per-block arrays, so an access is O(1) with no hashing.
 * head[s] is the most recently used block of set s, tail[s] the least. */
typedef struct sim_cache {
    int64_t nblocks;        /* ids in use: [0, nblocks) */
    int64_t S, A;           /* sets, ways */
    int32_t *prev, *next;   /* per block; prev == SIM_ABSENT when not cached */
    double *ready;          /* per block: when its fill completes, ns */
    int32_t *set;           /* per block: its set (used when S > 1) */
    int32_t *head, *tail, *count; /* per set */
} sim_cache;

/* The event queue: a calendar (bucket) queue over the slots, each slot
 * holding at most one pending event.  Bucket b holds the events with
 * floor(t / width) = b mod nbuckets, in a list sorted by (time, slot); a
 * bitmap marks the buckets that hold any.  Events leave in (time, slot)
 * order, exactly as from a heap, at O(1) cost when the width is near the
 * spacing of events (sim_queue.c). */
typedef struct sim_queue {
    int64_t nb, mask;       /* buckets in use (a power of two >= 64) */
    double width, inv_width;/* ns per bucket */
    int64_t cur;            /* absolute bucket of the last event taken */
    int64_t n;              /* pending events */
    int32_t *head;          /* per bucket: first slot, -1: empty */
    uint64_t *bits;         /* per bucket: holds an event */
    int32_t *next;          /* per slot: the next slot in its bucket */
    double *t;              /* per slot: its pending event's time, INFINITY
                               when it has none */
} sim_queue;

void sim_queue_reset(sim_queue *q, int64_t nb, double width, int64_t slots);
void sim_queue_push(sim_queue *q, int32_t s, double t);
/* The earliest event (by time, then slot): its slot, its time in *t; -1
 * when the queue is empty. */
int32_t sim_queue_pop(sim_queue *q, double *t);

/* The FCFS servers of the memory system. */
typedef struct sim_mem {
    double l2_free, dram_free;  /* when each server is next idle, ns */
    double tx_l2, tx_dram;      /* service time of one block, ns */
} sim_mem;

struct pascal_sim {
    int64_t max_blocks, max_slots, max_depth, max_sets;
    sim_cache cache;
    sim_mem mem;
    /* per slot */
    int64_t *cta;           /* CTA running in the slot, -1: none */
    int32_t *j;             /* block the CTA waits for (or issues) next */
    int32_t *sm;            /* its SM: slot mod sms */
    uint8_t *kind;          /* its pending event */
    double *ovh;            /* its per-iteration overhead, ns */
    double *arr;            /* ring of arrival times per slot, indexed by block
                               mod ring (a power of two >= depth) */
    int64_t ring;
    double *sm_free;        /* per SM (at most max_slots SMs): issue server */
    double *port_free;      /* per SM: port from the L2 */
    double *tx_port;        /* per SM: port time of one block, ns */
    /* event queue: one pending event per active slot */
    sim_queue queue;
    int64_t max_buckets;
};

/* Empties the cache and sets its geometry (S sets of A ways) for ids
 * [0, nblocks); the set index of block b is drawn from (seed, b) when S > 1. */
void sim_cache_reset(sim_cache *c, int64_t nblocks, int64_t S, int64_t A, uint64_t seed);

/* One request to block b at time now: SIM_HIT, SIM_MERGE (allocated, fill
 * not complete) or SIM_MISS (allocated now as most recently used; the caller
 * sets ready[b]).  The block becomes most recently used in every case. */
static inline int sim_cache_access(sim_cache *c, int32_t b, double now)
{
    int32_t s = c->S > 1 ? c->set[b] : 0;
    int32_t p = c->prev[b], h = c->head[s];
    if (p != SIM_ABSENT) {
        if (h != b) { /* unlink, then push in front */
            int32_t n = c->next[b];
            c->next[p] = n;
            if (n >= 0)
                c->prev[n] = p;
            else
                c->tail[s] = p;
            c->prev[b] = -1;
            c->next[b] = h;
            c->prev[h] = b;
            c->head[s] = b;
        }
        return c->ready[b] > now ? SIM_MERGE : SIM_HIT;
    }
    if (c->count[s] == c->A) { /* evict the least recently used */
        int32_t v = c->tail[s], q = c->prev[v];
        c->prev[v] = SIM_ABSENT;
        c->tail[s] = q;
        if (q >= 0)
            c->next[q] = -1;
        else
            c->head[s] = -1;
        c->count[s]--;
        h = c->head[s];
    }
    c->prev[b] = -1;
    c->next[b] = h;
    if (h >= 0)
        c->prev[h] = b;
    else
        c->tail[s] = b;
    c->head[s] = b;
    c->count[s]++;
    return SIM_MISS;
}

/* Serves one request for block b issued at t by a CTA on SM sm; returns when
 * its data reaches the CTA (before jitter) and sets *outcome. */
static inline double sim_serve(pascal_sim *w, const pascal_sim_timing *tm, int32_t b,
                               int64_t sm, double t, int *outcome)
{
    sim_mem *m = &w->mem;
    int o = sim_cache_access(&w->cache, b, t);
    double x = t > m->l2_free ? t : m->l2_free, p, data, tp = w->tx_port[sm];
    m->l2_free = x + m->tx_l2;
    p = x + m->tx_l2 > w->port_free[sm] ? x + m->tx_l2 : w->port_free[sm];
    w->port_free[sm] = p + tp;
    data = p + tp;
    if (o == SIM_MISS) {
        double d = t > m->dram_free ? t : m->dram_free;
        m->dram_free = d + m->tx_dram;
        w->cache.ready[b] = d + m->tx_dram + tm->dram_ns;
    }
    if (o != SIM_HIT && w->cache.ready[b] + tp > data)
        data = w->cache.ready[b] + tp;
    *outcome = o;
    return data + tm->hit_ns;
}

/* A job of `work` ns on SM sm's shared issue/tensor server submitted at t,
 * with latency floor `lat`: when it ends. */
static inline double sim_sm_job(pascal_sim *w, int64_t sm, double t, double work, double lat)
{
    double s = t > w->sm_free[sm] ? t : w->sm_free[sm];
    double end = s + work;
    w->sm_free[sm] = end;
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

#endif
