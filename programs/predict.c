/* pascal predict: the frozen dynamic model at one configuration (paper
 * section 4), as JSON or as a short explanation. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/json.h"
#include "common/suggest.h"
#include "calibrate/calibrate.h"
#include "programs/cli.h"
#include "vocab/params.h"


static const char *usage_text =
    "usage: pascal predict --model MODEL.h5 --o OCC --path sync|tma [--d DEPTH] --m COMPUTE\n"
    "                      --N BLOCKS --W SCANS [--C BLOCKS] [--json]\n\n"
    "Predicts the whole-run fill count K_H (fill-equivalent blocks per unit work)\n"
    "and rho = K/M of one configuration from a calibration written by\n"
    "pascal calibrate.  Unsupported families and unsampled execution classes are\n"
    "reported, never extrapolated.  Outside the calibrated range the nearest\n"
    "calibrated answer is held (the paper's fallback) and the output says where;\n"
    "--extrapolation nan refuses such queries instead.  A calibration over several\n"
    "capacities needs --C, the cache capacity in blocks, inside its range.";

enum { F_MODEL, F_O, F_PATH, F_D, F_M, F_N, F_W, F_JSON, F_EXTRAP, F_C, F_COUNT };

static int need(const cli_flag *f, const char *what)
{
    if (f->given)
        return CLI_OK;
    fprintf(stderr, "pascal predict: --%s: expected %s, got nothing (see pascal predict --help)\n",
            f->name, what);
    return CLI_USAGE;
}

static int read_path(const cli_flag *f, int *path)
{
    if ((*path = pascal_path_from_name(f->value)) < 0) {
        char hint[96];
        fprintf(stderr, "pascal predict: --path: expected sync or tma, got \"%s\"%s\n", f->value,
                pascal_suggest_hint(f->value, pascal_path_names, PASCAL_PATH_COUNT, hint, sizeof hint));
        return CLI_USAGE;
    }
    return CLI_OK;
}

static int read_depth(cli_flag *f, pascal_dyn_query *q)
{
    int64_t d = 0;
    if (f[F_D].given && cli_int("predict", &f[F_D], 0, &d) != CLI_OK)
        return CLI_USAGE;
    if (q->path == PASCAL_DYN_SYNC && d != 0) {
        fprintf(stderr, "pascal predict: --d: expected 0 for the sync path (no prefetch "
                        "pipeline), got \"%s\"\n", f[F_D].value);
        return CLI_USAGE;
    }
    if (q->path == PASCAL_DYN_TMA && d < 1) {
        fprintf(stderr, "pascal predict: --d: expected a depth >= 1 for the tma path, got %s\n",
                f[F_D].given ? f[F_D].value : "nothing");
        return CLI_USAGE;
    }
    q->d = d;
    return CLI_OK;
}

static int read_query(cli_flag *f, pascal_dyn_query *q)
{
    int64_t v;
    if (need(&f[F_MODEL], "a calibration file from pascal calibrate") ||
        need(&f[F_O], "the occupancy (CTAs per SM)") || need(&f[F_PATH], "sync or tma") ||
        need(&f[F_M], "the compute per block") || need(&f[F_N], "the blocks per scan") ||
        need(&f[F_W], "the horizon in CTA scans per resident worker"))
        return CLI_USAGE;
    if (cli_int("predict", &f[F_O], 1, &q->o) || read_path(&f[F_PATH], &q->path) ||
        read_depth(f, q) || cli_int("predict", &f[F_M], 0, &q->m) ||
        cli_int("predict", &f[F_N], 1, &v) || cli_real("predict", &f[F_W], 0, &q->W))
        return CLI_USAGE;
    q->N = (double)v;
    if (!(q->W > 0)) {
        fprintf(stderr, "pascal predict: --W: expected a positive number, got \"%s\"\n",
                f[F_W].value);
        return CLI_USAGE;
    }
    q->M = NAN;
    return CLI_OK;
}

/* --C against the calibration: required by one over several capacities
 * (outside its range the answer is code 16), else its own C or nothing. */
static int read_capacity(cli_flag *f, const pascal_dyn_model *m, double *C)
{
    int64_t n = pascal_dyn_model_levels(m), v;
    double lo = pascal_dyn_model_params(pascal_dyn_model_level(m, 0))->C;
    double hi = pascal_dyn_model_params(pascal_dyn_model_level(m, n - 1))->C;
    if (f->given && cli_int("predict", f, 1, &v) != CLI_OK)
        return CLI_USAGE;
    if (n > 1 && !f->given) {
        fprintf(stderr, "pascal predict: --C: expected the cache capacity in blocks (the "
                        "calibration covers %.0f to %.0f), got nothing\n", lo, hi);
        return CLI_USAGE;
    }
    if (n == 1 && f->given && (double)v != lo) {
        fprintf(stderr, "pascal predict: --C: expected the calibration's capacity (%.0f blocks: "
                        "it was measured at one), got %lld\n", lo, (long long)v);
        return CLI_USAGE;
    }
    *C = f->given ? (double)v : NAN;
    return CLI_OK;
}

