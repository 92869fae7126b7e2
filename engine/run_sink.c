/* What a sweep run tells its sink (output/sink.h): the point and result
 * columns, described from the vocabulary (vocab/params.h), and the output's
 * provenance attributes, input digests, axes and phase lists; then the sink
 * itself, a new file or the partial file of an interrupted run. */
#include "engine/run_private.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/run_guard.h"
#include "sweeps/sample.h"

int pascal_run_point_params(const pascal_spec *spec, int ids[PASCAL_NPARAM])
{
    int n = 0, seen[PASCAL_NPARAM] = {0};
    /* A workload derives block_bytes too (docs/workloads.md). */
    static const int derived[] = {PASCAL_P_N, PASCAL_P_M, PASCAL_P_C, PASCAL_P_BLOCK_BYTES};
    int nderived = isnan(pascal_spec_fixed(spec)->v[PASCAL_P_WORKLOAD]) ? 3 : 4;
    for (int i = 0; i < pascal_spec_naxes(spec); i++) {
        int id = pascal_spec_axis(spec, i)->param;
        seen[id] = 1;
        ids[n++] = id;
    }
    for (int k = 0; k < nderived; k++)
        if (!seen[derived[k]])
            ids[n++] = derived[k];
    /* A device axis: what each point took from its profile. */
    static const int from_device[] = {PASCAL_P_SMS, PASCAL_P_CAPACITY_BYTES};
    for (int k = 0; k < 2 && pascal_spec_ndevices(spec); k++)
        if (!seen[from_device[k]])
            ids[n++] = from_device[k];
    return n;
}

static pascal_coltype param_coltype(int id)
{
    switch (pascal_params[id].type) {
    case PASCAL_T_REAL: return PASCAL_COLTYPE_F64;
    case PASCAL_T_PATTERN: return PASCAL_COLTYPE_ENUM;
    case PASCAL_T_PATH: return PASCAL_COLTYPE_ENUM;
    case PASCAL_T_NAME: return PASCAL_COLTYPE_ENUM;
    default: return PASCAL_COLTYPE_I64;
    }
}

static void describe_param(const pascal_spec *spec, pascal_column_desc *d, int id)
{
    d->name = pascal_params[id].name;
    d->units = pascal_params[id].units;
    d->description = pascal_params[id].description;
    d->type = param_coltype(id);
    d->labels = pascal_spec_param_labels(spec, id, &d->nlabels);
}

/* The sink's parallel_for: called from the batch loop's single thread, its
 * tasks run on the team's other threads, which wait at that construct's
 * barrier; outside a parallel region it runs in the calling thread. */
static void team_parallel_for(int n, void (*body)(void *arg, int i), void *arg)
{
#pragma omp taskloop grainsize(1)
    for (int i = 0; i < n; i++)
        body(arg, i);
}

void pascal_run_plan_columns(const pascal_spec *spec, sink_plan *sp)
{
    const int *cols = pascal_spec_columns(spec);
    sp->npc = pascal_run_point_params(spec, sp->pids);
    for (int j = 0; j < sp->npc; j++)
        describe_param(spec, &sp->pcols[j], sp->pids[j]);
    for (int j = 0; j < pascal_spec_ncolumns(spec); j++) {
        const pascal_column_info *c = &pascal_columns[cols[j]];
        sp->rcols[j] = (pascal_column_desc){c->name, c->units, c->description,
                                            PASCAL_COLTYPE_F64, NULL, 0};
    }
}

/* A new file, or (resume) the partial file of the interrupted run, which a
 * refused resume leaves as it was. */
static int attach_sink(const pascal_sink_meta *m, const sink_plan *sp, int nres, int resume,
                       pascal_run_stats *st, pascal_sink **sink, pascal_error *err)
{
    int64_t kept = 0;
    int rc;
    if (!resume)
        return pascal_sink_open(m, sp->pcols, sp->npc, sp->rcols, nres, sink, err);
    rc = pascal_sink_resume(m, sp->pcols, sp->npc, sp->rcols, nres, sink, &kept, err);
    st->rows_resumed = (uint64_t)kept;
    if (rc == 0 && st->rows_resumed > st->rows) {
        pascal_sink_suspend(*sink, &kept, NULL);
        *sink = NULL;
        rc = pascal_error_set(err, PASCAL_EINPUT, "%s.partial: holds %llu rows, this run has "
                              "%llu", m->path, (unsigned long long)st->rows_resumed,
                              (unsigned long long)st->rows);
    }
    return rc;
}

