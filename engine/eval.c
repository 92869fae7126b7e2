/* Point evaluation: one expanded point -> the requested result columns.
 * See eval.h.  The phase-vector cache key is the set of parameters that
 * decide the phases (N, M, pattern and its parameters, seed); everything else
 * is a per-capacity query against the prepared workspace. */
#include "engine/eval.h"
#include "engine/eval_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "calibrate/calibrate.h"
#include "engine/eval_phases.h"
#include "engine/eval_sim.h"
#include "engine/eval_workload.h"
#include "model/chain.h"
#include "model/progress.h"
#include "model/replay.h"
#include "model/sim.h"
#include "model/static.h"
#include "model/workload.h"
#include "sweeps/workload.h"

static const int key_params[] = {
    PASCAL_P_N, PASCAL_P_M, PASCAL_P_PATTERN, PASCAL_P_CLUSTERS, PASCAL_P_SPREAD,
    PASCAL_P_SIGMA, PASCAL_P_LAG, PASCAL_P_PHASES, PASCAL_P_SEED,
};
#define NKEY ((int)(sizeof key_params / sizeof key_params[0]))

struct pascal_eval {
    unsigned what;          /* PASCAL_STATIC_* flags for prepare */
    unsigned models;        /* the spec's models (1u << pascal_model_id) */
    pascal_wl_eval *wl;     /* workload points (eval_workload.h), made on demand */
    pascal_wl_eval *step_wl[PASCAL_OP_COUNT]; /* a model step's kernels, one each, so
                                                 that each keeps its replay over capacities */
    pascal_chain *chain;    /* the step as one program (model/chain.h) ... */
    int chain_state;        /* 0: none, 1: chain valid, -1: refused */
    double chain_key[PASCAL_NPARAM]; /* ... for these values, capacity aside */
    pascal_static *ws;
    int64_t cap_M;          /* workers ws and phases can hold */
    int64_t *phases;
    int valid;              /* ws holds the phase vector of `key` */
    double key[NKEY];
    const int64_t *key_list;
    const pascal_dyn_model *dyn; /* dynamic model's calibration (borrowed) */
    unsigned dyn_flags;     /* PASCAL_DYN_* query flags */
    /* Replay models (lru_replay, belady): one workspace, grown on demand. */
    pascal_replay *rp;
    int64_t rp_N, rp_M;     /* sizes rp can hold */
    int64_t *rd_sorted;     /* steady-state trace distances, cap_M entries */
    int rd_valid;           /* rd_sorted belongs to the prepared vector */
    int64_t bel_C, bel_H, bel_k; /* the last Belady replay of this vector */
    int bel_valid;
    int replay_failed;      /* a replay workspace could not be allocated */
    /* Progress simulator (model simulate): timing borrowed, workspace grown
     * on demand, polled stop request. */
    const pascal_sim_timing *sim_tm;
    int sim_ndevices;       /* sim_tm's profiles on a device axis, else 0 */
    pascal_sim *sim;
    pascal_wl_sim *wl_sim;  /* a workload point's work table */
    int (*should_stop)(void *ctx);
    void *stop_ctx;
};

pascal_eval *pascal_eval_create(unsigned models)
{
    pascal_eval *ev = calloc(1, sizeof *ev);
    if (!ev)
        return NULL;
    ev->models = models;
    if (models & ((1u << PASCAL_MODEL_LRU) | (1u << PASCAL_MODEL_SDCM)))
        ev->what |= PASCAL_STATIC_RD;
    if (models & (1u << PASCAL_MODEL_RESIDENCY))
        ev->what |= PASCAL_STATIC_DELTA;
    return ev;
}

void pascal_eval_free(pascal_eval *ev)
{
    if (!ev)
        return;
    pascal_static_free(ev->ws);
    pascal_wl_eval_free(ev->wl);
    for (int op = 0; op < PASCAL_OP_COUNT; op++)
        pascal_wl_eval_free(ev->step_wl[op]);
    pascal_chain_free(ev->chain);
    free(ev->phases);
    pascal_replay_free(ev->rp);
    free(ev->rd_sorted);
    pascal_sim_free(ev->sim);
    pascal_wl_sim_free(ev->wl_sim);
    free(ev);
}

const struct pascal_static *pascal_eval_workspace(const pascal_eval *ev)
{
    return ev->valid ? ev->ws : NULL;
}


static int same_key(const pascal_eval *ev, const pascal_point *p)
{
    if (!ev->valid || ev->key_list != p->phases)
        return 0;
    for (int i = 0; i < NKEY; i++)
        if (pascal_bits_of(ev->key[i]) != pascal_bits_of(p->v[key_params[i]]))
            return 0;
    return 1;
}

static int grow(pascal_eval *ev, int64_t M)
{
    int64_t cap = ev->cap_M ? ev->cap_M : 64;
    while (cap < M)
        cap *= 2;
    pascal_static_free(ev->ws);
    free(ev->phases);
    free(ev->rd_sorted);
    ev->ws = pascal_static_create(cap);
    ev->phases = malloc((size_t)cap * sizeof *ev->phases);
    ev->rd_sorted = malloc((size_t)cap * sizeof *ev->rd_sorted);
    ev->cap_M = (ev->ws && ev->phases && ev->rd_sorted) ? cap : 0;
    return ev->cap_M ? 0 : -1;
}

