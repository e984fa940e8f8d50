/* The stack commands' frame (report, timeline, export, annotate, view):
 * their captures through hwt_stack_decode_files, with the command's
 * filters and symbols, into the command's writer (stack_run.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "hwtrace/error.h"
#include "decode_symbols.h"
#include "stack_run.h"

/* What the stacks saw, a line for each capture (@n of them). */
static void print_summaries(const char *cmd,
			    const struct hwt_stack_decode_files *run, size_t n)
{
	char prefix[64];
	snprintf(prefix, sizeof(prefix), "hwtrace %s: ", cmd);
	for (size_t i = 0; i < n; i++)
		hwt_stack_decode_print_summary(stderr, prefix, &run->results[i],
					       run->each.per_cpu);
}

/* Every stack command's options after its own. */
/* -o, never over one of the captures or the kernel image read. */
static int stack_output_open(const struct cli_stack_cmd *cmd,
			     const struct cli_stack_args *a, FILE **out,
			     struct hwt_outfile **of)
{
	size_t n = (size_t)a->nfiles + 1;
	const char **inputs = calloc(n, sizeof(*inputs));
	if (!inputs)
		return cli_report(hwt_error(HWT_ERR_NOMEM, "out of memory"));
	memcpy(inputs, a->files, (n - 1) * sizeof(*inputs));
	inputs[n - 1] = a->opts.lookup.vmlinux;
	int rc = cli_output_open(cmd->name, a->output, inputs, n, out, of);
	free(inputs);
	return rc;
}

int cli_stack_command(const struct cli_stack_cmd *cmd, struct cli_stack_args *a,
		      void *arg, int argc, char **argv)
{
	if (cli_wants_help(argc, argv)) {
		cmd->usage(stdout);
		return EXIT_OK;
	}
	a->symbols.cmd = cmd->name;
	int rc = cli_stack_parse(cmd, a, arg, argc, argv);
	if (rc)
		return rc;
	FILE *out = NULL;
	struct hwt_outfile *of = NULL;
	rc = cmd->open ? cmd->open(arg, &out, &of)
		       : stack_output_open(cmd, a, &out, &of);
	if (rc)
		return rc;
	a->symbols.capture = a->file;
	int err = decode_symbols_start(&a->symbols, &a->opts, NULL);
	struct hwt_func_namer namer = decode_symbols_namer(&a->symbols);
	/* Each capture after the first restarts the symbols from these. */
	struct hwt_sym_setup setup = decode_symbols_setup(&a->symbols, &a->opts);
	struct decode_symbols *ds = &a->symbols;
	struct hwt_stack_decode_files run = {
		.size = sizeof(run),
		.each = {
			.size = sizeof(run.each), .file = a->file,
			.opts = &a->opts, .per_cpu = a->per_cpu,
			.namer = &namer, .comms = ds->comms, .dsos = ds->dsos,
			.syms = ds->syms, .sym = ds->sym,
		},
		.files = a->files, .nfiles = (size_t)a->nfiles,
		.symbols = ds->off ? NULL : &setup,
		.sym = ds->off ? NULL : &ds->sym, .sym_opts = &a->opts,
		.results = calloc((size_t)a->nfiles, sizeof(*run.results)),
	};
	if (!err && !run.results)
		err = hwt_error(HWT_ERR_NOMEM, "out of memory");
	if (!err)
		err = cmd->start(arg, out, &run);
	if (!err)
		err = cmd->decode ? cmd->decode(arg, &run)
				  : hwt_stack_decode_files(&run);
	if (!err && cmd->finish)
		err = cmd->finish(arg, out, &run);
	int wrc = out ? cli_output_close(cmd->name, out, a->output, of, err < 0)
		      : 0;
	/* What the stacks saw, once the answer is out (none for a failed
	 * one: its error is the message). */
	if (!err && !wrc && !cmd->decode)
		print_summaries(cmd->name, &run,
				cmd->first_summary ? 1 : run.nfiles);
	if (cmd->done)
		cmd->done(arg, &run, err, wrc);
	if (cmd->free)
		cmd->free(arg);
	free(run.results);
	decode_symbols_end(&a->symbols);
	if (wrc)
		return wrc;
	if (!err)
		return EXIT_OK;
	return cmd->usage_status ? cli_report_status(err) : cli_report(err);
}
