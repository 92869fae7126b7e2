/* pascal_report_write: scan the file, plan the page, read every row once in
 * blocks (plot cells and the sizing table together), thin the plot cells to
 * the budget and write the page under a temporary name, renamed over the
 * destination only when complete. */
#include "output/fs/lock.h"
#include "output/fs/tmpfile.h"
#include "output/h5_file.h"
#include "output/sink.h"
#include "report/report_internal.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* One row into the plot cells and the sizing table.  idx receives the listed
 * index of every plotted axis. */
static int add_row(rp_run *r, double *const *buf, int64_t i, int64_t row, int64_t *idx,
                   double *vals, pascal_error *err)
{
    rp_file *f = &r->file;
    rp_plan *p = &r->plan;
    int64_t cell = 0;
    int in_cube = 1;
    for (int d = 0; d < p->ndims; d++) {
        rp_axis *a = &f->axes[p->dims[d]];
        double v = buf[a->col][i];
        int64_t li = pascal_report_axis_index(a, v), kp;
        if (li < 0)
            return pascal_error_set(err, PASCAL_EINPUT,
                                    "%s: /points/%s: row %lld: expected one of the /axes/%s "
                                    "values, got %.17g", f->path, a->name, (long long)row,
                                    a->name, v);
        idx[p->dims[d]] = li;
        kp = a->keep_of[li];
        if (kp < 0)
            in_cube = 0;
        else
            cell += kp * r->cube.stride[d];
    }
    for (int j = 0; j < p->ncols; j++) {
        double v = buf[p->cols[j].src][i];
        vals[j] = p->cols[j].div_m ? v / buf[p->m_src][i] : v;
    }
    if (in_cube)
        pascal_report_cube_add(&r->cube, cell, vals);
    if (r->sizing) {
        double cs = p->cshare_src >= 0 ? buf[p->cshare_src][i]
                  : p->lead_src >= 0   ? 2 * buf[p->lead_src][i] - 1
                                       : NAN;
        pascal_report_sizing_add(r->sizing, idx, vals, cs,
                                 p->c_src >= 0 ? buf[p->c_src][i] : NAN);
    }
    return 0;
}

/* Counts value changes between consecutive rows per axis: the outermost
 * axis changes least, which gives the page the canonical axis order. */
static void count_changes(rp_run *r, double *const *buf, int64_t n, double *prev, int first)
{
    for (int a = 0; a < r->file.naxes; a++) {
        rp_axis *ax = &r->file.axes[a];
        const double *v = buf[ax->col];
        for (int64_t i = 0; i < n; i++) {
            if (!(first && i == 0) && v[i] != prev[a])
                ax->changes++;
            prev[a] = v[i];
        }
    }
}

static int read_rows(rp_run *r, pascal_error *err)
{
    rp_plan *p = &r->plan;
    int64_t block = r->opts->block_rows > 0 ? r->opts->block_rows : 1 << 17;
    double *buf[RP_MAX_COLUMNS + RP_MAX_AXES + 4] = {0}, prev[RP_MAX_AXES], vals[RP_MAX_COLUMNS];
    int64_t idx[RP_MAX_AXES] = {0};
    rp_reader *rd = NULL;
    int rc = pascal_report_reader_open(&r->file, p->src, p->nsrc, &rd, err);
    for (int s = 0; rc == 0 && s < p->nsrc; s++)
        if (!(buf[s] = malloc((size_t)block * sizeof(double))))
            rc = pascal_error_set(err, PASCAL_ENOMEM, "out of memory");
    for (int64_t start = 0; rc == 0 && start < r->file.rows; start += block) {
        int64_t n = r->file.rows - start < block ? r->file.rows - start : block;
        rc = pascal_report_reader_read(rd, start, n, buf, err);
        for (int64_t i = 0; rc == 0 && i < n; i++)
            rc = add_row(r, buf, i, start + i, idx, vals, err);
        if (rc == 0)
            count_changes(r, buf, n, prev, start == 0);
    }
    for (int s = 0; s < p->nsrc; s++)
        free(buf[s]);
    pascal_report_reader_close(rd);
    return rc;
}

/* The temporary file is created now, before the rows are read (the claim
 * in pascal_report_write has refused an input or a busy destination). */
static int open_output(const pascal_report_opts *o, char *tmp, size_t len, FILE **out,
                       pascal_error *err)
{
    char *name = NULL;
    int fd = pascal_tmpfile_create(o->out_path, &name, err);
    if (fd < 0) {   /* an unwritable destination is the user's input */
        pascal_error_prefix(err, "%s: cannot write", o->out_path);
        err->code = PASCAL_EINPUT;
        return PASCAL_EINPUT;
    }
    snprintf(tmp, len, "%s", name);
    free(name);
    if (!(*out = fdopen(fd, "w"))) {
        int e = errno;
        close(fd);
        pascal_tmpfile_discard(tmp);
        return pascal_error_set(err, PASCAL_EIO, "%s: cannot write: %s", o->out_path, strerror(e));
    }
    return 0;
}

static int finish_output(FILE *o, const char *tmp, const char *dest, int64_t *bytes,
                         pascal_error *err)
{
    long size;
    int bad = fflush(o) != 0 || ferror(o);
    size = ftell(o);
    if (fclose(o) != 0 || bad) {
        int e = errno;
        pascal_tmpfile_discard(tmp);
        return pascal_error_set(err, PASCAL_EIO, "%s: writing failed: %s", dest, strerror(e));
    }
    if (pascal_tmpfile_commit(tmp, dest, err) != 0)
        return PASCAL_EIO;
    *bytes = size;
    return 0;
}

