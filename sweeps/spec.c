/* Sweep specs: the top level of the YAML format (name, models, columns,
 * where/require rules, output options), the order in which sections are
 * read (device, then fixed, then axes, so that each overrides the one
 * before), the static checks, and the accessors.  Value and axis parsing
 * live in spec_values.c (with the phase lists' accessor) and spec_axes.c,
 * expansion in spec_point.c, the description of a point in messages in
 * spec_describe.c. */
#include "sweeps/spec_internal.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/readfile.h"
#include "common/suggest.h"

static const char *const top_keys[] = {"name", "description", "device", "models", "columns", "fixed",
                                       "axes", "zip", "where", "require", "output", "calibration",
                                       "workload", "extrapolation", "sample", "search", "infeasible",
                                       "model"};
enum { K_NAME, K_DESCRIPTION, K_DEVICE, K_MODELS, K_COLUMNS, K_FIXED, K_AXES, K_ZIP, K_WHERE,
       K_REQUIRE, K_OUTPUT, K_CALIBRATION, K_WORKLOAD, K_EXTRAPOLATION, K_SAMPLE, K_SEARCH,
       K_INFEASIBLE, K_MODEL, K_COUNT };

static int missing(const spec_ctx *c, const yaml_node_t *root, const char *key, const char *what)
{
    return yml_fail(c->y, root, key, PASCAL_EINPUT, "expected %s, got nothing (the key is missing)", what);
}

static void model_names(char *buf, size_t len)
{
    size_t off = 0;
    for (int i = 0; i < PASCAL_NMODEL && off < len; i++)
        off += (size_t)snprintf(buf + off, len - off, "%s%s", i ? ", " : "", pascal_models[i].name);
}

static int parse_models(const spec_ctx *c, const yaml_node_t *node)
{
    pascal_spec *spec = c->spec;
    const yaml_node_item_t *it;
    char names[256], got[96], path[YML_PATH_MAX];
    model_names(names, sizeof names);
    if (!node || node->type != YAML_SEQUENCE_NODE || node->data.sequence.items.top == node->data.sequence.items.start) {
        yml_describe(node, got, sizeof got);
        if (node && node->type == YAML_SEQUENCE_NODE)
            snprintf(got, sizeof got, "an empty list");
        return yml_fail(c->y, node, "models", PASCAL_EINPUT, "expected a non-empty list of models (%s), got %s",
                         names, got);
    }
    yml_mark_of(c->y, node, "models", &spec->models_mark);
    for (it = node->data.sequence.items.start; it < node->data.sequence.items.top; it++) {
        const yaml_node_t *item = yml_node(c->y, *it);
        const char *s = yml_scalar_text(item);
        int m = s && !yml_is_null(item) ? pascal_model_from_name(s) : -1;
        yml_path_index(path, "models", (long)(it - node->data.sequence.items.start));
        yml_describe(item, got, sizeof got);
        if (m < 0) {
            const char *valid[PASCAL_NMODEL];
            char hint[96];
            for (int k = 0; k < PASCAL_NMODEL; k++)
                valid[k] = pascal_models[k].name;
            return yml_fail(c->y, item, path, PASCAL_EINPUT, "expected a model name (%s), got %s%s", names, got,
                             pascal_suggest_hint(s, valid, PASCAL_NMODEL, hint, sizeof hint));
        }
        if (spec->models & (1u << m))
            return yml_fail(c->y, item, path, PASCAL_EINPUT, "expected each model once, got %s again", got);
        spec->models |= 1u << m;
    }
    return 0;
}

/* The nearest column of the requested models, else of any model. */
static const char *column_hint(unsigned models, const char *name, char *hint, size_t len)
{
    const char *mine[PASCAL_NCOLUMN], *all[PASCAL_NCOLUMN];
    int n = 0;
    for (int k = 0; k < PASCAL_NCOLUMN; k++) {
        all[k] = pascal_columns[k].name;
        if (models & (1u << pascal_columns[k].model))
            mine[n++] = pascal_columns[k].name;
    }
    pascal_suggest_hint(name, mine, n, hint, len);
    return *hint ? hint : pascal_suggest_hint(name, all, PASCAL_NCOLUMN, hint, len);
}

