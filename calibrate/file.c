/* The frozen calibration file (paper section 4.5: "freeze the fitted model,
 * all forecasts, and an empirical multiplicative band").  Layout:
 *   /            provenance: input path and SHA-256, device, sms, C,
 *                block_bytes, eta, eps, N0, band_radius, CV figures
 *   /curves      one row per reference key: o, path, d, m, class, knots,
 *                knot_offset, flags (1 anchored, 2 shape template)
 *   /knots       log_x, log_xK: the fitted cumulative curve S(t) at its knots
 *   /references  the input runs (o, path, d, m, N, W, K) with x and the
 *                out-of-fold prediction oof_K, oof_code (-1: not scored)
 *   /cv          per scored key: runs, K_geomean, mape_<method>, code
 * A calibration over several capacities (format_version 2) adds a column C
 * (blocks) to /curves, /references and /cv, rows in ascending C, and
 *   /levels      per capacity: C, band_radius, keys, runs, cv_mape, and the
 *                leave-one-capacity-out lcoo_mape_pascal, _aligned, _nearest
 *                (NaN at the smallest and largest capacity)
 * /references alone is a valid reference input for `pascal calibrate`. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "calibrate/calibrate.h"
#include "output/calibration.h"
#include "vocab/params.h"

#define FORMAT "pascal-calibration"
#define FORMAT_VERSION 2   /* what this pascal reads; one capacity is still written as 1 */


#define COL_I64(n, u, d) {n, u, d, PASCAL_COLTYPE_I64, NULL, 0}
#define COL_F64(n, u, d) {n, u, d, PASCAL_COLTYPE_F64, NULL, 0}
#define COL_PATH {"path", "", "load path: sync (__ldcg) or tma", PASCAL_COLTYPE_ENUM, pascal_path_names, PASCAL_PATH_COUNT}

static const pascal_column_desc curve_cols[] = {
    COL_I64("o", "CTAs/SM", "occupancy"), COL_PATH,
    COL_I64("d", "stages", "prefetch depth (0 for sync)"),
    COL_I64("m", "ops/block", "compute per block"),
    COL_I64("class", "", "execution class s(m) = min(m mod 4, 2)"),
    COL_I64("knots", "", "knots of this key's curve in /knots"),
    COL_I64("knot_offset", "", "first knot of this key in /knots"),
    COL_I64("flags", "", "1: initial anchor added; 2: shape borrowed from a template"),
    COL_F64("C", "blocks", "capacity of this key's level (several capacities only)"),
};
static const pascal_column_desc knot_cols[] = {
    COL_I64("key", "", "row of /curves"),
    COL_F64("log_x", "", "t = log x, x = W N / N0"),
    COL_F64("log_xK", "", "S(t): isotonic, completed log(x K); log K = S(t) - t"),
};
static const pascal_column_desc ref_cols[] = {
    COL_I64("o", "CTAs/SM", "occupancy"), COL_PATH,
    COL_I64("d", "stages", "prefetch depth (0 for sync)"),
    COL_I64("m", "ops/block", "compute per block"),
    COL_F64("N", "blocks", "blocks per CTA scan"),
    COL_F64("W", "scans/worker", "CTA scans per resident worker"),
    COL_F64("K", "fills/work", "measured A(H)/H"),
    COL_F64("x", "", "work coordinate W N / N0"),
    COL_F64("oof_K", "fills/work", "leave-one-key-out prediction (NaN: not scored or rejected)"),
    COL_I64("oof_code", "", "rule of the out-of-fold prediction (-1: not scored)"),
    COL_F64("C", "blocks", "capacity the run was measured at (several capacities only)"),
};
static const pascal_column_desc cv_cols[] = {
    COL_I64("o", "CTAs/SM", "occupancy"), COL_PATH,
    COL_I64("d", "stages", "prefetch depth"),
    COL_I64("m", "ops/block", "compute per block"),
    COL_I64("runs", "", "scored runs n_z"),
    COL_F64("K_geomean", "fills/work", "geometric mean of the scored K"),
    COL_F64("mape_pascal", "%", "eq. 26 inner term, PASCAL"),
    COL_F64("mape_aligned", "%", "aligned baseline K = 1"),
    COL_F64("mape_nearest", "%", "nearest reference key"),
    COL_F64("mape_knn", "%", "inverse-distance k-NN"),
    COL_F64("mape_ridge", "%", "ridge regression on log K"),
    COL_F64("mape_family", "%", "the family's key of nearest compute"),
    COL_I64("code", "", "PASCAL rule (0 none, 1 reference, 2 compute, 3 depth, 4 regime, 10+ rejected)"),
    COL_F64("C", "blocks", "capacity of the fold (several capacities only)"),
};
static const pascal_column_desc level_cols[] = {
    COL_F64("C", "blocks", "capacity of this level"),
    COL_F64("band_radius", "", "log band radius of its own folds"),
    COL_I64("keys", "", "reference keys fitted at it"),
    COL_I64("runs", "", "reference runs measured at it"),
    COL_F64("cv_mape", "%", "leave-one-key-out eq. 26, PASCAL, within this capacity"),
    COL_F64("lcoo_mape_pascal", "%", "this capacity left out, predicted by the others (NaN at the ends)"),
    COL_F64("lcoo_mape_aligned", "%", "the same runs, K = 1"),
    COL_F64("lcoo_mape_nearest", "%", "the same runs, the nearest other capacity alone"),
};
#define NLEVEL ((int)(sizeof level_cols / sizeof level_cols[0]))
#define NCURVE ((int)(sizeof curve_cols / sizeof curve_cols[0]))
#define NKNOT ((int)(sizeof knot_cols / sizeof knot_cols[0]))
#define NREF ((int)(sizeof ref_cols / sizeof ref_cols[0]))
#define NCV ((int)(sizeof cv_cols / sizeof cv_cols[0]))

