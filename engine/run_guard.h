/* What a sweep run does around its output file (internal to engine/run.c):
 * the claim on it and the digests of its resolved inputs.  The guarantees
 * are stated in docs/reliability.md. */
#ifndef PASCAL_ENGINE_RUN_GUARD_H
#define PASCAL_ENGINE_RUN_GUARD_H

#include "engine/run.h"
#include "output/lock.h"
#include "output/sink.h"

/* The digests of a run's inputs (output/digest.h) as root attributes. */
typedef struct pascal_run_digests {
    char spec[65], device[65], calibration[65], columns[65];
    pascal_attr attrs[5];   /* device_path and the four digests */
} pascal_run_digests;

/* Claims opts->out_path (output/lock.h) against the spec, its device profile
 * and its calibration; *lock is NULL when there is nothing to claim (dry
 * run, no output, stdout). */
int pascal_run_claim(const pascal_spec *spec, const pascal_run_opts *o, pascal_lock **lock,
                     pascal_error *err);

int pascal_run_digests_make(const pascal_spec *spec, const pascal_column_desc *points,
                            int npoint, const pascal_column_desc *results, int nresult,
                            pascal_run_digests *d, pascal_error *err);

#endif
