/* The version the build was configured with; see version.h. */
#include "common/version.h"

#ifndef PASCAL_VERSION
#define PASCAL_VERSION "unknown"
#endif

const char *pascal_version(void)
{
    return PASCAL_VERSION;
}
