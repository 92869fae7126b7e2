/* JSON text for the page's data block.  Strings escape quotes, backslashes
 * and control characters, and also <, > and &, so no text from the sweep
 * file (a spec may contain anything) can close the <script> element that
 * holds the data.  Numbers that are not finite become null. */
#include "report/report_internal.h"

#include <math.h>

void pascal_report_json_str(FILE *o, const char *s)
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

void pascal_report_json_num(FILE *o, double v, int digits)
{
    if (!isfinite(v))
        fputs("null", o);
    else if (v == floor(v) && fabs(v) < 9007199254740992.0)
        fprintf(o, "%.0f", v);
    else
        fprintf(o, "%.*g", digits, v);
}

void pascal_report_json_key(FILE *o, const char *k)
{
    pascal_report_json_str(o, k);
    fputc(':', o);
}
