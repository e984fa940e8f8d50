# The kept CoreSight fuzz corpora through the CLI as users run it: the
# OpenCSD decoder in its isolated workers (the default), not behind the
# fuzz targets' guard (tests/fuzz/fuzz_opencsd_guard.h). Raw streams
# (corpus/fuzz_etm_raw) as the fuzz target decodes them: the first byte
# picks protocol, framing and trace ID, the rest is the stream, over a
# page of A64 branches; perf.data files (corpus/fuzz_cs_decode_file) as
# they are. For every input hwtrace exits 0 or 1 with no sanitizer report
# of its own. The three inputs that crash the in-process decode under
# ASan (OpenCSD 1.3.3 reading wild memory: docs/coresight.md) give, in
# the ASan build, exit 1 and an error naming the stream and byte range;
# the two whose packets are known to trip OpenCSD are named before they
# are decoded, in every build. In the plain build (the oracle: the same
# command with --no-isolate) every other input gives the same output,
# standard error and exit status isolated as in the process, except those
# named as tripping a known OpenCSD fault and those the in-process decode
# itself gives differently from run to run.
. "$HWT_SOURCE_DIR/tests/integration/lib.sh"

CORPUS="$HWT_SOURCE_DIR/tests/fuzz/corpus"
# Found by decoding every kept input with --no-isolate in the ASan build.
CRASHERS="crash-3ff46de38752c89bcf37ac4d5210b56de7f37ab1
crash-888d404585e50cc2c8e9364e40f365701cd4177a
crash-aed68aee03e5f5f321d28dbb9fb860a5ec8116f7"
is_crasher() { case "$CRASHERS" in *"$1"*) return 0 ;; esac; return 1; }

# The fuzz target's code page: ten A64 instructions of each branch kind.
printf '\x1f\x20\x03\xd5\x00\x04\x00\x71\xc1\xff\xff\x54\x02\x00\x00\x94\xfc\xff\xff\x17\xc0\x03\x5f\xd6\x20\x00\x1f\xd6\x40\x00\x3f\xd6\x01\x00\x00\xd4\x00\xff\xff\xb4' >"$TMP/ten"
for i in $(seq 102); do cat "$TMP/ten"; done >"$TMP/code.bin"
expect_eq "code page" "$(wc -c <"$TMP/code.bin")" 4080

raw_args() { # INPUT: the --raw and --map arguments the fuzz target uses
	local sel protos=(etmv4 ete etmv3 ptm) ids=(0x10 0x1e 0x01 0x40) fmt=formatted
	sel=$(od -An -tu1 -N1 "$1" | tr -d ' ')
	((sel & 4)) && fmt=raw
	tail -c +2 "$1" >"$TMP/stream"
	args=(--raw "cs_etm,${protos[sel & 3]},$fmt,traceid=${ids[(sel >> 3) & 3]}:$TMP/stream"
	      --map "$TMP/code.bin@0")
}

# run NAME ARGS...: hwtrace decode in jsonl into $TMP/NAME.{out,err},
# its exit status in $rc; a sanitizer report of the parent process (its
# pid) fails the check, as does a hang (timeout).
run() {
	local name=$1
	shift
	timeout 120 "$HWTRACE" decode -q --format jsonl "$@" >"$TMP/$name.out" \
		2>"$TMP/$name.err" &
	local pid=$!
	wait $pid
	rc=$?
	if grep -q "==$pid==ERROR\|runtime error" "$TMP/$name.err"; then
		fail "$input: hwtrace itself reported: $(grep -m1 "==$pid==ERROR\|runtime error" "$TMP/$name.err")"
	fi
}

