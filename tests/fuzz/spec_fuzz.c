/* libFuzzer target for the spec parser and point expansion: any bytes must
 * give a spec or a one-line error, never a crash, a leak or undefined
 * behaviour.  Build and run (clang):
 *   scripts/fuzz.sh [seconds]
 */
#include <stddef.h>
#include <stdint.h>

#include "sweeps/spec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    pascal_spec *spec = NULL;
    pascal_error err = {0};
    if (pascal_spec_parse((const char *)data, size, "fuzz.yaml", &spec, &err) != 0)
        return 0;
    uint64_t n = pascal_spec_size(spec);
    for (uint64_t i = 0; i < n && i < 64; i++) {
        pascal_point p;
        pascal_spec_point(spec, i, &p, &err);
    }
    pascal_spec_free(spec);
    return 0;
}
