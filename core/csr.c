/* core/csr.c — the CSRs of a Blackhole baby core (TENSIX.md §1.3, from CSRs.md).
 *
 * Read and write are separate calls so the csrr* bodies can follow the Zicsr rules exactly:
 * csrrw with rd = x0 does not read; csrrs/csrrc with rs1 = x0 (or uimm = 0) do not write.
 * A failed access fills h->fault.kind/msg and returns false.
 */
#include <stdio.h>

#include "core/rv32.h"

/* Fixed values (CSRs.md). misa claims RV32IMABFV, which is partly fictional; mstatus has FS and
 * VS permanently dirty. Both ignore writes. */
#define CSR_MISA_VALUE    0x40201123u
#define CSR_MSTATUS_VALUE 0x80006600u

/* The CSR numbers ttemu knows, with the names CSRs.md gives them (for disassembly and faults). */
static const struct {
    uint16_t num;
    const char *name;
} csr_names[] = {
    {0x003, "fcsr"},
    {0x300, "mstatus"},
    {0x301, "misa"},
    {0x320, "mcountinhibit"},
    {0x323, "mhpmevent3"},
    {0x324, "mhpmevent4"},
    {0x7c0, "cfg0"},
    {0x7c1, "pmacfg0"},
    {0x7c2, "pmacfg1"},
    {0x7c3, "cfg1"},
    {0x7c4, "hwa_mask"},
    {0x7c5, "hwa_cfg"},
    {0x7c6, "vgsrc"},
    {0xb00, "mcycle"},
    {0xb02, "minstret"},
    {0xb03, "mhpmcounter3"},
    {0xb04, "mhpmcounter4"},
    {0xb80, "mcycleh"},
    {0xb82, "minstreth"},
    {0xb83, "mhpmcounter3h"},
    {0xb84, "mhpmcounter4h"},
    {0xbc0, "tt_cfg_qstatus"},
    {0xbc1, "tt_cfg_bstatus"},
    {0xbc2, "tt_cfg_sstatus0"},
    {0xbc3, "tt_cfg_sstatus1"},
    {0xbc4, "tt_cfg_sstatus2"},
    {0xbc5, "tt_cfg_sstatus3"},
    {0xbc6, "tt_cfg_sstatus4"},
    {0xbc7, "tt_cfg_sstatus5"},
    {0xbc8, "tt_cfg_sstatus6"},
    {0xbc9, "tt_cfg_sstatus7"},
    {0xc00, "cycle"},
    {0xc02, "instret"},
    {0xc80, "cycleh"},
    {0xc82, "instreth"},
    {0xf14, "mhartid"},
};

const char *rv_csr_name(unsigned csr) {
    for (size_t i = 0; i < sizeof csr_names / sizeof csr_names[0]; i++)
        if (csr_names[i].num == csr) return csr_names[i].name;
    return NULL;
}

static bool csr_unknown(hart_t *h, unsigned csr) {
    h->fault.kind = FAULT_CSR;
    snprintf(h->fault.msg, sizeof h->fault.msg, "unknown CSR 0x%03x", csr);
    return false;
}

static inline uint64_t set_lo(uint64_t v, uint32_t lo) { return (v & 0xffffffff00000000u) | lo; }
static inline uint64_t set_hi(uint64_t v, uint32_t hi) { return (v & 0xffffffffu) | (uint64_t)hi << 32; }

bool hart_csr_read(hart_t *h, unsigned csr, uint32_t *val) {
    switch (csr) {
    case 0x003: *val = h->fcsr; return true;
    case 0x300: *val = CSR_MSTATUS_VALUE; return true;
    case 0x301: *val = CSR_MISA_VALUE; return true;
    case 0x320: *val = h->mcountinhibit; return true;
    case 0x323:
    case 0x324: *val = h->mhpmevent[csr - 0x323]; return true;
    case 0x7c0: *val = h->cfg0; return true;
    case 0x7c1:
    case 0x7c2:
    case 0x7c3:
    case 0x7c4:
    case 0x7c5:
    case 0x7c6: *val = h->csr_scratch[csr - 0x7c1]; return true;
    /* CSRs.md: cycle/instret(+h) are read/write aliases of the m-versions. */
    case 0xb00:
    case 0xc00: *val = (uint32_t)h->cycle; return true;
    case 0xb80:
    case 0xc80: *val = (uint32_t)(h->cycle >> 32); return true;
    case 0xb02:
    case 0xc02: *val = (uint32_t)h->instret; return true;
    case 0xb82:
    case 0xc82: *val = (uint32_t)(h->instret >> 32); return true;
    case 0xb03:
    case 0xb04: *val = (uint32_t)h->mhpmcounter[csr - 0xb03]; return true;
    case 0xb83:
    case 0xb84: *val = (uint32_t)(h->mhpmcounter[csr - 0xb83] >> 32); return true;
    /* The tile provides the Tensix status CSRs qstatus/bstatus (0 without a tile); sstatus0-7
     * are the plain scratch registers CSRs.md describes (ttemu does not model the TRISCs'
     * stream-register view of them). */
    case 0xbc0:
    case 0xbc1:
        if (!env_csr_read(h->env, h, csr, val)) *val = 0;
        return true;
    case 0xbc2:
    case 0xbc3:
    case 0xbc4:
    case 0xbc5:
    case 0xbc6:
    case 0xbc7:
    case 0xbc8:
    case 0xbc9: *val = h->tt_sstatus[csr - 0xbc2]; return true;
    case 0xf14: *val = 0; return true; /* CSRs.md: mhartid reads 0 on every core */
    default: return csr_unknown(h, csr);
    }
}

