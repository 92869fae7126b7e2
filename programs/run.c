/* pascal run: evaluate a sweep spec and print a summary a person can read. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "programs/cli.h"
#include "programs/progress.h"
#include "programs/signals.h"
#include "engine/parallel.h"
#include "engine/plan.h"
#include "engine/run.h"
#ifdef PASCAL_MPI
#include "engine/mpi/run_mpi.h"
#endif
#include "model/phases.h"
#include "sweeps/workload.h"

static const char *usage_text =
    "usage: pascal run SPEC.yaml -o OUT.h5 [options]\n\n"
    "Evaluates every point of a sweep spec with the requested models and writes\n"
    "one row per point (HDF5 by default).  Every point is checked before the\n"
    "output is created; the file appears under its name only when complete.";

/* Exact sizes as 20MiB; others to three significant digits, 4.22MiB. */
static void format_size(double v, char *buf, size_t len)
{
    static const char *units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int u = 0;
    double x = v;
    pascal_size_format(v, buf, (int)len);
    if (strchr(buf, 'i') || v < 1024)
        return;
    while (x >= 1024 && u < 4)
        x /= 1024, u++;
    snprintf(buf, len, "%.3g%s", x, units[u]);
}

static void format_value(const pascal_spec *spec, int id, double v, char *buf, size_t len)
{
    int nlabels;
    const char *const *labels = pascal_spec_param_labels(spec, id, &nlabels);
    if (isnan(v))
        snprintf(buf, len, "unset");
    else if (pascal_params[id].type == PASCAL_T_SIZE)
        format_size(v, buf, len);
    else if (pascal_params[id].type == PASCAL_T_PATTERN && v >= 0 && v < PASCAL_PATTERN_COUNT)
        snprintf(buf, len, "%s", pascal_pattern_names[(int)v]);
    else if (pascal_params[id].type == PASCAL_T_PATH)
        snprintf(buf, len, "%s", pascal_path_names[v == 1]);
    else if (pascal_params[id].type == PASCAL_T_NAME && v >= 0 && v < nlabels)
        snprintf(buf, len, "%s", labels[(int)v]);
    else
        snprintf(buf, len, "%.10g", v);
}

/* "pattern=uniform, occupancy=8" over the axes, leaving out one axis. */
static void describe_point(const pascal_spec *spec, const pascal_point *p, int skip,
                           char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = 0;
    for (int a = 0; a < pascal_spec_naxes(spec) && used < len; a++) {
        int id = pascal_spec_axis(spec, a)->param;
        char v[64];
        if (a == skip)
            continue;
        format_value(spec, id, p->v[id], v, sizeof v);
        used += (size_t)snprintf(buf + used, len - used, "%s%s=%s", used ? ", " : "",
                                 pascal_params[id].name, v);
    }
}

/* A workload's sizing in its own terms, one line per scenario: "context
 * length 65536 needs 38MiB for <= 1.2x ideal traffic". */
static void print_traffic_sizing(FILE *f, const pascal_spec *spec, const pascal_run_stats *st,
                                 const char *metric)
{
    int id = pascal_spec_axis(spec, st->cap_axis)->param;
    int gid = st->group_axis >= 0 ? pascal_spec_axis(spec, st->group_axis)->param : -1;
    const char *phrase = gid >= 0 ? pascal_workload_phrase(gid) : NULL;
    char where[512], v[64], g[96], gv[64];
    char who[160];
    fprintf(f, "  sizing: smallest swept %s whose worst case over the other axes keeps %s "
               "(DRAM fills / ideal traffic) <= %g\n", pascal_params[id].name, metric, st->target);
    if (st->metric == PASCAL_COL_ANSWER_TRAFFIC &&
        pascal_answer_describe(pascal_spec_models(spec), who, sizeof who))
        fprintf(f, "    the answer per point: %s; answer_source says which\n", who);
    for (int k = 0; k < st->ngroups; k++) {
        const pascal_run_sizing *z = &st->sizing[k];
        if (gid >= 0) {
            format_value(spec, gid, z->group_value, gv, sizeof gv);
            snprintf(g, sizeof g, "%s %s", phrase ? phrase : pascal_params[gid].name, gv);
        } else {
            snprintf(g, sizeof g, "the sweep");
        }
        if (!isnan(z->cap_value)) {
            format_value(spec, id, z->cap_value, v, sizeof v);
            fprintf(f, "    %s needs %s for <= %gx ideal traffic%s", g, v, st->target,
                    z->rises ? " (a smaller swept size meets it too, but a larger one between "
                               "misses: the answer rises with C there)" : "");
        } else {
            describe_point(spec, &z->at_cap_worst, st->cap_axis, where, sizeof where);
            format_value(spec, id, z->at_cap_worst.v[id], v, sizeof v);
            fprintf(f, "    %s: no swept size gives <= %gx ideal traffic; at %s it is %.4gx (%s)", g,
                    st->target, v, z->cap_worst, where);
        }
        if (!st->band) {
            fputc('\n', f);
            continue;
        }
        if (!isnan(z->band_cap_value)) {
            format_value(spec, id, z->band_cap_value, v, sizeof v);
            fprintf(f, "; the band's high end %s\n", v);
        } else {
            fprintf(f, "; the band's high end: no swept size (%.4gx at the largest)\n", z->band_cap_worst);
        }
    }
    if (st->band)
        fprintf(f, "    the band's high end: answer_traffic_hi, the 90th percentile of band_seeds "
                   "free-running simulations (docs/workloads.md section 3.1)\n");
}

