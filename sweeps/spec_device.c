/* A spec's devices: the `device:` key names one profile (a path relative
 * to the spec, or a shipped profile's name: devices/profile.h), read to
 * supply sms and capacity_bytes unless the spec sets them, and the limits
 * and rates of every point; a device axis (axes.device) names several,
 * each point taking its own profile's (spec_point.c). */
#include "sweeps/spec_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/readfile.h"
#include "devices/parse.h"

/* The profile named at node, read into dv (path and text owned by dv); when
 * marks is set, the spec's marks for sms, capacity_bytes and the limits
 * point into the profile where it writes them (the top-level key's way). */
static int read_profile(const spec_ctx *c, const yaml_node_t *node, const char *key, spec_device *dv,
                        int marks)
{
    pascal_spec *spec = c->spec;
    const char *rel, *slash;
    char got[96], base[PASCAL_DEVICE_PATH_MAX], resolved[PASCAL_DEVICE_PATH_MAX];
    const yaml_node_t *val[DEVICE_NKEYS];
    pascal_device_profile dev;
    size_t len;
    yaml_document_t doc;
    yml_doc d;
    pascal_error sub;
    int rc;

    rel = yml_scalar_text(node);
    if (!rel || !*rel || yml_is_null(node) || strlen(rel) != node->data.scalar.length) {
        yml_describe(node, got, sizeof got);
        return yml_fail(c->y, node, key, PASCAL_EINPUT,
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
        return yml_fail(c->y, node, key, rc, "%s", sub.msg);
    if (!(dv->path = strdup(resolved)))
        return pascal_error_set(c->y->err, PASCAL_ENOMEM, "out of memory");
    /* The label: the name as written, without its folder and .yaml. */
    const char *leaf = strrchr(rel, '/') ? strrchr(rel, '/') + 1 : rel;
    size_t n = strlen(leaf);
    if (n > 5 && strcmp(leaf + n - 5, ".yaml") == 0)
        n -= 5;
    snprintf(dv->label, sizeof dv->label, "%.*s", (int)(n < 63 ? n : 63), leaf);

    rc = pascal_read_file(dv->path, YML_MAX_BYTES, &dv->text, &len, &sub);
    if (rc == PASCAL_EIO)
        return yml_fail(c->y, node, key, PASCAL_EINPUT, "expected a readable device profile, got %s",
                        sub.msg);
    if (rc)
        return pascal_error_set(c->y->err, rc, "%s", sub.msg);
    if ((rc = yml_load(dv->text, len, dv->path, &doc, c->y->err)))
        return rc;
    d.doc = &doc;
    d.file = dv->path;
    d.err = c->y->err;
    rc = device_parse_profile(&d, &dev, val);
    if (rc == 0) {
        dv->sms = dev.sms;
        dv->capacity_bytes = !isnan(dev.effective_l2_bytes) ? dev.effective_l2_bytes : dev.l2_bytes;
        double lim[PASCAL_NLIMITS] = {dev.limits.ctas_per_sm, dev.limits.smem_per_sm_bytes,
                                      dev.limits.smem_per_cta_bytes, dev.limits.threads_per_sm};
        for (int k = 0; k < PASCAL_NLIMITS; k++) {
            dv->limit[k] = lim[k];
            snprintf(dv->limit_source[k], sizeof dv->limit_source[k], "%s", dev.limits.source[k]);
        }
        for (int k = 0; k < PASCAL_NRATES; k++)
            dv->rate[k] = dev.rates[k];
        for (int k = 0; k < PASCAL_NCOSTS; k++)
            dv->cost[k] = dev.costs[k];
    }
    if (rc == 0 && marks) {
        if (!isnan(dev.sms))
            yml_mark_of(&d, val[DEVICE_KEY_SMS], "sms", &spec->src[PASCAL_P_SMS]);
        for (int k = 0; k < PASCAL_NLIMITS; k++)
            yml_mark_of(&d, val[DEVICE_KEY_LIMITS], "limits", &spec->limit_mark[k]);
        if (!isnan(dv->capacity_bytes)) {
            int k = isnan(dev.effective_l2_bytes) ? DEVICE_KEY_L2 : DEVICE_KEY_EFFECTIVE_L2;
            yml_mark_of(&d, val[k], device_keys[k], &spec->src[PASCAL_P_CAPACITY_BYTES]);
        }
    }
    yaml_document_delete(&doc);
    return rc;
}

int spec_load_device(const spec_ctx *c, const yaml_node_t *node)
{
    pascal_spec *spec = c->spec;
    spec_device dv = {0};
    int rc = read_profile(c, node, "device", &dv, 1);
    spec->device_path = dv.path;   /* owned by the spec from here, read or not */
    spec->device_text = dv.text;
    if (rc)
        return rc;
    spec->device_sms = dv.sms;
    for (int k = 0; k < PASCAL_NRATES; k++)
        spec->rate[k] = dv.rate[k];
    for (int k = 0; k < PASCAL_NCOSTS; k++)
        spec->cost[k] = dv.cost[k];
    for (int k = 0; k < PASCAL_NLIMITS; k++) {
        spec->limit[k] = dv.limit[k];
        memcpy(spec->limit_source[k], dv.limit_source[k], sizeof spec->limit_source[k]);
    }
    if (!isnan(dv.sms)) {
        spec->fixed.v[PASCAL_P_SMS] = dv.sms;
        spec->source[PASCAL_P_SMS] = SRC_DEVICE;
    }
    if (!isnan(dv.capacity_bytes)) {
        spec->fixed.v[PASCAL_P_CAPACITY_BYTES] = dv.capacity_bytes;
        spec->source[PASCAL_P_CAPACITY_BYTES] = SRC_DEVICE;
    }
    return 0;
}

/* With an axis the spec's device_path and device_text join the profiles'
 * ("a.yaml, b.yaml"; each text after a "# device k: PATH" line), so the
 * file's device attribute and digest cover every one. */
static int join_devices(const spec_ctx *c)
{
    pascal_spec *spec = c->spec;
    size_t plen = 1, tlen = 1;
    for (int k = 0; k < spec->ndevices; k++) {
        plen += strlen(spec->devices[k].path) + 2;
        tlen += strlen(spec->devices[k].text) + strlen(spec->devices[k].path) + 32;
    }
    spec->device_path = malloc(plen);
    spec->device_text = malloc(tlen);
    if (!spec->device_path || !spec->device_text)
        return pascal_error_set(c->y->err, PASCAL_ENOMEM, "out of memory");
    size_t p = 0, t = 0;
    for (int k = 0; k < spec->ndevices; k++) {
        p += (size_t)snprintf(spec->device_path + p, plen - p, "%s%s", k ? ", " : "", spec->devices[k].path);
        t += (size_t)snprintf(spec->device_text + t, tlen - t, "# device %d: %s\n%s%s", k,
                              spec->devices[k].path, spec->devices[k].text,
                              spec->devices[k].text[0] && spec->devices[k].text[strlen(spec->devices[k].text) - 1] != '\n'
                                  ? "\n" : "");
    }
    return 0;
}

int spec_device_axis(const spec_ctx *c, const yaml_node_t *node, const char *path, double **values,
                     int64_t *count)
{
    pascal_spec *spec = c->spec;
    char sub[YML_PATH_MAX], got[96];
    int rc;
    *values = NULL;
    *count = 0;
    if (spec->device_path)
        return yml_fail(c->y, node, path, PASCAL_EINPUT,
                        "expected either a top-level device: or a device axis, got both (device: %s)",
                        spec->device_path);
    if (!node || node->type != YAML_SEQUENCE_NODE) {
        yml_describe(node, got, sizeof got);
        return yml_fail(c->y, node, path, PASCAL_EINPUT,
                        "expected a list of device profiles like [h100, h200, devices/mine.yaml], got %s", got);
    }
    int64_t n = node->data.sequence.items.top - node->data.sequence.items.start;
    if (n < 1 || n > PASCAL_SPEC_MAX_DEVICES)
        return yml_fail(c->y, node, path, PASCAL_EINPUT, "expected 1 to %d device profiles, got %lld",
                        PASCAL_SPEC_MAX_DEVICES, (long long)n);
    /* The profiles are the spec's from here (freed with it, read or not);
     * the values are the caller's only once every profile is read. */
    double *v = malloc((size_t)n * sizeof *v);
    if (!(spec->devices = calloc((size_t)n, sizeof *spec->devices)) || !v) {
        free(v);
        return pascal_error_set(c->y->err, PASCAL_ENOMEM, "out of memory");
    }
    for (int64_t k = 0; k < n; k++) {
        const yaml_node_t *item = yml_node(c->y, node->data.sequence.items.start[k]);
        yml_path_index(sub, path, (long)k);
        spec->ndevices = (int)k + 1;
        rc = read_profile(c, item, sub, &spec->devices[k], 0);
        for (int64_t j = 0; j < k && rc == 0; j++)
            if (strcmp(spec->devices[j].label, spec->devices[k].label) == 0)
                rc = yml_fail(c->y, item, sub, PASCAL_EINPUT,
                              "expected distinct device profiles, got %s again (first at index %lld)",
                              spec->devices[k].label, (long long)j);
        if (rc) {
            free(v);
            return rc;
        }
        spec->device_labels[k] = spec->devices[k].label;
        v[k] = (double)k;
    }
    *values = v;
    *count = n;
    /* Every point takes its profile's sms and capacity unless the spec sets them. */
    for (int p = 0; p < 2; p++) {
        int param = p ? PASCAL_P_CAPACITY_BYTES : PASCAL_P_SMS;
        if (spec->source[param] == SRC_NONE || spec->source[param] == SRC_DEVICE) {
            spec->source[param] = SRC_DEVICE;
            spec->fixed.v[param] = NAN;
            yml_mark_of(c->y, node, path, &spec->src[param]);
        }
    }
    return join_devices(c);
}

const spec_device *spec_point_device(const pascal_spec *spec, const double *v)
{
    double k = v[PASCAL_P_DEVICE];
    return spec->ndevices && !isnan(k) && k >= 0 && k < spec->ndevices ? &spec->devices[(int)k] : NULL;
}
