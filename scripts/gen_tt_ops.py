#!/usr/bin/env python3
"""Generate coproc/tt_ops.def from the opcode table in TENSIX.md §5.

Usage: scripts/gen_tt_ops.py ../shared/docs/TENSIX.md > coproc/tt_ops.def

Run once by hand; the generated .def is what the build uses. Field widths follow the table's rule
(a field runs up to the next field's start, the last one up to bit 23) except where TENSIX.md states
an exact width (§3.3 MOP/MOP_CFG, §3.4 REPLAY, §3.6 RESOURCEDECL, §4.2 the Sync instructions);
those overrides are listed in WIDTH_OVERRIDES below.
"""
import re
import sys

UNITS = [
    ("MOP expander", "MOP"), ("Replay expander", "REPLAY"), ("Auto TTSync", "TTSYNC"),
    ("Sync", "SYNC"), ("Unpackers", "UNPACK"), ("Matrix", "MATH"), ("Packers", "PACK"),
    ("Vector", "SFPU"), ("Scalar", "THCON"), ("Config", "CONFIG"), ("Mover", "MOVER"),
    ("Misc", "MISC"),
]

BITS = ["TT_B0_TDMA", "TT_B1_SYNC", "TT_B2_PACK", "TT_B3_UNPACK", "TT_B4_XMOV", "TT_B5_THCON",
        "TT_B6_MATH", "TT_B7_CFG", "TT_B8_SFPU"]

# (mnemonic, field) -> exact width, where TENSIX.md gives one.
WIDTH_OVERRIDES = {
    ("MOP_CFG", "zmask_hi16"): 16,          # §3.3: bits 16-23 should be 0
    ("REPLAY", "execute_while_loading"): 1,  # §3.4: bits 2-3 must be 0
    ("RESOURCEDECL", "linger_time"): 4,     # §3.6: linger_time@13 4b
    ("ATGETM", "mutex_index"): 16,          # §4.2: Index [15:0]
    ("ATRELM", "mutex_index"): 16,
    ("STALLWAIT", "wait_res"): 13,          # §4.2: ConditionMask [12:0], bits 13-14 unused
    ("SEMINIT", "sem_sel"): 8,              # §4.2: SemMask [9:2]
    ("SEMPOST", "sem_sel"): 8,
    ("SEMGET", "sem_sel"): 8,
    ("SEMWAIT", "wait_sem_cond"): 2,        # §4.2: CondMask [1:0]
    ("SEMWAIT", "sem_sel"): 8,              # §4.2: SemMask [9:2]
    ("STREAMWAIT", "target_value"): 10,     # §4.2: TargetValueLo [13:4]
    ("STREAMWAIT", "wait_stream_sel"): 2,   # STREAMWAIT.md: u2 StreamSelect
    # The ISA pages' Syntax sections, where the next field starts later than the last bit used:
    ("ADDDMAREG", "ResultRegIndex"): 6,     # ADDDMAREG.md: u6 ResultReg
    ("SUBDMAREG", "ResultRegIndex"): 6,     # SUBDMAREG.md
    ("MULDMAREG", "ResultRegIndex"): 6,     # MULDMAREG.md
    ("BITWOPDMAREG", "OpSel"): 3,           # BITWOPDMAREG.md: u3 Mode
    ("SHIFTDMAREG", "OpSel"): 3,            # SHIFTDMAREG.md
    ("CMPDMAREG", "OpSel"): 3,              # CMPDMAREG.md
    ("WRCFG", "CfgReg"): 11,                # WRCFG.md: u11 CfgIndex
    ("WRCFG", "GprAddress"): 6,             # WRCFG.md: u6 InputReg
    ("RDCFG", "CfgReg"): 11,                # RDCFG.md: u11 CfgIndex
    ("RDCFG", "GprAddress"): 6,             # RDCFG.md: u6 ResultReg
    ("STREAMWRCFG", "stream_id_sel"): 2,    # STREAMWRCFG.md: u2 StreamSelect
}

