/* Values and points as a spec would write them, for the messages of the
 * spec's checks (sweeps/spec_internal.h): a size with its units, a pattern
 * or path by name, a point by its index and axis coordinates.  Below the
 * files that report a bad point (spec_point.c, spec_deps.c, workload.c);
 * calls none of them. */
#include "sweeps/spec_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static void format_number(double v, char *buf, size_t len)
{
    if (v == floor(v) && fabs(v) < 1e17) {
        snprintf(buf, len, "%.0f", v);
        return;
    }
    snprintf(buf, len, "%.15g", v);
    if (strtod(buf, NULL) != v)
        snprintf(buf, len, "%.17g", v);
}

void spec_format_value(const pascal_spec *spec, int param, double v, char *buf, size_t len)
{
    int nlabels;
    const char *const *labels = pascal_spec_param_labels(spec, param, &nlabels);
    if (isnan(v)) {
        snprintf(buf, len, "unset");
        return;
    }
    switch (pascal_params[param].type) {
    case PASCAL_T_SIZE:
        pascal_size_format(v, buf, (int)len);
        return;
    case PASCAL_T_PATTERN:
        if (v >= 0 && v < PASCAL_PATTERN_COUNT && v == floor(v)) {
            snprintf(buf, len, "%s", pascal_pattern_names[(int)v]);
            return;
        }
        break;
    case PASCAL_T_PHASES:
        snprintf(buf, len, "list %.0f", v);
        return;
    case PASCAL_T_PATH:
        if (v == 0 || v == 1) {
            snprintf(buf, len, "%s", pascal_path_names[(int)v]);
            return;
        }
        break;
    case PASCAL_T_NAME:
        if (v >= 0 && v < nlabels && v == floor(v)) {
            snprintf(buf, len, "%s", labels[(int)v]);
            return;
        }
        break;
    default:
        break;
    }
    format_number(v, buf, len);
}

void spec_describe_point(const pascal_spec *spec, const double *v, uint64_t i, uint64_t extra,
                         char *buf, size_t len)
{
    size_t off;
    char val[64];
    int n = 0;
    off = (size_t)snprintf(buf, len, "point %llu (", (unsigned long long)i);
    for (int a = 0; a < spec->naxes && off < len; a++) {
        int p = spec->axes[a].param;
        spec_format_value(spec, p, v[p], val, sizeof val);
        off += (size_t)snprintf(buf + off, len - off, "%s%s=%s", n++ ? ", " : "", pascal_params[p].name, val);
        extra &= ~((uint64_t)1 << p);
    }
    for (int p = 0; p < PASCAL_NPARAM && off < len; p++)
        if (extra & ((uint64_t)1 << p)) {
            spec_format_value(spec, p, v[p], val, sizeof val);
            off += (size_t)snprintf(buf + off, len - off, "%s%s=%s", n++ ? ", " : "", pascal_params[p].name, val);
        }
    if (off < len)
        snprintf(buf + off, len - off, ")");
}