double pascal_eval_bytes(unsigned models, int64_t N, int64_t M)
{
    unsigned replay = (1u << PASCAL_MODEL_LRU_REPLAY) | (1u << PASCAL_MODEL_BELADY);
    unsigned phaseless = (1u << PASCAL_MODEL_SHARING) | (1u << PASCAL_MODEL_CATCHUP) |
                         (1u << PASCAL_MODEL_DYNAMIC);
    int64_t cap = 64; /* grow() doubles from 64 */
    double bytes = sizeof(pascal_eval);
    if (!(models & ~phaseless))
        return bytes;
    while (cap < M)
        cap *= 2;
    bytes += pascal_static_bytes(cap) + 2.0 * 8.0 * (double)cap; /* phases, rd_sorted */
    if (models & replay)
        bytes += pascal_replay_bytes(N, M);
    return bytes;
}

static int prepare(pascal_eval *ev, const pascal_point *p)
{
    pascal_pattern pat;
    int64_t N = (int64_t)p->v[PASCAL_P_N], M = (int64_t)p->v[PASCAL_P_M];
    if (same_key(ev, p))
        return 0;
    ev->valid = 0;
    if (M < 1 || N < 1)
        return -1;
    if (M > ev->cap_M && grow(ev, M) != 0)
        return -1;
    pascal_eval_pattern(p, &pat);
    if (pascal_phases_generate(&pat, N, M, ev->phases) != 0 ||
        pascal_static_prepare(ev->ws, ev->phases, M, N, ev->what) != 0)
        return -1;
    for (int i = 0; i < NKEY; i++)
        ev->key[i] = p->v[key_params[i]];
    ev->key_list = p->phases;
    ev->valid = 1;
    ev->rd_valid = ev->bel_valid = 0;
    return 0;
}

/* Theorem 5 and 6 columns need no phase vector. */
static double progress_column(int col, const double *v)
{
    double C = v[PASCAL_P_C], lead = v[PASCAL_P_LEAD];
    double a = v[PASCAL_P_ALPHA], b = v[PASCAL_P_BETA];
    int64_t d = isnan(v[PASCAL_P_DEPTH]) ? 0 : (int64_t)v[PASCAL_P_DEPTH];
    switch (col) {
    case PASCAL_COL_C_SHARE:
        return isnan(lead) ? NAN : (double)pascal_thm5_capacity((int64_t)lead);
    case PASCAL_COL_SHARES:
        return isnan(lead) ? NAN : (C >= (double)pascal_thm5_capacity((int64_t)lead));
    case PASCAL_COL_P_HIT:
        return pascal_thm6_period(a, b, v[PASCAL_P_LAMBDA_HIT], d);
    case PASCAL_COL_P_MISS:
        return pascal_thm6_period(a, b, v[PASCAL_P_LAMBDA_MISS], d);
    case PASCAL_COL_G:
        return pascal_thm6_gain(a, b, v[PASCAL_P_LAMBDA_HIT], v[PASCAL_P_LAMBDA_MISS], d);
    default:
        return NAN;
    }
}

/* What several columns of one point share: the Theorem 2/3 window, exact
 * LRU and the residency bound, each computed at most once per point. */
typedef struct point_cache {
    int have_win, have_lru, have_bound;
    pascal_static_win win;
    double k_lru, k_bound;
} point_cache;

static const pascal_static_win *window_at(const pascal_static *ws, int64_t C, point_cache *pc)
{
    if (!pc->have_win++)
        pascal_static_window(ws, C, &pc->win);
    return &pc->win;
}

static double k_lru_at(const pascal_static *ws, int64_t C, point_cache *pc)
{
    if (!pc->have_lru++)
        pc->k_lru = pascal_static_k_lru(ws, C);
    return pc->k_lru;
}

static double k_bound_at(const pascal_static *ws, int64_t C, const double *v, point_cache *pc)
{
    if (!pc->have_bound++)
        pc->k_bound = pascal_static_k_bound(ws, C, pascal_or_default(v[PASCAL_P_HORIZON], 0));
    return pc->k_bound;
}

