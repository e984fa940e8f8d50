/* The kernel's AUX pause/resume (Linux 6.13, perf_event_attr.aux_action):
 * the AUX event opens with aux_start_paused and writes no trace until an
 * event of its group that has aux_resume fires; one with aux_pause stops
 * it again. Neither wakes user space: the trace is cut in the kernel, at
 * the moment the probe fires.
 *
 * hwtrace spells these as triggers beside symbol:/latency:/signal:
 *     resume:FUNC[@BINARY]          an uprobe at FUNC's entry resumes
 *     pause:FUNC%return[@BINARY]    an uretprobe at FUNC's return pauses
 * (FUNC%return is perf probe's spelling of a return probe), which is what
 *     perf record -e intel_pt/aux-action=start-paused/
 *                 -e probe_x:FUNC/aux-action=resume/
 *                 -e probe_x:FUNC__return/aux-action=pause/
 * asks for after `perf probe -x BINARY FUNC FUNC%return`. */
#ifndef HWTRACE_AUXACTION_H
#define HWTRACE_AUXACTION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <linux/perf_event.h>

#include "hwtrace/common.h"
#include "hwtrace/os.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The bits of the u32 after aux_sample_size (uapi: the union of
 * aux_action and its bit-fields, __reserved_3 in older headers). */
#define HWT_AUX_START_PAUSED 0x1u
#define HWT_AUX_PAUSE 0x2u
#define HWT_AUX_RESUME 0x4u
#define HWT_AUX_ACTION_OFFSET                                                \
	(offsetof(struct perf_event_attr, aux_sample_size) + sizeof(uint32_t))

/* Read and written by offset: older headers name the field __reserved_3,
 * newer ones make it a union with bit-fields, and both must build. */
static inline uint32_t hwt_attr_aux_action(const struct perf_event_attr *a)
{
	uint32_t v;
	memcpy(&v, (const uint8_t *)a + HWT_AUX_ACTION_OFFSET, sizeof(v));
	return v;
}

static inline void hwt_attr_set_aux_action(struct perf_event_attr *a,
					   uint32_t v)
{
	memcpy((uint8_t *)a + HWT_AUX_ACTION_OFFSET, &v, sizeof(v));
}

/* The uprobe PMU's format, as /sys/bus/event_source/devices/uprobe/format
 * says: config:0 is retprobe; config1 holds a pointer to the binary's
 * path (uprobe_path) and config2 the probe's file offset
 * (probe_offset). */
#define HWT_UPROBE_RETPROBE 0x1ull

/* One resume:/pause: trigger, parsed. */
struct hwt_aux_action {
	uint32_t action;         /* HWT_AUX_PAUSE or HWT_AUX_RESUME */
	bool at_return;          /* FUNC%return: an uretprobe */
	char func[256];
	char binary[4096];       /* resolved to an absolute path */
	uint64_t offset;         /* FUNC's file offset in @binary */
	char name[300];          /* the event's name in the file */
};

/* Whether @spec is a resume:/pause: trigger. */
HWT_API bool hwt_aux_action_is_trigger(const char *spec);

/* Parses "resume:FUNC[%return][@BINARY]" or "pause:..." and finds FUNC
 * in BINARY (default @default_binary, the traced program; NULL: the
 * trigger must name one), as address filters find symbols
 * (hwt_addr_filter_resolve). Errors: HWT_ERR_CONFIG (syntax, with the
 * valid forms; an unknown symbol, named), HWT_ERR_NOENT (no such file),
 * HWT_ERR_FORMAT (not ELF). */
HWT_API int hwt_aux_action_parse(const char *spec, const char *default_binary,
				 struct hwt_aux_action *out);

/* The uprobe event of @a: the uprobe PMU's type read through @os
 * (HWT_ERR_NOSUP when the machine has no uprobe PMU), config, config1 and
 * config2 as the format says (config1 points into @a, which must outlive
 * the open), a sample on every hit (TID, TIME, CPU, IP, IDENTIFIER) and
 * aux_action. */
HWT_API int hwt_aux_action_attr(const struct hwt_os *os,
				const struct hwt_aux_action *a,
				struct perf_event_attr *out);

/* The resume:/pause: triggers of one recording, as session options. */
struct hwt_session_opts;
struct hwt_aux_action_set {
	struct hwt_aux_action actions[4];   /* HWT_SESSION_MAX_PROBES */
	struct perf_event_attr attrs[4];
	const char *names[4];
	size_t n;
};

/* Parses @nspecs triggers into @set (see hwt_aux_action_parse) and puts
 * their uprobe events into @so (probe_attrs, probe_names, nprobes); the
 * AUX event (so->aux_attr) starts paused when any trigger resumes it.
 * @set must outlive the session. Errors: those of the parse and of
 * hwt_aux_action_attr; HWT_ERR_CONFIG for more than 4. */
HWT_API int hwt_aux_action_setup(struct hwt_aux_action_set *set,
				 const char *const *specs, size_t nspecs,
				 const char *default_binary,
				 const struct hwt_os *os,
				 struct hwt_session_opts *so);

/* The probes of a call trigger (symbol:, latency:; hwtrace/trigger.h):
 * an uprobe at the entry of @func (FUNC[@BINARY]) and, with
 * @with_return, an uretprobe at its return, with no aux_action, named
 * "probe:FUNC" and "probe:FUNC__return", put into @so as
 * hwt_aux_action_setup does (set->actions[0] and [1]). */
HWT_API int hwt_aux_action_call_probes(struct hwt_aux_action_set *set,
				       const char *func, bool with_return,
				       const char *default_binary,
				       const struct hwt_os *os,
				       struct hwt_session_opts *so);

/* Whether this machine can pause and resume @pmu_name's trace: the
 * kernel release (uname) must be 6.13 or later and the PMU's driver one
 * that declares PERF_PMU_CAP_AUX_PAUSE (intel_pt since 6.13; cs_etm's
 * driver added it later, so a kernel that lacks it refuses the open with
 * EOPNOTSUPP, which the open reports). Writes a sentence saying which
 * into @why. @release: a uname release such as "6.13.2"; NULL: this
 * machine's. */
HWT_API bool hwt_aux_action_supported(const char *pmu_name,
				      const char *release, char *why,
				      size_t size);

#ifdef __cplusplus
}
#endif

#endif
