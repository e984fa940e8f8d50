#!/usr/bin/env python3
"""A RISC-V N-Trace 1.0 encoder for tests only: it turns the PCs a program
ran through (qemu-riscv64 -singlestep -d exec,nochain) into the messages
a trace encoder configured as asked would write, so that hwtrace's
decoder can be checked against the PC list qemu printed. It knows the
instructions from binutils' objdump (-M no-aliases,numeric), not from
hwtrace, and follows the specification's encoder rules: BTM or HTM,
implicit returns with a return stack, ResourceFull for a full I-CNT or
HIST (RCODE 2 for repeated history), RepeatBranch, periodic
synchronization, SRC and TSTAMP fields, and a FIFO overflow (an Error
message) that drops messages. TSTAMP: the encoder's clock is 1000 + 3
per instruction run; ts=1 sends it as the specification says (absolute
in synchronizing messages, else the difference to the last one sent),
ts=full absolute in every message.

usage: ntrace_encode.py OBJDUMP QEMU_LOG OUT [key=value ...]
  mode=btm|htm  callstack=N  src=BITS,ID  ts=1|full  icnt=LIMIT  hist=LIMIT
  repeat=1  sync=PERIOD  drop=FIRST,COUNT  idle=1
"""
import re
import sys

LINK = ("x1", "x5")


def read_code(path):
    code = {}
    for line in open(path):
        m = re.match(r"^\s+([0-9a-f]+):\t([0-9a-f]+)\s+\t?(\S+)\s*(\S*)", line)
        if m:
            code[int(m.group(1), 16)] = (len(m.group(2)) // 2, m.group(3),
                                         m.group(4).split(","))
    return code


def read_pcs(path):
    pcs = []
    for line in open(path):
        m = re.match(r"^Trace \d+: 0x[0-9a-f]+ \[[0-9a-f]+/([0-9a-f]+)/", line)
        if m:
            pcs.append(int(m.group(1), 16))
    return pcs


def kind(mn, ops):
    """What the instruction does, by the specification's itype table."""
    if mn in ("beq", "bne", "blt", "bge", "bltu", "bgeu", "c.beqz", "c.bnez"):
        return "branch"
    if mn in ("jal", "c.j", "c.jal"):
        rd = ops[0] if mn == "jal" else ("x1" if mn == "c.jal" else "x0")
        return "call" if rd in LINK else "jump"
    if mn in ("jalr", "c.jr", "c.jalr"):
        if mn == "jalr":
            rd, rs = ops[0], re.sub(r".*\((x\d+)\)", r"\1", ops[1])
        else:
            rd, rs = ("x0" if mn == "c.jr" else "x1"), ops[0]
        if rd in LINK:
            return "swap" if rs in LINK and rs != rd else "icall"
        return "return" if rs in LINK else "ijump"
    if mn in ("ecall", "ebreak", "c.ebreak"):
        return "trap"
    return "other"


