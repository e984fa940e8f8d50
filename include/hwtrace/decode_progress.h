/* A decode's progress line: on a terminal, a decode that lasts longer
 * than a few seconds shows how much of the trace it has decoded, the rate
 * and the time left, on one line rewritten a few times a second and erased
 * at the end (what `hwtrace decode` draws on standard error). A program
 * that decodes under a user's eyes draws the same line: start it, give
 * its two update calls to the decode as callbacks, erase it before any
 * other message and at the end. */
#ifndef HWTRACE_DECODE_PROGRESS_H
#define HWTRACE_DECODE_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "hwtrace/common.h"
#include "hwtrace/decode.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Seconds of decoding before the first line, unless told otherwise. */
#define HWT_PROGRESS_LINE_AFTER 2.0

/* Zero-initialise, then set size. */
struct hwt_progress_line_opts {
	size_t size;          /* sizeof(struct hwt_progress_line_opts) */
	FILE *out;            /* where the line goes (standard error) */
	/* @out is a terminal the user watches: false (a file, a pipe,
	 * --quiet) and nothing is ever written. */
	bool terminal;
	/* Seconds from hwt_progress_line_start to the first line (0: at
	 * once, for tests): HWT_PROGRESS_LINE_AFTER for a command. */
	double after;
	/* What leads the line: "hwtrace decode: ". NULL: nothing. */
	const char *prefix;
	/* Optional: the clock, in seconds (for tests); NULL: the monotonic
	 * clock. */
	double (*now)(void *arg);
	void *now_arg;
};

/* A progress line's state: the caller holds it, only these calls touch
 * its fields. */
struct hwt_progress_line {
	struct hwt_progress_line_opts opts;
	bool drawn;           /* a line is on the terminal now */
	double begin;         /* when it started */
	double decode_begin;  /* when the decode reported done 0 */
	double next;          /* the earliest time of the next line */
};

/* Starts @line with @opts (copied; the strings are borrowed). A NULL or
 * short @opts gives a line that never draws. */
HWT_API void hwt_progress_line_start(struct hwt_progress_line *line,
				     const struct hwt_progress_line_opts *opts);

/* For hwt_decode_opts.progress with @line as progress_arg: @p's bytes of
 * trace decoded of the total, "P of T MB of trace decoded (N%), R MB/s,
 * E left". A line is drawn when @after has passed and the last one is a
 * quarter of a second old; the rate counts from the step with done 0. */
HWT_API void hwt_progress_line_decode(void *line,
				      const struct hwt_decode_progress *p);

/* For hwt_decode_merged.written with @line as written_arg: the merged
 * elements written back, @done of @total, "writing the merged elements:
 * D of T (N%), E left". */
HWT_API void hwt_progress_line_written(void *line, uint64_t done,
				       uint64_t total);

/* Erases the line when one is drawn ("\r" and the terminal's erase to
 * the end of the line), before any other message and at the end; a later
 * update draws it again. */
HWT_API void hwt_progress_line_erase(struct hwt_progress_line *line);

#ifdef __cplusplus
}
#endif

#endif
