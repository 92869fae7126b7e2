/* The planner's bounds (engine/plan.h lists them): the integer limits of
 * the code a point would reach, and the memory its workspaces take on every
 * thread against this machine's (or the --memory option's).  The check pass
 * (plan.c) and the estimate (plan_estimate.c) call these at each kept
 * point; this file calls neither. */
#include "engine/plan_internal.h"
#include "sweeps/workload.h"

#include <math.h>
#include <stdio.h>
#include <unistd.h>

#include "engine/eval.h"
#include "engine/eval_sim.h"
#include "engine/eval_workload.h"
#include "model/chain.h"
#include "model/replay.h"

/* ---- machine memory -------------------------------------------------------- */

double pascal_plan_machine_memory(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
    double bytes = pages > 0 && size > 0 ? (double)pages * (double)size : INFINITY;
    FILE *f = fopen("/sys/fs/cgroup/memory.max", "r"); /* cgroup v2; "max" when unlimited */
    double lim;
    if (f) {
        if (fscanf(f, "%lf", &lim) == 1 && lim > 0 && lim < bytes)
            bytes = lim;
        fclose(f);
    }
    return bytes;
}

/* ---- bounds ---------------------------------------------------------------- */

static void human_bytes(double b, char *buf, size_t len)
{
    static const char *u[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    int k = 0;
    while (b >= 1024 && k < 6)
        b /= 1024, k++;
    snprintf(buf, len, k ? "%.1f %s" : "%.0f %s", b, u[k]);
}

uint64_t pascal_plan_bound_params(unsigned models)
{
    uint64_t m = BIT(PASCAL_P_N) | BIT(PASCAL_P_M);
    if (models & (1u << PASCAL_MODEL_BELADY))
        m |= BIT(PASCAL_P_ROUNDS);
    return m;
}

static int fail_memory(const plan_ctx *c, const pascal_point *p, uint64_t i, double need,
                       pascal_error *err)
{
    char per[32], all[32], have[32], held[32], plus[64] = "";
    int threads = c->o->threads, wl = !isnan(p->v[PASCAL_P_WORKLOAD]);
    int rp = pascal_plan_replay_models(c->models) != 0 && !wl;
    human_bytes(need, per, sizeof per);
    human_bytes(need * threads, all, sizeof all);
    human_bytes(c->memory, have, sizeof have);
    if (c->o->reserved_bytes > 0) {
        human_bytes(c->o->reserved_bytes, held, sizeof held);
        snprintf(plus, sizeof plus, " plus %s of batch buffers", held);
    }
    /* The workspaces alone would fit: the batch size is what does not
     * (run --batch), not the spec's M or N. */
    if (c->o->reserved_bytes > 0 && need * threads <= c->memory)
        return pascal_error_set(err, PASCAL_EINPUT, "--batch: expected batch buffers that fit in "
                                "memory (%s%s) beside the workspaces (%s for %d threads), got %s; "
                                "a smaller --batch", have,
                                c->o->memory_bytes > 0 ? ", --memory" : " on this machine", all,
                                threads, held);
    return pascal_spec_point_error(c->spec, rp || wl ? PASCAL_P_N : PASCAL_P_M, p, i,
                                   BIT(PASCAL_P_N) | BIT(PASCAL_P_M), err,
                                   "expected the models' workspaces to fit in memory (%s%s), got %s per "
                                   "thread at N = %.0f, M = %.0f, %s for %d threads%s (fewer --threads, or "
                                   "smaller %s)",
                                   have, c->o->memory_bytes > 0 ? ", --memory" : " on this machine", per,
                                   p->v[PASCAL_P_N], p->v[PASCAL_P_M], all, threads, plus,
                                   rp ? "N" : wl ? "M or workload (its waves hold M units requests each)" : "M");
}

/* The bounds of plan.h at a kept, valid point; err may be NULL.  A
 * workload point's waves take the pattern's phases for M slots on rings of
 * N blocks, as a plain point does; the replay models are NaN there (the
 * kernel replay of lru_replay has its own limits and gives NaN past them),
 * and its memory is the wave evaluator's (eval_workload.h). */
int pascal_plan_check_bounds(const plan_ctx *c, const pascal_point *p, uint64_t i, pascal_error *err)
{
    double N = p->v[PASCAL_P_N], M = p->v[PASCAL_P_M], need;
    uint64_t nm = BIT(PASCAL_P_N) | BIT(PASCAL_P_M);
    int wl = !isnan(p->v[PASCAL_P_WORKLOAD]);
    int wl_sim = wl && (c->models & (1u << PASCAL_MODEL_SIMULATE));
    if (!isnan(p->v[PASCAL_P_PHASE])) {
        /* A model step holds one wave evaluator per kernel (engine/eval.c). */
        double sub[PASCAL_NPARAM];
        int64_t count;
        need = pascal_eval_bytes(0, 0, 0);
        pascal_step st;
        for (int op = 0; op < PASCAL_OP_COUNT; op++)
            if (pascal_step_kernel_point(p->v, op, sub, &count) == 0)
                need += pascal_wl_eval_bytes(c->models, sub);
        /* ... and, with lru_replay, the step as one program */
        if ((c->models & (1u << PASCAL_MODEL_LRU_REPLAY)) && pascal_step_of_point(p->v, &st) == 0)
            need += pascal_chain_bytes(&st, (int64_t)p->v[PASCAL_P_M]);
        if (need * c->o->threads + c->o->reserved_bytes > c->memory)
            return fail_memory(c, p, i, need, err);
        return 0;
    }
    if (!(wl ? pascal_wl_wave_models(c->models) || wl_sim : pascal_plan_phased_models(c->models)))
        return 0;
    if (M > PASCAL_PLAN_MAX_M)
        return pascal_spec_point_error(c->spec, PASCAL_P_M, p, i, BIT(PASCAL_P_M), err,
                                       "expected M <= %.0f workers (the patterns' exact integer "
                                       "arithmetic), got M = %.0f", PASCAL_PLAN_MAX_M, M);
    if (N * M > 9223372036854775807.0)
        return pascal_spec_point_error(c->spec, PASCAL_P_N, p, i, nm, err,
                                       "expected N * M <= 2^63 - 1 (Theorem 4's interval numerators "
                                       "sum to N M), got N * M = %.0f * %.0f = %.4g", N, M, N * M);
    if (!wl && pascal_plan_replay_models(c->models) && N > (double)PASCAL_REPLAY_MAX_N)
        return pascal_spec_point_error(c->spec, PASCAL_P_N, p, i, BIT(PASCAL_P_N), err,
                                       "expected N <= %lld blocks (2^28, the largest ring the %s "
                                       "model's LRU replay holds), got N = %.0f",
                                       (long long)PASCAL_REPLAY_MAX_N,
                                       (c->models & (1u << PASCAL_MODEL_BELADY)) ? "belady" : "lru_replay",
                                       N);
    if (!wl && (c->models & (1u << PASCAL_MODEL_BELADY)) &&
        (double)pascal_plan_belady_rounds(p->v) * M > 4611686018427387904.0)
        return pascal_spec_point_error(c->spec, isnan(p->v[PASCAL_P_ROUNDS]) ? PASCAL_P_N : PASCAL_P_ROUNDS,
                                       p, i, nm | BIT(PASCAL_P_ROUNDS), err,
                                       "expected rounds * M <= 2^62 (belady's request times), got "
                                       "%lld * %.0f", (long long)pascal_plan_belady_rounds(p->v), M);
    need = wl ? pascal_eval_bytes(0, 0, 0) + pascal_wl_eval_bytes(c->models, p->v) +
                    (wl_sim ? pascal_wl_sim_bytes(p->v) : 0)
              : pascal_eval_bytes(c->models, (int64_t)N, (int64_t)M);
    if (need * c->o->threads + c->o->reserved_bytes > c->memory)
        return fail_memory(c, p, i, need, err);
    return 0;
}

void pascal_plan_ctx_init(plan_ctx *c, const pascal_spec *spec, const pascal_plan_opts *o)
{
    c->spec = spec;
    c->o = o;
    c->models = pascal_spec_models(spec);
    c->memory = o->memory_bytes > 0 ? o->memory_bytes : pascal_plan_machine_memory();
}

