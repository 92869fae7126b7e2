/* A calibration over several cache capacities (calibrate/calibrate.h,
 * docs/simulate.md section 7.1): the runs are split by their C column, each
 * capacity is fitted and cross-validated on its own runs exactly as a
 * calibration at one capacity is, and the fitted models become one ladder
 * (model/dynamic.h) that answers between them.  Each interior capacity is
 * then left out whole and predicted by the ladder of the others, the check
 * of the interpolation in C itself. */
#include "calibrate/calibrate.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Distinct C of the rows, ascending, into *out (malloc'd); their count. */
static int64_t distinct_capacities(const pascal_refs *refs, double **out)
{
    double *c = malloc((size_t)refs->n * sizeof *c);
    int64_t n = 0;
    if (!c)
        return -1;
    for (int64_t i = 0; i < refs->n; i++)
        c[i] = refs->rows[i].C;
    qsort(c, (size_t)refs->n, sizeof *c, cmp_double);
    for (int64_t i = 0; i < refs->n; i++)
        if (n == 0 || c[i] != c[n - 1])
            c[n++] = c[i];
    *out = c;
    return n;
}

static void level_free(pascal_calibrate_level *l)
{
    pascal_calibrate_refs_free(&l->refs);
    free(l->row);
    pascal_dyn_agg_free(l->agg);
    pascal_calibrate_cv_free(&l->cv);
    pascal_calibrate_cv_free(&l->lcoo);
}

void pascal_calibrate_levels_free(pascal_calibrate_result *r)
{
    for (int64_t i = 0; i < r->nlev; i++)
        level_free(&r->lev[i]);
    free(r->lev);
    r->lev = NULL;
    r->nlev = 0;
}

/* Level l's runs, fit and folds; *model gets its fitted model (band set). */
static int fit_level(const pascal_calibrate_result *r, pascal_calibrate_level *l,
                     const pascal_cv_opts *o, pascal_dyn_model **model, pascal_error *err)
{
    pascal_dyn_params par = r->par;
    int64_t n = 0;
    int rc;
    par.C = l->C;
    for (int64_t i = 0; i < r->refs.n; i++)
        n += r->refs.rows[i].C == l->C;
    l->refs.rows = malloc((size_t)n * sizeof *l->refs.rows);
    l->refs.line = malloc((size_t)n * sizeof *l->refs.line);
    l->row = malloc((size_t)n * sizeof *l->row);
    if (!l->refs.rows || !l->refs.line || !l->row)
        return pascal_error_set(err, PASCAL_ENOMEM, "calibrate: out of memory");
    for (int64_t i = 0; i < r->refs.n; i++)
        if (r->refs.rows[i].C == l->C) {
            l->refs.rows[l->refs.n] = r->refs.rows[i];
            l->refs.line[l->refs.n] = r->refs.line[i];
            l->row[l->refs.n++] = i;
        }
    l->refs.have_C = 1;
    rc = pascal_dyn_aggregate(l->refs.rows, l->refs.n, par.N0, &l->agg);
    if (rc == -1)
        return pascal_error_set(err, PASCAL_EINPUT,
                                "calibrate: expected at most %d distinct horizons per key, got more",
                                PASCAL_DYN_MAX_KNOTS);
    if (rc || pascal_dyn_fit(l->agg, -1, &par, model) != 0)
        return pascal_error_set(err, PASCAL_ENOMEM, "calibrate: out of memory");
    if ((rc = pascal_calibrate_cv(&l->refs, l->agg, &par, o, &l->cv, err)))
        return rc;
    for (int64_t k = 0; k < l->cv.nkeys; k++)
        l->cv.keys[k].C = l->C;
    pascal_dyn_model_set_band(*model, l->cv.band_radius);
    return 0;
}

/* The folds of every level as one result: keys in level order, each
 * row's out-of-fold answer at its place in the file, the band radius the
 * 0.9 quantile over every level's out-of-fold errors. */
static int merge_cv(pascal_calibrate_result *r, const pascal_cv_opts *o, pascal_error *err)
{
    pascal_cv_result *m = &r->cv;
    int64_t nk = 0, nres = 0;
    double *res;
    memset(m, 0, sizeof *m);
    for (int64_t i = 0; i < r->nlev; i++)
        nk += r->lev[i].cv.nkeys;
    m->keys = calloc((size_t)(nk ? nk : 1), sizeof *m->keys);
    m->oof = malloc((size_t)r->refs.n * sizeof *m->oof);
    m->oof_code = malloc((size_t)r->refs.n * sizeof *m->oof_code);
    res = malloc((size_t)r->refs.n * sizeof *res);
    if (!m->keys || !m->oof || !m->oof_code || !res) {
        free(res);
        return pascal_error_set(err, PASCAL_ENOMEM, "calibrate: out of memory");
    }
    for (int64_t i = 0; i < r->nlev; i++) {
        const pascal_calibrate_level *l = &r->lev[i];
        memcpy(m->keys + m->nkeys, l->cv.keys, (size_t)l->cv.nkeys * sizeof *m->keys);
        m->nkeys += l->cv.nkeys;
        m->keys_predicted += l->cv.keys_predicted;
        m->keys_rejected += l->cv.keys_rejected;
        m->runs_scored += l->cv.runs_scored;
        m->seconds += l->cv.seconds;
        for (int64_t q = 0; q < l->refs.n; q++) {
            double K = l->cv.oof[q];
            m->oof[l->row[q]] = K;
            m->oof_code[l->row[q]] = l->cv.oof_code[q];
            if (!isnan(K))
                res[nres++] = fabs(log(l->refs.rows[q].K / K));
        }
    }
    pascal_cv_overall(m);
    m->band_radius = pascal_dyn_quantile(res, nres, o->band_quantile);
    free(res);
    return 0;
}

