/* Spot-check tables: measured-vs-predicted rows in HDF5, the capacity scan,
 * the dynamic model's reference CSV and a provenance sidecar.  Rows go
 * through output/sink.h, so every file appears under its name only when
 * complete. */
#include "spot/spot.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "engine/run.h"
#include "model/phases.h"

/* The reference tables write a measured load path under the table's name. */
_Static_assert(PASCAL_SPOT_SYNC == 0 && PASCAL_SPOT_TMA == 1 && PASCAL_PATH_COUNT == 2,
               "spot load paths use the codes of pascal_path_names");

/* ---- provenance ---------------------------------------------------------- */

static void put(pascal_attr *a, pascal_spot_attr_buf *buf, int *n, const char *key,
                const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static void put(pascal_attr *a, pascal_spot_attr_buf *buf, int *n, const char *key,
                const char *fmt, ...)
{
    va_list ap;
    if (*n >= PASCAL_SPOT_DEVICE_ATTRS)
        return;
    va_start(ap, fmt);
    vsnprintf(buf->text[*n], sizeof buf->text[*n], fmt, ap);
    va_end(ap);
    a[*n] = (pascal_attr){key, buf->text[*n]};
    (*n)++;
}

int pascal_spot_device_attrs(const pascal_spot_device *d, pascal_attr *a,
                             pascal_spot_attr_buf *buf)
{
    int n = 0;
    put(a, buf, &n, "device_name", "%s", d->name);
    put(a, buf, &n, "device_index", "%d", d->index);
    put(a, buf, &n, "compute_capability", "%d.%d", d->cc_major, d->cc_minor);
    put(a, buf, &n, "sms", "%d", d->sms);
    put(a, buf, &n, "l2_bytes", "%lld", (long long)d->l2_bytes);
    put(a, buf, &n, "sm_clock_peak_mhz", "%d", d->sm_clock_khz / 1000);
    put(a, buf, &n, "mem_clock_peak_mhz", "%d", d->mem_clock_khz / 1000);
    if (d->sm_clock_now_mhz > 0)
        put(a, buf, &n, "sm_clock_mhz", "%d", d->sm_clock_now_mhz);
    else
        put(a, buf, &n, "sm_clock_mhz", "unknown (NVML unavailable)");
    if (d->mem_clock_now_mhz > 0)
        put(a, buf, &n, "mem_clock_mhz", "%d", d->mem_clock_now_mhz);
    else
        put(a, buf, &n, "mem_clock_mhz", "unknown (NVML unavailable)");
    put(a, buf, &n, "driver_version", "%s (CUDA driver API %d.%d)",
        d->driver_string[0] ? d->driver_string : "unknown", d->driver_version / 1000,
        d->driver_version % 1000 / 10);
    put(a, buf, &n, "runtime_version", "%d.%d", d->runtime_version / 1000,
        d->runtime_version % 1000 / 10);
    put(a, buf, &n, "meter", "%s", d->meter);
    put(a, buf, &n, "fill_metric", "%s", d->metric);
    put(a, buf, &n, "fill_level", "%s", "bytes read from off-chip memory into L2");
    put(a, buf, &n, "cache_operator", "%s", PASCAL_SPOT_CACHE_OPERATOR);
    return n;
}

int pascal_spot_provenance_write(const char *path, const pascal_spot_device *dev,
                                 const char *command_line, const pascal_attr *extra,
                                 int nextra, pascal_error *err)
{
    pascal_attr a[PASCAL_SPOT_DEVICE_ATTRS];
    pascal_spot_attr_buf buf;
    char tmp[4096], when[64];
    time_t now = time(NULL);
    struct tm tm;
    int n = pascal_spot_device_attrs(dev, a, &buf), ok;
    FILE *f;
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
    if (!(f = fopen(tmp, "w")))
        return pascal_error_set(err, PASCAL_EIO, "%s: cannot create: %s", tmp, strerror(errno));
    gmtime_r(&now, &tm);
    strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);
    fprintf(f, "created: %s\npascal_version: %s\ncommand_line: %s\n", when, PASCAL_VERSION,
            command_line ? command_line : "");
    for (int i = 0; i < n; i++)
        fprintf(f, "%s: %s\n", a[i].key, a[i].value);
    for (int i = 0; i < nextra; i++)
        fprintf(f, "%s: %s\n", extra[i].key, extra[i].value);
    ok = !ferror(f);
    ok = (fclose(f) == 0) && ok;
    if (!ok || rename(tmp, path) != 0) {
        unlink(tmp);
        return pascal_error_set(err, PASCAL_EIO, "%s: cannot write: %s", path, strerror(errno));
    }
    return 0;
}

