/* Dynamic PASCAL, the frozen model and prediction (paper sections 4.3-4.5).
 *
 * Building a model checks the curves, computes PCHIP slopes and the encoded
 * endpoint values once, and indexes the keys by (o, path) group, family
 * (o, path, d) and execution class, so a prediction is two binary searches
 * and at most four curve evaluations per depth used (two for the pooled
 * estimate, two for the same-class bracket); it allocates nothing.
 *
 * Resolution order for a query (o, path, d, m) at horizon x:
 *   1. no reference with this (o, path): rejected (family);
 *   2. the family (o, path, d) has references of class s(m):
 *        m is a reference compute: its own curve (reference);
 *        same-class references on both sides: eq. 24 (none);
 *        otherwise the nearest same-class reference (compute);
 *   3. otherwise, across depth: step 2 in the nearest lower and upper depths
 *      of (o, path) that have class s(m), linear in d, clamped to the one
 *      that exists (depth);
 *   4. no depth has class s(m): rejected (class; Prop. 8: no point predictor
 *      is safe for an unsampled class). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/dynamic.h"

typedef struct dyn_family {
    int64_t o, d;
    int path;
    int64_t k0, k1;      /* keys [k0, k1), ascending m */
    int64_t c0[3], c1[3];/* class lists in model->cls */
} dyn_family;

typedef struct dyn_group {
    int64_t o;
    int path;
    int64_t f0, f1;      /* families, ascending d */
} dyn_group;

struct pascal_dyn_model {
    pascal_dyn_params par;
    double band;
    double band_down, band_up; /* e^-band, e^band */
    int64_t nkeys;
    pascal_dyn_key *keys;
    double *mk;          /* m of each key, as double */
    int64_t *off;
    double *t, *y, *s;
    unsigned *flags;
    double *a_lo, *a_hi; /* encoded value held below / above the knots */
    int64_t nfam, ngrp;
    dyn_family *fam;
    dyn_group *grp;
    int64_t *cls;        /* key indices, per family and class, ascending m */
    /* A ladder over capacities (pascal_dyn_ladder): nlev > 0 models, each
     * fitted at one capacity lev[i]->par.C, ascending; the fields above
     * other than par (C NaN) and band are unused. */
    int64_t nlev;
    pascal_dyn_model **lev;
    double *logC;        /* log of each level's C */
};

void pascal_dyn_model_free(pascal_dyn_model *m)
{
    if (!m)
        return;
    for (int64_t i = 0; i < m->nlev; i++)
        pascal_dyn_model_free(m->lev[i]);
    free(m->lev), free(m->logC);
    free(m->keys), free(m->mk), free(m->off), free(m->t), free(m->y), free(m->s);
    free(m->flags), free(m->a_lo), free(m->a_hi), free(m->fam), free(m->grp), free(m->cls);
    free(m);
}

static int valid_key(const pascal_dyn_key *k)
{
    return k->o >= 1 && (k->path == PASCAL_DYN_SYNC || k->path == PASCAL_DYN_TMA) &&
           k->m >= 0 && (k->path == PASCAL_DYN_SYNC ? k->d == 0 : k->d >= 1);
}

static int valid_curves(int64_t nkeys, const pascal_dyn_key *keys, const int64_t *off,
                        const double *t, const double *y)
{
    if (nkeys < 1 || off[0] != 0)
        return 0;
    for (int64_t i = 0; i < nkeys; i++) {
        int64_t n = off[i + 1] - off[i];
        if (!valid_key(&keys[i]) || n < 1 || n > 2 * PASCAL_DYN_MAX_KNOTS + 2 ||
            (i > 0 && pascal_dyn_key_cmp(&keys[i - 1], &keys[i]) >= 0))
            return 0;
        for (int64_t k = off[i]; k < off[i + 1]; k++) {
            if (!isfinite(t[k]) || !isfinite(y[k]))
                return 0;
            if (k > off[i] && !(t[k] > t[k - 1] && y[k] >= y[k - 1]))
                return 0;
        }
    }
    return 1;
}

