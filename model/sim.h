/* A progress-divergence simulator: the open scan of the paper's Algorithm 2
 * (and, with a barrier per round, Algorithm 1) on a shared cache, event by
 * event, with the timing that makes workers drift apart (paper sections 3.5,
 * 3.6 and 4; DESIGN.md section 7b).
 *
 * The machine.  A grid of ctas = round(W M) CTAs runs through M = sms * o
 * resident slots; slot s lives on SM s mod sms.  Block scheduler assumption
 * (documented in docs/simulate.md): CTA i of the first wave starts in slot i
 * at time 0; when a CTA ends, its slot takes the next CTA of the grid in
 * launch order launch_ns later; slots freed at the same instant take CTAs in
 * slot order.  Each CTA reads blocks 0..N-1 of its stream in order:
 *   sync (and tma with d = 1): issue block j, wait for it, consume it and do
 *     m WMMA operations, issue block j + 1;
 *   tma, d >= 2: issue blocks 0..d-2 at the start; then per block j: wait for
 *     it, consume it, issue block j + d - 1 (Algorithm 2 lines 10-12), do m
 *     WMMA operations.  With a free SM and fixed latency lambda this is
 *     exactly Theorem 6's recurrence (eq. 10) with beta = consume and
 *     alpha = compute + loop overhead.
 *
 * The cache.  C blocks of block_bytes, LRU, fully associative by default or
 * A-way with a hashed set index (the counter generator keyed by (seed, b),
 * the same draw as pascal_setlru's random mapping).  A block is allocated at
 * its miss (it becomes most recently used then) and its fill completes
 * later; a request that finds its block allocated but not yet filled waits
 * for that fill and adds none (an MSHR merge).  Hits, merges and misses are
 * decided in request order, so with a barrier per round and requests in
 * worker order the cache is exactly the static model's LRU trace.
 *
 * Service (all times in ns, sizes in bytes).  A request issued at t takes the
 * L2, one FCFS server of l2_bytes_per_ns shared by all SMs (start
 * x = max(t, L2 free), busy b / l2_bytes_per_ns), then its SM's port, one FCFS
 * server per SM (start p = max(x + b / l2_bytes_per_ns, port free), busy
 * b / port bandwidth).  A miss also takes the DRAM, one FCFS server of
 * dram_bytes_per_ns: fill ready at max(t, DRAM free) + b / dram_bytes_per_ns
 * + dram_ns.  The data reaches the CTA at
 * max(p + port time, ready + port time) + hit_ns (+ jitter).  So pressure
 * queues hits at the L2 and the port, misses at the DRAM too.  Each SM is one FCFS
 * server of consume and WMMA work shared by its resident CTAs: a job of work
 * w and latency floor l submitted at t ends at max(start + w, t + l).
 *
 * Determinism.  Events are ordered by (time, slot); every random draw comes
 * from the counter generator keyed by (seed, CTA, block).  A run depends only
 * on its inputs: bit-identical on every run and thread count.
 *
 * Streams.  A block's cache id is stream base + block index.  Without a
 * work table every CTA reads one ring, blocks 0..N-1 (base 0).  With one
 * (pascal_sim_work, docs/workloads.md "For the progress simulator") each
 * CTA reads several streams: at step k (0..N-1) it issues its `units`
 * requests in order, request i reading cache id
 * base[i] + (k + phase[i]) mod len[i], and a step is what one pipeline
 * stage holds: the tma path's depth counts steps, a step's requests are
 * issued together, waited for together and consumed together (consume time
 * scaled by units block_bytes, m WMMA per step).
 *
 * Pure model code: no I/O, no globals; a workspace from pascal_sim_create is
 * sized once and the run never allocates.  The stop callback, when given, is
 * polled about every million events. */
