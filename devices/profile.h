/* Device profiles (configs/devices/NAME.yaml) by path or by name.
 *
 * A device reference, as a spec's `device:` or a command's --device gives
 * it, is either a path or the name of a shipped profile:
 *   - with a '/' in it, or naming a file that exists (relative to the base
 *     folder: the spec's folder, or the working directory for a command), a
 *     path, as before names existed;
 *   - otherwise a name (gb10): NAME.yaml is looked up, first found wins, in
 *       1. BASE/devices            (beside a spec in configs/)
 *       2. BASE/configs/devices    (a checkout or copy of configs/ under BASE)
 *       3. the source tree's configs/devices (compiled in; skipped when gone)
 *       4. the installed share folder, PASCAL_DATADIR/devices.
 * A name that is found nowhere is rejected with the names that exist and
 * the nearest one ("did you mean 'gb10'?").  sweeps/SPEC.md documents the
 * order. */
#ifndef PASCAL_DEVICES_PROFILE_H
#define PASCAL_DEVICES_PROFILE_H

#include <stddef.h>

#include "common/error.h"
#include "pascal/calibrate.h"

#ifdef __cplusplus
extern "C" {
#endif

#define PASCAL_DEVICE_PATH_MAX 1024
#define PASCAL_DEVICE_DIRS 4

/* One device profile's facts; numbers are NaN and strings "" when absent. */
typedef struct pascal_device_profile {
    char name[64];                /* file name without .yaml: what `device:` may say */
    char title[128];              /* the profile's `name:` ("NVIDIA GB10") */
    char path[PASCAL_DEVICE_PATH_MAX]; /* the file read */
    double sms;                   /* streaming multiprocessors */
    double l2_bytes;              /* nominal L2, bytes */
    double effective_l2_bytes;    /* measured effective L2, bytes */
    char compute_capability[16];
    char notes[1024];
    /* What a point must fit in to run (the profile's `limits`, NaN when
     * absent; docs/workloads.md section 9), each with its source. */
    struct {
        double ctas_per_sm;       /* resident CTAs per SM */
        double smem_per_sm_bytes; /* shared memory per SM that CTAs can take */
        double smem_per_cta_bytes;/* shared memory one CTA can take */
        double threads_per_sm;    /* resident threads per SM */
        char source[4][256];
    } limits;
    /* Peak rates (the profile's `rates`, NaN when absent; docs/workloads.md
     * section 10): tensor FLOP/s per dtype in pascal_dtype order, then the
     * L2 and DRAM read bandwidths in bytes/s, each with its source. */
    double rates[9];
    char rate_source[9][192];
    /* What traffic and capacity cost (the profile's `costs`, NaN when
     * absent; docs/workloads.md section 10.1): DRAM and L2 energy per byte
     * read, L2 area per MiB, each with its source. */
    double costs[3];
    char cost_source[3][256];
} pascal_device_profile;

/* The rates' keys, in pascal_device_profile.rates order: flops_fp32,
 * flops_tf32, flops_bf16, flops_fp16, flops_fp8, flops_int8, flops_fp4,
 * l2_bytes_per_s, dram_bytes_per_s. */
enum { PASCAL_RATE_L2 = 7, PASCAL_RATE_DRAM = 8, PASCAL_NRATES = 9 };
extern const char *const pascal_device_rate_keys[PASCAL_NRATES];

enum { PASCAL_COST_DRAM_PJ, PASCAL_COST_L2_PJ, PASCAL_COST_L2_MM2, PASCAL_NCOSTS };
extern const char *const pascal_device_cost_keys[PASCAL_NCOSTS];

/* The limits' keys, in the struct's order. */
enum { PASCAL_LIMIT_CTAS, PASCAL_LIMIT_SMEM_SM, PASCAL_LIMIT_SMEM_CTA, PASCAL_LIMIT_THREADS,
       PASCAL_NLIMITS };
extern const char *const pascal_device_limit_keys[PASCAL_NLIMITS];

/* The folders searched for a device name, in order (see above); base is the
 * spec's folder ("" for the working directory).  Returns their number. */
int pascal_device_dirs(const char *base, char dirs[PASCAL_DEVICE_DIRS][PASCAL_DEVICE_PATH_MAX]);

/* Resolves a device reference (see above) into the path of the profile to
 * read.  On failure returns PASCAL_EINPUT with a message of the form
 * "expected ..., got ..." (no file name: the caller knows where the
 * reference was written). */
int pascal_device_resolve(const char *ref, const char *base, char *path, size_t len,
                          pascal_error *err);

/* Reads and checks one profile (the spec parser's rules and messages). */
int pascal_device_load(const char *path, pascal_device_profile *out, pascal_error *err);

/* Every profile found by name from base, in search order then by name; a
 * name found in an earlier folder hides the same name later.  *out is
 * malloc'ed (free it); *n may be 0.  A profile that does not load is an
 * error naming it. */
int pascal_device_list(const char *base, pascal_device_profile **out, int *n, pascal_error *err);

#ifdef __cplusplus
}
#endif

#endif