/* One scored run's predictions into a key's sums. */
static void add_run(double *sum, double *sle, double *slog, const double *pred, double K)
{
    for (int t = 0; t < PASCAL_CV_NMETHOD; t++) {
        sum[t] += fabs(pred[t] / K - 1);
        sle[t] += fabs(log(pred[t] / K));
    }
    *slog += log(K);
}

/* A key of n scored runs into out (nothing when n is 0). */
static void end_key(pascal_cv_result *out, pascal_cv_key *ck, const double *sum, const double *sle,
                    double slog, int64_t n)
{
    if (n == 0)
        return;
    for (int t = 0; t < PASCAL_CV_NMETHOD; t++) {
        ck->mape[t] = 100 * sum[t] / (double)n;
        ck->sle[t] = sle[t] / (double)n;
    }
    ck->runs = n;
    ck->K_geomean = exp(slog / (double)n);
    out->runs_scored += n;
    if (ck->code >= PASCAL_DYN_UNSUPPORTED)
        out->keys_rejected++;
    else
        out->keys_predicted++;
    out->nkeys++;
}

/* Level i left out: each key's scored runs predicted by the other levels. */
static int leave_capacity_out(const pascal_calibrate_result *r, int64_t i,
                              const pascal_cv_opts *o, pascal_error *err)
{
    pascal_calibrate_level *l = &r->lev[i];
    pascal_cv_result *out = &l->lcoo;
    const pascal_dyn_agg *a = l->agg;
    /* the nearest other capacity in log C; ties to the smaller cache */
    int64_t near = log(l->C / r->lev[i - 1].C) <= log(r->lev[i + 1].C / l->C) ? i - 1 : i + 1;
    const pascal_dyn_model *nm = pascal_dyn_model_level(r->model, near);
    memset(out, 0, sizeof *out);
    if (!(out->keys = calloc((size_t)a->nkeys, sizeof *out->keys)))
        return pascal_error_set(err, PASCAL_ENOMEM, "calibrate: out of memory");
    for (int64_t k = 0; k < a->nkeys; k++) {
        pascal_cv_key *ck = &out->keys[out->nkeys];
        double sum[PASCAL_CV_NMETHOD] = {0}, sle[PASCAL_CV_NMETHOD] = {0}, slog = 0;
        int64_t n = 0;
        ck->key = a->keys[k];
        ck->C = l->C;
        ck->code = PASCAL_DYN_ERR_CAPACITY;
        for (int64_t q = 0; q < l->refs.n; q++) {
            const pascal_dyn_ref *x = &l->refs.rows[q];
            pascal_dyn_query qy = {x->o, x->path, x->d, x->m, x->N, x->W, NAN, 0};
            pascal_dyn_pred p, pn;
            double pred[PASCAL_CV_NMETHOD];
            if (x->o != ck->key.o || x->path != ck->key.path || x->d != ck->key.d ||
                x->m != ck->key.m || !(x->W > o->w_min))
                continue;
            for (int t = 0; t < PASCAL_CV_NMETHOD; t++)
                pred[t] = NAN;
            pascal_dyn_predict_without(r->model, i, &qy, l->C, &p);
            pascal_dyn_predict(nm, &qy, &pn);
            ck->code = p.code;
            pred[PASCAL_CV_PASCAL] = p.K;
            pred[PASCAL_CV_ALIGNED] = 1;
            pred[PASCAL_CV_NEAREST] = pn.K;
            add_run(sum, sle, &slog, pred, x->K);
            n++;
        }
        end_key(out, ck, sum, sle, slog, n);
    }
    pascal_cv_overall(out);
    out->band_radius = NAN;
    return 0;
}

/* The level nearest C in log C (ties to the smaller cache). */
static int64_t nearest_level(const pascal_calibrate_result *r, double C)
{
    int64_t best = 0;
    for (int64_t i = 1; i < r->nlev; i++)
        if (fabs(log(r->lev[i].C / C)) < fabs(log(r->lev[best].C / C)))
            best = i;
    return best;
}

