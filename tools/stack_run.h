/* What the stack commands (report, timeline, export, annotate, view)
 * share: their options, and the frame that runs their captures through
 * the library's stack decode (hwt_stack_decode_files) into their
 * writers. */
#ifndef HWT_TOOLS_STACK_RUN_H
#define HWT_TOOLS_STACK_RUN_H

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>

#include "decode_symbols.h"
#include "hwtrace/decode.h"
#include "hwtrace/merge.h"
#include "hwtrace/outfile.h"
#include "hwtrace/stack.h"

/* The options that choose what a stack command reads (report, timeline,
 * export): --per-cpu, --tid, --cpu, --time, where the code is, and how
 * many threads decode it (-j, as decode's; the caller sets the default,
 * cli_online_cpus, and takes 'j' in its short options). */
enum {
	OPT_RUN_PER_CPU = 700, OPT_RUN_TID, OPT_RUN_CPU, OPT_RUN_TIME,
	OPT_RUN_SYMFS, OPT_RUN_BUILDID_DIR, OPT_RUN_VMLINUX, OPT_RUN_KCORE,
	OPT_RUN_COMM, OPT_RUN_DSO, OPT_RUN_SYM, OPT_RUN_VIRTUAL_LBR,
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
	{"virtual-lbr", required_argument, NULL, OPT_RUN_VIRTUAL_LBR},      \
	{"jobs", required_argument, NULL, 'j'}

#define STACK_RUN_USAGE                                                     \
	"  --per-cpu               take each CPU's stream whole, in file order\n" \
	"  --tid N, --cpu N        only that thread's or CPU's trace\n"      \
	"  --time START,END        only trace in this perf time range\n"     \
	"  --symfs DIR, --buildid-dir DIR, --vmlinux FILE, --kcore DIR\n"   \
	"                          where the traced code is (as decode)\n"   \
	"  --virtual-lbr N         AUX samples as LBR samples: the newest N\n" \
	"                          taken branches of each one's window\n"     \
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

/* What every stack command (report, timeline, export, annotate, view)
 * takes besides its own options; cli_stack_command fills it. */
struct cli_stack_args {
	struct hwt_decode_opts opts;
	bool per_cpu;
	const char *output;           /* -o, or NULL */
	const char *file;             /* the (first) capture */
	const char **files;           /* every capture, in argv */
	int nfiles;
	struct decode_symbols symbols;
};

/* An own option's handler answers this for an option not its own. */
#define CLI_STACK_NOT_MINE (-1)

/* A stack command: its options and the steps cli_stack_command takes
 * between them. @arg of each hook is the command's own state, which
 * holds its struct cli_stack_args. */
struct cli_stack_cmd {
	const char *name;             /* "report", ... */
	void (*usage)(FILE *out);
	const struct option *options; /* its own, ended by a NULL name */
	bool one_thread;              /* decodes with one thread: no -j */
	bool many_files;              /* FILE... instead of one FILE */
	bool usage_status;            /* a failure may be a usage error
				       * (cli_report_status) */
	/* Takes one of its own options: 0, an exit status, or
	 * CLI_STACK_NOT_MINE. */
	int (*option)(void *arg, int opt, const char *value);
	/* Optional: the words before the capture file (optind on them). */
	int (*positional)(void *arg, int argc, char **argv);
	/* Optional: checks the options once the files are known. */
	int (*check)(void *arg);
	/* Optional: opens the output; default: -o (standard output without
	 * it), never one of the captures or --vmlinux. *out may stay NULL
	 * when the command names its own files. */
	int (*open)(void *arg, FILE **out, struct hwt_outfile **of);
	bool first_summary;           /* the stack summary of the first
				       * capture alone */
	/* Makes what the stacks feed (symbols started; @run's captures,
	 * results, symbol restart and run->each's file, opts, per_cpu,
	 * namer and filters set): sets run->each.ops and its sinks, and the
	 * hooks between captures (begin, end, same_clock) if it has any. */
	int (*start)(void *arg, FILE *out, struct hwt_stack_decode_files *run);
	/* Optional: decodes instead of hwt_stack_decode_files(run) (and
	 * then prints no stack summary). */
	int (*decode)(void *arg, struct hwt_stack_decode_files *run);
	/* Optional: writes the result after a decode that worked. */
	int (*finish)(void *arg, FILE *out,
		      const struct hwt_stack_decode_files *run);
	/* Optional: once the output is closed (@err the decode's, @wrc the
	 * close's status); after the stack summary when both are 0. */
	void (*done)(void *arg, const struct hwt_stack_decode_files *run,
		     int err, int wrc);
	void (*free)(void *arg);
};

/* The command line of stack command @cmd into @a (and @arg, through the
 * command's own option and check hooks): 0, or the usage error's exit
 * status (stack_args.c). */
int cli_stack_parse(const struct cli_stack_cmd *cmd, struct cli_stack_args *a,
		    void *arg, int argc, char **argv);

/* Runs stack command @cmd on argv: help, options (its own, then
 * STACK_RUN_LONG_OPTS, DECODE_SYMBOL_LONG_OPTS, -o), output, symbols,
 * the decode into its stacks, the summary. @a is inside @arg, zeroed.
 * Returns the exit status. */
int cli_stack_command(const struct cli_stack_cmd *cmd, struct cli_stack_args *a,
		      void *arg, int argc, char **argv);

#endif