#ifndef PASCAL_MODEL_SIM_H
#define PASCAL_MODEL_SIM_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Timing of a device (configs/devices/NAME.yaml, section `sim`). */
typedef struct pascal_sim_timing {
    double hit_ns;            /* L2 hit: issue to data in the CTA, unloaded */
    double l2_bytes_per_ns;   /* L2 read bandwidth of all SMs together */
    double sm_bytes_per_ns;   /* one SM's port from the L2 */
    double sm_spread;         /* SM s's port runs at sm_bytes_per_ns (1 + sm_spread
                                 (u_s - 1/2)), u_s uniform from (seed, s): the
                                 persistent differences between SMs, in [0, 1] */
    double dram_ns;           /* latency a fill adds to a hit */
    double dram_bytes_per_ns; /* DRAM read bandwidth */
    double consume_ns;        /* SM time to consume a 16 KiB block (scaled by
                                 block_bytes / 16 KiB) */
    double loop_ns;           /* per-iteration overhead (alpha at m = 0) */
    double wmma_ns;           /* latency of one WMMA in a warp's dependent chain */
    double wmma_sm_ns;        /* SM tensor time of one WMMA by every warp of a CTA */
    double launch_ns;         /* a freed slot to the next CTA's first request */
    double barrier_ns;        /* grid-wide barrier of Algorithm 1 */
    double jitter_ns;         /* each request's data arrives up to this much later
                                 (uniform, from the counter generator) */
    /* The memory system's finer mechanisms (docs/simulate.md section 3.1).
     * Each is off at 0, and a timing with all of them off is the machine
     * above, event for event. */
    double hit_sm_spread;     /* SM s's hit latency is hit_ns (1 + hit_sm_spread
                                 (v_s - 1/2)), v_s uniform from (seed, s): where the SM
                                 sits on the die, a fraction in [0, 1] */
    double l2_slices;         /* the L2 as this many FCFS slices of l2_bytes_per_ns /
                                 l2_slices each (0 or 1: one server); a whole number <=
                                 PASCAL_SIM_MAX_SLICES */
    double l2_slice_bytes;    /* the interleave's grain: a block is ceil(block_bytes /
                                 l2_slice_bytes) chunks (0: one), chunk k of block b on
                                 slice (h(b) + k) mod l2_slices, h a fixed hash, all
                                 served at once; its data is in when its last chunk is
                                 (at most PASCAL_SIM_MAX_CHUNKS chunks) */
    double hit_slice_spread;  /* slice z adds hit_ns hit_slice_spread (v_z - 1/2) to a
                                 request's latency, v_z uniform from (seed, z): how far
                                 the slice is (with l2_slices >= 2), a fraction in [0, 1] */
    double sm_inflight_bytes; /* an SM has at most max(1, floor(sm_inflight_bytes /
                                 block_bytes)) requests in flight, issue to data; one
                                 beyond waits for the earliest to land before it enters
                                 the L2 (0: no limit; at most PASCAL_SIM_MAX_INFLIGHT
                                 requests) */
    double service_noise;     /* each request's slice and DRAM service times are scaled
                                 by 1 + service_noise (2 u - 1), u uniform (26 bits) per
                                 request and server, from the seed: a fraction in [0, 1] */
    double sm_issue_oldest;   /* 1: on the sync path an SM's issue server, when it frees,
                                 takes the waiting job of its oldest CTA (the first
                                 launched) rather than the first to arrive; a job in
                                 service is never preempted.  0: first come, first
                                 served.  0 or 1 */
} pascal_sim_timing;

#define PASCAL_SIM_MAX_SLICES 256
#define PASCAL_SIM_MAX_INFLIGHT 64
#define PASCAL_SIM_MAX_CHUNKS 128

enum { PASCAL_SIM_SYNC = 0, PASCAL_SIM_TMA = 1 };

/* Several streams: the grid's CTAs in launch order and what each reads.
 * CTA c's requests are entries c units .. c units + units - 1 of the three
 * arrays, in the order it issues them in every step; at step k request i
 * reads cache id base[i] + (k + phase[i]) mod len[i].  Every CTA issues the
 * same number of requests per step (a workload's CTAs do). */
