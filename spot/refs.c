/* The dynamic model's reference CSV (spot.h pascal_spot_refs_write): the
 * measured open-scan runs in the columns the calibration reader takes,
 * o,path,d,m,N,W,K. */
#include "spot/spot.h"
#include "spot/spot_internal.h"

#include <stdlib.h>

#include "vocab/params.h"

/* The reference tables write a measured load path under the table's name. */
_Static_assert(PASCAL_SPOT_SYNC == 0 && PASCAL_SPOT_TMA == 1 && PASCAL_PATH_COUNT == 2,
               "spot load paths use the codes of pascal_path_names");

int pascal_spot_refs_write(const char *path, const pascal_spot_ref *refs, int64_t n,
                           pascal_error *err)
{
    static const pascal_column_desc pc[] = {
        {"o", "CTAs/SM", "occupancy", PASCAL_COLTYPE_I64, 0, 0},
        {"path", "", "load path", PASCAL_COLTYPE_ENUM, pascal_path_names, PASCAL_PATH_COUNT},
        {"d", "stages", "TMA depth, 0 for sync", PASCAL_COLTYPE_I64, 0, 0},
        {"m", "WMMA/block", "compute per block", PASCAL_COLTYPE_I64, 0, 0},
        {"N", "blocks", "blocks per scan", PASCAL_COLTYPE_I64, 0, 0},
        {"W", "scans", "CTA scans per resident worker", PASCAL_COLTYPE_I64, 0, 0},
    };
    static const pascal_column_desc rc_k[] = {
        {"K", "fills/block of work", "K_H = A(H) / H (eq. 14)", PASCAL_COLTYPE_F64, 0, 0},
    };
    int64_t *cols[6];
    double *k = malloc((size_t)(n > 0 ? n : 1) * sizeof *k);
    pascal_sink_meta meta = {0};
    int ok = k != NULL, rc;
    for (int j = 0; j < 6; j++)
        ok &= (cols[j] = malloc((size_t)(n > 0 ? n : 1) * sizeof(int64_t))) != NULL;
    for (int64_t i = 0; ok && i < n; i++) {
        const pascal_spot_ref *r = &refs[i];
        cols[0][i] = r->occupancy, cols[1][i] = r->path, cols[2][i] = r->depth;
        cols[3][i] = r->compute, cols[4][i] = r->N, cols[5][i] = r->W;
        k[i] = r->K;
    }
    meta.format = PASCAL_SINK_CSV;
    meta.path = path;
    rc = ok ? pascal_spot_sink_table(&meta, pc, 6, rc_k, 1, n, (const void *const *)cols,
                         (const double *const *)&k, err)
            : pascal_error_set(err, PASCAL_ENOMEM, "%s: out of memory", path);
    for (int j = 0; j < 6; j++)
        free(cols[j]);
    free(k);
    return rc;
}
