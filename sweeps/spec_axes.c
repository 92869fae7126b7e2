/* `fixed`, `axes` and `zip`: which parameter takes which values, the
 * dimensions of the mixed-radix point index and their canonical order, and
 * the static checks that every point can derive N, M and C. */
#include "sweeps/spec_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void param_names(const char **names)
{
    for (int i = 0; i < PASCAL_NPARAM; i++)
        names[i] = pascal_params[i].name;
}

static int param_of_key(const spec_ctx *c, const yaml_node_pair_t *pr)
{
    return pascal_param_from_name(yml_scalar_text(yml_node(c->y, pr->key)));
}

int spec_parse_fixed(const spec_ctx *c, const yaml_node_t *node)
{
    pascal_spec *spec = c->spec;
    const char *names[PASCAL_NPARAM];
    const yaml_node_pair_t *pr;
    char path[YML_PATH_MAX], got[96];
    int rc;
    if (yml_is_null(node))
        return 0;
    param_names(names);
    rc = yml_check_mapping(c->y, node, "fixed", "a mapping of parameter: value", names, PASCAL_NPARAM);
    if (rc)
        return rc;
    for (pr = node->data.mapping.pairs.start; pr < node->data.mapping.pairs.top; pr++) {
        int param = param_of_key(c, pr);
        const yaml_node_t *val = yml_node(c->y, pr->value);
        double v;
        yml_path_key(path, "fixed", pascal_params[param].name);
        if (param == PASCAL_P_WORKLOAD || spec->source[param] == SRC_WORKLOAD)
            return yml_fail(c->y, yml_node(c->y, pr->key), path, PASCAL_EINPUT,
                             param == PASCAL_P_WORKLOAD
                                 ? "expected the workload kind in a workload: section, got it in fixed"
                                 : "expected %s in the workload or in fixed, not both; got it in both "
                                   "(%s at line %d)",
                             pascal_params[param].name, spec->src[param].path, spec->src[param].line);
        if (param == PASCAL_P_DEVICE)
            return yml_fail(c->y, yml_node(c->y, pr->key), path, PASCAL_EINPUT,
                             "expected one device as the top-level key device: PROFILE, or several "
                             "as an axis (axes: device: [h100, h200]), got it in fixed");
        if (pascal_params[param].type == PASCAL_T_PHASES) {
            int64_t index;
            rc = spec_phase_list(c, val, path, &index);
            v = (double)index;
        } else if (val && val->type == YAML_SEQUENCE_NODE) {
            yml_describe(val, got, sizeof got);
            rc = yml_fail(c->y, val, path, PASCAL_EINPUT, "expected %s, got a list (lists go under axes)",
                           yml_expected(param));
        } else {
            rc = yml_value(c->y, val, param, path, &v);
        }
        if (rc)
            return rc;
        spec->fixed.v[param] = v;
        spec->source[param] = SRC_FIXED;
        yml_mark_of(c->y, val, path, &spec->src[param]);
    }
    return 0;
}

