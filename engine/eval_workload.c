/* Workload points over the kernel's waves (eval_workload.h).  Per phase-
 * defining key (every parameter that is not capacity-like) the waves are
 * built once, identical ones merged into classes, and each class keeps a
 * read-only summary of its prepared multi-stream instance; every capacity
 * is then a few binary searches per class and stream. */
#include "engine/eval_workload.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "calibrate/calibrate.h"
#include "engine/eval_phases.h"
#include "model/phases.h"
#include "model/replay.h"
#include "model/replay_bytes.h"
#include "model/static_multi.h"
#include "model/workload.h"
#include "sweeps/workload.h"

/* ---- an arena that never moves what it handed out ---------------------- */

typedef struct chunk {
    struct chunk *next;
    size_t used, cap;
    int64_t data[];
} chunk;

static void *arena_alloc(chunk **head, size_t bytes)
{
    bytes = (bytes + 7) / 8 * 8;
    if (!*head || (*head)->cap - (*head)->used < bytes) {
        size_t cap = bytes > ((size_t)1 << 20) ? bytes : ((size_t)1 << 20);
        chunk *c = malloc(sizeof *c + cap);
        if (!c)
            return NULL;
        c->next = *head;
        c->used = 0;
        c->cap = cap;
        *head = c;
    }
    void *p = (char *)(*head)->data + (*head)->used;
    (*head)->used += bytes;
    return p;
}

static void arena_free(chunk **head)
{
    while (*head) {
        chunk *n = (*head)->next;
        free(*head);
        *head = n;
    }
}

/* ---- classes of identical waves ---------------------------------------- */

/* A stream's history at a wave (the class key's last S entries). */
enum { WL_CONTINUING = -2, WL_FIRST = -1 };   /* else: streams touched since */

typedef struct wl_class {
    int64_t mult;              /* waves of this class */
    int64_t R, S;              /* requests per round, streams */
    int64_t nkey;
    const int64_t *key;        /* R, S, local stream of each request, then per
                                  stream WL_CONTINUING (in the previous wave),
                                  WL_FIRST, or the distinct other streams
                                  touched since its last wave */
    uint64_t hash;
    const pascal_static *sum;  /* the prepared instance, frozen */
} wl_class;

struct pascal_wl_eval {
    unsigned what;             /* PASCAL_STATIC_* flags */
    unsigned models;           /* the spec's models */
    int valid;
    double key[PASCAL_NPARAM]; /* the phase-defining values of the built point */
    const int64_t *key_list;
    pascal_workload w;
    int64_t M, waves, first;   /* first: the class of wave 0 */
    wl_class *cls;
    int64_t ncls, cap_cls;
    int64_t *table;            /* open addressing over classes, -1 empty */
    int64_t tsize;
    chunk *arena;
    pascal_static *ws;
    int64_t ws_cap;            /* requests ws holds */
    /* The kernel replay (lru_replay): suffix counts of its reuse
     * distances, above[c] = requests with RD >= c, c = 0..nt. */
    int program;               /* 1: no ring (causal, split-KV), the replay alone answers */
    int phased;                /* a program point with a pattern other than aligned: its
                                  replay is NaN (phases rotate ring scans) */
    int64_t nt;
    int64_t rounds;            /* lock-step rounds over the kernel's waves */
    uint64_t seed;             /* the point's seed: the any-order replay's draws */
    struct {
        int state;             /* 1 done, -1 not possible for this point, 0 not yet */
        int64_t cold, *above, cap;   /* cap: entries above holds */
    } hist[2];                 /* [0] CTAs in slot order, [1] in a random order per round */
    /* The floor of a program point (fill_bytes_bound): the reuse gaps of
     * the slot-order trace; gap_pass set while a pass feeds them. */
    pascal_gapfloor *gf;
    int64_t gf_blocks;
    int gf_state, gap_pass;    /* gf_state as hist[].state */
    /* The sector-exact replay (section 2.7): cold and written bytes, and a
     * map from each hit-or-miss request's need (bytes) to the bytes of
     * such requests; after the replay, needs ascending with suffix sums. */
    struct {
        int state;             /* as hist[].state */
        int64_t cold, writes;
        int64_t n, cap;        /* entries, slots (a power of two; key 0: empty) */
        int64_t *key, *val;
    } ex;
    int64_t ex_nt, ex_nq;      /* the exact replay's id ranges: blocks, Q tiles */
    pascal_blru *blru;
    int64_t blru_blocks;
    pascal_lru *lru;
    int64_t lru_blocks;
    pascal_lru *slru;          /* stream-level recency across waves */
    int64_t slru_streams;
    int64_t cap_M, cap_req, cap_scratch; /* sizes of the buffers below */
    int64_t *phases, *stream, *phase, *owner, *N, *global, *scratch, *prev, *keybuf;
};

pascal_wl_eval *pascal_wl_eval_create(unsigned models)
{
    pascal_wl_eval *we = calloc(1, sizeof *we);
    if (!we)
        return NULL;
    we->models = models;
    if (models & ((1u << PASCAL_MODEL_LRU) | (1u << PASCAL_MODEL_TRAFFIC)))
        we->what |= PASCAL_STATIC_RD;
    if (models & ((1u << PASCAL_MODEL_RESIDENCY) | (1u << PASCAL_MODEL_TRAFFIC)))
        we->what |= PASCAL_STATIC_DELTA;
    return we;
}

static void free_buffers(pascal_wl_eval *we)
{
    int64_t **b[] = {&we->phases, &we->stream, &we->phase, &we->owner, &we->N,
                     &we->global, &we->scratch, &we->prev, &we->keybuf};
    for (size_t i = 0; i < sizeof b / sizeof b[0]; i++) {
        free(*b[i]);
        *b[i] = NULL;
    }
}

void pascal_wl_eval_free(pascal_wl_eval *we)
{
    if (!we)
        return;
    free_buffers(we);
    free(we->cls);
    free(we->table);
    free(we->hist[0].above);
    free(we->hist[1].above);
    pascal_lru_free(we->lru);
    pascal_gapfloor_free(we->gf);
    pascal_lru_free(we->slru);
    pascal_blru_free(we->blru);
    free(we->ex.key);
    free(we->ex.val);
    arena_free(&we->arena);
    pascal_static_free(we->ws);
    free(we);
}

