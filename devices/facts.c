/* Device facts (devices/profile.h): what calibration and the simulator need
 * of a profile, read with the profile's own checks and messages. */
#include "devices/profile.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

int pascal_device_facts_load(const char *profile, pascal_device_facts *out, pascal_error *err)
{
    char path[PASCAL_DEVICE_PATH_MAX];
    pascal_device_profile p;
    int rc;
    memset(out, 0, sizeof *out);
    /* a path, or a shipped profile's name (gb10) */
    if ((rc = pascal_device_resolve(profile, "", path, sizeof path, err)))
        return rc;
    if ((rc = pascal_device_load(path, &p, err)) != 0)
        return rc == PASCAL_EIO ? (err->code = PASCAL_EINPUT) : rc; /* an unreadable input */
    out->sms = p.sms;
    out->capacity_bytes = isnan(p.effective_l2_bytes) ? p.l2_bytes : p.effective_l2_bytes;
    snprintf(out->name, sizeof out->name, "%s", p.title);
    snprintf(out->path, sizeof out->path, "%s", path);
    return 0;
}
