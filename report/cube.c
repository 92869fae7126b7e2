/* Plot cells: rows are accumulated into a dense cube over the plan's
 * dimensions (plotted axis values only); each cell holds, per column, the
 * mean over the rows that fall in it, which are the random draws of the
 * averaged axes (`seed`).  After the scan the cube is thinned, axis by axis,
 * until its non-empty cells fit the page's budget, and written as JSON with
 * only the non-empty cells. */
#include "report/report_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int pascal_report_cube_init(rp_cube *c, const rp_file *f, const rp_plan *p, pascal_error *err)
{
    memset(c, 0, sizeof *c);
    c->cells = 1;
    c->ncols = p->ncols;
    for (int d = p->ndims - 1; d >= 0; d--) {
        const rp_axis *a = &f->axes[p->dims[d]];
        c->stride[d] = c->cells;
        c->cells *= a->nkeep;
        c->acc_n[d] = a->nkeep;
        if (!(c->acc_kept[d] = malloc((size_t)a->nkeep * sizeof(int64_t))))
            return pascal_error_set(err, PASCAL_ENOMEM, "out of memory");
        memcpy(c->acc_kept[d], a->kept, (size_t)a->nkeep * sizeof(int64_t));
    }
    c->sum = calloc((size_t)(c->cells * c->ncols), sizeof *c->sum);
    c->cnt = calloc((size_t)(c->cells * c->ncols), sizeof *c->cnt);
    c->rows = calloc((size_t)c->cells, sizeof *c->rows);
    if (!c->sum || !c->cnt || !c->rows)
        return pascal_error_set(err, PASCAL_ENOMEM, "out of memory for %lld plot cells",
                                (long long)c->cells);
    return 0;
}

void pascal_report_cube_add(rp_cube *c, int64_t cell, const double *v)
{
    double *s = c->sum + cell * c->ncols;
    uint32_t *n = c->cnt + cell * c->ncols;
    for (int j = 0; j < c->ncols; j++)
        if (!isnan(v[j]) && !isinf(v[j])) {
            s[j] += v[j];
            n[j]++;
        }
    c->rows[cell]++;
}

/* Index of a dense cell among the plotted cells after thinning, or -1 when
 * one of its axis values is no longer plotted. */
static int64_t final_index(const rp_cube *c, const rp_file *f, const rp_plan *p, int64_t cell)
{
    int64_t idx = 0;
    for (int d = 0; d < p->ndims; d++) {
        const rp_axis *a = &f->axes[p->dims[d]];
        int64_t pos = (cell / c->stride[d]) % c->acc_n[d];
        int64_t fp = a->keep_of[c->acc_kept[d][pos]];
        if (fp < 0)
            return -1;
        idx = idx * a->nkeep + fp;
    }
    return idx;
}

int64_t pascal_report_cube_nonempty(const rp_cube *c, const rp_file *f, const rp_plan *p)
{
    int64_t n = 0;
    for (int64_t i = 0; i < c->cells; i++)
        if (c->rows[i] && final_index(c, f, p, i) >= 0)
            n++;
    return n;
}

int pascal_report_cube_fit(rp_cube *c, rp_file *f, const rp_plan *p, int64_t budget,
                           pascal_error *err)
{
    for (;;) {
        int pick;
        if (pascal_report_cube_nonempty(c, f, p) * p->ncols <= budget)
            return 0;
        if ((pick = pascal_report_axis_to_thin(f, p)) < 0)
            return 0; /* nothing left to thin: the page is as small as it gets */
        if (pascal_report_thin_axis(&f->axes[pick], (f->axes[pick].nkeep + 1) / 2, err))
            return err->code;
    }
}

int64_t pascal_report_cube_json(const rp_cube *c, const rp_file *f, const rp_plan *p, FILE *o)
{
    int64_t n = 0, *fi = malloc((size_t)c->cells * sizeof *fi);
    if (!fi)
        return -1;
    for (int64_t i = 0; i < c->cells; i++)
        fi[i] = c->rows[i] ? final_index(c, f, p, i) : -1;
    fprintf(o, "\"dims\":[");
    for (int d = 0; d < p->ndims; d++) {
        fprintf(o, d ? "," : "");
        pascal_report_json_str(o, f->axes[p->dims[d]].name);
    }
    fprintf(o, "],\"shape\":[");
    for (int d = 0; d < p->ndims; d++)
        fprintf(o, "%s%lld", d ? "," : "", (long long)f->axes[p->dims[d]].nkeep);
    fprintf(o, "],\"cells\":[");
    for (int64_t i = 0; i < c->cells; i++)
        if (fi[i] >= 0)
            fprintf(o, "%s%lld", n++ ? "," : "", (long long)fi[i]);
    fprintf(o, "],\"columns\":{");
    for (int j = 0; j < c->ncols; j++) {
        int first = 1;
        fprintf(o, j ? "," : "");
        pascal_report_json_key(o, p->cols[j].name);
        fprintf(o, "[");
        for (int64_t i = 0; i < c->cells; i++) {
            size_t at = (size_t)(i * c->ncols + j);
            if (fi[i] < 0)
                continue;
            fprintf(o, first ? "" : ",");
            first = 0;
            pascal_report_json_num(o, c->cnt[at] ? c->sum[at] / c->cnt[at] : NAN, 6);
        }
        fprintf(o, "]");
    }
    fprintf(o, "}");
    free(fi);
    return n;
}

void pascal_report_cube_free(rp_cube *c)
{
    free(c->sum);
    free(c->cnt);
    free(c->rows);
    for (int d = 0; d < RP_MAX_AXES; d++)
        free(c->acc_kept[d]);
    memset(c, 0, sizeof *c);
}

int pascal_report_cube_has(const rp_cube *c, const rp_file *f, const rp_plan *p, int col)
{
    for (int64_t i = 0; col >= 0 && i < c->cells; i++)
        if (c->cnt[(size_t)(i * c->ncols + col)] && final_index(c, f, p, i) >= 0)
            return 1;
    return 0;
}
