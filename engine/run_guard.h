/* What a sweep run does around its output file (internal to engine/run*.c):
 * the claim on it, the digests of its resolved inputs, and the files that
 * an earlier, interrupted or killed, run left beside it.  The guarantees are
 * stated in docs/reliability.md. */
#ifndef PASCAL_ENGINE_RUN_GUARD_H
#define PASCAL_ENGINE_RUN_GUARD_H

#include "engine/run.h"
#include "output/fs/lock.h"
#include "output/sink.h"

/* The digests of a run's inputs (output/digest.h) as root attributes. */
typedef struct pascal_run_digests {
    char spec[65], device[65], calibration[65], columns[65];
    pascal_attr attrs[5];   /* device_path and the four digests */
} pascal_run_digests;

/* Claims opts->out_path (output/fs/lock.h) against the spec, its device profile
 * and its calibration; *lock is NULL when there is nothing to claim (dry
 * run, no output, stdout). */
int pascal_run_claim(const pascal_spec *spec, const pascal_run_opts *o, pascal_lock **lock,
                     pascal_error *err);

int pascal_run_digests_make(const pascal_spec *spec, const pascal_column_desc *points,
                            int npoint, const pascal_column_desc *results, int nresult,
                            pascal_run_digests *d, pascal_error *err);

/* Before the sink opens, under the claim: a fresh run forgets what killed
 * runs left (their temporary files and journal); a resumed one first
 * recovers a killed run's rows into "<out>.partial" (pascal_sink_recover).
 * *resume is cleared when there is nothing to resume: the run starts from
 * the first point, and st->resumed_nothing says so. */
int pascal_run_prepare_output(const pascal_sink_meta *m, const pascal_column_desc *points,
                              int npoint, const pascal_column_desc *results, int nresult,
                              int *resume, pascal_run_stats *st, pascal_error *err);

#endif
