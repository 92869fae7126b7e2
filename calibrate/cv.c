/* Leave-one-key-out cross-validation (paper section 4.5) and the baselines
 * evaluated on the same folds.
 *
 * Fold for key z: every run of z, at every N and W, is removed before any
 * fitting (pascal_dyn_fit with exclude = z: curves, anchors and templates are
 * rebuilt from the other keys only; the baselines standardise and train on
 * the other keys only), then z is predicted at each of its scored runs.
 * Key-balanced MAPE (eq. 26): 100 / |Z| sum_z (1 / n_z) sum_j |K_hat / K - 1|.
 * Serial and in key order, so results are bit-identical run to run. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "calibrate/calibrate.h"
#include "common/clock.h"

const char *const pascal_cv_method_names[PASCAL_CV_NMETHOD] = {"pascal", "aligned", "nearest",
                                                                "knn", "ridge", "family"};

#define NFEAT 7   /* o, path, d, m, class==1, class==2, log x */
#define NKFEAT 6  /* the key's own features (no horizon) */

pascal_cv_opts pascal_cv_default_opts(void)
{
    pascal_cv_opts o;
    o.w_min = 1;
    o.baselines = 0;
    o.knn_k = 5;
    o.ridge_lambda = 1;
    o.band_quantile = 0.9;
    return o;
}

void pascal_calibrate_cv_free(pascal_cv_result *r)
{
    if (!r)
        return;
    free(r->keys);
    free(r->oof);
    free(r->oof_code);
    memset(r, 0, sizeof *r);
}

/* ---- baselines ------------------------------------------------------------ */

/* Training points of one fold: every (key, horizon) mean except key `ex`. */
typedef struct fold {
    const pascal_dyn_agg *agg;
    int64_t ex;
    double mean[NFEAT], sd[NFEAT];
    double beta[NFEAT], ybar;          /* ridge */
    int ridge_ok;
} fold;

static void key_features(const pascal_dyn_key *k, double *f)
{
    int c = pascal_dyn_class(k->m);
    f[0] = (double)k->o;
    f[1] = (double)k->path;
    f[2] = (double)k->d;
    f[3] = (double)k->m;
    f[4] = c == 1;
    f[5] = c == 2;
}

static void point_features(const pascal_dyn_agg *a, int64_t k, int64_t h, double *f)
{
    key_features(&a->keys[k], f);
    f[6] = log(a->x[h]);
}

static void standardise(const fold *fd, double *f, int n)
{
    for (int j = 0; j < n; j++)
        f[j] = (f[j] - fd->mean[j]) / fd->sd[j];
}

static void fold_stats(fold *fd)
{
    const pascal_dyn_agg *a = fd->agg;
    double f[NFEAT], s1[NFEAT] = {0}, s2[NFEAT] = {0};
    int64_t n = 0;
    for (int64_t k = 0; k < a->nkeys; k++)
        for (int64_t h = a->off[k]; k != fd->ex && h < a->off[k + 1]; h++, n++) {
            point_features(a, k, h, f);
            for (int j = 0; j < NFEAT; j++)
                s1[j] += f[j], s2[j] += f[j] * f[j];
        }
    for (int j = 0; j < NFEAT; j++) {
        double m = n ? s1[j] / (double)n : 0, v = n ? s2[j] / (double)n - m * m : 0;
        fd->mean[j] = m;
        fd->sd[j] = v > 1e-12 ? sqrt(v) : 1; /* a constant feature stays 0 */
    }
}

