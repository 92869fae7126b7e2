/* The capacity scan's table (Figure 2, spot.h pascal_spot_capacity_write):
 * rows (footprint, repetition) with the fill ratio R and its mean, and the
 * effective L2 capacity found as a root attribute beside the device's
 * provenance. */
#include "spot/spot.h"
#include "spot/spot_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* Rows (footprint, rep) of a capacity scan into 3 int64 and 4 double columns. */
static int cap_fill(const pascal_spot_capacity *cap, int64_t **ci, double **cr)
{
    double *R = malloc((size_t)cap->reps * sizeof *R), mean, sd;
    if (!R)
        return -1;
    for (int i = 0; i < cap->nfoot; i++) {
        for (int r = 0; r < cap->reps; r++)
            R[r] = pascal_spot_fill_ratio(cap->meas[i * cap->reps + r].fill_bytes,
                                          cap->footprints[i]);
        pascal_spot_mean_sd(R, cap->reps, &mean, &sd);
        for (int r = 0; r < cap->reps; r++) {
            const pascal_spot_measure *m = &cap->meas[i * cap->reps + r];
            int64_t row = (int64_t)i * cap->reps + r;
            ci[0][row] = (int64_t)cap->footprints[i];
            ci[1][row] = r;
            ci[2][row] = m->start;
            cr[0][row] = m->fill_bytes;
            cr[1][row] = R[r];
            cr[2][row] = mean;
            cr[3][row] = m->elapsed_ms;
        }
    }
    free(R);
    return 0;
}

static const char *const cap_starts[] = {"cold", "warm"};
static const pascal_column_desc cap_pcols[] = {
    {"footprint_bytes", "bytes", "bytes swept per pass", PASCAL_COLTYPE_I64, 0, 0},
    {"rep", "", "repetition", PASCAL_COLTYPE_I64, 0, 0},
    {"start", "", "L2 state when the launch began", PASCAL_COLTYPE_ENUM, cap_starts, 2},
};
static const pascal_column_desc cap_rcols[] = {
    {"fill_bytes", "bytes", "bytes read from off-chip memory into L2 during the launch", 0, 0, 0},
    {"R", "", "fill_bytes / footprint_bytes after `passes` sweeps from a cold L2 (Figure 2)", 0, 0, 0},
    {"R_mean", "", "mean R over the footprint's repetitions", 0, 0, 0},
    {"elapsed_ms", "ms", "launch time between device events", 0, 0, 0},
};

int pascal_spot_capacity_write(const char *path, const pascal_spot_capacity *cap,
                               const pascal_spot_device *dev, const char *command_line,
                               pascal_error *err)
{
    int64_t rows = (int64_t)cap->nfoot * cap->reps, *ci[3];
    double *cr[4];
    char eff[64], thr[64], passes[32];
    pascal_attr attrs[PASCAL_SPOT_DEVICE_ATTRS + 3];
    pascal_spot_attr_buf buf;
    pascal_sink_meta meta = {0};
    int ok = rows > 0, rc, n;
    for (int j = 0; j < 3; j++)
        ok &= (ci[j] = malloc((size_t)(rows > 0 ? rows : 1) * sizeof(int64_t))) != NULL;
    for (int j = 0; j < 4; j++)
        ok &= (cr[j] = malloc((size_t)(rows > 0 ? rows : 1) * sizeof(double))) != NULL;
    if (!ok || cap_fill(cap, ci, cr) != 0) {
        rc = pascal_error_set(err, rows > 0 ? PASCAL_ENOMEM : PASCAL_EINPUT, "%s: %s", path,
                              rows > 0 ? "out of memory" : "expected at least one measurement");
        goto done;
    }
    n = pascal_spot_device_attrs(dev, attrs, &buf);
    eff[0] = 0;
    if (!isnan(cap->effective_bytes))
        snprintf(eff, sizeof eff, "%.0f", cap->effective_bytes);
    snprintf(thr, sizeof thr, "%.17g", cap->threshold);
    snprintf(passes, sizeof passes, "%d", cap->passes);
    attrs[n++] = (pascal_attr){"effective_l2_bytes", eff};
    attrs[n++] = (pascal_attr){"threshold", thr};
    attrs[n++] = (pascal_attr){"passes", passes};
    meta.format = PASCAL_SINK_HDF5;
    meta.path = path;
    meta.command_line = command_line;
    meta.threads = 1;
    meta.attrs = attrs;
    meta.nattrs = n;
    rc = pascal_spot_sink_table(&meta, cap_pcols, 3, cap_rcols, 4, rows, (const void *const *)ci,
                    (const double *const *)cr, err);
done:
    for (int j = 0; j < 3; j++)
        free(ci[j]);
    for (int j = 0; j < 4; j++)
        free(cr[j]);
    return rc;
}
