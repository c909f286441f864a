#!/usr/bin/env python3
"""Raw-socket checks of ttemu's GDB remote stub (debug/gdb.c), standard library only.

Usage: gdb_rsp_check.py TTEMU FW TMPDIR

Prints TAP-style lines ("ok - NAME", "not ok - NAME" with reasons) for test/run.sh: what gdb
itself never sends (damaged, malformed and unknown packets, junk, an oversize packet), the
hardware single step (vCont;s: the stepped core retires exactly one instruction, the tile runs one
cycle), Ctrl-C on a spinning run, kill, and a client that goes away mid-run (exit 2, "stopped").
Every ttemu listens on a port of its own choosing (--gdb 0), so parallel tests never collide.
"""
import json
import os
import re
import socket
import subprocess
import sys
import time

TTEMU, FW, TMP = sys.argv[1], sys.argv[2], sys.argv[3]
failures = 0


def ok(name):
    print("ok - " + name)


def nok(name, *why):
    global failures
    failures += 1
    print("not ok - " + name)
    for w in why:
        for line in str(w).splitlines()[:30]:
            print("#   " + line)


def check(name, cond, *why):
    (ok if cond else lambda n: nok(n, *why))(name)


def checksum(b):
    return sum(b) & 0xFF


def frame(payload):
    if isinstance(payload, str):
        payload = payload.encode()
    return b"$" + payload + b"#%02x" % checksum(payload)


class Stub:
    """ttemu run ... --gdb 0 --gdb-wait, and one connection to it."""

    def __init__(self, args, report=None):
        self.report = report
        cmd = [TTEMU, "run", "--quiet"] + args + ["--gdb", "0", "--gdb-wait"]
        if report:
            cmd += ["--report", report]
        self.errpath = os.path.join(TMP, "stub%d.err" % id(self))
        self.err = open(self.errpath, "w+")
        self.p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=self.err)
        port = None
        for _ in range(200):  # the listening line comes before anything runs
            self.err.seek(0)
            m = re.search(r"listening on 127\.0\.0\.1:(\d+)", self.err.read())
            if m:
                port = int(m.group(1))
                break
            if self.p.poll() is not None:
                break
            time.sleep(0.025)
        if port is None:
            raise RuntimeError("ttemu did not listen: " + self.stderr())
        self.s = socket.create_connection(("127.0.0.1", port), timeout=20)
        self.buf = b""

    def stderr(self):
        if self.err.closed:
            return self.errtext
        self.err.seek(0)
        return self.err.read()

    def recv_some(self):
        d = self.s.recv(65536)
        if not d:
            raise EOFError("the stub closed the connection")
        self.buf += d

    def read_ack(self):
        """The next '+' or '-'."""
        while True:
            while not self.buf:
                self.recv_some()
            c, self.buf = self.buf[:1], self.buf[1:]
            if c in (b"+", b"-"):
                return c

    def read_packet(self):
        """The next packet's payload (acks before it dropped); checks its checksum."""
        while True:
            i = self.buf.find(b"$")
            if i >= 0:
                j = self.buf.find(b"#", i)
                if j >= 0 and len(self.buf) >= j + 3:
                    payload, cs = self.buf[i + 1 : j], self.buf[j + 1 : j + 3]
                    self.buf = self.buf[j + 3 :]
                    if int(cs, 16) != checksum(payload):
                        raise ValueError("bad checksum from the stub: %r" % payload)
                    return payload.decode("latin-1")
            self.recv_some()

    def send_raw(self, b):
        self.s.sendall(b)

    def cmd(self, payload):
        """Send a packet, expect '+', return the reply (acked)."""
        self.send_raw(frame(payload))
        a = self.read_ack()
        if a != b"+":
            raise ValueError("packet %r not acknowledged: %r" % (payload, a))
        r = self.read_packet()
        self.send_raw(b"+")
        return r

    def stop_reply(self):
        """After a resume: console lines (O packets) and the stop reply."""
        out = ""
        while True:
            r = self.read_packet()
            self.send_raw(b"+")
            if r.startswith("O") and r != "OK":
                out += bytes.fromhex(r[1:]).decode()
                continue
            return r, out

    def monitor(self, line):
        self.send_raw(frame("qRcmd," + line.encode().hex()))
        self.read_ack()
        return self.stop_reply()

    def finish(self, timeout=30):
        try:
            self.s.close()
        except OSError:
            pass
        try:
            rc = self.p.wait(timeout)
        except subprocess.TimeoutExpired:
            self.p.kill()
            rc = self.p.wait()
        self.errtext = self.stderr()
        self.err.close()
        return rc


def regs(stub):
    """x0..x31, pc of the Hg thread, from 'g'."""
    g = stub.cmd("g")
    return [int.from_bytes(bytes.fromhex(g[8 * i : 8 * i + 8]), "little") for i in range(33)]


