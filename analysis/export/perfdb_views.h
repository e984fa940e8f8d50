/* The views perf's two export scripts define alike (the others differ
 * in SQL dialect: sqlite_schema.h, pg_schema.h). */
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

#endif
