/* Test points: named moments of the output protocols (a file created but
 * not yet registered for removal, a partial file opened, a journal half
 * written, a rename done before its inputs are removed) at which the tests
 * stop the process, as the OOM killer or an unlucky Ctrl-C would, to show
 * that every such moment leaves files the next command accepts
 * (docs/reliability.md).  Library code only names the moment; the
 * command-line front end alone installs a hook (PASCAL_TEST_RAISE_AT in
 * programs/main.c), so a library user never meets one. */
#ifndef PASCAL_COMMON_TESTPOINT_H
#define PASCAL_COMMON_TESTPOINT_H

#ifdef __cplusplus
extern "C" {
#endif

typedef void (*pascal_testpoint_hook)(const char *name);

/* Installs hook (NULL: none), called at every test point with its name. */
void pascal_testpoint_set(pascal_testpoint_hook hook);
/* The moment `name` is reached (a no-op without a hook). */
void pascal_testpoint(const char *name);

#ifdef __cplusplus
}
#endif

#endif