/* A sampled spec's file says how its rows were drawn: sample_method,
 * sample_n, sample_seed, sample_inner, sample_intervals (the axes whose
 * /axes entry is the interval's two ends) and its own row_order. */
static int sample_attrs(const pascal_spec *spec, pascal_attr *a, int n, char s[4][64],
                        char *intervals, size_t len)
{
    const pascal_sample_info *si = pascal_spec_sample(spec);
    size_t off = 0;
    if (!si)
        return n;
    snprintf(s[0], 64, "%s", pascal_sample_method_names[si->method]);
    snprintf(s[1], 64, "%llu", (unsigned long long)si->n);
    if (si->method == PASCAL_SAMPLE_SOBOL)
        snprintf(s[2], 64, "none");
    else
        snprintf(s[2], 64, "%llu", (unsigned long long)si->seed);
    snprintf(s[3], 64, "%s", si->inner_grid ? "grid" : "sample");
    intervals[0] = '\0';
    for (int i = 0; i < pascal_spec_naxes(spec) && off < len; i++)
        if (pascal_spec_axis_interval(spec, i))
            off += (size_t)snprintf(intervals + off, len - off, "%s%s", off ? "," : "",
                                    pascal_params[pascal_spec_axis(spec, i)->param].name);
    for (int k = 0; k < n; k++)
        if (strcmp(a[k].key, "row_order") == 0)
            a[k].value = si->inner_grid
                             ? "sampled: draw j of sample_n in order, then the capacity-like axes "
                               "mixed-radix over /axes in listed order, last fastest; `where` drops rows"
                             : "sampled: draw j of sample_n in order; `where` drops rows";
    a[n++] = (pascal_attr){"sample_method", s[0]};
    a[n++] = (pascal_attr){"sample_n", s[1]};
    a[n++] = (pascal_attr){"sample_seed", s[2]};
    a[n++] = (pascal_attr){"sample_inner", s[3]};
    a[n++] = (pascal_attr){"sample_intervals", intervals};
    return n;
}

/* Provenance attributes, input digests, axes and phase lists of the output;
 * rm->lists and rm->lens are the caller's to free. */
