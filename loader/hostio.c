/* loader/hostio.c — files and tensors moved by the host at the points of a run (loader/hostio.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "loader/dram_ops.h"
#include "loader/file.h"
#include "loader/hostio.h"
#include "loader/npy.h"
#include "loader/fail.h"

static bool ends_with(const char *s, const char *suffix) {
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && !strcmp(s + n - m, suffix);
}

/* Can path be created or overwritten? Checked before the run, so that a run is not wasted on an
 * output it cannot save (the write itself is checked again after the run). */
static int check_writable(const char *path, const char *origin, char *err, size_t errlen) {
    struct stat st;
    if (stat(path, &st) == 0) {
        if (S_ISDIR(st.st_mode)) return loader_fail(err, errlen, "%s: cannot write it: a directory (%s)", path, origin);
        if (access(path, W_OK) != 0)
            return loader_fail(err, errlen, "%s: cannot write it: %s (%s)", path, strerror(errno), origin);
        return 0;
    }
    const char *slash = strrchr(path, '/');
    char dir[4096];
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) + (slash == path) : 1, slash ? path : ".");
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
        return loader_fail(err, errlen, "%s: cannot write it: no directory %s (%s)", path, dir, origin);
    if (access(dir, W_OK | X_OK) != 0)
        return loader_fail(err, errlen, "%s: cannot write it: directory %s: %s (%s)", path, dir, strerror(errno),
                           origin);
    return 0;
}

static int write_file(const char *path, const uint8_t *a, size_t alen, const uint8_t *b, size_t blen, char *err,
                      size_t errlen) {
    FILE *f = fopen(path, "wb");
    if (!f) return loader_fail(err, errlen, "%s: cannot write it: %s", path, strerror(errno));
    bool ok = fwrite(a, 1, alen, f) == alen && (!blen || fwrite(b, 1, blen, f) == blen);
    if (fclose(f) != 0) ok = false;
    if (!ok) return loader_fail(err, errlen, "%s: write error", path);
    return 0;
}

/* "tensor 'x' (bfloat16 [32, 64], tiles)" for messages. */
static const char *describe(const cfg_t *c, int ti, char *buf, size_t n) {
    const cfg_tensor_t *t = &c->tensors[ti];
    char s[80];
    tns_shape_str(&t->desc, s, sizeof s);
    snprintf(buf, n, "tensor '%s' (%s %s, %s)", t->name, tns_format_name(t->desc.format), s,
             t->desc.tiles ? "tiles" : "rows");
    return buf;
}

/* A tensor file's values as row-major elements of the tensor's format: *elems points into *mem,
 * which the caller releases with ldr_unmap_file(*mem, *mem_len): the .npy file's own data when it
 * holds them as they are, else a converted copy (*mem_len 0). An input's file may be mapped (it is
 * released before the run); an expectation's is read (*mem_len 0), since it is kept for the whole
 * run and a mapped file rewritten meanwhile would change it or fault the process. */
static int load_tensor(const cfg_t *c, const cfg_tio_t *io, const uint8_t **elems, uint8_t **mem, size_t *mem_len,
                       char *err, size_t errlen) {
    const tns_desc_t *d = &c->tensors[io->tensor].desc;
    char what[160], why[256];
    describe(c, io->tensor, what, sizeof what);
    bool npy = ends_with(io->file, ".npy");
    if (!npy && !ends_with(io->file, ".bin"))
        return loader_fail(err, errlen, "%s: expected a .npy or .bin file (%s, %s)", io->file, io->origin, what);
    /* The copy's memory is taken before the file's, used or not: the other way round, the heap's
     * freed blocks came back to later callocs, which then cleared them (the eltwise samples +0.9%
     * host instructions). */
    uint8_t *rm = ldr_alloc_large(d->elem_bytes);
    if (!rm) return loader_fail(err, errlen, "out of memory (%s)", io->origin);
    size_t len = 0;
    bool read = io->kind != TIO_INPUT;
    size_t max = npy ? LDR_MAX_NPY : d->bytes;
    const char *kind = npy ? "a .npy file" : "a .bin tensor (the tensor's bytes)";
    uint8_t *buf = read ? (uint8_t *)ldr_read_file_max(io->file, max, kind, &len, why, sizeof why)
                        : ldr_map_file_max(io->file, max, kind, &len, why, sizeof why);
    size_t buf_len = read ? 0 : len; /* for ldr_unmap_file */
    npy_t a;
    int rc = 0;
    if (!buf)
        rc = loader_fail(err, errlen, "%s (%s)", why, io->origin);
    else if (npy && npy_parse(buf, len, &a, why, sizeof why))
        rc = loader_fail(err, errlen, "%s: %s (%s, %s)", io->file, why, io->origin, what);
    else if (npy && (*elems = tns_npy_elems(d, &a))) { /* the file's own data, in place */
        free(rm);
        *mem = buf;
        *mem_len = buf_len;
        return 0;
    } else if (npy && tns_from_npy(d, &a, rm, why, sizeof why))
        rc = loader_fail(err, errlen, "%s: %s (%s, %s)", io->file, why, io->origin, what);
    else if (!npy && len != d->bytes)
        rc = loader_fail(err, errlen, "%s: %zu bytes, but the %s holds %llu (%s)", io->file, len, what,
                         (unsigned long long)d->bytes, io->origin);
    else if (!npy)
        tns_untilize(d, buf, rm); /* raw bytes are in the tensor's layout */
    if (buf) ldr_unmap_file(buf, buf_len);
    if (rc) {
        free(rm);
        return rc;
    }
    *elems = *mem = rm;
    *mem_len = 0;
    return 0;
}

