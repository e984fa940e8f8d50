/* `hwtrace timeline`: a capture's calls as a timeline, one track per thread
 * under its process, a slice per call, and instants where trace was lost
 * or went off and on. Written as a Perfetto trace (protobuf, for
 * ui.perfetto.dev and trace processor) or in the Chrome trace-event JSON
 * format (chrome://tracing, speedscope). Built on hwtrace/stack.h. */
#ifndef HWTRACE_TIMELINE_H
#define HWTRACE_TIMELINE_H

#include <stdint.h>
#include <stdio.h>

#include "hwtrace/common.h"
#include "hwtrace/element.h"
#include "hwtrace/stack.h"

#ifdef __cplusplus
extern "C" {
#endif

enum hwt_timeline_format {
	HWT_TIMELINE_PERFETTO,
	HWT_TIMELINE_CHROME,      /* each slice's args: its instructions */
	/* Chrome JSON whose slices carry no args: speedscope makes every
	 * distinct name-and-args a frame of its own, so per-call args would
	 * split each function into one frame per call there. */
	HWT_TIMELINE_SPEEDSCOPE,
};

/* Zero-initialise, then set size. */
struct hwt_timeline_opts {
	size_t size;                  /* sizeof(struct hwt_timeline_opts) */
	enum hwt_timeline_format format;
	uint64_t min_duration;        /* drop calls shorter than this (ns) */
	int max_depth;                /* drop calls deeper than this; 0: all */
	const struct hwt_func_namer *namer;  /* may be NULL; copied */
};

/* What was written. */
struct hwt_timeline_stats {
	uint64_t slices, dropped_short, dropped_deep, untimed, instants;
	uint64_t threads, processes;
	/* The capture had no time (no element had one by the first frame's
	 * end): slices are laid out in sequence order, each call and return
	 * one step (1 us) after the one before, and the file says so (Chrome:
	 * "otherData"; Perfetto: an instant at 0 on each thread). */
	bool sequence;
};

struct hwt_timeline;

/* A timeline written to @out (borrowed; not closed: the caller checks its
 * errors after hwt_timeline_finish). Errors: HWT_ERR_NOMEM,
 * HWT_ERR_INVAL (opts). */
HWT_API int hwt_timeline_new(FILE *out, const struct hwt_timeline_opts *opts,
			     struct hwt_timeline **timeline);

/* Frees it; NULL is a no-op. */
HWT_API void hwt_timeline_free(struct hwt_timeline *timeline);

/* Names thread @tid of process @pid (from the capture's COMM and FORK
 * records; the last name given wins). A NULL @name tells only the
 * thread's process. Call before the thread's first frame.
 * Errors: HWT_ERR_NOMEM. */
HWT_API int hwt_timeline_name_thread(struct hwt_timeline *timeline,
				     int32_t pid, int32_t tid,
				     const char *name);

/* Stack ops that write a slice per frame; valid while @timeline is.
 * Frames without time in a capture with time are counted, not written.
 * Errors: HWT_ERR_NOMEM, HWT_ERR_IO. */
HWT_API struct hwt_stack_ops hwt_timeline_ops(struct hwt_timeline *timeline);

/* A sink for the element stream (before the stacks) that marks gaps,
 * decode errors and trace off/on as instants on their thread's track. */
HWT_API struct hwt_elem_sink hwt_timeline_marks(struct hwt_timeline *timeline);

/* Ends the file (the JSON's closing bracket). Errors: HWT_ERR_IO. */
HWT_API int hwt_timeline_finish(struct hwt_timeline *timeline);

/* What the timeline has written and left out so far. */
HWT_API void hwt_timeline_get_stats(const struct hwt_timeline *timeline,
				    struct hwt_timeline_stats *stats);

/* The format named @name ("perfetto", "chrome", "speedscope") into
 * *@out. Returns 0, or HWT_ERR_INVAL (no message) for another name. */
HWT_API int hwt_timeline_format_parse(const char *name,
				      enum hwt_timeline_format *out);

/* @format's name, as hwt_timeline_format_parse reads it. */
HWT_API const char *hwt_timeline_format_name(enum hwt_timeline_format format);

struct hwt_capture;

/* Names the timeline's threads as the capture @cap names them over time
 * (hwt_capture_tasks): each pid and tid with each name it took. Errors:
 * those of hwt_timeline_name_thread. */
HWT_API int hwt_timeline_name_capture_threads(struct hwt_timeline *timeline,
					      const struct hwt_capture *cap);

/* The same, from the capture file @path: opened for its thread names
 * (hwt_capture_open) and closed again. Errors: those of
 * hwt_capture_open (naming @path) and of hwt_timeline_name_thread. */
HWT_API int hwt_timeline_name_capture_file(struct hwt_timeline *timeline,
					   const char *path);

/* Writes what the finished timeline, written to the file @name, holds
 * and left out (hwt_timeline_get_stats), and, for a capture without
 * time, that its slices are in sequence order: the lines `hwtrace
 * timeline` prints, each starting with @prefix. Errors: HWT_ERR_IO. */
HWT_API int hwt_timeline_write_summary(const struct hwt_timeline *timeline,
				       FILE *out, const char *prefix,
				       const char *name);

#ifdef __cplusplus
}
#endif

#endif
