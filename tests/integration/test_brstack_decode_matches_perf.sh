# Branch-stack samples decode into one branch element per record, as
# perf reads them. simpleperf-lbr/perf_lbr.data (x86-64 LBR, simpleperf
# record -b: 19 samples, 12 of 32 records, one of 2, six of none) is
# rewritten in Linux perf's layout (pd_compress, level 0: perf 6.1
# refuses simpleperf's 136-byte attributes) so that `perf script -F
# brstack` reads it: hwtrace's records of each sample, newest first,
# equal perf's field for field (from/to/M-P/X/A/cycles). The rewritten
# file, and the same capture in pipe mode (perf inject -o -, from a file
# and from standard input), decode to the simpleperf original's elements.
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"
: "${HWT_PD_COMPRESS:?the pd_compress helper}"
src="$HWT_TESTDATA/perf-data/simpleperf-lbr/perf_lbr.data"
command -v perf >/dev/null || { fail "perf (linux-perf) is not installed"; finish; exit 1; }

"$HWTRACE" decode --format jsonl "$src" >"$TMP/orig.jsonl" 2>"$TMP/orig.err" ||
	fail "decode: $(cat "$TMP/orig.err")"
expect_eq "386 records, nothing else" \
	"$(grep -vc '"type":"header"' "$TMP/orig.jsonl") $(grep -c '"type":"branch"' "$TMP/orig.jsonl")" \
	"386 386"
expect_contains "the missing binary's ranges are named on stderr" "$(cat "$TMP/orig.err")" \
	"373 of the 373 ranges between branch records have no range element"
# simpleperf writes no hostname or osrelease: this machine's kallsyms is
# not taken for the capture's kernel (its one kernel address, in the
# 2-record sample, gets no name from here).
expect_contains "a capture that names no machine gets no kernel names from this one" \
	"$(cat "$TMP/orig.err")" "recorded on a machine the file does not name"
expect_eq "the kernel address is not named" \
	"$(grep -c '"from":"0xffffffffa9e01917".*from_sym' "$TMP/orig.jsonl")" 0

${HWT_TARGET_RUN:-} "$HWT_PD_COMPRESS" "$src" "$TMP/perf.data" 0 || fail "pd_compress"
perf script -F brstack -i "$TMP/perf.data" >"$TMP/perf.txt" 2>"$TMP/perf.err" ||
	fail "perf script: $(cat "$TMP/perf.err")"

# hwtrace's records as perf writes a brstack: per sample (its records
# share its time), newest first.
python3 - "$TMP/orig.jsonl" >"$TMP/ours.txt" <<'PY'
import json, sys
samples = []
for line in open(sys.argv[1]):
    e = json.loads(line)
    if e["type"] != "branch":
        continue
    if not samples or samples[-1][0] != e["time"]:
        samples.append((e["time"], []))
    samples[-1][1].append(e)
for _, recs in samples:
    recs.sort(key=lambda e: e["depth"])
    print(" ".join("%s/%s/%s/%s/%s/%d/" % (
        e["from"], e["to"],
        {True: "M", False: "P"}.get(e.get("mispred"), "-"),
        "X" if e.get("in_tx") else "-", "A" if e.get("abort") else "-",
        e.get("cycles", 0)) for e in recs))
PY
awk 'NF { $1 = $1; print }' "$TMP/perf.txt" >"$TMP/perf.norm"
expect_eq "perf script: 13 samples with records" "$(wc -l <"$TMP/perf.norm")" 13
expect_eq "perf script: 386 records" "$(wc -w <"$TMP/perf.norm")" 386
expect_eq "every record as perf script gives it, in its order" \
	"$(diff "$TMP/ours.txt" "$TMP/perf.norm" >"$TMP/diff" && echo same || head -4 "$TMP/diff")" same
expect_eq "the 2-record sample: a return from the kernel, then the loop" \
	"$(awk 'NF == 2' "$TMP/perf.norm")" \
	"0x5597dfefd94d/0x5597dfefd940/P/-/-/22/ 0xffffffffa9e01917/0x5597dfefd948/P/-/-/0/"

# The same records from perf's rewrite, and from it in pipe mode.
elements() { grep -v '"type":"header"' "$1"; }
"$HWTRACE" decode --format jsonl "$TMP/perf.data" >"$TMP/copy.jsonl" 2>/dev/null ||
	fail "decode the rewritten file"
