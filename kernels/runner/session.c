/* Measuring sessions (kernels/session.h): choosing the meter, and the ncu
 * fallback that re-runs the command under Nsight Compute and reads the
 * fills back from its report. */
#include "kernels/session.h"

#include <errno.h>
#include <math.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kernels/ncu.h"

extern char **environ;

#define CHILD_ENV "PASCAL_NCU_CHILD"

static int parse_device(const char *text, int *index, pascal_error *err)
{
    char *end;
    long v;
    if (!text || strcmp(text, "auto") == 0) {
        *index = -1;
        return 0;
    }
    v = strtol(text, &end, 10);
    if (end == text || *end || v < 0 || v > 1024)
        return pascal_error_set(err, PASCAL_EINPUT,
                                "--device: expected auto or a device index, got \"%s\"", text);
    *index = (int)v;
    return 0;
}

/* ncu's counter: the user's, or the first candidate for the architecture. */
static int ncu_metric(pascal_session *s, const char *metric, pascal_error *err)
{
    const pascal_spot_device *d = pascal_gpu_device(s->gpu);
    int n;
    if (metric && !(pascal_ncu_metric_scale(metric) > 0))
        return pascal_error_set(err, PASCAL_EINPUT,
                                "--metric: expected a counter of bytes or sectors, got \"%s\"",
                                metric);
    snprintf(s->metric, sizeof s->metric, "%s",
             metric ? metric : pascal_ncu_metric_candidates(d->cc_major, &n)[0].name);
    return 0;
}

static int choose_ncu(pascal_session *s, const char *metric, pascal_error *err)
{
    pascal_spot_device *d = pascal_gpu_device(s->gpu);
    if (pascal_ncu_find(s->ncu, sizeof s->ncu) != 0)
        return pascal_error_set(err, PASCAL_GPU_UNAVAILABLE,
                                "cannot count off-chip fills: %s%sncu (Nsight Compute) was not "
                                "found on PATH, in /usr/local/cuda/bin or in $PASCAL_NCU",
                                s->cupti_reason, s->cupti_reason[0] ? "; " : "");
    if (ncu_metric(s, metric, err) != 0)
        return err->code;
    s->mode = PASCAL_SESSION_NCU;
    snprintf(d->meter, sizeof d->meter, "ncu");
    snprintf(d->metric, sizeof d->metric, "%s", s->metric);
    return 0;
}

static int choose_meter(pascal_session *s, const char *meter, const char *metric,
                        pascal_error *err)
{
    int rc;
    if (strcmp(meter, "ncu") == 0)
        return choose_ncu(s, metric, err);
    rc = pascal_gpu_meter_cupti(s->gpu, metric, err);
    if (rc == 0 || rc == PASCAL_EINPUT) {
        s->mode = PASCAL_SESSION_CUPTI;
        return rc;
    }
    if (strcmp(meter, "cupti") == 0)
        return rc;
    snprintf(s->cupti_reason, sizeof s->cupti_reason, "%.500s", err->msg);
    return choose_ncu(s, metric, err);
}

int pascal_session_open(const char *device, const char *meter, const char *metric,
                        pascal_session *s, pascal_error *err)
{
    const char *child = getenv(CHILD_ENV);
    int index = -1, rc;
    memset(s, 0, sizeof *s);
    meter = meter ? meter : "auto";
    if (strcmp(meter, "auto") != 0 && strcmp(meter, "cupti") != 0 && strcmp(meter, "ncu") != 0)
        return pascal_error_set(err, PASCAL_EINPUT,
                                "--meter: expected auto, cupti or ncu, got \"%s\"", meter);
    if ((rc = parse_device(device, &index, err)) != 0 ||
        (rc = pascal_gpu_open(index, &s->gpu, err)) != 0)
        return rc;
    if (child && *child) {
        s->mode = PASCAL_SESSION_NCU_CHILD;
        s->child_file = child;
        pascal_gpu_meter_off(s->gpu);
        return 0;
    }
    if ((rc = choose_meter(s, meter, metric, err)) != 0) {
        pascal_gpu_close(s->gpu);
        s->gpu = NULL;
    }
    return rc;
}

