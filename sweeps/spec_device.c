/* A spec's `device:` key: the profile it names (a path relative to the
 * spec, or a shipped profile's name: devices/profile.h) is read, and
 * supplies sms and capacity_bytes unless the spec sets them. */
#include "sweeps/spec_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/readfile.h"
#include "devices/parse.h"

/* The profile supplies sms and capacity_bytes (effective, else nominal L2),
 * each remembered with where the profile wrote it. */
static int parse_device(const yml_doc *d, pascal_spec *spec)
{
    const yaml_node_t *val[DEVICE_NKEYS];
    pascal_device_profile dev;
    int rc = device_parse_profile(d, &dev, val);
    if (rc)
        return rc;
    spec->device_sms = dev.sms;
    for (int k = 0; k < PASCAL_NRATES; k++)
        spec->rate[k] = dev.rates[k];
    if (!isnan(dev.sms)) {
        spec->fixed.v[PASCAL_P_SMS] = dev.sms;
        spec->source[PASCAL_P_SMS] = SRC_DEVICE;
        yml_mark_of(d, val[DEVICE_KEY_SMS], "sms", &spec->src[PASCAL_P_SMS]);
    }
    double lim[PASCAL_NLIMITS] = {dev.limits.ctas_per_sm, dev.limits.smem_per_sm_bytes,
                                  dev.limits.smem_per_cta_bytes};
    for (int k = 0; k < PASCAL_NLIMITS; k++) {
        spec->limit[k] = lim[k];
        snprintf(spec->limit_source[k], sizeof spec->limit_source[k], "%s", dev.limits.source[k]);
        yml_mark_of(d, val[DEVICE_KEY_LIMITS], "limits", &spec->limit_mark[k]);
    }
    if (!isnan(dev.effective_l2_bytes) || !isnan(dev.l2_bytes)) {
        int k = isnan(dev.effective_l2_bytes) ? DEVICE_KEY_L2 : DEVICE_KEY_EFFECTIVE_L2;
        spec->fixed.v[PASCAL_P_CAPACITY_BYTES] = k == DEVICE_KEY_L2 ? dev.l2_bytes : dev.effective_l2_bytes;
        spec->source[PASCAL_P_CAPACITY_BYTES] = SRC_DEVICE;
        yml_mark_of(d, val[k], device_keys[k], &spec->src[PASCAL_P_CAPACITY_BYTES]);
    }
    return 0;
}

int spec_load_device(const spec_ctx *c, const yaml_node_t *node)
{
    pascal_spec *spec = c->spec;
    const char *rel, *slash;
    char got[96], base[PASCAL_DEVICE_PATH_MAX], resolved[PASCAL_DEVICE_PATH_MAX];
    size_t len;
    yaml_document_t doc;
    yml_doc d;
    pascal_error sub;
    int rc;

    rel = yml_scalar_text(node);
    if (!rel || !*rel || yml_is_null(node) || strlen(rel) != node->data.scalar.length) {
        yml_describe(node, got, sizeof got);
        return yml_fail(c->y, node, "device", PASCAL_EINPUT,
                        "expected a device profile path or name (pascal list devices), got %s", got);
    }
    /* Paths are relative to the spec's folder; "" is the working directory. */
    slash = strrchr(spec->filename, '/');
    base[0] = '\0';
    if (slash && strcmp(spec->filename, "<spec>") != 0)
        snprintf(base, sizeof base, "%.*s", (int)(slash - spec->filename), spec->filename);
    if (slash == spec->filename)
        snprintf(base, sizeof base, "/");
    rc = pascal_device_resolve(rel, base, resolved, sizeof resolved, &sub);
    if (rc)
        return yml_fail(c->y, node, "device", rc, "%s", sub.msg);
    spec->device_path = strdup(resolved);
    if (!spec->device_path)
        return pascal_error_set(c->y->err, PASCAL_ENOMEM, "out of memory");

    rc = pascal_read_file(spec->device_path, YML_MAX_BYTES, &spec->device_text, &len, &sub);
    if (rc == PASCAL_EIO)
        return yml_fail(c->y, node, "device", PASCAL_EINPUT, "expected a readable device profile, got %s",
                        sub.msg);
    if (rc)
        return pascal_error_set(c->y->err, rc, "%s", sub.msg);
    rc = yml_load(spec->device_text, len, spec->device_path, &doc, c->y->err);
    if (rc)
        return rc;
    d.doc = &doc;
    d.file = spec->device_path;
    d.err = c->y->err;
    rc = parse_device(&d, spec);
    yaml_document_delete(&doc);
    return rc;
}
