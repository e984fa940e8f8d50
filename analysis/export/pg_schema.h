/* perf's export-to-postgresql.py schema: the tables without keys (added
 * after the rows are copied in, as perf does), then keys, indexes and
 * views. Names, column order and types are perf's; the SQL is written
 * here. */
#ifndef HWT_ANALYSIS_EXPORT_PG_SCHEMA_H
#define HWT_ANALYSIS_EXPORT_PG_SCHEMA_H

#include "analysis/export/perfdb_views.h"

static const char *const hwt_pg_tables[] = {
	"CREATE TABLE selected_events (id bigint NOT NULL, name varchar(80))",
	"CREATE TABLE machines (id bigint NOT NULL, pid integer,"
	" root_dir varchar(4096))",
	"CREATE TABLE threads (id bigint NOT NULL, machine_id bigint,"
	" process_id bigint, pid integer, tid integer)",
	"CREATE TABLE comms (id bigint NOT NULL, comm varchar(16),"
	" c_thread_id bigint, c_time bigint, exec_flag boolean)",
	"CREATE TABLE comm_threads (id bigint NOT NULL, comm_id bigint,"
	" thread_id bigint)",
	"CREATE TABLE dsos (id bigint NOT NULL, machine_id bigint,"
	" short_name varchar(256), long_name varchar(4096),"
	" build_id varchar(64))",
	"CREATE TABLE symbols (id bigint NOT NULL, dso_id bigint,"
	" sym_start bigint, sym_end bigint, binding integer,"
	" name varchar(2048))",
	"CREATE TABLE branch_types (id integer NOT NULL, name varchar(80))",
	"CREATE TABLE samples (id bigint NOT NULL, evsel_id bigint,"
	" machine_id bigint, thread_id bigint, comm_id bigint, dso_id bigint,"
	" symbol_id bigint, sym_offset bigint, ip bigint, time bigint,"
	" cpu integer, to_dso_id bigint, to_symbol_id bigint,"
	" to_sym_offset bigint, to_ip bigint, branch_type integer,"
	" in_tx boolean, call_path_id bigint, insn_count bigint,"
	" cyc_count bigint, flags integer)",
	"CREATE TABLE call_paths (id bigint NOT NULL, parent_id bigint,"
	" symbol_id bigint, ip bigint)",
	"CREATE TABLE calls (id bigint NOT NULL, thread_id bigint,"
	" comm_id bigint, call_path_id bigint, call_time bigint,"
	" return_time bigint, branch_count bigint, call_id bigint,"
	" return_id bigint, parent_call_path_id bigint, flags integer,"
	" parent_id bigint, insn_count bigint, cyc_count bigint)",
	"CREATE TABLE context_switches (id bigint NOT NULL, machine_id bigint,"
	" time bigint, cpu integer, thread_out_id bigint, comm_out_id bigint,"
	" thread_in_id bigint, comm_in_id bigint, flags integer)",
};

/* After the copy: primary keys, perf's foreign keys and indexes. */
static const char *const hwt_pg_keys[] = {
	"ALTER TABLE selected_events ADD PRIMARY KEY (id)",
	"ALTER TABLE machines ADD PRIMARY KEY (id)",
	"ALTER TABLE threads ADD PRIMARY KEY (id)",
	"ALTER TABLE comms ADD PRIMARY KEY (id)",
	"ALTER TABLE comm_threads ADD PRIMARY KEY (id)",
	"ALTER TABLE dsos ADD PRIMARY KEY (id)",
	"ALTER TABLE symbols ADD PRIMARY KEY (id)",
	"ALTER TABLE branch_types ADD PRIMARY KEY (id)",
	"ALTER TABLE samples ADD PRIMARY KEY (id)",
	"ALTER TABLE call_paths ADD PRIMARY KEY (id)",
	"ALTER TABLE calls ADD PRIMARY KEY (id)",
	"ALTER TABLE threads"
	" ADD CONSTRAINT machinefk FOREIGN KEY (machine_id) REFERENCES machines (id),"
	" ADD CONSTRAINT processfk FOREIGN KEY (process_id) REFERENCES threads (id)",
	"ALTER TABLE comms"
	" ADD CONSTRAINT threadfk FOREIGN KEY (c_thread_id) REFERENCES threads (id)",
	"ALTER TABLE comm_threads"
	" ADD CONSTRAINT commfk FOREIGN KEY (comm_id) REFERENCES comms (id),"
	" ADD CONSTRAINT threadfk FOREIGN KEY (thread_id) REFERENCES threads (id)",
	"ALTER TABLE dsos"
	" ADD CONSTRAINT machinefk FOREIGN KEY (machine_id) REFERENCES machines (id)",
	"ALTER TABLE symbols"
	" ADD CONSTRAINT dsofk FOREIGN KEY (dso_id) REFERENCES dsos (id)",
	"ALTER TABLE samples"
	" ADD CONSTRAINT evselfk FOREIGN KEY (evsel_id) REFERENCES selected_events (id),"
	" ADD CONSTRAINT machinefk FOREIGN KEY (machine_id) REFERENCES machines (id),"
	" ADD CONSTRAINT threadfk FOREIGN KEY (thread_id) REFERENCES threads (id),"
	" ADD CONSTRAINT commfk FOREIGN KEY (comm_id) REFERENCES comms (id),"
	" ADD CONSTRAINT dsofk FOREIGN KEY (dso_id) REFERENCES dsos (id),"
	" ADD CONSTRAINT symbolfk FOREIGN KEY (symbol_id) REFERENCES symbols (id),"
	" ADD CONSTRAINT todsofk FOREIGN KEY (to_dso_id) REFERENCES dsos (id),"
	" ADD CONSTRAINT tosymbolfk FOREIGN KEY (to_symbol_id) REFERENCES symbols (id)",
	"ALTER TABLE call_paths"
	" ADD CONSTRAINT parentfk FOREIGN KEY (parent_id) REFERENCES call_paths (id),"
	" ADD CONSTRAINT symbolfk FOREIGN KEY (symbol_id) REFERENCES symbols (id)",
	"ALTER TABLE calls"
	" ADD CONSTRAINT threadfk FOREIGN KEY (thread_id) REFERENCES threads (id),"
	" ADD CONSTRAINT commfk FOREIGN KEY (comm_id) REFERENCES comms (id),"
	" ADD CONSTRAINT call_pathfk FOREIGN KEY (call_path_id) REFERENCES call_paths (id),"
	" ADD CONSTRAINT callfk FOREIGN KEY (call_id) REFERENCES samples (id),"
	" ADD CONSTRAINT returnfk FOREIGN KEY (return_id) REFERENCES samples (id),"
	" ADD CONSTRAINT parent_call_pathfk FOREIGN KEY (parent_call_path_id) REFERENCES call_paths (id)",
	"CREATE INDEX pcpid_idx ON calls (parent_call_path_id)",
	"CREATE INDEX pid_idx ON calls (parent_id)",
	"ALTER TABLE comms ADD has_calls boolean",
	"UPDATE comms SET has_calls = TRUE WHERE comms.id IN (SELECT DISTINCT comm_id FROM calls)",
};

