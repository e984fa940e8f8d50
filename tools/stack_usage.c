/* The help texts of the stack commands with the most options: hwtrace
 * report --help and hwtrace export --help. */
#include <stdio.h>

#include "decode_symbols.h"
#include "stack_usage.h"
#include "stack_run.h"

void report_usage(FILE *out)
{
	fprintf(out,
		"usage: hwtrace report FILE... [options]\n\n"
		"Rebuilds every thread's call stacks from a capture (its CPUs merged\n"
		"by time) and prints the functions that ran, by the instructions\n"
		"executed in them (self) and in what they called (total), with\n"
		"calls and durations when the capture has time; with --srcline, the\n"
		"source lines that ran (and the functions inlined there), by the\n"
		"instructions executed at each. Several captures make one report\n"
		"(their threads apart, their totals and stacks added up). See\n"
		"docs/analysis.md.\n\n"
		"  --collapsed             folded stacks for flame graphs (a;b;c COUNT)\n"
		"  --weight insns|time|calls  what a folded stack counts (default insns)\n"
		"  --top N                 the N functions with most self instructions\n"
		"                          (default 25; 0 for all)\n"
		"  --callers FUNC          who called FUNC: calls, self and total\n"
		"                          instructions (and time) per caller\n"
		"  --callees FUNC          what FUNC called, the same per callee\n"
		"  --call-graph            every function with its callers and callees\n"
		"  --per-thread            callers, callees and call graph per thread\n"
		"  --children              order by total (inclusive) instructions, as\n"
		"                          perf's --children; --no-children: by self\n"
		"                          (the default)\n"
		"  --sort KEY[,KEY...]     order the table by the keys, the first\n"
		"                          the primary order: self, total (or\n"
		"                          children), calls (most first), dso, sym\n"
		"                          (by name), tid (or pid) and comm (a row\n"
		"                          per thread or thread name), as perf\n"
		"                          report --sort; srcline alone: the table\n"
		"                          by source line (as --srcline)\n"
		"  -o FILE                 write to FILE instead of standard output\n"
		"  --partial               write a partial result for hwtrace merge\n"
		"                          (docs/scale-out.md) instead of the table\n"
		"  --unit N                with --partial: decode only unit N of the\n"
		"                          one FILE (hwtrace units lists them)\n"
		STACK_RUN_USAGE
		STACK_FILTER_USAGE
		DECODE_SYMBOL_USAGE
		"  -h, --help              this text\n\n"
		"Exit status: 0 done, 1 failed, 2 usage.\n");
}

void export_usage(FILE *out)
{
	fprintf(out,
		"usage: hwtrace export FILE... --to FORMAT -o OUT [options]\n\n"
		"Writes a capture's branches, functions and calls (its CPUs merged\n"
		"by time, call stacks rebuilt per thread) for other tools:\n"
		"  sqlite   perf's export-to-sqlite.py database (tables, columns and\n"
		"           views), for exported-sql-viewer.py and SQL queries: a\n"
		"           sample per branch, a calls row per call, call paths\n"
		"  pprof    a gzip-compressed profile.proto for pprof: a sample per\n"
		"           distinct call stack with its instructions and branches\n"
		"  autofdo  AutoFDO's text profile (create_llvm_prof --profiler\n"
		"           text): address ranges and branches with counts\n"
		"  bolt     BOLT's fdata (llvm-bolt -data): branches by function\n"
		"  bolt-preagg  BOLT's pre-aggregated B/F records (llvm-bolt -pa)\n"
		"  postgresql  the sqlite tables and views in a PostgreSQL database\n"
		"           (--db CONNINFO instead of -o), filled with binary COPY\n"
		"           autofdo and bolt write one file per binary: OUT.NAME.EXT\n"
		"           (DIR/NAME.EXT when -o is a directory), EXT afdo.txt,\n"
		"           fdata or preagg\n"
		"           autofdo, bolt and pprof take several captures\n"
		"           (FILE...) and add them up\n"
		"See docs/analysis.md.\n\n"
		"  --to FORMAT             sqlite, pprof, postgresql, autofdo, bolt\n"
		"                          or bolt-preagg (required)\n"
		"  -o OUT                  the output file, prefix or directory\n"
		"                          (required but for postgresql)\n"
		"  --db CONNINFO           postgresql: the libpq connection string,\n"
		"                          e.g. 'host=/run/postgresql dbname=perf'\n"
		"  --replace               replace an existing database (sqlite) or\n"
		"                          the schema's tables (postgresql)\n"
		"  --no-labels             no pid/tid/comm/cpu labels (pprof)\n"
		"  --partial               autofdo, bolt, pprof: write a partial result\n"
		"                          for hwtrace merge (to -o, or standard\n"
		"                          output) instead of the files\n"
		"  --columns all|branches  sqlite: the samples table's columns, as\n"
		"                          perf's export-to-sqlite.py takes them:\n"
		"                          branches (default) or all (also period,\n"
		"                          weight, transaction_, data_src)\n"
		STACK_RUN_USAGE
		STACK_FILTER_USAGE
		"                          (sqlite, postgresql: with 2 or more,\n"
		"                          rows are also stored on a thread of\n"
		"                          their own)\n"
		DECODE_SYMBOL_USAGE
		"  -h, --help              this text\n\n"
		"Exit status: 0 written, 1 failed, 2 usage.\n");
}
