/* JSON text for the page's data block.  Strings escape quotes, backslashes
 * and control characters, and also <, > and &, so no text from the sweep
 * file (a spec may contain anything) can close the <script> element that
 * holds the data.  Numbers that are not finite become null (common/json.h
 * writes both, for the CLI too). */
#include "report/report_internal.h"

#include "common/json.h"

void pascal_report_json_str(FILE *o, const char *s)
{
    pascal_json_str(o, s);
}

void pascal_report_json_num(FILE *o, double v, int digits)
{
    pascal_json_num(o, v, digits);
}

void pascal_report_json_key(FILE *o, const char *k)
{
    pascal_report_json_str(o, k);
    fputc(':', o);
}
