/* The multi-stream half of the validation campaign (validate.h): S streams
 * sharing one cache (model/static_multi.h) against exact replay of their
 * merged trace (model/replay_streams.h), on an exhaustive enumeration of
 * tiny instances and seeded larger ones, and the S = 1 reduction on every
 * single-stream case.  Every case is a pure function of (seed, index), so
 * results do not depend on the thread count. */
#include "validate/validate.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/parallel.h"
#include "model/phases.h"
#include "model/replay_streams.h"
#include "model/static_multi.h"

#define EXACT_TOL 1e-9
#define KEY_MULTI 0x6d756c74695f7331ULL
#define EX2_MAX_N 3     /* S = 2: N_s = 1..3, M_s = 1..2 */
#define EX2_MAX_M 2
#define EX3_MAX_N 2     /* S = 3: N_s = 1..2, one request each */
#define SEED_MAX_M 8    /* requests per stream in the seeded cases */
#define MS_FIRST PASCAL_VCHECK_MS_RD

/* ---- the case list ---------------------------------------------------------- */

typedef struct builder {
    pascal_validate_result *r;
    int64_t off;         /* next free entry of r->mdata */
} builder;

static void add_mcase(builder *b, int family, int64_t S, const int64_t *N, int64_t R,
                      const int64_t *stream, const int64_t *phase, int64_t C)
{
    pascal_validate_result *r = b->r;
    pascal_vcase *c = &r->mcases[r->nmcases++];
    int64_t *d = r->mdata + b->off, Nt = 0;
    memset(c, 0, sizeof *c);
    for (int64_t s = 0; s < S; s++)
        Nt += d[s] = N[s];
    memcpy(d + S, stream, (size_t)R * sizeof *d);
    memcpy(d + S + R, phase, (size_t)R * sizeof *d);
    c->family = family;
    c->S = S;
    c->N = Nt;
    c->M = R;
    c->C = C;
    c->phase_off = b->off;
    b->off += S + 2 * R;
}

/* Next arrangement of the multiset seq[0..n-1] in lexicographic order;
 * 0 after the last. */
static int next_arrangement(int64_t *seq, int64_t n)
{
    int64_t i = n - 2, j = n - 1;
    while (i >= 0 && seq[i] >= seq[i + 1])
        i--;
    if (i < 0)
        return 0;
    while (seq[j] <= seq[i])
        j--;
    int64_t t = seq[i];
    seq[i] = seq[j], seq[j] = t;
    for (int64_t a = i + 1, z = n - 1; a < z; a++, z--)
        t = seq[a], seq[a] = seq[z], seq[z] = t;
    return 1;
}

/* Every order, phase vector and capacity for ring sizes N and counts M
 * (S streams); with b == NULL only counts the cases. */
static int64_t enumerate(builder *b, int64_t S, const int64_t *N, const int64_t *M)
{
    int64_t seq[8], phase[8], R = 0, codes = 1, Nt = 0, n = 0;
    for (int64_t s = 0; s < S; s++) {
        for (int64_t i = 0; i < M[s]; i++)
            seq[R++] = s;
        Nt += N[s];
    }
    for (int64_t g = 0; g < R; g++)
        codes *= N[seq[g]];
    do {
        for (int64_t code = 0; code < codes; code++) {
            for (int64_t g = 0, x = code; g < R; g++) {
                phase[g] = x % N[seq[g]];
                x /= N[seq[g]];
            }
            for (int64_t C = 1; C < Nt; C++, n++)
                if (b)
                    add_mcase(b, PASCAL_VFAMILY_MULTI_EXHAUSTIVE, S, N, R, seq, phase, C);
        }
    } while (next_arrangement(seq, R));
    return n;
}

