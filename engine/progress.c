/* Progress bar for long sweeps; see progress.h. */
#include "engine/progress.h"

#include <stdio.h>

#include "engine/clock.h"

void pascal_progress_start(pascal_progress *pr, int enabled, uint64_t total)
{
    pr->enabled = enabled;
    pr->total = total;
    pr->start = pascal_now();
    pr->last_draw = 0;
}

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

static void draw(pascal_progress *pr, uint64_t done, double now)
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

void pascal_progress_update(pascal_progress *pr, uint64_t done)
{
    double now;
    if (!pr->enabled)
        return;
    now = pascal_now();
    if (now - pr->last_draw < 0.1)
        return;
    pr->last_draw = now;
    draw(pr, done, now);
}

void pascal_progress_finish(pascal_progress *pr, uint64_t done)
{
    if (!pr->enabled)
        return;
    draw(pr, done, pascal_now());
    fputc('\n', stderr);
}