static int alloc_model(pascal_dyn_model *m, int64_t nkeys, int64_t nknots)
{
    size_t nk = (size_t)nkeys, nt = (size_t)nknots;
    m->keys = malloc(nk * sizeof *m->keys);
    m->mk = malloc(nk * sizeof *m->mk);
    m->off = malloc((nk + 1) * sizeof *m->off);
    m->t = malloc(nt * sizeof *m->t);
    m->y = malloc(nt * sizeof *m->y);
    m->s = malloc(nt * sizeof *m->s);
    m->flags = calloc(nk, sizeof *m->flags);
    m->a_lo = malloc(nk * sizeof *m->a_lo);
    m->a_hi = malloc(nk * sizeof *m->a_hi);
    m->fam = malloc(nk * sizeof *m->fam);
    m->grp = malloc(nk * sizeof *m->grp);
    m->cls = malloc(nk * sizeof *m->cls);
    return m->keys && m->mk && m->off && m->t && m->y && m->s && m->flags && m->a_lo &&
                   m->a_hi && m->fam && m->grp && m->cls
               ? 0
               : -1;
}

/* Families, groups and per-class key lists (keys are sorted). */
static void index_keys(pascal_dyn_model *m)
{
    int64_t q = 0;
    m->nfam = m->ngrp = 0;
    for (int64_t k0 = 0, k1; k0 < m->nkeys; k0 = k1) {
        dyn_family *f = &m->fam[m->nfam];
        const pascal_dyn_key *a = &m->keys[k0];
        for (k1 = k0 + 1; k1 < m->nkeys && m->keys[k1].o == a->o && m->keys[k1].path == a->path &&
                          m->keys[k1].d == a->d;
             k1++)
            ;
        f->o = a->o, f->path = a->path, f->d = a->d, f->k0 = k0, f->k1 = k1;
        for (int c = 0; c < 3; c++) {
            f->c0[c] = q;
            for (int64_t k = k0; k < k1; k++)
                if (pascal_dyn_class(m->keys[k].m) == c)
                    m->cls[q++] = k;
            f->c1[c] = q;
        }
        if (m->ngrp == 0 || m->grp[m->ngrp - 1].o != a->o || m->grp[m->ngrp - 1].path != a->path)
            m->grp[m->ngrp++] = (dyn_group){a->o, a->path, m->nfam, m->nfam};
        m->grp[m->ngrp - 1].f1 = ++m->nfam;
    }
}

int pascal_dyn_model_build(const pascal_dyn_params *par, int64_t nkeys,
                           const pascal_dyn_key *keys, const int64_t *off, const double *t,
                           const double *y, const unsigned *flags, pascal_dyn_model **out)
{
    pascal_dyn_model *m;
    *out = NULL;
    if (!valid_curves(nkeys, keys, off, t, y) || !(par->eps > 0) || !(par->eta >= 0) ||
        !(par->N0 > 0))
        return -1;
    if (!(m = calloc(1, sizeof *m)) || alloc_model(m, nkeys, off[nkeys]) != 0) {
        pascal_dyn_model_free(m);
        return -1;
    }
    m->par = *par;
    pascal_dyn_model_set_band(m, NAN);
    m->nkeys = nkeys;
    memcpy(m->keys, keys, (size_t)nkeys * sizeof *keys);
    memcpy(m->off, off, (size_t)(nkeys + 1) * sizeof *off);
    memcpy(m->t, t, (size_t)off[nkeys] * sizeof *t);
    memcpy(m->y, y, (size_t)off[nkeys] * sizeof *y);
    for (int64_t i = 0; i < nkeys; i++) {
        int64_t a = off[i], n = off[i + 1] - a;
        m->mk[i] = (double)keys[i].m;
        m->flags[i] = flags ? flags[i] : 0;
        pascal_dyn_pchip_slopes(m->t + a, m->y + a, (int)n, m->s + a);
        /* Outside the knots the average K is held (section 4.2). */
        m->a_lo[i] = pascal_dyn_encode(m->y[a] - m->t[a], par->eps);
        m->a_hi[i] = pascal_dyn_encode(m->y[a + n - 1] - m->t[a + n - 1], par->eps);
    }
    index_keys(m);
    *out = m;
    return 0;
}

