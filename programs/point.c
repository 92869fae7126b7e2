/* pascal point: the static model at one configuration, as JSON or as a short
 * explanation. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/json.h"
#include "common/suggest.h"
#include "programs/cli.h"
#include "engine/eval.h"
#include "model/phases.h"
#include "model/static.h"

static const char *usage_text =
    "usage: pascal point --N BLOCKS --C BLOCKS (--M WORKERS | --phases LIST) [options]\n\n"
    "Evaluates the static PASCAL model (paper section 3) for M workers scanning a\n"
    "ring of N blocks with fixed phases through a cache of C blocks.  Phases come\n"
    "from --phases 0,0,5 or from a pattern.  --json prints one object.";

enum { F_N, F_C, F_M, F_CAPB, F_BLOCKB, F_PATTERN, F_CLUSTERS, F_SPREAD, F_SIGMA, F_LAG,
       F_SEED, F_PHASES, F_ASSOC, F_HORIZON, F_JSON, F_COUNT };

static cli_flag flag_table[F_COUNT] = {
    [F_N] = {"N", "BLOCKS", "blocks in the scanned ring", 0, 0},
    [F_C] = {"C", "BLOCKS", "cache capacity in blocks", 0, 0},
    [F_M] = {"M", "WORKERS", "concurrent workers (default: length of --phases)", 0, 0},
    [F_CAPB] = {"capacity-bytes", "SIZE", "cache size, with --block-bytes instead of --C", 0, 0},
    [F_BLOCKB] = {"block-bytes", "SIZE", "bytes per block (with --capacity-bytes)", 0, 0},
    [F_PATTERN] = {"pattern", "NAME", "aligned|clusters|equal|uniform|gaussian|lag (default aligned)", 0, 0},
    [F_CLUSTERS] = {"clusters", "K", "clusters pattern: number of clusters", 0, 0},
    [F_SPREAD] = {"spread", "BLOCKS", "clusters pattern: members spread over this many blocks", 0, 0},
    [F_SIGMA] = {"sigma", "BLOCKS", "gaussian pattern: standard deviation", 0, 0},
    [F_LAG] = {"lag", "BLOCKS", "lag pattern: blocks between consecutive workers", 0, 0},
    [F_SEED] = {"seed", "S", "random patterns: seed (default 1)", 0, 0},
    [F_PHASES] = {"phases", "LIST", "explicit phases, comma separated: 0,0,5", 0, 0},
    [F_ASSOC] = {"assoc", "A", "add SDCM for an A-way cache of B = C lines", 0, 0},
    [F_HORIZON] = {"horizon", "H", "finite trace of H rounds for the residency bound", 0, 0},
    [F_JSON] = {"json", NULL, "print one JSON object", 0, 0},
};

static int get_int(cli_flag *f, int id, int64_t min, double *dst)
{
    int64_t v;
    if (!f[id].given)
        return CLI_OK;
    if (cli_int("point", &f[id], min, &v) != CLI_OK)
        return CLI_USAGE;
    *dst = (double)v;
    return CLI_OK;
}

static int need(const cli_flag *f, const char *what)
{
    if (f->given)
        return CLI_OK;
    fprintf(stderr, "pascal point: --%s: expected %s, got nothing (see pascal point --help)\n",
            f->name, what);
    return CLI_USAGE;
}

/* Capacity from --C, or from --capacity-bytes / --block-bytes. */
static int read_capacity(cli_flag *f, pascal_point *p)
{
    double cap, block;
    if (f[F_C].given && (f[F_CAPB].given || f[F_BLOCKB].given)) {
        fprintf(stderr, "pascal point: --%s: expected either --C or --capacity-bytes with "
                        "--block-bytes, got both\n", f[F_CAPB].given ? "capacity-bytes" : "block-bytes");
        return CLI_USAGE;
    }
    if (f[F_C].given)
        return get_int(f, F_C, 1, &p->v[PASCAL_P_C]);
    if (f[F_BLOCKB].given && !f[F_CAPB].given) {
        fprintf(stderr, "pascal point: --block-bytes: expected --capacity-bytes for it to take "
                        "effect, got none\n");
        return CLI_USAGE;
    }
    if (!f[F_CAPB].given)
        return need(&f[F_C], "a capacity in blocks (or --capacity-bytes with --block-bytes)");
    if (need(&f[F_BLOCKB], "a block size with --capacity-bytes") != CLI_OK ||
        cli_size("point", &f[F_CAPB], &cap) != CLI_OK ||
        cli_size("point", &f[F_BLOCKB], &block) != CLI_OK)
        return CLI_USAGE;
    p->v[PASCAL_P_C] = floor(cap / block);
    if (p->v[PASCAL_P_C] < 1) {
        fprintf(stderr, "pascal point: --capacity-bytes: expected at least one block (%s), "
                        "got \"%s\"\n", f[F_BLOCKB].value, f[F_CAPB].value);
        return CLI_USAGE;
    }
    return CLI_OK;
}

