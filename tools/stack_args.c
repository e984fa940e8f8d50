/* The stack commands' command line: the options they share (the decode's
 * filters, symbol lookup, -j, -o) and the parse that joins a command's
 * own options to them (stack_run.h). */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "decode_symbols.h"
#include "hwtrace/error.h"
#include "hwtrace/filter.h"
#include "hwtrace/value.h"
#include "stack_run.h"

int cli_stack_run_option(const char *cmd, struct hwt_decode_opts *o,
			 bool *per_cpu, int opt, const char *arg)
{
	switch (opt) {
	case OPT_RUN_PER_CPU:
		*per_cpu = true;
		return 1;
	case OPT_RUN_TID:
	{
		uint64_t v;
		int rc = cli_number_u64(&(struct cli_number){cmd, "--tid", 0,
				INT32_MAX, "a thread id from 0 to 2147483647"},
				arg, &v);
		if (rc)
			return rc;
		o->tid = (int32_t)v;
		o->filter_tid = true;
		return 1;
	}
	case OPT_RUN_CPU:
	{
		uint64_t v;
		int rc = cli_number_u64(&(struct cli_number){cmd, "--cpu", 0,
				65535, "a CPU number from 0 to 65535"}, arg, &v);
		if (rc)
			return rc;
		o->cpu = (int32_t)v;
		o->filter_cpu = true;
		return 1;
	}
	case OPT_RUN_TIME:
		if (hwt_value_parse_time_range(arg, &o->time_start, &o->time_end))
			return cli_usage_error(cmd, "--time %s: expected "
					       "START,END", arg);
		o->filter_time = true;
		return 1;
	case OPT_RUN_SYMFS:
		o->lookup.symfs = arg;
		return 1;
	case OPT_RUN_BUILDID_DIR:
		o->lookup.buildid_dir = arg;
		return 1;
	case OPT_RUN_VMLINUX:
		o->lookup.vmlinux = arg;
		return 1;
	case OPT_RUN_VIRTUAL_LBR:
	{
		int rc = cli_virtual_lbr(cmd, arg, &o->virtual_lbr);
		return rc ? rc : 1;
	}
	case OPT_RUN_KCORE:
		o->kcore = arg;
		return 1;
	case 'j':
	{
		int rc = cli_jobs(cmd, arg, &o->jobs);
		return rc ? rc : 1;
	}
	}
	return 0;
}

/* --comm, --dso, --sym NAME,... (hwt_filter_list_check). */
static int filter_list(const char *cmd, const char *option, const char *arg,
		       const char **list)
{
	if (hwt_filter_list_check(option, arg) < 0)
		return cli_usage_error(cmd, "%s", hwt_errmsg());
	*list = arg;
	return 0;
}

/* --dso and --sym look functions up: not with --no-symbols, in either
 * order. */
static int filter_needs_symbols(const char *cmd,
				const struct decode_symbols *ds)
{
	if (hwt_filter_symbols_check(ds->off, ds->dsos, ds->syms) < 0)
		return cli_usage_error(cmd, "%s", hwt_errmsg());
	return 0;
}

/* Takes the frame filters into @ds: 1 taken, 0 not one, or EXIT_USAGE. */
static int filter_option(const char *cmd, struct decode_symbols *ds, int opt,
			 const char *arg)
{
	int rc;
	switch (opt) {
	case OPT_RUN_COMM:
		rc = filter_list(cmd, "--comm", arg, &ds->comms);
		break;
	case OPT_RUN_DSO:
		rc = filter_list(cmd, "--dso", arg, &ds->dsos);
		break;
	case OPT_RUN_SYM:
		rc = filter_list(cmd, "--sym", arg, &ds->syms);
		break;
	default:
		return 0;
	}
	return rc ? rc : 1;
}

int cli_stack_run_default(const char *cmd, struct hwt_decode_opts *opts,
			  bool *per_cpu, struct decode_symbols *ds, int opt,
			  const char *arg, char **argv)
{
	int rc = cli_stack_run_option(cmd, opts, per_cpu, opt, arg);
	if (!rc)
		rc = filter_option(cmd, ds, opt, arg);
	if (!rc && decode_symbols_option(ds, opt, arg))
		rc = 1;
	if (rc == 1)
		return filter_needs_symbols(cmd, ds);
	if (rc)
		return rc;
	if (opt == ':')
		return cli_usage_error(cmd, "%s needs a value", argv[optind - 1]);
	return cli_usage_error(cmd, "unknown option %s", argv[optind - 1]);
}

int cli_stack_run_file(const char *cmd, int argc, char **argv,
		       const char **file)
{
	if (optind != argc - 1)
		return cli_usage_error(cmd, optind < argc ? "give one capture file"
					    : "no capture file");
	*file = argv[optind];
	return 0;
}

static const struct option common_opts[] = {
	STACK_RUN_LONG_OPTS,
	DECODE_SYMBOL_LONG_OPTS,
	{"output", required_argument, NULL, 'o'},
	{"help", no_argument, NULL, 'h'},
	{NULL, 0, NULL, 0},
};

int cli_stack_parse(const struct cli_stack_cmd *cmd, struct cli_stack_args *a,
		    void *arg, int argc, char **argv)
{
	size_t own = 0, common = sizeof(common_opts) / sizeof(common_opts[0]);
	while (cmd->options && cmd->options[own].name)
		own++;
	struct option *opts = calloc(own + common, sizeof(*opts));
	if (!opts)
		return cli_report(hwt_error(HWT_ERR_NOMEM, "out of memory"));
	if (own)
		memcpy(opts, cmd->options, own * sizeof(*opts));
	memcpy(opts + own, common_opts, sizeof(common_opts));
	a->opts.size = sizeof(a->opts);
	a->opts.lookup.size = sizeof(a->opts.lookup);
	a->opts.jobs = cmd->one_thread ? 1 : cli_online_cpus();
	optind = 1;
	opterr = 0;
	int c, rc = 0;
	const char *shorts = cmd->one_thread ? ":o:h" : ":o:j:h";
	while (!rc && (c = getopt_long(argc, argv, shorts, opts, NULL)) != -1) {
		if (c == 'o') {
			a->output = optarg;
			continue;
		}
		rc = cmd->option ? cmd->option(arg, c, optarg)
				 : CLI_STACK_NOT_MINE;
		if (rc == CLI_STACK_NOT_MINE)
			rc = cli_stack_run_default(cmd->name, &a->opts,
						   &a->per_cpu, &a->symbols, c,
						   optarg, argv);
	}
	free(opts);
	if (rc)
		return rc;
	if (cmd->positional && (rc = cmd->positional(arg, argc, argv)))
		return rc;
	if (cmd->many_files) {
		if (optind >= argc)
			return cli_usage_error(cmd->name, "no capture file");
		a->files = (const char **)argv + optind;
		a->nfiles = argc - optind;
		a->file = a->files[0];
	} else {
		if ((rc = cli_stack_run_file(cmd->name, argc, argv, &a->file)))
			return rc;
		a->files = &a->file;
		a->nfiles = 1;
	}
	return cmd->check ? cmd->check(arg) : 0;
}
