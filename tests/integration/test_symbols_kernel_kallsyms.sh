# Kernel addresses of the real quipper Intel PT capture (trace starts and
# stops at 0xffffffffb960d302 / 0xffffffffb960d300) named from a kallsyms
# file written here (and from a stand-in --vmlinux): the function before
# each address and the offset from it; a kallsyms whose addresses are all
# 0 (kernel.kptr_restrict) is explained once, with the fix. (Module code:
# tests/unit/test_symbols_text_tables.c.)
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"
Q="$HWT_TESTDATA/perf-data/quipper/perf.data.intel_pt-4.14"
[ -f "$Q" ] || { echo "FAIL: $Q is missing" >&2; exit 1; }

cat >"$TMP/kallsyms" <<'KS'
ffffffffb9600000 T _text
ffffffffb960d100 D some_data
ffffffffb960d2f0 T demo_entry
ffffffffb960d301 t demo_inner
ffffffffb960d400 t demo_after
ffffffffc0001000 t demo_mod_fn	[demo_mod]
KS
"$HWTRACE" decode --format jsonl --kallsyms "$TMP/kallsyms" "$Q" >"$TMP/k.jsonl" 2>"$TMP/k.err"
# trace_on at ...d302 is demo_inner+1 (the t symbol just before it; 10
# of them, one per TIP.PGE, as perf script --itrace=b has them: most are
# read from the packets after the walk was lost);
# trace_off at ...d300 is demo_entry+0x10.
expect_eq "trace on named" "$(grep -c '"type":"trace_on".*"at":"0xffffffffb960d302","time":[0-9]*,"sym":"demo_inner","symoff":1,"dso":"\[kernel.kallsyms\]"' "$TMP/k.jsonl")" 10
expect_eq "trace off named" "$(grep -c '"type":"trace_off".*"at":"0xffffffffb960d300","time":[0-9]*,"sym":"demo_entry","symoff":16,"dso":"\[kernel.kallsyms\]"' "$TMP/k.jsonl")" 1
"$HWTRACE" decode --kallsyms "$TMP/kallsyms" "$Q" 2>/dev/null | grep -m1 'trace off' >"$TMP/k.txt"
expect_contains "text: sym+0xoff (dso)" "$(cat "$TMP/k.txt")" "at 0xffffffffb960d300  demo_entry+0x10 ([kernel.kallsyms])"

# kptr_restrict: every address 0.
sed 's/^[0-9a-f]*/0000000000000000/' "$TMP/kallsyms" >"$TMP/hidden"
"$HWTRACE" decode --format jsonl --kallsyms "$TMP/hidden" "$Q" >"$TMP/h.jsonl" 2>"$TMP/h.err"
expect_eq "hidden: explained once" "$(grep -c 'kptr_restrict' "$TMP/h.err")" 1
expect_contains "hidden: the fix" "$(cat "$TMP/h.err")" "sysctl kernel.kptr_restrict=0"
# (User code of the capture's missing binaries is still named by file
# offset, ld-2.23.so+0x50b8: only kernel names are counted.)
kernel_named() { grep -c '"sym":[^}]*"dso":"\[kernel' "$1"; }
expect_eq "hidden: positive control, named with the addresses" "$(kernel_named "$TMP/k.jsonl")" 37
expect_eq "hidden: nothing named" "$(kernel_named "$TMP/h.jsonl")" 0
expect_eq "hidden: decode goes on" "$(grep -c '"type":"trace_on"' "$TMP/h.jsonl")" 137

# A missing kallsyms file: one message, decode goes on.
"$HWTRACE" decode --format jsonl --kallsyms "$TMP/nope" "$Q" >"$TMP/n.jsonl" 2>"$TMP/n.err"
expect_eq "missing kallsyms: exit status" "$?" 0
expect_eq "missing kallsyms: one message" "$(grep -c "$TMP/nope" "$TMP/n.err")" 1
# --vmlinux: an ELF standing in for the kernel (a 56 KiB function, so
# that the trace's kernel addresses fall in it), placed where the
# capture's kernel MMAP says _text ran: names as addr2line gives them at
# the same offsets from the first executable segment.
cat >"$TMP/fake_vmlinux.c" <<'C'
void before_big(void) {}
void big_fn(void) { __asm__ volatile(".fill 0xe000, 1, 0x90"); }
void after_big(void) {}
int main(void) { return 0; }
C
gcc -g -O0 -o "$TMP/vmlinux" "$TMP/fake_vmlinux.c" || fail "gcc fake vmlinux"
text=$(readelf -lW "$TMP/vmlinux" | awk '$1 == "LOAD" && / R?W?E / { print $3; exit }')
[ -n "$text" ] || fail "no executable segment in the stand-in vmlinux"
# (It is not the capture's kernel, whose build id the capture records:
# --ignore-build-ids takes it all the same.)
"$HWTRACE" decode --format jsonl --ignore-build-ids --vmlinux "$TMP/vmlinux" "$Q" \
	>"$TMP/v.jsonl" 2>"$TMP/v.err"
for at in 0xffffffffb960d302 0xffffffffb960d300; do
	off=$(printf '0x%x' $((at - 0xffffffffb9600000 + text)))
	want=$(addr2line -f -e "$TMP/vmlinux" "$off" | head -1)
	start=$(nm "$TMP/vmlinux" | awk -v w="$want" '$3 == w { print "0x" $1 }')
	got=$(grep -m1 "\"at\":\"$at\"" "$TMP/v.jsonl" | sed -n 's/.*"sym":"\([^"]*\)","symoff":\([0-9]*\).*/\1+\2/p')
	expect_eq "--vmlinux: $at" "$got" "$want+$((off - start))"
done
# (15: the 10 TIP.PGE and the trace-off at its start, and 4 FUPs in it
# read from the packets after the walk was lost)
expect_eq "--vmlinux: trace on/off in big_fn" "$(grep -c '"type":"trace_o\(n\|ff\)".*"sym":"big_fn"' "$TMP/v.jsonl")" 15
# A capture of another machine is never named from this machine's
# /proc/kallsyms: said once, kernel addresses left unnamed.
"$HWTRACE" decode --format jsonl "$HWT_TESTDATA/perf-data/quipper/perf.data.intel_pt-4.14" \
	>"$TMP/host.jsonl" 2>"$TMP/host.err"
expect_eq "foreign capture: no kernel names" "$(kernel_named "$TMP/host.jsonl")" "0"
expect_eq "foreign capture: said once" "$(grep -c 'recorded on localhost (kernel 4.14.18)' "$TMP/host.err")" "1"
finish
