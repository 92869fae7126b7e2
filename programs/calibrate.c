/* pascal calibrate: fit the dynamic model (paper section 4) to reference
 * measurements and freeze it, with its cross-validation, into a file. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calibrate/calibrate.h"
#include "programs/cli.h"
#include "vocab/params.h"


static const char *usage_text =
    "usage: pascal calibrate REFS.csv|REFS.h5 (--device PROFILE | --sms N --C BLOCKS) -o MODEL.h5\n"
    "                        [--cv] [options]\n\n"
    "Fits the dynamic PASCAL model (paper section 4) to reference runs, a CSV with\n"
    "the header o,path,d,m,N,W,K (or HDF5 /references), and writes the frozen\n"
    "model with its provenance, leave-one-key-out figures and band.  --cv also\n"
    "scores the baselines on the same folds and prints the table.";

enum { F_OUT, F_DEVICE, F_SMS, F_C, F_CAPB, F_BLOCKB, F_ETA, F_CV, F_WMIN, F_KNN, F_RIDGE,
       F_TEST, F_COUNT };

static int read_flags(cli_flag *f, pascal_calibrate_opts *o)
{
    int64_t n;
    double v;
    if (f[F_SMS].given) {
        if (cli_int("calibrate", &f[F_SMS], 1, &n) != CLI_OK)
            return CLI_USAGE;
        o->sms = (double)n;
    }
    if (f[F_C].given) {
        if (cli_int("calibrate", &f[F_C], 1, &n) != CLI_OK)
            return CLI_USAGE;
        o->C = (double)n;
    }
    if (f[F_CAPB].given && cli_size("calibrate", &f[F_CAPB], &o->capacity_bytes) != CLI_OK)
        return CLI_USAGE;
    if (f[F_BLOCKB].given && cli_size("calibrate", &f[F_BLOCKB], &o->block_bytes) != CLI_OK)
        return CLI_USAGE;
    if (f[F_ETA].given && cli_real("calibrate", &f[F_ETA], 0, &o->eta) != CLI_OK)
        return CLI_USAGE;
    if (f[F_WMIN].given && cli_real("calibrate", &f[F_WMIN], 0, &o->cv.w_min) != CLI_OK)
        return CLI_USAGE;
    if (f[F_KNN].given) {
        if (cli_int("calibrate", &f[F_KNN], 1, &n) != CLI_OK || n > 64) {
            fprintf(stderr, "pascal calibrate: --knn-k: expected 1 to 64, got \"%s\"\n",
                    f[F_KNN].value);
            return CLI_USAGE;
        }
        o->cv.knn_k = (int)n;
    }
    if (f[F_RIDGE].given) {
        if (cli_real("calibrate", &f[F_RIDGE], 0, &v) != CLI_OK)
            return CLI_USAGE;
        o->cv.ridge_lambda = v;
    }
    o->cv.baselines = f[F_CV].given;
    o->device_path = f[F_DEVICE].value;
    o->out_path = f[F_OUT].value;
    if (!o->out_path) {
        fprintf(stderr, "pascal calibrate: -o/--output: expected an output path, got nothing\n");
        return CLI_USAGE;
    }
    if (!o->device_path && !f[F_SMS].given) {
        fprintf(stderr, "pascal calibrate: --device: expected a device profile (or --sms with --C), "
                        "got nothing\n");
        return CLI_USAGE;
    }
    return CLI_OK;
}

static void fmt_pct(double v, char *buf, size_t len)
{
    if (isnan(v))
        snprintf(buf, len, "-");
    else
        snprintf(buf, len, "%.2f", v);
}

static void print_row(FILE *f, const pascal_cv_key *k)
{
    char m[PASCAL_CV_NMETHOD][24];
    for (int q = 0; q < PASCAL_CV_NMETHOD; q++)
        fmt_pct(k->mape[q], m[q], sizeof m[q]);
    fprintf(f, "  %3lld %-4s %2lld %4lld %5lld %9.4g %8s %8s %8s %8s %8s %8s  %s\n", (long long)k->key.o,
            pascal_path_names[k->key.path], (long long)k->key.d,
            (long long)k->key.m, (long long)k->runs, k->K_geomean, m[0], m[1], m[2], m[3], m[4], m[5],
            pascal_dyn_code_name(k->code));
}

/* The keys PASCAL predicts, split by its rule: bracketed by same-class
 * references (eq. 24, or a reference key itself) or a fallback (the
 * nearest compute held, or across depths); MAPE (eq. 26) and beside it the
 * mean |ln(K_hat / K)|, which weighs an over- and an under-prediction by
 * the same factor alike. */