bool hart_csr_write(hart_t *h, unsigned csr, uint32_t val) {
    switch (csr) {
    /* F is not implemented, but the CSR exists on silicon (CSRs.md: rounding bits ignored), and
     * start-up code may clear it. Keep the 8 architectural bits so a read-back is faithful. */
    case 0x003: h->fcsr = val & 0xffu; return true;
    case 0x300:
    case 0x301:
        return true; /* constant (CSRs.md), writes ignored */
    /* CSRs.md: mcountinhibit cannot inhibit mcycle or minstret; the HPM counters it could
     * inhibit do not count in ttemu. It is kept only to read back. */
    case 0x320: h->mcountinhibit = val; return true;
    case 0x323:
    case 0x324: h->mhpmevent[csr - 0x323] = val; return true;
    /* cfg0 chicken bits change timing only (fusion, caches, predictor), not function. */
    case 0x7c0: h->cfg0 = val; return true;
    case 0x7c1:
    case 0x7c2:
    case 0x7c3:
    case 0x7c4:
    case 0x7c5:
    case 0x7c6: h->csr_scratch[csr - 0x7c1] = val; return true;
    /* Counter writes. hart_step counts the cycle before executing and retirement adds one to
     * instret after it; the privileged spec has a counter write take effect after the writing
     * instruction completes, so instret is stored one less and the retirement brings it back. */
    case 0xb00: h->cycle = set_lo(h->cycle, val); return true;
    case 0xb80: h->cycle = set_hi(h->cycle, val); return true;
    case 0xb02: h->instret = set_lo(h->instret, val) - 1; return true;
    case 0xb82: h->instret = set_hi(h->instret, val) - 1; return true;
    /* The user counters are read-only (Zicntr): a write is an illegal instruction. Blackhole's
     * CSRs.md calls cycle/instret(+h) read/write aliases of the m-counters, "not strictly
     * conformant"; ttemu keeps the standard here, because `unimp`, which compilers emit for
     * __builtin_trap, is exactly `csrrw x0, cycle, x0`, and on silicon it would silently zero
     * mcycle and run on. Firmware that means to write a counter writes mcycle/minstret
     * (docs/riscv.md). */
    case 0xc00:
    case 0xc02:
    case 0xc80:
    case 0xc82:
        h->fault.kind = FAULT_CSR;
        snprintf(h->fault.msg, sizeof h->fault.msg,
                 "write to read-only CSR %s (0x%03x): the user counters are read-only (Zicntr)%s; write m%s to set it",
                 rv_csr_name(csr), csr, csr == 0xc00 ? ", and `unimp` (__builtin_trap) is this write" : "",
                 rv_csr_name(csr));
        return false;
    case 0xb03:
    case 0xb04: h->mhpmcounter[csr - 0xb03] = set_lo(h->mhpmcounter[csr - 0xb03], val); return true;
    case 0xb83:
    case 0xb84: h->mhpmcounter[csr - 0xb83] = set_hi(h->mhpmcounter[csr - 0xb83], val); return true;
    /* Status CSRs the tile computes: a write has nothing to change. */
    case 0xbc0:
    case 0xbc1: return true;
    case 0xbc2:
    case 0xbc3:
    case 0xbc4:
    case 0xbc5:
    case 0xbc6:
    case 0xbc7:
    case 0xbc8:
    case 0xbc9: h->tt_sstatus[csr - 0xbc2] = val; return true;
    case 0xf14:
        /* Zicsr: writing a read-only CSR (here mhartid) is an illegal instruction. */
        h->fault.kind = FAULT_CSR;
        snprintf(h->fault.msg, sizeof h->fault.msg, "write to read-only CSR mhartid (0xf14)");
        return false;
    default: return csr_unknown(h, csr);
    }
}