/* Column storage: int64 or double arrays, owned. */
typedef struct table_buf {
    void *data[16];
    int n;
} table_buf;

static int tb_alloc(table_buf *b, const pascal_column_desc *cols, int n, int64_t rows)
{
    b->n = n;
    for (int j = 0; j < n; j++)
        if (!(b->data[j] = calloc((size_t)(rows ? rows : 1), 8)))
            return -1;
    (void)cols;
    return 0;
}

static void tb_free(table_buf *b)
{
    for (int j = 0; j < b->n; j++)
        free(b->data[j]);
}

#define I(b, j) ((int64_t *)(b)->data[j])
#define F(b, j) ((double *)(b)->data[j])

static void fill_curves(const pascal_dyn_model *ladder, table_buf *c, table_buf *k)
{
    int64_t q = 0, r = 0;
    for (int64_t l = 0; l < pascal_dyn_model_levels(ladder); l++) {
        const pascal_dyn_model *m = pascal_dyn_model_level(ladder, l);
        for (int64_t i = 0; i < pascal_dyn_model_nkeys(m); i++, r++) {
            pascal_dyn_key key;
            const double *t, *y;
            int n;
            unsigned fl;
            pascal_dyn_model_curve(m, i, &key, &t, &y, &n, &fl);
            I(c, 0)[r] = key.o, I(c, 1)[r] = key.path, I(c, 2)[r] = key.d, I(c, 3)[r] = key.m;
            I(c, 4)[r] = pascal_dyn_class(key.m), I(c, 5)[r] = n, I(c, 6)[r] = q, I(c, 7)[r] = fl;
            F(c, 8)[r] = pascal_dyn_model_params(m)->C;
            for (int j = 0; j < n; j++, q++)
                I(k, 0)[q] = r, F(k, 1)[q] = t[j], F(k, 2)[q] = y[j];
        }
    }
}

/* Keys and knots over every level. */
static void count_curves(const pascal_dyn_model *ladder, int64_t *nk, int64_t *nt)
{
    *nk = *nt = 0;
    for (int64_t l = 0; l < pascal_dyn_model_levels(ladder); l++) {
        const pascal_dyn_model *m = pascal_dyn_model_level(ladder, l);
        for (int64_t i = 0; i < pascal_dyn_model_nkeys(m); i++) {
            int n;
            pascal_dyn_model_curve(m, i, NULL, NULL, NULL, &n, NULL);
            *nt += n;
        }
        *nk += pascal_dyn_model_nkeys(m);
    }
}

