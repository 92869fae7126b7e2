/* The HTML document: the template web/report.html with its marker lines
 * replaced by the inlined stylesheet, data, plotting library and page script
 * (all embedded in the library at build time).  The page needs no network:
 * its Content-Security-Policy forbids every fetch. */
#include "report/report_internal.h"

#include <string.h>

const rp_asset *pascal_report_asset(const char *name)
{
    for (int i = 0; i < pascal_report_nassets; i++)
        if (strcmp(pascal_report_assets[i].name, name) == 0)
            return &pascal_report_assets[i];
    return NULL;
}

int pascal_report_has_plot_library(void)
{
    static const char *const libs[] = {"vega.min.js", "vega-lite.min.js", "vega-embed.min.js"};
    for (int i = 0; i < 3; i++) {
        const rp_asset *a = pascal_report_asset(libs[i]);
        if (!a || a->len == 0)
            return 0;
    }
    return 1;
}

/* First occurrence of s in p[0..len), or NULL. */
static const char *find(const char *p, size_t len, const char *s)
{
    size_t n = strlen(s);
    for (size_t i = 0; i + n <= len; i++)
        if (memcmp(p + i, s, n) == 0)
            return p + i;
    return NULL;
}

static void put_asset(FILE *o, const char *name)
{
    const rp_asset *a = pascal_report_asset(name);
    if (a)
        fwrite(a->data, 1, a->len, o);
}

static void put_script(FILE *o, const char *name)
{
    fprintf(o, "<script>/* %s */\n", name);
    put_asset(o, name);
    fputs("\n</script>\n", o);
}

/* One marker line of the template. */
static void put_marker(FILE *o, const char *marker, const char *title, rp_data_fn data,
                       void *ctx)
{
    if (strcmp(marker, "css") == 0) {
        fputs("<style>\n", o);
        put_asset(o, "report.css");
        fputs("</style>\n", o);
    } else if (strcmp(marker, "title") == 0) {
        fputs("<title>", o);
        for (const char *p = title; *p; p++)
            if (*p == '<')
                fputs("&lt;", o);
            else if (*p == '&')
                fputs("&amp;", o);
            else
                fputc(*p, o);
        fputs(" - pascal report</title>\n", o);
    } else if (strcmp(marker, "data") == 0) {
        fputs("<script type=\"application/json\" id=\"pascal-data\">", o);
        data(o, ctx);
        fputs("</script>\n", o);
    } else if (strcmp(marker, "libs") == 0) {
        put_script(o, "vega.min.js");
        put_script(o, "vega-lite.min.js");
        put_script(o, "vega-embed.min.js");
    } else if (strcmp(marker, "js") == 0) {
        put_script(o, "lab.js");
        put_script(o, "sizing.js");
        put_script(o, "pareto.js");
        put_script(o, "report.js");
    }
}

int pascal_report_page(FILE *o, const char *title, rp_data_fn data, void *ctx,
                       pascal_error *err)
{
    const rp_asset *t = pascal_report_asset("report.html");
    const char *p, *end;
    if (!t || !pascal_report_has_plot_library())
        return pascal_error_set(err, PASCAL_EIO,
                                "this pascal was built without the plotting library (npm was "
                                "missing at build time): rebuild after scripts/setup.sh");
    p = (const char *)t->data;
    end = p + t->len;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t len = nl ? (size_t)(nl - p) + 1 : (size_t)(end - p);
        const char *m = find(p, len, "<!--pascal:");
        if (m) {
            char name[32] = "";
            const char *close = find(m, len - (size_t)(m - p), "-->");
            size_t n = close ? (size_t)(close - m - 11) : 0;
            if (n < sizeof name)
                memcpy(name, m + 11, n), name[n] = '\0';
            put_marker(o, name, title, data, ctx);
        } else {
            fwrite(p, 1, len, o);
        }
        p += len;
    }
    return 0;
}