/* Buffers for M slots, req = M units requests and the wave's scratch. */
static int grow(pascal_wl_eval *we, int64_t M, int64_t req, int64_t scratch)
{
    if (M <= we->cap_M && req <= we->cap_req && scratch <= we->cap_scratch)
        return 0;
    free_buffers(we);
    we->cap_M = we->cap_req = we->cap_scratch = 0;
    size_t r = (size_t)req, n[] = {(size_t)M, r, r, r, r, r, (size_t)scratch, r, 2 * r + 2};
    int64_t **b[] = {&we->phases, &we->stream, &we->phase, &we->owner, &we->N,
                     &we->global, &we->scratch, &we->prev, &we->keybuf};
    for (size_t i = 0; i < sizeof b / sizeof b[0]; i++)
        if (!(*b[i] = malloc(n[i] * sizeof(int64_t))))
            return -1;
    if (req > we->ws_cap) {
        pascal_static_free(we->ws);
        we->ws = pascal_static_create(req);
        we->ws_cap = we->ws ? req : 0;
        if (!we->ws)
            return -1;
    }
    we->cap_M = M;
    we->cap_req = req;
    we->cap_scratch = scratch;
    return 0;
}

static uint64_t hash_key(const int64_t *k, int64_t n)
{
    uint64_t h = 0x6b6579736b6579ULL;
    for (int64_t i = 0; i < n; i++)
        h = pascal_rng_mix(h, (uint64_t)k[i]);
    return h;
}

/* The class of a wave's key, created (and its instance prepared) on first
 * sight; -1 when memory runs out. */
static int64_t class_of(pascal_wl_eval *we, const int64_t *key, int64_t nkey,
                        const pascal_streams *inst)
{
    uint64_t h = hash_key(key, nkey);
    int64_t at = (int64_t)(h >> 11) & (we->tsize - 1);
    for (; we->table[at] >= 0; at = (at + 1) & (we->tsize - 1)) {
        wl_class *c = &we->cls[we->table[at]];
        if (c->hash == h && c->nkey == nkey && !memcmp(c->key, key, (size_t)nkey * 8))
            return we->table[at];
    }
    if (we->ncls == we->cap_cls)
        return -1;   /* the table holds one class per wave at most */
    if (pascal_static_prepare_streams(we->ws, inst, we->what) != 0)
        return -1;
    size_t bytes = pascal_static_summary_bytes(we->ws);
    void *mem = arena_alloc(&we->arena, bytes);
    int64_t *k = arena_alloc(&we->arena, (size_t)nkey * 8);
    if (!mem || !k)
        return -1;
    memcpy(k, key, (size_t)nkey * 8);
    wl_class *c = &we->cls[we->ncls];
    *c = (wl_class){0, inst->R, inst->S, nkey, k, h, pascal_static_summarize(we->ws, mem, bytes)};
    we->table[at] = we->ncls;
    return we->ncls++;
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

static int in_sorted(const int64_t *a, int64_t n, int64_t x)
{
    int64_t lo = 0, hi = n;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (a[mid] < x) lo = mid + 1; else hi = mid;
    }
    return lo < n && a[lo] == x;
}

/* Each local stream's history code (see wl_class) at the current wave:
 * in the previous wave (sorted prev[0..nprev)), or its stack distance in
 * streams over the waves so far (slru replays each wave's streams in order,
 * so a stream that skipped waves counts the streams read since). */
static int stream_codes(pascal_wl_eval *we, int64_t S, int64_t nprev, int64_t *codes)
{
    for (int64_t l = 0; l < S; l++) {
        int64_t g = we->global[l], rd;
        if (pascal_lru_replay(we->slru, &g, 1, 1, &rd) < 0)
            return -1;
        codes[l] = in_sorted(we->prev, nprev, g) ? WL_CONTINUING : rd < 0 ? WL_FIRST : rd;
    }
    return 0;
}

/* Every wave of the point's workload, merged into classes. */
static int build_waves(pascal_wl_eval *we, const pascal_point *p)
{
    pascal_workload *w = &we->w;
    pascal_pattern pat;
    int64_t M = (int64_t)p->v[PASCAL_P_M], req = M * w->units, nprev = 0;
    we->M = M;
    we->waves = pascal_workload_waves(w, M);
    we->ncls = 0;
    arena_free(&we->arena);
    if (grow(we, M, req, pascal_workload_wave_scratch(w, M)) != 0)
        return -1;
    if (!we->slru || we->slru_streams < w->streams) {
        pascal_lru_free(we->slru);
        we->slru = pascal_lru_create(w->streams);
        we->slru_streams = we->slru ? w->streams : 0;
        if (!we->slru)
            return -1;
    }
    pascal_lru_reset(we->slru);
    we->tsize = 16;
    while (we->tsize < 2 * we->waves)
        we->tsize *= 2;
    free(we->cls);
    free(we->table);
    we->cap_cls = we->waves;
    we->cls = malloc((size_t)we->waves * sizeof *we->cls);
    we->table = malloc((size_t)we->tsize * sizeof *we->table);
    if (!we->cls || !we->table)
        return -1;
    for (int64_t i = 0; i < we->tsize; i++)
        we->table[i] = -1;
    pascal_eval_pattern(p, &pat);
    if (pascal_phases_generate(&pat, w->blocks, M, we->phases) != 0)
        return -1;
    for (int64_t wave = 0; wave < we->waves; wave++) {
        pascal_streams inst;
        int64_t S = pascal_workload_wave(w, M, wave, we->phases, we->stream, we->phase,
                                         we->owner, we->N, we->global, we->scratch, &inst);
        if (S < 0)
            return -1;
        /* Key: requests, streams, each request's local stream, histories. */
        int64_t *k = we->keybuf, n = 0;
        k[n++] = inst.R;
        k[n++] = S;
        memcpy(k + n, we->stream, (size_t)inst.R * 8);
        n += inst.R;
        if (stream_codes(we, S, nprev, k + n) != 0)
            return -1;
        n += S;
        int64_t c = class_of(we, k, n, &inst);
        if (c < 0)
            return -1;
        we->cls[c].mult++;
        if (wave == 0)
            we->first = c;
        memcpy(we->prev, we->global, (size_t)S * 8);
        qsort(we->prev, (size_t)S, sizeof *we->prev, cmp_i64);
        nprev = S;
    }
    return 0;
}

