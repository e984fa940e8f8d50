/* resume:/pause: triggers: their syntax, the uprobe events that carry them
 * and whether the kernel and the PMU can honour them (hwtrace/auxaction.h). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "hwtrace/addrfilter.h"
#include "hwtrace/auxaction.h"
#include "hwtrace/error.h"
#include "hwtrace/session.h"

#define RETURN_SUFFIX "%return"

bool hwt_aux_action_is_trigger(const char *spec)
{
	return spec && (!strncmp(spec, "resume:", 7) || !strncmp(spec, "pause:", 6));
}

static int syntax(const char *spec, const char *what)
{
	return hwt_error(HWT_ERR_CONFIG, "--trigger %s: %s; the forms are "
			 "resume:FUNC[@BINARY] and pause:FUNC%%return[@BINARY] "
			 "(an uprobe at FUNC's entry or return; either action at "
			 "either place)", spec, what);
}

/* FUNC's file offset and the binary's absolute path, from the address
 * filter resolver's "filter 0xOFF/0xSIZE@/abs/path". */
static int find_func(struct hwt_aux_action *a, const char *spec,
		     const char *binary)
{
	char filter[600], out[4400];
	unsigned long long off, size;
	int n = 0;

	snprintf(filter, sizeof(filter), "filter %s", a->func);
	int err = hwt_addr_filter_resolve(filter, binary, out, sizeof(out), NULL);
	if (err < 0) {
		/* The resolver speaks of a filter: say which trigger. */
		char why[1024];
		snprintf(why, sizeof(why), "%s", hwt_errmsg());
		const char *msg = strstr(why, "\": ");
		return hwt_error(err, "--trigger %s: %s", spec,
				 msg ? msg + 3 : why);
	}
	if (sscanf(out, "filter 0x%llx/0x%llx@%n", &off, &size, &n) != 2 || !n ||
	    out[n] != '/')
		return hwt_error(HWT_ERR_CONFIG, "--trigger %s: %s did not resolve "
				 "to a place in a file (\"%s\")", spec, a->func, out);
	a->offset = off;
	snprintf(a->binary, sizeof(a->binary), "%s", out + n);
	return 0;
}

int hwt_aux_action_parse(const char *spec, const char *default_binary,
			 struct hwt_aux_action *out)
{
	const char *rest, *at;
	char func[sizeof(out->func)];
	size_t len;

	memset(out, 0, sizeof(*out));
	if (!spec || !hwt_aux_action_is_trigger(spec))
		return syntax(spec ? spec : "(none)", "not a resume: or pause: trigger");
	out->action = spec[0] == 'r' ? HWT_AUX_RESUME : HWT_AUX_PAUSE;
	rest = strchr(spec, ':') + 1;
	at = strchr(rest, '@');
	len = at ? (size_t)(at - rest) : strlen(rest);
	if (!len || len >= sizeof(func))
		return syntax(spec, "which function?");
	memcpy(func, rest, len);
	func[len] = '\0';
	len = strlen(func);
	if (len > strlen(RETURN_SUFFIX) &&
	    !strcmp(func + len - strlen(RETURN_SUFFIX), RETURN_SUFFIX)) {
		out->at_return = true;
		func[len - strlen(RETURN_SUFFIX)] = '\0';
	}
	if (strpbrk(func, "%/ ,"))
		return syntax(spec, "FUNC is a symbol name");
	snprintf(out->func, sizeof(out->func), "%s", func);
	if (at && !at[1])
		return syntax(spec, "a binary after @");
	if (!at && !default_binary)
		return syntax(spec, "no program to find FUNC in: name it with "
			      "@BINARY");
	int err = find_func(out, spec, at ? at + 1 : default_binary);
	if (err < 0)
		return err;
	snprintf(out->name, sizeof(out->name), "probe:%s%s/aux-action=%s/",
		 out->func, out->at_return ? "__return" : "",
		 out->action == HWT_AUX_RESUME ? "resume" : "pause");
	return 0;
}

int hwt_aux_action_attr(const struct hwt_os *os, const struct hwt_aux_action *a,
			struct perf_event_attr *out)
{
	uint64_t type;

	if (hwt_os_sysfs_read_u64(os, "bus/event_source/devices/uprobe/type",
				  &type) < 0) {
		hwt_error_clear();
		return hwt_error(HWT_ERR_NOSUP, "%s needs the uprobe PMU "
				 "(/sys/bus/event_source/devices/uprobe): a kernel "
				 "built with CONFIG_UPROBE_EVENTS", a->name);
	}
	memset(out, 0, sizeof(*out));
	out->size = sizeof(*out);
	out->type = (uint32_t)type;
	out->config = a->at_return ? HWT_UPROBE_RETPROBE : 0;
	out->config1 = (uint64_t)(uintptr_t)a->binary;
	out->config2 = a->offset;
	out->sample_period = 1;
	out->sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP |
			   PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU |
			   PERF_SAMPLE_PERIOD;
	out->sample_id_all = 1;
	/* A member of the AUX event's group runs when its leader does, as
	 * perf opens its group members: enabled from the start, so no call
	 * between the trace's enable and the probe's is missed. */
	out->disabled = 0;
	hwt_attr_set_aux_action(out, a->action);
	return 0;
}