/* One column at capacity C from the prepared workspace. */
static double static_column(const pascal_static *ws, int col, const double *v, point_cache *pc)
{
    int64_t C = (int64_t)v[PASCAL_P_C], N = pascal_static_N(ws);
    double M = (double)pascal_static_M(ws), t;
    switch (col) {
    case PASCAL_COL_D: return (double)pascal_static_D(ws);
    case PASCAL_COL_THETA: return window_at(ws, C, pc)->theta;
    case PASCAL_COL_T_STAR:
        t = (double)window_at(ws, C, pc)->tstar;
        return t < 0 ? NAN : t;
    case PASCAL_COL_K_TTL: return (double)window_at(ws, C, pc)->k_ttl;
    case PASCAL_COL_RHO_TTL: return (double)window_at(ws, C, pc)->k_ttl / M;
    case PASCAL_COL_K_LRU_LO: return window_at(ws, C, pc)->band_lo;
    case PASCAL_COL_K_LRU_HI: return window_at(ws, C, pc)->band_hi;
    case PASCAL_COL_K_LRU: return k_lru_at(ws, C, pc);
    case PASCAL_COL_RHO_LRU: return k_lru_at(ws, C, pc) / M;
    case PASCAL_COL_K_SDCM:
        return pascal_static_k_sdcm(ws, (int64_t)v[PASCAL_P_ASSOC], C);
    case PASCAL_COL_RHO_SDCM:
        return pascal_static_k_sdcm(ws, (int64_t)v[PASCAL_P_ASSOC], C) / M;
    case PASCAL_COL_V: return pascal_static_residency(ws, C);
    case PASCAL_COL_K_BOUND: return k_bound_at(ws, C, v, pc);
    case PASCAL_COL_RHO_BOUND: return k_bound_at(ws, C, v, pc) / M;
    case PASCAL_COL_RHO_CHE: return pascal_che_miss_rate(C, N);
    case PASCAL_COL_K_CHE: return M * pascal_che_miss_rate(C, N);
    case PASCAL_COL_MARGIN:
        return pascal_static_margin(ws, C, pascal_or_default(v[PASCAL_P_EPS], 0));
    default:
        return progress_column(col, v);
    }
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* A replay workspace holding N blocks and M workers. */
static int replay_fit(pascal_eval *ev, int64_t N, int64_t M)
{
    if (ev->rp && N <= ev->rp_N && M <= ev->rp_M)
        return 0;
    int64_t n = ev->rp_N > N ? ev->rp_N : N, m = ev->rp_M > M ? ev->rp_M : M;
    pascal_replay_free(ev->rp);
    ev->rp = pascal_replay_create(n, m);
    ev->rp_N = ev->rp ? n : 0;
    ev->rp_M = ev->rp ? m : 0;
    return ev->rp ? 0 : -1;
}

/* Belady on the empty-cache trace of `rounds` rounds (default 6N, the
 * paper's section 5.2 horizon), misses per round; cached per (C, rounds). */
static double belady_k(pascal_eval *ev, int64_t N, int64_t M, int64_t C, const double *v)
{
    int64_t H = isnan(v[PASCAL_P_ROUNDS]) ? 6 * N : (int64_t)v[PASCAL_P_ROUNDS];
    if (!ev->bel_valid || ev->bel_C != C || ev->bel_H != H) {
        ev->bel_k = pascal_replay_belady(ev->rp, ev->phases, M, N, H, C);
        ev->bel_C = C;
        ev->bel_H = H;
        ev->bel_valid = ev->bel_k >= 0;
    }
    return ev->bel_valid ? (double)ev->bel_k / (double)H : NAN;
}

/* lru_replay: the steady-state trace distances of round N, computed once per
 * phase vector and sorted, so each capacity is a binary search (Mattson:
 * one replay serves every C). */
static double lru_replay_k(pascal_eval *ev, int64_t N, int64_t M, int64_t C)
{
    if (!ev->rd_valid) {
        if (pascal_replay_lru_steady(ev->rp, ev->phases, M, N, 1, ev->rd_sorted) < 0)
            return NAN;
        qsort(ev->rd_sorted, (size_t)M, sizeof *ev->rd_sorted, cmp_i64);
        ev->rd_valid = 1;
    }
    int64_t lo = 0, hi = M;
    while (lo < hi) {   /* first distance >= C */
        int64_t mid = lo + (hi - lo) / 2;
        if (ev->rd_sorted[mid] < C) lo = mid + 1; else hi = mid;
    }
    return (double)(M - lo);
}

static double replay_column(pascal_eval *ev, int col, const double *v)
{
    int64_t N = pascal_static_N(ev->ws), M = pascal_static_M(ev->ws);
    int64_t C = (int64_t)v[PASCAL_P_C];
    if (replay_fit(ev, N, M) != 0) {
        ev->replay_failed = 1;
        return NAN;
    }
    switch (col) {
    case PASCAL_COL_K_LRU_REPLAY: return lru_replay_k(ev, N, M, C);
    case PASCAL_COL_RHO_LRU_REPLAY: return lru_replay_k(ev, N, M, C) / (double)M;
    case PASCAL_COL_K_BELADY: return belady_k(ev, N, M, C, v);
    default: return belady_k(ev, N, M, C, v) / (double)M;
    }
}

static int is_replay(int col)
{
    return pascal_columns[col].model == PASCAL_MODEL_LRU_REPLAY ||
           pascal_columns[col].model == PASCAL_MODEL_BELADY;
}

unsigned pascal_eval_models(const pascal_eval *ev)
{
    return ev->models;
}

void pascal_eval_set_dynamic(pascal_eval *ev, const struct pascal_dyn_model *dyn)
{
    ev->dyn = dyn;
}

const pascal_dyn_model *pascal_eval_dynamic_model(const pascal_eval *ev)
{
    return ev->dyn;
}

void pascal_eval_set_dynamic_flags(pascal_eval *ev, unsigned flags)
{
    ev->dyn_flags = flags;
}

/* The timing of point v: its profile's on a device axis. */
static const pascal_sim_timing *timing_at(const pascal_eval *ev, const double *v)
{
    double k = v[PASCAL_P_DEVICE];
    if (ev->sim_ndevices > 0 && !isnan(k) && k >= 0 && k < ev->sim_ndevices)
        return &ev->sim_tm[(int)k];
    return ev->sim_tm;
}

void pascal_eval_set_sim(pascal_eval *ev, const pascal_sim_timing *tm, int ndevices,
                         int (*should_stop)(void *ctx), void *stop_ctx)
{
    ev->sim_tm = tm;
    ev->sim_ndevices = ndevices;
    ev->should_stop = should_stop;
    ev->stop_ctx = stop_ctx;
}

/* K_sim, rho_sim, ns_per_round_sim at one point; returns 1 when the stop
 * request interrupted the run, -1 when memory ran out, else 0. */
static int sim_columns(pascal_eval *ev, const double *v, double *out)
{
    pascal_sim_config c;
    pascal_sim_result r;
    int rc;
    out[0] = out[1] = out[2] = NAN;
    if (!ev->sim_tm || pascal_eval_sim_config(v, &c) != 0)
        return 0;
    c.should_stop = ev->should_stop;
    c.stop_ctx = ev->stop_ctx;
    if (pascal_sim_fit(&ev->sim, &c) != 0)
        return -1;
    rc = pascal_sim_run(ev->sim, timing_at(ev, v), &c, &r);
    if (rc == PASCAL_SIM_STOPPED)
        return 1;
    if (rc == PASCAL_SIM_OK) {
        out[0] = r.K_H;
        out[1] = r.K_H / (double)r.M;
        out[2] = r.ns_per_round;
    }
    return 0;
}

/* The simulate columns of workload point p (pascal_wl_sim_columns' order);
 * returns as sim_columns does. */
static int wl_sim_seeded(pascal_eval *ev, const pascal_point *p, double seed, double *out)
{
    pascal_sim_config c;
    pascal_sim_result r;
    pascal_workload w;
    int rc;
    for (int k = 0; k < PASCAL_WL_SIM_NCOLS; k++)
        out[k] = NAN;
    if (!ev->sim_tm)
        return 0;
    if (!ev->wl_sim && !(ev->wl_sim = pascal_wl_sim_create()))
        return -1;
    if ((rc = pascal_wl_sim_config(ev->wl_sim, p, &c, &w)) != 0)
        return rc == -2 ? -1 : 0;
    if (!isnan(seed))
        c.seed = (uint64_t)seed;
    c.should_stop = ev->should_stop;
    c.stop_ctx = ev->stop_ctx;
    if (pascal_sim_fit(&ev->sim, &c) != 0)
        return -1;
    rc = pascal_sim_run(ev->sim, timing_at(ev, p->v), &c, &r);
    if (rc == PASCAL_SIM_STOPPED)
        return 1;
    if (rc == PASCAL_SIM_OK)
        pascal_wl_sim_columns(&w, r.M, &r, out);
    return 0;
}

static int wl_sim_columns(pascal_eval *ev, const pascal_point *p, double *out)
{
    return wl_sim_seeded(ev, p, NAN, out);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The band's high end (docs/workloads.md section 3.1): the 90th
 * percentile, linear between order statistics at 0.9 (S - 1), of the
 * simulated traffic over S = band_seeds free-running runs, seeds seed ..
 * seed + S - 1; first is the run at the point's own seed, already made.
 * Only the simulator's seed moves (its per-SM speeds): the phase pattern
 * is the point's, a what-if of its own.  NaN when any run is. */
static int wl_sim_band(pascal_eval *ev, const pascal_point *p, double first, double *hi)
{
    enum { MAX_SEEDS = PASCAL_MAX_BAND_SEEDS };   /* the spec holds band_seeds to it */
    double S = isnan(p->v[PASCAL_P_BAND_SEEDS]) ? 5 : p->v[PASCAL_P_BAND_SEEDS];
    double seed = isnan(p->v[PASCAL_P_SEED]) ? 1 : p->v[PASCAL_P_SEED];
    double t[MAX_SEEDS], sim[PASCAL_WL_SIM_NCOLS];
    int n = S > MAX_SEEDS ? MAX_SEEDS : (int)S, rc;
    *hi = NAN;
    t[0] = first;
    if (isnan(first))   /* the simulator does not take this point: no band to draw */
        return 0;
    for (int k = 1; k < n; k++) {
        if ((rc = wl_sim_seeded(ev, p, seed + k, sim)) != 0)
            return rc;
        t[k] = sim[PASCAL_WL_SIM_NCOLS - 1];
    }
    for (int k = 0; k < n; k++)
        if (isnan(t[k]))
            return 0;
    qsort(t, (size_t)n, sizeof *t, cmp_double);
    double at = 0.9 * (n - 1);
    int i = (int)floor(at);
    *hi = i + 1 < n ? t[i] + (at - i) * (t[i + 1] - t[i]) : t[i];
    return 0;
}

/* Slot of a workload's simulate or traffic-by-simulation column in
 * pascal_wl_sim_columns' order, or -1. */
static int wl_sim_slot(int col)
{
    switch (col) {
    case PASCAL_COL_K_SIM: return 0;
    case PASCAL_COL_RHO_SIM: return 1;
    case PASCAL_COL_NS_PER_ROUND_SIM: return 2;
    case PASCAL_COL_FILL_BYTES_SIM: return 3;
    case PASCAL_COL_TRAFFIC_SIM: return 4;
    default: return -1;
    }
}

static int needs_phases(int col)
{
    return pascal_columns[col].model != PASCAL_MODEL_DYNAMIC &&
           pascal_columns[col].model != PASCAL_MODEL_SIMULATE &&
           pascal_columns[col].model != PASCAL_MODEL_SHARING &&
           pascal_columns[col].model != PASCAL_MODEL_CATCHUP;
}

/* The dynamic model at v: a workload point through its open-scan view
 * (view, *scans: eval_workload.h), else code 14; any other point as it is. */
static void dynamic_at(const struct pascal_dyn_model *dyn, unsigned flags, const double *v,
                       double *view, double *scans, double *out)
{
    *scans = NAN;
    if (isnan(v[PASCAL_P_WORKLOAD])) {
        pascal_calibrate_point(dyn, v, flags, out);
    } else if (pascal_wl_dyn_view(v, view, scans) == 0) {
        pascal_calibrate_point(dyn, view, flags, out);
    } else {
        for (int k = 0; k < PASCAL_CALIBRATE_NCOLS; k++)
            out[k] = NAN;
        out[pascal_calibrate_slot(PASCAL_COL_FALLBACK)] = PASCAL_DYN_FALLBACK_WORKLOAD;
    }
}

void pascal_eval_dynamic(const struct pascal_dyn_model *dyn, unsigned flags, const double *v,
                         double *out)
{
    double view[PASCAL_NPARAM], scans;
    dynamic_at(dyn, flags, v, view, &scans, out);
}

/* A workload point: its waves (eval_workload.c) give every column but the
 * phase-free ones (Theorems 5 and 6, the dynamic model), computed here as
 * for any point. */
static int workload_columns(pascal_eval *ev, const pascal_point *p, const int *cols,
                            int ncols, double *out)
{
    double dyn[PASCAL_CALIBRATE_NCOLS], view[PASCAL_NPARAM], scans = NAN, sim[PASCAL_WL_SIM_NCOLS];
    int dyn_done = 0, sim_done = 0, sim_rc = 0;
    if (!ev->wl && !(ev->wl = pascal_wl_eval_create(ev->models)))
        return -1;
    int rc = pascal_wl_eval_point(ev->wl, p, ev->dyn, cols, ncols, out);
    for (int j = 0; j < ncols; j++) {
        int m = pascal_columns[cols[j]].model, c = cols[j];
        int dyn_col = m == PASCAL_MODEL_DYNAMIC || c == PASCAL_COL_FILL_BYTES_DYN ||
                      c == PASCAL_COL_TRAFFIC_DYN;
        if (wl_sim_slot(c) >= 0) {
            /* One simulation of the kernel per point; the traffic columns
             * by simulation are NaN without the simulate model. */
            if (!(ev->models >> PASCAL_MODEL_SIMULATE & 1u)) {
                out[j] = NAN;
                continue;
            }
            if (!sim_done++)
                sim_rc = wl_sim_columns(ev, p, sim);
            out[j] = sim[wl_sim_slot(c)];
            continue;
        }
        /* Each KV head's CTAs as one open scan of W = sharers / M. */
        if (dyn_col && !dyn_done++)
            dynamic_at(ev->dyn, ev->dyn_flags, p->v, view, &scans, dyn);
        if (m == PASCAL_MODEL_DYNAMIC) {
            out[j] = dyn[pascal_calibrate_slot(c)];
        } else if (dyn_col) {
            /* Fills = scans x K_H x H blocks of the view, H = W N. */
            double K = (ev->models >> PASCAL_MODEL_DYNAMIC & 1u) ? dyn[0] : NAN;
            double bytes = scans * K * view[PASCAL_P_W] * view[PASCAL_P_N] *
                           view[PASCAL_P_BLOCK_BYTES];
            pascal_workload w;
            double ideal = pascal_workload_of_point(p->v, &w) == 0 ? (double)w.ideal_bytes : NAN;
            out[j] = isnan(scans) ? NAN : c == PASCAL_COL_FILL_BYTES_DYN ? bytes : bytes / ideal;
        } else if (m == PASCAL_MODEL_SHARING || m == PASCAL_MODEL_CATCHUP) {
            out[j] = progress_column(c, p->v);
        }
    }
    return sim_rc != 0 ? sim_rc : rc;
}

static int is_answer(int col)
{
    return col == PASCAL_COL_ANSWER_FILL_BYTES || col == PASCAL_COL_ANSWER_TRAFFIC ||
           col == PASCAL_COL_ANSWER_SOURCE || (col >= PASCAL_COL_FLOPS && col <= PASCAL_COL_BOUND_TERM) ||
           col == PASCAL_COL_ANSWER_TRAFFIC_LO || col == PASCAL_COL_ANSWER_TRAFFIC_HI ||
           (col >= PASCAL_COL_TIME_SIM_S && col <= PASCAL_COL_AREA_L2_MM2);
}

/* The costs (docs/workloads.md section 10.1): energy of the answer's
 * fills and of the bytes the SMs read from L2, and the capacity's area;
 * NaN where the profile (or the spec) gives no figure. */
static double cost_column(int col, const double *v, double requested, double fill)
{
    double e_dram = fill * v[PASCAL_P_DRAM_PJ_PER_BYTE] * 1e-12;
    double e_l2 = requested * v[PASCAL_P_L2_PJ_PER_BYTE] * 1e-12;
    switch (col) {
    case PASCAL_COL_ENERGY_DRAM_J: return e_dram;
    case PASCAL_COL_ENERGY_L2_J: return e_l2;
    case PASCAL_COL_ENERGY_J: return e_dram + e_l2;
    default: /* area: the cache in whole blocks, as the model holds it */
        return v[PASCAL_P_C] * v[PASCAL_P_BLOCK_BYTES] / 1048576.0 * v[PASCAL_P_L2_MM2_PER_MIB];
    }
}

/* The time columns (docs/workloads.md section 10): floors from the
 * point's rates and the answer's fill bytes. */
static double time_column(int col, const double *v, double flops, double requested, double fill)
{
    double t[3] = {flops / v[PASCAL_P_FLOPS_PER_S], requested / v[PASCAL_P_L2_BYTES_PER_S],
                   fill / v[PASCAL_P_DRAM_BYTES_PER_S]};
    int arg = -1;
    for (int k = 0; k < 3; k++)
        if (!isnan(t[k]) && (arg < 0 || t[k] > t[arg]))
            arg = k;
    /* A bound needs all three floors: a missing rate leaves it open. */
    int all = !isnan(t[0]) && !isnan(t[1]) && !isnan(t[2]);
    switch (col) {
    case PASCAL_COL_FLOPS: return flops;
    case PASCAL_COL_TIME_COMPUTE_S: return t[0];
    case PASCAL_COL_TIME_L2_S: return t[1];
    case PASCAL_COL_TIME_DRAM_S: return t[2];
    case PASCAL_COL_TIME_BOUND_S: return all ? t[arg] : NAN;
    default: return all ? (double)(arg + 1) : NAN;
    }
}

/* The answer columns (docs/workloads.md section 3.1): the fills of the
 * first model present that answers the point, in the order of
 * pascal_answer_columns; the candidates are evaluated with the columns
 * asked for, so a simulation runs once. */
static int workload_point(pascal_eval *ev, const pascal_point *p, const int *cols,
                          int ncols, double *out)
{
    /* the candidates' fills, ideal_bytes, requests, ns_per_round_sim, waves */
    enum { EXTRA = PASCAL_ANSWER_COUNT + 3, IDEAL = PASCAL_ANSWER_COUNT - 1, REQUESTS, NS_ROUND, WAVES };
    int want = 0, all[PASCAL_NCOLUMN + EXTRA];
    double got[PASCAL_NCOLUMN + EXTRA];
    for (int j = 0; j < ncols; j++)
        want |= is_answer(cols[j]);
    if (!want || ncols > PASCAL_NCOLUMN)
        return workload_columns(ev, p, cols, ncols, out);
    memcpy(all, cols, (size_t)ncols * sizeof *all);
    for (int a = 1; a < PASCAL_ANSWER_COUNT; a++)
        all[ncols + a - 1] = pascal_answer_columns[a];
    all[ncols + IDEAL] = PASCAL_COL_IDEAL_BYTES;
    all[ncols + REQUESTS] = PASCAL_COL_REQUESTS;
    all[ncols + NS_ROUND] = PASCAL_COL_NS_PER_ROUND_SIM;
    all[ncols + WAVES] = PASCAL_COL_WAVES;
    int rc = workload_columns(ev, p, all, ncols + EXTRA, got);
    double fill = NAN, source = NAN, ideal = got[ncols + IDEAL];
    double requested = got[ncols + REQUESTS] * p->v[PASCAL_P_BLOCK_BYTES];
    pascal_workload w;
    int derived = pascal_workload_of_point(p->v, &w) == 0;
    double flops = derived ? pascal_workload_flops(&w) : NAN;
    /* The simulated makespan: its time per round over the kernel's rounds
     * (waves N on a ring). */
    double sim_s = derived ? got[ncols + NS_ROUND] * pascal_wl_sim_rounds(&w, (int64_t)p->v[PASCAL_P_M]) * 1e-9
                           : NAN;
    for (int a = 1; a < PASCAL_ANSWER_COUNT && isnan(fill); a++)
        if (!isnan(got[ncols + a - 1])) {
            fill = got[ncols + a - 1];
            source = a;
        }
    /* The band: the lock-step kernel below (the replay, else the
     * estimate), the free-running simulator's p90 above, each widened to
     * hold the answer. */
    double step = !isnan(got[ncols + PASCAL_ANSWER_REPLAY - 1]) ? got[ncols + PASCAL_ANSWER_REPLAY - 1]
                                                               : got[ncols + PASCAL_ANSWER_ESTIMATE - 1];
    double sim = got[ncols + PASCAL_ANSWER_SIMULATE - 1], band_hi = NAN;
    for (int j = 0; j < ncols && rc == 0; j++)
        if (cols[j] == PASCAL_COL_ANSWER_TRAFFIC_HI && (ev->models >> PASCAL_MODEL_SIMULATE & 1u)) {
            rc = wl_sim_band(ev, p, sim / ideal, &band_hi);
            break;
        }
    for (int j = 0; j < ncols; j++)
        out[j] = cols[j] == PASCAL_COL_ANSWER_FILL_BYTES ? fill
                 : cols[j] == PASCAL_COL_ANSWER_TRAFFIC  ? fill / ideal
                 : cols[j] == PASCAL_COL_ANSWER_SOURCE   ? source
                 : cols[j] == PASCAL_COL_ANSWER_TRAFFIC_LO ? fmin(step, fill) / ideal
                 : cols[j] == PASCAL_COL_ANSWER_TRAFFIC_HI ? (isnan(band_hi) ? NAN : fmax(band_hi, fill / ideal))
                 : cols[j] == PASCAL_COL_TIME_SIM_S      ? sim_s
                 : cols[j] >= PASCAL_COL_ENERGY_DRAM_J && cols[j] <= PASCAL_COL_AREA_L2_MM2
                     ? cost_column(cols[j], p->v, requested, fill)
                 : is_answer(cols[j])                    ? time_column(cols[j], p->v, flops, requested, fill)
                                                         : got[j];
    return rc;
}

/* The step's fills replayed as one program (docs/workloads.md section
 * 11.2) with capacity_bytes, NaN where it gives none; one replay answers
 * every capacity of the same step. */
static double chained_fills(pascal_eval *ev, const pascal_point *p, const pascal_step *st, int *rc)
{
    int same = ev->chain_state != 0;
    for (int i = 0; same && i < PASCAL_NPARAM; i++)
        if (!(pascal_params[i].flags & PASCAL_PF_INNER))
            same = memcmp(&ev->chain_key[i], &p->v[i], sizeof(double)) == 0;
    if (!same) {
        pascal_chain_free(ev->chain);
        ev->chain = NULL;
        int r = pascal_chain_run(st, (int64_t)p->v[PASCAL_P_M], 32, &ev->chain);
        /* memory running out fails the point; a refused program is NaN */
        if (r == PASCAL_CHAIN_SIZE && !ev->chain)
            *rc = *rc ? *rc : -1;
        ev->chain_state = r == PASCAL_CHAIN_OK ? 1 : -1;
        memcpy(ev->chain_key, p->v, sizeof ev->chain_key);
    }
    return ev->chain_state > 0 ? pascal_chain_fills(ev->chain, p->v[PASCAL_P_CAPACITY_BYTES]) : NAN;
}

/* A model step (docs/workloads.md section 11): each kernel as a workload
 * point of its own (sweeps/workload.h), its answer, floors and energy
 * times the times it runs, summed; ratios of the sums. */
static int step_point(pascal_eval *ev, const pascal_point *p, const int *cols, int ncols,
                      double *out)
{
    enum { FILL, SOURCE, IDEAL, LRU, REPLAY, ANY, FLOPS, T_C, T_L2, T_DRAM, T_BOUND, E_DRAM, E_L2,
           EXACT, IDEAL_EXACT, WRITE_EXACT, NW };
    static const int want[NW] = {
        PASCAL_COL_ANSWER_FILL_BYTES, PASCAL_COL_ANSWER_SOURCE, PASCAL_COL_IDEAL_BYTES,
        PASCAL_COL_FILL_BYTES_LRU, PASCAL_COL_FILL_BYTES_REPLAY, PASCAL_COL_FILL_BYTES_REPLAY_ANY,
        PASCAL_COL_FLOPS, PASCAL_COL_TIME_COMPUTE_S, PASCAL_COL_TIME_L2_S, PASCAL_COL_TIME_DRAM_S,
        PASCAL_COL_TIME_BOUND_S, PASCAL_COL_ENERGY_DRAM_J, PASCAL_COL_ENERGY_L2_J,
        PASCAL_COL_FILL_BYTES_EXACT, PASCAL_COL_IDEAL_BYTES_EXACT, PASCAL_COL_WRITE_BYTES_EXACT};
    double sum[NW] = {0}, got[NW], by_op[PASCAL_OP_COUNT], by_term[3] = {0}, source = 0;
    pascal_point sub = *p;
    pascal_step st;
    int rc = 0;
    sub.phases = NULL;
    pascal_step_of_point(p->v, &st);
    for (int op = 0; op < PASCAL_OP_COUNT; op++) {
        int64_t count;
        if (pascal_step_kernel_point(p->v, op, sub.v, &count) != 0) {
            for (int k = 0; k < NW; k++)
                sum[k] = NAN;
            by_op[op] = NAN;
            continue;
        }
        /* Each kernel has its own evaluator: its waves and replays stay
         * valid while only the capacity changes. */
        pascal_wl_eval *own = ev->wl;
        ev->wl = ev->step_wl[op];
        int r = workload_point(ev, &sub, want, NW, got);
        ev->step_wl[op] = ev->wl;
        ev->wl = own;
        rc = rc ? rc : r;
        double n = (double)count;
        for (int k = 0; k < NW; k++)
            if (k != SOURCE)
                sum[k] += n * got[k];
        source = isnan(got[SOURCE]) || isnan(source) ? NAN : fmax(source, got[SOURCE]);
        by_op[op] = n * got[FILL];
        /* the floor that binds this kernel takes its time */
        int arg = got[T_C] >= got[T_L2] && got[T_C] >= got[T_DRAM] ? 0 : got[T_L2] >= got[T_DRAM] ? 1 : 2;
        by_term[arg] += n * got[T_BOUND];
    }
    double tokens = (double)pascal_step_tokens(&st), batch = (double)st.batch;
    double energy = sum[E_DRAM] + sum[E_L2], chained = NAN;
    for (int j = 0; j < ncols && (ev->models >> PASCAL_MODEL_LRU_REPLAY & 1u); j++)
        if (cols[j] >= PASCAL_COL_FILL_BYTES_CHAINED && cols[j] <= PASCAL_COL_REUSE_BYTES) {
            chained = chained_fills(ev, p, &st, &rc);
            break;
        }
    int term = by_term[0] >= by_term[1] && by_term[0] >= by_term[2] ? 1 : by_term[1] >= by_term[2] ? 2 : 3;
    for (int j = 0; j < ncols; j++) {
        int c = cols[j];
        double v;
        switch (c) {
        case PASCAL_COL_ANSWER_FILL_BYTES: v = sum[FILL]; break;
        case PASCAL_COL_ANSWER_TRAFFIC: v = sum[FILL] / sum[IDEAL]; break;
        case PASCAL_COL_ANSWER_SOURCE: v = source > 0 ? source : NAN; break;
        case PASCAL_COL_FILL_BYTES_LRU: v = sum[LRU]; break;
        case PASCAL_COL_TRAFFIC_LRU: v = sum[LRU] / sum[IDEAL]; break;
        case PASCAL_COL_FILL_BYTES_REPLAY: v = sum[REPLAY]; break;
        case PASCAL_COL_TRAFFIC_REPLAY: v = sum[REPLAY] / sum[IDEAL]; break;
        case PASCAL_COL_FILL_BYTES_REPLAY_ANY: v = sum[ANY]; break;
        case PASCAL_COL_TRAFFIC_REPLAY_ANY: v = sum[ANY] / sum[IDEAL]; break;
        case PASCAL_COL_FLOPS: v = sum[FLOPS]; break;
        case PASCAL_COL_TIME_COMPUTE_S: v = sum[T_C]; break;
        case PASCAL_COL_TIME_L2_S: v = sum[T_L2]; break;
        case PASCAL_COL_TIME_DRAM_S: v = sum[T_DRAM]; break;
        case PASCAL_COL_TIME_BOUND_S: v = sum[T_BOUND]; break;
        case PASCAL_COL_BOUND_TERM: v = isnan(sum[T_BOUND]) ? NAN : (double)term; break;
        case PASCAL_COL_ENERGY_DRAM_J: v = sum[E_DRAM]; break;
        case PASCAL_COL_ENERGY_L2_J: v = sum[E_L2]; break;
        case PASCAL_COL_ENERGY_J: v = energy; break;
        case PASCAL_COL_AREA_L2_MM2: v = cost_column(c, p->v, 0, sum[FILL]); break;
        case PASCAL_COL_FILL_BYTES_EXACT: v = sum[EXACT]; break;
        case PASCAL_COL_TRAFFIC_EXACT: v = sum[EXACT] / sum[IDEAL_EXACT]; break;
        case PASCAL_COL_IDEAL_BYTES_EXACT: v = sum[IDEAL_EXACT]; break;
        case PASCAL_COL_WRITE_BYTES_EXACT: v = sum[WRITE_EXACT]; break;
        case PASCAL_COL_STEP_TOKENS: v = tokens; break;
        case PASCAL_COL_TOKENS_PER_S_BOUND: v = tokens / sum[T_BOUND]; break;
        case PASCAL_COL_FILL_BYTES_PER_TOKEN: v = sum[FILL] / tokens; break;
        case PASCAL_COL_ENERGY_PER_TOKEN_J: v = energy / tokens; break;
        case PASCAL_COL_FILL_BYTES_PER_SEQUENCE: v = sum[FILL] / batch; break;
        case PASCAL_COL_ENERGY_PER_SEQUENCE_J: v = energy / batch; break;
        case PASCAL_COL_FILL_BYTES_CHAINED: v = chained; break;
        case PASCAL_COL_TRAFFIC_CHAINED: v = chained / sum[IDEAL_EXACT]; break;
        case PASCAL_COL_REUSE_BYTES: v = sum[EXACT] - chained; break;
        default:
            v = c >= PASCAL_COL_FILL_BYTES_QKV_PROJ && c <= PASCAL_COL_FILL_BYTES_LM_HEAD
                    ? by_op[c - PASCAL_COL_FILL_BYTES_QKV_PROJ] : NAN;
            break;
        }
        out[j] = v;
    }
    return rc;
}

int pascal_eval_point(pascal_eval *ev, const pascal_point *p, const int *cols,
                      int ncols, double *out)
{
    int phased = 0, ok = 1, dyn_done = 0, sim_done = 0, sim_rc = 0;
    double dyn[PASCAL_CALIBRATE_NCOLS], sim[3];
    point_cache pc = {0};
    if (!isnan(p->v[PASCAL_P_PHASE]))
        return step_point(ev, p, cols, ncols, out);
    if (!isnan(p->v[PASCAL_P_WORKLOAD]))
        return workload_point(ev, p, cols, ncols, out);
    for (int j = 0; j < ncols; j++)
        phased |= needs_phases(cols[j]);
    if (phased && prepare(ev, p) != 0)
        ok = 0;
    for (int j = 0; j < ncols; j++) {
        if (pascal_columns[cols[j]].model == PASCAL_MODEL_DYNAMIC) {
            if (!dyn_done++) /* section 4 columns: one prediction per point */
                pascal_calibrate_point(ev->dyn, p->v, ev->dyn_flags, dyn);
            out[j] = dyn[pascal_calibrate_slot(cols[j])];
        } else if (pascal_columns[cols[j]].model == PASCAL_MODEL_SIMULATE) {
            if (!sim_done++) /* one simulation per point */
                sim_rc = sim_columns(ev, p->v, sim);
            out[j] = sim[cols[j] - PASCAL_COL_K_SIM];
        } else if (!needs_phases(cols[j]))
            out[j] = progress_column(cols[j], p->v);
        else if (ok && is_replay(cols[j]))
            out[j] = replay_column(ev, cols[j], p->v);
        else
            out[j] = ok ? static_column(ev->ws, cols[j], p->v, &pc) : NAN;
    }
    if (ev->replay_failed) {
        ev->replay_failed = 0;
        return -1;
    }
    if (sim_rc != 0)
        return sim_rc;
    return ok ? 0 : -1;
}
