/* hwtrace record: capture a trace into a perf.data file. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "cli.h"
#include "cmd_record_opts.h"
#include "hwtrace/error.h"
#include "hwtrace/recorder.h"
#include "hwtrace/session.h"

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
	if (!o.output)
		/* A replay (--emulate) takes no profile. */
		o.output = hwt_record_profile_output(o.emulate ? NULL : o.profile,
						     profile_output,
						     sizeof(profile_output));
	bool output_existed = access(o.output, F_OK) == 0;
	{
		const char *inputs[] = {o.emulate, o.emulate_trace, o.profile,
					o.argv[0]};
		if ((ret = cli_output_check("record", o.output, inputs, 4)))
			return ret;
	}
	struct hwt_trace_request rq = {
		.size = sizeof(rq),
		.trace = {
			.size = sizeof(rq.trace), .profile = o.profile,
			.event = o.event, .sink = o.sink, .filter = o.filter,
			.snapshot = o.snapshot, .snapshot_size = o.snapshot_size,
			.cpus = o.cpus, .per_thread = o.per_thread,
		},
		.output = o.output,
		.argv = o.argv[0] ? o.argv : NULL,
		.pid = o.pid,
		.all_cpus = o.all_cpus,
		.emulate = o.emulate,
		.sysfs = o.sysfs,
		.emulate_trace = o.emulate_trace,
		.emulate_tsc = o.emulate_tsc,
		.emulate_rate = o.emulate_rate,
		.emulate_lossless = o.emulate_lossless,
		.sample_event = o.sample_event,
		.aux_sample = o.aux_sample,
		.aux_sample_size = o.aux_sample_size,
		.data_pages = o.data_pages,
		.aux_pages = o.aux_pages,
		.snapshot_on_exit = o.snapshot_on_exit,
		.interval_ms = (unsigned)o.interval_ms,
		.triggers = o.triggers,
		.ntriggers = o.ntriggers,
		.call_trigger = o.call_trigger,
		.call_func = o.call_func,
		.call_latency = o.call_latency,
		.trigger_count = o.trigger_count,
		.control = o.control,
		.compress_level = o.compress_level,
		.compress_aux = o.compress_aux,
		.keep_partial = o.keep_partial,
		.cmdline_argc = argc,
		.cmdline_argv = argv,
		.report = stderr,
		.prefix = "hwtrace record",
		.on_stage = on_stage,
		.on_stage_arg = NULL,
	};
	ret = hwt_recorder_record_trace(&rq, &sum);
	int status = EXIT_OK;
	if (ret < 0) {
		status = cli_report_status(ret);
		if (ret == HWT_ERR_NOSPC && sum.recorded && output_existed &&
		    !o.keep_partial)
			fprintf(stderr, "hwtrace record: --keep-partial replaces "
				"%s with the part recorded (marked as cut short) "
				"when the disk fills up\n", o.output);
	} else {
		fprintf(stderr, "hwtrace record: wrote %s\n", o.output);
	}
	if (sum.command_running)
		fprintf(stderr, "hwtrace record: the command is still running: "
			"it gets SIGTERM, and SIGKILL if it has not ended %d ms "
			"later\n", HWT_TERM_GRACE_MS);
	return status;
}