int pascal_calibrate_ladder_holdout(const pascal_calibrate_result *r, const pascal_cv_opts *o,
                                    const pascal_refs *test, pascal_cv_result *out,
                                    pascal_error *err)
{
    unsigned char *done;
    memset(out, 0, sizeof *out);
    if (!test->have_C)
        return pascal_error_set(err, PASCAL_EINPUT, "expected references with a C column (each "
                                "run's capacity) for a calibration over several capacities, got "
                                "none");
    if (!(out->keys = calloc((size_t)(test->n > 0 ? test->n : 1), sizeof *out->keys)) ||
        !(done = calloc((size_t)(test->n > 0 ? test->n : 1), 1))) {
        free(out->keys);
        out->keys = NULL;
        return pascal_error_set(err, PASCAL_ENOMEM, "calibrate: out of memory");
    }
    /* One test key per (o, path, d, m, C), in order of first appearance. */
    for (int64_t f = 0; f < test->n; f++) {
        const pascal_dyn_ref *y = &test->rows[f];
        pascal_cv_key *ck = &out->keys[out->nkeys];
        const pascal_dyn_model *nm = pascal_dyn_model_level(r->model, nearest_level(r, y->C));
        double sum[PASCAL_CV_NMETHOD] = {0}, sle[PASCAL_CV_NMETHOD] = {0}, slog = 0;
        int64_t n = 0;
        if (done[f])
            continue;
        ck->key = (pascal_dyn_key){y->o, y->path, y->d, y->m};
        ck->C = y->C;
        ck->code = PASCAL_DYN_ERR_CAPACITY;
        for (int64_t q = f; q < test->n; q++) {
            const pascal_dyn_ref *x = &test->rows[q];
            pascal_dyn_query qy = {x->o, x->path, x->d, x->m, x->N, x->W, NAN, 0};
            pascal_dyn_pred p, pn;
            double pred[PASCAL_CV_NMETHOD];
            if (done[q] || x->o != y->o || x->path != y->path || x->d != y->d || x->m != y->m ||
                x->C != y->C)
                continue;
            done[q] = 1;
            if (!(x->W > o->w_min))
                continue;
            for (int t = 0; t < PASCAL_CV_NMETHOD; t++)
                pred[t] = NAN;
            pascal_dyn_predict_at(r->model, &qy, x->C, &p);
            pascal_dyn_predict(nm, &qy, &pn);
            ck->code = p.code;
            pred[PASCAL_CV_PASCAL] = p.K;
            pred[PASCAL_CV_ALIGNED] = 1;
            pred[PASCAL_CV_NEAREST] = pn.K;
            add_run(sum, sle, &slog, pred, x->K);
            n++;
        }
        end_key(out, ck, sum, sle, slog, n);
    }
    free(done);
    pascal_cv_overall(out);
    out->band_radius = NAN;
    return 0;
}

int pascal_calibrate_ladder(pascal_calibrate_result *r, const pascal_cv_opts *o,
                            pascal_error *err)
{
    pascal_dyn_model *models[PASCAL_DYN_MAX_LEVELS] = {0};
    double *caps = NULL;
    int64_t n = distinct_capacities(&r->refs, &caps);
    int rc = 0;
    if (n < 0)
        return pascal_error_set(err, PASCAL_ENOMEM, "calibrate: out of memory");
    if (n > PASCAL_DYN_MAX_LEVELS) {
        free(caps);
        return pascal_error_set(err, PASCAL_EINPUT,
                                "%s: C: expected at most %d distinct capacities, got %lld",
                                r->prov.input, PASCAL_DYN_MAX_LEVELS, (long long)n);
    }
    if (!(r->lev = calloc((size_t)n, sizeof *r->lev))) {
        free(caps);
        return pascal_error_set(err, PASCAL_ENOMEM, "calibrate: out of memory");
    }
    r->nlev = n;
    for (int64_t i = 0; i < n && rc == 0; i++) {
        r->lev[i].C = caps[i];
        rc = fit_level(r, &r->lev[i], o, &models[i], err);
    }
    free(caps);
    if (rc == 0 && pascal_dyn_ladder(models, n, &r->model) != 0)
        rc = pascal_error_set(err, PASCAL_ENOMEM, "calibrate: out of memory");
    if (rc) {
        for (int64_t i = 0; i < n; i++)
            pascal_dyn_model_free(models[i]);
        return rc;
    }
    for (int64_t i = 1; i + 1 < n && rc == 0; i++)
        rc = leave_capacity_out(r, i, o, err);
    if (rc == 0)
        rc = merge_cv(r, o, err);
    if (rc == 0) {
        int a = pascal_dyn_aggregate(r->refs.rows, r->refs.n, r->par.N0, &r->agg);
        if (a)
            rc = pascal_error_set(err, a == -1 ? PASCAL_EINPUT : PASCAL_ENOMEM,
                                  a == -1 ? "calibrate: expected at most %d distinct horizons per "
                                            "key, got more"
                                          : "calibrate: out of memory",
                                  PASCAL_DYN_MAX_KNOTS);
    }
    return rc;
}