static uint64_t bits_of(double v)
{
    uint64_t u;
    memcpy(&u, &v, sizeof u);
    return u;
}

/* The waves depend on every parameter that is not capacity-like. */
static int prepare(pascal_wl_eval *we, const pascal_point *p)
{
    int same = we->valid && we->key_list == p->phases;
    for (int i = 0; same && i < PASCAL_NPARAM; i++)
        if (!(pascal_params[i].flags & PASCAL_PF_INNER))
            same = bits_of(we->key[i]) == bits_of(p->v[i]);
    if (same)
        return 0;
    we->valid = 0;
    if (pascal_workload_of_point(p->v, &we->w) != 0 || !(p->v[PASCAL_P_M] >= 1))
        return -1;
    we->program = !we->w.ring;
    we->phased = we->program && !isnan(p->v[PASCAL_P_PATTERN]) &&
                 p->v[PASCAL_P_PATTERN] != PASCAL_PATTERN_ALIGNED;
    if (we->program) {
        /* No ring: no classes; the replay runs each CTA's steps. */
        we->M = we->w.persistent ? we->w.grid : (int64_t)p->v[PASCAL_P_M];
        we->waves = pascal_workload_waves(&we->w, we->M);
        we->ncls = 0;
        if (grow(we, we->M, we->M * we->w.units, pascal_workload_wave_scratch(&we->w, we->M)) != 0)
            return -1;
    } else if (build_waves(we, p) != 0) {
        return -1;
    }
    we->hist[0].state = we->hist[1].state = 0;
    we->ex.state = we->gf_state = 0;
    we->seed = isnan(p->v[PASCAL_P_SEED]) ? 1 : (uint64_t)p->v[PASCAL_P_SEED];
    memcpy(we->key, p->v, sizeof we->key);
    we->key_list = p->phases;
    we->valid = 1;
    return 0;
}

/* ---- the kernel replay ------------------------------------------------------------- */

#define REPLAY_MAX_REQUESTS ((int64_t)1 << 27)
/* Distinct needs the sector-exact replay keeps (its map: at most 96 bytes
 * an entry at its peak); a trace with more gives NaN. */
#define EXACT_MAX_NEEDS ((int64_t)1 << 22)
#define REPLAY_MAX_BLOCKS ((int64_t)1 << 28)

unsigned pascal_wl_wave_models(unsigned models)
{
    return models & ~((1u << PASCAL_MODEL_WORKLOAD) | (1u << PASCAL_MODEL_DYNAMIC) |
                      (1u << PASCAL_MODEL_SHARING) | (1u << PASCAL_MODEL_CATCHUP) |
                      (1u << PASCAL_MODEL_SIMULATE));
}

/* What grow, build_waves, class_of and kernel_replay allocate, each at its
 * largest. */
double pascal_wl_eval_bytes(unsigned models, const double *v)
{
    pascal_workload w;
    unsigned what = 0;
    double M = v[PASCAL_P_M], bytes = sizeof(pascal_wl_eval);
    if (pascal_workload_of_point(v, &w) != 0 || !(M >= 1))
        return NAN;
    if (!pascal_wl_wave_models(models))
        return 0;
    if (models & ((1u << PASCAL_MODEL_LRU) | (1u << PASCAL_MODEL_TRAFFIC)))
        what |= PASCAL_STATIC_RD;
    if (models & ((1u << PASCAL_MODEL_RESIDENCY) | (1u << PASCAL_MODEL_TRAFFIC)))
        what |= PASCAL_STATIC_DELTA;
    double R = M * (double)w.units, waves = (double)pascal_workload_waves(&w, (int64_t)M), tsize = 16;
    while (tsize < 2 * waves)
        tsize *= 2;
    /* grow: phases (M), stream, phase, owner, N, global, prev (R each),
     * keybuf (2 R + 2), the wave's scratch; the workspace for R requests. */
    bytes += 8 * (M + 8 * R + 2 + (double)pascal_workload_wave_scratch(&w, (int64_t)M));
    bytes += pascal_static_bytes((int64_t)R) + pascal_lru_bytes(w.streams);
    bytes += waves * sizeof(wl_class) + 8 * tsize;
    /* The arena: a summary and a key (2 + R + S <= 2 + 2 R values) per
     * class; a chunk that cannot take the next one is left part empty, so
     * at most twice what is stored, plus the last 1 MiB chunk. */
    bytes += 2 * waves * ((double)pascal_static_summary_max_bytes((int64_t)R, what) + 8 * (2 + 2 * R)) +
             (double)(1 << 20);
    if (models & (1u << PASCAL_MODEL_LRU_REPLAY)) {
        double nt = (double)w.streams * (double)w.blocks;
        if (w.requests <= REPLAY_MAX_REQUESTS && nt <= (double)REPLAY_MAX_BLOCKS)
            bytes += pascal_lru_bytes((int64_t)nt) + 2 * 8 * (nt + 2) +   /* both orders */
                     pascal_blru_bytes((int64_t)nt + 2 * w.ctas) + 24.0 * (double)w.grid +
                     96.0 * (fmin((double)w.requests, (double)EXACT_MAX_NEEDS) + 1); /* exact */
    }
    if (!w.ring && (models & ((1u << PASCAL_MODEL_TRAFFIC) | (1u << PASCAL_MODEL_RESIDENCY)))) {
        /* a program's floor */
        double nt = (double)w.streams * (double)w.blocks;
        if (w.requests <= REPLAY_MAX_REQUESTS && nt <= (double)REPLAY_MAX_BLOCKS)
            bytes += pascal_gapfloor_bytes((int64_t)nt) + 16.0 * (double)w.grid;
    }
    return bytes;
}

/* One round of the replay: n requests of `slots` CTAs, `units` each,
 * CTA after CTA; with `any`, the CTAs in a random order drawn from the
 * point's seed, the wave and the round (the requests of one CTA stay
 * together and in their order).  Adds each request's reuse distance to
 * the histogram. */