const pascal_dyn_params *pascal_dyn_model_params(const pascal_dyn_model *m) { return &m->par; }
int64_t pascal_dyn_model_nkeys(const pascal_dyn_model *m) { return m->nkeys; }
void pascal_dyn_model_set_band(pascal_dyn_model *m, double r)
{
    m->band = r;
    m->band_down = exp(-r);
    m->band_up = exp(r);
}
double pascal_dyn_model_band(const pascal_dyn_model *m) { return m->band; }

void pascal_dyn_model_curve(const pascal_dyn_model *m, int64_t i, pascal_dyn_key *key,
                            const double **t, const double **y, int *n, unsigned *flags)
{
    if (key)
        *key = m->keys[i];
    if (t)
        *t = m->t + m->off[i];
    if (y)
        *y = m->y + m->off[i];
    if (n)
        *n = (int)(m->off[i + 1] - m->off[i]);
    if (flags)
        *flags = m->flags[i];
}

/* L_z at t = log x: S(t) - t inside the knots, the end value outside. */
static double key_logk(const pascal_dyn_model *m, int64_t i, double tq)
{
    int64_t a = m->off[i];
    int n = (int)(m->off[i + 1] - a);
    const double *t = m->t + a;
    if (tq <= t[0])
        return m->y[a] - t[0];
    if (tq >= t[n - 1])
        return m->y[a + n - 1] - t[n - 1];
    return pascal_dyn_pchip_eval(t, m->y + a, m->s + a, n, tq) - tq;
}

/* Where a prediction was held at the edge of the calibration: for each
 * coordinate, the calibrated value nearest the query that an endpoint
 * clamp used (NaN: none). */
typedef struct clamp {
    double tq, q;          /* the query's log x and compute */
    double near_t, near_m, near_d;
    double alt;            /* a compute fallback: the family's answer from its nearest
                              computes of any class (NaN: none) */
} clamp;

static void hold_at(double *near, double v, double query)
{
    if (isnan(*near) || fabs(v - query) < fabs(*near - query) ||
        (fabs(v - query) == fabs(*near - query) && v < *near))
        *near = v;
}

/* Encoded a_z (eq. 20) of key i at t = log x; outside the knots the end
 * value is held (eq. 19), and c records it. */
static double key_a(const pascal_dyn_model *m, int64_t i, double tq, clamp *c)
{
    int64_t a = m->off[i];
    int n = (int)(m->off[i + 1] - a);
    if (tq < m->t[a])
        hold_at(&c->near_t, m->t[a], tq);
    else if (tq > m->t[a + n - 1])
        hold_at(&c->near_t, m->t[a + n - 1], tq);
    if (tq <= m->t[a])
        return m->a_lo[i];
    if (tq >= m->t[a + n - 1])
        return m->a_hi[i];
    return pascal_dyn_encode(key_logk(m, i, tq), m->par.eps);
}

/* First index in [lo, hi) of idx (or of the identity when idx is NULL)
 * whose key compute is >= q. */
