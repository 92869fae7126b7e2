/* The byte layout of "<dest>.journal", shared by its writer (h5_journal.c)
 * and its reader (h5_recover.c); see h5_journal.c. */
#ifndef PASCAL_OUTPUT_JOURNAL_FORMAT_H
#define PASCAL_OUTPUT_JOURNAL_FORMAT_H

#include <stddef.h>
#include <string.h>

#define PASCAL_JOURNAL_MAGIC "pascal-journal"
#define PASCAL_JOURNAL_CHUNK 0x4b4e4843u /* "CHNK" */
#define PASCAL_JOURNAL_SYNC 0x434e5953u  /* "SYNC" */
#define PASCAL_JOURNAL_CLOSED 0x534f4c43u /* "CLOS": the last record of an index */
#define PASCAL_JOURNAL_CLOSED_LEN 40     /* head, u64 bytes, i64 mtime s, i64 ns */
#define PASCAL_JOURNAL_HEAD 16           /* magic, crc, u64 row or rows */
#define PASCAL_JOURNAL_COL 24            /* u64 offset, u64 size, u32 mask, u32 0 */

/* Root attributes of the run that the journal's header keeps, to compare a
 * killed run's inputs with those of the run that would continue it. */
static inline int pascal_journal_identity_key(const char *key)
{
    static const char *const keys[] = {"raw_range", "shard", "spec_path", "device_path",
                                       "calibration"};
    if (!key)
        return 0;
    if (strncmp(key, "sha256_", 7) == 0)
        return 1;
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (strcmp(key, keys[i]) == 0)
            return 1;
    return 0;
}

/* This boot's identity (Linux boot_id), "unknown" elsewhere. */
void pascal_journal_boot_id(char *buf, size_t len);

#endif