static int replay_round(pascal_wl_eval *we, int any, int64_t wave, int64_t t, const int64_t *req,
                        int64_t slots, int64_t units)
{
    int64_t *round = we->keybuf, n = slots * units, *order = we->scratch;
    const int64_t *use = req;
    if (we->gap_pass)   /* slot order: the floor's trace */
        return pascal_gapfloor_add(we->gf, req, n);
    if (any && slots > 1) {
        for (int64_t q = 0; q < slots; q++)
            order[q] = q;
        uint64_t key = pascal_rng_mix((uint64_t)wave, (uint64_t)t);
        for (int64_t q = slots - 1; q > 0; q--) {   /* Fisher-Yates */
            int64_t j = (int64_t)(pascal_rng_u64(we->seed, key, (uint64_t)q) % (uint64_t)(q + 1));
            int64_t x = order[q];
            order[q] = order[j];
            order[j] = x;
        }
        for (int64_t q = 0; q < slots; q++)
            memcpy(round + q * units, req + order[q] * units, (size_t)units * sizeof *round);
        use = round;
    }
    return pascal_lru_replay_hist(we->lru, use, n, we->hist[any].above, &we->hist[any].cold);
}

/* Starts a persistent kernel's schedule (model/workload.h) in memory the
 * caller frees: every slot on its first tile with steps, stepless ones
 * passed to skip.  NULL when memory runs out or skip fails. */
static int64_t *psched_start(pascal_psched *ps, const pascal_workload *w, void *ctx,
                             int (*skip)(void *, int64_t))
{
    int64_t *mem = w->grid >= 1 ? malloc((size_t)(2 * w->grid) * sizeof *mem) : NULL;
    if (!mem)
        return NULL;
    pascal_psched_init(ps, w, mem, mem + w->grid);
    for (int64_t q = 0; q < ps->G; q++)
        if (pascal_psched_take(ps, q, 1, ctx, skip) != 0) {
            free(mem);
            return NULL;
        }
    return mem;
}

/* A CTA's requests as the replays cache them: its steps, its first block
 * and direction (pascal_workload_cta_block is first + dir j) and its
 * streams' first ids (units entries at base). */
static void cta_cache(const pascal_workload *w, int64_t c, int64_t *steps, int64_t *first,
                      int64_t *dir, int64_t *base)
{
    int64_t st[64], n = pascal_workload_cta_steps(w, c);
    *steps = n;
    *first = n > 0 ? pascal_workload_cta_block(w, c, 0) : 0;
    *dir = n > 1 ? pascal_workload_cta_block(w, c, 1) - *first : 1;
    pascal_workload_cta(w, c, st);
    for (int64_t u = 0; u < w->units; u++)
        base[u] = st[u] * w->blocks;
}

/* The persistent kernel's replay in blocks: round after round, the
 * running slots' current steps. */
static int persistent_replay(pascal_wl_eval *we, int any)
{
    const pascal_workload *w = &we->w;
    int64_t U = w->units, *req = we->stream;
    /* per slot: the tile cached and its requests (M = grid entries each) */
    int64_t *held = we->phases, *first = we->phase, *dir = we->global, *n = we->N, *base = we->owner;
    pascal_psched ps;
    int64_t *slots_mem = psched_start(&ps, w, NULL, NULL);
    /* per slot: the rounds its tile holds it (pascal_workload_cta_rounds) */
    int64_t *rounds = slots_mem ? malloc((size_t)ps.G * sizeof *rounds) : NULL;
    if (!rounds) {
        free(slots_mem);
        return -1;
    }
    for (int64_t q = 0; q < ps.G; q++)
        held[q] = -1;
    int rc = 0;
    we->rounds = 0;
    for (int live = 1; live && rc == 0; we->rounds++) {
        int64_t g = 0, slots = 0;
        int held_any = 0;
        live = 0;
        for (int64_t q = 0; q < ps.G; q++) {
            int64_t c = ps.tile[q];
            if (c < 0)
                continue;
            if (held[q] != c) {
                cta_cache(w, c, &n[q], &first[q], &dir[q], base + q * U);
                rounds[q] = w->persistent == 3 ? pascal_workload_cta_rounds(w, c) : n[q];
                held[q] = c;
            }
            held_any = 1;
            if (ps.step[q] >= n[q])
                continue;   /* waiting on a peer (cutlass-streamk): no request */
            int64_t b = first[q] + dir[q] * ps.step[q];
            for (int64_t u = 0; u < U; u++)
                req[g++] = base[q * U + u] + b;
            slots++;
        }
        if (slots && replay_round(we, any, 0, we->rounds, req, slots, U) < 0)
            rc = -1;
        for (int64_t q = 0; q < ps.G; q++)
            if (ps.tile[q] >= 0 && ++ps.step[q] == rounds[q])
                pascal_psched_take(&ps, q, 0, NULL, NULL);
        for (int64_t q = 0; q < ps.G; q++)
            live |= ps.tile[q] >= 0;
        if (!held_any)
            break;
    }
    free(rounds);
    free(slots_mem);
    return rc;
}

/* The replay of a kernel without a ring (causal): lock-step waves of M
 * slots, round t of a wave serving, slot by slot, step t of each CTA that
 * has one (pascal_workload_cta_steps), each step one block of each of the
 * CTA's streams in request order.  A wave lasts as long as its longest
 * CTA.  Each wave's CTAs with steps are cached once, in slot order, and
 * those that finish leave the list in place. */
static int program_replay(pascal_wl_eval *we, int any)
{
    const pascal_workload *w = &we->w;
    int64_t M = we->M, U = w->units, *req = we->stream;
    int64_t *first = we->phase, *dir = we->global, *n = we->N, *base = we->owner;   /* M each, base M U */
    if (w->persistent)
        return persistent_replay(we, any);
    we->rounds = 0;
    for (int64_t wave = 0; wave < we->waves; wave++) {
        int64_t c0 = wave * M, c1 = c0 + M < w->ctas ? c0 + M : w->ctas, longest = 0, live = 0;
        for (int64_t c = c0; c < c1; c++) {
            cta_cache(w, c, &n[live], &first[live], &dir[live], base + live * U);
            if (n[live] > 0)
                longest = n[live] > longest ? n[live] : longest, live++;
        }
        for (int64_t t = 0; t < longest; t++) {
            int64_t g = 0, keep = 0;
            for (int64_t i = 0; i < live; i++) {
                int64_t b = first[i] + dir[i] * t;
                for (int64_t u = 0; u < U; u++)
                    req[g++] = base[i * U + u] + b;
                if (t + 1 < n[i]) {   /* it has another step: keep it, in order */
                    if (keep != i) {
                        n[keep] = n[i], first[keep] = first[i], dir[keep] = dir[i];
                        memcpy(base + keep * U, base + i * U, (size_t)U * sizeof *base);
                    }
                    keep++;
                }
            }
            if (replay_round(we, any, wave, t, req, live, U) < 0)
                return -1;
            live = keep;
        }
        we->rounds += longest;
    }
    return 0;
}

