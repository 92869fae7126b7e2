/* What a sweep file was made from: a SHA-256 digest of every input the run
 * resolved, kept as root attributes so that resume and merge can check that
 * they continue or join the same computation, not only the same spec text.
 *
 *   sha256_spec         the spec text                  (path: spec_path)
 *   sha256_device       the device profile text, or "" (path: device_path)
 *   sha256_calibration  the calibration file bytes, or "" (path: calibration)
 *   sha256_columns      the column set: names, types and enum labels of the
 *                       /points and /results columns
 *   pascal_version      the version that wrote the rows (not a digest)
 *
 * A device profile edited between a stop and --resume, or between two
 * shards, changes sha256_device; the check names the input that changed and
 * both digests, and the rows of two devices are never mixed in one file. */
#ifndef PASCAL_OUTPUT_DIGEST_H
#define PASCAL_OUTPUT_DIGEST_H

#include <stddef.h>

#include "common/error.h"
#include "output/sink.h"

#ifdef __cplusplus
extern "C" {
#endif

#define PASCAL_DIGEST_NKEYS 5
/* The keys above, in that order. */
extern const char *const pascal_digest_keys[PASCAL_DIGEST_NKEYS];

/* SHA-256 of n bytes as 64 lowercase hex digits; "" for a NULL pointer. */
void pascal_digest_bytes(const void *data, size_t n, char hex[65]);
/* SHA-256 of a whole file; PASCAL_EIO when it cannot be read. */
int pascal_digest_file(const char *path, char hex[65], pascal_error *err);
/* SHA-256 of a canonical text of the column set. */
void pascal_digest_columns(const pascal_column_desc *points, int npoint,
                           const pascal_column_desc *results, int nresult, char hex[65]);

/* Compares the inputs recorded in `was` with those of `now` (attributes by
 * key; a missing key counts as ""; pascal_version missing from `now` means
 * this pascal's).  Returns 0 when they agree, else 1 with label set to the
 * first input that differs ("device profile configs/devices/gb10.yaml") and
 * change to its digests ("sha256 ab12cd34ef56.. -> 0f1e2d3c4b5a.."). */
int pascal_digest_diff(const pascal_attr *was, int nwas, const pascal_attr *now, int nnow,
                       char *label, size_t label_len, char *change, size_t change_len);

/* 1 when attrs record the digests of a run's inputs (sha256_spec is set);
 * 0 for a file written before pascal recorded them. */
int pascal_digest_recorded(const pascal_attr *attrs, int n);

/* The digest attributes and their path attributes of a finished or partial
 * sweep file, read into attrs (keys borrowed, values malloc'd: free with
 * pascal_digest_free); returns the count, or a negative status. */
int pascal_digest_read_file(const char *path, pascal_attr *attrs, int max, pascal_error *err);
void pascal_digest_free(pascal_attr *attrs, int n);

#ifdef __cplusplus
}
#endif

#endif
