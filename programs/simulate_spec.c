/* pascal simulate --spec FILE [--point I | --at NAME=VALUE,...]: the `simulate` sweep model at
 * one point of a sweep spec, with everything a single run reports.  A
 * workload point runs its whole kernel (engine/eval_sim.h): the grid's
 * CTAs reading their K and V, or A and B, streams in waves; with --barrier
 * every wave runs with a grid barrier per round, whose fills are the exact
 * LRU replay of the kernel (the traffic model's fill_bytes_replay).  A
 * plain point is the open scan of one ring, as the sweep simulates it
 * (with --barrier: Algorithm 1 on the point's phases). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calibrate/calibrate.h"
#include "common/json.h"
#include "devices/profile.h"
#include "programs/cli.h"
#include "engine/eval_phases.h"
#include "engine/eval_sim.h"
#include "model/phases.h"
#include "model/sim.h"
#include "devices/sim_timing.h"
#include "vocab/params.h"
#include "sweeps/expr.h"
#include "sweeps/spec.h"
#include "sweeps/workload.h"

#define MAX_WAVES 4096

/* What the spec's point gives; a flag that would set it too is refused. */
static const char *const point_flags[] = {
    "device", "o", "path", "d", "m", "N", "W", "C", "capacity-bytes", "block-bytes", "assoc",
    "seed", "phases", "M", "pattern", "clusters", "spread", "sigma", "lag", "samples",
    "trajectory"};

typedef struct spec_run {
    pascal_spec *spec;
    pascal_point p;
    uint64_t index;
    int workload;             /* the point has a workload */
    pascal_workload w;
    pascal_sim_timing tm;
    pascal_sim_config cfg;
    pascal_wl_sim *ws;
    int64_t *phases;
    double K_wave[MAX_WAVES];
    char device[160];
} spec_run;

static int conflicts(cli_flag *f, int nf)
{
    for (size_t k = 0; k < sizeof point_flags / sizeof point_flags[0]; k++) {
        const cli_flag *g = cli_find(f, nf, point_flags[k]);
        if (g && g->given) {
            fprintf(stderr, "pascal simulate: --%s: expected no --%s with --spec (the spec's point "
                            "gives it), got \"%s\"\n", g->name, g->name, g->value ? g->value : "");
            return CLI_USAGE;
        }
    }
    return CLI_OK;
}

/* --at's text as a where-style test: "a=b,c=d" is a == b && c == d, a
 * value that starts with a letter being a name ("gaussian"); text with a
 * comparison already in it is taken as it is. */
static char *at_expression(const char *at)
{
    size_t n = strlen(at), cap = 4 * n + 16, len = 0;
    char *out = malloc(cap);
    if (!out)
        return NULL;
    if (strpbrk(at, "<>!&|") || strstr(at, "==")) {
        snprintf(out, cap, "%s", at);
        return out;
    }
    for (const char *p = at; *p;) {
        const char *comma = strchr(p, ','), *end = comma ? comma : p + strlen(p);
        const char *eq = memchr(p, '=', (size_t)(end - p));
        if (!eq) { /* no '=': compile reports it */
            len += (size_t)snprintf(out + len, cap - len, "%s%.*s", len ? " && " : "",
                                    (int)(end - p), p);
        } else {
            const char *v = eq + 1;
            int name = (*v >= 'a' && *v <= 'z') || (*v >= 'A' && *v <= 'Z');
            len += (size_t)snprintf(out + len, cap - len, "%s%.*s == %s%.*s%s", len ? " && " : "",
                                    (int)(eq - p), p, name ? "\"" : "", (int)(end - v), v,
                                    name ? "\"" : "");
        }
        p = comma ? comma + 1 : end;
    }
    return out;
}

/* The raw index of the first point the spec keeps whose values pass --at. */
static int find_at(const pascal_spec *spec, const char *at, const char *path, uint64_t *index)
{
    char *text = at_expression(at);
    pascal_expr *e = NULL;
    pascal_error err = {0};
    pascal_point p;
    size_t off = 0;
    uint64_t n = pascal_spec_size(spec);
    if (!text || pascal_expr_compile_for(spec, text, &e, &off, &err) != 0) {
        fprintf(stderr, "pascal simulate: --at: %s (at character %zu of \"%s\")\n",
                text ? err.msg : "out of memory", off + 1, text ? text : at);
        free(text);
        return CLI_USAGE;
    }
    for (uint64_t i = 0; i < n; i++) {
        int rc = pascal_spec_point(spec, i, &p, &err);
        if (rc < 0) {
            fprintf(stderr, "pascal simulate: %s\n", err.msg);
            break;
        }
        if (rc == 1 && pascal_expr_truth(pascal_expr_eval(e, p.v))) {
            *index = i;
            pascal_expr_free(e);
            free(text);
            return CLI_OK;
        }
        if (i + 1 == n)
            fprintf(stderr, "pascal simulate: --at: expected a point of %s with %s, got none "
                            "among its %llu points\n", path, text, (unsigned long long)n);
    }
    pascal_expr_free(e);
    free(text);
    return CLI_USAGE;
}

