/* The spec vocabulary: parameter, model and column tables, and sizes with
 * units.  See params.h. */
#include "sweeps/params.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const pascal_path_names[PASCAL_PATH_COUNT] = {"sync", "tma"};

#define INNER PASCAL_PF_INNER
#define POS PASCAL_PF_POSITIVE
#define NONNEG PASCAL_PF_NONNEG

const pascal_param_info pascal_params[PASCAL_NPARAM] = {
    [PASCAL_P_N] = {"N", PASCAL_T_INT, POS, "blocks", "blocks in the scanned ring"},
    [PASCAL_P_M] = {"M", PASCAL_T_INT, POS, "workers", "concurrent workers (resident CTAs)"},
    [PASCAL_P_C] = {"C", PASCAL_T_INT, POS | INNER, "blocks", "cache capacity in blocks"},
    [PASCAL_P_DATA_BYTES] = {"data_bytes", PASCAL_T_SIZE, POS, "bytes",
                             "bytes scanned per pass; N = data_bytes / block_bytes"},
    [PASCAL_P_CAPACITY_BYTES] = {"capacity_bytes", PASCAL_T_SIZE, POS | INNER, "bytes",
                                 "cache bytes; C = floor(capacity_bytes / block_bytes)"},
    [PASCAL_P_BLOCK_BYTES] = {"block_bytes", PASCAL_T_SIZE, POS, "bytes", "bytes per data block"},
    [PASCAL_P_SMS] = {"sms", PASCAL_T_INT, POS, "SMs", "streaming multiprocessors; M = sms * occupancy"},
    [PASCAL_P_OCCUPANCY] = {"occupancy", PASCAL_T_INT, POS, "CTAs/SM", "resident CTAs per SM"},
    [PASCAL_P_PATTERN] = {"pattern", PASCAL_T_PATTERN, 0, "",
                          "phase pattern: aligned, clusters, equal, uniform, gaussian, lag, explicit"},
    [PASCAL_P_CLUSTERS] = {"clusters", PASCAL_T_INT, POS, "clusters",
                           "clusters pattern: k equal clusters; worker m joins cluster m mod k"},
    [PASCAL_P_SPREAD] = {"spread", PASCAL_T_INT, NONNEG, "blocks",
                         "clusters pattern: members spread evenly over this many blocks"},
    [PASCAL_P_SIGMA] = {"sigma", PASCAL_T_REAL, NONNEG, "blocks",
                        "gaussian pattern: standard deviation of the wrapped Gaussian"},
    [PASCAL_P_LAG] = {"lag", PASCAL_T_INT, NONNEG, "blocks", "lag pattern: s_m = m * lag mod N"},
    [PASCAL_P_PHASES] = {"phases", PASCAL_T_PHASES, 0, "",
                         "explicit pattern: index of the phase list in /axes/phases"},
    [PASCAL_P_SEED] = {"seed", PASCAL_T_INT, NONNEG, "", "seed of the random patterns"},
    [PASCAL_P_ASSOC] = {"assoc", PASCAL_T_INT, POS | INNER, "ways", "SDCM associativity A (B = C lines)"},
    [PASCAL_P_HORIZON] = {"horizon", PASCAL_T_REAL, NONNEG | INNER, "rounds",
                          "finite trace length H for the residency bound (0: long run)"},
    [PASCAL_P_EPS] = {"eps", PASCAL_T_REAL, NONNEG | INNER, "blocks", "Prop. 7 gap perturbation"},
    [PASCAL_P_LEAD] = {"lead", PASCAL_T_INT, POS | INNER, "requests",
                       "Theorem 5: largest lead of any worker over another"},
    [PASCAL_P_ALPHA] = {"alpha", PASCAL_T_REAL, NONNEG | INNER, "ns", "Theorem 6: issue-to-wait cost"},
    [PASCAL_P_BETA] = {"beta", PASCAL_T_REAL, POS | INNER, "ns", "Theorem 6: release-to-refill cost"},
    [PASCAL_P_LAMBDA_HIT] = {"lambda_hit", PASCAL_T_REAL, NONNEG | INNER, "ns", "Theorem 6: hit latency"},
    [PASCAL_P_LAMBDA_MISS] = {"lambda_miss", PASCAL_T_REAL, NONNEG | INNER, "ns", "Theorem 6: miss latency"},
    [PASCAL_P_DEPTH] = {"depth", PASCAL_T_INT, POS | INNER, "buffers", "Theorem 6: pipeline depth d >= 2"},
    [PASCAL_P_ROUNDS] = {"rounds", PASCAL_T_INT, POS | INNER, "rounds",
                         "belady: rounds of the empty-cache trace (default 6 N)"},
    [PASCAL_P_PATH] = {"path", PASCAL_T_PATH, 0, "",
                       "dynamic: load path, sync (__ldcg; depth does not apply) or tma (depth = prefetch depth)"},
    [PASCAL_P_COMPUTE] = {"compute", PASCAL_T_INT, NONNEG, "ops/block", "dynamic: compute m per block"},
    [PASCAL_P_W] = {"W", PASCAL_T_REAL, POS, "scans/worker",
                    "dynamic: horizon W, CTA scans per resident worker (H = W N)"},
};