/* ---- spot-check table ---------------------------------------------------- */

enum { R_FILL, R_KMEAS, R_KMEAN, R_KSD, R_KPRED, R_ABS, R_REL, R_MS, R_FIXED };
#define SPOT_NRES (R_FIXED + PASCAL_SPOT_NPRED)

static const pascal_column_desc spot_results[R_FIXED] = {
    {"fill_bytes", "bytes", "bytes read from off-chip memory into L2 during the measured launch", 0, 0, 0},
    {"K_meas", "fills/round", "measured fills per round, fill_bytes / (block_bytes * rounds)", 0, 0, 0},
    {"K_meas_mean", "fills/round", "mean K_meas over the point's repetitions", 0, 0, 0},
    {"K_meas_sd", "fills/round", "sample standard deviation of K_meas over the repetitions", 0, 0, 0},
    {"K_pred", "fills/round", "the prediction compared: K_ttl (Theorem 2)", 0, 0, 0},
    {"abs_err", "fills/round", "|K_meas_mean - K_pred|", 0, 0, 0},
    {"rel_err", "", "|K_meas_mean - K_pred| / K_meas_mean", 0, 0, 0},
    {"elapsed_ms", "ms", "measured launch time between device events", 0, 0, 0},
};

typedef struct spot_cols {
    int ids[PASCAL_NPARAM + 1];
    int nids;
    pascal_column_desc pcols[PASCAL_NPARAM + 4];
    pascal_column_desc rcols[SPOT_NRES];
    int npc;
} spot_cols;

static void spot_describe(const pascal_spec *spec, spot_cols *c)
{
    static const char *const yes[] = {"cold", "warm"};
    int has_b = 0;
    c->nids = pascal_run_point_params(spec, c->ids);
    for (int j = 0; j < c->nids; j++)
        has_b |= c->ids[j] == PASCAL_P_BLOCK_BYTES;
    if (!has_b)
        c->ids[c->nids++] = PASCAL_P_BLOCK_BYTES;
    c->pcols[0] = (pascal_column_desc){"point", "", "row of this point in `pascal run` output", PASCAL_COLTYPE_I64, 0, 0};
    c->pcols[1] = (pascal_column_desc){"rep", "", "repetition", PASCAL_COLTYPE_I64, 0, 0};
    c->pcols[2] = (pascal_column_desc){"start", "", "L2 state when the launch began", PASCAL_COLTYPE_ENUM, yes, 2};
    c->pcols[3] = (pascal_column_desc){"rounds", "rounds", "H, rounds per launch", PASCAL_COLTYPE_I64, 0, 0};
    c->npc = 4;
    for (int j = 0; j < c->nids; j++) {
        const pascal_param_info *pi = &pascal_params[c->ids[j]];
        int pat = pi->type == PASCAL_T_PATTERN;
        c->pcols[c->npc++] = (pascal_column_desc){
            pi->name, pi->units, pi->description,
            pat ? PASCAL_COLTYPE_ENUM : pi->type == PASCAL_T_REAL ? PASCAL_COLTYPE_F64 : PASCAL_COLTYPE_I64,
            pat ? pascal_pattern_names : NULL, pat ? PASCAL_PATTERN_COUNT : 0};
    }
    for (int j = 0; j < R_FIXED; j++)
        c->rcols[j] = spot_results[j];
    for (int j = 0; j < PASCAL_SPOT_NPRED; j++) {
        const pascal_column_info *ci = &pascal_columns[pascal_spot_pred_columns[j]];
        c->rcols[R_FIXED + j] = (pascal_column_desc){ci->name, ci->units, ci->description,
                                                     PASCAL_COLTYPE_F64, NULL, 0};
    }
}

/* Column storage for nrows rows: point columns as int64 or double. */
typedef struct spot_data {
    int64_t *i64[PASCAL_NPARAM + 4];
    double *f64[PASCAL_NPARAM + 4];
    double *res[SPOT_NRES];
} spot_data;

static void spot_data_free(spot_data *d, int npc)
{
    for (int j = 0; j < npc; j++)
        free(d->i64[j]), free(d->f64[j]);
    for (int j = 0; j < SPOT_NRES; j++)
        free(d->res[j]);
}

