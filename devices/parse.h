/* Inside devices/: reading a profile document (devices/profile.c) and its
 * `sim` section (devices/sim_timing.c) with the YAML base layer, for the
 * lookup's pascal_device_load and a spec's `device:` (sweeps/spec_device.c),
 * which needs the value nodes for its marks.  Not installed. */
#ifndef PASCAL_DEVICES_PARSE_H
#define PASCAL_DEVICES_PARSE_H

#include "devices/profile.h"
#include "devices/sim_timing.h"
#include "vocab/yaml.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A profile's keys; any other key is an error. */
enum {
    DEVICE_KEY_NAME, DEVICE_KEY_SMS, DEVICE_KEY_L2, DEVICE_KEY_EFFECTIVE_L2, DEVICE_KEY_CC,
    DEVICE_KEY_NOTES, DEVICE_KEY_SIM, DEVICE_KEY_LIMITS, DEVICE_KEY_RATES, DEVICE_KEY_COSTS, DEVICE_NKEYS
};
extern const char *const device_keys[DEVICE_NKEYS];

/* Reads a loaded profile document into dev (numbers NaN, strings "" when
 * absent); val[k] gets the value node of each key present. */
int device_parse_profile(const yml_doc *d, pascal_device_profile *dev, const yaml_node_t **val);
/* One {value: NUMBER, source: "kind: text"} entry at path: the value must
 * satisfy ok(k, value) (else "expected <accepted>"), the source start with
 * datasheet:, measurement:, fit:, derived: or assumed:.  *source (when not
 * NULL) points into the document. */
int device_parse_sourced(const yml_doc *c, const yaml_node_t *node, const char *path,
                         const char *accepted, int (*ok)(int, double), int k, double *out,
                         const char **source);
/* A profile's `limits` section (node: its value) into dev->limits. */
int device_parse_limits(const yml_doc *d, const yaml_node_t *node, pascal_device_profile *dev);
/* Checks a profile's `sim` section (node: its value) and, when out is not
 * NULL, stores the timing. */
int device_parse_sim(const yml_doc *d, const yaml_node_t *node, pascal_sim_timing *out);

#ifdef __cplusplus
}
#endif

#endif
