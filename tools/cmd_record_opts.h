/* hwtrace record's command line (the trace side: -e, -c PROFILE, -S,
 * triggers, --emulate, --sysfs): its options mapped to the library's
 * request (hwtrace/record_options.h), which says what they mean and
 * checks them against each other, before anything is opened. */
#ifndef HWT_TOOLS_CMD_RECORD_OPTS_H
#define HWT_TOOLS_CMD_RECORD_OPTS_H

#include "hwtrace/record_options.h"

struct record_opts {
	/* The recording as the options say it (the library's request and
	 * the storage of its triggers); its strings point into argv. The
	 * caller adds the command line, the report and the callbacks. */
	struct hwt_trace_options t;
	char **argv;                /* the command (argv[0] NULL: none) */
};

/* Fills @o from argv: 0, -1 after --help (printed), or the usage error's
 * exit status (printed). */
int record_opts_parse(int argc, char **argv, struct record_opts *o);

/* The library refused an option of record's (its message is
 * hwt_errmsg()): the usage error's exit status, the message printed. */
int record_refused(void);

#endif
