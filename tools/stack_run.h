/* What `decode --calls`, `report` and `timeline` share: a capture decoded
 * in time order (streams merged) into per-thread call stacks. */
#ifndef HWT_TOOLS_STACK_RUN_H
#define HWT_TOOLS_STACK_RUN_H

#include <stdbool.h>

#include "hwtrace/decode.h"
#include "hwtrace/merge.h"
#include "hwtrace/stack.h"

struct decode_symbols;

struct cli_stack_run {
	const char *file;                 /* the perf.data capture */
	size_t unit;                      /* only this unit (unit_run.h); 0: all */
	const struct hwt_decode_opts *opts;
	bool per_cpu;                     /* stream order: no merge */
	struct hwt_stack_ops ops;         /* where frames go */
	/* Names functions; its starts make jumps to them tail calls. May be
	 * NULL. */
	const struct hwt_func_namer *namer;
	/* Optional: every element, in the same order, before the stacks
	 * see it (timelines mark gaps and trace on/off). */
	const struct hwt_elem_sink *elements;
	/* Optional: every element after the stacks saw it (so their frames
	 * are those the element ran in). */
	const struct hwt_elem_sink *after;
	/* Optional: the symbols of the run, whose --comm, --dso and --sym
	 * (STACK_FILTER_LONG_OPTS) keep the matching frames only. */
	struct decode_symbols *symbols;
	/* Optional: where the frames those filters keep out go (a report
	 * counts them: hwt_report_hidden_ops). */
	struct hwt_stack_ops dropped;
	/* Filled by cli_stack_run: */
	struct hwt_stack_stats stack_stats;
	struct hwt_merge_stats merge_stats;
	bool merged;
};

/* The options that choose what a stack command reads (report, timeline,
 * export): --per-cpu, --tid, --cpu, --time, where the code is, and how
 * many threads decode it (-j, as decode's; the caller sets the default,
 * cli_online_cpus, and takes 'j' in its short options). */
enum {
	OPT_RUN_PER_CPU = 700, OPT_RUN_TID, OPT_RUN_CPU, OPT_RUN_TIME,
	OPT_RUN_SYMFS, OPT_RUN_BUILDID_DIR, OPT_RUN_VMLINUX, OPT_RUN_KCORE,
	OPT_RUN_COMM, OPT_RUN_DSO, OPT_RUN_SYM,
};

#define STACK_RUN_LONG_OPTS                                                 \
	{"per-cpu", no_argument, NULL, OPT_RUN_PER_CPU},                    \
	{"tid", required_argument, NULL, OPT_RUN_TID},                      \
	{"cpu", required_argument, NULL, OPT_RUN_CPU},                      \
	{"time", required_argument, NULL, OPT_RUN_TIME},                    \
	{"symfs", required_argument, NULL, OPT_RUN_SYMFS},                  \
	{"buildid-dir", required_argument, NULL, OPT_RUN_BUILDID_DIR},      \
	{"vmlinux", required_argument, NULL, OPT_RUN_VMLINUX},              \
	{"kcore", required_argument, NULL, OPT_RUN_KCORE},                  \
	{"jobs", required_argument, NULL, 'j'}

#define STACK_RUN_USAGE                                                     \
	"  --per-cpu               take each CPU's stream whole, in file order\n" \
	"  --tid N, --cpu N        only that thread's or CPU's trace\n"      \
	"  --time START,END        only trace in this perf time range\n"     \
	"  --symfs DIR, --buildid-dir DIR, --vmlinux FILE, --kcore DIR\n"   \
	"                          where the traced code is (as decode)\n"   \
	"  -j, --jobs N            decode with N threads (1 to 256; default:\n" \
	"                          the online CPUs; the output is the same)\n"

/* The frame filters of report, timeline and export (hwtrace/filter.h):
 * the stacks are rebuilt from everything, and only the frames of these
 * threads, binaries and functions are kept, their counts unchanged. Taken
 * by cli_stack_run_default into the decode_symbols it is given. */
#define STACK_FILTER_LONG_OPTS                                              \
	{"comm", required_argument, NULL, OPT_RUN_COMM},                    \
	{"dso", required_argument, NULL, OPT_RUN_DSO},                      \
	{"sym", required_argument, NULL, OPT_RUN_SYM}

#define STACK_FILTER_USAGE                                                  \
	"  --comm NAME,...         only the frames of threads of these names\n" \
	"  --dso NAME,...          only the functions in these binaries (path\n" \
	"                          or file name; [kernel.kallsyms], [vdso])\n"  \
	"  --sym NAME,...          only these functions (the stacks are still\n" \
	"                          rebuilt from all the trace: counts unchanged)\n"

/* Takes option @opt of command @cmd into @opts and *per_cpu when it is
 * one of STACK_RUN_LONG_OPTS: 1 taken, 0 not one of them, or EXIT_USAGE
 * (2) after printing why @arg is wrong. */
int cli_stack_run_option(const char *cmd, struct hwt_decode_opts *opts,
			 bool *per_cpu, int opt, const char *arg);

/* What a stack command's option loop does with an option it has no case
 * for: the options above, the symbol options (@ds), else a usage error (a
 * missing value, an unknown option; @argv for its name). 0 when taken,
 * else the exit status after the message. */
int cli_stack_run_default(const char *cmd, struct hwt_decode_opts *opts,
			  bool *per_cpu, struct decode_symbols *ds, int opt,
			  const char *arg, char **argv);

/* The one capture file left after the options: 0 with *file set, else
 * EXIT_USAGE after the message. */
int cli_stack_run_file(const char *cmd, int argc, char **argv,
		       const char **file);

/* Decodes, merges, rebuilds stacks, and closes every open frame at the
 * end. Returns 0 or a negative hwt error (the library's message set). */
int cli_stack_run(struct cli_stack_run *run);

/* One stderr line of what the stacks saw, prefixed "hwtrace CMD: ", and
 * the note that an untimed capture is in stream order. */
void cli_stack_run_summary(const struct cli_stack_run *run, const char *cmd);

#endif