/* The exact answers (engine/run_sizing.h): per group, the scenario that
 * needs the most capacity, with the grid's answer beside it. */
static void print_exact(FILE *f, const pascal_spec *spec, const pascal_run_stats *st)
{
    int id = pascal_spec_axis(spec, st->cap_axis)->param;
    const char *col = pascal_columns[st->sizing_target.column].name;
    char where[512], v[64], g[64], grid[64], tt[96];
    pascal_target_format(&st->sizing_target, tt, sizeof tt);
    fprintf(f, "  sizing: smallest capacity meeting %s in every scenario of the other axes, exact to "
               "a block (bisection on C between the swept capacities)\n", tt);
    for (int k = 0; k < st->ngroups; k++) {
        const pascal_run_sizing *z = &st->sizing[k];
        if (st->group_axis >= 0)
            format_value(spec, pascal_spec_axis(spec, st->group_axis)->param, z->group_value, g, sizeof g);
        else
            snprintf(g, sizeof g, "all points");
        describe_point(spec, &z->at_exact, st->cap_axis, where, sizeof where);
        if (isnan(z->exact_value) && isnan(z->cap_worst)) {
            fprintf(f, "    %-12s no point with a %s value%s\n", g, col,
                    st->raw_end - st->raw_begin < pascal_spec_size(spec) ? " in this shard" : "");
            continue;
        }
        if (z->exact_C < 0) {
            fprintf(f, "    %-12s none: %s = %.4g at C = %.0f%s%s%s\n", g, col, z->exact_value,
                    z->at_exact.v[PASCAL_P_C], where[0] ? " (" : "", where, where[0] ? ")" : "");
            continue;
        }
        v[0] = '\0';
        if (!isnan(z->exact_bytes))
            snprintf(v, sizeof v, " = %.2f MiB", z->exact_bytes / 1048576.0);
        if (isnan(z->cap_value))
            snprintf(grid, sizeof grid, "none swept");
        else
            format_value(spec, id, z->cap_value, grid, sizeof grid);
        fprintf(f, "    %-12s C = %lld blocks%s (grid: %s); %s%s%s%s = %.4g\n", g,
                (long long)z->exact_C, v, grid, where[0] ? "needed by " : "", where,
                where[0] ? ", " : "", col, z->exact_value);
    }
}

/* One line per scenario: the smallest capacity meeting the target. */
static void print_sizing(FILE *f, const pascal_spec *spec, const pascal_run_opts *o,
                         const pascal_run_stats *st, const char *metric)
{
    int id = pascal_spec_axis(spec, st->cap_axis)->param;
    char where[512], v[64], g[64];
    (void)o;
    if (pascal_columns[st->metric].model == PASCAL_MODEL_TRAFFIC) {
        print_traffic_sizing(f, spec, st, metric);
        return;
    }
    if (st->sizing_exact) {
        print_exact(f, spec, st);
        return;
    }
    fprintf(f, "  sizing: smallest swept %s whose worst case over the other axes has %s <= %g\n",
           pascal_params[id].name, metric, st->target);
    for (int k = 0; k < st->ngroups; k++) {
        const pascal_run_sizing *z = &st->sizing[k];
        if (st->group_axis >= 0)
            format_value(spec, pascal_spec_axis(spec, st->group_axis)->param, z->group_value, g, sizeof g);
        else
            snprintf(g, sizeof g, "all points");
        if (!isnan(z->cap_value)) {
            format_value(spec, id, z->cap_value, v, sizeof v);
            fprintf(f, "    %-12s %s\n", g, v);
            continue;
        }
        if (isnan(z->cap_worst)) {
            fprintf(f, "    %-12s no point with a %s value%s\n", g, metric,
                    st->raw_end - st->raw_begin < pascal_spec_size(spec) ? " in this shard" : "");
            continue;
        }
        describe_point(spec, &z->at_cap_worst, st->cap_axis, where, sizeof where);
        format_value(spec, id, z->at_cap_worst.v[id], v, sizeof v);
        fprintf(f, "    %-12s none: at %s the worst is %.4g%s%s%s\n", g, v, z->cap_worst,
                where[0] ? " (" : "", where, where[0] ? ")" : "");
    }
    if (st->sizing_note[0])
        fprintf(f, "    (swept capacities only; no exact search: %s)\n", st->sizing_note);
}