/* context_switches' keys, when it has rows (else it is dropped). */
static const char *const hwt_pg_switch_keys[] = {
	"ALTER TABLE context_switches ADD PRIMARY KEY (id)",
	"ALTER TABLE context_switches"
	" ADD CONSTRAINT machinefk FOREIGN KEY (machine_id) REFERENCES machines (id),"
	" ADD CONSTRAINT toutfk FOREIGN KEY (thread_out_id) REFERENCES threads (id),"
	" ADD CONSTRAINT tinfk FOREIGN KEY (thread_in_id) REFERENCES threads (id),"
	" ADD CONSTRAINT coutfk FOREIGN KEY (comm_out_id) REFERENCES comms (id),"
	" ADD CONSTRAINT cinfk FOREIGN KEY (comm_in_id) REFERENCES comms (id)",
};

#define HWT_PG_HEX(x) "to_hex(" x ")"
#define HWT_PG_IPC "CASE WHEN cyc_count=0 THEN CAST(0 AS NUMERIC(20, 2))" \
	" ELSE CAST((CAST(insn_count AS FLOAT) / cyc_count) AS NUMERIC(20, 2))" \
	" END AS IPC"

static const char *const hwt_pg_views[] = {
	HWT_PERFDB_COMMON_VIEWS,
	HWT_PERFDB_DIALECT_VIEWS(HWT_PG_HEX, HWT_PG_IPC,
				 "CAST (flags AS VARCHAR(6))"),
};

static const char *const hwt_pg_switch_view =
	"CREATE VIEW context_switches_view AS SELECT context_switches.id,"
	" context_switches.machine_id, context_switches.time,"
	" context_switches.cpu, th_out.pid AS pid_out, th_out.tid AS tid_out,"
	" comm_out.comm AS comm_out, th_in.pid AS pid_in, th_in.tid AS tid_in,"
	" comm_in.comm AS comm_in, CASE WHEN context_switches.flags = 0"
	" THEN 'in' WHEN context_switches.flags = 1 THEN 'out'"
	" WHEN context_switches.flags = 3 THEN 'out preempt'"
	" ELSE CAST (context_switches.flags AS VARCHAR(11)) END AS flags"
	" FROM context_switches"
	" INNER JOIN threads AS th_out ON th_out.id = context_switches.thread_out_id"
	" INNER JOIN threads AS th_in ON th_in.id = context_switches.thread_in_id"
	" INNER JOIN comms AS comm_out ON comm_out.id = context_switches.comm_out_id"
	" INNER JOIN comms AS comm_in ON comm_in.id = context_switches.comm_in_id";

/* What --replace drops (views first: they depend on the tables). */
static const char *const hwt_pg_drop =
	"DROP VIEW IF EXISTS context_switches_view, samples_view, calls_view,"
	" call_paths_view, comm_threads_view, threads_view, symbols_view,"
	" dsos_view, machines_view CASCADE;"
	" DROP TABLE IF EXISTS context_switches, calls, call_paths, samples,"
	" branch_types, symbols, dsos, comm_threads, comms, threads, machines,"
	" selected_events CASCADE";

#endif
