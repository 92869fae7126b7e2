/* pascal size: the smallest capacity that meets a target, per scenario or
 * for the worst case, by bisection on whole blocks (engine/size.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/json.h"
#include "programs/cli.h"
#include "programs/signals.h"
#include "engine/run.h"
#include "engine/size.h"
#include "model/phases.h"

static const char *usage_text =
    "usage: pascal size SPEC.yaml [--target 'rho_lru <= 0.05'] [--worst] [--json]\n\n"
    "For each scenario of SPEC (each combination of its axes but the capacity, or\n"
    "each draw of a sampled spec), finds the smallest capacity C in whole blocks\n"
    "whose target column meets the target, by bisection between the capacity\n"
    "axis's smallest and largest values (1..N when the capacity is not swept).\n"
    "The target comes from --target or from the spec's search: section; a\n"
    "workload spec with neither sizes its answer, answer_traffic <= 1.2, as\n"
    "the run summary and the report do (--target 1.1 sets the bound).\n"
    "The simulator's columns (traffic_sim, answer_traffic_hi, the answer where\n"
    "the simulator answers) are not shown monotone in C: they are probed at 17\n"
    "log-spaced capacities, then bisected above the last miss, and any rise\n"
    "with C is reported; where the simulator answers, the band's high end\n"
    "(answer_traffic_hi) is sized on the same bound beside the answer.\n"
    "The dynamic model's K_dyn and rho_dyn are searched inside the calibration's\n"
    "capacities: between the smallest and largest of a calibration over several\n"
    "(where K never grows with C), at the one C of a one-capacity calibration.\n"
    "--worst prints one answer: the scenario that needs the most capacity.\n"
    "--json prints one object per line: the scenario's axis values, C,\n"
    "capacity_bytes, value (the target column at C) and range (the searched C).";

typedef struct printer {
    const pascal_spec *spec;
    const pascal_target *target;
    int cap_axis;
    int json;
} printer;

static void text_value(const pascal_spec *spec, int id, double v, char *buf, size_t len)
{
    int nlabels;
    const char *const *labels = pascal_spec_param_labels(spec, id, &nlabels);
    if (isnan(v))
        snprintf(buf, len, "unset");
    else if (pascal_params[id].type == PASCAL_T_SIZE)
        pascal_size_format(v, buf, (int)len);
    else if (labels && v >= 0 && v < nlabels) /* patterns, paths, names */
        snprintf(buf, len, "%s", labels[(int)v]);
    else
        snprintf(buf, len, "%.10g", v);
}

/* "C": .., "capacity_bytes": .., "value": .. (null where there is none). */
static void json_answer(FILE *f, int64_t C, double bytes, double value)
{
    fputs("\"C\": ", f);
    pascal_json_num(f, C >= 0 ? (double)C : NAN, 17);
    fputs(", \"capacity_bytes\": ", f);
    pascal_json_num(f, bytes, 17);
    fputs(", \"value\": ", f);
    pascal_json_num(f, value, 17);
}

static void print_json(const printer *pr, const pascal_size_result *r, FILE *f)
{
    fputc('{', f);
    for (int a = 0; a < pascal_spec_naxes(pr->spec); a++) {
        int id = pascal_spec_axis(pr->spec, a)->param, t = pascal_params[id].type;
        double v = r->point.v[id];
        if (a == pr->cap_axis)
            continue;
        pascal_json_str(f, pascal_params[id].name);
        fputs(": ", f);
        if (t == PASCAL_T_PATTERN || t == PASCAL_T_PATH || t == PASCAL_T_NAME) {
            char buf[64];
            text_value(pr->spec, id, v, buf, sizeof buf);
            pascal_json_str(f, buf);
        } else {
            pascal_json_num(f, v, 17);
        }
        fputs(", ", f);
    }
    json_answer(f, r->C, r->capacity_bytes, r->value);
    fprintf(f, ", \"range\": [%lld, %lld]", (long long)r->lo, (long long)r->hi);
    if (r->monotone >= 0) {
        fprintf(f, ", \"probes\": %d, \"monotone\": %s", r->probes, r->monotone ? "true" : "false");
        if (!r->monotone) {
            fprintf(f, ", \"rise\": [[%lld, ", (long long)r->rise_C[0]);
            pascal_json_num(f, r->rise_v[0], 17);
            fprintf(f, "], [%lld, ", (long long)r->rise_C[1]);
            pascal_json_num(f, r->rise_v[1], 17);
            fputs("]]", f);
        }
    }
    if (r->band_C != -2) {
        fputs(", \"band_hi\": {", f);
        json_answer(f, r->band_C, r->band_bytes, r->band_value);
        fprintf(f, ", \"monotone\": %s}", r->band_monotone ? "true" : "false");
    }
    fputs("}\n", f);
}

