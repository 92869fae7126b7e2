/* pascal play: the program player.  Chosen points of a workload spec run on
 * a GPU as their kernel's request program (every CTA's steps and blocks in
 * the library's launch order, kernels/cuda/play.cu), and the bytes read
 * from off-chip memory into L2 are written beside pascal's exact replay of
 * the same program.  Without CUDA support or a GPU it says so and exits 2;
 * --dry-run shows the programs and pascal's answers without one, --list
 * every request the player would issue. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/session.h"
#include "output/fs/lock.h"
#include "programs/cli.h"
#include "spot/play.h"
#include "spot/spot.h"

static const char *usage_text =
    "usage: pascal play SPEC.yaml --select LIST -o OUT.csv [options]\n\n"
    "Runs the request program of chosen workload points (their kernel's grid in launch\n"
    "order, each CTA's steps and blocks as the library reads them; docs/kernels.md) on a\n"
    "CUDA GPU, at each point's occupancy, every load through __ldcg, and counts the\n"
    "bytes read from off-chip memory into L2 (CUPTI, or ncu) beside pascal's exact\n"
    "replay of the same program, in lock step and in any order per round.  Points are\n"
    "numbered as `pascal run` numbers its rows.";

typedef struct play_opts {
    const char *out, *device, *meter, *metric, *select;
    int64_t reps;
    pascal_spot_start start;
    int dry_run, list, quiet;
} play_opts;

static int read_opts(cli_flag *f, int nf, play_opts *o)
{
    cli_flag *x;
    o->out = cli_find(f, nf, "output")->value;
    o->device = cli_find(f, nf, "device")->given ? cli_find(f, nf, "device")->value : "auto";
    o->meter = cli_find(f, nf, "meter")->value;
    o->metric = cli_find(f, nf, "metric")->value;
    o->select = cli_find(f, nf, "select")->value;
    o->dry_run = cli_find(f, nf, "dry-run")->given;
    o->list = cli_find(f, nf, "list")->given;
    o->quiet = cli_find(f, nf, "quiet")->given;
    o->reps = 3;
    if ((x = cli_find(f, nf, "repeat"))->given && cli_int("play", x, 1, &o->reps))
        return CLI_USAGE;
    x = cli_find(f, nf, "start");
    int start = PASCAL_SPOT_COLD;
    if (x->given && cli_name("play", x, pascal_spot_start_names, 2, &start) != CLI_OK)
        return CLI_USAGE;
    o->start = (pascal_spot_start)start;
    if (!o->select) {
        fprintf(stderr, "pascal play: --select: expected the points to play, e.g. 0,3,5-9, got "
                        "nothing\n");
        return CLI_USAGE;
    }
    if (!o->out && !o->dry_run && !o->list) {
        fprintf(stderr, "pascal play: -o/--output: expected an output path, got nothing\n");
        return CLI_USAGE;
    }
    return CLI_OK;
}

static const char *kernel_name(const pascal_workload *w)
{
    int k = w->shape.kernel;
    return k >= 0 && k < PASCAL_KERNEL_COUNT ? pascal_kernel_names[k] : "?";
}

static void print_plan(const pascal_play_point *pts, int64_t n)
{
    printf("pascal play: %lld point%s (dry run: nothing measured); fills in MiB\n", (long long)n,
           n == 1 ? "" : "s");
    printf("  %6s %-13s %8s %6s %9s %10s %10s %10s %10s %10s\n", "point", "kernel", "CTAs", "occ",
           "requests", "data", "ideal", "replay", "any-order", "x ideal");
    for (int64_t i = 0; i < n; i++) {
        const pascal_play_point *p = &pts[i];
        printf("  %6lld %-13s %8lld %6d %9lld %10.4g %10.4g %10.4g %10.4g %10.4g\n",
               (long long)p->ordinal, kernel_name(&p->w), (long long)p->prog.job.ctas,
               p->prog.job.occupancy, (long long)p->prog.job.requests,
               (double)p->prog.job.data_bytes / 1048576.0, p->ideal / 1048576.0,
               p->replay / 1048576.0, p->replay_any / 1048576.0, p->replay / p->ideal);
    }
}

/* Every request, CTA by CTA and step by step, as the player issues it. */
static void print_list(const pascal_play_point *pts, int64_t n)
{
    printf("point,cta,step,offset,bytes\n");
    for (int64_t i = 0; i < n; i++) {
        const pascal_gpu_play_job *j = &pts[i].prog.job;
        for (int64_t c = 0; c < j->ctas; c++)
            for (int64_t s = j->cta_step[c]; s < j->cta_step[c + 1]; s++)
                for (int64_t r = j->step_req[s]; r < j->step_req[s + 1]; r++)
                    printf("%lld,%lld,%lld,%lld,%d\n", (long long)pts[i].ordinal, (long long)c,
                           (long long)(s - j->cta_step[c]), (long long)j->req_offset[r],
                           (int)j->req_bytes[r]);
    }
}

