#!/usr/bin/env python3
"""Generate coproc/tt_fields.h (the Tensix instruction fields as C macros) from coproc/tt_ops.def.

Usage: scripts/gen_tt_fields.py coproc/tt_ops.def OUT.h

make runs it (the output lives in $(BUILD)/gen/coproc/, never in the tree, never edited). The
header is plain C preprocessor, so the model, the unit tests and the RV32 firmware samples (built
with the cross gcc) all use it. For every opcode of the .def:

  TT_OPC_<MNEMONIC>             the opcode (0x00..0xFF)
  TT_<MNEMONIC>_<FIELD>(w)      the value of a field (or a view) of word w
  TT_<MNEMONIC>_RESERVED        the argument bits no field covers
  TT_OP_<MNEMONIC>(f, ..., f0)  the word, from its fields, highest field first: the argument order
                                of tt-llk's TT_OP_* macros and of the ISA pages' Syntax sections
                                (an opcode without fields: TT_OP_<MNEMONIC>, no parentheses)

plus TT_FOR_EACH_OPCODE(X), TT_OPCODE(w) and TT_WORD(opcode, arg), a word from an opcode and its 24-bit argument (for
code that walks the table, or builds an opcode Blackhole does not have). FIELD is the .def's name upper-cased, with anything but letters and digits
turned into '_' ("Mov block selection" -> MOV_BLOCK_SELECTION). Encoders add the shifted values
without masking them, exactly as tt-llk's do: the ISA pages rely on it (SETDMAREG.md passes a
16-bit NewValue as the 14-bit Payload_SigSel, spilling into Payload_SigSelSize), and a kernel's
words must come out the same through either header. The script refuses a .def whose fields
overlap, leave the 24-bit argument, or would give two macros one name.
"""
import re
import sys

ARG_BITS = 24


def balanced_calls(text, name):
    """The argument strings of every `name(...)` call in text (parentheses balanced)."""
    out = []
    for m in re.finditer(r"\b%s\(" % name, text):
        depth, i = 1, m.end()
        while depth:
            c = text[i]
            depth += c == "("
            depth -= c == ")"
            i += 1
        out.append(text[m.end():i - 1])
    return out


def parse(path):
    text = open(path, encoding="utf-8").read()
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)  # comments may mention TT_OP(...)
    ops, views = [], []
    for args in balanced_calls(text, "TT_OP"):
        head = [a.strip() for a in args.split(",", 7)]
        opc, mnem, nfields = int(head[0], 16), head[1], int(head[6])
        fields = [(n, int(lo), int(w)) for n, lo, w in
                  re.findall(r'TT_F\("([^"]+)",\s*(\d+),\s*(\d+)\)', head[7])]
        if len(fields) != nfields:
            raise SystemExit("%s: %d fields listed, %d declared" % (mnem, len(fields), nfields))
        ops.append((opc, mnem, fields))
    for args in balanced_calls(text, "TT_VIEW"):
        m = re.fullmatch(r'\s*(\w+),\s*"([^"]+)",\s*(\d+),\s*(\d+)\s*', args)
        if not m:
            raise SystemExit("bad TT_VIEW(%s)" % args)
        views.append((m.group(1), m.group(2), int(m.group(3)), int(m.group(4))))
    return ops, views


def ident(name):
    return re.sub(r"[^A-Za-z0-9]", "_", name).upper()


def param(name):
    return re.sub(r"[^A-Za-z0-9]", "_", name)


def mask(width):
    return (1 << width) - 1


