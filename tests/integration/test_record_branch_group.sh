# hwtrace record -j ...,counter -e '{LEADER,MEMBER}' on the kernel
# emulator: an event group whose counts ride in each branch record's
# counter word (Linux 6.8's branch counters), sampled from a sw_branch
# capture of pgo_loop on intel-lbr-counters (Crestmont, 4 counters of 2
# bits). The group: branches (the leader, every taken branch) and
# Crestmont's BR_INST_RETIRED.COND_TAKEN (cpu/event=0xc4,umask=0xfe/),
# the taken conditional branches. The oracles:
# - the ground truth (every taken branch in order) sampled by hand: each
#   kept record's counts are the truth's branches, and its conditional
#   ones, after the filter's previous kept record up to and including
#   this one, saturating at 3; which branches are conditional objdump
#   says (tests/tools/cond_branches.py), not hwtrace;
# - perf 6.1 (perf evlist -g, perf report --header-only) names the group
#   and its members from the file's GROUP_DESC and attrs, and perf script
#   prints the same samples as for the leader alone;
# - hwtrace decode's jsonl "counts" and text " counts" give the same;
# - the profile's [branch] group gives the same records;
# - usage errors (exit 2, the option named, no file left): more events
#   asking for counters than caps/branch_counter_nr, branch_type=counter
#   outside a group, a group mixing PMUs, the leader without counters.
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"
# tests/tools/branch_samples.py: a decode's branch records by sample.
export PYTHONPATH="$HWT_SOURCE_DIR/tests/tools${PYTHONPATH:+:$PYTHONPATH}"
source "$HWT_SOURCE_DIR/tests/integration/pgo_loop.sh"
pgo_loop_capture "clang perf objdump readelf" "clang linux-perf binutils"
FIX="$HWT_SOURCE_DIR/tests/fixtures/sysfs"
GROUP='{branches,cpu/event=0xc4,umask=0xfe/}'

pgo_loop_truth
python3 "$HWT_SOURCE_DIR/tests/tools/cond_branches.py" "$data" "$TMP/truth.txt" \
	>"$TMP/cond.txt" || fail "objdump reads the truth's branches"
expect_eq "the truth: hot's loop back edge, a conditional branch, runs CALLS x (N - 1) times" \
	"$(awk 'NR == FNR { c[$1] = 1; next } $1 in c' "$TMP/cond.txt" "$TMP/truth.txt" |
		awk '{ n[$1 " " $2]++ } END { for (k in n) if (n[k] == 990) m++; print m }')" 1

# want PERIOD DEPTH KINDS: per sample (after every PERIOD-th branch), its
# kept records newest first (KINDS: the filter's, joined by +), each
# "TAKEN,COND": the counts since the previous kept record, saturated.
want() {
	python3 - "$TMP/truth.txt" "$TMP/cond.txt" "$@" <<'PY'
import sys
b = [l.split() for l in open(sys.argv[1])]
cond = set(open(sys.argv[2]).read().split())
period, depth, kinds = int(sys.argv[3]), int(sys.argv[4]), sys.argv[5].split("+")
keep = lambda x: x[2] in kinds
sat = lambda n: min(n, 3)
counts, taken, conds = {}, 0, 0
for j, x in enumerate(b):
    taken += 1
    conds += x[0] in cond
    if keep(x):
        counts[j] = "%d,%d" % (sat(taken), sat(conds))
        taken = conds = 0
for i in range(period - 1, len(b), period):
    at = [j for j in range(i, -1, -1) if keep(b[j])][:depth]
    print(*(counts[j] for j in at))
PY
}
# got JSONL: hwtrace's counts, a sample a line (its records share its
# time), newest first.
got() {
	python3 - "$1" <<'PY'
import json, sys
from branch_samples import branch_samples
for recs in branch_samples(sys.argv[1]):
    print(*(",".join(map(str, e["counts"])) for e in recs))
PY
}
rec() {
	local name=$1
	shift
	"$HWTRACE" record "$@" --sysfs "$FIX/intel-lbr-counters" --emulate-branches "$data" \
		-o "$TMP/$name.data" 2>"$TMP/$name.err" || fail "record $name: $(cat "$TMP/$name.err")"
}

