/* hwtrace record: capture a trace into a perf.data file. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "cli.h"
#include "cmd_record_opts.h"
#include "hwtrace/error.h"
#include "hwtrace/record_console.h"
#include "hwtrace/recorder.h"

int cmd_record(int argc, char **argv)
{
	struct record_opts o;
	struct hwt_trace_summary sum;
	int ret;

	/* sw_branch has no PMU: it steps the program itself. */
	if (cli_record_is_sw_branch(argc, argv))
		return cmd_record_sw_branch(argc, argv);
	/* Branch records are samples of the CPU's PMU, not a trace. */
	if (cli_record_is_branch(argc, argv))
		return cmd_record_branch(argc, argv);
	ret = record_opts_parse(argc, argv, &o);
	if (ret)
		return ret < 0 ? EXIT_OK : ret;
	struct hwt_trace_request *rq = &o.t.rq;
	bool output_existed = access(rq->output, F_OK) == 0;
	{
		const char *inputs[] = {rq->emulate, rq->emulate_trace,
					rq->trace.profile, o.argv[0]};
		if ((ret = cli_output_check("record", rq->output, inputs, 4)))
			return ret;
	}
	rq->cmdline_argc = argc;
	rq->cmdline_argv = argv;
	rq->report = stderr;
	rq->prefix = "hwtrace record";
	/* Signals end the capture, or take a snapshot, as the library says. */
	rq->on_stage = hwt_record_signals_on_stage;
	ret = hwt_recorder_record_trace(rq, &sum);
	int status = ret < 0 ? cli_report_status(ret) : EXIT_OK;
	hwt_record_print_trace_end(stderr, rq->prefix, rq, ret, output_existed,
				   &sum);
	return status;
}