typedef struct pascal_sim_work {
    int64_t ctas;             /* CTAs of the grid >= 1 */
    int64_t units;            /* requests per CTA per step, 1 .. PASCAL_SIM_MAX_UNITS */
    int64_t blocks;           /* cache ids in use: base + len <= blocks <= INT32_MAX */
    const int64_t *base;      /* ctas units entries: the cache id of the stream's block 0 */
    const int64_t *len;       /* ... the stream's ring, blocks >= 1 */
    const int64_t *phase;     /* ... 0 <= phase < len */
    /* Optional, a request program (docs/workloads.md, "For the progress
     * simulator"): CTA c runs steps[c] steps (0 .. N; NULL: N each), and
     * request i reads base[i] + (phase[i] + dir[i] k) mod len[i] at step k,
     * dir[i] = +1 or -1 (NULL: +1).  Only the open scan takes them. */
    const int64_t *steps;     /* ctas entries */
    const int64_t *dir;       /* ctas units entries */
    /* Optional (NULL: none): chain[c] = 1 when CTA c + 1 is c's next tile
     * in the same CTA (cutlass-streamk's blocks of several tiles): it runs
     * in c's slot as soon as c ends, and the launch order passes it over. */
    const uint8_t *chain;     /* ctas entries */
} pascal_sim_work;

#define PASCAL_SIM_MAX_UNITS 64

typedef struct pascal_sim_config {
    int64_t sms;              /* SMs >= 1 */
    int64_t occupancy;        /* resident CTAs per SM >= 1; M = sms * occupancy */
    int path;                 /* PASCAL_SIM_SYNC or PASCAL_SIM_TMA */
    int64_t depth;            /* tma: stages d >= 1 (sync: ignored) */
    int64_t compute;          /* m: WMMA operations per block, >= 0 */
    int64_t N;                /* blocks per scan >= 1 (with work: steps per CTA) */
    double W;                 /* CTA scans per resident worker > 0; the grid has
                                 round(W M) >= 1 CTAs (with work: ignored) */
    int64_t C;                /* cache capacity in blocks >= 1 */
    int64_t assoc;            /* 0: fully associative; A >= 1: A ways, C / A sets
                                 (C must be a multiple of A) */
    double block_bytes;       /* bytes per block > 0 */
    uint64_t seed;            /* jitter and set-index draws */
    /* Algorithm 1 instead: `barrier` nonzero, phases[0..M-1] in [0, N); the
     * grid is the M resident CTAs, worker m reads block (r + phases[m]) mod N
     * in round r; rounds 0..N-1 warm up, rounds N..2N-1 are measured. */
    int barrier;
    const int64_t *phases;
    /* Optional: several streams (borrowed; NULL: the one ring above).  The
     * open scan runs work->ctas CTAs of N steps each.  With `barrier`
     * (phases unused) the CTAs run in waves of M, wave v being CTAs
     * v M .. v M + M - 1 in slots 0..M-1, each wave N rounds with a grid
     * barrier per round and its requests reaching the cache in CTA order,
     * then request order; K_steady and ns_per_round measure the last wave's
     * rounds floor(N / 2) .. N - 1 (one wave of N = 2 Nmax rounds: the
     * steady state of model/replay_streams.h). */
    const pascal_sim_work *work;
    /* Optional: per-slot extra overhead added to loop_ns (M entries), for
     * heterogeneous workers (Theorem 6's two-worker test); NULL: none. */
    const double *slot_extra_ns;
    /* Optional outputs (NULL: not recorded). */
    double *K_wave;           /* per wave of M CTAs: its CTAs' fills per round
                                 (max_waves entries; waves beyond are not kept) */
    int64_t max_waves;
    double *cta_start_ns, *cta_end_ns; /* per CTA (ctas entries) */
    /* Phase trajectory: each time the grid has consumed another traj_every
     * blocks, sample k records traj_t[k] (ns), traj_rounds[k] (blocks consumed
     * / M) and traj_pos[k M + s], the block slot s's CTA is at (the one it
     * consumes or waits for; -1: idle); at most traj_max samples. */
    int64_t traj_every, traj_max;
    double *traj_t, *traj_rounds;
    int32_t *traj_pos;
    /* Request log: the first req_max requests in the order the cache saw
     * them, their block and outcome (0 hit, 1 merged, 2 fill). */
    int64_t req_max;
    int32_t *req_block;
    uint8_t *req_outcome;
    int (*should_stop)(void *ctx);
    void *stop_ctx;
} pascal_sim_config;

