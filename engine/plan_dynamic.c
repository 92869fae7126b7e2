/* The planner's check of a dynamic sweep's calibration (engine/plan.h,
 * pascal_plan_check_dynamic): a calibration that supports none of the
 * sweep's points is bad input, every value would be NaN.  The check walks
 * the combinations of the axes the dynamic model reads (plan.c's walks) on
 * a team of threads and counts the reasons the model gives. */
#include "engine/plan_internal.h"

#include <stdio.h>
#include <string.h>

#include "calibrate/calibrate.h"
#include "engine/eval.h"
#include "engine/parallel.h"
#include "model/dynamic.h"

#define NCODES 17

/* The dynamic model's code at raw index i, or -1 when the point is dropped. */
static int dyn_code(const pascal_spec *spec, const struct pascal_dyn_model *dyn, uint64_t i)
{
    pascal_point p;
    double out[PASCAL_CALIBRATE_NCOLS];
    if (pascal_spec_point(spec, i, &p, NULL) != 1)
        return -1;
    pascal_eval_dynamic(dyn, pascal_spec_extrapolation_nan(spec) ? PASCAL_DYN_NO_HOLD : 0, p.v, out);
    return (int)out[pascal_calibrate_slot(PASCAL_COL_FALLBACK)];
}

/* One chunk [c0, c1) of the walk on a team (pascal_parallel): each thread
 * counts the codes of its share, then adds them in. */
typedef struct dyn_team {
    const pascal_spec *spec;
    const struct pascal_dyn_model *dyn;
    const walk_set *ws;
    const walk *w;
    uint64_t c0, c1;
    uint64_t *count;            /* [NCODES] */
} dyn_team;

static void dyn_body(void *ctx)
{
    dyn_team *t = ctx;
    uint64_t count[NCODES] = {0};
#pragma omp for schedule(static) nowait
    for (uint64_t k = t->c0; k < t->c1; k++) {
        int code = dyn_code(t->spec, t->dyn, pascal_plan_walk_index(t->spec, t->ws, t->w, k));
        if (code >= 0 && code < NCODES)
            count[code]++;
    }
#pragma omp critical(pascal_plan_dynamic)
    for (int k = 0; k < NCODES; k++)
        t->count[k] += count[k];
}

/* "1200 device (...), 40 family": the codes counted, most frequent first. */
static void describe_codes(const uint64_t *count, const struct pascal_dyn_model *dyn, char *buf,
                           size_t len)
{
    const pascal_dyn_params *par = pascal_dyn_model_params(dyn);
    size_t off = 0;
    int used[NCODES] = {0};
    buf[0] = 0;
    for (int round = 0; round < NCODES && off < len; round++) {
        int best = -1;
        for (int k = 0; k < NCODES; k++)
            if (!used[k] && count[k] && (best < 0 || count[k] > count[best]))
                best = k;
        if (best < 0)
            break;
        used[best] = 1;
        off += (size_t)snprintf(buf + off, len - off, "%s%llu %s", off ? ", " : "",
                                (unsigned long long)count[best], pascal_dyn_code_name(best));
        if (best == PASCAL_DYN_ERR_DEVICE && off < len && pascal_dyn_model_levels(dyn) > 1)
            off += (size_t)snprintf(buf + off, len - off, " (M or block_bytes differ from the "
                                    "calibration's device: M = %.0f x occupancy, blocks of %.0f "
                                    "bytes)", par->sms, par->block_bytes);
        else if (best == PASCAL_DYN_ERR_DEVICE && off < len)
            off += (size_t)snprintf(buf + off, len - off, " (M, C or block_bytes differ from the "
                                    "calibration's device: M = %.0f x occupancy, C = %.0f blocks "
                                    "of %.0f bytes)", par->sms, par->C, par->block_bytes);
        if (best == PASCAL_DYN_ERR_CAPACITY && off < len)
            off += (size_t)snprintf(buf + off, len - off, " (C outside the calibrated %.0f to %.0f "
                                    "blocks)", pascal_dyn_model_params(pascal_dyn_model_level(dyn, 0))->C,
                                    pascal_dyn_model_params(pascal_dyn_model_level(
                                        dyn, pascal_dyn_model_levels(dyn) - 1))->C);
    }
}

int pascal_plan_check_dynamic(const pascal_spec *spec, const struct pascal_dyn_model *dyn,
                              const pascal_plan_opts *o, pascal_error *err)
{
    uint64_t reads = BIT(PASCAL_P_OCCUPANCY) | BIT(PASCAL_P_PATH) | BIT(PASCAL_P_DEPTH) |
                     BIT(PASCAL_P_COMPUTE) | BIT(PASCAL_P_W) | BIT(PASCAL_P_N) | BIT(PASCAL_P_M) |
                     BIT(PASCAL_P_C) | BIT(PASCAL_P_BLOCK_BYTES);
    uint64_t dims, size = pascal_spec_size(spec), chunk, count[NCODES] = {0}, seen = 0;
    walk_set ws;
    walk w;
    int found = 0, line, col;
    char why[768];
    if (!dyn || !(pascal_spec_models(spec) & (1u << PASCAL_MODEL_DYNAMIC)))
        return 0;
    dims = pascal_plan_dims_of(spec, pascal_spec_param_deps(spec, reads) | pascal_spec_where_deps(spec));
    memset(&ws, 0, sizeof ws);
    pascal_plan_init_strides(spec, &ws);
    w = (walk){dims, pascal_plan_combos(spec, dims), 0, 0};
    chunk = (uint64_t)CHUNK_PER_THREAD * (uint64_t)o->threads;
    for (uint64_t c0 = 0; c0 < w.count && !found; c0 += chunk) {
        dyn_team t = {spec, dyn, &ws, &w, c0, w.count - c0 < chunk ? w.count : c0 + chunk, count};
        pascal_parallel(o->threads, dyn_body, &t);
        for (int k = 0; k < PASCAL_DYN_UNSUPPORTED; k++)
            found |= count[k] != 0;
        if (!found && pascal_plan_stop_requested(o))
            return pascal_error_set(err, PASCAL_EINTR, "stopped while checking the calibration; "
                                    "nothing written");
    }
    if (found)
        return 0;
    for (int k = 0; k < NCODES; k++)
        seen += count[k];
    if (seen == 0) /* nothing kept: the `where` check reports it */
        return 0;
    describe_codes(count, dyn, why, sizeof why);
    pascal_spec_calibration(spec, &line, &col);
    return pascal_error_set(err, PASCAL_EINPUT, "%s:%d:%d: calibration: expected a calibration that "
                            "supports some point of the sweep, got none of %llu distinct points "
                            "(%s): %s", pascal_spec_filename(spec), line, col,
                            (unsigned long long)seen, w.count < size ? "over the axes it reads" : "every point",
                            why);
}
