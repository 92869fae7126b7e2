/* pascal simulate: one run of the progress simulator (model/sim.h) on a
 * device profile's timing: the open scan of Algorithm 2, or with --barrier
 * the static scan of Algorithm 1, whose steady-state fills per round equal
 * the static model's exact LRU (`pascal point`). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/json.h"
#include "common/suggest.h"
#include "calibrate/calibrate.h"
#include "devices/profile.h"
#include "programs/cli.h"
#include "programs/signals.h"
#include "engine/eval_phases.h"
#include "model/phases.h"
#include "model/sim.h"
#include "output/fs/lock.h"
#include "output/sink.h"
#include "devices/sim_timing.h"
#include "vocab/params.h"

static const char *usage_text =
    "usage: pascal simulate --device PROFILE --o OCC --path sync|tma [--d DEPTH] --m COMPUTE\n"
    "                       --N BLOCKS --W SCANS [--C BLOCKS | --capacity-bytes SIZE] [options]\n"
    "       pascal simulate --device PROFILE --barrier --N BLOCKS (--phases LIST | --M WORKERS\n"
    "                       [--pattern NAME ...]) [--C BLOCKS | --capacity-bytes SIZE] [options]\n"
    "       pascal simulate --spec FILE [--point I] [--barrier] [--timing ...] [--json]\n\n"
    "Simulates W x M CTAs (M = SMs x o resident) scanning N blocks through a shared LRU\n"
    "cache with in-flight merging, L2, SM-port and DRAM queues and the SMs' issue and\n"
    "tensor throughput, timed by the profile's `sim` section (docs/simulate.md).  Prints\n"
    "the whole-run fills K_H = A(H)/H (H = W N), K per wave and the time per round.\n"
    "--barrier runs the static scan instead (a grid barrier per round, requests in worker\n"
    "order): its K_steady equals `pascal point`'s exact LRU K for the same phases.\n"
    "--spec simulates one point of a sweep spec on its device profile, as the sweep's\n"
    "simulate model does; a workload point runs its whole kernel, several streams in\n"
    "waves, and reports its DRAM fill bytes and their ratio to the ideal traffic\n"
    "(with --barrier: the exact LRU replay of the kernel's trace).";

enum { F_DEVICE, F_O, F_PATH, F_D, F_M, F_N, F_W, F_C, F_CAPB, F_BLOCKB, F_ASSOC, F_SEED,
       F_BARRIER, F_PHASES, F_WORKERS, F_PATTERN, F_CLUSTERS, F_SPREAD, F_SIGMA, F_LAG,
       F_SAMPLES, F_TRAJ, F_TIMING, F_JSON, F_SPEC, F_POINT, F_AT, F_COUNT };

static const cli_flag flag_table[F_COUNT] = {
    [F_DEVICE] = {"device", "PROFILE", "device profile with a `sim` section (configs/devices/)", 0, 0},
    [F_O] = {"o", "OCC", "resident CTAs per SM", 0, 0},
    [F_PATH] = {"path", "sync|tma", "load path", 0, 0},
    [F_D] = {"d", "DEPTH", "TMA stages (tma only)", 0, 0},
    [F_M] = {"m", "COMPUTE", "WMMA operations per block", 0, 0},
    [F_N] = {"N", "BLOCKS", "blocks per scan", 0, 0},
    [F_W] = {"W", "SCANS", "CTA scans per resident worker; the grid has round(W M) CTAs", 0, 0},
    [F_C] = {"C", "BLOCKS", "cache capacity in blocks (default: the profile's L2 / block)", 0, 0},
    [F_CAPB] = {"capacity-bytes", "SIZE", "cache size instead of --C", 0, 0},
    [F_BLOCKB] = {"block-bytes", "SIZE", "bytes per block (default 16KiB, as the paper)", 0, 0},
    [F_ASSOC] = {"assoc", "A", "A-way cache with a hashed set index (default fully associative)", 0, 0},
    [F_SEED] = {"seed", "S", "seed of the per-SM draws, jitter and set index (default 1)", 0, 0},
    [F_BARRIER] = {"barrier", NULL, "the static scan (Algorithm 1) instead of the open scan", 0, 0},
    [F_PHASES] = {"phases", "LIST", "barrier: explicit phases, comma separated", 0, 0},
    [F_WORKERS] = {"M", "WORKERS", "barrier: workers of a --pattern", 0, 0},
    [F_PATTERN] = {"pattern", "NAME", "barrier: aligned|clusters|equal|uniform|gaussian|lag", 0, 0},
    [F_CLUSTERS] = {"clusters", "K", "barrier, clusters pattern: clusters", 0, 0},
    [F_SPREAD] = {"spread", "BLOCKS", "barrier, clusters pattern: spread", 0, 0},
    [F_SIGMA] = {"sigma", "BLOCKS", "barrier, gaussian pattern: standard deviation", 0, 0},
    [F_LAG] = {"lag", "BLOCKS", "barrier, lag pattern: blocks between workers", 0, 0},
    [F_SAMPLES] = {"samples", "K", "phase groups (gap 32) at K evenly spaced amounts of work", 0, 0},
    [F_TRAJ] = {"trajectory", "PATH", "write each sample's per-slot block to this CSV", 0, 0},
    [F_TIMING] = {"timing", "KEY=V,...", "override the profile's sim values (what-if studies)", 0, 0},
    [F_JSON] = {"json", NULL, "print one JSON object", 0, 0},
    [F_SPEC] = {"spec", "FILE", "simulate a point of this sweep spec instead (a workload: its "
                                "whole kernel; docs/simulate.md)", 0, 0},
    [F_POINT] = {"point", "I", "--spec: the point's index in the sweep (default 0)", 0, 0},
    [F_AT] = {"at", "NAME=VALUE,...", "--spec: the first point with these values (seq_kv=32768,batch=8), or "
              "a where-style test ('seq_kv == 32768 && batch == 8'), instead of --point", 0, 0},
};

#define MAX_WAVES 4096
#define GROUP_GAP 32 /* phase groups as the paper's section 5.3 merges them */

