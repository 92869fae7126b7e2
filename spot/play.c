/* The program player's host side (play.h). */
#include "spot/play.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/eval.h"
#include "sweeps/workload.h"
#include "vocab/params.h"

void pascal_play_free(pascal_play_program *p)
{
    if (!p)
        return;
    free(p->cta_step), free(p->step_req), free(p->req_offset), free(p->req_bytes);
    memset(p, 0, sizeof *p);
}

/* Block CTA c reads at step j, in the order its kernel walks. */
static int64_t play_block(const pascal_workload *w, int64_t c, int64_t j)
{
    if (w->ring && w->shape.kind == PASCAL_WORKLOAD_ATTENTION &&
        w->shape.kernel == PASCAL_KERNEL_FLASH2)
        return w->blocks - 1 - j;   /* n_block from n_block_max - 1 down */
    return pascal_workload_cta_block(w, c, j);
}

/* A persistent kernel's tiles in the order its CTAs run them: order[]
 * lists every tile, slot 0's first, then slot 1's, ...; first[q] is where
 * slot q's begin (grid + 1 entries), as the lock-step schedule assigns
 * them.  0, or -1 when memory runs out. */
static int persistent_order(const pascal_workload *w, int64_t *order, int64_t *first)
{
    int64_t G = w->grid, *mem = malloc((size_t)(2 * G) * sizeof *mem),
            *slot = malloc((size_t)(w->ctas ? w->ctas : 1) * sizeof *slot),
            *seq = malloc((size_t)(w->ctas ? w->ctas : 1) * sizeof *seq), n = 0;
    if (!mem || !slot || !seq) {
        free(mem), free(slot), free(seq);
        return -1;
    }
    pascal_psched ps;
    pascal_psched_init(&ps, w, mem, mem + G);
    for (int64_t t = 0; t < w->ctas; t++)
        slot[t] = -1;
    for (int64_t q = 0; q < G; q++) {
        pascal_psched_take(&ps, q, 1, NULL, NULL);
        if (ps.tile[q] >= 0)
            slot[ps.tile[q]] = q, seq[n++] = ps.tile[q];
    }
    for (int live = 1; live;) {
        live = 0;
        for (int64_t q = 0; q < G; q++)
            if (ps.tile[q] >= 0 && ++ps.step[q] == pascal_workload_cta_rounds(w, ps.tile[q])) {
                pascal_psched_take(&ps, q, 0, NULL, NULL);
                if (ps.tile[q] >= 0)
                    slot[ps.tile[q]] = q, seq[n++] = ps.tile[q];
            }
        for (int64_t q = 0; q < G; q++)
            live |= ps.tile[q] >= 0;
    }
    /* stepless tiles read nothing: they need no place */
    for (int64_t q = 0; q <= G; q++)
        first[q] = 0;
    for (int64_t i = 0; i < n; i++)
        first[slot[seq[i]] + 1]++;
    for (int64_t q = 0; q < G; q++)
        first[q + 1] += first[q];
    int64_t *at = mem;   /* the schedule is done: reuse its slots */
    for (int64_t q = 0; q < G; q++)
        at[q] = first[q];
    for (int64_t i = 0; i < n; i++)
        order[at[slot[seq[i]]]++] = seq[i];
    free(mem), free(slot), free(seq);
    return 0;
}

/* Appends tile c's steps (its streams' blocks) from step s, request r. */
static void put_tile(const pascal_workload *w, int64_t c, int64_t stride, pascal_play_program *out,
                     int64_t *s, int64_t *r)
{
    int64_t st[64], n = pascal_workload_cta_steps(w, c);
    pascal_workload_cta(w, c, st);
    for (int64_t j = 0; j < n; j++, (*s)++) {
        int64_t b = play_block(w, c, j);
        out->step_req[*s] = *r;
        for (int64_t u = 0; u < w->units; u++, (*r)++) {
            out->req_offset[*r] = (st[u] * w->blocks + b) * stride;
            out->req_bytes[*r] = (int32_t)stride;
        }
    }
}

