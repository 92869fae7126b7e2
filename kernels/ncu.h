/* Counting fills with Nsight Compute (ncu) when CUPTI range profiling is not
 * available in-process: the command line that re-runs a pascal command under
 * ncu, the parser of ncu's CSV report, and the rule that maps its rows back
 * to measurements.  Also the counter names per architecture, shared with the
 * CUPTI meter.  Pure host code: testable without a GPU or ncu.
 *
 * The level counted is the one the model predicts: bytes read from off-chip
 * memory into L2 (a fill), never L1 hit rates. */
#ifndef PASCAL_KERNELS_NCU_H
#define PASCAL_KERNELS_NCU_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "kernels/measure.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A counter and the bytes one of its units stands for. */
typedef struct pascal_ncu_metric {
    const char *name;
    double bytes_per_unit;
} pascal_ncu_metric;

/* Counters of off-chip reads into L2, in order of preference, for a compute
 * capability.  Hopper (9.x): dram__bytes_read.sum (HBM reads).  Blackwell
 * (10.x, 12.x, GB10 included): dram__bytes_read.sum where the chip exposes
 * it, else lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum (32-byte
 * sectors that missed in L2 and were requested from memory).  Sets *n. */
const pascal_ncu_metric *pascal_ncu_metric_candidates(int cc_major, int *n);

/* Bytes per unit of a counter named by the user: 1 for "...bytes..." names,
 * 32 for "...sectors..." names, NaN otherwise (not a byte count). */
double pascal_ncu_metric_scale(const char *metric);

/* Scan-kernel launches one measurement makes: 1 cold, 2 warm (the unmeasured
 * warm-up first).  The scrub kernel is not a scan kernel. */
int pascal_ncu_scan_launches(pascal_spot_start start);

/* The kernels ncu profiles: every scan kernel, not the scrub. */
#define PASCAL_NCU_KERNEL_REGEX "regex:^pascal_k_[a-z_]+_scan$"
#define PASCAL_NCU_KERNEL_PREFIX "pascal_k_"

/* Builds the argv (NULL-terminated, malloc'd; free with
 * pascal_ncu_argv_free) that runs `self argv[0..argc-1]` under ncu, counting
 * `metric` for the scan kernels only, leaving caches (--cache-control none:
 * the runner chooses cold or warm itself) and clocks (--clock-control none)
 * as they are, and writing the CSV report to log_path. */
char **pascal_ncu_argv(const char *ncu, const char *metric, const char *log_path,
                       const char *self, int argc, char **argv);
void pascal_ncu_argv_free(char **argv);

/* Parses ncu's CSV report (`--csv --print-units base`, details page: one
 * row per kernel and metric with columns "ID", "Kernel Name", "Metric
 * Name", "Metric Unit", "Metric Value").  Lines that are not CSV rows
 * (==PROF== notes) are skipped.  Returns, in launch order, the value in
 * bytes of `metric` for each scan kernel (pascal_k_..._scan; the scrub and
 * anything else are skipped) (*values malloc'd).  A value ncu could not
 * collect ("n/a") is an error naming the metric. */
int pascal_ncu_parse(const char *text, size_t len, const char *metric, double **values,
                     int64_t *n, pascal_error *err);

/* Maps the scan launches' values to the measurements: starts[i] tells
 * whether measurement i was warm (its first launch is the warm-up, skipped).
 * Fails when the counts disagree. */
int pascal_ncu_assign(const double *values, int64_t nvalues, const pascal_spot_start *starts,
                      int64_t nmeas, double *fill_bytes, pascal_error *err);

/* Finds ncu: $PASCAL_NCU, then PATH, then /usr/local/cuda/bin.  Returns 0
 * with the path in buf, or -1. */
int pascal_ncu_find(char *buf, size_t len);

#ifdef __cplusplus
}
#endif

#endif