typedef struct sim_cli {
    pascal_device_facts dev;
    pascal_sim_timing tm;
    pascal_sim_config cfg;
    int64_t *phases, samples;
    double K_wave[MAX_WAVES];
    double *traj_t, *traj_rounds;
    int32_t *traj_pos;
} sim_cli;

static int need(const cli_flag *f, const char *what)
{
    if (f->given)
        return CLI_OK;
    fprintf(stderr, "pascal simulate: --%s: expected %s, got nothing (see pascal simulate --help)\n",
            f->name, what);
    return CLI_USAGE;
}

static int get_int(cli_flag *f, int id, int64_t min, int64_t *out)
{
    return f[id].given ? cli_int("simulate", &f[id], min, out) : CLI_OK;
}

/* Capacity: --C, --capacity-bytes, or the profile's effective L2. */
static int read_capacity(cli_flag *f, sim_cli *s)
{
    double cap = s->dev.capacity_bytes;
    if (f[F_C].given)
        return cli_int("simulate", &f[F_C], 1, &s->cfg.C);
    if (f[F_CAPB].given && cli_size("simulate", &f[F_CAPB], &cap) != CLI_OK)
        return CLI_USAGE;
    if (isnan(cap) || floor(cap / s->cfg.block_bytes) < 1) {
        fprintf(stderr, "pascal simulate: --C: expected a capacity of at least one block (the "
                        "profile has no L2 size; give --C or --capacity-bytes), got %.0f bytes\n",
                isnan(cap) ? 0 : cap);
        return CLI_USAGE;
    }
    s->cfg.C = (int64_t)floor(cap / s->cfg.block_bytes);
    return CLI_OK;
}