static int read_pattern(cli_flag *f, pascal_point *p, int64_t **list)
{
    int64_t n = 0;
    int kind = PASCAL_PATTERN_ALIGNED;
    if (f[F_PATTERN].given) {
        kind = pascal_pattern_from_name(f[F_PATTERN].value);
        if (kind < 0 || kind == PASCAL_PATTERN_EXPLICIT) {
            char hint[96];
            fprintf(stderr, "pascal point: --pattern: expected one of aligned, clusters, equal, "
                            "uniform, gaussian, lag (or --phases), got \"%s\"%s\n",
                    f[F_PATTERN].value,
                    pascal_suggest_hint(f[F_PATTERN].value, pascal_pattern_names,
                                        PASCAL_PATTERN_EXPLICIT, hint, sizeof hint));
            return CLI_USAGE;
        }
    }
    if (f[F_PHASES].given) {
        if (f[F_PATTERN].given) {
            fprintf(stderr, "pascal point: --phases: expected either --phases or --pattern, "
                            "got both\n");
            return CLI_USAGE;
        }
        if (cli_phase_list("point", f[F_PHASES].value, 0, list, &n) != CLI_OK)
            return CLI_USAGE;
        kind = PASCAL_PATTERN_EXPLICIT;
        p->phases = *list;
        if (!f[F_M].given)
            p->v[PASCAL_P_M] = (double)n;
        else if (p->v[PASCAL_P_M] != (double)n) {
            fprintf(stderr, "pascal point: --M: expected the number of --phases (%lld), got %s\n",
                    (long long)n, f[F_M].value);
            return CLI_USAGE;
        }
        for (int64_t m = 0; m < n; m++)
            if ((double)(*list)[m] >= p->v[PASCAL_P_N]) {
                fprintf(stderr, "pascal point: --phases: expected phases below N = %s, got %lld\n",
                        f[F_N].value, (long long)(*list)[m]);
                return CLI_USAGE;
            }
    } else if (need(&f[F_M], "the number of workers (or --phases)") != CLI_OK) {
        return CLI_USAGE;
    }
    p->v[PASCAL_P_PATTERN] = kind;
    return CLI_OK;
}

/* A flag that cannot change the answer is a mistake worth saying: a
 * pattern parameter without its pattern, --C with --capacity-bytes,
 * --block-bytes alone, more ways than lines. */
static int check_effect(const cli_flag *f, const pascal_point *p)
{
    static const struct {
        int flag;
        unsigned kinds;
        const char *needs;
    } rules[] = {
        {F_CLUSTERS, 1u << PASCAL_PATTERN_CLUSTERS, "--pattern clusters"},
        {F_SPREAD, 1u << PASCAL_PATTERN_CLUSTERS, "--pattern clusters"},
        {F_SIGMA, 1u << PASCAL_PATTERN_GAUSSIAN, "--pattern gaussian"},
        {F_LAG, 1u << PASCAL_PATTERN_LAG, "--pattern lag"},
        {F_SEED, (1u << PASCAL_PATTERN_UNIFORM) | (1u << PASCAL_PATTERN_GAUSSIAN),
         "--pattern uniform or gaussian"},
    };
    int kind = (int)p->v[PASCAL_P_PATTERN];
    for (size_t k = 0; k < sizeof rules / sizeof rules[0]; k++)
        if (f[rules[k].flag].given && !(rules[k].kinds & (1u << kind))) {
            fprintf(stderr, "pascal point: --%s: expected %s for it to take effect, got %s%s\n",
                    f[rules[k].flag].name, rules[k].needs,
                    kind == PASCAL_PATTERN_EXPLICIT ? "--phases" : "--pattern ",
                    kind == PASCAL_PATTERN_EXPLICIT ? "" : pascal_pattern_names[kind]);
            return CLI_USAGE;
        }
    if (f[F_ASSOC].given && p->v[PASCAL_P_ASSOC] > p->v[PASCAL_P_C]) {
        fprintf(stderr, "pascal point: --assoc: expected at most C = %.0f ways (an A-way cache of B = C "
                        "lines has at most C ways), got %s\n", p->v[PASCAL_P_C], f[F_ASSOC].value);
        return CLI_USAGE;
    }
    return CLI_OK;
}