static void fill_levels(const pascal_calibrate_level *lev, int64_t n, const pascal_dyn_model *ladder,
                        table_buf *b)
{
    for (int64_t i = 0; i < n; i++) {
        const pascal_calibrate_level *l = &lev[i];
        const pascal_dyn_model *m = pascal_dyn_model_level(ladder, i);
        int ends = l->lcoo.nkeys == 0;
        F(b, 0)[i] = l->C, F(b, 1)[i] = pascal_dyn_model_band(m);
        I(b, 2)[i] = pascal_dyn_model_nkeys(m), I(b, 3)[i] = l->refs.n;
        F(b, 4)[i] = l->cv.mape[PASCAL_CV_PASCAL];
        F(b, 5)[i] = ends ? NAN : l->lcoo.mape[PASCAL_CV_PASCAL];
        F(b, 6)[i] = ends ? NAN : l->lcoo.mape[PASCAL_CV_ALIGNED];
        F(b, 7)[i] = ends ? NAN : l->lcoo.mape[PASCAL_CV_NEAREST];
    }
}

static void fill_refs(const pascal_refs *r, const pascal_cv_result *cv, double N0, table_buf *b)
{
    for (int64_t i = 0; i < r->n; i++) {
        const pascal_dyn_ref *x = &r->rows[i];
        I(b, 0)[i] = x->o, I(b, 1)[i] = x->path, I(b, 2)[i] = x->d, I(b, 3)[i] = x->m;
        F(b, 4)[i] = x->N, F(b, 5)[i] = x->W, F(b, 6)[i] = x->K, F(b, 7)[i] = x->W * x->N / N0;
        F(b, 8)[i] = cv ? cv->oof[i] : NAN;
        I(b, 9)[i] = cv ? cv->oof_code[i] : -1;
        F(b, 10)[i] = x->C;
    }
}

static void fill_cv(const pascal_cv_result *cv, table_buf *b)
{
    for (int64_t i = 0; i < cv->nkeys; i++) {
        const pascal_cv_key *k = &cv->keys[i];
        I(b, 0)[i] = k->key.o, I(b, 1)[i] = k->key.path, I(b, 2)[i] = k->key.d;
        I(b, 3)[i] = k->key.m, I(b, 4)[i] = k->runs, F(b, 5)[i] = k->K_geomean;
        for (int q = 0; q < PASCAL_CV_NMETHOD; q++)
            F(b, 6 + q)[i] = k->mape[q];
        I(b, 6 + PASCAL_CV_NMETHOD)[i] = k->code;
        F(b, 7 + PASCAL_CV_NMETHOD)[i] = k->C;
    }
}

#define NUM(k, v) {k, NULL, (v), 0}
#define INT(k, v) {k, NULL, (double)(v), 1}
#define TXT(k, v) {k, (v), 0, 0}

