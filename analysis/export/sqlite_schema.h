/* The tables and views of perf's export-to-sqlite.py ("branches" columns,
 * with calls), so that perf's exported-sql-viewer.py and the queries
 * written for perf's databases read hwtrace's. Names, column order and
 * types are perf's; the SQL is written here. */
#ifndef HWT_ANALYSIS_EXPORT_SQLITE_SCHEMA_H
#define HWT_ANALYSIS_EXPORT_SQLITE_SCHEMA_H

#include "analysis/export/perfdb_views.h"

#define HWT_SQLITE_HEX(x) "printf(\"%x\", " x ")"
#define HWT_SQLITE_IPC "CASE WHEN cyc_count=0 THEN CAST(0 AS FLOAT) ELSE" \
	" ROUND(CAST(insn_count AS FLOAT) / cyc_count, 2) END AS IPC"

/* The samples table as perf's export-to-sqlite.py makes it: with its
 * COLUMNS argument "branches", and "all" (period, weight, transaction_
 * and data_src after to_ip). */
static const char hwt_sqlite_samples_branches[] =
	"CREATE TABLE samples (id integer NOT NULL PRIMARY KEY,"
	" evsel_id bigint, machine_id bigint, thread_id bigint, comm_id bigint,"
	" dso_id bigint, symbol_id bigint, sym_offset bigint, ip bigint,"
	" time bigint, cpu integer, to_dso_id bigint, to_symbol_id bigint,"
	" to_sym_offset bigint, to_ip bigint, branch_type integer,"
	" in_tx boolean, call_path_id bigint, insn_count bigint,"
	" cyc_count bigint, flags integer)";
static const char hwt_sqlite_samples_all[] =
	"CREATE TABLE samples (id integer NOT NULL PRIMARY KEY,"
	" evsel_id bigint, machine_id bigint, thread_id bigint, comm_id bigint,"
	" dso_id bigint, symbol_id bigint, sym_offset bigint, ip bigint,"
	" time bigint, cpu integer, to_dso_id bigint, to_symbol_id bigint,"
	" to_sym_offset bigint, to_ip bigint, period bigint, weight bigint,"
	" transaction_ bigint, data_src bigint, branch_type integer,"
	" in_tx boolean, call_path_id bigint, insn_count bigint,"
	" cyc_count bigint, flags integer)";

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
	hwt_sqlite_samples_branches,
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
	HWT_PERFDB_DIALECT_VIEWS(HWT_SQLITE_HEX, HWT_SQLITE_IPC, "flags"),
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
