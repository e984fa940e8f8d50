/* hwtrace decode's progress line (tools/decode_progress.c): on a terminal,
 * a decode that lasts longer than two seconds shows on standard error how
 * much of the trace it has decoded, the rate and the time left, on one
 * line rewritten a few times a second and erased at the end. */
#ifndef HWT_TOOLS_DECODE_PROGRESS_H
#define HWT_TOOLS_DECODE_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>

#include "hwtrace/decode.h"

/* Seconds before the first line, instead of 2: for tests, which cannot
 * wait for a long decode. */
#define CLI_PROGRESS_AFTER_ENV "HWTRACE_PROGRESS_AFTER"

struct cli_progress {
	bool on;              /* stderr is a terminal, and no --quiet */
	bool drawn;           /* a line is on the terminal now */
	double begin;         /* when the command started */
	double decode_begin;  /* when the decode reported done 0 */
	double after;         /* seconds before the first line */
	double next;          /* the earliest time of the next line */
};

/* Off when @quiet or standard error is not a terminal. */
void cli_progress_init(struct cli_progress *p, bool quiet);

/* Bytes decoded of the total (an hwt_decode_opts.progress step). */
void cli_progress_decode(struct cli_progress *p,
			 const struct hwt_decode_progress *dp);

/* The time-ordered merge writes its @total elements: @written so far. */
void cli_progress_written(struct cli_progress *p, uint64_t written,
			  uint64_t total);

/* Erases the line (before other messages, and at the end); a later
 * step draws it again. */
void cli_progress_erase(struct cli_progress *p);

#endif