/* The exhaustive families; returns the case count. */
static int64_t make_exhaustive(builder *b)
{
    int64_t n = 0, N[3], M[3];
    for (N[0] = 1; N[0] <= EX2_MAX_N; N[0]++)
        for (N[1] = 1; N[1] <= EX2_MAX_N; N[1]++)
            for (M[0] = 1; M[0] <= EX2_MAX_M; M[0]++)
                for (M[1] = 1; M[1] <= EX2_MAX_M; M[1]++)
                    n += enumerate(b, 2, N, M);
    M[0] = M[1] = M[2] = 1;
    for (N[0] = 1; N[0] <= EX3_MAX_N; N[0]++)
        for (N[1] = 1; N[1] <= EX3_MAX_N; N[1]++)
            for (N[2] = 1; N[2] <= EX3_MAX_N; N[2]++)
                n += enumerate(b, 3, N, M);
    return n;
}

/* Seeded case i: S streams of random sizes, each with a pattern of its own
 * (keyed by (i, s)), requests shuffled into a random within-round order. */
static void make_seeded(builder *b, int64_t i)
{
    const pascal_validate_opts *o = &b->r->opts;
    uint64_t key = pascal_rng_mix(KEY_MULTI, (uint64_t)i), sd = o->seed;
    int64_t S = 2 + (int64_t)(pascal_rng_u64(sd, key, 0) % (uint64_t)(o->multi_max_S - 1));
    int64_t N[64], stream[64 * SEED_MAX_M], phase[64 * SEED_MAX_M], R = 0, Nt = 0;
    static const pascal_pattern_kind kinds[] = {
        PASCAL_PATTERN_ALIGNED, PASCAL_PATTERN_CLUSTERS, PASCAL_PATTERN_EQUAL,
        PASCAL_PATTERN_UNIFORM, PASCAL_PATTERN_GAUSSIAN, PASCAL_PATTERN_LAG};
    for (int64_t s = 0; s < S; s++) {
        uint64_t ks = pascal_rng_mix(key, (uint64_t)s);
        int64_t Ns = 1 + (int64_t)(pascal_rng_u64(sd, ks, 1) % (uint64_t)o->multi_max_N);
        int64_t Ms = 1 + (int64_t)(pascal_rng_u64(sd, ks, 2) % SEED_MAX_M);
        pascal_pattern pat = {0};
        pat.kind = kinds[pascal_rng_u64(sd, ks, 3) % 6];
        pat.clusters = 1 + (int64_t)(pascal_rng_u64(sd, ks, 4) % (uint64_t)Ms);
        pat.spread = (int64_t)(pascal_rng_u64(sd, ks, 5) % (uint64_t)(Ns / pat.clusters + 1));
        pat.sigma = pascal_rng_uniform(sd, ks, 6) * (double)Ns / 4.0;
        pat.lag = (int64_t)(pascal_rng_u64(sd, ks, 7) % (uint64_t)Ns);
        pat.seed = sd;
        pat.key = ks;
        if (pascal_phases_generate(&pat, Ns, Ms, phase + R) != 0)
            for (int64_t m = 0; m < Ms; m++)   /* unreachable for these draws */
                phase[R + m] = 0;
        for (int64_t m = 0; m < Ms; m++)
            stream[R + m] = s;
        N[s] = Ns;
        Nt += Ns;
        R += Ms;
    }
    for (int64_t g = R - 1; g > 0; g--) {   /* Fisher-Yates on (stream, phase) */
        int64_t j = (int64_t)(pascal_rng_u64(sd, key, 100 + (uint64_t)g) % (uint64_t)(g + 1));
        int64_t t = stream[g];
        stream[g] = stream[j], stream[j] = t;
        t = phase[g], phase[g] = phase[j], phase[j] = t;
    }
    int64_t C = 1 + (int64_t)(pascal_rng_u64(sd, key, 8) % (uint64_t)(Nt - 1));
    add_mcase(b, PASCAL_VFAMILY_MULTI_SEEDED, S, N, R, stream, phase, C);
}

static int make_cases(pascal_validate_result *r)
{
    const pascal_validate_opts *o = &r->opts;
    int64_t nex = make_exhaustive(NULL), n = nex + o->multi_seeded_cases;
    int64_t words = nex * (3 + 2 * 4) +
                    o->multi_seeded_cases * (o->multi_max_S + 2 * o->multi_max_S * SEED_MAX_M);
    builder b = {r, 0};
    r->mcases = malloc((size_t)(n > 0 ? n : 1) * sizeof *r->mcases);
    r->mdata = malloc((size_t)(words > 0 ? words : 1) * sizeof *r->mdata);
    if (!r->mcases || !r->mdata)
        return -1;
    make_exhaustive(&b);
    r->nm_exhaustive = r->nmcases;
    for (int64_t i = 0; i < o->multi_seeded_cases; i++)
        make_seeded(&b, i);
    r->nm_seeded = r->nmcases - r->nm_exhaustive;
    return 0;
}

