/* Values in a spec: phase lists and axes (lists and ranges), checked where
 * they are written (the scalars of each parameter type are vocab/values.c's). */
#include "sweeps/spec_internal.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/suggest.h"

#define TWO53 9007199254740992.0

static int grow(void **p, int64_t *cap, int64_t need, size_t elem)
{
    int64_t ncap = *cap ? *cap : 64;
    void *np;
    if (need <= *cap)
        return 0;
    while (ncap < need)
        ncap *= 2;
    np = realloc(*p, (size_t)ncap * elem);
    if (!np)
        return -1;
    *p = np;
    *cap = ncap;
    return 0;
}

int spec_phase_list(const spec_ctx *c, const yaml_node_t *node, const char *path, int64_t *index)
{
    pascal_spec *spec = c->spec;
    const yaml_node_item_t *it;
    int64_t n, base;
    char sub[YML_PATH_MAX];
    if (!node || node->type != YAML_SEQUENCE_NODE || node->data.sequence.items.top == node->data.sequence.items.start)
        return yml_fail_value(c->y, node, path, "a non-empty list of phases like [0, 0, 5]");
    n = node->data.sequence.items.top - node->data.sequence.items.start;
    base = spec->nphase_lists ? spec->phase_off[spec->nphase_lists] : 0;
    if (grow((void **)&spec->phase_data, &spec->phase_cap, base + n, sizeof *spec->phase_data) ||
        grow((void **)&spec->phase_off, &spec->phase_off_cap, spec->nphase_lists + 2, sizeof *spec->phase_off))
        return pascal_error_set(c->y->err, PASCAL_ENOMEM, "out of memory");
    for (it = node->data.sequence.items.start; it < node->data.sequence.items.top; it++) {
        const yaml_node_t *item = yml_node(c->y, *it);
        const char *s = yml_scalar(item);
        double v;
        int64_t k = it - node->data.sequence.items.start;
        yml_path_index(sub, path, (long)k);
        if (!s || !yml_plain(item) || yml_parse_int(s, &v) || v < 0)
            return yml_fail_value(c->y, item, sub, "a non-negative integer phase");
        spec->phase_data[base + k] = (int64_t)v;
    }
    spec->phase_off[spec->nphase_lists] = base;
    spec->phase_off[spec->nphase_lists + 1] = base + n;
    *index = spec->nphase_lists++;
    return 0;
}

static int is_integral(int param)
{
    return pascal_params[param].type == PASCAL_T_INT || pascal_params[param].type == PASCAL_T_SIZE;
}

/* Removes floating-point noise from generated real values: keeps 15
 * significant digits (0.30000000000000004 -> 0.3).  Dividing an integer by
 * an exact power of ten rounds correctly, so the result is the double
 * nearest the 15-digit decimal. */
static double snap15(double v)
{
    int e;
    if (v == 0 || !isfinite(v))
        return v;
    e = 14 - (int)floor(log10(fabs(v)));
    if (e > 22 || e < -22)
        return v;
    if (e >= 0)
        return nearbyint(v * pow(10, e)) / pow(10, e);
    return nearbyint(v / pow(10, -e)) * pow(10, -e);
}

/* A step: a number of the axis's kind, signed (sizes take units). */
static int parse_step(const spec_ctx *c, const yaml_node_t *node, int param, const char *path, double *out)
{
    const char *s = yml_scalar(node);
    const char *what = pascal_params[param].type == PASCAL_T_SIZE ? "a step like 1MiB or -4096"
                       : pascal_params[param].type == PASCAL_T_INT ? "an integer step"
                                                                   : "a numeric step";
    double v;
    int r;
    if (!s)
        return yml_fail_value(c->y, node, path, what);
    /* Integers exactly: "9007199254740993" must not round to 2^53. */
    if (yml_plain(node) && is_integral(param) && (r = yml_parse_int(s, &v)) != -1) {
        if (r == -2)
            return yml_fail(c->y, node, path, PASCAL_EINPUT, "expected a step of at most 2^53, got %s", s);
    } else if (yml_plain(node) && yml_parse_real(s, &v) == 0) {
        if (is_integral(param) && v != floor(v))
            return yml_fail_value(c->y, node, path, what);
    } else if (pascal_params[param].type == PASCAL_T_SIZE) {
        if ((r = pascal_size_parse(s + (s[0] == '-'), &v)) != 0)
            return yml_fail_size(c->y, node, path, what, r, s + (s[0] == '-'));
        if (s[0] == '-')
            v = -v;
    } else {
        return yml_fail_value(c->y, node, path, what);
    }
    if (fabs(v) > TWO53)
        return yml_fail(c->y, node, path, PASCAL_EINPUT, "expected a step of at most 2^53, got %s", s);
    if (v == 0)
        return yml_fail(c->y, node, path, PASCAL_EINPUT,
                         "expected a nonzero step (a range with zero step never ends), got %s", s);
    *out = v;
    return 0;
}

