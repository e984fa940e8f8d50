import re, subprocess, sys
# indirect_calls.py DATA TRUTH: prints the `from` address of each call of
# TRUTH (lines "FROM TO KIND TIME", a sw_branch capture DATA's branches)
# that is indirect (`call *...`), as objdump -d reads the instruction
# there: its file and file offset are those perf script
# --show-mmap-events gives for the address, its address in the file the
# offset's PT_LOAD segment's per readelf -lW. A call objdump does not
# read as a call stops the script: the oracle disagrees with the truth.
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
# A call site's instruction is read once, however often it runs.
seen = {}
for line in open(truth):
    f, t, k, tm = line.split()
    if k != "call":
        continue
    if f in seen:
        if seen[f]:
            print(f)
        continue
    a = int(f, 16)
    m = next(x for x in maps if x[0] <= a < x[0] + x[1])
    v = vaddr(m[3], a - m[0] + m[2])
    dis = subprocess.run(["objdump", "-d", "--start-address=%#x" % v,
                          "--stop-address=%#x" % (v + 16), m[3]],
                         capture_output=True, text=True).stdout
    insn = [l for l in dis.splitlines() if re.match(r"\s+[0-9a-f]+:\t", l)][0]
    mnem = insn.split("\t")[2].split()
    assert mnem[0] == "call", insn
    seen[f] = mnem[1].startswith("*")
    if seen[f]:
        print(f)
