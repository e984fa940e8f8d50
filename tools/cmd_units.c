/* hwtrace units: the independent pieces of the decode of captures, one
 * JSON line each, for a batch engine to plan from (docs/scale-out.md). */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "hwtrace/capture.h"
#include "hwtrace/error.h"

static void usage(FILE *out)
{
	fprintf(out,
		"usage: hwtrace units FILE... [-o OUT]\n\n"
		"Prints the units of each perf.data capture, the pieces whose\n"
		"decode is independent (an AUX queue's data, cut where its\n"
		"decoder may start), one JSON object a line: file, unit (its\n"
		"number for --unit), units (the capture's count), queue, cpu, tid,\n"
		"offset and size (the bytes of the queue's trace), time_from and\n"
		"time_until (the perf times of the AUX records that reported it),\n"
		"cost (the trace bytes to decode). A capture without units (AUX\n"
		"samples, branch records) is one line with unit 0 (the whole\n"
		"capture) and its file size as cost. See docs/scale-out.md.\n\n"
		"  -o FILE                 write to FILE instead of standard output\n"
		"  -h, --help              this text\n\n"
		"Exit status: 0 done, 1 failed, 2 usage.\n");
}

int cmd_units(int argc, char **argv)
{
	if (cli_wants_help(argc, argv)) {
		usage(stdout);
		return EXIT_OK;
	}
	const char *output = NULL;
	int first = 1;
	for (; first < argc && argv[first][0] == '-' && argv[first][1]; first++) {
		if (!strcmp(argv[first], "-o") && first + 1 < argc)
			output = argv[++first];
		else if (!strcmp(argv[first], "--"))
			break;
		else
			return cli_usage_error("units", "unknown option %s",
					       argv[first]);
	}
	first += first < argc && !strcmp(argv[first], "--");
	if (first >= argc)
		return cli_usage_error("units", "no capture file");
	FILE *out;
	struct hwt_outfile *of;
	int rc = cli_output_open("units", output,
				 (const char *const *)argv + first,
				 (size_t)(argc - first), &out, &of);
	if (rc)
		return rc;
	int err = 0;
	for (int i = first; i < argc && !err; i++)
		err = hwt_capture_units_write_jsonl(out, argv[i]);
	int wrc = cli_output_close("units", out, output, of, err < 0);
	if (wrc)
		return wrc;
	return err ? cli_report(err) : EXIT_OK;
}