static const char *const range_keys[] = {"from", "to", "step", "num", "factor", "scale"};
enum { RK_FROM, RK_TO, RK_STEP, RK_NUM, RK_FACTOR, RK_SCALE, RK_COUNT };

typedef struct range {
    const yaml_node_t *node[RK_COUNT];
    double from, to, step, factor;
    int64_t num;
    int log;
} range;

static int read_range_kind(const spec_ctx *c, const yaml_node_t *map, int param, const char *path, range *r);

static int read_range(const spec_ctx *c, const yaml_node_t *map, int param, const char *path, range *r)
{
    const yaml_node_pair_t *pr;
    char sub[YML_PATH_MAX];
    int rc, nkind = 0;
    rc = yml_check_mapping(c->y, map, path, "a range", range_keys, RK_COUNT);
    if (rc)
        return rc;
    memset(r->node, 0, sizeof r->node);
    for (pr = map->data.mapping.pairs.start; pr < map->data.mapping.pairs.top; pr++)
        for (int k = 0; k < RK_COUNT; k++)
            if (strcmp(yml_scalar_text(yml_node(c->y, pr->key)), range_keys[k]) == 0)
                r->node[k] = yml_node(c->y, pr->value);
    for (int k = RK_FROM; k <= RK_TO; k++) {
        yml_path_key(sub, path, range_keys[k]);
        if (!r->node[k])
            return yml_fail(c->y, map, sub, PASCAL_EINPUT, "expected %s, got nothing (the range has no %s)",
                             yml_expected(param), range_keys[k]);
        rc = yml_value(c->y, r->node[k], param, sub, k == RK_FROM ? &r->from : &r->to);
        if (rc)
            return rc;
    }
    nkind = !!r->node[RK_STEP] + !!r->node[RK_NUM] + !!r->node[RK_FACTOR];
    if (nkind != 1)
        return yml_fail(c->y, map, path, PASCAL_EINPUT, "expected exactly one of step, num or factor, got %s",
                         nkind ? "more than one" : "none");
    return read_range_kind(c, map, param, path, r);
}

/* The part of a range after from and to: scale, then step, num or factor. */
static int read_range_kind(const spec_ctx *c, const yaml_node_t *map, int param, const char *path, range *r)
{
    char sub[YML_PATH_MAX];
    double num;
    int rc;
    r->log = 0;
    if (r->node[RK_SCALE]) {
        const char *s = yml_scalar(r->node[RK_SCALE]);
        yml_path_key(sub, path, "scale");
        if (!r->node[RK_NUM])
            return yml_fail(c->y, r->node[RK_SCALE], sub, PASCAL_EINPUT,
                             "expected scale only with num, got scale with %s", r->node[RK_STEP] ? "step" : "factor");
        if (!s || (strcmp(s, "linear") != 0 && strcmp(s, "log") != 0))
            return yml_fail_value(c->y, r->node[RK_SCALE], sub, "linear or log");
        r->log = strcmp(s, "log") == 0;
    }
    if (r->node[RK_STEP]) {
        yml_path_key(sub, path, "step");
        rc = parse_step(c, r->node[RK_STEP], param, sub, &r->step);
        if (rc)
            return rc;
        if (r->to != r->from && (r->to - r->from) * r->step < 0)
            return yml_fail(c->y, r->node[RK_STEP], sub, PASCAL_EINPUT,
                             "expected a %s step to go from %.17g to %.17g, got %.17g",
                             r->to > r->from ? "positive" : "negative", r->from, r->to, r->step);
    } else if (r->node[RK_NUM]) {
        const char *s = yml_scalar(r->node[RK_NUM]);
        yml_path_key(sub, path, "num");
        if (!s || !yml_plain(r->node[RK_NUM]) || yml_parse_int(s, &num) || num < 1)
            return yml_fail_value(c->y, r->node[RK_NUM], sub, "a positive integer");
        if (num > SPEC_MAX_AXIS_VALUES)
            return yml_fail(c->y, r->node[RK_NUM], sub, PASCAL_EINPUT,
                             "expected at most %d values per axis, got %s", SPEC_MAX_AXIS_VALUES, s);
        r->num = (int64_t)num;
        if (r->num == 1 && r->from != r->to)
            return yml_fail(c->y, r->node[RK_NUM], sub, PASCAL_EINPUT,
                             "expected num >= 2 for a range whose from and to differ, got 1");
        if (r->log && !(r->from > 0 && r->to > 0))
            return yml_fail(c->y, map, path, PASCAL_EINPUT,
                             "expected from > 0 and to > 0 for scale: log, got from %.17g, to %.17g", r->from, r->to);
    } else {
        const char *s = yml_scalar(r->node[RK_FACTOR]);
        yml_path_key(sub, path, "factor");
        if (!s || !yml_plain(r->node[RK_FACTOR]) || yml_parse_real(s, &r->factor) || !(r->factor > 1))
            return yml_fail_value(c->y, r->node[RK_FACTOR], sub, "a factor > 1");
        if (!(r->from > 0) || r->to < r->from)
            return yml_fail(c->y, map, path, PASCAL_EINPUT,
                             "expected 0 < from <= to for a factor range, got from %.17g, to %.17g", r->from, r->to);
    }
    return 0;
}

