/* pascal list: the vocabulary pascal knows, one line per entry (or JSON):
 * models, result columns, spec parameters (axes), phase patterns, shipped
 * device profiles and units.  Everything comes from the library's tables
 * (vocab/params.h, model/phases.h, devices/profile.h); nothing is written
 * here twice. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/json.h"
#include "common/suggest.h"
#include "programs/cli.h"
#include "model/phases.h"
#include "devices/profile.h"
#include "model/workload.h"
#include "vocab/params.h"

static const char *const usage_text =
    "usage: pascal list [TOPIC] [--json]\n\n"
    "Prints what pascal knows, one line each: meaning, units, paper reference,\n"
    "defaults.  Without TOPIC, the topics.";

enum { TOPIC_MODELS, TOPIC_COLUMNS, TOPIC_AXES, TOPIC_PATTERNS, TOPIC_DEVICES, TOPIC_UNITS,
       TOPIC_KERNELS, NTOPIC };

static const char *const topics[NTOPIC] = {"models", "columns", "axes", "patterns", "devices", "units",
                                           "kernels"};
static const char *const topic_help[NTOPIC] = {
    "models a spec can ask for (models: [...]), their columns and needs",
    "result columns, with units and the model that writes them",
    "spec parameters (fixed: and axes: keys), with units and defaults",
    "phase patterns (pattern: NAME) and the parameters each reads",
    "shipped device profiles (device: NAME) and their key figures",
    "units of parameters and columns, and the size suffixes",
    "kernels a workload can follow (kernel: NAME), with the library code each was read from",
};

static const char *type_name(pascal_param_type t)
{
    switch (t) {
    case PASCAL_T_INT: return "integer";
    case PASCAL_T_REAL: return "number";
    case PASCAL_T_SIZE: return "size";
    case PASCAL_T_PATTERN: return "pattern";
    case PASCAL_T_PHASES: return "phases";
    case PASCAL_T_PATH: return "load path";
    case PASCAL_T_NAME: return "name";
    }
    return "?";
}

/* ---- JSON pieces -------------------------------------------------------- */

static void jkey(const char *k, int first)
{
    if (!first)
        fputs(", ", stdout);
    pascal_json_str(stdout, k);
    fputs(": ", stdout);
}

static void jstr(const char *k, const char *v, int first)
{
    jkey(k, first);
    pascal_json_str(stdout, v);
}

static void jnum(const char *k, double v, int first)
{
    jkey(k, first);
    pascal_json_num(stdout, v, 17);
}

/* A JSON array of the names in a ", "-separated list ("" gives []). */
static void jlist(const char *k, const char *list)
{
    char buf[256];
    int first = 1;
    jkey(k, 0);
    fputc('[', stdout);
    snprintf(buf, sizeof buf, "%s", list);
    for (char *save = NULL, *t = strtok_r(buf, ", ", &save); t; t = strtok_r(NULL, ", ", &save)) {
        fputs(first ? "" : ", ", stdout);
        pascal_json_str(stdout, t);
        first = 0;
    }
    fputc(']', stdout);
}

/* ---- topics ------------------------------------------------------------- */

/* "D, theta, ..." for a model's columns; "M, N" for its needs. */
static void model_lists(int m, char *cols, size_t clen, char *needs, size_t nlen)
{
    size_t off = 0;
    cols[0] = needs[0] = '\0';
    for (int k = 0; k < PASCAL_NCOLUMN && off < clen; k++)
        if ((int)pascal_columns[k].model == m)
            off += (size_t)snprintf(cols + off, clen - off, "%s%s", off ? ", " : "", pascal_columns[k].name);
    off = 0;
    for (int k = 0; k < 6 && pascal_models[m].needs[k] >= 0 && off < nlen; k++)
        off += (size_t)snprintf(needs + off, nlen - off, "%s%s", off ? ", " : "",
                                pascal_params[pascal_models[m].needs[k]].name);
}

static void list_models(int json)
{
    char cols[512], needs[128];
    for (int m = 0; m < PASCAL_NMODEL; m++) {
        model_lists(m, cols, sizeof cols, needs, sizeof needs);
        if (!json) {
            printf("%-11s %s; columns %s; needs %s; paper: %s\n", pascal_models[m].name,
                   pascal_models[m].description, cols, *needs ? needs : "nothing more", pascal_model_refs[m]);
            continue;
        }
        printf("%s{", m ? ",\n " : "[");
        jstr("name", pascal_models[m].name, 1);
        jstr("description", pascal_models[m].description, 0);
        jstr("paper", pascal_model_refs[m], 0);
        jlist("columns", cols);
        jlist("needs", needs);
        fputc('}', stdout);
    }
}