/* Exact LRU over the kernel's own trace (the definition in
 * eval_workload.h, every wave's N rounds in turn) through one
 * stack-distance simulator; Mattson: the reuse distances answer every
 * capacity.  With `any`, each round's CTAs in a random order (replay_round).
 * 0, or -1 when the trace is too long or memory runs out. */
static int kernel_replay(pascal_wl_eval *we, int any)
{
    const pascal_workload *w = &we->w;
    int64_t N = w->blocks, nt = w->streams * N;
    if (w->requests > REPLAY_MAX_REQUESTS || nt > REPLAY_MAX_BLOCKS)
        return -1;
    if (!we->lru || we->lru_blocks < nt) {
        pascal_lru_free(we->lru);
        we->lru = pascal_lru_create(nt);
        we->lru_blocks = we->lru ? nt : 0;
    }
    if (we->hist[any].cap < nt + 2) {   /* kept across points: no fresh pages each time */
        free(we->hist[any].above);
        we->hist[any].above = malloc((size_t)(nt + 2) * sizeof *we->hist[any].above);
        we->hist[any].cap = we->hist[any].above ? nt + 2 : 0;
    }
    if (!we->lru || !we->hist[any].above)
        return -1;
    memset(we->hist[any].above, 0, (size_t)(nt + 2) * sizeof *we->hist[any].above);
    pascal_lru_reset(we->lru);
    we->nt = nt;
    we->hist[any].cold = 0;
    we->rounds = we->waves * N;
    int rc = 0;
    if (we->program) {
        rc = program_replay(we, any);
    } else {
        int64_t *req = we->owner;   /* R entries, free outside build_waves */
        for (int64_t wave = 0; wave < we->waves && rc == 0; wave++) {
            pascal_streams inst;
            if (pascal_workload_wave(w, we->M, wave, we->phases, we->stream, we->phase, we->owner,
                                     we->N, we->global, we->scratch, &inst) < 0)
                return -1;
            /* inst.owner is we->owner: the requests go to req only after
             * the phases are read. */
            for (int64_t t = 0; t < N && rc == 0; t++) {
                for (int64_t g = 0; g < inst.R; g++)
                    req[g] = we->global[we->stream[g]] * N + (t + we->phase[g]) % N;
                rc = replay_round(we, any, wave, t, req, inst.R / w->units, w->units);
            }
        }
    }
    if (rc)
        return -1;
    int64_t *above = we->hist[any].above;
    for (int64_t c = nt; c-- > 0;)   /* suffix sums: above[c] = requests with RD >= c */
        above[c] += above[c + 1];
    return 0;
}

/* ---- the sector-exact replay (docs/workloads.md section 2.7) ------------------- */

#define SECTOR 32   /* bytes: the L2 sector of every shipped device */

static uint64_t need_hash(int64_t k) { return (uint64_t)k * 0x9E3779B97F4A7C15ull; }

/* Adds bytes to the need's entry; -1 when memory runs out. */
static int need_add(pascal_wl_eval *we, int64_t need, int64_t bytes)
{
    if (2 * (we->ex.n + 1) > we->ex.cap) {
        int64_t cap = we->ex.cap ? 2 * we->ex.cap : 1024, *k = calloc((size_t)cap, sizeof *k),
                *v = malloc((size_t)cap * sizeof *v);
        if (!k || !v) {
            free(k), free(v);
            return -1;
        }
        for (int64_t i = 0; i < we->ex.cap; i++)
            if (we->ex.key[i]) {
                int64_t at = (int64_t)(need_hash(we->ex.key[i]) >> 20) & (cap - 1);
                while (k[at])
                    at = (at + 1) & (cap - 1);
                k[at] = we->ex.key[i], v[at] = we->ex.val[i];
            }
        free(we->ex.key), free(we->ex.val);
        we->ex.key = k, we->ex.val = v, we->ex.cap = cap;
    }
    int64_t at = (int64_t)(need_hash(need) >> 20) & (we->ex.cap - 1);
    while (we->ex.key[at] && we->ex.key[at] != need)
        at = (at + 1) & (we->ex.cap - 1);
    if (!we->ex.key[at]) {
        if (we->ex.n >= EXACT_MAX_NEEDS)
            return -1;   /* too many distinct needs: the columns are NaN */
        we->ex.key[at] = need, we->ex.val[at] = 0;
        we->ex.n++;
    }
    we->ex.val[at] += bytes;
    return 0;
}

/* One read (counted) or write (it occupies the cache; not a fill). */
static int ex_access(pascal_wl_eval *we, int64_t id, int64_t bytes, int write)
{
    if (bytes <= 0)
        return 0;   /* a tile wholly past the tensor's edge: no load */
    int64_t need = pascal_blru_access(we->blru, id, bytes);
    if (need < 0)
        return -1;
    if (write)
        we->ex.writes += bytes;
    else if (need == 0)
        we->ex.cold += bytes;
    else if (need_add(we, need, bytes) != 0)
        return -1;
    return 0;
}

static int cmp_pair(const void *a, const void *b)
{
    int64_t x = ((const int64_t *)a)[0], y = ((const int64_t *)b)[0];
    return (x > y) - (x < y);
}

/* Needs ascending in key[0 .. n-1], val[i] = bytes of requests with need >= key[i]. */
static int ex_finish(pascal_wl_eval *we)
{
    int64_t n = we->ex.n, *pairs = malloc((size_t)(n ? 2 * n : 2) * sizeof *pairs), k = 0;
    if (!pairs)
        return -1;
    for (int64_t i = 0; i < we->ex.cap; i++)
        if (we->ex.key[i])
            pairs[2 * k] = we->ex.key[i], pairs[2 * k + 1] = we->ex.val[i], k++;
    qsort(pairs, (size_t)n, 2 * sizeof *pairs, cmp_pair);
    int64_t run = 0;
    for (int64_t i = n; i-- > 0;) {
        run += pairs[2 * i + 1];
        we->ex.key[i] = pairs[2 * i], we->ex.val[i] = run;
    }
    free(pairs);
    return 0;
}

