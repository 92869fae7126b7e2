/* The `sim` section of a device profile (devices/sim_timing.h): each timing
 * parameter of the progress simulator as {value, source}.  Checked through
 * the spec parser's helpers, so its messages have the same shape. */
#include "devices/sim_timing.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/readfile.h"
#include "devices/parse.h"

const char *const pascal_device_sim_keys[PASCAL_DEVICE_SIM_NKEYS] = {
    "hit_ns",     "l2_bytes_per_ns", "sm_bytes_per_ns", "sm_spread",  "dram_ns",
    "dram_bytes_per_ns", "consume_ns", "loop_ns",       "wmma_ns",    "wmma_sm_ns",
    "launch_ns",  "barrier_ns",      "jitter_ns",
    /* optional (absent: 0, off) */
    "hit_sm_spread", "l2_slices", "l2_slice_bytes", "hit_slice_spread", "sm_inflight_bytes",
    "service_noise", "sm_issue_oldest",
};

/* Where each key's value goes, in the order of the keys. */
double *pascal_device_sim_field(pascal_sim_timing *t, int k)
{
    double *f[PASCAL_DEVICE_SIM_NKEYS] = {
        &t->hit_ns,    &t->l2_bytes_per_ns, &t->sm_bytes_per_ns, &t->sm_spread, &t->dram_ns,
        &t->dram_bytes_per_ns, &t->consume_ns, &t->loop_ns, &t->wmma_ns, &t->wmma_sm_ns,
        &t->launch_ns, &t->barrier_ns, &t->jitter_ns,
        &t->hit_sm_spread, &t->l2_slices, &t->l2_slice_bytes, &t->hit_slice_spread,
        &t->sm_inflight_bytes, &t->service_noise, &t->sm_issue_oldest,
    };
    return f[k];
}

/* Keys whose value is a fraction in [0, 1]. */
static int is_fraction(const char *name)
{
    return strcmp(name, "sm_spread") == 0 || strcmp(name, "hit_sm_spread") == 0 ||
           strcmp(name, "hit_slice_spread") == 0 || strcmp(name, "service_noise") == 0;
}

/* What a key accepts: bandwidths are > 0, spreads and noise fractions in
 * [0, 1], the slices a whole number, the in-flight limit bytes, the issue
 * order 0 or 1, every other value a time >= 0 in ns. */
static const char *accepted(int k)
{
    const char *name = pascal_device_sim_keys[k];
    if (strstr(name, "bytes_per_ns"))
        return "a bandwidth > 0 in bytes per ns (GB/s)";
    if (is_fraction(name))
        return "a fraction from 0 to 1";
    if (strcmp(name, "l2_slices") == 0)
        return "a whole number of slices from 0 to 256";
    if (strcmp(name, "sm_issue_oldest") == 0)
        return "0 (first come, first served) or 1 (the oldest CTA first)";
    if (strcmp(name, "sm_inflight_bytes") == 0 || strcmp(name, "l2_slice_bytes") == 0)
        return "a size >= 0 in bytes";
    return "a time >= 0 in ns";
}

static int in_range(int k, double v);

const char *pascal_device_sim_check(int k, double v)
{
    return isfinite(v) && in_range(k, v) ? NULL : accepted(k);
}

static int in_range(int k, double v)
{
    const char *name = pascal_device_sim_keys[k];
    if (strstr(name, "bytes_per_ns"))
        return v > 0;
    if (is_fraction(name))
        return v >= 0 && v <= 1;
    if (strcmp(name, "l2_slices") == 0)
        return v >= 0 && v <= PASCAL_SIM_MAX_SLICES && v == floor(v);
    if (strcmp(name, "sm_issue_oldest") == 0)
        return v == 0 || v == 1;
    return v >= 0;
}

static const char *const kinds[] = {"datasheet:", "measurement:", "fit:", "derived:", "assumed:"};

static int source_ok(const char *s)
{
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (strncmp(s, kinds[i], strlen(kinds[i])) == 0 && s[strlen(kinds[i])])
            return 1;
    return 0;
}

static int parse_number(const char *s, double *v)
{
    char *end;
    if (!s || !*s || strspn(s, "0123456789+-.eE") != strlen(s))
        return -1;
    *v = strtod(s, &end);
    return end != s && !*end && isfinite(*v) ? 0 : -1;
}