/* Solves the NFEAT x NFEAT SPD system A b = r by Cholesky; 0 on success. */
static int cholesky_solve(double A[NFEAT][NFEAT], double *r, double *b)
{
    double L[NFEAT][NFEAT] = {{0}}, z[NFEAT];
    for (int i = 0; i < NFEAT; i++)
        for (int j = 0; j <= i; j++) {
            double s = A[i][j];
            for (int k = 0; k < j; k++)
                s -= L[i][k] * L[j][k];
            if (i == j) {
                if (!(s > 0))
                    return -1;
                L[i][i] = sqrt(s);
            } else {
                L[i][j] = s / L[j][j];
            }
        }
    for (int i = 0; i < NFEAT; i++) {
        double s = r[i];
        for (int k = 0; k < i; k++)
            s -= L[i][k] * z[k];
        z[i] = s / L[i][i];
    }
    for (int i = NFEAT - 1; i >= 0; i--) {
        double s = z[i];
        for (int k = i + 1; k < NFEAT; k++)
            s -= L[k][i] * b[k];
        b[i] = s / L[i][i];
    }
    return 0;
}

/* Ridge regression of log K on the standardised features. */
static void fold_ridge(fold *fd, double lambda)
{
    const pascal_dyn_agg *a = fd->agg;
    double A[NFEAT][NFEAT] = {{0}}, r[NFEAT] = {0}, f[NFEAT], sy = 0;
    int64_t n = 0;
    for (int64_t k = 0; k < a->nkeys; k++)
        for (int64_t h = a->off[k]; k != fd->ex && h < a->off[k + 1]; h++, n++)
            sy += log(a->K[h]);
    fd->ybar = n ? sy / (double)n : 0;
    for (int64_t k = 0; k < a->nkeys; k++)
        for (int64_t h = a->off[k]; k != fd->ex && h < a->off[k + 1]; h++) {
            double y = log(a->K[h]) - fd->ybar;
            point_features(a, k, h, f);
            standardise(fd, f, NFEAT);
            for (int i = 0; i < NFEAT; i++) {
                r[i] += f[i] * y;
                for (int j = 0; j < NFEAT; j++)
                    A[i][j] += f[i] * f[j];
            }
        }
    for (int i = 0; i < NFEAT; i++)
        A[i][i] += lambda;
    fd->ridge_ok = cholesky_solve(A, r, fd->beta) == 0;
}

static double dist2(const double *a, const double *b, int n)
{
    double s = 0;
    for (int j = 0; j < n; j++)
        s += (a[j] - b[j]) * (a[j] - b[j]);
    return s;
}

/* log K of agg key k at horizon x: linear in log x, held at the ends. */
static double key_logk_at(const pascal_dyn_agg *a, int64_t k, double x)
{
    int64_t h0 = a->off[k], h1 = a->off[k + 1] - 1, h = h0;
    if (x <= a->x[h0])
        return log(a->K[h0]);
    if (x >= a->x[h1])
        return log(a->K[h1]);
    while (a->x[h + 1] < x)
        h++;
    return log(a->K[h]) + (log(a->K[h + 1]) - log(a->K[h])) * (log(x) - log(a->x[h])) /
                              (log(a->x[h + 1]) - log(a->x[h]));
}

static double predict_nearest(const fold *fd, const pascal_dyn_key *z, double x)
{
    const pascal_dyn_agg *a = fd->agg;
    double q[NFEAT], f[NFEAT], best = INFINITY;
    int64_t bk = -1;
    key_features(z, q);
    standardise(fd, q, NKFEAT);
    for (int64_t k = 0; k < a->nkeys; k++) {
        double dd;
        if (k == fd->ex)
            continue;
        key_features(&a->keys[k], f);
        standardise(fd, f, NKFEAT);
        if ((dd = dist2(q, f, NKFEAT)) < best)
            best = dd, bk = k;
    }
    return bk < 0 ? NAN : exp(key_logk_at(a, bk, x));
}

/* The nearest compute in the held-out key's family: the training key of
 * the same occupancy, path and depth whose m is closest (ties: the
 * smaller), its curve at the same work x.  What a user without the model
 * would do: read the neighbouring measurement. */
static double predict_family(const fold *fd, const pascal_dyn_key *z, double x)
{
    const pascal_dyn_agg *a = fd->agg;
    int64_t bk = -1;
    double best = INFINITY;
    for (int64_t k = 0; k < a->nkeys; k++) {
        const pascal_dyn_key *q = &a->keys[k];
        double dm = fabs((double)q->m - (double)z->m);
        if (k == fd->ex || q->o != z->o || q->path != z->path || q->d != z->d)
            continue;
        if (dm < best || (dm == best && bk >= 0 && q->m < a->keys[bk].m))
            best = dm, bk = k;
    }
    return bk < 0 ? NAN : exp(key_logk_at(a, bk, x));
}

