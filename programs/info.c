/* pascal info: what a sweep, shard, partial run, calibration or reference
 * file holds, for a person or (--json) a script. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/json.h"
#include "programs/cli.h"
#include "info/info.h"

static const char *usage_text =
    "usage: pascal info FILE [--json]\n\n"
    "Says what FILE is (a sweep, shard or partial run from pascal run, the\n"
    "journal of a killed run, a calibration from pascal calibrate, reference\n"
    "runs for it, or a sweep written as CSV) and what it holds: spec name,\n"
    "points, axes and their ranges, columns with units, completeness,\n"
    "provenance and the SHA-256 digests of the run's inputs; beside a sweep,\n"
    "what a stopped or killed run of the same output left (OUT.partial,\n"
    "OUT.journal).  A file that is none of these exits with status 2 and says\n"
    "what it is.";

static const char *attr(const pascal_file_info *d, const char *key)
{
    const char *v = pascal_info_attr_value(d, key);
    return v ? v : "";
}

/* ---- text ----------------------------------------------------------------- */

static void print_range(FILE *f, double lo, double hi, const char *units)
{
    if (isnan(lo))
        return;
    if (lo == hi)
        fprintf(f, " %.10g", lo);
    else
        fprintf(f, " %.10g .. %.10g", lo, hi);
    if (units[0])
        fprintf(f, " %s", units);
}

static void print_heading(FILE *f, const char *path, const pascal_file_info *d)
{
    const char *kind = d->kind, *shard = attr(d, "shard");
    fprintf(f, "%s: ", path);
    if (strcmp(kind, "sweep") == 0)
        fprintf(f, "pascal sweep, complete: %lld points\n", (long long)d->rows);
    else if (strcmp(kind, "shard") == 0)
        fprintf(f, "pascal sweep shard %s, complete: %lld points of raw points %s "
                   "(join the shards with pascal merge)\n", shard, (long long)d->rows,
                attr(d, "raw_range"));
    else if (strcmp(kind, "partial") == 0)
        fprintf(f, "pascal sweep, NOT complete: %lld rows kept so far (a stopped run; continue it "
                   "with pascal run SPEC -o OUT --resume)\n", (long long)d->rows);
    else if (strcmp(kind, "calibration") == 0)
        fprintf(f, "pascal calibration of the dynamic model: %s reference rows, %s keys\n",
                attr(d, "refs_rows"), attr(d, "refs_keys"));
    else if (strcmp(kind, "killed") == 0)
        fprintf(f, "the file of a killed pascal run (its HDF5 metadata was never closed): "
                   "pascal run SPEC -o OUT --resume recovers %lld rows from %s\n",
                (long long)d->rows, d->journal);
    else if (strcmp(kind, "journal") == 0 && strcmp(attr(d, "index"), "1") == 0)
        fprintf(f, "index of where the %lld rows of the stopped run's %s lie: pascal run SPEC -o "
                   "OUT --resume reads it%s\n", (long long)d->rows, attr(d, "partial"),
                strcmp(attr(d, "describes_partial"), "1") == 0
                    ? "" : " (it no longer describes that file: the resume finds them itself)");
    else if (strcmp(kind, "journal") == 0 && strcmp(attr(d, "header"), "torn") == 0)
        fprintf(f, "journal of a pascal run killed while starting: nothing to recover\n");
    else if (strcmp(kind, "journal") == 0 && strcmp(attr(d, "file_present"), "1") != 0)
        fprintf(f, "journal of a killed pascal run whose file %s is gone or replaced: nothing "
                   "to recover\n", attr(d, "file"));
    else if (strcmp(kind, "journal") == 0)
        fprintf(f, "journal of a killed pascal run: pascal run SPEC -o OUT --resume recovers "
                   "%lld rows of %s%s\n", (long long)d->rows, attr(d, "file"),
                strcmp(attr(d, "boot"), "this") == 0
                    ? "" : " (written in another boot: only rows synced to disk count)");
    else if (strcmp(kind, "reference") == 0)
        fprintf(f, "reference runs for pascal calibrate (CSV): %lld rows\n", (long long)d->rows);
    else
        fprintf(f, "pascal sweep written as CSV: %lld rows (a CSV carries no spec, axes, units, "
                   "provenance or completion flag; units below are the vocabulary's)\n",
                (long long)d->rows);
}

