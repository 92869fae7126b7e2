/* pascal measure-refs --simulate: the reference CSV of the dynamic model
 * from the progress simulator instead of a GPU (engine/simrefs.h,
 * docs/simulate.md).  The same key lists as on a GPU; without them, the
 * paper's key space (section 5.4): sync at occupancy 1, 2 and 4, TMA at
 * occupancy 1 and 2 with depths 2, 3, 5 and 6, compute
 * 0,2,5,8,13,16,24,32,41, N 4096 and 8192, W 1 to 32.  The CSV opens with
 * `#` lines that say SIMULATED and give the profile, its timing and the
 * command, so `calibrate` reads it unchanged and no reader mistakes it for
 * a measurement; OUT.provenance.txt has the same. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "calibrate/calibrate.h"
#include "devices/profile.h"
#include "programs/cli.h"
#include "programs/signals.h"
#include "programs/progress.h"
#include "common/clock.h"
#include "engine/simrefs.h"
#include "spot/spot.h"
#include "output/fs/lock.h"
#include "devices/sim_timing.h"

#define PAPER_COMPUTE "0,2,5,8,13,16,24,32,41"
#define PAPER_DEPTH "2,3,5,6"
#define PAPER_N "4096,8192"
#define PAPER_W "1,2,4,8,16,32"

typedef struct simrefs_cli {
    int64_t *occ[2], *depth, *compute, *N, *W;  /* occ per path */
    int nocc[2], ndepth, ncompute, nN, nW;
    int64_t *caps;                              /* --C: capacities in blocks (NULL: the profile's) */
    int ncaps;
    int paths[2];                               /* sync, tma wanted */
    int64_t reps, seed;
    int key_seeds;                              /* seeds differ across keys */
    int threads;
    double block_bytes;
} simrefs_cli;

/* --path: load path names, comma-separated, each once (default: all). */
static int read_paths(const cli_flag *p, simrefs_cli *o)
{
    int bad = 0;
    o->paths[0] = o->paths[1] = !p->given;
    for (const char *s = p->given ? p->value : ""; p->given && !bad; s += strcspn(s, ",") + 1) {
        size_t n = strcspn(s, ",");
        char name[16];
        int k;
        snprintf(name, sizeof name, "%.*s", (int)(n < sizeof name ? n : sizeof name - 1), s);
        k = n < sizeof name ? pascal_path_from_name(name) : -1;
        bad = k < 0 || o->paths[k];
        if (!bad)
            o->paths[k] = 1;
        if (!s[n])
            break;
    }
    if (bad || (!o->paths[0] && !o->paths[1])) {
        fprintf(stderr, "pascal measure-refs: --path: expected load paths (" PASCAL_PATH_LIST
                        "), comma-separated, each once, got \"%s\"\n", p->value);
        return CLI_USAGE;
    }
    return CLI_OK;
}

static int read_lists(cli_flag *f, int nf, simrefs_cli *o)
{
    static const char cmd[] = "measure-refs";
    if (read_paths(cli_find(f, nf, "path"), o))
        return CLI_USAGE;
    /* The paper's occupancies differ per path (section 5.4); --occupancy
     * sets both. */
    if (cli_int_list_flag(cmd, f, nf, "occupancy", "1,2,4", 1, &o->occ[0], &o->nocc[0]) ||
        cli_int_list_flag(cmd, f, nf, "occupancy", "1,2", 1, &o->occ[1], &o->nocc[1]) ||
        cli_int_list_flag(cmd, f, nf, "depth", PAPER_DEPTH, 1, &o->depth, &o->ndepth) ||
        cli_int_list_flag(cmd, f, nf, "compute", PAPER_COMPUTE, 0, &o->compute, &o->ncompute) ||
        cli_int_list_flag(cmd, f, nf, "N", PAPER_N, 1, &o->N, &o->nN) ||
        cli_int_list_flag(cmd, f, nf, "W", PAPER_W, 1, &o->W, &o->nW))
        return CLI_USAGE;
    if (cli_find(f, nf, "C")->given &&
        cli_int_list_flag(cmd, f, nf, "C", "", 1, &o->caps, &o->ncaps))
        return CLI_USAGE;
    return CLI_OK;
}