#define END -1
const pascal_model_info pascal_models[PASCAL_NMODEL] = {
    [PASCAL_MODEL_TTL] = {"ttl", "slotted TTL / working set, Theorem 2", {END}},
    [PASCAL_MODEL_LRU_BAND] = {"lru_band", "Theorem 3 LRU certificate (D <= C)", {END}},
    [PASCAL_MODEL_LRU] = {"lru", "exact fully associative LRU from symbolic reuse distances (eq. 15)", {END}},
    [PASCAL_MODEL_SDCM] = {"sdcm", "SDCM (eq. 6), A ways, B = C lines", {PASCAL_P_ASSOC, END}},
    [PASCAL_MODEL_RESIDENCY] = {"residency", "Theorem 4 policy-independent residency bound", {END}},
    [PASCAL_MODEL_CHE] = {"che", "Che / IRM phase-blind baseline", {END}},
    [PASCAL_MODEL_MARGIN] = {"margin", "Proposition 7 gap-margin count", {PASCAL_P_EPS, END}},
    [PASCAL_MODEL_SHARING] = {"sharing", "Theorem 5 capacity to preserve sharing", {PASCAL_P_LEAD, END}},
    [PASCAL_MODEL_CATCHUP] = {"catchup", "Theorem 6 catch-up limit",
                              {PASCAL_P_ALPHA, PASCAL_P_BETA, PASCAL_P_LAMBDA_HIT,
                               PASCAL_P_LAMBDA_MISS, PASCAL_P_DEPTH, END}},
    [PASCAL_MODEL_LRU_REPLAY] = {"lru_replay", "exact LRU by trace replay after N warm-up rounds (cross-check of lru)", {END}},
    [PASCAL_MODEL_BELADY] = {"belady", "Belady/OPT replay of the empty-cache trace of `rounds` rounds (default 6N)", {END}},
    [PASCAL_MODEL_DYNAMIC] = {"dynamic", "section 4 calibrated whole-run fills (spec key `calibration`)",
                              {PASCAL_P_OCCUPANCY, PASCAL_P_PATH, PASCAL_P_COMPUTE, PASCAL_P_W, END}},
};

