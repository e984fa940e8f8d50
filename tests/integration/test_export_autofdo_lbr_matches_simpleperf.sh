# hwtrace export --to autofdo on the real LBR capture
# (perf-data/simpleperf-lbr/perf_lbr.data; the binary is not available)
# against simpleperf's own AutoFDO text of it (inject_lbr.data), in the
# same binary-relative addresses: without the binary they are taken from
# where the binary's mappings put file offset 0 (its r--p mapping; the
# r-xp one says offset 0 too, simpleperf wrote it so).
# - Branches: equal, both of them with their counts (the 386th record
#   leaves the kernel, which AutoFDO's file leaves out).
# - Ranges: simpleperf's two, with their counts, and one more, 1948-194d
#   once. simpleperf pairs entry i-1's target with entry i's branch, the
#   reverse of AutoFDO's sample_reader (entry 0 is the newest: the range
#   runs from entry i+1's target to entry i's branch). In the loops'
#   32-record samples every record is the same and both pairings agree;
#   the one sample of two records (a return from the kernel to 0x1948,
#   then 194d->1940) gives 1948-194d in AutoFDO's pairing and nothing in
#   simpleperf's (its range would end in the kernel). The same records
#   paired simpleperf's way give its ranges exactly.
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"
# tests/tools/branch_samples.py: a decode's branch records by sample.
export PYTHONPATH="$HWT_SOURCE_DIR/tests/tools${PYTHONPATH:+:$PYTHONPATH}"
src="$HWT_TESTDATA/perf-data/simpleperf-lbr"
golden="$src/inject_lbr.data"
"$HWTRACE" export "$src/perf_lbr.data" --to autofdo -o "$TMP/lbr" \
	2>"$TMP/export.err" || fail "export: $(cat "$TMP/export.err")"
txt="$TMP/lbr.lbr_test_loop.afdo.txt"
sections() { sed '/^\/\//d; /^$/d' "$1"; }
ranges() { sections "$1" | awk 'NR == 1 { n = $1; next } NR <= n + 1'; }
branches() { sections "$1" | grep -- '->'; }
expect_eq "branches: simpleperf's" "$(branches "$txt")" "$(branches "$golden")"
expect_eq "ranges: simpleperf's and 1948-194d once" \
	"$(ranges "$txt" | grep -vx '1948-194d:1')" "$(ranges "$golden")"
expect_eq "the one range more" "$(diff <(ranges "$txt") <(ranges "$golden") | grep '^[<>]')" \
	"< 1948-194d:1"
expect_eq "3 ranges, no addresses, 2 branches" \
	"$(sections "$txt" | grep -vc -- '[-:]') $(sections "$txt" | sed -n 1p)" "3 3"
expect_contains "the binary named" "$(cat "$txt")" "// /home/yabinc/lbr_test_loop"
expect_contains "stderr: 373 ranges (12 x 31 + 1) and 386 branches" "$(cat "$TMP/export.err")" \
	"373 ranges (0 ended without a taken branch) and 386 taken branches; 3 distinct ranges and 2 distinct branches in 1 files"

# --branch-profile counts the same branches, at file offsets as the
# mappings record them (the r-xp mapping's offset 0: 0x94d, not 0x194d).
expect_eq "--branch-profile: the golden's branch counts" \
	"$("$HWTRACE" decode --branch-profile "$src/perf_lbr.data" 2>/dev/null | awk '{ print $1, $2 }')" \
	"/home/yabinc/lbr_test_loop+0x94d->/home/yabinc/lbr_test_loop+0x940 353
/home/yabinc/lbr_test_loop+0x91b->/home/yabinc/lbr_test_loop+0x910 32
0xffffffffa9e01917->/home/yabinc/lbr_test_loop+0x948 1"

# The records, paired simpleperf's way (entry i-1's target, entry i's
# branch; both in the binary, the range at most 1 MiB), in the binary's
# addresses (the lowest mapping of lbr_test_loop is 0x5597dfefc000).
"$HWTRACE" decode --format jsonl "$src/perf_lbr.data" >"$TMP/lbr.jsonl" 2>/dev/null
expect_eq "simpleperf's pairing of the records gives its ranges" "$(python3 - "$TMP/lbr.jsonl" <<'PY'
import collections, json, sys
from branch_samples import branch_samples
base, size = 0x5597dfefc000, 0x4000
inside = lambda a: base <= a < base + size
count = collections.Counter()
for recs in branch_samples(sys.argv[1]):  # entry 0 first
    for i in range(1, len(recs)):
        begin, end = int(recs[i - 1]["to"], 16), int(recs[i]["from"], 16)
        if inside(begin) and inside(end) and begin <= end < begin + (1 << 20):
            count[(begin - base, end - base)] += 1
for (a, b), n in sorted(count.items()):
    print("%x-%x:%d" % (a, b, n))
PY
)" "$(ranges "$golden")"
finish
