/* Test points: named moments of the output protocols (a file created but
 * not yet handed to the program's hooks, a partial file opened, a journal
 * half written, a rename done before its inputs are removed) at which the
 * tests stop the process, as the OOM killer or an unlucky Ctrl-C would, to
 * show that every such moment leaves files the next command accepts
 * (docs/reliability.md).
 *
 * They exist only in test builds: compiled with PASCAL_TEST_HOOKS (the
 * hooked objects of build/tests/pascal-hooked, CMakeLists.txt), a test
 * point calls pascal_testpoint, which programs/testhooks.c defines; in every
 * other build it is nothing at all. */
#ifndef PASCAL_COMMON_TESTPOINT_H
#define PASCAL_COMMON_TESTPOINT_H

#ifdef __cplusplus
extern "C" {
#endif

#ifdef PASCAL_TEST_HOOKS
/* The moment `name` is reached. */
void pascal_testpoint(const char *name);
#else
#define pascal_testpoint(name) ((void)0)
#endif

#ifdef __cplusplus
}
#endif

#endif
