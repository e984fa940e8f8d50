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

#define HWT_PG_IPC "CASE WHEN cyc_count=0 THEN CAST(0 AS NUMERIC(20, 2))" \
	" ELSE CAST((CAST(insn_count AS FLOAT) / cyc_count) AS NUMERIC(20, 2))" \
	" END AS IPC"

static const char *const hwt_pg_views[] = {
	HWT_PERFDB_COMMON_VIEWS,
	"CREATE VIEW call_paths_view AS SELECT c.id, to_hex(c.ip) AS ip,"
	" c.symbol_id, (SELECT name FROM symbols WHERE id = c.symbol_id)"
	" AS symbol, (SELECT dso_id FROM symbols WHERE id = c.symbol_id)"
	" AS dso_id, (SELECT dso FROM symbols_view WHERE id = c.symbol_id)"
	" AS dso_short_name, c.parent_id, to_hex(p.ip) AS parent_ip,"
	" p.symbol_id AS parent_symbol_id, (SELECT name FROM symbols"
	" WHERE id = p.symbol_id) AS parent_symbol, (SELECT dso_id FROM symbols"
	" WHERE id = p.symbol_id) AS parent_dso_id, (SELECT dso FROM"
	" symbols_view WHERE id = p.symbol_id) AS parent_dso_short_name"
	" FROM call_paths c INNER JOIN call_paths p ON p.id = c.parent_id",
	"CREATE VIEW calls_view AS SELECT calls.id, thread_id,"
	" (SELECT pid FROM threads WHERE id = thread_id) AS pid,"
	" (SELECT tid FROM threads WHERE id = thread_id) AS tid,"
	" (SELECT comm FROM comms WHERE id = comm_id) AS command,"
	" call_path_id, to_hex(ip) AS ip, symbol_id,"
	" (SELECT name FROM symbols WHERE id = symbol_id) AS symbol,"
	" call_time, return_time, return_time - call_time AS elapsed_time,"
	" branch_count, insn_count, cyc_count, " HWT_PG_IPC ", call_id,"
	" return_id, CASE WHEN flags=0 THEN '' WHEN flags=1 THEN 'no call'"
	" WHEN flags=2 THEN 'no return' WHEN flags=3 THEN 'no call/return'"
	" WHEN flags=6 THEN 'jump' ELSE CAST (flags AS VARCHAR(6)) END"
	" AS flags, parent_call_path_id, calls.parent_id"
	" FROM calls INNER JOIN call_paths ON call_paths.id = call_path_id",
	"CREATE VIEW samples_view AS SELECT id, time, cpu,"
	" (SELECT pid FROM threads WHERE id = thread_id) AS pid,"
	" (SELECT tid FROM threads WHERE id = thread_id) AS tid,"
	" (SELECT comm FROM comms WHERE id = comm_id) AS command,"
	" (SELECT name FROM selected_events WHERE id = evsel_id) AS event,"
	" to_hex(ip) AS ip_hex,"
	" (SELECT name FROM symbols WHERE id = symbol_id) AS symbol,"
	" sym_offset, (SELECT short_name FROM dsos WHERE id = dso_id)"
	" AS dso_short_name, to_hex(to_ip) AS to_ip_hex,"
	" (SELECT name FROM symbols WHERE id = to_symbol_id) AS to_symbol,"
	" to_sym_offset, (SELECT short_name FROM dsos WHERE id = to_dso_id)"
	" AS to_dso_short_name, (SELECT name FROM branch_types"
	" WHERE id = branch_type) AS branch_type_name, in_tx, insn_count,"
	" cyc_count, " HWT_PG_IPC ", flags FROM samples",
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