typedef struct pascal_sim_result {
    int64_t M, ctas, waves;   /* waves = ceil(ctas / M) */
    int64_t requests;         /* block requests reaching the cache */
    int64_t hits;             /* resident and filled */
    int64_t merged;           /* allocated, fill in flight: waited, no fill */
    int64_t fills;            /* misses: A(H) of eq. 14 */
    double H;                 /* work in rounds: ctas N / M (= W N); barrier:
                                 the rounds run */
    double K_H;               /* fills / H (eq. 14) */
    double makespan_ns;
    double ns_per_round;      /* makespan / H */
    double first_wave_ns_per_round; /* end of the first wave's last CTA / N */
    double K_steady;          /* barrier: mean fills per measured round; else NaN */
    int64_t samples;          /* trajectory samples written */
} pascal_sim_result;

typedef struct pascal_sim pascal_sim;

/* A workspace for up to max_blocks cache ids, max_slots resident CTAs,
 * depth up to max_depth and max_sets cache sets (1 for a fully associative
 * cache, C / A for A ways); NULL on failure. */
pascal_sim *pascal_sim_create(int64_t max_blocks, int64_t max_slots, int64_t max_depth,
                              int64_t max_sets);
void pascal_sim_free(pascal_sim *ws);
/* Grows *ws (replacing it) so that cfg fits; 0, or -1 when out of memory
 * (*ws is then NULL). */
int pascal_sim_fit(pascal_sim **ws, const pascal_sim_config *cfg);

/* Status codes of pascal_sim_run. */
enum {
    PASCAL_SIM_OK = 0,
    PASCAL_SIM_EINVAL = -1,   /* a parameter out of range (see the fields) */
    PASCAL_SIM_ESIZE = -2,    /* the workspace is too small: pascal_sim_fit */
    PASCAL_SIM_STOPPED = 1    /* should_stop returned nonzero; out is partial */
};

/* Simulates one run.  Timing values must be finite and >= 0 except the two
 * bandwidths, which must be > 0 (INFINITY: no bandwidth limit). */
int pascal_sim_run(pascal_sim *ws, const pascal_sim_timing *tm, const pascal_sim_config *cfg,
                   pascal_sim_result *out);

/* A configuration with every optional field empty and the paper's defaults
 * (block 16 KiB, fully associative, seed 1, W 1). */
pascal_sim_config pascal_sim_default_config(void);

/* A work table from a multi-stream instance (model/streams.h): one CTA per
 * distinct owner (each request its own CTA when owner is NULL), CTAs in the
 * order of their first request, stream s's block b at cache id
 * off_s + b (pascal_streams_offsets).  Each CTA's requests must be adjacent
 * in the within-round order, and every CTA must issue the same number, at
 * most PASCAL_SIM_MAX_UNITS.  base, len and phase hold R entries, off S;
 * returns 0, or -1 when st is malformed or its owners do not fit. */
struct pascal_streams;
int pascal_sim_work_of_streams(const struct pascal_streams *st, int64_t *base, int64_t *len,
                               int64_t *phase, int64_t *off, pascal_sim_work *out);

/* The whole kernel of a workload (model/workload.h) on R resident slots:
 * wave v (pascal_workload_wave) holds CTAs v R .. v R + R - 1, CTA
 * c = v R + q taking slot q's phase slot_phase[q] (R entries) for all its
 * requests, and stream s's block b is cache id s N + b (N = w->blocks), as
 * the kernel replay numbers them.  base, len and phase hold ctas units
 * entries; scratch pascal_sim_work_scratch(w, R) entries.  Returns 0, or -1
 * when the kernel has more than INT32_MAX blocks or R < 1. */
struct pascal_workload;
int64_t pascal_sim_work_scratch(const struct pascal_workload *w, int64_t R);
int pascal_sim_work_of_workload(const struct pascal_workload *w, int64_t R,
                                const int64_t *slot_phase, int64_t *base, int64_t *len,
                                int64_t *phase, int64_t *scratch, pascal_sim_work *out);

/* Phase groups (paper section 5.3): positions pos[0..n-1] in [0, N) (entries
 * < 0 are skipped) merged when cyclically at most `gap` blocks apart; the
 * number of groups.  scratch holds n int32. */
int64_t pascal_sim_phase_groups(const int32_t *pos, int64_t n, int64_t N, int64_t gap,
                                int32_t *scratch);

#ifdef __cplusplus
}
#endif

#endif
