/* hwtrace record's command line (the trace side: -e, -c PROFILE, -S,
 * triggers, --emulate, --sysfs): its options as parsed and checked against
 * each other, before anything is opened. */
#ifndef HWT_TOOLS_CMD_RECORD_OPTS_H
#define HWT_TOOLS_CMD_RECORD_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hwtrace/recorder.h"
#include "hwtrace/session.h"

struct record_opts {
	/* The recording as the options say it; its strings point into argv
	 * and into the storage below. The caller adds the command line,
	 * the report and the callbacks. */
	struct hwt_trace_request rq;
	const char *triggers[HWT_SESSION_MAX_PROBES]; /* resume:/pause: */
	char call_func[512];        /* a call trigger's FUNC[@BINARY] */
	char **argv;                /* the command (argv[0] NULL: none) */
};

/* Fills @o from argv: 0, -1 after --help (printed), or the usage error's
 * exit status (printed). */
int record_opts_parse(int argc, char **argv, struct record_opts *o);

#endif
