/* What the spot-check table writers share (internal to spot/; spot.h is
 * the module's interface). */
#ifndef PASCAL_SPOT_SPOT_INTERNAL_H
#define PASCAL_SPOT_SPOT_INTERNAL_H

#include <stdint.h>

#include "common/error.h"
#include "output/sink.h"

/* Writes a whole table through output/sink.h in one append (table.c): the
 * file appears under meta->path only when complete. */
int pascal_spot_sink_table(const pascal_sink_meta *meta, const pascal_column_desc *pcols, int npc,
                           const pascal_column_desc *rcols, int nrc, int64_t rows,
                           const void *const *points, const double *const *results,
                           pascal_error *err);

#endif