static int read_point(cli_flag *f, pascal_point *p, int64_t **list)
{
    for (int i = 0; i < PASCAL_NPARAM; i++)
        p->v[i] = NAN;
    p->phases = NULL;
    if (need(&f[F_N], "the number of blocks in the ring") != CLI_OK ||
        get_int(f, F_N, 1, &p->v[PASCAL_P_N]) != CLI_OK ||
        get_int(f, F_M, 1, &p->v[PASCAL_P_M]) != CLI_OK || read_capacity(f, p) != CLI_OK ||
        get_int(f, F_CLUSTERS, 1, &p->v[PASCAL_P_CLUSTERS]) != CLI_OK ||
        get_int(f, F_SPREAD, 0, &p->v[PASCAL_P_SPREAD]) != CLI_OK ||
        get_int(f, F_LAG, 0, &p->v[PASCAL_P_LAG]) != CLI_OK ||
        get_int(f, F_SEED, 0, &p->v[PASCAL_P_SEED]) != CLI_OK ||
        get_int(f, F_ASSOC, 1, &p->v[PASCAL_P_ASSOC]) != CLI_OK ||
        read_pattern(f, p, list) != CLI_OK)
        return CLI_USAGE;
    if (f[F_SIGMA].given && cli_real("point", &f[F_SIGMA], 0, &p->v[PASCAL_P_SIGMA]) != CLI_OK)
        return CLI_USAGE;
    if (f[F_HORIZON].given &&
        cli_real("point", &f[F_HORIZON], 0, &p->v[PASCAL_P_HORIZON]) != CLI_OK)
        return CLI_USAGE;
    return check_effect(f, p);
}

static const int point_cols[] = {
    PASCAL_COL_D, PASCAL_COL_THETA, PASCAL_COL_T_STAR, PASCAL_COL_K_TTL, PASCAL_COL_RHO_TTL,
    PASCAL_COL_K_LRU_LO, PASCAL_COL_K_LRU_HI, PASCAL_COL_K_LRU, PASCAL_COL_RHO_LRU,
    PASCAL_COL_V, PASCAL_COL_K_BOUND, PASCAL_COL_RHO_BOUND, PASCAL_COL_RHO_CHE, PASCAL_COL_K_CHE,
    PASCAL_COL_K_SDCM, PASCAL_COL_RHO_SDCM,
};
enum { NCOLS = (int)(sizeof point_cols / sizeof point_cols[0]) };

static double col(const double *out, int id)
{
    for (int j = 0; j < NCOLS; j++)
        if (point_cols[j] == id)
            return out[j];
    return NAN;
}

static void print_json(const pascal_point *p, const pascal_static *ws, const double *out,
                       int sdcm)
{
    static const int keys[] = {PASCAL_COL_THETA, PASCAL_COL_T_STAR, PASCAL_COL_K_TTL,
                               PASCAL_COL_RHO_TTL, PASCAL_COL_K_LRU_LO, PASCAL_COL_K_LRU_HI,
                               PASCAL_COL_K_LRU, PASCAL_COL_RHO_LRU, PASCAL_COL_K_SDCM,
                               PASCAL_COL_RHO_SDCM, PASCAL_COL_V, PASCAL_COL_K_BOUND,
                               PASCAL_COL_RHO_BOUND, PASCAL_COL_RHO_CHE, PASCAL_COL_K_CHE};
    const int64_t *g = pascal_static_gaps(ws);
    printf("{\"N\": %.0f, \"M\": %.0f, \"C\": %.0f, \"D\": %lld, \"gaps\": [", p->v[PASCAL_P_N],
           p->v[PASCAL_P_M], p->v[PASCAL_P_C], (long long)pascal_static_D(ws));
    for (int64_t i = 0; i < pascal_static_D(ws); i++)
        printf("%s%lld", i ? ", " : "", (long long)g[i]);
    printf("]");
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
        if (!sdcm && (keys[k] == PASCAL_COL_K_SDCM || keys[k] == PASCAL_COL_RHO_SDCM))
            continue;
        fputs(", ", stdout);
        pascal_json_key_num(stdout, pascal_columns[keys[k]].name, col(out, keys[k]), 17);
    }
    printf("}\n");
}

