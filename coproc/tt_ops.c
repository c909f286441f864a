/* coproc/tt_ops.c — lookups over the Blackhole Tensix opcode table (coproc/tt_ops.def).
 *
 * The .def is expanded three times: once into the entries in opcode order, once into an enum of
 * their positions, and once into a 256-entry index of designated initializers ([opcode] =
 * position + 1, 0 = no such opcode). All three are const, built by the compiler; lookup is O(1).
 * The per-field C macros (coproc/tt_fields.h) are generated from the same .def by make; the
 * table's fields here serve the disassembler, which walks them generically.
 */
#include "coproc/tt_ops.h"

#include <stdio.h>

#include "coproc/tt_fields.h"

/* Views are accessors only (coproc/tt_fields.h): nothing here. */
#define TT_VIEW(...)

#define TT_F(name, lo, width)                                                                                          \
    { name, lo, width }
#define TT_NOF                                                                                                         \
    { NULL, 0, 0 }

/* The entries, in the order of the .def (which the generator asserts is opcode order). */
static const tt_op_t tt_table[] = {
#define TT_OP(opc, mnem, unit, gate, block, inferred, nfields, ...)                                                    \
    {opc, #mnem, TT_UNIT_##unit, TT_GATE_##gate, block, inferred, nfields, {__VA_ARGS__}},
#include "coproc/tt_ops.def"
#undef TT_OP
};

/* Position of each entry in tt_table. */
enum {
#define TT_OP(opc, mnem, ...) TT_POS_##mnem,
#include "coproc/tt_ops.def"
#undef TT_OP
    TT_POS_COUNT
};

_Static_assert(TT_POS_COUNT == 137, "TENSIX.md §5: Blackhole has 137 opcodes");
_Static_assert(sizeof tt_table / sizeof tt_table[0] == TT_POS_COUNT, "table and enum agree");

/* opcode -> position + 1; a duplicate opcode in the .def would be a compile-time override
 * warning (-Woverride-init is in -Wextra). */
static const uint8_t tt_index[256] = {
#define TT_OP(opc, mnem, ...) [opc] = TT_POS_##mnem + 1,
#include "coproc/tt_ops.def"
#undef TT_OP
};

const tt_op_t *tt_op(uint8_t opcode) {
    unsigned pos = tt_index[opcode];
    return pos ? &tt_table[pos - 1] : NULL;
}

const tt_op_t *tt_ops(unsigned *count) {
    if (count) *count = TT_POS_COUNT;
    return tt_table;
}

const char *tt_unit_name(tt_unit_t u) {
    static const char *const names[TT_UNIT_COUNT] = {
        [TT_UNIT_MOP] = "MOP",       [TT_UNIT_REPLAY] = "REPLAY", [TT_UNIT_TTSYNC] = "TTSYNC", [TT_UNIT_SYNC] = "SYNC",
        [TT_UNIT_UNPACK] = "UNPACK", [TT_UNIT_MATH] = "MATH",     [TT_UNIT_PACK] = "PACK",     [TT_UNIT_SFPU] = "SFPU",
        [TT_UNIT_THCON] = "THCON",   [TT_UNIT_CONFIG] = "CONFIG", [TT_UNIT_MOVER] = "MOVER",   [TT_UNIT_MISC] = "MISC",
    };
    return (unsigned)u < TT_UNIT_COUNT ? names[u] : "?";
}

/* The value of a table field of word: the disassembler's generic walk over any opcode's fields. */
static uint32_t tt_bits(uint32_t word, const tt_field_t *f) {
    uint32_t mask = f->width >= 32 ? 0xFFFFFFFFu : (1u << f->width) - 1u;
    return (word >> f->lo) & mask;
}

/* Mnemonic, then each nonzero field as name=value in hex ("1" for
 * one, as in the header's example "SEMWAIT wait_sem_cond=1 sem_sel=0x2 stall_res=0x40"). Unknown opcodes print as
 * ".word 0x........". Always NUL-terminates when len > 0. */
void tt_disasm(uint32_t word, char *buf, unsigned len) {
    if (!buf || len == 0) return;
    const tt_op_t *op = tt_op((uint8_t)TT_OPCODE(word));
    if (!op) {
        snprintf(buf, len, ".word 0x%08x", word);
        return;
    }
    unsigned n = (unsigned)snprintf(buf, len, "%s", op->mnemonic);
    for (unsigned i = 0; i < op->nfields && n < len; i++) {
        uint32_t v = tt_bits(word, &op->fields[i]);
        if (v == 0) continue;
        const char *fmt = v > 1 ? " %s=0x%x" : " %s=%u";
        n += (unsigned)snprintf(buf + n, len - n, fmt, op->fields[i].name, v);
    }
}

const char *tt_mnemonic(uint32_t word) {
    const tt_op_t *op = tt_op((uint8_t)TT_OPCODE(word));
    return op ? op->mnemonic : "?";
}
