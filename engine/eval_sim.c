/* The simulate model's configurations at sweep points (eval_sim.h). */
#include "engine/eval_sim.h"

#include <math.h>
#include <stdlib.h>

#include "engine/eval_phases.h"
#include "model/phases.h"
#include "sweeps/workload.h"

struct pascal_wl_sim {
    int64_t cap_req, cap_M, cap_scratch;   /* entries the arrays hold */
    int64_t *base, *len, *phase;           /* the work table: ctas units each */
    int64_t *dir, *steps;                  /* a program's: ctas units, ctas */
    uint8_t *chain;                        /* cutlass-streamk's: ctas */
    int64_t *slot_phase, *scratch;
    pascal_sim_work work;
};

static double or_default(double v, double dflt)
{
    return isnan(v) ? dflt : v;
}

/* An integer parameter that is set: 1, else 0. */
static int whole(double v)
{
    return !isnan(v) && v == floor(v);
}

int pascal_eval_sim_config(const double *v, pascal_sim_config *c)
{
    double o = v[PASCAL_P_OCCUPANCY], path = v[PASCAL_P_PATH], sms = v[PASCAL_P_SMS];
    *c = pascal_sim_default_config();
    if (!whole(o) || !whole(sms) || !(path == 0 || path == 1) || !whole(v[PASCAL_P_COMPUTE]) ||
        (path == 1 && !whole(v[PASCAL_P_DEPTH])) || v[PASCAL_P_M] != sms * o ||
        !whole(v[PASCAL_P_N]) || !whole(v[PASCAL_P_C]))
        return -1;
    c->sms = (int64_t)sms;
    c->occupancy = (int64_t)o;
    c->path = (int)path;
    c->depth = path == 1 ? (int64_t)v[PASCAL_P_DEPTH] : 1;
    c->compute = (int64_t)v[PASCAL_P_COMPUTE];
    c->N = (int64_t)v[PASCAL_P_N];
    c->W = v[PASCAL_P_W];
    c->C = (int64_t)v[PASCAL_P_C];
    c->assoc = whole(v[PASCAL_P_ASSOC]) ? (int64_t)v[PASCAL_P_ASSOC] : 0;
    c->block_bytes = or_default(v[PASCAL_P_BLOCK_BYTES], 16384);
    c->seed = (uint64_t)or_default(v[PASCAL_P_SEED], 1);
    return 0;
}

pascal_wl_sim *pascal_wl_sim_create(void)
{
    return calloc(1, sizeof(pascal_wl_sim));
}

static void free_arrays(pascal_wl_sim *s)
{
    free(s->base), free(s->len), free(s->phase), free(s->slot_phase), free(s->scratch);
    free(s->dir), free(s->steps), free(s->chain);
    s->base = s->len = s->phase = s->slot_phase = s->scratch = s->dir = s->steps = NULL;
    s->chain = NULL;
    s->cap_req = s->cap_M = s->cap_scratch = 0;
}

void pascal_wl_sim_free(pascal_wl_sim *s)
{
    if (!s)
        return;
    free_arrays(s);
    free(s);
}

static int grow(pascal_wl_sim *s, int64_t req, int64_t M, int64_t scratch)
{
    if (req <= s->cap_req && M <= s->cap_M && scratch <= s->cap_scratch)
        return 0;
    /* a program's step counts take at most req entries (units >= 1) */
    req = req > s->cap_req ? req : s->cap_req;
    M = M > s->cap_M ? M : s->cap_M;
    scratch = scratch > s->cap_scratch ? scratch : s->cap_scratch;
    free_arrays(s);
    s->base = malloc((size_t)req * sizeof *s->base);
    s->len = malloc((size_t)req * sizeof *s->len);
    s->phase = malloc((size_t)req * sizeof *s->phase);
    s->slot_phase = malloc((size_t)M * sizeof *s->slot_phase);
    s->scratch = malloc((size_t)scratch * sizeof *s->scratch);
    s->dir = malloc((size_t)req * sizeof *s->dir);
    s->steps = malloc((size_t)req * sizeof *s->steps);
    s->chain = malloc((size_t)req * sizeof *s->chain);
    if (!s->base || !s->len || !s->phase || !s->slot_phase || !s->scratch || !s->dir || !s->steps ||
        !s->chain) {
        free_arrays(s);
        return -1;
    }
    s->cap_req = req, s->cap_M = M, s->cap_scratch = scratch;
    return 0;
}