/* Number of values a range generates (before the 10-million limit). */
static double range_count(const range *r)
{
    if (r->node[RK_NUM])
        return (double)r->num;
    if (r->node[RK_STEP])
        return floor((r->to - r->from) / r->step + 1e-9) + 1;
    /* factor: from * factor^k <= to */
    return floor(log(r->to / r->from) / log(r->factor) + 1e-9) + 1;
}

static double range_value(const range *r, int64_t k, int64_t n)
{
    if (r->node[RK_STEP])
        return r->from + (double)k * r->step;
    if (r->node[RK_FACTOR])
        return r->from * pow(r->factor, (double)k);
    if (k == n - 1)
        return r->to;
    if (r->log)
        return exp(log(r->from) + (log(r->to) - log(r->from)) * (double)k / (double)(n - 1));
    return r->from + (r->to - r->from) * (double)k / (double)(n - 1);
}

static int range_values(const spec_ctx *c, const yaml_node_t *map, int param, const char *path,
                        double **values, int64_t *count)
{
    range r;
    double n;
    double *v;
    int rc = read_range(c, map, param, path, &r);
    if (rc)
        return rc;
    n = range_count(&r);
    if (n > SPEC_MAX_AXIS_VALUES)
        return yml_fail(c->y, map, path, PASCAL_EINPUT, "expected at most %d values per axis, got %.0f",
                         SPEC_MAX_AXIS_VALUES, n);
    v = malloc((size_t)n * sizeof *v);
    if (!v)
        return pascal_error_set(c->y->err, PASCAL_ENOMEM, "out of memory");
    for (int64_t k = 0; k < (int64_t)n; k++) {
        double x = range_value(&r, k, (int64_t)n);
        v[k] = is_integral(param) ? (double)llround(x) : snap15(x);
        if (k > 0 && v[k] == v[k - 1]) {
            double dup = v[k];
            free(v);
            return yml_fail(c->y, map, path, PASCAL_EINPUT,
                             "expected distinct values%s, got %.17g twice (values %lld and %lld of %.0f); "
                             "ask for fewer points",
                             is_integral(param) ? " after rounding to whole numbers" : "", dup, (long long)k,
                             (long long)k + 1, n);
        }
    }
    *values = v;
    *count = (int64_t)n;
    return 0;
}

/* A list axis's value (a number, or a phase list's contents) and where it
 * was written, for finding repeats. */
typedef struct axis_item {
    double v;
    const int64_t *list;
    int64_t len, idx;
} axis_item;

static int cmp_item(const void *a, const void *b)
{
    const axis_item *x = a, *y = b;
    if (x->list || y->list) {
        if (x->len != y->len)
            return x->len < y->len ? -1 : 1;
        for (int64_t k = 0; k < x->len; k++)
            if (x->list[k] != y->list[k])
                return x->list[k] < y->list[k] ? -1 : 1;
    } else if (x->v != y->v) {
        return x->v < y->v ? -1 : 1;
    }
    return (x->idx > y->idx) - (x->idx < y->idx);
}

