/* Sizing targets, the monotonicity of every column in the capacity, and the
 * `search:` section.  See search.h. */
#include "sweeps/search.h"
#include "sweeps/spec_internal.h"

#include "common/suggest.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct spec_search {
    pascal_search pub;
    yml_mark mark;
};

#define DOWN PASCAL_MONO_DOWN
#define UP PASCAL_MONO_UP
#define NONE PASCAL_MONO_NONE

/* Why each column is, or is not, monotone in C with everything else fixed.
 * The models replay or evaluate one fixed trace per point, so "monotone"
 * is about that trace. */
const pascal_monotone_info pascal_search_monotone[] = {
    {PASCAL_COL_D, NONE, "D counts distinct phases: it does not depend on C"},
    {PASCAL_COL_THETA, NONE, "theta is NaN from C = N on (no finite window), so no target on it holds "
                             "monotonically"},
    {PASCAL_COL_T_STAR, NONE, "T* is NaN from C = N on (no finite window), so no target on it holds "
                              "monotonically"},
    {PASCAL_COL_K_TTL, DOWN, "Theorem 2: K(T*) with T* = floor(theta) non-decreasing in C (eq. 3) and "
                             "K(t) = #{g_i > t} non-increasing in t; 0 from C = N"},
    {PASCAL_COL_RHO_TTL, DOWN, "K_ttl / M (Theorem 2)"},
    {PASCAL_COL_K_LRU_LO, DOWN, "Theorem 3: K(T*+1), non-increasing as T* grows; NaN while D > C"},
    {PASCAL_COL_K_LRU_HI, DOWN, "Theorem 3: K(T*-1), non-increasing as T* grows; NaN while D > C"},
    {PASCAL_COL_K_LRU, DOWN, "LRU's stack property (eq. 15, Mattson): a request hits iff RD < C, so "
                             "#{RD >= C} never grows with C"},
    {PASCAL_COL_RHO_LRU, DOWN, "K_lru / M (stack property)"},
    {PASCAL_COL_K_SDCM, DOWN, "eq. 6: P(hit | R) = P(Binomial(R, A/C) < A) rises as A/C falls, and is "
                              "1{R < C} for C <= A (computed in floating point: exact up to rounding)"},
    {PASCAL_COL_RHO_SDCM, DOWN, "K_sdcm / M (eq. 6)"},
    {PASCAL_COL_V, UP, "Theorem 4: V(C) is a fractional knapsack whose budget is C"},
    {PASCAL_COL_K_BOUND, DOWN, "Theorem 4: M - V(C) (less N/H), V non-decreasing"},
    {PASCAL_COL_RHO_BOUND, DOWN, "K_bound / M (Theorem 4)"},
    {PASCAL_COL_RHO_CHE, DOWN, "Che/IRM: 1 - C/N for C < N, 0 beyond (monotone, though blind to phases)"},
    {PASCAL_COL_K_CHE, DOWN, "M (1 - C/N), the Che/IRM baseline"},
    {PASCAL_COL_MARGIN, NONE, "Proposition 7 counts gaps within (D+1) eps of theta: it rises and falls as "
                              "theta passes the gaps"},
    {PASCAL_COL_C_SHARE, NONE, "Theorem 5's capacity 2 lead - 1 does not depend on C"},
    {PASCAL_COL_SHARES, UP, "Theorem 5: 1 when C >= 2 lead - 1, else 0"},
    {PASCAL_COL_P_HIT, NONE, "Theorem 6's issue period does not depend on C"},
    {PASCAL_COL_P_MISS, NONE, "Theorem 6's issue period does not depend on C"},
    {PASCAL_COL_G, NONE, "Theorem 6's gain does not depend on C"},
    {PASCAL_COL_K_LRU_REPLAY, DOWN, "replayed LRU: the stack property, as K_lru"},
    {PASCAL_COL_RHO_LRU_REPLAY, DOWN, "K_lru_replay / M (stack property)"},
    {PASCAL_COL_K_BELADY, DOWN, "Belady/OPT is a stack algorithm (Mattson et al. 1970): on one trace its "
                                "misses never grow with C"},
    {PASCAL_COL_RHO_BELADY, DOWN, "K_belady / M (OPT's inclusion property)"},
    {PASCAL_COL_K_DYN, DOWN, "inside the calibration's capacities: one over several capacities "
                             "never increases with C between its smallest and largest (the "
                             "capacities' answers projected to non-increasing, then linear in log "
                             "C) and is NaN outside (fallback 16); a one-capacity calibration "
                             "answers at its C only (fallback 13 elsewhere); a search stays inside"},
    {PASCAL_COL_RHO_DYN, DOWN, "K_dyn / M, M fixed (see K_dyn): a search stays inside the "
                               "calibration's capacities"},
    {PASCAL_COL_BAND_LO, NONE, "the calibration is one device's cache (see rho_dyn)"},
    {PASCAL_COL_BAND_HI, NONE, "the calibration is one device's cache (see rho_dyn)"},
    {PASCAL_COL_FALLBACK, NONE, "a rule code, not a quantity"},
    /* A workload's columns (docs/workloads.md).  A workload spec is refused
     * for a search (pascal_search_check); these rows say why for each. */
    {PASCAL_COL_STREAMS, NONE, "the workload's shape: it does not depend on C"},
    {PASCAL_COL_UNITS, NONE, "the workload's shape: it does not depend on C"},
    {PASCAL_COL_CTAS, NONE, "the workload's grid: it does not depend on C"},
    {PASCAL_COL_SHARERS_A, NONE, "the workload's grid: it does not depend on C"},
    {PASCAL_COL_SHARERS_B, NONE, "the workload's grid: it does not depend on C"},
    {PASCAL_COL_WAVES, NONE, "ceil(ctas / M): it does not depend on C"},
    {PASCAL_COL_REQUESTS, NONE, "the kernel's block requests: they do not depend on C"},
    {PASCAL_COL_IDEAL_BYTES, NONE, "every block fetched once: it does not depend on C"},
    {PASCAL_COL_TENSOR_BYTES, NONE, "the operands' bytes: they do not depend on C"},
    {PASCAL_COL_FILL_BYTES_LRU, NONE, "summed over the kernel's waves, each cold or warm by a rule of its "
                                      "own: not shown monotone in C"},
    {PASCAL_COL_TRAFFIC_LRU, NONE, "fill_bytes_lru / ideal: not shown monotone in C"},
    {PASCAL_COL_FILL_BYTES_TTL, NONE, "summed over the kernel's waves: not shown monotone in C"},
    {PASCAL_COL_TRAFFIC_TTL, NONE, "fill_bytes_ttl / ideal: not shown monotone in C"},
    {PASCAL_COL_FILL_BYTES_BOUND, NONE, "summed over the kernel's waves: not shown monotone in C"},
    {PASCAL_COL_TRAFFIC_BOUND, NONE, "fill_bytes_bound / ideal: not shown monotone in C"},
    {PASCAL_COL_FILL_BYTES_DYN, NONE, "the calibration is one device's cache (see rho_dyn)"},
    {PASCAL_COL_TRAFFIC_DYN, NONE, "the calibration is one device's cache (see rho_dyn)"},
    {PASCAL_COL_FILL_BYTES_REPLAY, DOWN, "an exact, fully associative LRU replay of the kernel's one "
                                         "trace, which does not depend on C: the stack property (Mattson), "
                                         "a request hits iff its reuse distance < C"},
    {PASCAL_COL_TRAFFIC_REPLAY, DOWN, "fill_bytes_replay / ideal, ideal fixed (the stack property)"},
    {PASCAL_COL_CLAMP_X, NONE, "the calibration's nearest horizon: it does not depend on C"},
    {PASCAL_COL_CLAMP_COMPUTE, NONE, "the calibration's nearest compute: it does not depend on C"},
    {PASCAL_COL_CLAMP_DEPTH, NONE, "the calibration's nearest depth: it does not depend on C"},
    /* The simulator (model simulate): its timing decides which requests
     * meet in flight, and that interleaving changes with C. */
    {PASCAL_COL_K_SIM, NONE, "an event-driven simulation whose timing, and so its interleaving of "
                             "requests, changes with C: not shown monotone"},
    {PASCAL_COL_RHO_SIM, NONE, "K_sim / M: not shown monotone in C (see K_sim)"},
    {PASCAL_COL_NS_PER_ROUND_SIM, NONE, "simulated time, not a miss count: faster with fewer misses, but "
                                        "not shown monotone in C"},
    {PASCAL_COL_FILL_BYTES_SIM, DOWN, "the simulator over a workload's kernel: not shown monotone in C "
                                      "(see K_sim), so a search probes it and reports where it rises"},
    {PASCAL_COL_TRAFFIC_SIM, DOWN, "fill_bytes_sim / ideal: not shown monotone in C, probed"},
    /* The answer is the replay's where the replay answers (a search checks
     * that the spec has lru_replay or simulate), the simulator's, probed,
     * where the simulator does. */
    {PASCAL_COL_ANSWER_FILL_BYTES, DOWN, "where the exact replay answers (lru_replay without "
                                         "simulate): the stack property, as fill_bytes_replay; "
                                         "where the simulator answers: probed"},
    {PASCAL_COL_ANSWER_TRAFFIC, DOWN, "where the exact replay answers (lru_replay without "
                                      "simulate): answer_fill_bytes / ideal, ideal fixed; where the "
                                      "simulator answers: probed"},
    {PASCAL_COL_ANSWER_SOURCE, NONE, "a code naming who answered, not a quantity"},
    {PASCAL_COL_FILL_BYTES_REPLAY_ANY, DOWN, "an exact LRU replay of one trace (its order drawn once "
                                             "from seed), which does not depend on C: the stack "
                                             "property"},
    {PASCAL_COL_TRAFFIC_REPLAY_ANY, DOWN, "fill_bytes_replay_any / ideal, ideal fixed (the stack "
                                          "property)"},
    {PASCAL_COL_FLOPS, NONE, "the kernel's work: it does not depend on C"},
    {PASCAL_COL_TIME_COMPUTE_S, NONE, "the compute floor: it does not depend on C"},
    {PASCAL_COL_TIME_L2_S, NONE, "the L2 floor: requested bytes do not depend on C"},
    {PASCAL_COL_TIME_DRAM_S, NONE, "answer_fill_bytes over a rate: as monotone as the answer, which "
                                   "a search of answer_traffic checks"},
    {PASCAL_COL_TIME_BOUND_S, NONE, "a maximum of floors, one of them the DRAM's: see time_dram_s"},
    {PASCAL_COL_BOUND_TERM, NONE, "a code naming the binding floor, not a quantity"},
    {PASCAL_COL_ANSWER_TRAFFIC_LO, DOWN, "the lock-step replay where the replay answers (the stack "
                                         "property); below the simulator's answer: probed"},
    {PASCAL_COL_TIME_SIM_S, NONE, "the simulator's makespan: not a miss count, not shown monotone in C"},
    {PASCAL_COL_ENERGY_DRAM_J, NONE, "answer_fill_bytes times a cost: as monotone as the answer, which "
                                     "a search of answer_traffic sizes"},
    {PASCAL_COL_ENERGY_L2_J, NONE, "the L2 reads' energy: requested bytes do not depend on C"},
    {PASCAL_COL_ENERGY_J, NONE, "a sum with energy_dram_j: see it"},
    {PASCAL_COL_AREA_L2_MM2, NONE, "the capacity's area: it grows with C by definition; size on the "
                                   "traffic and read the area there"},
    {PASCAL_COL_KV_SPLITS, NONE, "the kernel's launch: it does not depend on C"},
    {PASCAL_COL_PARTIAL_BYTES, NONE, "the split kernel's partial outputs: they do not depend on C"},
    {PASCAL_COL_FILL_BYTES_EXACT, DOWN, "an exact LRU replay in bytes of the kernel's one trace: a "
                                        "request hits iff its need (its bytes and those of the "
                                        "distinct blocks since) <= capacity_bytes (the stack property)"},
    {PASCAL_COL_TRAFFIC_EXACT, DOWN, "fill_bytes_exact / ideal_bytes_exact, ideal fixed (the stack "
                                     "property)"},
    {PASCAL_COL_IDEAL_BYTES_EXACT, NONE, "the bytes read once: they do not depend on C"},
    {PASCAL_COL_WRITE_BYTES_EXACT, NONE, "the bytes written: they do not depend on C"},
    {PASCAL_COL_ANSWER_TRAFFIC_HI, DOWN, "a percentile of free-running simulations (with simulate): "
                                         "not shown monotone in C, probed"},
    {PASCAL_COL_STEP_TOKENS, NONE, "the step's tokens: they do not depend on C"},
    {PASCAL_COL_TOKENS_PER_S_BOUND, NONE, "over a sum of per-kernel floors, not shown monotone in C; "
                                          "size on answer_traffic and read it there"},
    {PASCAL_COL_FILL_BYTES_PER_TOKEN, NONE, "answer_fill_bytes over the tokens: size on answer_traffic"},
    {PASCAL_COL_ENERGY_PER_TOKEN_J, NONE, "energy_j over the tokens: see energy_j"},
    {PASCAL_COL_FILL_BYTES_PER_SEQUENCE, NONE, "answer_fill_bytes over the batch: size on "
                                               "answer_traffic"},
    {PASCAL_COL_ENERGY_PER_SEQUENCE_J, NONE, "energy_j over the batch: see energy_j"},
    {PASCAL_COL_FILL_BYTES_QKV_PROJ, NONE, "one kernel's share of the step: size on answer_traffic"},
    {PASCAL_COL_FILL_BYTES_ATTENTION, NONE, "one kernel's share of the step: size on answer_traffic"},
    {PASCAL_COL_FILL_BYTES_O_PROJ, NONE, "one kernel's share of the step: size on answer_traffic"},
    {PASCAL_COL_FILL_BYTES_GATE_UP_PROJ, NONE, "one kernel's share of the step: size on answer_traffic"},
    {PASCAL_COL_FILL_BYTES_DOWN_PROJ, NONE, "one kernel's share of the step: size on answer_traffic"},
    {PASCAL_COL_FILL_BYTES_LM_HEAD, NONE, "one kernel's share of the step: size on answer_traffic"},
    {PASCAL_COL_FILL_BYTES_CHAINED, DOWN, "exact LRU replays in bytes of the step's one program, "
                                          "summed with positive weights: each request hits iff its "
                                          "need <= capacity_bytes (the stack property)"},
    {PASCAL_COL_TRAFFIC_CHAINED, DOWN, "fill_bytes_chained over bytes that do not depend on C"},
    {PASCAL_COL_REUSE_BYTES, NONE, "a difference of two replays: not shown monotone in C"},
};
const int pascal_search_nmonotone = (int)(sizeof pascal_search_monotone / sizeof pascal_search_monotone[0]);

