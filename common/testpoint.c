/* Test points (testpoint.h). */
#include "common/testpoint.h"

#include <stddef.h>

static pascal_testpoint_hook installed;

void pascal_testpoint_set(pascal_testpoint_hook hook)
{
    installed = hook;
}

void pascal_testpoint(const char *name)
{
    if (installed)
        installed(name);
}
