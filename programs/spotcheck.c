/* pascal spotcheck: measure chosen points of a static sweep on a real GPU
 * (paper Algorithm 1) and write measured K beside the model's predictions.
 * Without CUDA support, or without a GPU, it says so and exits 2: it never
 * prints a number it did not measure.  --dry-run shows the chosen points and
 * their predictions without a GPU. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "programs/cli.h"
#include "spot/spot.h"
#include "kernels/session.h"
#include "output/fs/lock.h"

static const char *usage_text =
    "usage: pascal spotcheck SPEC.yaml (--sample K [--seed S] | --select LIST) -o OUT.h5 "
    "[options]\n\n"
    "Runs the static phase-controlled scan (paper Algorithm 1) at chosen points of a\n"
    "sweep spec on a CUDA GPU, counts the bytes each launch reads from off-chip memory\n"
    "into L2 (CUPTI, or ncu), and writes measured K = bytes / (block_bytes * rounds)\n"
    "beside the static model's predictions, one row per repetition.  Points are\n"
    "numbered as `pascal run` numbers its rows.";

typedef struct spot_opts {
    const char *out, *device, *meter, *metric, *select;
    int64_t sample, seed, rounds, reps;
    pascal_spot_start start;
    int dry_run, quiet;
} spot_opts;

static int read_opts(cli_flag *f, int nf, spot_opts *o)
{
    cli_flag *x;
    o->out = cli_find(f, nf, "output")->value;
    o->device = cli_find(f, nf, "device")->given ? cli_find(f, nf, "device")->value : "auto";
    o->meter = cli_find(f, nf, "meter")->value;
    o->metric = cli_find(f, nf, "metric")->value;
    o->select = cli_find(f, nf, "select")->value;
    o->dry_run = cli_find(f, nf, "dry-run")->given;
    o->quiet = cli_find(f, nf, "quiet")->given;
    o->seed = 1, o->rounds = 4000, o->reps = 3, o->sample = 0;
    if (((x = cli_find(f, nf, "sample"))->given && cli_int("spotcheck", x, 1, &o->sample)) ||
        ((x = cli_find(f, nf, "seed"))->given && cli_int("spotcheck", x, 0, &o->seed)) ||
        ((x = cli_find(f, nf, "rounds"))->given && cli_int("spotcheck", x, 1, &o->rounds)) ||
        ((x = cli_find(f, nf, "repeat"))->given && cli_int("spotcheck", x, 1, &o->reps)))
        return CLI_USAGE;
    x = cli_find(f, nf, "start");
    int start = PASCAL_SPOT_COLD;
    if (x->given && cli_name("spotcheck", x, pascal_spot_start_names, 2, &start) != CLI_OK)
        return CLI_USAGE;
    o->start = (pascal_spot_start)start;
    if (!o->select == !o->sample) {
        fprintf(stderr, "pascal spotcheck: expected one of --sample K or --select LIST, got %s\n",
                o->select ? "both" : "neither");
        return CLI_USAGE;
    }
    if (!o->out && !o->dry_run) {
        fprintf(stderr, "pascal spotcheck: -o/--output: expected an output path, got nothing\n");
        return CLI_USAGE;
    }
    return CLI_OK;
}

/* The ordinals to measure: a seeded sample or an explicit list. */
static int choose(const pascal_spec *spec, const spot_opts *o, int64_t **ord, int64_t *n,
                  pascal_error *err)
{
    int64_t kept;
    int rc = pascal_spot_count_kept(spec, &kept, err);
    if (rc != 0)
        return rc;
    if (o->select)
        return pascal_spot_parse_select(o->select, kept, ord, n, err);
    if (!(*ord = malloc((size_t)o->sample * sizeof **ord)))
        return pascal_error_set(err, PASCAL_ENOMEM, "out of memory");
    *n = o->sample;
    rc = pascal_spot_sample(kept, o->sample, (uint64_t)o->seed, *ord, err);
    if (rc != 0) {
        free(*ord);
        *ord = NULL;
    }
    return rc;
}

static void print_plan(const pascal_spot_plan *plan)
{
    printf("pascal spotcheck: %lld of %lld points, %lld rounds each (dry run: nothing measured)\n",
           (long long)plan->npoints, (long long)plan->kept, (long long)plan->rounds);
    printf("  %8s %8s %6s %8s %10s %10s %10s %10s\n", "point", "N", "M", "C", "block", "K_ttl",
           "K_lru", "K_che");
    for (int64_t i = 0; i < plan->npoints; i++) {
        const pascal_spot_point *p = &plan->points[i];
        printf("  %8lld %8lld %6lld %8lld %10.0f %10.4g %10.4g %10.4g\n", (long long)p->ordinal,
               (long long)p->N, (long long)p->M, (long long)p->C, p->block_bytes,
               p->pred[PASCAL_SPOT_PRED_K_TTL], p->pred[PASCAL_SPOT_PRED_K_LRU],
               p->pred[PASCAL_SPOT_PRED_K_CHE]);
    }
}

