/* Static spot-check plans: which points of a sweep spec to measure, with
 * their phase vectors (what the kernel's CTAs start at) and the static
 * model's predictions at each (what the measurement is compared with).
 * Points are numbered as `pascal run` numbers its rows: the kept points in
 * canonical order. */
#include "spot/spot.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/eval.h"
#include "engine/eval_phases.h"
#include "model/phases.h"

const int pascal_spot_pred_columns[PASCAL_SPOT_NPRED] = {
    [PASCAL_SPOT_PRED_K_TTL] = PASCAL_COL_K_TTL,
    [PASCAL_SPOT_PRED_K_LRU] = PASCAL_COL_K_LRU,
    [PASCAL_SPOT_PRED_K_LRU_LO] = PASCAL_COL_K_LRU_LO,
    [PASCAL_SPOT_PRED_K_LRU_HI] = PASCAL_COL_K_LRU_HI,
    [PASCAL_SPOT_PRED_K_SDCM] = PASCAL_COL_K_SDCM,
    [PASCAL_SPOT_PRED_K_BOUND] = PASCAL_COL_K_BOUND,
    [PASCAL_SPOT_PRED_K_CHE] = PASCAL_COL_K_CHE,
};

int pascal_spot_count_kept(const pascal_spec *spec, int64_t *kept, pascal_error *err)
{
    uint64_t size = pascal_spec_size(spec);
    pascal_point p;
    *kept = 0;
    for (uint64_t i = 0; i < size; i++) {
        int rc = pascal_spec_point(spec, i, &p, err);
        if (rc < 0)
            return rc;
        *kept += rc;
    }
    return 0;
}

void pascal_spot_plan_free(pascal_spot_plan *plan)
{
    if (!plan)
        return;
    for (int64_t i = 0; i < plan->npoints; i++)
        free(plan->points[i].phases);
    free(plan->points);
    free(plan);
}

/* Checks what the kernel needs of a point and fills N, M, C, block_bytes. */
static int check_point(pascal_spot_point *sp, const char *file, pascal_error *err)
{
    const double *v = sp->point.v;
    double b = v[PASCAL_P_BLOCK_BYTES];
    if (isnan(b))
        return pascal_error_set(err, PASCAL_EINPUT,
                                "%s: point %lld: block_bytes: expected a block size (the kernel "
                                "scans blocks of that many bytes), got nothing",
                                file, (long long)sp->ordinal);
    if (fmod(b, 16) != 0)
        return pascal_error_set(err, PASCAL_EINPUT,
                                "%s: point %lld: block_bytes: expected a multiple of 16 bytes "
                                "(one 16-byte lane per thread), got %.17g",
                                file, (long long)sp->ordinal, b);
    sp->N = (int64_t)v[PASCAL_P_N];
    sp->M = (int64_t)v[PASCAL_P_M];
    sp->C = (int64_t)v[PASCAL_P_C];
    sp->block_bytes = b;
    return 0;
}

/* Phases (what the CTAs start at) and predictions at horizon = rounds. */
static int fill_point(pascal_spot_point *sp, pascal_eval *ev, int64_t rounds,
                      const char *file, pascal_error *err)
{
    pascal_pattern pat;
    int cols[PASCAL_SPOT_NPRED], ncols = 0;
    double out[PASCAL_SPOT_NPRED];
    sp->phases = malloc((size_t)sp->M * sizeof *sp->phases);
    if (!sp->phases)
        return pascal_error_set(err, PASCAL_ENOMEM, "spot-check plan: out of memory");
    pascal_eval_pattern(&sp->point, &pat);
    if (pascal_phases_generate(&pat, sp->N, sp->M, sp->phases) != 0)
        return pascal_error_set(err, PASCAL_EINPUT,
                                "%s: point %lld: expected a phase pattern valid for N = %lld, "
                                "M = %lld, got one that cannot be generated",
                                file, (long long)sp->ordinal, (long long)sp->N,
                                (long long)sp->M);
    if (isnan(sp->point.v[PASCAL_P_HORIZON]))
        sp->point.v[PASCAL_P_HORIZON] = (double)rounds;
    for (int j = 0; j < PASCAL_SPOT_NPRED; j++)
        if (j != PASCAL_SPOT_PRED_K_SDCM || !isnan(sp->point.v[PASCAL_P_ASSOC]))
            cols[ncols++] = pascal_spot_pred_columns[j];
    pascal_eval_point(ev, &sp->point, cols, ncols, out);
    for (int j = 0, k = 0; j < PASCAL_SPOT_NPRED; j++)
        sp->pred[j] = (j != PASCAL_SPOT_PRED_K_SDCM || !isnan(sp->point.v[PASCAL_P_ASSOC]))
                          ? out[k++] : NAN;
    return 0;
}

