/* Dynamic PASCAL, fitting (paper section 4.2): from per-key, per-horizon
 * geometric means to one frozen cumulative-traffic curve per reference key.
 *
 * For key z with horizons x_j and mean counts K_j: Y_j = log(x_j K_j) at
 * t_j = log x_j (eq. 19).  Completion rules for sparse keys, both
 * reference-only and deterministic:
 *   - initial anchor: when z's first horizon comes after the first horizon
 *     x0 of its family (o, path, d), a knot at x0 whose K is interpolated
 *     linearly in m (log K, clamped at the ends) between the family keys
 *     measured at x0;
 *   - shape template: a key left with exactly two knots takes the interior
 *     shape of the nearest well-observed key (>= 3 measured horizons; same
 *     family first, then same occupancy and path, then same path, then any;
 *     ties go to the smaller key), normalised to the key's own endpoints.
 * Then isotonic regression of Y (equal knot weights) and PCHIP slopes.  The
 * held-out key of a cross-validation fold is excluded from every step,
 * donors and templates included. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/dynamic.h"

typedef struct fit_ws {
    const pascal_dyn_agg *agg;
    int64_t exclude;
    int64_t cap;        /* knots each key's buffer holds */
    int *n;             /* knots per key */
    double *t, *y, *s;  /* key i's knots at [i * cap, i * cap + n[i]) */
    unsigned *flags;
    int *work;
} fit_ws;

static int same_family(const pascal_dyn_key *a, const pascal_dyn_key *b)
{
    return a->o == b->o && a->path == b->path && a->d == b->d;
}

static int active(const fit_ws *w, int64_t i)
{
    return i != w->exclude;
}

/* log K at the family's first horizon x0, interpolated in m between the
 * active family keys [f0, f1) measured at x0 (key i itself is not). */
static double anchor_logk(const fit_ws *w, int64_t f0, int64_t f1, int64_t i, double x0)
{
    const pascal_dyn_agg *a = w->agg;
    int64_t lo = -1, hi = -1;
    double m = (double)a->keys[i].m, ml, mh, kl, kh;
    for (int64_t j = f0; j < f1; j++) {
        if (!active(w, j) || j == i || a->x[a->off[j]] != x0)
            continue;
        if (a->keys[j].m < a->keys[i].m)
            lo = j; /* keys ascend in m: the last below wins */
        else if (hi < 0)
            hi = j;
    }
    if (lo < 0)
        return log(a->K[a->off[hi]]);
    if (hi < 0)
        return log(a->K[a->off[lo]]);
    ml = (double)a->keys[lo].m, mh = (double)a->keys[hi].m;
    kl = log(a->K[a->off[lo]]), kh = log(a->K[a->off[hi]]);
    return kl + (kh - kl) * (m - ml) / (mh - ml);
}

/* Raw knots of every active key in family [f0, f1), with the anchor. */
static void family_knots(fit_ws *w, int64_t f0, int64_t f1)
{
    const pascal_dyn_agg *a = w->agg;
    double x0 = INFINITY;
    for (int64_t j = f0; j < f1; j++)
        if (active(w, j) && a->x[a->off[j]] < x0)
            x0 = a->x[a->off[j]];
    for (int64_t i = f0; i < f1; i++) {
        double *t = w->t + i * w->cap, *y = w->y + i * w->cap;
        int k = 0;
        if (!active(w, i))
            continue;
        w->flags[i] = 0;
        if (a->x[a->off[i]] > x0) {
            t[k] = log(x0);
            y[k++] = t[0] + anchor_logk(w, f0, f1, i, x0);
            w->flags[i] |= PASCAL_DYN_ANCHORED;
        }
        for (int64_t h = a->off[i]; h < a->off[i + 1]; h++, k++) {
            t[k] = log(a->x[h]);
            y[k] = t[k] + log(a->K[h]);
        }
        w->n[i] = k;
        pascal_dyn_isotonic(y, k, y, w->work);
    }
}

/* Lexicographic distance from key i to template candidate j. */
static void template_rank(const pascal_dyn_key *k, const pascal_dyn_key *c, int64_t r[4])
{
    int level = same_family(k, c) ? 0 : (k->o == c->o && k->path == c->path) ? 1
                                      : k->path == c->path                    ? 2
                                                                              : 3;
    r[0] = level;
    r[1] = llabs(k->o - c->o);
    r[2] = llabs(k->d - c->d);
    r[3] = llabs(k->m - c->m);
}

static int64_t pick_template(const fit_ws *w, int64_t i)
{
    const pascal_dyn_agg *a = w->agg;
    int64_t best = -1, br[4] = {0}, r[4];
    for (int64_t j = 0; j < a->nkeys; j++) {
        int better = 0;
        if (!active(w, j) || j == i || a->off[j + 1] - a->off[j] < 3)
            continue;
        template_rank(&a->keys[i], &a->keys[j], r);
        for (int q = 0; q < 4 && best >= 0; q++)
            if (r[q] != br[q]) {
                better = r[q] < br[q];
                break;
            }
        if (best < 0 || better) {
            best = j;
            memcpy(br, r, sizeof r);
        }
    }
    return best;
}

/* S of a finished curve at t, holding the endpoint K outside (slope 1 in
 * Y = log(x K) space). */
static double held_S(const double *t, const double *y, const double *s, int n, double tq)
{
    if (tq <= t[0])
        return y[0] + (tq - t[0]);
    if (tq >= t[n - 1])
        return y[n - 1] + (tq - t[n - 1]);
    return pascal_dyn_pchip_eval(t, y, s, n, tq);
}

