/* libFuzzer target for the calibration reference CSV parser: any bytes must
 * give references or a file:line error, never a crash, a leak or undefined
 * behaviour.  Run with scripts/fuzz.sh refs [seconds]. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "calibrate/calibrate.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    pascal_refs refs = {0};
    pascal_error err = {0};
    if (pascal_calibrate_parse_csv((const char *)data, size, "fuzz.csv", size % 2 ? 48 : NAN,
                                   &refs, &err) == 0)
        pascal_calibrate_refs_free(&refs);
    return 0;
}
