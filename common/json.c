/* JSON strings and numbers.  See json.h. */
#include "common/json.h"

#include <math.h>

void pascal_json_str(FILE *o, const char *s)
{
    fputc('"', o);
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(o, "\\%c", *p);
        else if (*p == '\n')
            fputs("\\n", o);
        else if (*p == '\t')
            fputs("\\t", o);
        else if (*p < 0x20 || *p == '<' || *p == '>' || *p == '&')
            fprintf(o, "\\u%04x", *p);
        else
            fputc(*p, o);
    }
    fputc('"', o);
}

void pascal_json_num(FILE *o, double v, int digits)
{
    if (!isfinite(v))
        fputs("null", o);
    else if (v == floor(v) && fabs(v) < 9007199254740992.0)
        fprintf(o, "%.0f", v);
    else
        fprintf(o, "%.*g", digits, v);
}

void pascal_json_key_num(FILE *o, const char *key, double v, int digits)
{
    pascal_json_str(o, key);
    fputs(": ", o);
    pascal_json_num(o, v, digits);
}
