/* The version the library was built as (pascal/version.h). */
#include "pascal/version.h"

const char *pascal_version(void)
{
    return PASCAL_VERSION_STRING;
}

int pascal_version_number(void)
{
    return PASCAL_VERSION_NUMBER;
}
