/* hwtrace record's trace options as a request (hwtrace/record_options.h):
 * what -e, --trigger, -z and -S's argument mean (and -e sw_branch's
 * --snapshot=SIZE, -b's -c), then the options checked
 * together. The messages are those the command line shows. */
#include <stdlib.h>
#include <string.h>

#include "hwtrace/auxaction.h"
#include "hwtrace/bts_format.h"
#include "hwtrace/error.h"
#include "hwtrace/record_options.h"
#include "hwtrace/trigger.h"
#include "hwtrace/value.h"

/* The largest AUX area, which bounds a snapshot: 1048576 pages of 4K. */
#define MAX_SNAPSHOT_SIZE (1048576ull * 4096)

void hwt_trace_options_init(struct hwt_trace_options *t)
{
	memset(t, 0, sizeof(*t));
	t->size = sizeof(*t);
	t->rq.size = sizeof(t->rq);
	t->rq.trace.size = sizeof(t->rq.trace);
	t->rq.pid = -1;
}

int hwt_trace_options_event(struct hwt_trace_options *t, const char *event)
{
	struct hwt_trace_request *rq = &t->rq;

	/* A second event is AUX sampling's sampling event. */
	if (hwt_record_sample_event_named(event) && !rq->sample_event)
		rq->sample_event = event;
	else if (rq->trace.event)
		return hwt_error(HWT_ERR_CONFIG, "-e %s: one trace event only "
				 "(and, with --aux-sample, one sampling event "
				 "such as cycles)", event);
	else
		rq->trace.event = event;
	return 0;
}

int hwt_trace_options_trigger(struct hwt_trace_options *t, const char *trigger)
{
	struct hwt_trace_request *rq = &t->rq;
	bool aux_action = hwt_aux_action_is_trigger(trigger);

	/* One call trigger: a second one is refused below as a kind the
	 * PMU does not take. */
	if (!aux_action && !rq->call_trigger) {
		uint64_t ns;
		int call = hwt_trigger_parse_call(trigger, t->call_func,
						  sizeof(t->call_func),
						  &rq->call_latency, &ns);
		if (call < 0)
			return call;
		if (call > 0) {
			rq->call_trigger = trigger;
			rq->call_func = t->call_func;
			return 0;
		}
	}
	if (!aux_action)
		return hwt_error(HWT_ERR_CONFIG, "--trigger %s: a trace PMU takes "
				 "resume:FUNC and pause:FUNC%%return (symbol:, "
				 "latency: and signal: are -e sw_branch's)",
				 trigger);
	if (rq->ntriggers == HWT_SESSION_MAX_PROBES)
		return hwt_error(HWT_ERR_CONFIG, "--trigger %s: at most %d "
				 "resume:/pause: triggers", trigger,
				 HWT_SESSION_MAX_PROBES);
	t->triggers[rq->ntriggers++] = trigger;
	rq->triggers = t->triggers;
	return 0;
}

int hwt_trace_options_compression(struct hwt_trace_options *t,
				  const char *level)
{
	char *end = NULL;
	long n = level ? strtol(level, &end, 10) : 1;

	if (level && (*end || end == level || n < 1 || n > 22))
		return hwt_error(HWT_ERR_CONFIG, "-z%s: the compression level is "
				 "a number from 1 to 22", level);
	t->rq.compress_level = (int)n;
	return 0;
}

/* A value refused, in the shape every numeric option's message has:
 * "OPTION VALUE: what is wrong (valid: RANGE)". */
static int value_refused(const char *option, const char *text,
			 const char *what, const char *valid)
{
	return hwt_error(HWT_ERR_CONFIG, "%s %s: %s (valid: %s)", option, text,
			 what, valid);
}

/* What is wrong with @text as a size from @min to @max, or NULL when
 * nothing is (the size in *@out). */
static const char *size_problem(const char *text, uint64_t min, uint64_t max,
				uint64_t *out)
{
	int r = hwt_value_parse_size(text, out);

	return r == HWT_VALUE_BAD ? "not a size (e.g. 4096, 64K, 4M)" :
	       r == HWT_VALUE_TOO_LARGE ? "too large" :
	       *out < min || *out > max ? "out of range" : NULL;
}