/* The values a parameter takes in the spec: its axis's, else the fixed
 * one (NaN: unset); *n gets their count, at most 1 for a fixed value. */
static const double *param_values(const pascal_spec *spec, int param, int64_t *n)
{
    for (int a = 0; a < pascal_spec_naxes(spec); a++)
        if (pascal_spec_axis(spec, a)->param == param) {
            *n = pascal_spec_axis(spec, a)->count;
            return pascal_spec_axis(spec, a)->values;
        }
    *n = isnan(pascal_spec_fixed(spec)->v[param]) ? 0 : 1;
    return &pascal_spec_fixed(spec)->v[param];
}

/* A workload whose stream length is no multiple of its tile: the last
 * block of each stream is partial, and its bytes are counted whole (the
 * ideal and fill bytes count blocks).  Said once, for the first such pair
 * of values (the spec may pair them with `where`, so "may"). */
static void print_padding(FILE *f, const pascal_spec *spec)
{
    static const struct {
        int len, tile;
        const char *what;
    } pairs[] = {{PASCAL_P_SEQ_KV, PASCAL_P_TILE_KV, "each K and V stream"},
                 {PASCAL_P_GEMM_K, PASCAL_P_TILE_K, "each A and B stream"}};
    for (size_t k = 0; k < sizeof pairs / sizeof pairs[0]; k++) {
        int64_t nl, nt;
        const double *len = param_values(spec, pairs[k].len, &nl);
        const double *tile = param_values(spec, pairs[k].tile, &nt);
        for (int64_t i = 0; i < nl; i++)
            for (int64_t j = 0; j < nt; j++) {
                int64_t L = (int64_t)len[i], T = (int64_t)tile[j];
                if (T < 1 || L < 1 || L % T == 0)
                    continue;
                fprintf(f, "  padding: %s %lld is no multiple of %s %lld: %s ends in a block of %lld "
                           "of its %lld rows, counted whole (%lld blocks), at the points that pair "
                           "them\n", pascal_params[pairs[k].len].name, (long long)L,
                        pascal_params[pairs[k].tile].name, (long long)T, pairs[k].what,
                        (long long)(L % T), (long long)T, (long long)((L + T - 1) / T));
                return;
            }
    }
}

