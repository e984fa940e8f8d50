#!/bin/bash
# hwtrace config check on each shipped profile against its fixture, event
# strings and overrides, and the exit codes of failures.
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"
FIX="$HWT_SOURCE_DIR/tests/fixtures/sysfs"
CFG="$HWT_SOURCE_DIR/configs"

field() { # field NAME TEXT: value of the first "  NAME  value" line
	sed -n "s/^  $1  *//p" <<<"$2" | head -1
}

out=$("$HWTRACE" config check "$CFG/intel_pt_full.ini" --sysfs "$FIX/intel-client"); rc=$?
expect_eq "pt full exit" "$rc" 0
# 0x300e601: the intel_pt// config perf wrote in the quipper capture.
expect_eq "pt full config" "$(field config "$out")" "0x300e601"
expect_eq "pt type" "$(field type "$out")" "6 (intel_pt)"
expect_eq "pt sample_type" "$(field sample_type "$out")" "IP|TID|TIME|CPU|IDENTIFIER"
expect_contains "ok" "$out" "OK: the profile is valid for the machine whose sysfs tree is $FIX/intel-client"
expect_contains "dummy" "$out" "event 2: dummy:u (sideband)"

out=$("$HWTRACE" config check "$CFG/intel_pt_snapshot.ini" --sysfs "$FIX/intel-client"); rc=$?
expect_eq "pt snapshot exit" "$rc" 0
expect_contains "snapshot line" "$out" "snapshot: 4194304 bytes on signal (SIGUSR2)"

out=$("$HWTRACE" config check "$CFG/intel_bts.ini" --sysfs "$FIX/intel-client"); rc=$?
expect_eq "bts exit" "$rc" 0
expect_contains "bts per thread" "$out" "tracing: per thread"
expect_eq "bts sample_type" "$(field sample_type "$out")" "IP|TID|TIME|IDENTIFIER"

out=$("$HWTRACE" config check "$CFG/cs_etm_etr.ini" --sysfs "$FIX/juno"); rc=$?
expect_eq "etr exit" "$rc" 0
expect_eq "etr config" "$(field config "$out")" "0x10004000"
expect_eq "etr config2" "$(sed -n 's/^  { bp_len, config2 }  *//p' <<<"$out")" "0xa6509eae"
expect_contains "etr sink" "$out" "sink: tmc_etr0 (id 0xa6509eae): named in the profile"

out=$("$HWTRACE" config check "$CFG/cs_etm_trbe.ini" --sysfs "$FIX/armv9-ete-trbe"); rc=$?
expect_eq "trbe exit" "$rc" 0
expect_eq "trbe config" "$(field config "$out")" "0x30008000"
expect_contains "trbe sink" "$out" "sink: every traced CPU has a TRBE"

# -e alone, and -e overriding the file.
out=$("$HWTRACE" config check -e 'cs_etm/@tmc_etr0/' --sysfs "$FIX/juno"); rc=$?
expect_eq "event exit" "$rc" 0
expect_eq "event config" "$(field config "$out")" "0x10004000"
out=$("$HWTRACE" config check "$CFG/intel_pt_full.ini" -e 'intel_pt/cyc/u' --set session.cpus=1-2 --sysfs "$FIX/intel-client"); rc=$?
expect_eq "override exit" "$rc" 0
expect_eq "override config" "$(field config "$out")" "0x300e603"
expect_contains "override cpus" "$out" "tracing: CPUs 1-2"
expect_eq "override exclude_kernel" "$(field exclude_kernel "$out")" "1"

# Invalid profiles: exit 1 and the message on stderr.
err=$("$HWTRACE" config check -e 'intel_pt/psb_period=15/u' --sysfs "$FIX/intel-client" 2>&1 >/dev/null); rc=$?
expect_eq "caps exit" "$rc" 1
expect_eq "caps message" "$err" "hwtrace: -e: [intel_pt] psb_period = 15: Invalid psb_period for intel_pt. Valid values are: 0-5"
err=$("$HWTRACE" config check "$CFG/cs_etm_etr.ini" --sysfs "$FIX/intel-client" 2>&1 >/dev/null); rc=$?
expect_eq "absent pmu exit" "$rc" 1
expect_contains "absent pmu message" "$err" "PMU cs_etm is not present on this machine"
expect_contains "absent pmu lists" "$err" "trace PMUs here: intel_bts, intel_pt"
printf '[session]\nbackend = intel_pt\n[intel_pt]\npsb_perod = 2\n' > "$TMP/typo.ini"
err=$("$HWTRACE" config check "$TMP/typo.ini" --sysfs "$FIX/intel-client" 2>&1 >/dev/null); rc=$?
expect_eq "typo exit" "$rc" 1
expect_contains "typo message" "$err" "$TMP/typo.ini: unknown key \"psb_perod\" in [intel_pt]; did you mean \"psb_period\"?"
err=$("$HWTRACE" config check "$TMP/none.ini" 2>&1 >/dev/null); rc=$?
expect_eq "missing file exit" "$rc" 1
expect_contains "missing file" "$err" "profile $TMP/none.ini does not exist"

# Usage errors: exit 2.
"$HWTRACE" config >/dev/null 2>&1; expect_eq "no subcommand" "$?" 2
"$HWTRACE" config frob >/dev/null 2>&1; expect_eq "bad subcommand" "$?" 2
"$HWTRACE" config check >/dev/null 2>&1; expect_eq "no file" "$?" 2
"$HWTRACE" config check a.ini b.ini >/dev/null 2>&1; expect_eq "two files" "$?" 2
"$HWTRACE" config check x.ini --set nokey >/dev/null 2>&1; expect_eq "bad --set" "$?" 2
"$HWTRACE" config check x.ini -e >/dev/null 2>&1; expect_eq "-e without value" "$?" 2
out=$("$HWTRACE" config check --help); expect_eq "help exit" "$?" 0
expect_contains "help text" "$out" "usage: hwtrace config check [FILE]"
finish