void pascal_session_close(pascal_session *s)
{
    pascal_gpu_close(s->gpu);
    s->gpu = NULL;
}

int pascal_session_is_child(const pascal_session *s)
{
    return s->mode == PASCAL_SESSION_NCU_CHILD;
}

/* ---- in-process runs ------------------------------------------------------- */

static int run_jobs(pascal_session *s, int64_t njobs, pascal_session_job fn, void *ctx,
                    pascal_spot_measure *out, pascal_error *err)
{
    for (int64_t i = 0; i < njobs; i++) {
        int rc = fn(s->gpu, ctx, i, &out[i], err);
        if (rc != 0)
            return rc;
    }
    return 0;
}

/* The child records start state, time and checksum of every measurement. */
static int child_record(const char *path, const pascal_spot_measure *m, int64_t n,
                        pascal_error *err)
{
    FILE *f = fopen(path, "w");
    int ok;
    if (!f)
        return pascal_error_set(err, PASCAL_EIO, "%s: cannot write: %s", path, strerror(errno));
    for (int64_t i = 0; i < n; i++)
        fprintf(f, "%d %.17g %llu\n", (int)m[i].start, m[i].elapsed_ms,
                (unsigned long long)m[i].checksum);
    ok = !ferror(f);
    ok = (fclose(f) == 0) && ok;
    return ok ? 0 : pascal_error_set(err, PASCAL_EIO, "%s: cannot write", path);
}

/* ---- the ncu parent ---------------------------------------------------------- */

static int read_file(const char *path, char **text, size_t *len, pascal_error *err)
{
    FILE *f = fopen(path, "rb");
    long n;
    if (!f || fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
        if (f)
            fclose(f);
        return pascal_error_set(err, PASCAL_EIO, "%s: cannot read: %s", path, strerror(errno));
    }
    *text = malloc((size_t)n + 1);
    if (!*text || fread(*text, 1, (size_t)n, f) != (size_t)n) {
        fclose(f);
        free(*text);
        *text = NULL;
        return pascal_error_set(err, PASCAL_EIO, "%s: cannot read", path);
    }
    fclose(f);
    (*text)[n] = 0;
    *len = (size_t)n;
    return 0;
}

static int child_read(const char *path, pascal_spot_measure *m, int64_t n, pascal_error *err)
{
    char *text, *p;
    size_t len;
    int rc = read_file(path, &text, &len, err);
    if (rc != 0)
        return rc;
    p = text;
    for (int64_t i = 0; i < n; i++) {
        int start, used = 0;
        unsigned long long sum;
        if (sscanf(p, "%d %lf %llu\n%n", &start, &m[i].elapsed_ms, &sum, &used) != 3 || !used) {
            free(text);
            return pascal_error_set(err, PASCAL_EIO, "%s: expected %lld measurements, got %lld",
                                    path, (long long)n, (long long)i);
        }
        m[i].start = start ? PASCAL_SPOT_WARM : PASCAL_SPOT_COLD;
        m[i].checksum = sum;
        m[i].fill_bytes = NAN;
        p += used;
    }
    free(text);
    return 0;
}