static int parse_columns(const spec_ctx *c, const yaml_node_t *node)
{
    pascal_spec *spec = c->spec;
    const yaml_node_item_t *it;
    char names[512], got[96], path[YML_PATH_MAX];
    size_t off = 0;
    spec->ncolumns = 0;
    /* A step gives the columns that sum over its kernels (pascal_step_column). */
    int step = spec->models >> PASCAL_MODEL_STEP & 1u;
    if (yml_is_null(node)) {
        for (int k = 0; k < PASCAL_NCOLUMN; k++)
            if (spec->models & (1u << pascal_columns[k].model) && (!step || pascal_step_column(k)))
                spec->columns[spec->ncolumns++] = k;
        return 0;
    }
    for (int k = 0; k < PASCAL_NCOLUMN && off < sizeof names; k++)
        if (spec->models & (1u << pascal_columns[k].model))
            off += (size_t)snprintf(names + off, sizeof names - off, "%s%s", off ? ", " : "", pascal_columns[k].name);
    if (node->type != YAML_SEQUENCE_NODE || node->data.sequence.items.top == node->data.sequence.items.start) {
        yml_describe(node, got, sizeof got);
        if (node->type == YAML_SEQUENCE_NODE)
            snprintf(got, sizeof got, "an empty list");
        return yml_fail(c->y, node, "columns", PASCAL_EINPUT,
                         "expected a non-empty list of columns (%s), got %s", names, got);
    }
    for (it = node->data.sequence.items.start; it < node->data.sequence.items.top; it++) {
        const yaml_node_t *item = yml_node(c->y, *it);
        const char *s = yml_scalar_text(item);
        int k = s && !yml_is_null(item) ? pascal_column_from_name(s) : -1;
        yml_path_index(path, "columns", (long)(it - node->data.sequence.items.start));
        yml_describe(item, got, sizeof got);
        if (k < 0) {
            char hint[96];
            return yml_fail(c->y, item, path, PASCAL_EINPUT, "expected a column of the requested models (%s), got %s%s",
                             names, got, column_hint(spec->models, s, hint, sizeof hint));
        }
        if (!(spec->models & (1u << pascal_columns[k].model)))
            return yml_fail(c->y, item, path, PASCAL_EINPUT,
                             "expected a column of the requested models (%s), got %s (a column of model %s, "
                             "which is not in models)",
                             names, got, pascal_models[pascal_columns[k].model].name);
        if (step && !pascal_step_column(k))
            return yml_fail(c->y, item, path, PASCAL_EINPUT,
                             "expected a column a model step gives (its kernels' sums: "
                             "docs/workloads.md section 11), got %s (a column of one kernel)", got);
        for (int j = 0; j < spec->ncolumns; j++)
            if (spec->columns[j] == k)
                return yml_fail(c->y, item, path, PASCAL_EINPUT, "expected each column once, got %s again", got);
        spec->columns[spec->ncolumns++] = k;
    }
    return 0;
}

/* Each requested model's `needs` must be set somewhere. */
static int check_needs(const spec_ctx *c, const yaml_node_t *models)
{
    pascal_spec *spec = c->spec;
    const yaml_node_item_t *it;
    char path[YML_PATH_MAX];
    for (it = models->data.sequence.items.start; it < models->data.sequence.items.top; it++) {
        const yaml_node_t *item = yml_node(c->y, *it);
        int m = pascal_model_from_name(yml_scalar_text(item));
        yml_path_index(path, "models", (long)(it - models->data.sequence.items.start));
        for (int k = 0; k < 6 && pascal_models[m].needs[k] >= 0; k++) {
            int p = pascal_models[m].needs[k];
            /* A workload gives the dynamic model its own horizon. */
            if (p == PASCAL_P_W && spec->source[PASCAL_P_WORKLOAD] != SRC_NONE)
                continue;
            /* A model step is a workload of several kernels. */
            if (p == PASCAL_P_WORKLOAD && spec->step)
                continue;
            if (spec->source[p] == SRC_NONE)
                return yml_fail(c->y, item, path, PASCAL_EINPUT,
                                 "model %s needs %s: expected %s (%s) in fixed or axes, got none",
                                 pascal_models[m].name, pascal_params[p].name, pascal_params[p].name,
                                 yml_expected(p));
        }
    }
    return 0;
}

