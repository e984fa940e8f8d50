/* hwt_recorder_record_branch: branch records (hwtrace record -b / -j)
 * sampled through the capture engine into the file `perf record -b`
 * writes, on this machine's kernel for a command or on the kernel
 * emulator fed from a sw_branch capture (branch_truth.c). */
#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/record/recorder_internal.h"
#include "hwtrace/brstack.h"
#include "hwtrace/emulator.h"
#include "hwtrace/error.h"
#include "hwtrace/perfdata.h"
#include "hwtrace/recorder.h"
#include "hwtrace/session.h"

/* What is sampled where: the OS seam, the branch-record hardware, and
 * either the emulator (fed from the capture) or the command. */
struct machine {
	struct hwt_emu *emu;
	struct hwt_workload *wl;
	const struct hwt_os *os;
	struct hwt_branch_hw hw;
	int *cpus;
	int ncpus;
};

static int machine_open(const struct hwt_branch_request *rq, struct machine *m)
{
	int ret;
	if (rq->truth) {
		struct hwt_emu_opts eo = {.size = sizeof(eo), .sysfs_root = rq->sysfs,
					  .paced = true};
		if ((ret = hwt_emu_new(&eo, &m->emu)) < 0)
			return ret;
		m->os = hwt_emu_os(m->emu);
	} else {
		m->os = hwt_os_linux();
	}
	/* No branch records at all is the attribute check's to refuse, in
	 * perf's words. */
	if ((ret = hwt_branch_hw_probe(m->os, &m->hw)) == HWT_ERR_NOENT)
		memset(&m->hw, 0, sizeof(m->hw));
	else if (ret < 0)
		return ret;
	return 0;
}

static void machine_close(struct machine *m)
{
	hwt_workload_free(m->wl);
	hwt_emu_free(m->emu);
	free(m->cpus);
}

/* The session's events: the emulator's one per-thread event, or one per
 * online CPU following the command (and its children), which starts
 * with its exec, the sideband event beside it. */
static int session_setup(const struct hwt_branch_request *rq, struct machine *m,
			 struct branch_group_plan *plan,
			 struct hwt_session_opts *so)
{
	so->os = m->os;
	so->branch = true;
	so->data_pages = rq->data_pages;
	if (plan->active) {
		so->branch_members = plan->members;
		so->branch_member_names = plan->names;
		so->nbranch_members = plan->g.n - 1;
	}
	if (m->emu) {
		so->branch_name = plan->active ? plan->g.m[0].name : "branches";
		so->per_thread = true;
		so->pid = getpid();
		return 0;
	}
	so->branch_name = plan->active ? plan->g.m[0].name : "cycles";
	so->branch_attr.inherit = 1;
	for (size_t k = 0; plan->active && k + 1 < plan->g.n; k++)
		plan->members[k].inherit = 1;
	int ret = hwt_online_cpus(&m->cpus);
	if (ret < 0)
		return ret;
	m->ncpus = ret;
	so->cpus = m->cpus;
	so->ncpus = m->ncpus;
	ret = hwt_workload_new(rq->argv, &m->wl);
	if (ret < 0)
		return ret;
	so->pid = hwt_workload_pid(m->wl);
	so->enable_on_exec = true;
	so->sideband = true;
	return 0;
}

/* The sampling event's attribute: real hardware counts cycles, as perf
 * record -b; the emulator counts the taken branches of its ground truth,
 * which has no transactions to filter on. */
static int branch_attr(struct hwt_branch_sampling *bs, const struct machine *m,
		       struct branch_group_plan *plan, struct hwt_session_opts *so)
{
	int ret;
	if (!m->emu)
		bs->config = PERF_COUNT_HW_CPU_CYCLES;
	const char *name = plan->active ? plan->g.m[0].name
					: m->emu ? "branches" : "cycles";
	if ((ret = hwt_branch_attr_build(bs, &m->hw, name, &so->branch_attr)) < 0)
		return ret;
	/* A group's leader is its first event, with its own terms. */
	if (plan->active)
		hwt_record_branch_group_attrs(plan, so->branch_attr.branch_sample_type,
					      &so->branch_attr);
	if (m->emu && (bs->mode & ~(uint64_t)HWT_EMU_BRANCH_FILTERS))
		return hwt_error(HWT_ERR_CONFIG, "-j: the emulator records any, "
				 "any_call, call, ind_call, any_ret, cond and "
				 "ind_jmp (with u, k, hv, save_type, priv, "
				 "hw_index, counter): its ground truth has no "
				 "transactions");
	return 0;
}

