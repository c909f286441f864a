/* debug/gdb_target.c — the tile as gdb sees it (docs/gdb.md): registers and CSRs, memory through
 * the host's paths, the five cores as threads, the target description, watchpoint matching, and
 * the `monitor` commands over the coprocessor's read-only views and the stall diagnosis. */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "coproc/tt_ops.h"
#include "core/rv32.h" /* hart_csr_read/write, rv_csr_name, rv_reg_name: gdb sees the CSRs the core has */
#include "debug/diag.h"
#include "debug/gdb_internal.h"

/* ---- memory ----------------------------------------------------------------------------------
 * L1 and the core's own local RAM directly, as its loads and stores reach them; everything else
 * (the local-RAM alias windows, the devices) through the host accessors, a whole word at a time,
 * so that `x/4x 0xFFB48020` reads stream registers as the host would. */

/* Core c's local RAM at HART_LDM_BASE (-1: the stopped core's, as gdb has no thread then). */
static int view_core(const gdb_t *g, int core) { return core >= 0 ? core : g->event_core; }

bool gt_mem_read(gdb_t *g, int core, uint32_t addr, uint32_t len, uint8_t *out, uint32_t *got) {
    tile_t *t = g->t;
    int c = view_core(g, core);
    uint32_t n = 0;
    while (n < len) {
        uint32_t a = addr + n, k;
        if (a < addr) break; /* wrapped past 0xFFFFFFFF */
        uint32_t off = a - HART_LDM_BASE;
        if (a < TILE_L1_SIZE) {
            k = TILE_L1_SIZE - a < len - n ? TILE_L1_SIZE - a : len - n;
            memcpy(out + n, t->l1 + a, k);
        } else if (off < t->ldm_size[c]) {
            k = t->ldm_size[c] - off < len - n ? t->ldm_size[c] - off : len - n;
            memcpy(out + n, t->ldm[c] + off, k);
        } else {
            uint32_t w, b = a & 3u;
            if (!tile_host_read(t, a - b, &w)) break;
            k = 4 - b < len - n ? 4 - b : len - n;
            for (uint32_t i = 0; i < k; i++)
                out[n + i] = (uint8_t)(w >> (8 * (b + i)));
        }
        n += k;
    }
    *got = n;
    return n > 0 || len == 0;
}

bool gt_mem_write(gdb_t *g, int core, uint32_t addr, uint32_t len, const uint8_t *in) {
    tile_t *t = g->t;
    int c = view_core(g, core);
    /* Two passes: check every part first, so a refused write changes nothing. Devices take whole
     * aligned words only (a byte write to a register would be a read-modify-write the host never
     * does, with the read's side effects). */
    for (int pass = 0; pass < 2; pass++) {
        uint32_t n = 0;
        while (n < len) {
            uint32_t a = addr + n, k;
            if (a < addr) return false;
            uint32_t off = a - HART_LDM_BASE;
            if (a < TILE_L1_SIZE) {
                k = TILE_L1_SIZE - a < len - n ? TILE_L1_SIZE - a : len - n;
                if (pass) {
                    memcpy(t->l1 + a, in + n, k);
                    env_l1_written(t, a, k); /* drops decoded code, the idle proof */
                }
            } else if (off < t->ldm_size[c]) {
                k = t->ldm_size[c] - off < len - n ? t->ldm_size[c] - off : len - n;
                if (pass) {
                    memcpy(t->ldm[c] + off, in + n, k);
                    tile_spin_forget(t);
                }
            } else {
                k = 4;
                if ((a & 3u) || len - n < 4 || !mmio_find(a)) return false;
                if (pass) {
                    uint32_t w = (uint32_t)in[n] | (uint32_t)in[n + 1] << 8 | (uint32_t)in[n + 2] << 16 |
                                 (uint32_t)in[n + 3] << 24;
                    if (!tile_host_write(t, a, w)) return false;
                }
            }
            n += k;
        }
    }
    return true;
}

/* ---- registers ------------------------------------------------------------------------------- */

#define GT_CSR_BASE 65 /* gdb's RISC-V numbering: CSR n is register 65 + n */

/* CSR accesses from the debugger must not leave a fault message behind (hart_csr_* fill h->fault
 * on failure, which a later fault would then carry). */