const pascal_column_info pascal_columns[PASCAL_NCOLUMN] = {
    [PASCAL_COL_D] = {"D", PASCAL_MODEL_TTL, "phases", "distinct phases"},
    [PASCAL_COL_THETA] = {"theta", PASCAL_MODEL_TTL, "rounds",
                          "water-filling root U(theta) = C (eq. 3); NaN when C >= N"},
    [PASCAL_COL_T_STAR] = {"T_star", PASCAL_MODEL_TTL, "rounds", "floor(theta); NaN when C >= N"},
    [PASCAL_COL_K_TTL] = {"K_ttl", PASCAL_MODEL_TTL, "misses/round",
                          "slotted-TTL misses per round K(T*) (Theorem 2)"},
    [PASCAL_COL_RHO_TTL] = {"rho_ttl", PASCAL_MODEL_TTL, "misses/request", "K_ttl / M"},
    [PASCAL_COL_K_LRU_LO] = {"K_lru_lo", PASCAL_MODEL_LRU_BAND, "misses/round",
                             "Theorem 3 lower bound K(T*+1) on LRU misses; NaN when D > C"},
    [PASCAL_COL_K_LRU_HI] = {"K_lru_hi", PASCAL_MODEL_LRU_BAND, "misses/round",
                             "Theorem 3 upper bound K(T*-1) on LRU misses; NaN when D > C"},
    [PASCAL_COL_K_LRU] = {"K_lru", PASCAL_MODEL_LRU, "misses/round",
                          "exact steady-state fully associative LRU misses per round"},
    [PASCAL_COL_RHO_LRU] = {"rho_lru", PASCAL_MODEL_LRU, "misses/request", "K_lru / M"},
    [PASCAL_COL_K_SDCM] = {"K_sdcm", PASCAL_MODEL_SDCM, "misses/round",
                           "SDCM expected misses per round, A ways, B = C lines"},
    [PASCAL_COL_RHO_SDCM] = {"rho_sdcm", PASCAL_MODEL_SDCM, "misses/request", "K_sdcm / M"},
    [PASCAL_COL_V] = {"V", PASCAL_MODEL_RESIDENCY, "requests/round",
                      "residency budget V(C): most reuse intervals C blocks can hold (Theorem 4)"},
    [PASCAL_COL_K_BOUND] = {"K_bound", PASCAL_MODEL_RESIDENCY, "misses/round",
                            "M - V(C) (minus N/H for a finite horizon): no policy misses less"},
    [PASCAL_COL_RHO_BOUND] = {"rho_bound", PASCAL_MODEL_RESIDENCY, "misses/request", "K_bound / M"},
    [PASCAL_COL_RHO_CHE] = {"rho_che", PASCAL_MODEL_CHE, "misses/request",
                            "Che/IRM baseline miss rate 1 - C/N (phase-blind)"},
    [PASCAL_COL_K_CHE] = {"K_che", PASCAL_MODEL_CHE, "misses/round", "M * rho_che"},
    [PASCAL_COL_MARGIN] = {"margin", PASCAL_MODEL_MARGIN, "gaps",
                           "gaps within (D+1) eps of theta (Prop. 7): most K_ttl can change"},
    [PASCAL_COL_C_SHARE] = {"C_share", PASCAL_MODEL_SHARING, "blocks",
                            "capacity 2 lead - 1 that preserves all sharing (Theorem 5)"},
    [PASCAL_COL_SHARES] = {"shares", PASCAL_MODEL_SHARING, "bool",
                           "1 when C >= 2 lead - 1 (sharing guaranteed), else 0"},
    [PASCAL_COL_P_HIT] = {"P_hit", PASCAL_MODEL_CATCHUP, "time/request",
                          "Theorem 6 issue period P_d(lambda_hit)"},
    [PASCAL_COL_P_MISS] = {"P_miss", PASCAL_MODEL_CATCHUP, "time/request",
                           "Theorem 6 issue period P_d(lambda_miss)"},
    [PASCAL_COL_G] = {"G", PASCAL_MODEL_CATCHUP, "time/request",
                      "eq. 13: most time per request that hits can save"},
    [PASCAL_COL_K_LRU_REPLAY] = {"K_lru_replay", PASCAL_MODEL_LRU_REPLAY, "misses/round",
                                 "exact LRU replay: misses in round N after N warm-up rounds"},
    [PASCAL_COL_RHO_LRU_REPLAY] = {"rho_lru_replay", PASCAL_MODEL_LRU_REPLAY, "misses/request",
                                   "K_lru_replay / M"},
    [PASCAL_COL_K_BELADY] = {"K_belady", PASCAL_MODEL_BELADY, "misses/round",
                             "Belady misses on the empty-cache trace of `rounds` rounds, cold ones included, per round"},
    [PASCAL_COL_RHO_BELADY] = {"rho_belady", PASCAL_MODEL_BELADY, "misses/request", "K_belady / M"},
    [PASCAL_COL_K_DYN] = {"K_dyn", PASCAL_MODEL_DYNAMIC, "fills/work",
                          "section 4 whole-run fill count K_H = A(H)/H; NaN when unsupported (see fallback)"},
    [PASCAL_COL_RHO_DYN] = {"rho_dyn", PASCAL_MODEL_DYNAMIC, "misses/request", "K_dyn / M"},
    [PASCAL_COL_BAND_LO] = {"band_lo", PASCAL_MODEL_DYNAMIC, "misses/request",
                            "K_dyn e^-r / M, r the out-of-fold 90th-percentile log error"},
    [PASCAL_COL_BAND_HI] = {"band_hi", PASCAL_MODEL_DYNAMIC, "misses/request", "min(M, K_dyn e^r) / M"},
    [PASCAL_COL_FALLBACK] = {"fallback", PASCAL_MODEL_DYNAMIC, "code",
                             "rule: 0 same-class bracket (eq. 24), 1 reference key, 2 nearest same-class "
                             "compute, 3 across depth; K_dyn NaN: 10 unsupported (occupancy, path), "
                             "11 unsampled class (Prop. 8), 12 invalid point, 13 device differs from "
                             "the calibration, 14 outside the calibrated range with extrapolation: nan"},
    [PASCAL_COL_CLAMP_X] = {"clamp_x", PASCAL_MODEL_DYNAMIC, "work",
                            "nearest calibrated work x = W N / 4096 where the horizon lies outside the "
                            "references and the endpoint value is held (eq. 19); NaN inside"},
    [PASCAL_COL_CLAMP_COMPUTE] = {"clamp_compute", PASCAL_MODEL_DYNAMIC, "ops/block",
                                  "nearest same-class reference compute the answer is held at (rule 2); "
                                  "NaN when the compute is bracketed"},
    [PASCAL_COL_CLAMP_DEPTH] = {"clamp_depth", PASCAL_MODEL_DYNAMIC, "buffers",
                                "nearest reference depth the answer is held at (rule 3 with one side); "
                                "NaN when the depth is bracketed or referenced"},
};