/* "6.13.2-arch1" -> 6, 13. */
static bool release_at_least(const char *release, int major, int minor)
{
	int ma = 0, mi = 0;

	if (sscanf(release, "%d.%d", &ma, &mi) != 2)
		return false;
	return ma > major || (ma == major && mi >= minor);
}

bool hwt_aux_action_supported(const char *pmu_name, const char *release,
			      char *why, size_t size)
{
	struct utsname u;

	if (!release) {
		if (uname(&u) < 0)
			u.release[0] = '\0';
		release = u.release;
	}
	if (!release_at_least(release, 6, 13)) {
		snprintf(why, size, "no: kernel %s; AUX pause/resume "
			 "(aux_action) needs Linux 6.13 or later", release);
		return false;
	}
	if (!pmu_name || (strcmp(pmu_name, "intel_pt") &&
			  strncmp(pmu_name, "cs_etm", 6))) {
		snprintf(why, size, "no: %s's driver cannot pause its trace "
			 "(intel_pt and cs_etm can)", pmu_name ? pmu_name : "the PMU");
		return false;
	}
	snprintf(why, size, "yes: kernel %s%s", release,
		 strcmp(pmu_name, "intel_pt") ?
			 "; cs_etm's driver declares it in kernels after 6.13 "
			 "only (an older one refuses the open with EOPNOTSUPP)" : "");
	return true;
}

int hwt_aux_action_setup(struct hwt_aux_action_set *set,
			 const char *const *specs, size_t nspecs,
			 const char *default_binary, const struct hwt_os *os,
			 struct hwt_session_opts *so)
{
	bool resumes = false;
	int err;

	memset(set, 0, sizeof(*set));
	if (nspecs > HWT_SESSION_MAX_PROBES)
		return hwt_error(HWT_ERR_CONFIG, "%zu resume:/pause: triggers; at "
				 "most %d", nspecs, HWT_SESSION_MAX_PROBES);
	for (size_t i = 0; i < nspecs; i++) {
		struct hwt_aux_action *a = &set->actions[i];
		if ((err = hwt_aux_action_parse(specs[i], default_binary, a)) < 0 ||
		    (err = hwt_aux_action_attr(os, a, &set->attrs[i])) < 0)
			return err;
		set->names[i] = a->name;
		resumes |= a->action == HWT_AUX_RESUME;
	}
	set->n = nspecs;
	so->probe_attrs = set->attrs;
	so->probe_names = set->names;
	so->nprobes = nspecs;
	/* Tracing begins at the first resume; with pauses only, at once. */
	if (resumes)
		hwt_attr_set_aux_action(&so->aux_attr,
					hwt_attr_aux_action(&so->aux_attr) |
						HWT_AUX_START_PAUSED);
	return 0;
}

int hwt_aux_action_call_probes(struct hwt_aux_action_set *set, const char *func,
			       bool with_return, const char *default_binary,
			       const struct hwt_os *os, struct hwt_session_opts *so)
{
	const char *at = strchr(func, '@');
	int len = at ? (int)(at - func) : (int)strlen(func);
	char specs[2][4400];
	const char *list[2] = {specs[0], specs[1]};
	int err;

	/* The same probes as resume:FUNC and resume:FUNC%return, without
	 * their action. */
	snprintf(specs[0], sizeof(specs[0]), "resume:%s", func);
	snprintf(specs[1], sizeof(specs[1]), "resume:%.*s%%return%s", len, func,
		 at ? at : "");
	if ((err = hwt_aux_action_setup(set, list, with_return ? 2 : 1,
					default_binary, os, so)) < 0)
		return err;
	hwt_attr_set_aux_action(&so->aux_attr, hwt_attr_aux_action(&so->aux_attr) &
						       ~HWT_AUX_START_PAUSED);
	for (size_t i = 0; i < set->n; i++) {
		struct hwt_aux_action *a = &set->actions[i];
		a->action = 0;
		hwt_attr_set_aux_action(&set->attrs[i], 0);
		/* Through a copy: GCC's -Wrestrict cannot tell a->name from
		 * a->func, members of one object. */
		char name[sizeof(a->name)];
		snprintf(name, sizeof(name), "probe:%s%s", a->func,
			 a->at_return ? "__return" : "");
		memcpy(a->name, name, sizeof(name));
	}
	return 0;
}
