/* pascal merge: join the shard files of one sweep into the file a single run
 * would have written. */
#include <stdio.h>
#include <string.h>

#include "programs/cli.h"
#include "output/sink.h"

static const char *usage_text =
    "usage: pascal merge -o OUT.h5 SHARD.h5...\n\n"
    "Joins the HDF5 files of `pascal run SPEC --shard K/N` (every K from 1 to N,\n"
    "in any order) into one file whose rows are those of a single run of SPEC.\n"
    "CSV shards need no command: keep the first file's header and append the\n"
    "others without theirs (tail -n +2).";

int cli_merge(int argc, char **argv)
{
    cli_flag flags[] = {
        {"output", "PATH", "merged file (alias -o); written as PATH.tmp.PID, renamed when done", 0, 0},
    };
    char *pos[4096];
    int npos, rc;
    pascal_error err = {0};
    for (int i = 0; i < argc; i++)
        if (strcmp(argv[i], "-o") == 0)
            argv[i] = "--output";
    rc = cli_parse("merge", usage_text, argc, argv, flags, 1, pos, 4096, &npos);
    if (rc != CLI_OK)
        return rc < 0 ? CLI_OK : rc;
    if (!flags[0].given || npos < 1) {
        fprintf(stderr, "pascal merge: expected -o OUT.h5 and at least one shard file, got %s\n",
                flags[0].given ? "no shard file" : "no -o");
        return CLI_USAGE;
    }
    rc = pascal_h5_merge(flags[0].value, (const char *const *)pos, npos, &err);
    if (rc != 0) {
        fprintf(stderr, "pascal merge: %s\n", err.msg);
        /* Bad shards or -o: 2; a failure while writing (a full disk): 1. */
        return rc == PASCAL_EINPUT ? CLI_USAGE : CLI_FAIL;
    }
    printf("pascal merge: %d shards -> %s\n", npos, flags[0].value);
    return CLI_OK;
}