/* Items of one list axis, sorted by value (phase lists by content). */
static axis_item *sorted_items(const spec_ctx *c, int type, const double *v, int64_t n)
{
    axis_item *it = malloc((size_t)n * sizeof *it);
    if (!it)
        return NULL;
    for (int64_t k = 0; k < n; k++) {
        it[k] = (axis_item){v[k], NULL, 0, k};
        if (type == PASCAL_T_PHASES)
            it[k].list = pascal_spec_phase_list(c->spec, (int64_t)v[k], &it[k].len);
    }
    qsort(it, (size_t)n, sizeof *it, cmp_item);
    return it;
}

static int same_value(const axis_item *a, const axis_item *b)
{
    return cmp_item(&(axis_item){a->v, a->list, a->len, 0}, &(axis_item){b->v, b->list, b->len, 0}) == 0;
}

/* The repeat that comes first in the lists among sorted items: *first and
 * *second get its two indices (*second < 0: none). */
static void first_repeat(const axis_item *it, int64_t n, int64_t *first, int64_t *second)
{
    *first = *second = -1;
    for (int64_t k = 1; k < n; k++)
        if (same_value(&it[k - 1], &it[k]) && (*second < 0 || it[k].idx < *second))
            *first = it[k - 1].idx, *second = it[k].idx;
}

/* Each point of a zip group as the tuple of its members' value ranks
 * (equal values, equal ranks), k per point in ranks; NULL when out of
 * memory. */
static int64_t *zip_ranks(const spec_ctx *c, const spec_list_axis *ax, int k, int64_t n)
{
    int64_t *ranks = malloc((size_t)n * (size_t)k * sizeof *ranks);
    for (int j = 0; ranks && j < k; j++) {
        axis_item *it = sorted_items(c, pascal_params[ax[j].param].type, ax[j].values, n);
        if (!it) {
            free(ranks);
            return NULL;
        }
        for (int64_t r = 0, q = 0; q < n; q++) {
            r += q > 0 && !same_value(&it[q - 1], &it[q]);
            ranks[it[q].idx * k + j] = r;
        }
        free(it);
    }
    return ranks;
}

/* List axes read together (one axis, or the members of a zip group) whose
 * values repeat would evaluate the same points twice: an error, like a
 * range whose rounded values repeat.  Reports the repeat that comes first
 * in the lists, at the first member. */
int spec_check_distinct(const spec_ctx *c, const spec_list_axis *ax, int k, int64_t n)
{
    int type = pascal_params[ax[0].param].type;
    int64_t first, second, *ranks = NULL;
    char sub[YML_PATH_MAX], got[96], names[256], tuple[512];
    axis_item *it;
    if (k == 1) {
        it = sorted_items(c, type, ax[0].values, n);
    } else if ((ranks = zip_ranks(c, ax, k, n)) != NULL && (it = malloc((size_t)n * sizeof *it))) {
        for (int64_t q = 0; q < n; q++)
            it[q] = (axis_item){0, ranks + q * k, k, q};
        qsort(it, (size_t)n, sizeof *it, cmp_item);
    } else {
        it = NULL;
    }
    if (!it) {
        free(ranks);
        return pascal_error_set(c->y->err, PASCAL_ENOMEM, "out of memory");
    }
    first_repeat(it, n, &first, &second);
    free(it);
    free(ranks);
    if (second < 0)
        return 0;
    yml_path_index(sub, ax[0].path, (long)second);
    yml_describe(yml_node(c->y, ax[0].node->data.sequence.items.start[second]), got, sizeof got);
    if (type == PASCAL_T_PHASES)
        snprintf(got, sizeof got, "the same phase list");
    if (k == 1)
        return yml_fail(c->y, yml_node(c->y, ax[0].node->data.sequence.items.start[second]), sub, PASCAL_EINPUT,
                         "expected distinct values, got %s again (first at %s[%lld]); each would give the "
                         "same points twice", got, ax[0].path, (long long)first);
    names[0] = tuple[0] = 0;
    for (int j = 0, off = 0, t = 0; j < k && off < (int)sizeof names && t < (int)sizeof tuple; j++) {
        yml_describe(yml_node(c->y, ax[j].node->data.sequence.items.start[second]), got, sizeof got);
        off += snprintf(names + off, sizeof names - (size_t)off, "%s%s", j ? ", " : "", pascal_params[ax[j].param].name);
        t += snprintf(tuple + t, sizeof tuple - (size_t)t, "%s%s", j ? ", " : "",
                      pascal_params[ax[j].param].type == PASCAL_T_PHASES ? "a phase list" : got);
    }
    return yml_fail(c->y, yml_node(c->y, ax[0].node->data.sequence.items.start[second]), sub, PASCAL_EINPUT,
                     "expected distinct combinations of the zip group [%s], got (%s) again at index %lld "
                     "(first at index %lld); each would give the same points twice",
                     names, tuple, (long long)second, (long long)first);
}