int pascal_run_make_meta(const pascal_spec *spec, const pascal_run_opts *o,
                         const pascal_run_stats *st, sink_plan *sp, run_meta *rm,
                         pascal_error *err)
{
    pascal_spec_output so = pascal_spec_output_options(spec);
    pascal_sink_meta *m = &rm->m;
    int64_t nl = pascal_spec_nphase_lists(spec);
    int rc, nres = pascal_spec_ncolumns(spec);
    pascal_attr attrs[7] = {
        {"shard", rm->shard},
        {"raw_range", rm->range},
        {"spec_name", pascal_spec_name(spec)},
        {"device", pascal_spec_device_text(spec)},
        {"calibration", pascal_spec_calibration(spec, NULL, NULL)},
        {"row_order", "canonical: mixed-radix over /axes in listed order, last fastest; "
                      "capacity-like axes innermost; `where` drops rows"},
        {"answer", NULL},
    };
    int nattrs;
    rm->lists = NULL;
    rm->lens = NULL;
    /* Shard k/n of the raw indices [begin, end): pascal_h5_merge checks these. */
    snprintf(rm->shard, sizeof rm->shard, "%d/%d", o->shard_count > 1 ? o->shard_index : 1,
             o->shard_count > 1 ? o->shard_count : 1);
    snprintf(rm->range, sizeof rm->range, "%llu %llu", (unsigned long long)st->raw_begin,
             (unsigned long long)st->raw_end);
    if ((rc = pascal_run_digests_make(spec, sp->pcols, sp->npc, sp->rcols, nres, &rm->dg, err)))
        return rc;
    /* Who answers answer_traffic (docs/workloads.md section 3.1). */
    if ((!isnan(pascal_spec_fixed(spec)->v[PASCAL_P_WORKLOAD]) || pascal_spec_is_step(spec)) &&
        pascal_answer_describe(pascal_spec_models(spec), rm->answer, sizeof rm->answer)) {
        attrs[6].value = rm->answer;
        size_t n = strlen(rm->answer);
        if (pascal_answer_of_models(pascal_spec_models(spec)) == PASCAL_ANSWER_SIMULATE)
            snprintf(rm->answer + n, sizeof rm->answer - n, "; band: answer_traffic_lo (the "
                     "lock-step kernel) .. answer_traffic_hi (p90 of band_seeds free-running "
                     "simulations)");
    }
    memcpy(rm->attrs, attrs, sizeof attrs);
    memcpy(rm->attrs + 7, rm->dg.attrs, sizeof rm->dg.attrs);
    nattrs = sample_attrs(spec, rm->attrs, 7 + 5, rm->sample, rm->intervals, sizeof rm->intervals);
    for (int a = 0; a < pascal_spec_naxes(spec); a++) {
        const pascal_axis *ax = pascal_spec_axis(spec, a);
        pascal_column_desc d;
        describe_param(spec, &d, ax->param);
        sp->axes[a] = (pascal_axis_desc){d.name, d.type, d.units, d.labels, d.nlabels,
                                         ax->count, ax->values};
        sp->axis_dims[a] = pascal_spec_axis_sampled(spec, a) ? -1 : ax->dim;
    }
    if (nl > 0) {
        rm->lists = malloc((size_t)nl * sizeof *rm->lists);
        rm->lens = malloc((size_t)nl * sizeof *rm->lens);
        if (!rm->lists || !rm->lens)
            return pascal_error_set(err, PASCAL_ENOMEM, "out of memory");
        for (int64_t i = 0; i < nl; i++)
            rm->lists[i] = pascal_spec_phase_list(spec, i, &rm->lens[i]);
    }
    memset(m, 0, sizeof *m);
    m->format = o->format;
    m->path = o->out_path;
    m->compression = o->compression >= 0 ? o->compression : so.compression;
    m->shuffle = so.shuffle;
    m->chunk_rows = so.chunk_rows;
    m->spec_text = pascal_spec_text(spec);
    m->spec_path = pascal_spec_filename(spec);
    m->command_line = o->command_line ? o->command_line : "";
    m->threads = st->threads;
    m->attrs = rm->attrs;
    m->nattrs = nattrs;
    m->axes = sp->axes;
    m->naxes = pascal_spec_naxes(spec);
    m->nphase_lists = nl;
    m->phase_lists = rm->lists;
    m->phase_list_lens = rm->lens;
    m->parallel_for = team_parallel_for;
    m->expected_rows = (int64_t)st->rows;
    m->axis_dims = sp->axis_dims;
    m->journal = o->format == PASCAL_SINK_HDF5;
    m->stop_flag = o->stop_flag;
    m->should_stop = o->stop_flag ? NULL : o->should_stop;
    m->stop_ctx = o->stop_ctx;
    return 0;
}

int pascal_run_open_sink(const pascal_spec *spec, const pascal_run_opts *o,
                         pascal_run_stats *st, sink_plan *sp, pascal_sink **sink,
                         pascal_error *err)
{
    run_meta rm;
    int rc, resume = o->resume, nres = pascal_spec_ncolumns(spec);
    rc = pascal_run_make_meta(spec, o, st, sp, &rm, err);
    if (rc == 0)
        rc = pascal_run_prepare_output(&rm.m, sp->pcols, sp->npc, sp->rcols, nres, &resume, st,
                                       err);
    if (rc == 0)
        rc = attach_sink(&rm.m, sp, nres, resume, st, sink, err);
    free(rm.lists);
    free(rm.lens);
    return rc;
}