# Views: parts of a word that an ISA page names differently from assembly.yaml's fields (a value
# spanning two fields, or one mode's layout of a field). Accessors only: the disassembler, the
# encoders and the reserved-bit masks use the fields. (mnemonic, name, lo, width, source).
VIEWS = [
    ("SETDMAREG", "NewValue", 8, 16, "SETDMAREG.md: the immediate form's u16 NewValue"),
    ("SETDMAREG", "InputHalfReg", 8, 3, "SETDMAREG_Special.md"),
    ("SETDMAREG", "InputSource", 11, 4, "SETDMAREG_Special.md"),
    ("SETDMAREG", "WhichPackers", 15, 4, "SETDMAREG_Special.md"),
]
# The address-counter family (SETADCXY.md, SETADCZW.md, INCADCXY.md, INCADCZW.md, ADDRCRXY.md,
# ADDRCRZW.md): four u3 values (X0Val.. or X0Inc..) and the u2 ThreadOverride that assembly.yaml's
# Ch1_Y field spans.
for _m, _v in (("SETADCXY", "XY"), ("INCADCXY", "XY"), ("ADDRCRXY", "XY"),
               ("SETADCZW", "ZW"), ("INCADCZW", "ZW"), ("ADDRCRZW", "ZW")):
    _a, _b = _v
    _s = "Val" if _m.startswith("SET") else "Inc"
    for _name, _lo in ((_a + "0" + _s, 6), (_b + "0" + _s, 9), (_a + "1" + _s, 12), (_b + "1" + _s, 15)):
        VIEWS.append((_m, _name, _lo, 3, _m + ".md: u3 " + _name))
    VIEWS.append((_m, "ThreadOverride", 18, 2, _m + ".md: u2 ThreadOverride"))
# The Vector Unit (SFPU): operands that assembly.yaml's wide fields hold (the pages' Syntax sections).
for _m in ("SFPAND", "SFPOR", "SFPSHFT2", "SFPARECIP"):
    VIEWS.append((_m, "VB", 12, 4, _m + ".md: u4 VB in the Imm12 slot"))
VIEWS += [
    ("SFPSETCC", "Imm1", 12, 1, "SFPSETCC.md: u1 Imm1"),
    ("SFPSETSGN", "Imm1", 12, 1, "SFPSETSGN.md: u1 Imm1"),
    ("SFPENCC", "Imm2", 12, 2, "SFPENCC.md: u2 Imm2"),
    ("SFPDIVP2", "Imm8", 12, 8, "SFPDIVP2.md: Imm8"),
    ("SFPSETEXP", "Imm8", 12, 8, "SFPSETEXP.md: u8 Imm8"),
    ("SFPCAST", "VC", 8, 4, "SFPCAST_IntFloat.md: u4 VC"),
    ("SFPMAD", "VA", 16, 4, "SFPMAD.md: u4 VA"),
    ("SFPADD", "VA", 16, 4, "SFPADD.md: u4 VA"),
    ("SFPMUL", "VA", 16, 4, "SFPMUL.md: u4 VA"),
    ("SFPMUL24", "VA", 16, 4, "SFPMUL24.md: u4 VA"),
    ("SFP_STOCH_RND", "Mod1", 0, 3, "SFPSTOCHRND_IntInt.md: u3 Mod1"),
    ("SFP_STOCH_RND", "UseImm5", 3, 1, "SFPSTOCHRND_IntInt.md: bool UseImm5"),
    ("SFP_STOCH_RND", "RoundingMode", 21, 2, "SFPSTOCHRND_FloatFloat.md: u2 RoundingMode"),
    ("SFPLOADMACRO", "VDLo", 20, 2, "SFPLOADMACRO.md: u2 VDLo"),
    ("SFPLOADMACRO", "MacroIndex", 22, 2, "SFPLOADMACRO.md: u2 MacroIndex"),
    ("SFPLOADMACRO", "VDHi", 0, 1, "SFPLOADMACRO.md: u1 VDHi"),
    ("SFPLOADMACRO", "Imm10", 0, 10, "SFPLOADMACRO.md: Imm10 = (Imm9 << 1) | VDHi"),
    ("SFPLUTFP32", "VD", 4, 4, "SFPLUTFP32.md: u4 VD"),
]


