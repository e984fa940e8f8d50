# Every numeric option is range-checked before anything runs: the message
# names the option, the value and the valid range, and the exit status is
# 2 (a usage error). Each case was accepted (exit 0) or exited 1 with a
# garbled or bare message before.
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"
PROG="$HWT_BUILD_DIR/tests/programs/known_path"
SYSFS="$HWT_SOURCE_DIR/tests/fixtures/sysfs/intel-client"

# expect_usage WHAT FRAGMENT -- ARGS: exit 2, stderr holds FRAGMENT, and no
# output file was written.
expect_usage() {
	local what=$1 want=$2
	shift 3
	rm -f "$TMP/out.data"
	"$HWTRACE" "$@" 2>"$TMP/err" >/dev/null
	expect_eq "$what: exit" "$?" 2
	expect_contains "$what: message" "$(cat "$TMP/err")" "$want"
	expect_eq "$what: no file" "$(test -e "$TMP/out.data" && echo written)" ""
}

swb() { echo record -e sw_branch "$@" -q -o "$TMP/out.data" -- "$PROG" 5; }
emu() { echo record --sysfs "$SYSFS" -e intel_pt// "$@" -o "$TMP/out.data"; }

expect_usage "sw_branch -m 0,0" \
	"-m 0,0: data pages 0: zero pages (valid: a power of two, 1 to 1048576)" -- $(swb -m 0,0)
expect_usage "sw_branch -m 2^40" \
	"-m 1099511627776,1099511627776: data pages 1099511627776: too large (valid: a power of two, 1 to 1048576)" \
	-- $(swb -m 1099511627776,1099511627776)
expect_usage "sw_branch -m 3,3" \
	"-m 3,3: data pages 3: not a power of two (valid: a power of two, 1 to 1048576)" -- $(swb -m 3,3)
expect_usage "sw_branch -m 4,3" "-m 4,3: AUX pages 3: not a power of two" -- $(swb -m 4,3)
expect_usage "sw_branch --max -5" \
	"--max -5: not a number (valid: a number of instructions, 1 to 18446744073709551615)" -- $(swb --max -5)
expect_usage "sw_branch --max 0" "--max 0: out of range" -- $(swb --max 0)
expect_usage "sw_branch/cyc/" "-e sw_branch/cyc/: sw_branch takes no terms" \
	-- record -e sw_branch/cyc/ -q -o "$TMP/out.data" -- "$PROG" 5
expect_usage "sw_branch -Sabc" "-Sabc does not apply to -e sw_branch" -- $(swb -Sabc)

expect_usage "emulated -m 0,0" "-m 0,0: data pages 0: zero pages" -- $(emu -m 0,0)
expect_usage "emulated -m 3,3" "-m 3,3: data pages 3: not a power of two" -- $(emu -m 3,3)
expect_usage "emulated -Sabc" \
	"-S abc: not a size (e.g. 4096, 64K, 4M) (valid: a size from 1 to 4G" -- $(emu -Sabc)
expect_usage "emulated -S99999999999G" "-S 99999999999G: too large (valid: a size from 1 to 4G" \
	-- $(emu -S99999999999G)
expect_usage "emulated -S0" "-S 0: out of range" -- $(emu -S0)
# The CPU list's message once printed itself twice over a freed copy.
expect_usage "emulated -C abc" \
	'-C: [session] cpus: "abc" is not a CPU list (use e.g. 0-3,6 or all)' -- $(emu -C abc)
expect_usage "emulated -C 99" "names CPU 99, which is not online here (online: 0-3)" -- $(emu -C 99)
expect_usage "-p abc" "-p abc: not a number (valid: a process id, 1 to 4194304)" \
	-- record -e intel_pt// -p abc -o "$TMP/out.data"
expect_usage "--snapshot-interval 5x" "--snapshot-interval 5x: not a number (valid: milliseconds" \
	-- record -e intel_pt// -S --snapshot-interval 5x -a -o "$TMP/out.data"
expect_usage "--emulate-rate 1e400" "--emulate-rate 1e400: out of range" \
	-- record --emulate x.data --emulate-rate 1e400 -o "$TMP/out.data"

Q="$HWT_TESTDATA/perf-data/quipper/perf.data.intel_pt-4.14"
expect_usage "decode --cpu -3" "--cpu -3: not a number (valid: a CPU number, 0 to 4095" -- decode --cpu -3 "$Q"
expect_usage "decode --cpu 5000" "--cpu 5000: out of range" -- decode --cpu 5000 "$Q"
expect_usage "decode --tid 2x" "--tid 2x: not a number (valid: a thread id, 0 to 4194304)" -- decode --tid 2x "$Q"

# In range, the emulated machine records: the parser let valid sizes pass.
"$HWTRACE" $(emu -m 4,8 -S64K) 2>"$TMP/err"
expect_eq "valid -m 4,8 -S64K exit" "$?" 0
finish
