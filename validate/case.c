/* One static validation case (section 5.2): every closed form of
 * model/static.h at (phases, C) next to its exact replay from
 * model/replay.h, and the verdicts.  See validate.h for the list. */
#include "validate/validate.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/replay.h"
#include "model/static.h"

/* Both sides are small integers (or sums of 0/1 terms for SDCM-FA): any
 * difference beyond rounding is a disagreement. */
#define EXACT_TOL 1e-9

struct pascal_vws {
    int64_t max_N, max_M;
    pascal_static *st;
    pascal_replay *rp;
    pascal_setlru *set;
    pascal_opt *opt;
    int64_t *trace;     /* the 6N-round empty-cache trace */
    int64_t *rd;        /* trace-derived distances, max_M */
};

pascal_vws *pascal_vws_create(int64_t max_N, int64_t max_M)
{
    if (max_N < 1 || max_M < 1 || max_N > INT64_MAX / 6 / max_M)
        return NULL;
    pascal_vws *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    int64_t len = 6 * max_N * max_M;
    w->max_N = max_N;
    w->max_M = max_M;
    w->st = pascal_static_create(max_M);
    w->rp = pascal_replay_create(max_N, max_M);
    w->set = pascal_setlru_create(max_N, max_N);
    w->opt = pascal_opt_create(max_N, len);
    w->trace = malloc((size_t)len * sizeof *w->trace);
    w->rd = malloc((size_t)max_M * sizeof *w->rd);
    if (!w->st || !w->rp || !w->set || !w->opt || !w->trace || !w->rd) {
        pascal_vws_free(w);
        return NULL;
    }
    return w;
}

void pascal_vws_free(pascal_vws *w)
{
    if (!w)
        return;
    pascal_static_free(w->st);
    pascal_replay_free(w->rp);
    pascal_setlru_free(w->set);
    pascal_opt_free(w->opt);
    free(w->trace);
    free(w->rd);
    free(w);
}

/* Eq. 15 against the stack-distance replay, and the LRU-side closed forms
 * (Mattson, SDCM-FA, Theorem 3) against the replayed steady round. */
static int lru_values(pascal_vws *w, const int64_t *ph, pascal_vcase *c)
{
    int64_t M = c->M, N = c->N, C = c->C, mismatch = 0;
    int64_t k = pascal_replay_lru_steady(w->rp, ph, M, N, C, w->rd);
    const int64_t *rd = pascal_static_rd(w->st);
    if (k < 0 || !rd || pascal_setlru_reset(w->set, C, C, PASCAL_SETMAP_MODULO, 0) != 0)
        return -1;
    for (int64_t m = 0; m < M; m++)
        mismatch += rd[m] != w->rd[m];
    c->v[PASCAL_VCOL_RD_MISMATCH] = (double)mismatch;
    c->v[PASCAL_VCOL_K_LRU] = pascal_static_k_lru(w->st, C);
    c->v[PASCAL_VCOL_K_LRU_REPLAY] = (double)k;
    c->v[PASCAL_VCOL_K_SDCM_FA] = pascal_static_k_sdcm(w->st, C, C);
    c->v[PASCAL_VCOL_K_SET_REPLAY] = pascal_replay_set_steady(w->rp, w->set, ph, M, N);
    pascal_static_lru_band(w->st, C, &c->v[PASCAL_VCOL_K_LRU_LO],
                           &c->v[PASCAL_VCOL_K_LRU_HI]);
    return 0;
}

/* Theorem 2 against the slotted-TTL replay with window T*, and Theorem 4
 * against Belady on the empty-cache trace of H = 6N rounds (the bound with
 * its N/H finite-trace correction). */
static int window_values(pascal_vws *w, const int64_t *ph, pascal_vcase *c)
{
    int64_t M = c->M, N = c->N, C = c->C, occ = -1;
    int64_t T = pascal_static_tstar(w->st, C), H = 6 * N;
    int64_t k = pascal_replay_ttl_steady(w->rp, ph, M, N, T < 0 ? 0 : T, &occ);
    int64_t len = pascal_trace_phases(ph, M, N, 0, H, w->trace);
    int64_t bel = len < 0 ? -1 : pascal_opt_replay(w->opt, w->trace, len, C);
    if (T < 0 || k < 0 || bel < 0)
        return -1;
    c->v[PASCAL_VCOL_T_STAR] = (double)T;
    c->v[PASCAL_VCOL_K_TTL] = (double)pascal_static_k_ttl(w->st, C);
    c->v[PASCAL_VCOL_K_TTL_REPLAY] = (double)k;
    c->v[PASCAL_VCOL_OCCUPANCY] = (double)occ;
    c->v[PASCAL_VCOL_U_TSTAR] = (double)pascal_static_U(w->st, T);
    c->v[PASCAL_VCOL_HORIZON] = (double)H;
    c->v[PASCAL_VCOL_K_BELADY] = (double)bel / (double)H;
    c->v[PASCAL_VCOL_K_BOUND] = pascal_static_k_bound(w->st, C, (double)H);
    return 0;
}

