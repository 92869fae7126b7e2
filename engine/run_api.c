/* The public face of the run and of sizing (pascal/run.h): plain options
 * and summaries over pascal_run and pascal_size_run, whose fuller options
 * and statistics (the headline, planning callbacks, MPI figures) stay
 * inside the library and its command. */
#include "pascal/run.h"

#include <math.h>
#include <string.h>

#include "engine/run.h"
#include "engine/size.h"
#include "sweeps/search.h"

int pascal_run_sweep(const pascal_spec *spec, const pascal_run_options *opts,
                     pascal_run_summary *summary, pascal_error *err)
{
    pascal_run_opts o;
    pascal_run_stats st;
    int rc;
    memset(&o, 0, sizeof o);
    o.out_path = opts->out_path;
    o.format = opts->format == PASCAL_FORMAT_CSV ? PASCAL_SINK_CSV : PASCAL_SINK_HDF5;
    o.threads = opts->threads;
    /* the internal options say < 0 for the spec's choice and 0 for none */
    o.compression = opts->compression == 0 ? -1 : opts->compression < 0 ? 0 : opts->compression;
    o.resume = opts->resume;
    o.shard_index = opts->shard_index;
    o.shard_count = opts->shard_count;
    o.command_line = opts->command_line;
    o.progress = opts->progress;
    o.progress_ctx = opts->ctx;
    o.should_stop = opts->should_stop;
    o.stop_ctx = opts->ctx;
    rc = pascal_run(spec, &o, &st, err);
    if (summary) {
        summary->raw_points = st.raw_points;
        summary->rows = st.rows;
        summary->rows_done = st.rows_done;
        summary->rows_resumed = st.rows_resumed;
        summary->threads = st.threads;
        summary->plan_seconds = st.plan_seconds;
        summary->eval_seconds = st.eval_seconds;
        summary->total_seconds = st.total_seconds;
    }
    return rc;
}

int pascal_size_worst(const pascal_spec *spec, const char *target, int threads,
                      pascal_size_answer *answer, pascal_error *err)
{
    const pascal_search *search = pascal_spec_search(spec);
    pascal_size_opts o;
    pascal_size_stats st;
    size_t off;
    int rc;
    memset(&o, 0, sizeof o);
    memset(answer, 0, sizeof *answer);
    answer->C = -1;
    answer->capacity_bytes = answer->value = NAN;
    if (target) {
        if ((rc = pascal_target_parse(target, &o.target, &off, err)) != 0) {
            pascal_error_prefix(err, "target \"%s\", at character %zu", target, off + 1);
            return rc;
        }
    } else if (search) {
        o.target = search->target;
    } else {
        return pascal_error_set(err, PASCAL_EINPUT, "%s: expected a target like 'rho_lru <= 0.05' "
                                "or a search: section, got neither", pascal_spec_filename(spec));
    }
    o.threads = threads;
    if ((rc = pascal_size_run(spec, &o, &st, err)) != 0)
        return rc;
    answer->scenarios = st.scenarios;
    answer->met = st.met;
    answer->worst_index = st.worst.index;
    answer->C = st.worst.C;
    answer->capacity_bytes = st.worst.capacity_bytes;
    answer->value = st.worst.value;
    answer->seconds = st.seconds;
    return 0;
}
