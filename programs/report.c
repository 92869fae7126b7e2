/* pascal report: write a self-contained HTML report of a sweep file. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "programs/cli.h"
#include "engine/size.h"
#include "report/report.h"


static const char *usage_text =
    "usage: pascal report RESULT.h5 -o REPORT.html [--target RATE]\n\n"
    "Writes one self-contained HTML page (plotting library and data inlined; it\n"
    "opens offline) with the plots the sweep's axes and models allow: miss rate\n"
    "vs capacity with the LRU band, the residency bound and the Che baseline; a\n"
    "heatmap over any two swept axes; dynamic predictions vs horizon; a sizing\n"
    "table; the spec and provenance; and the cache lab.  Large sweeps are\n"
    "averaged over random draws and down-sampled for plotting; the page says so.\n"
    "RESULT may also be the CSV of pascal run (-o NAME.csv, or --format csv): the\n"
    "same page, without the spec and provenance a CSV does not carry.";


/* The sizing table's exact column searches the file's spec with the
 * engine's evaluator (report/ does not link the engine itself). */
static const pascal_report_sizer sizer = {pascal_size_searcher_open, pascal_size_searcher_at,
                                          pascal_size_searcher_free};

int cli_report(int argc, char **argv)
{
    cli_flag flags[] = {
        {"output", "PATH", "the HTML page (alias -o); written as PATH.tmp.PID, renamed when done",
         0, 0},
        {"target", "RATE", "sizing target: a miss rate (default 0.05), or for a workload's "
                           "traffic the ratio to ideal (default 1.2)", 0, 0},
        {"max-values", "N", "plot budget, cells x columns in the page (default 600000)", 0, 0},
    };
    int nf = (int)(sizeof flags / sizeof flags[0]), npos, rc;
    char *pos[1], *cmdline;
    int64_t n;
    pascal_report_opts o = {0};
    pascal_report_stats st;
    pascal_error err = {0};
    for (int i = 0; i < argc; i++)
        if (strcmp(argv[i], "-o") == 0)
            argv[i] = "--output";
    rc = cli_parse("report", usage_text, argc, argv, flags, nf, pos, 1, &npos);
    if (rc != CLI_OK)
        return rc < 0 ? CLI_OK : rc;
    if (npos != 1) {
        fprintf(stderr, "pascal report: expected a sweep file (RESULT.h5), got nothing\n");
        return CLI_USAGE;
    }
    o.in_path = pos[0];
    o.target = NAN;   /* the metric's default: 0.05, or 1.2 for traffic ratios */
    if (!(o.out_path = flags[0].value)) {
        fprintf(stderr, "pascal report: -o/--output: expected an output path, got nothing\n");
        return CLI_USAGE;
    }
    if (flags[1].given && cli_real("report", &flags[1], 0, &o.target) != CLI_OK)
        return CLI_USAGE;
    if (flags[2].given) {
        if (cli_int("report", &flags[2], 1000, &n) != CLI_OK)
            return CLI_USAGE;
        o.max_values = n;
    }
    cmdline = cli_command_line("report", argc, argv);
    o.command_line = cmdline;
    o.sizer = &sizer;
    rc = pascal_report_write(&o, &st, &err);
    free(cmdline);
    if (rc != 0) {
        fprintf(stderr, "%s\n", err.msg);
        return rc == PASCAL_EINPUT ? CLI_USAGE : CLI_FAIL;
    }
    printf("pascal report: %s (%.1f KiB) from %lld points in %.2f s\n", o.out_path,
           (double)st.bytes / 1024.0, (long long)st.rows, st.seconds);
    printf("  %d plot%s, %lld plotted cells x %d columns%s%s; sizing table: %lld scenario%s\n",
           st.plots, st.plots == 1 ? "" : "s", (long long)st.cells, st.ncolumns,
           st.averaged ? ", averaged over random draws" : "",
           st.downsampled ? ", down-sampled" : "", (long long)st.scenarios,
           st.scenarios == 1 ? "" : "s");
    return CLI_OK;
}
