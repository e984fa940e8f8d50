/* hwtrace record -b / -j FILTERS: branch records (Intel LBR and Arch LBR,
 * AMD BRS and LBRv2, Arm BRBE) sampled into the file `perf record -b`
 * writes, on this machine's kernel for a command (`-- CMD`) or on the
 * kernel emulator (--sysfs DIR --emulate-branches FILE). The options fill
 * a struct hwt_branch_request (-c's two meanings are the library's); the
 * recording is the library's (hwt_recorder_record_branch), and so are its
 * closing lines (hwt_record_print_branch_end). */
#include <getopt.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>

#include "cli.h"
#include "cmd_record_opts.h"
#include "hwtrace/error.h"
#include "hwtrace/record_console.h"
#include "hwtrace/record_options.h"
#include "hwtrace/recorder.h"
#include "hwtrace/value.h"

bool cli_record_is_branch(int argc, char **argv)
{
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "-b") || !strncmp(argv[i], "-j", 2) ||
		    !strcmp(argv[i], "--branch-any") ||
		    !strncmp(argv[i], "--branch-filter", 15) ||
		    !strncmp(argv[i], "--emulate-branches", 18) ||
		    /* -e '{A,B}': an event group, for branch counters. */
		    ((!strcmp(argv[i], "-e") || !strcmp(argv[i], "--event")) &&
		     i + 1 < argc && argv[i + 1][0] == '{') ||
		    !strncmp(argv[i], "-e{", 3) || !strncmp(argv[i], "--event={", 9))
			return true;
	return false;
}

static void usage(FILE *out)
{
	fprintf(out,
		"usage: hwtrace record (-b | -j FILTERS) [-c PERIOD | -F FREQ]\n"
		"                      [-e '{LEADER,MEMBER,...}']\n"
		"                      [--config PROFILE] [-m DATA_PAGES] [-o OUT]\n"
		"                      (-- CMD [ARGS] |\n"
		"                       --sysfs DIR --emulate-branches SWB.data)\n\n"
		"Sample branch records (the last taken branches a CPU keeps: Intel\n"
		"LBR, Arch LBR, AMD BRS and LBRv2, Arm BRBE) into a perf.data file as\n"
		"`perf record -b` writes it (docs/branch-records.md): of CMD, on this\n"
		"machine (the event is cycles), or on the kernel emulator, whose PMU\n"
		"is the sysfs tree DIR's and whose program the branches of a\n"
		"sw_branch capture, sampled as the hardware would.\n\n"
		"  -b, --branch-any      every taken branch (-j any)\n"
		"  -j, --branch-filter FILTERS  perf's names, comma-separated: any,\n"
		"                        any_call, any_ret, ind_call, call, cond,\n"
		"                        ind_jmp, u, k, hv, save_type, priv, hw_index,\n"
		"                        counter, no_flags, no_cycles, stack, ...\n"
		"  -e, --event '{LEADER,MEMBER,...}'  an event group (perf's braces):\n"
		"                        LEADER samples the records, with -j counter\n"
		"                        (or a branch_type=counter term) each record\n"
		"                        counts the members' events since the one\n"
		"                        before (Linux 6.8's branch counters); an\n"
		"                        event is a name (branches, branch-misses,\n"
		"                        ...) or cpu/TERMS/ (event=N,umask=N,\n"
		"                        branch_type=FILTER)\n"
		"  -c, --count PERIOD    a sample every PERIOD events (a number; any\n"
		"                        other -c argument is a PROFILE, as in record)\n"
		"  -F, --freq FREQ       FREQ samples a second (default 4000, perf's)\n"
		"      --config PROFILE  INI profile; its [branch] section has filter,\n"
		"                        period, freq, group (the options above\n"
		"                        override it)\n"
		"  -m, --mmap-pages N    data ring pages (a power of two)\n"
		"      --sysfs DIR       the emulated machine's sysfs (e.g.\n"
		"                        tests/fixtures/sysfs/intel-lbr)\n"
		"      --emulate-branches FILE  a sw_branch capture: the ground truth\n"
		"                        the emulated event counts taken branches of\n"
		"                        (the event is `branches`); its sideband goes\n"
		"                        into the file; the emulated ring waits for\n"
		"                        the reader, so no record is lost\n"
		"  -o, --output FILE     output file (default perf.data)\n"
		"  -h, --help            show this help\n\n"
		"Exit status: 0 recorded, 1 runtime error, 2 usage error.\n");
}

