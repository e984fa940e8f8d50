/* A program recording's live lines (hwtrace/record_console.h): the
 * callbacks of struct hwt_swb_opts that print them, and the signals that
 * count as its stop requests. The callbacks run in the tracer process. */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <string.h>

#include "hwtrace/error.h"
#include "hwtrace/record_console.h"
#include "hwtrace/session.h"
#include "hwtrace/swbranch.h"
#include "hwtrace/text.h"

/* A terminal's carriage return and erase-line: the progress line is
 * rewritten in place. */
#define LINE_RESTART "\r\033[K"

static void show_progress(void *arg, const struct hwt_swb_progress *p)
{
	const struct hwt_program_console *c = arg;

	if (p->done) {
		fputs(LINE_RESTART, c->out);
		return;
	}
	double secs = p->elapsed_ns / 1e9;
	fprintf(c->out, LINE_RESTART "%s: sw_branch: %" PRIu64 " instructions "
		"stepped, %" PRIu64 " branches, %.0f instructions/s", c->prefix,
		p->insns, p->branches, secs > 0 ? p->insns / secs : 0.0);
}

/* A stop request was sent on to the program as SIGTERM and it has not
 * ended: the user sees why the recording has not. */
static void show_waiting(void *arg, int pid, bool killed)
{
	const struct hwt_program_console *c = arg;

	if (killed)
		fprintf(c->out, "%s: sw_branch: program %d did not end within "
			"%d ms of SIGTERM: killed with SIGKILL\n", c->prefix, pid,
			HWT_TERM_GRACE_MS);
	else
		fprintf(c->out, "%s: sw_branch: waiting for program %d to end on "
			"SIGTERM; it gets SIGKILL after %d ms (or at once on a "
			"second stop request)\n", c->prefix, pid,
			HWT_TERM_GRACE_MS);
}

static void show_window(void *arg, const char *path, int tid)
{
	const struct hwt_program_console *c = arg;
	char safe[512];
	/* The path holds the -o the user gave: a terminal sees no escape
	 * sequence in it. */
	size_t n = hwt_term_escape(safe, sizeof(safe) - 1, path, strlen(path));

	safe[n < sizeof(safe) - 1 ? n : sizeof(safe) - 1] = 0;
	fprintf(c->out, "%s: sw_branch: trigger fired in thread %d: wrote %s\n",
		c->prefix, tid, safe);
}

int hwt_program_console_attach(const struct hwt_program_console *c,
			       struct hwt_swb_opts *o)
{
	if (!c || !c->size || !c->out || !o)
		return hwt_error(HWT_ERR_INVAL, "program console: %s",
				 !o ? "no options" : "no console, size or stream");
	o->progress = c->progress ? show_progress : NULL;
	o->waiting = show_waiting;
	o->window_written = show_window;
	o->progress_arg = (void *)c;
	return 0;
}

/* The process's stop requests: a signal handler can reach no other. */
static volatile sig_atomic_t stop_requests;

static void count_stop(int sig)
{
	(void)sig;
	stop_requests++;
}

int hwt_record_count_stop_signals(struct hwt_swb_opts *o)
{
	static const int signals[] = {SIGINT, SIGTERM, SIGHUP};
	struct sigaction sa;

	if (!o)
		return hwt_error(HWT_ERR_INVAL, "stop signals: no options");
	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = count_stop; /* no SA_RESTART: waits see the request */
	for (size_t i = 0; i < sizeof(signals) / sizeof(signals[0]); i++)
		if (sigaction(signals[i], &sa, NULL))
			return hwt_error(HWT_ERR_IO, "stop signals: cannot catch "
					 "%s: %s", strsignal(signals[i]),
					 strerror(errno));
	o->stop_requests = &stop_requests;
	return 0;
}