static int find_name(const char *name, const void *table, int n, size_t stride)
{
    for (int i = 0; i < n; i++) {
        const char *const *entry = (const char *const *)((const char *)table + (size_t)i * stride);
        if (strcmp(*entry, name) == 0)
            return i;
    }
    return -1;
}

int pascal_param_from_name(const char *name)
{
    return find_name(name, pascal_params, PASCAL_NPARAM, sizeof pascal_params[0]);
}

int pascal_model_from_name(const char *name)
{
    return find_name(name, pascal_models, PASCAL_NMODEL, sizeof pascal_models[0]);
}

int pascal_column_from_name(const char *name)
{
    return find_name(name, pascal_columns, PASCAL_NCOLUMN, sizeof pascal_columns[0]);
}

static const struct {
    const char *suffix;
    unsigned base, power; /* factor base^power */
} units[] = {
    {"B", 1, 0},
    {"KiB", 1024, 1}, {"MiB", 1024, 2}, {"GiB", 1024, 3}, {"TiB", 1024, 4},
    {"kB", 1000, 1}, {"KB", 1000, 1}, {"MB", 1000, 2}, {"GB", 1000, 3}, {"TB", 1000, 4},
};

#define MAX_DIGITS 30 /* significant digits of a size's number */
#define TWO53 ((unsigned __int128)1 << 53)

typedef unsigned __int128 u128;

/* v *= k, or 1 on overflow. */
static int mul(u128 *v, u128 k)
{
    if (k && *v > ~(u128)0 / k)
        return 1;
    *v *= k;
    return 0;
}

/* [digits][.digits][e[+-]digits] into digits D and a power of ten E, so
 * that the number is D 10^E exactly; *end after it.  0, or BAD. */