static void print_provenance(FILE *f, const pascal_file_info *d)
{
    static const char *const keys[] = {"format", "format_version", "pascal_version", "created",
                                       "command_line", "threads", "device", "calibration",
                                       "input", "input_sha256", "sms", "C", "C_max", "capacities", "block_bytes",
                                       "cv_mape", "merged_shards", "comments", "shard",
                                       "raw_range", "chunk_rows", "compression", "answer",
                                       /* a sampled sweep (docs/scale.md) */
                                       "sample_method", "sample_n", "sample_seed", "sample_inner",
                                       "sample_intervals"};
    const char *name = attr(d, "spec_name");
    if (name[0])
        fprintf(f, "  spec           %s (%s)\n", name, attr(d, "spec_path"));
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
        const char *v = attr(d, keys[k]);
        int whole = !attr(d, "shard")[0] || strcmp(attr(d, "shard"), "1/1") == 0;
        if (!v[0] || (whole && (strcmp(keys[k], "shard") == 0 || strcmp(keys[k], "raw_range") == 0)))
            continue;
        fprintf(f, "  %-14s ", keys[k]);
        for (; *v; v++)   /* multi-line values (comments) stay indented */
            fprintf(f, *v == '\n' ? "\n                 " : "%c", *v);
        fputc('\n', f);
    }
}

/* The run's inputs by SHA-256 digest (docs/reliability.md), as resume and
 * merge compare them. */
static const struct {
    const char *key, *path, *what;
} inputs[] = {
    {"sha256_spec", "spec_path", "spec"},
    {"sha256_device", "device_path", "device profile"},
    {"sha256_calibration", "calibration", "calibration"},
    {"sha256_columns", NULL, "column set"},
};
#define NINPUTS ((int)(sizeof inputs / sizeof inputs[0]))

static void print_inputs(FILE *f, const pascal_file_info *d)
{
    int shown = 0;
    for (int i = 0; i < NINPUTS; i++) {
        const char *hex = attr(d, inputs[i].key), *path = inputs[i].path ? attr(d, inputs[i].path) : "";
        if (!hex[0])
            continue;
        fprintf(f, "  %-14s %s%s%s sha256 %s\n", shown++ ? "" : "inputs", inputs[i].what,
                path[0] ? " " : "", path, hex);
    }
    if (!shown && strcmp(d->kind, "journal") != 0 &&
        (strcmp(d->kind, "sweep") == 0 || strcmp(d->kind, "shard") == 0 ||
         strcmp(d->kind, "partial") == 0))
        fprintf(f, "  inputs         no digests (written before pascal recorded them)\n");
}

/* What a stopped or killed run of the same output left beside this file. */
static void print_beside(FILE *f, const pascal_file_info *d)
{
    if (strcmp(d->kind, "killed") == 0)
        return; /* the heading said it */
    if (d->partial[0])
        fprintf(f, "  partial        %s: a stopped run's %lld rows; pascal run SPEC -o OUT "
                   "--resume continues it\n", d->partial, (long long)d->partial_rows);
    if (d->journal[0])
        fprintf(f, "  journal        %s: a killed run; pascal run SPEC -o OUT --resume "
                   "recovers %lld rows\n", d->journal, (long long)d->journal_rows);
}

/* 1 when a sampled sweep draws axis `name` from an interval (its /axes
 * entry then holds the two ends, not values). */
static int is_interval(const pascal_file_info *d, const char *name)
{
    const char *v = attr(d, "sample_intervals");
    size_t n = strlen(name);
    for (const char *p = v; *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : p + strlen(p))
        if (strncmp(p, name, n) == 0 && (p[n] == ',' || p[n] == '\0'))
            return 1;
    return 0;
}