int pascal_calibrate_save(const char *path, const pascal_dyn_model *model,
                          const pascal_refs *refs, const pascal_cv_result *cv,
                          const pascal_calibrate_level *lev, int64_t nlev,
                          const pascal_cal_prov *prov, pascal_error *err)
{
    const pascal_dyn_params *p = pascal_dyn_model_params(model);
    int64_t nk, nt, ncv = cv ? cv->nkeys : 0;
    table_buf c = {{0}, 0}, k = {{0}, 0}, r = {{0}, 0}, v = {{0}, 0}, l = {{0}, 0};
    int rc, ladder = nlev > 0, drop = ladder ? 0 : 1; /* one capacity: no C columns */
    double nan = NAN, C = ladder ? lev[0].C : p->C;
    count_curves(model, &nk, &nt);
    if (tb_alloc(&c, curve_cols, NCURVE, nk) || tb_alloc(&k, knot_cols, NKNOT, nt) ||
        tb_alloc(&r, ref_cols, NREF, refs->n) || tb_alloc(&v, cv_cols, NCV, ncv) ||
        tb_alloc(&l, level_cols, NLEVEL, nlev)) {
        rc = pascal_error_set(err, PASCAL_ENOMEM, "%s: out of memory", path);
    } else {
        pascal_cal_attr attrs[] = {
            TXT("input", prov->input), TXT("input_sha256", prov->input_sha256),
            TXT("device", prov->device), TXT("device_path", prov->device_path),
            TXT("command_line", prov->command_line),
            NUM("sms", p->sms), NUM("C", C), NUM("block_bytes", p->block_bytes),
            NUM("eta", p->eta), NUM("eps", p->eps), NUM("N0", p->N0),
            NUM("band_radius", pascal_dyn_model_band(model)),
            NUM("band_quantile", prov->cv.band_quantile), NUM("cv_w_min", prov->cv.w_min),
            INT("cv_baselines", prov->cv_baselines), INT("knn_k", prov->cv.knn_k),
            NUM("ridge_lambda", prov->cv.ridge_lambda),
            NUM("cv_mape", cv ? cv->mape[PASCAL_CV_PASCAL] : nan),
            NUM("cv_mape_aligned", cv ? cv->mape[PASCAL_CV_ALIGNED] : nan),
            NUM("cv_mape_nearest", cv ? cv->mape[PASCAL_CV_NEAREST] : nan),
            NUM("cv_mape_knn", cv ? cv->mape[PASCAL_CV_KNN] : nan),
            NUM("cv_mape_ridge", cv ? cv->mape[PASCAL_CV_RIDGE] : nan),
            NUM("cv_mape_family", cv ? cv->mape[PASCAL_CV_FAMILY] : nan),
            INT("cv_keys", ncv), INT("cv_keys_rejected", cv ? cv->keys_rejected : 0),
            INT("cv_runs", cv ? cv->runs_scored : 0), NUM("cv_seconds", cv ? cv->seconds : nan),
            INT("refs_rows", refs->n), INT("refs_keys", nk),
            INT("capacities", ladder ? nlev : 1),
            NUM("C_max", ladder ? lev[nlev - 1].C : p->C),
        };
        pascal_cal_table tables[] = {
            {"curves", nk, NCURVE - drop, curve_cols, (const void *const *)c.data},
            {"knots", nt, NKNOT, knot_cols, (const void *const *)k.data},
            {"references", refs->n, NREF - drop, ref_cols, (const void *const *)r.data},
            {"cv", ncv, NCV - drop, cv_cols, (const void *const *)v.data},
            {"levels", nlev, NLEVEL, level_cols, (const void *const *)l.data},
        };
        fill_curves(model, &c, &k);
        fill_refs(refs, cv, p->N0, &r);
        if (cv)
            fill_cv(cv, &v);
        if (ladder)
            fill_levels(lev, nlev, model, &l);
        /* capacities and C_max (the last two) only over several capacities */
        rc = pascal_calibration_write(path, FORMAT, ladder ? 2 : 1, attrs,
                                      (int)(sizeof attrs / sizeof attrs[0]) - (ladder ? 0 : 2),
                                      tables, ladder ? 5 : 4, err);
    }
    tb_free(&c), tb_free(&k), tb_free(&r), tb_free(&v), tb_free(&l);
    return rc;
}

/* ---- loading ------------------------------------------------------------ */

static int bad(const char *path, const char *what, pascal_error *err)
{
    return pascal_error_set(err, PASCAL_EINPUT, "%s: expected a pascal calibration file, got %s", path,
                            what);
}

static int read_params(const char *path, pascal_dyn_params *p, double *band, pascal_error *err)
{
    static const char *const keys[] = {"sms", "C", "block_bytes", "eta", "eps", "N0", "band_radius"};
    double v[7];
    for (int i = 0; i < 7; i++)
        if (pascal_calibration_read_num(path, keys[i], &v[i], err) != 0)
            return PASCAL_EINPUT;
    p->sms = v[0], p->C = v[1], p->block_bytes = v[2], p->eta = v[3], p->eps = v[4], p->N0 = v[5];
    *band = v[6];
    if (!(p->sms >= 1) || !(p->C >= 1) || !(p->block_bytes >= 1))
        return bad(path, "device facts sms, C, block_bytes that are not positive", err);
    return 0;
}

