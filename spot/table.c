/* Spot-check tables: measured-vs-predicted rows, one per (point,
 * repetition), in HDF5 (spot.h, pascal_spot_write).  Rows go through
 * output/sink.h, so the file appears under its name only when complete;
 * the capacity scan (capacity.c) and the reference CSV (refs.c) use the
 * same one-append writer, pascal_spot_sink_table. */
#include "spot/spot.h"
#include "spot/spot_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/run.h"
#include "model/phases.h"

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

int pascal_spot_sink_table(const pascal_sink_meta *meta, const pascal_column_desc *pcols, int npc,
                           const pascal_column_desc *rcols, int nrc, int64_t rows,
                           const void *const *points, const double *const *results,
                           pascal_error *err)
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
    rc = pascal_spot_sink_table(&meta, c.pcols, c.npc, c.rcols, SPOT_NRES, rows, pts,
                    (const double *const *)d.res, err);
    spot_data_free(&d, c.npc);
    return rc;
}
