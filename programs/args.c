/* Helpers the commands share (programs/cli.h): the command line recorded as
 * provenance, an early check that an output can be written, and lists of
 * integers. */
#include "programs/cli.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

char *cli_command_line(const char *cmd, int argc, char **argv)
{
    size_t len = strlen(cmd) + 8;
    char *s;
    for (int i = 0; i < argc; i++)
        len += strlen(argv[i]) + 1;
    if (!(s = malloc(len)))
        return NULL;
    snprintf(s, len, "pascal %s", cmd);
    for (int i = 0; i < argc; i++)
        strcat(strcat(s, " "), argv[i]);
    return s;
}

int cli_check_output(const char *path, pascal_error *err)
{
    char tmp[4096];
    int fd;
    if (snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid()) >= (int)sizeof tmp)
        return pascal_error_set(err, PASCAL_EINPUT, "%s: path too long", path);
    fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL, 0644);
    if (fd < 0)
        return pascal_error_set(err, PASCAL_EINPUT, "%s: cannot create the output: %s", path,
                                strerror(errno));
    close(fd);
    unlink(tmp);
    return 0;
}

int cli_int_list(const char *name, const char *text, int64_t min, int64_t **out,
                           int *n, pascal_error *err)
{
    const char *s = text;
    int64_t *v = NULL;
    int cap = 0;
    *out = NULL, *n = 0;
    for (;;) {
        char *end;
        long long x;
        errno = 0;
        x = strtoll(s, &end, 10);
        if (end == s || errno || (*end != ',' && *end) || x < min || x > ((int64_t)1 << 40)) {
            free(v);
            *n = 0;
            return pascal_error_set(err, PASCAL_EINPUT,
                                    "--%s: expected integers >= %lld separated by commas, got "
                                    "\"%s\"", name, (long long)min, text);
        }
        for (int i = 0; i < *n; i++)
            if (v[i] == x) {
                free(v);
                *n = 0;
                return pascal_error_set(err, PASCAL_EINPUT,
                                        "--%s: expected each value once, got %lld twice", name, x);
            }
        if (*n == cap) {
            int64_t *p = realloc(v, (size_t)(cap = cap ? 2 * cap : 8) * sizeof *p);
            if (!p) {
                free(v);
                *n = 0;
                return pascal_error_set(err, PASCAL_ENOMEM, "out of memory");
            }
            v = p;
        }
        v[(*n)++] = x;
        if (!*end)
            break;
        s = end + 1;
    }
    *out = v;
    return 0;
}

int cli_int_list_flag(const char *cmd, cli_flag *flags, int nflags, const char *name,
                      const char *dflt, int64_t min, int64_t **out, int *n)
{
    cli_flag *f = cli_find(flags, nflags, name);
    pascal_error err = {0};
    if (cli_int_list(name, f && f->given ? f->value : dflt, min, out, n, &err) != 0) {
        fprintf(stderr, "pascal %s: %s\n", cmd, err.msg);
        return CLI_USAGE;
    }
    return CLI_OK;
}
