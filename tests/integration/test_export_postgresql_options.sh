# hwtrace export --to postgresql in any build, without a server: a build
# with libpq names the server it could not reach; one without (the arm64
# cross build) says it was built without PostgreSQL support; the options
# that do not go together are usage errors.
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"
DATA=$HWT_TESTDATA/perf-data/quipper/perf.data.intel_pt-4.14
cp "$DATA" "$TMP/q.data"

"$HWTRACE" export "$TMP/q.data" --to postgresql --db "host=$TMP/none dbname=x" 2>"$TMP/err"
expect_eq "no server: exit 1" "$?" "1"
if [ "${HWT_HAVE_LIBPQ:-1}" = 1 ]; then
	expect_contains "with libpq: the server it could not reach" "$(cat "$TMP/err")" \
		"cannot connect to the server"
	expect_contains "with libpq: libpq's reason" "$(cat "$TMP/err")" "$TMP/none/.s.PGSQL.5432"
else
	expect_contains "without libpq: says so" "$(cat "$TMP/err")" \
		"built without PostgreSQL support (libpq; Debian: libpq-dev)"
fi
"$HWTRACE" export "$TMP/q.data" --to postgresql --db "dbname=x" -o "$TMP/x.db" 2>"$TMP/err"
expect_eq "--to postgresql with -o: exit 2" "$?" "2"
expect_contains "--to postgresql with -o: says so" "$(cat "$TMP/err")" "takes --db CONNINFO"
"$HWTRACE" export "$TMP/q.data" --to sqlite --db "dbname=x" -o "$TMP/x.db" 2>"$TMP/err"
expect_eq "--db with sqlite: exit 2" "$?" "2"
expect_contains "--db with sqlite: says so" "$(cat "$TMP/err")" "--db is for --to postgresql"
expect_eq "--db with sqlite: nothing written" "$([ -e "$TMP/x.db" ] && echo exists)" ""
"$HWTRACE" export "$TMP/q.data" --to mysql -o "$TMP/x.db" 2>"$TMP/err"
expect_eq "--to mysql: exit 2" "$?" "2"
expect_contains "--to mysql: the formats" "$(cat "$TMP/err")" "use sqlite, pprof, postgresql, autofdo, bolt or bolt-preagg"
finish