static int read_decimal(const char *s, u128 *D, long *E, const char **end)
{
    int sig = 0, any = 0, dot = 0;
    long fd = 0, ex = 0, exsign = 1;
    *D = 0;
    for (;; s++) {
        if (*s == '.' && !dot) {
            dot = 1;
            continue;
        }
        if (!isdigit((unsigned char)*s))
            break;
        any = 1;
        if ((*D || *s != '0') && ++sig > MAX_DIGITS)
            return PASCAL_SIZE_BAD;
        *D = *D * 10 + (unsigned)(*s - '0');
        fd += dot;
    }
    if (!any)
        return PASCAL_SIZE_BAD;
    if (*s == 'e' || *s == 'E') {
        const char *e = s + 1;
        if (*e == '+' || *e == '-')
            exsign = *e++ == '-' ? -1 : 1;
        if (!isdigit((unsigned char)*e))
            return PASCAL_SIZE_BAD;
        for (; isdigit((unsigned char)*e); e++)
            if (ex < 100000)
                ex = ex * 10 + (*e - '0');
        s = e;
    }
    *E = exsign * ex - fd;
    *end = s;
    return 0;
}

/* Exact: bytes = D 10^E base^power, a whole number from 1 to 2^53. */
int pascal_size_parse(const char *text, double *bytes)
{
    const char *end;
    u128 D, v;
    long E;
    size_t i, n = sizeof units / sizeof units[0];
    if (!text)
        return PASCAL_SIZE_BAD;
    while (isspace((unsigned char)*text))
        text++;
    /* No sign, no "inf" or "nan", no hexadecimal (0x10, 0x1p4). */
    if ((!isdigit((unsigned char)*text) && *text != '.') ||
        (text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) || read_decimal(text, &D, &E, &end))
        return PASCAL_SIZE_BAD;
    while (isspace((unsigned char)*end))
        end++;
    for (i = 0; *end && i < n; i++)
        if (strcmp(end, units[i].suffix) == 0)
            break;
    if (*end && i == n)
        return PASCAL_SIZE_UNIT;
    if (D == 0)
        return PASCAL_SIZE_BAD; /* not positive */
    v = D;
    for (unsigned k = 0; *end && k < units[i].power; k++)
        if (mul(&v, units[i].base))
            return PASCAL_SIZE_BIG;
    for (; E > 0; E--)
        if (mul(&v, 10) || v > TWO53)
            return PASCAL_SIZE_BIG;
    for (; E < 0; E++) {
        if (v % 10)
            return PASCAL_SIZE_FRACTION;
        v /= 10;
    }
    if (v > TWO53)
        return PASCAL_SIZE_BIG;
    *bytes = (double)v;
    return 0;
}

void pascal_size_explain(int code, const char *text, char *buf, int len)
{
    const char *u = text;
    if (!buf || len < 1)
        return;
    buf[0] = 0;
    while (u && isspace((unsigned char)*u))
        u++;
    switch (code) {
    case PASCAL_SIZE_UNIT:
        while (*u && (isdigit((unsigned char)*u) || *u == '.' ||
                      ((*u == 'e' || *u == 'E') && (isdigit((unsigned char)u[1]) || u[1] == '-' || u[1] == '+')) ||
                      ((*u == '-' || *u == '+') && (u[-1] == 'e' || u[-1] == 'E'))))
            u++;
        while (isspace((unsigned char)*u))
            u++;
        snprintf(buf, (size_t)len, "unknown unit \"%s\" (units: %s)", u, PASCAL_SIZE_UNITS);
        break;
    case PASCAL_SIZE_BIG:
        snprintf(buf, (size_t)len, "more than 2^53 = 9007199254740992 bytes, the largest size held exactly");
        break;
    case PASCAL_SIZE_FRACTION:
        snprintf(buf, (size_t)len, "not a whole number of bytes");
        break;
    default:
        if (u && u[0] == '0' && (u[1] == 'x' || u[1] == 'X'))
            snprintf(buf, (size_t)len, "hexadecimal is not accepted");
        break;
    }
}

void pascal_size_format(double bytes, char *buf, int len)
{
    static const char *names[] = {"TiB", "GiB", "MiB", "KiB"};
    static const double factors[] = {1099511627776.0, 1073741824.0, 1048576.0, 1024.0};
    for (int i = 0; i < 4; i++) {
        if (bytes >= factors[i] && fmod(bytes, factors[i]) == 0) {
            snprintf(buf, (size_t)len, "%.0f%s", bytes / factors[i], names[i]);
            return;
        }
    }
    snprintf(buf, (size_t)len, "%.0fB", bytes);
}
