#!/usr/bin/python3
"""Check that no object holding a write-guarded const member is defined (only allocated).

Usage: scripts/check_const_members.py [ROOT]   (default: the repository this script is in)

cp_state_t's cfg and thdcfg (coproc/state.h), lregs_t's lane_config and src_regs_t's d
(coproc/dp_regs.h) are const so that their readers cannot write them: each has one writer
(st_cfg_w, st_thdcfg_w, sfpu_lane_config_w, dp_src_rows_w), which casts the const away. C makes
such a write undefined for an object *defined* with a const-qualified member (C11 6.7.3p6: a
variable, static or automatic, or a by-value parameter); for allocated storage (calloc) it is
defined. So no object whose type holds one of these types by value (as a member at any depth, or
as an array's element) may be defined. The C sources are parsed by libclang (Debian's
python3-clang-14, hence /usr/bin/python3), each as the Makefile compiles it, and every variable or
parameter of such a type is reported as FILE:LINE: text. A source libclang cannot parse is an
error too (the check would otherwise miss what it hides). Exit 1 on any, else a one-line summary.
"""
import glob
import os
import subprocess
import sys
import tempfile

import clang.cindex as ci

GUARDED = {"cp_state_t", "lregs_t", "src_regs_t"}
DIRS = ["core", "coproc", "mmio", "tile", "run", "loader", "debug", "app", "ui", "test/unit", "fuzz"]
PKGS = ["libelf", "libcjson", "libxml-2.0", "sdl2", "SDL2_ttf", "SDL2_image", "cmocka"]


def holds(t, memo):
    """True if type t holds a guarded type by value: is one, or an array of, or a record with a member that does."""
    t = t.get_canonical()
    while t.kind in (ci.TypeKind.CONSTANTARRAY, ci.TypeKind.INCOMPLETEARRAY):
        t = t.element_type.get_canonical()
    if t.kind != ci.TypeKind.RECORD:
        return False
    decl = t.get_declaration()
    key = decl.hash
    if key not in memo:
        memo[key] = False  # (a record cannot hold itself by value)
        names = {decl.spelling} | {c.spelling for c in decl.semantic_parent.get_children()
                                   if c.kind == ci.CursorKind.TYPEDEF_DECL and
                                   c.underlying_typedef_type.get_canonical() == t}
        memo[key] = bool(names & GUARDED) or any(holds(f.type, memo) for f in decl.get_children()
                                                  if f.kind == ci.CursorKind.FIELD_DECL)
    return memo[key]


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    os.chdir(root)
    flags = subprocess.run(["pkg-config", "--cflags"] + PKGS, capture_output=True, text=True).stdout.split()
    with tempfile.TemporaryDirectory() as gen:
        # The generated Tensix fields (the Makefile's $(BUILD)/gen), made here: the check runs before any build.
        os.makedirs(os.path.join(gen, "coproc"))
        subprocess.run([sys.executable, "scripts/gen_tt_fields.py", "coproc/tt_ops.def",
                        os.path.join(gen, "coproc", "tt_fields.h")], check=True, stdout=subprocess.DEVNULL)
        args = ["-std=c11", "-D_DEFAULT_SOURCE", "-DTTEMU_UI=1", "-I.", "-I" + gen] + flags
        index, memo, seen, found, errors = ci.Index.create(), {}, set(), 0, 0
        files = sorted(f for d in DIRS for f in glob.glob(os.path.join(d, "*.c")))
        for f in files:
            tu = index.parse(f, args=args)
            for d in tu.diagnostics:
                if d.severity >= ci.Diagnostic.Error:
                    print("%s: libclang cannot parse it: %s" % (f, d))
                    errors += 1
            for c in tu.cursor.walk_preorder():
                if c.kind not in (ci.CursorKind.VAR_DECL, ci.CursorKind.PARM_DECL) or not c.location.file:
                    continue
                if c.storage_class == ci.StorageClass.EXTERN or not holds(c.type, memo):
                    continue
                where = (os.path.relpath(c.location.file.name), c.location.line)
                if where in seen:  # (a header's, met again through another source)
                    continue
                seen.add(where)
                with open(where[0], encoding="utf-8", errors="replace") as fh:
                    print("%s:%d: %s" % (where[0], where[1], fh.read().splitlines()[where[1] - 1].strip()))
                found += 1
    if found or errors:
        print("check_const_members: %d defined objects hold a write-guarded const member (allocate them), "
              "%d parse errors" % (found, errors))
        return 1
    print("check_const_members: %d sources, none defines an object holding a write-guarded const member" % len(files))
    return 0


if __name__ == "__main__":
    sys.exit(main())
