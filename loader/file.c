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

/* The file opened for reading, refused before anything is allocated for it unless it is a regular
 * file of at most max bytes (its size in *size): `--config /dev/zero` or a FIFO would otherwise
 * be read (or waited on) forever. Opened without blocking, so that a FIFO is refused rather than
 * waited on. -1 with err. */
static int open_file(const char *path, size_t max, const char *what, size_t *size, char *err, size_t errlen) {
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        loader_fail(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        loader_fail(err, errlen, "%s: not a regular file (%s is read from a regular file)", path, what);
        close(fd);
        return -1;
    }
    if ((uint64_t)st.st_size > max) {
        loader_fail(err, errlen, "%s: %llu bytes, more than %s may be (%zu bytes)", path,
                    (unsigned long long)st.st_size, what, max);
        close(fd);
        return -1;
    }
    *size = (size_t)st.st_size;
    return fd;
}

/* The open file fd (open_file's, size bytes then) read whole and closed. */
static char *read_open(int fd, size_t size, const char *path, size_t max, const char *what, size_t *len, char *err,
                       size_t errlen) {
    /* Room for the NUL, and one byte more to notice a file that grew past max meanwhile. */
    size_t cap = size + 2, n = 0;
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

char *ldr_read_file_max(const char *path, size_t max, const char *what, size_t *len, char *err, size_t errlen) {
    size_t size;
    int fd = open_file(path, max, what, &size, err, errlen);
    return fd < 0 ? NULL : read_open(fd, size, path, max, what, len, err, errlen);
}

char *ldr_read_file(const char *path, size_t *len, char *err, size_t errlen) {
    return ldr_read_file_max(path, LDR_MAX_FILE, "a file", len, err, errlen);
}

/* Smaller files are read (a mapping's own calls and first touch cost more than reading a few
 * pages into the heap, which the loaders reuse: a launch's kernels are ~1 KiB each). The TRISCs'
 * firmware ELFs (54-61 KiB) are mapped: read, they brought ~28 fresh heap pages in a run. */
#define MAP_AT_LEAST (16u << 10)

uint8_t *ldr_map_file_max(const char *path, size_t max, const char *what, size_t *len, char *err, size_t errlen) {
    size_t size;
    int fd = open_file(path, max, what, &size, err, errlen);
    if (fd < 0) return NULL;
    if (size < MAP_AT_LEAST) {
        uint8_t *buf = (uint8_t *)read_open(fd, size, path, max, what, len, err, errlen);
        if (buf && *len >= MAP_AT_LEAST) { /* (one that grew meanwhile would be unmapped) */
            free(buf);
            loader_fail(err, errlen, "%s: changed while read", path);
            return NULL;
        }
        return buf;
    }
    void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
    int merr = errno;
    close(fd);
    if (p == MAP_FAILED) {
        loader_fail(err, errlen, "%s: cannot map: %s", path, strerror(merr));
        return NULL;
    }
    *len = size;
    return p;
}

void ldr_unmap_file(uint8_t *buf, size_t len) {
    if (len < MAP_AT_LEAST)
        free(buf);
    else if (buf)
        munmap(buf, len);
}
