/* hwtrace record's trace options (-e, --trigger, -S, ...) in the
 * library's terms: a struct hwt_trace_request built option by option,
 * each value's meaning and its checks the library's, so that a program
 * offering the same options (a script, a batch worker) fills the same
 * request and refuses the same mistakes with the same messages. Each
 * message names the option and says what to give; a command line shows
 * it as its usage error.
 *
 *   struct hwt_trace_options t;
 *   hwt_trace_options_init(&t);
 *   hwt_trace_options_event(&t, "intel_pt//u");     (each -e)
 *   hwt_trace_options_trigger(&t, "symbol:main");   (each --trigger)
 *   hwt_trace_options_compression(&t, "3");         (-z3)
 *   t.rq.trace.snapshot = true; t.snapshot_arg = "e,4M";  (-Se,4M)
 *   ... the other fields of t.rq as given ...
 *   hwt_trace_options_finish(&t, argv_of_the_command);
 *   hwt_recorder_record_trace(&t.rq, &summary);
 */
#ifndef HWTRACE_RECORD_OPTIONS_H
#define HWTRACE_RECORD_OPTIONS_H

#include <stddef.h>
#include <stdint.h>

#include "hwtrace/common.h"
#include "hwtrace/recorder.h"
#include "hwtrace/session.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A trace request and the storage its triggers point into. The request's
 * other strings are the caller's (they must outlive the recording). */
struct hwt_trace_options {
	size_t size;                  /* sizeof(struct hwt_trace_options) */
	struct hwt_trace_request rq;  /* the request being built */
	/* -S[ARG] / --snapshot[=ARG]'s ARG, or NULL: "e" (perf's
	 * --snapshot=e: also a snapshot at the end), a size ("64K"), or
	 * both ("e,4M"); read by hwt_trace_options_finish. */
	const char *snapshot_arg;
	const char *triggers[HWT_SESSION_MAX_PROBES]; /* resume:/pause: ones */
	char call_func[512];          /* a call trigger's FUNC[@BINARY] */
	char output[4096];            /* the profile's output (no -o) */
};

/* An empty request: every field zero but the sizes, and rq.pid -1 (no
 * -p). */
HWT_API void hwt_trace_options_init(struct hwt_trace_options *t);

/* -e @event: AUX sampling's sampling event when it names one
 * (hwt_record_sample_event_named) and none is set yet, else the trace
 * event. HWT_ERR_CONFIG when the trace event is set already. */
HWT_API int hwt_trace_options_event(struct hwt_trace_options *t,
				    const char *event);

/* --trigger @trigger: the call trigger (symbol:FUNC[@BIN],
 * latency:FUNC[@BIN]>DUR; the first one only, its FUNC into call_func)
 * or one more resume:/pause: trigger (up to HWT_SESSION_MAX_PROBES).
 * HWT_ERR_CONFIG: a malformed call trigger (hwt_trigger_parse_call's
 * message), a kind a trace PMU does not take (a second call trigger
 * too), one resume:/pause: trigger too many. */
HWT_API int hwt_trace_options_trigger(struct hwt_trace_options *t,
				      const char *trigger);

/* -z[LEVEL]: zstd compression of the sideband records at @level, a
 * number from 1 to 22 (NULL: 1, perf record -z's default), into
 * rq.compress_level. HWT_ERR_CONFIG naming -z@level otherwise. */
HWT_API int hwt_trace_options_compression(struct hwt_trace_options *t,
					  const char *level);

/* Once every option is in: the command @command (NULL or an empty list:
 * none) into rq.argv, snapshot_arg read into rq.snapshot_on_exit and
 * rq.trace.snapshot_size (a size from 1 byte to 4G, the largest AUX
 * area), then the options checked together
 * (hwt_record_check_combination), and where the recording writes when
 * rq.output is NULL (no -o): the profile's [session] output, else
 * perf.data (hwt_record_profile_output; a replay, --emulate, takes no
 * profile), kept in @t. HWT_ERR_CONFIG with the first mistake's
 * message; HWT_ERR_INVAL: no @t or no size. */
HWT_API int hwt_trace_options_finish(struct hwt_trace_options *t,
				     char *const *command);

/* -e sw_branch's --snapshot=SIZE (the flight recorder's window,
 * hwt_swb_opts.snapshot_records and hwt_program_request.snapshot_bytes):
 * a number of records (1 to 2^30) into *@records, or, with a K, M or G
 * suffix, bytes (one BTS record, 24, to 24G) into *@bytes; the other is
 * set to 0, so that the last --snapshot given counts. HWT_ERR_CONFIG
 * naming --snapshot and @text otherwise. */
HWT_API int hwt_record_program_snapshot_size(const char *text,
					     uint64_t *records, uint64_t *bytes);

/* The most pages a ring of -m may have (2^20: 4 GiB of 4 KiB pages). */
#define HWT_RING_PAGES_MAX 1048576u

/* -m DATA_PAGES[,AUX_PAGES] as given to @option ("-m", "--mmap-pages"):
 * each part a power of two from 1 to HWT_RING_PAGES_MAX pages, as the
 * kernel maps a ring; a missing or empty part is 0 (the default) into
 * *@data and *@aux. HWT_ERR_CONFIG, the message naming the option, the
 * value and the part: "-m 3: data pages 3: not a power of two (valid: a
 * power of two, 1 to 1048576)", "-m 8,: expected
 * DATA_PAGES[,AUX_PAGES]"; *@data and *@aux are then unspecified. */
HWT_API int hwt_record_ring_pages_parse(const char *option, const char *arg,
					uint32_t *data, uint32_t *aux);

/* -c @text of a branch-record sampling (hwtrace record -b): digits only
 * are perf's -c PERIOD, the events between two samples (1 to 2^63 - 1),
 * into rq->period; anything else is a profile file (as record's -c
 * PROFILE) into rq->profile. HWT_ERR_CONFIG naming -c and @text for a
 * period out of range. */
HWT_API int hwt_branch_request_count(struct hwt_branch_request *rq,
				     const char *text);

#ifdef __cplusplus
}
#endif

#endif