int hio_prepare(cfg_t *c, char *err, size_t errlen) {
    char why[256];
    for (int i = 0; i < c->nhost; i++) {
        cfg_host_op_t *op = &c->host[i];
        if (!op->file) continue;
        char key[48];
        snprintf(key, sizeof key, "host[%d].%s.file", i, op->is_write ? "write" : "read");
        if (!op->is_write) {
            char origin[96];
            snprintf(origin, sizeof origin, "%s: key '%s'", c->path, key);
            if (check_writable(op->file, origin, err, errlen)) return -1;
            continue;
        }
        size_t len;
        char *buf =
            ldr_read_file_max(op->file, TILE_L1_SIZE, "a host write file (it goes into L1)", &len, why, sizeof why);
        if (!buf) return loader_fail(err, errlen, "%s: key '%s': %s", c->path, key, why);
        op->data = (uint8_t *)buf;
        op->bytes = (uint32_t)len;
        uint64_t a = op->addr, end = a + len;
        bool in_l1 = end <= TILE_L1_SIZE;
        bool in_alias = a >= HIO_LDM_ALIAS_BASE && end <= HIO_LDM_ALIAS_END;
        if (!len || len > TILE_L1_SIZE || !(in_l1 || in_alias))
            return loader_fail(err, errlen,
                               "%s: key '%s': %s: %zu bytes from 0x%08x %s (a file goes into L1, 0..0x%x, or a "
                               "local-RAM alias, 0x%08x..0x%08x)",
                               c->path, key, op->file, len, op->addr, len ? "do not fit" : "(an empty file)",
                               TILE_L1_SIZE, HIO_LDM_ALIAS_BASE, HIO_LDM_ALIAS_END);
    }
    for (int i = 0; i < c->ntio; i++) {
        cfg_tio_t *io = &c->tio[i];
        const tns_desc_t *d = &c->tensors[io->tensor].desc;
        io->l1 = ldr_alloc_large(d->bytes); /* inputs: the bytes to write; the others: the bytes they read */
        if (!io->l1) return loader_fail(err, errlen, "out of memory (%s)", io->origin);
        if (io->kind == TIO_OUTPUT) {
            char what[160];
            if (!ends_with(io->file, ".npy") && !ends_with(io->file, ".bin"))
                return loader_fail(err, errlen, "%s: expected a .npy or .bin file (%s, %s)", io->file, io->origin,
                                   describe(c, io->tensor, what, sizeof what));
            if (check_writable(io->file, io->origin, err, errlen)) return -1;
            continue;
        }
        const uint8_t *elems = NULL;
        uint8_t *mem = NULL;
        size_t mem_len = 0;
        if (load_tensor(c, io, &elems, &mem, &mem_len, err, errlen)) return -1;
        if (io->kind == TIO_INPUT) {
            tns_tilize(d, elems, io->l1);
            ldr_unmap_file(mem, mem_len);
        } else {
            io->want = elems;
            io->want_mem = mem; /* read, not mapped (mem_len 0): cfg_free frees it */
        }
    }
    return 0;
}

void hio_write_bytes(tile_t *t, uint32_t addr, const uint8_t *data, uint32_t len) {
    if (addr < TILE_L1_SIZE) {
        memcpy(t->l1 + addr, data, len);
        env_l1_written(t, addr, len);
        return;
    }
    /* A local-RAM alias: whole words through the host's access, merging partial ones. */
    for (uint32_t a = addr & ~3u; a < addr + len; a += 4) {
        uint32_t w = 0;
        tile_host_read(t, a, &w);
        for (unsigned b = 0; b < 4; b++)
            if (a + b >= addr && a + b < addr + len) {
                w &= ~(0xFFu << (8 * b));
                w |= (uint32_t)data[a + b - addr] << (8 * b);
            }
        tile_host_write(t, a, w);
    }
}

