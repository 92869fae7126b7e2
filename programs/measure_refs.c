/* pascal measure-refs: reference measurements for the dynamic model, taken
 * with the open scan of the paper's Algorithm 2.  Every configuration (o,
 * path, d, m, N, W) is run `repeat` times from a cold L2; each run becomes a
 * row `o,path,d,m,N,W,K` of the dynamic model's reference CSV, with
 * K = K_H = A(H) / H (eq. 14).  Provenance goes to OUT.provenance.txt, since
 * the CSV holds nothing but the table.  Without CUDA support or a GPU it says
 * so and exits 2.  --simulate runs the progress simulator instead
 * (measure_refs_sim.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "programs/cli.h"
#include "spot/spot.h"
#include "kernels/session.h"
#include "output/fs/lock.h"
#include "output/sink.h"

static const char *usage_text =
    "usage: pascal measure-refs -o REFS.csv [options]\n\n"
    "Runs the open scan (paper Algorithm 2: a grid of W x M CTAs, M = SMs x o resident,\n"
    "each scanning N blocks through the sync (__ldcg) or TMA path with m WMMA operations\n"
    "per block) for every combination of the lists given, counts the bytes read from\n"
    "off-chip memory into L2, and writes the dynamic model's reference CSV, one row per\n"
    "run: o,path,d,m,N,W,K with K = (bytes / block_bytes) / (W N).  Depths apply to the\n"
    "TMA path; sync rows have d = 0.";

typedef struct refs_opts {
    const char *out, *device, *meter, *metric, *markers;
    int64_t *occ, *depth, *compute, *N, *W;
    int nocc, ndepth, ncompute, nN, nW;
    int paths[PASCAL_PATH_COUNT], npaths;
    double block_bytes;
    int64_t reps;
    int dry_run, quiet;
} refs_opts;

static void free_opts(refs_opts *o)
{
    free(o->occ), free(o->depth), free(o->compute), free(o->N), free(o->W);
}

/* --path: a comma-separated list of load path names, each once (default:
 * every path, in code order). */
static int read_paths(cli_flag *f, int nf, refs_opts *o)
{
    cli_flag *x = cli_find(f, nf, "path");
    const char *v = x->value;
    int seen[PASCAL_PATH_COUNT] = {0};
    o->npaths = 0;
    if (!x->given) {
        for (int p = 0; p < PASCAL_PATH_COUNT; p++)
            o->paths[o->npaths++] = p;
        return CLI_OK;
    }
    for (const char *s = v; o->npaths >= 0; s += strcspn(s, ",") + 1) {
        size_t n = strcspn(s, ",");
        char name[16];
        int p;
        snprintf(name, sizeof name, "%.*s", (int)(n < sizeof name ? n : sizeof name - 1), s);
        p = n < sizeof name ? pascal_path_from_name(name) : -1;
        if (p < 0 || seen[p])
            o->npaths = -1;
        else {
            seen[p] = 1;
            o->paths[o->npaths++] = p;
        }
        if (!s[n])
            break;
    }
    if (o->npaths <= 0) {
        fprintf(stderr, "pascal measure-refs: --path: expected load paths (" PASCAL_PATH_LIST
                        "), comma-separated, each once, got \"%s\"\n", v);
        return CLI_USAGE;
    }
    return CLI_OK;
}

