# hwtrace export --to postgresql into a real PostgreSQL server (Debian's
# postgresql, started here in a temporary directory on a Unix socket,
# stopped at the end): the same queries give the same answers as the
# SQLite export of the same capture (every table's rows, calls per
# (caller, callee), samples per branch type, the views), and the
# context switches of a capture that has them equal perf's own
# export-to-sqlite.py's. Errors: an unreachable server, a bad password,
# a second export without --replace (refused, the data kept), with
# --replace (done).
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"
PROG="$HWT_BUILD_DIR/tests/programs/call_tree"
PERF=${PERF:-perf}
EXPORT=/usr/lib/perf-core/scripts/python/export-to-sqlite.py
QDATA=$HWT_TESTDATA/perf-data/quipper/perf.data.intel_pt-4.14

pgbin=""
for d in /usr/lib/postgresql/*/bin; do
	[ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ] && pgbin=$d
done
if [ -z "$pgbin" ]; then
	echo "SKIP: test_export_postgresql_matches_sqlite: no PostgreSQL server binaries (Debian: postgresql; make deps installs it)"
	exit 77
fi
# The server refuses to run as root: as the postgres user then, in
# directories it owns under the test's (made traversable for it).
if [ "$(id -u)" = 0 ]; then
	as_pg() { runuser -u postgres -- "$@"; }
	chmod 711 "$TMP"
else
	as_pg() { "$@"; }
fi
PGDIR=$TMP/pg SOCK=$TMP/sock
mkdir "$PGDIR" "$SOCK"
[ "$(id -u)" = 0 ] && chown postgres "$PGDIR" "$SOCK"
trap 'as_pg "$pgbin/pg_ctl" -D "$PGDIR" -m immediate stop >/dev/null 2>&1; rm -rf "$TMP"' EXIT
as_pg "$pgbin/initdb" -N -A trust -U admin -D "$PGDIR" >"$TMP/initdb.log" 2>&1 ||
	{ fail "initdb: $(tail -3 "$TMP/initdb.log")"; finish; exit 1; }
# The export's user logs in with a password (SCRAM); the admin needs none.
cat >"$TMP/hba" <<'HBA'
local all hwt scram-sha-256
local all admin trust
HBA
as_pg cp "$TMP/hba" "$PGDIR/pg_hba.conf"
as_pg "$pgbin/pg_ctl" -D "$PGDIR" -w -l "$PGDIR/log" -o "-k $SOCK -c listen_addresses= -c fsync=off -p 5432" \
	start >/dev/null 2>&1 || { fail "pg_ctl start: $(tail -3 "$PGDIR/log")"; finish; exit 1; }
admin() { "$pgbin/psql" -h "$SOCK" -U admin -d postgres -v ON_ERROR_STOP=1 -qAt "$@"; }
admin -c "CREATE USER hwt PASSWORD 'secret'" && admin -c "CREATE DATABASE hwt OWNER hwt" ||
	{ fail "create user and database"; finish; exit 1; }
DB="host=$SOCK port=5432 dbname=hwt user=hwt password=secret"
pg() { PGPASSWORD=secret "$pgbin/psql" -h "$SOCK" -U hwt -d hwt -qAt -c "$1"; }
# NULL prints as psql prints it: empty.
lite() { python3 -c 'import sqlite3, sys
for r in sqlite3.connect(sys.argv[1]).execute(sys.argv[2]):
    print("|".join("" if v is None else str(v) for v in r))' "$@"; }
# The same query on both: the same lines.
same() {
	expect_eq "$1" "$(pg "$2")" "$(lite "$3" "$2")"
}
# Every row of table $1, in id order; booleans as SQLite has them (0/1).
rows() {
	local cols
	cols=$(pg "select string_agg(case when data_type = 'boolean' then 'cast(' || column_name || ' as integer)' else column_name end, ', ' order by ordinal_position) from information_schema.columns where table_name = '$1'")
	echo "select $cols from $1 order by id"
}
TABLES="selected_events machines threads comms comm_threads dsos symbols branch_types samples call_paths calls"

# A sw_branch capture with calls (call_tree: fib, longjmp, a signal, two
# threads): the same database in both.
"$HWTRACE" record -e sw_branch --start main --stop tree_done -o "$TMP/ct.data" \
	-- "$PROG" >/dev/null 2>"$TMP/record.err" ||
	{ cat "$TMP/record.err" >&2; fail "record"; finish; exit 1; }
"$HWTRACE" export "$TMP/ct.data" --to sqlite -o "$TMP/ct.db" 2>/dev/null || fail "sqlite export"
"$HWTRACE" export "$TMP/ct.data" --to postgresql --db "$DB" 2>"$TMP/pg.err" ||
	fail "postgresql export: $(cat "$TMP/pg.err")"
expect_contains "stderr: what was written" "$(cat "$TMP/pg.err")" "branch samples"
for t in $TABLES; do
	same "$t: every row = the SQLite export's" "$(rows "$t")" "$TMP/ct.db"
done
expect_eq "samples: as many as the capture's branches and trace begin/end" \
	"$(pg 'select count(*) from samples where id > 0')" \
	"$("$HWTRACE" decode "$TMP/ct.data" --format jsonl 2>/dev/null | grep -c '"type":"\(branch\|trace_on\|trace_off\)"')"
calls="select p.name, s.name, count(*), sum(c.branch_count), sum(c.insn_count) from calls c
	join call_paths cp on c.call_path_id = cp.id join symbols s on cp.symbol_id = s.id
	join call_paths pp on cp.parent_id = pp.id join symbols p on pp.symbol_id = p.id
	group by 1, 2 order by 1, 2"
same "calls, branches and instructions per (caller, callee)" "$calls" "$TMP/ct.db"
expect_contains "main -> fib is among them" "$(pg "$calls")" "main|fib|1|"
same "samples per branch type" "select branch_type, count(*) from samples group by 1 order by 1" "$TMP/ct.db"
expect_eq "calls_view: fib's 465 calls" "$(pg "select count(*) from calls_view where symbol = 'fib'")" "465"
same "calls_view: rows and flags" "select symbol, flags, count(*) from calls_view group by 1, 2 order by 1, 2" "$TMP/ct.db"
same "samples_view: branches into each symbol" \
	"select to_symbol, branch_type_name, count(*) from samples_view group by 1, 2 order by 1, 2" "$TMP/ct.db"
same "comm_threads_view" "select command, pid, tid from comm_threads_view order by tid" "$TMP/ct.db"
expect_eq "keys: a primary key on each table" \
	"$(pg "select count(*) from information_schema.table_constraints where constraint_type = 'PRIMARY KEY' and table_catalog = 'hwt'")" "11"
expect_eq "no context_switches (none recorded): dropped as perf does" \
	"$(pg "select count(*) from information_schema.tables where table_name = 'context_switches'")" "0"

# A second export into the same database: refused without --replace,
# the data kept.
n=$(pg 'select count(*) from samples')
"$HWTRACE" export "$TMP/ct.data" --to postgresql --db "$DB" 2>"$TMP/again.err"
expect_eq "second export without --replace: exit 2" "$?" "2"
expect_contains "second export: says why" "$(cat "$TMP/again.err")" "already has the tables"
expect_contains "second export: says what to do" "$(cat "$TMP/again.err")" "give --replace"
expect_eq "second export: the data kept" "$(pg 'select count(*) from samples')" "$n"

# --replace, with a capture that has context switches (quipper's Intel
# PT file: 152 SWITCH_CPU_WIDE records): perf's export is the oracle.
cp "$QDATA" "$TMP/q.data"
"$HWTRACE" export "$TMP/q.data" --to postgresql --replace --db "$DB" 2>"$TMP/q.err"
expect_eq "--replace: exit 0" "$?" "0"
expect_contains "--replace: context switches counted" "$(cat "$TMP/q.err")" "60 context switches"
"$HWTRACE" export "$TMP/q.data" --to sqlite -o "$TMP/q.db" 2>/dev/null || fail "sqlite export of q.data"
for t in $TABLES context_switches; do
	same "q.data: $t = the SQLite export's" "$(rows "$t")" "$TMP/q.db"
done
switches="select time, cpu, pid_out, tid_out, comm_out, pid_in, tid_in, comm_in, flags from context_switches_view order by id"
if command -v "$PERF" >/dev/null; then
	(cd "$TMP" && "$PERF" script -i q.data -s "$EXPORT" perf.db branches calls >"$TMP/perf.out" 2>&1) ||
		fail "perf export: $(tail -3 "$TMP/perf.out")"
	expect_eq "context_switches_view = perf's export-to-sqlite.py's" "$(pg "$switches")" \
		"$(lite "$TMP/perf.db" "$switches")"
else
	fail "perf is not installed (Debian: linux-perf)"
fi
expect_eq "context switches: 60 rows, out and in" \
	"$(pg 'select flags, count(*) from context_switches_view group by 1 order by 1')" "in|30
out|30"
expect_eq "--replace: the old capture's rows gone" "$(pg 'select count(*) from samples where id > 0')" \
	"$(lite "$TMP/q.db" 'select count(*) from samples where id > 0')"

# Errors: no server there, a wrong password, no --db.
"$HWTRACE" export "$TMP/q.data" --to postgresql --db "host=$TMP/nowhere dbname=hwt user=hwt" 2>"$TMP/down.err"
expect_eq "unreachable server: exit 1" "$?" "1"
expect_contains "unreachable server: says so" "$(cat "$TMP/down.err")" "cannot connect to the server"
expect_contains "unreachable server: libpq's reason" "$(cat "$TMP/down.err")" "$TMP/nowhere/.s.PGSQL.5432"
"$HWTRACE" export "$TMP/q.data" --to postgresql --replace \
	--db "host=$SOCK port=5432 dbname=hwt user=hwt password=wrong" 2>"$TMP/pw.err"
expect_eq "bad password: exit 1" "$?" "1"
expect_contains "bad password: the server's reason" "$(cat "$TMP/pw.err")" \
	'password authentication failed for user "hwt"'
expect_eq "bad password: the data kept" "$(pg 'select count(*) from context_switches')" "60"
"$HWTRACE" export "$TMP/q.data" --to postgresql 2>"$TMP/nodb.err"
expect_eq "no --db: exit 2" "$?" "2"
expect_contains "no --db: says so" "$(cat "$TMP/nodb.err")" "takes --db CONNINFO"
finish