static void move(run_t *r, const cfg_t *c, cfg_tio_t *io) {
    const cfg_tensor_t *t = &c->tensors[io->tensor];
    int ch = t->interleaved ? LDR_DRAM_INTERLEAVED : t->bank;
    if (io->kind == TIO_INPUT) {
        if (!t->in_dram)
            hio_write_bytes(r->tile, t->addr, io->l1, (uint32_t)t->desc.bytes);
        else if (!ldr_dram_put(r->tile, ch, t->page_size, t->dram_base, io->l1, t->desc.bytes))
            io->failed = true; /* out of memory: hio_check says so */
        return;
    }
    if (io->taken) return; /* read at the first point that reaches it */
    tile_cp_sync(r->tile);
    if (t->in_dram)
        ldr_dram_get(r->tile, ch, t->page_size, t->dram_base, io->l1, t->desc.bytes);
    else
        memcpy(io->l1, r->tile->l1 + t->addr, t->desc.bytes);
    io->taken = true;
}

void hio_at(run_t *r, const cfg_t *c, cfg_at_t at, int launch) {
    /* Inputs first, then the reads: an output at the point of an input sees the input. */
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < c->ntio; i++) {
            cfg_tio_t *io = &c->tio[i];
            if ((io->kind == TIO_INPUT) == (pass == 0) && !io->at_end && io->at == at &&
                (io->launch < 0 || io->launch == launch))
                move(r, c, io);
        }
}

void hio_end(run_t *r, const cfg_t *c) {
    for (int i = 0; i < c->ntio; i++)
        if (c->tio[i].at_end) move(r, c, &c->tio[i]);
}

static const char *point_name(const cfg_tio_t *io, char *buf, size_t n) {
    if (io->launch >= 0)
        snprintf(buf, n, "%s of launch %d", cfg_at_name(io->at), io->launch);
    else
        snprintf(buf, n, "%s", cfg_at_name(io->at));
    return buf;
}

int hio_finish(run_t *r, const cfg_t *c, int *failed, char *err, size_t errlen) {
    int rc = 0;
    char e[512];
    *failed = 0;
    for (int k = 0; k < r->nreads; k++) {
        const run_read_t *rd = &r->reads[k];
        if (!rd->file) continue;
        if (!rd->taken) {
            if (!rc)
                rc = loader_fail(err, errlen,
                                 "%s: host read '%s' never happened (its point was not reached): %s not written",
                                 c->path, rd->name, rd->file);
            continue;
        }
        if (write_file(rd->file, (const uint8_t *)rd->val, rd->bytes, NULL, 0, e, sizeof e) && !rc)
            rc = loader_fail(err, errlen, "%s (%s: host read '%s')", e, c->path, rd->name);
    }
    for (int i = 0; i < c->ntio; i++) {
        cfg_tio_t *io = &c->tio[i];
        const cfg_tensor_t *t = &c->tensors[io->tensor];
        if (io->kind == TIO_INPUT) {
            if (io->failed && !rc)
                rc = loader_fail(err, errlen, "%s: tensor '%s': out of memory for its DRAM pages (%s)", io->origin,
                                 t->name, io->file);
            continue;
        }
        const tns_desc_t *d = &t->desc;
        if (!io->taken) {
            char pt[64];
            if (io->kind == TIO_EXPECT) ++*failed;
            if (!rc)
                rc = loader_fail(err, errlen, "%s: tensor '%s' was never read: the run did not reach %s (%s)",
                                 io->origin, t->name, point_name(io, pt, sizeof pt), io->file);
            continue;
        }
        if (io->kind == TIO_OUTPUT && ends_with(io->file, ".bin")) {
            if (write_file(io->file, io->l1, d->bytes, NULL, 0, e, sizeof e) && !rc)
                rc = loader_fail(err, errlen, "%s (%s)", e, io->origin);
            continue;
        }
        uint8_t *rm = ldr_alloc_large(d->elem_bytes);
        if (!rm) {
            if (!rc) rc = loader_fail(err, errlen, "out of memory (%s)", io->origin);
            continue;
        }
        tns_untilize(d, io->l1, rm);
        if (io->kind == TIO_EXPECT) {
            tns_compare(d, rm, io->want, io->atol, io->rtol, &io->cmp);
            *failed += io->cmp.mismatches > 0;
            free(rm);
            continue;
        }
        npy_type_t ty = tns_output_type(d->format);
        uint8_t hdr[NPY_HEADER_MAX], *data = ldr_alloc_large(d->count * npy_itemsize(ty));
        uint64_t shape[TNS_MAX_DIMS];
        for (int k = 0; k < d->ndim; k++)
            shape[k] = d->shape[k];
        size_t hlen = npy_header(ty, shape, d->ndim, hdr);
        if (!data) {
            if (!rc) rc = loader_fail(err, errlen, "out of memory (%s)", io->origin);
        } else {
            tns_to_output(d, rm, data);
            if (write_file(io->file, hdr, hlen, data, d->count * npy_itemsize(ty), e, sizeof e) && !rc)
                rc = loader_fail(err, errlen, "%s (%s)", e, io->origin);
        }
        free(data);
        free(rm);
    }
    return rc;
}
