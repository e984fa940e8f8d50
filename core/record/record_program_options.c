/* hwt_record_program_resolve: what a program recording's options mean
 * together, once the command line (or another client) has set them one
 * by one: the process of a --tid, the program to run or attach to, the
 * profile's flight recorder keys, and the checks between the flight
 * recorder's options. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hwtrace/backend.h"
#include "hwtrace/bts_format.h"
#include "hwtrace/config.h"
#include "hwtrace/error.h"
#include "hwtrace/recorder.h"
#include "hwtrace/swbranch.h"

/* The process thread @tid belongs to (/proc/TID/status, Tgid), or 0. */
static int32_t thread_group(int32_t tid)
{
	char path[64], line[128];
	int32_t tgid = 0;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)tid);
	FILE *f = fopen(path, "re");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "Tgid:", 5))
			tgid = (int32_t)strtol(line + 5, NULL, 10);
	fclose(f);
	return tgid;
}

/* An error about the options' values, as opposed to one reading the
 * profile. */
#define OPTION_ERROR(rq, ...) \
	((rq)->option_error = true, hwt_error(HWT_ERR_CONFIG, __VA_ARGS__))

/* Who is traced: a program to run, or a process (or one of its threads)
 * to attach to. */
static int check_target(const struct hwt_backend *be,
			struct hwt_program_request *rq, struct hwt_swb_opts *o)
{
	if (o->attach_tid && !o->attach_pid &&
	    !(o->attach_pid = thread_group(o->attach_tid)))
		return OPTION_ERROR(rq, "--tid %d: no such thread",
				    (int)o->attach_tid);
	if (o->attach_pid && o->argv && o->argv[0])
		return OPTION_ERROR(rq, "-p/--tid attach to a running program: "
				    "give no command to run (%s)", o->argv[0]);
	if (!o->attach_pid && !(o->argv && o->argv[0]))
		return OPTION_ERROR(rq, "-e %s needs a command to run after --, "
				    "or -p PID", be->name);
	return 0;
}

/* The records a flight recorder of @bytes keeps: its whole records. */
static uint64_t whole_records(uint64_t bytes)
{
	return bytes / HWT_BTS_RECORD_SIZE;
}

/* -c FILE: [snapshot] trigger, trigger_count and size (bytes) for what
 * the options left unset. A trigger turns the flight recorder on. */
static int profile_keys(const struct hwt_backend *be,
			struct hwt_program_request *rq, struct hwt_swb_opts *o,
			struct hwt_profile **pp)
{
	uint64_t v;
	int err = hwt_profile_load(rq->profile, pp);

	if (err)
		return err;
	const char *t = hwt_profile_get(*pp, "snapshot:trigger");
	if (t && !o->trigger) {
		if (hwt_record_program_check_trigger(be, t))
			return OPTION_ERROR(rq, "%s: [snapshot] trigger: %s",
					    hwt_profile_origin(*pp, "snapshot:trigger"),
					    hwt_errmsg());
		o->trigger = t;
		rq->snapshot = true;
	}
	if (!o->trigger_count) {
		if ((err = hwt_profile_get_u64(*pp, "snapshot:trigger_count", 0, &v)))
			return err;
		o->trigger_count = v;
	}
	if (!o->snapshot_records) {
		if ((err = hwt_profile_get_size(*pp, "snapshot:size", 0, &v)))
			return err;
		o->snapshot_records = whole_records(v);
		if (v && !o->snapshot_records)
			return OPTION_ERROR(rq, "%s: [snapshot] size = %s: less "
					    "than one record (%d bytes)",
					    hwt_profile_origin(*pp, "snapshot:size"),
					    hwt_profile_get(*pp, "snapshot:size"),
					    HWT_BTS_RECORD_SIZE);
	}
	return 0;
}

/* The flight recorder's options need each other. */
static int check_flight_recorder(const struct hwt_backend *be,
				 struct hwt_program_request *rq,
				 const struct hwt_swb_opts *o)
{
	if (o->trigger && !rq->snapshot)
		return OPTION_ERROR(rq, "--trigger writes windows of a flight "
				    "recorder: give --snapshot too");
	if (rq->snapshot && !o->trigger)
		return OPTION_ERROR(rq, "-e %s --snapshot writes a window only "
				    "when a trigger fires: give --trigger "
				    "symbol:FUNC, latency:FUNC>TIME or "
				    "signal:SIGNALS", be->name);
	if ((o->trigger_count || o->trigger_after_ns) && !o->trigger)
		return OPTION_ERROR(rq, "--trigger-count and --trigger-after "
				    "apply to --trigger");
	return 0;
}

int hwt_record_program_resolve(const struct hwt_backend *be,
			       struct hwt_program_request *rq,
			       struct hwt_swb_opts *o, struct hwt_profile **pp)
{
	int err;

	*pp = NULL;
	if (!rq || rq->size < sizeof(*rq) || !o || !be)
		return hwt_error(HWT_ERR_INVAL, "hwt_record_program_resolve: no "
				 "backend, request or options (or a request of "
				 "another size)");
	rq->option_error = false;
	if (rq->snapshot_bytes && !o->snapshot_records &&
	    !(o->snapshot_records = whole_records(rq->snapshot_bytes)))
		return OPTION_ERROR(rq, "--snapshot=%llu: less than one record "
				    "(%d bytes)",
				    (unsigned long long)rq->snapshot_bytes,
				    HWT_BTS_RECORD_SIZE);
	if ((err = check_target(be, rq, o)))
		return err;
	/* An empty program list of an attach is no program at all. */
	if (o->attach_pid)
		o->argv = NULL;
	if (rq->profile && (err = profile_keys(be, rq, o, pp)))
		return err;
	return check_flight_recorder(be, rq, o);
}
