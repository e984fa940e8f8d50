/* The views of perf's two export schemas (sqlite_schema.h, pg_schema.h):
 * those defined alike, then those written alike but for their dialect. */
#ifndef HWT_ANALYSIS_EXPORT_PERFDB_VIEWS_H
#define HWT_ANALYSIS_EXPORT_PERFDB_VIEWS_H

#define HWT_PERFDB_COMMON_VIEWS \
	"CREATE VIEW machines_view AS SELECT id, pid, root_dir," \
	" CASE WHEN id=0 THEN 'unknown' WHEN pid=-1 THEN 'host' ELSE 'guest'" \
	" END AS host_or_guest FROM machines", \
	"CREATE VIEW dsos_view AS SELECT id, machine_id," \
	" (SELECT host_or_guest FROM machines_view WHERE id = machine_id)" \
	" AS host_or_guest, short_name, long_name, build_id FROM dsos", \
	"CREATE VIEW symbols_view AS SELECT id, name," \
	" (SELECT short_name FROM dsos WHERE id=dso_id) AS dso, dso_id," \
	" sym_start, sym_end, CASE WHEN binding=0 THEN 'local'" \
	" WHEN binding=1 THEN 'global' ELSE 'weak' END AS binding FROM symbols", \
	"CREATE VIEW threads_view AS SELECT id, machine_id," \
	" (SELECT host_or_guest FROM machines_view WHERE id = machine_id)" \
	" AS host_or_guest, process_id, pid, tid FROM threads", \
	"CREATE VIEW comm_threads_view AS SELECT comm_id," \
	" (SELECT comm FROM comms WHERE id = comm_id) AS command, thread_id," \
	" (SELECT pid FROM threads WHERE id = thread_id) AS pid," \
	" (SELECT tid FROM threads WHERE id = thread_id) AS tid" \
	" FROM comm_threads"

/* The views perf's two scripts write alike but for their SQL dialect:
 * HEX(x) the hex text of column x, IPC the IPC column, FLAGS_ELSE the
 * value of an unnamed flags word in calls_view. */
#define HWT_PERFDB_DIALECT_VIEWS(HEX, IPC, FLAGS_ELSE) \
	"CREATE VIEW call_paths_view AS SELECT c.id, " HEX("c.ip") " AS ip," \
	" c.symbol_id, (SELECT name FROM symbols WHERE id = c.symbol_id)" \
	" AS symbol, (SELECT dso_id FROM symbols WHERE id = c.symbol_id)" \
	" AS dso_id, (SELECT dso FROM symbols_view WHERE id = c.symbol_id)" \
	" AS dso_short_name, c.parent_id, " HEX("p.ip") " AS parent_ip," \
	" p.symbol_id AS parent_symbol_id, (SELECT name FROM symbols" \
	" WHERE id = p.symbol_id) AS parent_symbol, (SELECT dso_id FROM symbols" \
	" WHERE id = p.symbol_id) AS parent_dso_id, (SELECT dso FROM" \
	" symbols_view WHERE id = p.symbol_id) AS parent_dso_short_name" \
	" FROM call_paths c INNER JOIN call_paths p ON p.id = c.parent_id", \
	"CREATE VIEW calls_view AS SELECT calls.id, thread_id," \
	" (SELECT pid FROM threads WHERE id = thread_id) AS pid," \
	" (SELECT tid FROM threads WHERE id = thread_id) AS tid," \
	" (SELECT comm FROM comms WHERE id = comm_id) AS command," \
	" call_path_id, " HEX("ip") " AS ip, symbol_id," \
	" (SELECT name FROM symbols WHERE id = symbol_id) AS symbol," \
	" call_time, return_time, return_time - call_time AS elapsed_time," \
	" branch_count, insn_count, cyc_count, " IPC ", call_id," \
	" return_id, CASE WHEN flags=0 THEN '' WHEN flags=1 THEN 'no call'" \
	" WHEN flags=2 THEN 'no return' WHEN flags=3 THEN 'no call/return'" \
	" WHEN flags=6 THEN 'jump' ELSE " FLAGS_ELSE " END" \
	" AS flags, parent_call_path_id, calls.parent_id" \
	" FROM calls INNER JOIN call_paths ON call_paths.id = call_path_id", \
	"CREATE VIEW samples_view AS SELECT id, time, cpu," \
	" (SELECT pid FROM threads WHERE id = thread_id) AS pid," \
	" (SELECT tid FROM threads WHERE id = thread_id) AS tid," \
	" (SELECT comm FROM comms WHERE id = comm_id) AS command," \
	" (SELECT name FROM selected_events WHERE id = evsel_id) AS event," \
	" " HEX("ip") " AS ip_hex," \
	" (SELECT name FROM symbols WHERE id = symbol_id) AS symbol," \
	" sym_offset, (SELECT short_name FROM dsos WHERE id = dso_id)" \
	" AS dso_short_name, " HEX("to_ip") " AS to_ip_hex," \
	" (SELECT name FROM symbols WHERE id = to_symbol_id) AS to_symbol," \
	" to_sym_offset, (SELECT short_name FROM dsos WHERE id = to_dso_id)" \
	" AS to_dso_short_name, (SELECT name FROM branch_types" \
	" WHERE id = branch_type) AS branch_type_name, in_tx, insn_count," \
	" cyc_count, " IPC ", flags FROM samples"

#endif