static int spot_data_alloc(spot_data *d, const spot_cols *c, int64_t rows)
{
    int ok = 1;
    memset(d, 0, sizeof *d);
    for (int j = 0; j < c->npc; j++) {
        if (c->pcols[j].type == PASCAL_COLTYPE_F64)
            ok &= (d->f64[j] = malloc((size_t)rows * sizeof(double))) != NULL;
        else
            ok &= (d->i64[j] = malloc((size_t)rows * sizeof(int64_t))) != NULL;
    }
    for (int j = 0; j < SPOT_NRES; j++)
        ok &= (d->res[j] = malloc((size_t)rows * sizeof(double))) != NULL;
    return ok ? 0 : -1;
}

/* One row: the point's coordinates, the repetition and every result. */
static void spot_row(spot_data *d, const spot_cols *c, int64_t row, const pascal_spot_plan *plan,
                     const pascal_spot_point *sp, int rep, const pascal_spot_measure *m,
                     double kmean, double ksd)
{
    double pt[4] = {(double)sp->ordinal, rep, m->start, (double)plan->rounds};
    double *r[SPOT_NRES];
    for (int j = 0; j < c->npc; j++) {
        double v = j < 4 ? pt[j] : sp->point.v[c->ids[j - 4]];
        if (d->f64[j])
            d->f64[j][row] = v;
        else
            d->i64[j][row] = isnan(v) ? INT64_MIN : (int64_t)v;
    }
    for (int j = 0; j < SPOT_NRES; j++)
        r[j] = &d->res[j][row];
    *r[R_FILL] = m->fill_bytes;
    *r[R_KMEAS] = pascal_spot_k_static(m->fill_bytes, sp->block_bytes, plan->rounds);
    *r[R_KMEAN] = kmean;
    *r[R_KSD] = ksd;
    *r[R_KPRED] = sp->pred[PASCAL_SPOT_PRED_K_TTL];
    *r[R_ABS] = pascal_spot_abs_err(kmean, sp->pred[PASCAL_SPOT_PRED_K_TTL]);
    *r[R_REL] = pascal_spot_rel_err(kmean, sp->pred[PASCAL_SPOT_PRED_K_TTL]);
    *r[R_MS] = m->elapsed_ms;
    for (int j = 0; j < PASCAL_SPOT_NPRED; j++)
        *r[R_FIXED + j] = sp->pred[j];
}

static int spot_fill(spot_data *d, const spot_cols *c, const pascal_spot_plan *plan, int reps,
                     const pascal_spot_measure *meas)
{
    double *k = malloc((size_t)reps * sizeof *k), mean, sd;
    if (!k)
        return -1;
    for (int64_t i = 0; i < plan->npoints; i++) {
        const pascal_spot_point *sp = &plan->points[i];
        for (int r = 0; r < reps; r++)
            k[r] = pascal_spot_k_static(meas[i * reps + r].fill_bytes, sp->block_bytes,
                                        plan->rounds);
        pascal_spot_mean_sd(k, reps, &mean, &sd);
        for (int r = 0; r < reps; r++)
            spot_row(d, c, i * reps + r, plan, sp, r, &meas[i * reps + r], mean, sd);
    }
    free(k);
    return 0;
}

static int sink_table(const pascal_sink_meta *meta, const pascal_column_desc *pcols, int npc,
                      const pascal_column_desc *rcols, int nrc, int64_t rows,
                      const void *const *points, const double *const *results, pascal_error *err)
{
    pascal_sink *sink;
    int rc = pascal_sink_open(meta, pcols, npc, rcols, nrc, &sink, err);
    if (rc != 0)
        return rc;
    if ((rc = pascal_sink_append(sink, rows, points, results, err)) != 0) {
        pascal_sink_abort(sink);
        return rc;
    }
    return pascal_sink_finish(sink, err);
}

static int gather_attrs(const pascal_spot_device *dev, const pascal_attr *extra, int nextra,
                        pascal_attr *a, int max, pascal_spot_attr_buf *buf)
{
    int n = pascal_spot_device_attrs(dev, a, buf);
    for (int i = 0; i < nextra && n < max; i++)
        a[n++] = extra[i];
    return n;
}