/* Key i has two knots: insert the template's interior knots, rescaled. */
static void apply_template(fit_ws *w, int64_t i, int64_t j)
{
    double *t = w->t + i * w->cap, *y = w->y + i * w->cap;
    const double *tj = w->t + j * w->cap, *yj = w->y + j * w->cap, *sj = w->s + j * w->cap;
    int nj = w->n[j], k = 1;
    double t1 = t[0], t2 = t[1], y1 = y[0], y2 = y[1];
    double s1 = held_S(tj, yj, sj, nj, t1), s2 = held_S(tj, yj, sj, nj, t2);
    if (!(s2 - s1 > 1e-12) || !(y2 > y1))
        return;
    for (int q = 0; q < nj; q++) {
        double u;
        if (!(tj[q] > t1 && tj[q] < t2))
            continue;
        u = (held_S(tj, yj, sj, nj, tj[q]) - s1) / (s2 - s1);
        t[k] = tj[q];
        y[k] = fmax(y1 + (y2 - y1) * fmin(fmax(u, 0), 1), y[k - 1]);
        k++;
    }
    if (k == 1)
        return;
    t[k] = t2;
    y[k] = fmax(y2, y[k - 1]);
    w->n[i] = k + 1;
    w->flags[i] |= PASCAL_DYN_TEMPLATED;
}

static int ws_alloc(fit_ws *w, const pascal_dyn_agg *a, int64_t exclude)
{
    int64_t maxh = 1, nk = a->nkeys;
    for (int64_t i = 0; i < nk; i++)
        if (a->off[i + 1] - a->off[i] > maxh)
            maxh = a->off[i + 1] - a->off[i];
    memset(w, 0, sizeof *w);
    w->agg = a;
    w->exclude = exclude;
    w->cap = 2 * maxh + 2;
    w->n = calloc((size_t)nk, sizeof *w->n);
    w->flags = calloc((size_t)nk, sizeof *w->flags);
    w->t = malloc((size_t)(nk * w->cap) * sizeof *w->t);
    w->y = malloc((size_t)(nk * w->cap) * sizeof *w->y);
    w->s = malloc((size_t)(nk * w->cap) * sizeof *w->s);
    w->work = malloc((size_t)w->cap * sizeof *w->work);
    return w->n && w->flags && w->t && w->y && w->s && w->work ? 0 : -2;
}

static void ws_free(fit_ws *w)
{
    free(w->n), free(w->flags), free(w->t), free(w->y), free(w->s), free(w->work);
}

/* Packs the active curves and builds the model. */
static int finish(fit_ws *w, const pascal_dyn_params *par, pascal_dyn_model **out)
{
    const pascal_dyn_agg *a = w->agg;
    int64_t nk = 0, total = 0, q = 0;
    pascal_dyn_key *keys = malloc((size_t)a->nkeys * sizeof *keys);
    int64_t *off = malloc((size_t)(a->nkeys + 1) * sizeof *off);
    unsigned *flags = malloc((size_t)a->nkeys * sizeof *flags);
    double *t = malloc((size_t)(a->nkeys * w->cap) * sizeof *t);
    double *y = malloc((size_t)(a->nkeys * w->cap) * sizeof *y);
    int rc = -2;
    if (keys && off && flags && t && y) {
        for (int64_t i = 0; i < a->nkeys; i++) {
            if (!active(w, i))
                continue;
            keys[nk] = a->keys[i];
            flags[nk] = w->flags[i];
            off[nk++] = total;
            for (int k = 0; k < w->n[i]; k++, q++) {
                t[q] = w->t[i * w->cap + k];
                y[q] = w->y[i * w->cap + k];
            }
            total += w->n[i];
        }
        off[nk] = total;
        rc = pascal_dyn_model_build(par, nk, keys, off, t, y, flags, out) == 0 ? 0 : -2;
    }
    free(keys), free(off), free(flags), free(t), free(y);
    return rc;
}

int pascal_dyn_fit(const pascal_dyn_agg *agg, int64_t exclude, const pascal_dyn_params *par,
                   pascal_dyn_model **out)
{
    fit_ws w;
    int rc;
    *out = NULL;
    if (agg->nkeys - (exclude >= 0 && exclude < agg->nkeys) < 1)
        return -1;
    if (ws_alloc(&w, agg, exclude) != 0) {
        ws_free(&w);
        return -2;
    }
    for (int64_t f0 = 0, f1; f0 < agg->nkeys; f0 = f1) {
        for (f1 = f0 + 1; f1 < agg->nkeys && same_family(&agg->keys[f0], &agg->keys[f1]); f1++)
            ;
        family_knots(&w, f0, f1);
    }
    /* Templates are keys with >= 3 measured horizons, never templated
     * themselves: their slopes are final before any key borrows them. */
    for (int64_t i = 0; i < agg->nkeys; i++)
        if (active(&w, i) && w.n[i] != 2)
            pascal_dyn_pchip_slopes(w.t + i * w.cap, w.y + i * w.cap, w.n[i], w.s + i * w.cap);
    for (int64_t i = 0; i < agg->nkeys; i++) {
        int64_t j;
        if (!active(&w, i) || w.n[i] != 2)
            continue;
        if ((j = pick_template(&w, i)) >= 0)
            apply_template(&w, i, j);
    }
    rc = finish(&w, par, out);
    ws_free(&w);
    return rc;
}
