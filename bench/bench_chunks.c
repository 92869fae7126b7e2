/* Chunk compression (output/zchunk.h, docs/hdf5.md section 4).
 *
 *   bench_chunks [ROWS] [REPS]
 *
 * Runs the static sweep of bench_scale's e2e benchmark (M = 192, N = 8192,
 * uniform phases, 256 capacities a phase vector; 4 point and 8 result
 * columns) for ROWS rows (default 2^20) into an uncompressed HDF5 file in
 * /tmp, reads its 12 columns back, and encodes every 65536-row chunk of each
 * as the HDF5 sink stores it, at deflate levels 1, 2 (igzip), 3 and 6
 * (zlib), and with the baseline that HDF5's own filters amount to: zlib's
 * compress2 at level 1 over the whole shuffled chunk.  Prints, per encoder,
 * the median over REPS (default 3) of the single-thread throughput in MB/s
 * of raw column bytes, the stored bytes per 8-byte value, and the speed
 * ratio to the baseline timed in the same process.  Every encoded chunk is
 * decoded with zlib's uncompress and compared before it counts.
 *
 *   bench_chunks lookup [CHUNKS]
 *
 * The cost of HDF5's H5Dget_chunk_info_by_coord, which the journal avoids
 * (output/h5_sink.c, put_chunk): a 1.10-format file (the format sweep
 * files use) gets CHUNKS (default 40000) small chunks, each looked up right
 * after it is written; prints the mean lookup time per 10000 chunks. */
#include <hdf5.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "bench_util.h"
#include "common/clock.h"
#include "engine/run.h"
#include "output/zchunk.h"

#define CHUNK 65536
#define NENC 5

static const char *const cols[12] = {"points/seed", "points/C", "points/N", "points/M",
                                     "results/theta", "results/T_star", "results/K_ttl",
                                     "results/rho_ttl", "results/K_lru_lo", "results/K_lru_hi",
                                     "results/K_bound", "results/rho_che"};

static void die(const char *what)
{
    fprintf(stderr, "bench_chunks: %s\n", what);
    exit(1);
}

/* The 12 columns of rows rows, as 8-byte values, column after column. */
static unsigned char *make_columns(size_t rows)
{
    char text[1024], path[256];
    pascal_spec *spec = NULL;
    pascal_error err = {0};
    pascal_run_opts o = {0};
    pascal_run_stats st;
    unsigned char *data = malloc(12 * rows * 8);
    snprintf(text, sizeof text,
             "name: bench-chunks\nmodels: [ttl, lru_band, residency, che]\n"
             "columns: [theta, T_star, K_ttl, rho_ttl, K_lru_lo, K_lru_hi, K_bound, rho_che]\n"
             "fixed: {N: 8192, M: 192, pattern: uniform}\n"
             "axes:\n  seed: {from: 1, to: %zu, step: 1}\n  C: {from: 16, to: 4096, step: 16}\n"
             "output: {compression: 0}\n", rows / 256);
    snprintf(path, sizeof path, "/tmp/pascal-bench-chunks-%d.h5", (int)getpid());
    if (!data || pascal_spec_parse(text, strlen(text), "bench.yaml", &spec, &err) != 0)
        die(err.msg[0] ? err.msg : "out of memory");
    o.out_path = path;
    o.compression = -1;
    if (pascal_run(spec, &o, &st, &err) != 0)
        die(err.msg);
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    for (int c = 0; c < 12; c++) {
        hid_t d = H5Dopen2(f, cols[c], H5P_DEFAULT);
        hid_t t = c < 4 ? H5T_NATIVE_INT64 : H5T_NATIVE_DOUBLE;
        if (d < 0 || H5Dread(d, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, data + (size_t)c * rows * 8) < 0)
            die("reading the sweep back");
        H5Dclose(d);
    }
    H5Fclose(f);
    unlink(path);
    pascal_spec_free(spec);
    return data;
}

/* The baseline: HDF5's shuffle, then zlib over the chunk at level 1. */
static size_t baseline(const unsigned char *src, unsigned char *shuf, unsigned char *out, size_t cap)
{
    uLongf len = (uLongf)cap;
    for (size_t i = 0; i < CHUNK; i++)
        for (size_t b = 0; b < 8; b++)
            shuf[b * CHUNK + i] = src[i * 8 + b];
    if (compress2(out, &len, shuf, CHUNK * 8, 1) != Z_OK)
        die("zlib failed");
    return len;
}

static void check(const unsigned char *z, size_t len, const unsigned char *src, unsigned char *tmp)
{
    uLongf n = CHUNK * 8;
    if (uncompress(tmp, &n, z, (uLong)len) != Z_OK || n != CHUNK * 8)
        die("a chunk does not decode");
    for (size_t i = 0; i < CHUNK; i++)
        for (size_t b = 0; b < 8; b++)
            if (tmp[b * CHUNK + i] != src[i * 8 + b])
                die("a chunk decodes to other bytes");
}