bool gt_reg_read(gdb_t *g, int core, unsigned regno, uint32_t *val) {
    hart_t *h = &g->t->hart[core];
    if (regno < 32) {
        *val = regno ? h->x[regno] : 0;
        return true;
    }
    if (regno == 32) {
        *val = h->pc;
        return true;
    }
    if (regno < GT_CSR_BASE || regno - GT_CSR_BASE > 0xFFF || !rv_csr_name(regno - GT_CSR_BASE)) return false;
    hart_fault_t keep = h->fault;
    bool ok = hart_csr_read(h, regno - GT_CSR_BASE, val);
    h->fault = keep;
    return ok;
}

bool gt_reg_write(gdb_t *g, int core, unsigned regno, uint32_t val) {
    tile_t *t = g->t;
    hart_t *h = &t->hart[core];
    /* A stalled access is retried with the registers as written (its pc, address or value may have
     * changed): the mark that lets a group turn count the retry without running it is dropped,
     * as every way of running a hart but the group's turn does (core/exec.c, hart_t.blocked). */
    h->blocked = false;
    if (regno < 32) {
        if (regno) h->x[regno] = val;
    } else if (regno == 32) {
        h->pc = val;
    } else {
        unsigned csr = regno - GT_CSR_BASE;
        if (regno < GT_CSR_BASE || csr > 0xFFF || !rv_csr_name(csr)) return false;
        hart_fault_t keep = h->fault;
        bool ok = hart_csr_write(h, csr, val);
        h->fault = keep;
        if (!ok) return false;
        /* hart_csr_write stores instret one less for the retirement of the csrw that wrote it;
         * a debugger's write retires nothing. */
        if (csr == 0xb02 || csr == 0xc02 || csr == 0xb82 || csr == 0xc82) h->instret++;
    }
    tile_spin_forget(t); /* the idle fast-forward's proof holds for these registers only */
    return true;
}

/* ---- target description ---------------------------------------------------------------------- */

/* gdb's features/riscv/32bit-cpu.xml types, in x0..x31 order. */
static const char *xreg_type(int i) {
    if (i == 1) return "code_ptr";
    if (i == 2 || i == 3 || i == 4 || i == 8) return "data_ptr";
    return "int";
}

static char *build_target_xml(size_t *len) {
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    if (!f) return NULL;
    fputs("<?xml version=\"1.0\"?>\n<!DOCTYPE target SYSTEM \"gdb-target.dtd\">\n<target version=\"1.0\">\n"
          "<architecture>riscv:rv32</architecture>\n<feature name=\"org.gnu.gdb.riscv.cpu\">\n",
          f);
    for (int i = 0; i < 32; i++)
        fprintf(f, "<reg name=\"%s\" bitsize=\"32\" type=\"%s\" regnum=\"%d\"/>\n", rv_reg_name[i], xreg_type(i), i);
    fputs("<reg name=\"pc\" bitsize=\"32\" type=\"code_ptr\" regnum=\"32\"/>\n</feature>\n"
          "<feature name=\"org.gnu.gdb.riscv.csr\">\n",
          f);
    /* Every CSR the core knows (core/csr.c), under the names CSRs.md gives them. */
    for (unsigned csr = 0; csr <= 0xFFF; csr++) {
        const char *n = rv_csr_name(csr);
        if (n) fprintf(f, "<reg name=\"%s\" bitsize=\"32\" regnum=\"%u\" group=\"csr\"/>\n", n, GT_CSR_BASE + csr);
    }
    fputs("</feature>\n</target>\n", f);
    if (fclose(f) != 0) {
        free(buf);
        return NULL;
    }
    return buf;
}

const char *gt_target_xml(gdb_t *g, size_t *len) {
    if (!g->xml) g->xml = build_target_xml(&g->xmllen);
    *len = g->xmllen;
    return g->xml;
}

/* ---- threads --------------------------------------------------------------------------------- */

