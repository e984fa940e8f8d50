import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from insn_at import Mappings
# cond_branches.py DATA TRUTH: prints the `from` address of each branch of
# TRUTH (lines "FROM TO KIND TIME", a sw_branch capture DATA's branches)
# whose instruction objdump -d reads as a conditional jump (jcc, jrcxz,
# loop*: not jmp), once per address: an oracle of the taken conditional
# branches that does not take hwtrace's kinds.
data, truth = sys.argv[1], sys.argv[2]
maps = Mappings(data)
seen = set()
for line in open(truth):
    f = line.split()[0]
    if f in seen:
        continue
    seen.add(f)
    words = maps.insn(int(f, 16))
    if words is None:
        continue  # the vdso or a mapping perf does not list: not ours
    mnem = words[0]
    if (mnem.startswith("j") and mnem != "jmp") or mnem.startswith("loop"):
        print(f)