static int read_open(cli_flag *f, sim_cli *s)
{
    pascal_sim_config *c = &s->cfg;
    int64_t o = 0;
    if (need(&f[F_O], "the occupancy (CTAs per SM)") || need(&f[F_PATH], "sync or tma") ||
        need(&f[F_M], "the WMMA operations per block") || need(&f[F_W], "the horizon W") ||
        cli_int("simulate", &f[F_O], 1, &o) || cli_int("simulate", &f[F_M], 0, &c->compute) ||
        cli_real("simulate", &f[F_W], 0, &c->W))
        return CLI_USAGE;
    c->occupancy = o;
    /* The simulator's path codes are the table's (engine/simrefs.c). */
    if ((c->path = pascal_path_from_name(f[F_PATH].value)) < 0) {
        char hint[96];
        fprintf(stderr, "pascal simulate: --path: expected sync or tma, got \"%s\"%s\n",
                f[F_PATH].value,
                pascal_suggest_hint(f[F_PATH].value, pascal_path_names, PASCAL_PATH_COUNT, hint,
                                    sizeof hint));
        return CLI_USAGE;
    }
    if (c->path == PASCAL_SIM_TMA &&
        (need(&f[F_D], "the TMA depth") || cli_int("simulate", &f[F_D], 1, &c->depth)))
        return CLI_USAGE;
    if (c->path == PASCAL_SIM_SYNC && f[F_D].given) {
        fprintf(stderr, "pascal simulate: --d: expected no depth on the sync path, got \"%s\"\n",
                f[F_D].value);
        return CLI_USAGE;
    }
    if (!(c->W > 0) || llround(c->W * (double)(c->sms * o)) < 1) {
        fprintf(stderr, "pascal simulate: --W: expected a horizon giving at least one CTA, got \"%s\"\n",
                f[F_W].value);
        return CLI_USAGE;
    }
    return CLI_OK;
}

/* A pattern's phases, keyed as `pascal point` keys them. */
static int pattern_phases(cli_flag *f, int64_t N, sim_cli *s, int64_t *M)
{
    pascal_point p;
    pascal_pattern pat;
    int kind = PASCAL_PATTERN_ALIGNED;
    for (int i = 0; i < PASCAL_NPARAM; i++)
        p.v[i] = NAN;
    p.phases = NULL;
    if (need(&f[F_WORKERS], "the number of workers (or --phases)") ||
        cli_int("simulate", &f[F_WORKERS], 1, M))
        return CLI_USAGE;
    if (f[F_PATTERN].given &&
        ((kind = pascal_pattern_from_name(f[F_PATTERN].value)) < 0 || kind == PASCAL_PATTERN_EXPLICIT)) {
        char hint[96];
        fprintf(stderr, "pascal simulate: --pattern: expected one of aligned, clusters, equal, "
                        "uniform, gaussian, lag (or --phases), got \"%s\"%s\n", f[F_PATTERN].value,
                pascal_suggest_hint(f[F_PATTERN].value, pascal_pattern_names,
                                    PASCAL_PATTERN_EXPLICIT, hint, sizeof hint));
        return CLI_USAGE;
    }
    p.v[PASCAL_P_N] = (double)N, p.v[PASCAL_P_M] = (double)*M, p.v[PASCAL_P_PATTERN] = kind;
    {
        const int ids[] = {F_CLUSTERS, F_SPREAD, F_LAG, F_SEED};
        const int params[] = {PASCAL_P_CLUSTERS, PASCAL_P_SPREAD, PASCAL_P_LAG, PASCAL_P_SEED};
        for (int k = 0; k < 4; k++) {
            int64_t v;
            if (f[ids[k]].given && cli_int("simulate", &f[ids[k]], ids[k] == F_CLUSTERS, &v))
                return CLI_USAGE;
            if (f[ids[k]].given)
                p.v[params[k]] = (double)v;
        }
    }
    if (f[F_SIGMA].given && cli_real("simulate", &f[F_SIGMA], 0, &p.v[PASCAL_P_SIGMA]))
        return CLI_USAGE;
    pascal_eval_pattern(&p, &pat);
    if (!(s->phases = malloc((size_t)*M * sizeof *s->phases)) ||
        pascal_phases_generate(&pat, N, *M, s->phases) != 0) {
        fprintf(stderr, "pascal simulate: --pattern: the pattern's parameters are invalid for N = "
                        "%lld and M = %lld\n", (long long)N, (long long)*M);
        return CLI_USAGE;
    }
    return CLI_OK;
}