static int read_opts(cli_flag *f, int nf, simrefs_cli *o)
{
    static const char *const gpu_only[] = {"meter", "metric", "markers"};
    cli_flag *x;
    o->reps = 1, o->seed = 1, o->threads = 0, o->block_bytes = 16384;
    for (size_t k = 0; k < sizeof gpu_only / sizeof gpu_only[0]; k++)
        if (cli_find(f, nf, gpu_only[k])->given) {
            fprintf(stderr, "pascal measure-refs: --%s: expected no GPU option with --simulate, got "
                            "one\n", gpu_only[k]);
            return CLI_USAGE;
        }
    x = cli_find(f, nf, "device");
    if (!x->given) {
        fprintf(stderr, "pascal measure-refs: --device: expected a device profile with a sim "
                        "section (configs/devices/) with --simulate, got nothing\n");
        return CLI_USAGE;
    }
    if (read_lists(f, nf, o) ||
        ((x = cli_find(f, nf, "repeat"))->given && cli_int("measure-refs", x, 1, &o->reps)) ||
        ((x = cli_find(f, nf, "seed"))->given && cli_int("measure-refs", x, 0, &o->seed)) ||
        ((o->key_seeds = cli_find(f, nf, "key-seeds")->given) && 0) ||
        ((x = cli_find(f, nf, "threads"))->given && cli_threads("measure-refs", x, &o->threads)) ||
        ((x = cli_find(f, nf, "block-bytes"))->given &&
         cli_size("measure-refs", x, &o->block_bytes)))
        return CLI_USAGE;
    if (!cli_find(f, nf, "output")->given && !cli_find(f, nf, "dry-run")->given) {
        fprintf(stderr, "pascal measure-refs: -o/--output: expected an output path, got nothing\n");
        return CLI_USAGE;
    }
    return CLI_OK;
}

/* The runs in the order C, o, path, d, m, N, W, repetition (last fastest),
 * sync keys first; out may be NULL to count.  Repetition r of key k (its
 * place in that order, a key at each capacity its own) runs at seed S + r,
 * or with --key-seeds at S + R k + r: the same seeds at every N and W of a
 * key, none shared with another key. */
static int64_t make_runs(const simrefs_cli *o, pascal_simref *out)
{
    int64_t n = 0, key = 0;
    for (int c = 0; c < (o->ncaps ? o->ncaps : 1); c++)
    for (int p = 0; p < 2; p++)
        for (int a = 0; o->paths[p] && a < o->nocc[p]; a++)
            for (int d = 0; d < (p ? o->ndepth : 1); d++)
                for (int m = 0; m < o->ncompute; m++, key++)
                    for (int i = 0; i < o->nN; i++)
                        for (int w = 0; w < o->nW; w++)
                            for (int64_t r = 0; r < o->reps; r++, n++)
                                if (out)
                                    out[n] = (pascal_simref){
                                        o->occ[p][a], p, p ? o->depth[d] : 0, o->compute[m], o->N[i],
                                        (double)o->W[w],
                                        (uint64_t)(o->seed + (o->key_seeds ? o->reps * key : 0) + r),
                                        NAN, NAN, o->ncaps ? o->caps[c] : 0};
    return n;
}

static void free_cli(simrefs_cli *o)
{
    free(o->occ[0]), free(o->occ[1]), free(o->depth), free(o->compute), free(o->N), free(o->W);
    free(o->caps);
}

/* Provenance lines: what made the file, with every timing value. */
static void provenance(char *buf, size_t len, const pascal_device_facts *dev,
                       const pascal_sim_timing *tm, const simrefs_cli *o, int64_t C,
                       const char *cmdline)
{
    char seeds[160];
    if (o->key_seeds)
        snprintf(seeds, sizeof seeds, "%lld + %lld k + r for the k-th key (from 0, in file order) and "
                 "repetition r (from 0): no two keys share one", (long long)o->seed, (long long)o->reps);
    else
        snprintf(seeds, sizeof seeds, "%lld..%lld", (long long)o->seed,
                 (long long)(o->seed + o->reps - 1));
    char cap[48];
    if (o->ncaps)
        snprintf(cap, sizeof cap, "per row, blocks");
    else
        snprintf(cap, sizeof cap, "%lld blocks", (long long)C);
    size_t k = (size_t)snprintf(
        buf, len,
        "SIMULATED reference runs: no GPU measured these numbers (pascal measure-refs --simulate, "
        "docs/simulate.md)\nkind: pascal-measure-refs-simulated\ndevice profile: %s (%s)\n"
        "sms: %.0f, C: %s of %.0f bytes, repetitions: %lld, seeds %s\n"
        "command: %s\nsim timing:",
        dev->path, dev->name, dev->sms, cap, o->block_bytes, (long long)o->reps, seeds,
        cmdline);
    for (int i = 0; i < PASCAL_DEVICE_SIM_NKEYS && k < len; i++)
        if (i < PASCAL_DEVICE_SIM_NREQUIRED || *pascal_device_sim_field((pascal_sim_timing *)tm, i))
            k += (size_t)snprintf(buf + k, len - k, "%s %s=%.10g", i ? "," : "",
                              pascal_device_sim_keys[i],
                              *pascal_device_sim_field((pascal_sim_timing *)tm, i));
}

static int write_files(const char *out, const char *prov, const pascal_simref *runs, int64_t n,
                       pascal_error *err)
{
    char path[4096];
    int rc = pascal_simrefs_write(out, prov, runs, n, err);
    if (rc == 0 && snprintf(path, sizeof path, "%s.provenance.txt", out) < (int)sizeof path)
        rc = pascal_spot_provenance_write_text(path, prov, err);
    return rc;
}