/* Inverse-distance weighted k-NN over the fold's training points; exact
 * matches (distance 0) take all the weight. */
static double predict_knn(const fold *fd, const pascal_dyn_key *z, double x, int kk)
{
    const pascal_dyn_agg *a = fd->agg;
    double q[NFEAT], f[NFEAT], bd[64], by[64], sw = 0, sy = 0;
    int nb = 0, zeros = 0;
    kk = kk < 1 ? 1 : kk > 64 ? 64 : kk;
    key_features(z, q);
    q[6] = log(x);
    standardise(fd, q, NFEAT);
    for (int64_t k = 0; k < a->nkeys; k++)
        for (int64_t h = a->off[k]; k != fd->ex && h < a->off[k + 1]; h++) {
            double dd;
            int p;
            point_features(a, k, h, f);
            standardise(fd, f, NFEAT);
            dd = sqrt(dist2(q, f, NFEAT));
            if (nb == kk && dd >= bd[nb - 1])
                continue;
            p = nb < kk ? nb++ : nb - 1; /* insertion into the sorted k best */
            while (p > 0 && bd[p - 1] > dd) {
                bd[p] = bd[p - 1], by[p] = by[p - 1];
                p--;
            }
            bd[p] = dd, by[p] = log(a->K[h]);
        }
    for (int i = 0; i < nb; i++)
        zeros += bd[i] == 0;
    for (int i = 0; i < nb; i++) {
        double w = zeros ? (bd[i] == 0) : 1 / bd[i];
        sw += w, sy += w * by[i];
    }
    return nb ? exp(sy / sw) : NAN;
}

static double predict_ridge(const fold *fd, const pascal_dyn_key *z, double x)
{
    double f[NFEAT], y = fd->ybar;
    if (!fd->ridge_ok)
        return NAN;
    key_features(z, f);
    f[6] = log(x);
    standardise(fd, f, NFEAT);
    for (int j = 0; j < NFEAT; j++)
        y += fd->beta[j] * f[j];
    return exp(y);
}

/* ---- the folds ------------------------------------------------------------ */

typedef struct cv_ctx {
    const pascal_refs *refs;
    const pascal_dyn_agg *agg;
    const pascal_dyn_params *par;
    const pascal_cv_opts *o;
    int64_t *rows, *roff;   /* scored rows grouped by key */
    double *absres;         /* |log(K / K_hat)| of PASCAL's scored runs */
    int64_t nres;
} cv_ctx;

/* Scored rows of each key, in row order (counting sort). */
static int group_rows(cv_ctx *c)
{
    const pascal_refs *r = c->refs;
    int64_t nk = c->agg->nkeys, *fill;
    c->roff = calloc((size_t)nk + 1, sizeof *c->roff);
    c->rows = malloc((size_t)r->n * sizeof *c->rows);
    fill = calloc((size_t)nk + 1, sizeof *fill);
    if (!c->roff || !c->rows || !fill) {
        free(fill);
        return -1;
    }
    for (int64_t i = 0; i < r->n; i++)
        if (r->rows[i].W > c->o->w_min) {
            pascal_dyn_key k = {r->rows[i].o, r->rows[i].path, r->rows[i].d, r->rows[i].m};
            c->roff[pascal_dyn_agg_find(c->agg, &k) + 1]++;
        }
    for (int64_t k = 0; k < nk; k++)
        c->roff[k + 1] += c->roff[k];
    for (int64_t i = 0; i < r->n; i++)
        if (r->rows[i].W > c->o->w_min) {
            pascal_dyn_key k = {r->rows[i].o, r->rows[i].path, r->rows[i].d, r->rows[i].m};
            int64_t e = pascal_dyn_agg_find(c->agg, &k);
            c->rows[c->roff[e] + fill[e]++] = i;
        }
    free(fill);
    return 0;
}

