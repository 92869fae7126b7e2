/* The public face of calibration (pascal/calibrate.h): plain options and a
 * summary over pascal_calibrate_run, and reading a model file. */
#include "pascal/calibrate.h"

#include <stdio.h>
#include <string.h>

#include "calibrate/calibrate.h"

int pascal_calibrate_file(const pascal_calibration_options *opts,
                          pascal_calibration_summary *summary, pascal_error *err)
{
    pascal_calibrate_opts o = pascal_calibrate_default_opts();
    pascal_calibrate_result r;
    int rc;
    o.refs_path = opts->refs_path;
    o.out_path = opts->out_path;
    o.device_path = opts->device;
    if (opts->block_bytes > 0)
        o.block_bytes = opts->block_bytes;
    o.cv.baselines = opts->baselines != 0;
    o.command_line = opts->command_line;
    rc = pascal_calibrate_run(&o, &r, err);
    if (rc == 0 && summary) {
        summary->runs = r.refs.n;
        summary->keys = r.agg ? r.agg->nkeys : 0;
        summary->cv_mape = r.cv.mape[PASCAL_CV_PASCAL];
        summary->band_radius = r.cv.band_radius;
        snprintf(summary->input_sha256, sizeof summary->input_sha256, "%s", r.prov.input_sha256);
        summary->seconds = r.seconds;
    }
    pascal_calibrate_result_free(&r);
    return rc;
}

int pascal_dyn_model_load(const char *path, pascal_dyn_model **model, pascal_error *err)
{
    return pascal_calibrate_load(path, model, NULL, err);
}