/* Barrier mode: M workers; worker m on SM m mod sms when M is a multiple of
 * the SMs, else one SM each (timing only: the cache does not depend on it). */
static int read_barrier(cli_flag *f, sim_cli *s)
{
    pascal_sim_config *c = &s->cfg;
    int64_t M = 0;
    const int open_only[] = {F_O, F_PATH, F_D, F_W, F_SAMPLES, F_TRAJ};
    for (size_t k = 0; k < sizeof open_only / sizeof open_only[0]; k++)
        if (f[open_only[k]].given) {
            fprintf(stderr, "pascal simulate: --%s: expected no open-scan option with --barrier, got "
                            "one\n", f[open_only[k]].name);
            return CLI_USAGE;
        }
    if (f[F_PHASES].given) {
        if (f[F_PATTERN].given || f[F_WORKERS].given) {
            fprintf(stderr, "pascal simulate: --phases: expected either --phases or --M with "
                            "--pattern, got both\n");
            return CLI_USAGE;
        }
        if (cli_phase_list("simulate", f[F_PHASES].value, c->N, &s->phases, &M))
            return CLI_USAGE;
    } else if (pattern_phases(f, c->N, s, &M)) {
        return CLI_USAGE;
    }
    if (f[F_M].given && cli_int("simulate", &f[F_M], 0, &c->compute))
        return CLI_USAGE;
    c->barrier = 1;
    c->phases = s->phases;
    c->occupancy = M % c->sms == 0 ? M / c->sms : 1;
    c->sms = M % c->sms == 0 ? c->sms : M;
    return CLI_OK;
}

static int read_options(cli_flag *f, sim_cli *s)
{
    pascal_sim_config *c = &s->cfg;
    pascal_error err = {0};
    int64_t seed = 1;
    *c = pascal_sim_default_config();
    if (need(&f[F_DEVICE], "a device profile") || need(&f[F_N], "the blocks per scan") ||
        cli_int("simulate", &f[F_N], 1, &c->N))
        return CLI_USAGE;
    if (pascal_device_facts_load(f[F_DEVICE].value, &s->dev, &err) != 0 ||
        pascal_device_sim_load(s->dev.path, &s->tm, &err) != 0) {
        fprintf(stderr, "pascal simulate: %s\n", err.msg);
        return err.code == PASCAL_ENOMEM ? CLI_FAIL : CLI_USAGE;
    }
    c->sms = (int64_t)s->dev.sms;
    if (cli_sim_timing(&f[F_TIMING], &s->tm) ||
        (f[F_BLOCKB].given && cli_size("simulate", &f[F_BLOCKB], &c->block_bytes)) ||
        get_int(f, F_ASSOC, 1, &c->assoc) || get_int(f, F_SEED, 0, &seed) ||
        get_int(f, F_SAMPLES, 1, &s->samples) || read_capacity(f, s))
        return CLI_USAGE;
    c->seed = (uint64_t)seed;
    if (c->assoc > 0 && c->C % c->assoc != 0) {
        fprintf(stderr, "pascal simulate: --assoc: expected a divisor of C = %lld (sets of equal "
                        "ways), got %lld\n", (long long)c->C, (long long)c->assoc);
        return CLI_USAGE;
    }
    if (f[F_TRAJ].given && !s->samples)
        s->samples = 64;
    return f[F_BARRIER].given ? read_barrier(f, s) : read_open(f, s);
}

