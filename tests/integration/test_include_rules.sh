# The layering rules of docs/architecture.md hold in the tree, and the
# checker finds each kind of violation when one is planted in a copy.
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"
check="$HWT_SOURCE_DIR/tests/tools/check_include_rules.sh"

out=$(bash "$check" "$HWT_SOURCE_DIR" 2>&1)
expect_eq "the tree keeps the rules" "$?:$out" "0:"

tree="$TMP/tree"
mkdir -p "$tree"
cp -r "$HWT_SOURCE_DIR/core" "$HWT_SOURCE_DIR/backends" \
	"$HWT_SOURCE_DIR/analysis" "$HWT_SOURCE_DIR/tools" "$tree/"

# plant FILE TEXT RULE: one violation, found with its file and rule.
plant() {
	local file=$1 text=$2 rule=$3
	cp "$tree/$file" "$tree/$file.orig"
	printf '%s\n' "$text" >>"$tree/$file"
	out=$(bash "$check" "$tree" 2>&1)
	expect_eq "$file: exit status" "$?" "1"
	expect_contains "$file: message" "$out" "$file:"
	expect_contains "$file: rule" "$out" "$rule: $text"
	expect_eq "$file: one violation" "$(wc -l <<<"$out")" "1"
	mv "$tree/$file.orig" "$tree/$file"
}

plant core/decode/decode_file.c '#include "analysis/output.h"' \
	"core/ must not include analysis/"
plant core/capture/ring_aux.c '#include "backends/x86-pt/pt_meta.h"' \
	"core/ must not include a backend"
plant backends/sw-branch/swb_record.c '#include "backends/x86-bts/bts_meta.h"' \
	"a backend must not include another backend"
plant backends/x86-pt/pt_record.c '#include "core/config/config_internal.h"' \
	"a backend includes only public headers (hwtrace/) and its own folder"
plant analysis/output.c '#include "core/decode/decode_internal.h"' \
	"analysis/ includes only public headers (hwtrace/) and analysis/"
plant tools/cmd_decode.c '#include "core/perfdata/perfdata_format.h"' \
	"tools/ includes only public headers (hwtrace/) and tools/"

out=$(bash "$check" "$tree" 2>&1)
expect_eq "the copy is clean again" "$?:$out" "0:"
finish
