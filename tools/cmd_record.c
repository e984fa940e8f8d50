/* hwtrace record: capture a trace into a perf.data file. */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cmd_record_opts.h"
#include "hwtrace/backend.h"
#include "hwtrace/config.h"
#include "hwtrace/addrfilter.h"
#include "hwtrace/auxaction.h"
#include "hwtrace/emulator.h"
#include "hwtrace/error.h"
#include "hwtrace/infile.h"
#include "hwtrace/perfdata.h"
#include "hwtrace/pmu.h"
#include "hwtrace/recorder.h"
#include "hwtrace/session.h"
#include "hwtrace/trigger.h"
#include "hwtrace/outfile.h"

/* A warning of the library's (an AUX sample size that may hold no PSB). */
static void show_warning(const char *warn)
{
	if (warn[0])
		fprintf(stderr, "hwtrace record: warning: %s\n", warn);
}

int cmd_record(int argc, char **argv)
{
	struct record_opts o;
	struct hwt_profile *profile = NULL;
	struct hwt_pmu_list *pmus = NULL;
	struct hwt_event_plan plan;
	struct hwt_emu *emu = NULL;
	struct hwt_emu_replay rp;
	struct hwt_aux_action_set actions;
	struct hwt_session_opts so;
	struct hwt_session *s = NULL;
	struct hwt_workload *wl = NULL;
	struct hwt_control *ctl = NULL;
	struct hwt_pd_writer *w = NULL;
	struct hwt_recorder *rec = NULL;
	struct hwt_writer_sink *wsink = NULL;
	uint8_t *trace = NULL;
	size_t trace_len = 0;
	int *cpus = NULL;
	int ret, status = EXIT_RUNTIME, wstatus = 0;
	bool plan_built = false, recorded = false, wl_started = false;
	char filter[4096];
	char warn[512] = "";

	/* sw_branch has no PMU: it steps the program itself. */
	if (cli_record_is_sw_branch(argc, argv))
		return cmd_record_sw_branch(argc, argv);
	/* Branch records are samples of the CPU's PMU, not a trace. */
	if (cli_record_is_branch(argc, argv))
		return cmd_record_branch(argc, argv);
	memset(&plan, 0, sizeof(plan));
	ret = record_opts_parse(argc, argv, &o);
	if (ret)
		return ret < 0 ? EXIT_OK : ret;
	char profile_output[4096];
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
	memset(&so, 0, sizeof(so));
	so.size = sizeof(so);
	so.pid = -1;
	so.snapshot = o.snapshot;
	so.data_pages = o.data_pages;
	so.aux_pages = o.aux_pages;
	so.aux = true;

	if (o.emulate) {
		struct hwt_emu_opts eo = {
			.size = sizeof(eo),
			.rate = (uint64_t)(o.emulate_rate * 1e6),
			.paced = o.emulate_lossless,
		};
		so.snapshot_size = o.snapshot_size;
		if ((ret = hwt_emu_new(&eo, &emu)) < 0 ||
		    (ret = hwt_emu_load_capture(emu, o.emulate)) < 0 ||
		    (ret = hwt_emu_replay_info(emu, &rp)) < 0 ||
		    (ret = hwt_record_replay_session_opts(emu, o.emulate, &so)) < 0)
			goto fail;
		if ((o.aux_sample || o.sample_event) &&
		    (ret = hwt_record_sample_replay(o.sample_event, o.aux_sample,
						    o.aux_sample_size, rp.aux_attr,
						    &so, warn, sizeof(warn))) < 0)
			goto fail;
		show_warning(warn);
	} else {
		const struct hwt_os *os = hwt_os_linux();
		if (o.sysfs) {
			struct hwt_emu_opts eo = {
				.size = sizeof(eo),
				.sysfs_root = o.sysfs,
				.rate = (uint64_t)(o.emulate_rate * 1e6),
				.paced = o.emulate_lossless,
			};
			if ((ret = hwt_emu_new(&eo, &emu)) < 0)
				goto fail;
			/* Without a TSC by default: perf 6.1 decodes the
			 * emulated machine's captures only without timing. */
			hwt_emu_set_time_conv(emu, o.emulate_tsc);
			os = hwt_emu_os(emu);
			if (o.emulate_trace &&
			    (ret = hwt_infile_read_all(o.emulate_trace, "--emulate-trace",
						  &trace, &trace_len)) < 0)
				goto fail;
		}
		struct hwt_record_request rq = {
			.size = sizeof(rq), .profile = o.profile, .event = o.event,
			.sink = o.sink, .filter = o.filter, .snapshot = o.snapshot,
			.snapshot_size = o.snapshot_size, .cpus = o.cpus,
			.per_thread = o.per_thread,
		};
		ret = hwt_record_profile_load(&rq, &profile);
		/* AUX sampling's options after the trace's: its mode replaces
		 * -S's. */
		if (!ret && (o.aux_sample || o.sample_event))
			ret = hwt_record_sample_profile(profile, o.sample_event,
							o.aux_sample, o.aux_sample_size);
		if (!ret)
			ret = hwt_pmu_scan(os, &pmus);
		if (!ret)
			ret = hwt_profile_build_attrs(profile, os, pmus, &plan);
		if (ret < 0)
			goto fail;
		plan_built = true;
		/* Symbols without @ FILE are the command's. */
		if ((ret = hwt_addr_filter_resolve(plan.filter, o.argv[0], filter,
						   sizeof(filter), NULL)) < 0)
			goto fail;
		so.aux_filter = filter;
		so.os = os;
		if (plan.mode == HWT_MODE_SAMPLE &&
		    (ret = hwt_record_sample_session(profile, &plan, &so, warn,
						     sizeof(warn))) < 0)
			goto fail;
		show_warning(warn);
		so.per_thread = o.per_thread;
		if ((ret = hwt_record_session_from_plan(&plan, &so, &cpus)) < 0)
			goto fail;
		if (o.argv[0]) {
			if ((ret = hwt_workload_new(o.argv, &wl)) < 0)
				goto fail;
			/* With -a or -C the command only sets how long every
			 * task is traced, as in perf record -a. */
			if (!o.all_cpus && !o.cpus) {
				so.pid = hwt_workload_pid(wl);
				so.enable_on_exec = true;
			}
		} else if (o.pid > 0) {
			so.pid = o.pid;
		}
		if (emu) {
			if ((ret = hwt_record_emulate_backend(emu, plan.backend,
							      &so)) < 0)
				goto fail;
			/* Every traced CPU's trace unit writes the same bytes. */
			for (int i = 0; trace_len && i < (so.per_thread ? 1 : so.ncpus) &&
					ret >= 0; i++)
				ret = hwt_emu_stream_aux(emu, so.per_thread ? -1 : so.cpus[i],
							 trace, trace_len, 1);
			if (ret < 0)
				goto fail;
		}
	}
	/* resume:/pause: triggers: uprobes in the AUX event's group. */
	ret = 0;
	if (o.ntriggers)
		ret = hwt_aux_action_setup(&actions, o.triggers, o.ntriggers,
					   o.argv[0], so.os, &so);
	else if (o.call_trigger)
		ret = hwt_aux_action_call_probes(&actions, o.call_func,
						 o.call_latency, o.argv[0], so.os,
						 &so);
	if (ret)
		goto fail;
	/* From the moment the file exists, a signal ends the capture with a
	 * complete file (at once, when it comes before the first read). */
	cli_record_catch_stop();
	if ((ret = hwt_pd_writer_open(o.output, &w)) < 0)
		goto fail;
	hwt_pd_writer_keep_partial(w, o.keep_partial);
	if (o.compress_level &&
	    (ret = hwt_pd_writer_set_compression(w, o.compress_level,
						 o.compress_aux ? HWT_PD_COMPRESS_AUX
								: 0)) < 0)
		goto fail;
	/* A command line that does not fit memory is left out, as the
	 * capture is worth more than its description. */
	hwt_pd_writer_set_cmdline(w, "hwtrace", argc, argv);
	if ((ret = hwt_writer_sink_new(w, false, &wsink)) < 0)
		goto fail;
	so.sink = hwt_writer_sink_get(wsink);
	if ((ret = hwt_session_new(&so, &s)) < 0 || (ret = hwt_session_open(s)) < 0)
		goto fail;
	{
		struct hwt_recorder_opts ro = {
			.size = sizeof(ro),
			.snapshot = o.snapshot,
			.snapshot_on_exit = o.snapshot_on_exit,
			.interval_ms = (unsigned)o.interval_ms,
			.trigger = o.call_trigger,
			.trigger_count = o.trigger_count,
		};
		if ((ret = hwt_recorder_new(&ro, s, w, &rec)) < 0)
			goto fail;
		cli_record_attach(rec);
	}

	/* Attributes, then the decoder's metadata, then data. */
	ret = o.emulate ? hwt_recorder_write_replay_header(w, emu, o.emulate, s, &so)
			: hwt_recorder_write_header(rec, plan.backend, plan.pmu, &so);
	if (ret < 0)
		goto fail;
	if (o.control && (ret = hwt_control_open(o.control, &ctl)) < 0)
		goto fail;

	cli_record_catch_snapshot();
	if (wl && (ret = hwt_workload_start(wl)) < 0)
		goto fail;
	wl_started = wl != NULL;
	if ((ret = hwt_recorder_run(rec, ctl, wl, &wstatus)) < 0)
		goto fail;
	if ((ret = hwt_session_stop(s)) < 0)
		goto fail;
	hwt_record_print_session_stats(stderr, "hwtrace record", s, emu);
	if (o.call_trigger) {
		struct hwt_recorder_trigger_stats ts;
		hwt_recorder_trigger_stats(rec, &ts);
		hwt_record_print_trigger_stats(stderr, "hwtrace record",
					       o.call_trigger, &ts);
	}
	if (o.compress_level) {
		uint64_t zin, zout;

		/* Flushed first so that the numbers count every record. */
		hwt_pd_writer_flush(w);
		hwt_pd_writer_compression_stats(w, &zin, &zout);
		hwt_record_print_compression(stderr, "hwtrace record", o.compress_aux,
					     zin, zout);
	}
	recorded = hwt_pd_writer_data_size(w) > 0;
	ret = hwt_pd_writer_close(w);
	w = NULL;
	if (ret < 0)
		goto fail;
	fprintf(stderr, "hwtrace record: wrote %s\n", o.output);
	status = EXIT_OK;
	goto out;
fail:
	/* A full disk ends the capture where it is: the writer keeps it,
	 * marked as cut short, or keeps the file that was there. */
	if (ret == HWT_ERR_NOSPC && w) {
		recorded = hwt_pd_writer_data_size(w) > 0;
		ret = hwt_pd_writer_close(w);
		w = NULL;
	}
	status = cli_report_status(ret);
	if (ret == HWT_ERR_NOSPC && recorded && output_existed &&
	    !o.keep_partial)
		fprintf(stderr, "hwtrace record: --keep-partial replaces %s with "
			"the part recorded (marked as cut short) when the disk "
			"fills up\n", o.output);
out:
	hwt_pd_writer_discard(w);
	cli_record_attach(NULL);
	hwt_recorder_free(rec);
	hwt_session_free(s);
	hwt_control_free(ctl);
	if (wl_started && hwt_workload_poll(wl, &wstatus) == 0)
		fprintf(stderr, "hwtrace record: the command is still running: "
			"it gets SIGTERM, and SIGKILL if it has not ended %d ms "
			"later\n", HWT_TERM_GRACE_MS);
	hwt_workload_free(wl);
	hwt_emu_free(emu);
	if (plan_built)
		hwt_event_plan_release(&plan);
	hwt_pmu_list_free(pmus);
	hwt_profile_free(profile);
	free(cpus);
	hwt_writer_sink_free(wsink);
	free(trace);
	return status;
}
