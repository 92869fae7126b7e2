/* pascal capacity-scan: the fixed-allocation capacity scan of the paper's
 * Figure 2 on a real GPU.  Each footprint is swept `passes` times from a
 * cold L2; off-chip fills per footprint byte (R) stay near 1 while it fits
 * and rise once it does not; the effective capacity is the largest footprint
 * before R first exceeds the threshold.  Without CUDA support or a GPU it
 * says so and exits 2. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "programs/cli.h"
#include "spot/spot.h"
#include "kernels/session.h"
#include "output/fs/lock.h"
#include "vocab/params.h"

static const char *usage_text =
    "usage: pascal capacity-scan -o OUT.h5 [--device auto] [options]\n\n"
    "Sweeps a growing footprint of one fixed allocation `passes` times per launch,\n"
    "from a cold L2, counts the bytes read from off-chip memory into L2, and reports\n"
    "the effective L2 capacity: the largest footprint before fills per footprint byte\n"
    "exceed the threshold (paper Figure 2).  Default footprints: 24 from L2/8 to\n"
    "1.5 x L2 as the device reports it.";

typedef struct cap_opts {
    const char *out, *device, *meter, *metric;
    double from, to, threshold;
    int64_t num, passes, reps;
    int dry_run, quiet;
} cap_opts;

static int read_opts(cli_flag *f, int nf, cap_opts *o)
{
    cli_flag *x;
    o->out = cli_find(f, nf, "output")->value;
    o->device = cli_find(f, nf, "device")->given ? cli_find(f, nf, "device")->value : "auto";
    o->meter = cli_find(f, nf, "meter")->value;
    o->metric = cli_find(f, nf, "metric")->value;
    o->dry_run = cli_find(f, nf, "dry-run")->given;
    o->quiet = cli_find(f, nf, "quiet")->given;
    o->from = o->to = NAN, o->threshold = 1.5, o->num = 24, o->passes = 4, o->reps = 8;
    if (((x = cli_find(f, nf, "from"))->given && cli_size("capacity-scan", x, &o->from)) ||
        ((x = cli_find(f, nf, "to"))->given && cli_size("capacity-scan", x, &o->to)) ||
        ((x = cli_find(f, nf, "num"))->given && cli_int("capacity-scan", x, 1, &o->num)) ||
        ((x = cli_find(f, nf, "passes"))->given && cli_int("capacity-scan", x, 2, &o->passes)) ||
        ((x = cli_find(f, nf, "repeat"))->given && cli_int("capacity-scan", x, 1, &o->reps)) ||
        ((x = cli_find(f, nf, "threshold"))->given &&
         cli_real("capacity-scan", x, 1, &o->threshold)))
        return CLI_USAGE;
    if (!o->out && !o->dry_run) {
        fprintf(stderr, "pascal capacity-scan: -o/--output: expected an output path, got nothing\n");
        return CLI_USAGE;
    }
    if (o->num > 4096) {
        fprintf(stderr, "pascal capacity-scan: --num: expected at most 4096 footprints, got %lld\n",
                (long long)o->num);
        return CLI_USAGE;
    }
    return CLI_OK;
}

/* num footprints from..to, linear, rounded down to 4 KiB, strictly ascending. */
static int footprints(const cap_opts *o, double *fp, pascal_error *err)
{
    if (!(o->from > 0) || !(o->to >= o->from) || (o->num > 1 && o->to == o->from) ||
        (o->num == 1 && o->to != o->from))
        return pascal_error_set(err, PASCAL_EINPUT,
                                "--from/--to: expected 0 < from < to (or from = to with --num 1), "
                                "got %.0f and %.0f bytes", o->from, o->to);
    for (int64_t i = 0; i < o->num; i++) {
        double v = o->num == 1 ? o->from : o->from + (o->to - o->from) * (double)i / (double)(o->num - 1);
        fp[i] = floor(v / 4096) * 4096;
        if (fp[i] < 4096 || (i > 0 && fp[i] <= fp[i - 1]))
            return pascal_error_set(err, PASCAL_EINPUT,
                                    "--num: expected footprints at least 4 KiB apart, got %lld "
                                    "between %.0f and %.0f bytes",
                                    (long long)o->num, o->from, o->to);
    }
    return 0;
}