static int read_opts(cli_flag *f, int nf, refs_opts *o)
{
    static const char cmd[] = "measure-refs";
    static const char *const sim_only[] = {"seed", "key-seeds", "threads", "C"};
    cli_flag *x;
    o->out = cli_find(f, nf, "output")->value;
    o->device = cli_find(f, nf, "device")->given ? cli_find(f, nf, "device")->value : "auto";
    o->meter = cli_find(f, nf, "meter")->value;
    o->metric = cli_find(f, nf, "metric")->value;
    o->markers = cli_find(f, nf, "markers")->value;
    o->dry_run = cli_find(f, nf, "dry-run")->given;
    o->quiet = cli_find(f, nf, "quiet")->given;
    o->block_bytes = 16384, o->reps = 2;
    for (size_t k = 0; k < sizeof sim_only / sizeof sim_only[0]; k++)
        if (cli_find(f, nf, sim_only[k])->given) {
            fprintf(stderr, "pascal measure-refs: --%s: expected it only with --simulate (a GPU "
                            "runs at its own cache and seeds nothing), got it without\n",
                    sim_only[k]);
            return CLI_USAGE;
        }
    if (cli_int_list_flag(cmd, f, nf, "occupancy", "1,2", 1, &o->occ, &o->nocc) ||
        cli_int_list_flag(cmd, f, nf, "depth", "2,4", 1, &o->depth, &o->ndepth) ||
        cli_int_list_flag(cmd, f, nf, "compute", "0,8", 0, &o->compute, &o->ncompute) ||
        cli_int_list_flag(cmd, f, nf, "N", "4096", 1, &o->N, &o->nN) ||
        cli_int_list_flag(cmd, f, nf, "W", "1,4", 1, &o->W, &o->nW) || read_paths(f, nf, o) ||
        ((x = cli_find(f, nf, "block-bytes"))->given && cli_size("measure-refs", x, &o->block_bytes)) ||
        ((x = cli_find(f, nf, "repeat"))->given && cli_int("measure-refs", x, 1, &o->reps)))
        return CLI_USAGE;
    for (int i = 0; i < o->ndepth; i++)
        if (o->depth[i] > PASCAL_SPOT_MAX_DEPTH) {
            fprintf(stderr, "pascal measure-refs: --depth: expected TMA depths from 1 to %d, got "
                    "%lld\n", PASCAL_SPOT_MAX_DEPTH, (long long)o->depth[i]);
            return CLI_USAGE;
        }
    if (fmod(o->block_bytes, 16) != 0) {
        fprintf(stderr, "pascal measure-refs: --block-bytes: expected a multiple of 16 bytes, got "
                "%.0f\n", o->block_bytes);
        return CLI_USAGE;
    }
    if (!o->out && !o->dry_run) {
        fprintf(stderr, "pascal measure-refs: -o/--output: expected an output path, got nothing\n");
        return CLI_USAGE;
    }
    return CLI_OK;
}

/* The configurations, in the order o, path, d, m, N, W (last fastest); K NaN. */
static int64_t configs(const refs_opts *o, pascal_spot_ref *out)
{
    int64_t n = 0;
    for (int a = 0; a < o->nocc; a++)
        for (int p = 0; p < o->npaths; p++)
            for (int d = 0; d < (o->paths[p] == PASCAL_SPOT_TMA ? o->ndepth : 1); d++)
                for (int m = 0; m < o->ncompute; m++)
                    for (int i = 0; i < o->nN; i++)
                        for (int w = 0; w < o->nW; w++, n++)
                            if (out)
                                out[n] = (pascal_spot_ref){
                                    (int)o->occ[a], o->paths[p],
                                    o->paths[p] == PASCAL_SPOT_TMA ? (int)o->depth[d] : 0,
                                    (int)o->compute[m], o->N[i], o->W[w], NAN};
    return n;
}

typedef struct refs_ctx {
    const refs_opts *o;
    const pascal_spot_ref *cfg;
    int sms;
    int64_t *t_start, *t_end;  /* markers of every run, concatenated */
    int32_t *sm;
    int64_t *offset;           /* first marker of run i */
} refs_ctx;