/* The simulator's timing is the profile's, for the profile's SMs: its L2
 * and DRAM bandwidths are the whole chip's, so another SM count would
 * share them among more or fewer SMs, a chip nobody described.  No
 * profile states a rule to scale them, so `sms` other than the profile's
 * is refused with `simulate`. */
static int check_sim_sms(const spec_ctx *c)
{
    pascal_spec *spec = c->spec;
    double own = spec->device_sms;
    /* A device axis: each point takes its own profile's sms, and setting
     * another with simulate is refused as for one profile. */
    if (spec->ndevices && (spec->models >> PASCAL_MODEL_SIMULATE & 1u) &&
        spec->source[PASCAL_P_SMS] != SRC_DEVICE)
        return yml_fail_mark(c->y->err, &spec->src[PASCAL_P_SMS], PASCAL_EINPUT,
                              "expected each device's own sms with model simulate and a device "
                              "axis, got sms set by the spec: a profile's sim timing "
                              "(l2_bytes_per_ns, dram_bytes_per_ns) is the whole chip's at its "
                              "sms and states no rule to scale it");
    if (!(spec->models >> PASCAL_MODEL_SIMULATE & 1u) || isnan(own) ||
        spec->source[PASCAL_P_SMS] == SRC_DEVICE || spec->source[PASCAL_P_SMS] == SRC_NONE)
        return 0;
    int other = 0;
    double got = spec->fixed.v[PASCAL_P_SMS];
    if (spec->source[PASCAL_P_SMS] == SRC_AXIS) {
        for (int a = 0; a < spec->naxes; a++)
            if (spec->axes[a].param == PASCAL_P_SMS)
                for (int64_t k = 0; k < spec->axes[a].count && !other; k++)
                    if (spec->axes[a].values[k] != own)
                        other = 1, got = spec->axes[a].values[k];
    } else {
        other = got != own;
    }
    if (!other)
        return 0;
    return yml_fail_mark(c->y->err, &spec->src[PASCAL_P_SMS], PASCAL_EINPUT,
                          "expected sms = %g (the device profile's) with model simulate, got %g: "
                          "the profile's sim timing (l2_bytes_per_ns, dram_bytes_per_ns) is the "
                          "whole chip's at %g SMs and states no rule to scale it; describe the other "
                          "chip in a profile of its own",
                          own, got, own);
}

/* band_seeds: the band's simulations per point (engine/eval.c holds at
 * most PASCAL_MAX_BAND_SEEDS of them), checked on every value written. */
static int check_band_seeds(const spec_ctx *c)
{
    pascal_spec *spec = c->spec;
    double got = spec->fixed.v[PASCAL_P_BAND_SEEDS];
    for (int a = 0; a < spec->naxes; a++)
        if (spec->axes[a].param == PASCAL_P_BAND_SEEDS)
            for (int64_t k = 0; k < spec->axes[a].count; k++)
                if (spec->axes[a].values[k] > got || isnan(got))
                    got = spec->axes[a].values[k];
    if (isnan(got) || got <= PASCAL_MAX_BAND_SEEDS)
        return 0;
    return yml_fail_mark(c->y->err, &spec->src[PASCAL_P_BAND_SEEDS], PASCAL_EINPUT,
                          "expected band_seeds <= %d (simulations per point for the band), got %g",
                          PASCAL_MAX_BAND_SEEDS, got);
}

/* The first size written with a decimal unit (50MB = 50,000,000 bytes,
 * not 50 MiB), for the run summary to say so: a scalar that is a size and
 * ends in kB, KB, MB, GB or TB. */