typedef struct play_ctx {
    const pascal_play_point *pts;
    const play_opts *o;
} play_ctx;

static int run_one(pascal_gpu *g, void *ctx, int64_t i, pascal_spot_measure *m, pascal_error *err)
{
    const play_ctx *c = ctx;
    const pascal_play_point *p = &c->pts[i / c->o->reps];
    pascal_gpu_play_job job = p->prog.job;
    job.start = c->o->start;
    int rc = pascal_gpu_run_play(g, &job, m, err);
    if (rc == 0 && !c->o->quiet && !isnan(m->fill_bytes))
        fprintf(stderr, "  point %lld rep %lld: %.4g ms, %.4g x ideal\n", (long long)p->ordinal,
                (long long)(i % c->o->reps), m->elapsed_ms, m->fill_bytes / p->ideal);
    return rc;
}

/* The CSV: provenance as comment lines, then a row per repetition. */
static char *table(const pascal_play_point *pts, int64_t n, const play_opts *o,
                   const pascal_spot_measure *meas, const pascal_spot_device *dev,
                   const char *cmdline, const char *cupti_reason)
{
    pascal_attr a[PASCAL_SPOT_DEVICE_ATTRS];
    pascal_spot_attr_buf buf;
    int na = pascal_spot_device_attrs(dev, a, &buf);
    size_t cap = 4096 + (size_t)(n * o->reps) * 320, len = 0;
    char *t = malloc(cap);
    if (!t)
        return NULL;
#define PUT(...) (len += (size_t)snprintf(t + len, cap - len, __VA_ARGS__))
    PUT("# pascal play: bytes read from off-chip memory into L2 by each point's request program "
        "(measured), beside pascal's exact replay of the same program\n");
    PUT("# command_line: %s\n# start_state: %s\n", cmdline, pascal_spot_start_names[o->start]);
    if (cupti_reason && *cupti_reason)
        PUT("# cupti_unavailable_because: %s\n", cupti_reason);
    for (int k = 0; k < na; k++)
        PUT("# %s: %s\n", a[k].key, a[k].value);
    PUT("point,rep,kernel,ctas,occupancy,requests,ideal_bytes,fill_bytes_replay,"
        "fill_bytes_replay_any,fill_bytes_measured,traffic_measured,elapsed_ms\n");
    for (int64_t i = 0; i < n; i++)
        for (int64_t r = 0; r < o->reps; r++) {
            const pascal_play_point *p = &pts[i];
            const pascal_spot_measure *m = &meas[i * o->reps + r];
            PUT("%lld,%lld,%s,%lld,%d,%lld,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g\n",
                (long long)p->ordinal, (long long)r, kernel_name(&p->w),
                (long long)p->prog.job.ctas, p->prog.job.occupancy,
                (long long)p->prog.job.requests, p->ideal, p->replay, p->replay_any,
                m->fill_bytes, m->fill_bytes / p->ideal, m->elapsed_ms);
        }
#undef PUT
    return t;
}

