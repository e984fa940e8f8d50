#!/bin/bash
# Export throughput: on one capture, in the same run, CPU time of
# `hwtrace export --to sqlite`, `--to postgresql` and `--to pprof`
# (symbols on, as a user runs them) against perf's own
# export-to-sqlite.py (`perf script --itrace=b -s export-to-sqlite.py DB
# branches calls`: the same samples, one per branch, and calls), N
# interleaved runs each: the median, the spread (least and most) and the
# median per million branches. The goal: sqlite at least 20 times perf's
# speed. PostgreSQL goes to a server this script starts in a temporary
# directory (Debian's postgresql; as the postgres user when run as
# root): its CPU time is the client's (hwtrace encoding and sending the
# rows), its wall time includes the server's COPY, keys and indexes.
# The per-binary profiles (--to autofdo, --to bolt-preagg) are timed
# beside them, against the same peer.
# usage: bench/bench_export.sh BUILD_DIR [CAPTURE] [N]
set -eu
build=${1:?usage: bench_export.sh BUILD_DIR [CAPTURE] [N]}
data=${2:-}
n=${3:-3}
hwtrace="$build/tools/hwtrace"
export_py=/usr/lib/perf-core/scripts/python/export-to-sqlite.py
tmp=$(mktemp -d)
pgbin=""
for d in /usr/lib/postgresql/*/bin; do [ -x "$d/pg_ctl" ] && pgbin=$d; done
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
cleanup() {
	[ -n "$pgbin" ] && [ -d "$tmp/pg" ] &&
		as_pg "$pgbin/pg_ctl" -D "$tmp/pg" -m immediate stop >/dev/null 2>&1
	rm -rf "$tmp"
}
trap cleanup EXIT
if [ -z "$data" ]; then
	data="$tmp/bench.data"
	"$build/tests/programs/swb_record" -o "$data" --quiet --start main --stop exit \
		-- "$build/tests/programs/swb_demo" 3000 >/dev/null 2>"$tmp/rec.err"
fi
branches=$("$hwtrace" decode --no-symbols --format jsonl "$data" 2>/dev/null |
	grep -c '"type":"branch"')

# A PostgreSQL server on a Unix socket, when this build and machine have one.
db=""
if [ -n "$pgbin" ] && ! "$hwtrace" export "$data" --to postgresql \
	--db "host=$tmp/none" 2>&1 | grep -q 'without PostgreSQL'; then
	chmod 711 "$tmp"
	mkdir "$tmp/pg" "$tmp/sock"
	[ "$(id -u)" = 0 ] && chown postgres "$tmp/pg" "$tmp/sock"
	as_pg "$pgbin/initdb" -N -A trust -U bench -D "$tmp/pg" >/dev/null
	as_pg "$pgbin/pg_ctl" -D "$tmp/pg" -w -l "$tmp/pg/log" \
		-o "-k $tmp/sock -c listen_addresses= -p 5432" start >/dev/null
	"$pgbin/psql" -h "$tmp/sock" -U bench -d postgres -qc "CREATE DATABASE bench"
	db="host=$tmp/sock port=5432 user=bench dbname=bench"
else
	echo "postgresql: no server binaries or no libpq in this build: left out"
fi

cpu_ms() {
	perf stat -x, -e task-clock "$@" 2>&1 >/dev/null |
		awk -F, '/task-clock/ { printf "%.1f\n", $1 }'
}
wall_ms() {
	local t0 t1
	t0=$(date +%s%N)
	"$@" >/dev/null 2>&1
	t1=$(date +%s%N)
	echo "$(( (t1 - t0) / 1000000 ))"
}
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
spread() { sort -n | awk 'NR == 1 { lo = $1 } { hi = $1 } END { print lo "-" hi }'; }

for _ in $(seq 1 "$n"); do
	rm -f "$tmp/h.db" "$tmp/p.db"
	cpu_ms "$hwtrace" export "$data" --to sqlite -o "$tmp/h.db" >>"$tmp/sqlite"
	cpu_ms "$hwtrace" export "$data" --to pprof -o "$tmp/h.pb.gz" >>"$tmp/pprof"
	cpu_ms "$hwtrace" export "$data" --to autofdo -o "$tmp/h" >>"$tmp/autofdo"
	cpu_ms "$hwtrace" export "$data" --to bolt-preagg -o "$tmp/h" >>"$tmp/bolt-preagg"
	if [ -n "$db" ]; then
		cpu_ms "$hwtrace" export "$data" --to postgresql --replace --db "$db" \
			>>"$tmp/postgresql"
		wall_ms "$hwtrace" export "$data" --to postgresql --replace --db "$db" \
			>>"$tmp/pg_wall"
	fi
	(cd "$tmp" && cpu_ms perf script -i "$data" --itrace=b -s "$export_py" \
		p.db branches calls) >>"$tmp/perf"
done
peer=$(median <"$tmp/perf")
echo "capture: $data, $branches branches; CPU time, median of $n runs each (spread)"
for v in perf sqlite postgresql pprof autofdo bolt-preagg; do
	[ -s "$tmp/$v" ] || continue
	t=$(median <"$tmp/$v")
	printf "%-11s %9s ms (%s)  %8s ms per million branches  %6sx perf's speed\n" "$v" "$t" \
		"$(spread <"$tmp/$v")" "$(echo "scale=1; $t * 1000000 / $branches" | bc)" \
		"$(echo "scale=1; $peer / $t" | bc)"
done
if [ -s "$tmp/pg_wall" ]; then
	printf "postgresql wall time, server included: %s ms (%s)\n" \
		"$(median <"$tmp/pg_wall")" "$(spread <"$tmp/pg_wall")"
fi
