/* The dynamic model inside a sweep (calibrate/calibrate.h): a point's
 * parameters become a section 4 query, checked against the device the
 * calibration was measured on, since a calibration transfers across
 * configurations of one device, not across devices.  A calibration over
 * several capacities answers any C between its smallest and largest. */
#include <math.h>

#include "calibrate/calibrate.h"
#include "vocab/params.h"

static void reject(double *out, int code)
{
    out[0] = out[1] = out[2] = out[3] = out[5] = out[6] = out[7] = NAN;
    out[4] = code;
}

int pascal_calibrate_slot(int col)
{
    static const int order[PASCAL_CALIBRATE_NCOLS] = {
        PASCAL_COL_K_DYN, PASCAL_COL_RHO_DYN, PASCAL_COL_BAND_LO, PASCAL_COL_BAND_HI,
        PASCAL_COL_FALLBACK, PASCAL_COL_CLAMP_X, PASCAL_COL_CLAMP_COMPUTE, PASCAL_COL_CLAMP_DEPTH};
    for (int k = 0; k < PASCAL_CALIBRATE_NCOLS; k++)
        if (order[k] == col)
            return k;
    return -1;
}

/* An integer parameter that is set: 1, else 0. */
static int whole(double v)
{
    return !isnan(v) && v == floor(v);
}

void pascal_calibrate_point(const pascal_dyn_model *m, const double *v, unsigned flags, double *out)
{
    const pascal_dyn_params *par;
    pascal_dyn_query q;
    pascal_dyn_pred p;
    int ladder;
    double o = v[PASCAL_P_OCCUPANCY], path = v[PASCAL_P_PATH], d = v[PASCAL_P_DEPTH];
    if (!m || !whole(o) || !(path == 0 || path == 1) || !whole(v[PASCAL_P_COMPUTE]) ||
        (path == 1 && !whole(d))) {
        reject(out, PASCAL_DYN_ERR_INVALID);
        return;
    }
    par = pascal_dyn_model_params(m);
    ladder = pascal_dyn_model_levels(m) > 1;
    if (v[PASCAL_P_M] != par->sms * o || (!ladder && v[PASCAL_P_C] != par->C) ||
        (!isnan(v[PASCAL_P_BLOCK_BYTES]) && v[PASCAL_P_BLOCK_BYTES] != par->block_bytes)) {
        reject(out, PASCAL_DYN_ERR_DEVICE);
        return;
    }
    q.o = (int64_t)o;
    q.path = (int)path;
    q.d = path == 1 ? (int64_t)d : 0;
    q.m = (int64_t)v[PASCAL_P_COMPUTE];
    q.N = v[PASCAL_P_N];
    q.W = v[PASCAL_P_W];
    q.M = v[PASCAL_P_M];
    q.flags = flags;
    pascal_dyn_predict_at(m, &q, v[PASCAL_P_C], &p);
    out[0] = p.K;
    out[1] = p.rho;
    out[2] = p.band_lo;
    out[3] = p.band_hi;
    out[4] = p.code;
    out[5] = p.near_x;
    out[6] = p.near_m;
    out[7] = p.near_d;
}
