# What a command writes never destroys what the user had: each row of the
# table below runs one command in a work directory and checks its exit
# status, a fragment of its message, that every file that was there is
# byte for byte as it was (checksums before and after) and that no
# temporary file is left. The rows: every input a decode reads is refused
# as its -o, by identity (a --map, a hard link to it, --kallsyms, each
# file of a snapshot directory); a profile's [session] output is where
# record writes; outputs that cannot be replaced are refused without
# suggesting --replace; five concurrent exports to one new database: one
# wins; bad AutoFDO/BOLT prefixes name what exists; a 250-byte name
# works; Ctrl-C (SIGINT), SIGTERM and SIGHUP of decode, export, timeline
# and report leave no temporary; a full disk keeps the file that was
# there, or with --keep-partial replaces it with a capture that says it
# was cut short. (The programs a capture names, and sw_branch's signals:
# test_output_safety_traced.sh; the writer's full disk at each write:
# tests/unit/test_record_syscall_faults.c.)
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"
source "$HWT_SOURCE_DIR/tests/integration/output_rows.sh"
W="$TMP/w"
mkdir "$W" && cd "$W" || exit 1

# expect_lacks WHAT TEXT FRAGMENT
expect_lacks() {
	checks=$((checks + 1))
	case "$2" in *"$3"*) fail "$1: '$2' contains '$3'" ;; esac
}

# A raw Intel BTS stream ({from, to, flags} records) over 64 bytes of
# code at 0x1000, and one branch into the kernel for --kallsyms.
printf '\0\020\0\0\0\0\0\0\010\020\0\0\0\0\0\0\0\0\0\0\0\0\0\0' > bts.raw
printf '\0\020\0\0\0\0\0\0\004\001\0\201\377\377\377\377\0\0\0\0\0\0\0\0' > btsk.raw
head -c 64 /dev/zero | tr '\0' '\220' > code.bin # nop
ln code.bin code-link.bin
printf 'ffffffff81000000 T _text\nffffffff81000100 T foo\n' > ks.txt

# Positive control: the decode reads the map and writes a new -o.
row "raw decode to a new file" 0 "1 branches" \
	"$HWTRACE" decode --raw intel_bts:bts.raw --map code.bin@0x1000 -o new.txt
expect_contains "raw decode: the branch decoded" "$(cat new.txt)" "0x1000 -> 0x1008"
rm -f new.txt

# Item 2 of the report: a --map file, the same file by another name, and
# a --kallsyms file are the decode's inputs.
row "--map FILE -o FILE" 2 "output code.bin is the input file code.bin" \
	"$HWTRACE" decode --raw intel_bts:bts.raw --map code.bin@0x1000 -o code.bin
row "--map FILE -o a hard link to FILE" 2 "output code-link.bin is the input file code.bin" \
	"$HWTRACE" decode --raw intel_bts:bts.raw --map code.bin@0x1000 -o code-link.bin
row "--kallsyms FILE -o FILE" 2 "output ks.txt is the input file ks.txt" \
	"$HWTRACE" decode --raw intel_bts:btsk.raw --map code.bin@0x1000 \
	--kallsyms ks.txt -o ks.txt

# Every file of a snapshot directory the decode reads.
cp -r "$HWT_TESTDATA/opencsd/a57_single_step" snap
"$HWTRACE" decode --snapshot snap > /dev/null 2> "$TMP/snap.err"
if [ $? -ne 0 ] && grep -qi "opencsd\|not supported" "$TMP/snap.err"; then
	echo "SKIP part: snapshot files as -o: no OpenCSD decoder in this build" >&2
	skipped_parts=$((skipped_parts + 1))