/* The spec, its point and the device's timing. */
static int load(cli_flag *f, int nf, spec_run *s)
{
    const cli_flag *pt = cli_find(f, nf, "point"), *sp = cli_find(f, nf, "spec"),
                   *at = cli_find(f, nf, "at");
    pascal_error err = {0};
    pascal_device_facts dev;
    int64_t idx = 0;
    int rc;
    if (pt->given && cli_int("simulate", pt, 0, &idx) != CLI_OK)
        return CLI_USAGE;
    if ((rc = pascal_spec_load(sp->value, &s->spec, &err)) != 0) {
        fprintf(stderr, "pascal simulate: %s\n", err.msg);
        return rc == PASCAL_ENOMEM ? CLI_FAIL : CLI_USAGE;
    }
    if (at && at->given) {
        uint64_t found = 0;
        if ((rc = find_at(s->spec, at->value, sp->value, &found)) != CLI_OK)
            return rc;
        idx = (int64_t)found;
    }
    s->index = (uint64_t)idx;
    if (s->index >= pascal_spec_size(s->spec)) {
        fprintf(stderr, "pascal simulate: --point: expected an index below the %llu points of %s, "
                        "got %lld\n", (unsigned long long)pascal_spec_size(s->spec), sp->value,
                (long long)idx);
        return CLI_USAGE;
    }
    if ((rc = pascal_spec_point(s->spec, s->index, &s->p, &err)) != 1) {
        if (rc == 0)
            fprintf(stderr, "pascal simulate: --point: expected a point the spec keeps, got %lld, "
                            "which its where: drops\n", (long long)idx);
        else
            fprintf(stderr, "pascal simulate: %s\n", err.msg);
        return CLI_USAGE;
    }
    if (!pascal_spec_device_text(s->spec)[0]) {
        fprintf(stderr, "pascal simulate: --spec: expected a spec with device: PROFILE (a profile "
                        "with a sim section), got none in %s\n", sp->value);
        return CLI_USAGE;
    }
    /* On a device axis, the point's profile. */
    int k = pascal_spec_ndevices(s->spec) ? (int)s->p.v[PASCAL_P_DEVICE] : -1;
    const char *text = k >= 0 ? pascal_spec_device_text_k(s->spec, k) : pascal_spec_device_text(s->spec);
    const char *path = k >= 0 ? pascal_spec_device_path_k(s->spec, k) : pascal_spec_device_path(s->spec);
    if (pascal_device_sim_parse(text, strlen(text), path, &s->tm, &err) != 0) {
        fprintf(stderr, "pascal simulate: %s\n", err.msg);
        return err.code == PASCAL_ENOMEM ? CLI_FAIL : CLI_USAGE;
    }
    snprintf(s->device, sizeof s->device, "%s", path);
    if (pascal_device_facts_load(path, &dev, &err) == 0 && dev.name[0])
        snprintf(s->device, sizeof s->device, "%s", dev.name);
    return cli_sim_timing(cli_find(f, nf, "timing"), &s->tm);
}

