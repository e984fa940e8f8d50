#!/bin/bash
# Export throughput: on one capture, in the same run, CPU and wall time of
# `hwtrace export --to sqlite`, `--to postgresql` and `--to pprof`
# (symbols on, as a user runs them) against perf's own
# export-to-sqlite.py (`perf script --itrace=b -s export-to-sqlite.py DB
# branches calls`: the same samples, one per branch, and calls), N
# interleaved runs each: the median, the spread (least and most) and the
# median per million branches. The goal: sqlite at least 20 times perf's
# speed. sqlite and postgresql store rows on a thread of their own by
# default (-j): their wall time is the throughput a user sees, their CPU
# time the sum of both threads; sqlite-j1 is the one-thread path.
# PostgreSQL goes to a server this script starts in a temporary
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

# run NAME COMMAND...: appends the command's CPU time (task-clock) to
# $tmp/NAME and its wall time to $tmp/NAME.wall, both in ms.
run() {
	local name=$1 t0 t1
	shift
	t0=$(date +%s%N)
	perf stat -x, -e task-clock "$@" 2>&1 >/dev/null |
		awk -F, '/task-clock/ { printf "%.1f\n", $1 }' >>"$tmp/$name"
	t1=$(date +%s%N)
	echo "$(( (t1 - t0) / 1000000 ))" >>"$tmp/$name.wall"
}
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
spread() { sort -n | awk 'NR == 1 { lo = $1 } { hi = $1 } END { print lo "-" hi }'; }

for _ in $(seq 1 "$n"); do
	rm -f "$tmp/h.db" "$tmp/h1.db" "$tmp/p.db"
	run sqlite "$hwtrace" export "$data" --to sqlite -o "$tmp/h.db"
	run sqlite-j1 "$hwtrace" export "$data" --to sqlite -j1 -o "$tmp/h1.db"
	run pprof "$hwtrace" export "$data" --to pprof -o "$tmp/h.pb.gz"
	run autofdo "$hwtrace" export "$data" --to autofdo -o "$tmp/h"
	run bolt-preagg "$hwtrace" export "$data" --to bolt-preagg -o "$tmp/h"
	if [ -n "$db" ]; then
		run postgresql "$hwtrace" export "$data" --to postgresql \
			--replace --db "$db"
	fi
	(cd "$tmp" && run perf perf script -i "$data" --itrace=b -s "$export_py" \
		p.db branches calls)
done
peer=$(median <"$tmp/perf")
peer_wall=$(median <"$tmp/perf.wall")
echo "capture: $data, $branches branches; median of $n runs each (spread)"
echo "sqlite, postgresql: rows stored on a thread of their own (-j default);"
echo "sqlite-j1: one thread. postgresql wall includes the server's work."
printf "%-11s %9s %13s %7s %9s %13s %7s\n" "" "CPU ms" "(spread)" \
	"x perf" "wall ms" "(spread)" "x perf"
for v in perf sqlite sqlite-j1 postgresql pprof autofdo bolt-preagg; do
	[ -s "$tmp/$v" ] || continue
	t=$(median <"$tmp/$v")
	w=$(median <"$tmp/$v.wall")
	printf "%-11s %9s %13s %7s %9s %13s %7s\n" "$v" "$t" "($(spread <"$tmp/$v"))" \
		"$(echo "scale=1; $peer / $t" | bc)" "$w" \
		"($(spread <"$tmp/$v.wall"))" "$(echo "scale=1; $peer_wall / $w" | bc)"
done
echo "per million branches (wall): sqlite $(echo "scale=1; \
$(median <"$tmp/sqlite.wall") * 1000000 / $branches" | bc) ms, perf \
$(echo "scale=1; $peer_wall * 1000000 / $branches" | bc) ms"