/* Reads `zip`: group[i] is the zip group of the i-th axis in spec order, or -1. */
static int parse_zip(const spec_ctx *c, const yaml_node_t *zip, int *group, int *ngroups)
{
    pascal_spec *spec = c->spec;
    const yaml_node_item_t *g, *it;
    char path[YML_PATH_MAX], sub[YML_PATH_MAX], got[96], list[512];
    size_t off = 0;
    for (int i = 0; i < spec->naxes; i++) {
        group[i] = -1;
        if (off < sizeof list)
            off += (size_t)snprintf(list + off, sizeof list - off, "%s%s", i ? ", " : "",
                                    pascal_params[spec->axes[i].param].name);
    }
    *ngroups = 0;
    if (yml_is_null(zip))
        return 0;
    if (zip->type != YAML_SEQUENCE_NODE) {
        yml_describe(zip, got, sizeof got);
        return yml_fail(c->y, zip, "zip", PASCAL_EINPUT,
                         "expected a list of axis groups like [[block_bytes, capacity_bytes]], got %s", got);
    }
    for (g = zip->data.sequence.items.start; g < zip->data.sequence.items.top; g++) {
        const yaml_node_t *gn = yml_node(c->y, *g);
        int first = -1;
        yml_path_index(path, "zip", (long)(g - zip->data.sequence.items.start));
        if (!gn || gn->type != YAML_SEQUENCE_NODE || gn->data.sequence.items.top - gn->data.sequence.items.start < 2) {
            yml_describe(gn, got, sizeof got);
            if (gn && gn->type == YAML_SEQUENCE_NODE)
                snprintf(got, sizeof got, "%d", (int)(gn->data.sequence.items.top - gn->data.sequence.items.start));
            return yml_fail(c->y, gn, path, PASCAL_EINPUT, "expected a group of at least two axis names, got %s", got);
        }
        for (it = gn->data.sequence.items.start; it < gn->data.sequence.items.top; it++) {
            const yaml_node_t *m = yml_node(c->y, *it);
            const char *name = yml_scalar_text(m);
            int a;
            yml_path_index(sub, path, (long)(it - gn->data.sequence.items.start));
            for (a = 0; a < spec->naxes && name; a++)
                if (strcmp(pascal_params[spec->axes[a].param].name, name) == 0)
                    break;
            if (!name || a == spec->naxes) {
                yml_describe(m, got, sizeof got);
                return yml_fail(c->y, m, sub, PASCAL_EINPUT, "expected the name of an axis (%s), got %s", list, got);
            }
            if (group[a] >= 0)
                return yml_fail(c->y, m, sub, PASCAL_EINPUT,
                                 "expected each axis in at most one zip group, got \"%s\" again", name);
            group[a] = *ngroups;
            if (first < 0) {
                first = a;
            } else if (spec->axes[a].count != spec->axes[first].count) {
                return yml_fail(c->y, m, sub, PASCAL_EINPUT,
                                 "expected axes of equal length in a zip group, got %s with %lld values and %s "
                                 "with %lld",
                                 pascal_params[spec->axes[first].param].name, (long long)spec->axes[first].count,
                                 name, (long long)spec->axes[a].count);
            }
        }
        (*ngroups)++;
    }
    return 0;
}

/* Dimensions: one per ungrouped axis or zip group, in spec order (a group
 * where its first member appears), then a stable partition moving the
 * dimensions whose axes are all PASCAL_PF_INNER to the end, so that the
 * innermost (fastest) dimensions only change capacity-like parameters. */
static void build_dims(pascal_spec *spec, const int *group, int ngroups)
{
    int dim_of_group[PASCAL_NPARAM], raw[PASCAL_NPARAM], inner[PASCAL_NPARAM], remap[PASCAL_NPARAM];
    int ndims = 0, next = 0;
    pascal_axis sorted[PASCAL_NPARAM];
    int n = 0;
    for (int g = 0; g < ngroups; g++)
        dim_of_group[g] = -1;
    for (int i = 0; i < spec->naxes; i++) {
        int g = group[i];
        if (g < 0) {
            raw[i] = ndims++;
        } else {
            if (dim_of_group[g] < 0)
                dim_of_group[g] = ndims++;
            raw[i] = dim_of_group[g];
        }
    }
    for (int d = 0; d < ndims; d++)
        inner[d] = 1;
    for (int i = 0; i < spec->naxes; i++)
        if (!(pascal_params[spec->axes[i].param].flags & PASCAL_PF_INNER))
            inner[raw[i]] = 0;
    for (int pass = 0; pass < 2; pass++)
        for (int d = 0; d < ndims; d++)
            if (inner[d] == pass)
                remap[d] = next++;
    for (int d = 0; d < ndims; d++)
        for (int i = 0; i < spec->naxes; i++)
            if (remap[raw[i]] == d) {
                sorted[n] = spec->axes[i];
                sorted[n].dim = d;
                spec->dim_size[d] = sorted[n].count;
                n++;
            }
    memcpy(spec->axes, sorted, (size_t)n * sizeof sorted[0]);
    spec->ndims = ndims;
}

static int count_points(const spec_ctx *c, const yaml_node_t *axes_key)
{
    pascal_spec *spec = c->spec;
    uint64_t size = 1;
    int overflow = 0;
    char list[768];
    size_t off = 0;
    for (int d = 0; d < spec->ndims; d++) {
        if (__builtin_mul_overflow(size, (uint64_t)spec->dim_size[d], &size))
            overflow = 1;
        if (off < sizeof list)
            off += (size_t)snprintf(list + off, sizeof list - off, "%s%lld (", d ? " x " : "",
                                    (long long)spec->dim_size[d]);
        for (int i = 0, first = 1; i < spec->naxes && off < sizeof list; i++)
            if (spec->axes[i].dim == d) {
                off += (size_t)snprintf(list + off, sizeof list - off, "%s%s", first ? "" : "+",
                                        pascal_params[spec->axes[i].param].name);
                first = 0;
            }
        if (off < sizeof list)
            off += (size_t)snprintf(list + off, sizeof list - off, ")");
    }
    if (overflow)
        return yml_fail(c->y, axes_key, "axes", PASCAL_EINPUT,
                         "expected fewer than 2^64 points, got more: the sweep has more than 2^64 points "
                         "(%s)",
                         list);
    spec->size = size;
    return 0;
}