/* Walks the kept points once, expanding those whose ordinal is listed. */
static int collect(pascal_spot_plan *plan, const int64_t *ordinals, int64_t n,
                   pascal_eval *ev, pascal_error *err)
{
    const pascal_spec *spec = plan->spec;
    const char *file = pascal_spec_filename(spec);
    uint64_t size = pascal_spec_size(spec);
    int64_t ord = 0, next = 0;
    pascal_point p;
    for (uint64_t i = 0; i < size && next < n; i++) {
        int rc = pascal_spec_point(spec, i, &p, err);
        pascal_spot_point *sp;
        if (rc < 0)
            return rc;
        if (rc == 0)
            continue;
        if (ord++ != ordinals[next])
            continue;
        sp = &plan->points[next++];
        plan->npoints = next;
        sp->ordinal = ord - 1;
        sp->raw_index = i;
        sp->point = p;
        if ((rc = check_point(sp, file, err)) != 0 ||
            (rc = fill_point(sp, ev, plan->rounds, file, err)) != 0)
            return rc;
    }
    if (next < n)
        return pascal_error_set(err, PASCAL_EINPUT,
                                "%s: expected point %lld, got only %lld points after `where`",
                                file, (long long)ordinals[next], (long long)ord);
    return 0;
}

int pascal_spot_plan_build(const pascal_spec *spec, const int64_t *ordinals, int64_t n,
                           int64_t rounds, pascal_spot_plan **out, pascal_error *err)
{
    unsigned models = (1u << PASCAL_MODEL_TTL) | (1u << PASCAL_MODEL_LRU_BAND) |
                      (1u << PASCAL_MODEL_LRU) | (1u << PASCAL_MODEL_SDCM) |
                      (1u << PASCAL_MODEL_RESIDENCY) | (1u << PASCAL_MODEL_CHE);
    pascal_spot_plan *plan;
    pascal_eval *ev;
    int rc;
    *out = NULL;
    if (rounds < 1)
        return pascal_error_set(err, PASCAL_EINPUT,
                                "--rounds: expected an integer >= 1, got %lld", (long long)rounds);
    for (int64_t i = 1; i < n; i++)
        if (ordinals[i] <= ordinals[i - 1])
            return pascal_error_set(err, PASCAL_EINTERNAL, "spot-check plan: ordinals not ascending");
    plan = calloc(1, sizeof *plan);
    ev = pascal_eval_create(models);
    if (plan)
        plan->points = calloc((size_t)(n > 0 ? n : 1), sizeof *plan->points);
    if (!plan || !ev || !plan->points) {
        pascal_eval_free(ev);
        pascal_spot_plan_free(plan);
        return pascal_error_set(err, PASCAL_ENOMEM, "spot-check plan: out of memory");
    }
    plan->spec = spec;
    plan->rounds = rounds;
    rc = collect(plan, ordinals, n, ev, err);
    pascal_eval_free(ev);
    if (rc == 0)
        rc = pascal_spot_count_kept(spec, &plan->kept, err);
    if (rc != 0) {
        pascal_spot_plan_free(plan);
        return rc;
    }
    *out = plan;
    return 0;
}
