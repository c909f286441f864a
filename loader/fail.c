/* loader/fail.c — the loaders' error convention (loader/fail.h). */
#include "loader/fail.h"

#include <stdarg.h>
#include <stdio.h>

int loader_fail(char *err, size_t n, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, n, fmt, ap);
    va_end(ap);
    return -1;
}