static void note_decimal_sizes(const spec_ctx *c)
{
    pascal_spec *spec = c->spec;
    int n = 0;
    spec->decimal_note[0] = '\0';
    for (yaml_node_t *node = c->y->doc->nodes.start; node < c->y->doc->nodes.top; node++) {
        const char *t;
        double bytes;
        size_t len;
        if (node->type != YAML_SCALAR_NODE || !(t = yml_scalar_text(node)) ||
            (len = strlen(t)) < 3 || pascal_size_parse(t, &bytes) != 0 ||
            !strchr("kKMGT", t[len - 2]) || t[len - 1] != 'B')
            continue;
        if (n++ == 0) {
            const char *binary[] = {"KiB", "KiB", "MiB", "GiB", "TiB"};
            const char *u = strchr("kKMGT", t[len - 2]);
            int k = (int)(u - "kKMGT");
            snprintf(spec->decimal_note, sizeof spec->decimal_note,
                     "%s (%s:%lu:%lu) is a decimal size: %.0f bytes = %.4g MiB; write %.*s%s for "
                     "the binary unit",
                     t, spec->filename, (unsigned long)node->start_mark.line + 1,
                     (unsigned long)node->start_mark.column + 1, bytes, bytes / 1048576.0,
                     (int)(len - 2), t, binary[k]);
        }
    }
    if (n > 1) {
        size_t off = strlen(spec->decimal_note);
        snprintf(spec->decimal_note + off, sizeof spec->decimal_note - off,
                 " (and %d more decimal sizes)", n - 1);
    }
}

static int add_rule(const spec_ctx *c, const yaml_node_t *node, const char *path, spec_rule *rule)
{
    pascal_error sub;
    size_t offset;
    int rc, quoted;
    const char *text = yml_scalar_text(node);
    char got[96];
    if (!text || yml_is_null(node) || strlen(text) != node->data.scalar.length) {
        yml_describe(node, got, sizeof got);
        return yml_fail(c->y, node, path, PASCAL_EINPUT, "expected an expression like \"C < N\", got %s", got);
    }
    yml_mark_of(c->y, node, path, &rule->mark);
    rule->text = strdup(text);
    if (!rule->text)
        return pascal_error_set(c->y->err, PASCAL_ENOMEM, "out of memory");
    rc = pascal_expr_compile_for(c->spec, text, &rule->expr, &offset, &sub);
    if (rc == PASCAL_EINPUT) {
        /* Columns count bytes from the scalar's first character; a quoted
         * scalar starts one column after its quote. */
        quoted = node->data.scalar.style == YAML_SINGLE_QUOTED_SCALAR_STYLE ||
                 node->data.scalar.style == YAML_DOUBLE_QUOTED_SCALAR_STYLE;
        return pascal_error_set(c->y->err, rc, "%s:%d:%d: %s: %s", c->y->file, rule->mark.line,
                                rule->mark.col + (int)offset + quoted, path, sub.msg);
    }
    if (rc)
        return pascal_error_set(c->y->err, rc, "%s", sub.msg);
    return 0;
}

/* where/require: a string or a list of strings. */
static int parse_rules(const spec_ctx *c, const yaml_node_t *node, const char *key, spec_rule **rules, int *n)
{
    char path[YML_PATH_MAX];
    int count, rc;
    if (yml_is_null(node))
        return 0;
    count = node->type == YAML_SEQUENCE_NODE ? (int)(node->data.sequence.items.top - node->data.sequence.items.start) : 1;
    *rules = calloc((size_t)(count ? count : 1), sizeof **rules);
    if (!*rules)
        return pascal_error_set(c->y->err, PASCAL_ENOMEM, "out of memory");
    if (node->type != YAML_SEQUENCE_NODE) {
        *n = 1;
        return add_rule(c, node, key, &(*rules)[0]);
    }
    for (int i = 0; i < count; i++) {
        yml_path_index(path, key, i);
        *n = i + 1;
        rc = add_rule(c, yml_node(c->y, node->data.sequence.items.start[i]), path, &(*rules)[i]);
        if (rc)
            return rc;
    }
    return 0;
}

/* `calibration: model.h5`, relative to the spec's folder: the dynamic
 * model's frozen calibration (calibrate/calibrate.h).  Only its presence and
 * readability are checked here; the run loads it once. */