int spec_axis_values(const spec_ctx *c, const yaml_node_t *node, int param, const char *path,
                     double **values, int64_t *count)
{
    int type = pascal_params[param].type;
    const yaml_node_item_t *it;
    char sub[YML_PATH_MAX], got[96];
    int64_t n;
    double *v;
    int rc;
    *values = NULL;
    *count = 0;
    if (node && node->type == YAML_MAPPING_NODE) {
        if (type == PASCAL_T_PATTERN || type == PASCAL_T_PHASES || type == PASCAL_T_PATH ||
            type == PASCAL_T_NAME)
            return yml_fail(c->y, node, path, PASCAL_EINPUT, "expected a list of %s, got a range",
                             type == PASCAL_T_PATTERN ? "pattern names"
                             : type == PASCAL_T_PATH  ? "load paths (" PASCAL_PATH_LIST ")"
                             : type == PASCAL_T_NAME  ? "names"
                                                      : "phase lists");
        return range_values(c, node, param, path, values, count);
    }
    if (!node || node->type != YAML_SEQUENCE_NODE) {
        yml_describe(node, got, sizeof got);
        if (type == PASCAL_T_PHASES)
            return yml_fail(c->y, node, path, PASCAL_EINPUT,
                             "expected a list of phase lists like [[0, 0, 5], [0, 1, 2, 3]], got %s", got);
        return yml_fail(c->y, node, path, PASCAL_EINPUT,
                         "expected a list like [1, 2, 4] or a range like {from: 1, to: 8, step: 1} "
                         "(single values go under fixed), got %s",
                         got);
    }
    n = node->data.sequence.items.top - node->data.sequence.items.start;
    if (n == 0)
        return yml_fail(c->y, node, path, PASCAL_EINPUT, "expected at least one value, got an empty axis []");
    if (n > SPEC_MAX_AXIS_VALUES)
        return yml_fail(c->y, node, path, PASCAL_EINPUT, "expected at most %d values per axis, got %lld",
                         SPEC_MAX_AXIS_VALUES, (long long)n);
    v = malloc((size_t)n * sizeof *v);
    if (!v)
        return pascal_error_set(c->y->err, PASCAL_ENOMEM, "out of memory");
    for (it = node->data.sequence.items.start; it < node->data.sequence.items.top; it++) {
        const yaml_node_t *item = yml_node(c->y, *it);
        int64_t k = it - node->data.sequence.items.start, index;
        yml_path_index(sub, path, (long)k);
        if (type == PASCAL_T_PHASES) {
            if (!item || item->type != YAML_SEQUENCE_NODE) {
                yml_describe(item, got, sizeof got);
                rc = yml_fail(c->y, item, sub, PASCAL_EINPUT,
                               "expected a phase list like [0, 0, 5] (an axis of phases is a list of lists), got %s",
                               got);
            } else {
                rc = spec_phase_list(c, item, sub, &index);
                v[k] = (double)index;
            }
        } else {
            rc = yml_value(c->y, item, param, sub, &v[k]);
        }
        if (rc) {
            free(v);
            return rc;
        }
    }
    *values = v;
    *count = n;
    return 0;
}

/* The accessor of sweeps/spec.h, here beside the lists' parser so that the
 * files reading a point's list (spec_point.c, and this one) need not call
 * up into spec.c. */
const int64_t *pascal_spec_phase_list(const pascal_spec *spec, int64_t i, int64_t *len)
{
    if (i < 0 || i >= spec->nphase_lists) {
        if (len)
            *len = 0;
        return NULL;
    }
    if (len)
        *len = spec->phase_off[i + 1] - spec->phase_off[i];
    return spec->phase_data + spec->phase_off[i];
}