/* Level `lev` of /curves and /knots into a model: rows [k0, k1) of the
 * curves (all of them for a file at one capacity) at capacity p->C. */
static int build_level(const char *path, const pascal_dyn_params *p, double *const *c,
                       double *const *k, int64_t k0, int64_t k1, int64_t nk_all, int64_t nt,
                       pascal_dyn_model **out, pascal_error *err);

/* /curves and /knots into a model; a file over several capacities (ncap
 * > 1, /levels read into caps and bands) into their ladder. */
static int read_curves(const char *path, const pascal_dyn_params *p, int64_t ncap,
                       const double *caps, const double *bands, pascal_dyn_model **out,
                       pascal_error *err)
{
    static const char *const cn[] = {"o", "path", "d", "m", "knots", "knot_offset", "flags", "C"};
    static const char *const kn[] = {"log_x", "log_xK"};
    double *c[8] = {0}, *k[2];
    int64_t nk = 0, nt = 0, k0 = 0;
    int nc = ncap > 1 ? 8 : 7;
    pascal_dyn_model *lev[PASCAL_DYN_MAX_LEVELS] = {0};
    int rc = pascal_calibration_read_table(path, "curves", cn, nc, c, &nk, err);
    if (rc)
        return rc == PASCAL_EIO ? PASCAL_EINPUT : rc;
    if ((rc = pascal_calibration_read_table(path, "knots", kn, 2, k, &nt, err))) {
        for (int j = 0; j < nc; j++)
            free(c[j]);
        return rc == PASCAL_EIO ? PASCAL_EINPUT : rc;
    }
    if (ncap <= 1) {
        rc = build_level(path, p, c, k, 0, nk, nk, nt, out, err);
    } else {
        for (int64_t l = 0; rc == 0 && l < ncap; l++) {
            pascal_dyn_params q = *p;
            int64_t k1 = k0;
            q.C = caps[l];
            while (k1 < nk && c[7][k1] == caps[l])
                k1++;
            if (k1 == k0 || (l + 1 == ncap && k1 != nk))
                rc = bad(path, "/curves rows that do not follow the capacities of /levels", err);
            else if ((rc = build_level(path, &q, c, k, k0, k1, nk, nt, &lev[l], err)) == 0)
                pascal_dyn_model_set_band(lev[l], bands[l]);
            k0 = k1;
        }
        if (rc == 0 && pascal_dyn_ladder(lev, ncap, out) != 0)
            rc = bad(path, "/levels capacities that are not distinct and ascending", err);
        if (rc)
            for (int64_t l = 0; l < ncap; l++)
                pascal_dyn_model_free(lev[l]);
    }
    for (int j = 0; j < nc; j++)
        free(c[j]);
    free(k[0]), free(k[1]);
    return rc;
}

static int build_level(const char *path, const pascal_dyn_params *p, double *const *c,
                       double *const *k, int64_t k0, int64_t k1, int64_t nk_all, int64_t nt,
                       pascal_dyn_model **out, pascal_error *err)
{
    int64_t nk = k1 - k0, *off = NULL, base = nk ? (int64_t)c[5][k0] : 0, end;
    pascal_dyn_key *keys = NULL;
    unsigned *flags = NULL;
    int rc = 0;
    keys = malloc((size_t)(nk ? nk : 1) * sizeof *keys);
    off = malloc((size_t)(nk + 1) * sizeof *off);
    flags = malloc((size_t)(nk ? nk : 1) * sizeof *flags);
    if (!keys || !off || !flags)
        rc = pascal_error_set(err, PASCAL_ENOMEM, "%s: out of memory", path);
    for (int64_t i = 0; rc == 0 && i < nk; i++) {
        int64_t j = k0 + i;
        keys[i] = (pascal_dyn_key){(int64_t)c[0][j], (int)c[1][j], (int64_t)c[2][j], (int64_t)c[3][j]};
        off[i] = (int64_t)c[5][j] - base;
        flags[i] = (unsigned)c[6][j];
        if (off[i] != (i ? off[i - 1] + (int64_t)c[4][j - 1] : 0) || !(c[4][j] >= 1))
            rc = bad(path, "/curves knot offsets that do not follow each other", err);
    }
    if (rc == 0) {
        off[nk] = nk ? off[nk - 1] + (int64_t)c[4][k1 - 1] : 0;
        end = base + off[nk];
        if (base < 0 || end > nt || (k1 == nk_all && end != nt) ||
            (k0 == 0 ? base != 0 : base != (int64_t)c[5][k0 - 1] + (int64_t)c[4][k0 - 1]) ||
            pascal_dyn_model_build(p, nk, keys, off, k[0] + base, k[1] + base, flags, out) != 0)
            rc = bad(path, "curves that are not valid (unsorted keys, bad knots or parameters)", err);
    }
    free(keys), free(off), free(flags);
    return rc;
}