KINDS=call+return
rec grp -j any_call,any_ret,u,counter -c 20 -e "$GROUP"
"$HWTRACE" decode --format jsonl "$TMP/grp.data" >"$TMP/grp.jsonl" 2>/dev/null || fail "decode grp"
want 20 32 "$KINDS" >"$TMP/grp.want"
got "$TMP/grp.jsonl" >"$TMP/grp.got"
expect_eq "grp: samples" "$(wc -l <"$TMP/grp.got")" "$(wc -l <"$TMP/grp.want")"
expect_eq "grp: every record's counts are the truth's taken and conditional branches since the last kept" \
	"$(md5sum <"$TMP/grp.got")" "$(md5sum <"$TMP/grp.want")"
expect_eq "grp: both counts take every value 0 to 3 (3: saturated)" \
	"$(tr ' ,' '\n\n' <"$TMP/grp.got" | sort -u | tr '\n' ' ')" "0 1 2 3 "
expect_eq "grp: conditional counts below the taken ones never exceed them" \
	"$(tr ' ' '\n' <"$TMP/grp.got" | awk -F, '$2 > $1' | wc -l)" 0
expect_eq "grp: the text listing's counts are the jsonl's" \
	"$("$HWTRACE" decode "$TMP/grp.data" 2>/dev/null | grep -o ' counts [0-9,]*' | md5sum)" \
	"$(grep -o '"counts":\[[0-9,]*' "$TMP/grp.jsonl" | sed 's/"counts":\[/ counts /' | md5sum)"
# perf 6.1 names the group from GROUP_DESC: the leader and its member,
# each by its attr (perf's names), the sideband event outside it.
expect_eq "grp: perf evlist -g shows the group" \
	"$(perf evlist -g -i "$TMP/grp.data" 2>/dev/null)" \
	"$(printf 'dummy:u\n{branches:u,raw 0xfec4:u}')"
expect_eq "grp: perf report --header-only names the group" \
	"$(perf report --header-only -i "$TMP/grp.data" 2>/dev/null | grep '^# group:')" \
	"# group: {branches:u,raw 0xfec4:u}"
expect_eq "grp: the counters' caps are in the file" \
	"$(perf report --header-only -i "$TMP/grp.data" 2>/dev/null |
		grep -o 'branch_counter_nr=4, branch_counter_width=2')" \
	"branch_counter_nr=4, branch_counter_width=2"

# The members change what the records count, not which records: perf
# 6.1 prints the same samples and branch stacks as for the leader alone
# (it warns of the counters bit it predates), and the leader's own count,
# field 0, is the lone leader's.
rec alone -j any_call,any_ret,u,counter -c 20
expect_eq "grp: perf reads the leader alone's samples" \
	"$(perf script -F ip,period,brstack -i "$TMP/grp.data" 2>/dev/null | md5sum)" \
	"$(perf script -F ip,period,brstack -i "$TMP/alone.data" 2>/dev/null | md5sum)"
expect_eq "grp: perf's samples are the sampled ones" \
	"$(perf script -F ip -i "$TMP/grp.data" 2>/dev/null | wc -l)" "$(wc -l <"$TMP/grp.want")"
"$HWTRACE" decode --format jsonl "$TMP/alone.data" >"$TMP/alone.jsonl" 2>/dev/null || fail "decode alone"
expect_eq "grp: the leader's counts are the lone leader's" \
	"$(got "$TMP/grp.jsonl" | tr ' ' '\n' | cut -d, -f1 | md5sum)" \
	"$(got "$TMP/alone.jsonl" | tr ' ' '\n' | md5sum)"

# A group of one is no group (perf writes GROUP_DESC for more than one
# event only): the file of the leader alone.
rec one -j any_call,any_ret,u,counter -c 20 -e '{branches}'
expect_eq "one: no group in the file" \
	"$(perf report --header-only -i "$TMP/one.data" 2>/dev/null | grep -c '^# group:')" 0