static double workers(const pascal_dyn_params *par, int64_t o)
{
    return par->sms * (double)o;
}

/* The baselines' predictions at row i of held-out key z. */
static void baselines(const fold *fd, const cv_ctx *c, const pascal_dyn_ref *r, double *pred)
{
    pascal_dyn_key z = {r->o, r->path, r->d, r->m};
    double x = r->W * r->N / c->par->N0, M = workers(c->par, r->o);
    pred[PASCAL_CV_ALIGNED] = 1;
    pred[PASCAL_CV_NEAREST] = fmin(M, predict_nearest(fd, &z, x));
    pred[PASCAL_CV_KNN] = fmin(M, predict_knn(fd, &z, x, c->o->knn_k));
    pred[PASCAL_CV_RIDGE] = fmin(M, predict_ridge(fd, &z, x));
    double family = predict_family(fd, &z, x);   /* NaN: no key of the family left */
    pred[PASCAL_CV_FAMILY] = isnan(family) ? NAN : fmin(M, family);
}

/* Fold e: fit without key e, predict its scored runs. */
static int run_fold(cv_ctx *c, int64_t e, pascal_cv_key *out, pascal_cv_result *res)
{
    pascal_dyn_model *m = NULL;
    double sum[PASCAL_CV_NMETHOD] = {0}, sle[PASCAL_CV_NMETHOD] = {0}, slog = 0;
    int64_t n = c->roff[e + 1] - c->roff[e];
    fold fd;
    int rc = pascal_dyn_fit(c->agg, e, c->par, &m);
    if (rc == -2)
        return PASCAL_ENOMEM;
    memset(&fd, 0, sizeof fd);
    fd.agg = c->agg, fd.ex = e;
    if (c->o->baselines) {
        fold_stats(&fd);
        fold_ridge(&fd, c->o->ridge_lambda);
    }
    out->key = c->agg->keys[e];
    out->C = NAN;
    out->runs = n;
    out->code = PASCAL_DYN_ERR_FAMILY; /* no other key at all */
    for (int64_t q = c->roff[e]; q < c->roff[e + 1]; q++) {
        int64_t i = c->rows[q];
        const pascal_dyn_ref *r = &c->refs->rows[i];
        pascal_dyn_query qy = {r->o, r->path, r->d, r->m, r->N, r->W, NAN, 0};
        pascal_dyn_pred p;
        double pred[PASCAL_CV_NMETHOD] = {NAN, NAN, NAN, NAN, NAN, NAN};
        if (m) {
            pascal_dyn_predict(m, &qy, &p);
            pred[PASCAL_CV_PASCAL] = p.K;
            out->code = p.code;
        }
        if (c->o->baselines)
            baselines(&fd, c, r, pred);
        res->oof[i] = pred[PASCAL_CV_PASCAL];
        res->oof_code[i] = out->code;
        if (!isnan(pred[PASCAL_CV_PASCAL]))
            c->absres[c->nres++] = fabs(log(r->K / pred[PASCAL_CV_PASCAL]));
        for (int k = 0; k < PASCAL_CV_NMETHOD; k++) {
            sum[k] += fabs(pred[k] / r->K - 1);
            sle[k] += fabs(log(pred[k] / r->K));
        }
        slog += log(r->K);
    }
    for (int k = 0; k < PASCAL_CV_NMETHOD; k++) {
        out->mape[k] = 100 * sum[k] / (double)n; /* NaN when a run had no prediction */
        out->sle[k] = sle[k] / (double)n;
    }
    out->K_geomean = exp(slog / (double)n);
    pascal_dyn_model_free(m);
    return 0;
}