typedef struct spot_ctx {
    const pascal_spot_plan *plan;
    const spot_opts *o;
} spot_ctx;

static int run_one(pascal_gpu *g, void *ctx, int64_t i, pascal_spot_measure *m,
                   pascal_error *err)
{
    const spot_ctx *c = ctx;
    const pascal_spot_point *p = &c->plan->points[i / c->o->reps];
    pascal_gpu_static_job job = {p->N, p->M, (int64_t)p->block_bytes, c->plan->rounds,
                                 p->phases, c->o->start};
    int rc = pascal_gpu_run_static(g, &job, m, err);
    if (rc == 0 && !c->o->quiet && !isnan(m->fill_bytes))
        fprintf(stderr, "  point %lld rep %lld: %.4g ms, K = %.4g\n", (long long)p->ordinal,
                (long long)(i % c->o->reps), m->elapsed_ms,
                pascal_spot_k_static(m->fill_bytes, p->block_bytes, c->plan->rounds));
    return rc;
}

static void print_summary(const pascal_spot_plan *plan, const pascal_spot_measure *meas,
                          int64_t reps, const pascal_spot_device *dev, const char *out)
{
    double sum = 0, *k = malloc((size_t)reps * sizeof *k), mean, sd;
    int scored = 0;
    if (!k)
        return;
    printf("pascal spotcheck: %lld points x %lld repetitions on %s (%s, %s)\n",
           (long long)plan->npoints, (long long)reps, dev->name, dev->meter, dev->metric);
    printf("  %8s %10s %12s %10s %9s\n", "point", "K_ttl", "K_meas", "sd", "rel_err");
    for (int64_t i = 0; i < plan->npoints; i++) {
        const pascal_spot_point *p = &plan->points[i];
        double rel;
        for (int64_t r = 0; r < reps; r++)
            k[r] = pascal_spot_k_static(meas[i * reps + r].fill_bytes, p->block_bytes,
                                        plan->rounds);
        pascal_spot_mean_sd(k, (int)reps, &mean, &sd);
        rel = pascal_spot_rel_err(mean, p->pred[PASCAL_SPOT_PRED_K_TTL]);
        if (!isnan(rel))
            sum += rel, scored++;
        printf("  %8lld %10.4g %12.4g %10.3g %8.2f%%\n", (long long)p->ordinal,
               p->pred[PASCAL_SPOT_PRED_K_TTL], mean, sd, 100 * rel);
    }
    if (scored)
        printf("  MAPE of K_ttl over %d points: %.2f%%\n", scored, 100 * sum / scored);
    printf("  wrote %s\n", out);
    free(k);
}

static int write_table(const pascal_spot_plan *plan, const spot_opts *o,
                       const pascal_spot_measure *meas, const pascal_session *s,
                       const char *cmdline, pascal_error *err)
{
    char seed[32], reps[32], sel[64];
    pascal_attr extra[] = {
        {"kind", "pascal-spotcheck"},
        {"selection", o->select ? o->select : sel},
        {"sample_seed", seed},
        {"repetitions", reps},
        {"start_state", pascal_spot_start_names[o->start]},
        {"spec_device", pascal_spec_device_path(plan->spec)},
        {"cupti_unavailable_because", s->cupti_reason},
    };
    snprintf(seed, sizeof seed, "%lld", (long long)o->seed);
    snprintf(reps, sizeof reps, "%lld", (long long)o->reps);
    snprintf(sel, sizeof sel, "sample of %lld", (long long)o->sample);
    return pascal_spot_write(o->out, plan, (int)o->reps, meas, pascal_gpu_device(s->gpu), cmdline,
                             extra, (int)(sizeof extra / sizeof extra[0]), err);
}