/* Why the point is not one the simulator can run. */
static int unrunnable(const spec_run *s)
{
    static const int need[] = {PASCAL_P_OCCUPANCY, PASCAL_P_PATH, PASCAL_P_COMPUTE};
    const double *v = s->p.v;
    for (size_t k = 0; k < 3; k++)
        if (isnan(v[need[k]]) || (need[k] == PASCAL_P_PATH && v[need[k]] == 1 &&
                                  isnan(v[PASCAL_P_DEPTH]))) {
            int p = isnan(v[need[k]]) ? need[k] : PASCAL_P_DEPTH;
            fprintf(stderr, "pascal simulate: --spec: expected %s at point %llu (the simulate "
                            "model needs occupancy, path, compute, and depth on the tma path, in "
                            "fixed or axes), got none\n", pascal_params[p].name,
                    (unsigned long long)s->index);
            return CLI_USAGE;
        }
    if (s->workload && !s->w.ring && s->w.persistent)
        fprintf(stderr, "pascal simulate: --spec: expected a kernel that runs one CTA per tile "
                        "at point %llu (the simulator runs rings), got kernel %s, whose "
                        "persistent CTAs loop over its tiles\n",
                (unsigned long long)s->index, pascal_kernel_names[s->w.shape.kernel]);
    else if (s->workload && !s->w.ring && s->w.splits > 1)
        fprintf(stderr, "pascal simulate: --spec: expected a kernel without KV splits at point "
                        "%llu (a split CTA reads a sub-range of its KV head's blocks, not a ring; "
                        "num_splits: 1 takes the standard kernel), got %lld splits\n",
                (unsigned long long)s->index, (long long)s->w.splits);
    else if (s->workload && !s->w.ring)
        fprintf(stderr, "pascal simulate: --spec: expected causal: false at point %llu (causal "
                        "attention is not a ring scan: query tile t reads KV blocks 0..last(t) "
                        "only, so its CTAs scan different lengths), got causal: true\n",
                (unsigned long long)s->index);
    else if (s->workload)
        fprintf(stderr, "pascal simulate: --spec: expected a kernel of at most 2^31 - 1 blocks at "
                        "point %llu, got %lld streams of %lld blocks\n",
                (unsigned long long)s->index, (long long)s->w.streams, (long long)s->w.blocks);
    else
        fprintf(stderr, "pascal simulate: --spec: expected whole N and C and M = sms x occupancy "
                        "at point %llu, got N = %g, C = %g, M = %g\n",
                (unsigned long long)s->index, v[PASCAL_P_N], v[PASCAL_P_C], v[PASCAL_P_M]);
    return CLI_USAGE;
}

/* The simulator's configuration of the point (--barrier: Algorithm 1). */
static int configure(spec_run *s, int barrier)
{
    pascal_sim_config *c = &s->cfg;
    int rc;
    s->workload = !isnan(s->p.v[PASCAL_P_WORKLOAD]);
    if (s->workload) {
        if (!(s->ws = pascal_wl_sim_create()) ||
            (rc = pascal_wl_sim_config(s->ws, &s->p, c, &s->w)) == -2) {
            fprintf(stderr, "pascal simulate: out of memory\n");
            return CLI_FAIL;
        }
    } else {
        rc = pascal_eval_sim_config(s->p.v, c);
    }
    if (rc != 0)
        return unrunnable(s);
    c->barrier = barrier;
    if (barrier && !s->workload) {
        /* Algorithm 1 on the point's phases, M workers on one ring. */
        pascal_pattern pat;
        int64_t M = c->sms * c->occupancy;
        pascal_eval_pattern(&s->p, &pat);
        if (!(s->phases = malloc((size_t)M * sizeof *s->phases))) {
            fprintf(stderr, "pascal simulate: out of memory\n");
            return CLI_FAIL;
        }
        if (pascal_phases_generate(&pat, c->N, M, s->phases) != 0)
            return unrunnable(s);
        c->phases = s->phases;
    }
    c->K_wave = s->K_wave;
    c->max_waves = MAX_WAVES;
    return CLI_OK;
}

/* `"key": number` on stdout, 17 digits (common/json.h), then ", " when
 * another member follows. */
static void json_num(const char *key, double v, int comma)
{
    pascal_json_key_num(stdout, key, v, 17);
    if (comma)
        printf(", ");
}

/* The sweep's columns: a workload's (eval_sim.h), else K_H, K_H / M and
 * the time per round, as the evaluator gives them. */
static void columns(const spec_run *s, const pascal_sim_result *r, double *col)
{
    if (s->workload) {
        pascal_wl_sim_columns(&s->w, r->M, r, col);
        return;
    }
    col[0] = s->cfg.barrier ? r->K_steady : r->K_H;
    col[1] = col[0] / (double)r->M;
    col[2] = r->ns_per_round;
    col[3] = col[4] = NAN;
}