static int64_t lower_bound(const pascal_dyn_model *m, const int64_t *idx, int64_t lo,
                           int64_t hi, double q)
{
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (m->mk[idx ? idx[mid] : mid] < q)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* What family f's computes of any class say at q: linear between the two
 * around q, or the nearest when q lies beyond them all. */
static double neighbours(const pascal_dyn_model *m, const dyn_family *f, double q, double tq,
                         clamp *cl)
{
    int64_t j = lower_bound(m, NULL, f->k0, f->k1, q);
    double am, ap;
    if (j > f->k0 && j < f->k1) {
        am = key_a(m, j - 1, tq, cl);
        ap = key_a(m, j, tq, cl);
        return am + (ap - am) * (q - m->mk[j - 1]) / (m->mk[j] - m->mk[j - 1]);
    }
    return key_a(m, j > f->k0 ? j - 1 : j, tq, cl);
}

/* Step 2 of the resolution order inside family f; the class list is
 * non-empty. */
static double within_family(const pascal_dyn_model *m, const dyn_family *f, double q, int c,
                            double tq, int *code, clamp *cl)
{
    int64_t j = lower_bound(m, NULL, f->k0, f->k1, q), r, L, R;
    double p, am, ap, aL, aR, c0;
    clamp scratch;
    if (j < f->k1 && m->mk[j] == q) {
        *code = PASCAL_DYN_FB_REFERENCE;
        return key_a(m, j, tq, cl);
    }
    r = lower_bound(m, m->cls, f->c0[c], f->c1[c], q);
    L = r > f->c0[c] ? m->cls[r - 1] : -1;
    R = r < f->c1[c] ? m->cls[r] : -1;
    if (L < 0 || R < 0) {
        *code = PASCAL_DYN_FB_COMPUTE;
        hold_at(&cl->near_m, m->mk[L >= 0 ? L : R], q);
        /* What the neighbours of any class say, against which the held
         * answer is checked for a regime between them (predict_level). */
        scratch = *cl; /* the check moves no clamp of the answer */
        cl->alt = neighbours(m, f, q, tq, &scratch);
        return key_a(m, L >= 0 ? L : R, tq, cl);
    }
    /* m- = keys[j-1] < m < m+ = keys[j]: both exist inside the bracket. */
    am = key_a(m, j - 1, tq, cl);
    ap = key_a(m, j, tq, cl);
    p = am + (ap - am) * (q - m->mk[j - 1]) / (m->mk[j] - m->mk[j - 1]);
    aL = L == j - 1 ? am : key_a(m, L, tq, cl);
    aR = R == j ? ap : key_a(m, R, tq, cl);
    c0 = 1 / (q - m->mk[j - 1]) + 1 / (m->mk[j] - q);
    *code = PASCAL_DYN_FB_NONE;
    return pascal_dyn_harmonic(p, aL, aR, q - m->mk[L], m->mk[R] - q, c0, m->par.eta, NULL);
}

static const dyn_group *find_group(const pascal_dyn_model *m, int64_t o, int path)
{
    int64_t lo = 0, hi = m->ngrp;
    while (lo < hi) {
        int64_t mid = (lo + hi) / 2;
        const dyn_group *g = &m->grp[mid];
        if (g->o == o && g->path == path)
            return g;
        if (g->o < o || (g->o == o && g->path < path))
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

/* Steps 2-4 within group g; NaN with *code set when the class is unsampled. */
static double resolve(const pascal_dyn_model *m, const dyn_group *g, int64_t d, double q, int c,
                      double tq, int *code, clamp *cl)
{
    const dyn_family *lo = NULL, *hi = NULL, *here = NULL;
    double alo, ahi, a;
    clamp scratch;
    int sub;
    for (int64_t k = g->f0; k < g->f1; k++) {
        const dyn_family *f = &m->fam[k];
        if (f->d == d)
            here = f; /* the query's depth, with or without its class */
        if (f->c1[c] == f->c0[c])
            continue;
        if (f->d == d)
            return within_family(m, f, q, c, tq, code, cl);
        if (f->d < d)
            lo = f; /* ascending d: the last below is the nearest */
        else if (!hi)
            hi = f;
    }
    *code = PASCAL_DYN_FB_DEPTH;
    if (!lo && !hi) {
        *code = PASCAL_DYN_ERR_CLASS;
        return NAN;
    }
    if (!lo || !hi) {
        hold_at(&cl->near_d, (double)(lo ? lo : hi)->d, (double)d);
        a = within_family(m, lo ? lo : hi, q, c, tq, &sub, cl);
    } else {
        alo = within_family(m, lo, q, c, tq, &sub, cl);
        ahi = within_family(m, hi, q, c, tq, &sub, cl);
        a = alo + (ahi - alo) * (double)(d - lo->d) / (double)(hi->d - lo->d);
    }
    /* A family at the query's depth without its class: what its computes
     * of other classes say is the check for a regime (predict_level). */
    scratch = *cl;
    cl->alt = here ? neighbours(m, here, q, tq, &scratch) : NAN;
    return a;
}

static int invalid_query(const pascal_dyn_query *q)
{
    return q->o < 1 || q->m < 0 || !(q->N > 0) || !(q->W > 0) || !isfinite(q->N * q->W) ||
           (q->path == PASCAL_DYN_SYNC   ? q->d != 0
            : q->path == PASCAL_DYN_TMA  ? q->d < 1
                                         : 1);
}

/* A knot's x from its log: 15 significant digits, so that the x = 128 a
 * calibration was measured at reads 128, not 127.99999999999997. */
static double round15(double v)
{
    double f = pow(10, 14 - floor(log10(v)));
    return isfinite(f) && f > 0 ? round(v * f) / f : v;
}

static int reject(pascal_dyn_pred *out, int code)
{
    out->K = out->rho = out->band_lo = out->band_hi = out->a = out->K_alt = NAN;
    out->code = code;
    return code;
}

static int predict_level(const pascal_dyn_model *m, const pascal_dyn_query *q,
                         pascal_dyn_pred *out);
static int predict_ladder(const pascal_dyn_model *m, int64_t skip, const pascal_dyn_query *q,
                          double C, pascal_dyn_pred *out);

int pascal_dyn_predict(const pascal_dyn_model *m, const pascal_dyn_query *q,
                       pascal_dyn_pred *out)
{
    return pascal_dyn_predict_at(m, q, NAN, out);
}

int pascal_dyn_predict_at(const pascal_dyn_model *m, const pascal_dyn_query *q, double C,
                          pascal_dyn_pred *out)
{
    if (m->nlev > 0)
        return predict_ladder(m, -1, q, C, out);
    return predict_level(m, q, out);
}

int pascal_dyn_predict_without(const pascal_dyn_model *m, int64_t level,
                               const pascal_dyn_query *q, double C, pascal_dyn_pred *out)
{
    if (m->nlev < 3 || level <= 0 || level >= m->nlev - 1)
        return reject(out, PASCAL_DYN_ERR_CAPACITY);
    return predict_ladder(m, level, q, C, out);
}

static int predict_level(const pascal_dyn_model *m, const pascal_dyn_query *q,
                         pascal_dyn_pred *out)
{
    const dyn_group *g;
    double M, a, tq, r = m->band;
    int code = PASCAL_DYN_FB_NONE;
    clamp cl;
    out->cls = q->m >= 0 ? pascal_dyn_class(q->m) : -1;
    out->near_x = out->near_m = out->near_d = NAN;
    if (invalid_query(q))
        return reject(out, PASCAL_DYN_ERR_INVALID);
    M = isnan(q->M) ? m->par.sms * (double)q->o : q->M;
    if (!(M >= 1))
        return reject(out, PASCAL_DYN_ERR_INVALID);
    if (!(g = find_group(m, q->o, q->path)))
        return reject(out, PASCAL_DYN_ERR_FAMILY);
    tq = log(q->W * q->N / m->par.N0);
    cl = (clamp){tq, (double)q->m, NAN, NAN, NAN, NAN};
    a = resolve(m, g, q->d, (double)q->m, out->cls, tq, &code, &cl);
    if (code >= PASCAL_DYN_UNSUPPORTED)
        return reject(out, code);
    out->near_x = isnan(cl.near_t) ? NAN : round15(exp(cl.near_t));
    out->near_m = cl.near_m;
    out->near_d = cl.near_d;
    if ((q->flags & PASCAL_DYN_NO_HOLD) &&
        !(isnan(out->near_x) && isnan(out->near_m) && isnan(out->near_d)))
        return reject(out, PASCAL_DYN_ERR_CLAMPED);
    out->a = a;
    out->K = pascal_dyn_decode(a, m->par.eps, M);
    out->rho = out->K / M;
    out->band_lo = isnan(r) ? NAN : out->K * m->band_down / M;
    out->band_hi = isnan(r) ? NAN : fmin(M, out->K * m->band_up) / M;
    out->K_alt = NAN;
    if ((code == PASCAL_DYN_FB_COMPUTE || code == PASCAL_DYN_FB_DEPTH) && !isnan(cl.alt)) {
        /* The fallback's same-class answer (held in compute, or carried
         * across depths) and the neighbours of other classes at the
         * query's own depth disagree by more than a factor
         * PASCAL_DYN_REGIME: a regime lies between the query and the
         * references it is answered from.  Kept, but
         * the band spans both and the code says so.  (A fixed factor, not
         * the band: cross-validation folds have no band yet, and the
         * flag must mean the same there.) */
        double Ka = pascal_dyn_decode(cl.alt, m->par.eps, M), rr = isnan(r) ? 0 : r;
        if (fabs(log(Ka / out->K)) > log(PASCAL_DYN_REGIME)) {
            code = PASCAL_DYN_FB_REGIME;
            out->K_alt = Ka;
            out->band_lo = fmin(out->K, Ka) * exp(-rr) / M;
            out->band_hi = fmin(M, fmax(out->K, Ka) * exp(rr)) / M;
        }
    }
    out->code = code;
    return code;
}

/* ---- a ladder over capacities ----------------------------------------------- */

static int cmp_level(const void *a, const void *b)
{
    double x = (*(pascal_dyn_model *const *)a)->par.C, y = (*(pascal_dyn_model *const *)b)->par.C;
    return (x > y) - (x < y);
}

int pascal_dyn_ladder(pascal_dyn_model **levels, int64_t n, pascal_dyn_model **out)
{
    pascal_dyn_model *m;
    *out = NULL;
    if (n < 1 || n > PASCAL_DYN_MAX_LEVELS)
        return -1;
    for (int64_t i = 0; i < n; i++) {
        const pascal_dyn_params *a = &levels[i]->par, *b = &levels[0]->par;
        if (levels[i]->nlev > 0 || !(a->C >= 1) || a->sms != b->sms ||
            a->block_bytes != b->block_bytes || a->eta != b->eta || a->eps != b->eps ||
            a->N0 != b->N0)
            return -1;
    }
    if (!(m = calloc(1, sizeof *m)) || !(m->lev = malloc((size_t)n * sizeof *m->lev)) ||
        !(m->logC = malloc((size_t)n * sizeof *m->logC))) {
        pascal_dyn_model_free(m);
        return -1;
    }
    memcpy(m->lev, levels, (size_t)n * sizeof *levels);
    qsort(m->lev, (size_t)n, sizeof *m->lev, cmp_level);
    for (int64_t i = 0; i < n; i++) {
        if (i > 0 && m->lev[i]->par.C == m->lev[i - 1]->par.C) {
            free(m->lev), free(m->logC), free(m); /* the caller keeps the levels */
            return -1;
        }
        m->logC[i] = log(m->lev[i]->par.C);
    }
    m->nlev = n;
    m->par = m->lev[0]->par;
    m->par.C = NAN;
    pascal_dyn_model_set_band(m, NAN);
    *out = m;
    return 0;
}

int64_t pascal_dyn_model_levels(const pascal_dyn_model *m) { return m->nlev > 0 ? m->nlev : 1; }

void pascal_dyn_model_capacities(const pascal_dyn_model *m, double *lo, double *hi)
{
    *lo = m->nlev > 0 ? m->lev[0]->par.C : m->par.C;
    *hi = m->nlev > 0 ? m->lev[m->nlev - 1]->par.C : m->par.C;
}

const pascal_dyn_model *pascal_dyn_model_level(const pascal_dyn_model *m, int64_t i)
{
    return m->nlev > 0 ? m->lev[i] : m;
}

/* Antitonic (non-increasing) least-squares projection of a[0..n-1], equal
 * weights, by pool-adjacent-violators; n <= PASCAL_DYN_MAX_LEVELS. */
static void antitonic(double *a, int64_t n)
{
    double sum[PASCAL_DYN_MAX_LEVELS];
    int64_t cnt[PASCAL_DYN_MAX_LEVELS], top = 0;
    for (int64_t i = 0; i < n; i++) {
        sum[top] = a[i], cnt[top] = 1;
        while (top > 0 && sum[top - 1] / (double)cnt[top - 1] < sum[top] / (double)cnt[top]) {
            sum[top - 1] += sum[top], cnt[top - 1] += cnt[top];
            top--;
        }
        top++;
    }
    for (int64_t b = 0, i = 0; b < top; b++)
        for (int64_t k = 0; k < cnt[b]; k++)
            a[i++] = sum[b] / (double)cnt[b];
}

/* docs/simulate.md section 7.1: every level answers the query; the encoded
 * answers of the levels that support it are projected onto a sequence that
 * does not increase with C (a larger cache never needs more fills per unit
 * work), then interpolated linearly in log C between the two levels that
 * bracket C.  Outside [C_0, C_{n-1}]: PASCAL_DYN_ERR_CAPACITY. */
static int predict_ladder(const pascal_dyn_model *m, int64_t skip, const pascal_dyn_query *q,
                          double C, pascal_dyn_pred *out)
{
    pascal_dyn_pred p[PASCAL_DYN_MAX_LEVELS];
    double a[PASCAL_DYN_MAX_LEVELS], w, M, r;
    int64_t n = 0, lo = -1, hi = -1, ilo, ihi;
    out->cls = q->m >= 0 ? pascal_dyn_class(q->m) : -1;
    out->near_x = out->near_m = out->near_d = NAN;
    if (!(C >= m->lev[0]->par.C && C <= m->lev[m->nlev - 1]->par.C))
        return reject(out, PASCAL_DYN_ERR_CAPACITY);
    for (ilo = 0; ilo + 1 < m->nlev && (ilo + 1 == skip || m->lev[ilo + 1]->par.C <= C); ilo++)
        ;
    while (ilo == skip) /* skip is never level 0 */
        ilo--;
    for (ihi = ilo + 1; ihi == skip; ihi++)
        ;
    if (m->lev[ilo]->par.C == C)
        ihi = ilo;
    for (int64_t i = 0; i < m->nlev; i++) {
        if (i == skip)
            continue;
        predict_level(m->lev[i], q, &p[i]);
        if (p[i].code >= PASCAL_DYN_UNSUPPORTED) {
            if (i == ilo || i == ihi)
                return reject(out, p[i].code);
            continue;
        }
        if (i == ilo)
            lo = n;
        if (i == ihi)
            hi = n;
        a[n++] = p[i].a;
    }
    antitonic(a, n);
    w = ihi == ilo ? 0 : (log(C) - m->logC[ilo]) / (m->logC[ihi] - m->logC[ilo]);
    out->a = a[lo] + w * (a[hi] - a[lo]);
    M = isnan(q->M) ? m->par.sms * (double)q->o : q->M;
    out->K = pascal_dyn_decode(out->a, m->par.eps, M);
    out->rho = out->K / M;
    r = fmax(m->lev[ilo]->band, m->lev[ihi]->band);
    if (isnan(m->lev[ilo]->band) || isnan(m->lev[ihi]->band))
        r = NAN;
    out->band_lo = isnan(r) ? NAN : out->K * exp(-r) / M;
    out->band_hi = isnan(r) ? NAN : fmin(M, out->K * exp(r)) / M;
    out->code = p[ilo].code > p[ihi].code ? p[ilo].code : p[ihi].code;
    out->K_alt = NAN;
    for (int64_t k = 0; k < 2; k++) { /* a regime at either capacity widens the band */
        const pascal_dyn_pred *x = &p[k ? ihi : ilo];
        if (x->code != PASCAL_DYN_FB_REGIME)
            continue;
        out->K_alt = isnan(out->K_alt) ? x->K_alt : out->K_alt;
        out->band_lo = isnan(out->band_lo) ? x->band_lo : fmin(out->band_lo, x->band_lo);
        out->band_hi = isnan(out->band_hi) ? x->band_hi : fmax(out->band_hi, x->band_hi);
    }
    out->near_x = !isnan(p[ilo].near_x) ? p[ilo].near_x : p[ihi].near_x;
    out->near_m = !isnan(p[ilo].near_m) ? p[ilo].near_m : p[ihi].near_m;
    out->near_d = !isnan(p[ilo].near_d) ? p[ilo].near_d : p[ihi].near_d;
    return out->code;
}