static int parse_calibration(const spec_ctx *c, const yaml_node_t *models, const yaml_node_t *node)
{
    pascal_spec *spec = c->spec;
    const char *rel = yml_scalar_text(node), *slash;
    char got[96];
    size_t dirlen = 0;
    FILE *f;
    int dyn = (spec->models >> PASCAL_MODEL_DYNAMIC) & 1u;
    if (yml_is_null(node)) {
        if (!dyn)
            return 0;
        return yml_fail(c->y, models, "models", PASCAL_EINPUT,
                         "model dynamic needs a calibration: expected a top-level key "
                         "calibration: MODEL.h5 (from pascal calibrate), got none");
    }
    if (!rel || !*rel || strlen(rel) != node->data.scalar.length) {
        yml_describe(node, got, sizeof got);
        return yml_fail(c->y, node, "calibration", PASCAL_EINPUT, "expected a calibration file path, got %s", got);
    }
    if (!dyn)
        return yml_fail(c->y, node, "calibration", PASCAL_EINPUT,
                         "expected model dynamic in models to use this calibration, got models without it");
    slash = strrchr(spec->filename, '/');
    if (rel[0] != '/' && slash && strcmp(spec->filename, "<spec>") != 0)
        dirlen = (size_t)(slash - spec->filename) + 1;
    if (!(spec->calibration = malloc(dirlen + strlen(rel) + 1)))
        return pascal_error_set(c->y->err, PASCAL_ENOMEM, "out of memory");
    memcpy(spec->calibration, spec->filename, dirlen);
    strcpy(spec->calibration + dirlen, rel);
    yml_mark_of(c->y, node, "calibration", &spec->calibration_mark);
    if (!(f = fopen(spec->calibration, "rb")))
        return yml_fail(c->y, node, "calibration", PASCAL_EINPUT, "expected a readable calibration file, got \"%s\" (%s)",
                         spec->calibration, strerror(errno));
    fclose(f);
    return 0;
}

/* `extrapolation: hold | nan`: outside the calibrated range the dynamic
 * model holds the nearest calibrated answer (the paper's fallback, the
 * default) or gives NaN with code 15. */
static int parse_extrapolation(const spec_ctx *c, const yaml_node_t *node)
{
    const char *s = yml_scalar_text(node);
    char got[96];
    if (yml_is_null(node))
        return 0;
    yml_describe(node, got, sizeof got);
    if (!s || (strcmp(s, "hold") != 0 && strcmp(s, "nan") != 0))
        return yml_fail(c->y, node, "extrapolation", PASCAL_EINPUT,
                         "expected hold (the paper's endpoint fallback) or nan, got %s", got);
    if (!((c->spec->models >> PASCAL_MODEL_DYNAMIC) & 1u))
        return yml_fail(c->y, node, "extrapolation", PASCAL_EINPUT,
                         "expected model dynamic in models to use extrapolation, got models without it");
    c->spec->extrapolation_nan = strcmp(s, "nan") == 0;
    return 0;
}

static const char *const output_keys[] = {"compression", "shuffle", "chunk_rows"};

static int parse_output(const spec_ctx *c, const yaml_node_t *node)
{
    pascal_spec_output *o = &c->spec->output;
    const yaml_node_pair_t *pr;
    int rc;
    if (yml_is_null(node))
        return 0;
    rc = yml_check_mapping(c->y, node, "output", "a mapping of output options (compression, shuffle, chunk_rows)",
                            output_keys, 3);
    if (rc)
        return rc;
    for (pr = node->data.mapping.pairs.start; pr < node->data.mapping.pairs.top; pr++) {
        const char *key = yml_scalar_text(yml_node(c->y, pr->key));
        const yaml_node_t *val = yml_node(c->y, pr->value);
        const char *s = yml_scalar_text(val);
        int plain = val && val->type == YAML_SCALAR_NODE && val->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
        char path[YML_PATH_MAX], got[96], *end = NULL;
        long v = s && *s ? strtol(s, &end, 10) : -1;
        yml_path_key(path, "output", key);
        yml_describe(val, got, sizeof got);
        if (strcmp(key, "compression") == 0) {
            if (s && strcmp(s, "none") == 0)
                o->compression = 0;
            else if (s && strcmp(s, "gzip") == 0)
                o->compression = 4;
            else if (plain && end && !*end && v >= 0 && v <= 9)
                o->compression = (int)v;
            else
                return yml_fail(c->y, val, path, PASCAL_EINPUT,
                                 "expected a deflate level 0..9, none or gzip (level 4), got %s", got);
        } else if (strcmp(key, "shuffle") == 0) {
            if (plain && (strcmp(s, "true") == 0 || strcmp(s, "True") == 0 || strcmp(s, "TRUE") == 0))
                o->shuffle = 1;
            else if (plain && (strcmp(s, "false") == 0 || strcmp(s, "False") == 0 || strcmp(s, "FALSE") == 0))
                o->shuffle = 0;
            else
                return yml_fail(c->y, val, path, PASCAL_EINPUT, "expected true or false, got %s", got);
        } else {
            if (!plain || !end || *end || s[0] == '-' || s[0] == '+' || v < 1 || v > 1048576)
                return yml_fail(c->y, val, path, PASCAL_EINPUT,
                                 "expected a positive integer of at most 1048576 rows, got %s", got);
            o->chunk_rows = v;
        }
    }
    return 0;
}

