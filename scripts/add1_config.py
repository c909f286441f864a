#!/usr/bin/env python3
"""The run config of the add1 program on the real p100a firmware (../shared/firmware, its
kernels-add1; docs/run-config.md), written once for bench/run.sh and the shell tests.

Usage: python3 scripts/add1_config.py [OPTIONS] > add1.json
       (or, from bench/run.sh: import add1_config; add1_config.config(tiles=N, ...), a dict)

Two programs:
  compute only (the default): the three compute kernels launched L times on N tiles each, CB0 and
    CB16 of N pages; the host sets CB0's tiles_received (0xFFB48028) to N once TRISC0 has cleared
    the streams: after the boot, and after each launch but the last.
  --whole: one launch of the whole program on N tiles: the reader (NCRISC, NOC0 reads of the
    interleaved input at DRAM 0x100000), the compute kernels, the writer (BRISC, NOC1 writes of the
    output to DRAM 0x300000); CB0 and CB16 of 8 pages.

Options (config()'s keyword arguments of the same names; lists for the repeatable ones):
  -n, --tiles N            tiles a launch (default 8)
  --launches L             compute only: L launches (default 1)
  --cb16 ADDR              CB16's L1 address (default 0x30000)
  --launch-read ADDR:NAME  compute only: at launch i's kernels_done, a host read of ADDR named NAMEi (repeatable)
  --l1-tensors DIR         compute only: launch i's input DIR/in{i}.npy in CB0, its expected CB16 DIR/want{i}.npy
  --whole                  the whole program
  --ramp                   whole: the input written before boot, word i = 0x3f803f80 + i * 0x10001
  --preset-out WORD        whole: the output filled with WORD before boot
  --out-pages P,P...       whole: output pages read from DRAM at kernels_done, named outP
  --dram-tensors           whole: "in" and "out" as interleaved DRAM tensors (their data: --input, --expect)
  --done-read ADDR:NAME    a host read of ADDR named NAME at the first kernels_done (repeatable)
  --peek ADDR[:WORDS]      an L1 range in the report (repeatable)
  --stop-cycles N          stop the run at cycle N
  --max-cycles N           default 100000000
  --shared DIR             where firmware/ is (default $SHARED, else ../shared); the paths made absolute
Standard library only: it runs with any python3.
"""
import argparse
import json
import os
import sys

IN_DRAM, OUT_DRAM, PAGE = 0x100000, 0x300000, 2048  # the whole program's buffers, tt-metal pages
RAMP_START, RAMP_STEP = 0x3F803F80, 0x10001  # --ramp: input word i = start + i * step (mod 2^32)


def _cb(ident, addr, pages):
    return {"id": ident, "addr": "0x%x" % addr, "size": PAGE * pages, "num_pages": pages, "page_size": PAGE}


def _dram_tensor(base, n):
    return {"dram": {"base": "0x%x" % base, "page_size": PAGE, "interleaved": True}, "format": "bfloat16",
            "shape": [32 * n, 32], "layout": "tiles"}