def main():
    src, out = sys.argv[1], sys.argv[2]
    ops, views = parse(src)
    by_mnem = {m: (opc, f) for opc, m, f in ops}
    for mnem, name, lo, width in views:
        if mnem not in by_mnem:
            raise SystemExit("TT_VIEW of unknown opcode " + mnem)
    names = {}  # macro name -> what defined it

    def define(lines, name, body, what):
        if name in names:
            raise SystemExit("%s would name both %s and %s" % (name, names[name], what))
        names[name] = what
        lines.append("#define %s %s" % (name, body))

    lines = []
    define(lines, "TT_OPCODE(w)", "((uint32_t)(w) >> 24)", "the opcode accessor")
    define(lines, "TT_WORD(opcode, arg)", "(((uint32_t)(opcode) << 24) + (uint32_t)(arg))", "the word builder")
    lines.append("")
    for opc, mnem, _ in ops:
        define(lines, "TT_OPC_" + mnem, "0x%02Xu" % opc, mnem)
    for opc, mnem, fields in ops:
        lines.append("")
        desc = ", ".join("%s [%d:%d]" % (n, lo + w - 1, lo) if w > 1 else "%s [%d]" % (n, lo)
                         for n, lo, w in fields)
        lines.append("/* %s (0x%02X)%s */" % (mnem, opc, ": " + desc if desc else ""))
        used = 0
        for n, lo, w in fields:
            if lo < 0 or w < 1 or lo + w > ARG_BITS:
                raise SystemExit("%s.%s leaves the 24-bit argument" % (mnem, n))
            bits = mask(w) << lo
            if used & bits:
                raise SystemExit("%s.%s overlaps another field" % (mnem, n))
            used |= bits
        for n, lo, w in fields + [(n, lo, w) for m, n, lo, w in views if m == mnem]:
            if lo + w > ARG_BITS:
                raise SystemExit("%s.%s leaves the 24-bit argument" % (mnem, n))
            shifted = "(uint32_t)(w)" if lo == 0 else "((uint32_t)(w) >> %d)" % lo
            define(lines, "TT_%s_%s(w)" % (mnem, ident(n)), "(%s & 0x%Xu)" % (shifted, mask(w)),
                   "%s.%s" % (mnem, n))
        define(lines, "TT_%s_RESERVED" % mnem, "0x%06Xu" % (mask(ARG_BITS) & ~used), mnem + " reserved")
        word = "0x%02X000000u" % opc
        if not fields:
            define(lines, "TT_OP_" + mnem, word, mnem + " encoder")
            continue
        order = sorted(fields, key=lambda f: -f[1])  # highest field first (tt-llk, ISA pages)
        params = [param(n) for n, _, _ in order]
        if len(set(params)) != len(params):
            raise SystemExit("%s: two fields give one parameter name" % mnem)
        parts = [word] + ["((uint32_t)(%s) << %d)" % (p, lo) for p, (_, lo, w) in zip(params, order)]
        body = "(" + " + ".join(parts) + ")"
        define(lines, "TT_OP_%s(%s)" % (mnem, ", ".join(params)), body, mnem + " encoder")

    lines.append("")
    lines.append("/* X(MNEMONIC) for every opcode, in opcode order (for code and tests that walk them all). */")
    define(lines, "TT_FOR_EACH_OPCODE(X)", " ".join("X(%s)" % m for _, m, _ in ops), "the opcode list")

    with open(out, "w", encoding="utf-8") as f:
        f.write("/* coproc/tt_fields.h — GENERATED by scripts/gen_tt_fields.py from coproc/tt_ops.def.\n"
                " * Do not edit: change the .def (or its generator, scripts/gen_tt_ops.py) instead.\n"
                " *\n"
                " * TT_OPC_<MNEMONIC>: opcode. TT_<MNEMONIC>_<FIELD>(w): a field of word w.\n"
                " * TT_<MNEMONIC>_RESERVED: argument bits no field covers. TT_OP_<MNEMONIC>(...): the word,\n"
                " * fields highest first, added unmasked (tt-llk's order and arithmetic). TT_OPCODE(w): the opcode;\n"
                " * TT_WORD(opcode, arg): a word from an opcode and its 24-bit argument.\n"
                " */\n"
                "#ifndef TTEMU_COPROC_TT_FIELDS_H\n#define TTEMU_COPROC_TT_FIELDS_H\n\n"
                "#include <stdint.h>\n\n")
        f.write("\n".join(lines))
        f.write("\n\n#endif\n")


if __name__ == "__main__":
    main()
