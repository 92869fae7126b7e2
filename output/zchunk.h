/* One column's chunks encoded as HDF5's shuffle and deflate filters would
 * store them, so that the HDF5 sink can write them with H5Dwrite_chunk from
 * several threads at once (output/h5_sink.c) and any HDF5 reader decodes
 * them through the declared filters.
 *
 * The result is always one standard zlib stream (RFC 1950) of the shuffled
 * chunk.  Levels 1 and 2 are written by ISA-L's igzip (about six times
 * zlib's speed at level 1 for a similar size, docs/hdf5.md), levels 3 to 9
 * by zlib.  Either way a byte plane (byte b of every value) that does not
 * shrink by a tenth, such as the low mantissa bytes of a computed double,
 * is stored rather than compressed.  The bytes depend on the chunk alone
 * (never on earlier chunks), so a resumed or sharded run stores the same
 * chunk the same way. */
#ifndef PASCAL_OUTPUT_ZCHUNK_H
#define PASCAL_OUTPUT_ZCHUNK_H

#include <stddef.h>

typedef struct pascal_zchunk pascal_zchunk;

/* An encoder for chunks of `rows` values of `esize` bytes at deflate
 * `level` (1..9), shuffled when `shuffle` and esize > 1.  NULL when out of
 * memory or the level is out of range. */
pascal_zchunk *pascal_zchunk_new(size_t rows, size_t esize, int level, int shuffle);

/* Encodes the first n (<= rows) values at src, the rows past n as zeros,
 * into the encoder's buffer: *out and *len until the next call.  Returns 0,
 * or -1 when the compressor fails (it does not on valid input). */
int pascal_zchunk_encode(pascal_zchunk *z, const void *src, size_t n,
                         const unsigned char **out, size_t *len);

void pascal_zchunk_free(pascal_zchunk *z);

#endif
