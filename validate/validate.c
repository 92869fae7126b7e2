/* The validation campaign (validate.h): the case list (exhaustive, then
 * seeded), the parallel evaluation of the static cases, the progress checks,
 * the smallest failing case, and the optional HDF5 file. */
#include "validate/validate.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/clock.h"
#include "engine/parallel.h"
#include "model/phases.h"
#include "output/fs/lock.h"
#include "output/fs/tmpfile.h"

/* The paper's enumeration (section 5.2). */
#define EX_MIN_N 2
#define EX_MAX_N 6
#define EX_MAX_M 3
#define KEY_SEEDED 0x7365656465644bULL

const char *const pascal_vcheck_names[PASCAL_VCHECK_COUNT] = {
    "rd", "lru", "sdcm", "set", "band", "ttl", "belady", "thm5", "thm5_sharp", "thm6",
    "ms_rd", "ms_lru", "ms_ttl", "ms_band", "ms_belady", "ms_one",
};

const char *const pascal_vcheck_descriptions[PASCAL_VCHECK_COUNT] = {
    "reuse distances: eq. 15 symbolic = warmed trace-derived",
    "exact LRU: K_lru from eq. 15 = LRU replay",
    "SDCM-FA (eq. 6, A = B = C) = LRU replay",
    "one-set C-way set-associative replay = LRU replay",
    "Theorem 3: K(T*+1) <= LRU replay <= K(T*-1), D <= C",
    "Theorem 2: K(T*) = slotted-TTL replay, occupancy U(T*) <= C",
    "Theorem 4: Belady, empty 6N-round trace >= M - V(C) - N/H",
    "Theorem 5: random histories keep sharing at C = 2 sigma - 1",
    "Theorem 5 sharpness: N = 2s, C = 2s - 2 loses sharing",
    "Theorem 6: eq. 10 iterated -> P_d (eq. 11)",
    "streams: eq. 15 over every stream's blocks = trace-derived",
    "streams: K_lru and each stream's share = LRU replay",
    "streams: shared T*: K(T*) = TTL replay, sum of U_s(T*) <= C",
    "streams: Theorem 3 band, whole and per stream, D <= C",
    "streams: Belady, empty 6 Nmax-round trace >= R - V(C) - N/H",
    "streams: S = 1 description = single-stream workspace",
};

int pascal_vcheck_from_name(const char *name)
{
    for (int i = 0; i < PASCAL_VCHECK_COUNT; i++)
        if (name && strcmp(name, pascal_vcheck_names[i]) == 0)
            return i;
    return -1;
}

void pascal_validate_defaults(pascal_validate_opts *o)
{
    memset(o, 0, sizeof *o);
    o->seed = 1;
    o->seeded_cases = 500;
    o->max_N = 256;
    o->max_M = 32;
    o->histories = 200;
    o->sharp_max_s = 32;
    o->thm6_steps = 100000;
    o->multi_seeded_cases = 300;
    o->multi_max_S = 6;
    o->multi_max_N = 48;
}

static int64_t ipow(int64_t b, int64_t e)
{
    int64_t p = 1;
    while (e-- > 0)
        p *= b;
    return p;
}

/* 2254 for the paper's bounds: sum over N, M of N^M (N - 1). */
static int64_t exhaustive_count(void)
{
    int64_t n = 0;
    for (int64_t N = EX_MIN_N; N <= EX_MAX_N; N++)
        for (int64_t M = 1; M <= EX_MAX_M; M++)
            n += ipow(N, M) * (N - 1);
    return n;
}

static void add_case(pascal_validate_result *r, int family, int64_t N, int64_t M,
                     int64_t C, int64_t *off)
{
    pascal_vcase *c = &r->cases[r->ncases++];
    memset(c, 0, sizeof *c);
    c->family = family;
    c->N = N;
    c->M = M;
    c->C = C;
    c->phase_off = *off;
    *off += M;
}