static void reason(const pascal_dyn_query *q, const pascal_dyn_pred *p, char *buf, size_t len)
{
    const char *path = pascal_path_names[q->path];
    if (p->code == PASCAL_DYN_ERR_FAMILY)
        snprintf(buf, len, "unsupported family: no reference with occupancy %lld on the %s path; "
                           "not extrapolated", (long long)q->o, path);
    else if (p->code == PASCAL_DYN_ERR_CLASS)
        snprintf(buf, len, "unsampled execution class %d: no reference of class %d with occupancy "
                           "%lld on the %s path at any depth (Prop. 8); not interpolated",
                 p->cls, p->cls, (long long)q->o, path);
    else if (p->code == PASCAL_DYN_ERR_CAPACITY)
        snprintf(buf, len, "outside the calibrated capacities; not extrapolated");
    else if (p->code == PASCAL_DYN_ERR_CLAMPED)
        snprintf(buf, len, "outside the calibrated range (see the clamp_ values); refused by "
                           "--extrapolation nan");
    else
        snprintf(buf, len, "not a valid configuration");
}

static void print_json(FILE *f, const pascal_dyn_query *q, const pascal_dyn_pred *p)
{
    char why[256];
    fprintf(f, "{");
    pascal_json_key_num(f, "K", p->K, 17), fputs(", ", f);
    pascal_json_key_num(f, "rho", p->rho, 17), fputs(", ", f);
    pascal_json_key_num(f, "band_lo", p->band_lo, 17), fputs(", ", f);
    pascal_json_key_num(f, "band_hi", p->band_hi, 17), fputs(", ", f);
    fprintf(f, "\"class\": %d, \"fallback\": \"%s\", ", p->cls, pascal_dyn_code_name(p->code));
    /* fallback "regime": what the neighbouring computes say (null otherwise) */
    pascal_json_key_num(f, "K_alt", p->K_alt, 17), fputs(", ", f);
    /* How far outside: the calibrated value each clamped coordinate is held
     * at (null inside); clamp_W is clamp_x as a horizon at this N. */
    pascal_json_key_num(f, "clamp_x", p->near_x, 17), fputs(", ", f);
    pascal_json_key_num(f, "clamp_W", p->near_x * PASCAL_DYN_N0 / q->N, 17), fputs(", ", f);
    pascal_json_key_num(f, "clamp_compute", p->near_m, 17), fputs(", ", f);
    pascal_json_key_num(f, "clamp_depth", p->near_d, 17), fputs(", ", f);
    if (p->code >= PASCAL_DYN_UNSUPPORTED) {
        reason(q, p, why, sizeof why);
        fprintf(f, "\"error\": \"%s\"}\n", why);
    } else {
        fprintf(f, "\"error\": null}\n");
    }
}

static const char *rule_text(int code)
{
    switch (code) {
    case PASCAL_DYN_FB_NONE: return "same-class bracket, anchored harmonic interpolation (eq. 24)";
    case PASCAL_DYN_FB_REFERENCE: return "a reference key: its own fitted curve";
    case PASCAL_DYN_FB_COMPUTE: return "no same-class bracket: nearest same-class compute (clamped)";
    case PASCAL_DYN_FB_REGIME: return "no same-class bracket: a fallback in compute or depth (see "
                                      "held), across a regime from the neighbouring computes of "
                                      "other classes: the band spans both";
    default: return "class absent at this depth: across the nearest depths (clamped)";
    }
}

/* Where the answer is held at the edge of the calibration. */
static void print_clamps(FILE *f, const pascal_dyn_query *q, const pascal_dyn_pred *p)
{
    double x = q->W * q->N / PASCAL_DYN_N0;
    if (!isnan(p->near_x))
        fprintf(f, "held: the horizon x = W N / 4096 = %.4g lies outside the references; the value "
                   "at x = %.4g (W = %.4g at N = %.0f) is held\n", x, p->near_x,
                p->near_x * PASCAL_DYN_N0 / q->N, q->N);
    if (!isnan(p->near_m))
        fprintf(f, "held: no class-%d reference beyond compute %lld; the one at compute %.0f is "
                   "used\n", p->cls, (long long)q->m, p->near_m);
    if (!isnan(p->near_d))
        fprintf(f, "held: no depth with class %d beyond depth %lld; depth %.0f is used\n", p->cls,
                (long long)q->d, p->near_d);
}

