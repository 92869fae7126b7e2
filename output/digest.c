/* Digests of a run's resolved inputs (digest.h).  SHA-256 is Nettle's. */
#include "output/digest.h"
#include "pascal/version.h"

#include <errno.h>
#include <nettle/sha2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const pascal_digest_keys[PASCAL_DIGEST_NKEYS] = {
    "sha256_spec", "sha256_device", "sha256_calibration", "sha256_columns", "pascal_version"};

/* What each key is called in messages, and the attribute holding its path. */
static const char *const key_nouns[PASCAL_DIGEST_NKEYS] = {
    "spec", "device profile", "calibration", "column set", "pascal version"};
static const char *const key_paths[PASCAL_DIGEST_NKEYS] = {"spec_path", "device_path",
                                                            "calibration", NULL, NULL};

/* The 64 lowercase hex digits of the digest so far, and a NUL. */
static void finish(struct sha256_ctx *s, char hex[65])
{
    static const char digits[] = "0123456789abcdef";
    uint8_t d[SHA256_DIGEST_SIZE];
    sha256_digest(s, sizeof d, d);
    for (size_t i = 0; i < sizeof d; i++) {
        hex[2 * i] = digits[d[i] >> 4];
        hex[2 * i + 1] = digits[d[i] & 15];
    }
    hex[64] = '\0';
}

void pascal_digest_bytes(const void *data, size_t n, char hex[65])
{
    struct sha256_ctx s;
    if (!data) {
        hex[0] = '\0';
        return;
    }
    sha256_init(&s);
    sha256_update(&s, n, data);
    finish(&s, hex);
}

int pascal_digest_file(const char *path, char hex[65], pascal_error *err)
{
    unsigned char buf[65536];
    struct sha256_ctx s;
    size_t n;
    FILE *f = fopen(path, "rb");
    if (!f)
        return pascal_error_set(err, PASCAL_EIO, "cannot read %s: %s", path, strerror(errno));
    sha256_init(&s);
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        sha256_update(&s, n, buf);
    if (ferror(f)) {
        fclose(f);
        return pascal_error_set(err, PASCAL_EIO, "cannot read %s", path);
    }
    fclose(f);
    finish(&s, hex);
    return 0;
}

static void hash_text(struct sha256_ctx *s, const char *text)
{
    const char *t = text ? text : "";
    sha256_update(s, strlen(t) + 1, (const uint8_t *)t);
}

static void hash_columns(struct sha256_ctx *s, const char *group, const pascal_column_desc *c,
                         int n)
{
    for (int i = 0; i < n; i++) {
        char type[16];
        snprintf(type, sizeof type, "%d", (int)c[i].type);
        hash_text(s, group);
        hash_text(s, c[i].name);
        hash_text(s, type);
        for (int k = 0; c[i].type == PASCAL_COLTYPE_ENUM && k < c[i].nlabels; k++)
            hash_text(s, c[i].labels[k]);
    }
}

void pascal_digest_columns(const pascal_column_desc *points, int npoint,
                           const pascal_column_desc *results, int nresult, char hex[65])
{
    struct sha256_ctx s;
    sha256_init(&s);
    hash_columns(&s, "points", points, npoint);
    hash_columns(&s, "results", results, nresult);
    finish(&s, hex);
}

static const char *lookup(const pascal_attr *a, int n, const char *key)
{
    for (int i = 0; key && i < n; i++)
        if (a[i].key && strcmp(a[i].key, key) == 0)
            return a[i].value ? a[i].value : "";
    return NULL;
}

/* "ab12cd34ef56.." or "none". */
static void short_digest(const char *hex, char *buf, size_t len)
{
    if (!hex || !hex[0])
        snprintf(buf, len, "none");
    else
        snprintf(buf, len, "%.12s..", hex);
}

int pascal_digest_diff(const pascal_attr *was, int nwas, const pascal_attr *now, int nnow,
                       char *label, size_t label_len, char *change, size_t change_len)
{
    for (int k = 0; k < PASCAL_DIGEST_NKEYS; k++) {
        const char *key = pascal_digest_keys[k], *a = lookup(was, nwas, key);
        const char *b = lookup(now, nnow, key), *path;
        char sa[24], sb[24];
        int version = strcmp(key, "pascal_version") == 0;
        if (!b && version)
            b = PASCAL_VERSION_STRING;
        if (strcmp(a ? a : "", b ? b : "") == 0)
            continue;
        path = lookup(now, nnow, key_paths[k]);
        if (!path || !path[0])
            path = lookup(was, nwas, key_paths[k]);
        snprintf(label, label_len, "%s%s%s", key_nouns[k], path && path[0] ? " " : "",
                 path && path[0] ? path : "");
        if (version) {
            snprintf(change, change_len, "%s -> %s", a && a[0] ? a : "unknown",
                     b && b[0] ? b : "unknown");
        } else {
            short_digest(a, sa, sizeof sa);
            short_digest(b, sb, sizeof sb);
            snprintf(change, change_len, "sha256 %s -> %s", sa, sb);
        }
        return 1;
    }
    return 0;
}

int pascal_digest_recorded(const pascal_attr *attrs, int n)
{
    const char *spec = lookup(attrs, n, "sha256_spec");
    return spec && spec[0];
}

int pascal_digest_read_file(const char *path, pascal_attr *attrs, int max, pascal_error *err)
{
    int n = 0;
    for (int k = 0; k < PASCAL_DIGEST_NKEYS; k++) {
        const char *keys[2] = {pascal_digest_keys[k], key_paths[k]};
        for (int j = 0; j < 2 && keys[j]; j++) {
            char *value = NULL;
            pascal_error sub = {0};
            if (lookup(attrs, n, keys[j]) || n >= max)
                continue;
            if (pascal_h5_read_attr_alloc(path, keys[j], &value, &sub) != 0) {
                if (sub.code != PASCAL_EINPUT) { /* a missing attribute reads as "" */
                    pascal_digest_free(attrs, n);
                    if (err)
                        *err = sub;
                    return sub.code;
                }
                value = strdup("");
            }
            if (!value) {
                pascal_digest_free(attrs, n);
                return pascal_error_set(err, PASCAL_ENOMEM, "%s: out of memory", path);
            }
            attrs[n].key = keys[j];
            attrs[n++].value = value;
        }
    }
    return n;
}

void pascal_digest_free(pascal_attr *attrs, int n)
{
    for (int i = 0; i < n; i++)
        free((char *)attrs[i].value);
}
