/* Progress bar for long sweeps; see progress.h. */
#include "programs/progress.h"

#include <stdio.h>

#include "common/clock.h"

static void human(double v, char *buf, size_t len)
{
    if (v >= 1e9)
        snprintf(buf, len, "%.2fG", v / 1e9);
    else if (v >= 1e6)
        snprintf(buf, len, "%.2fM", v / 1e6);
    else if (v >= 1e3)
        snprintf(buf, len, "%.1fk", v / 1e3);
    else
        snprintf(buf, len, "%.0f", v);
}

static void draw(cli_progress *pr, uint64_t done, double now)
{
    enum { WIDTH = 30 };
    char bar[WIDTH + 1], d[16], t[16], r[16];
    double frac = pr->total ? (double)done / (double)pr->total : 1.0;
    double elapsed = now - pr->start, rate = elapsed > 0 ? (double)done / elapsed : 0;
    double eta = rate > 0 ? (double)(pr->total - done) / rate : 0;
    int fill = (int)(frac * WIDTH);
    for (int i = 0; i < WIDTH; i++)
        bar[i] = i < fill ? '#' : '.';
    bar[WIDTH] = 0;
    human((double)done, d, sizeof d);
    human((double)pr->total, t, sizeof t);
    human(rate, r, sizeof r);
    fprintf(stderr, "\r[%s] %5.1f%% %s/%s points  %s points/s  ETA %.0fs   ", bar,
            100.0 * frac, d, t, r, eta);
    fflush(stderr);
}

void cli_progress_update(void *ctx, uint64_t done, uint64_t total)
{
    cli_progress *pr = ctx;
    double now = pascal_now();
    /* done = 0 starts a stage: a per-point check pass, then the
     * evaluation; the previous stage's line is ended. */
    if (pr->started && done == 0) {
        cli_progress_finish(pr);
        pr->started = 0;
    }
    if (!pr->started) {
        pr->started = 1;
        pr->start = now;
        pr->last_draw = 0;
    }
    pr->done = done;
    pr->total = total;
    if (now - pr->last_draw < 0.1)
        return;
    pr->last_draw = now;
    draw(pr, done, now);
}

void cli_progress_finish(cli_progress *pr)
{
    if (!pr->started)
        return;
    draw(pr, pr->done, pascal_now());
    fputc('\n', stderr);
}