int hwt_branch_request_check(const struct hwt_branch_request *rq)
{
	/* A caller built before the group field has none. */
	if (!rq || rq->size < offsetof(struct hwt_branch_request, group) ||
	    !rq->output)
		return hwt_error(HWT_ERR_INVAL, "branch sampling: a request with "
				 "its size and an output file");
	/* In the order a command line's reader meets them: the sampling's
	 * own options, then the machine. */
	if (rq->any && rq->filter)
		return hwt_error(HWT_ERR_INVAL, "-b is -j any: give one of -b "
				 "and -j %s", rq->filter);
	if (rq->period && rq->freq)
		return hwt_error(HWT_ERR_INVAL, "-c %" PRIu64 " and -F %" PRIu64
				 ": a period or a frequency, not both",
				 rq->period, rq->freq);
	/* -e's syntax; what the PMU allows is for when sysfs is read. */
	struct hwt_branch_group g;
	if (rq->size >= offsetof(struct hwt_branch_request, group) +
			sizeof(rq->group) && rq->group &&
	    hwt_branch_group_parse(rq->group, "-e", &g) < 0) {
		char msg[1024];
		snprintf(msg, sizeof(msg), "%s", hwt_errmsg());
		return hwt_error(HWT_ERR_INVAL, "%s", msg);
	}
	if (rq->argv && (rq->sysfs || rq->truth))
		return hwt_error(HWT_ERR_INVAL, "--sysfs and --emulate-branches "
				 "record the emulator's program: no command");
	if (!rq->argv && (!rq->sysfs || !rq->truth))
		return hwt_error(HWT_ERR_INVAL, "what to sample? give -- CMD, or "
				 "--sysfs DIR (the emulated machine) and "
				 "--emulate-branches FILE (a sw_branch capture "
				 "of its program)");
	return 0;
}

/* Polls the open session @s into @w until it or the command ends. */
static int poll_session(const struct hwt_branch_request *rq, struct machine *m,
			const struct branch_group_plan *plan,
			struct hwt_session *s, struct hwt_pd_writer *w)
{
	struct hwt_recorder_opts ro = {.size = sizeof(ro)};
	struct hwt_recorder *rec = NULL;
	int wstatus = 0, ret;
	/* The session's first event, the group's leader, is the file's
	 * next. */
	size_t leader = hwt_pd_writer_nr_attrs(w);
	if ((ret = hwt_recorder_add_session_attrs(w, s, 0, SIZE_MAX)) < 0 ||
	    /* As perf: a group of one is no group in GROUP_DESC. */
	    (plan->active && plan->g.n > 1 &&
	     (ret = hwt_record_branch_group_desc(plan, leader, w)) < 0) ||
	    (ret = hwt_recorder_new(&ro, s, w, &rec)) < 0)
		return ret;
	if (rq->on_recorder)
		rq->on_recorder(rq->on_recorder_arg, rec);
	if ((!m->wl || (ret = hwt_workload_start(m->wl)) >= 0) &&
	    (ret = hwt_recorder_run(rec, NULL, m->wl, &wstatus)) >= 0)
		ret = hwt_session_stop(s);
	if (rq->on_recorder)
		rq->on_recorder(rq->on_recorder_arg, NULL);
	hwt_recorder_free(rec);
	return ret;
}

int hwt_recorder_record_branch(const struct hwt_branch_request *rq,
			       struct hwt_branch_summary *sum)
{
	struct hwt_branch_sampling bs;
	struct machine m;
	struct hwt_pd_writer *w = NULL;
	struct hwt_writer_sink *wsink = NULL;
	struct hwt_session *s = NULL;
	struct hwt_session_opts so;
	struct branch_group_plan plan;
	int ret;

	if (sum)
		memset(sum, 0, sizeof(*sum));
	if ((ret = hwt_branch_request_check(rq)) < 0)
		return ret;
	memset(&m, 0, sizeof(m));
	memset(&plan, 0, sizeof(plan));
	memset(&so, 0, sizeof(so));
	so.size = sizeof(so);
	/* The options' errors before the machine's. */
	const char *group = rq->size >= offsetof(struct hwt_branch_request, group) +
						 sizeof(rq->group) ? rq->group : NULL;
	if ((ret = hwt_branch_sampling_of(rq->profile, rq->any, rq->filter,
					  rq->period, rq->freq, &bs)) < 0 ||
	    (ret = machine_open(rq, &m)) < 0 ||
	    (ret = hwt_record_branch_group_of(rq, group, &m.hw,
					      bs.mode ? bs.mode : PERF_SAMPLE_BRANCH_ANY,
					      &plan)) < 0 ||
	    (ret = branch_attr(&bs, &m, &plan, &so)) < 0 ||
	    (ret = session_setup(rq, &m, &plan, &so)) < 0 ||
	    (ret = hwt_pd_writer_open(rq->output, &w)) < 0 ||
	    (m.emu && (ret = hwt_record_branch_truth(rq->truth, m.emu, w)) < 0) ||
	    (!m.emu && (ret = hwt_pd_writer_set_nr_cpus(w, (uint32_t)m.ncpus,
							(uint32_t)m.ncpus)) < 0) ||
	    /* This machine's caps too, as perf record writes them: the
	     * counters' width that splits a group's words. */
	    (!m.emu && (ret = hwt_record_branch_caps(m.os, w)) < 0) ||
	    (ret = hwt_writer_sink_new(w, false, &wsink)) < 0)
		goto out;
	so.sink = hwt_writer_sink_get(wsink);
	if ((ret = hwt_session_new(&so, &s)) < 0 || (ret = hwt_session_open(s)) < 0 ||
	    (ret = poll_session(rq, &m, &plan, s, w)) < 0)
		goto out;
	if (sum) {
		struct hwt_emu_branch_stats st;
		sum->hw = m.hw;
		if (m.emu && hwt_emu_branch_stats(m.emu, &st) == 0) {
			sum->emulated = true;
			sum->samples = st.samples;
			sum->lost = st.lost;
		}
	}
	ret = hwt_pd_writer_close(w);
	w = NULL;
out:
	hwt_pd_writer_discard(w);
	hwt_session_free(s);
	machine_close(&m);
	hwt_writer_sink_free(wsink);
	return ret < 0 ? ret : 0;
}