/* One access of the walk (model/workload.h): streams' blocks at their ids,
 * then the Q tiles, then the outputs (a serial split-K slice's read of its
 * output tile is a read there, a fill when it misses). */
static int ex_visit(void *ctx, int what, int64_t c, int64_t id, int64_t bytes)
{
    pascal_wl_eval *we = ctx;
    (void)c;
    return what == PASCAL_ACCESS_BLOCK ? ex_access(we, id, bytes, 0)
           : what == PASCAL_ACCESS_Q   ? ex_access(we, we->ex_nt + id, bytes, 0)
                                       : ex_access(we, we->ex_nt + we->ex_nq + id, bytes,
                                                   what == PASCAL_ACCESS_OUT);
}

/* The kernel's requests in the lock-step order of the replay above, each
 * at its stored bytes, with each CTA's Q read before its first step and
 * its output written after its last, through an LRU cache in bytes. */
static int exact_replay(pascal_wl_eval *we)
{
    const pascal_workload *w = &we->w;
    int64_t N = w->blocks, nt = w->streams * N, nq, no;
    pascal_workload_io_tiles(w, &nq, &no);
    int64_t nb = nt + nq + no;
    if (w->requests > REPLAY_MAX_REQUESTS || nb > REPLAY_MAX_BLOCKS)
        return -1;
    if (!we->blru || we->blru_blocks < nb) {
        pascal_blru_free(we->blru);
        we->blru = pascal_blru_create(nb);
        we->blru_blocks = we->blru ? nb : 0;
        if (!we->blru)
            return -1;
    }
    pascal_blru_reset(we->blru);
    if (we->ex.key)
        memset(we->ex.key, 0, (size_t)we->ex.cap * sizeof *we->ex.key);
    we->ex.n = we->ex.cold = we->ex.writes = 0;
    we->ex_nt = nt, we->ex_nq = nq;
    int64_t *slots = w->persistent ? malloc((size_t)(2 * w->grid) * sizeof *slots) : NULL;
    if (w->persistent && !slots)
        return -1;
    /* ring kernels: each slot at its pattern's phase */
    int rc = pascal_workload_walk(w, we->M, w->ring ? we->phases : NULL, SECTOR, slots, ex_visit, we);
    free(slots);
    return rc == 0 ? ex_finish(we) : -1;
}

/* Sector-exact fills with a cache of C bytes, or NaN. */
static double exact_fills(pascal_wl_eval *we, double C)
{
    if (we->ex.state == 0)
        we->ex.state = exact_replay(we) == 0 ? 1 : -1;
    if (we->ex.state < 0)
        return NAN;
    int64_t lo = 0, hi = we->ex.n;   /* the first need above C */
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if ((double)we->ex.key[mid] <= C)
            lo = mid + 1;
        else
            hi = mid;
    }
    return (double)we->ex.cold + (lo < we->ex.n ? (double)we->ex.val[lo] : 0.0);
}

/* Kernel replay misses with C blocks (cold ones included), or NaN. */
static double replay_fills(pascal_wl_eval *we, int any, int64_t C)
{
    if (we->hist[any].state == 0)
        we->hist[any].state = kernel_replay(we, any) == 0 ? 1 : -1;
    if (we->hist[any].state < 0)
        return NAN;
    const int64_t *above = we->hist[any].above;
    return (double)(we->hist[any].cold + (C <= 0 ? above[0] : C > we->nt ? 0 : above[C]));
}

/* The reuse gaps of a program's slot-order trace (the one hist[0]
 * replays), in one pass without the stack distances.  0 or -1. */
static int gap_replay(pascal_wl_eval *we)
{
    const pascal_workload *w = &we->w;
    int64_t nt = w->streams * w->blocks;
    if (w->requests > REPLAY_MAX_REQUESTS || nt > REPLAY_MAX_BLOCKS)
        return -1;
    if (!we->gf || we->gf_blocks < nt) {
        pascal_gapfloor_free(we->gf);
        we->gf = pascal_gapfloor_create(nt);
        we->gf_blocks = we->gf ? nt : 0;
        if (!we->gf)
            return -1;
    }
    pascal_gapfloor_reset(we->gf);
    we->gap_pass = 1;
    int rc = program_replay(we, 0);
    we->gap_pass = 0;
    return rc;
}

/* A program's floor with C blocks for every policy that fills on a miss
 * (docs/workloads.md section 6.1), or NaN. */
static double floor_fills(pascal_wl_eval *we, int64_t C)
{
    if (we->gf_state == 0)
        we->gf_state = gap_replay(we) == 0 ? 1 : -1;
    return we->gf_state < 0 ? NAN : (double)pascal_gapfloor_misses(we->gf, C);
}

/* ---- per-capacity sums over the classes -------------------------------------- */

enum { F_LRU, F_TTL, F_CHE, F_BOUND, F_BAND_LO, F_BAND_HI };

/* Whether a stream starts the wave cold: read for the first time, or back
 * after skipping waves with more blocks read since (its own N_s and the
 * other streams' N each, all streams of a workload being N long) than the
 * cache holds.  A stream of the previous wave continues its ring scan. */
static int cold(int64_t code, int64_t N, int64_t C)
{
    return code == WL_FIRST || (code >= 0 && (code + 1) * N > C);
}

/* A class's fills in one wave of N rounds: each stream's misses per round
 * times N, and a cold stream's N_s blocks at least once. */
