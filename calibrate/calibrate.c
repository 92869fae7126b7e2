/* `pascal calibrate` as a library call (calibrate/calibrate.h): resolve the
 * device facts, read and check the references, fit every key, cross-validate
 * (the band radius needs out-of-fold errors, so this always runs; the
 * baselines only on request), freeze the band into the model and write the
 * file.  Nothing is created unless every step before writing succeeded. */
#include "calibrate/calibrate.h"
#include "devices/profile.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/clock.h"
#include "output/calibration.h"
#include "output/digest.h"
#include "output/fs/lock.h"
#include "output/fs/tmpfile.h"

pascal_calibrate_opts pascal_calibrate_default_opts(void)
{
    pascal_calibrate_opts o;
    memset(&o, 0, sizeof o);
    o.sms = o.C = o.capacity_bytes = NAN;
    /* unset: what the reference file's header says, else the paper's
     * calibrated scope, 16 KiB blocks */
    o.block_bytes = NAN;
    o.eta = PASCAL_DYN_ETA;
    o.cv = pascal_cv_default_opts();
    return o;
}

void pascal_calibrate_result_free(pascal_calibrate_result *r)
{
    if (!r)
        return;
    pascal_calibrate_refs_free(&r->refs);
    pascal_dyn_agg_free(r->agg);
    pascal_dyn_model_free(r->model);
    pascal_calibrate_cv_free(&r->cv);
    pascal_calibrate_levels_free(r);
    r->agg = NULL;
    r->model = NULL;
}

/* A fact the options or the profile give that the reference file's header
 * contradicts: the references were measured on another cache. */
static int contradicts(const pascal_calibrate_opts *o, const pascal_refs_facts *h,
                       const char *what, double given, const char *from, double header,
                       pascal_error *err)
{
    return pascal_error_set(err, PASCAL_EINPUT,
                            "%s:%lld: expected references measured at the %s %s gives (%.17g), "
                            "got %.17g in the file's header (sms: %.17g, C: %.17g blocks of %.17g "
                            "bytes): calibrate them with the cache they were measured on",
                            o->refs_path, (long long)h->line, what, from, given, header, h->sms,
                            h->C, h->block_bytes);
}

/* sms, C and block_bytes from the options, the reference file's header and
 * the profile: a flag first, then the header (what the runs were measured
 * at), then the profile; a flag or profile the header contradicts is
 * refused. */
static int device_facts(const pascal_calibrate_opts *o, pascal_calibrate_result *r,
                        pascal_error *err)
{
    pascal_device_facts dev;
    pascal_refs_facts h;
    double cap = o->capacity_bytes;
    int rc;
    memset(&dev, 0, sizeof dev);
    dev.sms = dev.capacity_bytes = NAN;
    if (o->device_path && (rc = pascal_device_facts_load(o->device_path, &dev, err)))
        return rc;
    pascal_calibrate_refs_facts(o->refs_path, &h);
    r->par = pascal_dyn_default_params();
    r->par.eta = o->eta;
    r->par.block_bytes = !isnan(o->block_bytes) ? o->block_bytes : h.have ? h.block_bytes : 16384;
    if (h.have && !isnan(o->block_bytes) && o->block_bytes != h.block_bytes)
        return contradicts(o, &h, "block size", o->block_bytes, "--block-bytes", h.block_bytes, err);
    r->par.sms = isnan(o->sms) ? dev.sms : o->sms;
    if (h.have && !isnan(r->par.sms) && r->par.sms != h.sms)
        return contradicts(o, &h, "SM count", r->par.sms, isnan(o->sms) ? "the device profile" : "--sms",
                           h.sms, err);
    if (isnan(r->par.sms) && h.have)
        r->par.sms = h.sms;
    if (!isnan(o->C) || !isnan(cap) || !h.have) {
        if (isnan(cap))
            cap = dev.capacity_bytes;
        r->par.C = !isnan(o->C) ? o->C : floor(cap / r->par.block_bytes);
        if (h.have && isnan(h.C) && (!isnan(o->C) || !isnan(o->capacity_bytes)))
            return pascal_error_set(err, PASCAL_EINPUT,
                                    "%s:%lld: %s: expected no capacity for references that give "
                                    "their own per run (the header says \"C: per row\"), got %.17g "
                                    "blocks", o->refs_path, (long long)h.line,
                                    !isnan(o->C) ? "--C" : "--capacity-bytes", r->par.C);
        if (h.have && isnan(h.C))
            r->par.C = NAN; /* the rows say */
        else if (h.have && r->par.C != h.C)
            return contradicts(o, &h, "capacity in blocks", r->par.C,
                               !isnan(o->C) ? "--C" : "--capacity-bytes", h.C, err);
    } else {
        r->par.C = h.C; /* what the runs were measured at, whatever the profile says now */
    }
    if (!(r->par.sms >= 1))
        return pascal_error_set(err, PASCAL_EINPUT,
                                "calibrate: sms: expected the number of SMs (a device profile or "
                                "--sms), got none");
    snprintf(r->prov.device, sizeof r->prov.device, "%s", dev.name);
    snprintf(r->prov.device_path, sizeof r->prov.device_path, "%s",
             o->device_path ? o->device_path : "");
    return 0;
}

