import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from insn_at import Mappings
# indirect_calls.py DATA TRUTH: prints the `from` address of each call of
# TRUTH (lines "FROM TO KIND TIME", a sw_branch capture DATA's branches)
# that is indirect (`call *...`), as objdump -d reads the instruction
# there. A call objdump does not read as a call stops the script: the
# oracle disagrees with the truth.
data, truth = sys.argv[1], sys.argv[2]
maps = Mappings(data)
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
    words = maps.insn(int(f, 16))
    assert words is not None and words[0] == "call", (f, words)
    seen[f] = words[1].startswith("*")
    if seen[f]:
        print(f)
