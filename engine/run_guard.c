/* The output side of a sweep run: the claim on its file (run_guard.h). */
#include "engine/run_guard.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int pascal_run_claim(const pascal_spec *spec, const pascal_run_opts *o, pascal_lock **lock,
                     pascal_error *err)
{
    pascal_input in[3] = {
        {"spec", pascal_spec_filename(spec)},
        {"device profile", pascal_spec_device_path(spec)},
        {"calibration", pascal_spec_calibration(spec, NULL, NULL)},
    };
    *lock = NULL;
    if (!o->out_path || o->dry_run)
        return 0;
    return pascal_output_claim(o->out_path, in, 3, o->command_line ? o->command_line : "pascal run",
                               lock, err);
}
