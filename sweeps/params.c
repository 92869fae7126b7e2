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
    [PASCAL_MODEL_SIMULATE] = {"simulate", "progress simulator: the open scan on the device profile's "
                               "timing (slow; docs/simulate.md)",
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
                             "the calibration"},
    [PASCAL_COL_K_SIM] = {"K_sim", PASCAL_MODEL_SIMULATE, "fills/work",
                          "simulated whole-run fill count K_H = A(H)/H of the open scan; NaN outside "
                          "the simulator's range"},
    [PASCAL_COL_RHO_SIM] = {"rho_sim", PASCAL_MODEL_SIMULATE, "misses/request", "K_sim / M"},
    [PASCAL_COL_NS_PER_ROUND_SIM] = {"ns_per_round_sim", PASCAL_MODEL_SIMULATE, "ns/round",
                                     "simulated run time per round of work (makespan / W N)"},
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
    double factor;
} units[] = {
    {"B", 1.0},
    {"KiB", 1024.0}, {"MiB", 1048576.0}, {"GiB", 1073741824.0}, {"TiB", 1099511627776.0},
    {"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"TB", 1e12},
};

int pascal_size_parse(const char *text, double *bytes)
{
    char *end;
    double value, factor = 1.0;
    if (!text)
        return -1;
    while (isspace((unsigned char)*text))
        text++;
    if (!isdigit((unsigned char)*text) && *text != '.')
        return -1; /* no sign, no "inf", no "nan" */
    value = strtod(text, &end);
    if (end == text || !isfinite(value))
        return -1;
    while (isspace((unsigned char)*end))
        end++;
    if (*end) {
        size_t i, n = sizeof units / sizeof units[0];
        for (i = 0; i < n; i++)
            if (strcmp(end, units[i].suffix) == 0)
                break;
        if (i == n)
            return -1;
        factor = units[i].factor;
    }
    value *= factor;
    if (!(value > 0) || value > 9007199254740992.0 || value != floor(value))
        return -1;
    *bytes = value;
    return 0;
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
