/* Reading a device profile (configs/devices/NAME.yaml, devices/profile.h):
 * its keys, each checked where it is written with the spec's rules and
 * messages.  The `sim` section is devices/sim_timing.c's. */
#include "devices/parse.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vocab/params.h"

const char *const device_keys[DEVICE_NKEYS] = {"name", "sms", "l2_bytes", "effective_l2_bytes",
                                               "compute_capability", "notes", "sim", "limits",
                                               "rates", "costs"};
const char *const pascal_device_rate_keys[PASCAL_NRATES] = {
    "flops_fp32", "flops_tf32", "flops_bf16", "flops_fp16", "flops_fp8", "flops_int8", "flops_fp4",
    "l2_bytes_per_s", "dram_bytes_per_s"};

/* One section of {value, source} entries, each optional: section's keys
 * (n of them), what each accepts, the check, where values and sources go
 * (source_len bytes each). */
typedef struct sourced_section {
    const char *name, *what;
    const char *const *keys;
    int n;
    const char *(*accepted)(int k);
    int (*ok)(int k, double v);
    double *value;         /* n entries */
    char *source;          /* n x source_len */
    size_t source_len;
} sourced_section;

static int parse_sourced_section(const yml_doc *d, const yaml_node_t *node, const sourced_section *sec)
{
    char sub[YML_PATH_MAX];
    int rc = yml_check_mapping(d, node, sec->name, sec->what, sec->keys, sec->n);
    if (rc)
        return rc;
    for (const yaml_node_pair_t *p = node->data.mapping.pairs.start; p < node->data.mapping.pairs.top; p++)
        for (int k = 0; k < sec->n; k++) {
            const char *src = NULL;
            if (strcmp(yml_scalar_text(yml_node(d, p->key)), sec->keys[k]) != 0)
                continue;
            yml_path_key(sub, sec->name, sec->keys[k]);
            rc = device_parse_sourced(d, yml_node(d, p->value), sub, sec->accepted(k), sec->ok, k,
                                      &sec->value[k], &src);
            if (rc)
                return rc;
            snprintf(sec->source + (size_t)k * sec->source_len, sec->source_len, "%s", src);
        }
    return 0;
}

static int rate_ok(int k, double v)
{
    (void)k;
    return v > 0 && v < 1e20;
}

static const char *rate_accepted(int k)
{
    return k < PASCAL_RATE_L2 ? "a rate > 0 in operations per second"
                              : "a bandwidth > 0 in bytes per second";
}

/* A profile's `rates` section: each present key {value, source}. */
static int parse_rates(const yml_doc *d, const yaml_node_t *node, pascal_device_profile *dev)
{
    sourced_section sec = {"rates",
                           "a mapping of peak rates (flops_fp32 .. flops_fp4, l2_bytes_per_s, "
                           "dram_bytes_per_s)",
                           pascal_device_rate_keys, PASCAL_NRATES, rate_accepted, rate_ok,
                           dev->rates, &dev->rate_source[0][0], sizeof dev->rate_source[0]};
    return parse_sourced_section(d, node, &sec);
}

const char *const pascal_device_cost_keys[PASCAL_NCOSTS] = {"dram_pj_per_byte", "l2_pj_per_byte",
                                                            "l2_mm2_per_mib"};

static int cost_ok(int k, double v)
{
    (void)k;
    return v > 0 && v < 1e6;
}

static const char *cost_accepted(int k)
{
    return k == PASCAL_COST_L2_MM2 ? "an area > 0 in mm^2 per MiB of L2"
                                   : "an energy > 0 in pJ per byte read";
}

/* A profile's `costs` section: each present key {value, source}. */
static int parse_costs(const yml_doc *d, const yaml_node_t *node, pascal_device_profile *dev)
{
    sourced_section sec = {"costs",
                           "a mapping of costs (dram_pj_per_byte, l2_pj_per_byte, l2_mm2_per_mib)",
                           pascal_device_cost_keys, PASCAL_NCOSTS, cost_accepted, cost_ok,
                           dev->costs, &dev->cost_source[0][0], sizeof dev->cost_source[0]};
    return parse_sourced_section(d, node, &sec);
}

const char *const pascal_device_limit_keys[PASCAL_NLIMITS] = {"ctas_per_sm", "smem_per_sm_bytes",
                                                              "smem_per_cta_bytes", "threads_per_sm"};

static int limit_ok(int k, double v)
{
    return k == PASCAL_LIMIT_CTAS      ? v >= 1 && v <= 1024 && v == floor(v)
           : k == PASCAL_LIMIT_THREADS ? v >= 1 && v <= 65536 && v == floor(v)
                                       : v >= 1 && v <= 1e12 && v == floor(v);
}

static const char *limit_accepted(int k)
{
    return k == PASCAL_LIMIT_CTAS      ? "a whole number of CTAs, 1 to 1024"
           : k == PASCAL_LIMIT_THREADS ? "a whole number of threads, 1 to 65536"
                                       : "a whole number of bytes >= 1";
}

