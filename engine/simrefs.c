/* Simulated reference runs (engine/simrefs.h): the configurations of
 * `pascal measure-refs --simulate` through the progress simulator on every
 * thread, and the reference CSV they make. */
#include "engine/simrefs.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/parallel.h"
#include "output/fs/tmpfile.h"
#include "vocab/params.h"

_Static_assert(PASCAL_SIM_SYNC == 0 && PASCAL_SIM_TMA == 1 && PASCAL_PATH_COUNT == 2,
               "simulator load path codes follow pascal_path_names");

static pascal_sim_config config_of(const pascal_simrefs_opts *o, const pascal_simref *r)
{
    pascal_sim_config c = pascal_sim_default_config();
    c.sms = o->sms;
    c.occupancy = r->o;
    c.path = r->path;
    c.depth = r->path == PASCAL_SIM_TMA ? r->d : 1;
    c.compute = r->m;
    c.N = r->N;
    c.W = r->W;
    c.C = r->C > 0 ? r->C : o->C;
    c.block_bytes = o->block_bytes;
    c.seed = r->seed;
    c.should_stop = o->should_stop;
    c.stop_ctx = o->stop_ctx;
    return c;
}

/* Requests of a run: its cost. */
static double cost(const pascal_simrefs_opts *o, const pascal_simref *r)
{
    return (double)o->sms * (double)r->o * r->W * (double)r->N;
}

/* The runs' indices, longest first (ties by index): the threads finish
 * together. */
static int64_t *longest_first(const pascal_simrefs_opts *o, const pascal_simref *runs, int64_t n)
{
    int64_t *idx = malloc((size_t)(n > 0 ? n : 1) * sizeof *idx);
    if (!idx)
        return NULL;
    for (int64_t i = 0; i < n; i++)
        idx[i] = i;
    for (int64_t i = 1; i < n; i++) { /* insertion sort: n is a few thousand */
        int64_t k = idx[i], j = i;
        double ck = cost(o, &runs[k]);
        while (j > 0 && cost(o, &runs[idx[j - 1]]) < ck)
            idx[j] = idx[j - 1], j--;
        idx[j] = k;
    }
    return idx;
}

/* Every run is checked before any is simulated: the simulator validates
 * its input before it looks at the workspace (none here). */
static int check_runs(const pascal_simrefs_opts *o, const pascal_simref *runs, int64_t n,
                      pascal_error *err)
{
    for (int64_t i = 0; i < n; i++) {
        pascal_sim_config c = config_of(o, &runs[i]);
        pascal_sim_result r;
        if (pascal_sim_run(NULL, o->tm, &c, &r) == PASCAL_SIM_EINVAL)
            return pascal_error_set(err, PASCAL_EINPUT,
                                    "configuration o=%lld %s d=%lld m=%lld N=%lld W=%g: expected "
                                    "one the simulator can run, got one out of its range",
                                    (long long)runs[i].o, pascal_path_names[runs[i].path],
                                    (long long)runs[i].d, (long long)runs[i].m,
                                    (long long)runs[i].N, runs[i].W);
    }
    return 0;
}

/* The team of pascal_simrefs_run: runs go to the threads one at a time,
 * longest first; the progress callback is called by one thread at a time. */
typedef struct simrefs_team {
    const pascal_simrefs_opts *o;
    pascal_simref *runs;
    const int64_t *idx;
    int64_t n, done;
    int nomem, stopped;
} simrefs_team;