static void print_summary(FILE *f, const pascal_spec *spec, const pascal_run_opts *o,
                          const pascal_run_stats *st)
{
    char where[512];
    const char *metric = st->metric >= 0 ? pascal_columns[st->metric].name : NULL;
    double rate = st->total_seconds > 0 ? (double)st->rows / st->total_seconds : 0;
    fprintf(f, "pascal: %llu points of %s in %.3f s (%.3g points/s, %d threads)\n",
           (unsigned long long)st->rows, pascal_spec_filename(spec), st->total_seconds, rate,
           st->threads);
    if (st->rows_recovered > 0)
        fprintf(f, "  recovered: %llu rows from the journal of a killed run\n",
                (unsigned long long)st->rows_recovered);
    if (st->rows_resumed > 0)
        fprintf(f, "  resumed: %llu rows kept from %s.partial\n",
                (unsigned long long)st->rows_resumed, o->out_path);
    if (st->resumed_nothing)
        fprintf(f, "  nothing to resume (no %s.partial): ran from the first point\n",
                o->out_path);
    if (st->temporaries_removed > 0)
        fprintf(f, "  removed %llu temporary file%s of killed runs\n",
                (unsigned long long)st->temporaries_removed,
                st->temporaries_removed == 1 ? "" : "s");
    if (st->ranks > 0 && !o->dry_run) {
        fprintf(f, "  %d MPI ranks x %d threads: %llu to %llu rows each, %.3g rows/s each "
                   "while evaluating, %.3g to %.3g CPU s each\n", st->ranks, st->threads,
                (unsigned long long)st->rows_rank_min, (unsigned long long)st->rows_rank_max,
                st->rank_rows_per_s, st->rank_cpu_min, st->rank_cpu_max);
        fprintf(f, "  collective writes: %.3f s on rank 0 (%.3g MiB/s of rows)\n",
                st->write_seconds, st->write_seconds > 0 ? (double)st->write_bytes /
                                                           st->write_seconds / 1048576.0 : 0.0);
    }
    if (o->shard_count > 1)
        fprintf(f, "  shard %d/%d: raw points %llu to %llu\n", o->shard_index, o->shard_count,
                (unsigned long long)st->raw_begin, (unsigned long long)st->raw_end - 1);
    if (pascal_spec_decimal_note(spec)[0])
        fprintf(f, "  note: %s\n", pascal_spec_decimal_note(spec));
    if (st->rows != st->raw_points)
        fprintf(f, "  %llu of %llu raw points dropped by `where`%s\n",
               (unsigned long long)(st->raw_points - st->rows),
               (unsigned long long)st->raw_points,
               pascal_spec_infeasible_skip(spec)
                   ? " or as infeasible on the device (infeasible: skip)" : "");
    if (!isnan(pascal_spec_fixed(spec)->v[PASCAL_P_WORKLOAD]))
        print_padding(f, spec);
    if (o->dry_run) {
        fprintf(f, "  dry run: every point checked, nothing written\n");
        return;
    }
    fprintf(f, "  wrote %s (%s, %d result columns)\n", o->out_path,
           o->format == PASCAL_SINK_CSV ? "CSV" : "HDF5", pascal_spec_ncolumns(spec));
    if (!metric || isnan(st->min))
        return;
    describe_point(spec, &st->at_min, -1, where, sizeof where);
    fprintf(f, "  headline: %s (%s) ranges from %.4g at (%s)\n", metric,
           pascal_columns[st->metric].units, st->min, where);
    describe_point(spec, &st->at_max, -1, where, sizeof where);
    fprintf(f, "            to %.4g at (%s)\n", st->max, where);
    if (st->cap_axis >= 0)
        print_sizing(f, spec, o, st, metric);
}

/* "0.12 s", "3.4 min", "5.1 h", "12 days", "3.2e+04 years". */
static void format_duration(double s, char *buf, size_t len)
{
    if (s < 60)
        snprintf(buf, len, "%.2g s", s);
    else if (s < 3600)
        snprintf(buf, len, "%.2g min", s / 60);
    else if (s < 86400 * 2)
        snprintf(buf, len, "%.2g h", s / 3600);
    else if (s < 86400 * 365.25 * 2)
        snprintf(buf, len, "%.3g days", s / 86400);
    else
        snprintf(buf, len, "%.3g years", s / (86400 * 365.25));
}

/* The plan, printed before the check pass when a person is watching, on
 * --dry-run, or when the work is long enough to matter (stderr: stdout may
 * carry CSV). */
typedef struct estimate_show {
    int always;
    int threads;
    const char *spec;
} estimate_show;

static void print_estimate(void *ctx, const pascal_plan_estimate *e)
{
    const estimate_show *w = ctx;
    char check[32], run[32];
    if (!w->always && e->check_seconds + e->run_seconds < 10)
        return;
    format_duration(e->check_seconds, check, sizeof check);
    format_duration(e->run_seconds, run, sizeof run);
    fprintf(stderr, "pascal: %s: %llu points\n", w->spec, (unsigned long long)e->raw_points);
    if (e->per_point)
        fprintf(stderr, "  check: every point, about %s\n", check);
    else
        fprintf(stderr, "  check: %llu points (the checks read only %s), about %s\n",
                (unsigned long long)e->check_evals, e->axes[0] ? e->axes : "fixed values", check);
    fprintf(stderr, "  run: about %.3g rows%s, about %s on %d thread%s (estimate)\n", e->rows,
            e->kept_fraction < 1 ? " after `where`" : "", run, w->threads, w->threads == 1 ? "" : "s");
    fflush(stderr);
}

/* Ctrl-C or SIGTERM: the run stops after its current batch and keeps its
 * finished rows for --resume; a second signal ends the process at once
 * (the journal keeps the rows: programs/signals.h). */
