#!/usr/bin/env bash
# Checks the layering rules of docs/architecture.md at link level: reads the
# defined and undefined symbols (nm) of every layer's objects and fails when
# a layer uses a symbol defined in a layer it may not use:
#   core/ and backends/  call nothing of analysis/ or tools/;
#   core/                names a backend only by its table, hwt_backend_<ip>
#                        (core/backend_registry.c);
#   one backend          calls nothing of another backend;
#   analysis/            calls nothing of a backend or of tools/.
# Usage: check_link_rules.sh LAYERS [NM]. LAYERS lists the objects: a line
# "@ TARGET" starts a layer (hwtrace_core, hwtrace_analysis, hwtrace_tools;
# any other hwtrace_<ip> is a backend), each following line is an object
# file of it. NM defaults to nm. Prints one line per violation
# ("SOURCE: RULE: SYMBOL (defined in LAYER)") and exits 1 when there is any,
# 2 when it cannot read the objects.
set -u
layers=${1:?usage: check_link_rules.sh LAYERS [NM]}
nm=${2:-nm}
[ -r "$layers" ] || { echo "check_link_rules: $layers: cannot read" >&2; exit 2; }

# objects: "LAYER OBJECT" a line, from the layers file.
objects=$(awk '
	/^$/ { next }
	/^@ / { layer = substr($0, 3); next }
	layer == "" { print "check_link_rules: an object before the first layer" > "/dev/stderr"; exit 2 }
	{ print layer, $0 }' "$layers") || exit 2
[ -n "$objects" ] || { echo "check_link_rules: $layers lists no objects" >&2; exit 2; }

# listing: "OBJECT: SYMBOL TYPE ..." for every global symbol of every
# object, from one nm run over all of them.
errors=$(mktemp) || exit 2
trap 'rm -f "$errors"' EXIT
listing=$(cut -d' ' -f2- <<<"$objects" | tr '\n' '\0' | xargs -0 "$nm" -g -P -A 2>"$errors")
if [ $? -ne 0 ] || [ -s "$errors" ]; then
	echo "check_link_rules: $nm failed: $(head -3 "$errors")" >&2
	exit 2
fi

awk '
function kind(layer) {
	if (layer == "hwtrace_core") return "core"
	if (layer == "hwtrace_analysis") return "analysis"
	if (layer == "hwtrace_tools") return "tools"
	return "backend"
}
# The source file an object was built from, for the message.
function source(obj,   s) {
	s = obj
	sub(/^.*\.dir\//, "", s)
	sub(/\.o$/, "", s)
	return s
}
function rule(from, to, fk, tk, sym) {
	if ((fk == "core" || fk == "backend") && tk == "analysis")
		return (fk == "core" ? "core/" : "a backend") " must not call analysis/"
	if ((fk == "core" || fk == "backend" || fk == "analysis") && tk == "tools")
		return (fk == "core" ? "core/" : fk == "analysis" ? "analysis/" : "a backend") " must not call tools/"
	if (fk == "backend" && tk == "backend" && from != to)
		return "a backend must not call another backend"
	if (fk == "analysis" && tk == "backend")
		return "analysis/ must not call a backend"
	if (fk == "core" && tk == "backend" && sym !~ /^hwt_backend_[a-z0-9_]+$/)
		return "core/ names a backend only by its table (hwt_backend_<ip>)"
	return ""
}
FNR == NR { layer_of[substr($0, index($0, " ") + 1)] = $1; next }
{
	obj = substr($1, 1, length($1) - 1)
	l = layer_of[obj]
	if ($3 == "U" || $3 == "w" || $3 == "v") {
		n++; ul[n] = l; uo[n] = obj; us[n] = $2
	} else {
		def[$2] = l
	}
}
END {
	bad = 0
	for (i = 1; i <= n; i++) {
		if (!(us[i] in def))
			continue
		to = def[us[i]]
		if (to == ul[i])
			continue
		r = rule(ul[i], to, kind(ul[i]), kind(to), us[i])
		if (r != "") {
			printf "%s: %s: %s (defined in %s)\n", source(uo[i]), r, us[i], to
			bad = 1
		}
	}
	exit bad
}' <(printf '%s\n' "$objects") <(printf '%s\n' "$listing")
