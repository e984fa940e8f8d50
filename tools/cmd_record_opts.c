/* hwtrace record's options (cmd_record_opts.h): the help text, and argv
 * parsed and checked for usage errors (exit status 2). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "cmd_record_opts.h"
#include "hwtrace/error.h"
#include "hwtrace/record_options.h"

static void usage(FILE *out)
{
	fprintf(out,
		"usage: hwtrace record [-c PROFILE] [-e BACKEND[/TERMS/]] [--sink NAME]\n"
		"                      [-S[SIZE] | --snapshot] [-m DATA_PAGES,AUX_PAGES]\n"
		"                      [-a | -C CPUS | -p PID | --per-thread]\n"
		"                      [--control fifo:CTL[,ACK]] [--snapshot-interval MS]\n"
		"                      [--aux-sample[=SIZE] -e cycles/period=N/]\n"
		"                      [-z[LEVEL] [--compress-aux]] [-o FILE] -- CMD [ARGS]\n"
		"       hwtrace record -e sw_branch [--start SYM] [--stop SYM] [--max N]\n"
		"                      [-q] [-m DATA,AUX] [-o FILE] -- CMD [ARGS]\n"
		"       hwtrace record --emulate CAPTURE.data [--emulate-rate MB/s] -o OUT\n"
		"       hwtrace record --sysfs DIR [--emulate-trace FILE] [--emulate-tsc]\n"
		"                      -e BACKEND -o OUT\n"
		"       hwtrace record -b | -j FILTERS ... (branch records: -b --help)\n\n"
		"Capture a hardware trace (and the sideband a decoder needs: mmap2,\n"
		"comm, task and context-switch records) into a perf.data file that\n"
		"`hwtrace decode` and `perf script` read.\n\n"
		"  -c, --config PROFILE  INI profile (see configs/)\n"
		"  -e, --event EVENT     backend and terms: intel_pt/cyc/u, cs_etm/@tmc_etr0/,\n"
		"                        or sw_branch: no trace hardware, the program is\n"
		"                        stepped under ptrace (slow; docs/sw-branch.md)\n"
		"      --start SYM       sw_branch: start stepping at a symbol or address\n"
		"      --stop SYM        sw_branch: stop there (default: at exit)\n"
		"      --max N           sw_branch: stop after N instructions\n"
		"  -q, --quiet           sw_branch: the program's output goes to /dev/null\n"
		"                        (`hwtrace record -e sw_branch --help`: all of it)\n"
		"      --sink NAME       CoreSight sink (like cs_etm/@NAME/)\n"
		"      --filter F        address filters, as perf's: filter|start|stop|\n"
		"                        tracestop SYM|ADDR[/SIZE] [@ FILE], separated by\n"
		"                        commas; a symbol's FILE defaults to CMD\n"
		"  -S[SIZE], --snapshot  snapshot mode: the AUX buffer overwrites; copy it\n"
		"                        on SIGUSR2, a control-FIFO `snapshot`, each\n"
		"                        --snapshot-interval, and with -S e at exit\n"
		"      --snapshot-interval MS  take a snapshot every MS milliseconds\n"
		"      --trigger T       the kernel's AUX pause/resume (Linux 6.13,\n"
		"                        perf's aux-action=): resume:FUNC[@BIN] or\n"
		"                        pause:FUNC%%return[@BIN], an uprobe at FUNC's\n"
		"                        entry or return; up to 4; with a resume the\n"
		"                        trace starts paused (docs/record.md)\n"
		"                        With -S: symbol:FUNC[@BIN] (a snapshot when\n"
		"                        FUNC is entered) or latency:FUNC[@BIN]>DUR\n"
		"                        (when a call took longer than DUR: 5ms)\n"
		"      --trigger-count N  at most N such snapshots (default: all)\n"
		"      --control fifo:CTL[,ACK]  commands snapshot/enable/disable/stop,\n"
		"                        each answered `ack` on ACK (as perf record)\n"
		"      --aux-sample[=SIZE]  AUX sampling: each sample of a second event\n"
		"                        (-e cycles/period=N/ or /freq=N/) carries the\n"
		"                        last SIZE bytes of trace (default 4K, at most\n"
		"                        60K); see docs/aux-sampling.md\n"
		"  -m, --mmap-pages D,A  data and AUX ring pages (powers of two, 1 to 1048576)\n"
		"  -a, --all-cpus        every CPU, every task\n"
		"  -C, --cpu CPUS        these CPUs (0-3,6)\n"
		"  -p, --pid PID         an existing process\n"
		"      --per-thread      one event for the task instead of one per CPU\n"
		"  -o, --output FILE     output file (default: the profile's [session]\n"
		"                        output, else perf.data)\n"
		"      --keep-partial    when the disk fills up, replace FILE with the\n"
		"                        part recorded, marked as cut short (default:\n"
		"                        an existing FILE is kept and the capture lost)\n"
		"  -z, --compression-level[=LEVEL]  zstd-compress the sideband records\n"
		"                        as perf record -z does (LEVEL 1-22, default 1);\n"
		"                        perf and hwtrace read the file\n"
		"      --compress-aux    with -z: compress the AUX trace too (perf leaves\n"
		"                        it uncompressed); such a file is for hwtrace\n"
		"                        only: perf cannot read its trace\n"
		"      --emulate CAPTURE replay CAPTURE's trace and sideband through the\n"
		"                        kernel emulator and the normal capture path\n"
		"      --emulate-rate R  trace bytes per second per CPU, in MB/s\n"
		"                        (default: as fast as the emulator writes)\n"
		"      --emulate-lossless  the emulated trace unit waits for the reader\n"
		"                        instead of losing trace (real hardware does not\n"
		"                        wait; for testing pipelines on a busy machine)\n"
		"      --sysfs DIR       an emulated machine: its PMUs are those of the\n"
		"                        sysfs tree DIR (e.g. tests/fixtures/sysfs/juno);\n"
		"                        the whole capture path runs on the kernel\n"
		"                        emulator, no command is run\n"
		"      --emulate-trace FILE  with --sysfs: the raw trace bytes every traced\n"
		"                        CPU's emulated trace unit writes\n"
		"      --emulate-tsc     with --sysfs: the emulated kernel publishes a\n"
		"                        TSC time conversion (a 2 GHz TSC) in its user\n"
		"                        pages, which AUXTRACE_INFO and TIME_CONV carry\n"
		"  -h, --help            show this help\n\n"
		"At the end it prints per CPU: bytes captured, losses and why, wakeups.\n"
		"Exit status: 0 captured, 1 runtime error, 2 usage error.\n");
}

int record_refused(void)
{
	return cli_usage_error("record", "%s", hwt_errmsg());
}

int record_opts_parse(int argc, char **argv, struct record_opts *o)
{
	enum { O_SINK = 256, O_SNAP, O_CONTROL, O_INTERVAL, O_EMU, O_RATE, O_PT,
	       O_SYSFS, O_ETRACE, O_AUX_SAMPLE, O_ETSC, O_LOSSLESS, O_FILTER,
	       O_COMPRESS_AUX, O_KEEP_PARTIAL, O_TRIGGER, O_TRIGGER_COUNT };
	static const struct option longopts[] = {
		{"config", required_argument, NULL, 'c'},
		{"event", required_argument, NULL, 'e'},
		{"sink", required_argument, NULL, O_SINK},
		{"filter", required_argument, NULL, O_FILTER},
		{"snapshot", optional_argument, NULL, O_SNAP},
		{"mmap-pages", required_argument, NULL, 'm'},
		{"all-cpus", no_argument, NULL, 'a'},
		{"cpu", required_argument, NULL, 'C'},
		{"pid", required_argument, NULL, 'p'},
		{"per-thread", no_argument, NULL, O_PT},
		{"output", required_argument, NULL, 'o'},
		{"control", required_argument, NULL, O_CONTROL},
		{"snapshot-interval", required_argument, NULL, O_INTERVAL},
		{"emulate", required_argument, NULL, O_EMU},
		{"emulate-rate", required_argument, NULL, O_RATE},
		{"emulate-lossless", no_argument, NULL, O_LOSSLESS},
		{"sysfs", required_argument, NULL, O_SYSFS},
		{"emulate-trace", required_argument, NULL, O_ETRACE},
		{"emulate-tsc", no_argument, NULL, O_ETSC},
		{"aux-sample", optional_argument, NULL, O_AUX_SAMPLE},
		{"compression-level", optional_argument, NULL, 'z'},
		{"compress-aux", no_argument, NULL, O_COMPRESS_AUX},
		{"keep-partial", no_argument, NULL, O_KEEP_PARTIAL},
		{"trigger", required_argument, NULL, O_TRIGGER},
		{"trigger-count", required_argument, NULL, O_TRIGGER_COUNT},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	int c, r;

	hwt_trace_options_init(&o->t);
	o->argv = NULL;
	struct hwt_trace_request *rq = &o->t.rq;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+c:e:S::m:aC:p:o:z::h", longopts,
				NULL)) != -1) {
		switch (c) {
		case 'c': rq->trace.profile = optarg; break;
		case 'e':
			if (hwt_trace_options_event(&o->t, optarg))
				return record_refused();
			break;
		case O_AUX_SAMPLE:
			rq->aux_sample = true;
			rq->aux_sample_size = optarg;
			break;
		case O_SINK: rq->trace.sink = optarg; break;
		case O_FILTER: rq->trace.filter = optarg; break;
		case 'S':
		case O_SNAP:
			rq->trace.snapshot = true;
			o->t.snapshot_arg = optarg;
			break;
		case 'm':
			if ((r = cli_parse_pages("record", "-m", optarg,
						 &rq->data_pages, &rq->aux_pages)))
				return r;
			break;
		case 'a': rq->all_cpus = true; break;
		case 'C': rq->trace.cpus = optarg; break;
		case 'p': {
			uint64_t pid;
			if ((r = cli_number_u64(&(struct cli_number){"record", "-p",
					1, CLI_MAX_PID, "a process id, 1 to 4194304"},
					optarg, &pid)))
				return r;
			rq->pid = (long)pid;
			break;
		}
		case O_PT: rq->trace.per_thread = true; break;
		case 'o': rq->output = optarg; break;
		case 'z':
			if (hwt_trace_options_compression(&o->t, optarg))
				return record_refused();
			break;
		case O_COMPRESS_AUX: rq->compress_aux = true; break;
		case O_KEEP_PARTIAL: rq->keep_partial = true; break;
		case O_TRIGGER_COUNT:
			if ((r = cli_number_u64(&(struct cli_number){"record",
					"--trigger-count", 1, 1000000, "a number of "
					"snapshots, 1 to 1000000"}, optarg,
					&rq->trigger_count)))
				return r;
			break;
		case O_TRIGGER:
			if (hwt_trace_options_trigger(&o->t, optarg))
				return record_refused();
			break;
		case O_CONTROL: rq->control = optarg; break;
		case O_INTERVAL:
		{
			uint64_t ms;
			if ((r = cli_number_u64(&(struct cli_number){"record",
					"--snapshot-interval", 1, 86400000,
					"milliseconds, 1 to 86400000 (a day)"},
					optarg, &ms)))
				return r;
			rq->interval_ms = (unsigned)ms;
			break;
		}
		case O_EMU: rq->emulate = optarg; break;
		case O_SYSFS: rq->sysfs = optarg; break;
		case O_ETRACE: rq->emulate_trace = optarg; break;
		case O_ETSC: rq->emulate_tsc = true; break;
		case O_LOSSLESS: rq->emulate_lossless = true; break;
		case O_RATE:
			if ((r = cli_number_double(&(struct cli_number){"record",
					"--emulate-rate", 0, 0, "MB/s, more than 0 "
					"and at most 1000000"}, optarg, 0, 1e6,
					&rq->emulate_rate)))
				return r;
			break;
		case 'h':
			usage(stdout);
			return -1;
		default:
			return cli_usage_error("record", "unknown option '%s'",
					       argv[optind - 1]);
		}
	}
	o->argv = argv + optind;
	/* What the options mean together is the library's to say. */
	if (hwt_trace_options_finish(&o->t, o->argv))
		return record_refused();
	return 0;
}