expect_eq "the rewritten file: the same elements" \
	"$(elements "$TMP/copy.jsonl" | md5sum)" "$(elements "$TMP/orig.jsonl" | md5sum)"
perf inject -i "$TMP/perf.data" -o - >"$TMP/pipe.data" 2>"$TMP/inject.err" ||
	fail "perf inject: $(cat "$TMP/inject.err")"
expect_eq "perf inject wrote pipe mode" "$(head -c 16 "$TMP/pipe.data" | od -An -tx1 | tr -d ' \n')" \
	"50455246494c45321000000000000000"
"$HWTRACE" decode --format jsonl "$TMP/pipe.data" >"$TMP/pipe.jsonl" 2>/dev/null ||
	fail "decode the pipe-mode file"
expect_eq "pipe mode, from a file: the same elements" \
	"$(elements "$TMP/pipe.jsonl" | md5sum)" "$(elements "$TMP/orig.jsonl" | md5sum)"
"$HWTRACE" decode --format jsonl - <"$TMP/pipe.data" >"$TMP/stdin.jsonl" 2>/dev/null ||
	fail "decode pipe mode from standard input"
expect_eq "pipe mode, from standard input: the same elements" \
	"$(elements "$TMP/stdin.jsonl" | md5sum)" "$(elements "$TMP/orig.jsonl" | md5sum)"

# SQLite (perf's export schema): the records' cycles in cyc_count.
"$HWTRACE" export "$src" --to sqlite -o "$TMP/lbr.db" 2>/dev/null || fail "export --to sqlite"
expect_eq "sqlite: 386 branch samples, their cycles the records'" \
	"$(python3 -c 'import sqlite3, sys
print(*sqlite3.connect(sys.argv[1]).execute("select count(*), sum(cyc_count) from samples where branch_type != 0").fetchone())' "$TMP/lbr.db")" \
	"386 $(python3 -c 'import json, sys
print(sum(json.loads(l).get("cycles", 0) for l in open(sys.argv[1])))' "$TMP/orig.jsonl")"

# info: no backend needed, what the samples hold.
expect_contains "info: branch records" "$("$HWTRACE" info "$src" 2>/dev/null)" \
	"backend:     none needed: branch records (PERF_SAMPLE_BRANCH_STACK, branch_sample_type 0x8, 19 samples)"

# --edges: the records' branches.
expect_eq "--edges: the three branches and their counts" \
	"$("$HWTRACE" decode --edges "$src" 2>/dev/null | tr '\n' ' ')" \
	"0x5597dfefd91b->0x5597dfefd910 32 0x5597dfefd94d->0x5597dfefd940 353 0xffffffffa9e01917->0x5597dfefd948 1 "

# A sample whose nr runs past its record: skipped and named, the others
# decoded.
cp "$src" "$TMP/bad.data"
chmod u+w "$TMP/bad.data"
printf '\377\377\000\000\000\000\000\000' |
	dd of="$TMP/bad.data" bs=1 seek=$((0x30f0 + 56)) conv=notrunc status=none
"$HWTRACE" decode --format jsonl "$TMP/bad.data" >"$TMP/bad.jsonl" 2>/dev/null
expect_eq "a damaged sample: exit 0, its 32 records left out" \
	"$? $(grep -c '"type":"branch"' "$TMP/bad.jsonl")" "0 354"
expect_contains "a damaged sample: named, with its place" "$(grep '"type":"error"' "$TMP/bad.jsonl")" \
	"bad.data: 1 branch-stack samples could not be parsed (cut short, or lengths past their end) and were skipped, the first at byte 0x30f0"

# Text: each record with its place, weight, prediction and cycles.
"$HWTRACE" decode "$src" 2>/dev/null >"$TMP/orig.txt"
expect_eq "text: the 2-record sample's newest record" \
	"$(grep -m1 ' record 0 weight 1208 ' "$TMP/orig.txt" | sed 's/\(cycles [0-9]*\)  .*/\1/')" \
	"[011] 189912 1240667406679: branch    0x5597dfefd94d -> 0x5597dfefd940 ?  record 0 weight 1208 pred cycles 22"
finish
