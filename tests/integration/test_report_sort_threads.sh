# report --sort tid, comm and srcline on a sw_branch capture of
# tests/programs/threads_path (main and two threads running thread_main),
# against perf report --sort pid,sym and comm,sym on the same file:
# - tid: a row per function and thread; the threads are perf's (its pid
#   key is the thread), each function both tools name is in the same
#   threads, thread_main is in the two worker threads only, and each
#   thread's self instructions add up to its instructions in `decode
#   --format jsonl` (the ranges' insns by tid);
# - comm: the names are perf's;
# - srcline alone is the --srcline table; with another key, or tid with
#   two captures, a usage error.
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"
P="$HWT_BUILD_DIR/tests/programs"
cd "$TMP" || exit 1

"$HWTRACE" record -e sw_branch -q -o th.data -- "$P/threads_path" >/dev/null 2>record.err ||
	{ fail "record: $(tail -3 record.err)"; finish; exit 1; }
"$HWTRACE" report th.data --top 0 --sort tid,sym >tid.txt 2>report.err ||
	fail "report --sort tid,sym: $(cat report.err)"
# "TID<TAB>SYM" of the rows (tid, dso and function are the last three).
grep -v '^#' tid.txt | awk '{ print $(NF - 2) "\t" $NF }' | LC_ALL=C sort -u >hwt.pairs
expect_eq "sorted by tid, then name" \
	"$(grep -v '^#' tid.txt | awk '{ print $(NF - 2) "\t" $NF }' | LC_ALL=C sort -c -t "$(printf '\t')" -k1,1n -k2,2 2>&1)" ""
expect_eq "three threads" "$(cut -f1 hwt.pairs | sort -u | wc -l)" 3

command -v perf >/dev/null || { fail "perf is not installed (Debian: linux-perf)"; finish; exit 1; }
perf report -i th.data --force --no-children --sort pid,sym --stdio -t '|' \
	2>perf.err >perf.txt || fail "perf report: $(tail -3 perf.err)"
# perf's rows: "  SELF%|TID:COMM|[.] SYM"; its [unknown] row at address 0
# is the kernel's entry into the program, no code.
grep -v '^#' perf.txt | grep . | awk -F'|' '{
	t = $2; s = $3; gsub(/^ +| +$/, "", t); sub(/:.*/, "", t); sub(/^ *\[.\] /, "", s)
	sub(/ +$/, "", s); print t "\t" s }' | grep -v '	0*$' | LC_ALL=C sort -u >perf.pairs
expect_eq "perf report read the capture (positive control)" \
	"$(awk -F'\t' '$2 == "thread_main"' perf.pairs | wc -l)" 2
expect_eq "the threads: perf's" "$(cut -f1 hwt.pairs | sort -u)" "$(cut -f1 perf.pairs | sort -u)"
# Each function both name: in the same threads.
awk -F'\t' 'NR == FNR { p[$2] = p[$2] " " $1; next } { h[$2] = h[$2] " " $1 }
	END { for (k in h) if (k in p && p[k] != h[k]) print k ":" h[k] " vs" p[k] }' \
	perf.pairs hwt.pairs >differ.txt
expect_eq "functions both name: the same threads" "$(head -n 5 differ.txt)" ""
expect_eq "functions both name (some)" \
	"$(awk -F'\t' 'NR == FNR { p[$2]; next } $2 in p' perf.pairs hwt.pairs | wc -l | awk '{ print ($1 > 50) }')" 1
main_tid=$(awk -F'\t' '$2 == "main" { print $1 }' hwt.pairs)
expect_eq "thread_main: the two other threads" \
	"$(awk -F'\t' -v m="$main_tid" '$2 == "thread_main" && $1 != m' hwt.pairs | wc -l)" 2
# Each thread's self instructions: its instructions in the decode.
"$HWTRACE" decode th.data --format jsonl --no-symbols -o th.jsonl 2>/dev/null || fail "decode"
python3 - th.jsonl >decode.tids <<'PY'
import collections, json, sys
n = collections.Counter()
for line in open(sys.argv[1]):
    e = json.loads(line)
    if e.get("type") == "range":
        n[e.get("tid")] += e["insns"]
for t in sorted(n):
    print(t, n[t])
PY
grep -v '^#' tid.txt | awk '{ s[$(NF - 2)] += $1 } END { for (t in s) print t, s[t] }' | sort -n >report.tids
expect_eq "each thread's instructions: the decode's" "$(cat report.tids)" "$(cat decode.tids)"

# comm: perf's names.
"$HWTRACE" report th.data --top 0 --sort comm,sym >comm.txt 2>/dev/null || fail "--sort comm,sym"
perf report -i th.data --force --no-children --sort comm,sym --stdio -t '|' 2>/dev/null |
	grep -v '^#' | grep . | awk -F'|' '{ c = $2; gsub(/^ +| +$/, "", c); print c }' | sort -u >perf.comms
expect_eq "comm: perf's names" "$(grep -v '^#' comm.txt | awk '{ print $(NF - 2) }' | sort -u)" \
	"$(cat perf.comms)"
expect_eq "comm: one row per name and function" \
	"$(grep -v '^#' comm.txt | awk '{ print $(NF - 2), $(NF - 1), $NF }' | sort | uniq -d)" ""

# srcline alone is --srcline's table.
"$HWTRACE" report th.data --sort srcline -o s1.txt 2>/dev/null || fail "--sort srcline"
"$HWTRACE" report th.data --srcline -o s2.txt 2>/dev/null || fail "--srcline"
expect_eq "--sort srcline is --srcline" "$(cmp s1.txt s2.txt 2>&1)" ""
"$HWTRACE" report th.data --sort srcline,sym >/dev/null 2>err.txt
expect_eq "--sort srcline,sym: usage error" "$?" 2
expect_contains "--sort srcline,sym: says why" "$(cat err.txt)" "--sort srcline goes alone"
"$HWTRACE" report th.data th.data --sort tid >/dev/null 2>err.txt
expect_eq "--sort tid with two captures: usage error" "$?" 2
finish