static double class_fills(const wl_class *c, int kind, int64_t C, int64_t N)
{
    const pascal_static *v = c->sum;
    const int64_t *code = c->key + 2 + c->R;
    double total = 0, compulsory = 0, che = pascal_che_miss_rate(C, pascal_static_N(v));
    if (kind == F_BOUND) {
        /* docs/workloads.md section 3, "A floor that holds": a block read
         * for the first time misses under every policy; of the wave's
         * other misses, Theorem 4 over its N rounds, at most one hit per
         * block the cache may hold when the wave starts is unaccounted. */
        double returning = 0;
        for (int64_t s = 0; s < c->S; s++) {
            double ns = (double)pascal_static_stream_N(v, s);
            if (code[s] == WL_FIRST)
                compulsory += ns;
            else
                returning += ns;
        }
        double b = (double)N * pascal_static_k_bound(v, C, 0.0) -
                   (returning < (double)C ? returning : (double)C);
        return b > compulsory ? b : compulsory;
    }
    for (int64_t s = 0; s < c->S; s++) {
        double k, lo, hi;
        switch (kind) {
        case F_LRU: k = pascal_static_stream_k_lru(v, s, C); break;
        case F_TTL: k = (double)pascal_static_stream_k_ttl(v, s, C); break;
        case F_CHE: k = che * (double)pascal_static_stream_M(v, s); break;
        default:
            pascal_static_stream_lru_band(v, s, C, &lo, &hi);
            k = kind == F_BAND_LO ? lo : hi;
            break;
        }
        double x = (double)N * k, floor = (double)pascal_static_stream_N(v, s);
        total += cold(code[s], N, C) && x < floor ? floor : x;
    }
    return total;
}

static double kernel_fills(const pascal_wl_eval *we, int kind, int64_t C)
{
    double f = 0;
    for (int64_t i = 0; i < we->ncls; i++)
        f += (double)we->cls[i].mult * class_fills(&we->cls[i], kind, C, we->w.blocks);
    return f;
}

static double kernel_requests(const pascal_wl_eval *we)
{
    double r = 0;
    for (int64_t i = 0; i < we->ncls; i++)
        r += (double)we->cls[i].mult * (double)we->cls[i].R * (double)we->w.blocks;
    return r;
}

/* ---- the dynamic model's view ------------------------------------------------------ */

int pascal_wl_dyn_view(const double *v, double *view, double *scans)
{
    pascal_workload w;
    double M = v[PASCAL_P_M];
    if (pascal_workload_of_point(v, &w) != 0 || w.shape.kind != PASCAL_WORKLOAD_ATTENTION ||
        !w.ring || !(M >= 1) || (double)w.sharers_a < M)
        return -1;
    double pair = 2.0 * (double)w.block_bytes;
    memcpy(view, v, PASCAL_NPARAM * sizeof *view);
    view[PASCAL_P_N] = (double)w.blocks;
    view[PASCAL_P_W] = (double)w.sharers_a / M;
    view[PASCAL_P_BLOCK_BYTES] = pair;
    view[PASCAL_P_C] = !isnan(v[PASCAL_P_CAPACITY_BYTES]) ? floor(v[PASCAL_P_CAPACITY_BYTES] / pair)
                                                           : floor(v[PASCAL_P_C] / 2);
    *scans = (double)(w.streams / 2);
    /* The calibration's runs scan rings larger than the cache (its floor is
     * one fill per round); a head that fits is the static model's case. */
    return view[PASCAL_P_N] > view[PASCAL_P_C] ? 0 : -1;
}

/* ---- columns --------------------------------------------------------------------- */

static double derived_column(const pascal_workload *w, int col, int64_t M)
{
    /* cutlass-streamk: the grid's launches, not its work items */
    if (w->persistent == 3 && (col == PASCAL_COL_CTAS || col == PASCAL_COL_WAVES))
        return col == PASCAL_COL_CTAS ? (double)w->sk.launches
               : M >= 1              ? (double)((w->sk.launches + M - 1) / M) : NAN;
    switch (col) {
    case PASCAL_COL_STREAMS: return (double)w->streams;
    case PASCAL_COL_UNITS: return (double)w->units;
    case PASCAL_COL_CTAS: return (double)w->ctas;
    case PASCAL_COL_SHARERS_A: return (double)w->sharers_a;
    case PASCAL_COL_SHARERS_B: return (double)w->sharers_b;
    case PASCAL_COL_WAVES: return M >= 1 ? (double)pascal_workload_waves(w, M) : NAN;
    case PASCAL_COL_REQUESTS: return (double)w->requests;
    case PASCAL_COL_IDEAL_BYTES: return (double)w->ideal_bytes;
    case PASCAL_COL_TENSOR_BYTES: return (double)w->tensor_bytes;
    case PASCAL_COL_KV_SPLITS:
        return w->shape.kind == PASCAL_WORKLOAD_ATTENTION ? (double)w->splits : NAN;
    case PASCAL_COL_PARTIAL_BYTES:
        return w->shape.kind == PASCAL_WORKLOAD_ATTENTION ? (double)w->partial_bytes : NAN;
    default: return NAN;
    }
}

/* Fills of a traffic or static column's model (F_*), or -1. */
static int fill_kind(int col)
{
    switch (col) {
    case PASCAL_COL_K_LRU: case PASCAL_COL_RHO_LRU:
    case PASCAL_COL_FILL_BYTES_LRU: case PASCAL_COL_TRAFFIC_LRU: return F_LRU;
    case PASCAL_COL_K_TTL: case PASCAL_COL_RHO_TTL:
    case PASCAL_COL_FILL_BYTES_TTL: case PASCAL_COL_TRAFFIC_TTL: return F_TTL;
    case PASCAL_COL_K_BOUND: case PASCAL_COL_RHO_BOUND:
    case PASCAL_COL_FILL_BYTES_BOUND: case PASCAL_COL_TRAFFIC_BOUND: return F_BOUND;
    case PASCAL_COL_K_CHE: case PASCAL_COL_RHO_CHE: return F_CHE;
    case PASCAL_COL_K_LRU_LO: return F_BAND_LO;
    case PASCAL_COL_K_LRU_HI: return F_BAND_HI;
    default: return -1;
    }
}

static double first_wave_column(const pascal_wl_eval *we, int col, int64_t C, double eps)
{
    const pascal_static *v = we->cls[we->first].sum;
    double t;
    switch (col) {
    case PASCAL_COL_D: return (double)pascal_static_D(v);
    case PASCAL_COL_THETA: return pascal_static_theta(v, C);
    case PASCAL_COL_T_STAR:
        t = (double)pascal_static_tstar(v, C);
        return t < 0 ? NAN : t;
    case PASCAL_COL_MARGIN: return pascal_static_margin(v, C, eps);
    default: return NAN;
    }
}

/* The lru_replay model on a workload point: the kernel replay, CTAs in
 * slot order or (the *_any columns) in a random order per round. */
