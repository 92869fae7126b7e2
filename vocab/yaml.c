/* The YAML base layer (vocab/yaml.h): one document loaded with libyaml's
 * document API after an alias fan-out check, node marks turned into
 * one-based "file:line:col: key.path:" messages, and mapping checks. */
#include "vocab/yaml.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/suggest.h"

int yml_fail(const yml_doc *y, const yaml_node_t *node, const char *path, int code,
              const char *fmt, ...)
{
    char msg[PASCAL_ERROR_MAX];
    va_list ap;
    int line = node ? (int)node->start_mark.line + 1 : 1;
    int col = node ? (int)node->start_mark.column + 1 : 1;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (path && *path)
        return pascal_error_set(y->err, code, "%s:%d:%d: %s: %s", y->file, line, col, path, msg);
    return pascal_error_set(y->err, code, "%s:%d:%d: %s", y->file, line, col, msg);
}

int yml_fail_mark(pascal_error *err, const yml_mark *m, int code, const char *fmt, ...)
{
    char msg[PASCAL_ERROR_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (m->path[0])
        return pascal_error_set(err, code, "%s:%d:%d: %s: %s", m->file, m->line, m->col, m->path, msg);
    return pascal_error_set(err, code, "%s:%d:%d: %s", m->file, m->line, m->col, msg);
}

void yml_mark_of(const yml_doc *y, const yaml_node_t *node, const char *path, yml_mark *m)
{
    m->file = y->file;
    m->line = node ? (int)node->start_mark.line + 1 : 1;
    m->col = node ? (int)node->start_mark.column + 1 : 1;
    snprintf(m->path, sizeof m->path, "%s", path ? path : "");
}

int yml_is_null(const yaml_node_t *node)
{
    const char *s;
    if (!node || node->type != YAML_SCALAR_NODE)
        return node == NULL;
    if (node->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
        return 0;
    s = (const char *)node->data.scalar.value;
    return !*s || strcmp(s, "~") == 0 || strcmp(s, "null") == 0 || strcmp(s, "Null") == 0 ||
           strcmp(s, "NULL") == 0;
}

void yml_describe(const yaml_node_t *node, char *buf, size_t len)
{
    const unsigned char *s;
    size_t n, o = 0, i;
    if (yml_is_null(node)) {
        snprintf(buf, len, "nothing");
        return;
    }
    if (node->type == YAML_SEQUENCE_NODE) {
        snprintf(buf, len, "a list");
        return;
    }
    if (node->type == YAML_MAPPING_NODE) {
        snprintf(buf, len, "a mapping");
        return;
    }
    s = node->data.scalar.value;
    n = node->data.scalar.length;
    if (len < 8) {
        snprintf(buf, len, "?");
        return;
    }
    buf[o++] = '"';
    for (i = 0; i < n && o + 8 < len && i < 60; i++) {
        unsigned char ch = s[i];
        if (ch == '"' || ch == '\\') {
            buf[o++] = '\\';
            buf[o++] = (char)ch;
        } else if (ch < 0x20 || ch == 0x7f) {
            o += (size_t)snprintf(buf + o, len - o, "\\x%02x", ch);
        } else {
            buf[o++] = (char)ch;
        }
    }
    if (i < n)
        o += (size_t)snprintf(buf + o, len - o, "...");
    if (o + 1 < len)
        buf[o++] = '"';
    buf[o] = '\0';
}

const char *yml_scalar_text(const yaml_node_t *node)
{
    if (!node || node->type != YAML_SCALAR_NODE)
        return NULL;
    return (const char *)node->data.scalar.value;
}

yaml_node_t *yml_node(const yml_doc *y, int index)
{
    return yaml_document_get_node(y->doc, index);
}

void yml_path_key(char *buf, const char *path, const char *key)
{
    if (path && *path)
        snprintf(buf, YML_PATH_MAX, "%s.%s", path, key);
    else
        snprintf(buf, YML_PATH_MAX, "%s", key);
}

void yml_path_index(char *buf, const char *path, long i)
{
    snprintf(buf, YML_PATH_MAX, "%s[%ld]", path, i);
}

int yml_check_mapping(const yml_doc *y, const yaml_node_t *node, const char *path,
                       const char *what, const char *const *valid, int nvalid)
{
    const yaml_node_pair_t *a, *b;
    char got[96], sub[YML_PATH_MAX];
    if (!node || node->type != YAML_MAPPING_NODE) {
        yml_describe(node, got, sizeof got);
        return yml_fail(y, node, path, PASCAL_EINPUT, "expected %s, got %s", what, got);
    }
    for (a = node->data.mapping.pairs.start; a < node->data.mapping.pairs.top; a++) {
        const yaml_node_t *key = yml_node(y, a->key);
        const char *name = yml_scalar_text(key);
        if (!name || yml_is_null(key)) {
            yml_describe(key, got, sizeof got);
            return yml_fail(y, key, path, PASCAL_EINPUT, "expected a plain key, got %s", got);
        }
        yml_path_key(sub, path, name);
        for (b = node->data.mapping.pairs.start; b < a; b++) {
            const yaml_node_t *prev = yml_node(y, b->key);
            if (strcmp(yml_scalar_text(prev), name) == 0)
                return yml_fail(y, key, sub, PASCAL_EINPUT,
                                 "expected each key once, got \"%s\" again (first at line %d)", name,
                                 (int)prev->start_mark.line + 1);
        }
        if (valid) {
            char list[512], hint[96];
            size_t off = 0;
            int k;
            for (k = 0; k < nvalid; k++)
                if (strcmp(valid[k], name) == 0)
                    break;
            if (k < nvalid)
                continue;
            for (k = 0; k < nvalid && off < sizeof list; k++)
                off += (size_t)snprintf(list + off, sizeof list - off, "%s%s", k ? ", " : "", valid[k]);
            yml_describe(key, got, sizeof got);
            return yml_fail(y, key, sub, PASCAL_EINPUT, "expected one of the keys %s; got %s%s", list, got,
                             pascal_suggest_hint(name, valid, nvalid, hint, sizeof hint));
        }
    }
    return 0;
}

/* Reader errors carry a byte offset instead of a mark. */
static void offset_to_mark(const char *text, size_t len, size_t offset, int *line, int *col)
{
    size_t i, start = 0;
    *line = 1;
    for (i = 0; i < offset && i < len; i++) {
        if (text[i] == '\n') {
            (*line)++;
            start = i + 1;
        }
    }
    *col = (int)(i - start) + 1;
}

static int yaml_error(const yaml_parser_t *p, const char *text, size_t len, const char *file,
                      pascal_error *err)
{
    int line, col;
    const char *problem = p->problem ? p->problem : "unknown problem";
    if (p->error == YAML_MEMORY_ERROR)
        return pascal_error_set(err, PASCAL_ENOMEM, "%s: out of memory parsing YAML", file);
    if (p->error == YAML_READER_ERROR) {
        offset_to_mark(text, len, p->problem_offset, &line, &col);
        if (p->problem_value != -1)
            return pascal_error_set(err, PASCAL_EINPUT, "%s:%d:%d: expected YAML text, got %s (byte 0x%02x)",
                                    file, line, col, problem, (unsigned)p->problem_value & 0xffu);
        return pascal_error_set(err, PASCAL_EINPUT, "%s:%d:%d: expected YAML text, got %s", file, line, col,
                                problem);
    }
    line = (int)p->problem_mark.line + 1;
    col = (int)p->problem_mark.column + 1;
    if (p->context)
        return pascal_error_set(err, PASCAL_EINPUT,
                                "%s:%d:%d: expected valid YAML, got a syntax error: %s %s started at %d:%d", file,
                                line, col, problem, p->context, (int)p->context_mark.line + 1,
                                (int)p->context_mark.column + 1);
    return pascal_error_set(err, PASCAL_EINPUT, "%s:%d:%d: expected valid YAML, got a syntax error: %s", file, line,
                            col, problem);
}

/* Alias fan-out (a "billion laughs" document): libyaml stores an aliased
 * node once, but the spec reader walks every use of it, so a small file can
 * stand for billions of nodes.  One pass over the parser's events counts
 * the nodes the document holds once every alias is expanded (an alias
 * counts the nodes of what it names) and refuses the document at the alias
 * that passes YML_MAX_NODES.  A syntax error is left to the loader,
 * which reports it. */
typedef struct anchor_size {
    char *name;                /* NULL: empty slot */
    uint64_t nodes;
} anchor_size;

/* Anchors in an open-addressing hash table (FNV-1a, linear probing, at most
 * half full), so that many anchors and aliases cost linear time. */
typedef struct fanout {
    anchor_size *slot;
    size_t cap, used;
    uint64_t open_at[YML_MAX_DEPTH]; /* node count when each open collection began */
    char *open_anchor[YML_MAX_DEPTH];
    int depth, skipped;        /* skipped: collections nested beyond the depth above */
    uint64_t total;
} fanout;

static size_t find_slot(const anchor_size *slot, size_t cap, const char *name)
{
    uint64_t h = 1469598103934665603ULL;
    for (const unsigned char *p = (const unsigned char *)name; *p; p++)
        h = (h ^ *p) * 1099511628211ULL;
    for (size_t k = (size_t)h & (cap - 1);; k = (k + 1) & (cap - 1))
        if (!slot[k].name || strcmp(slot[k].name, name) == 0)
            return k;
}

/* The latest definition of an anchor wins, as in YAML. */
static int remember(fanout *f, const char *name, uint64_t nodes)
{
    size_t k;
    if (!name)
        return 0;
    if (2 * (f->used + 1) > f->cap) {
        size_t ncap = f->cap ? 2 * f->cap : 64;
        anchor_size *n = calloc(ncap, sizeof *n);
        if (!n)
            return -1;
        for (size_t j = 0; j < f->cap; j++)
            if (f->slot[j].name)
                n[find_slot(n, ncap, f->slot[j].name)] = f->slot[j];
        free(f->slot);
        f->slot = n, f->cap = ncap;
    }
    k = find_slot(f->slot, f->cap, name);
    if (!f->slot[k].name) {
        if (!(f->slot[k].name = strdup(name)))
            return -1;
        f->used++;
    }
    f->slot[k].nodes = nodes;
    return 0;
}

static uint64_t anchor_nodes(const fanout *f, const char *name)
{
    size_t k;
    if (!f->cap)
        return 1;
    k = find_slot(f->slot, f->cap, name);
    return f->slot[k].name ? f->slot[k].nodes : 1; /* undefined: the loader reports it */
}

/* One event; 1 when the document passes the limit, -1 out of memory. */
static int fanout_event(fanout *f, const yaml_event_t *ev)
{
    const char *anchor = NULL;
    switch (ev->type) {
    case YAML_SCALAR_EVENT:
        f->total++;
        return remember(f, (const char *)ev->data.scalar.anchor, 1);
    case YAML_ALIAS_EVENT:
        f->total += anchor_nodes(f, (const char *)ev->data.alias.anchor);
        return f->total > YML_MAX_NODES;
    case YAML_SEQUENCE_START_EVENT:
    case YAML_MAPPING_START_EVENT:
        anchor = (const char *)(ev->type == YAML_SEQUENCE_START_EVENT ? ev->data.sequence_start.anchor
                                                                     : ev->data.mapping_start.anchor);
        if (f->depth == YML_MAX_DEPTH) { /* counted, but its anchor is not followed */
            f->total++;
            f->skipped++;
            return 0;
        }
        f->open_at[f->depth] = f->total++;
        f->open_anchor[f->depth++] = anchor ? strdup(anchor) : NULL;
        return anchor && !f->open_anchor[f->depth - 1] ? -1 : 0;
    case YAML_SEQUENCE_END_EVENT:
    case YAML_MAPPING_END_EVENT: {
        int rc;
        if (f->skipped > 0 || f->depth == 0) {
            f->skipped -= f->skipped > 0;
            return 0;
        }
        f->depth--;
        rc = remember(f, f->open_anchor[f->depth], f->total - f->open_at[f->depth]);
        free(f->open_anchor[f->depth]);
        return rc;
    }
    default:
        return 0;
    }
}

static int check_fanout(const char *text, size_t len, const char *file, pascal_error *err)
{
    yaml_parser_t parser;
    yaml_event_t ev;
    fanout f;
    int rc = 0, done = 0;
    memset(&f, 0, sizeof f);
    if (!yaml_parser_initialize(&parser))
        return pascal_error_set(err, PASCAL_ENOMEM, "%s: out of memory parsing YAML", file);
    yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
    while (!done && rc == 0 && yaml_parser_parse(&parser, &ev)) {
        done = ev.type == YAML_STREAM_END_EVENT;
        /* pascal reads every key's value as that key's type, so a YAML tag
         * on a scalar would be obeyed for some keys and not others
         * (`!!str 4096` read as a number, `!!int "4096"` refused): none is
         * taken. */
        if (ev.type == YAML_SCALAR_EVENT && ev.data.scalar.tag) {
            const char *tag = (const char *)ev.data.scalar.tag, *core = "tag:yaml.org,2002:";
            int is_core = strncmp(tag, core, strlen(core)) == 0;
            rc = pascal_error_set(err, PASCAL_EINPUT, "%s:%d:%d: expected a value without a YAML "
                                  "tag (each key's type is pascal's), got the tag %s%s", file,
                                  (int)ev.start_mark.line + 1, (int)ev.start_mark.column + 1,
                                  is_core ? "!!" : "", is_core ? tag + strlen(core) : tag);
            yaml_event_delete(&ev);
            break;
        }
        rc = fanout_event(&f, &ev);
        if (rc > 0)
            rc = pascal_error_set(err, PASCAL_EINPUT,
                                  "%s:%d:%d: expected at most %d YAML nodes once aliases are expanded, got "
                                  "more at this alias (*%s stands for %llu nodes)", file,
                                  (int)ev.start_mark.line + 1, (int)ev.start_mark.column + 1,
                                  YML_MAX_NODES, (const char *)ev.data.alias.anchor,
                                  (unsigned long long)anchor_nodes(&f, (const char *)ev.data.alias.anchor));
        else if (rc < 0)
            rc = pascal_error_set(err, PASCAL_ENOMEM, "%s: out of memory parsing YAML", file);
        yaml_event_delete(&ev);
    }
    while (f.depth > 0)
        free(f.open_anchor[--f.depth]);
    for (size_t k = 0; k < f.cap; k++)
        free(f.slot[k].name);
    free(f.slot);
    yaml_parser_delete(&parser);
    return rc;
}

/* The deepest nesting of flow collections ([ and {) outside quoted
 * scalars and comments, and where it passes YML_MAX_FLOW_DEPTH.  A quote
 * opens a scalar only where a token can start (after a space, a line start
 * or one of : , [ { - ?); a stray bracket in a plain scalar can only make
 * the count a little high, never let a deep document through. */
static int check_flow_depth(const char *text, size_t len, const char *file, pascal_error *err)
{
    int depth = 0, line = 1, col = 0;
    char prev = '\n';
    for (size_t i = 0; i < len; i++) {
        char ch = text[i];
        col++;
        if (ch == '\n') {
            line++, col = 0, prev = ch;
            continue;
        }
        if (ch == '#' && (prev == ' ' || prev == '\t' || prev == '\n')) {
            while (i + 1 < len && text[i + 1] != '\n')
                i++;
            continue;
        }
        if ((ch == '\'' || ch == '"') && strchr(" \t\n:,[{-?", prev)) {
            for (i++; i < len; i++) {
                if (text[i] == '\n') {
                    line++, col = 0;
                    continue;
                }
                col++;
                if (ch == '"' && text[i] == '\\' && i + 1 < len) {
                    i++, col++;
                } else if (text[i] == ch) {
                    if (ch == '\'' && i + 1 < len && text[i + 1] == '\'')
                        i++, col++; /* '' inside single quotes */
                    else
                        break;
                }
            }
            prev = ch;
            continue;
        }
        if ((ch == '[' || ch == '{') && ++depth > YML_MAX_FLOW_DEPTH)
            return pascal_error_set(err, PASCAL_EINPUT, "%s:%d:%d: expected collections nested "
                                    "at most %d deep, got deeper", file, line, col,
                                    YML_MAX_FLOW_DEPTH);
        if ((ch == ']' || ch == '}') && depth > 0)
            depth--;
        prev = ch;
    }
    return 0;
}

int yml_load(const char *text, size_t len, const char *file, yaml_document_t *doc,
             pascal_error *err)
{
    yaml_parser_t parser;
    yaml_document_t extra;
    int rc;
    if (len > YML_MAX_BYTES)
        return pascal_error_set(err, PASCAL_EINPUT, "%s: expected a document of at most %zu MiB, "
                                "got %zu bytes", file, YML_MAX_BYTES >> 20, len);
    if ((rc = check_flow_depth(text, len, file, err)) || (rc = check_fanout(text, len, file, err)))
        return rc;
    if (!yaml_parser_initialize(&parser))
        return pascal_error_set(err, PASCAL_ENOMEM, "%s: out of memory parsing YAML", file);
    yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
    if (!yaml_parser_load(&parser, doc)) {
        rc = yaml_error(&parser, text, len, file, err);
        yaml_parser_delete(&parser);
        return rc;
    }
    if (!yaml_document_get_root_node(doc)) {
        yaml_document_delete(doc);
        yaml_parser_delete(&parser);
        return pascal_error_set(err, PASCAL_EINPUT, "%s:1:1: expected a YAML mapping, got an empty file", file);
    }
    if (!yaml_parser_load(&parser, &extra)) {
        rc = yaml_error(&parser, text, len, file, err);
    } else {
        yaml_node_t *root = yaml_document_get_root_node(&extra);
        if (root)
            rc = pascal_error_set(err, PASCAL_EINPUT,
                                  "%s:%d:%d: expected a single YAML document, got a second one", file,
                                  (int)extra.start_mark.line + 1, (int)extra.start_mark.column + 1);
        yaml_document_delete(&extra);
    }
    if (rc)
        yaml_document_delete(doc);
    yaml_parser_delete(&parser);
    return rc;
}

