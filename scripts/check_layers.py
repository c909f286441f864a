#!/usr/bin/env python3
"""Check the include graph against the rooms' dependency direction (docs/architecture.md).

Usage: scripts/check_layers.py [ROOT]   (default: the repository this script is in)

Each source folder may include its own headers and those of the rooms below it, never one above:

    ui  ->  app  ->  debug  ->  loader  ->  run  ->  tile, mmio  ->  coproc, core

(core knows nothing of Tensix and coproc nothing of RISC-V: neither includes the other). tile/ and
mmio/ are one room, the tile and its devices: tile_t owns the devices' state and the devices serve
tile_t. Headers must not include each other in a cycle. Prints every violation and exits 1 if
there is any, else prints a one-line summary.
"""
import os
import re
import sys

ALLOWED = {
    "core": {"core"},
    "coproc": {"coproc"},
    "mmio": {"mmio", "tile", "coproc", "core"},
    "tile": {"tile", "mmio", "coproc", "core"},
    "run": {"run", "tile", "mmio", "coproc", "core"},
    "loader": {"loader", "run", "tile", "mmio", "coproc", "core"},
    "debug": {"debug", "loader", "run", "tile", "mmio", "coproc", "core"},
    "app": {"app", "debug", "loader", "run", "tile", "mmio", "coproc", "core"},
    "ui": {"ui", "app", "debug", "loader", "run", "tile", "mmio", "coproc", "core"},
}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def sources(root):
    for room in ALLOWED:
        d = os.path.join(root, room)
        if not os.path.isdir(d):
            continue
        for dirpath, _, files in os.walk(d):
            for f in sorted(files):
                if f.endswith((".c", ".h", ".inc", ".def")):
                    yield os.path.relpath(os.path.join(dirpath, f), root)


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    bad = []
    graph = {}
    nfiles = nedges = 0
    for path in sources(root):
        nfiles += 1
        room = path.split(os.sep)[0]
        with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
            text = f.read()
        incs = INCLUDE.findall(text)
        graph[path] = [i for i in incs if i.endswith(".h")]
        for inc in incs:
            nedges += 1
            target = inc.split("/")[0] if "/" in inc else room
            if target not in ALLOWED:
                continue  # a generated file in build/, or a system-style header given with quotes
            if target not in ALLOWED[room]:
                bad.append(f"{path}: includes {inc}: {room}/ may not depend on {target}/ (docs/architecture.md)")
    # Header cycles (depth-first search over header -> header edges).
    state = {}
    stack = []

    def visit(h):
        state[h] = 1
        stack.append(h)
        for n in graph.get(h, []):
            if n not in graph:
                continue
            if state.get(n) == 1:
                cyc = stack[stack.index(n):] + [n]
                bad.append("header cycle: " + " -> ".join(cyc))
            elif not state.get(n):
                visit(n)
        stack.pop()
        state[h] = 2

    for h in sorted(graph):
        if h.endswith(".h") and not state.get(h):
            visit(h)
    for b in bad:
        print(b)
    if bad:
        print(f"{len(bad)} layering problem(s)")
        return 1
    print(f"layers: {nfiles} files, {nedges} includes, no backwards include, no header cycle")
    return 0


if __name__ == "__main__":
    sys.exit(main())