/* Every phase vector (digit m of the code, base N, is s_m) at every C. */
static void make_exhaustive(pascal_validate_result *r, int64_t *off)
{
    for (int64_t N = EX_MIN_N; N <= EX_MAX_N; N++)
        for (int64_t M = 1; M <= EX_MAX_M; M++)
            for (int64_t code = 0; code < ipow(N, M); code++)
                for (int64_t C = 1; C < N; C++) {
                    int64_t *ph = r->phases + *off;
                    for (int64_t m = 0, x = code; m < M; m++, x /= N)
                        ph[m] = x % N;
                    add_case(r, PASCAL_VFAMILY_EXHAUSTIVE, N, M, C, off);
                }
}

/* Seeded case i: sizes, pattern and capacity drawn from (seed, i); case 0
 * is the largest (N = max_N, M = max_M). */
static void make_seeded_case(pascal_validate_result *r, int64_t i, int64_t *off)
{
    const pascal_validate_opts *o = &r->opts;
    uint64_t key = pascal_rng_mix(KEY_SEEDED, (uint64_t)i), s = o->seed;
    int64_t N = 2 + (int64_t)(pascal_rng_u64(s, key, 0) % (uint64_t)(o->max_N - 1));
    int64_t M = 1 + (int64_t)(pascal_rng_u64(s, key, 1) % (uint64_t)o->max_M);
    if (i == 0) {
        N = o->max_N;
        M = o->max_M;
    }
    static const pascal_pattern_kind kinds[] = {
        PASCAL_PATTERN_ALIGNED, PASCAL_PATTERN_CLUSTERS, PASCAL_PATTERN_EQUAL,
        PASCAL_PATTERN_UNIFORM, PASCAL_PATTERN_GAUSSIAN, PASCAL_PATTERN_LAG};
    pascal_pattern pat = {0};
    pat.kind = kinds[pascal_rng_u64(s, key, 2) % 6];
    pat.clusters = 1 + (int64_t)(pascal_rng_u64(s, key, 3) % (uint64_t)M);
    pat.spread = (int64_t)(pascal_rng_u64(s, key, 4) % (uint64_t)(N / pat.clusters + 1));
    pat.sigma = pascal_rng_uniform(s, key, 5) * (double)N / 4.0;
    pat.lag = (int64_t)(pascal_rng_u64(s, key, 6) % (uint64_t)N);
    pat.seed = s;
    pat.key = key;
    int64_t C = 1 + (int64_t)(pascal_rng_u64(s, key, 7) % (uint64_t)(N - 1));
    if (pascal_phases_generate(&pat, N, M, r->phases + *off) != 0)
        for (int64_t m = 0; m < M; m++)   /* unreachable for these draws */
            r->phases[*off + m] = 0;
    add_case(r, PASCAL_VFAMILY_SEEDED, N, M, C, off);
}

static int check_opts(const pascal_validate_opts *o, pascal_error *err)
{
    if (o->seeded_cases < 0 || o->seeded_cases > 10000000)
        return pascal_error_set(err, PASCAL_EINPUT, "seeded cases: expected 0..10000000, "
                                "got %lld", (long long)o->seeded_cases);
    if (o->max_N < 2 || o->max_N > 65536 || o->max_M < 1 || o->max_M > 4096)
        return pascal_error_set(err, PASCAL_EINPUT, "seeded sizes: expected 2 <= N <= 65536 "
                                "and 1 <= M <= 4096, got N <= %lld, M <= %lld",
                                (long long)o->max_N, (long long)o->max_M);
    if (o->thm6_steps < 10 || o->histories < 0 || o->sharp_max_s > 100000)
        return pascal_error_set(err, PASCAL_EINPUT, "progress checks: expected at least 10 "
                                "recurrence steps, histories >= 0 and s <= 100000");
    if (o->multi_seeded_cases < 0 || o->multi_seeded_cases > 1000000 || o->multi_max_S < 2 ||
        o->multi_max_S > 64 || o->multi_max_N < 1 || o->multi_max_N > 4096)
        return pascal_error_set(err, PASCAL_EINPUT, "multi-stream cases: expected 0..1000000 "
                                "cases with 2 <= S <= 64 and 1 <= N <= 4096, got %lld cases, S <= "
                                "%lld, N <= %lld", (long long)o->multi_seeded_cases,
                                (long long)o->multi_max_S, (long long)o->multi_max_N);
    if (o->fault < 0 || o->fault > PASCAL_VCHECK_COUNT ||
        o->fault == 1 + PASCAL_VCHECK_THM5 || o->fault == 1 + PASCAL_VCHECK_THM5_SHARP)
        return pascal_error_set(err, PASCAL_EINPUT, "fault: expected a static check or "
                                "thm6, got %d", o->fault);
    return 0;
}