static int run_one(pascal_gpu *g, void *ctx, int64_t i, pascal_spot_measure *m,
                   pascal_error *err)
{
    const refs_ctx *c = ctx;
    const pascal_spot_ref *r = &c->cfg[i / c->o->reps];
    int64_t at = c->offset ? c->offset[i] : 0;
    pascal_gpu_open_job job = {r->occupancy, r->path, r->depth, r->compute, r->N, r->W,
                               (int64_t)c->o->block_bytes, PASCAL_SPOT_COLD,
                               c->t_start ? c->t_start + at : NULL,
                               c->t_end ? c->t_end + at : NULL, c->sm ? c->sm + at : NULL};
    int rc = pascal_gpu_run_open(g, &job, m, err);
    if (rc == 0 && !c->o->quiet && !isnan(m->fill_bytes))
        fprintf(stderr, "  o=%d %s d=%d m=%d N=%lld W=%lld rep %lld: %.4g ms, K = %.4g\n",
                r->occupancy, pascal_path_names[r->path], r->depth, r->compute,
                (long long)r->N, (long long)r->W, (long long)(i % c->o->reps), m->elapsed_ms,
                pascal_spot_k_dynamic(m->fill_bytes, c->o->block_bytes, r->N, r->W));
    return rc;
}

/* Markers: one row per CTA of every run (run = row of the reference CSV). */
static int write_markers(const refs_ctx *c, int64_t runs, pascal_error *err)
{
    static const pascal_column_desc pc[] = {
        {"run", "", "row of the reference CSV", PASCAL_COLTYPE_I64, 0, 0},
        {"cta", "", "CTA index in the grid", PASCAL_COLTYPE_I64, 0, 0},
        {"sm", "", "SM the CTA ran on", PASCAL_COLTYPE_I64, 0, 0},
        {"start_ns", "ns", "%globaltimer at the CTA's start", PASCAL_COLTYPE_I64, 0, 0},
        {"end_ns", "ns", "%globaltimer at the CTA's end", PASCAL_COLTYPE_I64, 0, 0},
    };
    int64_t total = c->offset[runs], *col[5];
    pascal_sink_meta meta = {0};
    pascal_sink *sink = NULL;
    int ok = 1, rc;
    for (int j = 0; j < 5; j++)
        ok &= (col[j] = malloc((size_t)total * sizeof(int64_t))) != NULL;
    for (int64_t i = 0; ok && i < runs; i++)
        for (int64_t k = c->offset[i]; k < c->offset[i + 1]; k++) {
            col[0][k] = i, col[1][k] = k - c->offset[i], col[2][k] = c->sm[k];
            col[3][k] = c->t_start[k], col[4][k] = c->t_end[k];
        }
    meta.format = PASCAL_SINK_CSV;
    meta.path = c->o->markers;
    rc = !ok ? pascal_error_set(err, PASCAL_ENOMEM, "out of memory")
             : pascal_sink_open(&meta, pc, 5, NULL, 0, &sink, err);
    if (rc == 0 && (rc = pascal_sink_append(sink, total, (const void *const *)col, NULL, err)) != 0)
        pascal_sink_abort(sink);
    else if (rc == 0)
        rc = pascal_sink_finish(sink, err);
    for (int j = 0; j < 5; j++)
        free(col[j]);
    return rc;
}

static int alloc_markers(refs_ctx *c, int64_t runs)
{
    c->offset = malloc((size_t)(runs + 1) * sizeof *c->offset);
    if (!c->offset)
        return -1;
    c->offset[0] = 0;
    for (int64_t i = 0; i < runs; i++) {
        const pascal_spot_ref *r = &c->cfg[i / c->o->reps];
        c->offset[i + 1] = c->offset[i] + (int64_t)c->sms * r->occupancy * r->W;
    }
    c->t_start = malloc((size_t)c->offset[runs] * sizeof *c->t_start);
    c->t_end = malloc((size_t)c->offset[runs] * sizeof *c->t_end);
    c->sm = malloc((size_t)c->offset[runs] * sizeof *c->sm);
    return c->t_start && c->t_end && c->sm ? 0 : -1;
}

