/* Scalars of each parameter type (integers, numbers, sizes with units,
 * pattern, load-path and label names) read from YAML nodes, checked against
 * the parameter's type and flags where they are written, so that a message
 * can point at them (vocab/yaml.h). */
#include "vocab/yaml.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/suggest.h"
#include "model/phases.h"
#include "vocab/params.h"

const char *yml_expected(int param)
{
    unsigned f = pascal_params[param].flags;
    switch (pascal_params[param].type) {
    case PASCAL_T_INT:
        return (f & PASCAL_PF_POSITIVE) ? "a positive integer"
               : (f & PASCAL_PF_NONNEG) ? "a non-negative integer"
                                        : "an integer";
    case PASCAL_T_REAL:
        return (f & PASCAL_PF_POSITIVE) ? "a positive number"
               : (f & PASCAL_PF_NONNEG) ? "a non-negative number"
                                        : "a number";
    case PASCAL_T_SIZE:
        return "a size like 20MiB";
    case PASCAL_T_PATTERN:
        return "a pattern name (aligned, clusters, equal, uniform, gaussian, lag, explicit)";
    case PASCAL_T_PATH:
        return "a load path (" PASCAL_PATH_LIST ")";
    case PASCAL_T_NAME:
        return pascal_params[param].description;
    default:
        return "a list of phases like [0, 0, 5]";
    }
}

/* Decimal integers only: [+-]digits.  0 ok, -1 not an integer, -2 beyond 2^53. */
int yml_parse_int(const char *s, double *out)
{
    const char *p = s;
    uint64_t v = 0;
    int neg = 0, big = 0;
    if (*p == '+' || *p == '-')
        neg = *p++ == '-';
    if (!isdigit((unsigned char)*p))
        return -1;
    for (; isdigit((unsigned char)*p); p++) {
        if (v > (UINT64_C(1) << 53))
            big = 1; /* keep scanning: "1e999999..." is still not an integer */
        else
            v = v * 10 + (uint64_t)(*p - '0');
    }
    if (*p)
        return -1;
    if (big || v > (UINT64_C(1) << 53))
        return -2;
    *out = neg ? -(double)v : (double)v;
    return 0;
}

/* [+-](digits[.digits] | .digits)[e[+-]digits], finite. */
int yml_parse_real(const char *s, double *out)
{
    const char *p = s;
    int digits = 0;
    char *end;
    if (*p == '+' || *p == '-')
        p++;
    while (isdigit((unsigned char)*p))
        p++, digits++;
    if (*p == '.') {
        p++;
        while (isdigit((unsigned char)*p))
            p++, digits++;
    }
    if (!digits)
        return -1;
    if (*p == 'e' || *p == 'E') {
        p++;
        if (*p == '+' || *p == '-')
            p++;
        if (!isdigit((unsigned char)*p))
            return -1;
        while (isdigit((unsigned char)*p))
            p++;
    }
    if (*p)
        return -1;
    *out = strtod(s, &end);
    return isfinite(*out) ? 0 : -1;
}

/* The text of a non-null scalar without embedded NULs, else NULL. */
const char *yml_scalar(const yaml_node_t *node)
{
    const char *s = yml_scalar_text(node);
    if (!s || yml_is_null(node) || strlen(s) != node->data.scalar.length)
        return NULL;
    return s;
}

int yml_plain(const yaml_node_t *node)
{
    return node->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
}

int yml_fail_value(const yml_doc *y, const yaml_node_t *node, const char *path, const char *what)
{
    char got[96];
    yml_describe(node, got, sizeof got);
    if (node && node->type == YAML_SCALAR_NODE && !yml_is_null(node) && !yml_plain(node) &&
        (strstr(what, "integer") || strstr(what, "number")))
        return yml_fail(y, node, path, PASCAL_EINPUT, "expected %s, got %s (quoted, so a string)", what, got);
    return yml_fail(y, node, path, PASCAL_EINPUT, "expected %s, got %s", what, got);
}

/* A refused size, with the reason when there is one to give. */
int yml_fail_size(const yml_doc *y, const yaml_node_t *node, const char *path, const char *what, int code,
                     const char *text)
{
    char why[160], got[96];
    pascal_size_explain(code, text, why, sizeof why);
    if (!why[0] || !yml_plain(node))
        return yml_fail_value(y, node, path, what);
    yml_describe(node, got, sizeof got);
    return yml_fail(y, node, path, PASCAL_EINPUT, "expected %s, got %s: %s", what, got, why);
}

/* An unknown pattern or load path: fail_value's message and the nearest name. */
static int fail_name(const yml_doc *y, const yaml_node_t *node, const char *path, const char *what,
                     const char *const *names, int n)
{
    char got[96], hint[96];
    yml_describe(node, got, sizeof got);
    return yml_fail(y, node, path, PASCAL_EINPUT, "expected %s, got %s%s", what, got,
                     pascal_suggest_hint(yml_scalar(node), names, n, hint, sizeof hint));
}

int yml_value(const yml_doc *y, const yaml_node_t *node, int param, const char *path,
                      double *out)
{
    const pascal_param_info *info = &pascal_params[param];
    const char *what = yml_expected(param);
    const char *s = yml_scalar(node);
    double v = NAN;
    int r;
    if (!s || info->type == PASCAL_T_PHASES)
        return yml_fail_value(y, node, path, what);
    switch (info->type) {
    case PASCAL_T_INT:
        r = yml_plain(node) ? yml_parse_int(s, &v) : -1;
        if (r == -2)
            return yml_fail(y, node, path, PASCAL_EINPUT, "expected %s of at most 2^53, got %s", what, s);
        if (r)
            return yml_fail_value(y, node, path, what);
        break;
    case PASCAL_T_REAL:
        if (!yml_plain(node) || yml_parse_real(s, &v))
            return yml_fail_value(y, node, path, what);
        break;
    case PASCAL_T_SIZE:
        if ((r = pascal_size_parse(s, &v)) != 0)
            return yml_fail_size(y, node, path, what, r, s);
        break;
    case PASCAL_T_PATH:
        if ((r = pascal_path_from_name(s)) < 0)
            return fail_name(y, node, path, what, pascal_path_names, PASCAL_PATH_COUNT);
        v = r;
        break;
    case PASCAL_T_NAME:
        for (r = 0; r < info->nlabels; r++)
            if (strcmp(s, info->labels[r]) == 0)
                break;
        if (r == info->nlabels)
            return yml_fail_value(y, node, path, what);
        v = r;
        break;
    default:
        for (r = 0; r < PASCAL_PATTERN_COUNT; r++)
            if (strcmp(s, pascal_pattern_names[r]) == 0)
                break;
        if (r == PASCAL_PATTERN_COUNT)
            return fail_name(y, node, path, what, pascal_pattern_names, PASCAL_PATTERN_COUNT);
        v = r;
        break;
    }
    if (((info->flags & PASCAL_PF_POSITIVE) && !(v > 0)) || ((info->flags & PASCAL_PF_NONNEG) && !(v >= 0)))
        return yml_fail(y, node, path, PASCAL_EINPUT, "expected %s, got %s", what, s);
    *out = v;
    return 0;
}

int yml_string(const yml_doc *y, const yaml_node_t *node, const char *path, const char *what,
                char **out)
{
    const char *s = yml_scalar(node);
    if (!s)
        return yml_fail_value(y, node, path, what);
    *out = strdup(s);
    if (!*out)
        return pascal_error_set(y->err, PASCAL_ENOMEM, "out of memory");
    return 0;
}