/* ---- one case ------------------------------------------------------------------ */

typedef struct mws {
    pascal_static *st, *one;
    pascal_lru *lru;
    pascal_ttl *ttl;
    pascal_opt *opt;
    int64_t *trace, *round, *off, *rd, *share;
} mws;

static void mws_free(mws *w)
{
    pascal_static_free(w->st);
    pascal_static_free(w->one);
    pascal_lru_free(w->lru);
    pascal_ttl_free(w->ttl);
    pascal_opt_free(w->opt);
    free(w->trace), free(w->round), free(w->off), free(w->rd), free(w->share);
}

static int mws_alloc(mws *w, int64_t max_R, int64_t max_Nt, int64_t max_N, int64_t max_S)
{
    int64_t len = 6 * max_N * max_R;
    memset(w, 0, sizeof *w);
    w->st = pascal_static_create(max_R);
    w->one = pascal_static_create(max_R);
    w->lru = pascal_lru_create(max_Nt);
    w->ttl = pascal_ttl_create(max_Nt);
    w->opt = pascal_opt_create(max_Nt, len);
    w->trace = malloc((size_t)len * sizeof *w->trace);
    w->round = malloc((size_t)max_R * sizeof *w->round);
    w->off = malloc((size_t)max_S * sizeof *w->off);
    w->rd = malloc((size_t)max_R * sizeof *w->rd);
    w->share = malloc((size_t)max_S * sizeof *w->share);
    return w->st && w->one && w->lru && w->ttl && w->opt && w->trace && w->round && w->off &&
                   w->rd && w->share ? 0 : -1;
}

static pascal_streams view_of(const pascal_validate_result *r, const pascal_vcase *c)
{
    const int64_t *d = r->mdata + c->phase_off;
    return (pascal_streams){c->S, d, c->M, d + c->S, d + c->S + c->M, NULL};
}

/* Exact LRU side: distances, misses, and each stream's share (a share
 * mismatch counts as an LRU disagreement). */
static int lru_side(mws *w, const pascal_streams *st, pascal_vcase *c)
{
    int64_t k = pascal_replay_streams_lru(w->lru, st, c->C, w->off, w->round, w->rd);
    const int64_t *rd = pascal_static_rd(w->st);
    int64_t mismatch = 0, shares = 0;
    if (k < 0 || !rd)
        return -1;
    for (int64_t s = 0; s < st->S; s++)
        w->share[s] = 0;
    for (int64_t g = 0; g < st->R; g++) {
        mismatch += rd[g] != w->rd[g];
        w->share[st->stream[g]] += w->rd[g] >= c->C;
    }
    for (int64_t s = 0; s < st->S; s++)
        shares += pascal_static_stream_k_lru(w->st, s, c->C) != (double)w->share[s];
    c->v[PASCAL_VCOL_RD_MISMATCH] = (double)mismatch;
    /* A wrong per-stream share shows as half a miss off the replay: the
     * case's K_lru column then disagrees, and the check fails. */
    c->v[PASCAL_VCOL_K_LRU] = pascal_static_k_lru(w->st, c->C) + (shares ? 0.5 : 0.0);
    c->v[PASCAL_VCOL_K_LRU_REPLAY] = (double)k;
    c->v[PASCAL_VCOL_K_SDCM_FA] = pascal_static_k_sdcm(w->st, c->C, c->C);
    pascal_static_lru_band(w->st, c->C, &c->v[PASCAL_VCOL_K_LRU_LO], &c->v[PASCAL_VCOL_K_LRU_HI]);
    /* The per-stream band must hold too: a violation empties the band. */
    for (int64_t s = 0; s < st->S && c->D <= c->C; s++) {
        double lo, hi;
        pascal_static_stream_lru_band(w->st, s, c->C, &lo, &hi);
        if (!(lo <= (double)w->share[s] && (double)w->share[s] <= hi))
            c->v[PASCAL_VCOL_K_LRU_HI] = c->v[PASCAL_VCOL_K_LRU_LO] - 1;
    }
    return 0;
}