static int write_outputs(const refs_opts *o, const refs_ctx *c, const pascal_spot_measure *meas,
                         int64_t runs, const pascal_session *s, const char *cmdline,
                         pascal_error *err)
{
    pascal_spot_ref *rows = malloc((size_t)runs * sizeof *rows);
    char prov[4096], reps[32];
    pascal_attr extra[] = {{"kind", "pascal-measure-refs"}, {"repetitions", reps},
                           {"start_state", "cold"}, {"table", o->out},
                           {"cupti_unavailable_because", s->cupti_reason}};
    int rc;
    if (!rows)
        return pascal_error_set(err, PASCAL_ENOMEM, "out of memory");
    for (int64_t i = 0; i < runs; i++) {
        rows[i] = c->cfg[i / o->reps];
        rows[i].K = pascal_spot_k_dynamic(meas[i].fill_bytes, o->block_bytes, rows[i].N, rows[i].W);
    }
    snprintf(prov, sizeof prov, "%s.provenance.txt", o->out);
    snprintf(reps, sizeof reps, "%lld", (long long)o->reps);
    rc = pascal_spot_refs_write(o->out, rows, runs, err);
    if (rc == 0)
        rc = pascal_spot_provenance_write(prov, pascal_gpu_device(s->gpu), cmdline, extra,
                                          (int)(sizeof extra / sizeof extra[0]), err);
    if (rc == 0)
        printf("pascal measure-refs: %lld runs on %s (%s, %s)\n  wrote %s and %s\n",
               (long long)runs, pascal_gpu_device(s->gpu)->name, pascal_gpu_device(s->gpu)->meter,
               pascal_gpu_device(s->gpu)->metric, o->out, prov);
    free(rows);
    return rc;
}

static int measure(const refs_opts *o, const pascal_spot_ref *cfg, int64_t ncfg, int argc,
                   char **argv)
{
    pascal_session s;
    pascal_error err = {0};
    int64_t runs = ncfg * o->reps;
    pascal_spot_measure *meas = calloc((size_t)runs, sizeof *meas);
    char *cmdline = cli_command_line("measure-refs", argc, argv);
    refs_ctx c = {o, cfg, 0, NULL, NULL, NULL, NULL};
    pascal_lock *lock = NULL;
    int rc = meas && cmdline ? 0 : pascal_error_set(&err, PASCAL_ENOMEM, "out of memory");
    if (rc == 0 && (rc = pascal_session_open(o->device, o->meter, o->metric, &s, &err)) == 0) {
        int child = pascal_session_is_child(&s), launches = s.mode != PASCAL_SESSION_NCU;
        c.sms = pascal_gpu_device(s.gpu)->sms;
        if (!child && (rc = pascal_output_claim(o->out, NULL, 0, cmdline, &lock, &err)) == 0)
            rc = cli_check_output(o->out, &err);
        if (rc == 0 && o->markers && launches && alloc_markers(&c, runs) != 0)
            rc = pascal_error_set(&err, PASCAL_ENOMEM, "out of memory");
        if (rc == 0)
            rc = pascal_session_measure(&s, runs, run_one, &c, meas, "measure-refs", argc, argv, &err);
        if (rc == 0 && o->markers && launches)
            rc = write_markers(&c, runs, &err);
        if (rc == 0 && !child)
            rc = write_outputs(o, &c, meas, runs, &s, cmdline, &err);
        pascal_session_close(&s);
        pascal_output_release(lock);
    }
    if (rc != 0)
        fprintf(stderr, "pascal measure-refs: %s\n", err.msg);
    free(meas), free(cmdline), free(c.offset), free(c.t_start), free(c.t_end), free(c.sm);
    return rc == 0 ? CLI_OK : (rc == PASCAL_EINPUT || rc == PASCAL_GPU_UNAVAILABLE) ? CLI_USAGE
                                                                                  : CLI_FAIL;
}