static int should_stop(void *ctx)
{
#ifdef PASCAL_TEST_HOOKS
    cli_test_hook_batch();
#endif
    return cli_stop_requested(ctx);
}


static int has_suffix(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n > k && strcasecmp(s + n - k, suffix) == 0;
}

/* -o NAME.csv writes CSV unless --format says otherwise; a --format that
 * contradicts the name (.csv, .h5, .hdf5) is an error. */
static int format_from_name(const cli_flag *format, pascal_run_opts *o)
{
    const char *p = o->out_path;
    int csv_name = p && has_suffix(p, ".csv");
    int h5_name = p && (has_suffix(p, ".h5") || has_suffix(p, ".hdf5"));
    if (!format->given) {
        if (csv_name)
            o->format = PASCAL_SINK_CSV;
        return CLI_OK;
    }
    if ((csv_name && o->format != PASCAL_SINK_CSV) || (h5_name && o->format == PASCAL_SINK_CSV)) {
        fprintf(stderr, "pascal run: --format: expected %s for an output named \"%s\", got %s\n",
                csv_name ? "csv" : "hdf5", p, format->value);
        return CLI_USAGE;
    }
    return CLI_OK;
}

static int read_options(cli_flag *f, int nf, pascal_run_opts *o)
{
    int64_t n;
    double r;
    cli_flag *x;
    if ((x = cli_find(f, nf, "threads"))->given && cli_threads("run", x, &o->threads) != CLI_OK)
        return CLI_USAGE;
    if ((x = cli_find(f, nf, "memory"))->given && cli_size("run", x, &o->memory_bytes) != CLI_OK)
        return CLI_USAGE;
    if ((x = cli_find(f, nf, "compression"))->given) {
        if (cli_int("run", x, 0, &n) != CLI_OK) /* it says why */
            return CLI_USAGE;
        if (n > 9) {
            fprintf(stderr, "pascal run: --compression: expected a level 0..9, got \"%s\"\n",
                    x->value);
            return CLI_USAGE;
        }
        o->compression = (int)n;
    }
    if ((x = cli_find(f, nf, "batch"))->given) {
        if (cli_int("run", x, 1, &n) != CLI_OK)
            return CLI_USAGE;
        o->batch_points = n > ((int64_t)1 << 30) ? (int64_t)1 << 30 : n;
    }
    if ((x = cli_find(f, nf, "target"))->given) {
        if (cli_real("run", x, 0, &r) != CLI_OK)
            return CLI_USAGE;
        o->target = r;
    }
    if ((x = cli_find(f, nf, "format"))->given) {
        if (strcmp(x->value, "csv") == 0)
            o->format = PASCAL_SINK_CSV;
        else if (strcmp(x->value, "hdf5") != 0) {
            fprintf(stderr, "pascal run: --format: expected hdf5 or csv, got \"%s\"\n", x->value);
            return CLI_USAGE;
        }
    }
    if ((x = cli_find(f, nf, "shard"))->given) {
        int k = 0, count = 0;
        char tail = 0;
        if (sscanf(x->value, "%d/%d%c", &k, &count, &tail) != 2 || count < 1 || k < 1 ||
            k > count || count > 1000000) {
            fprintf(stderr, "pascal run: --shard: expected K/N with 1 <= K <= N <= 1000000, like 2/8, "
                            "got \"%s\"\n", x->value);
            return CLI_USAGE;
        }
        o->shard_index = k, o->shard_count = count;
    }
    o->dry_run = cli_find(f, nf, "dry-run")->given;
    o->resume = cli_find(f, nf, "resume")->given;
    if (!cli_find(f, nf, "quiet")->given && cli_stderr_is_terminal())
        o->progress = o->check_progress = cli_progress_update; /* ctx: cli_run's bar */
    o->out_path = cli_find(f, nf, "output")->value;
    if (!o->out_path && !o->dry_run) {
        fprintf(stderr, "pascal run: -o/--output: expected an output path, got nothing\n");
        return CLI_USAGE;
    }
    return format_from_name(cli_find(f, nf, "format"), o);
}

/* The run's driver: pascal_run, or pascal_run_mpi for a rank of pascal-mpi. */
typedef int (*run_fn)(const pascal_spec *, const pascal_run_opts *, pascal_run_stats *,
                      pascal_error *);