int device_parse_limits(const yml_doc *d, const yaml_node_t *node, pascal_device_profile *dev)
{
    double value[PASCAL_NLIMITS] = {NAN, NAN, NAN, NAN};
    sourced_section sec = {"limits",
                           "a mapping of what a point must fit in (ctas_per_sm, "
                           "smem_per_sm_bytes, smem_per_cta_bytes, threads_per_sm)",
                           pascal_device_limit_keys, PASCAL_NLIMITS, limit_accepted, limit_ok,
                           value, &dev->limits.source[0][0], sizeof dev->limits.source[0]};
    int rc = parse_sourced_section(d, node, &sec);
    dev->limits.ctas_per_sm = value[PASCAL_LIMIT_CTAS];
    dev->limits.smem_per_sm_bytes = value[PASCAL_LIMIT_SMEM_SM];
    dev->limits.smem_per_cta_bytes = value[PASCAL_LIMIT_SMEM_CTA];
    dev->limits.threads_per_sm = value[PASCAL_LIMIT_THREADS];
    return rc;
}

static int device_text(const yml_doc *d, const yaml_node_t *node, const char *key, char *buf, size_t len)
{
    char *s = NULL;
    int rc = yml_string(d, node, key, "a string", &s);
    if (!rc)
        snprintf(buf, len, "%s", s);
    free(s);
    return rc;
}

int device_parse_profile(const yml_doc *d, pascal_device_profile *dev, const yaml_node_t **val)
{
    const yaml_node_t *root = yaml_document_get_root_node(d->doc);
    const yaml_node_pair_t *pr;
    int rc = yml_check_mapping(d, root, "",
                                "a device profile mapping (name, sms, l2_bytes, effective_l2_bytes, "
                                "compute_capability, notes, sim, limits, rates, costs)",
                                device_keys, DEVICE_NKEYS);
    dev->sms = dev->l2_bytes = dev->effective_l2_bytes = NAN;
    dev->title[0] = dev->compute_capability[0] = dev->notes[0] = '\0';
    dev->limits.ctas_per_sm = dev->limits.smem_per_sm_bytes = dev->limits.smem_per_cta_bytes = NAN;
    dev->limits.threads_per_sm = NAN;
    for (int k = 0; k < PASCAL_NLIMITS; k++)
        dev->limits.source[k][0] = '\0';
    for (int k = 0; k < PASCAL_NRATES; k++) {
        dev->rates[k] = NAN;
        dev->rate_source[k][0] = '\0';
    }
    for (int k = 0; k < PASCAL_NCOSTS; k++) {
        dev->costs[k] = NAN;
        dev->cost_source[k][0] = '\0';
    }
    for (int k = 0; k < DEVICE_NKEYS; k++)
        val[k] = NULL;
    if (rc)
        return rc;
    for (pr = root->data.mapping.pairs.start; pr < root->data.mapping.pairs.top; pr++)
        for (int k = 0; k < DEVICE_NKEYS; k++)
            if (strcmp(yml_scalar_text(yml_node(d, pr->key)), device_keys[k]) == 0)
                val[k] = yml_node(d, pr->value);
    if (!val[DEVICE_KEY_NAME])
        return yml_fail(d, root, "name", PASCAL_EINPUT, "expected a device name, got nothing (the key is missing)");
    for (int k = 0; k < DEVICE_NKEYS; k++) {
        if (!val[k])
            continue;
        switch (k) {
        case DEVICE_KEY_NAME: rc = device_text(d, val[k], device_keys[k], dev->title, sizeof dev->title); break;
        case DEVICE_KEY_CC:
            rc = device_text(d, val[k], device_keys[k], dev->compute_capability, sizeof dev->compute_capability);
            break;
        case DEVICE_KEY_NOTES: rc = device_text(d, val[k], device_keys[k], dev->notes, sizeof dev->notes); break;
        case DEVICE_KEY_SMS: rc = yml_value(d, val[k], PASCAL_P_SMS, "sms", &dev->sms); break;
        case DEVICE_KEY_L2: rc = yml_value(d, val[k], PASCAL_P_CAPACITY_BYTES, "l2_bytes", &dev->l2_bytes); break;
        case DEVICE_KEY_SIM: /* the simulator's timing (devices/sim_timing.h) */
            rc = device_parse_sim(d, val[k], NULL);
            break;
        case DEVICE_KEY_LIMITS: rc = device_parse_limits(d, val[k], dev); break;
        case DEVICE_KEY_RATES: rc = parse_rates(d, val[k], dev); break;
        case DEVICE_KEY_COSTS: rc = parse_costs(d, val[k], dev); break;
        default:
            rc = yml_value(d, val[k], PASCAL_P_CAPACITY_BYTES, "effective_l2_bytes",
                                   &dev->effective_l2_bytes);
            break;
        }
        if (rc)
            return rc;
    }
    return 0;
}
