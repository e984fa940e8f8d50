/* What a recording tells its user, as `hwtrace record` tells it, for any
 * program that records (a script, a batch worker):
 *
 * - the lines that end each kind of recording: a trace's
 *   (hwt_recorder_record_trace), a branch-record sampling's
 *   (hwt_recorder_record_branch), a program recording's
 *   (hwt_recorder_record_program: sw_branch);
 * - a program recording's live lines while it runs (the stepping's
 *   progress on a terminal, the wait for the program to end after a stop
 *   request, each flight recorder window written), as the callbacks of
 *   struct hwt_swb_opts;
 * - stop requests from SIGINT, SIGTERM and SIGHUP: counted where a
 *   program recording looks for them (hwt_swb_opts.stop_requests), or
 *   handed to a trace recording's or a branch sampling's recorder (with
 *   SIGUSR2's snapshot requests).
 *
 * Every line starts with a caller's prefix ("hwtrace record"). */
#ifndef HWTRACE_RECORD_CONSOLE_H
#define HWTRACE_RECORD_CONSOLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "hwtrace/common.h"
#include "hwtrace/recorder.h"

#ifdef __cplusplus
extern "C" {
#endif

struct hwt_backend;
struct hwt_trace_request;
struct hwt_trace_summary;
struct hwt_branch_request;
struct hwt_branch_summary;
struct hwt_swb_opts;
struct hwt_swb_stats;

/* After hwt_recorder_record_trace(@rq, @sum) returned @err (whose message
 * the caller has shown): "wrote OUTPUT" when it succeeded; on a full disk
 * (HWT_ERR_NOSPC) that kept the file that was there (@output_existed,
 * something recorded, no keep_partial), how --keep-partial would have
 * kept the part recorded; and when the command had not ended, that it
 * gets SIGTERM, then SIGKILL HWT_TERM_GRACE_MS later. The output is
 * printed as given. */
HWT_API void hwt_record_print_trace_end(FILE *out, const char *prefix,
					const struct hwt_trace_request *rq,
					int err, bool output_existed,
					const struct hwt_trace_summary *sum);

/* After hwt_recorder_record_branch(@rq, @sum) succeeded: on the emulator,
 * the samples written, the branch-record hardware sampled (its PMU,
 * depth and kind) and the records lost; then "wrote OUTPUT". */
HWT_API void hwt_record_print_branch_end(FILE *out, const char *prefix,
					 const struct hwt_branch_request *rq,
					 const struct hwt_branch_summary *sum);

/* After hwt_recorder_record_program(be, @o, @st) succeeded: the closing
 * lines of hwt_record_print_program_stats, then "wrote OUTPUT" unless a
 * flight recorder (@o's trigger) told of each window as it was written. */
HWT_API void hwt_record_print_program_end(FILE *out, const char *prefix,
					  const struct hwt_swb_opts *o,
					  const struct hwt_swb_stats *st);

/* Where a program recording's live lines go. Zero-initialise, then set
 * size. The console must outlive the recording (the callbacks get it). */
struct hwt_program_console {
	size_t size;        /* sizeof(struct hwt_program_console) */
	FILE *out;          /* the lines' stream (stderr) */
	const char *prefix; /* each line's start ("hwtrace record") */
	/* The stepping's progress: instructions, branches and their rate on
	 * one line rewritten in place (a terminal's carriage return and
	 * erase-line), cleared when stepping ends. For a terminal only. */
	bool progress;
};

/* Points @o's callbacks at console @c (progress only when @c asks for it;
 * progress_arg is @c): the progress line, the wait for the program to end
 * after a stop request was sent on as SIGTERM (and its SIGKILL), and each
 * flight recorder window as it is complete on disk (its path escaped for
 * a terminal). The callbacks run in the tracer process. HWT_ERR_INVAL:
 * no @c, no size, or no stream. */
HWT_API int hwt_program_console_attach(const struct hwt_program_console *c,
				       struct hwt_swb_opts *o);

/* From now on SIGINT, SIGTERM and SIGHUP (the terminal went away) each
 * count as one stop request of @o's recording (@o's stop_requests points
 * at the count, which is the process's: one for every recording that
 * asks). The handlers do not restart system calls, so that the
 * recording's waits see a request at once. Errors: HWT_ERR_INVAL (no
 * @o), HWT_ERR_IO when a handler cannot be installed. */
HWT_API int hwt_record_count_stop_signals(struct hwt_swb_opts *o);

/* A program recording as `hwtrace record -e sw_branch` runs it once its
 * options are resolved (hwt_record_program_resolve): its live lines on
 * console @c (hwt_program_console_attach), SIGINT, SIGTERM and SIGHUP
 * counted as its stop requests (hwt_record_count_stop_signals), the
 * recording (hwt_recorder_record_program) into *@st (may be NULL), and
 * when it succeeded its closing lines on c->out
 * (hwt_record_print_program_end). On an error nothing more is printed:
 * the message is the caller's to show. Errors: those of the three
 * calls. */
HWT_API int hwt_record_program_on_console(const struct hwt_backend *be,
					  struct hwt_swb_opts *o,
					  const struct hwt_program_console *c,
					  struct hwt_swb_stats *st);

/* A trace recording's or a branch sampling's signals: SIGINT, SIGTERM
 * and SIGHUP each end it with a complete file (hwt_recorder_request_stop),
 * SIGUSR2 takes a snapshot (hwt_recorder_request_snapshot). A signal that
 * comes before the recorder exists is kept and handed to it when it does
 * (a stop then ends the recording before its first read), to that
 * recorder only: a later one does not get it again. One recording
 * at a time: the handlers reach one recorder.
 * - hwt_record_signals_on_stage is a struct hwt_trace_request's on_stage
 *   (arg unused): the stop signals are caught from the OPENING stage,
 *   SIGUSR2 from RUNNING, the recorder is reached from RECORDER and let
 *   go at DONE.
 * - For a branch sampling: hwt_record_catch_stop_signals before
 *   hwt_recorder_record_branch, and hwt_record_signals_on_recorder as the
 *   request's on_recorder (arg unused; NULL lets the recorder go). */
HWT_API void hwt_record_signals_on_stage(void *arg, enum hwt_trace_stage stage,
					 struct hwt_recorder *r);
HWT_API void hwt_record_catch_stop_signals(void);
HWT_API void hwt_record_signals_on_recorder(void *arg, struct hwt_recorder *r);

#ifdef __cplusplus
}
#endif

#endif
