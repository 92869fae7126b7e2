/* One parameter of one point, by name: the public face of
 * pascal_spec_point (pascal/spec.h), for a program that does not want the
 * point's whole layout. */
#include "sweeps/spec.h"

#include <math.h>

int pascal_spec_value(const pascal_spec *spec, uint64_t i, const char *param, double *value,
                      pascal_error *err)
{
    pascal_point p;
    int k = param ? pascal_param_from_name(param) : -1, rc;
    *value = NAN;
    if (k < 0)
        return pascal_error_set(err, PASCAL_EINPUT, "%s: expected a parameter name (pascal list "
                                "axes), got \"%s\"", pascal_spec_filename(spec), param ? param : "");
    if (i >= pascal_spec_size(spec))
        return pascal_error_set(err, PASCAL_EINPUT, "%s: expected a point index below %llu, got "
                                "%llu", pascal_spec_filename(spec),
                                (unsigned long long)pascal_spec_size(spec), (unsigned long long)i);
    if ((rc = pascal_spec_point(spec, i, &p, err)) < 0)
        return rc;
    *value = p.v[k];
    return rc;
}
