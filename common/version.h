/* The library's version, for a program that embeds libpascal and wants to
 * know which one it runs against (the shared library may be newer than the
 * headers it was compiled with). */
#ifndef PASCAL_COMMON_VERSION_H
#define PASCAL_COMMON_VERSION_H

#ifdef __cplusplus
extern "C" {
#endif

/* "MAJOR.MINOR.PATCH", as `pascal --version` prints it. */
const char *pascal_version(void);

#ifdef __cplusplus
}
#endif

#endif