static int parse(int argc, char **argv, struct hwt_branch_request *rq)
{
	enum { O_CONFIG = 256, O_SYSFS, O_TRUTH };
	static const struct option longopts[] = {
		{"branch-any", no_argument, NULL, 'b'},
		{"branch-filter", required_argument, NULL, 'j'},
		{"event", required_argument, NULL, 'e'},
		{"count", required_argument, NULL, 'c'},
		{"freq", required_argument, NULL, 'F'},
		{"config", required_argument, NULL, O_CONFIG},
		{"mmap-pages", required_argument, NULL, 'm'},
		{"sysfs", required_argument, NULL, O_SYSFS},
		{"emulate-branches", required_argument, NULL, O_TRUTH},
		{"output", required_argument, NULL, 'o'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	int c, r;
	*rq = (struct hwt_branch_request){.size = sizeof(*rq)};
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+bj:e:c:F:m:o:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'b': rq->any = true; break;
		case 'j':
			if (rq->filter)
				return cli_usage_error("record", "-j %s: one -j only "
						       "(its filters comma-separated)",
						       optarg);
			rq->filter = optarg;
			break;
		case 'e':
			if (rq->group)
				return cli_usage_error("record", "-e %s: one -e "
						       "only (its events in one "
						       "group)", optarg);
			rq->group = optarg;
			break;
		case 'c':
			if (hwt_branch_request_count(rq, optarg))
				return record_refused();
			break;
		case 'F':
			if ((r = cli_number_u64(&(struct cli_number){"record", "-F",
					1, 1000000000, "samples a second, 1 to "
					"1000000000"}, optarg, &rq->freq)))
				return r;
			break;
		case O_CONFIG: rq->profile = optarg; break;
		case 'm': {
			uint32_t aux;
			if ((r = cli_parse_pages("record", "-m", optarg,
						 &rq->data_pages, &aux)))
				return r;
			break;
		}
		case O_SYSFS: rq->sysfs = optarg; break;
		case O_TRUTH: rq->truth = optarg; break;
		case 'o': rq->output = optarg; break;
		case 'h':
			usage(stdout);
			return -1;
		default:
			return cli_usage_error("record", "unknown option '%s' (branch "
					       "records: hwtrace record -b --help)",
					       argv[optind - 1]);
		}
	}
	if (argv[optind] && !strcmp(argv[optind], "--"))
		optind++;
	rq->argv = argv[optind] ? argv + optind : NULL;
	if (!rq->output)
		rq->output = "perf.data";
	/* What the options mean together is the library's to say. */
	if (hwt_branch_request_check(rq))
		return record_refused();
	if (rq->sysfs && hwt_value_check_path("--sysfs", rq->sysfs, true))
		return cli_usage_error("record", "%s", hwt_errmsg());
	return 0;
}

int cmd_record_branch(int argc, char **argv)
{
	struct hwt_branch_request rq;
	int ret = parse(argc, argv, &rq);
	if (ret)
		return ret < 0 ? EXIT_OK : ret;
	{
		const char *inputs[] = {rq.truth, rq.profile,
					rq.argv ? rq.argv[0] : NULL};
		if ((ret = cli_output_check("record", rq.output, inputs, 3)))
			return ret;
	}
	rq.on_recorder = hwt_record_signals_on_recorder;
	struct hwt_branch_summary sum;
	/* A signal ends the sampling with a complete file. */
	hwt_record_catch_stop_signals();
	if ((ret = hwt_recorder_record_branch(&rq, &sum)) < 0)
		return cli_report_status(ret);
	hwt_record_print_branch_end(stderr, "hwtrace record", &rq, &sum);
	return EXIT_OK;
}