int pascal_play_build(const pascal_workload *w, int compute, int occupancy,
                      pascal_play_program *out, pascal_error *err)
{
    memset(out, 0, sizeof *out);
    if (w->requests > PASCAL_PLAY_MAX_REQUESTS || w->ctas > 0x7fffffff)
        return pascal_error_set(err, PASCAL_EINPUT, "expected a kernel of at most %lld block "
                                "requests and 2^31 - 1 CTAs to play, got %lld requests, %lld CTAs",
                                (long long)PASCAL_PLAY_MAX_REQUESTS, (long long)w->requests,
                                (long long)w->ctas);
    int64_t steps = 0, stride = (w->block_bytes + 15) / 16 * 16;
    int64_t grid = w->persistent ? w->grid : w->ctas;
    for (int64_t c = 0; c < w->ctas; c++)
        steps += pascal_workload_cta_steps(w, c);
    out->cta_step = malloc((size_t)(grid + 1) * sizeof *out->cta_step);
    out->step_req = malloc((size_t)(steps + 1) * sizeof *out->step_req);
    out->req_offset = malloc((size_t)(w->requests ? w->requests : 1) * sizeof *out->req_offset);
    out->req_bytes = malloc((size_t)(w->requests ? w->requests : 1) * sizeof *out->req_bytes);
    if (!out->cta_step || !out->step_req || !out->req_offset || !out->req_bytes) {
        pascal_play_free(out);
        return pascal_error_set(err, PASCAL_ENOMEM, "out of memory");
    }
    int64_t s = 0, r = 0;
    if (w->persistent) {
        /* one player CTA per persistent CTA, its tiles one after another */
        int64_t *order = malloc((size_t)(w->ctas ? w->ctas : 1) * sizeof *order),
                *first = malloc((size_t)(grid + 1) * sizeof *first);
        if (!order || !first || persistent_order(w, order, first) != 0) {
            free(order), free(first);
            pascal_play_free(out);
            return pascal_error_set(err, PASCAL_ENOMEM, "out of memory");
        }
        for (int64_t q = 0; q < grid; q++) {
            out->cta_step[q] = s;
            for (int64_t i = first[q]; i < first[q + 1]; i++)
                put_tile(w, order[i], stride, out, &s, &r);
        }
        free(order), free(first);
    } else {
        for (int64_t c = 0; c < w->ctas; c++) {
            out->cta_step[c] = s;
            put_tile(w, c, stride, out, &s, &r);
        }
    }
    out->cta_step[grid] = s;
    out->step_req[s] = r;
    out->stride = stride;
    out->job = (pascal_gpu_play_job){grid, steps, r, out->cta_step, out->step_req,
                                     out->req_offset, out->req_bytes,
                                     w->streams * w->blocks * stride, occupancy, compute,
                                     PASCAL_SPOT_COLD};
    if (r != w->requests) {   /* the derivation and the CTAs disagree: a bug */
        pascal_play_free(out);
        return pascal_error_set(err, PASCAL_EINTERNAL, "the program has %lld requests, the "
                                "workload %lld", (long long)r, (long long)w->requests);
    }
    return 0;
}

void pascal_play_plan_free(pascal_play_point *pts, int64_t n)
{
    for (int64_t i = 0; pts && i < n; i++)
        pascal_play_free(&pts[i].prog);
    free(pts);
}

/* pascal's columns at the point (NaN where its models give none). */
static int answers(pascal_eval **ev, const pascal_spec *spec, const pascal_point *p,
                   pascal_play_point *pp, pascal_error *err)
{
    const int cols[] = {PASCAL_COL_FILL_BYTES_REPLAY, PASCAL_COL_FILL_BYTES_REPLAY_ANY,
                        PASCAL_COL_IDEAL_BYTES};
    double v[3];
    if (!*ev && !(*ev = pascal_eval_create(pascal_spec_models(spec))))
        return pascal_error_set(err, PASCAL_ENOMEM, "out of memory");
    if (pascal_eval_point(*ev, p, cols, 3, v) < 0)
        return pascal_error_set(err, PASCAL_ENOMEM, "cannot evaluate point %lld (out of memory?)",
                                (long long)pp->ordinal);
    pp->replay = v[0], pp->replay_any = v[1], pp->ideal = v[2];
    return 0;
}

int pascal_play_plan(const pascal_spec *spec, const int64_t *ordinals, int64_t n,
                     pascal_play_point **out, pascal_error *err)
{
    pascal_play_point *pts = calloc((size_t)(n ? n : 1), sizeof *pts);
    pascal_eval *ev = NULL;
    uint64_t size = pascal_spec_size(spec);
    int64_t ord = 0, next = 0;
    int rc = pts ? 0 : pascal_error_set(err, PASCAL_ENOMEM, "out of memory");
    *out = NULL;
    for (uint64_t i = 0; rc == 0 && i < size && next < n; i++) {
        pascal_point p;
        int k = pascal_spec_point(spec, i, &p, err);
        if (k < 0) {
            rc = k;
            break;
        }
        if (k == 0 || ord++ != ordinals[next])
            continue;
        pascal_play_point *pp = &pts[next++];
        pp->ordinal = ord - 1;
        memcpy(pp->v, p.v, sizeof pp->v);
        double occ = p.v[PASCAL_P_OCCUPANCY];
        if (pascal_workload_of_point(p.v, &pp->w) != 0)
            rc = pascal_error_set(err, PASCAL_EINPUT, "%s: point %lld: expected a workload point "
                                  "(a `workload:` section) to play, got none",
                                  pascal_spec_filename(spec), (long long)pp->ordinal);
        else if (!(occ >= 1) || occ != floor(occ))
            rc = pascal_error_set(err, PASCAL_EINPUT, "%s: point %lld: expected an occupancy "
                                  "(CTAs per SM, which the player pins), got none (M given "
                                  "directly?)", pascal_spec_filename(spec), (long long)pp->ordinal);
        else {
            double m = p.v[PASCAL_P_COMPUTE];
            rc = pascal_play_build(&pp->w, isnan(m) ? 0 : (int)m, (int)occ, &pp->prog, err);
        }
        if (rc == 0)
            rc = answers(&ev, spec, &p, pp, err);
    }
    if (rc == 0 && next < n)
        rc = pascal_error_set(err, PASCAL_EINPUT, "%s: point %lld: expected one of the %lld kept "
                              "points", pascal_spec_filename(spec), (long long)ordinals[next],
                              (long long)ord);
    pascal_eval_free(ev);
    if (rc != 0) {
        pascal_play_plan_free(pts, n);
        return rc;
    }
    *out = pts;
    return 0;
}
