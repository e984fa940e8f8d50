/* A recording's signals as hwtrace record takes them
 * (hwtrace/record_console.h): SIGINT, SIGTERM and SIGHUP end a capture
 * with a complete file, SIGUSR2 takes a snapshot. The handlers reach the
 * recorder that polls; a signal that comes before it exists is kept and
 * handed over, once, when it does. One recording at a time: the handlers reach
 * one recorder. */
#include <signal.h>
#include <stddef.h>

#include "hwtrace/record_console.h"
#include "hwtrace/recorder.h"

static struct hwt_recorder *volatile active;
static volatile sig_atomic_t early_stop, early_snapshot;

static void on_stop(int sig)
{
	(void)sig;
	if (active)
		hwt_recorder_request_stop(active);
	else
		early_stop = 1;
}

static void on_snapshot(int sig)
{
	(void)sig;
	if (active)
		hwt_recorder_request_snapshot(active);
	else
		early_snapshot = 1;
}

void hwt_record_catch_stop_signals(void)
{
	signal(SIGINT, on_stop);
	signal(SIGTERM, on_stop);
	signal(SIGHUP, on_stop);
}

void hwt_record_signals_on_recorder(void *arg, struct hwt_recorder *r)
{
	(void)arg;
	active = r;
	if (!r)
		return;
	/* A kept request is handed over once: a process that records again
	 * (a batch worker) does not see its next recording stopped too. */
	if (early_stop) {
		early_stop = 0;
		hwt_recorder_request_stop(r);
	}
	if (early_snapshot) {
		early_snapshot = 0;
		hwt_recorder_request_snapshot(r);
	}
}

void hwt_record_signals_on_stage(void *arg, enum hwt_trace_stage stage,
				 struct hwt_recorder *r)
{
	/* Stop requests count from the moment the file exists (at once,
	 * when they come before the first read), snapshots from when the
	 * recording runs. */
	if (stage == HWT_TRACE_STAGE_OPENING)
		hwt_record_catch_stop_signals();
	else if (stage == HWT_TRACE_STAGE_RUNNING)
		signal(SIGUSR2, on_snapshot);
	else
		hwt_record_signals_on_recorder(arg, r);
}
