/* The recorder's state, shared by its files in core/record/. */
#ifndef HWT_RECORDER_INTERNAL_H
#define HWT_RECORDER_INTERNAL_H

#include <signal.h>
#include <stdatomic.h>

#include "hwtrace/recorder.h"

struct hwt_recorder {
	struct hwt_recorder_opts opts;
	struct hwt_session *s;     /* borrowed */
	struct hwt_pd_writer *w;   /* borrowed */
	/* Set by signal handlers and other threads: lock-free atomics are
	 * async-signal-safe. */
	atomic_int stop;
	atomic_int snapshot;
};

#endif
