# Shared by the partial-result tests (sourced after lib.sh, not a test
# itself): one random tree of `hwtrace merge --partial`.
# merge_tree KIND OUT TRIAL MAX PART...: the parts shuffled (bash's
# RANDOM: seed it for a fixed sequence), cut into random groups of 1 to
# MAX, each group of two or more merged to a partial (a group of one is
# its part), then the groups merged into OUT.
merge_tree() {
	local kind=$1 out=$2 t=$3 max=$4
	shift 4
	local -a v=("$@") g=()
	local n=${#v[@]} j k tmp
	for ((j = n - 1; j > 0; j--)); do
		k=$((RANDOM % (j + 1)))
		tmp=${v[j]} v[j]=${v[k]} v[k]=$tmp
	done
	j=0
	while [ "$j" -lt "$n" ]; do
		k=$((1 + RANDOM % max))
		if [ "$k" = 1 ]; then
			g+=("${v[j]}")
		else
			"$HWTRACE" merge --kind "$kind" --partial "${v[@]:j:k}" \
				-o "$TMP/g$t.${#g[@]}" || fail "$kind trial $t: group merge"
			g+=("$TMP/g$t.${#g[@]}")
		fi
		j=$((j + k))
	done
	"$HWTRACE" merge --kind "$kind" --partial "${g[@]}" -o "$out" ||
		fail "$kind trial $t: merge of groups"
	rm -f "$TMP/g$t".*
}