typedef struct cap_ctx {
    const cap_opts *o;
    const double *fp;
} cap_ctx;

static int run_one(pascal_gpu *g, void *ctx, int64_t i, pascal_spot_measure *m,
                   pascal_error *err)
{
    const cap_ctx *c = ctx;
    int64_t k = i / c->o->reps;
    pascal_gpu_capacity_job job = {(int64_t)c->fp[k], (int64_t)c->fp[c->o->num - 1],
                                   (int)c->o->passes, PASCAL_SPOT_COLD};
    int rc = pascal_gpu_run_capacity(g, &job, m, err);
    if (rc == 0 && !c->o->quiet && !isnan(m->fill_bytes))
        fprintf(stderr, "  footprint %.0f rep %lld: R = %.4g\n", c->fp[k],
                (long long)(i % c->o->reps), pascal_spot_fill_ratio(m->fill_bytes, c->fp[k]));
    return rc;
}

static void print_result(const pascal_spot_capacity *cap, const double *mean,
                         const pascal_spot_device *d, const char *out)
{
    char size[64];
    printf("pascal capacity-scan: %d footprints x %d repetitions, %d passes, on %s (%s, %s)\n",
           cap->nfoot, cap->reps, cap->passes, d->name, d->meter, d->metric);
    for (int i = 0; i < cap->nfoot; i++)
        printf("  %14.0f bytes  R = %.4g\n", cap->footprints[i], mean[i]);
    if (isnan(cap->effective_bytes)) {
        printf("  effective capacity: not found (R exceeds %g at the smallest footprint)\n",
               cap->threshold);
    } else {
        pascal_size_format(cap->effective_bytes, size, sizeof size);
        printf("  effective capacity: %s (%.0f bytes; nominal L2 %lld bytes)%s\n", size,
               cap->effective_bytes, (long long)d->l2_bytes,
               cap->crossed ? "" : " -- R never exceeded the threshold: extend --to");
        printf("  device profile: effective_l2_bytes: %s\n", size);
    }
    printf("  wrote %s\n", out);
}

/* Mean R per footprint, the effective capacity, the file and the summary. */
static int finish(pascal_spot_capacity *cap, const pascal_session *s, const cap_opts *o,
                  const char *cmdline, pascal_error *err)
{
    double *mean = malloc((size_t)cap->nfoot * sizeof *mean);
    double *R = malloc((size_t)cap->reps * sizeof *R), sd;
    int rc = mean && R ? 0 : pascal_error_set(err, PASCAL_ENOMEM, "out of memory");
    for (int i = 0; rc == 0 && i < cap->nfoot; i++) {
        for (int r = 0; r < cap->reps; r++)
            R[r] = pascal_spot_fill_ratio(cap->meas[i * cap->reps + r].fill_bytes,
                                          cap->footprints[i]);
        pascal_spot_mean_sd(R, cap->reps, &mean[i], &sd);
    }
    if (rc == 0)
        rc = pascal_spot_effective_capacity(cap->footprints, mean, cap->nfoot, o->threshold,
                                            &cap->effective_bytes, &cap->crossed, err);
    if (rc == 0)
        rc = pascal_spot_capacity_write(o->out, cap, pascal_gpu_device(s->gpu), cmdline, err);
    if (rc == 0)
        print_result(cap, mean, pascal_gpu_device(s->gpu), o->out);
    free(mean), free(R);
    return rc;
}

/* Default footprints need the device's L2 size. */
static void default_range(cap_opts *o, const pascal_session *s)
{
    double l2 = (double)pascal_gpu_device(s->gpu)->l2_bytes;
    if (isnan(o->from))
        o->from = l2 / 8;
    if (isnan(o->to))
        o->to = 1.5 * l2;
}

