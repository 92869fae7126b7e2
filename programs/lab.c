/* pascal lab: the cache lab (model/lab.h), an exact fully associative LRU toy,
 * as an interactive terminal instrument and as a scripted one-shot for tests
 * and documents.  The instrument reads one command per line from stdin; on a
 * terminal a bad command is reported and the session goes on, otherwise (a
 * script piped in) the first bad command ends the run with status 2. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "programs/cli.h"
#include "model/lab.h"

static const char *usage_text =
    "usage: pascal lab                                   (interactive)\n"
    "       pascal lab --capacity N --stride N --steps K [--json]   (scripted)\n\n"
    "The cache lab: an exact fully associative LRU cache of N lines serving a\n"
    "request stream that cycles over `stride` distinct addresses.  It starts\n"
    "empty with 16 requests already counted; the scripted form sets capacity and\n"
    "stride, adds K requests, prints the state and exits.";

static const char *not_gpu =
    "Not a GPU cache: no sectors, no associativity conflicts, no cache operators, "
    "no hardware replacement policy.";

static const char *help_text =
    "commands:\n"
    "  reset         back to the start: empty cache, 16 requests counted\n"
    "  capacity N    set the cache to N lines (1..64) and replay the counted requests\n"
    "  stride N      cycle over N addresses (1..4096) and replay the counted requests\n"
    "  step [K]      add K requests (default 1)\n"
    "  show          print requests, hits, misses and the cache contents\n"
    "  help          this list\n"
    "  quit          leave (end of input also leaves)\n";

static void show(FILE *f, const pascal_lab *lab)
{
    double rate = lab->requests ? 100.0 * (double)lab->hits / (double)lab->requests : 0;
    fprintf(f, "capacity %d lines, stride %d (requests cycle over addresses 0..%d)\n",
            lab->capacity, lab->stride, lab->stride - 1);
    fprintf(f, "  requests %lld   hits %lld   misses %lld   hit rate %.1f%%\n",
            (long long)lab->requests, (long long)lab->hits, (long long)lab->misses, rate);
    fprintf(f, "  cache, most recent first: [");
    for (int i = 0; i < lab->used; i++)
        fprintf(f, "%s%d", i ? " " : "", lab->lines[i]);
    fprintf(f, "]%s\n", lab->used < lab->capacity ? " (lines free)" : "");
    if (lab->last != PASCAL_LAB_NONE)
        fprintf(f, "  last request: #%lld, address %d, %s\n", (long long)lab->requests,
                lab->last_address, lab->last == PASCAL_LAB_HIT ? "hit" : "miss");
}

static void show_json(FILE *f, const pascal_lab *lab)
{
    fprintf(f, "{\"capacity\": %d, \"stride\": %d, \"requests\": %lld, \"hits\": %lld, "
               "\"misses\": %lld, \"cache\": [", lab->capacity, lab->stride,
            (long long)lab->requests, (long long)lab->hits, (long long)lab->misses);
    for (int i = 0; i < lab->used; i++)
        fprintf(f, "%s%d", i ? ", " : "", lab->lines[i]);
    fprintf(f, "], \"last_address\": %d, \"last\": \"%s\", \"note\": \"%s\"}\n",
            lab->last_address,
            lab->last == PASCAL_LAB_HIT ? "hit" : lab->last == PASCAL_LAB_MISS ? "miss" : "none",
            not_gpu);
}

/* Parses a whole decimal integer in [lo, hi]. */
static int parse_int(const char *s, long long lo, long long hi, long long *out)
{
    char *end;
    long long v;
    errno = 0;
    v = strtoll(s, &end, 10);
    if (errno || end == s || *end || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

typedef struct lab_line {
    long lineno;
    const char *line;
    const char *tok[3];
    int ntok;
} lab_line;

/* Prints "<stdin>:LINE:COL: KEY: expected WHAT, got "TOKEN"" for token i. */
static int bad(const lab_line *l, int i, const char *key, const char *what)
{
    const char *t = i < l->ntok ? l->tok[i] : NULL;
    long col = t ? (long)(t - l->line) + 1 : (long)strlen(l->line) + 1;
    fprintf(stderr, "<stdin>:%ld:%ld: %s: expected %s, got %s%s%s\n", l->lineno, col, key, what,
            t ? "\"" : "", t ? t : "nothing", t ? "\"" : "");
    return CLI_USAGE;
}

/* A command with an integer argument in [lo, hi] (optional: default dflt). */
static int int_arg(const lab_line *l, long long lo, long long hi, int optional, long long dflt,
                   const char *what, long long *v)
{
    if (l->ntok > 2)
        return bad(l, 2, l->tok[0], "one argument");
    if (l->ntok < 2 && optional) {
        *v = dflt;
        return CLI_OK;
    }
    if (l->ntok < 2 || parse_int(l->tok[1], lo, hi, v) != 0)
        return bad(l, 1, l->tok[0], what);
    return CLI_OK;
}

/* Runs one command; *quit set on quit.  Returns CLI_OK or CLI_USAGE. */
static int command(pascal_lab *lab, const lab_line *l, int *quit)
{
    const char *c = l->tok[0];
    long long v;
    if (strcmp(c, "quit") == 0 || strcmp(c, "exit") == 0) {
        *quit = 1;
        return CLI_OK;
    }
    if (strcmp(c, "help") == 0) {
        printf("%s%s\n", help_text, not_gpu);
        return CLI_OK;
    }
    if (strcmp(c, "show") == 0 || strcmp(c, "reset") == 0) {
        if (l->ntok > 1)
            return bad(l, 1, c, "no argument");
        if (c[0] == 'r')
            pascal_lab_reset(lab);
    } else if (strcmp(c, "capacity") == 0) {
        if (int_arg(l, 1, PASCAL_LAB_MAX_CAPACITY, 0, 0, "an integer 1..64", &v))
            return CLI_USAGE;
        pascal_lab_set_capacity(lab, (int)v);
    } else if (strcmp(c, "stride") == 0) {
        if (int_arg(l, 1, PASCAL_LAB_MAX_STRIDE, 0, 0, "an integer 1..4096", &v))
            return CLI_USAGE;
        pascal_lab_set_stride(lab, (int)v);
    } else if (strcmp(c, "step") == 0) {
        long long room = PASCAL_LAB_MAX_REQUESTS - lab->requests;
        char what[96];
        snprintf(what, sizeof what, "a count 0..%lld (at most %d requests in all)", room,
                 PASCAL_LAB_MAX_REQUESTS);
        if (int_arg(l, 0, room, 1, 1, what, &v))
            return CLI_USAGE;
        pascal_lab_step(lab, v);
    } else {
        return bad(l, 0, "command",
                   "reset, capacity N, stride N, step [K], show, help or quit");
    }
    show(stdout, lab);
    return CLI_OK;
}

/* Splits a line in place into at most 3 tokens (a 4th marks "too many"). */
static void tokenize(char *s, lab_line *l)
{
    l->ntok = 0;
    while (*s && l->ntok < 3) {
        while (isspace((unsigned char)*s))
            s++;
        if (!*s || *s == '#')
            break;
        l->tok[l->ntok++] = s;
        while (*s && !isspace((unsigned char)*s))
            s++;
        if (*s)
            *s++ = '\0';
    }
}

static int interactive(pascal_lab *lab)
{
    char buf[1024], copy[1024];
    int tty = isatty(0), quit = 0;
    lab_line l = {0};
    printf("cache lab: exact fully associative LRU toy.  %s\nType help for commands.\n",
           not_gpu);
    show(stdout, lab);
    while (!quit) {
        if (tty) {
            printf("lab> ");
            fflush(stdout);
        }
        if (!fgets(buf, sizeof buf, stdin)) {
            if (tty)
                printf("\n");
            break;
        }
        l.lineno++;
        buf[strcspn(buf, "\r\n")] = '\0';
        memcpy(copy, buf, sizeof copy);
        l.line = copy;
        tokenize(copy, &l);
        if (l.ntok == 0)
            continue;
        if (command(lab, &l, &quit) != CLI_OK && !tty)
            return CLI_USAGE;
        fflush(stdout);
    }
    return CLI_OK;
}

/* A given integer flag in [lo, hi]; prints the error and returns CLI_USAGE. */
static int flag_value(const cli_flag *f, long long lo, long long hi, int64_t *out)
{
    long long v;
    if (!f->given)
        return CLI_OK;
    if (parse_int(f->value, lo, hi, &v) != 0) {
        fprintf(stderr, "pascal lab: --%s: expected an integer %lld..%lld, got \"%s\"\n",
                f->name, lo, hi, f->value);
        return CLI_USAGE;
    }
    *out = v;
    return CLI_OK;
}

int cli_lab(int argc, char **argv)
{
    cli_flag flags[] = {
        {"capacity", "N", "cache lines, 1..64 (default 4)", 0, 0},
        {"stride", "N", "addresses in the request cycle, 1..4096 (default 5)", 0, 0},
        {"steps", "K", "requests to add after the 16 counted at start (default 0)", 0, 0},
        {"json", NULL, "print the final state as one JSON object", 0, 0},
    };
    int nf = (int)(sizeof flags / sizeof flags[0]), npos, rc, scripted = 0;
    int64_t cap = PASCAL_LAB_DEFAULT_CAPACITY, stride = PASCAL_LAB_DEFAULT_STRIDE, steps = 0;
    char *pos[1];
    pascal_lab lab;
    rc = cli_parse("lab", usage_text, argc, argv, flags, nf, pos, 0, &npos);
    if (rc != CLI_OK)
        return rc < 0 ? CLI_OK : rc;
    for (int i = 0; i < nf; i++)
        scripted |= flags[i].given;
    if (flag_value(&flags[0], 1, PASCAL_LAB_MAX_CAPACITY, &cap) ||
        flag_value(&flags[1], 1, PASCAL_LAB_MAX_STRIDE, &stride) ||
        flag_value(&flags[2], 0, PASCAL_LAB_MAX_REQUESTS - PASCAL_LAB_START, &steps))
        return CLI_USAGE;
    pascal_lab_init(&lab, (int)cap, (int)stride);
    if (!scripted)
        return interactive(&lab);
    pascal_lab_step(&lab, steps);
    if (flags[3].given) {
        show_json(stdout, &lab);
        return CLI_OK;
    }
    printf("cache lab: exact fully associative LRU toy.  %s\n", not_gpu);
    show(stdout, &lab);
    return CLI_OK;
}
