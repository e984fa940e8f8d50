import re, subprocess, sys
# cond_branches.py DATA TRUTH: prints the `from` address of each branch of
# TRUTH (lines "FROM TO KIND TIME", a sw_branch capture DATA's branches)
# whose instruction objdump -d reads as a conditional jump (jcc, jrcxz,
# loop*: not jmp), once per address: an oracle of the taken conditional
# branches that does not take hwtrace's kinds. The instruction's file
# and address come as in indirect_calls.py: the r-xp mapping perf script
# --show-mmap-events gives, the file offset's PT_LOAD per readelf -lW.
data, truth = sys.argv[1], sys.argv[2]
maps = []
out = subprocess.run(["perf", "script", "--show-mmap-events", "-i", data],
                     capture_output=True, text=True).stdout
for m in re.finditer(r"MMAP2 .*?\[(0x[0-9a-f]+)\((0x[0-9a-f]+)\) @ (0x[0-9a-f]+) .*?\]: r-xp (\S+)", out):
    maps.append((int(m[1], 16), int(m[2], 16), int(m[3], 16), m[4]))
loads = {}
def vaddr(path, off):
    if path not in loads:
        ph = subprocess.run(["readelf", "-lW", path], capture_output=True, text=True).stdout
        loads[path] = [(int(l.split()[1], 16), int(l.split()[2], 16), int(l.split()[4], 16))
                       for l in ph.splitlines() if l.split()[:1] == ["LOAD"]]
    for o, v, sz in loads[path]:
        if o <= off < o + sz:
            return off - o + v
seen = set()
for line in open(truth):
    f = line.split()[0]
    if f in seen:
        continue
    seen.add(f)
    a = int(f, 16)
    m = next((x for x in maps if x[0] <= a < x[0] + x[1]), None)
    if m is None:
        continue  # the vdso or a mapping perf does not list: not ours
    v = vaddr(m[3], a - m[0] + m[2])
    dis = subprocess.run(["objdump", "-d", "--start-address=%#x" % v,
                          "--stop-address=%#x" % (v + 16), m[3]],
                         capture_output=True, text=True).stdout
    insn = [l for l in dis.splitlines() if re.match(r"\s+[0-9a-f]+:\t", l)][0]
    mnem = insn.split("\t")[2].split()[0]
    if (mnem.startswith("j") and mnem != "jmp") or mnem.startswith("loop"):
        print(f)
