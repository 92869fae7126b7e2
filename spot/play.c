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

int pascal_play_build(const pascal_workload *w, int compute, int occupancy,
                      pascal_play_program *out, pascal_error *err)
{
    memset(out, 0, sizeof *out);
    if (w->requests > PASCAL_PLAY_MAX_REQUESTS || w->ctas > 0x7fffffff)
        return pascal_error_set(err, PASCAL_EINPUT, "expected a kernel of at most %lld block "
                                "requests and 2^31 - 1 CTAs to play, got %lld requests, %lld CTAs",
                                (long long)PASCAL_PLAY_MAX_REQUESTS, (long long)w->requests,
                                (long long)w->ctas);
    int64_t steps = 0, stride = (w->block_bytes + 15) / 16 * 16, st[64];
    for (int64_t c = 0; c < w->ctas; c++)
        steps += pascal_workload_cta_steps(w, c);
    out->cta_step = malloc((size_t)(w->ctas + 1) * sizeof *out->cta_step);
    out->step_req = malloc((size_t)(steps + 1) * sizeof *out->step_req);
    out->req_offset = malloc((size_t)(w->requests ? w->requests : 1) * sizeof *out->req_offset);
    out->req_bytes = malloc((size_t)(w->requests ? w->requests : 1) * sizeof *out->req_bytes);
    if (!out->cta_step || !out->step_req || !out->req_offset || !out->req_bytes) {
        pascal_play_free(out);
        return pascal_error_set(err, PASCAL_ENOMEM, "out of memory");
    }
    int64_t s = 0, r = 0;
    for (int64_t c = 0; c < w->ctas; c++) {
        int64_t n = pascal_workload_cta_steps(w, c);
        out->cta_step[c] = s;
        pascal_workload_cta(w, c, st);
        for (int64_t j = 0; j < n; j++, s++) {
            int64_t b = play_block(w, c, j);
            out->step_req[s] = r;
            for (int64_t u = 0; u < w->units; u++, r++) {
                out->req_offset[r] = (st[u] * w->blocks + b) * stride;
                out->req_bytes[r] = (int32_t)stride;
            }
        }
    }
    out->cta_step[w->ctas] = s;
    out->step_req[s] = r;
    out->stride = stride;
    out->job = (pascal_gpu_play_job){w->ctas, steps, r, out->cta_step, out->step_req,
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