static void print_gaps(const pascal_static *ws)
{
    const int64_t *g = pascal_static_gaps(ws);
    int64_t D = pascal_static_D(ws), shown = D < 16 ? D : 16;
    printf("  cyclic gaps (Lemma 1, from the smallest phase):");
    for (int64_t i = 0; i < shown; i++)
        printf(" %lld", (long long)g[i]);
    printf(D > shown ? " ... (%lld in all)\n" : "\n", (long long)D);
}

static void print_text(const pascal_point *p, const pascal_static *ws, const double *out,
                       int sdcm)
{
    double N = p->v[PASCAL_P_N], M = p->v[PASCAL_P_M], C = p->v[PASCAL_P_C];
    printf("%.0f workers scan a ring of %.0f blocks through a cache of %.0f blocks.\n", M, N, C);
    printf("  distinct phases D = %lld\n", (long long)pascal_static_D(ws));
    print_gaps(ws);
    if (C >= N)
        printf("  C >= N: the whole ring stays resident; no misses in steady state.\n");
    else
        printf("  water-filling root theta = %.6g rounds (U(theta) = C), window T* = %.0f\n",
               col(out, PASCAL_COL_THETA), col(out, PASCAL_COL_T_STAR));
    printf("  slotted TTL (Theorem 2): %.0f misses per round, %.4g per request"
           " (gaps longer than T* miss)\n", col(out, PASCAL_COL_K_TTL), col(out, PASCAL_COL_RHO_TTL));
    if (isnan(col(out, PASCAL_COL_K_LRU_LO)))
        printf("  LRU certificate (Theorem 3): not valid here, D > C\n");
    else
        printf("  LRU certificate (Theorem 3): %.0f <= K_lru <= %.0f\n",
               col(out, PASCAL_COL_K_LRU_LO), col(out, PASCAL_COL_K_LRU_HI));
    printf("  exact fully associative LRU (eq. 15): %.0f misses per round, %.4g per request\n",
           col(out, PASCAL_COL_K_LRU), col(out, PASCAL_COL_RHO_LRU));
    if (sdcm)
        printf("  SDCM, %.0f ways of %.0f lines (eq. 6): %.6g misses per round, %.4g per request\n",
               p->v[PASCAL_P_ASSOC], C, col(out, PASCAL_COL_K_SDCM), col(out, PASCAL_COL_RHO_SDCM));
    printf("  residency bound (Theorem 4): V = %.6g; no policy, Belady included, can miss less"
           " than %.6g per round (%.4g per request)\n", col(out, PASCAL_COL_V),
           col(out, PASCAL_COL_K_BOUND), col(out, PASCAL_COL_RHO_BOUND));
    printf("  Che/IRM baseline (phase-blind): miss rate %.4g, %.6g misses per round\n",
           col(out, PASCAL_COL_RHO_CHE), col(out, PASCAL_COL_K_CHE));
}

int cli_point(int argc, char **argv)
{
    cli_flag f[F_COUNT];
    char *pos[1];
    int npos, rc, sdcm;
    int64_t *list = NULL;
    double out[NCOLS];
    pascal_point p;
    pascal_eval *ev;
    memcpy(f, flag_table, sizeof f);
    for (int j = 0; j < NCOLS; j++)
        out[j] = NAN;
    rc = cli_parse("point", usage_text, argc, argv, f, F_COUNT, pos, 0, &npos);
    if (rc != CLI_OK)
        return rc < 0 ? CLI_OK : rc;
    if (read_point(f, &p, &list) != CLI_OK) {
        free(list);
        return CLI_USAGE;
    }
    sdcm = f[F_ASSOC].given;
    ev = pascal_eval_create(~0u);
    if (!ev || pascal_eval_point(ev, &p, point_cols, sdcm ? NCOLS : NCOLS - 2, out) != 0) {
        fprintf(stderr, "pascal point: could not build the phase vector (out of memory, or "
                        "pattern parameters invalid for N and M)\n");
        pascal_eval_free(ev);
        free(list);
        return ev ? CLI_USAGE : CLI_FAIL;
    }
    if (f[F_JSON].given)
        print_json(&p, pascal_eval_workspace(ev), out, sdcm);
    else
        print_text(&p, pascal_eval_workspace(ev), out, sdcm);
    pascal_eval_free(ev);
    free(list);
    return CLI_OK;
}