def unit_of(text):
    for key, unit in UNITS:
        if text.startswith(key):
            return unit
    raise SystemExit("unknown unit: " + text)


def gate_of(mnem, blocks):
    if blocks.startswith("never"):
        return "NEVER", "0", 0
    if blocks.startswith("only if mask==0x1FF"):
        return "NOP", "TT_B_ALL", 0
    if blocks.startswith("B0-B8"):
        return "MASK", "TT_B_ALL", 0
    inferred = 1 if "inferred" in blocks else 0
    bits = [BITS[int(b)] for b in re.findall(r"B(\d)", blocks)]
    if not bits:
        raise SystemExit("no block bits for " + mnem)
    return "MASK", " | ".join(bits), inferred


def fields_of(mnem, text):
    found = [(m.group(1).strip(), int(m.group(2)))
             for m in re.finditer(r"([A-Za-z_][A-Za-z0-9_ ]*?)@(\d+)", text)]
    out = []
    for i, (name, lo) in enumerate(found):
        hi = found[i + 1][1] if i + 1 < len(found) else 24
        width = WIDTH_OVERRIDES.get((mnem, name), hi - lo)
        out.append((name, lo, width))
    return out


def main():
    text = open(sys.argv[1], encoding="utf-8").read()
    sec = text[text.index("## 5. Complete"):text.index("## 6. Backend")]
    rows = [ln for ln in sec.splitlines() if ln.startswith("| 0x")]
    print("/* coproc/tt_ops.def — every Blackhole Tensix opcode, one X-macro entry each.")
    print(" * GENERATED by scripts/gen_tt_ops.py from ../shared/docs/TENSIX.md §5 (itself from tt-llk")
    print(" * assembly.yaml and BH STALLWAIT.md); edit the generator or regenerate, not by hand.")
    print(" *")
    print(" * TT_OP(opcode, MNEMONIC, unit, gate, block bits, inferred, nfields, fields...)")
    print(" * TT_F(name, lo, width): a field of the 24-bit argument, names as assembly.yaml spells them.")
    print(" * TT_VIEW(MNEMONIC, name, lo, width): a part of the word an ISA page names otherwise (a value")
    print(" * across two fields, one mode's layout); accessors only (scripts/gen_tt_fields.py).")
    print(" */")
    seen = []
    for ln in rows:
        cols = [c.strip() for c in ln.strip().strip("|").split("|")]
        opc, mnem, _res, unit, blocks, _wh, _sim, fields = cols[:8]
        opc = int(opc, 16)
        seen.append(opc)
        gate, block, inferred = gate_of(mnem, blocks)
        fl = fields_of(mnem, fields)
        head = "TT_OP(0x%02X, %s, %s, %s, %s, %d, %d," % (opc, mnem, unit_of(unit), gate, block,
                                                          inferred, len(fl))
        items = ['TT_F("%s", %d, %d)' % f for f in fl] or ["TT_NOF"]
        # Wrap at 100 columns: a macro invocation may span lines.
        line = head
        for i, item in enumerate(items):
            piece = " " + item + ("," if i + 1 < len(items) else ")")
            if len(line) + len(piece) > 100:
                print(line)
                line = "     " + piece
            else:
                line += piece
        print(line)
    assert seen == sorted(seen) and len(set(seen)) == len(seen) == 137, len(seen)
    print()
    print("/* Views (ISA pages named on each line). */")
    for mnem, name, lo, width, src in VIEWS:
        print('TT_VIEW(%s, "%s", %d, %d) /* %s */' % (mnem, name, lo, width, src))


if __name__ == "__main__":
    main()
