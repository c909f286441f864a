/* loader/fail.h — the loaders' error convention: a message into the caller's buffer, -1 back. */
#ifndef TTEMU_LOADER_FAIL_H
#define TTEMU_LOADER_FAIL_H

#include <stddef.h>

/* Formats the message into err (at most n bytes, always terminated) and returns -1, so a loader
 * reports and fails in one statement: `return loader_fail(err, n, "%s: ...", path);`. */
int loader_fail(char *err, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