static void bytes_text(double bytes, char *buf, size_t len)
{
    buf[0] = '\0';
    if (!isnan(bytes) && bytes >= 1048576.0)
        snprintf(buf, len, " = %.2f MiB", bytes / 1048576.0);
    else if (!isnan(bytes))
        snprintf(buf, len, " = %.2f KiB", bytes / 1024.0);
}

/* What a probed search saw, and the band's high end, after the answer. */
static void print_extras(const pascal_size_result *r, const char *col, FILE *f)
{
    char v[64];
    if (r->monotone == 1)
        fprintf(f, "    probed: %s never rose with C over the %d capacities evaluated\n", col, r->probes);
    else if (r->monotone == 0)
        fprintf(f, "    probed: not monotone: %s rises from %.6g at C = %lld to %.6g at C = %lld "
                   "(largest rise of %d capacities evaluated); the answer is the smallest C from "
                   "which every one evaluated meets the target\n", col, r->rise_v[0],
                (long long)r->rise_C[0], r->rise_v[1], (long long)r->rise_C[1], r->probes);
    if (r->band_C == -2)
        return;
    if (r->band_C < 0) {
        fprintf(f, "    band high end (answer_traffic_hi): none in C = %lld..%lld (%.6g at C = %lld)%s\n",
                (long long)r->lo, (long long)r->hi, r->band_value, (long long)r->hi,
                r->band_monotone == 0 ? "; not monotone" : "");
        return;
    }
    bytes_text(r->band_bytes, v, sizeof v);
    fprintf(f, "    band high end (answer_traffic_hi): C = %lld blocks%s, answer_traffic_hi = %.6g%s\n",
            (long long)r->band_C, v, r->band_value, r->band_monotone == 0 ? "; not monotone" : "");
}

static void print_text(const printer *pr, const pascal_size_result *r, FILE *f)
{
    const char *col = pascal_columns[pr->target->column].name;
    int dynamic = pr->target->column == PASCAL_COL_K_DYN || pr->target->column == PASCAL_COL_RHO_DYN;
    size_t used = 0;
    char line[768], v[64];
    line[0] = '\0';
    for (int a = 0; a < pascal_spec_naxes(pr->spec) && used < sizeof line; a++) {
        int id = pascal_spec_axis(pr->spec, a)->param;
        if (a == pr->cap_axis)
            continue;
        text_value(pr->spec, id, r->point.v[id], v, sizeof v);
        used += (size_t)snprintf(line + used, sizeof line - used, "%s%s=%s", used ? ", " : "",
                                 pascal_params[id].name, v);
    }
    if (!used)
        snprintf(line, sizeof line, "the spec");
    if (r->C < 0) {
        fprintf(f, "%s: none in C = %lld..%lld (%s = %.6g at C = %lld)\n", line, (long long)r->lo,
                (long long)r->hi, col, r->value, (long long)r->hi);
    } else {
        bytes_text(r->capacity_bytes, v, sizeof v);
        fprintf(f, "%s: C = %lld blocks%s, %s = %.6g%s\n", line, (long long)r->C, v, col, r->value,
                dynamic && r->C == r->lo ? " (the smallest C searched, the axis's or the "
                                           "calibration's smallest: it may meet the target below)"
                                         : "");
    }
    print_extras(r, col, f);
}

static int emit(void *ctx, const pascal_size_result *r)
{
    const printer *pr = ctx;
    if (pr->json)
        print_json(pr, r, stdout);
    else
        print_text(pr, r, stdout);
    return ferror(stdout) ? PASCAL_EIO : 0;
}