static int parse_top(const spec_ctx *c)
{
    pascal_spec *spec = c->spec;
    const yaml_node_t *root = yaml_document_get_root_node(c->y->doc);
    const yaml_node_t *val[K_COUNT] = {0}, *key[K_COUNT] = {0};
    const yaml_node_pair_t *pr;
    char got[96];
    int rc;
    if (root->type != YAML_MAPPING_NODE) {
        yml_describe(root, got, sizeof got);
        return yml_fail(c->y, root, "", PASCAL_EINPUT,
                         "expected a YAML mapping with keys name, models, axes, ..., got %s", got);
    }
    rc = yml_check_mapping(c->y, root, "", "a mapping", top_keys, K_COUNT);
    if (rc)
        return rc;
    for (pr = root->data.mapping.pairs.start; pr < root->data.mapping.pairs.top; pr++)
        for (int k = 0; k < K_COUNT; k++)
            if (strcmp(yml_scalar_text(yml_node(c->y, pr->key)), top_keys[k]) == 0) {
                key[k] = yml_node(c->y, pr->key);
                val[k] = yml_node(c->y, pr->value);
            }
    if (!val[K_NAME])
        return missing(c, root, "name", "a sweep name");
    if ((rc = yml_string(c->y, val[K_NAME], "name", "a sweep name", &spec->name)))
        return rc;
    if (val[K_DESCRIPTION] && !yml_is_null(val[K_DESCRIPTION]) &&
        (rc = yml_string(c->y, val[K_DESCRIPTION], "description", "a string", &spec->description)))
        return rc;
    for (int k = 0; k < PASCAL_NLIMITS; k++)
        spec->limit[k] = NAN;
    spec->device_sms = NAN;
    for (int k = 0; k < 9; k++)
        spec->rate[k] = NAN;
    for (int k = 0; k < 3; k++)
        spec->cost[k] = NAN;
    if (val[K_DEVICE] && !yml_is_null(val[K_DEVICE]) && (rc = spec_load_device(c, val[K_DEVICE])))
        return rc;
    if (val[K_INFEASIBLE]) {
        const char *t = yml_scalar_text(val[K_INFEASIBLE]);
        if (!t || (strcmp(t, "refuse") != 0 && strcmp(t, "skip") != 0)) {
            yml_describe(val[K_INFEASIBLE], got, sizeof got);
            return yml_fail(c->y, val[K_INFEASIBLE], "infeasible", PASCAL_EINPUT,
                            "expected refuse (an infeasible point stops the run) or skip (it is "
                            "dropped, as by where), got %s", got);
        }
        spec->infeasible_skip = strcmp(t, "skip") == 0;
    }
    if (!val[K_MODELS])
        return missing(c, root, "models", "a list of models such as [ttl, lru]");
    if ((rc = parse_models(c, val[K_MODELS])))
        return rc;
    /* A model: section asks for the step's columns too. */
    if (val[K_MODEL] && !yml_is_null(val[K_MODEL]))
        spec->models |= 1u << PASCAL_MODEL_STEP;
    if ((rc = parse_columns(c, val[K_COLUMNS])) ||
        (rc = parse_calibration(c, val[K_MODELS], val[K_CALIBRATION])) ||
        (rc = spec_parse_workload(c, val[K_WORKLOAD])) ||
        (rc = spec_parse_model(c, key[K_MODEL], val[K_MODEL])) ||
        (rc = parse_extrapolation(c, val[K_EXTRAPOLATION])) ||
        (rc = spec_parse_fixed(c, val[K_FIXED])))
        return rc;
    if (!val[K_AXES])
        return missing(c, root, "axes", "a mapping of parameter: list or range");
    if ((rc = spec_parse_sample(c, val[K_SAMPLE])))
        return rc;
    if ((rc = spec_parse_axes(c, key[K_AXES], val[K_AXES], val[K_ZIP])) ||
        (rc = spec_check_workload(c, root)) || (rc = spec_check_derivable(c, root)) ||
        (rc = check_needs(c, val[K_MODELS])) || (rc = check_sim_sms(c)) ||
        (rc = check_band_seeds(c)))
        return rc;
    if ((rc = parse_rules(c, val[K_WHERE], "where", &spec->where, &spec->nwhere)) ||
        (rc = parse_rules(c, val[K_REQUIRE], "require", &spec->require, &spec->nrequire)))
        return rc;
    if ((rc = spec_parse_search(c, val[K_SEARCH])))
        return rc;
    return parse_output(c, val[K_OUTPUT]);
}

