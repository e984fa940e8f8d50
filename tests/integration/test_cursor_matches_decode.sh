# hwt_capture and its cursors (hwtrace/capture.h) give what `hwtrace decode
# --format jsonl` prints: tests/tools/cursor_dump pulls every element with
# hwt_cursor_next (or hwt_cursor_next_batch) and writes it with the
# library's jsonl writer, at -j 1 and -j 3, on the quipper Intel PT capture
# of testdata, a generated 4-CPU Intel PT capture, a sw_branch capture, a
# raw Intel PT stream and an ETE snapshot directory of testdata;
# --stream gives decode --per-cpu's order, and the cpu, tid and time
# filters decode's --cpu, --tid and --time. The capture's facts are those
# perf report -D and perf's build-id list give for the quipper capture (its
# tasks and last names perf report -D's COMM records, its switches perf
# script's as perf's db-export names their sides, its build-id table perf
# buildid-list's), and
# the losses perf report -D shows in an ETM capture with two of them. The
# units of the 4-CPU and the sw_branch captures, each decoded in a process
# of its own and merged by time, give the whole stream. At one job the
# cursor decodes on the caller's thread (a coroutine): it starts no thread,
# counted in /proc/self/task while the decode is part way; at more jobs a
# cursor freed before the end ends its decode thread. Also run in the
# ThreadSanitizer build, where the cursor keeps its thread at one job.
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"
dump() { ${HWT_TARGET_RUN:-} "$HWT_CURSOR_DUMP" "$@"; }

# same NAME FILE: the cursor's elements are decode's, -j 1 and 3, one at a
# time and in batches of 1000 (and, at -j 1, of 5000: more than the
# coroutine makes between two switches); --stream is --per-cpu.
same() {
	local name=$1 file=$2 j
	for j in 1 3; do
		"$HWTRACE" decode -j $j --format jsonl --no-symbols "$file" 2>/dev/null |
			tail -n +2 >"$TMP/$name.cli$j"
		dump -j $j "$file" >"$TMP/$name.cur$j" 2>"$TMP/$name.err" ||
			fail "$name -j $j: cursor_dump: $(cat "$TMP/$name.err")"
		cmp -s "$TMP/$name.cli$j" "$TMP/$name.cur$j" ||
			fail "$name -j $j: the cursor's elements are not decode's"
		dump -j $j --batch 1000 "$file" >"$TMP/$name.batch" 2>/dev/null
		cmp -s "$TMP/$name.cli$j" "$TMP/$name.batch" ||
			fail "$name -j $j: the batches are not decode's elements"
	done
	dump -j 1 --batch 5000 "$file" >"$TMP/$name.batch" 2>/dev/null
	cmp -s "$TMP/$name.cli1" "$TMP/$name.batch" ||
		fail "$name -j 1: the batches of 5000 are not decode's elements"
	expect_eq "$name: -j 1 and -j 3 alike" "$(md5sum <"$TMP/$name.cur1")" \
		"$(md5sum <"$TMP/$name.cur3")"
	"$HWTRACE" decode --per-cpu --format jsonl --no-symbols "$file" 2>/dev/null |
		tail -n +2 >"$TMP/$name.percpu"
	dump --stream "$file" >"$TMP/$name.stream" 2>/dev/null
	cmp -s "$TMP/$name.percpu" "$TMP/$name.stream" ||
		fail "$name: --stream is not decode --per-cpu's order"
	expect_eq "$name: elements" "$(wc -l <"$TMP/$name.cur1")" "$3"
}

# threads WHAT JOBS FILE WANT: cursor_dump --stop-after 1000 at JOBS says
# WANT. ThreadSanitizer's runtime starts a thread of its own with the
# first one a program makes, so there only the threads that end count.
threads() {
	local got
	got=$(dump -j "$2" --stop-after 1000 "$3" 2>/dev/null)
	if [ "${HWT_TSAN:-0}" = 1 ]; then
		expect_eq "$1" "$(sed 's/ started [0-9]*//' <<<"$got")" \
			"$(sed 's/ started [0-9]*//' <<<"$4")"
	else
		expect_eq "$1" "$got" "$4"
	fi
}