/* Repeated values of list axes, each ungrouped axis on its own and each zip
 * group's members together (a zipped axis may repeat a value as long as
 * the group's combinations differ); axes in spec order, as the mapping
 * lists them.  A group with a range member has distinct points. */
static int check_repeats(const spec_ctx *c, const yaml_node_t *axes, const int *group)
{
    const pascal_spec *spec = c->spec;
    char paths[PASCAL_NPARAM][YML_PATH_MAX];
    spec_list_axis ax[PASCAL_NPARAM];
    int done[PASCAL_NPARAM] = {0}, rc;
    for (int i = 0; i < spec->naxes; i++) {
        const yaml_node_pair_t *pr = axes->data.mapping.pairs.start + i;
        yml_path_key(paths[i], "axes", pascal_params[spec->axes[i].param].name);
        ax[i] = (spec_list_axis){yml_node(c->y, pr->value), paths[i], spec->axes[i].param, spec->axes[i].values};
    }
    for (int i = 0; i < spec->naxes; i++) {
        spec_list_axis members[PASCAL_NPARAM];
        int k = 0, lists = 1;
        if (done[i])
            continue;
        for (int j = i; j < spec->naxes; j++)
            if (j == i || (group[i] >= 0 && group[j] == group[i])) {
                done[j] = 1;
                members[k++] = ax[j];
                lists &= ax[j].node && ax[j].node->type == YAML_SEQUENCE_NODE;
            }
        if (lists && (rc = spec_check_distinct(c, members, k, spec->axes[i].count)))
            return rc;
    }
    return 0;
}

int spec_parse_axes(const spec_ctx *c, const yaml_node_t *axes_key, const yaml_node_t *axes,
                    const yaml_node_t *zip)
{
    pascal_spec *spec = c->spec;
    const char *names[PASCAL_NPARAM];
    const yaml_node_pair_t *pr;
    char path[YML_PATH_MAX];
    int group[PASCAL_NPARAM], ngroups, rc;
    param_names(names);
    rc = yml_check_mapping(c->y, axes, "axes", "a mapping of parameter: list or range", names, PASCAL_NPARAM);
    if (rc)
        return rc;
    if (axes->data.mapping.pairs.top == axes->data.mapping.pairs.start)
        return yml_fail(c->y, axes, "axes", PASCAL_EINPUT, "expected at least one axis, got an empty mapping");
    for (pr = axes->data.mapping.pairs.start; pr < axes->data.mapping.pairs.top; pr++) {
        int param = param_of_key(c, pr);
        const yaml_node_t *val = yml_node(c->y, pr->value);
        pascal_axis *a = &spec->axes[spec->naxes];
        double *values;
        yml_path_key(path, "axes", pascal_params[param].name);
        if (param == PASCAL_P_WORKLOAD)
            return yml_fail(c->y, yml_node(c->y, pr->key), path, PASCAL_EINPUT,
                             "expected the workload kind in a workload: section, got it in axes "
                             "(one spec describes one kind)");
        if (spec->source[param] == SRC_FIXED)
            return yml_fail(c->y, yml_node(c->y, pr->key), path, PASCAL_EINPUT,
                             "expected %s in fixed or in axes, not both; got it in both (%s at line %d)",
                             pascal_params[param].name, spec->src[param].path, spec->src[param].line);
        if (param == PASCAL_P_DEVICE)
            rc = spec_device_axis(c, val, path, &values, &a->count);
        else if (spec_sample_is_interval(c, val, param))
            rc = spec_sample_interval(c, val, param, path, &values, &a->count);
        else
            rc = spec_axis_values(c, val, param, path, &values, &a->count);
        if (rc)
            return rc;
        a->values = values;
        a->param = param;
        a->dim = -1;
        spec->naxes++;
        /* An axis overrides the device profile's default. */
        spec->fixed.v[param] = NAN;
        spec->source[param] = SRC_AXIS;
        yml_mark_of(c->y, val, path, &spec->src[param]);
    }
    if (spec->sample && (rc = spec_sample_check_zip(c, zip)))
        return rc;
    rc = parse_zip(c, zip, group, &ngroups);
    if (rc || (rc = check_repeats(c, axes, group)))
        return rc;
    build_dims(spec, group, ngroups);
    if (spec->sample) /* draws, not the product of the axes */
        return spec_sample_finish(c);
    return count_points(c, axes_key);
}