/* The fault option corrupts the model side only, so the replay and the
 * verdict logic run exactly as in a real disagreement. */
static void inject(pascal_vcase *c, int check)
{
    double *v = c->v;
    switch (check) {
    case PASCAL_VCHECK_RD: v[PASCAL_VCOL_RD_MISMATCH] += 1; break;
    case PASCAL_VCHECK_LRU: v[PASCAL_VCOL_K_LRU] += 1; break;
    case PASCAL_VCHECK_SDCM: v[PASCAL_VCOL_K_SDCM_FA] += 0.5; break;
    case PASCAL_VCHECK_SET: v[PASCAL_VCOL_K_SET_REPLAY] += 1; break;
    case PASCAL_VCHECK_BAND: v[PASCAL_VCOL_K_LRU_HI] = v[PASCAL_VCOL_K_LRU_REPLAY] - 1; break;
    case PASCAL_VCHECK_TTL: v[PASCAL_VCOL_K_TTL] += 1; break;
    case PASCAL_VCHECK_BELADY: v[PASCAL_VCOL_K_BOUND] = v[PASCAL_VCOL_K_BELADY] + 1; break;
    default: break;
    }
}

int pascal_validate_case(pascal_vws *w, const int64_t *phases, int fault,
                         pascal_vcase *c)
{
    for (int j = 0; j < PASCAL_VCOL_COUNT; j++)
        c->v[j] = NAN;
    c->failed = 0;
    c->D = 0;
    if (!w || !phases || c->M < 1 || c->M > w->max_M || c->N < 2 || c->N > w->max_N ||
        c->C < 1 || c->C >= c->N ||
        pascal_static_prepare(w->st, phases, c->M, c->N,
                              PASCAL_STATIC_RD | PASCAL_STATIC_DELTA) != 0)
        return -1;
    c->D = pascal_static_D(w->st);
    if (lru_values(w, phases, c) != 0 || window_values(w, phases, c) != 0)
        return -1;
    if (fault > 0 && c->N >= 4 && c->D >= 2)
        inject(c, fault - 1);
    pascal_validate_judge(c);
    return 0;
}

static int same(double a, double b) { return fabs(a - b) <= EXACT_TOL; }

void pascal_validate_judge(pascal_vcase *c)
{
    const double *v = c->v;
    double k = v[PASCAL_VCOL_K_LRU_REPLAY];
    uint32_t f = 0;
    if (!(v[PASCAL_VCOL_RD_MISMATCH] == 0))
        f |= 1u << PASCAL_VCHECK_RD;
    if (!same(v[PASCAL_VCOL_K_LRU], k))
        f |= 1u << PASCAL_VCHECK_LRU;
    if (!same(v[PASCAL_VCOL_K_SDCM_FA], k))
        f |= 1u << PASCAL_VCHECK_SDCM;
    if (!same(v[PASCAL_VCOL_K_SET_REPLAY], k))
        f |= 1u << PASCAL_VCHECK_SET;
    /* Theorem 3 claims nothing where D > C (its band is NaN there). */
    if (c->D <= c->C &&
        !(v[PASCAL_VCOL_K_LRU_LO] <= k && k <= v[PASCAL_VCOL_K_LRU_HI]))
        f |= 1u << PASCAL_VCHECK_BAND;
    /* Theorem 2: exact count, and the window's boundary occupancy is U(T*),
     * which fits in C. */
    if (!same(v[PASCAL_VCOL_K_TTL], v[PASCAL_VCOL_K_TTL_REPLAY]) ||
        !same(v[PASCAL_VCOL_OCCUPANCY], v[PASCAL_VCOL_U_TSTAR]) ||
        !(v[PASCAL_VCOL_OCCUPANCY] <= (double)c->C))
        f |= 1u << PASCAL_VCHECK_TTL;
    if (!(v[PASCAL_VCOL_K_BELADY] >= v[PASCAL_VCOL_K_BOUND] - EXACT_TOL))
        f |= 1u << PASCAL_VCHECK_BELADY;
    c->failed = f;
}