static void print_text(FILE *f, const pascal_dyn_query *q, const pascal_dyn_pred *p, double M)
{
    char why[256];
    if (p->code >= PASCAL_DYN_UNSUPPORTED) {
        reason(q, p, why, sizeof why);
        fprintf(f, "no prediction: %s\n", why);
        print_clamps(f, q, p);
        return;
    }
    fprintf(f, "K = %.4g fill-equivalent blocks per unit work (x = W N / 4096 = %.4g)\n", p->K,
            q->W * q->N / PASCAL_DYN_N0);
    fprintf(f, "rho = K / M = %.4g misses per request (M = %.0f)\n", p->rho, M);
    if (!isnan(p->band_lo))
        fprintf(f, "band: rho in [%.4g, %.4g]\n", p->band_lo, p->band_hi);
    fprintf(f, "class %d (m mod 4 = %lld); rule: %s\n", p->cls, (long long)(q->m % 4),
            rule_text(p->code));
    if (p->code == PASCAL_DYN_FB_REGIME)
        fprintf(f, "regime: the neighbouring computes say K = %.4g, the fallback K = %.4g\n",
                p->K_alt, p->K);
    print_clamps(f, q, p);
}

int cli_predict(int argc, char **argv)
{
    cli_flag f[F_COUNT] = {
        [F_MODEL] = {"model", "PATH", "calibration file from pascal calibrate", 0, 0},
        [F_O] = {"o", "OCC", "occupancy: resident CTAs per SM (M = sms * o)", 0, 0},
        [F_PATH] = {"path", "sync|tma", "load path", 0, 0},
        [F_D] = {"d", "DEPTH", "prefetch depth (tma: >= 1; sync: 0, the default)", 0, 0},
        [F_M] = {"m", "COMPUTE", "compute (WMMA operations) per block", 0, 0},
        [F_N] = {"N", "BLOCKS", "blocks per CTA scan", 0, 0},
        [F_W] = {"W", "SCANS", "horizon: CTA scans per resident worker", 0, 0},
        [F_JSON] = {"json", NULL, "print one JSON object", 0, 0},
        [F_EXTRAP] = {"extrapolation", "hold|nan",
                      "outside the calibrated range: hold the nearest answer (default) or refuse", 0, 0},
        [F_C] = {"C", "BLOCKS", "cache capacity in blocks (a calibration over several capacities: "
                                "needed; one at one capacity: its own, the default)", 0, 0},
    };
    pascal_dyn_query q;
    pascal_dyn_pred p;
    pascal_dyn_model *model = NULL;
    pascal_error err = {0};
    double C = NAN;
    char *pos[1];
    int npos, rc = cli_parse("predict", usage_text, argc, argv, f, F_COUNT, pos, 0, &npos);
    if (rc != CLI_OK)
        return rc < 0 ? CLI_OK : rc;
    memset(&q, 0, sizeof q);
    if ((rc = read_query(f, &q)) != CLI_OK)
        return rc;
    if (f[F_EXTRAP].given) {
        if (strcmp(f[F_EXTRAP].value, "nan") != 0 && strcmp(f[F_EXTRAP].value, "hold") != 0) {
            fprintf(stderr, "pascal predict: --extrapolation: expected hold or nan, got \"%s\"\n",
                    f[F_EXTRAP].value);
            return CLI_USAGE;
        }
        q.flags = strcmp(f[F_EXTRAP].value, "nan") == 0 ? PASCAL_DYN_NO_HOLD : 0;
    }
    if ((rc = pascal_calibrate_load(f[F_MODEL].value, &model, NULL, &err)) != 0) {
        fprintf(stderr, "pascal predict: --model: %s\n", err.msg);
        return rc == PASCAL_EINPUT ? CLI_USAGE : CLI_FAIL;
    }
    if ((rc = read_capacity(&f[F_C], model, &C)) != CLI_OK) {
        pascal_dyn_model_free(model);
        return rc;
    }
    pascal_dyn_predict_at(model, &q, C, &p);
    if (f[F_JSON].given)
        print_json(stdout, &q, &p);
    else
        print_text(stdout, &q, &p, pascal_dyn_model_params(model)->sms * (double)q.o);
    if (!f[F_JSON].given && pascal_dyn_model_levels(model) > 1)
        printf("capacity: C = %.0f blocks; calibrated at %lld capacities from %.0f to %.0f, "
               "answered linearly in log C between the two around it\n", C,
               (long long)pascal_dyn_model_levels(model),
               pascal_dyn_model_params(pascal_dyn_model_level(model, 0))->C,
               pascal_dyn_model_params(pascal_dyn_model_level(model, pascal_dyn_model_levels(model) - 1))->C);
    pascal_dyn_model_free(model);
    return CLI_OK;
}