/* Theorem 2 with the shared window, and Theorem 4 against Belady. */
static int window_side(mws *w, const pascal_streams *st, pascal_vcase *c)
{
    int64_t T = pascal_static_tstar(w->st, c->C), occ = -1, H = 6 * pascal_streams_max_N(st);
    int64_t k = pascal_replay_streams_ttl(w->ttl, st, T < 0 ? 0 : T, w->off, w->round, &occ);
    int64_t bel = pascal_replay_streams_belady(w->opt, st, H, c->C, w->off, w->trace);
    if (T < 0 || k < 0 || bel < 0)
        return -1;
    c->v[PASCAL_VCOL_T_STAR] = (double)T;
    c->v[PASCAL_VCOL_K_TTL] = (double)pascal_static_k_ttl(w->st, c->C);
    c->v[PASCAL_VCOL_K_TTL_REPLAY] = (double)k;
    c->v[PASCAL_VCOL_OCCUPANCY] = (double)occ;
    c->v[PASCAL_VCOL_U_TSTAR] = (double)pascal_static_U(w->st, T);
    c->v[PASCAL_VCOL_HORIZON] = (double)H;
    c->v[PASCAL_VCOL_K_BELADY] = (double)bel / (double)H;
    c->v[PASCAL_VCOL_K_BOUND] = pascal_static_k_bound(w->st, c->C, (double)H);
    return 0;
}

static int same(double a, double b) { return fabs(a - b) <= EXACT_TOL; }

/* Verdicts of a multi-stream case, as bits MS_* of c->failed. */
static void judge(pascal_vcase *c)
{
    const double *v = c->v;
    double k = v[PASCAL_VCOL_K_LRU_REPLAY];
    uint32_t f = 0;
    if (!(v[PASCAL_VCOL_RD_MISMATCH] == 0))
        f |= 1u << PASCAL_VCHECK_MS_RD;
    if (!same(v[PASCAL_VCOL_K_LRU], k) || !same(v[PASCAL_VCOL_K_SDCM_FA], k))
        f |= 1u << PASCAL_VCHECK_MS_LRU;
    if (!same(v[PASCAL_VCOL_K_TTL], v[PASCAL_VCOL_K_TTL_REPLAY]) ||
        !same(v[PASCAL_VCOL_OCCUPANCY], v[PASCAL_VCOL_U_TSTAR]) ||
        !(v[PASCAL_VCOL_OCCUPANCY] <= (double)c->C))
        f |= 1u << PASCAL_VCHECK_MS_TTL;
    if (c->D <= c->C && !(v[PASCAL_VCOL_K_LRU_LO] <= k && k <= v[PASCAL_VCOL_K_LRU_HI]))
        f |= 1u << PASCAL_VCHECK_MS_BAND;
    if (!(v[PASCAL_VCOL_K_BELADY] >= v[PASCAL_VCOL_K_BOUND] - EXACT_TOL))
        f |= 1u << PASCAL_VCHECK_MS_BELADY;
    c->failed = f;
}

/* The fault option corrupts the model side only (validate.h). */
static void inject(pascal_vcase *c, int check)
{
    double *v = c->v;
    switch (check) {
    case PASCAL_VCHECK_MS_RD: v[PASCAL_VCOL_RD_MISMATCH] += 1; break;
    case PASCAL_VCHECK_MS_LRU: v[PASCAL_VCOL_K_LRU] += 1; break;
    case PASCAL_VCHECK_MS_TTL: v[PASCAL_VCOL_K_TTL] += 1; break;
    case PASCAL_VCHECK_MS_BAND: v[PASCAL_VCOL_K_LRU_HI] = v[PASCAL_VCOL_K_LRU_REPLAY] - 1; break;
    case PASCAL_VCHECK_MS_BELADY: v[PASCAL_VCOL_K_BOUND] = v[PASCAL_VCOL_K_BELADY] + 1; break;
    default: break;
    }
}