int pascal_search_probed(int column, unsigned models)
{
    int answer = column == PASCAL_COL_ANSWER_FILL_BYTES || column == PASCAL_COL_ANSWER_TRAFFIC ||
                 column == PASCAL_COL_ANSWER_TRAFFIC_LO;
    int sim = column == PASCAL_COL_FILL_BYTES_SIM || column == PASCAL_COL_TRAFFIC_SIM ||
              column == PASCAL_COL_ANSWER_TRAFFIC_HI;
    return sim || (answer && (models >> PASCAL_MODEL_SIMULATE & 1u));
}

const pascal_monotone_info *pascal_search_monotone_of(int column)
{
    for (int i = 0; i < pascal_search_nmonotone; i++)
        if (pascal_search_monotone[i].column == column)
            return &pascal_search_monotone[i];
    return NULL;
}

static const char *const op_text[] = {"<=", "<", ">=", ">"};

int pascal_target_meets(const pascal_target *t, double v)
{
    switch (t->op) {
    case PASCAL_TARGET_LE: return v <= t->value;
    case PASCAL_TARGET_LT: return v < t->value;
    case PASCAL_TARGET_GE: return v >= t->value;
    default: return v > t->value;
    }
}

void pascal_target_format(const pascal_target *t, char *buf, size_t len)
{
    snprintf(buf, len, "%s %s %.15g", pascal_columns[t->column].name, op_text[t->op], t->value);
}