int pascal_wl_sim_config(pascal_wl_sim *s, const pascal_point *p, pascal_sim_config *c,
                         pascal_workload *w)
{
    pascal_pattern pat;
    int64_t M;
    if (pascal_workload_of_point(p->v, w) != 0 || pascal_eval_sim_config(p->v, c) != 0 ||
        w->streams > INT32_MAX / w->blocks)
        return -1;
    /* A persistent kernel (flash-attn-3): its grid of one CTA per SM, the
     * tiles launched in the scheduler's order into whichever CTA frees
     * first, as the dynamic scheduler hands them out (the static one's
     * fixed stride is approximated by the same pull). */
    if (w->persistent) {
        if (w->grid < c->sms) {   /* fewer tiles than SMs (cutlass-3): one CTA on each of grid SMs */
            c->sms = w->grid;
            c->occupancy = 1;
        } else if (w->grid % c->sms != 0) {
            return -1;
        } else {
            c->occupancy = w->grid / c->sms;
        }
    }
    M = c->sms * c->occupancy;
    if (grow(s, w->ctas * w->units, M, pascal_sim_work_scratch(w, M)) != 0)
        return -2;
    if (!w->ring || w->persistent) {
        /* A request program (causal, split-KV, persistent tiles): CTA c runs its own steps,
         * each stream read over the contiguous range pascal_workload_cta_block
         * gives, forward or from its last block down. */
        int64_t N = w->blocks, st[64], ctas = 0;
        for (int64_t t = 0; t < w->ctas; t++) {
            int64_t n = pascal_workload_cta_steps(w, t), k = ctas;
            /* cutlass-streamk: its items with work, in launch order, each
             * launch's tiles chained in its slot */
            if (w->persistent == 3 && n == 0)
                continue;
            ctas++;
            s->chain[k] = w->persistent == 3 && t % w->sk.items + 1 < w->sk.items &&
                          pascal_workload_cta_steps(w, t + 1) > 0;
            int64_t first = n > 0 ? pascal_workload_cta_block(w, t, 0) : 0;
            int64_t dir = n > 1 && pascal_workload_cta_block(w, t, 1) < first ? -1 : 1;
            pascal_workload_cta(w, t, st);
            s->steps[k] = n;
            for (int64_t u = 0; u < w->units; u++) {
                int64_t e = k * w->units + u;
                s->base[e] = st[u] * N;
                s->len[e] = N;
                s->phase[e] = first;
                s->dir[e] = dir;
            }
        }
        s->work = (pascal_sim_work){ctas, w->units, w->streams * N, s->base, s->len, s->phase,
                                    s->steps, s->dir, w->persistent == 3 ? s->chain : NULL};
        c->work = &s->work;
        c->N = N;
        c->block_bytes = (double)w->block_bytes;
        c->W = (double)ctas / (double)M;
        return 0;
    }
    /* Slot q's phase: the point's pattern over M workers on a ring of N
     * blocks, as the static waves take it (eval_workload.c). */
    pascal_eval_pattern(p, &pat);
    if (pascal_phases_generate(&pat, w->blocks, M, s->slot_phase) != 0 ||
        pascal_sim_work_of_workload(w, M, s->slot_phase, s->base, s->len, s->phase, s->scratch,
                                    &s->work) != 0)
        return -1;
    c->work = &s->work;
    c->N = w->blocks;
    c->block_bytes = (double)w->block_bytes;
    c->W = (double)w->ctas / (double)M;
    return 0;
}

double pascal_wl_sim_bytes(const double *v)
{
    pascal_workload w;
    double M = v[PASCAL_P_M], ring = 1, depth = or_default(v[PASCAL_P_DEPTH], 1);
    if (pascal_workload_of_point(v, &w) != 0 || !(M >= 1))
        return NAN;
    while (ring < depth)
        ring *= 2;
    double req = (double)w.ctas * (double)w.units;
    double table = 8 * (3 * req + M + (double)pascal_sim_work_scratch(&w, (int64_t)M));
    /* The simulator's workspace (model/sim.c): a link pair, a fill time
     * and a set index per block; per set its list ends and count; per slot
     * its state, arrival ring, SM servers and eight event-queue places of
     * 16 bytes (bounded generously). */
    double blocks = (double)w.streams * (double)w.blocks, C = v[PASCAL_P_C];
    double sets = v[PASCAL_P_ASSOC] >= 1 && C >= 1 ? floor(C / v[PASCAL_P_ASSOC]) : 1;
    return (double)sizeof(pascal_wl_sim) + table + 24 * blocks + 12 * sets + (256 + 8 * ring) * M;
}

double pascal_wl_sim_rounds(const pascal_workload *w, int64_t M)
{
    if (w->persistent) {
        /* the replay's rounds: until the last slot runs out of tiles */
        int64_t *mem = malloc((size_t)(2 * w->grid) * sizeof *mem);
        pascal_psched ps;
        double rounds = 0;
        if (!mem)
            return NAN;
        pascal_psched_init(&ps, w, mem, mem + w->grid);
        for (int64_t q = 0; q < ps.G; q++)
            pascal_psched_take(&ps, q, 1, NULL, NULL);
        for (int live = 1; live; rounds++) {
            live = 0;
            for (int64_t q = 0; q < ps.G; q++)
                if (ps.tile[q] >= 0 && ++ps.step[q] == pascal_workload_cta_rounds(w, ps.tile[q]))
                    pascal_psched_take(&ps, q, 0, NULL, NULL);
            for (int64_t q = 0; q < ps.G; q++)
                live |= ps.tile[q] >= 0;
        }
        free(mem);
        return rounds;
    }
    if (w->ring)
        return (double)pascal_workload_waves(w, M) * (double)w->blocks;
    /* a program: each wave as long as its longest CTA, as the replay runs it */
    double rounds = 0;
    for (int64_t c0 = 0; c0 < w->ctas; c0 += M) {
        int64_t longest = 0;
        for (int64_t c = c0; c < c0 + M && c < w->ctas; c++) {
            int64_t n = pascal_workload_cta_steps(w, c);
            longest = n > longest ? n : longest;
        }
        rounds += (double)longest;
    }
    return rounds;
}

void pascal_wl_sim_columns(const pascal_workload *w, int64_t M, const pascal_sim_result *r,
                           double *out)
{
    double rounds = pascal_wl_sim_rounds(w, M);
    double bytes = (double)r->fills * (double)w->block_bytes;
    out[0] = (double)r->fills / rounds;
    out[1] = (double)r->fills / (double)r->requests;
    out[2] = r->makespan_ns / rounds;
    out[3] = bytes;
    out[4] = bytes / (double)w->ideal_bytes;
}