"$HWTRACE" decode --format jsonl "$TMP/one.data" >"$TMP/one.jsonl" 2>/dev/null || fail "decode one"
expect_eq "one: the lone leader's counts" \
	"$(got "$TMP/one.jsonl" | md5sum)" "$(got "$TMP/alone.jsonl" | md5sum)"

# The profile's [branch] group: the same records.
printf '[branch]\nfilter = any_call,any_ret,u,counter\nperiod = 20\ngroup = %s\n' "$GROUP" >"$TMP/g.ini"
rec prof --config "$TMP/g.ini"
"$HWTRACE" decode --format jsonl "$TMP/prof.data" >"$TMP/prof.jsonl" 2>/dev/null || fail "decode prof"
expect_eq "profile: [branch] group gives -e's counts" \
	"$(got "$TMP/prof.jsonl" | md5sum)" "$(md5sum <"$TMP/grp.got")"

# Errors: usage errors, exit 2, the option named, no file written. What
# -e's syntax says is refused as the options are read ("hwtrace record:",
# with the usage hint), what the PMU allows once its sysfs is read, as
# the library's other errors ("hwtrace:").
bad() {
	local name=$1 msg=$2
	shift 2
	"$HWTRACE" record "$@" --sysfs "$FIX/intel-lbr-counters" --emulate-branches "$data" \
		-o "$TMP/bad_$name.data" 2>"$TMP/bad_$name.err"
	expect_eq "$name: exit 2" "$?" 2
	expect_eq "$name: the message" "$(head -1 "$TMP/bad_$name.err")" "$msg"
}
bad too_many "hwtrace: -e {branches,branches,branches,branches,branches}: 5 events of the group ask for branch counters and cpu has 4 (caps/branch_counter_nr)" \
	-j any,counter -c 20 -e '{branches,branches,branches,branches,branches}'
bad no_group "hwtrace record: -e cpu/branch-misses,branch_type=counter/: not an event group: branch counters count the events of a group, give -e '{LEADER,MEMBER,...}' (perf's braces)" \
	-j any -c 20 -e 'cpu/branch-misses,branch_type=counter/'
bad mixed "hwtrace: -e {branches,cpu_atom/branch-misses/}: a group with branch counters is of one PMU, the branch records' (cpu): cpu_atom/branch-misses/ is on cpu_atom (the kernel counts only its own events into the records)" \
	-j any,counter -c 20 -e '{branches,cpu_atom/branch-misses/}'
bad leader "hwtrace: -e {branches,cpu/branch-misses,branch_type=counter/}: the leader branches samples the records and writes their counters: it asks for counters too (-j ...,counter or its branch_type=counter)" \
	-j any -c 20 -e '{branches,cpu/branch-misses,branch_type=counter/}'
printf '[branch]\nfilter = any,counter\ngroup = {branches,intel_pt/branch-misses/}\n' >"$TMP/bad.ini"
bad profile_mixed "hwtrace: [branch] group = ($TMP/bad.ini): {branches,intel_pt/branch-misses/}: a group with branch counters is of one PMU, the branch records' (cpu): intel_pt/branch-misses/ is on intel_pt (the kernel counts only its own events into the records)" \
	--config "$TMP/bad.ini" -c 20
# A member the emulated kernel cannot count is the kernel's refusal
# (exit 1), and the emulator says why rather than the errno alone.
"$HWTRACE" record -j any_call,u,counter -c 20 -e '{branches,branch-misses}' \
	--sysfs "$FIX/intel-lbr-counters" --emulate-branches "$data" \
	-o "$TMP/bad_uncounted.data" 2>"$TMP/bad_uncounted.err"
expect_eq "a member the emulator cannot count: exit 1" "$?" 1
expect_eq "a member the emulator cannot count: why" "$(head -1 "$TMP/bad_uncounted.err")" \
	"hwtrace: perf_event_open of branch-misses (per-thread) refused: Operation not supported: the emulator counts only branches and BR_INST_RETIRED.COND_TAKEN (cpu/event=0xc4,umask=0xfe/) in a branch sampler's group: its ground truth holds the taken branches alone"
expect_eq "no output file after an error" "$(ls "$TMP"/bad_*.data 2>/dev/null | wc -l)" 0
finish