/* The target: --target, else the spec's search: section. */
static int read_target(const cli_flag *f, const pascal_spec *spec, pascal_target *t, int *worst)
{
    const pascal_search *s = pascal_spec_search(spec);
    pascal_error err = {0};
    size_t off;
    if (s) {
        *t = s->target;
        *worst |= s->worst;
    }
    /* A workload's question is its traffic: the answer, <= 1.2 unless
     * told (a bare number is the answer's bound). */
    int answer = pascal_answer_of_models(pascal_spec_models(spec)) != 0 &&
                 (!isnan(pascal_spec_fixed(spec)->v[PASCAL_P_WORKLOAD]) || pascal_spec_is_step(spec));
    char *end = NULL;
    double bound = f->given ? strtod(f->value, &end) : NAN;
    if (answer && !s && (!f->given || (end != f->value && *end == '\0' && bound > 0))) {
        *t = (pascal_target){PASCAL_COL_ANSWER_TRAFFIC, PASCAL_TARGET_LE,
                             f->given ? bound : pascal_run_default_target(PASCAL_COL_ANSWER_TRAFFIC)};
        return CLI_OK;
    }
    if (!f->given) {
        if (s)
            return CLI_OK;
        fprintf(stderr, "pascal size: --target: expected a target like 'rho_lru <= 0.05' (or a search: "
                        "section in %s), got neither\n", pascal_spec_filename(spec));
        return CLI_USAGE;
    }
    if (pascal_target_parse(f->value, t, &off, &err) != 0) {
        fprintf(stderr, "pascal size: --target: %s (at character %zu of \"%s\")\n", err.msg, off + 1,
                f->value);
        return CLI_USAGE;
    }
    return CLI_OK;
}

static void summary(const pascal_size_stats *st, const pascal_target *t, int worst, int json,
                    const printer *pr)
{
    char tt[96];
    pascal_target_format(t, tt, sizeof tt);
    if (worst) {
        if (json)
            print_json(pr, &st->worst, stdout);
        else {
            printf("worst case over %llu scenarios: ", (unsigned long long)st->scenarios);
            print_text(pr, &st->worst, stdout);
        }
    }
    fprintf(stderr, "pascal size: %llu scenarios, %llu meet %s; %llu evaluations in %.3f s (%d threads); "
            "a grid of every C in the same ranges: %llu points\n", (unsigned long long)st->scenarios,
            (unsigned long long)st->met, tt, (unsigned long long)st->evaluations, st->seconds, st->threads,
            (unsigned long long)st->grid_points);
}

int cli_size_command(int argc, char **argv)
{
    cli_flag flags[] = {
        {"target", "EXPR", "COLUMN <= VALUE (or <, and >= or > for V and shares), or for a workload a bare bound on answer_traffic; default: the spec's search:, else for a workload answer_traffic <= 1.2", 0, 0},
        {"worst", NULL, "one answer: the scenario that needs the most capacity", 0, 0},
        {"json", NULL, "one JSON object per line", 0, 0},
        {"threads", "N", "OpenMP threads (default: all cores)", 0, 0},
    };
    int nf = (int)(sizeof flags / sizeof flags[0]), npos, rc, worst;
    char *pos[1];
    pascal_spec *spec = NULL;
    pascal_error err = {0};
    pascal_size_opts o = {0};
    pascal_size_stats st;
    printer pr;
    rc = cli_parse("size", usage_text, argc, argv, flags, nf, pos, 1, &npos);
    if (rc != CLI_OK)
        return rc < 0 ? CLI_OK : rc;
    if (npos != 1) {
        fprintf(stderr, "pascal size: expected a spec file, got nothing (see pascal size --help)\n");
        return CLI_USAGE;
    }
    if (flags[3].given && cli_threads("size", &flags[3], &o.threads) != CLI_OK)
        return CLI_USAGE;
    if (pascal_spec_load(pos[0], &spec, &err) != 0) {
        fprintf(stderr, "%s\n", err.msg);
        return CLI_USAGE;
    }
    worst = flags[1].given;
    if ((rc = read_target(&flags[0], spec, &o.target, &worst)) != CLI_OK) {
        pascal_spec_free(spec);
        return rc;
    }
    pr = (printer){spec, &o.target, pascal_search_capacity_axis(spec), flags[2].given};
    /* The answer's band: where the simulator answers, its high end is
     * sized on the same bound beside it. */
    if (o.target.column == PASCAL_COL_ANSWER_TRAFFIC &&
        pascal_answer_of_models(pascal_spec_models(spec)) == PASCAL_ANSWER_SIMULATE)
        o.band_column = PASCAL_COL_ANSWER_TRAFFIC_HI;
    o.emit = worst ? NULL : emit;
    o.emit_ctx = &pr;
    o.stop_flag = cli_stop_flag();
    cli_stop_begin(0);
    rc = pascal_size_run(spec, &o, &st, &err);
    cli_stop_end();
    if (rc == 0)
        summary(&st, &o.target, worst, pr.json, &pr);
    else
        fprintf(stderr, "%s\n", err.msg);
    pascal_spec_free(spec);
    if (rc == 0)
        return CLI_OK;
    if (rc == PASCAL_EINTR)
        return 130;
    return rc == PASCAL_EINPUT ? CLI_USAGE : CLI_FAIL;
}
