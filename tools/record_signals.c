/* hwtrace record's signals: SIGINT, SIGTERM and SIGHUP end a capture with
 * a complete file, SIGUSR2 takes a snapshot. The handlers reach the
 * recorder that polls; a signal that comes before it exists is kept and
 * handed over when it does. */
#include <signal.h>
#include <stddef.h>

#include "cli.h"
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

void cli_record_catch_stop(void)
{
	signal(SIGINT, on_stop);
	signal(SIGTERM, on_stop);
	signal(SIGHUP, on_stop);
}

void cli_record_catch_snapshot(void)
{
	signal(SIGUSR2, on_snapshot);
}

void cli_record_attach(struct hwt_recorder *r)
{
	active = r;
	if (!r)
		return;
	if (early_stop)
		hwt_recorder_request_stop(r);
	if (early_snapshot)
		hwt_recorder_request_snapshot(r);
}