static int is_set(const pascal_spec *spec, int param)
{
    return spec->source[param] != SRC_NONE;
}

/* "got only X and Y" / "got none of them" for the parameters in list. */
static void present(const pascal_spec *spec, const int *list, int n, char *buf, size_t len)
{
    size_t off = 0;
    int any = 0;
    for (int i = 0; i < n; i++)
        if (is_set(spec, list[i]) && off < len) {
            off += (size_t)snprintf(buf + off, len - off, "%s%s", any ? " and " : "only ", pascal_params[list[i]].name);
            any = 1;
        }
    if (!any)
        snprintf(buf, len, "none of them");
}

int spec_check_derivable(const spec_ctx *c, const yaml_node_t *root)
{
    pascal_spec *spec = c->spec;
    int any_explicit = 0, any_other = 0;
    int wl = is_set(spec, PASCAL_P_WORKLOAD);   /* derives N and block_bytes */
    char got[128];
    if (!wl && !is_set(spec, PASCAL_P_N) &&
        !(is_set(spec, PASCAL_P_DATA_BYTES) && is_set(spec, PASCAL_P_BLOCK_BYTES))) {
        static const int l[] = {PASCAL_P_DATA_BYTES, PASCAL_P_BLOCK_BYTES};
        present(spec, l, 2, got, sizeof got);
        return yml_fail(c->y, root, "N", PASCAL_EINPUT,
                         "N is not set: expected N, or data_bytes and block_bytes, in fixed or axes; got %s", got);
    }
    if (!is_set(spec, PASCAL_P_C) &&
        !(is_set(spec, PASCAL_P_CAPACITY_BYTES) && (wl || is_set(spec, PASCAL_P_BLOCK_BYTES)))) {
        static const int l[] = {PASCAL_P_CAPACITY_BYTES, PASCAL_P_BLOCK_BYTES};
        present(spec, l, 2, got, sizeof got);
        return yml_fail(c->y, root, "C", PASCAL_EINPUT,
                         "C is not set: expected C, or capacity_bytes (or a device profile) and block_bytes, in "
                         "fixed or axes; got %s",
                         got);
    }
    if (spec->source[PASCAL_P_PATTERN] == SRC_AXIS) {
        for (int i = 0; i < spec->naxes; i++)
            if (spec->axes[i].param == PASCAL_P_PATTERN)
                for (int64_t k = 0; k < spec->axes[i].count; k++) {
                    if (spec->axes[i].values[k] == PASCAL_PATTERN_EXPLICIT)
                        any_explicit = 1;
                    else
                        any_other = 1;
                }
    } else if (spec->fixed.v[PASCAL_P_PATTERN] == PASCAL_PATTERN_EXPLICIT) {
        any_explicit = 1;
    } else {
        any_other = 1;
    }
    if (any_explicit && !is_set(spec, PASCAL_P_PHASES))
        return yml_fail_mark(c->y->err, &spec->src[PASCAL_P_PATTERN], PASCAL_EINPUT,
                              "expected phases (in fixed or axes) for the explicit pattern, got none");
    if (!any_explicit && is_set(spec, PASCAL_P_PHASES))
        return yml_fail_mark(c->y->err, &spec->src[PASCAL_P_PHASES], PASCAL_EINPUT,
                              "expected pattern: explicit (in fixed or axes) to use these phases, got %s",
                              is_set(spec, PASCAL_P_PATTERN) ? "no explicit pattern" : "no pattern (aligned)");
    if (any_other && !is_set(spec, PASCAL_P_M) && !(is_set(spec, PASCAL_P_SMS) && is_set(spec, PASCAL_P_OCCUPANCY))) {
        static const int l[] = {PASCAL_P_SMS, PASCAL_P_OCCUPANCY};
        present(spec, l, 2, got, sizeof got);
        return yml_fail(c->y, root, "M", PASCAL_EINPUT,
                         "M is not set: expected M, or sms (or a device profile) and occupancy, in fixed or "
                         "axes; got %s",
                         got);
    }
    return 0;
}
