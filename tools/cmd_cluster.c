/* hwtrace cluster: the Dask front end (python/hwtrace/dask.py), run as
 * `python3 -m hwtrace.dask` with this hwtrace as the CLI its workers run,
 * so that a user needs no Python of their own to decode on a cluster. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

static void usage(FILE *out)
{
	fprintf(out,
		"usage: hwtrace cluster (--scheduler tcp://HOST:PORT | --local N)\n"
		"                       FILE... --to KIND -o OUT [options]\n\n"
		"Decodes captures on a Dask cluster: plans their units (hwtrace\n"
		"units), runs hwtrace on the workers for each capture (report,\n"
		"collapsed, autofdo, bolt, bolt-preagg, pprof, sqlite) or unit\n"
		"(edges, branch-profile), merges the partial results in a tree\n"
		"and writes OUT\n"
		"(autofdo, bolt: the files' prefix or directory, as export -o;\n"
		"sqlite: a database file that does not exist yet): the same\n"
		"bytes as one process gives. The workers read the captures from\n"
		"the same paths (a shared filesystem). See docs/scale-out.md.\n\n"
		"  --scheduler ADDRESS     the scheduler of a running cluster\n"
		"  --local N               start a cluster of N workers on this host\n"
		"  --to KIND               report, collapsed, edges, autofdo, bolt,\n"
		"                          bolt-preagg, pprof, sqlite or\n"
		"                          branch-profile\n"
		"  -o, --output OUT        where the result goes\n"
		"  --top N                 report: the N first functions (default 25;\n"
		"                          0 for all)\n"
		"  --weight insns|time|calls  collapsed: what a stack counts\n"
		"  --fanin N               partial results merged at a time (default 4)\n"
		"  -h, --help              this text\n\n"
		"Needs Python 3 with Dask (Debian: python3-distributed) and the\n"
		"hwtrace Python package; HWTRACE_PYTHON names another python3.\n\n"
		"Exit status: 0 done, 1 failed or units missing (named), 2 usage.\n");
}

int cmd_cluster(int argc, char **argv)
{
	if (cli_wants_help(argc, argv)) {
		usage(stdout);
		return EXIT_OK;
	}
	/* The workers run this very hwtrace. */
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n > 0) {
		self[n] = 0;
		setenv("HWTRACE_CLI", self, 1);
	}
	const char *python = getenv("HWTRACE_PYTHON");
	if (!python || !*python)
		python = "/usr/bin/python3";
	char **args = calloc((size_t)argc + 3, sizeof(*args));
	if (!args) {
		fprintf(stderr, "hwtrace cluster: out of memory\n");
		return EXIT_RUNTIME;
	}
	args[0] = (char *)python;
	args[1] = "-m";
	args[2] = "hwtrace.dask";
	memcpy(args + 3, argv + 1, (size_t)(argc - 1) * sizeof(*args));
	fflush(stdout);
	execv(python, args);
	fprintf(stderr, "hwtrace cluster: cannot run %s: %s (install python3 "
		"and python3-distributed, or set HWTRACE_PYTHON)\n", python,
		strerror(errno));
	free(args);
	return EXIT_RUNTIME;
}