int pascal_spot_write(const char *path, const pascal_spot_plan *plan, int reps,
                      const pascal_spot_measure *meas, const pascal_spot_device *dev,
                      const char *command_line, const pascal_attr *extra, int nextra,
                      pascal_error *err)
{
    spot_cols c;
    spot_data d;
    pascal_attr attrs[PASCAL_SPOT_DEVICE_ATTRS + 16];
    pascal_spot_attr_buf buf;
    const void *pts[PASCAL_NPARAM + 4];
    int64_t rows = plan->npoints * reps;
    int rc;
    pascal_sink_meta meta = {0};
    spot_describe(plan->spec, &c);
    if (reps < 1 || rows < 1)
        return pascal_error_set(err, PASCAL_EINPUT, "%s: expected at least one measurement", path);
    if (spot_data_alloc(&d, &c, rows) != 0 || spot_fill(&d, &c, plan, reps, meas) != 0) {
        spot_data_free(&d, c.npc);
        return pascal_error_set(err, PASCAL_ENOMEM, "%s: out of memory", path);
    }
    for (int j = 0; j < c.npc; j++)
        pts[j] = d.f64[j] ? (const void *)d.f64[j] : (const void *)d.i64[j];
    meta.format = PASCAL_SINK_HDF5;
    meta.path = path;
    meta.spec_text = pascal_spec_text(plan->spec);
    meta.spec_path = pascal_spec_filename(plan->spec);
    meta.command_line = command_line;
    meta.threads = 1;
    meta.attrs = attrs;
    meta.nattrs = gather_attrs(dev, extra, nextra, attrs, PASCAL_SPOT_DEVICE_ATTRS + 16, &buf);
    rc = sink_table(&meta, c.pcols, c.npc, c.rcols, SPOT_NRES, rows, pts,
                    (const double *const *)d.res, err);
    spot_data_free(&d, c.npc);
    return rc;
}

/* ---- capacity scan -------------------------------------------------------- */

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
    rc = sink_table(&meta, cap_pcols, 3, cap_rcols, 4, rows, (const void *const *)ci,
                    (const double *const *)cr, err);
done:
    for (int j = 0; j < 3; j++)
        free(ci[j]);
    for (int j = 0; j < 4; j++)
        free(cr[j]);
    return rc;
}

/* ---- reference CSV for the dynamic model ---------------------------------- */

int pascal_spot_refs_write(const char *path, const pascal_spot_ref *refs, int64_t n,
                           pascal_error *err)
{
    static const pascal_column_desc pc[] = {
        {"o", "CTAs/SM", "occupancy", PASCAL_COLTYPE_I64, 0, 0},
        {"path", "", "load path", PASCAL_COLTYPE_ENUM, pascal_path_names, PASCAL_PATH_COUNT},
        {"d", "stages", "TMA depth, 0 for sync", PASCAL_COLTYPE_I64, 0, 0},
        {"m", "WMMA/block", "compute per block", PASCAL_COLTYPE_I64, 0, 0},
        {"N", "blocks", "blocks per scan", PASCAL_COLTYPE_I64, 0, 0},
        {"W", "scans", "CTA scans per resident worker", PASCAL_COLTYPE_I64, 0, 0},
    };
    static const pascal_column_desc rc_k[] = {
        {"K", "fills/block of work", "K_H = A(H) / H (eq. 14)", PASCAL_COLTYPE_F64, 0, 0},
    };
    int64_t *cols[6];
    double *k = malloc((size_t)(n > 0 ? n : 1) * sizeof *k);
    pascal_sink_meta meta = {0};
    int ok = k != NULL, rc;
    for (int j = 0; j < 6; j++)
        ok &= (cols[j] = malloc((size_t)(n > 0 ? n : 1) * sizeof(int64_t))) != NULL;
    for (int64_t i = 0; ok && i < n; i++) {
        const pascal_spot_ref *r = &refs[i];
        cols[0][i] = r->occupancy, cols[1][i] = r->path, cols[2][i] = r->depth;
        cols[3][i] = r->compute, cols[4][i] = r->N, cols[5][i] = r->W;
        k[i] = r->K;
    }
    meta.format = PASCAL_SINK_CSV;
    meta.path = path;
    rc = ok ? sink_table(&meta, pc, 6, rc_k, 1, n, (const void *const *)cols,
                         (const double *const *)&k, err)
            : pascal_error_set(err, PASCAL_ENOMEM, "%s: out of memory", path);
    for (int j = 0; j < 6; j++)
        free(cols[j]);
    free(k);
    return rc;
}
