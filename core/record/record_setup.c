/* hwt_record_setup: a session's options from a profile and an event
 * string, so that a client other than the CLI (the Python package) can
 * record without building perf_event_attrs or knowing hwt_session_opts'
 * layout. The same steps as `hwtrace record -c PROFILE -e EVENT`. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hwtrace/addrfilter.h"
#include "hwtrace/config.h"
#include "hwtrace/emulator.h"
#include "hwtrace/error.h"
#include "hwtrace/pmu.h"
#include "hwtrace/recorder.h"

struct hwt_record_setup {
	struct hwt_profile *profile;
	struct hwt_pmu_list *pmus;
	struct hwt_event_plan plan;
	bool plan_built;
	struct hwt_session_opts so;
	int *online;                /* every online CPU, when the plan has none */
	char filter[4096];          /* the plan's filters, resolved */
};

void hwt_record_setup_free(struct hwt_record_setup *rs)
{
	if (!rs)
		return;
	if (rs->plan_built)
		hwt_event_plan_release(&rs->plan);
	hwt_pmu_list_free(rs->pmus);
	hwt_profile_free(rs->profile);
	free(rs->online);
	free(rs);
}

static int load_profile(struct hwt_record_setup *rs, const char *profile,
			const char *event, const char *cpus)
{
	struct hwt_record_request rq = {.size = sizeof(rq), .profile = profile,
					.event = event};
	int err = hwt_record_profile_load(&rq, &rs->profile);

	/* The CPUs as the caller names them: an argument, not -C. */
	if (!err && cpus)
		err = hwt_profile_set_from(rs->profile, "session:cpus", cpus,
					   "cpus");
	return err;
}

int hwt_record_session_from_plan(const struct hwt_event_plan *plan,
				 struct hwt_session_opts *so, int **online)
{
	int n;

	*online = NULL;
	so->aux_attr = plan->aux_attr;
	so->backend = plan->backend;
	so->sideband = true;
	so->sideband_attr = &plan->sideband_attr;
	so->snapshot_size = plan->snapshot_size;
	so->per_thread = so->per_thread || plan->per_thread;
	/* Ring sizes the caller chose (record -m) win over the plan's. */
	if (!so->data_pages)
		so->data_pages = (uint32_t)plan->data_pages;
	if (!so->aux_pages)
		so->aux_pages = (uint32_t)plan->aux_pages;
	if (plan->ncpus) {
		so->cpus = plan->cpus;
		so->ncpus = (int)plan->ncpus;
		return 0;
	}
	/* A plan without CPUs and not per thread traces every online CPU. */
	if (so->per_thread)
		return 0;
	if ((n = hwt_online_cpus(online)) < 0)
		return n;
	so->cpus = *online;
	so->ncpus = n;
	return 0;
}

/* Intel PT's driver reports aux_head inside the buffer in snapshot
 * mode (the others let it run free), and record-aligned hardware
 * (intel_bts) wraps at its last whole record. */
int hwt_record_emulate_backend(struct hwt_emu *emu,
			       const struct hwt_backend *be,
			       struct hwt_session_opts *so)
{
	int err = hwt_emu_set_head_in_buffer(
		emu, be && be->auxtrace_type == HWT_AUXTRACE_INTEL_PT);

	if (!err && be && be->record)
		err = hwt_emu_set_aux_alignment(emu, be->record->alignment);
	/* The emulated task of a per-thread session is this process. */
	if (so->per_thread)
		so->pid = getpid();
	return err;
}

int hwt_record_setup_new(const char *profile, const char *event,
			 const char *cpus, const struct hwt_os *os, struct hwt_emu *emu,
			 struct hwt_record_setup **out)
{
	struct hwt_record_setup *rs;
	struct hwt_session_opts *so;
	int err;

	if (!out || !os)
		return hwt_error(HWT_ERR_INVAL, "hwt_record_setup_new: %s is NULL",
				 out ? "os" : "out");
	*out = NULL;
	if (!profile && !event)
		return hwt_error(HWT_ERR_CONFIG, "which trace? give an event "
				 "(see `hwtrace list`) or a profile");
	if (!(rs = calloc(1, sizeof(*rs))))
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	so = &rs->so;
	err = load_profile(rs, profile, event, cpus);
	if (!err)
		err = hwt_pmu_scan(os, &rs->pmus);
	if (!err)
		err = hwt_profile_build_attrs(rs->profile, os, rs->pmus, &rs->plan);
	if (err < 0)
		goto fail;
	rs->plan_built = true;
	/* No command: a symbol's filter needs its @ FILE. */
	if ((err = hwt_addr_filter_resolve(rs->plan.filter, NULL, rs->filter,
					   sizeof(rs->filter), NULL)) < 0)
		goto fail;
	if (rs->plan.mode == HWT_MODE_SAMPLE) {
		err = hwt_error(HWT_ERR_NOSUP, "AUX sampling (session:mode = "
				"sample) is recorded by `hwtrace record "
				"--aux-sample` only");
		goto fail;
	}
	so->size = sizeof(*so);
	so->os = os;
	so->pid = -1;
	so->aux = true;
	so->snapshot = rs->plan.mode == HWT_MODE_SNAPSHOT;
	so->aux_filter = rs->filter;
	if ((err = hwt_record_session_from_plan(&rs->plan, so, &rs->online)) < 0 ||
	    (emu && (err = hwt_record_emulate_backend(emu, rs->plan.backend,
						   &rs->so)) < 0))
		goto fail;
	*out = rs;
	return 0;
fail:
	hwt_record_setup_free(rs);
	return err;
}

struct hwt_session_opts *hwt_record_setup_session_opts(struct hwt_record_setup *rs)
{
	return rs ? &rs->so : NULL;
}

const struct hwt_backend *hwt_record_setup_backend(const struct hwt_record_setup *rs)
{
	return rs ? rs->plan.backend : NULL;
}

const struct hwt_pmu *hwt_record_setup_pmu(const struct hwt_record_setup *rs)
{
	return rs ? rs->plan.pmu : NULL;
}

int hwt_record_setup_cpus(const struct hwt_record_setup *rs, const int **cpus)
{
	static const int any = -1;

	*cpus = NULL;
	if (!rs)
		return 0;
	if (rs->so.per_thread) {
		*cpus = &any;
		return 1;
	}
	*cpus = rs->so.cpus;
	return rs->so.ncpus;
}

int hwt_record_setup_session(struct hwt_record_setup *rs,
			     struct hwt_writer_sink *ws,
			     struct hwt_session **out)
{
	struct hwt_session *s;
	int err;

	if (!rs || !ws || !out)
		return hwt_error(HWT_ERR_INVAL, "hwt_record_setup_session: "
				 "NULL argument");
	*out = NULL;
	rs->so.sink = hwt_writer_sink_get(ws);
	if ((err = hwt_session_new(&rs->so, &s)) < 0)
		return err;
	if ((err = hwt_session_open(s)) < 0) {
		hwt_session_free(s);
		return err;
	}
	*out = s;
	return 0;
}

bool hwt_record_setup_snapshot(const struct hwt_record_setup *rs)
{
	return rs && rs->so.snapshot;
}