void gt_thread_state(const gdb_t *g, int c, char *buf, size_t len) {
    const tile_t *t = g->t;
    const hart_t *h = &t->hart[c];
    switch (h->state) {
    case HART_RESET: snprintf(buf, len, "in reset"); return;
    case HART_HALTED: snprintf(buf, len, "halted (ebreak)"); return;
    case HART_HUNG: snprintf(buf, len, "hung: %s", h->hang_reason); return;
    case HART_FAULTED: snprintf(buf, len, "faulted: %s", h->fault.msg); return;
    case HART_RUNNING: break;
    }
    /* The one rule the diagnosis, the trace and the panel use (debug/diag.c). */
    int th;
    switch (diag_core_wait(t, c, &th)) {
    case CORE_WAIT_TENSIX_SYNC: snprintf(buf, len, "blocked in tensix_sync (waits for T%d to drain)", th); return;
    case CORE_WAIT_MOP_SYNC: snprintf(buf, len, "blocked in MOP expander sync (waits for T%d)", th); return;
    case CORE_WAIT_FIFO_FULL: snprintf(buf, len, "blocked: T%d's instruction FIFO is full", th); return;
    case CORE_WAIT_NOC: {
        int niu;
        unsigned counter, in_flight;
        if (diag_core_noc_wait(t, c, &niu, &counter, &in_flight)) {
            snprintf(buf, len, "waiting on NOC%d %s (%u in flight)", niu, noc_kind_name(noc_counter_kind(counter)),
                     in_flight);
            return;
        }
        break;
    }
    case CORE_WAIT_NONE: break;
    }
    if (h->wait == HART_WAIT_MEM)
        snprintf(buf, len, "running, stalled on 0x%08x (%s)", h->wait_addr, tile_region_name(h->wait_addr));
    else
        snprintf(buf, len, "running");
}

static void xml_text(FILE *f, const char *s) {
    for (; *s; s++) {
        switch (*s) {
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '&': fputs("&amp;", f); break;
        case '"': fputs("&quot;", f); break;
        default: fputc(*s, f);
        }
    }
}

char *gt_threads_xml(const gdb_t *g, size_t *len) {
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    if (!f) return NULL;
    fputs("<?xml version=\"1.0\"?>\n<threads>\n", f);
    for (int c = 0; c < TILE_NCORES; c++) {
        char st[256];
        gt_thread_state(g, c, st, sizeof st);
        fprintf(f, "<thread id=\"%x\" core=\"%d\" name=\"%s\">", c + 1, c, tile_core_names[c]);
        xml_text(f, st);
        fputs("</thread>\n", f);
    }
    fputs("</threads>\n", f);
    if (fclose(f) != 0) {
        free(buf);
        return NULL;
    }
    return buf;
}

/* ---- watchpoints ----------------------------------------------------------------------------- */

#define LDM_ALIAS_BASE 0xFFB14000u /* mmio/ldm_alias.c: core k's local RAM at + 0x2000 * k */

gdb_place_t gt_place(const tile_t *t, int core, uint32_t addr) {
    if (addr < TILE_L1_SIZE) return (gdb_place_t){GDB_SPACE_L1, addr};
    uint32_t off = addr - HART_LDM_BASE;
    if (off < TILE_LDM_MAX) return (gdb_place_t){core >= 0 ? core : GDB_SPACE_LDM_ALL, off};
    uint32_t a = addr - LDM_ALIAS_BASE;
    if (a < TILE_NCORES * 0x2000u) {
        int c = (int)(a / 0x2000u);
        return (gdb_place_t){c, (a % 0x2000u) % t->ldm_size[c]};
    }
    return (gdb_place_t){GDB_SPACE_DEV, addr};
}

gdb_access_t gt_next_access(const tile_t *t, int c) {
    gdb_access_t a = {0};
    const hart_t *h = &t->hart[c];
    if (h->state != HART_RUNNING || (h->pc & 3) || h->pc >= TILE_L1_SIZE) return a;
    uint32_t w;
    memcpy(&w, t->l1 + h->pc, 4); /* L1 is little-endian, as the host is (x86-64, arm64) */
    insn_t in;
    rv_decode(w, &in);
    uint8_t kind = 0, size = 4;
    switch (in.op) {
    case RV_OP_lb:
    case RV_OP_lbu: kind = GDB_ACC_LOAD, size = 1; break;
    case RV_OP_lh:
    case RV_OP_lhu: kind = GDB_ACC_LOAD, size = 2; break;
    case RV_OP_lw: kind = GDB_ACC_LOAD; break;
    case RV_OP_sb: kind = GDB_ACC_STORE, size = 1; break;
    case RV_OP_sh: kind = GDB_ACC_STORE, size = 2; break;
    case RV_OP_sw: kind = GDB_ACC_STORE; break;
    case RV_OP_amoswap_w:
    case RV_OP_amoadd_w:
    case RV_OP_amoxor_w:
    case RV_OP_amoand_w:
    case RV_OP_amoor_w:
    case RV_OP_amomin_w:
    case RV_OP_amomax_w:
    case RV_OP_amominu_w:
    case RV_OP_amomaxu_w: kind = GDB_ACC_RMW; break;
    default: return a;
    }
    a.valid = true;
    a.kind = kind;
    a.size = size;
    a.addr = h->x[in.rs1] + (kind == GDB_ACC_RMW ? 0 : (uint32_t)in.imm);
    return a;
}