# units NAME FILE COUNT: COUNT units, each decoded by a process of its own,
# merged by time, give the whole decode.
units() {
	local name=$1 file=$2 k files=()
	dump --units "$file" >"$TMP/$name.units" 2>/dev/null || fail "$name: units"
	expect_eq "$name: units" "$(wc -l <"$TMP/$name.units")" "$3"
	for ((k = 0; k < $3; k++)); do
		dump --unit $k "$file" >"$TMP/$name.u$k" 2>/dev/null || fail "$name: unit $k"
		files+=("$TMP/$name.u$k")
	done
	dump --merge "${files[@]}" >"$TMP/$name.merged" 2>"$TMP/$name.err" ||
		fail "$name: merge: $(cat "$TMP/$name.err")"
	cmp -s "$TMP/$name.cli1" "$TMP/$name.merged" ||
		fail "$name: the units merged are not the whole decode"
	expect_eq "$name: a unit past the last" \
		"$(dump --unit $3 "$file" 2>&1 >/dev/null | grep -c "no unit $3")" 1
	# qemu-user does not show the guest's threads in /proc/self/task.
	if [ -z "${HWT_TARGET_RUN:-}" ]; then
		if [ "${HWT_CURSOR_THREAD_AT_J1:-0}" = 1 ]; then
			threads "$name: -j 1 keeps its thread (no coroutines here)" 1 \
				"$file" "pulled 1000 threads started 1 ended 1"
		else
			threads "$name: -j 1 starts no thread" 1 "$file" \
				"pulled 1000 threads started 0 ended 0"
		fi
		threads "$name: -j 2: a cursor freed early ends its decode thread" 2 \
			"$file" "pulled 1000 threads started 1 ended 1"
	else
		expect_contains "$name: a cursor freed early" \
			"$(dump --stop-after 1000 "$file" 2>/dev/null)" "pulled 1000 threads started"
		echo "SKIP part: $name: the threads a freed cursor ends: under ${HWT_TARGET_RUN}, /proc/self/task shows no guest threads" >&2
		skipped_parts=$((skipped_parts + 1))
	fi
}

# filtered NAME FILE COUNT OPTION VALUE: the cursor's filter is decode's
# (COUNT elements), at -j 1 and -j 3.
filtered() {
	local name=$1 file=$2 count=$3 j
	shift 3
	"$HWTRACE" decode "$@" --format jsonl --no-symbols "$file" 2>/dev/null |
		tail -n +2 >"$TMP/$name.fcli"
	expect_eq "$name $*: decode's elements" "$(wc -l <"$TMP/$name.fcli")" "$count"
	for j in 1 3; do
		dump -j $j "$@" "$file" >"$TMP/$name.fcur" 2>/dev/null
		cmp -s "$TMP/$name.fcli" "$TMP/$name.fcur" ||
			fail "$name $* -j $j: the cursor's elements are not decode's"
	done
}