static int simulate_runs(const char *out, const char *profile, const simrefs_cli *o,
                         pascal_simref *runs, int64_t n, int quiet, const char *cmdline)
{
    pascal_device_facts dev;
    pascal_sim_timing tm;
    pascal_error err = {0};
    pascal_simrefs_opts so = {0};
    cli_progress bar = {0};
    pascal_lock *lock = NULL;
    char prov[4096];
    double t0;
    int rc;
    /* Before any work: the profile and its timing, and the output's claim
     * (not the profile itself, no one else writing it). */
    if (pascal_device_facts_load(profile, &dev, &err) != 0 ||
        pascal_device_sim_load(dev.path, &tm, &err) != 0 ||
        pascal_output_claim(out, (const pascal_input[]){{"device profile", dev.path}}, 1, cmdline,
                            &lock, &err) != 0 ||
        cli_check_output(out, &err) != 0) {
        pascal_output_release(lock);
        fprintf(stderr, "pascal measure-refs: %s\n", err.msg);
        return err.code == PASCAL_ENOMEM ? CLI_FAIL : CLI_USAGE;
    }
    so.tm = &tm;
    so.sms = (int64_t)dev.sms;
    so.C = (int64_t)floor(dev.capacity_bytes / o->block_bytes);
    so.block_bytes = o->block_bytes;
    so.threads = o->threads;
    so.progress = !quiet && isatty(2) ? cli_progress_update : NULL;
    so.progress_ctx = &bar;
    so.should_stop = cli_stop_requested;
    provenance(prov, sizeof prov, &dev, &tm, o, so.C, cmdline);
    cli_stop_begin(0);
    t0 = pascal_now();
    rc = pascal_simrefs_run(&so, runs, n, &err);
    cli_progress_finish(&bar);
    cli_stop_end();
    if (rc == PASCAL_EINTR) { /* keep what is done, apart from the file asked for */
        char part[4096];
        pascal_error sub = {0};
        int64_t done = 0;
        for (int64_t i = 0; i < n; i++)
            done += !isnan(runs[i].K);
        snprintf(part, sizeof part, "%s.partial", out);
        if (done == 0)
            fprintf(stderr, "pascal measure-refs: %s; nothing written\n", err.msg);
        else if (write_files(part, prov, runs, n, &sub) == 0)
            fprintf(stderr, "pascal measure-refs: %s; the finished runs are in %s\n", err.msg, part);
        else
            fprintf(stderr, "pascal measure-refs: %s; %s\n", err.msg, sub.msg);
        pascal_output_release(lock);
        return 130;
    }
    if (rc == 0)
        rc = write_files(out, prov, runs, n, &err);
    pascal_output_release(lock);
    if (rc != 0) {
        fprintf(stderr, "pascal measure-refs: %s\n", err.msg);
        return rc == PASCAL_EINPUT || rc == PASCAL_EIO ? CLI_USAGE : CLI_FAIL;
    }
    printf("pascal measure-refs: %lld SIMULATED runs on %s's timing in %.1f s\n  wrote %s and "
           "%s.provenance.txt\n", (long long)n, dev.name, pascal_now() - t0, out, out);
    return CLI_OK;
}

int cli_measure_refs_simulated(cli_flag *f, int nf, int argc, char **argv)
{
    simrefs_cli o;
    pascal_simref *runs = NULL;
    char *cmdline = cli_command_line("measure-refs", argc, argv);
    int64_t n;
    int rc;
    memset(&o, 0, sizeof o);
    if ((rc = read_opts(f, nf, &o)) != CLI_OK) {
        free_cli(&o);
        free(cmdline);
        return rc;
    }
    n = make_runs(&o, NULL);
    if (!cmdline || !(runs = malloc((size_t)(n > 0 ? n : 1) * sizeof *runs))) {
        free_cli(&o), free(cmdline);
        return CLI_FAIL;
    }
    make_runs(&o, runs);
    if (cli_find(f, nf, "dry-run")->given) {
        printf("pascal measure-refs --simulate: %lld runs (dry run: nothing simulated)\n  "
               "o,path,d,m,N,W,seed%s\n", (long long)n, o.ncaps ? ",C" : "");
        for (int64_t i = 0; i < n; i++) {
            printf("  %lld,%s,%lld,%lld,%lld,%g,%llu", (long long)runs[i].o,
                   pascal_path_names[runs[i].path], (long long)runs[i].d, (long long)runs[i].m,
                   (long long)runs[i].N, runs[i].W, (unsigned long long)runs[i].seed);
            if (o.ncaps)
                printf(",%lld", (long long)runs[i].C);
            printf("\n");
        }
        rc = CLI_OK;
    } else {
        rc = simulate_runs(cli_find(f, nf, "output")->value, cli_find(f, nf, "device")->value, &o,
                           runs, n, cli_find(f, nf, "quiet")->given, cmdline);
    }
    free(runs), free(cmdline);
    free_cli(&o);
    return rc;
}
