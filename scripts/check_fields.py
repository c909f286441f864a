#!/usr/bin/env python3
"""Check that no Tensix instruction field is sliced or built by hand (docs/coprocessor.md, "One
source for instruction fields").

Usage: scripts/check_fields.py [ROOT]   (default: the repository this script is in)

Every field of a Tensix word is declared once, in coproc/tt_ops.def; make generates
coproc/tt_fields.h from it (TT_OPC_*, TT_<OP>_<FIELD>(w), TT_OP_<OP>(...), TT_OPCODE, TT_WORD).
Everything else must use those macros. This script reads the C sources of the rooms that handle
Tensix words, comments removed, and reports each line that looks like hand decoding or encoding:

  opcode-shift   a shift by 24 (the opcode's position: TT_OPCODE / TT_WORD)
  word-slice     a word variable (w, word, insn, *_word) shifted or masked by a literal
  slicer         a helper called with literal bit positions: be_bits(word, 8, 4)
  opcode-word    a constant that is an opcode alone in a word: 0xA4000000
  opcode-hex     an opcode compared or switched on as hex: opc == 0xA4, case 0xB3:

core/ is RV32 only (its instruction words are RISC-V's) and is not read. A line that says
"check_fields: not a field" in a comment is exempt (a float constant, a real kernel's words). Prints every finding as
FILE:LINE: KIND: text and exits 1 if there is any, else prints a one-line summary.
"""
import os
import re
import sys

ROOMS = ["coproc", "app", "debug", "ui", "mmio", "tile", "run", "loader", "test/unit", "test/progs",
         "firmware-samples", "bench/progs"]
# Files about numbers and bytes, not instruction words: their 0x..000000 constants are float bit
# patterns and masks, their >> 24 are bytes (the formats library, the FMA, .npy files, tensors, the
# GDB remote protocol's little-endian registers and packets).
NOT_WORDS = ("coproc/formats.c", "coproc/formats.h", "coproc/fma.c", "loader/npy.c", "loader/tensor.c",
             "debug/gdb.c", "debug/gdb_pkt.c", "debug/gdb_target.c",
             "test/unit/test_formats.c", "test/unit/test_fma.c", "test/unit/test_npy.c", "test/unit/test_tensor.c")
# A line that carries this comment is exempt: a float bit pattern that looks like an opcode word,
# a table of a real kernel's words as DATAPATH.md lists them.
MARKER = "check_fields: not a field"
WORD = r"(?:\b(?:w|word|wd|insn|instr|\w+_word)\b)"
LIT = r"(?:0[xX][0-9a-fA-F]+|[0-9]+)[uU]?\b"
FIELD_CALL = re.compile(r"\bTT_\w+\(\s*(?:\w+(?:->|\.))*" + WORD + r"\s*\)\s*(>>|&)\s*" + LIT + r"$")
CHECKS = [
    ("opcode-shift", re.compile(r"(<<|>>)\s*24\b")),
    ("word-slice", re.compile(WORD + r"\s*\)?\s*(>>\s*" + LIT + r"|&\s*" + LIT + ")")),
    ("slicer", re.compile(r"\b\w+_bits\s*\(\s*[^,()]+,\s*[0-9]")),
    # 0x80000000 is the sign bit far more often than a bare SFPNOT.
    ("opcode-word", re.compile(r"\b0[xX](?!00|80)[0-9a-fA-F]{2}000000[uU]?\b")),
    ("opcode-hex", re.compile(r"(\b(opc|opcode)\s*[!=]=\s*0[xX][0-9a-fA-F]{2}\b|\bcase\s+0[xX][0-9a-fA-F]{2}\s*:)")),
]
# opcode-hex only where opcodes are the subject: elsewhere `case 0x14:` is a register offset.
OPCODE_HEX_ROOMS = ("coproc", "debug", "app", "ui", "test/unit")


def strip_comments(text):
    """Blank out comments and string literals, keeping line numbers."""
    def blank(m):
        return re.sub(r"[^\n]", " ", m.group(0))
    return re.sub(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"', blank, text, flags=re.S)


def sources(root):
    for room in ROOMS:
        d = os.path.join(root, room)
        if not os.path.isdir(d):
            continue
        for dirpath, _, files in sorted(os.walk(d)):
            for f in sorted(files):
                if f.endswith((".c", ".h", ".inc")):
                    yield os.path.relpath(os.path.join(dirpath, f), root)


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    found = []
    nfiles = 0
    for path in sources(root):
        if path in NOT_WORDS:
            continue
        nfiles += 1
        with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
            raw = f.read()
        code = strip_comments(raw).split("\n")
        lines = raw.split("\n")
        for i, line in enumerate(code):
            for kind, rx in CHECKS:
                if kind == "opcode-hex" and not path.startswith(OPCODE_HEX_ROOMS):
                    continue
                if kind == "word-slice":
                    # A field macro's value masked further (TT_SETADCXY_BITMASK(w) & 0xF) is not a
                    # word sliced by hand.
                    if not any(not FIELD_CALL.search(line[:m.start() + len(m.group(0))]) for m in rx.finditer(line)):
                        continue
                elif not rx.search(line):
                    continue
                if MARKER in lines[i]:
                    continue
                found.append("%s:%d: %s: %s" % (path, i + 1, kind, lines[i].strip()))
    for f in found:
        print(f)
    if found:
        print("check_fields: %d hand-made Tensix field accesses; use coproc/tt_fields.h" % len(found))
        return 1
    print("check_fields: %d files, no Tensix field sliced or built by hand" % nfiles)
    return 0


if __name__ == "__main__":
    sys.exit(main())