if have_pt_decoder "the quipper and generated Intel PT captures"; then
	Q="$HWT_TESTDATA/perf-data/quipper/perf.data.intel_pt-4.14"
	D="$Q.perf-report-D.txt"
	# 10 gaps, trace on/off, and what the packets say without the code
	# (test_pt_packets_without_code).
	same quipper "$Q" 629
	dump --facts "$Q" >"$TMP/facts" 2>"$TMP/facts.err" || fail "facts: $(cat "$TMP/facts.err")"
	expect_eq "backend" "$(grep '^backend' "$TMP/facts")" "backend intel_pt"
	expect_eq "cpus" "$(grep '^cpus' "$TMP/facts")" "cpus 0 3"
	expect_eq "threads" "$(grep '^thread' "$TMP/facts")" "thread 3174/3174"
	# perf report -D: "CPU TIME OFFSET [SIZE]: PERF_RECORD_COMM[ exec]: NAME:PID/TID"
	expect_eq "names over time" "$(grep '^name' "$TMP/facts")" \
		"$(awk '/PERF_RECORD_COMM/ { split($NF, a, ":"); print "name", a[2], $2, a[1] ($6 == "exec:" ? " exec" : "") }' "$D")"
	expect_eq "time span" "$(grep '^time' "$TMP/facts")" \
		"$(awk '$1 ~ /^[0-9]+$/ && $2 ~ /^[0-9]+$/ && $3 ~ /^0x/ {
			if (n++ == 0 || $2 < lo) lo = $2; if ($2 > hi) hi = $2 }
			END { print "time", lo, hi }' "$D")"
	expect_eq "queues" "$(grep '^queue' "$TMP/facts")" \
		"$(awk "$AWK_HEX"'
			/PERF_RECORD_AUXTRACE / { print "queue", $13, "cpu", $17, "tid", $15,
				"pieces 1 bytes", hex(substr($7, 3)) }' "$D")"
	expect_eq "losses" "$(grep '^losses' "$TMP/facts")" "losses 0 0 0 0 0"
	# Build ids: perf's list (perf buildid-list), by file.
	grep '^mmap' "$TMP/facts" | awk 'NF == 7 { sub(/_text$/, "", $5); print $7, $5 }' |
		sort -u >"$TMP/ids"
	expect_eq "build ids" "$(cat "$TMP/ids")" "$(sort -u "$Q.buildids")"
	expect_eq "the binaries are missing" "$(grep -c '^mmap.* found' "$TMP/facts")" 0
	# The tasks: perf report -D's COMM records (the capture has no FORK).
	expect_eq "tasks" "$(grep '^task' "$TMP/facts")" \
		"$(awk '/PERF_RECORD_COMM/ { split($NF, a, ":"); print "task comm", a[2], $2, a[1] }' "$D")"
	expect_eq "three tasks" "$(grep -c '^task comm' "$TMP/facts")" 3
	# Each thread's last name: its last COMM record's.
	expect_eq "last names" "$(grep '^lastname' "$TMP/facts" | sort -u)" \
		"$(awk '/PERF_RECORD_COMM/ { split($NF, a, ":"); split(a[2], p, "/"); n[p[2]] = a[1] }
			END { for (t in n) print "lastname", t, n[t] }' "$D" | sort -u)"
	# The build-id table: perf buildid-list's.
	expect_eq "build-id table" "$(grep '^buildid' "$TMP/facts" | cut -d' ' -f2- | sort)" \
		"$(sort "$Q.buildids")"
	# The switches as perf's db-export gives them, from perf script's
	# switch records: a side is known when a COMM record names it (3174
	# here) or it is the idle task 0; unknown sides are -1, and a switch
	# with no known side other than the idle task is left out.
	perf script -i "$Q" --ns --show-switch-events -F pid,tid,cpu,time 2>/dev/null |
		awk '/PERF_RECORD_SWITCH/ {
			t = $3; sub(/:$/, "", t); sub(/\./, "", t); sub(/^0+/, "", t)
			cpu = $2; gsub(/[][]/, "", cpu); cpu += 0
			s = $1; o = $NF; split(s, sp, "/"); split(o, op, "/")
			ks = sp[2] == 3174 || sp[2] == 0; ko = op[2] == 3174 || op[2] == 0
			if (!((ks && sp[2] != 0) || (ko && op[2] != 0))) next
			a = ks ? s : "-1/-1"; b = ko ? o : "-1/-1"
			if ($5 == "OUT") print t, cpu, "OUT", a, b; else print t, cpu, "IN", b, a
		}' >"$TMP/switches.perf"
	grep '^switch' "$TMP/facts" | awk '{ print $2, $4, $5, $7, $10 }' >"$TMP/switches"
	expect_eq "switches" "$(cat "$TMP/switches")" "$(cat "$TMP/switches.perf")"
	expect_eq "60 switches" "$(wc -l <"$TMP/switches")" 60
	# From a pipe: the same facts, and no cursor (a pipe is read once).
	dump --facts - <"$Q" >"$TMP/facts.pipe" 2>/dev/null
	expect_eq "facts from a pipe" "$(md5sum <"$TMP/facts.pipe")" "$(md5sum <"$TMP/facts")"
	out=$(dump - <"$Q" 2>&1)
	expect_eq "no cursor on a pipe: exit status" "$?" 1
	expect_contains "no cursor on a pipe: why" "$out" "save the capture to a file"

	mkdir -p "$TMP/cpus"
	"$HWT_PT_CPUS_CAPTURE" "$TMP/cpus" 12 4 || fail "pt_cpus_capture"
	same cpus "$TMP/cpus/perf.data" 569644
	units cpus "$TMP/cpus/perf.data" 8
	filtered cpus "$TMP/cpus/perf.data" 142411 --cpu 2
	filtered cpus "$TMP/cpus/perf.data" 191004 --time 1150,1250
