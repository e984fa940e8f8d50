# What the shell benchmarks share (sourced): timing commands interleaved
# run after run, and the median and spread of what was timed.

# time_run NAME FUNCTION ARGS...: runs FUNCTION ARGS once, its output to
# /dev/null and its standard error to $tmp/NAME.err, and appends "wall
# cpu" seconds (cpu: user + system) to $tmp/NAME.times.
time_run() {
	local name=$1 TIMEFORMAT='%R %U %S'
	shift
	{ time "$@" >/dev/null 2>"$tmp/$name.err"; } 2>"$tmp/t"
	awk '{ printf "%.3f %.3f\n", $1, $2 + $3 }' "$tmp/t" >>"$tmp/$name.times"
}

# stats FILE COLUMN: the median, least and most of COLUMN of FILE.
stats() {
	sort -n -k"$2" "$1" | awk -v k="$2" '{ v[NR] = $k }
		END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		      printf "%.3f %.3f %.3f", m, v[1], v[NR] }'
}

# ratio A B: A / B with two decimals (0 when B is 0).
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }

# table N NAME LABEL [NAME LABEL ...]: prints each command's median and
# spread of wall and CPU seconds over its N runs, and keeps the medians
# in the arrays wall[NAME] and cpu[NAME] (declared by the caller: declare
# -A wall cpu).
table() {
	local n=$1 c wm wl wh cm cl ch
	shift
	printf "%-40s %22s %22s\n" "$n runs each, median (least..most)" "wall s" "CPU s"
	while [ $# -ge 2 ]; do
		c=$1
		read -r wm wl wh <<<"$(stats "$tmp/$c.times" 1)"
		read -r cm cl ch <<<"$(stats "$tmp/$c.times" 2)"
		wall[$c]=$wm cpu[$c]=$cm
		printf "%-40s %7.3f (%.3f..%.3f) %7.3f (%.3f..%.3f)\n" "$2" \
			"$wm" "$wl" "$wh" "$cm" "$cl" "$ch"
		shift 2
	done
}

# bench_all N: runs each command of the caller's array names (through
# its function run NAME) N times, the commands interleaved run after run,
# then prints the table with the caller's array labels (declare -A wall
# cpu first).
bench_all() {
	local n=$1 c i rows=()
	for _ in $(seq 1 "$n"); do
		for c in "${names[@]}"; do
			time_run "$c" run "$c"
		done
	done
	for i in "${!names[@]}"; do
		rows+=("${names[$i]}" "${labels[$i]}")
	done
	table "$n" "${rows[@]}"
}