inputs=0 compared=0 unstable=0 known=0
for input in "$CORPUS"/fuzz_etm_raw/* "$CORPUS"/fuzz_cs_decode_file/*; do
	name=$(basename "$input")
	case "$input" in
	*/fuzz_etm_raw/*) raw_args "$input" ;;
	*) args=("$input") ;;
	esac
	inputs=$((inputs + 1))
	# --isolate said (the default is that too, but for the ASan build
	# on several threads: core/decode/decode_isolate.c says why).
	run iso --isolate "${args[@]}"
	iso_rc=$rc
	checks=$((checks + 1))
	case $rc in 0 | 1) ;; *) fail "$name: exit status $rc (want 0 or 1)" ;; esac
	if is_crasher "$name"; then
		if [ "$HWT_SANITIZE" = 1 ]; then
			expect_eq "$name exit (ASan)" "$rc" 1
			expect_contains "$name error" "$(cat "$TMP/iso.out")" \
				"decoder's worker process"
			expect_contains "$name range" "$(cat "$TMP/iso.out")" \
				"the raw stream, AUX buffer 0, bytes 0x0-0x"
			expect_contains "$name summary" "$(cat "$TMP/iso.err")" \
				"1 part of the trace could not be decoded"
		fi
		cp "$TMP/iso.out" "$TMP/$name.out"
		continue
	fi
	# Sanitizer reports of a worker are the one known fault's alone.
	if grep -q "ERROR: AddressSanitizer\|ERROR: LeakSanitizer" "$TMP/iso.err"; then
		fail "$name: a sanitizer report: $(grep -m1 ERROR: "$TMP/iso.err")"
	fi
	if grep -q "decoder's worker process" "$TMP/iso.out"; then
		fail "$name: its worker was lost: $(grep -m1 -o "worker process[^:]*" "$TMP/iso.out")"
	fi
	[ "$HWT_SANITIZE" = 1 ] && continue
	# What a use after free gives depends on the heap's layout, which
	# is the worker's, not this process's: no oracle.
	if grep -q "which is known to make OpenCSD" "$TMP/iso.out"; then
		known=$((known + 1))
		continue
	fi
	run inproc --no-isolate "${args[@]}"
	if cmp -s "$TMP/iso.out" "$TMP/inproc.out" &&
	   cmp -s "$TMP/iso.err" "$TMP/inproc.err"; then
		compared=$((compared + 1))
		expect_eq "$name exit status isolated" "$iso_rc" "$rc"
		continue
	fi
	# OpenCSD reads memory it does not own on some streams (addresses
	# of this process's heap turn up in their elements): such a stream
	# decodes differently from one run to the next in the process too,
	# and is no oracle.
	cp "$TMP/inproc.out" "$TMP/first.out"
	cp "$TMP/inproc.err" "$TMP/first.err"
	run inproc --no-isolate "${args[@]}"
	if cmp -s "$TMP/first.out" "$TMP/inproc.out" &&
	   cmp -s "$TMP/first.err" "$TMP/inproc.err"; then
		fail "$name: the isolated decode differs from the in-process one: $(diff "$TMP/iso.out" "$TMP/first.out" | head -3)"
	else
		unstable=$((unstable + 1))
	fi
done
# Every kept input (the two corpora as they are in the tree), and at
# least the 332 there were when this test was written.
kept=$(find "$CORPUS"/fuzz_etm_raw "$CORPUS"/fuzz_cs_decode_file -maxdepth 1 -type f | wc -l)
expect_eq "inputs replayed" "$inputs" "$kept"
expect_eq "at least the first 332" "$([ "$inputs" -ge 332 ] && echo yes)" yes

# Known faults are named before the decode (an error element first among
# the chunk's), with the packet's offset.
expect_contains "address wrap named" \
	"$(cat "$TMP/crash-3ff46de38752c89bcf37ac4d5210b56de7f37ab1.out")" \
	"has an address in the last 4 KiB of the address space at offset 0x6d, which is known to make OpenCSD 1.3.3 read memory it does not own"
expect_contains "cancel named" \
	"$(cat "$TMP/crash-888d404585e50cc2c8e9364e40f365701cd4177a.out")" \
	"has a cancel packet at offset 0x6a"
echo "replayed $inputs inputs, $compared the same as the in-process decode," \
	"$unstable that the in-process decode itself does not decode twice alike," \
	"$known named as tripping a known OpenCSD fault"
# Most inputs are an oracle (this bound fails if isolation loses many).
[ "$HWT_SANITIZE" = 1 ] || [ "$compared" -ge 300 ] ||
	fail "only $compared inputs compared with the in-process decode"
checks=$((checks + 1))
finish