static int measure(const pascal_play_point *pts, int64_t n, const play_opts *o, int argc,
                   char **argv)
{
    pascal_session s;
    pascal_error err = {0};
    int64_t total = n * o->reps;
    pascal_spot_measure *meas = calloc((size_t)total, sizeof *meas);
    play_ctx ctx = {pts, o};
    pascal_lock *lock = NULL;
    char *cmdline = cli_command_line("play", argc, argv);
    int rc = meas && cmdline ? 0 : pascal_error_set(&err, PASCAL_ENOMEM, "out of memory");
    if (rc == 0 && (rc = pascal_session_open(o->device, o->meter, o->metric, &s, &err)) == 0) {
        int child = pascal_session_is_child(&s);
        if (!child && (rc = pascal_output_claim(o->out, NULL, 0, cmdline, &lock, &err)) == 0)
            rc = cli_check_output(o->out, &err);
        if (rc == 0)
            rc = pascal_session_measure(&s, total, run_one, &ctx, meas, "play", argc, argv, &err);
        if (rc == 0 && !child) {
            char *t = table(pts, n, o, meas, pascal_gpu_device(s.gpu), cmdline, s.cupti_reason);
            rc = t ? pascal_spot_provenance_write_text(o->out, t, &err)
                   : pascal_error_set(&err, PASCAL_ENOMEM, "out of memory");
            if (rc == 0)
                printf("pascal play: %lld point%s x %lld repetitions, wrote %s\n", (long long)n,
                       n == 1 ? "" : "s", (long long)o->reps, o->out);
            free(t);
        }
        pascal_session_close(&s);
        pascal_output_release(lock);
    }
    if (rc != 0)
        fprintf(stderr, "pascal play: %s\n", err.msg);
    free(meas);
    free(cmdline);
    return rc == 0 ? CLI_OK : (rc == PASCAL_EINPUT || rc == PASCAL_GPU_UNAVAILABLE) ? CLI_USAGE
                                                                                  : CLI_FAIL;
}

int cli_play(int argc, char **argv)
{
    cli_flag flags[] = {
        {"output", "PATH", "output CSV (alias -o); written only when complete", 0, 0},
        {"select", "LIST", "the points to play, e.g. 0,3,5-9 (as `pascal run` numbers rows)", 0, 0},
        {"repeat", "R", "repetitions per point, all recorded (default 3)", 0, 0},
        {"start", "cold|warm", "L2 state at each launch (default cold: flushed)", 0, 0},
        {"device", "auto|INDEX", "CUDA device (default auto: the first)", 0, 0},
        {"meter", "auto|cupti|ncu", "how fills are counted (default auto)", 0, 0},
        {"metric", "NAME", "counter of off-chip read bytes or sectors (default per GPU)", 0, 0},
        {"dry-run", NULL, "show the programs and pascal's replay; measure nothing", 0, 0},
        {"list", NULL, "print every request the player would issue (CSV); measure nothing", 0, 0},
        {"quiet", NULL, "no per-launch lines", 0, 0},
    };
    int nf = (int)(sizeof flags / sizeof flags[0]), npos, rc;
    char *pos[1];
    play_opts o = {0};
    pascal_spec *spec = NULL;
    pascal_play_point *pts = NULL;
    int64_t *ord = NULL, n = 0, kept = 0;
    pascal_error err = {0};
    for (int i = 0; i < argc; i++)
        if (strcmp(argv[i], "-o") == 0)
            argv[i] = "--output";
    rc = cli_parse("play", usage_text, argc, argv, flags, nf, pos, 1, &npos);
    if (rc != CLI_OK)
        return rc < 0 ? CLI_OK : rc;
    if (npos != 1) {
        fprintf(stderr, "pascal play: expected a spec file, got nothing (see --help)\n");
        return CLI_USAGE;
    }
    if ((rc = read_opts(flags, nf, &o)) != CLI_OK)
        return rc;
    if (pascal_spec_load(pos[0], &spec, &err) != 0 ||
        (o.out && pascal_output_check_inputs(o.out, (pascal_input[]){
             {"spec", pascal_spec_filename(spec)},
             {"device profile", pascal_spec_device_path(spec)}}, 2, &err) != 0)) {
        fprintf(stderr, "%s\n", err.msg);
        rc = CLI_USAGE;
    } else if (pascal_spot_count_kept(spec, &kept, &err) != 0 ||
               pascal_spot_parse_select(o.select, kept, &ord, &n, &err) != 0 ||
               pascal_play_plan(spec, ord, n, &pts, &err) != 0) {
        fprintf(stderr, "pascal play: %s\n", err.msg);
        rc = err.code == PASCAL_EINPUT ? CLI_USAGE : CLI_FAIL;
    } else if (o.list) {
        print_list(pts, n);
    } else if (o.dry_run) {
        print_plan(pts, n);
    } else {
        rc = measure(pts, n, &o, argc, argv);
    }
    pascal_play_plan_free(pts, n);
    free(ord);
    pascal_spec_free(spec);
    return rc;
}