def cycles(stub):
    """monitor cycles: the tile's cycle and {core: (pc, instret)}."""
    r, out = stub.monitor("cycles")
    cyc = int(re.search(r"^cycle (\d+)", out, re.M).group(1))
    cores = {m.group(1): (int(m.group(2), 16), int(m.group(3))) for m in re.finditer(r"^(\w+)\s+pc 0x([0-9a-f]+) instret (\d+)", out, re.M)}
    return r, cyc, cores


D = os.path.join(FW, "demo")
DEMO2 = ["--brisc", os.path.join(D, "brisc.elf"), "--trisc2", os.path.join(D, "trisc2.elf")]


def robustness():
    st = Stub(DEMO2)
    try:
        st.send_raw(b"+")  # a stray ack is taken silently
        st.send_raw(b"hello")  # junk outside any packet
        st.send_raw(b"$g#00")  # wrong checksum
        check("bad checksum: answered '-'", st.read_ack() == b"-")
        st.send_raw(b"$g#zz")  # not even hex
        check("checksum that is not hex: answered '-'", st.read_ack() == b"-")
        st.send_raw(b"$" + b"a" * 20000)  # no end in sight: more than PacketSize
        check("oversize packet: answered '-'", st.read_ack() == b"-")
        st.send_raw(b"#00")  # the rest of it is junk
        r = regs(st)
        check("after junk, damaged and oversize packets the stub still answers 'g' (33 registers)", len(r) == 33 and r[0] == 0, r)
        check("unknown packet: the empty reply", st.cmd("qTtemuNoSuchThing") == "")
        check("vMustReplyEmpty: the empty reply", st.cmd("vMustReplyEmpty") == "")
        check("unknown v packet: the empty reply", st.cmd("vFile:setfs:0") == "")
        check("unsupported point type (Z9): the empty reply", st.cmd("Z9,1000,4") == "")
        for bad in ("m10000", "m,4", "mzz,4", "M10000,4:zz", "M10000,4:00", "X10000,4:", "p", "pfffffff", "P20=12",
                    "Hx1", "Hg9", "T9", "Z0,zz,4", "qThreadExtraInfo,9", "vCont;t", "vCont;s:9", "C", "qRcmd,zz"):
            rep = st.cmd(bad)
            check("malformed %r: an error reply" % bad, re.fullmatch(r"E[0-9a-f]{2}", rep) is not None, rep)
        rep = st.cmd("qXfer:features:read:nosuch.xml:0,100")
        check("qXfer of an unknown annex: an error reply", rep.startswith("E"), rep)
        check("thread 1..5 alive, 6 not", st.cmd("T1") == "OK" and st.cmd("T5") == "OK" and st.cmd("T6").startswith("E"))
        rep = st.cmd("?")
        check("'?' answers the stop at attach (SIGTRAP, BRISC)", rep.startswith("T05") and "thread:1;" in rep, rep)
        rep = st.cmd("qSupported:multiprocess+;swbreak+;hwbreak+")
        check("qSupported names the packet size, qXfer features and threads, swbreak",
              all(k in rep for k in ("PacketSize=4000", "qXfer:features:read+", "qXfer:threads:read+", "swbreak+")), rep)
        xml = st.cmd("qXfer:features:read:target.xml:0,3fff")
        check("target description: RV32 cpu and CSR features", xml.startswith("l") and "riscv:rv32" in xml
              and 'name="pc"' in xml and 'name="cfg0"' in xml and 'name="tt_cfg_qstatus"' in xml, xml[:200])
        thr = st.cmd("qXfer:threads:read::0,fff")
        check("thread list names the five cores and their states", thr.startswith("l") and all(
            n in thr for n in ('name="BRISC">running', 'name="TRISC2">running', 'name="NCRISC">in reset')), thr)
        ext = bytes.fromhex(st.cmd("qThreadExtraInfo,2")).decode()
        check("qThreadExtraInfo: NCRISC: in reset", ext == "NCRISC: in reset", ext)
        # binary write (X, with escapes) and read back through m; a device register through the host path
        data = bytes([0x23, 0x24, 0x7D, 0x2A, 0x00, 0xFF, 0x41, 0x42])
        esc = b"".join(bytes([0x7D, c ^ 0x20]) if c in b"#$}*" else bytes([c]) for c in data)
        st.send_raw(b"$X9000,8:" + esc + b"#%02x" % checksum(b"X9000,8:" + esc))
        check("X (binary write, escaped bytes): OK", st.read_ack() == b"+" and st.read_packet() == "OK")
        st.send_raw(b"+")
        check("m reads back what X wrote", st.cmd("m9000,8") == data.hex())
        check("M writes a device register (a stream register, whole word)", st.cmd("Mffb48020,4:05000000") == "OK")
        check("m reads it back through the host accessor", st.cmd("mffb48020,4") == "05000000")
        check("M of part of a device word is refused", st.cmd("Mffb48021,1:05").startswith("E"))
        check("m of an unmapped address: an error", st.cmd("m20000000,4").startswith("E"))
        rep, out = st.monitor("nosuchcommand")
        check("unknown monitor command: says so, error reply", rep.startswith("E") and "unknown monitor command" in out, rep + out)
        st.cmd("D")
    finally:
        rc = st.finish()
    check("after all that the run ends as it would (exit 0)", rc == 0, "exit %d" % rc, st.stderr())