static int eval_mcase(mws *w, const pascal_validate_result *r, pascal_vcase *c, int fault)
{
    pascal_streams st = view_of(r, c);
    for (int j = 0; j < PASCAL_VCOL_COUNT; j++)
        c->v[j] = NAN;
    c->failed = 0;
    if (pascal_static_prepare_streams(w->st, &st, PASCAL_STATIC_RD | PASCAL_STATIC_DELTA) != 0)
        return -1;
    c->D = pascal_static_D(w->st);
    if (lru_side(w, &st, c) != 0 || window_side(w, &st, c) != 0)
        return -1;
    if (fault > 0 && c->N >= 4 && c->D >= 2)
        inject(c, fault - 1);
    judge(c);
    return 0;
}

/* S = 1: a single-stream case prepared both ways must agree in every
 * array and answer.  The fault option corrupts one side's answer. */
static int one_stream_differs(mws *w, const pascal_validate_result *r, const pascal_vcase *c,
                              int fault)
{
    const int64_t *ph = r->phases + c->phase_off;
    int64_t M = c->M, N = c->N, C = c->C;
    for (int64_t m = 0; m < M; m++)
        w->round[m] = 0;
    pascal_streams st = {1, &N, M, w->round, ph, NULL};
    unsigned all = PASCAL_STATIC_RD | PASCAL_STATIC_DELTA;
    if (pascal_static_prepare(w->one, ph, M, N, all) != 0 ||
        pascal_static_prepare_streams(w->st, &st, all) != 0)
        return 1;
    int64_t D = pascal_static_D(w->one), diff = D != pascal_static_D(w->st);
    for (int64_t k = 0; !diff && k < D; k++)
        diff |= pascal_static_gaps(w->one)[k] != pascal_static_gaps(w->st)[k];
    for (int64_t m = 0; !diff && m < M; m++)
        diff |= pascal_static_rd(w->one)[m] != pascal_static_rd(w->st)[m] ||
                pascal_static_delta_num(w->one)[m] != pascal_static_delta_num(w->st)[m];
    double a = pascal_static_k_lru(w->st, C) + (fault && N >= 4 && D >= 2 ? 1 : 0);
    diff |= a != pascal_static_k_lru(w->one, C) ||
            pascal_static_k_ttl(w->st, C) != pascal_static_k_ttl(w->one, C) ||
            pascal_static_residency(w->st, C) != pascal_static_residency(w->one, C);
    return (int)diff;
}

/* ---- the campaign half ---------------------------------------------------------- */

static int mcase_less(const pascal_validate_result *r, const pascal_vcase *a,
                      const pascal_vcase *b)
{
    if (a->N != b->N) return a->N < b->N;
    if (a->M != b->M) return a->M < b->M;
    if (a->C != b->C) return a->C < b->C;
    if (a->S != b->S) return a->S < b->S;
    for (int64_t i = 0; i < a->S + 2 * a->M; i++) {
        int64_t x = r->mdata[a->phase_off + i], y = r->mdata[b->phase_off + i];
        if (x != y)
            return x < y;
    }
    return 0;
}

static void tally(pascal_validate_result *r)
{
    r->msmallest = -1;
    for (int64_t i = 0; i < r->nmcases; i++) {
        const pascal_vcase *c = &r->mcases[i];
        for (int k = MS_FIRST; k <= PASCAL_VCHECK_MS_BELADY; k++) {
            if (k == PASCAL_VCHECK_MS_BAND && c->D > c->C)
                continue;
            r->checked[k]++;
            r->failed[k] += (c->failed >> k) & 1u;
        }
        if (c->failed && (r->msmallest < 0 || mcase_less(r, c, &r->mcases[r->msmallest])))
            r->msmallest = i;
    }
}

/* The cases' team: each thread keeps its own counts and adds them in at
 * the end (sums: order-independent). */
typedef struct cases_team {
    pascal_validate_result *r;
    int64_t max_R, max_S, max_N;
    int fault, fault_one, nomem, bad;
    int64_t ones, one_failed;
} cases_team;

