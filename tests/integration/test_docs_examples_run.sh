# Every hwtrace command example in README.md and docs/*.md runs as written:
# each line of a fenced block that starts with `hwtrace COMMAND ` (or
# `$ hwtrace`) is run, with the files it names made from the real test
# captures, and must exit 0 without a warning that it matched nothing.
# Examples that cannot run here say so in the docs: a line ending in
# `# needs: WHY` (hardware, a program that is not here), or a whole block
# after a `<!-- example not run: WHY -->` line (synopses with placeholders).
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"
Q="$HWT_TESTDATA/perf-data/quipper/perf.data.intel_pt-4.14"
PTT="$HWT_TESTDATA/ptt/expected"

# The files the examples name, in the directory they run in: copies, never
# links, so that an example that writes where it should not cannot reach
# the shared captures or the source tree.
W="$TMP/work"
mkdir -p "$W/tests"
cp -r "$HWT_SOURCE_DIR/configs" "$W/configs"
cp -r "$HWT_SOURCE_DIR/tests/fixtures" "$W/tests/fixtures"
for f in trace.data capture.data perf.data perf.data.intel_pt; do
	cp "$Q" "$W/$f"
done
cp "$HWT_BUILD_DIR/tests/programs/known_path" "$W/prog"
for p in slow_calls swb_demo; do
	cp "$HWT_BUILD_DIR/tests/programs/$p" "$W/$p"
done
# docs/branch-records.md's profile, as the page shows it.
printf '[branch]\nfilter = any_ret,u,save_type\nperiod = 20\n' >"$W/branch.ini"
cp "$PTT/loop-tnt.pt" "$W/trace.pt"
cp "$PTT/loop-tnt.bin" "$W/code.bin"
cp "$PTT/loop-tnt.pt" "$W/stream.pt"
cp "$PTT/skl014-jmp.pt" "$W/t.pt"
cp "$PTT/skl014-jmp.bin" "$W/t.bin"
cp -r "$HWT_TESTDATA/opencsd/a57_single_step" "$W/opencsd-snapshot-dir"
cp "$HWT_TESTDATA/riscv-ntrace/t1/test-NEX.bin" "$W/ntrace.bin"
cp "$HWT_TESTDATA/riscv-ntrace/t1/test.elf" "$W/prog.elf"
chmod -R u+w "$W"

# examples FILE: "LINE<TAB>COMMAND" for each example to run.
examples() {
	awk '
	/^<!-- example not run:/ { skip = 1; next }
	/^```/ { if (!fence) { fence = 1; skipblock = skip } else fence = 0; skip = 0; next }
	!fence { skip = 0; next }
	skipblock { next }
	cont != "" { cmd = cont " " $0; cont = ""; start = cstart }
	cont == "" && !cmd { if ($0 ~ /^(\$ )?hwtrace (list|config|record|decode|dump|info|help)( |$)/) { cmd = $0; start = NR } else next }
	cmd ~ /\\$/ { sub(/\\$/, "", cmd); cont = cmd; cstart = start; cmd = ""; next }
	cmd {
		if (cmd !~ /# needs: /) { sub(/^\$ /, "", cmd); sub(/[ \t]+#.*$/, "", cmd); gsub(/[ \t]+/, " ", cmd); print start "\t" cmd }
		cmd = ""
	}' "$1"
}

ran=0
for doc in "$HWT_SOURCE_DIR/README.md" "$HWT_SOURCE_DIR"/docs/*.md; do
	name=${doc#"$HWT_SOURCE_DIR/"}
	while IFS=$'\t' read -r line cmd; do
		ran=$((ran + 1))
		# Background jobs (`... &`) are not examples one can wait for.
		(cd "$W" && eval "${cmd/#hwtrace/\"\$HWTRACE\"}" </dev/null >"$TMP/out" 2>"$TMP/err")
		rc=$?
		expect_eq "$name:$line: $cmd: exit" "$rc" 0
		[ "$rc" -eq 0 ] || sed 's/^/    /' "$TMP/err" | tail -3 >&2
		expect_eq "$name:$line: $cmd: matched something" \
			"$(grep -c 'matches nothing\|warning: .* no elements' "$TMP/err")" 0
	done < <(examples "$doc")
done
echo "$ran examples run" >&2
[ "$ran" -ge 20 ] || fail "only $ran examples found: is the extraction broken?"
finish