/* Anchored and templated keys and families, summed over the levels. */
static void count_completion(pascal_calibrate_result *r)
{
    for (int64_t l = 0; l < pascal_dyn_model_levels(r->model); l++) {
        const pascal_dyn_model *m = pascal_dyn_model_level(r->model, l);
        pascal_dyn_key prev = {0, 0, 0, 0};
        for (int64_t i = 0; i < pascal_dyn_model_nkeys(m); i++) {
            pascal_dyn_key k;
            unsigned fl;
            pascal_dyn_model_curve(m, i, &k, NULL, NULL, NULL, &fl);
            r->anchored += (fl & PASCAL_DYN_ANCHORED) != 0;
            r->templated += (fl & PASCAL_DYN_TEMPLATED) != 0;
            r->families += i == 0 || k.o != prev.o || k.path != prev.path || k.d != prev.d;
            prev = k;
        }
    }
}

/* The runs' C column against the capacity the options, header or profile
 * give: a file without one is at r->par.C; a file with one value in it is
 * at that value (a flag that says otherwise is refused); a file with
 * several is a ladder (r->par.C NaN). */
static int capacities(const pascal_calibrate_opts *o, pascal_calibrate_result *r, int *ladder,
                      pascal_error *err)
{
    const pascal_refs *f = &r->refs;
    int several = 0;
    int flag = !isnan(o->C) || !isnan(o->capacity_bytes);
    *ladder = 0;
    if (!f->have_C) {
        if (r->par.C >= 1)
            return 0;
        return pascal_error_set(err, PASCAL_EINPUT,
                                "calibrate: C: expected a capacity of at least one block (a device "
                                "profile, --capacity-bytes, --C or a C column in the references), "
                                "got %s", isnan(r->par.C) ? "none" : "less than one block");
    }
    for (int64_t i = 1; i < f->n; i++)
        several |= f->rows[i].C != f->rows[0].C;
    if (!flag || (!several && r->par.C == f->rows[0].C)) {
        /* what the runs were measured at, whatever the profile says now */
        r->par.C = several ? NAN : f->rows[0].C;
        *ladder = several;
        return 0;
    }
    for (int64_t i = 0; i < f->n; i++)
        if (f->rows[i].C != r->par.C)
            return pascal_error_set(err, PASCAL_EINPUT,
                                    "%s:%lld: C: expected the capacity %s gives (%.17g blocks), "
                                    "got %.17g (the references give each run's capacity: leave "
                                    "the flag out)", o->refs_path, (long long)f->line[i],
                                    !isnan(o->C) ? "--C" : "--capacity-bytes", r->par.C, f->rows[i].C);
    return 0;
}

static int fit_all(const pascal_calibrate_opts *o, pascal_calibrate_result *r,
                   pascal_error *err)
{
    int ladder, rc = capacities(o, r, &ladder, err);
    if (rc)
        return rc;
    if (ladder) {
        if ((rc = pascal_calibrate_ladder(r, &o->cv, err)))
            return rc;
        count_completion(r);
        return 0;
    }
    rc = pascal_dyn_aggregate(r->refs.rows, r->refs.n, r->par.N0, &r->agg);
    if (rc == -1)
        return pascal_error_set(err, PASCAL_EINPUT,
                                "calibrate: expected at most %d distinct horizons per key, got more",
                                PASCAL_DYN_MAX_KNOTS);
    if (rc || pascal_dyn_fit(r->agg, -1, &r->par, &r->model) != 0)
        return pascal_error_set(err, PASCAL_ENOMEM, "calibrate: out of memory");
    count_completion(r);
    if ((rc = pascal_calibrate_cv(&r->refs, r->agg, &r->par, &o->cv, &r->cv, err)))
        return rc;
    pascal_dyn_model_set_band(r->model, r->cv.band_radius);
    return 0;
}

static int fit_and_save(const pascal_calibrate_opts *o, pascal_calibrate_result *r,
                        pascal_error *err);

int pascal_calibrate_run(const pascal_calibrate_opts *o, pascal_calibrate_result *r,
                         pascal_error *err)
{
    double t0 = pascal_now();
    pascal_lock *lock = NULL;
    int rc;
    memset(r, 0, sizeof *r);
    r->prov.cv = o->cv;
    r->prov.cv_baselines = o->cv.baselines;
    snprintf(r->prov.input, sizeof r->prov.input, "%s", o->refs_path);
    snprintf(r->prov.command_line, sizeof r->prov.command_line, "%s",
             o->command_line ? o->command_line : "");
    if (!(isnan(o->block_bytes) || o->block_bytes >= 1) || !(o->eta >= 0))
        return pascal_error_set(err, PASCAL_EINPUT, "calibrate: expected block_bytes >= 1 and eta >= 0");
    if (o->out_path) {
        /* Before any work: the model file is no input, and no one else
         * writes it (output/fs/lock.h). */
        pascal_input in[2] = {{"reference file", o->refs_path}, {"device profile", o->device_path}};
        if ((rc = pascal_output_claim(o->out_path, in, 2,
                                      o->command_line ? o->command_line : "pascal calibrate",
                                      &lock, err)))
            return rc;
        pascal_tmpfile_clean(o->out_path, NULL);
    }
    rc = fit_and_save(o, r, err);
    pascal_output_release(lock);
    r->seconds = pascal_now() - t0;
    return rc;
}

static int fit_and_save(const pascal_calibrate_opts *o, pascal_calibrate_result *r,
                        pascal_error *err)
{
    int rc;
    if ((rc = device_facts(o, r, err)) ||
        (rc = pascal_calibrate_read_refs(o->refs_path, r->par.sms, &r->refs, err)) ||
        (rc = pascal_digest_file(o->refs_path, r->prov.input_sha256, err)) ||
        (rc = fit_all(o, r, err)))
        return rc;
    /* The claim found the destination writable: a failure now (a full
     * disk) is a failure while running. */
    if (o->out_path)
        rc = pascal_calibrate_save(o->out_path, r->model, &r->refs, &r->cv, r->lev, r->nlev,
                                   &r->prov, err);
    return rc;
}
