# The layering rules hold at link level: no layer's objects use a symbol
# of a layer it may not use (tests/tools/check_link_rules.sh over the
# build's layers), and the checker finds each kind of violation when an
# object planted in a layer breaks it (tests/tools/link_plants/).
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"
check="$HWT_SOURCE_DIR/tests/tools/check_link_rules.sh"
layers="$HWT_BUILD_DIR/tests/layers.txt"
nm=${HWT_NM:-nm}

out=$(bash "$check" "$layers" "$nm" 2>&1)
expect_eq "the build keeps the rules" "$?:$out" "0:"
# core, analysis, tools, and one layer per backend folder.
backends=$(find "$HWT_SOURCE_DIR/backends" -mindepth 1 -maxdepth 1 -type d | wc -l)
expect_eq "every layer is listed" "$(grep -c '^@ ' "$layers")" $((backends + 3))
expect_eq "core has objects" \
	"$(awk '/^@ /{l=$2; next} l=="hwtrace_core"' "$layers" | grep -c 'backend_registry\.c\.o$')" 1

# plant NAME LAYER RULE SYMBOL: the plant's object added to LAYER is one
# violation, named with its source, rule and symbol.
plant() {
	local name=$1 layer=$2 rule=$3 sym=$4 obj
	obj=$(grep "/$name\.c\.o$" "$HWT_BUILD_DIR/tests/link_plants.txt")
	expect_eq "$name: the plant is built" "$(wc -l <<<"$obj")" 1
	awk -v l="$layer" -v o="$obj" '{ print } $0 == "@ " l { print o }' \
		"$layers" >"$TMP/layers.txt"
	out=$(bash "$check" "$TMP/layers.txt" "$nm" 2>&1)
	expect_eq "$name: exit status" "$?" "1"
	expect_contains "$name: message" "$out" \
		"link_plants/$name.c: $rule: $sym (defined in "
	expect_eq "$name: one violation" "$(wc -l <<<"$out")" "1"
}

plant core_calls_analysis hwtrace_core "core/ must not call analysis/" hwt_edges_write
plant core_calls_tools hwtrace_core "core/ must not call tools/" cmd_decode
plant core_names_backend_ops hwtrace_core \
	"core/ names a backend only by its table (hwt_backend_<ip>)" hwt_bts_decoder_ops
plant backend_calls_analysis hwtrace_x86_pt "a backend must not call analysis/" hwt_output_new
plant backend_calls_tools hwtrace_x86_bts "a backend must not call tools/" cmd_list
plant backend_calls_backend hwtrace_sw_branch \
	"a backend must not call another backend" hwt_bts_decoder_ops
plant analysis_calls_backend hwtrace_analysis "analysis/ must not call a backend" hwt_swb_record
plant analysis_calls_tools hwtrace_analysis "analysis/ must not call tools/" cmd_report

# An unreadable object is a failure of the check, not a pass.
printf '@ hwtrace_core\n%s\n' "$TMP/missing.o" >"$TMP/bad.txt"
bash "$check" "$TMP/bad.txt" "$nm" >/dev/null 2>&1
expect_eq "an unreadable object" "$?" "2"
finish
