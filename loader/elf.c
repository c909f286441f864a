/* loader/elf.c — ELF32 RISC-V executables through libelf. */
#include <limits.h>
#include <gelf.h>
#include <libelf.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loader/elf.h"
#include "loader/fail.h"
#include "loader/file.h"

static int sym_cmp(const void *a, const void *b) {
    const img_sym_t *x = a, *y = b;
    return (x->addr > y->addr) - (x->addr < y->addr);
}

/* Function and object symbols, for naming PCs in reports. */
static void read_symbols(Elf *e, img_t *img) {
    Elf_Scn *scn = NULL;
    while ((scn = elf_nextscn(e, scn)) != NULL) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || sh.sh_entsize == 0) continue;
        Elf_Data *d = elf_getdata(scn, NULL);
        if (!d) continue;
        size_t n = sh.sh_size / sh.sh_entsize;
        img->syms = calloc(n ? n : 1, sizeof *img->syms);
        if (!img->syms) return;
        for (size_t i = 0; i < n; i++) {
            GElf_Sym s;
            if (!gelf_getsym(d, (int)i, &s)) continue;
            int type = GELF_ST_TYPE(s.st_info);
            if (type != STT_FUNC && !(type == STT_NOTYPE && s.st_shndx != SHN_UNDEF && s.st_shndx < SHN_LORESERVE))
                continue;
            const char *name = elf_strptr(e, sh.sh_link, s.st_name);
            if (!name || !*name || name[0] == '.' || name[0] == '$') continue;
            img->syms[img->nsyms++] = (img_sym_t){(uint32_t)s.st_value, (uint32_t)s.st_size, strdup(name)};
        }
        qsort(img->syms, img->nsyms, sizeof *img->syms, sym_cmp);
        return;
    }
}

/* Claims [lo, hi) of L1 for core's image: refused if it overlaps an image already loaded. */
static int claim_l1(img_set_t *set, int core, uint64_t lo, uint64_t hi, const char *what, char *err, size_t errlen) {
    for (int r = 0; r < set->nranges; r++) {
        const img_range_t *o = &set->ranges[r];
        if (lo < o->hi && o->lo < hi)
            return loader_fail(err, errlen, "%s (0x%08llx..0x%08llx) overlaps %s's image %s (0x%08x..0x%08x)", what,
                               (unsigned long long)lo, (unsigned long long)hi, tile_core_names[o->core], o->path, o->lo,
                               o->hi);
    }
    if (set->nranges == IMG_MAX_RANGES) return loader_fail(err, errlen, "%s: too many segments", what);
    set->ranges[set->nranges++] = (img_range_t){(uint32_t)lo, (uint32_t)hi, core, set->images[core].path};
    return 0;
}

/* A PT_LOAD segment's file data lies in the file and within its memory size. */
static bool segment_ok(const GElf_Phdr *ph, size_t filesz) {
    return ph->p_filesz <= ph->p_memsz && ph->p_offset <= filesz && ph->p_filesz <= filesz - ph->p_offset;
}

/* The segments an execute-in-place kernel image is made of: loadable, non-empty, in L1. */
static bool kernel_segment(const GElf_Phdr *ph) {
    return ph->p_type == PT_LOAD && ph->p_memsz && ph->p_vaddr < HART_LDM_BASE;
}