static int spawn_wait(char **argv, pascal_error *err)
{
    pid_t pid;
    int status = 0, e = posix_spawn(&pid, argv[0], NULL, NULL, argv, environ);
    if (e != 0)
        return pascal_error_set(err, PASCAL_EIO, "cannot run %s: %s", argv[0], strerror(e));
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return pascal_error_set(err, PASCAL_EIO, "waiting for ncu: %s", strerror(errno));
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return pascal_error_set(err, PASCAL_EIO, "the run under ncu failed (%s %d)",
                                WIFEXITED(status) ? "exit status" : "signal",
                                WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
    return 0;
}

static int temp_path(char *buf, size_t len, const char *suffix)
{
    const char *dir = getenv("TMPDIR");
    int fd;
    snprintf(buf, len, "%s/pascal-ncu-XXXXXX%s", dir && *dir ? dir : "/tmp", suffix);
    fd = mkstemps(buf, (int)strlen(suffix));
    if (fd < 0)
        return -1;
    close(fd);
    return 0;
}

/* Runs the child under ncu, then joins its records with ncu's counts. */
static int ncu_collect(pascal_session *s, const char *log, const char *rec, int64_t njobs,
                       pascal_spot_measure *out, char **argv, pascal_error *err)
{
    pascal_spot_start *starts = malloc((size_t)njobs * sizeof *starts);
    double *values = NULL, *fills = malloc((size_t)njobs * sizeof *fills);
    char *text = NULL;
    size_t len;
    int64_t nv;
    int rc = (!starts || !fills) ? pascal_error_set(err, PASCAL_ENOMEM, "out of memory") : 0;
    if (rc == 0 && setenv(CHILD_ENV, rec, 1) != 0)
        rc = pascal_error_set(err, PASCAL_EIO, "cannot set %s", CHILD_ENV);
    if (rc == 0) {
        rc = spawn_wait(argv, err);
        unsetenv(CHILD_ENV);
    }
    if (rc == 0 && (rc = child_read(rec, out, njobs, err)) == 0 &&
        (rc = read_file(log, &text, &len, err)) == 0 &&
        (rc = pascal_ncu_parse(text, len, s->metric, &values, &nv, err)) == 0) {
        for (int64_t i = 0; i < njobs; i++)
            starts[i] = out[i].start;
        if ((rc = pascal_ncu_assign(values, nv, starts, njobs, fills, err)) == 0)
            for (int64_t i = 0; i < njobs; i++)
                out[i].fill_bytes = fills[i];
    }
    free(starts), free(fills), free(values), free(text);
    return rc;
}

static int run_under_ncu(pascal_session *s, int64_t njobs, pascal_spot_measure *out,
                         const char *cmd, int argc, char **argv, pascal_error *err)
{
    char log[4096], rec[4096], self[4096];
    char **child_argv = NULL, **args = calloc((size_t)argc + 2, sizeof *args);
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    int rc;
    if (!args || n <= 0 || temp_path(log, sizeof log, ".csv") != 0 ||
        temp_path(rec, sizeof rec, ".txt") != 0) {
        free(args);
        return pascal_error_set(err, PASCAL_EIO, "cannot prepare the ncu run: %s", strerror(errno));
    }
    self[n] = 0;
    args[0] = (char *)cmd;
    for (int i = 0; i < argc; i++)
        args[i + 1] = argv[i];
    child_argv = pascal_ncu_argv(s->ncu, s->metric, log, self, argc + 1, args);
    rc = child_argv ? ncu_collect(s, log, rec, njobs, out, child_argv, err)
                    : pascal_error_set(err, PASCAL_ENOMEM, "out of memory");
    if (rc != 0)
        pascal_error_prefix(err, "ncu report kept in %s", log);
    else
        unlink(log);
    unlink(rec);
    pascal_ncu_argv_free(child_argv);
    free(args);
    return rc;
}

int pascal_session_measure(pascal_session *s, int64_t njobs, pascal_session_job fn, void *ctx,
                           pascal_spot_measure *out, const char *cmd, int argc, char **argv,
                           pascal_error *err)
{
    int rc;
    switch (s->mode) {
    case PASCAL_SESSION_NCU:
        return run_under_ncu(s, njobs, out, cmd, argc, argv, err);
    case PASCAL_SESSION_NCU_CHILD:
        if ((rc = run_jobs(s, njobs, fn, ctx, out, err)) != 0)
            return rc;
        return child_record(s->child_file, out, njobs, err);
    default:
        return run_jobs(s, njobs, fn, ctx, out, err);
    }
}