static void print_json(const spec_run *s, const pascal_sim_result *r, const double *col)
{
    const pascal_sim_config *c = &s->cfg;
    static const char *const names[] = {"K_sim", "rho_sim", "ns_per_round_sim", "fill_bytes_sim",
                                        "traffic_sim"};
    printf("{\"point\": %llu, \"workload\": ", (unsigned long long)s->index);
    if (s->workload)
        printf("\"%s\", ", pascal_workload_names[s->w.shape.kind]);
    else
        printf("null, ");
    printf("\"barrier\": %s, ", c->barrier ? "true" : "false");
    json_num("M", (double)r->M, 1), json_num("N", (double)c->N, 1), json_num("C", (double)c->C, 1);
    json_num("block_bytes", c->block_bytes, 1), json_num("ctas", (double)r->ctas, 1);
    json_num("waves", (double)r->waves, 1);
    if (s->workload) {
        json_num("streams", (double)s->w.streams, 1), json_num("units", (double)s->w.units, 1);
        json_num("ideal_bytes", (double)s->w.ideal_bytes, 1);
    }
    for (int k = 0; k < PASCAL_WL_SIM_NCOLS; k++)
        json_num(names[k], col[k], 1);
    if (c->barrier)
        json_num("K_steady", r->K_steady, 1);
    printf("\"K_wave\": [");
    for (int64_t v = 0; v < r->waves && v < MAX_WAVES && !c->barrier; v++)
        printf("%s%.17g", v ? ", " : "", s->K_wave[v]);
    printf("], ");
    json_num("first_wave_ns_per_round", r->first_wave_ns_per_round, 1);
    json_num("makespan_ns", r->makespan_ns, 1), json_num("fills", (double)r->fills, 1);
    json_num("requests", (double)r->requests, 1), json_num("cache_hits", (double)r->hits, 1);
    json_num("merged", (double)r->merged, 0);
    printf("}\n");
}

static void print_text(const spec_run *s, const pascal_sim_result *r, const double *col)
{
    const pascal_sim_config *c = &s->cfg;
    char what[64];
    printf("simulated on %s: point %llu of %s, M = %lld slots, C = %lld blocks of %.0f bytes\n",
           s->device, (unsigned long long)s->index, pascal_spec_filename(s->spec), (long long)r->M,
           (long long)c->C, c->block_bytes);
    if (s->workload)
        printf("  %s: %lld CTAs in %lld waves, %lld streams of N = %lld blocks, %lld requests per "
               "CTA per step\n", pascal_workload_names[s->w.shape.kind], (long long)r->ctas,
               (long long)r->waves, (long long)s->w.streams, (long long)s->w.blocks,
               (long long)s->w.units);
    /* The simulator's path codes are the table's (engine/simrefs.c). */
    if (c->path == PASCAL_SIM_TMA)
        snprintf(what, sizeof what, "%s, d = %lld", pascal_path_names[c->path],
                 (long long)c->depth);
    else
        snprintf(what, sizeof what, "%s", pascal_path_names[c->path]);
    printf("  %s, %s, m = %lld\n", c->barrier ? "grid barrier per round (Algorithm 1)"
                                              : "open scan (Algorithm 2)", what,
           (long long)c->compute);
    printf("  K_sim = %.6g fills per round, rho_sim = %.4g per request, %.1f ns per round\n",
           col[0], col[1], col[2]);
    if (s->workload)
        printf("  DRAM fills %.0f bytes = %.4g x the ideal %lld bytes\n", col[3], col[4],
               (long long)s->w.ideal_bytes);
    printf("  requests %lld: hits %lld, merged into a fill in flight %lld, fills %lld; makespan "
           "%.0f ns\n", (long long)r->requests, (long long)r->hits, (long long)r->merged,
           (long long)r->fills, r->makespan_ns);
}

int cli_simulate_spec(cli_flag *f, int nf, int (*should_stop)(void *ctx))
{
    spec_run *s = calloc(1, sizeof *s);
    pascal_sim *ws = NULL;
    pascal_sim_result r;
    double col[PASCAL_WL_SIM_NCOLS];
    int rc;
    if (!s)
        return CLI_FAIL;
    if ((rc = conflicts(f, nf)) == CLI_OK && (rc = load(f, nf, s)) == CLI_OK &&
        (rc = configure(s, cli_find(f, nf, "barrier")->given)) == CLI_OK) {
        s->cfg.should_stop = should_stop;
        if (pascal_sim_fit(&ws, &s->cfg) != 0) {
            fprintf(stderr, "pascal simulate: out of memory\n");
            rc = CLI_FAIL;
        } else if ((rc = pascal_sim_run(ws, &s->tm, &s->cfg, &r)) == PASCAL_SIM_STOPPED) {
            fprintf(stderr, "pascal simulate: stopped after %lld requests; nothing written\n",
                    (long long)r.requests);
            rc = 130;
        } else if (rc != PASCAL_SIM_OK) {
            fprintf(stderr, "pascal simulate: point %llu is out of the simulator's range (status "
                            "%d)\n", (unsigned long long)s->index, rc);
            rc = CLI_USAGE;
        } else {
            columns(s, &r, col);
            if (cli_find(f, nf, "json")->given)
                print_json(s, &r, col);
            else
                print_text(s, &r, col);
        }
    }
    pascal_sim_free(ws);
    pascal_wl_sim_free(s->ws);
    pascal_spec_free(s->spec);
    free(s->phases);
    free(s);
    return rc;
}
