/* Crash safety of HDF5 sweep files (internal to output/; the design and its
 * guarantees are in docs/reliability.md).
 *
 * An HDF5 file whose writer is killed outright (SIGKILL, the OOM killer, a
 * power cut) cannot be trusted: its metadata (chunk index, dataset sizes)
 * lives partly in the library's cache.  Its raw chunks, though, are written
 * with one pwrite each and never move.  So while a sink writes, a journal
 * "<dest>.journal" beside the destination records, for every whole chunk
 * once it is written, the file offset, stored size and filter mask of each
 * column's chunk.  pascal_sink_recover() copies the recorded chunks of a
 * killed run's file, byte for byte, into a new file (H5Dwrite_chunk), which
 * becomes "<dest>.partial"; `run --resume` continues from there.
 *
 * Records are written after their chunks, so after SIGKILL every record's
 * bytes are in the (surviving) page cache.  After a reboot only what reached
 * the disk counts: at most once a second the journal syncs the file, then
 * appends a sync mark and syncs itself; a journal from another boot (or
 * another machine) is trusted up to its last sync mark.  Each record
 * carries a CRC of itself; the file is named by device and inode, so a
 * journal never describes another file of the same name.
 *
 * A journal appears only whole (start writes it under a temporary name and
 * renames it), and a resumed run opens its partial file for writing only
 * once journaled (pascal_sink_resume): a resume killed at any moment leaves
 * a partial file HDF5 can open, or a journal that records all its chunks. */
#ifndef PASCAL_OUTPUT_JOURNAL_H
#define PASCAL_OUTPUT_JOURNAL_H

#include "output/sink_internal.h"

typedef struct pascal_journal pascal_journal;

/* Starts "<sink->dest>.journal" for the open HDF5 sink (fresh, or resumed
 * and still open read-only) and records the whole chunks already in its
 * file; the journal appears under its name only then, synced. */
int pascal_journal_start(pascal_sink *sink, const pascal_sink_meta *meta, pascal_error *err);
/* Records the whole chunks written since the last call; syncs when a
 * second has passed since the last sync. */
int pascal_journal_note(pascal_sink *sink, pascal_error *err);
/* MPI runs (h5_sink_mpi.c): the chunks come from every rank, so only the
 * caller knows when they are all on disk.  sync_due says whether a sync mark
 * is due (a second since the last); note_synced records the chunks written
 * since the last call and, when synced (the caller has flushed every rank's
 * bytes), appends a sync mark; it never syncs on its own clock. */
int pascal_journal_sync_due(const pascal_sink *sink);
int pascal_journal_note_synced(pascal_sink *sink, int synced, pascal_error *err);
/* A stop closed the journal's file cleanly (suspend): seals the journal,
 * with the file's size and modification time, and renames it to
 * "<dest>.partial.index", which a resume of that very file reads instead of
 * walking HDF5's chunk index (h5_journal.c).  0, or -1 when it could not
 * (the journal is then as it was); close it either way. */
int pascal_journal_seal(pascal_journal *j, const char *dest);
/* Closes the journal; remove: unlink it too (its file is complete, or
 * consistent, or gone).  NULL is a no-op. */
void pascal_journal_close(pascal_journal *j, int remove);

/* A journal's text header, as pascal_journal_parse_header reads it. */
#define PASCAL_JOURNAL_MAX_ATTRS 32
typedef struct pascal_journal_header {
    char file[256];                /* the data file's name, beside dest */
    unsigned long long dev, ino;   /* and its identity */
    char boot[64];
    long long chunk;
    int level, shuffle, ncols;
    char spec[65];                 /* sha256 of the spec text */
    pascal_attr attrs[PASCAL_JOURNAL_MAX_ATTRS]; /* identity attributes (values point into the text) */
    int nattrs;
    size_t records;                /* offset of the first record */
} pascal_journal_header;

/* Parses the header at the start of a journal's bytes in place (newlines
 * become NULs); 0 when well formed. */
int pascal_journal_parse_header(char *text, size_t len, pascal_journal_header *h);

/* The record at byte at of a journal's bytes p[0, len) whose chunk records
 * have ncols columns: its magic, row (rows for a sync or closed record) and
 * length.  0 when it is whole, of a known kind, with a valid CRC; -1 when
 * torn (a kill's end), unknown or past len. */
int pascal_journal_record(const unsigned char *p, size_t len, size_t at, int ncols,
                          uint32_t *magic, uint64_t *row, size_t *size);

/* Accessors of h5_sink.c for the journal and recovery. */
void pascal_h5sink_layout(const pascal_sink *sink, int64_t *rows, int64_t *chunk, int *level,
                          int *shuffle);
hid_t pascal_h5sink_dataset(const pascal_sink *sink, int j);
/* Where the chunk of column j starting at row was stored: what
 * H5Dget_chunk_info_by_coord says, without its walk of the index for the
 * chunks the sink has just written.  0, or -1 when there is none. */
int pascal_h5sink_chunk_info(const pascal_sink *sink, int j, int64_t row, unsigned *mask,
                             uint64_t *addr, uint64_t *size);
/* Appends one whole chunk to every column from its stored bytes. */
int pascal_h5sink_put_chunk(pascal_sink *sink, const void *const *bytes, const size_t *sizes,
                            const unsigned *masks, pascal_error *err);

#endif
