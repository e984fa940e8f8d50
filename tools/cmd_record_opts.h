/* hwtrace record's command line (the trace side: -e, -c PROFILE, -S,
 * triggers, --emulate, --sysfs): its options as parsed and checked against
 * each other, before anything is opened. */
#ifndef HWT_TOOLS_CMD_RECORD_OPTS_H
#define HWT_TOOLS_CMD_RECORD_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "hwtrace/session.h"

struct record_opts {
	const char *profile, *event, *sink, *output, *control, *emulate;
	const char *sysfs, *emulate_trace;
	const char *filter;
	bool emulate_tsc;
	const char *sample_event, *aux_sample_size; /* --aux-sample */
	bool aux_sample;
	const char *cpus;
	bool all_cpus, per_thread, snapshot, snapshot_on_exit;
	uint64_t snapshot_size;
	long interval_ms;
	double emulate_rate;
	bool emulate_lossless;
	pid_t pid;
	uint32_t data_pages, aux_pages;
	int compress_level;         /* 0: no compression */
	bool compress_aux;
	bool keep_partial;
	const char *triggers[HWT_SESSION_MAX_PROBES]; /* resume:/pause: */
	size_t ntriggers;
	const char *call_trigger;   /* symbol:/latency:, with -S */
	char call_func[512];        /* its FUNC[@BINARY] */
	bool call_latency;
	uint64_t trigger_count;
	char **argv;
};

/* Fills @o from argv: 0, -1 after --help (printed), or the usage error's
 * exit status (printed). */
int record_opts_parse(int argc, char **argv, struct record_opts *o);

#endif
