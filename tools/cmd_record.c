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

/* Signals end the capture from the moment the file exists (at once, when
 * they come before the first read), snapshots from when it runs. */
static void on_stage(void *arg, enum hwt_trace_stage stage,
		     struct hwt_recorder *r)
{
	(void)arg;
	if (stage == HWT_TRACE_STAGE_OPENING)
		cli_record_catch_stop();
	else if (stage == HWT_TRACE_STAGE_RUNNING)
		cli_record_catch_snapshot();
	else
		cli_record_attach(r);
}

int cmd_record(int argc, char **argv)
{
	struct record_opts o;
	struct hwt_trace_summary sum;
	char profile_output[4096];
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
	if (!rq->output)
		/* A replay (--emulate) takes no profile. */
		rq->output = hwt_record_profile_output(rq->emulate ? NULL
								   : rq->trace.profile,
						       profile_output,
						       sizeof(profile_output));
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
	rq->on_stage = on_stage;
	ret = hwt_recorder_record_trace(rq, &sum);
	int status = ret < 0 ? cli_report_status(ret) : EXIT_OK;
	hwt_record_print_trace_end(stderr, rq->prefix, rq, ret, output_existed,
				   &sum);
	return status;
}
