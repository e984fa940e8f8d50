#!/usr/bin/env bash
# Checks the layering rules of docs/architecture.md over a source tree:
#   core/      includes no analysis/ and no backends/ header;
#   backends/  includes public headers (hwtrace/...) and its own folder only:
#              never core/, analysis/ or another backend;
#   analysis/  includes public headers and its own folder only;
#   tools/     includes public headers and tools/ only.
# Usage: check_include_rules.sh ROOT. Prints one line per violation
# ("FILE:LINE: RULE: #include ...") and exits 1 when there is any.
set -u
root=${1:?usage: check_include_rules.sh ROOT}
cd "$root" || exit 2
bad=0

# violation FILE:LINE:TEXT RULE
violation() {
	local where=${1%%:#*} text=${1#*:*:}
	echo "$where: $2: $text"
	bad=1
}

# project_includes DIR: "FILE:LINE:#include \"PATH\"" for quoted includes.
project_includes() {
	[ -d "$1" ] || return 0
	grep -rnE --include='*.c' --include='*.h' --include='*.cc' \
		'^[[:space:]]*#[[:space:]]*include[[:space:]]+"' "$1" || true
}

included_path() {
	[[ $1 =~ include[[:space:]]+\"([^\"]+)\" ]] && echo "${BASH_REMATCH[1]}"
}

while IFS= read -r line; do
	[ -n "$line" ] || continue
	inc=$(included_path "$line")
	case $inc in
	analysis/*) violation "$line" "core/ must not include analysis/" ;;
	backends/*) violation "$line" "core/ must not include a backend" ;;
	esac
done < <(project_includes core)

while IFS= read -r line; do
	[ -n "$line" ] || continue
	file=${line%%:*}
	own=${file%/*}
	inc=$(included_path "$line")
	case $inc in
	hwtrace/*) ;;
	"$own"/*) ;;
	backends/*) violation "$line" "a backend must not include another backend" ;;
	*) violation "$line" "a backend includes only public headers (hwtrace/) and its own folder" ;;
	esac
done < <(project_includes backends)

while IFS= read -r line; do
	[ -n "$line" ] || continue
	inc=$(included_path "$line")
	case $inc in
	hwtrace/* | analysis/*) ;;
	*) violation "$line" "analysis/ includes only public headers (hwtrace/) and analysis/" ;;
	esac
done < <(project_includes analysis)

while IFS= read -r line; do
	[ -n "$line" ] || continue
	inc=$(included_path "$line")
	case $inc in
	hwtrace/* | tools/*) ;;
	*/*) violation "$line" "tools/ includes only public headers (hwtrace/) and tools/" ;;
	*) ;; # a header beside the file (tools/cli.h as "cli.h")
	esac
done < <(project_includes tools)

exit $bad