static void print_split(FILE *f, const pascal_cv_result *cv)
{
    static const struct { const char *what; unsigned codes; } part[3] = {
        {"bracketed keys", 1u << PASCAL_DYN_FB_NONE | 1u << PASCAL_DYN_FB_REFERENCE},
        {"fallback keys", 1u << PASCAL_DYN_FB_COMPUTE | 1u << PASCAL_DYN_FB_DEPTH |
                              1u << PASCAL_DYN_FB_REGIME},
        {"  of them across a regime", 1u << PASCAL_DYN_FB_REGIME},
    };
    for (int s = 0; s < 3; s++) {
        double mape[PASCAL_CV_NMETHOD], sle[PASCAL_CV_NMETHOD];
        char m[PASCAL_CV_NMETHOD][24], l[PASCAL_CV_NMETHOD][24], what[64];
        int64_t n;
        pascal_cv_split(cv, part[s].codes, mape, sle, &n);
        for (int q = 0; q < PASCAL_CV_NMETHOD; q++) {
            fmt_pct(mape[q], m[q], sizeof m[q]);
            if (isnan(sle[q]))
                snprintf(l[q], sizeof l[q], "-");
            else
                snprintf(l[q], sizeof l[q], "%.4f", sle[q]);
        }
        snprintf(what, sizeof what, "%s (%lld)", part[s].what, (long long)n);
        fprintf(f, "  %-32s %8s %8s %8s %8s %8s %8s\n", what, m[0], m[1], m[2], m[3], m[4], m[5]);
        fprintf(f, "  %-32s %8s %8s %8s %8s %8s %8s\n", "  mean |ln(K_hat/K)|", l[0], l[1], l[2], l[3],
                l[4], l[5]);
    }
}

static void print_table(FILE *f, const pascal_cv_result *cv, const pascal_calibrate_opts *o,
                        const char *title)
{
    char m[PASCAL_CV_NMETHOD][24];
    int best = -1;
    fprintf(f, "\n%s: key-balanced MAPE (eq. 26), %%, runs with W > %g\n", title, o->cv.w_min);
    fprintf(f, "  %3s %-4s %2s %4s %5s %9s %8s %8s %8s %8s %8s %8s  %s\n", "o", "path", "d", "m", "runs",
            "K_obs", "pascal", "aligned", "nearest", "knn", "ridge", "family", "rule");
    for (int64_t i = 0; i < cv->nkeys; i++)
        print_row(f, &cv->keys[i]);
    for (int q = 0; q < PASCAL_CV_NMETHOD; q++) {
        fmt_pct(cv->mape[q], m[q], sizeof m[q]);
        if (!isnan(cv->mape[q]) && (best < 0 || cv->mape[q] < cv->mape[best]))
            best = q;
    }
    fprintf(f, "  %-32s %8s %8s %8s %8s %8s %8s\n", "overall, keys PASCAL predicts", m[0], m[1], m[2],
            m[3], m[4], m[5]);
    for (int q = 0; q < PASCAL_CV_NMETHOD; q++)
        fmt_pct(cv->mape_all[q], m[q], sizeof m[q]);
    fprintf(f, "  %-32s %8s %8s %8s %8s %8s %8s\n", "overall, every scored key", m[0], m[1], m[2], m[3],
            m[4], m[5]);
    print_split(f, cv);
    if (best >= 0)
        fprintf(f, "  best: %s (%.2f%% over %lld keys; %lld keys rejected by PASCAL)\n",
                pascal_cv_method_names[best], cv->mape[best], (long long)cv->keys_predicted,
                (long long)cv->keys_rejected);
}

/* "12.34%", or "-" for NaN. */
static void pct(double v, char *buf, size_t len)
{
    if (isnan(v))
        snprintf(buf, len, "-");
    else
        snprintf(buf, len, "%.2f%%", v);
}

/* A calibration over several capacities: each level's runs, keys and
 * folds, and what leaving it out says of the interpolation in C. */