fi

# in_order NAME WANT ARGS...: cursor_dump ARGS at -j 1 and 3 gives WANT's
# elements (a raw stream or a snapshot directory: one stream, in order).
in_order() {
	local name=$1 want=$2 j
	shift 2
	for j in 1 3; do
		dump -j $j "$@" >"$TMP/$name.cur" 2>"$TMP/$name.err" ||
			fail "$name -j $j: cursor_dump: $(cat "$TMP/$name.err")"
		cmp -s "$want" "$TMP/$name.cur" ||
			fail "$name -j $j: the cursor's elements are not decode's"
	done
	expect_eq "$name: elements" "$(wc -l <"$TMP/$name.cur")" "$(wc -l <"$want")"
}

if have_pt_decoder "a raw Intel PT stream"; then
	PTT=$HWT_TESTDATA/ptt/expected
	"$HWTRACE" decode --format jsonl --no-symbols --raw intel_pt:"$PTT/loop-tnt.pt" \
		--map "$PTT/loop-tnt.bin@0x100000" 2>/dev/null | tail -n +2 >"$TMP/raw.cli"
	expect_eq "raw: decode's elements" "$(wc -l <"$TMP/raw.cli")" 8
	in_order raw "$TMP/raw.cli" --raw intel_pt "$PTT/loop-tnt.pt" "$PTT/loop-tnt.bin@0x100000"
fi

SNAP=$HWT_TESTDATA/opencsd/ete_mem
"$HWTRACE" decode --snapshot "$SNAP" --format jsonl --no-symbols 2>/dev/null |
	tail -n +2 >"$TMP/snap.cli"
expect_eq "snapshot: decode's elements" "$(wc -l <"$TMP/snap.cli")" 3288
in_order snapshot "$TMP/snap.cli" --snapshot "$SNAP"

mkdir -p "$TMP/swb"
${HWT_TARGET_RUN:-} "$HWT_BTS_CAPTURE" "$TMP/swb" 1 swb >/dev/null || fail "bts_capture"
same swb "$TMP/swb/bts.data" 348862
units swb "$TMP/swb/bts.data" 68
filtered swb "$TMP/swb/bts.data" 176359 --tid 4243

# Losses: the ETM capture with two AUX records marked TRUNCATED
# (tests/tools/pd_aux_losses), counted as perf report -D shows them.
command -v perf >/dev/null || fail "perf (linux-perf) is not installed: the losses cannot be checked"
ETM="$HWT_TESTDATA/perf-data/simpleperf-etm/perf_etm.data"
${HWT_TARGET_RUN:-} "$HWT_PD_AUX_LOSSES" "$ETM" "$TMP/lossy.data" 2 3 || fail "pd_aux_losses"
dump --facts "$TMP/lossy.data" >"$TMP/lossy.facts" 2>/dev/null || fail "facts of the lossy capture"
expect_eq "truncated AUX records" "$(grep '^losses' "$TMP/lossy.facts")" \
	"losses 0 0 $(perf report -D -i "$TMP/lossy.data" 2>/dev/null | grep -c 'PERF_RECORD_AUX .*flags: 0x1 \[T\]') 0 0"
expect_eq "two of them" "$(grep '^losses' "$TMP/lossy.facts")" "losses 0 0 2 0 0"
expect_eq "the lossy capture's backend" "$(grep '^backend' "$TMP/lossy.facts")" "backend cs_etm"

printf 'not a capture' >"$TMP/junk"
out=$(dump "$TMP/junk" 2>&1)
expect_eq "not a capture: exit status" "$?" 1
expect_contains "not a capture: named" "$out" "$TMP/junk"
finish