/* Trajectory arrays: samples evenly spaced over the run's blocks. */
static int alloc_samples(sim_cli *s)
{
    pascal_sim_config *c = &s->cfg;
    int64_t M = c->sms * c->occupancy, ctas = llround(c->W * (double)M), total = ctas * c->N;
    if (!s->samples || c->barrier)
        return 0;
    c->traj_every = total / s->samples > 0 ? total / s->samples : 1;
    c->traj_max = s->samples;
    s->traj_t = malloc((size_t)s->samples * sizeof *s->traj_t);
    s->traj_rounds = malloc((size_t)s->samples * sizeof *s->traj_rounds);
    s->traj_pos = malloc((size_t)(s->samples * M) * sizeof *s->traj_pos);
    c->traj_t = s->traj_t, c->traj_rounds = s->traj_rounds, c->traj_pos = s->traj_pos;
    return s->traj_t && s->traj_rounds && s->traj_pos ? 0 : -1;
}

static int64_t groups_at(const sim_cli *s, int64_t k, int32_t *scratch)
{
    int64_t M = s->cfg.sms * s->cfg.occupancy;
    return pascal_sim_phase_groups(s->traj_pos + k * M, M, s->cfg.N, GROUP_GAP, scratch);
}

/* `"key": number` on stdout, 17 digits (common/json.h). */
static void json_num(const char *key, double v)
{
    pascal_json_key_num(stdout, key, v, 17);
}

static void print_json(const sim_cli *s, const pascal_sim_result *r, int32_t *scratch)
{
    const pascal_sim_config *c = &s->cfg;
    double q1 = (double)r->M * c->block_bytes / r->first_wave_ns_per_round / s->tm.l2_bytes_per_ns;
    printf("{");
    json_num("M", (double)r->M), printf(", "), json_num("N", (double)c->N), printf(", ");
    json_num("C", (double)c->C), printf(", ");
    if (c->barrier) {
        json_num("K_steady", r->K_steady), printf(", ");
    } else {
        json_num("W", c->W), printf(", "), json_num("ctas", (double)r->ctas), printf(", ");
        json_num("H", r->H), printf(", "), json_num("K_H", r->K_H), printf(", \"K_wave\": [");
        for (int64_t v = 0; v < r->waves && v < MAX_WAVES; v++)
            printf("%s%.17g", v ? ", " : "", s->K_wave[v]);
        printf("], ");
        json_num("first_wave_ns_per_round", r->first_wave_ns_per_round), printf(", ");
        json_num("q1", q1), printf(", ");
    }
    json_num("ns_per_round", r->ns_per_round), printf(", ");
    json_num("makespan_ns", r->makespan_ns), printf(", ");
    json_num("fills", (double)r->fills), printf(", "), json_num("requests", (double)r->requests);
    printf(", "), json_num("cache_hits", (double)r->hits), printf(", ");
    json_num("merged", (double)r->merged);
    if (r->samples > 0) {
        printf(", \"sample_rounds\": [");
        for (int64_t k = 0; k < r->samples; k++)
            printf("%s%.17g", k ? ", " : "", s->traj_rounds[k]);
        printf("], \"phase_groups\": [");
        for (int64_t k = 0; k < r->samples; k++)
            printf("%s%lld", k ? ", " : "", (long long)groups_at(s, k, scratch));
        printf("]");
    }
    printf("}\n");
}