void pascal_cv_split(const pascal_cv_result *r, unsigned codes, double *mape, double *sle,
                     int64_t *nkeys)
{
    int64_t n = 0;
    for (int k = 0; k < PASCAL_CV_NMETHOD; k++)
        mape[k] = sle[k] = 0;
    for (int64_t z = 0; z < r->nkeys; z++) {
        const pascal_cv_key *q = &r->keys[z];
        if (isnan(q->mape[PASCAL_CV_PASCAL]) || q->code < 0 || q->code > 31 || !(codes >> q->code & 1u))
            continue;
        for (int k = 0; k < PASCAL_CV_NMETHOD; k++)
            mape[k] += q->mape[k], sle[k] += q->sle[k];
        n++;
    }
    for (int k = 0; k < PASCAL_CV_NMETHOD; k++) {
        mape[k] = n ? mape[k] / (double)n : NAN;
        sle[k] = n ? sle[k] / (double)n : NAN;
    }
    *nkeys = n;
}

static void overall(pascal_cv_result *res)
{
    for (int k = 0; k < PASCAL_CV_NMETHOD; k++) {
        double s = 0, sa = 0;
        int64_t n = 0, na = 0;
        for (int64_t z = 0; z < res->nkeys; z++) {
            const pascal_cv_key *q = &res->keys[z];
            if (!isnan(q->mape[PASCAL_CV_PASCAL]))
                s += q->mape[k], n++;
            sa += q->mape[k], na++;
        }
        res->mape[k] = n ? s / (double)n : NAN;
        res->mape_all[k] = na ? sa / (double)na : NAN;
    }
}

void pascal_cv_overall(pascal_cv_result *r)
{
    overall(r);
}

int pascal_calibrate_cv(const pascal_refs *refs, const pascal_dyn_agg *agg,
                        const pascal_dyn_params *par, const pascal_cv_opts *o,
                        pascal_cv_result *out, pascal_error *err)
{
    cv_ctx c = {refs, agg, par, o, NULL, NULL, NULL, 0};
    double t0 = pascal_now();
    int rc = 0;
    memset(out, 0, sizeof *out);
    out->oof = malloc((size_t)refs->n * sizeof *out->oof);
    out->oof_code = malloc((size_t)refs->n * sizeof *out->oof_code);
    out->keys = calloc((size_t)agg->nkeys, sizeof *out->keys);
    c.absres = malloc((size_t)refs->n * sizeof *c.absres);
    if (!out->oof || !out->oof_code || !out->keys || !c.absres || group_rows(&c) != 0)
        rc = pascal_error_set(err, PASCAL_ENOMEM, "cross-validation: out of memory");
    for (int64_t i = 0; rc == 0 && i < refs->n; i++)
        out->oof[i] = NAN, out->oof_code[i] = -1;
    for (int64_t e = 0; rc == 0 && e < agg->nkeys; e++) {
        pascal_cv_key *k = &out->keys[out->nkeys];
        if (c.roff[e + 1] == c.roff[e])
            continue;
        if ((rc = run_fold(&c, e, k, out)))
            pascal_error_set(err, rc, "cross-validation: out of memory");
        out->nkeys++;
        out->runs_scored += k->runs;
        if (k->code >= PASCAL_DYN_UNSUPPORTED)
            out->keys_rejected++;
        else
            out->keys_predicted++;
    }
    if (rc == 0) {
        overall(out);
        out->band_radius = pascal_dyn_quantile(c.absres, c.nres, o->band_quantile);
        out->seconds = pascal_now() - t0;
    } else {
        pascal_calibrate_cv_free(out);
    }
    free(c.rows), free(c.roff), free(c.absres);
    return rc;
}

/* ---- held-out test --------------------------------------------------------- */

static pascal_dyn_key key_of(const pascal_dyn_ref *r)
{
    pascal_dyn_key k = {r->o, r->path, r->d, r->m};
    return k;
}

typedef struct test_row {
    pascal_dyn_key key;
    int64_t i;
} test_row;

static int cmp_test_rows(const void *a, const void *b)
{
    const test_row *x = a, *y = b;
    int c = pascal_dyn_key_cmp(&x->key, &y->key);
    return c ? c : (x->i > y->i) - (x->i < y->i);
}

