/* loader/elf.c — ELF32 RISC-V executables through libelf. */
#include <errno.h>
#include <gelf.h>
#include <libelf.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "loader/elf.h"

static int fail(char *err, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(char *err, size_t n, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, n, fmt, ap);
    va_end(ap);
    return -1;
}

static int sym_cmp(const void *a, const void *b) {
    const ldr_sym_t *x = a, *y = b;
    return (x->addr > y->addr) - (x->addr < y->addr);
}

/* Function and object symbols, for naming PCs in reports. */
static void read_symbols(Elf *e, ldr_image_t *img) {
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
            img->syms[img->nsyms++] = (ldr_sym_t){(uint32_t)s.st_value, (uint32_t)s.st_size, strdup(name)};
        }
        qsort(img->syms, img->nsyms, sizeof *img->syms, sym_cmp);
        return;
    }
}

static int load_segments(ldr_set_t *set, tile_t *t, int core, const char *path, Elf *e, const uint8_t *file,
                         size_t filesz, uint32_t ldm_scratch, char *err, size_t errlen) {
    size_t nph;
    if (elf_getphdrnum(e, &nph) != 0) return fail(err, errlen, "%s: cannot read program headers: %s", path, elf_errmsg(-1));
    int loaded = 0;
    for (size_t i = 0; i < nph; i++) {
        GElf_Phdr ph;
        if (!gelf_getphdr(e, (int)i, &ph)) return fail(err, errlen, "%s: bad program header %zu", path, i);
        if (ph.p_type != PT_LOAD || ph.p_memsz == 0) continue;
        uint64_t lo = ph.p_vaddr, hi = ph.p_vaddr + ph.p_memsz;
        if (ph.p_filesz > ph.p_memsz || ph.p_offset + ph.p_filesz > filesz)
            return fail(err, errlen, "%s: segment %zu (0x%08llx, %llu bytes) has file data past the end of the file",
                        path, i, (unsigned long long)lo, (unsigned long long)ph.p_memsz);
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
            for (int r = 0; r < set->nranges; r++) {
                const ldr_range_t *o = &set->ranges[r];
                if (lo < o->hi && o->lo < hi)
                    return fail(err, errlen,
                                "%s: segment %zu (0x%08llx..0x%08llx) overlaps %s's image %s (0x%08x..0x%08x)", path, i,
                                (unsigned long long)lo, (unsigned long long)hi, tile_core_names[o->core], o->path,
                                o->lo, o->hi);
            }
            if (set->nranges == LDR_MAX_RANGES) return fail(err, errlen, "%s: too many segments", path);
            set->ranges[set->nranges++] = (ldr_range_t){(uint32_t)lo, (uint32_t)hi, core, set->images[core].path};
            dst = t->l1 + lo;
            env_l1_written(t, (uint32_t)lo, (unsigned)(hi - lo));
        } else if (ldm) {
            dst = t->ldm[core] + (lo - HART_LDM_BASE);
        } else {
            return fail(err, errlen,
                        "%s: segment %zu (0x%08llx..0x%08llx) is outside every memory %s can load "
                        "(L1 0x00000000..0x%08x, %s local RAM 0x%08x..0x%08x)",
                        path, i, (unsigned long long)lo, (unsigned long long)hi, tile_core_names[core], TILE_L1_SIZE,
                        tile_core_names[core], HART_LDM_BASE, HART_LDM_BASE + t->ldm_size[core]);
        }
        memcpy(dst, file + ph.p_offset, ph.p_filesz);
        memset(dst + ph.p_filesz, 0, zero_fill);
        loaded++;
    }
    if (!loaded) return fail(err, errlen, "%s: no loadable segment", path);
    return 0;
}

int ldr_elf_load(ldr_set_t *set, tile_t *t, int core, const char *path, uint32_t ldm_scratch, char *err,
                 size_t errlen) {
    ldr_image_t *img = &set->images[core];
    if (img->path) return fail(err, errlen, "%s: %s already has an image (%s)", path, tile_core_names[core], img->path);
    if (elf_version(EV_CURRENT) == EV_NONE) return fail(err, errlen, "libelf: %s", elf_errmsg(-1));

    /* Read the whole file: segments are copied from it, and a short file is caught here. */
    FILE *f = fopen(path, "rb");
    if (!f) return fail(err, errlen, "%s: cannot open: %s", path, strerror(errno));
    uint8_t *buf = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (len == cap) {
            cap = cap ? cap * 2 : 65536;
            uint8_t *nb = realloc(buf, cap);
            if (!nb) break;
            buf = nb;
        }
        size_t n = fread(buf + len, 1, cap - len, f);
        len += n;
        if (n == 0) break;
    }
    fclose(f);

    int rc = -1;
    Elf *e = buf ? elf_memory((char *)buf, len) : NULL;
    GElf_Ehdr eh;
    if (!e || elf_kind(e) != ELF_K_ELF) {
        rc = fail(err, errlen, "%s: not an ELF file", path);
    } else if (gelf_getclass(e) != ELFCLASS32) {
        rc = fail(err, errlen, "%s: not a 32-bit ELF (ttemu runs RV32 images)", path);
    } else if (!gelf_getehdr(e, &eh) || eh.e_machine != EM_RISCV) {
        rc = fail(err, errlen, "%s: not a RISC-V ELF (e_machine %u)", path, (unsigned)eh.e_machine);
    } else if (eh.e_ident[EI_DATA] != ELFDATA2LSB) {
        rc = fail(err, errlen, "%s: not little-endian", path);
    } else if (eh.e_type != ET_EXEC) {
        rc = fail(err, errlen, "%s: not an executable (ELF type %u); link it first", path, (unsigned)eh.e_type);
    } else {
        img->path = strdup(path);
        img->core = core;
        img->entry = (uint32_t)eh.e_entry;
        rc = load_segments(set, t, core, path, e, buf, len, ldm_scratch, err, errlen);
        if (rc == 0 && img->entry >= TILE_L1_SIZE)
            rc = fail(err, errlen, "%s: entry point 0x%08x is outside L1 (cores fetch only from L1)", path, img->entry);
        if (rc == 0) read_symbols(e, img);
    }
    if (e) elf_end(e);
    free(buf);
    return rc;
}

void ldr_set_free(ldr_set_t *set) {
    for (int c = 0; c < TILE_NCORES; c++) {
        ldr_image_t *img = &set->images[c];
        for (size_t i = 0; i < img->nsyms; i++) free(img->syms[i].name);
        free(img->syms);
        free(img->path);
    }
    memset(set, 0, sizeof *set);
}

const char *ldr_symbolize(const ldr_set_t *set, int core, uint32_t addr, uint32_t *off) {
    const ldr_image_t *img = &set->images[core];
    /* Only addresses inside the image: a size-0 symbol must not name a pc far past its end. */
    bool inside = false;
    for (int r = 0; r < set->nranges; r++)
        inside = inside || (set->ranges[r].core == core && addr - set->ranges[r].lo < set->ranges[r].hi - set->ranges[r].lo);
    if (!inside) return NULL;
    const ldr_sym_t *best = NULL;
    size_t lo = 0, hi = img->nsyms;
    while (lo < hi) { /* last symbol with addr <= target */
        size_t mid = (lo + hi) / 2;
        if (img->syms[mid].addr <= addr) {
            best = &img->syms[mid];
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    if (!best || (best->size && addr >= best->addr + best->size)) return NULL;
    if (off) *off = addr - best->addr;
    return best->name;
}