/* -S's argument: "e" first (perf's --snapshot=e) sets snapshot_on_exit;
 * what follows (after a comma) is the snapshot size. */
static int read_snapshot_arg(struct hwt_trace_options *t)
{
	const char *arg = t->snapshot_arg;
	uint64_t size = 0;

	if (!arg)
		return 0;
	if (arg[0] == 'e') {
		t->rq.snapshot_on_exit = true;
		arg = arg[1] == ',' ? arg + 2 : arg + 1;
	}
	if (!*arg)
		return 0;
	const char *what = size_problem(arg, 1, MAX_SNAPSHOT_SIZE, &size);
	if (what)
		return value_refused("-S", arg, what, "a size from 1 to 4G, the "
				     "largest AUX area (e.g. -S64K, -Se,4M)");
	t->rq.trace.snapshot_size = size;
	return 0;
}

int hwt_record_program_snapshot_size(const char *text, uint64_t *records,
				     uint64_t *bytes)
{
	size_t len = strlen(text);

	/* The last --snapshot=SIZE given counts, in either unit. */
	*records = *bytes = 0;
	if (len && text[len - 1] >= '0' && text[len - 1] <= '9') {
		uint64_t n = 0;
		int r = hwt_value_parse_u64(text, &n);
		const char *what = r == HWT_VALUE_TOO_LARGE ? "too large" :
				   r < 0 ? "not a number" :
				   n < 1 || n > (1u << 30) ? "out of range" : NULL;
		if (what)
			return value_refused("--snapshot", text, what, "a number "
					     "of records, 1 to 1073741824, or "
					     "bytes with K, M or G");
		*records = n;
		return 0;
	}
	uint64_t size = 0;
	const char *what = size_problem(text, HWT_BTS_RECORD_SIZE,
					(uint64_t)HWT_BTS_RECORD_SIZE << 30, &size);
	if (what)
		return value_refused("--snapshot", text, what, "24 bytes (one "
				     "record) to 24G, or a number of records");
	*bytes = size;
	return 0;
}

int hwt_trace_options_finish(struct hwt_trace_options *t, char *const *command)
{
	if (!t || !t->size)
		return hwt_error(HWT_ERR_INVAL, "trace options: no options or "
				 "no size");
	struct hwt_trace_request *rq = &t->rq;
	rq->argv = command && command[0] ? command : NULL;
	int r = read_snapshot_arg(t);
	if (r)
		return r;
	struct hwt_record_combination comb = {
		.size = sizeof(comb), .snapshot = rq->trace.snapshot,
		.call_trigger = rq->call_trigger,
		.first_trigger = rq->ntriggers ? t->triggers[0] : NULL,
		.trigger_count = rq->trigger_count,
		.compress_level = rq->compress_level,
		.compress_aux = rq->compress_aux, .emulate = rq->emulate,
		.emulate_trace = rq->emulate_trace,
		.emulate_tsc = rq->emulate_tsc, .sysfs = rq->sysfs,
		.command = rq->argv ? rq->argv[0] : NULL, .pid = rq->pid,
		.filter = rq->trace.filter, .all_cpus = rq->all_cpus,
		.cpus = rq->trace.cpus, .event = rq->trace.event,
		.profile = rq->trace.profile,
	};
	if ((r = hwt_record_check_combination(&comb)))
		return r;
	if (!rq->output)
		/* A replay (--emulate) takes no profile. */
		rq->output = hwt_record_profile_output(rq->emulate ? NULL :
						       rq->trace.profile,
						       t->output,
						       sizeof(t->output));
	return 0;
}

int hwt_branch_request_count(struct hwt_branch_request *rq, const char *text)
{
	/* Digits only: perf's -c PERIOD; anything else names a file. */
	if (!*text || text[strspn(text, "0123456789")]) {
		rq->profile = text;
		return 0;
	}
	uint64_t period = 0;
	int r = hwt_value_parse_u64(text, &period);
	const char *what = r == HWT_VALUE_TOO_LARGE ? "too large" :
			   r < 0 ? "not a number" :
			   period < 1 || period > UINT64_MAX >> 1 ? "out of range" :
			   NULL;
	if (what)
		return value_refused("-c", text, what, "a period: the events "
				     "between two samples, 1 or more");
	rq->period = period;
	return 0;
}
