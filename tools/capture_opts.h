/* The options of the commands that read a capture through its call
 * stacks (report, timeline, export): which part of the capture, in which
 * order, and where its code is. Kept in one place so they mean the same
 * everywhere. */
#ifndef HWT_TOOLS_CAPTURE_OPTS_H
#define HWT_TOOLS_CAPTURE_OPTS_H

#include <getopt.h>
#include <stdbool.h>

#include "hwtrace/decode.h"

enum {
	OPT_CAP_PER_CPU = 768, OPT_CAP_TID, OPT_CAP_CPU, OPT_CAP_TIME,
	OPT_CAP_SYMFS, OPT_CAP_BUILDID_DIR, OPT_CAP_VMLINUX, OPT_CAP_KCORE,
};

#define CAPTURE_LONG_OPTS                                                   \
	{"per-cpu", no_argument, NULL, OPT_CAP_PER_CPU},                    \
	{"tid", required_argument, NULL, OPT_CAP_TID},                      \
	{"cpu", required_argument, NULL, OPT_CAP_CPU},                      \
	{"time", required_argument, NULL, OPT_CAP_TIME},                    \
	{"symfs", required_argument, NULL, OPT_CAP_SYMFS},                  \
	{"buildid-dir", required_argument, NULL, OPT_CAP_BUILDID_DIR},      \
	{"vmlinux", required_argument, NULL, OPT_CAP_VMLINUX},              \
	{"kcore", required_argument, NULL, OPT_CAP_KCORE}

#define CAPTURE_USAGE                                                       \
	"  --per-cpu               take each CPU's stream whole, in file order\n" \
	"  --tid N, --cpu N        only that thread's or CPU's trace\n"       \
	"  --time START,END        only trace in this perf time range\n"      \
	"  --symfs DIR, --buildid-dir DIR, --vmlinux FILE, --kcore DIR\n"     \
	"                          where the traced code is (as decode)\n"

struct capture_opts {
	struct hwt_decode_opts decode;  /* set up by capture_opts_init */
	bool per_cpu;
};

void capture_opts_init(struct capture_opts *o);

/* Takes option @opt of command @cmd if it is one of the above: returns 1
 * when taken, 0 when it is not one of them, or the usage exit status (2)
 * after saying what is wrong with @arg. */
int capture_opts_option(struct capture_opts *o, const char *cmd, int opt,
			const char *arg);

/* A whole number in [0, @max] for option @name of @cmd: 0, or the usage
 * exit status after naming the option, the value and the range. */
int capture_opts_number(const char *cmd, const char *name, const char *arg,
			unsigned long long min, unsigned long long max,
			unsigned long long *out);

#endif