static void print_axes(FILE *f, const pascal_file_info *d)
{
    for (int i = 0; i < d->naxes; i++) {
        const pascal_info_axis *a = &d->axes[i];
        if (is_interval(d, a->name)) {
            fprintf(f, "  %-14s %-16s drawn from the interval", i ? "" : "axes", a->name);
            print_range(f, a->min, a->max, a->units);
            fputc('\n', f);
            continue;
        }
        fprintf(f, "  %-14s %-16s %lld value%s", i ? "" : "axes", a->name, (long long)a->count,
                a->count == 1 ? "" : "s");
        if (a->labels[0])
            fprintf(f, ": %s", a->labels);
        else
            print_range(f, a->min, a->max, a->units);
        fputc('\n', f);
    }
}

static void print_columns(FILE *f, const pascal_file_info *d)
{
    for (int i = 0; i < d->ncols; i++) {
        const pascal_info_column *c = &d->cols[i];
        int first = i == 0 || strcmp(c->group, d->cols[i - 1].group) != 0;
        fprintf(f, "  %-14s %-16s", first ? c->group : "", c->name);
        if (c->labels[0])
            fprintf(f, " labels: %s", c->labels);
        else if (!isnan(c->min))
            print_range(f, c->min, c->max, c->units);
        else if (c->units[0])
            fprintf(f, " (%s)", c->units);
        if (c->description[0])
            fprintf(f, "  %s", c->description);
        fputc('\n', f);
    }
}

static void print_text(FILE *f, const char *path, const pascal_file_info *d)
{
    print_heading(f, path, d);
    print_provenance(f, d);
    print_inputs(f, d);
    print_beside(f, d);
    print_axes(f, d);
    print_columns(f, d);
    if (d->view[0])
        fprintf(f, "  view           %s: xarray.open_dataset(FILE, engine=\"h5netcdf\", "
                   "group=\"cube\")\n", d->view);
    else if (strcmp(d->kind, "sweep") == 0 || strcmp(d->kind, "shard") == 0)
        fprintf(f, "  view           none (written before format version 2)\n");
}

/* ---- JSON ----------------------------------------------------------------- */

/* "a, b, c" as a JSON array of strings. */
static void json_labels(FILE *f, const char *s)
{
    fputc('[', f);
    for (int first = 1; *s; first = 0) {
        size_t n = strcspn(s, ",");
        char buf[256];
        snprintf(buf, sizeof buf, "%.*s", (int)(n < 255 ? n : 255), s);
        if (!first)
            fputs(", ", f);
        pascal_json_str(f, buf);
        s += n;
        s += strspn(s, ", ");
    }
    fputc(']', f);
}

/* {"path": ..., "rows": N}, or null when there is no such file. */
static void json_beside(FILE *f, const char *path, int64_t rows)
{
    if (!path[0]) {
        fputs("null", f);
        return;
    }
    fputs("{\"path\": ", f);
    pascal_json_str(f, path);
    fprintf(f, ", \"rows\": %lld}", (long long)rows);
}

/* The run's inputs: {"spec": {"sha256": ..., "path": ...}, ...}. */
static void json_inputs(FILE *f, const pascal_file_info *d)
{
    fputc('{', f);
    for (int i = 0, n = 0; i < NINPUTS; i++) {
        const char *hex = attr(d, inputs[i].key);
        if (!hex[0])
            continue;
        fputs(n++ ? ", " : "", f);
        pascal_json_str(f, inputs[i].what);
        fputs(": {\"sha256\": ", f);
        pascal_json_str(f, hex);
        fputs(", \"path\": ", f);
        pascal_json_str(f, inputs[i].path ? attr(d, inputs[i].path) : "");
        fputc('}', f);
    }
    fputc('}', f);
}

