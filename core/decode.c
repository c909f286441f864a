/* core/decode.c — RV32 word -> insn_t, driven by the table in core/rv32_ops.def.
 *
 * Lookup: the word's major opcode (bits [6:2]) selects a bucket, a run of consecutive table
 * entries; inside it the first entry with (word & mask) == match wins. The bucket bounds are
 * constant expressions computed from the table itself, so there is no start-up step and no
 * mutable state. The largest bucket (OP, 0x33) has ~45 entries, each a mask-and-compare.
 */
#include "core/rv32.h"

/* ---- per-op tables ---------------------------------------------------------------------------- */

#define RV_INFO_ENTRY(a, name, mnem, ext, match, mask, fmt)                                                            \
    [RV_OP_##name] = {mnem, match, mask, RV_EXT_##ext, RV_FMT_##fmt},
const rv_op_info_t rv_op_info[RV_OP_COUNT] = {RV32_OPS(RV_INFO_ENTRY, _)};
#undef RV_INFO_ENTRY

/* The fault text for each extension ("illegal instruction: Zbs (bset) is not implemented on
 * Blackhole"). TENSIX.md §1.2 lists what the Blackhole baby cores have. */
const rv_ext_info_t rv_ext_info[RV_EXT_COUNT] = {
    [RV_EXT_NONE] = {"unknown", false, "is not a valid encoding"},
    [RV_EXT_I] = {"RV32I", true, NULL},
    [RV_EXT_M] = {"M", true, NULL},
    [RV_EXT_ZICSR] = {"Zicsr", true, NULL},
    [RV_EXT_ZIFENCEI] = {"Zifencei", true, NULL},
    [RV_EXT_ZBA] = {"Zba", true, NULL},
    [RV_EXT_ZBB] = {"Zbb", true, NULL},
    [RV_EXT_ZBKB] = {"Zbkb", true, NULL},
    [RV_EXT_ZAAMO] = {"Zaamo", true, NULL},
    [RV_EXT_GREV] = {"Bitmanip-0.94", true, NULL},
    [RV_EXT_TT] = {"Tensix push", true, NULL},
    [RV_EXT_ZBS] = {"Zbs", false, "is not implemented on Blackhole"},
    [RV_EXT_ZALRSC] = {"Zalrsc", false, "is not implemented on Blackhole (only Zaamo is)"},
    [RV_EXT_ZBKB_NO] = {"Zbkb", false, "is not implemented on Blackhole (only pack and brev8 are)"},
    [RV_EXT_ZBC] = {"Zbc", false, "is not implemented on Blackhole"},
    [RV_EXT_ZBKX] = {"Zbkx", false, "is not implemented on Blackhole"},
    /* Blackhole has a partial F/Zfh on every core, V on TRISC2 and mret on BRISC and NCRISC
     * (TENSIX.md §1.2); ttemu models none of them yet. Where the core has the instruction,
     * rv_is_gap says so and the fault is ttemu's gap; these texts are for the rest. */
    [RV_EXT_F] = {"F/Zfh", false, "is not on Blackhole (its partial F/Zfh has no fdiv, fsqrt, D or Q)"},
    [RV_EXT_V] = {"V", false, "is on Blackhole's TRISC2 only"},
    [RV_EXT_PRIV] = {"privileged", false, "is not on this core (Blackhole: mret on BRISC and NCRISC only, no wfi)"},
};

/* Hart ids, in the tile's order (BRISC, NCRISC, TRISC0, TRISC1, TRISC2), as bits. */
enum { RV_BH_BRISC_NCRISC = 0x03u, RV_BH_TRISC2 = 0x10u, RV_BH_ALL_CORES = 0x1Fu };

/* TENSIX.md §1.2: Blackhole's F and Zfh (single and half precision, RNE only) lack fdiv and
 * fsqrt; there is no D or Q. */
static bool rv_fp_on_blackhole(unsigned op, uint32_t w) {
    switch (op) {
    case RV_OP_flh:
    case RV_OP_flw:
    case RV_OP_fsh:
    case RV_OP_fsw: return true;
    case RV_OP_fld:
    case RV_OP_fsd: return false;
    default: break; /* fmadd family, OP-FP */
    }
    unsigned fmt = (w >> 25) & 3u; /* S 0, D 1, H 2, Q 3 */
    if (fmt == 1 || fmt == 3) return false;
    if (op == RV_OP_op_fp) {
        unsigned funct5 = w >> 27, src_fmt = (w >> 20) & 3u;
        if (funct5 == 0x03 || funct5 == 0x0B) return false;                 /* fdiv, fsqrt */
        if (funct5 == 0x08 && (src_fmt == 1 || src_fmt == 3)) return false; /* fcvt from D or Q */
    }
    return true;
}

bool rv_is_gap(unsigned op, uint32_t word, unsigned hart_id) {
    if (op >= RV_OP_COUNT || hart_id > 4) return false;
    unsigned core = 1u << hart_id;
    switch (rv_op_info[op].ext) {
    case RV_EXT_F: return (core & RV_BH_ALL_CORES) && rv_fp_on_blackhole(op, word);
    case RV_EXT_V: return (core & RV_BH_TRISC2) != 0;
    case RV_EXT_PRIV: return op == RV_OP_mret && (core & RV_BH_BRISC_NCRISC);
    default: return false;
    }
}

const char *rv_mnemonic(unsigned op) { return op < RV_OP_COUNT ? rv_op_info[op].mnemonic : "?"; }

/* ---- buckets ------------------------------------------------------------------------------------
 * Bucket 0 holds the entries whose mask does not pin the low two bits to 0b11 (the illegal and
 * .ttinsn pseudo-entries); bucket 1 + w[6:2] holds major opcode w[6:0]. */
#define RV_BUCKET_OF(match, mask) (((mask)&3u) == 3u ? 1u + (((match) >> 2) & 31u) : 0u)
#define RV_BUCKETS                33 /* 0 .. 32 */

/* RV_BELOW_k: how many table entries fall in buckets below k; for a grouped table that is where
 * bucket k starts. RV_FOR_BUCKETS visits k = 0..33 (33 = the end of the table). */
#define RV_COUNT_BELOW(k, name, mnem, ext, match, mask, fmt) +(RV_BUCKET_OF(match, mask) < (k))
/* clang-format off */
#define RV_FOR_BUCKETS(M) \
    M(0)  M(1)  M(2)  M(3)  M(4)  M(5)  M(6)  M(7)  M(8)  M(9)  M(10) M(11) M(12) M(13) M(14) M(15) M(16) \
    M(17) M(18) M(19) M(20) M(21) M(22) M(23) M(24) M(25) M(26) M(27) M(28) M(29) M(30) M(31) M(32) M(33)
/* clang-format on */
#define RV_BELOW_ENUM(k) RV_BELOW_##k = (0 RV32_OPS(RV_COUNT_BELOW, k)),
enum { RV_FOR_BUCKETS(RV_BELOW_ENUM) };
#undef RV_BELOW_ENUM

/* The table must be grouped by bucket in ascending order, or the runs above would be wrong.
 * Grouped means: for every k, an entry lies below bucket k exactly when its index is below
 * RV_BELOW_k. Checked here at compile time, one assertion per k. */
#define RV_MISPLACED(k, name, mnem, ext, match, mask, fmt)                                                             \
    +((RV_BUCKET_OF(match, mask) < (k)) != ((int)RV_OP_##name < (int)RV_BELOW_##k))
#define RV_CHECK_GROUPED(k)                                                                                            \
    _Static_assert((0 RV32_OPS(RV_MISPLACED, k)) == 0, "core/rv32_ops.def: entries out of bucket order "               \
                                                       "(keep them grouped by major opcode, ascending)");
RV_FOR_BUCKETS(RV_CHECK_GROUPED)
#undef RV_CHECK_GROUPED
#undef RV_MISPLACED
_Static_assert((int)RV_BELOW_33 == (int)RV_OP_COUNT, "every entry lies in a bucket");
_Static_assert(RV_OP_illegal == 0, "a zeroed insn_t must decode as illegal");
_Static_assert(RV_OP_COUNT <= UINT16_MAX, "op numbers fit insn_t.op");

#define RV_START_ENTRY(k) RV_BELOW_##k,
static const uint16_t rv_bucket_start[RV_BUCKETS + 1] = {RV_FOR_BUCKETS(RV_START_ENTRY)};
#undef RV_START_ENTRY

/* ---- immediates (RISC-V unprivileged spec, "Immediate Encoding Variants") --------------------
 * Arithmetic right shift of a signed value is implementation-defined in C; every compiler we build
 * with does it arithmetically, and gcc documents it. */
static inline int32_t imm_i(uint32_t w) { return (int32_t)w >> 20; }
static inline int32_t imm_s(uint32_t w) { return ((int32_t)(w & 0xfe000000u) >> 20) | (int32_t)((w >> 7) & 0x1f); }
static inline int32_t imm_b(uint32_t w) {
    /* imm[12|10:5] in w[31:25], imm[4:1|11] in w[11:7] */
    return ((int32_t)(w & 0x80000000u) >> 19) | (int32_t)((w & 0x80u) << 4) | (int32_t)((w >> 20) & 0x7e0u) |
           (int32_t)((w >> 7) & 0x1eu);
}
static inline int32_t imm_j(uint32_t w) {
    /* imm[20|10:1|11|19:12] in w[31:12] */
    return ((int32_t)(w & 0x80000000u) >> 11) | (int32_t)(w & 0xff000u) | (int32_t)((w >> 9) & 0x800u) |
           (int32_t)((w >> 20) & 0x7feu);
}

void rv_decode(uint32_t w, insn_t *out) {
    insn_t in = {0};

    /* TENSIX.md §1.5: there is no C extension; a word whose low bits are not 0b11 is .ttinsn,
     * and the Tensix word is the RISC-V word rotated right by 2. */
    if ((w & 3u) != 3u) {
        in.op = RV_OP_ttinsn;
        in.imm = (int32_t)((w >> 2) | (w << 30));
        *out = in;
        return;
    }

    unsigned b = 1u + ((w >> 2) & 31u);
    unsigned op = RV_OP_ILLEGAL;
    for (unsigned i = rv_bucket_start[b]; i < rv_bucket_start[b + 1]; i++) {
        if ((w & rv_op_info[i].mask) == rv_op_info[i].match) {
            op = i;
            break;
        }
    }
    in.op = (uint16_t)op;

    /* Fill only the fields the format has, so equal instructions give equal records. */
    uint8_t rd = (w >> 7) & 31, rs1 = (w >> 15) & 31, rs2 = (w >> 20) & 31;
    switch ((rv_fmt_t)rv_op_info[op].fmt) {
    case RV_FMT_R:
    case RV_FMT_AMO: in.rd = rd, in.rs1 = rs1, in.rs2 = rs2; break;
    case RV_FMT_R1:
    case RV_FMT_LR: in.rd = rd, in.rs1 = rs1; break;
    case RV_FMT_I:
    case RV_FMT_LOAD: in.rd = rd, in.rs1 = rs1, in.imm = imm_i(w); break;
    case RV_FMT_SHIFT:
        /* RISC-V: shamt is imm[4:0]; on RV32 imm[5] set is a reserved encoding (masked out). */
        in.rd = rd, in.rs1 = rs1, in.imm = (int32_t)rs2;
        break;
    case RV_FMT_STORE: in.rs1 = rs1, in.rs2 = rs2, in.imm = imm_s(w); break;
    case RV_FMT_B: in.rs1 = rs1, in.rs2 = rs2, in.imm = imm_b(w); break;
    case RV_FMT_U: in.rd = rd, in.imm = (int32_t)(w & 0xfffff000u); break;
    case RV_FMT_J: in.rd = rd, in.imm = imm_j(w); break;
    case RV_FMT_CSR:
    case RV_FMT_CSRI: /* the uimm stays in rs1: the bodies read it as in->rs1 */
        in.rd = rd, in.rs1 = rs1, in.imm = (int32_t)(w >> 20);
        break;
    case RV_FMT_FENCE: in.imm = (int32_t)((w >> 20) & 0xffu); break;
    case RV_FMT_TT:
    case RV_FMT_NONE:
    case RV_FMT_RAW: break;
    }
    *out = in;
}