def config(tiles=8, launches=1, cb16=0x30000, launch_read=(), l1_tensors=None, whole=False, ramp=False,
           preset_out=None, out_pages=(), dram_tensors=False, done_read=(), peek=(), stop_cycles=None,
           max_cycles=100000000, shared=None):
    """The config as a dict (the options: the module's docstring)."""
    n = tiles
    shared = shared or os.environ.get("SHARED") or "../shared"
    fw = os.path.abspath(os.path.join(shared, "firmware", "blackhole-p100a"))
    k = os.path.abspath(os.path.join(shared, "firmware", "kernels-add1"))
    kernels = {"trisc0": k + "/compute_trisc0_unpack.bin", "trisc1": k + "/compute_trisc1_math.bin",
               "trisc2": k + "/compute_trisc2_pack.bin"}
    args = {"trisc0": [n], "trisc1": [n], "trisc2": [n]}
    c = {"version": 1, "firmware": fw}
    host = []
    if whole:
        if launches != 1 or launch_read or l1_tensors:
            raise ValueError("--whole is one launch, without --launches, --launch-read or --l1-tensors")
        kernels = {"brisc": k + "/writer_brisc.bin", "ncrisc": k + "/reader_ncrisc.bin", **kernels}
        args = {"ncrisc": [IN_DRAM, 0, n], "brisc": [OUT_DRAM, 0, n], **args}
        c["launches"] = [{"kernels": kernels, "runtime_args": args,
                          "circular_buffers": [_cb(0, 0x20000, 8), _cb(16, cb16, 8)]}]
        if ramp:
            host.append({"at": "before_boot", "dram_write": {"interleaved": PAGE, "addr": "0x%x" % IN_DRAM,
                                                             "ramp": {"words": 512 * n, "start": RAMP_START,
                                                                      "step": RAMP_STEP}}})
        if preset_out is not None:
            host.append({"at": "before_boot", "dram_write": {"interleaved": PAGE, "addr": "0x%x" % OUT_DRAM,
                                                             "ramp": {"words": 512 * n, "start": preset_out,
                                                                      "step": 0}}})
        for p in out_pages:  # output page p: bank p mod 7, row p div 7
            host.append({"at": "kernels_done", "dram_read": {"bank": p % 7, "addr": OUT_DRAM + (p // 7) * PAGE,
                                                             "words": 512, "name": "out%d" % p}})
        if dram_tensors:
            c["tensors"] = {"in": _dram_tensor(IN_DRAM, n), "out": _dram_tensor(OUT_DRAM, n)}
    else:
        if ramp or preset_out is not None or out_pages or dram_tensors:
            raise ValueError("--ramp, --preset-out, --out-pages and --dram-tensors need --whole")
        c["launches"] = [{"kernels": kernels, "runtime_args": args,
                          "circular_buffers": [_cb(0, 0x20000, n), _cb(16, cb16, n)]}] * launches
        tensors, inputs, expect = {}, {}, {}
        for i in range(launches):
            host.append({"at": "after_boot" if i == 0 else "after_launch", **({} if i == 0 else {"launch": i - 1}),
                         "write": {"addr": "0xFFB48028", "value": n}})
            for r in launch_read:
                addr, name = r.split(":", 1)
                host.append({"at": "kernels_done", "launch": i, "read": {"addr": addr, "name": "%s%d" % (name, i)}})
            if l1_tensors:
                tensors["in%d" % i] = {"addr": "0x20000", "format": "bfloat16", "shape": [32 * n, 32],
                                       "layout": "tiles"}
                tensors["out%d" % i] = {"addr": "0x%x" % cb16, "format": "bfloat16", "shape": [32 * n, 32],
                                        "layout": "tiles"}
                f = "%s/in%d.npy" % (l1_tensors, i)
                inputs["in%d" % i] = {"file": f} if i == 0 else {"file": f, "at": "after_launch", "launch": i - 1}
                expect["out%d" % i] = {"file": "%s/want%d.npy" % (l1_tensors, i), "at": "kernels_done", "launch": i}
        if l1_tensors:
            c.update(tensors=tensors, inputs=inputs, expect=expect)
    for r in done_read:
        addr, name = r.split(":", 1)
        host.append({"at": "kernels_done", "read": {"addr": addr, "name": name}})
    if host:
        c["host"] = host
    if peek:
        c["peek"] = list(peek)
    if stop_cycles is not None:
        c["stop"] = {"at": "cycles", "cycles": stop_cycles}
    c["max_cycles"] = max_cycles
    return c


def main(argv):
    num = lambda s: int(s, 0)
    p = argparse.ArgumentParser(usage=argparse.SUPPRESS, description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("-n", "--tiles", type=num, default=8, help=argparse.SUPPRESS)
    p.add_argument("--launches", type=num, default=1, help=argparse.SUPPRESS)
    p.add_argument("--cb16", type=num, default=0x30000, help=argparse.SUPPRESS)
    p.add_argument("--launch-read", action="append", default=[], help=argparse.SUPPRESS)
    p.add_argument("--l1-tensors", help=argparse.SUPPRESS)
    p.add_argument("--whole", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--ramp", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--preset-out", type=num, help=argparse.SUPPRESS)
    pages = lambda s: [int(x) for x in s.split(",") if x]
    p.add_argument("--out-pages", type=pages, default=[], help=argparse.SUPPRESS)
    p.add_argument("--dram-tensors", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--done-read", action="append", default=[], help=argparse.SUPPRESS)
    p.add_argument("--peek", action="append", default=[], help=argparse.SUPPRESS)
    p.add_argument("--stop-cycles", type=num, help=argparse.SUPPRESS)
    p.add_argument("--max-cycles", type=num, default=100000000, help=argparse.SUPPRESS)
    p.add_argument("--shared", help=argparse.SUPPRESS)
    try:
        c = config(**vars(p.parse_args(argv)))
    except ValueError as e:
        p.error(str(e))
    print(json.dumps(c))


if __name__ == "__main__":
    main(sys.argv[1:])