static int run_command(int argc, char **argv, run_fn runner)
{
    cli_flag flags[] = {
        {"output", "PATH", "output file (alias -o); written as PATH.tmp.PID, renamed when done", 0, 0},
        {"format", "hdf5|csv", "output format (default: csv for -o NAME.csv, else hdf5)", 0, 0},
        {"threads", "N", "OpenMP threads (default: all cores)", 0, 0},
        {"compression", "0-9", "deflate level, overriding the spec (0: none)", 0, 0},
        {"target", "RATE", "sizing target: a miss rate (default 0.05), or for a workload's "
                           "traffic the ratio to ideal (default 1.2)", 0, 0},
        {"shard", "K/N", "evaluate only slice K of N (1-based); join with pascal merge", 0, 0},
        {"dry-run", NULL, "check every point and count them; write nothing", 0, 0},
        {"resume", NULL, "continue the run that Ctrl-C stopped (OUT.partial, HDF5 only)", 0, 0},
        {"quiet", NULL, "no progress bar", 0, 0},
        {"memory", "SIZE", "memory the planned workspaces may use (default: this machine's)", 0, 0},
        {"batch", "N", "raw points evaluated between two checks for Ctrl-C (default 65536); "
                       "under mpirun also the largest piece a rank takes", 0, 0},
    };
    int nf = (int)(sizeof flags / sizeof flags[0]), npos, rc;
    char *pos[1], *cmdline;
    pascal_run_opts o = {0};
    cli_progress bar = {0};
    estimate_show show;
    pascal_run_stats st;
    pascal_spec *spec = NULL;
    pascal_error err = {0};
    for (int i = 0; i < argc; i++)
        if (strcmp(argv[i], "-o") == 0)
            argv[i] = "--output";
    rc = cli_parse("run", usage_text, argc, argv, flags, nf, pos, 1, &npos);
    if (rc != CLI_OK)
        return rc < 0 ? CLI_OK : rc;
    if (npos != 1) {
        fprintf(stderr, "pascal run: expected a spec file, got nothing (see pascal run --help)\n");
        return CLI_USAGE;
    }
    /* One of several ranks of mpirun: each would run the whole sweep. */
    if (runner == pascal_run && cli_mpi_ranks() > 1) {
        fprintf(stderr, "pascal run: expected one process, got one of %d ranks of mpirun; this "
                        "pascal is built without MPI: run pascal-mpi under mpirun "
                        "(docs/scale.md), or --shard K/N for separate jobs\n", cli_mpi_ranks());
        return CLI_USAGE;
    }
    o.compression = -1;
    o.target = 0;   /* the metric's default (pascal_run_default_target) */
    if ((rc = read_options(flags, nf, &o)) != CLI_OK)
        return rc;
    if (pascal_spec_load(pos[0], &spec, &err) != 0) {
        fprintf(stderr, "%s\n", err.msg);
        return CLI_USAGE;
    }
    cmdline = cli_command_line("run", argc, argv);
    o.command_line = cmdline;
    o.should_stop = should_stop;
    o.progress_ctx = &bar;
    o.stop_flag = cli_stop_flag();
    show.always = o.dry_run || o.progress;
    show.threads = pascal_parallel_threads(o.threads);
    show.spec = pascal_spec_filename(spec);
    o.on_estimate = print_estimate;
    o.estimate_ctx = &show;
    cli_stop_begin(1);
    rc = runner(spec, &o, &st, &err);
    cli_progress_finish(&bar);
    cli_stop_end();
    if (rc == 0)
        /* CSV on stdout keeps stdout for data: the summary goes to stderr. */
        print_summary(o.out_path && strcmp(o.out_path, "-") == 0 ? stderr : stdout, spec, &o, &st);
    else
        fprintf(stderr, "%s\n", err.msg);
    /* Only a kept partial file can be continued (HDF5; CSV keeps nothing). */
    if (rc == PASCAL_EINTR && st.rows_done > 0 && o.format == PASCAL_SINK_HDF5)
        fprintf(stderr, "  continue with: %s%s\n", cmdline, o.resume ? "" : " --resume");
    free(cmdline);
    pascal_spec_free(spec);
    if (rc == 0)
        return CLI_OK;
    if (rc == PASCAL_EINTR)
        return 130; /* the shell's code for a run ended by Ctrl-C */
    return rc == PASCAL_EINPUT ? CLI_USAGE : CLI_FAIL;
}

int cli_run(int argc, char **argv)
{
    return run_command(argc, argv, pascal_run);
}

#ifdef PASCAL_MPI
/* pascal-mpi: the ranks share the run (programs/run_mpi.c starts MPI). */
int cli_run_ranks(int argc, char **argv)
{
    return run_command(argc, argv, pascal_run_mpi);
}
#endif