static void print_levels(FILE *f, const pascal_calibrate_opts *o, const pascal_calibrate_result *r)
{
    fprintf(f, "  capacities (blocks): runs, keys, leave-one-key-out PASCAL MAPE and log band "
               "radius; left out whole (W > %g): PASCAL from the others, nearest capacity alone, "
               "K = 1\n", o->cv.w_min);
    for (int64_t i = 0; i < r->nlev; i++) {
        const pascal_calibrate_level *l = &r->lev[i];
        char a[24], b[24], c[24], d[24];
        pct(l->cv.mape[PASCAL_CV_PASCAL], a, sizeof a);
        pct(l->lcoo.nkeys ? l->lcoo.mape[PASCAL_CV_PASCAL] : NAN, b, sizeof b);
        pct(l->lcoo.nkeys ? l->lcoo.mape[PASCAL_CV_NEAREST] : NAN, c, sizeof c);
        pct(l->lcoo.nkeys ? l->lcoo.mape[PASCAL_CV_ALIGNED] : NAN, d, sizeof d);
        fprintf(f, "    C %8.0f: %6lld runs %4lld keys  cv %8s band %6.4f  left out %8s %8s "
                   "%8s%s\n",
                l->C, (long long)l->refs.n, (long long)l->agg->nkeys, a,
                pascal_dyn_model_band(pascal_dyn_model_level(r->model, i)), b, c, d,
                l->lcoo.nkeys == 0 ? (i == 0 ? "  (smallest: not left out)" : "  (largest: not left out)")
                                   : "");
    }
}

static void print_summary(FILE *f, const pascal_calibrate_opts *o, const pascal_calibrate_result *r)
{
    char bb[32];
    double rb = r->cv.band_radius;
    pascal_size_format(r->par.block_bytes, bb, sizeof bb);
    fprintf(f, "pascal calibrate: %lld runs, %lld keys in %lld families from %s\n",
            (long long)r->refs.n, (long long)r->agg->nkeys, (long long)r->families, o->refs_path);
    if (r->nlev > 0) {
        fprintf(f, "  device %s: sms %.0f, %lld capacities of blocks of %s; eta %g, eps %g\n",
                r->prov.device[0] ? r->prov.device : "(flags)", r->par.sms, (long long)r->nlev, bb,
                r->par.eta, r->par.eps);
        print_levels(f, o, r);
    } else {
        fprintf(f, "  device %s: sms %.0f, C %.0f blocks of %s; eta %g, eps %g\n",
                r->prov.device[0] ? r->prov.device : "(flags)", r->par.sms, r->par.C, bb, r->par.eta,
                r->par.eps);
    }
    fprintf(f, "  completion: %lld keys with an initial anchor, %lld with a borrowed shape\n",
            (long long)r->anchored, (long long)r->templated);
    fprintf(f, "  leave-one-key-out: %lld keys, %lld scored runs (W > %g), PASCAL MAPE %.2f%%, "
               "%lld keys rejected, %.3f s\n",
            (long long)r->cv.nkeys, (long long)r->cv.runs_scored, o->cv.w_min,
            r->cv.mape[PASCAL_CV_PASCAL], (long long)r->cv.keys_rejected, r->cv.seconds);
    pascal_refs_dist dist;
    if (pascal_refs_distribution(&r->refs, o->cv.w_min, &dist) == 0 && dist.runs > 0) {
        fprintf(f, "  references (W > %g): K <= %g in %.1f%% of %lld runs; assuming K = 1 scores "
                   "%.2f%% (eq. 26 over %lld keys)\n", o->cv.w_min, PASCAL_REFS_NEAR_ONE,
                100.0 * (double)dist.near_one / (double)dist.runs, (long long)dist.runs,
                dist.aligned_mape, (long long)dist.keys);
        if (dist.groups > 0)
            fprintf(f, "  repeated runs: %lld (key, N, W) with several seeds; max K / min K: median "
                       "%.4f, 90th percentile %.4f, largest %.4f\n", (long long)dist.groups,
                    dist.spread_median, dist.spread_p90, dist.spread_max);
        else
            fprintf(f, "  repeated runs: none (one run per key, N and W: no seed spread to show)\n");
    }
    if (r->nlev > 0 && !isnan(rb))
        fprintf(f, "  band: each capacity its own (above); over every capacity's folds the %g "
                   "quantile of |log(K/K_hat)| is %.4f\n", o->cv.band_quantile, rb);
    else if (isnan(rb))
        fprintf(f, "  band: none (no scored out-of-fold run)\n");
    else
        fprintf(f, "  band: log radius %.4f (%g quantile of |log(K/K_hat)|): K x %.3f .. x %.3f\n",
                rb, o->cv.band_quantile, exp(-rb), exp(rb));
    if (o->cv.baselines)
        print_table(f, &r->cv, o, "leave-one-key-out cross-validation");
    fprintf(f, "%swrote %s (sha256 of the input %.16s...) in %.3f s\n", o->cv.baselines ? "\n" : "  ",
            o->out_path, r->prov.input_sha256, r->seconds);
}

