/* The dynamic model's calibration (paper section 4.5, docs/dynamic.md):
 * reference runs (CSV `o,path,d,m,N,W,K`, measured on a GPU by `pascal
 * measure-refs` or simulated by `pascal measure-refs --simulate`) in, a
 * frozen model file out, whose predictions pascal/model.h answers
 * (pascal_dyn_predict) and sweeps use through a spec's `calibration:`. */
#ifndef PASCAL_CALIBRATE_H
#define PASCAL_CALIBRATE_H

#include <stdint.h>

#include "pascal/error.h"
#include "pascal/model.h"
#include "pascal/version.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What calibration and the simulator need of a device profile
 * (configs/devices/NAME.yaml): its SMs and its effective (else nominal) L2
 * bytes; name is "" when the profile has none. */
typedef struct pascal_device_facts {
    double sms;
    double capacity_bytes;
    char name[128];             /* the profile's name: ("NVIDIA GB10") */
    char path[1024];            /* the file read */
} pascal_device_facts;

/* `profile` is a path, or a shipped profile's name ("gb10": `pascal list
 * devices`).  PASCAL_EINPUT when it cannot be found, read or parsed. */
PASCAL_API int pascal_device_facts_load(const char *profile, pascal_device_facts *out,
                                        pascal_error *err);

/* Zero-initialise, then set what you need. */
typedef struct pascal_calibration_options {
    const char *refs_path;      /* the reference runs (CSV or HDF5) */
    const char *device;         /* a device profile's path or name: sms and
                                   the effective L2 of the references */
    const char *out_path;       /* the model file; NULL: fit and validate only */
    double block_bytes;         /* bytes per block; <= 0: 16 KiB, as the paper */
    int baselines;              /* also cross-validate the baselines (slower) */
    const char *command_line;   /* recorded in the file (NULL: "") */
} pascal_calibration_options;

typedef struct pascal_calibration_summary {
    int64_t runs;               /* reference rows read */
    int64_t keys;               /* configuration keys (o, path, d, m) */
    double cv_mape;             /* leave-one-key-out key-balanced MAPE, % (eq. 26) */
    double band_radius;         /* log radius of the prediction band */
    char input_sha256[65];      /* digest of the reference file */
    double seconds;
} pascal_calibration_summary;

/* Fits the model on every reference run, cross-validates it and writes the
 * model file (created only when complete).  PASCAL_EINPUT names the file,
 * line and column of a bad reference row.  summary may be NULL. */
PASCAL_API int pascal_calibrate_file(const pascal_calibration_options *opts,
                                     pascal_calibration_summary *summary, pascal_error *err);

/* Reads a model file; free the model with pascal_dyn_model_free. */
PASCAL_API int pascal_dyn_model_load(const char *path, pascal_dyn_model **model,
                                     pascal_error *err);

#ifdef __cplusplus
}
#endif

#endif
