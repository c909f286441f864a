/* loader/file.h — whole files read under a size limit, and large host buffers: what every loader
 * (images, run configs, tensors, regress lists) reads its input with. */
#ifndef TTEMU_LOADER_FILE_H
#define TTEMU_LOADER_FILE_H

#include <stddef.h>
#include <stdint.h>

/* Input size limits (docs/run-config.md "Limits"): every file ttemu reads is capped by what it can
 * meaningfully be, so `--brisc /dev/zero` or a huge file is refused instead of read until memory
 * runs out. An ELF image may carry debug sections far larger than the memories it loads into. */
#define LDR_MAX_FILE   (64u << 20) /* any other file: reports and goldens in `ttemu regress` */
#define LDR_MAX_ELF    (64u << 20) /* an ELF image (firmware, bare-mode program, XIP kernel) */
#define LDR_MAX_CONFIG (1u << 20)  /* a run config; also a regress list file */
/* A .npy tensor file: L1's 1.5 MiB of one-byte elements given as 8-byte numbers, and a header.
 * A .bin tensor or a host write file holds L1 bytes: at most TILE_L1_SIZE. */
#define LDR_MAX_NPY (16u << 20)

/* n bytes for a host-side buffer, released with free(). One of a MiB or more (a tensor, its file)
 * is placed on 2 MiB boundaries and advised as huge pages: its first touches then cost a page
 * fault each 2 MiB instead of each 4 KiB (bench/README "Tensors in and out"). */
void *ldr_alloc_large(size_t n);
/* A whole regular file of at most max bytes, NUL-terminated (len excludes the NUL); NULL with err
 * naming the file when it cannot be opened or read, is not a regular file (a directory, FIFO or
 * device), or is larger than max (what names the kind of file in messages: "a run config"). */
char *ldr_read_file_max(const char *path, size_t max, const char *what, size_t *len, char *err, size_t errlen);
/* ldr_read_file_max with LDR_MAX_FILE. */
char *ldr_read_file(const char *path, size_t *len, char *err, size_t errlen);
/* The same checks, for a file only looked at (an image, a tensor file). One of 16 KiB or more is
 * mapped rather than read (a private copy-on-write view, not NUL-terminated: no copy, only the
 * pages looked at brought in): the firmware's ELF files, ~400 KiB mostly of debug sections, cost
 * ~1.5% of add1 4 x 32's time and ~3.5% of boot100k's read into the heap, a 2 MiB .npy file
 * ~0.25 ms (bench/README "The harts and the whole program, round 11"). Such a file must not
 * shrink while mapped (a look past its new end faults the process), so only files released once
 * loaded are mapped (an image, a kernel's at its launch; an input's tensor once placed); an
 * expectation, kept for the whole run, is read (t_tensors cuts one short mid-run). Released with
 * ldr_unmap_file(buf, *len), which frees a smaller one (and ldr_unmap_file(p, 0) frees p). */
uint8_t *ldr_map_file_max(const char *path, size_t max, const char *what, size_t *len, char *err, size_t errlen);
void ldr_unmap_file(uint8_t *buf, size_t len);

#endif
