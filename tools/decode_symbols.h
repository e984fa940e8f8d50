/* hwtrace decode's symbol options (tools/decode_symbols.c), kept apart
 * from cmd_decode.c: names, source lines, kernel and JIT symbols. */
#ifndef HWT_TOOLS_DECODE_SYMBOLS_H
#define HWT_TOOLS_DECODE_SYMBOLS_H

#include <stdbool.h>
#include <stdio.h>

#include "hwtrace/decode.h"
#include "hwtrace/output.h"
#include "hwtrace/report.h"
#include "hwtrace/stack.h"
#include "hwtrace/sym_setup.h"
#include "hwtrace/symbols.h"

enum {
	OPT_SYM_SRCLINE = 512, OPT_SYM_NO_DEMANGLE, OPT_SYM_NO_SYMBOLS,
	OPT_SYM_DEBUGINFOD, OPT_SYM_KALLSYMS, OPT_SYM_PERF_MAP,
};

#define DECODE_SYMBOL_LONG_OPTS                                             \
	{"srcline", no_argument, NULL, OPT_SYM_SRCLINE},                    \
	{"no-demangle", no_argument, NULL, OPT_SYM_NO_DEMANGLE},            \
	{"no-symbols", no_argument, NULL, OPT_SYM_NO_SYMBOLS},              \
	{"debuginfod", required_argument, NULL, OPT_SYM_DEBUGINFOD},        \
	{"kallsyms", required_argument, NULL, OPT_SYM_KALLSYMS},            \
	{"perf-map", required_argument, NULL, OPT_SYM_PERF_MAP}

#define DECODE_SYMBOL_USAGE                                                 \
	"  --srcline               add file:line and inlined functions\n"      \
	"  --no-demangle           C++ names as in the symbol table\n"         \
	"  --no-symbols            addresses only (no symbol lookup)\n"        \
	"  --debuginfod URL        debug info server (else $DEBUGINFOD_URLS)\n" \
	"  --kallsyms FILE         kernel symbols (default /proc/kallsyms)\n"  \
	"  --perf-map DIR          where JIT perf-PID.map files are (/tmp)\n"

struct decode_symbols {
	const char *cmd;          /* for warnings: "decode", "report", ... */
	const char *capture;      /* the perf.data file, or NULL */
	struct hwt_sym_opts opts;
	bool off;
	/* A stack command's --comm, --dso and --sym (stack_run.h); NULL
	 * when not given. */
	const char *comms, *dsos, *syms;
	struct hwt_symbolizer *sym;
	/* Called before a warning is written, when set: a command's
	 * progress line is erased first, not run into. */
	void (*before_warning)(void *arg);
	void *before_warning_arg;
};

/* Takes option @opt if it is one of the symbol options: 1 when taken. */
int decode_symbols_option(struct decode_symbols *ds, int opt, const char *arg);

/* The setup decode_symbols_start starts the symbolizer from (its
 * warnings prefixed with the command's name): what a run of several
 * captures restarts it from for each (hwt_stack_decode_files). */
struct hwt_sym_setup decode_symbols_setup(struct decode_symbols *ds,
					  const struct hwt_decode_opts *opts);

/* Creates the symbolizer and hooks it into the decode (opts->on_image)
 * and the output's annotator (@output may be NULL). */
int decode_symbols_start(struct decode_symbols *ds,
			 struct hwt_decode_opts *opts, struct hwt_output *output);

/* The annotator decode_symbols_start gave the output: false when it gave
 * none (symbols off). */
bool decode_symbols_annotator(struct decode_symbols *ds,
			      struct hwt_output_annotator *annotator);

void decode_symbols_end(struct decode_symbols *ds);

/* Function names for call stacks, reports and timelines, from the
 * symbolizer once started (addresses when symbols are off). */
struct hwt_func_namer decode_symbols_namer(struct decode_symbols *ds);

/* Source lines for `report --srcline`, from the symbolizer once started
 * with srcline. */
struct hwt_report_lines decode_symbols_lines(struct decode_symbols *ds);

#endif