static int bench_lookup(long chunks)
{
    char path[256];
    hsize_t zero = 0, unlimited = H5S_UNLIMITED, len = 64;
    char buf[64] = {0};
    double t = 0;
    snprintf(path, sizeof path, "/tmp/pascal-bench-lookup-%d.h5", (int)getpid());
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS), dcpl = H5Pcreate(H5P_DATASET_CREATE);
    H5Pset_libver_bounds(fapl, H5F_LIBVER_V110, H5F_LIBVER_V110);
    H5Pset_chunk(dcpl, 1, &len);
    H5Pset_deflate(dcpl, 1);
    hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
    hid_t space = H5Screate_simple(1, &zero, &unlimited);
    hid_t d = H5Dcreate2(f, "x", H5T_NATIVE_DOUBLE, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    if (d < 0)
        die("creating the lookup file");
    printf("H5Dget_chunk_info_by_coord after each chunk written, HDF5 1.10 format\n");
    for (long k = 0; k < chunks; k++) {
        hsize_t off = (hsize_t)k * len, size = off + len, sz;
        unsigned mask;
        haddr_t addr;
        if (H5Dset_extent(d, &size) < 0 || H5Dwrite_chunk(d, H5P_DEFAULT, 0, &off, 8, buf) < 0)
            die("writing a chunk");
        double t0 = pascal_now();
        if (H5Dget_chunk_info_by_coord(d, &off, &mask, &addr, &sz) < 0)
            die("looking a chunk up");
        t += pascal_now() - t0;
        if ((k + 1) % 10000 == 0) {
            printf("chunks %6ld to %6ld: %8.1f us a lookup (%.3f us per chunk before it)\n",
                   k - 9999, k + 1, 1e6 * t / 10000, 1e6 * t / 10000 / (double)(k + 1 - 5000));
            t = 0;
        }
    }
    H5Dclose(d), H5Sclose(space), H5Pclose(dcpl), H5Pclose(fapl), H5Fclose(f);
    unlink(path);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "lookup") == 0)
        return bench_lookup(argc > 2 ? atol(argv[2]) : 40000);
    size_t rows = argc > 1 ? (size_t)atof(argv[1]) : (size_t)1 << 20;
    int reps = argc > 2 ? atoi(argv[2]) : 3;
    const int levels[NENC] = {0, 1, 2, 3, 6}; /* 0: the baseline */
    double secs[NENC][16];
    size_t bytes[NENC] = {0};
    rows -= rows % CHUNK;
    if (rows == 0 || reps < 1 || reps > 16)
        die("usage: bench_chunks [ROWS >= 65536] [REPS 1..16]");
    unsigned char *data = make_columns(rows);
    unsigned char *shuf = malloc(CHUNK * 8), *tmp = malloc(CHUNK * 8);
    size_t cap = compressBound(CHUNK * 8);
    unsigned char *out = malloc(cap);
    pascal_zchunk *z[NENC] = {NULL};
    for (int e = 1; e < NENC; e++)
        if (!(z[e] = pascal_zchunk_new(CHUNK, 8, levels[e], 1)))
            die("out of memory");
    for (int r = 0; r < reps; r++)
        for (int e = 0; e < NENC; e++) {
            double t = 0;
            bytes[e] = 0;
            for (size_t c = 0; c < 12 * rows; c += CHUNK) {
                const unsigned char *src = data + c * 8, *zo = out;
                size_t len;
                double t0 = pascal_now();
                if (e == 0)
                    len = baseline(src, shuf, out, cap);
                else if (pascal_zchunk_encode(z[e], src, CHUNK, &zo, &len) != 0)
                    die("an encoder failed");
                t += pascal_now() - t0;
                check(zo, len, src, tmp);
                bytes[e] += len;
            }
            secs[e][r] = t;
        }
    printf("chunk compression, %zu rows x 12 columns of the e2e sweep, %d-row chunks, "
           "one thread, median of %d\n", rows, CHUNK, reps);
    double base = median(secs[0], reps);
    for (int e = 0; e < NENC; e++) {
        double m = median(secs[e], reps);
        printf("%-34s %7.0f MB/s  %.3f bytes/value  speed x%.2f of the baseline\n",
               e == 0 ? "baseline: zlib 1 over the chunk" :
               levels[e] <= 2 ? (levels[e] == 1 ? "level 1 (igzip, stored planes)" : "level 2 (igzip, stored planes)")
                              : (levels[e] == 3 ? "level 3 (zlib, stored planes)" : "level 6 (zlib, stored planes)"),
               12.0 * (double)rows * 8 / m / 1e6, (double)bytes[e] / (12.0 * (double)rows), base / m);
    }
    for (int e = 1; e < NENC; e++)
        pascal_zchunk_free(z[e]);
    free(data), free(shuf), free(tmp), free(out);
    return 0;
}