static int load_segments(img_set_t *set, tile_t *t, int core, const char *path, Elf *e, const uint8_t *file,
                         size_t filesz, uint32_t ldm_scratch, char *err, size_t errlen) {
    size_t nph;
    if (elf_getphdrnum(e, &nph) != 0)
        return loader_fail(err, errlen, "%s: cannot read program headers: %s", path, elf_errmsg(-1));
    int loaded = 0;
    for (size_t i = 0; i < nph; i++) {
        GElf_Phdr ph;
        if (!gelf_getphdr(e, (int)i, &ph)) return loader_fail(err, errlen, "%s: bad program header %zu", path, i);
        if (ph.p_type != PT_LOAD || ph.p_memsz == 0) continue;
        uint64_t lo = ph.p_vaddr, hi = ph.p_vaddr + ph.p_memsz;
        if (!segment_ok(&ph, filesz))
            return loader_fail(err, errlen,
                               "%s: segment %zu (0x%08llx, %llu bytes) has file data past the end of the file", path, i,
                               (unsigned long long)lo, (unsigned long long)ph.p_memsz);
        uint8_t *dst;
        uint64_t zero_fill = ph.p_memsz - ph.p_filesz;
        bool ldm = lo >= HART_LDM_BASE && hi <= (uint64_t)HART_LDM_BASE + t->ldm_size[core];
        if (ldm && ldm_scratch) {
            if (ph.p_filesz == 0) continue; /* .bss: the firmware zeroes it */
            lo = ldm_scratch + (lo - HART_LDM_BASE);
            hi = lo + ph.p_filesz;
            zero_fill = 0;
            ldm = false;
        }
        if (hi <= TILE_L1_SIZE) {
            char what[PATH_MAX + 32];
            snprintf(what, sizeof what, "%s: segment %zu", path, i);
            if (claim_l1(set, core, lo, hi, what, err, errlen)) return -1;
            dst = t->l1 + lo;
            env_l1_written(t, (uint32_t)lo, (unsigned)(hi - lo));
        } else if (ldm) {
            dst = t->ldm[core] + (lo - HART_LDM_BASE);
            tile_spin_forget(t); /* local RAM has no env_l1_written: drop the idle proof here */
        } else {
            return loader_fail(err, errlen,
                               "%s: segment %zu (0x%08llx..0x%08llx) is outside every memory %s can load "
                               "(L1 0x00000000..0x%08x, %s local RAM 0x%08x..0x%08x)",
                               path, i, (unsigned long long)lo, (unsigned long long)hi, tile_core_names[core],
                               TILE_L1_SIZE, tile_core_names[core], HART_LDM_BASE, HART_LDM_BASE + t->ldm_size[core]);
        }
        memcpy(dst, file + ph.p_offset, ph.p_filesz);
        memset(dst + ph.p_filesz, 0, zero_fill);
        loaded++;
    }
    if (!loaded) return loader_fail(err, errlen, "%s: no loadable segment", path);
    return 0;
}

/* Opens buf as an ELF32 RISC-V little-endian file of the given type, or explains why not. */
static Elf *open_rv32(const char *path, uint8_t *buf, size_t len, GElf_Ehdr *eh, char *err, size_t errlen) {
    if (elf_version(EV_CURRENT) == EV_NONE) {
        loader_fail(err, errlen, "libelf: %s", elf_errmsg(-1));
        return NULL;
    }
    Elf *e = elf_memory((char *)buf, len);
    const char *why = NULL;
    if (!e || elf_kind(e) != ELF_K_ELF)
        why = "not an ELF file";
    else if (gelf_getclass(e) != ELFCLASS32)
        why = "not a 32-bit ELF (ttemu runs RV32 images)";
    else if (!gelf_getehdr(e, eh) || eh->e_machine != EM_RISCV)
        why = "not a RISC-V ELF";
    else if (eh->e_ident[EI_DATA] != ELFDATA2LSB)
        why = "not little-endian";
    else if (eh->e_type != ET_EXEC)
        why = "not an executable; link it first";
    if (!why) return e;
    loader_fail(err, errlen, "%s: %s", path, why);
    if (e) elf_end(e);
    return NULL;
}

/* A whole non-empty image file, for the loaders: an ELF (its debug sections may make it much
 * larger than the memories it loads into) or a flat binary (no larger than L1); released with
 * ldr_unmap_file. */
static uint8_t *read_all(const char *path, size_t max, const char *what, size_t *len, char *err, size_t errlen) {
    uint8_t *buf = ldr_map_file_max(path, max, what, len, err, errlen);
    if (buf && !*len) {
        ldr_unmap_file(buf, 0);
        loader_fail(err, errlen, "%s: empty file", path);
        return NULL;
    }
    return buf;
}

int ldr_elf_load(img_set_t *set, tile_t *t, int core, const char *path, uint32_t ldm_scratch, char *err,
                 size_t errlen) {
    img_t *img = &set->images[core];
    if (img->path)
        return loader_fail(err, errlen, "%s: %s already has an image (%s)", path, tile_core_names[core], img->path);
    size_t len;
    uint8_t *buf = read_all(path, LDR_MAX_ELF, "an ELF image", &len, err, errlen);
    if (!buf) return -1;
    int rc = ldr_elf_load_mem(set, t, core, path, buf, len, ldm_scratch, err, errlen);
    ldr_unmap_file(buf, len);
    return rc;
}

int ldr_elf_load_mem(img_set_t *set, tile_t *t, int core, const char *path, uint8_t *buf, size_t len,
                     uint32_t ldm_scratch, char *err, size_t errlen) {
    img_t *img = &set->images[core];
    if (img->path)
        return loader_fail(err, errlen, "%s: %s already has an image (%s)", path, tile_core_names[core], img->path);
    int rc = -1;
    GElf_Ehdr eh;
    Elf *e = open_rv32(path, buf, len, &eh, err, errlen);
    if (e) {
        img->path = strdup(path);
        img->core = core;
        img->entry = (uint32_t)eh.e_entry;
        rc = load_segments(set, t, core, path, e, buf, len, ldm_scratch, err, errlen);
        if (rc == 0 && img->entry >= TILE_L1_SIZE)
            rc = loader_fail(err, errlen, "%s: entry point 0x%08x is outside L1 (cores fetch only from L1)", path,
                             img->entry);
        if (rc == 0) read_symbols(e, img);
    }
    if (e) elf_end(e);
    return rc;
}