static double replay_column(pascal_wl_eval *we, int col, int64_t C)
{
    int any = col == PASCAL_COL_FILL_BYTES_REPLAY_ANY || col == PASCAL_COL_TRAFFIC_REPLAY_ANY;
    if (we->phased)
        return NAN;
    double f = replay_fills(we, any, C);
    switch (col) {
    case PASCAL_COL_FILL_BYTES_REPLAY: case PASCAL_COL_FILL_BYTES_REPLAY_ANY:
        return f * (double)we->w.block_bytes;
    case PASCAL_COL_TRAFFIC_REPLAY: case PASCAL_COL_TRAFFIC_REPLAY_ANY:
        return f * (double)we->w.block_bytes / (double)we->w.ideal_bytes;
    case PASCAL_COL_RHO_LRU_REPLAY: return f / (double)we->w.requests;
    default: return f / (double)we->rounds;
    }
}

/* The sector-exact columns: at the point's capacity in bytes (C blocks of
 * block_bytes when the spec gives C). */
static double exact_column(pascal_wl_eval *we, int col, const double *pv)
{
    if (we->phased)
        return NAN;
    double C = !isnan(pv[PASCAL_P_CAPACITY_BYTES]) ? pv[PASCAL_P_CAPACITY_BYTES]
                                                    : pv[PASCAL_P_C] * (double)we->w.block_bytes;
    double f = exact_fills(we, C);
    if (isnan(f))
        return NAN;
    switch (col) {
    case PASCAL_COL_FILL_BYTES_EXACT: return f;
    case PASCAL_COL_TRAFFIC_EXACT: return f / (double)we->ex.cold;
    case PASCAL_COL_IDEAL_BYTES_EXACT: return (double)we->ex.cold;
    default: return (double)we->ex.writes;
    }
}

static double wave_column(pascal_wl_eval *we, int col, const double *pv, unsigned models)
{
    int64_t C = (int64_t)pv[PASCAL_P_C];
    int kind = fill_kind(col);
    if (col >= PASCAL_COL_FILL_BYTES_EXACT && col <= PASCAL_COL_WRITE_BYTES_EXACT)
        return models & (1u << PASCAL_MODEL_LRU_REPLAY) ? exact_column(we, col, pv) : NAN;
    if (col == PASCAL_COL_FILL_BYTES_REPLAY || col == PASCAL_COL_TRAFFIC_REPLAY ||
        col == PASCAL_COL_K_LRU_REPLAY || col == PASCAL_COL_RHO_LRU_REPLAY ||
        col == PASCAL_COL_FILL_BYTES_REPLAY_ANY || col == PASCAL_COL_TRAFFIC_REPLAY_ANY)
        return models & (1u << PASCAL_MODEL_LRU_REPLAY) ? replay_column(we, col, C) : NAN;
    if (we->program && kind == F_BOUND && !we->phased) {
        double f = floor_fills(we, C);
        switch (col) {
        case PASCAL_COL_FILL_BYTES_BOUND: return f * (double)we->w.block_bytes;
        case PASCAL_COL_TRAFFIC_BOUND: return f * (double)we->w.block_bytes / (double)we->w.ideal_bytes;
        case PASCAL_COL_RHO_BOUND: return f / (double)we->w.requests;
        default: return f / (double)we->rounds;   /* K_bound: per lock-step round */
        }
    }
    if (we->program)
        return NAN;   /* the closed forms need rings (docs/workloads.md section 6) */
    if (col == PASCAL_COL_V) {
        double s = 0;
        for (int64_t i = 0; i < we->ncls; i++)
            s += (double)we->cls[i].mult * pascal_static_residency(we->cls[i].sum, C);
        return s / (double)we->waves;
    }
    if (kind < 0)
        return first_wave_column(we, col, C, isnan(pv[PASCAL_P_EPS]) ? 0 : pv[PASCAL_P_EPS]);
    double fills = kernel_fills(we, kind, C);
    double bytes = fills * (double)we->w.block_bytes;
    switch (col) {
    case PASCAL_COL_FILL_BYTES_LRU: case PASCAL_COL_FILL_BYTES_TTL:
    case PASCAL_COL_FILL_BYTES_BOUND:
        return bytes;
    case PASCAL_COL_TRAFFIC_LRU: case PASCAL_COL_TRAFFIC_TTL: case PASCAL_COL_TRAFFIC_BOUND:
        return bytes / (double)we->w.ideal_bytes;
    case PASCAL_COL_RHO_LRU: case PASCAL_COL_RHO_TTL: case PASCAL_COL_RHO_BOUND:
    case PASCAL_COL_RHO_CHE:
        return fills / kernel_requests(we);
    default:   /* K_x: misses per round over the kernel's waves N rounds */
        return fills / ((double)we->waves * (double)we->w.blocks);
    }
}

static int needs_waves(int col)
{
    int m = pascal_columns[col].model;
    return m != PASCAL_MODEL_WORKLOAD && m != PASCAL_MODEL_DYNAMIC &&
           m != PASCAL_MODEL_SHARING && m != PASCAL_MODEL_CATCHUP &&
           m != PASCAL_MODEL_SIMULATE && col != PASCAL_COL_FILL_BYTES_DYN &&
           col != PASCAL_COL_TRAFFIC_DYN && col != PASCAL_COL_FILL_BYTES_SIM &&
           col != PASCAL_COL_TRAFFIC_SIM;
}

int pascal_wl_eval_point(pascal_wl_eval *we, const pascal_point *p,
                         const struct pascal_dyn_model *dyn, const int *cols, int ncols,
                         double *out)
{
    pascal_workload w;
    int waves = 0, ok = 1;
    (void)dyn;
    for (int j = 0; j < ncols; j++)
        waves |= needs_waves(cols[j]);
    if (waves && prepare(we, p) != 0)
        ok = 0;
    int derived = pascal_workload_of_point(p->v, &w) == 0;
    for (int j = 0; j < ncols; j++) {
        int col = cols[j], m = pascal_columns[col].model;
        if (m == PASCAL_MODEL_WORKLOAD)
            out[j] = derived ? derived_column(&w, col, (int64_t)p->v[PASCAL_P_M]) : NAN;
        else if (needs_waves(col))
            out[j] = ok ? wave_column(we, col, p->v, we->models) : NAN;
        else
            out[j] = NAN;
    }
    return ok && (derived || !waves) ? 0 : -1;
}