static int measure(cap_opts *o, int argc, char **argv)
{
    pascal_session s;
    pascal_error err = {0};
    double *fp = malloc((size_t)o->num * sizeof *fp);
    int64_t n = o->num * o->reps;
    pascal_spot_measure *meas = calloc((size_t)n, sizeof *meas);
    char *cmdline = cli_command_line("capacity-scan", argc, argv);
    cap_ctx ctx = {o, fp};
    pascal_lock *lock = NULL;
    int rc = fp && meas && cmdline ? 0 : pascal_error_set(&err, PASCAL_ENOMEM, "out of memory");
    if (rc == 0 && (rc = pascal_session_open(o->device, o->meter, o->metric, &s, &err)) == 0) {
        int child = pascal_session_is_child(&s);
        pascal_spot_capacity cap = {(int)o->num, (int)o->reps, (int)o->passes, fp, meas,
                                    o->threshold, NAN, 0};
        default_range(o, &s);
        if ((rc = footprints(o, fp, &err)) == 0 && !child &&
            (rc = pascal_output_claim(o->out, NULL, 0, cmdline, &lock, &err)) == 0)
            rc = cli_check_output(o->out, &err);
        if (rc == 0)
            rc = pascal_session_measure(&s, n, run_one, &ctx, meas, "capacity-scan", argc, argv,
                                        &err);
        if (rc == 0 && !child)
            rc = finish(&cap, &s, o, cmdline, &err);
        pascal_session_close(&s);
        pascal_output_release(lock);
    }
    if (rc != 0)
        fprintf(stderr, "pascal capacity-scan: %s\n", err.msg);
    free(fp), free(meas), free(cmdline);
    return rc == 0 ? CLI_OK : (rc == PASCAL_EINPUT || rc == PASCAL_GPU_UNAVAILABLE) ? CLI_USAGE
                                                                                  : CLI_FAIL;
}

/* --dry-run lists the footprints; it needs --from and --to (no device). */
static int dry_run(const cap_opts *o)
{
    pascal_error err = {0};
    double *fp = malloc((size_t)o->num * sizeof *fp);
    int rc = fp ? footprints(o, fp, &err) : pascal_error_set(&err, PASCAL_ENOMEM, "out of memory");
    if (rc == 0) {
        printf("pascal capacity-scan: %lld footprints x %lld repetitions, %lld passes (dry run: "
               "nothing measured)\n", (long long)o->num, (long long)o->reps, (long long)o->passes);
        for (int64_t i = 0; i < o->num; i++)
            printf("  %14.0f bytes\n", fp[i]);
    } else {
        fprintf(stderr, "pascal capacity-scan: %s\n", err.msg);
    }
    free(fp);
    return rc == 0 ? CLI_OK : CLI_USAGE;
}

int cli_capacity_scan(int argc, char **argv)
{
    cli_flag flags[] = {
        {"output", "PATH", "output HDF5 file (alias -o); written only when complete", 0, 0},
        {"device", "auto|INDEX", "CUDA device (default auto: the first)", 0, 0},
        {"from", "SIZE", "smallest footprint (default L2/8)", 0, 0},
        {"to", "SIZE", "largest footprint, also the allocation (default 1.5 x L2)", 0, 0},
        {"num", "K", "footprints, evenly spaced (default 24)", 0, 0},
        {"passes", "P", "sweeps per launch (default 4)", 0, 0},
        {"repeat", "R", "repetitions per footprint, all recorded (default 8, as Figure 2)", 0, 0},
        {"threshold", "R", "fills per footprint byte marking the capacity (default 1.5)", 0, 0},
        {"meter", "auto|cupti|ncu", "how fills are counted (default auto)", 0, 0},
        {"metric", "NAME", "counter of off-chip read bytes or sectors (default per GPU)", 0, 0},
        {"dry-run", NULL, "list the footprints (needs --from and --to); measure nothing", 0, 0},
        {"quiet", NULL, "no per-launch lines", 0, 0},
    };
    int nf = (int)(sizeof flags / sizeof flags[0]), npos, rc;
    char *pos[1];
    cap_opts o = {0};
    for (int i = 0; i < argc; i++)
        if (strcmp(argv[i], "-o") == 0)
            argv[i] = "--output";
    rc = cli_parse("capacity-scan", usage_text, argc, argv, flags, nf, pos, 0, &npos);
    if (rc != CLI_OK)
        return rc < 0 ? CLI_OK : rc;
    if ((rc = read_opts(flags, nf, &o)) != CLI_OK)
        return rc;
    if (o.dry_run)
        return dry_run(&o);
    return measure(&o, argc, argv);
}