static int fail_at(pascal_error *err, size_t *off, size_t at, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int fail_at(pascal_error *err, size_t *off, size_t at, const char *fmt, ...)
{
    va_list ap;
    *off = at;
    va_start(ap, fmt);
    pascal_error_vset(err, PASCAL_EINPUT, fmt, ap);
    va_end(ap);
    return PASCAL_EINPUT;
}

/* The searchable columns, as a list for messages and as names for a
 * suggestion; returns how many. */
static int monotone_names(char *buf, size_t len, const char **names)
{
    size_t off = 0;
    int n = 0;
    buf[0] = '\0';
    for (int i = 0; i < pascal_search_nmonotone; i++)
        if (pascal_search_monotone[i].direction != NONE) {
            names[n] = pascal_columns[pascal_search_monotone[i].column].name;
            if (off < len)
                off += (size_t)snprintf(buf + off, len - off, "%s%s", off ? ", " : "", names[n]);
            n++;
        }
    return n;
}

/* The column: a name with a stated direction. */
static int parse_column(const char *s, size_t *p, pascal_target *t, size_t *off, pascal_error *err)
{
    size_t start = *p, n;
    char name[64], names[512], hint[96];
    const char *list[PASCAL_NCOLUMN];
    const pascal_monotone_info *m;
    int nlist;
    while (isalnum((unsigned char)s[*p]) || s[*p] == '_')
        (*p)++;
    n = *p - start;
    nlist = monotone_names(names, sizeof names, list);
    snprintf(name, sizeof name, "%.*s", (int)(n < 63 ? n : 63), s + start);
    t->column = n && n < 63 ? pascal_column_from_name(name) : -1;
    if (t->column < 0)
        return fail_at(err, off, start, "expected a result column that is monotone in C (%s), got \"%.*s\"%s",
                       names, (int)(n ? (n > 40 ? 40 : n) : strlen(s + start) > 20 ? 20 : strlen(s + start)),
                       s + start, pascal_suggest_hint(name, list, nlist, hint, sizeof hint));
    m = pascal_search_monotone_of(t->column);
    if (!m || m->direction == NONE)
        return fail_at(err, off, start, "expected a column that is monotone in C (%s), got %s: %s", names,
                       name, m ? m->why : "no monotonicity is stated for it");
    return 0;
}

static int parse_op(const char *s, size_t *p, pascal_target *t, size_t *off, pascal_error *err)
{
    int dir = pascal_search_monotone_of(t->column)->direction, k;
    size_t at = *p;
    const char *name = pascal_columns[t->column].name;
    for (k = 0; k < 4; k++)   /* "<=" before "<", ">=" before ">" */
        if (strncmp(s + at, op_text[k], strlen(op_text[k])) == 0)
            break;
    if (k == 4)
        return fail_at(err, off, at, "expected %s after %s, got \"%.10s\"", dir == DOWN ? "<= or <" : ">= or >",
                       name, s + at);
    if ((dir == DOWN) != (k <= PASCAL_TARGET_LT))
        return fail_at(err, off, at,
                       "expected %s for %s, which %s with C (a target the other way holds up to a capacity, "
                       "not from one), got %s", dir == DOWN ? "<= or <" : ">= or >", name,
                       dir == DOWN ? "does not increase" : "does not decrease", op_text[k]);
    t->op = k;
    *p += strlen(op_text[k]);
    return 0;
}

int pascal_target_parse(const char *s, pascal_target *t, size_t *off, pascal_error *err)
{
    size_t p = 0, start;
    char num[64], *end;
    int rc;
    *off = 0;
    while (isspace((unsigned char)s[p]))
        p++;
    if ((rc = parse_column(s, &p, t, off, err)))
        return rc;
    while (isspace((unsigned char)s[p]))
        p++;
    if ((rc = parse_op(s, &p, t, off, err)))
        return rc;
    while (isspace((unsigned char)s[p]))
        p++;
    start = p;
    while (s[p] && !isspace((unsigned char)s[p]))
        p++;
    snprintf(num, sizeof num, "%.*s", (int)(p - start < 63 ? p - start : 63), s + start);
    t->value = strtod(num, &end);
    if (p == start || (*end && pascal_size_parse(num, &t->value) != 0) || !isfinite(t->value))
        return fail_at(err, off, start, "expected a number after %s, got \"%s\"", op_text[t->op],
                       p == start ? "the end of the target" : num);
    while (isspace((unsigned char)s[p]))
        p++;
    if (s[p])
        return fail_at(err, off, p, "expected the end of the target, got \"%.20s\"", s + p);
    return 0;
}

/* ---- the spec side -------------------------------------------------------- */

int pascal_search_capacity_axis(const pascal_spec *spec)
{
    int found = -1;
    for (int a = 0; a < spec->naxes; a++) {
        if (spec->axes[a].param == PASCAL_P_C)
            return a;
        if (spec->axes[a].param == PASCAL_P_CAPACITY_BYTES)
            found = a;
    }
    return found;
}

static int check_rules(const pascal_spec *spec, const spec_rule *r, int n, pascal_error *err)
{
    const uint64_t cap = (UINT64_C(1) << PASCAL_P_C) | (UINT64_C(1) << PASCAL_P_CAPACITY_BYTES);
    for (int k = 0; k < n; k++)
        if (pascal_expr_params(r[k].expr) & cap)
            return yml_fail_mark(err, &r[k].mark, PASCAL_EINPUT,
                                  "expected a rule that does not read C or capacity_bytes, which a search "
                                  "varies, got \"%s\"", r[k].text);
    (void)spec;
    return 0;
}

int pascal_search_check(const pascal_spec *spec, const pascal_target *t, pascal_error *err)
{
    int a = pascal_search_capacity_axis(spec), rc;
    /* The columns of a workload point sum the kernel's waves, each cold or
     * warm by its own rule (docs/workloads.md): not shown monotone in C, so
     * bisection could return a wrong capacity.  The exact replay of the
     * kernel's trace is monotone (the stack property). */
    int answer = t && (t->column == PASCAL_COL_ANSWER_FILL_BYTES ||
                       t->column == PASCAL_COL_ANSWER_TRAFFIC || t->column == PASCAL_COL_ANSWER_TRAFFIC_LO);
    int who = pascal_answer_of_models(spec->models);
    if (answer && who != PASCAL_ANSWER_REPLAY && who != PASCAL_ANSWER_SIMULATE)
        return yml_fail_mark(err, &spec->models_mark, PASCAL_EINPUT,
                              "expected lru_replay or simulate for a search on %s, got models whose "
                              "answer is %s (%s): the estimate sums the kernel's waves and is not "
                              "shown monotone in C; add lru_replay to the models",
                              pascal_columns[t->column].name, pascal_answer_names[who],
                              pascal_columns[pascal_answer_columns[who]].name);
    if (t && t->column == PASCAL_COL_ANSWER_TRAFFIC_HI && who != PASCAL_ANSWER_SIMULATE)
        return yml_fail_mark(err, &spec->models_mark, PASCAL_EINPUT,
                              "expected simulate among the models for a search on answer_traffic_hi, "
                              "got models without it: the band's high end is the free-running "
                              "simulator's (NaN without it)");
    int sim = t && (t->column == PASCAL_COL_FILL_BYTES_SIM || t->column == PASCAL_COL_TRAFFIC_SIM ||
                    t->column == PASCAL_COL_ANSWER_TRAFFIC_HI);
    if (!isnan(spec->fixed.v[PASCAL_P_WORKLOAD]) && !answer && !sim &&
        !(t && (t->column == PASCAL_COL_FILL_BYTES_REPLAY || t->column == PASCAL_COL_TRAFFIC_REPLAY ||
                t->column == PASCAL_COL_FILL_BYTES_REPLAY_ANY ||
                t->column == PASCAL_COL_TRAFFIC_REPLAY_ANY ||
                t->column == PASCAL_COL_FILL_BYTES_EXACT || t->column == PASCAL_COL_TRAFFIC_EXACT)))
        return yml_fail_mark(err, &spec->src[PASCAL_P_WORKLOAD], PASCAL_EINPUT,
                              "expected a target on answer_traffic, answer_traffic_lo, "
                              "answer_traffic_hi, traffic_replay, traffic_replay_any, traffic_exact "
                              "or traffic_sim "
                              "for a search of a workload, got one on %s: a workload's other columns "
                              "sum its waves and are not shown monotone in C, so bisection could "
                              "miss (the exact replay is monotone: the stack property; the "
                              "simulator's columns are probed); or size it with `pascal run` over a "
                              "capacity_bytes axis (its summary's sizing lines)",
                              t ? pascal_columns[t->column].name : "no column");
    if ((rc = check_rules(spec, spec->where, spec->nwhere, err)) ||
        (rc = check_rules(spec, spec->require, spec->nrequire, err)))
        return rc;
    if (a < 0)
        return 0;
    for (int b = 0; b < spec->naxes; b++) {
        int p = spec->axes[b].param;
        if (spec->axes[b].dim == spec->axes[a].dim && p != PASCAL_P_C && p != PASCAL_P_CAPACITY_BYTES)
            return yml_fail_mark(err, &spec->src[spec->axes[a].param], PASCAL_EINPUT,
                                  "expected the capacity axis on a dimension of its own for a search, got "
                                  "it zipped with %s", pascal_params[p].name);
    }
    return 0;
}

const pascal_search *pascal_spec_search(const pascal_spec *spec)
{
    return spec->search ? &spec->search->pub : NULL;
}

void spec_search_free(struct spec_search *s)
{
    free(s);
}

static int parse_target(const spec_ctx *c, const yaml_node_t *val, pascal_target *t)
{
    const char *s = yml_scalar_text(val);
    pascal_error sub = {0};
    size_t off = 0;
    char got[96];
    int quoted;
    if (!s || yml_is_null(val) || strlen(s) != val->data.scalar.length) {
        yml_describe(val, got, sizeof got);
        return yml_fail(c->y, val, "search.target", PASCAL_EINPUT,
                         "expected a target like \"rho_lru <= 0.05\", got %s", got);
    }
    if (pascal_target_parse(s, t, &off, &sub) != 0) {
        quoted = val->data.scalar.style == YAML_SINGLE_QUOTED_SCALAR_STYLE ||
                 val->data.scalar.style == YAML_DOUBLE_QUOTED_SCALAR_STYLE;
        return pascal_error_set(c->y->err, PASCAL_EINPUT, "%s:%d:%d: search.target: %s", c->y->file,
                                (int)val->start_mark.line + 1,
                                (int)val->start_mark.column + 1 + (int)off + quoted, sub.msg);
    }
    if (!(c->spec->models & (1u << pascal_columns[t->column].model)))
        return yml_fail(c->y, val, "search.target", PASCAL_EINPUT,
                         "expected a column of the requested models, got %s (a column of model %s, which "
                         "is not in models)", pascal_columns[t->column].name,
                         pascal_models[pascal_columns[t->column].model].name);
    return 0;
}

int spec_parse_search(const spec_ctx *c, const yaml_node_t *node)
{
    static const char *const keys[] = {"target", "worst"};
    const yaml_node_pair_t *pr;
    struct spec_search *s;
    int have_target = 0, rc;
    if (yml_is_null(node))
        return 0;
    if ((rc = yml_check_mapping(c->y, node, "search", "a mapping like {target: \"rho_lru <= 0.05\"}", keys, 2)))
        return rc;
    if (!(s = calloc(1, sizeof *s)))
        return pascal_error_set(c->y->err, PASCAL_ENOMEM, "out of memory");
    c->spec->search = s;
    yml_mark_of(c->y, node, "search", &s->mark);
    for (pr = node->data.mapping.pairs.start; pr < node->data.mapping.pairs.top; pr++) {
        const char *key = yml_scalar_text(yml_node(c->y, pr->key));
        const yaml_node_t *val = yml_node(c->y, pr->value);
        const char *t = yml_scalar_text(val);
        char got[96];
        if (strcmp(key, "target") == 0) {
            have_target = 1;
            if ((rc = parse_target(c, val, &s->pub.target)))
                return rc;
            continue;
        }
        yml_describe(val, got, sizeof got);
        if (t && val->data.scalar.style == YAML_PLAIN_SCALAR_STYLE && strcmp(t, "true") == 0)
            s->pub.worst = 1;
        else if (!t || val->data.scalar.style != YAML_PLAIN_SCALAR_STYLE || strcmp(t, "false") != 0)
            return yml_fail(c->y, val, "search.worst", PASCAL_EINPUT,
                             "expected true (one answer: the scenario that needs the most capacity) or "
                             "false (one answer per scenario), got %s", got);
    }
    if (!have_target)
        return yml_fail(c->y, node, "search.target", PASCAL_EINPUT,
                         "expected a target like \"rho_lru <= 0.05\", got nothing (the key is missing)");
    return pascal_search_check(c->spec, &s->pub.target, c->y->err);
}
