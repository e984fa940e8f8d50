# insn_at.py: the instruction at a run-time address of a sw_branch
# capture, as objdump -d reads it, for oracles that must not take
# hwtrace's own reading (cond_branches.py, indirect_calls.py). The
# address's file and file offset are those of the r-xp mapping perf
# script --show-mmap-events gives; its address in the file is the
# offset's PT_LOAD segment's, per readelf -lW.
import re, subprocess


class Mappings:
    def __init__(self, data):
        out = subprocess.run(["perf", "script", "--show-mmap-events", "-i", data],
                             capture_output=True, text=True).stdout
        self.maps = [(int(m[1], 16), int(m[2], 16), int(m[3], 16), m[4])
                     for m in re.finditer(r"MMAP2 .*?\[(0x[0-9a-f]+)\((0x[0-9a-f]+)\) @ (0x[0-9a-f]+) .*?\]: r-xp (\S+)", out)]
        self.loads = {}

    def _vaddr(self, path, off):
        if path not in self.loads:
            ph = subprocess.run(["readelf", "-lW", path], capture_output=True, text=True).stdout
            self.loads[path] = [(int(l.split()[1], 16), int(l.split()[2], 16), int(l.split()[4], 16))
                                for l in ph.splitlines() if l.split()[:1] == ["LOAD"]]
        for o, v, sz in self.loads[path]:
            if o <= off < o + sz:
                return off - o + v

    def insn(self, addr):
        """objdump's line for the instruction at @addr, split at its
        tabs' last field into words (mnemonic first); None when no r-xp
        mapping perf lists holds @addr (the vdso)."""
        m = next((x for x in self.maps if x[0] <= addr < x[0] + x[1]), None)
        if m is None:
            return None
        v = self._vaddr(m[3], addr - m[0] + m[2])
        dis = subprocess.run(["objdump", "-d", "--start-address=%#x" % v,
                              "--stop-address=%#x" % (v + 16), m[3]],
                             capture_output=True, text=True).stdout
        line = [l for l in dis.splitlines() if re.match(r"\s+[0-9a-f]+:\t", l)][0]
        return line.split("\t")[2].split()
