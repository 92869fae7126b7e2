/* FROZEN REGRESSION ORACLE, not part of the program: the progress
 * simulator's internals (model/sim_internal.h) as they were before the
 * simulator was made faster, every name prefixed with ref_ and every
 * function static, so that tests (and bench/bench_sim.c, as its baseline)
 * can run the old implementation beside the new one and require the same
 * outputs, event for event.  Only names, casts for C++ and `static` differ
 * from the original; do not edit the logic.  See ref_sim.h. */
#ifndef PASCAL_TESTS_REF_SIM_INTERNAL_H
#define PASCAL_TESTS_REF_SIM_INTERNAL_H

#include <stdint.h>

#include "model/sim.h"
#include "model/phases.h"

#define REF_ABSENT (-2) /* prev[] of a block that is not in the cache */

/* Outcome of a cache access. */
enum { REF_HIT = 0, REF_MERGE = 1, REF_MISS = 2 };

typedef struct ref_sim ref_sim;

/* LRU over global block ids: one intrusive doubly linked list per set,
 * threaded through per-block arrays, so an access is O(1) with no hashing.
 * head[s] is the most recently used block of set s, tail[s] the least. */
typedef struct ref_cache {
    int64_t nblocks;        /* ids in use: [0, nblocks) */
    int64_t S, A;           /* sets, ways */
    int32_t *prev, *next;   /* per block; prev == REF_ABSENT when not cached */
    double *ready;          /* per block: when its fill completes, ns */
    int32_t *set;           /* per block: its set (used when S > 1) */
    int32_t *head, *tail, *count; /* per set */
} ref_cache;

/* The event queue: a calendar (bucket) queue over the slots, each slot
 * holding at most one pending event.  Bucket b holds the events with
 * floor(t / width) = b mod nbuckets, in a list sorted by (time, slot); a
 * bitmap marks the ref_buckets that hold any.  Events leave in (time, slot)
 * order, exactly as from a heap, at O(1) cost when the width is near the
 * spacing of events (ref_queue.c). */
typedef struct ref_queue {
    int64_t nb, mask;       /* ref_buckets in use (a power of two >= 64) */
    double width, inv_width;/* ns per bucket */
    int64_t cur;            /* absolute bucket of the last event taken */
    int64_t n;              /* pending events */
    int32_t *head;          /* per bucket: first slot, -1: empty */
    uint64_t *bits;         /* per bucket: holds an event */
    int32_t *next;          /* per slot: the next slot in its bucket */
    double *t;              /* per slot: its pending event's time, INFINITY
                               when it has none */
} ref_queue;

static void ref_queue_reset(ref_queue *q, int64_t nb, double width, int64_t slots);
static void ref_queue_push(ref_queue *q, int32_t s, double t);
/* The earliest event (by time, then slot): its slot, its time in *t; -1
 * when the queue is empty. */
static int32_t ref_queue_pop(ref_queue *q, double *t);

/* The FCFS servers of the memory system. */
typedef struct ref_mem {
    double l2_free, dram_free;  /* when each server is next idle, ns */
    double tx_l2, tx_dram;      /* service time of one block, ns */
} ref_mem;

struct ref_sim {
    int64_t max_blocks, max_slots, max_depth, max_sets;
    ref_cache cache;
    ref_mem mem;
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
    ref_queue queue;
    int64_t max_buckets;
};

/* Empties the cache and sets its geometry (S sets of A ways) for ids
 * [0, nblocks); the set index of block b is drawn from (seed, b) when S > 1. */
static void ref_cache_reset(ref_cache *c, int64_t nblocks, int64_t S, int64_t A, uint64_t seed);

/* One ref_request to block b at time now: REF_HIT, REF_MERGE (allocated, fill
 * not complete) or REF_MISS (allocated now as most recently used; the caller
 * sets ready[b]).  The block becomes most recently used in every case. */
static inline int ref_cache_access(ref_cache *c, int32_t b, double now)
{
    int32_t s = c->S > 1 ? c->set[b] : 0;
    int32_t p = c->prev[b], h = c->head[s];
    if (p != REF_ABSENT) {
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
        return c->ready[b] > now ? REF_MERGE : REF_HIT;
    }
    if (c->count[s] == c->A) { /* evict the least recently used */
        int32_t v = c->tail[s], q = c->prev[v];
        c->prev[v] = REF_ABSENT;
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
    return REF_MISS;
}

/* Serves one ref_request for block b issued at t by a CTA on SM sm; returns when
 * its data reaches the CTA (before jitter) and sets *outcome. */
static inline double ref_serve(ref_sim *w, const pascal_sim_timing *tm, int32_t b,
                               int64_t sm, double t, int *outcome)
{
    ref_mem *m = &w->mem;
    int o = ref_cache_access(&w->cache, b, t);
    double x = t > m->l2_free ? t : m->l2_free, p, data, tp = w->tx_port[sm];
    m->l2_free = x + m->tx_l2;
    p = x + m->tx_l2 > w->port_free[sm] ? x + m->tx_l2 : w->port_free[sm];
    w->port_free[sm] = p + tp;
    data = p + tp;
    if (o == REF_MISS) {
        double d = t > m->dram_free ? t : m->dram_free;
        m->dram_free = d + m->tx_dram;
        w->cache.ready[b] = d + m->tx_dram + tm->dram_ns;
    }
    if (o != REF_HIT && w->cache.ready[b] + tp > data)
        data = w->cache.ready[b] + tp;
    *outcome = o;
    return data + tm->hit_ns;
}

/* A job of `work` ns on SM sm's shared issue/tensor server submitted at t,
 * with latency floor `lat`: when it ends. */
static inline double ref_sm_job(ref_sim *w, int64_t sm, double t, double work, double lat)
{
    double s = t > w->sm_free[sm] ? t : w->sm_free[sm];
    double end = s + work;
    w->sm_free[sm] = end;
    return end > t + lat ? end : t + lat;
}

/* Validates cfg and tm against the workspace; PASCAL_SIM_OK or an error. */
static int ref_check(const ref_sim *w, const pascal_sim_timing *tm, const pascal_sim_config *cfg);
/* Resets cache and servers for a run of cfg. */
static void ref_setup(ref_sim *w, const pascal_sim_timing *tm, const pascal_sim_config *cfg);
/* The two scans (sim_scan.c, sim_barrier.c). */
static int ref_open_scan(ref_sim *w, const pascal_sim_timing *tm, const pascal_sim_config *cfg,
                  pascal_sim_result *out);
static int ref_barrier_scan(ref_sim *w, const pascal_sim_timing *tm, const pascal_sim_config *cfg,
                     pascal_sim_result *out);

#endif