int device_parse_sourced(const yml_doc *c, const yaml_node_t *node, const char *path,
                         const char *accepted, int (*ok)(int, double), int k, double *out,
                         const char **source)
{
    static const char *const keys[] = {"value", "source"};
    const yaml_node_t *val = NULL, *src = NULL;
    const yaml_node_pair_t *p;
    char sub[YML_PATH_MAX], got[96];
    int rc = yml_check_mapping(c, node, path, "a mapping {value: NUMBER, source: TEXT}", keys, 2);
    if (rc)
        return rc;
    for (p = node->data.mapping.pairs.start; p < node->data.mapping.pairs.top; p++) {
        const char *name = yml_scalar_text(yml_node(c, p->key));
        if (strcmp(name, "value") == 0)
            val = yml_node(c, p->value);
        else
            src = yml_node(c, p->value);
    }
    yml_path_key(sub, path, "value");
    if (!val || yml_is_null(val) || parse_number(yml_scalar_text(val), out) != 0 || !ok(k, *out)) {
        yml_describe(val, got, sizeof got);
        return yml_fail(c, val ? val : node, sub, PASCAL_EINPUT, "expected %s, got %s", accepted,
                         got);
    }
    yml_path_key(sub, path, "source");
    if (!src || !yml_scalar_text(src) || yml_is_null(src) || !source_ok(yml_scalar_text(src))) {
        yml_describe(src, got, sizeof got);
        return yml_fail(c, src ? src : node, sub, PASCAL_EINPUT,
                         "expected where the value comes from, starting datasheet:, measurement:, "
                         "fit:, derived: or assumed:, got %s",
                         got);
    }
    if (source)
        *source = yml_scalar_text(src);
    return 0;
}

/* One parameter: {value: NUMBER, source: "kind: text"}. */
static int parse_param(const yml_doc *c, const yaml_node_t *node, const char *path, int k,
                       double *out)
{
    return device_parse_sourced(c, node, path, accepted(k), in_range, k, out, NULL);
}

int device_parse_sim(const yml_doc *c, const yaml_node_t *node, pascal_sim_timing *out)
{
    const yaml_node_t *val[PASCAL_DEVICE_SIM_NKEYS] = {0};
    const yaml_node_pair_t *p;
    pascal_sim_timing t;
    char sub[YML_PATH_MAX];
    int rc = yml_check_mapping(c, node, "sim", "a mapping of the simulator's timing parameters",
                                pascal_device_sim_keys, PASCAL_DEVICE_SIM_NKEYS);
    if (rc)
        return rc;
    memset(&t, 0, sizeof t);
    for (p = node->data.mapping.pairs.start; p < node->data.mapping.pairs.top; p++)
        for (int k = 0; k < PASCAL_DEVICE_SIM_NKEYS; k++)
            if (strcmp(yml_scalar_text(yml_node(c, p->key)), pascal_device_sim_keys[k]) == 0)
                val[k] = yml_node(c, p->value);
    for (int k = 0; k < PASCAL_DEVICE_SIM_NKEYS; k++) {
        yml_path_key(sub, "sim", pascal_device_sim_keys[k]);
        if (!val[k] && k >= PASCAL_DEVICE_SIM_NREQUIRED)
            continue; /* a mechanism left off */
        if (!val[k])
            return yml_fail(c, node, sub, PASCAL_EINPUT,
                             "expected {value: NUMBER, source: TEXT}, got nothing (the key is "
                             "missing; docs/simulate.md lists every parameter)");
        if ((rc = parse_param(c, val[k], sub, k, pascal_device_sim_field(&t, k))))
            return rc;
    }
    if (out)
        *out = t;
    return 0;
}

int pascal_device_sim_parse(const char *text, size_t len, const char *file,
                            pascal_sim_timing *out, pascal_error *err)
{
    yaml_document_t doc;
    yml_doc c;
    const yaml_node_t *root, *sim = NULL;
    const yaml_node_pair_t *p;
    int rc = yml_load(text, len, file, &doc, err);
    if (rc)
        return rc;
    memset(&c, 0, sizeof c);
    c.doc = &doc;
    c.file = file;
    c.err = err;
    root = yaml_document_get_root_node(&doc);
    if (root->type != YAML_MAPPING_NODE)
        rc = yml_fail(&c, root, "", PASCAL_EINPUT, "expected a device profile mapping");
    for (p = root->type == YAML_MAPPING_NODE ? root->data.mapping.pairs.start : NULL;
         rc == 0 && p < root->data.mapping.pairs.top; p++) {
        const char *name = yml_scalar_text(yml_node(&c, p->key));
        if (name && strcmp(name, "sim") == 0)
            sim = yml_node(&c, p->value);
    }
    if (rc == 0 && !sim)
        rc = yml_fail(&c, root, "sim", PASCAL_EINPUT,
                       "expected the simulator's timing section (docs/simulate.md), got nothing "
                       "(the key is missing)");
    if (rc == 0)
        rc = device_parse_sim(&c, sim, out);
    yaml_document_delete(&doc);
    return rc;
}

int pascal_device_sim_load(const char *path, pascal_sim_timing *out, pascal_error *err)
{
    char *text = NULL;
    size_t len = 0;
    pascal_error sub = {0};
    int rc = pascal_read_file(path, YML_MAX_BYTES, &text, &len, &sub);
    if (rc)
        return pascal_error_set(err, PASCAL_EINPUT, "%s: cannot read the device profile: %s", path,
                                sub.msg);
    rc = pascal_device_sim_parse(text, len, path, out, err);
    free(text);
    return rc;
}
