/* The output side of a sweep run: claim, digests, leftovers (run_guard.h). */
#include "engine/run_guard.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "output/calibration.h"
#include "output/digest.h"
#include "output/fs/tmpfile.h"

int pascal_run_claim(const pascal_spec *spec, const pascal_run_opts *o, pascal_lock **lock,
                     pascal_error *err)
{
    pascal_input in[3 + PASCAL_SPEC_MAX_DEVICES] = {
        {"spec", pascal_spec_filename(spec)},
        {"device profile", pascal_spec_device_path(spec)},
        {"calibration", pascal_spec_calibration(spec, NULL, NULL)},
    };
    int n = 3;
    /* A device axis: every profile is an input (device_path joins them). */
    if (pascal_spec_ndevices(spec))
        in[1].path = "";
    for (int k = 0; k < pascal_spec_ndevices(spec); k++)
        in[n++] = (pascal_input){"device profile", pascal_spec_device_path_k(spec, k)};
    *lock = NULL;
    if (!o->out_path || o->dry_run)
        return 0;
    return pascal_output_claim(o->out_path, in, n, o->command_line ? o->command_line : "pascal run",
                               lock, err);
}

int pascal_run_digests_make(const pascal_spec *spec, const pascal_column_desc *points,
                            int npoint, const pascal_column_desc *results, int nresult,
                            pascal_run_digests *d, pascal_error *err)
{
    const char *text = pascal_spec_text(spec), *dev = pascal_spec_device_text(spec);
    const char *cal = pascal_spec_calibration(spec, NULL, NULL);
    pascal_digest_bytes(text, strlen(text), d->spec);
    if (dev[0])
        pascal_digest_bytes(dev, strlen(dev), d->device);
    else
        d->device[0] = '\0';
    d->calibration[0] = '\0';
    /* The bytes the run loaded its model from (a calibration is read whole
     * before any point is evaluated). */
    if (cal[0] && pascal_digest_file(cal, d->calibration, err) != 0)
        return err->code = PASCAL_EINPUT;
    pascal_digest_columns(points, npoint, results, nresult, d->columns);
    d->attrs[0] = (pascal_attr){"device_path", pascal_spec_device_path(spec)};
    d->attrs[1] = (pascal_attr){"sha256_spec", d->spec};
    d->attrs[2] = (pascal_attr){"sha256_device", d->device};
    d->attrs[3] = (pascal_attr){"sha256_calibration", d->calibration};
    d->attrs[4] = (pascal_attr){"sha256_columns", d->columns};
    return 0;
}

static int exists(const char *dest, const char *suffix)
{
    char path[4096];
    struct stat st;
    snprintf(path, sizeof path, "%s%s", dest, suffix);
    return stat(path, &st) == 0;
}

int pascal_run_prepare_output(const pascal_sink_meta *m, const pascal_column_desc *points,
                              int npoint, const pascal_column_desc *results, int nresult,
                              int *resume, pascal_run_stats *st, pascal_error *err)
{
    int64_t recovered = -1;
    int rc;
    if (strcmp(m->path, "-") == 0)
        return 0;
    if (*resume && m->format == PASCAL_SINK_HDF5) {
        if ((rc = pascal_sink_recover(m, points, npoint, results, nresult, &recovered, err)))
            return rc;
        st->rows_recovered = recovered > 0 ? (uint64_t)recovered : 0;
    }
    if (!*resume)
        pascal_sink_forget(m->path);
    st->temporaries_removed = (uint64_t)pascal_tmpfile_clean(m->path, NULL);
    /* and journals a kill stopped before they were whole (h5_journal.c) */
    if (m->format == PASCAL_SINK_HDF5) {
        char journal[4096];
        snprintf(journal, sizeof journal, "%s.journal", m->path);
        st->temporaries_removed += (uint64_t)pascal_tmpfile_clean(journal, NULL);
    }
    if (*resume && m->format == PASCAL_SINK_HDF5 && !exists(m->path, ".partial")) {
        *resume = 0; /* a run killed before its first chunk: start over */
        st->resumed_nothing = 1;
    }
    return 0;
}