static void print_configs(const refs_opts *o, const pascal_spot_ref *cfg, int64_t n)
{
    printf("pascal measure-refs: %lld configurations x %lld repetitions (dry run: nothing "
           "measured)\n  o,path,d,m,N,W\n", (long long)n, (long long)o->reps);
    for (int64_t i = 0; i < n; i++)
        printf("  %d,%s,%d,%d,%lld,%lld\n", cfg[i].occupancy, pascal_path_names[cfg[i].path],
               cfg[i].depth, cfg[i].compute, (long long)cfg[i].N, (long long)cfg[i].W);
}

int cli_measure_refs(int argc, char **argv)
{
    cli_flag flags[] = {
        {"output", "PATH", "reference CSV (alias -o); provenance goes to PATH.provenance.txt", 0, 0},
        {"occupancy", "LIST", "o: resident CTAs per SM (default 1,2)", 0, 0},
        {"path", "sync|tma|sync,tma", "load paths (default sync,tma)", 0, 0},
        {"depth", "LIST", "d: TMA stages (default 2,4)", 0, 0},
        {"compute", "LIST", "m: WMMA operations per block and warp (default 0,8)", 0, 0},
        {"N", "LIST", "blocks per scan (default 4096)", 0, 0},
        {"W", "LIST", "CTA scans per resident worker (default 1,4)", 0, 0},
        {"block-bytes", "SIZE", "bytes per block (default 16KiB, as the paper)", 0, 0},
        {"repeat", "R", "runs per configuration, each a row (default 2)", 0, 0},
        {"markers", "PATH", "also write per-CTA start/end markers to this CSV", 0, 0},
        {"device", "auto|INDEX", "CUDA device (default auto: the first); with --simulate a "
                                 "device profile (configs/devices/)", 0, 0},
        {"meter", "auto|cupti|ncu", "how fills are counted (default auto)", 0, 0},
        {"metric", "NAME", "counter of off-chip read bytes or sectors (default per GPU)", 0, 0},
        {"dry-run", NULL, "list the configurations; measure nothing", 0, 0},
        {"quiet", NULL, "no per-launch lines", 0, 0},
        {"simulate", NULL, "no GPU: simulate the runs on the --device profile's timing "
                           "(docs/simulate.md); without key lists, the paper's key space", 0, 0},
        {"seed", "S", "--simulate: seed of repetition 1 (default 1; repetition r uses S + r - 1)", 0, 0},
        {"key-seeds", NULL, "--simulate: seeds that differ across keys: key k's repetition r uses "
                            "S + R k + r - 1 (R = --repeat), so no two keys share the SMs' speed "
                            "draws", 0, 0},
        {"threads", "T", "--simulate: threads (default all)", 0, 0},
        {"C", "LIST", "--simulate: cache capacities in blocks, every key at each (a C column: "
                      "a calibration over capacities, docs/simulate.md 7.1; default the "
                      "profile's L2, no column)", 0, 0},
    };
    int nf = (int)(sizeof flags / sizeof flags[0]), npos, rc;
    char *pos[1];
    refs_opts o = {0};
    pascal_spot_ref *cfg = NULL;
    int64_t n;
    for (int i = 0; i < argc; i++)
        if (strcmp(argv[i], "-o") == 0)
            argv[i] = "--output";
    rc = cli_parse("measure-refs", usage_text, argc, argv, flags, nf, pos, 0, &npos);
    if (rc != CLI_OK)
        return rc < 0 ? CLI_OK : rc;
    if (cli_find(flags, nf, "simulate")->given)
        return cli_measure_refs_simulated(flags, nf, argc, argv);
    if ((rc = read_opts(flags, nf, &o)) != CLI_OK) {
        free_opts(&o);
        return rc;
    }
    n = configs(&o, NULL);
    if (!(cfg = malloc((size_t)n * sizeof *cfg))) {
        free_opts(&o);
        return CLI_FAIL;
    }
    configs(&o, cfg);
    if (o.dry_run)
        print_configs(&o, cfg, n);
    else
        rc = measure(&o, cfg, n, argc, argv);
    free(cfg);
    free_opts(&o);
    return rc;
}