static void cases_body(void *ctx)
{
    cases_team *t = ctx;
    pascal_validate_result *r = t->r;
    int64_t ones = 0, one_failed = 0;
    mws w;
    if (mws_alloc(&w, t->max_R, t->max_S * t->max_N, t->max_N, t->max_S) != 0) {
#pragma omp atomic write
        t->nomem = 1;
    }
#pragma omp for schedule(dynamic, 16)
    for (int64_t i = 0; i < r->nmcases; i++)
        if (!t->nomem && eval_mcase(&w, r, &r->mcases[i], t->fault) != 0) {
#pragma omp atomic write
            t->bad = 1;
        }
#pragma omp for schedule(dynamic, 16)
    for (int64_t i = 0; i < r->ncases; i++) {
        if (t->nomem)
            continue;
        int d = one_stream_differs(&w, r, &r->cases[i], t->fault_one);
        ones++;
        one_failed += d;
        if (d)
            r->cases[i].failed |= 1u << PASCAL_VCHECK_MS_ONE;
    }
    mws_free(&w);
#pragma omp atomic
    t->ones += ones;
#pragma omp atomic
    t->one_failed += one_failed;
}

static int run_cases(pascal_validate_result *r, int threads)
{
    const pascal_validate_opts *o = &r->opts;
    int64_t max_N = o->multi_seeded_cases > 0 && o->multi_max_N > EX2_MAX_N ? o->multi_max_N : EX2_MAX_N;
    int64_t max_S = o->multi_seeded_cases > 0 && o->multi_max_S > 3 ? o->multi_max_S : 3;
    int64_t max_R = max_S * SEED_MAX_M, one_R = 1, one_N = 2;
    int fault = o->fault >= 1 + MS_FIRST && o->fault <= 1 + PASCAL_VCHECK_MS_BELADY ? o->fault : 0;
    int fault_one = o->fault == 1 + PASCAL_VCHECK_MS_ONE;
    for (int64_t i = 0; i < r->ncases; i++) {
        one_R = r->cases[i].M > one_R ? r->cases[i].M : one_R;
        one_N = r->cases[i].N > one_N ? r->cases[i].N : one_N;
    }
    max_R = max_R > one_R ? max_R : one_R;
    cases_team t = {r, max_R, max_S, max_N, fault, fault_one, 0, 0, 0, 0};
    pascal_parallel(threads, cases_body, &t);
    r->checked[PASCAL_VCHECK_MS_ONE] = t.ones;
    r->failed[PASCAL_VCHECK_MS_ONE] = t.one_failed;
    return t.nomem ? PASCAL_ENOMEM : t.bad ? PASCAL_EINTERNAL : 0;
}

int pascal_validate_multi(pascal_validate_result *r, int threads)
{
    if (make_cases(r) != 0)
        return PASCAL_ENOMEM;
    int rc = run_cases(r, threads);
    if (rc == 0)
        tally(r);
    return rc;
}

void pascal_validate_multi_describe(const pascal_validate_result *r, int64_t i, char *buf,
                                    size_t len)
{
    const pascal_vcase *c = &r->mcases[i];
    const int64_t *d = r->mdata + c->phase_off;
    size_t used = (size_t)snprintf(buf, len, "S = %lld, N = [", (long long)c->S);
    for (int64_t s = 0; s < c->S && used < len; s++)
        used += (size_t)snprintf(buf + used, len - used, "%s%lld", s ? ", " : "", (long long)d[s]);
    if (used < len)
        used += (size_t)snprintf(buf + used, len - used, "], order ");
    for (int64_t g = 0; g < c->M && used < len; g++)
        used += (size_t)snprintf(buf + used, len - used, "%s%lld", g ? "," : "",
                                 (long long)d[c->S + g]);
    if (used < len)
        used += (size_t)snprintf(buf + used, len - used, ", phases ");
    for (int64_t g = 0; g < c->M && used < len; g++)
        used += (size_t)snprintf(buf + used, len - used, "%s%lld", g ? "," : "",
                                 (long long)d[c->S + c->M + g]);
    if (used < len)
        snprintf(buf + used, len - used, ", C = %lld", (long long)c->C);
}
