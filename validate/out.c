/* The validation campaign's HDF5 file, written through output/sink.h: one
 * row per static case (its coordinates as point columns, every compared
 * value as a result column), each case's phase vector under
 * /axes/phases/<case>, and the run's outcome as root attributes. */
#include "validate/validate.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/sink.h"

enum { PC_CASE, PC_FAMILY, PC_N, PC_M, PC_C, PC_D, PC_PHASES, NPC };
enum { RC_FAILED = PASCAL_VCOL_COUNT, RC_PASS, NRC };
#define NATTR 10

/* The compared values' columns (validate.h), here where the file is
 * described, so that this file calls nothing of the campaign's. */
const char *const pascal_vcol_names[PASCAL_VCOL_COUNT] = {
    "rd_mismatch", "K_lru", "K_lru_replay", "K_sdcm_fa", "K_set_replay", "K_lru_lo",
    "K_lru_hi", "T_star", "K_ttl", "K_ttl_replay", "occupancy", "U_tstar", "horizon",
    "K_belady", "K_bound",
};

const char *const pascal_vcol_units[PASCAL_VCOL_COUNT] = {
    "workers", "misses/round", "misses/round", "misses/round", "misses/round",
    "misses/round", "misses/round", "rounds", "misses/round", "misses/round", "blocks",
    "blocks", "rounds", "misses/round", "misses/round",
};

const char *const pascal_vcol_descriptions[PASCAL_VCOL_COUNT] = {
    "workers whose eq. 15 reuse distance differs from the trace-derived one",
    "exact LRU misses per round from the symbolic reuse distances (eq. 15)",
    "stack-distance LRU replay: misses in round N after N warm-up rounds",
    "SDCM (eq. 6) with A = B = C: the fully associative limit",
    "set-associative LRU replay with one set of C ways, steady rounds N..2N-1",
    "Theorem 3 lower bound K(T*+1); NaN when D > C",
    "Theorem 3 upper bound K(T*-1); NaN when D > C",
    "floor(theta) (eq. 3)",
    "Theorem 2 slotted-TTL misses per round K(T*)",
    "slotted-TTL replay with window T*: misses in round N after N warm-up rounds",
    "that replay's boundary occupancy before round N",
    "footprint U(T*) (Lemma 1)",
    "H: rounds of the empty-cache Belady trace (6N)",
    "Belady misses over the empty-cache H-round trace, divided by H",
    "Theorem 4 bound M - V(C) - N/H",
};

static const char *const family_labels[] = {"exhaustive", "seeded"};

static void describe_columns(pascal_column_desc *pc, pascal_column_desc *rc)
{
    static const char *const names[NPC] = {"case", "family", "N", "M", "C", "D", "phases"};
    static const char *const units[NPC] = {"", "", "blocks", "workers", "blocks", "phases", ""};
    static const char *const desc[NPC] = {
        "case index", "exhaustive enumeration or seeded larger case",
        "blocks in the ring", "workers", "cache capacity in blocks", "distinct phases",
        "index i of the phase vector /axes/phases/<i>"};
    for (int j = 0; j < NPC; j++)
        pc[j] = (pascal_column_desc){names[j], units[j], desc[j],
                                     j == PC_FAMILY ? PASCAL_COLTYPE_ENUM : PASCAL_COLTYPE_I64,
                                     j == PC_FAMILY ? family_labels : NULL,
                                     j == PC_FAMILY ? 2 : 0};
    for (int j = 0; j < PASCAL_VCOL_COUNT; j++)
        rc[j] = (pascal_column_desc){pascal_vcol_names[j], pascal_vcol_units[j],
                                     pascal_vcol_descriptions[j], PASCAL_COLTYPE_F64, NULL, 0};
    rc[RC_FAILED] = (pascal_column_desc){"failed", "bitmask",
                                         "bit k set when check k failed (rd, lru, sdcm, set, "
                                         "band, ttl, belady = bits 0..6; ms_one = bit 15)",
                                         PASCAL_COLTYPE_F64, NULL, 0};
    rc[RC_PASS] = (pascal_column_desc){"pass", "bool", "1 when every check of the case holds",
                                       PASCAL_COLTYPE_F64, NULL, 0};
}

