/* hwtrace report --help. */
#include <stdio.h>

#include "decode_symbols.h"
#include "report_usage.h"
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
