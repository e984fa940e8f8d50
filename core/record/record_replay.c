/* A replay's session and header (hwtrace record --emulate CAPTURE): the
 * capture the kernel emulator loaded is recorded again through the normal
 * capture path, and the new file reads like the original: its events, ids
 * and names, its AUXTRACE_INFO and TIME_CONV, its machine description. */
#include <unistd.h>

#include "hwtrace/auxaction.h"
#include "hwtrace/emulator.h"
#include "hwtrace/error.h"
#include "hwtrace/perfdata.h"
#include "hwtrace/recorder.h"

int hwt_record_replay_session_opts(struct hwt_emu *emu, const char *path,
				   struct hwt_session_opts *so)
{
	struct hwt_emu_replay rp;
	int err = hwt_emu_replay_info(emu, &rp);
	if (err < 0)
		return err;
	so->os = hwt_emu_os(emu);
	so->aux_attr = *rp.aux_attr;
	so->aux_attr.enable_on_exec = 0;
	so->aux_attr_as_is = true;
	so->backend = hwt_backend_for_auxtrace(
		(enum hwt_auxtrace_type)((const uint32_t *)rp.auxtrace_info)[2]);
	/* Record-aligned hardware (intel_bts) wraps at its last whole
	 * record in snapshot mode. */
	if (so->backend && so->backend->record &&
	    (err = hwt_emu_set_aux_alignment(emu, so->backend->record->alignment)) < 0)
		return err;
	if (rp.ncpus == 1 && rp.cpus[0] == -1) {
		/* The emulated task of a per-thread replay is this process. */
		so->per_thread = true;
		so->pid = getpid();
		return 0;
	}
	so->cpus = rp.cpus;
	so->ncpus = rp.ncpus;
	/* A capture of one task replays as one: its buffers keep naming it. */
	int32_t task;
	if ((err = hwt_pd_aux_task(path, &task)) < 0)
		return err;
	so->pid = task;
	return 0;
}

/* The capture's description of the machine it was recorded on and of the
 * binaries it traced, byte for byte: a replay describes the original's
 * machine (its cpuid picks the decoder's errata), and its build ids make
 * perf and hwtrace decode refuse binaries that are not the traced ones. */
static int copy_features(const char *path, struct hwt_pd_writer *w)
{
	static const unsigned int feats[] = {
		HWT_PD_FEAT_BUILD_ID, HWT_PD_FEAT_HOSTNAME, HWT_PD_FEAT_OSRELEASE,
		HWT_PD_FEAT_VERSION, HWT_PD_FEAT_ARCH, HWT_PD_FEAT_NRCPUS,
		HWT_PD_FEAT_CPUDESC, HWT_PD_FEAT_CPUID, HWT_PD_FEAT_TOTAL_MEM,
		HWT_PD_FEAT_CPU_TOPOLOGY, HWT_PD_FEAT_NUMA_TOPOLOGY,
		HWT_PD_FEAT_PMU_MAPPINGS, HWT_PD_FEAT_CACHE,
		HWT_PD_FEAT_MEM_TOPOLOGY, HWT_PD_FEAT_CLOCKID,
		HWT_PD_FEAT_CPU_PMU_CAPS, HWT_PD_FEAT_CLOCK_DATA,
		HWT_PD_FEAT_HYBRID_TOPOLOGY, HWT_PD_FEAT_PMU_CAPS,
	};
	struct hwt_pd_reader *r;
	int err = hwt_pd_reader_open(path, &r);

	if (err < 0)
		return err;
	err = hwt_pd_writer_copy_features(w, r, feats, sizeof(feats) / sizeof(*feats));
	hwt_pd_reader_free(r);
	return err;
}

int hwt_recorder_write_replay_header(struct hwt_pd_writer *w,
				     struct hwt_emu *emu, const char *path,
				     const struct hwt_session *s,
				     const struct hwt_session_opts *so)
{
	struct hwt_emu_replay rp;
	int err = hwt_emu_replay_info(emu, &rp);

	/* The capture's events, ids and layouts, unchanged: its sideband
	 * records are replayed as they were. */
	for (size_t i = 0; i < rp.nattrs && err >= 0; i++) {
		struct perf_event_attr a = rp.attrs[i];
		/* Whether the replay started paused. */
		if (&rp.attrs[i] == rp.aux_attr)
			hwt_attr_set_aux_action(&a, hwt_attr_aux_action(&so->aux_attr));
		err = hwt_pd_writer_add_attr(w, &a, rp.ids[i], rp.nids[i],
					     rp.names[i]);
	}
	/* AUX sampling's event, then the pause/resume probes: the session's
	 * events after its AUX event. */
	if (err >= 0)
		err = hwt_recorder_add_session_attrs(w, s, 1,
						     so->aux_sample + so->nprobes);
	if (err >= 0)
		err = hwt_pd_writer_record(w, rp.auxtrace_info);
	if (err >= 0 && rp.time_conv)
		err = hwt_pd_writer_record(w, rp.time_conv);
	if (err >= 0)
		err = copy_features(path, w);
	return err < 0 ? err : 0;
}
