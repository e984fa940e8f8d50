/* Records a program with sw_branch into a perf.data file: the library call
 * behind `hwtrace record -e sw_branch`, for the integration tests and
 * `make run`.
 *
 *   swb_record -o FILE [--start SYM] [--stop SYM] [--filter F] [--max N]
 *              -- PROG ARGS
 *
 * Prints what was traced and the stepping rate to stderr. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hwtrace/error.h"
#include "hwtrace/swbranch.h"

static int usage(void)
{
	fprintf(stderr, "usage: swb_record -o FILE [--start SYM] [--stop SYM] "
		"[--filter F] [--max N] [--quiet] -- PROG [ARGS]\n");
	return 2;
}

int main(int argc, char **argv)
{
	struct hwt_swb_opts o = {.size = sizeof(o)};
	struct hwt_swb_stats st;
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--")) {
			i++;
			break;
		}
		if (i + 1 < argc && !strcmp(argv[i], "-o"))
			o.output = argv[++i];
		else if (i + 1 < argc && !strcmp(argv[i], "--start"))
			o.start = argv[++i];
		else if (i + 1 < argc && !strcmp(argv[i], "--stop"))
			o.stop = argv[++i];
		else if (i + 1 < argc && !strcmp(argv[i], "--filter"))
			o.filter = argv[++i];
		else if (i + 1 < argc && !strcmp(argv[i], "--max"))
			o.max_insns = strtoull(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--quiet"))
			o.quiet_child = true;
		else
			return usage();
	}
	if (!o.output || i >= argc)
		return usage();
	o.argv = argv + i;
	int err = hwt_swb_record(&o, &st);
	if (err) {
		fprintf(stderr, "swb_record: %s\n",
			hwt_errmsg()[0] ? hwt_errmsg() : hwt_errstr(err));
		return 1;
	}
	double secs = st.elapsed_ns / 1e9;
	fprintf(stderr, "sw_branch: pid %d, 0x%llx..0x%llx (%s), %llu "
		"instructions, %llu branches, %llu bytes of BTS records in "
		"%.2f s: %.0f instructions/s; sideband from %s\n", (int)st.pid,
		(unsigned long long)st.start_addr,
		(unsigned long long)st.stop_addr,
		st.stopped ? "reached --stop" : st.exited ? "program exited" :
		"--max reached", (unsigned long long)st.insns,
		(unsigned long long)st.branches, (unsigned long long)st.bytes,
		secs, secs > 0 ? st.insns / secs : 0.0,
		st.kernel_sideband ? "the kernel's dummy event" : "/proc/PID/maps");
	return 0;
}
