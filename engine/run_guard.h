/* What a sweep run does around its output file (internal to engine/run.c):
 * the claim on it.  The guarantees are stated in docs/reliability.md. */
#ifndef PASCAL_ENGINE_RUN_GUARD_H
#define PASCAL_ENGINE_RUN_GUARD_H

#include "engine/run.h"
#include "output/lock.h"
#include "output/sink.h"

/* Claims opts->out_path (output/lock.h) against the spec, its device profile
 * and its calibration; *lock is NULL when there is nothing to claim (dry
 * run, no output, stdout). */
int pascal_run_claim(const pascal_spec *spec, const pascal_run_opts *o, pascal_lock **lock,
                     pascal_error *err);

#endif