/* --test on a calibration over several capacities: per capacity of the
 * test file and overall, key-balanced over the keys PASCAL predicts. */
static void print_ladder_test(FILE *f, const char *path, const pascal_refs *test,
                              const pascal_cv_result *ho, const pascal_calibrate_opts *o,
                              const pascal_calibrate_result *r)
{
    double caps[4096];
    int64_t ncap = 0;
    char a[24], b[24], c[24];
    fprintf(f, "\nheld-out test on %s (%lld runs at their capacities; calibrated %.0f to %.0f "
               "blocks): key-balanced MAPE (eq. 26), runs with W > %g\n",
            path, (long long)test->n, r->lev[0].C, r->lev[r->nlev - 1].C, o->cv.w_min);
    fprintf(f, "  %10s %6s %6s %9s %9s %9s %s\n", "C", "keys", "runs", "pascal", "nearest", "K = 1",
            "(nearest: the calibrated capacity nearest in log C alone)");
    for (int64_t i = 0; i < ho->nkeys && ncap < 4096; i++) {
        int64_t k = 0;
        while (k < ncap && caps[k] != ho->keys[i].C)
            k++;
        if (k == ncap)
            caps[ncap++] = ho->keys[i].C;
    }
    for (int64_t k = 0; k < ncap; k++) {
        double sum[PASCAL_CV_NMETHOD] = {0};
        int64_t keys = 0, runs = 0, out = 0;
        for (int64_t i = 0; i < ho->nkeys; i++) {
            const pascal_cv_key *x = &ho->keys[i];
            if (x->C != caps[k])
                continue;
            if (x->code >= PASCAL_DYN_UNSUPPORTED) {
                out++;
                continue;
            }
            for (int t = 0; t < PASCAL_CV_NMETHOD; t++)
                sum[t] += x->mape[t];
            keys++, runs += x->runs;
        }
        pct(keys ? sum[PASCAL_CV_PASCAL] / (double)keys : NAN, a, sizeof a);
        pct(keys ? sum[PASCAL_CV_NEAREST] / (double)keys : NAN, b, sizeof b);
        pct(keys ? sum[PASCAL_CV_ALIGNED] / (double)keys : NAN, c, sizeof c);
        fprintf(f, "  %10.0f %6lld %6lld %9s %9s %9s", caps[k], (long long)keys, (long long)runs, a, b,
                c);
        if (out)
            fprintf(f, "  %lld keys refused (outside the calibrated capacities)", (long long)out);
        fputc('\n', f);
    }
    pct(ho->mape[PASCAL_CV_PASCAL], a, sizeof a);
    pct(ho->mape[PASCAL_CV_NEAREST], b, sizeof b);
    pct(ho->mape[PASCAL_CV_ALIGNED], c, sizeof c);
    fprintf(f, "  %10s %6lld %6lld %9s %9s %9s  (%lld keys refused)\n", "overall",
            (long long)ho->keys_predicted, (long long)ho->runs_scored, a, b, c,
            (long long)ho->keys_rejected);
}

