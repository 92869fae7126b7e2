/* pascal info: what a sweep, shard, partial run, calibration or reference
 * file holds, for a person or (--json) a script. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/cli/cli.h"
#include "engine/info.h"

static const char *usage_text =
    "usage: pascal info FILE [--json]\n\n"
    "Says what FILE is (a sweep, shard or partial run from pascal run, a\n"
    "calibration from pascal calibrate, reference runs for it, or a sweep\n"
    "written as CSV) and what it holds: spec name, points, axes and their\n"
    "ranges, columns with units, completeness and provenance.  A file that is\n"
    "none of these exits with status 2 and says what it is.";

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
                                       "input", "input_sha256", "sms", "C", "block_bytes",
                                       "cv_mape", "merged_shards", "comments"};
    const char *name = attr(d, "spec_name");
    if (name[0])
        fprintf(f, "  spec           %s (%s)\n", name, attr(d, "spec_path"));
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
        const char *v = attr(d, keys[k]);
        if (!v[0])
            continue;
        fprintf(f, "  %-14s ", keys[k]);
        for (; *v; v++)   /* multi-line values (comments) stay indented */
            fprintf(f, *v == '\n' ? "\n                 " : "%c", *v);
        fputc('\n', f);
    }
}

static void print_axes(FILE *f, const pascal_file_info *d)
{
    for (int i = 0; i < d->naxes; i++) {
        const pascal_info_axis *a = &d->axes[i];
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
    print_axes(f, d);
    print_columns(f, d);
    if (d->view[0])
        fprintf(f, "  view           %s: xarray.open_dataset(FILE, engine=\"h5netcdf\", "
                   "group=\"cube\")\n", d->view);
    else if (strcmp(d->kind, "sweep") == 0 || strcmp(d->kind, "shard") == 0)
        fprintf(f, "  view           none (written before format version 2)\n");
}

/* ---- JSON ----------------------------------------------------------------- */

static void json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c == '\n')
            fputs("\\n", f);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

static void json_num(FILE *f, double v)
{
    if (isnan(v) || isinf(v))
        fputs("null", f);
    else
        fprintf(f, "%.17g", v);
}

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
        json_str(f, buf);
        s += n;
        s += strspn(s, ", ");
    }
    fputc(']', f);
}

static void print_json(FILE *f, const char *path, const pascal_file_info *d)
{
    const char *complete = pascal_info_attr_value(d, "complete");
    fputs("{\"path\": ", f);
    json_str(f, path);
    fputs(", \"kind\": ", f);
    json_str(f, d->kind);
    fprintf(f, ", \"rows\": %lld, \"complete\": %s, \"spec_name\": ", (long long)d->rows,
            !complete ? "null" : strcmp(complete, "1") == 0 ? "true" : "false");
    json_str(f, attr(d, "spec_name"));
    fputs(", \"view\": ", f);
    json_str(f, d->view);
    fputs(",\n \"attributes\": {", f);
    for (int i = 0; i < d->nattrs; i++) {
        fputs(i ? ", " : "", f);
        json_str(f, d->attrs[i].key);
        fputs(": ", f);
        json_str(f, d->attrs[i].value);
    }
    fputs("},\n \"axes\": [", f);
    for (int i = 0; i < d->naxes; i++) {
        const pascal_info_axis *a = &d->axes[i];
        fputs(i ? ",\n  {\"name\": " : "\n  {\"name\": ", f);
        json_str(f, a->name);
        fputs(", \"units\": ", f);
        json_str(f, a->units);
        fprintf(f, ", \"count\": %lld, \"min\": ", (long long)a->count);
        json_num(f, a->min);
        fputs(", \"max\": ", f);
        json_num(f, a->max);
        fputs(", \"labels\": ", f);
        json_labels(f, a->labels);
        fputc('}', f);
    }
    fputs("],\n \"columns\": [", f);
    for (int i = 0; i < d->ncols; i++) {
        const pascal_info_column *c = &d->cols[i];
        fputs(i ? ",\n  {\"group\": " : "\n  {\"group\": ", f);
        json_str(f, c->group);
        fputs(", \"name\": ", f);
        json_str(f, c->name);
        fputs(", \"units\": ", f);
        json_str(f, c->units);
        fputs(", \"description\": ", f);
        json_str(f, c->description);
        fprintf(f, ", \"rows\": %lld, \"min\": ", (long long)c->rows);
        json_num(f, c->min);
        fputs(", \"max\": ", f);
        json_num(f, c->max);
        fputs(", \"labels\": ", f);
        json_labels(f, c->labels);
        fputc('}', f);
    }
    fputs("]}\n", f);
}

int cli_info(int argc, char **argv)
{
    cli_flag flags[] = {
        {"json", NULL, "print one JSON object (kind, rows, complete, attributes, axes, columns)",
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