else
	for f in snap/*.ini snap/*.bin; do
		row "--snapshot DIR -o $f" 2 "output $f is the input file $f" \
			"$HWTRACE" decode --snapshot snap -o "$f"
	done
	row "--snapshot DIR -o a new file in DIR" 0 "" \
		"$HWTRACE" decode --snapshot snap -o snap/decoded.txt
	expect_eq "snapshot decode written" "$([ -s snap/decoded.txt ] && echo yes)" yes
fi
rm -rf snap

# Item 3: a profile's [session] output is where record writes; an
# existing ./perf.data stays as it was, and config check says the same.
FIX="$HWT_SOURCE_DIR/tests/fixtures/sysfs/intel-client"
DAP="$HWT_TESTDATA/ptt/expected/dump-all-packets.pt"
printf '[session]\nbackend = intel_pt\ncpus = 0\noutput = prof.data\n' > prof.ini
echo "a capture made before" > perf.data
row "config check shows the profile's output" 0 "" \
	"$HWTRACE" config check prof.ini --sysfs "$FIX"
expect_contains "config check: output" "$(cat "$TMP/out")" "output: prof.data"
row "record -c PROFILE writes [session] output" 0 "wrote prof.data" \
	"$HWTRACE" record --sysfs "$FIX" --emulate-trace "$DAP" -c prof.ini
expect_contains "prof.data is the capture" "$("$HWTRACE" dump prof.data 2>&1)" \
	"PERF_RECORD_AUXTRACE_INFO"
row "-o wins over the profile" 0 "wrote other.data" \
	"$HWTRACE" record --sysfs "$FIX" --emulate-trace "$DAP" -c prof.ini -o other.data
rm -f prof.data other.data

# Item 1: a full disk, as the report had it: a 1 MiB tmpfs holding a
# 200 KiB file, with 44 KiB or nothing left free. Mounted in a mount
# namespace of its own; the commands run inside it, and their results
# come out through $TMP.
Q="$HWT_TESTDATA/perf-data/quipper/perf.data.intel_pt-4.14"
cat > "$TMP/full.sh" <<'SH'
# full.sh DIR OUT FREE_KIB [record options]: in a 1 MiB tmpfs at DIR.
dir=$1 out=$2 free=$3
shift 3
mount -t tmpfs -o size=1m tmpfs "$dir" || exit 100
cd "$dir" || exit 100
head -c 204800 /dev/urandom > keep
used=$(df -k . | awk 'NR == 2 { print $3 }')
head -c $(((1024 - used - free) * 1024)) /dev/zero > fill 2>/dev/null
sha1sum keep > "$out/sum"
"$HWTRACE" record --emulate "$Q" -o keep "$@" > /dev/null 2> "$out/err"
echo $? > "$out/rc"
sha1sum -c --quiet "$out/sum" > /dev/null 2>&1 && echo same > "$out/keep" || echo changed > "$out/keep"
"$HWTRACE" info keep > "$out/info" 2> "$out/info.err"
ls -a > "$out/ls"
SH
mkdir "$TMP/mnt"
if ! unshare -m --propagation private true 2>/dev/null; then
	echo "SKIP part: full disk: cannot make a mount namespace here (needs root)" >&2
	skipped_parts=$((skipped_parts + 1))
else
	for free in 44 0; do
		mkdir -p "$TMP/r$free"
		HWTRACE=$HWTRACE Q=$Q unshare -m --propagation private \
			bash "$TMP/full.sh" "$TMP/mnt" "$TMP/r$free" $free
		expect_eq "full disk, $free KiB free: record exit" "$(cat "$TMP/r$free/rc")" 1
		expect_contains "full disk, $free KiB free: says the file is kept" \
			"$(cat "$TMP/r$free/err")" "the file that was there is kept as it was"
		expect_eq "full disk, $free KiB free: keep unchanged" "$(cat "$TMP/r$free/keep")" same
		expect_eq "full disk, $free KiB free: no temporary left" \
			"$(grep -c '\.tmp\.' "$TMP/r$free/ls")" 0
	done
	mkdir -p "$TMP/rk"
	HWTRACE=$HWTRACE Q=$Q unshare -m --propagation private \
		bash "$TMP/full.sh" "$TMP/mnt" "$TMP/rk" 44 --keep-partial
	expect_eq "full disk, --keep-partial: record exit" "$(cat "$TMP/rk/rc")" 1
	expect_contains "full disk, --keep-partial: says so" "$(cat "$TMP/rk/err")" \
		"the file is marked as cut short"
	expect_eq "full disk, --keep-partial: keep replaced" "$(cat "$TMP/rk/keep")" changed
	expect_contains "full disk, --keep-partial: info says cut short" \
		"$(cat "$TMP/rk/info")" "cut short:   yes"
	expect_contains "full disk, --keep-partial: info warns" \
		"$(cat "$TMP/rk/info.err")" "was cut short while it was recorded"
fi

# A small BTS capture for the exports.
${HWT_TARGET_RUN:-} "$HWT_BTS_CAPTURE" "$W" 1 > /dev/null || fail "bts_capture"

# Item 11: what --replace could not replace is refused without a word of
# --replace.
mkdir dir.db
mkfifo fifo.db
ln -s bts.data link.db
for t in "dir.db|is a directory" "fifo.db|is a FIFO" "/dev/null|is a character device" \
	 "link.db|is a symbolic link"; do
	out=${t%%|*}
	row "export --to sqlite -o $out" 2 "output $out ${t#*|}" \
		"$HWTRACE" export --to sqlite bts.data -o "$out"
	expect_lacks "export -o $out: no --replace suggested" "$(cat "$TMP/err")" "--replace"
	row "export --to sqlite --replace -o $out" 2 "output $out ${t#*|}" \
		"$HWTRACE" export --to sqlite --replace bts.data -o "$out"
done
echo "an older database" > old.db
row "export -o an existing database" 2 "old.db exists: give --replace" \
	"$HWTRACE" export --to sqlite bts.data -o old.db

# Five exports to one new name at once, without --replace: one wins,
# each other one fails saying why, and the database is whole.
for i in 1 2 3 4 5; do
	("$HWTRACE" export --to sqlite bts.data -o same.db > /dev/null 2> "$TMP/x$i.err"
	 echo $? > "$TMP/x$i.rc") &
done
wait
expect_eq "concurrent exports: exactly one wins" "$(cat "$TMP"/x?.rc | grep -c '^0$')" 1
expect_eq "concurrent exports: the others are refused" "$(cat "$TMP"/x?.rc | grep -c '^2$')" 4
for i in 1 2 3 4 5; do
	[ "$(cat "$TMP/x$i.rc")" = 0 ] && continue
	expect_contains "concurrent export $i: says why" "$(cat "$TMP/x$i.err")" "same.db"
	case "$(cat "$TMP/x$i.err")" in
	*"was created by someone else while this command ran"* | *"same.db exists"*) ;;
	*) fail "concurrent export $i: $(cat "$TMP/x$i.err")" ;;
	esac
done
expect_eq "concurrent exports: the database is whole" "$(python3 -c '
import sqlite3, sys
print(sqlite3.connect(sys.argv[1]).execute("pragma integrity_check").fetchone()[0])' same.db)" ok
rm -f same.db

# AutoFDO and BOLT prefixes: the message names what is there.
row "autofdo -o in a missing directory" 1 "the directory nodir/sub does not exist" \
	"$HWTRACE" export --to autofdo bts.data -o nodir/sub/p
expect_lacks "autofdo: no probe file named" "$(cat "$TMP/err")" "p.x"
row "bolt -o under a file" 2 "code.bin is not a directory" \
	"$HWTRACE" export --to bolt bts.data -o code.bin/p

# A 250-byte file name: its temporary's name is cut to fit NAME_MAX.
long=$(printf 'n%.0s' $(seq 250))
row "a 250-byte -o" 0 "1 branches" \
	"$HWTRACE" decode --raw intel_bts:bts.raw --map code.bin@0x1000 -o "$long"
expect_contains "250-byte -o written" "$(cat "$long")" "0x1000 -> 0x1008"
row "export to a 250-byte -o" 0 "" "$HWTRACE" export --to sqlite bts.data -o "$long.db"
rm -f "$long" "$long.db"

# Item 7: a signal ends decode, export, timeline and report without a
# temporary left or an output made. Job control gives the background
# command the default SIGINT a terminal's Ctrl-C finds.
${HWT_TARGET_RUN:-} "$HWT_BTS_CAPTURE" "$W" 24 > /dev/null || fail "bts_capture 24"
set -m
for sig in INT TERM HUP; do
	for c in "decode bts.data -o sig.txt" "export --to sqlite bts.data -o sig.db" \
		 "timeline bts.data -o sig.json" "report bts.data -o sig.rep"; do
		sums > "$TMP/before"
		"$HWTRACE" $c > /dev/null 2>&1 &
		p=$!
		for ((i = 0; i < 600; i++)); do
			[ -n "$(find "$W" -name 'sig.*.tmp.*')" ] && break
			sleep 0.05
		done
		expect_eq "SIG$sig: ${c%% *}: its temporary appeared" \
			"$([ -n "$(find "$W" -name 'sig.*.tmp.*')" ] && echo yes)" yes
		kill -$sig $p
		wait $p
		rc=$?
		expect_eq "SIG$sig: ${c%% *}: ended by the signal" "$rc" \
			$((128 + $(kill -l $sig)))
		expect_eq "SIG$sig: ${c%% *}: no temporary left" \
			"$(find "$W" -name '*.tmp.*' | wc -l)" 0
		expect_eq "SIG$sig: ${c%% *}: no output made" "$(ls sig.* 2>/dev/null)" ""
		(cd "$W" && sha1sum -c --quiet "$TMP/before" 2>&1) > "$TMP/changed"
		expect_eq "SIG$sig: ${c%% *}: no file changed" "$(cat "$TMP/changed")" ""
		find "$W" -name '*.tmp.*' -delete
	done
done
set +m
finish