static void fill_attrs(const pascal_validate_result *r, char buf[NATTR][600],
                       pascal_attr *a)
{
    static const char *const keys[NATTR] = {
        "validate_seed", "exhaustive_cases", "seeded_cases", "passed", "failed_checks",
        "theorem5", "theorem6", "first_progress_failure", "multi_stream_cases",
        "multi_stream"};
    int64_t failed = 0;
    for (int k = 0; k < PASCAL_VCHECK_COUNT; k++)
        failed += r->failed[k];
    snprintf(buf[0], sizeof buf[0], "%llu", (unsigned long long)r->opts.seed);
    snprintf(buf[1], sizeof buf[1], "%lld", (long long)r->n_exhaustive);
    snprintf(buf[2], sizeof buf[2], "%lld", (long long)r->n_seeded);
    snprintf(buf[3], sizeof buf[3], "%d", r->ok);
    snprintf(buf[4], sizeof buf[4], "%lld", (long long)failed);
    snprintf(buf[5], sizeof buf[5], "%lld random histories (%lld events), %lld failed; sharpness "
             "s = 2..%lld, %lld failed", (long long)r->checked[PASCAL_VCHECK_THM5],
             (long long)r->thm5_events, (long long)r->failed[PASCAL_VCHECK_THM5],
             (long long)r->checked[PASCAL_VCHECK_THM5_SHARP] + 1,
             (long long)r->failed[PASCAL_VCHECK_THM5_SHARP]);
    snprintf(buf[6], sizeof buf[6], "%lld recurrence checks, %lld failed, max |I_n/n - P_d| = %.3g",
             (long long)r->checked[PASCAL_VCHECK_THM6], (long long)r->failed[PASCAL_VCHECK_THM6],
             r->thm6_max_error);
    snprintf(buf[7], sizeof buf[7], "%s", r->progress_failure);
    snprintf(buf[8], sizeof buf[8], "%lld exhaustive + %lld seeded", (long long)r->nm_exhaustive,
             (long long)r->nm_seeded);
    int64_t mf = 0;
    for (int k = PASCAL_VCHECK_MS_RD; k < PASCAL_VCHECK_COUNT; k++)
        mf += r->failed[k];
    size_t used = (size_t)snprintf(buf[9], sizeof buf[9], "%lld failed checks", (long long)mf);
    if (r->msmallest >= 0 && used < sizeof buf[9]) {
        used += (size_t)snprintf(buf[9] + used, sizeof buf[9] - used, "; smallest failing: ");
        if (used < sizeof buf[9])
            pascal_validate_multi_describe(r, r->msmallest, buf[9] + used, sizeof buf[9] - used);
    }
    for (int i = 0; i < NATTR; i++)
        a[i] = (pascal_attr){keys[i], buf[i]};
}

int pascal_validate_probe(const char *path, pascal_error *err)
{
    pascal_sink_meta m = {0};
    pascal_column_desc pc = {"case", "", "", PASCAL_COLTYPE_I64, NULL, 0};
    pascal_sink *sink = NULL;
    m.format = PASCAL_SINK_HDF5;
    m.path = path;
    int rc = pascal_sink_open(&m, &pc, 1, NULL, 0, &sink, err);
    pascal_sink_abort(sink);
    return rc == PASCAL_EIO ? (err->code = PASCAL_EINPUT) : rc;
}

/* Row columns for all cases (malloc'd; the caller frees via free_rows). */
static int build_rows(const pascal_validate_result *r, int64_t **pv, double **rv)
{
    int64_t n = r->ncases > 0 ? r->ncases : 1;
    for (int j = 0; j < NPC; j++)
        if (!(pv[j] = malloc((size_t)n * sizeof **pv)))
            return -1;
    for (int j = 0; j < NRC; j++)
        if (!(rv[j] = malloc((size_t)n * sizeof **rv)))
            return -1;
    for (int64_t i = 0; i < r->ncases; i++) {
        const pascal_vcase *c = &r->cases[i];
        int64_t p[NPC] = {i, c->family, c->N, c->M, c->C, c->D, i};
        for (int j = 0; j < NPC; j++)
            pv[j][i] = p[j];
        for (int j = 0; j < PASCAL_VCOL_COUNT; j++)
            rv[j][i] = c->v[j];
        rv[RC_FAILED][i] = (double)c->failed;
        rv[RC_PASS][i] = c->failed == 0;
    }
    return 0;
}

static int write_file(const pascal_validate_result *r, pascal_sink_meta *m,
                      int64_t **pv, double **rv, pascal_error *err)
{
    pascal_column_desc pc[NPC], rc[NRC];
    pascal_sink *sink = NULL;
    describe_columns(pc, rc);
    /* The path was claimed and probed before the campaign: a failure now (a
     * full disk) is a failure while running, not bad input. */
    int status = pascal_sink_open(m, pc, NPC, rc, NRC, &sink, err);
    if (status == 0)
        status = pascal_sink_append(sink, r->ncases, (const void *const *)pv,
                                    (const double *const *)rv, err);
    if (status == 0)
        status = pascal_sink_finish(sink, err);
    else
        pascal_sink_abort(sink);
    if (status == PASCAL_EINPUT) /* the sink calls an unwritable file bad input */
        err->code = status = PASCAL_EIO;
    return status;
}

int pascal_validate_write(const pascal_validate_result *r, const char *path,
                          const char *command_line, pascal_error *err)
{
    char abuf[NATTR][600];
    pascal_attr attrs[NATTR];
    pascal_sink_meta m = {0};
    int64_t *pv[NPC] = {0}, *lens = malloc((size_t)(r->ncases + 1) * sizeof *lens);
    double *rv[NRC] = {0};
    const int64_t **lists = malloc((size_t)(r->ncases + 1) * sizeof *lists);
    int status = PASCAL_ENOMEM;
    if (lens && lists && build_rows(r, pv, rv) == 0) {
        for (int64_t i = 0; i < r->ncases; i++) {
            lists[i] = r->phases + r->cases[i].phase_off;
            lens[i] = r->cases[i].M;
        }
        fill_attrs(r, abuf, attrs);
        m.format = PASCAL_SINK_HDF5;
        m.path = path;
        m.shuffle = 1;
        m.chunk_rows = r->ncases > 0 ? r->ncases : 1;   /* one chunk per column */
        m.command_line = command_line;
        m.threads = r->threads;
        m.attrs = attrs;
        m.nattrs = NATTR;
        m.nphase_lists = r->ncases;
        m.phase_lists = lists;
        m.phase_list_lens = lens;
        status = write_file(r, &m, pv, rv, err);
    } else {
        pascal_error_set(err, PASCAL_ENOMEM, "%s: out of memory for the rows", path);
    }
    for (int j = 0; j < NPC; j++)
        free(pv[j]);
    for (int j = 0; j < NRC; j++)
        free(rv[j]);
    free(lens);
    free((void *)lists);
    return status;
}
