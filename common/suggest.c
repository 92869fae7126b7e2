/* Nearest-name suggestions for rejected names.  See suggest.h. */
#include "common/suggest.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

static int fold(char ch)
{
    return tolower((unsigned char)ch);
}

static int min3(int a, int b, int c)
{
    int m = a < b ? a : b;
    return m < c ? m : c;
}

/* Optimal string alignment: the Damerau-Levenshtein recurrence restricted to
 * swaps of neighbours that are not edited again; three rolling rows. */
int pascal_edit_distance(const char *a, const char *b)
{
    int rows[3][PASCAL_SUGGEST_MAX + 1];
    int *prev2 = rows[0], *prev = rows[1], *cur = rows[2];
    size_t la = strlen(a), lb = strlen(b);
    la = la < PASCAL_SUGGEST_MAX ? la : PASCAL_SUGGEST_MAX;
    lb = lb < PASCAL_SUGGEST_MAX ? lb : PASCAL_SUGGEST_MAX;
    for (size_t j = 0; j <= lb; j++)
        prev[j] = (int)j;
    for (size_t i = 1; i <= la; i++) {
        int *t;
        cur[0] = (int)i;
        for (size_t j = 1; j <= lb; j++) {
            int cost = fold(a[i - 1]) != fold(b[j - 1]);
            cur[j] = min3(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
            if (i > 1 && j > 1 && fold(a[i - 1]) == fold(b[j - 2]) && fold(a[i - 2]) == fold(b[j - 1]) &&
                prev2[j - 2] + 1 < cur[j])
                cur[j] = prev2[j - 2] + 1;
        }
        t = prev2;
        prev2 = prev;
        prev = cur;
        cur = t;
    }
    return prev[lb];
}

/* The most edits a typed name of len characters may be from a suggestion. */
static int limit_for(size_t len)
{
    return len <= 2 ? 0 : len <= 5 ? 1 : len <= 8 ? 2 : 3;
}

static int begins_with(const char *s, const char *prefix)
{
    for (; *prefix; s++, prefix++)
        if (!*s || fold(*s) != fold(*prefix))
            return 0;
    return 1;
}

const char *pascal_suggest(const char *name, const char *const *names, int n)
{
    const char *best = NULL, *prefixed = NULL;
    int best_d = 0, nprefixed = 0;
    size_t len;
    if (!name || !*name || !names)
        return NULL;
    len = strlen(name);
    for (int i = 0; i < n; i++) {
        int d;
        if (!names[i])
            continue;
        if (strcmp(names[i], name) == 0)
            return NULL;
        d = pascal_edit_distance(name, names[i]);
        if (d <= limit_for(len) && (!best || d < best_d)) {
            best = names[i];
            best_d = d;
        }
        if (len >= 3 && begins_with(names[i], name) && (!prefixed || strcmp(prefixed, names[i]) != 0)) {
            prefixed = names[i];
            nprefixed++;
        }
    }
    if (best)
        return best;
    return nprefixed == 1 ? prefixed : NULL;
}

const char *pascal_suggest_hint(const char *name, const char *const *names, int n, char *buf,
                                size_t len)
{
    const char *s = pascal_suggest(name, names, n);
    if (len == 0)
        return buf;
    if (s)
        snprintf(buf, len, " (did you mean '%s'?)", s);
    else
        buf[0] = '\0';
    return buf;
}
