# hwtrace export --to sqlite against perf's own export-to-sqlite.py on the
# same sw_branch capture of call_tree (fib(12): 465 calls, longjmp, a tail
# call, a signal handler, two threads): the same tables, views and
# columns, the same branch types, the same number of branch samples per
# type as perf's `--itrace=b` export, and the same calls per (caller,
# callee) as perf's calls table, except where perf's heuristics differ
# (the cases named in test_stacks_match_program_and_perf.sh). Context
# switches: on quipper's Intel PT capture (152 SWITCH_CPU_WIDE records)
# the same context_switches rows as perf's export (time, cpu, the threads
# out and in with their comm then, flags). Bad input: an existing
# database without --replace, a full disk, /dev/full, an unwritable
# directory.
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"
PROG="$HWT_BUILD_DIR/tests/programs/call_tree"
PERF=${PERF:-perf}
EXPORT=/usr/lib/perf-core/scripts/python/export-to-sqlite.py
data="$TMP/ct.data"
command -v "$PERF" >/dev/null || { fail "perf is not installed (Debian: linux-perf)"; finish; exit 1; }

"$HWTRACE" record -e sw_branch --start main --stop tree_done -o "$data" \
	-- "$PROG" >"$TMP/program.txt" 2>"$TMP/record.err" ||
	{ cat "$TMP/record.err" >&2; fail "record"; finish; exit 1; }
want() { awk -v c="$1" -v e="$2" '$1 == c && $2 == e { print $3 }' "$TMP/program.txt"; }

"$HWTRACE" export "$data" --to sqlite -o "$TMP/hw.db" 2>"$TMP/export.err" ||
	fail "export: $(cat "$TMP/export.err")"
# perf: calls from its default itrace (calls only), samples from --itrace=b.
(cd "$TMP" && "$PERF" script -i "$data" -s "$EXPORT" perf.db branches calls \
	>"$TMP/perf.out" 2>&1) || fail "perf export: $(tail -3 "$TMP/perf.out")"
(cd "$TMP" && "$PERF" script -i "$data" --itrace=b -s "$EXPORT" perfb.db \
	branches calls >"$TMP/perfb.out" 2>&1) ||
	fail "perf export --itrace=b: $(tail -3 "$TMP/perfb.out")"

