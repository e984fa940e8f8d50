# bash completion (tools/completion/hwtrace.bash): sourced, its function is
# called with COMP_WORDS and COMP_CWORD set as bash sets them, and COMPREPLY
# is compared whole: subcommands, options, INI files, PMU names and @sink
# names read from the fixture sysfs trees given with --sysfs.
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"
# shellcheck disable=SC1091
source "$HWT_SOURCE_DIR/tools/completion/hwtrace.bash"
SYSFS="$HWT_SOURCE_DIR/tests/fixtures/sysfs"

# complete WORD... : completes the last word; prints COMPREPLY sorted, one a line.
complete_words() {
	COMP_WORDS=("$@")
	COMP_CWORD=$(($# - 1))
	COMPREPLY=()
	_hwtrace
	printf '%s\n' "${COMPREPLY[@]}" | sort
}
# complete_at N WORD... : completes word N (the cursor before later words).
complete_at() {
	local n=$1
	shift
	COMP_WORDS=("$@")
	COMP_CWORD=$n
	COMPREPLY=()
	_hwtrace
	printf '%s\n' "${COMPREPLY[@]}" | sort
}
lines() { printf '%s\n' "$@"; }

expect_eq "subcommands" "$(complete_words hwtrace "")" \
	"$(lines --help --plugin --version annotate cluster config decode dump export info list merge record report timeline units view)"
expect_eq "subcommand prefix d" "$(complete_words hwtrace d)" "$(lines decode dump)"
expect_eq "record --comp" "$(complete_words hwtrace record --comp)" \
	"$(lines --compress-aux --compression-level)"
expect_eq "record --trig" "$(complete_words hwtrace record --trig)" \
	"$(lines --trigger --trigger-after --trigger-count)"
expect_eq "record --trigger kinds" "$(complete_words hwtrace record --trigger "")" \
	"$(lines latency: signal: symbol:)"
expect_eq "record --branch" "$(complete_words hwtrace record --branch)" \
	"$(lines --branch-any --branch-filter)"
expect_eq "record -j any_c" "$(complete_words hwtrace record -j any_c)" "any_call"
expect_eq "record -j any,u,save" "$(complete_words hwtrace record -j any,u,save)" \
	"any,u,save_type"
expect_eq "dump options" "$(complete_words hwtrace dump -)" \
	"$(lines --header-only --help --hex --raw -h)"
expect_eq "decode --format" "$(complete_words hwtrace decode --format "")" "$(lines jsonl text)"
expect_eq "config verb" "$(complete_words hwtrace config "")" "check"
expect_eq "timeline --format" "$(complete_words hwtrace timeline x.data --format "")" \
	"$(lines chrome perfetto)"
expect_eq "report --weight" "$(complete_words hwtrace report x.data --weight "")" \
	"$(lines calls insns time)"
expect_eq "report --sort" "$(complete_words hwtrace report x.data --sort "")" \
	"$(lines calls children dso self sym total)"
expect_eq "report --sort after a comma" \
	"$(complete_words hwtrace report x.data --sort dso,s)" "$(lines dso,self dso,sym)"
expect_eq "report --co" "$(complete_words hwtrace report --co)" "$(lines --collapsed --comm)"
expect_eq "timeline --ds: the frame filter" "$(complete_words hwtrace timeline --ds)" "--dso"
expect_eq "annotate has no frame filter" "$(complete_words hwtrace annotate --co)" ""
expect_eq "annotate --format" "$(complete_words hwtrace annotate f x.data --format "")" "$(lines jsonl text)"
expect_eq "report --call" "$(complete_words hwtrace report --call)" "$(lines --call-graph --callees --callers)"
expect_eq "decode -F after a comma" "$(complete_words hwtrace decode x.data -F ip,s)" "$(lines ip,srcline ip,sym ip,symoff)"
expect_eq "merge --kind" "$(complete_words hwtrace merge --kind "")" \
	"$(lines autofdo bolt bolt-preagg branch-profile collapsed edges pprof report sqlite)"
expect_eq "merge options" "$(complete_words hwtrace merge --p)" "--partial"
expect_eq "cluster --to" "$(complete_words hwtrace cluster --to "")" \
	"$(lines autofdo bolt bolt-preagg branch-profile collapsed edges pprof report sqlite)"
expect_eq "units options" "$(complete_words hwtrace units -)" "$(lines --help -h -o)"
expect_eq "view --ti" "$(complete_words hwtrace view x.data --ti)" "$(lines --tid --time --timeline-pixels)"
expect_eq "view has no --srcline" "$(complete_words hwtrace view x.data --src)" ""

# PMUs of the Juno fixture (cs_etm) and of the Intel one, through --sysfs
# before or after the option being completed.
expect_eq "juno PMUs" \
	"$(complete_words hwtrace record --sysfs "$SYSFS/juno" -e "")" "$(lines cs_etm sw_branch)"
expect_eq "intel PMUs" \
	"$(complete_words hwtrace record --sysfs="$SYSFS/intel-client" -e "")" \
	"$(lines intel_bts intel_pt sw_branch)"
expect_eq "no-trace PMUs" \
	"$(complete_words hwtrace record --sysfs "$SYSFS/no-trace" -e "")" "sw_branch"
expect_eq "config check -e" \
	"$(complete_words hwtrace config check --sysfs "$SYSFS/juno" -e cs)" "cs_etm"

# Sinks: after @ in an event string, and for --sink.
expect_eq "juno sinks after @" \
	"$(complete_words hwtrace record --sysfs "$SYSFS/juno" -e cs_etm/@tmc)" \
	"$(lines cs_etm/@tmc_etf0/ cs_etm/@tmc_etr0/)"
expect_eq "juno --sink, --sysfs after the cursor" \
	"$(complete_at 3 hwtrace record --sink "" --sysfs "$SYSFS/juno")" \
	"$(lines tmc_etf0 tmc_etr0 tpiu0)"

# --plugin FILE before the command: shared objects, then the command and
# its options as without it.
touch "$TMP/p/toy.so" 2>/dev/null || { mkdir -p "$TMP/p"; touch "$TMP/p/toy.so"; }
expect_eq "--plugin offers .so files" "$(complete_words hwtrace --plugin "$TMP/p/t")" "$TMP/p/toy.so"
expect_eq "command after --plugin" "$(complete_words hwtrace --plugin x.so d)" "$(lines decode dump)"
expect_eq "PMUs after --plugin" \
	"$(complete_words hwtrace --plugin x.so record --sysfs "$SYSFS/juno" -e "")" "$(lines cs_etm sw_branch)"

# INI profiles: only .ini files (and directories) are offered.
mkdir -p "$TMP/p/sub"
touch "$TMP/p/a.ini" "$TMP/p/b.ini" "$TMP/p/notes.txt"
expect_eq "-c INI files" "$(complete_words hwtrace record -c "$TMP/p/")" \
	"$(lines "$TMP/p/a.ini" "$TMP/p/b.ini" "$TMP/p/sub/")"
expect_eq "config check INI files" "$(complete_words hwtrace config check "$TMP/p/")" \
	"$(lines "$TMP/p/a.ini" "$TMP/p/b.ini" "$TMP/p/sub/")"
finish