static void json_axes(FILE *f, const pascal_file_info *d)
{
    fputc('[', f);
    for (int i = 0; i < d->naxes; i++) {
        const pascal_info_axis *a = &d->axes[i];
        fputs(i ? ",\n  {\"name\": " : "\n  {\"name\": ", f);
        pascal_json_str(f, a->name);
        fputs(", \"units\": ", f);
        pascal_json_str(f, a->units);
        fprintf(f, ", \"count\": %lld, ", (long long)a->count);
        pascal_json_key_num(f, "min", a->min, 17);
        fputs(", ", f);
        pascal_json_key_num(f, "max", a->max, 17);
        fputs(", \"labels\": ", f);
        json_labels(f, a->labels);
        fputc('}', f);
    }
    fputc(']', f);
}

static void json_columns(FILE *f, const pascal_file_info *d)
{
    fputc('[', f);
    for (int i = 0; i < d->ncols; i++) {
        const pascal_info_column *c = &d->cols[i];
        fputs(i ? ",\n  {\"group\": " : "\n  {\"group\": ", f);
        pascal_json_str(f, c->group);
        fputs(", \"name\": ", f);
        pascal_json_str(f, c->name);
        fputs(", \"units\": ", f);
        pascal_json_str(f, c->units);
        fputs(", \"description\": ", f);
        pascal_json_str(f, c->description);
        fprintf(f, ", \"rows\": %lld, ", (long long)c->rows);
        pascal_json_key_num(f, "min", c->min, 17);
        fputs(", ", f);
        pascal_json_key_num(f, "max", c->max, 17);
        fputs(", \"labels\": ", f);
        json_labels(f, c->labels);
        fputc('}', f);
    }
    fputc(']', f);
}

static void print_json(FILE *f, const char *path, const pascal_file_info *d)
{
    const char *complete = pascal_info_attr_value(d, "complete");
    fputs("{\"path\": ", f);
    pascal_json_str(f, path);
    fputs(", \"kind\": ", f);
    pascal_json_str(f, d->kind);
    fprintf(f, ", \"rows\": %lld, \"complete\": %s, \"spec_name\": ", (long long)d->rows,
            !complete ? "null" : strcmp(complete, "1") == 0 ? "true" : "false");
    pascal_json_str(f, attr(d, "spec_name"));
    fputs(", \"view\": ", f);
    pascal_json_str(f, d->view);
    fputs(",\n \"attributes\": {", f);
    for (int i = 0; i < d->nattrs; i++) {
        fputs(i ? ", " : "", f);
        pascal_json_str(f, d->attrs[i].key);
        fputs(": ", f);
        pascal_json_str(f, d->attrs[i].value);
    }
    fputs("},\n \"inputs\": ", f);
    json_inputs(f, d);
    fputs(",\n \"partial\": ", f);
    json_beside(f, d->partial, d->partial_rows);
    fputs(", \"journal\": ", f);
    json_beside(f, d->journal, d->journal_rows);
    fputs(",\n \"axes\": ", f);
    json_axes(f, d);
    fputs(",\n \"columns\": ", f);
    json_columns(f, d);
    fputs("}\n", f);
}

int cli_info(int argc, char **argv)
{
    cli_flag flags[] = {
        {"json", NULL, "print one JSON object (kind, rows, complete, attributes, inputs, "
                       "partial, journal, axes, columns)",
         0, 0},
    };
    char *pos[1];
    int npos, rc = cli_parse("info", usage_text, argc, argv, flags, 1, pos, 1, &npos);
    pascal_file_info d;
    pascal_error err = {0};
    if (rc != CLI_OK)
        return rc < 0 ? CLI_OK : rc;
    if (npos != 1) {
        fprintf(stderr, "pascal info: expected a file, got nothing (see pascal info --help)\n");
        return CLI_USAGE;
    }
    if ((rc = pascal_info_describe(pos[0], &d, &err)) != 0) {
        fprintf(stderr, "%s\n", err.msg);
        return rc == PASCAL_EINPUT || rc == PASCAL_EIO ? CLI_USAGE : CLI_FAIL;
    }
    if (flags[0].given)
        print_json(stdout, pos[0], &d);
    else
        print_text(stdout, pos[0], &d);
    pascal_file_info_free(&d);
    return CLI_OK;
}