static int measure(const pascal_spot_plan *plan, const spot_opts *o, int argc, char **argv)
{
    pascal_session s;
    pascal_error err = {0};
    int64_t n = plan->npoints * o->reps;
    pascal_spot_measure *meas = calloc((size_t)n, sizeof *meas);
    spot_ctx ctx = {plan, o};
    pascal_lock *lock = NULL;
    char *cmdline = cli_command_line("spotcheck", argc, argv);
    int rc = meas && cmdline ? 0 : pascal_error_set(&err, PASCAL_ENOMEM, "out of memory");
    if (rc == 0 && (rc = pascal_session_open(o->device, o->meter, o->metric, &s, &err)) == 0) {
        int child = pascal_session_is_child(&s);
        /* The measuring child of an ncu session writes nothing: the parent
         * holds the claim (output/fs/lock.h). */
        if (!child && (rc = pascal_output_claim(o->out, NULL, 0, cmdline, &lock, &err)) == 0)
            rc = cli_check_output(o->out, &err);
        if (rc == 0)
            rc = pascal_session_measure(&s, n, run_one, &ctx, meas, "spotcheck", argc, argv, &err);
        if (rc == 0 && !child && (rc = write_table(plan, o, meas, &s, cmdline, &err)) == 0)
            print_summary(plan, meas, o->reps, pascal_gpu_device(s.gpu), o->out);
        pascal_session_close(&s);
        pascal_output_release(lock);
    }
    if (rc != 0)
        fprintf(stderr, "pascal spotcheck: %s\n", err.msg);
    free(meas);
    free(cmdline);
    return rc == 0 ? CLI_OK : (rc == PASCAL_EINPUT || rc == PASCAL_GPU_UNAVAILABLE) ? CLI_USAGE
                                                                                  : CLI_FAIL;
}

int cli_spotcheck(int argc, char **argv)
{
    cli_flag flags[] = {
        {"output", "PATH", "output HDF5 file (alias -o); written only when complete", 0, 0},
        {"sample", "K", "measure K points drawn by a seeded sampler", 0, 0},
        {"seed", "S", "sampler seed (default 1)", 0, 0},
        {"select", "LIST", "measure these points instead, e.g. 0,3,5-9", 0, 0},
        {"rounds", "H", "rounds per launch (default 4000, as in the paper)", 0, 0},
        {"repeat", "R", "repetitions per point, all recorded (default 3)", 0, 0},
        {"start", "cold|warm", "L2 state at each launch (default cold: flushed)", 0, 0},
        {"device", "auto|INDEX", "CUDA device (default auto: the first)", 0, 0},
        {"meter", "auto|cupti|ncu", "how fills are counted (default auto)", 0, 0},
        {"metric", "NAME", "counter of off-chip read bytes or sectors (default per GPU)", 0, 0},
        {"dry-run", NULL, "show the chosen points and predictions; measure nothing", 0, 0},
        {"quiet", NULL, "no per-launch lines", 0, 0},
    };
    int nf = (int)(sizeof flags / sizeof flags[0]), npos, rc;
    char *pos[1];
    spot_opts o = {0};
    pascal_spec *spec = NULL;
    pascal_spot_plan *plan = NULL;
    int64_t *ord = NULL, n = 0;
    pascal_error err = {0};
    for (int i = 0; i < argc; i++)
        if (strcmp(argv[i], "-o") == 0)
            argv[i] = "--output";
    rc = cli_parse("spotcheck", usage_text, argc, argv, flags, nf, pos, 1, &npos);
    if (rc != CLI_OK)
        return rc < 0 ? CLI_OK : rc;
    if (npos != 1) {
        fprintf(stderr, "pascal spotcheck: expected a spec file, got nothing (see --help)\n");
        return CLI_USAGE;
    }
    if ((rc = read_opts(flags, nf, &o)) != CLI_OK)
        return rc;
    if (pascal_spec_load(pos[0], &spec, &err) != 0 ||
        (!o.dry_run && pascal_output_check_inputs(o.out, (pascal_input[]){
             {"spec", pascal_spec_filename(spec)},
             {"device profile", pascal_spec_device_path(spec)},
             {"calibration", pascal_spec_calibration(spec, NULL, NULL)}}, 3, &err) != 0)) {
        fprintf(stderr, "%s\n", err.msg);
        rc = CLI_USAGE;
    } else if (choose(spec, &o, &ord, &n, &err) != 0 ||
               pascal_spot_plan_build(spec, ord, n, o.rounds, &plan, &err) != 0) {
        fprintf(stderr, "pascal spotcheck: %s\n", err.msg);
        rc = err.code == PASCAL_EINPUT ? CLI_USAGE : CLI_FAIL;
    } else if (o.dry_run) {
        print_plan(plan);
    } else {
        rc = measure(plan, &o, argc, argv);
    }
    pascal_spot_plan_free(plan);
    free(ord);
    pascal_spec_free(spec);
    return rc;
}