static pascal_validate_result *make_cases(const pascal_validate_opts *o)
{
    pascal_validate_result *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    int64_t nex = exhaustive_count(), n = nex + o->seeded_cases;
    int64_t nph = nex * EX_MAX_M + o->seeded_cases * o->max_M;
    r->opts = *o;
    r->smallest = -1;
    r->msmallest = -1;
    r->cases = malloc((size_t)n * sizeof *r->cases);
    r->phases = malloc((size_t)nph * sizeof *r->phases);
    if (!r->cases || !r->phases) {
        pascal_validate_free(r);
        return NULL;
    }
    int64_t off = 0;
    make_exhaustive(r, &off);
    r->n_exhaustive = r->ncases;
    for (int64_t i = 0; i < o->seeded_cases; i++)
        make_seeded_case(r, i, &off);
    r->n_seeded = r->ncases - r->n_exhaustive;
    return r;
}

void pascal_validate_free(pascal_validate_result *r)
{
    if (!r)
        return;
    free(r->cases);
    free(r->phases);
    free(r->mcases);
    free(r->mdata);
    free(r);
}

typedef struct static_team {
    pascal_validate_result *r;
    int64_t max_N, max_M;
    int nomem, bad;
} static_team;

static void static_body(void *ctx)
{
    static_team *t = ctx;
    pascal_validate_result *r = t->r;
    pascal_vws *w = pascal_vws_create(t->max_N, t->max_M);
    if (!w) {
#pragma omp atomic write
        t->nomem = 1;
    }
#pragma omp for schedule(dynamic, 8)
    for (int64_t i = 0; i < r->ncases; i++) {
        pascal_vcase *c = &r->cases[i];
        if (w && pascal_validate_case(w, r->phases + c->phase_off, r->opts.fault, c) != 0) {
#pragma omp atomic write
            t->bad = 1;
        }
    }
    pascal_vws_free(w);
}

static int run_static(pascal_validate_result *r, int threads)
{
    const pascal_validate_opts *o = &r->opts;
    static_team t = {r, EX_MAX_N, EX_MAX_M, 0, 0};
    if (r->n_seeded > 0) {
        t.max_N = o->max_N > t.max_N ? o->max_N : t.max_N;
        t.max_M = o->max_M > t.max_M ? o->max_M : t.max_M;
    }
    pascal_parallel(threads, static_body, &t);
    return t.nomem ? PASCAL_ENOMEM : t.bad ? PASCAL_EINTERNAL : 0;
}

/* Lexicographic on (N, M, C, phases): the smallest ring first. */
static int case_less(const pascal_validate_result *r, const pascal_vcase *a,
                     const pascal_vcase *b)
{
    if (a->N != b->N) return a->N < b->N;
    if (a->M != b->M) return a->M < b->M;
    if (a->C != b->C) return a->C < b->C;
    for (int64_t m = 0; m < a->M; m++) {
        int64_t x = r->phases[a->phase_off + m], y = r->phases[b->phase_off + m];
        if (x != y)
            return x < y;
    }
    return 0;
}

