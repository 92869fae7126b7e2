/* The YAML base layer that every input file shares (sweep specs in sweeps/,
 * device profiles in devices/): one document loaded with libyaml's document
 * API and checked for alias fan-out, node marks (zero-based) turned into
 * one-based "file:line:col: key.path: expected ..., got ..." messages,
 * mapping checks (scalar keys, each once, none unknown), and scalars read
 * as the vocabulary's types (vocab/params.h): integers, numbers, sizes with
 * units, pattern, load-path and label names.  Not installed. */
#ifndef PASCAL_VOCAB_YAML_H
#define PASCAL_VOCAB_YAML_H

#include <stddef.h>
#include <yaml.h>

#include "common/error.h"

#ifdef __cplusplus
extern "C" {
#endif

#define YML_PATH_MAX 160        /* key paths such as axes.capacity_bytes[2] */
/* YAML nodes a document may hold once its aliases are expanded: refuses
 * alias fan-out ("billion laughs") before a reader walks it.  A literal axis
 * of ten million values fits. */
#define YML_MAX_NODES 16777216
#define YML_MAX_DEPTH 1024      /* nesting the fan-out count follows */
/* What a document may be before libyaml reads it (docs/limits.md): libyaml
 * keeps its whole document in memory (about 4 bytes of nodes per byte of
 * text), and its scanner takes time quadratic in the depth of flow
 * collections ([ and {), so both are bounded first. */
#define YML_MAX_BYTES ((size_t)128 << 20)
#define YML_MAX_FLOW_DEPTH 256

/* A document being read and where its errors go. */
typedef struct yml_doc {
    yaml_document_t *doc;
    const char *file;           /* name used in messages for this document */
    pascal_error *err;
} yml_doc;

/* Where something was written: one-based line and column. */
typedef struct yml_mark {
    const char *file;
    int line, col;
    char path[YML_PATH_MAX];    /* key path */
} yml_mark;

/* Loads a single-document YAML text; reports syntax errors with their mark
 * and refuses alias fan-out past YML_MAX_NODES. */
int yml_load(const char *text, size_t len, const char *file, yaml_document_t *doc,
             pascal_error *err);

/* "file:line:col: path: MESSAGE" at node (1:1 without one); returns code. */
int yml_fail(const yml_doc *y, const yaml_node_t *node, const char *path, int code,
             const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* The same message shape at a remembered mark. */
int yml_fail_mark(pascal_error *err, const yml_mark *m, int code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void yml_mark_of(const yml_doc *y, const yaml_node_t *node, const char *path, yml_mark *m);

/* "\"text\"" for a scalar (truncated), "a list", "a mapping", "nothing". */
void yml_describe(const yaml_node_t *node, char *buf, size_t len);
int yml_is_null(const yaml_node_t *node);
const char *yml_scalar_text(const yaml_node_t *node); /* NULL unless a scalar */
/* The text of a non-null scalar without embedded NULs, else NULL. */
const char *yml_scalar(const yaml_node_t *node);
/* Whether a scalar is written plain (unquoted). */
int yml_plain(const yaml_node_t *node);
yaml_node_t *yml_node(const yml_doc *y, int index);
/* Child key paths: "path.key" and "path[i]", YML_PATH_MAX bytes. */
void yml_path_key(char *buf, const char *path, const char *key);
void yml_path_index(char *buf, const char *path, long i);

/* Checks that node is a mapping with scalar, distinct keys; when valid is
 * not NULL, every key must be one of valid[0..nvalid) (else the message
 * lists them and the nearest). */
int yml_check_mapping(const yml_doc *y, const yaml_node_t *node, const char *path,
                      const char *what, const char *const *valid, int nvalid);

/* ---- values (vocab/values.c) --------------------------------------------- */

/* What a parameter's value is, for messages: "a positive integer", ... */
const char *yml_expected(int param);
/* A scalar of parameter `param`'s type and flags (vocab/params.h). */
int yml_value(const yml_doc *y, const yaml_node_t *node, int param, const char *path,
              double *out);
/* A non-null scalar as a malloc'd string (`what` names it in the message). */
int yml_string(const yml_doc *y, const yaml_node_t *node, const char *path, const char *what,
               char **out);
/* "expected WHAT, got ..." at node (noting a quoted number). */
int yml_fail_value(const yml_doc *y, const yaml_node_t *node, const char *path, const char *what);
/* A refused size (pascal_size_parse's code), with the reason when there is one. */
int yml_fail_size(const yml_doc *y, const yaml_node_t *node, const char *path, const char *what,
                  int code, const char *text);
/* Decimal integers only, [+-]digits: 0, -1 not an integer, -2 beyond 2^53. */
int yml_parse_int(const char *s, double *out);
/* [+-](digits[.digits] | .digits)[e[+-]digits], finite: 0, else -1. */
int yml_parse_real(const char *s, double *out);

#ifdef __cplusplus
}
#endif

#endif