static void print_text(const sim_cli *s, const pascal_sim_result *r, int32_t *scratch)
{
    const pascal_sim_config *c = &s->cfg;
    printf("simulated on %s: M = %lld workers, N = %lld blocks, C = %lld blocks of %.0f bytes\n",
           s->dev.name[0] ? s->dev.name : s->dev.path, (long long)r->M, (long long)c->N,
           (long long)c->C, c->block_bytes);
    if (c->barrier) {
        printf("  static scan (Algorithm 1): K_steady = %.17g fills per round, %.1f ns per round\n",
               r->K_steady, r->ns_per_round);
    } else {
        char what[64];
        if (c->path == PASCAL_SIM_TMA)
            snprintf(what, sizeof what, "%s, d = %lld", pascal_path_names[c->path],
                     (long long)c->depth);
        else
            snprintf(what, sizeof what, "%s", pascal_path_names[c->path]);
        printf("  open scan (Algorithm 2), %s, m = %lld: %lld CTAs in %lld waves, H = %.0f rounds\n",
               what, (long long)c->compute, (long long)r->ctas, (long long)r->waves, r->H);
        printf("  K_H = A(H)/H = %.6g fills per round (rho = %.4g per request)\n", r->K_H,
               r->K_H / (double)r->M);
        printf("  time: %.1f ns per round over the run, %.1f in the first wave\n", r->ns_per_round,
               r->first_wave_ns_per_round);
        printf("  K per wave:");
        for (int64_t v = 0; v < r->waves && v < 16; v++)
            printf(" %.3g", s->K_wave[v]);
        printf(r->waves > 16 ? " ... (%lld waves)\n" : "\n", (long long)r->waves);
        if (r->samples > 0)
            printf("  phase groups (gap %d) at the end: %lld\n", GROUP_GAP,
                   (long long)groups_at(s, r->samples - 1, scratch));
    }
    printf("  requests %lld: hits %lld, merged into a fill in flight %lld, fills %lld\n",
           (long long)r->requests, (long long)r->hits, (long long)r->merged, (long long)r->fills);
}

/* One row per (sample, slot): the block each slot's CTA was at. */
static int write_trajectory(const char *path, const sim_cli *s, const pascal_sim_result *r,
                            pascal_error *err)
{
    static const pascal_column_desc pc[] = {
        {"sample", "", "sample index", PASCAL_COLTYPE_I64, 0, 0},
        {"slot", "", "resident slot (SM = slot mod sms)", PASCAL_COLTYPE_I64, 0, 0},
        {"block", "", "block the slot's CTA is at; -1 idle", PASCAL_COLTYPE_I64, 0, 0},
    };
    static const pascal_column_desc rc2[] = {
        {"t_ns", "ns", "simulated time", PASCAL_COLTYPE_F64, 0, 0},
        {"rounds", "rounds", "blocks consumed so far / M", PASCAL_COLTYPE_F64, 0, 0},
    };
    int64_t M = r->M, n = r->samples * M;
    int64_t *col[3];
    double *res[2];
    pascal_sink_meta meta = {0};
    pascal_sink *sink = NULL;
    int ok = 1, rc;
    for (int j = 0; j < 3; j++)
        ok &= (col[j] = malloc((size_t)(n > 0 ? n : 1) * sizeof(int64_t))) != NULL;
    for (int j = 0; j < 2; j++)
        ok &= (res[j] = malloc((size_t)(n > 0 ? n : 1) * sizeof(double))) != NULL;
    for (int64_t i = 0; ok && i < n; i++) {
        col[0][i] = i / M, col[1][i] = i % M, col[2][i] = s->traj_pos[i];
        res[0][i] = s->traj_t[i / M], res[1][i] = s->traj_rounds[i / M];
    }
    meta.format = PASCAL_SINK_CSV;
    meta.path = path;
    rc = !ok ? pascal_error_set(err, PASCAL_ENOMEM, "out of memory")
             : pascal_sink_open(&meta, pc, 3, rc2, 2, &sink, err);
    if (rc == 0 && (rc = pascal_sink_append(sink, n, (const void *const *)col,
                                            (const double *const *)res, err)) != 0)
        pascal_sink_abort(sink);
    else if (rc == 0)
        rc = pascal_sink_finish(sink, err);
    for (int j = 0; j < 3; j++)
        free(col[j]);
    for (int j = 0; j < 2; j++)
        free(res[j]);
    return rc;
}