def hardware_step():
    st = Stub(DEMO2)
    try:
        st.cmd("Hg1")
        r0, c0, cores0 = cycles(st)
        pc0 = regs(st)[32]
        st.send_raw(frame("vCont;s:1"))
        st.read_ack()
        rep, _ = st.stop_reply()
        check("vCont;s:1 stops BRISC with SIGTRAP", rep.startswith("T05") and "thread:1;" in rep, rep)
        pc1 = regs(st)[32]
        _, c1, cores1 = cycles(st)
        check("step: BRISC's pc advanced by one instruction", pc1 == pc0 + 4, "pc 0x%x -> 0x%x" % (pc0, pc1))
        check("step: BRISC retired exactly one instruction", cores1["BRISC"][1] == cores0["BRISC"][1] + 1, cores0, cores1)
        check("step: the tile ran exactly one cycle", c1 == c0 + 1, "cycle %d -> %d" % (c0, c1))
        check("step: TRISC2 (not stepped) also ran that cycle", cores1["TRISC2"][1] == cores0["TRISC2"][1] + 1, cores0, cores1)
        # a breakpoint at BRISC's pc two instructions on: hit; resumed with it still in, BRISC moves
        # on (a core still where it was resumed does not hit again) to its ebreak
        bp = pc1 + 8
        check("Z0 at BRISC's pc + 8: OK", st.cmd("Z0,%x,4" % bp) == "OK")
        st.send_raw(frame("vCont;c"))
        st.read_ack()
        rep, _ = st.stop_reply()
        check("continue: BRISC stops at the breakpoint (swbreak)", rep.startswith("T05") and "thread:1;" in rep and "swbreak" in rep, rep)
        check("... with its pc on it", regs(st)[32] == bp, hex(regs(st)[32]))
        _, c1, _ = cycles(st)
        # step-cycles: N tile cycles, then the answer
        rep, out = st.monitor("step-cycles 5")
        _, c2, _ = cycles(st)
        check("monitor step-cycles 5: five more cycles", rep == "OK" and c2 == c1 + 5, rep, out, c2)
        st.cmd("D")
    finally:
        rc = st.finish()
    check("stepped run still ends halted (exit 0)", rc == 0, "exit %d" % rc, st.stderr())


def spinning(how):
    rep_path = os.path.join(TMP, "spin-%s.json" % how)
    st = Stub(["--brisc", os.path.join(FW, "progs", "spin_brisc.elf"), "--max-cycles", "100000000000"], report=rep_path)
    try:
        st.send_raw(frame("vCont;c"))
        st.read_ack()
        time.sleep(0.3)
        if how == "disconnect":
            st.s.close()
        else:
            st.send_raw(b"\x03")
            rep, _ = st.stop_reply()
            check("Ctrl-C stops a spinning run: SIGINT on BRISC", rep.startswith("T02") and "thread:1;" in rep, rep)
            _, c, _ = cycles(st)
            check("it had run (cycle > 0)", c > 0, c)
            st.send_raw(frame("k"))
            st.read_ack()
    finally:
        rc = st.finish()
    what = "disconnect mid-run" if how == "disconnect" else "kill after Ctrl-C"
    check(what + ": exit 2", rc == 2, "exit %d" % rc, st.stderr())
    try:
        reason = json.load(open(rep_path))["exit"]["reason"]
    except (OSError, ValueError, KeyError) as e:
        reason = repr(e)
    check(what + ": report exit.reason stopped", reason == "stopped", reason)
    msg = "the debugger disconnected" if how == "disconnect" else "killed by the debugger"
    check(what + ": says so on stderr", msg in st.stderr(), st.stderr())


def disconnect_stopped():
    st = Stub(DEMO2)
    try:
        st.cmd("?")
    finally:
        rc = st.finish()
    check("client gone while the tile is stopped: exit 2, says so", rc == 2 and "the debugger disconnected" in st.stderr(),
          "exit %d" % rc, st.stderr())


for f in (robustness, hardware_step, lambda: spinning("interrupt"), lambda: spinning("disconnect"), disconnect_stopped):
    try:
        f()
    except Exception as e:  # a hang or a protocol error is a failure, not a crash of the script
        nok("raw protocol scenario %s" % getattr(f, "__name__", "?"), repr(e))
sys.exit(1 if failures else 0)