/* One held-out key: test rows rows[0..n-1], all of key z. */
static void holdout_key(const fold *fd, const cv_ctx *c, const pascal_dyn_model *model,
                        const pascal_refs *test, const int64_t *rows, int64_t n, pascal_cv_key *out)
{
    double sum[PASCAL_CV_NMETHOD] = {0}, sle[PASCAL_CV_NMETHOD] = {0}, slog = 0;
    out->key = key_of(&test->rows[rows[0]]);
    out->C = NAN;
    out->runs = n;
    for (int64_t q = 0; q < n; q++) {
        const pascal_dyn_ref *r = &test->rows[rows[q]];
        pascal_dyn_query qy = {r->o, r->path, r->d, r->m, r->N, r->W, NAN, 0};
        pascal_dyn_pred p;
        double pred[PASCAL_CV_NMETHOD] = {NAN, NAN, NAN, NAN, NAN, NAN};
        pascal_dyn_predict(model, &qy, &p);
        pred[PASCAL_CV_PASCAL] = p.K;
        out->code = p.code;
        if (c->o->baselines)
            baselines(fd, c, r, pred);
        for (int k = 0; k < PASCAL_CV_NMETHOD; k++) {
            sum[k] += fabs(pred[k] / r->K - 1);
            sle[k] += fabs(log(pred[k] / r->K));
        }
        slog += log(r->K);
    }
    for (int k = 0; k < PASCAL_CV_NMETHOD; k++) {
        out->mape[k] = 100 * sum[k] / (double)n;
        out->sle[k] = sle[k] / (double)n;
    }
    out->K_geomean = exp(slog / (double)n);
}

int pascal_calibrate_holdout(const pascal_refs *refs, const pascal_dyn_agg *agg,
                             const pascal_dyn_model *model, const pascal_dyn_params *par,
                             const pascal_cv_opts *o, const pascal_refs *test,
                             pascal_cv_result *out, pascal_error *err)
{
    cv_ctx c = {refs, agg, par, o, NULL, NULL, NULL, 0};
    fold fd;
    test_row *tr = malloc((size_t)(test->n > 0 ? test->n : 1) * sizeof *tr);
    int64_t *rows = malloc((size_t)(test->n > 0 ? test->n : 1) * sizeof *rows), nr = 0;
    double t0 = pascal_now();
    memset(out, 0, sizeof *out);
    out->keys = calloc((size_t)(test->n > 0 ? test->n : 1), sizeof *out->keys);
    if (!rows || !tr || !out->keys) {
        free(rows), free(tr);
        pascal_calibrate_cv_free(out);
        return pascal_error_set(err, PASCAL_ENOMEM, "held-out test: out of memory");
    }
    memset(&fd, 0, sizeof fd);
    fd.agg = agg, fd.ex = -1; /* every reference key trains the baselines */
    if (o->baselines) {
        fold_stats(&fd);
        fold_ridge(&fd, o->ridge_lambda);
    }
    for (int64_t i = 0; i < test->n; i++)
        if (test->rows[i].W > o->w_min)
            tr[nr].key = key_of(&test->rows[i]), tr[nr++].i = i;
    qsort(tr, (size_t)nr, sizeof *tr, cmp_test_rows); /* by key, then row */
    for (int64_t q = 0; q < nr; q++)
        rows[q] = tr[q].i;
    for (int64_t a = 0, b; a < nr; a = b) {
        pascal_dyn_key ka = key_of(&test->rows[rows[a]]), kb;
        pascal_cv_key *k = &out->keys[out->nkeys++];
        for (b = a + 1; b < nr && (kb = key_of(&test->rows[rows[b]]),
                                   pascal_dyn_key_cmp(&ka, &kb) == 0); b++)
            ;
        holdout_key(&fd, &c, model, test, rows + a, b - a, k);
        out->runs_scored += k->runs;
        if (k->code >= PASCAL_DYN_UNSUPPORTED)
            out->keys_rejected++;
        else
            out->keys_predicted++;
    }
    overall(out);
    out->band_radius = NAN;
    out->seconds = pascal_now() - t0;
    free(rows), free(tr);
    return 0;
}
