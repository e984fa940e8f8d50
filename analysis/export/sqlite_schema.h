/* The tables and views of perf's export-to-sqlite.py ("branches" columns,
 * with calls), so that perf's exported-sql-viewer.py and the queries
 * written for perf's databases read hwtrace's. Names, column order and
 * types are perf's; the SQL is written here. */
#ifndef HWT_ANALYSIS_EXPORT_SQLITE_SCHEMA_H
#define HWT_ANALYSIS_EXPORT_SQLITE_SCHEMA_H

#include "analysis/export/perfdb_views.h"

static const char *const hwt_sqlite_tables[] = {
	"CREATE TABLE selected_events (id integer NOT NULL PRIMARY KEY,"
	" name varchar(80))",
	"CREATE TABLE machines (id integer NOT NULL PRIMARY KEY, pid integer,"
	" root_dir varchar(4096))",
	"CREATE TABLE threads (id integer NOT NULL PRIMARY KEY,"
	" machine_id bigint, process_id bigint, pid integer, tid integer)",
	"CREATE TABLE comms (id integer NOT NULL PRIMARY KEY, comm varchar(16),"
	" c_thread_id bigint, c_time bigint, exec_flag boolean)",
	"CREATE TABLE comm_threads (id integer NOT NULL PRIMARY KEY,"
	" comm_id bigint, thread_id bigint)",
	"CREATE TABLE dsos (id integer NOT NULL PRIMARY KEY, machine_id bigint,"
	" short_name varchar(256), long_name varchar(4096),"
	" build_id varchar(64))",
	"CREATE TABLE symbols (id integer NOT NULL PRIMARY KEY, dso_id bigint,"
	" sym_start bigint, sym_end bigint, binding integer,"
	" name varchar(2048))",
	"CREATE TABLE branch_types (id integer NOT NULL PRIMARY KEY,"
	" name varchar(80))",
	"CREATE TABLE samples (id integer NOT NULL PRIMARY KEY,"
	" evsel_id bigint, machine_id bigint, thread_id bigint, comm_id bigint,"
	" dso_id bigint, symbol_id bigint, sym_offset bigint, ip bigint,"
	" time bigint, cpu integer, to_dso_id bigint, to_symbol_id bigint,"
	" to_sym_offset bigint, to_ip bigint, branch_type integer,"
	" in_tx boolean, call_path_id bigint, insn_count bigint,"
	" cyc_count bigint, flags integer)",
	"CREATE TABLE call_paths (id integer NOT NULL PRIMARY KEY,"
	" parent_id bigint, symbol_id bigint, ip bigint)",
	"CREATE TABLE calls (id integer NOT NULL PRIMARY KEY, thread_id bigint,"
	" comm_id bigint, call_path_id bigint, call_time bigint,"
	" return_time bigint, branch_count bigint, call_id bigint,"
	" return_id bigint, parent_call_path_id bigint, flags integer,"
	" parent_id bigint, insn_count bigint, cyc_count bigint)",
	"CREATE TABLE context_switches (id integer NOT NULL PRIMARY KEY,"
	" machine_id bigint, time bigint, cpu integer, thread_out_id bigint,"
	" comm_out_id bigint, thread_in_id bigint, comm_in_id bigint,"
	" flags integer)",
	HWT_PERFDB_COMMON_VIEWS,
	"CREATE VIEW call_paths_view AS SELECT c.id, printf(\"%x\", c.ip) AS ip,"
	" c.symbol_id, (SELECT name FROM symbols WHERE id = c.symbol_id)"
	" AS symbol, (SELECT dso_id FROM symbols WHERE id = c.symbol_id)"
	" AS dso_id, (SELECT dso FROM symbols_view WHERE id = c.symbol_id)"
	" AS dso_short_name, c.parent_id, printf(\"%x\", p.ip) AS parent_ip,"
	" p.symbol_id AS parent_symbol_id, (SELECT name FROM symbols"
	" WHERE id = p.symbol_id) AS parent_symbol, (SELECT dso_id FROM symbols"
	" WHERE id = p.symbol_id) AS parent_dso_id, (SELECT dso FROM"
	" symbols_view WHERE id = p.symbol_id) AS parent_dso_short_name"
	" FROM call_paths c INNER JOIN call_paths p ON p.id = c.parent_id",
	"CREATE VIEW calls_view AS SELECT calls.id, thread_id,"
	" (SELECT pid FROM threads WHERE id = thread_id) AS pid,"
	" (SELECT tid FROM threads WHERE id = thread_id) AS tid,"
	" (SELECT comm FROM comms WHERE id = comm_id) AS command,"
	" call_path_id, printf(\"%x\", ip) AS ip, symbol_id,"
	" (SELECT name FROM symbols WHERE id = symbol_id) AS symbol,"
	" call_time, return_time, return_time - call_time AS elapsed_time,"
	" branch_count, insn_count, cyc_count, CASE WHEN cyc_count=0"
	" THEN CAST(0 AS FLOAT) ELSE ROUND(CAST(insn_count AS FLOAT) /"
	" cyc_count, 2) END AS IPC, call_id, return_id, CASE WHEN flags=0"
	" THEN '' WHEN flags=1 THEN 'no call' WHEN flags=2 THEN 'no return'"
	" WHEN flags=3 THEN 'no call/return' WHEN flags=6 THEN 'jump'"
	" ELSE flags END AS flags, parent_call_path_id, calls.parent_id"
	" FROM calls INNER JOIN call_paths ON call_paths.id = call_path_id",
	"CREATE VIEW samples_view AS SELECT id, time, cpu,"
	" (SELECT pid FROM threads WHERE id = thread_id) AS pid,"
	" (SELECT tid FROM threads WHERE id = thread_id) AS tid,"
	" (SELECT comm FROM comms WHERE id = comm_id) AS command,"
	" (SELECT name FROM selected_events WHERE id = evsel_id) AS event,"
	" printf(\"%x\", ip) AS ip_hex,"
	" (SELECT name FROM symbols WHERE id = symbol_id) AS symbol,"
	" sym_offset, (SELECT short_name FROM dsos WHERE id = dso_id)"
	" AS dso_short_name, printf(\"%x\", to_ip) AS to_ip_hex,"
	" (SELECT name FROM symbols WHERE id = to_symbol_id) AS to_symbol,"
	" to_sym_offset, (SELECT short_name FROM dsos WHERE id = to_dso_id)"
	" AS to_dso_short_name, (SELECT name FROM branch_types"
	" WHERE id = branch_type) AS branch_type_name, in_tx, insn_count,"
	" cyc_count, CASE WHEN cyc_count=0 THEN CAST(0 AS FLOAT) ELSE"
	" ROUND(CAST(insn_count AS FLOAT) / cyc_count, 2) END AS IPC, flags"
	" FROM samples",
	"CREATE VIEW context_switches_view AS SELECT context_switches.id,"
	" context_switches.machine_id, context_switches.time,"
	" context_switches.cpu, th_out.pid AS pid_out, th_out.tid AS tid_out,"
	" comm_out.comm AS comm_out, th_in.pid AS pid_in, th_in.tid AS tid_in,"
	" comm_in.comm AS comm_in, CASE WHEN context_switches.flags = 0"
	" THEN 'in' WHEN context_switches.flags = 1 THEN 'out'"
	" WHEN context_switches.flags = 3 THEN 'out preempt'"
	" ELSE context_switches.flags END AS flags FROM context_switches"
	" INNER JOIN threads AS th_out ON th_out.id = context_switches.thread_out_id"
	" INNER JOIN threads AS th_in ON th_in.id = context_switches.thread_in_id"
	" INNER JOIN comms AS comm_out ON comm_out.id = context_switches.comm_out_id"
	" INNER JOIN comms AS comm_in ON comm_in.id = context_switches.comm_in_id",
};

#endif