/* --test: the frozen fit against runs of keys it never saw. */
static int held_out(const char *path, const pascal_calibrate_opts *o,
                    const pascal_calibrate_result *r, pascal_error *err)
{
    pascal_refs test;
    pascal_cv_result ho;
    pascal_cv_opts cv = o->cv;
    char title[1200];
    int64_t shared = 0;
    int rc;
    rc = pascal_calibrate_read_refs(path, r->par.sms, &test, err);
    if (rc != 0) {
        fprintf(stderr, "pascal calibrate: --test: %s\n", err->msg);
        return rc;
    }
    if (r->nlev > 0) {
        if ((rc = pascal_calibrate_ladder_holdout(r, &cv, &test, &ho, err)) == 0) {
            print_ladder_test(stdout, path, &test, &ho, o, r);
            pascal_calibrate_cv_free(&ho);
        } else {
            fprintf(stderr, "pascal calibrate: --test: %s: %s\n", path, err->msg);
        }
        pascal_calibrate_refs_free(&test);
        return rc;
    }
    for (int64_t i = 0; i < test.n; i++) {
        pascal_dyn_key k = {test.rows[i].o, test.rows[i].path, test.rows[i].d, test.rows[i].m};
        shared += pascal_dyn_agg_find(r->agg, &k) >= 0;
    }
    cv.baselines = 1;
    if ((rc = pascal_calibrate_holdout(&r->refs, r->agg, r->model, &r->par, &cv, &test, &ho,
                                       err)) == 0) {
        snprintf(title, sizeof title, "held-out test on %s (%lld runs, %lld of them of a reference "
                 "key)", path, (long long)test.n, (long long)shared);
        print_table(stdout, &ho, o, title);
        pascal_calibrate_cv_free(&ho);
    } else {
        fprintf(stderr, "pascal calibrate: --test: %s\n", err->msg);
    }
    pascal_calibrate_refs_free(&test);
    return rc;
}


int cli_calibrate(int argc, char **argv)
{
    cli_flag flags[F_COUNT] = {
        [F_OUT] = {"output", "PATH", "model file (alias -o); written only when complete", 0, 0},
        [F_DEVICE] = {"device", "PROFILE", "device profile path or name (gb10; pascal list devices): sms and effective L2", 0, 0},
        [F_SMS] = {"sms", "N", "streaming multiprocessors, M = sms * o (overrides the profile)", 0, 0},
        [F_C] = {"C", "BLOCKS", "cache capacity in blocks (default capacity / block size)", 0, 0},
        [F_CAPB] = {"capacity-bytes", "SIZE", "cache bytes (overrides the profile's effective L2)", 0, 0},
        [F_BLOCKB] = {"block-bytes", "SIZE", "bytes per block (default 16KiB)", 0, 0},
        [F_ETA] = {"eta", "W", "eq. 23 within-class weight (default 4)", 0, 0},
        [F_CV] = {"cv", NULL, "also score the baselines on the same folds; print the table", 0, 0},
        [F_WMIN] = {"w-min", "W", "score runs with W > this (default 1: long runs)", 0, 0},
        [F_KNN] = {"knn-k", "K", "neighbours of the k-NN baseline (default 5)", 0, 0},
        [F_RIDGE] = {"ridge-lambda", "L", "penalty of the ridge baseline (default 1)", 0, 0},
        [F_TEST] = {"test", "TEST.csv", "held-out runs (keys never used in the fit): score PASCAL "
                                        "and the baselines on them and print the table", 0, 0},
    };
    pascal_calibrate_opts o = pascal_calibrate_default_opts();
    pascal_calibrate_result r;
    pascal_error err = {0};
    char *pos[1], *cmdline;
    int npos, rc;
    for (int i = 0; i < argc; i++)
        if (strcmp(argv[i], "-o") == 0)
            argv[i] = "--output";
    rc = cli_parse("calibrate", usage_text, argc, argv, flags, F_COUNT, pos, 1, &npos);
    if (rc != CLI_OK)
        return rc < 0 ? CLI_OK : rc;
    if (npos != 1) {
        fprintf(stderr, "pascal calibrate: expected a reference file, got nothing "
                        "(see pascal calibrate --help)\n");
        return CLI_USAGE;
    }
    if ((rc = read_flags(flags, &o)) != CLI_OK)
        return rc;
    o.refs_path = pos[0];
    cmdline = cli_command_line("calibrate", argc, argv);
    o.command_line = cmdline;
    rc = pascal_calibrate_run(&o, &r, &err);
    if (rc == 0)
        print_summary(stdout, &o, &r);
    else
        fprintf(stderr, "%s\n", err.msg);
    if (rc == 0 && flags[F_TEST].given)
        rc = held_out(flags[F_TEST].value, &o, &r, &err);
    pascal_calibrate_result_free(&r);
    free(cmdline);
    if (rc == 0)
        return CLI_OK;
    return rc == PASCAL_EINPUT ? CLI_USAGE : CLI_FAIL;
}