bool gt_access_hits(const tile_t *t, int c, const gdb_access_t *a, const gdb_wp_t *w) {
    uint8_t want = w->type == 2 ? GDB_ACC_STORE : w->type == 3 ? GDB_ACC_LOAD : GDB_ACC_RMW;
    if (!(a->kind & want)) return false;
    gdb_place_t p = gt_place(t, c, a->addr);
    bool same = p.space == w->at.space || (w->at.space == GDB_SPACE_LDM_ALL && p.space >= 0);
    return same && p.off < w->at.off + w->len && w->at.off < p.off + a->size;
}

size_t gt_wp_shadow_size(const gdb_wp_t *w) {
    if (w->at.space == GDB_SPACE_DEV) return 0; /* a device read may have side effects: cores only */
    return w->at.space == GDB_SPACE_LDM_ALL ? (size_t)w->len * TILE_NCORES : w->len;
}

/* The bytes of one memory a watchpoint covers, or NULL where that memory is too small. */
static const uint8_t *wp_bytes(const tile_t *t, const gdb_wp_t *w, int c) {
    if (w->at.space == GDB_SPACE_L1) return w->at.off + w->len <= TILE_L1_SIZE ? t->l1 + w->at.off : NULL;
    return w->at.off + w->len <= t->ldm_size[c] ? t->ldm[c] + w->at.off : NULL;
}

bool gt_wp_changed(const tile_t *t, gdb_wp_t *w, int *core) {
    bool changed = false;
    *core = -1;
    if (!w->shadow) return false;
    int lo = w->at.space >= 0 ? w->at.space : 0, hi = w->at.space >= 0 ? w->at.space : TILE_NCORES - 1;
    if (w->at.space == GDB_SPACE_L1) lo = hi = 0;
    for (int c = lo; c <= hi; c++) {
        const uint8_t *now = wp_bytes(t, w, c);
        uint8_t *seen = w->shadow + (w->at.space == GDB_SPACE_LDM_ALL ? (size_t)c * w->len : 0);
        if (!now || !memcmp(now, seen, w->len)) continue;
        if (!changed && w->at.space != GDB_SPACE_L1) *core = c;
        changed = true;
        memcpy(seen, now, w->len);
    }
    return changed;
}

/* ---- monitor --------------------------------------------------------------------------------- */

static void mon_help(FILE *f) {
    fputs("ttemu monitor commands:\n"
          "  tensix          per Tensix thread: Wait Gate, latched wait, FIFO fill, MOP and replay\n"
          "  sem             the eight semaphores: Value, Max\n"
          "  mutex           the mutexes and who holds them\n"
          "  diag            the stall diagnosis of this moment (wait-for chains)\n"
          "  cycles          the tile's cycle and each core's counters\n"
          "  step-cycles N   run N tile cycles (all cores, lock-step), then stop\n",
          f);
}

