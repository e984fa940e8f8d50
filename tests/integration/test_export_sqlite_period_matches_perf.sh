# hwtrace export --to sqlite --columns all against perf's export-to-sqlite.py
# with its default columns ("all": period, weight, transaction_ and
# data_src after to_ip) on the same files: the same tables, views and
# columns; on a capture of branch records (call_tree recorded with
# sw_branch, sampled as an LBR samples it by tests/tools/lbr_from_branches:
# every 37th taken branch, 16 deep) every record's row carries its
# sample's period, as perf's row of that sample does (hwtrace writes a
# row per record, perf one per sample: the (time, period) pairs are
# compared), weight, transaction_ and data_src 0 as perf's; on the full
# sw_branch capture every branch sample has period 1, as perf's
# --itrace=b samples. --columns is refused but for sqlite, and its value
# is checked.
source "$HWT_SOURCE_DIR/tests/integration/lib.sh"
PROG="$HWT_BUILD_DIR/tests/programs/call_tree"
PERF=${PERF:-perf}
EXPORT=/usr/lib/perf-core/scripts/python/export-to-sqlite.py
: "${HWT_LBR_FROM_BRANCHES:?the lbr_from_branches helper}"
command -v "$PERF" >/dev/null || { fail "perf is not installed (Debian: linux-perf)"; finish; exit 1; }

data="$TMP/ct.data"
"$HWTRACE" record -e sw_branch --start main --stop tree_done -o "$data" \
	-- "$PROG" >/dev/null 2>"$TMP/record.err" ||
	{ cat "$TMP/record.err" >&2; fail "record"; finish; exit 1; }
${HWT_TARGET_RUN:-} "$HWT_LBR_FROM_BRANCHES" "$data" "$TMP/lbr.data" 37 16 >/dev/null ||
	fail "lbr_from_branches 37 16"

q() { python3 -c 'import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
for r in db.execute(sys.argv[2]): print("|".join(map(str, r)))' "$@"; }
schema() {
	python3 - "$1" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
for t, n in db.execute("select type, name from sqlite_master order by type, name"):
    cols = [r[1] for r in db.execute("pragma table_info(%s)" % n)] if t != "index" else []
    print(t, n, ",".join(cols))
PY
}

for f in lbr ct; do
	"$HWTRACE" export "$TMP/$f.data" --to sqlite --columns all -o "$TMP/$f.hw.db" \
		2>"$TMP/$f.err" || fail "export $f: $(cat "$TMP/$f.err")"
done
(cd "$TMP" && "$PERF" script -i "$TMP/lbr.data" -s "$EXPORT" lbr.perf.db all calls \
	>"$TMP/perf.out" 2>&1) || fail "perf export: $(tail -3 "$TMP/perf.out")"
(cd "$TMP" && "$PERF" script -i "$data" --itrace=b -s "$EXPORT" ct.perf.db all calls \
	>"$TMP/perfb.out" 2>&1) || fail "perf export --itrace=b: $(tail -3 "$TMP/perfb.out")"

expect_eq "samples' columns = perf's" \
	"$(q "$TMP/lbr.hw.db" 'select group_concat(name) from pragma_table_info("samples")')" \
	"$(q "$TMP/lbr.perf.db" 'select group_concat(name) from pragma_table_info("samples")')"
expect_contains "the columns are perf's all" \
	"$(q "$TMP/lbr.hw.db" 'select group_concat(name) from pragma_table_info("samples")')" \
	"to_ip,period,weight,transaction_,data_src,branch_type"
expect_eq "tables, views and columns = perf's (branch records)" \
	"$(schema "$TMP/lbr.hw.db")" "$(schema "$TMP/lbr.perf.db")"
expect_eq "tables, views and columns = perf's (full trace)" \
	"$(schema "$TMP/ct.hw.db")" "$(schema "$TMP/ct.perf.db")"

pairs='select distinct time, period from samples where id > 0 order by 1, 2'
expect_eq "(time, period) of the branch-record samples = perf's" \
	"$(q "$TMP/lbr.hw.db" "$pairs")" "$(q "$TMP/lbr.perf.db" "$pairs")"
expect_eq "every record's period is the sample's (37)" \
	"$(q "$TMP/lbr.hw.db" 'select period, count(*) > 0 from samples where id > 0 group by 1')" "37|1"
rest='select distinct weight, transaction_, data_src from samples'
expect_eq "weight, transaction_, data_src = perf's (branch records)" \
	"$(q "$TMP/lbr.hw.db" "$rest")" "$(q "$TMP/lbr.perf.db" "$rest")"
per='select period, count(*) from samples where id > 0 group by 1'
expect_eq "full trace: branch samples per period = perf's --itrace=b" \
	"$(q "$TMP/ct.hw.db" "$per")" "$(q "$TMP/ct.perf.db" "$per")"
expect_eq "full trace: weight, transaction_, data_src = perf's" \
	"$(q "$TMP/ct.hw.db" "$rest")" "$(q "$TMP/ct.perf.db" "$rest")"

# The default stays perf's branches layout; --columns is sqlite's.
"$HWTRACE" export "$TMP/lbr.data" --to sqlite -o "$TMP/b.db" 2>/dev/null
expect_eq "default: no period column" \
	"$(q "$TMP/b.db" "select count(*) from pragma_table_info('samples') where name = 'period'")" 0
out=$("$HWTRACE" export "$TMP/lbr.data" --to sqlite --columns some -o "$TMP/x.db" 2>&1)
expect_eq "--columns some: exit status" "$?" 2
expect_contains "--columns some: message" "$out" "--columns some: use all or branches"
out=$("$HWTRACE" export "$TMP/lbr.data" --to pprof --columns all -o "$TMP/x.pb" 2>&1)
expect_eq "--columns with pprof: exit status" "$?" 2
expect_contains "--columns with pprof: message" "$out" "--columns is for --to sqlite"
expect_eq "nothing written on a usage error" "$(ls "$TMP/x.db" "$TMP/x.pb" 2>/dev/null)" ""
finish