static void list_columns(int json)
{
    for (int k = 0; k < PASCAL_NCOLUMN; k++) {
        const pascal_column_info *c = &pascal_columns[k];
        if (!json) {
            printf("%-15s %-15s %s (model %s); paper: %s\n", c->name, c->units, c->description,
                   pascal_models[c->model].name, pascal_column_refs[k]);
            continue;
        }
        printf("%s{", k ? ",\n " : "[");
        jstr("name", c->name, 1);
        jstr("units", c->units, 0);
        jstr("model", pascal_models[c->model].name, 0);
        jstr("description", c->description, 0);
        jstr("paper", pascal_column_refs[k], 0);
        fputc('}', stdout);
    }
}

static const char *sign_rule(unsigned flags)
{
    return (flags & PASCAL_PF_POSITIVE) ? "> 0" : (flags & PASCAL_PF_NONNEG) ? ">= 0" : "";
}

static void list_axes(int json)
{
    for (int p = 0; p < PASCAL_NPARAM; p++) {
        const pascal_param_info *q = &pascal_params[p];
        const char *ref = pascal_param_refs[p];
        if (!json) {
            printf("%-12s %-13s %s; %s%s%s; default: %s%s%s\n", q->name, *q->units ? q->units : "-",
                   q->description, q->type == PASCAL_T_NAME ? "one of those names" : type_name(q->type), *sign_rule(q->flags) ? " " : "", sign_rule(q->flags),
                   pascal_param_defaults[p], *ref ? "; paper: " : "", ref);
            continue;
        }
        printf("%s{", p ? ",\n " : "[");
        jstr("name", q->name, 1);
        jstr("units", q->units, 0);
        jstr("type", type_name(q->type), 0);
        jstr("range", sign_rule(q->flags), 0);
        jstr("description", q->description, 0);
        jstr("default", pascal_param_defaults[p], 0);
        jstr("paper", ref, 0);
        jkey("innermost", 0);
        fputs((q->flags & PASCAL_PF_INNER) ? "true" : "false", stdout);
        fputc('}', stdout);
    }
}

static void list_kernels(int json)
{
    for (int k = 0; k < PASCAL_KERNEL_COUNT; k++) {
        const pascal_kernel_info *i = &pascal_kernels[k];
        if (!json) {
            printf("%-15s %s: %s; from %s\n", pascal_kernel_names[k], i->kinds, i->what, i->source);
            continue;
        }
        printf("%s{", k ? ",\n " : "[");
        jstr("name", pascal_kernel_names[k], 1);
        jlist("workloads", i->kinds);
        jstr("description", i->what, 0);
        jstr("source", i->source, 0);
        fputc('}', stdout);
    }
}

static void list_patterns(int json)
{
    for (int k = 0; k < PASCAL_PATTERN_COUNT; k++) {
        const char *params = pascal_pattern_params[k], *ref = pascal_pattern_refs[k];
        if (!json) {
            printf("%-9s %s; parameters: %s%s%s\n", pascal_pattern_names[k], pascal_pattern_descriptions[k],
                   *params ? params : "none", *ref ? "; paper: " : "", ref);
            continue;
        }
        printf("%s{", k ? ",\n " : "[");
        jstr("name", pascal_pattern_names[k], 1);
        jnum("code", k, 0);
        jstr("description", pascal_pattern_descriptions[k], 0);
        jlist("parameters", params);
        jstr("paper", ref, 0);
        fputc('}', stdout);
    }
}

static void device_line(const pascal_device_profile *d)
{
    char l2[32] = "-", eff[32] = "-";
    if (!isnan(d->l2_bytes))
        pascal_size_format(d->l2_bytes, l2, sizeof l2);
    if (!isnan(d->effective_l2_bytes))
        pascal_size_format(d->effective_l2_bytes, eff, sizeof eff);
    char lim[96] = "";
    if (!isnan(d->limits.ctas_per_sm) || !isnan(d->limits.smem_per_sm_bytes))
        snprintf(lim, sizeof lim, ", up to %.0f CTAs and %.0f KiB of shared memory per SM",
                 d->limits.ctas_per_sm, d->limits.smem_per_sm_bytes / 1024);
    printf("%-8s %s: %.0f SMs, L2 %s, effective L2 %s, compute capability %s%s (%s)\n", d->name,
           d->title, d->sms, l2, isnan(d->effective_l2_bytes) ? "not measured" : eff,
           *d->compute_capability ? d->compute_capability : "-", lim, d->path);
}

