/* How sweep files are laid out on disk: the HDF5 format version and the
 * chunk length of the columns.
 *
 * Small sweeps must give small files.  A chunked dataset stores every chunk
 * whole, so 65536-row chunks made a 2-point sweep take megabytes; a chunk
 * therefore never holds more rows than the run writes.  The 1.10 file format
 * (HDF5 1.10 or later reads it; Debian 12 ships 1.10.8) indexes the chunks
 * of an extendible dataset with an extensible array instead of a version-1
 * B-tree, whose nodes cost about 2 KiB per column even for one chunk, and it
 * is also what the virtual datasets of the /cube view need.  Large sweeps
 * keep 65536-row chunks (512 KiB of float64), which HDF5 and h5py read and
 * write at full speed with their default 1 MiB chunk cache. */
#include "output/sink_internal.h"

/* The version bounds, on every open for writing too (a resume), so that
 * what a resume adds is in the same format as what the run wrote. */
hid_t pascal_h5_write_fapl(hid_t base)
{
    hid_t fapl = base == H5P_DEFAULT ? H5Pcreate(H5P_FILE_ACCESS) : H5Pcopy(base);
    if (fapl >= 0 && H5Pset_libver_bounds(fapl, H5F_LIBVER_V110, H5F_LIBVER_V110) < 0) {
        H5Pclose(fapl);
        fapl = -1;
    }
    return fapl;
}

/* The MPI writer (h5_sink_mpi.c) passes its MPI-IO access list: the
 * version bounds go on a copy, so the caller's list stays as it was. */
/* Files never reuse freed space (H5F_FSPACE_STRATEGY_NONE): every
 * allocation comes from the end of the file, which is where the sink finds
 * the chunks it writes (h5_sink.c, put_chunk).  Sweep files are appended to
 * and never shrink, so this costs nothing measurable in size. */
hid_t pascal_h5_create_fapl(const char *path, hid_t base)
{
    hid_t fapl = pascal_h5_write_fapl(base), file = -1;
    hid_t fcpl = H5Pcreate(H5P_FILE_CREATE);
    if (fapl >= 0 && fcpl >= 0 &&
        H5Pset_file_space_strategy(fcpl, H5F_FSPACE_STRATEGY_NONE, 0, 1) >= 0)
        file = H5Fcreate(path, H5F_ACC_TRUNC, fcpl, fapl);
    if (fcpl >= 0)
        H5Pclose(fcpl);
    if (fapl >= 0)
        H5Pclose(fapl);
    return file;
}

int64_t pascal_h5_chunk_rows(int64_t requested, int64_t expected)
{
    int64_t n = requested > 0 ? requested : PASCAL_H5_DEFAULT_CHUNK_ROWS;
    if (n > PASCAL_H5_MAX_CHUNK_ROWS)
        n = PASCAL_H5_MAX_CHUNK_ROWS;
    if (expected > 0 && n > expected)
        n = expected;
    return n;
}
