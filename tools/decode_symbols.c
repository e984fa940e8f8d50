/* hwtrace decode: symbol options and the symbolizer's hookup. */
#include <stdlib.h>

#include "cli.h"
#include "decode_symbols.h"
#include "hwtrace/sym_setup.h"

static void print_warning(void *arg, const char *message)
{
	const struct decode_symbols *ds = arg;
	if (ds->before_warning)
		ds->before_warning(ds->before_warning_arg);
	char prefix[64];
	snprintf(prefix, sizeof(prefix), "hwtrace %s: ", ds->cmd ? ds->cmd
								 : "decode");
	cli_message(prefix, message);
}

int decode_symbols_option(struct decode_symbols *ds, int opt, const char *arg)
{
	switch (opt) {
	case OPT_SYM_SRCLINE:
		ds->opts.srcline = true;
		return 1;
	case OPT_SYM_NO_DEMANGLE:
		ds->opts.no_demangle = true;
		return 1;
	case OPT_SYM_NO_SYMBOLS:
		ds->off = true;
		return 1;
	case OPT_SYM_DEBUGINFOD:
		/* libdebuginfod takes its servers from the environment. */
		setenv("DEBUGINFOD_URLS", arg, 1);
		return 1;
	case OPT_SYM_KALLSYMS:
		ds->opts.kallsyms = arg;
		return 1;
	case OPT_SYM_PERF_MAP:
		ds->opts.perf_map_dir = arg;
		return 1;
	}
	return 0;
}

struct hwt_sym_setup decode_symbols_setup(struct decode_symbols *ds,
					  const struct hwt_decode_opts *opts)
{
	struct hwt_sym_setup setup = {
		.size = sizeof(setup),
		.sym = ds->opts,
		.lookup = &opts->lookup,
		.capture = ds->capture,
		.kcore = opts->kcore,
	};
	setup.sym.warn = print_warning;
	setup.sym.warn_arg = ds;
	return setup;
}

int decode_symbols_start(struct decode_symbols *ds,
			 struct hwt_decode_opts *opts, struct hwt_output *output)
{
	if (ds->off)
		return 0;
	struct hwt_sym_setup setup = decode_symbols_setup(ds, opts);
	return hwt_symbolizer_start(&setup, opts, output, &ds->sym);
}

bool decode_symbols_annotator(struct decode_symbols *ds,
			      struct hwt_output_annotator *annotator)
{
	if (!ds->sym)
		return false;
	*annotator = hwt_symbolizer_annotator(ds->sym);
	return true;
}

void decode_symbols_end(struct decode_symbols *ds)
{
	hwt_symbolizer_free(ds->sym);
	ds->sym = NULL;
}

/* decode_symbols_start may come after the namer is handed out. */
struct hwt_func_namer decode_symbols_namer(struct decode_symbols *ds)
{
	return hwt_symbolizer_slot_namer(&ds->sym);
}

struct hwt_report_lines decode_symbols_lines(struct decode_symbols *ds)
{
	return hwt_symbolizer_lines(ds->sym);
}
