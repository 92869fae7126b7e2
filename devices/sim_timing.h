/* The simulator's section of a device profile (configs/devices/NAME.yaml):
 *
 *   sim:
 *     hit_ns: {value: 150, source: "fit: paper section 3.6, ..."}
 *     l2_bytes_per_ns: {value: 2100, source: "measurement: ..."}
 *     ...
 *
 * Every timing parameter of model/sim.h is required, each with its value
 * and its source, which starts with what kind of source it is: "datasheet:",
 * "measurement:", "fit:" (to a named fact), "derived:" (from other values)
 * or "assumed:".  The section is checked with the rest of the profile
 * whenever a spec names the profile; a bad value is rejected with its file,
 * line, column and key. */
#ifndef PASCAL_DEVICES_SIM_TIMING_H
#define PASCAL_DEVICES_SIM_TIMING_H

#include <stddef.h>

#include "common/error.h"
#include "model/sim.h"

#ifdef __cplusplus
extern "C" {
#endif

#define PASCAL_DEVICE_SIM_NKEYS 20
/* The first 13 keys are required; the rest, the finer mechanisms of
 * docs/simulate.md section 3.1 and the issue order of 3.2, are 0 (off)
 * when absent. */
#define PASCAL_DEVICE_SIM_NREQUIRED 13
/* The keys of the `sim` section, in the order of pascal_sim_timing. */
extern const char *const pascal_device_sim_keys[PASCAL_DEVICE_SIM_NKEYS];

/* The field of key k (an index into pascal_device_sim_keys). */
double *pascal_device_sim_field(pascal_sim_timing *t, int k);
/* NULL when v is acceptable for key k, else what is accepted. */
const char *pascal_device_sim_check(int k, double v);

/* The `sim` section of a profile's text (`file` names it in messages).
 * PASCAL_EINPUT when the section is missing or wrong. */
int pascal_device_sim_parse(const char *text, size_t len, const char *file,
                            pascal_sim_timing *out, pascal_error *err);
/* The same, reading the profile at `path`. */
int pascal_device_sim_load(const char *path, pascal_sim_timing *out, pascal_error *err);

#ifdef __cplusplus
}
#endif

#endif