static void read_text(const char *path, const char *key, char *buf, int len)
{
    pascal_error e;
    if (pascal_h5_read_attr(path, key, buf, len, &e) != 0)
        buf[0] = '\0';
}

int pascal_calibrate_load(const char *path, pascal_dyn_model **model, pascal_cal_prov *prov,
                          pascal_error *err)
{
    char fmt[64];
    double version, band;
    pascal_dyn_params p = pascal_dyn_default_params();
    int rc;
    *model = NULL;
    if (access(path, R_OK) == 0 && (rc = pascal_h5_vet(path, err)) != 0)
        return rc; /* a damaged file, refused before HDF5 reads it here */
    if ((rc = pascal_h5_read_attr(path, "format", fmt, sizeof fmt, err)) != 0) {
        if (rc == PASCAL_ENOMEM || access(path, R_OK) != 0)
            return rc == PASCAL_EIO ? (err->code = PASCAL_EINPUT) : rc; /* "cannot open ..." */
        return bad(path, rc == PASCAL_EIO ? "a file that is not HDF5" : "an HDF5 file without a format attribute",
                   err);
    }
    if (strcmp(fmt, FORMAT) != 0)
        return pascal_error_set(err, PASCAL_EINPUT,
                                "%s: expected a pascal calibration file (format " FORMAT
                                "), got format \"%s\"",
                                path, fmt);
    if (pascal_calibration_read_num(path, "format_version", &version, err) != 0 ||
        version > FORMAT_VERSION)
        return bad(path, "a newer format_version than this pascal reads", err);
    if ((rc = read_params(path, &p, &band, err)))
        return rc;
    if (version >= 2) {
        static const char *const ln[] = {"C", "band_radius"};
        double *lv[2] = {NULL, NULL};
        int64_t n = 0;
        if ((rc = pascal_calibration_read_table(path, "levels", ln, 2, lv, &n, err)))
            return rc == PASCAL_EIO ? PASCAL_EINPUT : rc;
        if (n < 2 || n > PASCAL_DYN_MAX_LEVELS)
            rc = bad(path, "a /levels table without 2 to 64 capacities", err);
        for (int64_t i = 0; rc == 0 && i < n; i++)
            if (!(lv[0][i] >= 1) || (i > 0 && !(lv[0][i] > lv[0][i - 1])))
                rc = bad(path, "/levels capacities that are not ascending whole blocks", err);
        if (rc == 0)
            rc = read_curves(path, &p, n, lv[0], lv[1], model, err);
        free(lv[0]), free(lv[1]);
        if (rc)
            return rc;
    } else {
        if ((rc = read_curves(path, &p, 1, NULL, NULL, model, err)))
            return rc;
        pascal_dyn_model_set_band(*model, band);
    }
    if (prov) {
        memset(prov, 0, sizeof *prov);
        read_text(path, "input", prov->input, sizeof prov->input);
        read_text(path, "input_sha256", prov->input_sha256, sizeof prov->input_sha256);
        read_text(path, "device", prov->device, sizeof prov->device);
        read_text(path, "device_path", prov->device_path, sizeof prov->device_path);
        read_text(path, "command_line", prov->command_line, sizeof prov->command_line);
        read_text(path, "created", prov->created, sizeof prov->created);
    }
    return 0;
}
