/* "Did you mean ...?": the nearest valid name to an unknown one, for every
 * message that rejects a name (spec keys, models, columns, patterns, load
 * paths, devices, subcommands, flags).
 *
 * Nearness is the optimal-string-alignment edit distance (insertions,
 * deletions, substitutions and swaps of two neighbouring characters each
 * cost 1), ignoring ASCII case.  A name is suggested when it is within a
 * distance that grows with the typed name's length (0 for 1-2 characters,
 * i.e. a case slip only; 1 up to 5; 2 up to 8; 3 beyond), or, failing that,
 * when the typed name (3 or more characters) begins exactly one valid name
 * ("capacity" -> "capacity_bytes").  Ties go to the earlier name in the
 * list, so tables list the common names first. */
#ifndef PASCAL_COMMON_SUGGEST_H
#define PASCAL_COMMON_SUGGEST_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Names longer than this are compared on their first PASCAL_SUGGEST_MAX
 * characters only. */
#define PASCAL_SUGGEST_MAX 64

/* Edit distance between a and b, ignoring ASCII case (see above). */
int pascal_edit_distance(const char *a, const char *b);

/* The nearest of names[0..n) to name, or NULL when none is near enough, when
 * name is NULL or empty, or when name is itself one of the names. */
const char *pascal_suggest(const char *name, const char *const *names, int n);

/* Writes " (did you mean 'NAME'?)" into buf, or "" when there is nothing
 * to suggest; returns buf, ready to append to a message. */
const char *pascal_suggest_hint(const char *name, const char *const *names, int n, char *buf,
                                size_t len);

#ifdef __cplusplus
}
#endif

#endif