int pascal_spec_parse(const char *text, size_t len, const char *filename, pascal_spec **out,
                      pascal_error *err)
{
    pascal_spec *spec;
    yaml_document_t doc;
    yml_doc y;
    spec_ctx c;
    int rc;
    *out = NULL;
    spec = calloc(1, sizeof *spec);
    if (!spec)
        return pascal_error_set(err, PASCAL_ENOMEM, "out of memory");
    spec->filename = strdup(filename ? filename : "<spec>");
    spec->text = malloc(len + 1);
    if (!spec->filename || !spec->text) {
        pascal_spec_free(spec);
        return pascal_error_set(err, PASCAL_ENOMEM, "out of memory");
    }
    memcpy(spec->text, text, len);
    spec->text[len] = '\0';
    for (int i = 0; i < PASCAL_NPARAM; i++) {
        spec->fixed.v[i] = NAN;
        /* Until a section sets it, a parameter's mark is the spec itself. */
        spec->src[i].file = spec->filename;
        spec->src[i].line = spec->src[i].col = 1;
        snprintf(spec->src[i].path, sizeof spec->src[i].path, "%s", pascal_params[i].name);
    }
    /* deflate 1 with shuffle: 8x smaller than raw on a 10 M-point sweep for
     * about 60% more run time (docs/hdf5.md measures every level) */
    spec->output.compression = 1;
    spec->output.shuffle = 1;
    spec->output.chunk_rows = 65536;
    rc = yml_load(spec->text, len, spec->filename, &doc, err);
    if (rc) {
        pascal_spec_free(spec);
        return rc;
    }
    y.doc = &doc;
    y.file = spec->filename;
    y.err = err;
    c.y = &y;
    c.spec = spec;
    rc = parse_top(&c);
    if (rc == 0)
        note_decimal_sizes(&c);
    yaml_document_delete(&doc);
    if (rc) {
        pascal_spec_free(spec);
        return rc;
    }
    if (spec->source[PASCAL_P_PHASES] == SRC_FIXED)
        spec->fixed.phases = pascal_spec_phase_list(spec, (int64_t)spec->fixed.v[PASCAL_P_PHASES], NULL);
    *out = spec;
    return 0;
}

int pascal_spec_load(const char *path, pascal_spec **out, pascal_error *err)
{
    char *text;
    size_t len;
    int rc;
    *out = NULL;
    rc = pascal_read_file(path, YML_MAX_BYTES, &text, &len, err);
    if (rc)
        return rc;
    rc = pascal_spec_parse(text, len, path, out, err);
    free(text);
    return rc;
}