q() { python3 -c 'import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
for r in db.execute(sys.argv[2], sys.argv[3:]): print("|".join(map(str, r)))' "$@"; }
# Every table, view and index with its columns, in perf's order.
schema() {
	python3 - "$1" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
for t, n in db.execute("select type, name from sqlite_master order by type, name"):
    cols = [r[1] for r in db.execute("pragma table_info(%s)" % n)] if t != "index" else []
    print(t, n, ",".join(cols))
PY
}
expect_eq "tables, views, indexes and columns = perf's" "$(schema "$TMP/hw.db")" \
	"$(schema "$TMP/perf.db")"
expect_eq "branch_types = perf's" "$(q "$TMP/hw.db" 'select * from branch_types order by id')" \
	"$(q "$TMP/perf.db" 'select * from branch_types order by id')"
expect_eq "machines = perf's" "$(q "$TMP/hw.db" 'select * from machines')" \
	"$(q "$TMP/perf.db" 'select * from machines')"
expect_eq "dsos (name, path, build id) = perf's" \
	"$(q "$TMP/hw.db" 'select short_name, long_name, build_id from dsos order by short_name')" \
	"$(q "$TMP/perf.db" 'select short_name, long_name, build_id from dsos order by short_name')"
expect_eq "threads (pid, tid) = perf's" \
	"$(q "$TMP/hw.db" 'select pid, tid from threads order by tid')" \
	"$(q "$TMP/perf.db" 'select pid, tid from threads order by tid')"
expect_eq "comms of the threads = perf's" \
	"$(q "$TMP/hw.db" 'select tid, comm from comm_threads_view v join comms c on c.id = v.comm_id order by tid')" \
	"$(q "$TMP/perf.db" 'select tid, comm from comm_threads_view v join comms c on c.id = v.comm_id order by tid')"

# Samples: one per branch and per trace begin/end, as perf's --itrace=b.
nb=$(q "$TMP/hw.db" 'select count(*) from samples where id > 0')
expect_eq "branch samples = perf --itrace=b's" "$nb" \
	"$(q "$TMP/perfb.db" 'select count(*) from samples where id > 0')"
expect_eq "branch samples = hwtrace decode's branches + trace on/off" "$nb" \
	"$("$HWTRACE" decode "$data" --format jsonl 2>/dev/null | grep -c '"type":"\(branch\|trace_on\|trace_off\)"')"
# Per branch type: the same, except the signal delivery, which perf's BTS
# decoding leaves without a type (0) and hwtrace calls a hardware
# interrupt (99, an asynchronous call).
types() { q "$1" "select branch_type, count(*) from samples where id > 0 and branch_type not in (0, 99) group by 1"; }
expect_eq "samples per branch type = perf's" "$(types "$TMP/hw.db")" "$(types "$TMP/perfb.db")"
expect_eq "the signal delivery: hwtrace" "$(q "$TMP/hw.db" 'select count(*) from samples where branch_type = 99')" "1"
expect_eq "the signal delivery: perf" "$(q "$TMP/perfb.db" 'select count(*) from samples where id > 0 and branch_type = 0')" "1"
expect_eq "samples name perf's symbols (ip, symbol, offset)" \
	"$(q "$TMP/hw.db" "select printf('%x', ip), (select name from symbols where id = symbol_id), sym_offset from samples where branch_type = 3 and symbol_id > 0 order by id limit 20")" \
	"$(q "$TMP/perfb.db" "select printf('%x', ip), (select name from symbols where id = symbol_id), sym_offset from samples where branch_type = 3 and symbol_id > 0 order by id limit 20")"

# Calls per (caller, callee); '*' for any caller.
calls() {
	q "$1" "select count(*) from calls c join call_paths cp on c.call_path_id = cp.id
		join symbols s on cp.symbol_id = s.id join call_paths pp on cp.parent_id = pp.id
		join symbols p on pp.symbol_id = p.id where s.name = ? and (? = '*' or p.name = ?)" \
		"$3" "$2" "$2"
}
expect_eq "fib: 465 calls, as the program counts" "$(calls "$TMP/hw.db" '*' fib)" "465"
for f in fib dive jump_outer tail_caller worker leaf; do
	expect_eq "calls of $f: hwtrace = perf" "$(calls "$TMP/hw.db" '*' "$f")" \
		"$(calls "$TMP/perf.db" '*' "$f")"
done
for edge in "main fib" "fib fib" "dive dive" "thread_main worker"; do
	set -- $edge
	expect_eq "calls $1 -> $2: hwtrace = perf" "$(calls "$TMP/hw.db" "$1" "$2")" \
		"$(calls "$TMP/perf.db" "$1" "$2")"
done
# Where they differ, by perf's rules (test_stacks_match_program_and_perf.sh):
# no tail calls in perf; a signal delivery is no call in perf; perf nests
# leaf's later calls under its first (no return) where hwtrace matches
# each return to its call as the program counts.
expect_eq "tail_target: hwtrace's call from main = the program's" \
	"$(calls "$TMP/hw.db" main tail_target)" "$(want tail_caller tail_target)"
expect_eq "tail_target: perf none" "$(calls "$TMP/perf.db" '*' tail_target)" "0"
expect_eq "on_signal: hwtrace = the program's" "$(calls "$TMP/hw.db" '*' on_signal)" "$(want signal on_signal)"
expect_eq "on_signal: perf none" "$(calls "$TMP/perf.db" '*' on_signal)" "0"
expect_eq "worker -> leaf: hwtrace 3 per thread" "$(calls "$TMP/hw.db" worker leaf)" "6"
expect_eq "worker -> leaf: perf once per thread" "$(calls "$TMP/perf.db" worker leaf)" "2"
expect_eq "leaf -> leaf: hwtrace none" "$(calls "$TMP/hw.db" leaf leaf)" "0"
# The trace starts inside main: both have one main row under the root,
# hwtrace's flagged "no call/return": never called in the trace and
# still running when tracing stops (perf makes it a call from unknown).
expect_eq "main: one 'no call' row" "$(q "$TMP/hw.db" "select count(*), flags from calls_view where symbol = 'main' group by flags")" "1|no call/return"
# longjmp: five dive frames end without their return.
expect_eq "dive: 5 'no return' rows" "$(q "$TMP/hw.db" "select count(*) from calls_view where symbol = 'dive' and flags = 'no return'")" \
	"$(want unwound dive)"
# The views perf's viewer reads work on the file.
expect_eq "calls_view: fib's rows" "$(q "$TMP/hw.db" "select count(*) from calls_view where symbol = 'fib'")" "465"
expect_eq "samples_view: calls of fib" "$(q "$TMP/hw.db" "select count(*) from samples_view where to_symbol = 'fib' and branch_type_name = 'call'")" "465"
expect_contains "stderr: branch samples" "$(cat "$TMP/export.err")" "branch samples"
expect_contains "stderr: what was skipped" "$(cat "$TMP/export.err")" "skipped: 0 gaps"

# One thread or a writer thread (-j): the same database, row for row.
for j in 1 2; do
	"$HWTRACE" export "$data" --to sqlite -j "$j" -o "$TMP/j$j.db" 2>/dev/null ||
		fail "export -j $j"
	python3 -c 'import sqlite3, sys
for line in sqlite3.connect(sys.argv[1]).iterdump(): print(line)' \
		"$TMP/j$j.db" >"$TMP/j$j.sql"
done
expect_eq "-j 1 and -j 2: the same database" "$(cmp -s "$TMP/j1.sql" "$TMP/j2.sql" && echo same)" "same"
expect_eq "-j 1: every sample in it" "$(grep -c '^INSERT INTO "samples"' "$TMP/j1.sql")" "$((nb + 1))"
"$HWTRACE" export "$data" --to sqlite -j 0 -o "$TMP/j0.db" 2>"$TMP/j0.err"
expect_eq "-j 0: usage error" "$?" "2"
expect_contains "-j 0: says the range" "$(cat "$TMP/j0.err")" "--jobs 0"

# Without symbols: addresses kept, every sample's symbol unknown, counted.
"$HWTRACE" export "$data" --to sqlite --no-symbols -o "$TMP/ns.db" 2>"$TMP/ns.err" ||
	fail "export --no-symbols"
expect_eq "--no-symbols: only the unknown symbol" "$(q "$TMP/ns.db" 'select count(*) from symbols')" "1"
expect_eq "--no-symbols: addresses kept" \
	"$(q "$TMP/ns.db" 'select count(*) from samples where id > 0 and (ip > 0 or to_ip > 0)')" "$nb"
expect_contains "--no-symbols: every sample counted as unnamed" "$(cat "$TMP/ns.err")" \
	"; $nb samples in code no symbol names"

# Bad input: an existing database is kept unless --replace.
before=$(cksum <"$TMP/hw.db")
"$HWTRACE" export "$data" --to sqlite -o "$TMP/hw.db" 2>"$TMP/again.err"
expect_eq "second export without --replace: exit 2" "$?" "2"
expect_contains "second export: says why" "$(cat "$TMP/again.err")" "give --replace"
expect_eq "second export: database untouched" "$(cksum <"$TMP/hw.db")" "$before"
"$HWTRACE" export "$data" --to sqlite -o "$TMP/hw.db" --replace 2>/dev/null
expect_eq "--replace: exit 0" "$?" "0"
expect_eq "--replace: same samples" "$(q "$TMP/hw.db" 'select count(*) from samples where id > 0')" "$nb"
# No room to write (a file size limit, as a full disk; --per-cpu so the
# merge's temporary file is not what hits it): exit 1, the database as it
# was, no temporary file left.
before=$(cksum <"$TMP/hw.db")
(ulimit -f 50; trap '' XFSZ; exec "$HWTRACE" export "$data" --per-cpu --to sqlite \
	--replace -o "$TMP/hw.db") 2>"$TMP/full.err"
expect_eq "no room: exit 1" "$?" "1"
expect_contains "no room: says so" "$(cat "$TMP/full.err")" "$TMP/hw.db: COMMIT: disk I/O error"
expect_eq "no room: database untouched" "$(cksum <"$TMP/hw.db")" "$before"
expect_eq "no room: no temporary file left" "$(ls "$TMP" | grep -c 'hw.db.tmp')" "0"
mkdir "$TMP/ro" && chmod 555 "$TMP/ro"
if [ "$(id -u)" = 0 ]; then ro="/proc/hwtrace-export.db"; else ro="$TMP/ro/x.db"; fi
"$HWTRACE" export "$data" --to sqlite -o "$ro" 2>"$TMP/ro.err"
rc=$?
expect_eq "unwritable output: refused" "$([ "$rc" -ne 0 ] && echo yes)" "yes"
expect_eq "unwritable output: nothing written" "$([ -e "$ro" ] && echo exists)" ""
expect_contains "unwritable output: names it" "$(cat "$TMP/ro.err")" "$ro"
# /dev/full is no database file: refused before anything is written, with
# or without --replace (the device is not replaced by a file), and the
# message does not suggest the --replace that would be refused too.
"$HWTRACE" export "$data" --to sqlite -o /dev/full 2>"$TMP/devfull.err"
expect_eq "/dev/full: exit 2" "$?" "2"
expect_contains "/dev/full: not a file to replace" "$(cat "$TMP/devfull.err")" \
	"/dev/full is a character device"
expect_eq "/dev/full: --replace not suggested" "$(grep -c -- --replace "$TMP/devfull.err")" 0
"$HWTRACE" export "$data" --to sqlite --replace -o /dev/full 2>"$TMP/devfull.err"
expect_eq "/dev/full --replace: exit 2" "$?" "2"
expect_contains "/dev/full --replace: not a file to replace" "$(cat "$TMP/devfull.err")" \
	"/dev/full is a character device"
expect_eq "/dev/full: still the device" "$(stat -c %F /dev/full)" "character special file"

# Context switches, against perf's export of the same capture.
cp "$HWT_TESTDATA/perf-data/quipper/perf.data.intel_pt-4.14" "$TMP/q.data"
"$HWTRACE" export "$TMP/q.data" --to sqlite -o "$TMP/q.db" 2>"$TMP/q.err" ||
	fail "export q.data: $(cat "$TMP/q.err")"
(cd "$TMP" && "$PERF" script -i q.data -s "$EXPORT" pq.db branches calls \
	>"$TMP/pq.out" 2>&1) || fail "perf export q.data: $(tail -3 "$TMP/pq.out")"
sw='select id, machine_id, time, cpu, pid_out, tid_out, comm_out, pid_in, tid_in, comm_in, flags from context_switches_view order by id'
expect_eq "context_switches_view = perf's" "$(q "$TMP/q.db" "$sw")" "$(q "$TMP/pq.db" "$sw")"
expect_eq "context switches: 60 of the 152 records (perf leaves out idle/unknown pairs)" \
	"$(q "$TMP/q.db" 'select count(*) from context_switches')" "60"
expect_eq "context switches: perf's table has as many" \
	"$(q "$TMP/pq.db" 'select count(*) from context_switches')" "60"
expect_eq "context switches: threads switched in and out, by name then" \
	"$(q "$TMP/q.db" 'select comm_out, comm_in, flags, count(*) from context_switches_view group by 1, 2, 3 order by 1, 2, 3')" \
	"$(q "$TMP/pq.db" 'select comm_out, comm_in, flags, count(*) from context_switches_view group by 1, 2, 3 order by 1, 2, 3')"
expect_contains "stderr: context switches counted" "$(cat "$TMP/q.err")" "60 context switches"
expect_eq "the capture's switch records" "$("$HWTRACE" dump "$TMP/q.data" | grep -c 'PERF_RECORD_SWITCH_CPU_WIDE')" "152"
finish
