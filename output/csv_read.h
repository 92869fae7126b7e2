/* Reading CSV tables one row at a time: the files `pascal run --format csv`
 * writes (output/csv_sink.c) and reference-run tables, for `pascal info`
 * and `pascal report`.
 *
 * RFC 4180 fields (quotes around a field, "" for a quote inside it; a
 * quoted field may not span lines), one header line of column names, then
 * one row per line; lines that start with '#' and blank lines are skipped.
 * A row with another number of fields than the header is an error naming
 * the file and line.  Memory is one line, whatever the file's size. */
#ifndef PASCAL_OUTPUT_CSV_READ_H
#define PASCAL_OUTPUT_CSV_READ_H

#include <stdint.h>

#include "common/error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pascal_csv_reader pascal_csv_reader;

/* Opens path and reads its header.  PASCAL_EIO when it cannot be read,
 * PASCAL_EINPUT when it has no header or an unterminated quote. */
int pascal_csv_open(const char *path, pascal_csv_reader **out, pascal_error *err);
/* Columns of the header and their names (borrowed until close). */
int pascal_csv_ncols(const pascal_csv_reader *r);
const char *pascal_csv_name(const pascal_csv_reader *r, int col);
/* Reads the next row: 1 and fields[0..ncols-1] (borrowed until the next
 * call), 0 at the end of the file, or a negative status. */
int pascal_csv_next(pascal_csv_reader *r, const char **fields, pascal_error *err);
/* Line number (1-based) of the row or header read last. */
int64_t pascal_csv_line(const pascal_csv_reader *r);
/* Starts again at the first row after the header. */
int pascal_csv_rewind(pascal_csv_reader *r, pascal_error *err);
void pascal_csv_close(pascal_csv_reader *r);

#ifdef __cplusplus
}
#endif

#endif
