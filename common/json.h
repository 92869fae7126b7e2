/* JSON text for the CLI's --json output and the report's data block: one
 * escaping rule, written once. */
#ifndef PASCAL_COMMON_JSON_H
#define PASCAL_COMMON_JSON_H

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A JSON string (NULL writes ""): quotes, backslashes and control
 * characters escaped, and '<', '>', '&' as \u00XX so that the text is safe
 * inside an HTML <script> block too. */
void pascal_json_str(FILE *o, const char *s);
/* A number: integers exactly, others with `digits` significant digits;
 * NaN and infinities as null. */
void pascal_json_num(FILE *o, double v, int digits);
/* A member `"key": number`, the number as pascal_json_num writes it (the
 * key escaped as pascal_json_str escapes it). */
void pascal_json_key_num(FILE *o, const char *key, double v, int digits);

#ifdef __cplusplus
}
#endif

#endif
