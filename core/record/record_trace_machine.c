/* The machine a trace is recorded on (hwt_recorder_record_trace): the
 * replay of a capture, the kernel emulator on a sysfs tree, or this
 * kernel, and the session options each gives: the replay's are the
 * capture's, the others' come from the profile through its event plan. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "hwtrace/addrfilter.h"
#include "hwtrace/error.h"
#include "hwtrace/infile.h"
#include "hwtrace/pmu.h"
#include "record_trace_internal.h"

void trace_warn(const struct hwt_trace_request *rq, const char *warn)
{
	if (warn[0] && rq->report)
		fprintf(rq->report, "%s: warning: %s\n", rq->prefix, warn);
}

/* The emulated trace unit's pace, as --emulate-rate and
 * --emulate-lossless say. */
static struct hwt_emu_opts emu_opts(const struct hwt_trace_request *rq)
{
	struct hwt_emu_opts eo = {
		.size = sizeof(eo),
		.sysfs_root = rq->sysfs,
		.rate = (uint64_t)(rq->emulate_rate * 1e6),
		.paced = rq->emulate_lossless,
	};
	return eo;
}

static int open_replay(const struct hwt_trace_request *rq,
		       struct trace_machine *m)
{
	struct hwt_emu_opts eo = emu_opts(rq);
	struct hwt_emu_replay rp;
	/* The capture describes the machine: no sysfs tree. */
	eo.sysfs_root = NULL;
	char warn[512] = "";
	int ret;

	m->so.snapshot_size = rq->trace.snapshot_size;
	if ((ret = hwt_emu_new(&eo, &m->emu)) < 0 ||
	    (ret = hwt_emu_load_capture(m->emu, rq->emulate)) < 0 ||
	    (ret = hwt_emu_replay_info(m->emu, &rp)) < 0 ||
	    (ret = hwt_record_replay_session_opts(m->emu, rq->emulate, &m->so)) < 0)
		return ret;
	if ((rq->aux_sample || rq->sample_event) &&
	    (ret = hwt_record_sample_replay(rq->sample_event, rq->aux_sample,
					    rq->aux_sample_size, rp.aux_attr,
					    &m->so, warn, sizeof(warn))) < 0)
		return ret;
	trace_warn(rq, warn);
	return 0;
}

/* The emulator on --sysfs's tree, its trace units fed later. */
static int open_emulator(const struct hwt_trace_request *rq,
			 struct trace_machine *m)
{
	struct hwt_emu_opts eo = emu_opts(rq);
	int ret;

	if ((ret = hwt_emu_new(&eo, &m->emu)) < 0)
		return ret;
	/* Without a TSC by default: perf 6.1 decodes the emulated machine's
	 * captures only without timing. */
	hwt_emu_set_time_conv(m->emu, rq->emulate_tsc);
	if (rq->emulate_trace &&
	    (ret = hwt_infile_read_all(rq->emulate_trace, "--emulate-trace",
				       &m->trace, &m->trace_len)) < 0)
		return ret;
	return 0;
}

/* The profile, its plan and their session options on @os. */
static int plan_session(const struct hwt_trace_request *rq,
			const struct hwt_os *os, struct trace_machine *m)
{
	char warn[512] = "";
	int ret = hwt_record_profile_load(&rq->trace, &m->profile);

	/* AUX sampling's options after the trace's: its mode replaces -S's. */
	if (!ret && (rq->aux_sample || rq->sample_event))
		ret = hwt_record_sample_profile(m->profile, rq->sample_event,
						rq->aux_sample, rq->aux_sample_size);
	if (!ret)
		ret = hwt_pmu_scan(os, &m->pmus);
	if (!ret)
		ret = hwt_profile_build_attrs(m->profile, os, m->pmus, &m->plan);
	if (ret < 0)
		return ret;
	m->plan_built = true;
	m->backend = m->plan.backend;
	m->pmu = m->plan.pmu;
	/* Symbols without @ FILE are the command's. */
	if ((ret = hwt_addr_filter_resolve(m->plan.filter,
					   rq->argv ? rq->argv[0] : NULL,
					   m->filter, sizeof(m->filter), NULL)) < 0)
		return ret;
	m->so.aux_filter = m->filter;
	m->so.os = os;
	if (m->plan.mode == HWT_MODE_SAMPLE &&
	    (ret = hwt_record_sample_session(m->profile, &m->plan, &m->so, warn,
					     sizeof(warn))) < 0)
		return ret;
	trace_warn(rq, warn);
	m->so.per_thread = rq->trace.per_thread;
	return hwt_record_session_from_plan(&m->plan, &m->so, &m->online);
}

/* The command, or the task followed. */
static int follow(const struct hwt_trace_request *rq, struct trace_machine *m)
{
	int ret;

	if (rq->argv) {
		if ((ret = hwt_workload_new(rq->argv, &m->wl)) < 0)
			return ret;
		/* With -a or -C the command only sets how long every task is
		 * traced, as in perf record -a. */
		if (!rq->all_cpus && !rq->trace.cpus) {
			m->so.pid = hwt_workload_pid(m->wl);
			m->so.enable_on_exec = true;
		}
	} else if (rq->pid > 0) {
		m->so.pid = (pid_t)rq->pid;
	}
	return 0;
}

/* The emulated trace units behave as the backend's hardware and produce
 * --emulate-trace's bytes: every traced CPU's the same ones. */
static int feed_emulator(struct trace_machine *m)
{
	struct hwt_session_opts *so = &m->so;
	int ret = hwt_record_emulate_backend(m->emu, m->backend, so);
	int n = so->per_thread ? 1 : so->ncpus;

	for (int i = 0; m->trace_len && i < n && ret >= 0; i++)
		ret = hwt_emu_stream_aux(m->emu, so->per_thread ? -1 : so->cpus[i],
					 m->trace, m->trace_len, 1);
	return ret < 0 ? ret : 0;
}

int trace_machine_open(const struct hwt_trace_request *rq,
		       struct trace_machine *m)
{
	const struct hwt_os *os = hwt_os_linux();
	int ret;

	m->so.size = sizeof(m->so);
	m->so.pid = -1;
	m->so.snapshot = rq->trace.snapshot;
	m->so.data_pages = rq->data_pages;
	m->so.aux_pages = rq->aux_pages;
	m->so.aux = true;
	if (rq->emulate)
		return open_replay(rq, m);
	if (rq->sysfs) {
		if ((ret = open_emulator(rq, m)) < 0)
			return ret;
		os = hwt_emu_os(m->emu);
	}
	if ((ret = plan_session(rq, os, m)) < 0 || (ret = follow(rq, m)) < 0)
		return ret;
	return m->emu ? feed_emulator(m) : 0;
}

void trace_machine_close(struct trace_machine *m)
{
	hwt_workload_free(m->wl);
	hwt_emu_free(m->emu);
	if (m->plan_built)
		hwt_event_plan_release(&m->plan);
	hwt_pmu_list_free(m->pmus);
	hwt_profile_free(m->profile);
	free(m->online);
	free(m->trace);
}