static void simrefs_body(void *ctx)
{
    simrefs_team *t = ctx;
    const pascal_simrefs_opts *o = t->o;
    pascal_sim *ws = NULL;
#pragma omp for schedule(dynamic, 1)
    for (int64_t k = 0; k < t->n; k++) {
        pascal_simref *r = &t->runs[t->idx[k]];
        pascal_sim_config c = config_of(o, r);
        pascal_sim_result res;
        int s, quit;
#pragma omp atomic read
        quit = t->nomem;
        if (!quit) {
#pragma omp atomic read
            quit = t->stopped;
        }
        if (quit)
            continue;
        if (pascal_sim_fit(&ws, &c) != 0) {
#pragma omp atomic write
            t->nomem = 1;
            continue;
        }
        s = pascal_sim_run(ws, o->tm, &c, &res);
        if (s == PASCAL_SIM_STOPPED) {
#pragma omp atomic write
            t->stopped = 1;
        } else if (s == PASCAL_SIM_OK) {
            r->K = res.K_H;
            r->ns_per_round = res.ns_per_round;
        }
#pragma omp critical(simrefs_progress)
        {
            t->done++;
            if (o->progress)
                o->progress(o->progress_ctx, (uint64_t)t->done, (uint64_t)t->n);
        }
    }
    pascal_sim_free(ws);
}

int pascal_simrefs_run(const pascal_simrefs_opts *o, pascal_simref *runs, int64_t n,
                       pascal_error *err)
{
    simrefs_team t = {o, runs, NULL, n, 0, 0, 0};
    int64_t *idx;
    int rc = check_runs(o, runs, n, err);
    if (rc)
        return rc;
    if (!(idx = longest_first(o, runs, n)))
        return pascal_error_set(err, PASCAL_ENOMEM, "out of memory");
    for (int64_t i = 0; i < n; i++)
        runs[i].K = runs[i].ns_per_round = NAN;
    t.idx = idx;
    if (o->progress)
        o->progress(o->progress_ctx, 0, (uint64_t)n);
    pascal_parallel(o->threads, simrefs_body, &t);
    free(idx);
    if (t.nomem)
        return pascal_error_set(err, PASCAL_ENOMEM, "out of memory for the simulator");
    if (t.stopped) {
        int64_t kept = 0;
        for (int64_t i = 0; i < n; i++)
            kept += !isnan(runs[i].K);
        return pascal_error_set(err, PASCAL_EINTR, "stopped with %lld of %lld runs done",
                                (long long)kept, (long long)n);
    }
    return 0;
}

static int write_all(FILE *f, const char *header, const pascal_simref *runs, int64_t n)
{
    const char *p = header;
    while (p && *p) {
        size_t len = strcspn(p, "\n");
        fprintf(f, "# %.*s\n", (int)len, p);
        p += len + (p[len] == '\n');
    }
    int per_run = 0;
    for (int64_t i = 0; i < n; i++)
        per_run |= runs[i].C > 0;
    fprintf(f, per_run ? "o,path,d,m,N,W,K,C\n" : "o,path,d,m,N,W,K\n");
    for (int64_t i = 0; i < n; i++) {
        if (isnan(runs[i].K))
            continue;
        fprintf(f, "%lld,%s,%lld,%lld,%lld,%.17g,%.17g", (long long)runs[i].o,
                pascal_path_names[runs[i].path], (long long)runs[i].d,
                (long long)runs[i].m, (long long)runs[i].N, runs[i].W, runs[i].K);
        if (per_run)
            fprintf(f, ",%lld", (long long)runs[i].C);
        fputc('\n', f);
    }
    return ferror(f) ? -1 : 0;
}

int pascal_simrefs_write(const char *path, const char *header, const pascal_simref *runs,
                         int64_t n, pascal_error *err)
{
    char *tmp = NULL;
    int fd = pascal_tmpfile_create(path, &tmp, err), e;
    FILE *f;
    if (fd < 0)
        return fd;
    if (!(f = fdopen(fd, "w"))) {
        e = errno;
        close(fd);
        pascal_tmpfile_discard(tmp);
        pascal_error_set(err, PASCAL_EIO, "cannot write %s: %s", tmp, strerror(e));
        free(tmp);
        return PASCAL_EIO;
    }
    if (write_all(f, header, runs, n) != 0 || fclose(f) != 0) {
        e = errno;
        pascal_tmpfile_discard(tmp);
        pascal_error_set(err, PASCAL_EIO, "cannot write %s: %s", tmp, strerror(e));
        free(tmp);
        return PASCAL_EIO;
    }
    e = pascal_tmpfile_commit(tmp, path, err);
    free(tmp);
    return e;
}