static int simulate(cli_flag *f, sim_cli *s)
{
    pascal_sim *ws = NULL;
    pascal_sim_result r;
    pascal_error err = {0};
    int32_t *scratch = NULL;
    int rc;
    s->cfg.K_wave = s->K_wave;
    s->cfg.max_waves = MAX_WAVES;
    s->cfg.should_stop = cli_stop_requested;
    if (alloc_samples(s) != 0 || pascal_sim_fit(&ws, &s->cfg) != 0 ||
        !(scratch = malloc((size_t)(s->cfg.sms * s->cfg.occupancy) * sizeof *scratch))) {
        fprintf(stderr, "pascal simulate: out of memory\n");
        pascal_sim_free(ws);
        return CLI_FAIL;
    }
    cli_stop_begin(0);
    rc = pascal_sim_run(ws, &s->tm, &s->cfg, &r);
    cli_stop_end();
    pascal_sim_free(ws);
    if (rc == PASCAL_SIM_STOPPED) {
        fprintf(stderr, "pascal simulate: stopped after %lld requests; nothing written\n",
                (long long)r.requests);
        free(scratch);
        return 130;
    }
    if (rc != PASCAL_SIM_OK) {
        fprintf(stderr, "pascal simulate: the configuration is out of the simulator's range "
                        "(status %d)\n", rc);
        free(scratch);
        return CLI_USAGE;
    }
    if (f[F_TRAJ].given && write_trajectory(f[F_TRAJ].value, s, &r, &err) != 0) {
        fprintf(stderr, "pascal simulate: %s\n", err.msg);
        free(scratch);
        return err.code == PASCAL_EIO ? CLI_USAGE : CLI_FAIL;
    }
    if (f[F_JSON].given)
        print_json(s, &r, scratch);
    else
        print_text(s, &r, scratch);
    free(scratch);
    return CLI_OK;
}

/* --trajectory: before the simulation, the output is claimed (not the
 * profile itself, no one else writing it: output/fs/lock.h). */
static int claim_trajectory(cli_flag *f, const sim_cli *s, pascal_lock **lock)
{
    pascal_error err = {0};
    const pascal_input in[] = {{"device profile", s->dev.path}};
    if (!f[F_TRAJ].given ||
        pascal_output_claim(f[F_TRAJ].value, in, 1, "pascal simulate", lock, &err) == 0)
        return CLI_OK;
    fprintf(stderr, "pascal simulate: %s\n", err.msg);
    return err.code == PASCAL_ENOMEM ? CLI_FAIL : CLI_USAGE;
}

/* --spec: one point of a sweep spec (programs/simulate_spec.c). */
static int spec_mode(cli_flag *f)
{
    int rc;
    if (!f[F_SPEC].given) {
        fprintf(stderr, "pascal simulate: --%s: expected --spec FILE with it, got none\n",
                f[F_AT].given ? "at" : "point");
        return CLI_USAGE;
    }
    if (f[F_AT].given && f[F_POINT].given) {
        fprintf(stderr, "pascal simulate: --at: expected --at or --point, got both\n");
        return CLI_USAGE;
    }
    cli_stop_begin(0);
    rc = cli_simulate_spec(f, F_COUNT, cli_stop_requested);
    cli_stop_end();
    return rc;
}

int cli_simulate(int argc, char **argv)
{
    cli_flag f[F_COUNT];
    char *pos[1];
    int npos, rc;
    pascal_lock *lock = NULL;
    sim_cli *s = calloc(1, sizeof *s);
    if (!s)
        return CLI_FAIL;
    memcpy(f, flag_table, sizeof f);
    rc = cli_parse("simulate", usage_text, argc, argv, f, F_COUNT, pos, 0, &npos);
    if (rc == CLI_OK && (f[F_SPEC].given || f[F_POINT].given || f[F_AT].given)) {
        rc = spec_mode(f);
    } else if (rc == CLI_OK && (rc = read_options(f, s)) == CLI_OK &&
               (rc = claim_trajectory(f, s, &lock)) == CLI_OK)
        rc = simulate(f, s);
    pascal_output_release(lock);
    free(s->phases), free(s->traj_t), free(s->traj_rounds), free(s->traj_pos);
    free(s);
    return rc < 0 ? CLI_OK : rc;
}