static void mon_tensix(const tile_t *t, FILE *f) {
    const cp_t *cp = t->cp;
    fprintf(f, "Tensix at cycle %llu\n", (unsigned long long)t->cycle);
    for (unsigned th = 0; th < CP_THREADS; th++) {
        cp_thread_state_t s;
        cp_thread_state(cp, th, &s);
        const cp_stats_t *st = cp_stats(cp, th);
        fprintf(f,
                "T%u (TRISC%u): pushed %llu, issued %llu; FIFO %u/%u/%u (before MOP / replay / gate); MOP %s; "
                "replay %s",
                th, th, (unsigned long long)st->pushed, (unsigned long long)st->issued, s.fifo1, s.fifo2, s.fifo3,
                s.mop_busy ? "busy" : "idle", s.replay_busy ? "busy" : "idle");
        if (s.replay_busy) fprintf(f, " (%u left)", s.replay_left);
        fputc('\n', f);
        char dis[128], lab[64];
        if (s.held) {
            tt_disasm(s.held_word, dis, sizeof dis);
            cp_hold_label(s.hold, s.hold_detail, lab, sizeof lab);
            fprintf(f, "  gate: holds %s since cycle %llu: %s (%s)\n", dis, (unsigned long long)s.held_since,
                    cp_hold_name(s.hold), lab);
        } else {
            fprintf(f, "  gate: nothing held\n");
        }
        if (s.wait.active) {
            tt_disasm(s.wait.word, dis, sizeof dis);
            fprintf(f, "  latched wait: %s since cycle %llu, block mask 0x%03x, condition mask 0x%x\n", dis,
                    (unsigned long long)s.wait.since, s.wait.block_mask, s.wait.cond_mask);
        } else {
            fprintf(f, "  latched wait: none\n");
        }
    }
}

static void mon_sem(const tile_t *t, FILE *f) {
    for (unsigned i = 0; i < CP_NUM_SEMS; i++) {
        const char *n = cp_sem_llk_name(i);
        fprintf(f, "sem %u: Value %u, Max %u%s%s%s\n", i, cp_sem_read(t->cp, i), cp_sem_max(t->cp, i), *n ? " (" : "",
                n, *n ? ")" : "");
    }
}

static void mon_mutex(const tile_t *t, FILE *f) {
    for (unsigned k = 0; k < CP_MUTEXES; k++) {
        unsigned i = cp_mutex_index[k];
        int h = cp_mutex_holder(t->cp, i);
        if (h < 0)
            fprintf(f, "mutex %u: free\n", i);
        else
            fprintf(f, "mutex %u: held by T%d since cycle %llu\n", i, h, (unsigned long long)cp_mutex_since(t->cp, i));
    }
}

static void mon_cycles(const gdb_t *g, FILE *f) {
    const tile_t *t = g->t;
    fprintf(f, "cycle %llu\n", (unsigned long long)t->cycle);
    for (int c = 0; c < TILE_NCORES; c++) {
        const hart_t *h = &t->hart[c];
        char st[256];
        gt_thread_state(g, c, st, sizeof st);
        fprintf(f, "%-6s pc 0x%08x instret %llu mcycle %llu stalled %llu: %s\n", h->name, h->pc,
                (unsigned long long)h->instret, (unsigned long long)h->cycle, (unsigned long long)h->stall_cycles, st);
    }
}

/* The diagnosis of this moment, without leaving it in the run's report: diag_build fills
 * r->diag_json/diag_text from r->exit, which are the run's own until it ends. */
static void mon_diag(gdb_t *g, FILE *f) {
    run_t *r = g->r;
    run_exit_t keep = r->exit;
    cJSON *kj = r->diag_json;
    char *kt = r->diag_text;
    r->diag_json = NULL;
    r->diag_text = NULL;
    r->exit.code = EXIT_MAX_CYCLES;
    r->exit.reason = "stopped";
    diag_build(r);
    fputs(r->diag_text ? r->diag_text : "ttemu: no diagnosis (out of memory)\n", f);
    cJSON_Delete(r->diag_json);
    free(r->diag_text);
    r->diag_json = kj;
    r->diag_text = kt;
    r->exit = keep;
}

bool gt_monitor(gdb_t *g, const char *line, FILE *f) {
    if (!strcmp(line, "help") || !*line)
        mon_help(f);
    else if (!strcmp(line, "tensix"))
        mon_tensix(g->t, f);
    else if (!strcmp(line, "sem"))
        mon_sem(g->t, f);
    else if (!strcmp(line, "mutex"))
        mon_mutex(g->t, f);
    else if (!strcmp(line, "diag"))
        mon_diag(g, f);
    else if (!strcmp(line, "cycles"))
        mon_cycles(g, f);
    else {
        fprintf(f, "ttemu: unknown monitor command '%s'\n", line);
        mon_help(f);
        return false;
    }
    return true;
}
