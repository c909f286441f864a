/* loader/file.c — whole files read under a size limit, and large host buffers. */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "loader/fail.h"
#include "loader/file.h"

void *ldr_alloc_large(size_t n) {
    const size_t huge = 2u << 20;
    if (n < huge / 2) return malloc(n);
    if (n > SIZE_MAX - huge) return NULL;        /* (the rounding up below would wrap) */
    size_t whole = (n + huge - 1) & ~(huge - 1); /* a huge page covers only a whole aligned 2 MiB */
    void *p;
    if (posix_memalign(&p, huge, whole)) return NULL;
#ifdef MADV_HUGEPAGE
    madvise(p, whole, MADV_HUGEPAGE); /* advice only: without it, ordinary pages */
#endif
    return p;
}

/* The whole file, refused before anything is allocated for it unless it is a regular file of at
 * most max bytes: `--config /dev/zero` or a FIFO would otherwise read (or wait) forever. Opened
 * without blocking, so that a FIFO is refused rather than waited on. */
char *ldr_read_file_max(const char *path, size_t max, const char *what, size_t *len, char *err, size_t errlen) {
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        loader_fail(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        loader_fail(err, errlen, "%s: not a regular file (%s is read from a regular file)", path, what);
        close(fd);
        return NULL;
    }
    if ((uint64_t)st.st_size > max) {
        loader_fail(err, errlen, "%s: %llu bytes, more than %s may be (%zu bytes)", path,
                    (unsigned long long)st.st_size, what, max);
        close(fd);
        return NULL;
    }
    /* Room for the NUL, and one byte more to notice a file that grew past max meanwhile. */
    size_t cap = (size_t)st.st_size + 2, n = 0;
    char *buf = ldr_alloc_large(cap);
    bool oom = !buf;
    ssize_t got = 0;
    while (!oom && n <= max) {
        if (n + 1 >= cap) {
            size_t ncap = cap * 2 > max + 2 ? max + 2 : cap * 2;
            char *nb = realloc(buf, ncap);
            if (!nb) {
                oom = true;
                break;
            }
            buf = nb;
            cap = ncap;
        }
        got = read(fd, buf + n, cap - n - 1);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) break;
        n += (size_t)got;
    }
    int rerr = errno;
    close(fd);
    const char *why = oom ? "out of memory reading it" : got < 0 ? strerror(rerr) : NULL;
    if (why || n > max) {
        free(buf);
        if (why)
            loader_fail(err, errlen, "%s: %s", path, why);
        else
            loader_fail(err, errlen, "%s: more than %s may be (%zu bytes)", path, what, max);
        return NULL;
    }
    buf[n] = 0;
    if (len) *len = n;
    return buf;
}

char *ldr_read_file(const char *path, size_t *len, char *err, size_t errlen) {
    return ldr_read_file_max(path, LDR_MAX_FILE, "a file", len, err, errlen);
}
