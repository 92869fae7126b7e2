/* Chunk encoding for the HDF5 sink: shuffle, then one zlib stream per chunk
 * (output/zchunk.h).  Levels 1 and 2 use ISA-L's igzip, levels 3 to 9 zlib;
 * both store the byte planes that do not shrink. */
#include "output/zchunk.h"

#include <isa-l/igzip_lib.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#define ISAL_LEVEL_MAX 2     /* igzip's level 3 is slower and no smaller here */
#define STORED_MAX 65535     /* bytes in one stored deflate block (RFC 1951 3.2.4) */

struct pascal_zchunk {
    size_t rows, esize, nplanes;
    int level;
    unsigned char *in;       /* the chunk as stored, shuffled */
    unsigned char *out;      /* its zlib stream */
    size_t cap;
    struct isal_zstream is;  /* levels 1..2 */
    unsigned char *level_buf;
    size_t level_buf_size;
    z_stream zs, zprobe;     /* levels 3..9: kept from chunk to chunk */
    int zready, zlevel;      /* the streams exist; zs's current level */
};

/* The shuffle of 8 rows of 8-byte values at once: the 8 x 8 byte matrix
 * (row r = value r, column c = its byte c) is transposed in registers by
 * swapping 4 x 4, then 2 x 2, then 1 x 1 blocks, and word c of the result
 * (byte c of the 8 values) goes to plane c.  Same bytes as the loop below,
 * about ten times fewer instructions. */
static void shuffle8(unsigned char *dst, size_t rows, const unsigned char *src, size_t n)
{
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t a[8], t;
        memcpy(a, src + i * 8, sizeof a);
        for (int r = 0; r < 4; r++) {
            t = ((a[r] >> 32) ^ a[r + 4]) & 0x00000000ffffffffULL;
            a[r] ^= t << 32, a[r + 4] ^= t;
        }
        for (int r = 0; r < 8; r += (r & 1) ? 3 : 1) { /* r = 0, 1, 4, 5 */
            t = ((a[r] >> 16) ^ a[r + 2]) & 0x0000ffff0000ffffULL;
            a[r] ^= t << 16, a[r + 2] ^= t;
        }
        for (int r = 0; r < 8; r += 2) {
            t = ((a[r] >> 8) ^ a[r + 1]) & 0x00ff00ff00ff00ffULL;
            a[r] ^= t << 8, a[r + 1] ^= t;
        }
        for (int c = 0; c < 8; c++)
            memcpy(dst + (size_t)c * rows + i, &a[c], 8);
    }
    for (; i < n; i++)
        for (size_t c = 0; c < 8; c++)
            dst[c * rows + i] = src[i * 8 + c];
}

#define PROBE_BYTES 4096

/* 1 when the first PROBE_BYTES of a plane do not shrink by 10 % at the
 * column's level. */
static int incompressible(z_stream *p, const unsigned char *in, size_t len)
{
    unsigned char out[PROBE_BYTES + PROBE_BYTES / 8 + 64];
    size_t m = len < PROBE_BYTES ? len : PROBE_BYTES;
    deflateReset(p);
    p->next_in = (unsigned char *)in;
    p->avail_in = (uInt)m;
    p->next_out = out;
    p->avail_out = (uInt)sizeof out;
    if (deflate(p, Z_FINISH) != Z_STREAM_END)
        return 0;
    return p->total_out * 10 > m * 9;
}

/* Levels 3..9: zlib over the shuffled chunk, one byte plane (byte b of every value) at a
 * time in one stream: a plane whose sample does not shrink (the low
 * mantissa bytes of most computed values) is stored (deflateParams level
 * 0) instead of searched for matches it does not have, which costs a copy
 * rather than about ten times that.  The decision depends on the chunk
 * alone, so a resumed or sharded run stores the same bytes.  The result is
 * one standard zlib stream: HDF5's deflate filter reads it as any other. */
static int zlib_planes(pascal_zchunk *z, size_t *len)
{
    z_stream *s = &z->zs;
    size_t plane = z->rows * z->esize / z->nplanes;
    if (deflateReset(s) != Z_OK ||
        (z->zlevel != z->level && deflateParams(s, z->level, Z_DEFAULT_STRATEGY) != Z_OK))
        return -1;
    z->zlevel = z->level;
    s->next_out = z->out;
    s->avail_out = (uInt)z->cap;
    for (size_t b = 0; b < z->nplanes; b++) {
        unsigned char *in = z->in + b * plane;
        int last = b + 1 == z->nplanes;
        int level = plane >= PROBE_BYTES && incompressible(&z->zprobe, in, plane) ? 0 : z->level;
        if (level != z->zlevel && deflateParams(s, level, Z_DEFAULT_STRATEGY) != Z_OK)
            return -1;
        z->zlevel = level;
        s->next_in = in;
        s->avail_in = (uInt)plane;
        if (deflate(s, last ? Z_FINISH : Z_NO_FLUSH) != (last ? Z_STREAM_END : Z_OK))
            return -1;
    }
    *len = s->total_out;
    return 0;
}

/* Writes the plane p[0..len) as stored blocks at o (byte-aligned, not
 * final); returns the bytes written. */
