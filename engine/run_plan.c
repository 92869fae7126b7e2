/* A sweep run's plan and inputs, the steps that come before any output and
 * that both drivers take, the one-process run (run.c) and the MPI ranks'
 * pieces (run_work.c, engine/mpi/): the shard's slice of the raw indices,
 * the estimate and the check pass (engine/plan.h), the checks of the whole
 * run, and the two inputs a spec names beside itself, the dynamic model's
 * calibration and the simulator's timing.  Calls no other run*.c file
 * but run_batch.c (whether the spec is slow, the batches' memory). */
#include "engine/run_private.h"

#include <string.h>

#include "calibrate/calibrate.h"
#include "devices/sim_timing.h"

void pascal_run_shard_range(uint64_t size, int k, int n, uint64_t *begin, uint64_t *end)
{
    *begin = (uint64_t)((unsigned __int128)size * (unsigned)(k - 1) / (unsigned)n);
    *end = (uint64_t)((unsigned __int128)size * (unsigned)k / (unsigned)n);
}

/* The checks of the whole run once its points are counted: a shard may
 * hold no kept point, the whole sweep must hold one; a dynamic sweep needs
 * a supported point. */
int pascal_run_plan_whole(const pascal_spec *spec, const pascal_plan_opts *po,
                          const pascal_dyn_model *dyn, const pascal_run_stats *st,
                          pascal_error *err)
{
    int whole = st->raw_begin == 0 && st->raw_end == pascal_spec_size(spec);
    if (st->rows == 0 && whole)
        return pascal_spec_where_error(spec, err, "expected at least one point to pass `where`, got "
                                       "none of the %llu points", (unsigned long long)st->raw_points);
    return pascal_plan_check_dynamic(spec, dyn, po, err);
}

/* Pass 1 (engine/plan.h): the estimate, then every check before any output
 * exists.  The reported error is the one at the smallest index, whatever
 * the thread count. */
int pascal_run_plan(const pascal_spec *spec, int threads, const pascal_run_opts *o,
                    const pascal_dyn_model *dyn, pascal_run_stats *st, pascal_error *err)
{
    pascal_plan_opts po = {threads, o->memory_bytes, o->check_progress, o->progress_ctx, o->stop_flag,
                           pascal_run_buffer_bytes(spec, o, st->raw_begin, st->raw_end)};
    pascal_plan_estimate e;
    pascal_plan_result r;
    int rc;
    if (o->on_estimate) {
        pascal_plan_estimate_run(spec, st->raw_begin, st->raw_end, &po, &e);
        o->on_estimate(o->estimate_ctx, &e);
    }
    if ((rc = pascal_plan_check(spec, st->raw_begin, st->raw_end, &po, &r, err)) != 0)
        return rc;
    st->raw_points = st->raw_end - st->raw_begin;
    st->rows = r.rows;
    st->max_M = r.max_M;
    return pascal_run_plan_whole(spec, &po, dyn, st, err);
}

/* The dynamic model's calibration, loaded once per run and shared
 * read-only by every thread; a bad file is the spec's error. */
int pascal_run_load_calibration(const pascal_spec *spec, pascal_dyn_model **dyn, pascal_error *err)
{
    int line, col, rc;
    const char *path = pascal_spec_calibration(spec, &line, &col);
    pascal_error sub = {0};
    *dyn = NULL;
    if (!(pascal_spec_models(spec) & (1u << PASCAL_MODEL_DYNAMIC)) || !path[0])
        return 0;
    if ((rc = pascal_calibrate_load(path, dyn, NULL, &sub)) == 0)
        return 0;
    return pascal_error_set(err, rc == PASCAL_ENOMEM ? rc : PASCAL_EINPUT, "%s:%d:%d: calibration: %s",
                            pascal_spec_filename(spec), line, col, sub.msg);
}

/* The simulator's timing from the spec's device profile, when the spec asks
 * for the simulate model. */
int pascal_run_load_sim_timing(const pascal_spec *spec, pascal_sim_timing *tm, int *have,
                               pascal_error *err)
{
    int n = pascal_spec_ndevices(spec) ? pascal_spec_ndevices(spec) : 1;
    pascal_error sub = {0};
    *have = 0;
    if (!pascal_run_slow_spec(spec))
        return 0;
    if (!pascal_spec_device_text(spec)[0])
        return pascal_error_set(err, PASCAL_EINPUT, "%s: models: simulate needs a device profile "
                                "with a sim section: expected a top-level key device: PROFILE, "
                                "got none", pascal_spec_filename(spec));
    /* One timing per profile: a device axis's, else the spec's one. */
    for (int k = 0; k < n; k++) {
        const char *text = pascal_spec_ndevices(spec) ? pascal_spec_device_text_k(spec, k)
                                                      : pascal_spec_device_text(spec);
        const char *path = pascal_spec_ndevices(spec) ? pascal_spec_device_path_k(spec, k)
                                                      : pascal_spec_device_path(spec);
        if (pascal_device_sim_parse(text, strlen(text), path, &tm[k], &sub) != 0)
            return pascal_error_set(err, sub.code == PASCAL_ENOMEM ? sub.code : PASCAL_EINPUT,
                                    "%s: models: simulate needs the device's timing: %s",
                                    pascal_spec_filename(spec), sub.msg);
    }
    *have = n;
    return 0;
}