static void free_rules(spec_rule *r, int n)
{
    for (int i = 0; i < n; i++) {
        pascal_expr_free(r[i].expr);
        free(r[i].text);
    }
    free(r);
}

void pascal_spec_free(pascal_spec *spec)
{
    if (!spec)
        return;
    for (int i = 0; i < spec->naxes; i++)
        free((double *)spec->axes[i].values);
    free_rules(spec->where, spec->nwhere);
    free_rules(spec->require, spec->nrequire);
    free(spec->phase_data);
    free(spec->phase_off);
    free(spec->filename);
    free(spec->text);
    free(spec->device_path);
    free(spec->device_text);
    for (int k = 0; k < spec->ndevices; k++)
        free(spec->devices[k].path), free(spec->devices[k].text);
    free(spec->devices);
    free(spec->calibration);
    free(spec->name);
    free(spec->description);
    spec_sample_free(spec->sample);
    spec_search_free(spec->search);
    free(spec);
}

const char *pascal_spec_name(const pascal_spec *spec) { return spec->name; }
int pascal_spec_infeasible_skip(const pascal_spec *spec) { return spec->infeasible_skip; }
const char *pascal_spec_decimal_note(const pascal_spec *spec) { return spec->decimal_note; }
const char *pascal_spec_description(const pascal_spec *spec) { return spec->description ? spec->description : ""; }
const char *pascal_spec_filename(const pascal_spec *spec) { return spec->filename; }
const char *pascal_spec_text(const pascal_spec *spec) { return spec->text; }
const char *pascal_spec_device_text(const pascal_spec *spec) { return spec->device_text ? spec->device_text : ""; }
const char *pascal_spec_device_path(const pascal_spec *spec) { return spec->device_path ? spec->device_path : ""; }
int pascal_spec_ndevices(const pascal_spec *spec) { return spec->ndevices; }
const char *pascal_spec_device_path_k(const pascal_spec *spec, int k) { return spec->devices[k].path; }
const char *pascal_spec_device_text_k(const pascal_spec *spec, int k) { return spec->devices[k].text; }
const char *const *pascal_spec_device_labels(const pascal_spec *spec, int *n)
{
    *n = spec->ndevices;
    return spec->ndevices ? spec->device_labels : NULL;
}

const char *const *pascal_spec_param_labels(const pascal_spec *spec, int param, int *n)
{
    if (param == PASCAL_P_DEVICE)
        return pascal_spec_device_labels(spec, n);
    return pascal_param_labels(param, n);
}
unsigned pascal_spec_models(const pascal_spec *spec) { return spec->models; }
int pascal_spec_is_step(const pascal_spec *spec) { return spec->step; }

const char *pascal_spec_calibration(const pascal_spec *spec, int *line, int *col)
{
    if (line)
        *line = spec->calibration ? spec->calibration_mark.line : 0;
    if (col)
        *col = spec->calibration ? spec->calibration_mark.col : 0;
    return spec->calibration ? spec->calibration : "";
}
int pascal_spec_extrapolation_nan(const pascal_spec *spec) { return spec->extrapolation_nan; }
int pascal_spec_ncolumns(const pascal_spec *spec) { return spec->ncolumns; }
const int *pascal_spec_columns(const pascal_spec *spec) { return spec->columns; }
const pascal_point *pascal_spec_fixed(const pascal_spec *spec) { return &spec->fixed; }
int pascal_spec_naxes(const pascal_spec *spec) { return spec->naxes; }
int pascal_spec_ndims(const pascal_spec *spec) { return spec->ndims; }
uint64_t pascal_spec_size(const pascal_spec *spec) { return spec->size; }
int64_t pascal_spec_nphase_lists(const pascal_spec *spec) { return spec->nphase_lists; }
pascal_spec_output pascal_spec_output_options(const pascal_spec *spec) { return spec->output; }

const pascal_axis *pascal_spec_axis(const pascal_spec *spec, int i)
{
    return i >= 0 && i < spec->naxes ? &spec->axes[i] : NULL;
}

int64_t pascal_spec_dim_size(const pascal_spec *spec, int dim)
{
    return dim >= 0 && dim < spec->ndims ? spec->dim_size[dim] : 0;
}