static size_t stored_plane(unsigned char *o, const unsigned char *p, size_t len)
{
    unsigned char *start = o;
    while (len > 0) {
        size_t k = len < STORED_MAX ? len : STORED_MAX;
        o[0] = 0; /* BFINAL 0, BTYPE 00, then padding to the byte */
        o[1] = (unsigned char)(k & 0xff), o[2] = (unsigned char)(k >> 8);
        o[3] = (unsigned char)(~k & 0xff), o[4] = (unsigned char)((~k >> 8) & 0xff);
        memcpy(o + 5, p, k);
        o += 5 + k, p += k, len -= k;
    }
    return (size_t)(o - start);
}

/* Levels 1..2: each plane is a raw igzip stream ended by a sync flush, so
 * that it stops on a byte boundary without a final block, or stored blocks
 * when igzip's output would not be a tenth smaller (igzip is then stopped
 * by the output room it was given, before the plane's end).  The zlib
 * header, the final empty block and the Adler-32 of the whole chunk are
 * written here around them (RFC 1950). */
static int isal_planes(pascal_zchunk *z, size_t *len)
{
    size_t plane = z->rows * z->esize / z->nplanes, at = 2;
    struct isal_zstream *s = &z->is;
    uint32_t adler;
    z->out[0] = 0x78;                          /* deflate, 32 KiB window */
    z->out[1] = z->level == 1 ? 0x01 : 0x5e;   /* FLEVEL fastest / fast; FCHECK */
    for (size_t b = 0; b < z->nplanes; b++) {
        unsigned char *p = z->in + b * plane;
        isal_deflate_init(s);
        s->level = (uint32_t)z->level;
        s->level_buf = z->level_buf;
        s->level_buf_size = (uint32_t)z->level_buf_size;
        s->gzip_flag = IGZIP_DEFLATE;
        s->end_of_stream = 0;
        s->flush = SYNC_FLUSH;
        s->next_in = p;
        s->avail_in = (uint32_t)plane;
        s->next_out = z->out + at;
        s->avail_out = (uint32_t)(plane - plane / 10);
        if (isal_deflate(s) != COMP_OK)
            return -1;
        if (s->avail_in == 0 && (s->internal_state.state == ZSTATE_NEW_HDR || s->avail_out > 0))
            at += s->total_out;
        else
            at += stored_plane(z->out + at, p, plane);
    }
    adler = isal_adler32(1, z->in, z->rows * z->esize);
    memcpy(z->out + at, "\x01\x00\x00\xff\xff", 5); /* final empty stored block */
    at += 5;
    for (int i = 3; i >= 0; i--)
        z->out[at++] = (unsigned char)(adler >> (8 * i));
    *len = at;
    return 0;
}

pascal_zchunk *pascal_zchunk_new(size_t rows, size_t esize, int level, int shuffle)
{
    pascal_zchunk *z;
    size_t bytes = rows * esize;
    if (level < 1 || level > 9 || rows == 0 || esize == 0 || !(z = calloc(1, sizeof *z)))
        return NULL;
    z->rows = rows, z->esize = esize, z->level = level;
    z->nplanes = shuffle && esize > 1 ? esize : 1;
    /* stored planes, their block headers, the zlib frame; zlib's own bound */
    z->cap = bytes + 5 * (bytes / STORED_MAX + z->nplanes) + 16;
    if (level > ISAL_LEVEL_MAX)
        z->cap = compressBound((uLong)bytes) + 1024; /* + plane switches */
    z->level_buf_size = level == 1 ? ISAL_DEF_LVL1_DEFAULT : ISAL_DEF_LVL2_DEFAULT;
    if (!(z->in = malloc(bytes)) || !(z->out = malloc(z->cap)) ||
        (level <= ISAL_LEVEL_MAX && !(z->level_buf = malloc(z->level_buf_size)))) {
        pascal_zchunk_free(z);
        return NULL;
    }
    if (level > ISAL_LEVEL_MAX) {
        if (deflateInit(&z->zs, level) != Z_OK) {
            pascal_zchunk_free(z);
            return NULL;
        }
        if (deflateInit(&z->zprobe, level) != Z_OK) {
            deflateEnd(&z->zs);
            pascal_zchunk_free(z);
            return NULL;
        }
        z->zready = 1;
        z->zlevel = level;
    }
    return z;
}

int pascal_zchunk_encode(pascal_zchunk *z, const void *data, size_t n,
                         const unsigned char **out, size_t *len)
{
    const unsigned char *src = data;
    size_t es = z->esize, rows = z->rows;
    if (z->nplanes == 8) {
        shuffle8(z->in, rows, src, n);
        for (size_t b = 0; b < es; b++)
            memset(z->in + b * rows + n, 0, rows - n);
    } else if (z->nplanes > 1) {
        for (size_t b = 0; b < es; b++) {
            unsigned char *d = z->in + b * rows;
            for (size_t i = 0; i < n; i++)
                d[i] = src[i * es + b];
            memset(d + n, 0, rows - n);
        }
    } else {
        memcpy(z->in, src, n * es);
        memset(z->in + n * es, 0, (rows - n) * es);
    }
    *out = z->out;
    return z->level <= ISAL_LEVEL_MAX ? isal_planes(z, len) : zlib_planes(z, len);
}

void pascal_zchunk_free(pascal_zchunk *z)
{
    if (!z)
        return;
    if (z->zready) {
        deflateEnd(&z->zs);
        deflateEnd(&z->zprobe);
    }
    free(z->in);
    free(z->out);
    free(z->level_buf);
    free(z);
}
