/* hwt_record_profile_load: what `hwtrace record`'s trace options mean, as
 * keys of the profile they override (docs/config.md): the one place the
 * CLI and hwt_record_setup turn a profile file and an event string, and
 * the CLI its -S, --sink, --filter, -C and --per-thread, into the profile
 * the event plan is built from. */
#include <stdio.h>

#include "hwtrace/config.h"
#include "hwtrace/error.h"
#include "hwtrace/recorder.h"

/* A backend's own key: "BACKEND:NAME" of the profile's backend, else of
 * @fallback (the backend the option is for when none is named yet). */
static int set_backend_key(struct hwt_profile *p, const char *name,
			   const char *fallback, const char *value,
			   const char *option)
{
	char key[96];
	const char *be = hwt_profile_get(p, "session:backend");
	snprintf(key, sizeof(key), "%s:%s", be ? be : fallback, name);
	return hwt_profile_set_from(p, key, value, option);
}

static int apply(struct hwt_profile *p, const struct hwt_record_request *rq)
{
	int err = 0;
	if (rq->event)
		err = hwt_profile_parse_event(p, rq->event);
	if (!err && rq->sink)
		err = set_backend_key(p, "sink", "cs_etm", rq->sink, "--sink");
	if (!err && rq->filter)
		err = set_backend_key(p, "filter", "intel_pt", rq->filter, "--filter");
	if (!err && rq->snapshot)
		err = hwt_profile_set_from(p, "session:mode", "snapshot", "-S");
	if (!err && rq->snapshot && rq->snapshot_size) {
		char v[32];
		snprintf(v, sizeof(v), "%llu", (unsigned long long)rq->snapshot_size);
		err = hwt_profile_set_from(p, "snapshot:size", v, "-S");
	}
	if (!err && rq->cpus)
		err = hwt_profile_set_from(p, "session:cpus", rq->cpus, "-C");
	if (!err && rq->per_thread)
		err = hwt_profile_set_from(p, "session:per_thread", "1",
					   "--per-thread");
	return err;
}

int hwt_record_profile_load(const struct hwt_record_request *rq,
			    struct hwt_profile **out)
{
	struct hwt_profile *p = NULL;
	int err = rq->profile ? hwt_profile_load(rq->profile, &p) :
				((p = hwt_profile_new()) ? 0 :
				 hwt_error(HWT_ERR_NOMEM, "out of memory"));
	if (!err)
		err = apply(p, rq);
	/* The profile is the caller's even when an option did not apply:
	 * the CLI frees it on its one exit path. */
	*out = p;
	return err;
}

const char *hwt_record_profile_output(const char *profile, char *buf, size_t size)
{
	struct hwt_profile *p = NULL;
	const char *out = "perf.data";
	if (profile && buf && size && hwt_profile_load(profile, &p) == 0) {
		const char *v = hwt_profile_get(p, "session:output");
		if (v && *v) {
			snprintf(buf, size, "%s", v);
			out = buf;
		}
	}
	hwt_profile_free(p);
	/* A profile that does not load is reported where it is read for
	 * the capture, not here. */
	hwt_error_clear();
	return out;
}