static void tally(pascal_validate_result *r)
{
    r->belady_min_slack = INFINITY;
    for (int64_t i = 0; i < r->ncases; i++) {
        const pascal_vcase *c = &r->cases[i];
        for (int k = 0; k <= PASCAL_VCHECK_BELADY; k++) {
            if (k == PASCAL_VCHECK_BAND && c->D > c->C)
                continue;
            r->checked[k]++;
            r->failed[k] += (c->failed >> k) & 1u;
        }
        double slack = c->v[PASCAL_VCOL_K_BELADY] - c->v[PASCAL_VCOL_K_BOUND];
        if (slack < r->belady_min_slack)
            r->belady_min_slack = slack;
        if (c->failed && (r->smallest < 0 || case_less(r, c, &r->cases[r->smallest])))
            r->smallest = i;
    }
    r->ok = 1;
    for (int k = 0; k < PASCAL_VCHECK_COUNT; k++)
        if (r->failed[k])
            r->ok = 0;
}

void pascal_validate_point_command(const pascal_validate_result *r, int64_t i,
                                   char *buf, size_t len)
{
    const pascal_vcase *c = &r->cases[i];
    size_t used = (size_t)snprintf(buf, len, "pascal point --N %lld --C %lld --phases ",
                                   (long long)c->N, (long long)c->C);
    for (int64_t m = 0; m < c->M && used < len; m++)
        used += (size_t)snprintf(buf + used, len - used, "%s%lld", m ? "," : "",
                                 (long long)r->phases[c->phase_off + m]);
    if (used < len)
        snprintf(buf + used, len - used, " --assoc %lld --horizon %lld", (long long)c->C,
                 (long long)(6 * c->N));
}

static int run_claimed(const pascal_validate_opts *o, int threads, double t0,
                       pascal_validate_result **out, pascal_error *err);

int pascal_validate_run(const pascal_validate_opts *o, pascal_validate_result **out,
                        pascal_error *err)
{
    double t0 = pascal_now();
    int threads = pascal_parallel_threads(o->threads), rc;
    pascal_lock *lock = NULL;
    *out = NULL;
    if ((rc = check_opts(o, err)))
        return rc;
    /* Before any work: no one else writes the output (output/fs/lock.h). */
    if (o->out_path &&
        (rc = pascal_output_claim(o->out_path, NULL, 0,
                                  o->command_line ? o->command_line : "pascal validate", &lock,
                                  err)) != 0)
        return rc;
    if (o->out_path)
        pascal_tmpfile_clean(o->out_path, NULL);
    rc = run_claimed(o, threads, t0, out, err);
    pascal_output_release(lock);
    return rc;
}

static int run_claimed(const pascal_validate_opts *o, int threads, double t0,
                       pascal_validate_result **out, pascal_error *err)
{
    pascal_validate_result *r;
    double t1;
    int rc;
    if (o->out_path && (rc = pascal_validate_probe(o->out_path, err)))
        return rc;
    if (!(r = make_cases(o)))
        return pascal_error_set(err, PASCAL_ENOMEM, "out of memory for the case list");
    r->threads = threads;
    rc = run_static(r, threads);
    if (rc == 0)
        rc = pascal_validate_multi(r, threads);
    t1 = pascal_now();
    r->static_seconds = t1 - t0;
    if (rc == 0)
        rc = pascal_validate_progress(o, threads, r);
    r->progress_seconds = pascal_now() - t1;
    if (rc != 0) {
        pascal_validate_free(r);
        return pascal_error_set(err, rc, rc == PASCAL_ENOMEM ? "out of memory for the "
                                "validation workspaces" : "a validation case could not be "
                                "evaluated");
    }
    tally(r);
    r->seconds = pascal_now() - t0;
    if (o->out_path && (rc = pascal_validate_write(r, o->out_path, o->command_line, err))) {
        pascal_validate_free(r);
        return rc;
    }
    *out = r;
    return 0;
}