int ldr_bin_load(img_set_t *set, tile_t *t, int core, const char *path, uint32_t addr, char *err, size_t errlen) {
    img_t *img = &set->images[core];
    if (img->path)
        return loader_fail(err, errlen, "%s: %s already has an image (%s)", path, tile_core_names[core], img->path);
    if (addr % 4) return loader_fail(err, errlen, "%s: load address 0x%08x is not 4-byte aligned", path, addr);
    size_t len;
    uint8_t *buf = read_all(path, TILE_L1_SIZE, "a flat binary (it loads into L1)", &len, err, errlen);
    if (!buf) return -1;
    uint64_t hi = (uint64_t)addr + len;
    int rc = 0;
    if (hi > TILE_L1_SIZE)
        rc = loader_fail(err, errlen, "%s: 0x%08x..0x%08llx is outside L1", path, addr, (unsigned long long)hi);
    if (!rc) {
        img->path = strdup(path);
        rc = claim_l1(set, core, addr, hi, path, err, errlen);
    }
    if (!rc) {
        img->core = core;
        img->entry = addr;
        memcpy(t->l1 + addr, buf, len);
        env_l1_written(t, addr, (unsigned)len);
    }
    ldr_unmap_file(buf, len);
    return rc;
}

int ldr_kernel_image(const char *path, uint8_t **out, size_t *outlen, char *err, size_t errlen) {
    size_t len;
    uint8_t *buf = read_all(path, LDR_MAX_ELF, "a kernel image", &len, err, errlen);
    if (!buf) return -1;
    int rc = ldr_kernel_image_mem(path, buf, len, out, outlen, err, errlen);
    ldr_unmap_file(buf, len);
    return rc;
}

int ldr_kernel_image_mem(const char *path, uint8_t *buf, size_t len, uint8_t **out, size_t *outlen, char *err,
                         size_t errlen) {
    if (len < 4 || memcmp(buf, ELFMAG, SELFMAG) != 0) { /* a flat image */
        *out = malloc(len ? len : 1);
        if (!*out) return loader_fail(err, errlen, "%s: out of memory", path);
        memcpy(*out, buf, len);
        *outlen = len;
        return 0;
    }
    GElf_Ehdr eh;
    Elf *e = open_rv32(path, buf, len, &eh, err, errlen);
    size_t nph = 0;
    uint64_t lo = UINT64_MAX, hi = 0;
    int rc = e && elf_getphdrnum(e, &nph) == 0 ? 0 : -1;
    if (e && rc) loader_fail(err, errlen, "%s: cannot read program headers", path);
    /* Execute-in-place: the L1 segments, packed from the lowest address (tt-metal's XIP layout). */
    for (size_t i = 0; !rc && i < nph; i++) {
        GElf_Phdr ph;
        if (!gelf_getphdr(e, (int)i, &ph) || !kernel_segment(&ph)) continue;
        if (!segment_ok(&ph, len))
            rc = loader_fail(err, errlen, "%s: segment %zu has file data past the end of the file or of the segment",
                             path, i);
        if (ph.p_vaddr < lo) lo = ph.p_vaddr;
        if (ph.p_vaddr + ph.p_memsz > hi) hi = ph.p_vaddr + ph.p_memsz;
    }
    if (!rc && hi <= lo) rc = loader_fail(err, errlen, "%s: no loadable L1 segment", path);
    if (!rc && hi - lo > TILE_L1_SIZE) rc = loader_fail(err, errlen, "%s: kernel spans more than L1", path);
    uint8_t *img = rc ? NULL : calloc(1, hi - lo);
    if (!rc && !img) rc = loader_fail(err, errlen, "%s: out of memory", path);
    for (size_t i = 0; !rc && i < nph; i++) {
        GElf_Phdr ph;
        if (!gelf_getphdr(e, (int)i, &ph) || !kernel_segment(&ph)) continue;
        memcpy(img + (ph.p_vaddr - lo), buf + ph.p_offset, ph.p_filesz);
    }
    if (e) elf_end(e);
    if (rc) {
        free(img);
        return -1;
    }
    *out = img;
    *outlen = hi - lo;
    return 0;
}
