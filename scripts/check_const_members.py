#!/usr/bin/env python3
"""Check that no object holding a write-guarded const member is defined (only allocated).

Usage: scripts/check_const_members.py [ROOT]   (default: the repository this script is in)

cp_state_t's cfg and thdcfg (coproc/state.h), lregs_t's lane_config and src_regs_t's d
(coproc/dp_regs.h) are const so that their readers cannot write them: each has one writer
(st_cfg_w, st_thdcfg_w, sfpu_lane_config_w, dp_src_rows_w), which casts the const away. C makes
such a write undefined for an object *defined* with a const-qualified member (C11 6.7.3p6: a
variable, static or automatic, a by-value parameter); for allocated storage (calloc) it is
defined. So every object of these types, or of a struct holding one (by value, at any depth),
must be allocated. This script reads every C source and header of the tree (comments and strings
removed), finds the structs that hold a guarded type, and reports each variable or parameter of
such a type that is not a struct member or behind a pointer, as FILE:LINE: text. It exits 1 if
there is any, else prints a one-line summary.
"""
import os
import re
import sys

GUARDED = {"cp_state_t", "lregs_t", "src_regs_t"}
SKIP_DIRS = {"build", ".git"}
IDENT = r"[A-Za-z_]\w*"


def strip(src):
    """Comments and string/char literals blanked, newlines kept (line numbers stay)."""
    out, i, n = [], 0, len(src)
    while i < n:
        c = src[i]
        if src.startswith("/*", i):
            j = src.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", src[i:j]))
            i = j
        elif src.startswith("//", i):
            j = src.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and src[j] != c:
                j += 2 if src[j] == "\\" else 1
            out.append(c + re.sub(r"[^\n]", " ", src[i + 1:j]) + c)
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def bodies(code):
    """(start, end, name) of each struct or union body: name is its typedef name or 'struct tag'."""
    found = []
    for m in re.finditer(r"\b(struct|union)\s*(" + IDENT + r")?\s*\{", code):
        depth, j = 1, m.end()
        while j < len(code) and depth:
            depth += {"{": 1, "}": -1}.get(code[j], 0)
            j += 1
        names = []
        if m.group(2):
            names.append(m.group(1) + " " + m.group(2))
        t = re.match(r"\s*(" + IDENT + r")\s*;", code[j:])
        if t and re.search(r"\btypedef\s+$", code[max(0, m.start() - 40):m.start()]):
            names.append(t.group(1))
        found.append((m.end(), j - 1, names))
    return found


def holds(body, guarded):
    """True if a member of the body is of a guarded type by value (not behind a pointer)."""
    for g in guarded:
        if re.search(r"(?<![\w])" + re.escape(g) + r"\s+(?!\*)" + IDENT + r"\s*[\[;,]", body):
            return True
    return False


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    files = []
    for d, dirs, names in os.walk(root):
        dirs[:] = [x for x in dirs if x not in SKIP_DIRS]
        files += [os.path.join(d, x) for x in names if x.endswith((".c", ".h"))]
    code = {}
    for f in sorted(files):
        with open(f, encoding="utf-8", errors="replace") as fh:
            code[f] = strip(fh.read())
    guarded, structs, aliases = set(GUARDED), [], []
    for c in code.values():
        for s, e, names in bodies(c):
            structs.append((c[s:e], names))
        aliases += re.findall(r"\btypedef\s+(struct\s+" + IDENT + r"|" + IDENT + r")\s+(" + IDENT + r")\s*;", c)
    changed = True
    while changed:  # the structs holding a guarded type, at any depth, and their typedef aliases
        changed = False
        for body, names in structs:
            if holds(body, guarded) and not set(names) <= guarded:
                guarded |= set(names)
                changed = True
        for old, new in aliases:
            if re.sub(r"\s+", " ", old) in guarded and new not in guarded:
                guarded.add(new)
                changed = True
    types = "|".join(re.escape(g).replace(r"\ ", r"\s+") for g in sorted(guarded, key=len, reverse=True))
    decl = re.compile(r"(?:^|[;{}(,])\s*(?:(?:static|const|volatile|register|extern)\s+)*(?:" + types + r")\s+(" +
                      IDENT + r")\s*(?:\[[^\]]*\]\s*)*(?:=|;|,|\))", re.M)
    found = 0
    for f, c in code.items():
        blank = list(c)
        for s, e, _ in bodies(c):  # members are not objects
            for k in range(s, e):
                if blank[k] != "\n":
                    blank[k] = " "
        text = "".join(blank)
        for m in decl.finditer(text):
            if text[m.start():m.end()].lstrip(";{}(, \t\n").startswith("extern"):
                continue
            line = text.count("\n", 0, m.start(1)) + 1
            print("%s:%d: %s" % (os.path.relpath(f, root), line, c.splitlines()[line - 1].strip()))
            found += 1
    if found:
        print("check_const_members: %d defined objects hold a write-guarded const member; allocate them" % found)
        return 1
    print("check_const_members: %d files, %d types hold a write-guarded const member, none defined" %
          (len(code), len(guarded)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