class Writer:
    """Messages as bytes: 6 MDO bits and 2 MSEO bits a byte."""

    def __init__(self, opts):
        self.out = bytearray()
        self.src = opts.get("src")
        self.count = 0

    def message(self, tcode, fields):
        bits, ends = [], set()

        def put(v, n):
            bits.extend((v >> i) & 1 for i in range(n))

        put(tcode, 6)
        if self.src:
            put(self.src[1], self.src[0])
        for kind_, v, n in fields:
            if kind_ == "fix":
                put(v, n)
            else:
                put(v, max(1, v.bit_length()))
                while len(bits) % 6:
                    bits.append(0)
                ends.add(len(bits) // 6 - 1)
        while len(bits) % 6:
            bits.append(0)
        n = len(bits) // 6
        for k in range(n):
            mdo = sum(bits[6 * k + i] << i for i in range(6))
            mseo = 3 if k == n - 1 else (1 if k in ends else 0)
            self.out.append(mdo << 2 | mseo)
        self.count += 1


def fix(v, n):
    return ("fix", v, n)


def var(v):
    return ("var", v, 0)


class Encoder:
    def __init__(self, opts, w):
        self.o, self.w = opts, w
        self.htm = opts.get("mode", "htm") == "htm"
        self.depth = int(opts.get("callstack", "0"))
        self.icnt_lim = int(opts.get("icnt", "0"), 0) or 1 << 22
        self.hist_lim = int(opts.get("hist", "0"), 0) or 1 << 30
        self.repeat = opts.get("repeat") == "1"
        self.ts = opts.get("ts") in ("1", "full")
        self.time = 0
        self.dropping = False
        self.reset(0)
        self.rf = None       # (HIST value, count) held for RCODE 2
        self.rep = None      # (message, count) held for RepeatBranch

    def reset(self, pc):
        self.icnt, self.hist, self.ref, self.stack = 0, 1, pc, []
        self.last_branch = None

    def emit(self, tcode, fields, sync=False):
        if tcode not in (27,):
            self.flush_rf()
        if tcode != 30:
            self.flush_rep()
        self.raw(tcode, fields, sync)

    def raw(self, tcode, fields, sync):
        if self.ts:
            absolute = sync or self.o.get("ts") == "full"
            stamp = self.time if absolute else self.time - self.last_time
            self.last_time = self.time
            fields = fields + [var(stamp)]
        if not self.dropping:
            self.w.message(tcode, fields)

    def flush_rf(self):
        if self.rf:
            v, n = self.rf
            self.rf = None
            if n == 1:
                self.raw(27, [fix(1, 4), var(v)], False)
            else:
                self.raw(27, [fix(2, 4), var(v), var(n)], False)

    def flush_rep(self):
        if self.rep:
            n = self.rep[1]
            self.rep = None
            self.raw(30, [var(n)], False)

    def branch_msg(self, tcode, fields, key):
        """A branch message, or one more repeat of the last one."""
        if self.repeat and key == self.last_branch:
            self.flush_rf()
            if self.rep:
                self.rep = (None, self.rep[1] + 1)
            else:
                self.rep = (None, 1)
            return
        self.emit(tcode, fields)
        self.last_branch = key

    def indirect(self, pc, btype):
        """IndirectBranch(Hist) to @pc, the next instruction."""
        uaddr = (self.ref ^ pc) >> 1
        if self.htm and self.hist != 1:
            self.branch_msg(28, [fix(btype, 2), var(self.icnt), var(uaddr),
                                 var(self.hist)],
                            (28, btype, self.icnt, self.hist, pc))
        else:
            self.branch_msg(4, [fix(btype, 2), var(self.icnt), var(uaddr)],
                            (4, btype, self.icnt, pc))
        self.ref = pc
        self.icnt, self.hist = 0, 1

    def sync(self, pc, reason, tcode=9):
        fields = [fix(reason, 4)]
        if tcode == 29:
            fields.append(fix(0, 2))
        fields += [var(self.icnt), var(pc >> 1)]
        if tcode == 29:
            fields.append(var(self.hist))
        self.emit(tcode, fields, sync=True)
        self.reset(pc)

    def resource_full_hist(self, v):
        if self.repeat and self.rf and self.rf[0] == v:
            self.rf = (v, self.rf[1] + 1)
            return
        self.flush_rf()
        self.rf = (v, 1)
        if not self.repeat:
            self.flush_rf()


def main():
    objd, log, out = sys.argv[1:4]
    opts = dict(a.split("=", 1) for a in sys.argv[4:])
    if "src" in opts:
        b, i = opts["src"].split(",")
        opts["src"] = (int(b), int(i))
    code, pcs = read_code(objd), read_pcs(log)
    w = Writer(opts)
    e = Encoder(opts, w)
    period = int(opts.get("sync", "0"))
    drop = [int(x) for x in opts["drop"].split(",")] if "drop" in opts else None
    idle = opts.get("idle") == "1"
    pending = None          # the message the next instruction's PC completes
    since_sync = 0
    for i, pc in enumerate(pcs):
        e.time = 1000 + 3 * i
        size, mn, ops = code[pc]
        k = kind(mn, ops)
        if i == 0:
            e.sync(pc, 3)
        elif pending is not None:
            e.indirect(pc, pending)
            pending = None
        elif drop and w.count >= drop[0] and not e.dropping and drop[1]:
            e.dropping = True
        elif period and since_sync >= period:
            if idle:
                w.out += b"\xff\xff"
            if e.htm:
                e.sync(pc, 2, 29)
            else:
                e.sync(pc, 2, 9)
            since_sync = 0
        if e.dropping and drop and w.count + 0 >= drop[0]:
            drop[1] -= 1
            if drop[1] <= 0:
                # Room again: say messages were lost, then resynchronize.
                e.dropping = False
                e.flush_rf()
                e.flush_rep()
                e.raw(8, [fix(0, 4), var(4)], False)
                e.sync(pc, 7)
                drop = None
        if k == "trap":
            # The program's exit: ecall does not retire; trace stops.
            f = [fix(4, 4), fix(1 if e.htm else 0, 2), var(e.icnt)]
            if e.htm:
                f.append(var(e.hist))
            e.emit(33, f)
            break
        prev_icnt = e.icnt
        e.icnt += size // 2
        nxt = pcs[i + 1]
        since_sync += 1
        if k == "branch":
            taken = nxt != pc + size
            if e.htm:
                e.hist = e.hist << 1 | taken
            elif taken:
                e.branch_msg(3, [var(e.icnt)], (3, e.icnt))
                e.icnt = 0
        elif k == "call":
            if e.depth:
                e.stack = (e.stack + [pc + size])[-e.depth:]
        elif k in ("icall", "ijump", "return", "swap"):
            predicted = False
            if k in ("return", "swap") and e.depth and e.stack:
                predicted = e.stack.pop() == nxt
            if k in ("icall", "swap") and e.depth:
                e.stack = (e.stack + [pc + size])[-e.depth:]
            if not predicted:
                pending = 0
        if e.icnt > e.icnt_lim:
            e.flush_rf()
            e.emit(27, [fix(0, 4), var(prev_icnt)])
            e.icnt = size // 2
        if e.htm and e.hist & e.hist_lim:
            e.resource_full_hist(e.hist >> 1)
            e.hist = 0b10 | (e.hist & 1)
    e.flush_rf()
    e.flush_rep()
    open(out, "wb").write(w.out)


main()