static void fill_stats(const rp_run *r, pascal_report_stats *st)
{
    const rp_file *f = &r->file;
    int costs[RP_MAX_COSTS];
    st->rows = f->rows;
    st->cells = r->cells;
    st->ncolumns = r->plan.ncols;
    st->scenarios = pascal_report_sizing_rows(r->sizing);
    st->plots = (r->plan.cap_axis >= 0 && r->plan.metric >= 0) + (r->plan.heat_x >= 0) +
                (r->plan.w_axis >= 0) + (pascal_report_pareto_costs(r, costs) > 0);
    for (int i = 0; i < f->naxes; i++) {
        st->averaged |= f->axes[i].role == RP_AGG;
        st->downsampled |= f->axes[i].role == RP_DIM && f->axes[i].nkeep < f->axes[i].count;
    }
}

/* A sampled file whose axes are lists or grids is a subset of a grid and
 * plots as one; an interval axis has no values to plot against. */
static int check_sampled(const rp_file *f, pascal_error *err)
{
    const char *iv = pascal_report_attr(f, "sample_intervals");
    if (!iv || !*iv)
        return 0;
    return pascal_error_set(err, PASCAL_EINPUT, "%s: expected a sweep whose axes are lists or grids, "
                            "got a sample with intervals (%s): the report plots grids; bin the "
                            "interval axes yourself (e.g. pandas.cut), or sample them as grid "
                            "ranges (num, step or factor)", f->path, iv);
}

static int check_opts(const pascal_report_opts *o, pascal_error *err)
{
    if (!o || !o->in_path || !o->out_path || !o->out_path[0])
        return pascal_error_set(err, PASCAL_EINPUT, "report: expected an input and an output "
                                "path, got none");
    if (!isnan(o->target) && (!(o->target >= 0) || !isfinite(o->target)))
        return pascal_error_set(err, PASCAL_EINPUT, "report: --target: expected a miss rate "
                                ">= 0, got %g", o->target);
    return 0;
}

int pascal_report_write(const pascal_report_opts *opts, pascal_report_stats *stats,
                        pascal_error *err)
{
    double t0 = now();
    char tmp[PATH_MAX + 32];
    FILE *o = NULL;
    pascal_lock *lock = NULL;
    rp_run r;
    int rc;
    memset(&r, 0, sizeof r);
    r.opts = opts;
    if (stats)
        memset(stats, 0, sizeof *stats);
    if ((rc = check_opts(opts, err)))
        return rc;
    /* A damaged sweep file is refused before anything is created. */
    if (pascal_h5_is_hdf5(opts->in_path) && (rc = pascal_h5_vet(opts->in_path, err)))
        return rc;
    {
        pascal_input in = {"sweep file", opts->in_path};
        if ((rc = pascal_output_claim(opts->out_path, &in, 1,
                                      opts->command_line ? opts->command_line : "pascal report",
                                      &lock, err)))
            return rc;
        pascal_tmpfile_clean(opts->out_path, NULL);
    }
    rc = pascal_report_scan(opts->in_path, &r.file, err);
    if (rc == 0)
        rc = check_sampled(&r.file, err);
    if (rc == 0)
        rc = pascal_report_plan(&r.file, opts->target, &r.plan, err);
    if (rc == 0 && !pascal_report_has_plot_library())
        rc = pascal_error_set(err, PASCAL_EIO, "this pascal was built without the plotting "
                              "library (npm was missing at build time): run scripts/setup.sh");
    if (rc == 0)
        rc = open_output(opts, tmp, sizeof tmp, &o, err);
    if (rc == 0)
        rc = pascal_report_cube_init(&r.cube, &r.file, &r.plan, err);
    if (rc == 0)
        rc = pascal_report_sizing_create(&r.file, &r.plan, &r.sizing, err);
    if (rc == 0)
        rc = read_rows(&r, err);
    if (rc == 0 && r.sizing)
        pascal_report_sizing_exact(r.sizing, &r.file, &r.plan, opts->sizer);
    if (rc == 0)
        rc = pascal_report_cube_fit(&r.cube, &r.file, &r.plan,
                                    opts->max_values > 0 ? opts->max_values : RP_DEFAULT_VALUES,
                                    err);
    if (rc == 0) {
        const char *title = pascal_report_attr(&r.file, "spec_name");
        r.cells = pascal_report_cube_nonempty(&r.cube, &r.file, &r.plan);
        rc = pascal_report_page(o, title ? title : opts->in_path, pascal_report_data, &r, err);
    }
    if (rc == 0) {
        rc = finish_output(o, tmp, opts->out_path, stats ? &stats->bytes : &(int64_t){0}, err);
        o = NULL;
    }
    if (o) {
        fclose(o);
        pascal_tmpfile_discard(tmp);
    }
    if (rc == 0 && stats) {
        fill_stats(&r, stats);
        stats->seconds = now() - t0;
    }
    pascal_report_sizing_free(r.sizing);
    pascal_report_cube_free(&r.cube);
    pascal_report_scan_free(&r.file);
    pascal_output_release(lock);
    return rc;
}