static int list_devices(int json)
{
    pascal_device_profile *devs = NULL;
    pascal_error err = {0};
    int n = 0;
    if (pascal_device_list("", &devs, &n, &err)) {
        fprintf(stderr, "pascal list: %s\n", err.msg);
        return err.code == PASCAL_EINPUT ? CLI_USAGE : CLI_FAIL;
    }
    for (int i = 0; i < n; i++) {
        const pascal_device_profile *d = &devs[i];
        if (!json) {
            device_line(d);
            continue;
        }
        printf("%s{", i ? ",\n " : "[");
        jstr("name", d->name, 1);
        jstr("title", d->title, 0);
        jstr("path", d->path, 0);
        jnum("sms", d->sms, 0);
        jnum("l2_bytes", d->l2_bytes, 0);
        jnum("effective_l2_bytes", d->effective_l2_bytes, 0);
        jstr("compute_capability", d->compute_capability, 0);
        jnum("ctas_per_sm", d->limits.ctas_per_sm, 0);
        jnum("smem_per_sm_bytes", d->limits.smem_per_sm_bytes, 0);
        jnum("smem_per_cta_bytes", d->limits.smem_per_cta_bytes, 0);
        jstr("notes", d->notes, 0);
        fputc('}', stdout);
    }
    if (json && n == 0)
        fputc('[', stdout);
    free(devs);
    return CLI_OK;
}

/* "N, C, ..." : the parameters and columns given in `unit`. */
static void unit_users(const char *unit, char *buf, size_t len)
{
    size_t off = 0;
    buf[0] = '\0';
    for (int p = 0; p < PASCAL_NPARAM && off < len; p++)
        if (strcmp(pascal_params[p].units, unit) == 0)
            off += (size_t)snprintf(buf + off, len - off, "%s%s", off ? ", " : "", pascal_params[p].name);
    for (int k = 0; k < PASCAL_NCOLUMN && off < len; k++)
        if (strcmp(pascal_columns[k].units, unit) == 0)
            off += (size_t)snprintf(buf + off, len - off, "%s%s", off ? ", " : "", pascal_columns[k].name);
}

static void list_units(int json)
{
    pascal_unit_info u;
    const char *suffix;
    double bytes;
    char users[512], meaning[96];
    int row = 0;
    for (int i = 0; pascal_unit(i, &u) == 0; i++, row++) {
        unit_users(u.name, users, sizeof users);
        if (!json) {
            printf("%-15s %s; used by %s\n", *u.name ? u.name : "(none)", u.meaning, *users ? users : "nothing yet");
            continue;
        }
        printf("%s{", row ? ",\n " : "[");
        jstr("name", u.name, 1);
        jstr("meaning", u.meaning, 0);
        jlist("used_by", users);
        fputc('}', stdout);
    }
    for (int i = 0; pascal_size_unit(i, &suffix, &bytes) == 0; i++, row++) {
        snprintf(meaning, sizeof meaning, "size suffix: %.0f byte%s", bytes, bytes == 1 ? "" : "s");
        if (!json) {
            printf("%-15s %s\n", suffix, meaning);
            continue;
        }
        printf(",\n {");
        jstr("name", suffix, 1);
        jstr("meaning", meaning, 0);
        jnum("bytes", bytes, 0);
        fputc('}', stdout);
    }
}

static void list_topics(int json)
{
    for (int t = 0; t < NTOPIC; t++) {
        if (!json) {
            printf("%-9s %s (pascal list %s)\n", topics[t], topic_help[t], topics[t]);
            continue;
        }
        printf("%s{", t ? ",\n " : "[");
        jstr("name", topics[t], 1);
        jstr("description", topic_help[t], 0);
        fputc('}', stdout);
    }
}

int cli_list(int argc, char **argv)
{
    cli_flag flags[] = {{"json", NULL, "print a JSON array of objects, one per line's entry", 0, 0}};
    char *pos[1], hint[96];
    int npos, rc = CLI_OK, topic = -1, json;
    rc = cli_parse("list", usage_text, argc, argv, flags, 1, pos, 1, &npos);
    if (rc)
        return rc < 0 ? CLI_OK : rc;
    json = flags[0].given;
    if (npos == 1) {
        for (int t = 0; t < NTOPIC; t++)
            if (strcmp(pos[0], topics[t]) == 0)
                topic = t;
        if (topic < 0) {
            fprintf(stderr, "pascal list: expected a topic (models, columns, axes, patterns, devices, units, kernels), "
                            "got \"%s\"%s\n", pos[0], pascal_suggest_hint(pos[0], topics, NTOPIC, hint, sizeof hint));
            return CLI_USAGE;
        }
    }
    switch (topic) {
    case TOPIC_MODELS: list_models(json); break;
    case TOPIC_COLUMNS: list_columns(json); break;
    case TOPIC_AXES: list_axes(json); break;
    case TOPIC_PATTERNS: list_patterns(json); break;
    case TOPIC_DEVICES: rc = list_devices(json); break;
    case TOPIC_UNITS: list_units(json); break;
    case TOPIC_KERNELS: list_kernels(json); break;
    default: list_topics(json); break;
    }
    if (json && rc == CLI_OK)
        printf("]\n");
    return rc;
}
