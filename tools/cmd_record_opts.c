/* hwtrace record's options (cmd_record_opts.h): the help text, and argv
 * parsed and checked for usage errors (exit status 2). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cmd_record_opts.h"
#include "hwtrace/auxaction.h"
#include "hwtrace/error.h"
#include "hwtrace/recorder.h"
#include "hwtrace/trigger.h"

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
	const char *snap_arg = NULL;
	int c, r;

	memset(o, 0, sizeof(*o));
	o->rq.size = sizeof(o->rq);
	o->rq.trace.size = sizeof(o->rq.trace);
	o->rq.pid = -1;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+c:e:S::m:aC:p:o:z::h", longopts,
				NULL)) != -1) {
		switch (c) {
		case 'c': o->rq.trace.profile = optarg; break;
		case 'e':
			/* A second event is AUX sampling's sampling event. */
			if (hwt_record_sample_event_named(optarg) && !o->rq.sample_event)
				o->rq.sample_event = optarg;
			else if (o->rq.trace.event)
				return cli_usage_error("record", "-e %s: one trace "
						       "event only (and, with "
						       "--aux-sample, one sampling "
						       "event such as cycles)", optarg);
			else
				o->rq.trace.event = optarg;
			break;
		case O_AUX_SAMPLE:
			o->rq.aux_sample = true;
			o->rq.aux_sample_size = optarg;
			break;
		case O_SINK: o->rq.trace.sink = optarg; break;
		case O_FILTER: o->rq.trace.filter = optarg; break;
		case 'S':
		case O_SNAP:
			o->rq.trace.snapshot = true;
			snap_arg = optarg;
			break;
		case 'm':
			if ((r = cli_parse_pages("record", "-m", optarg,
						 &o->rq.data_pages, &o->rq.aux_pages)))
				return r;
			break;
		case 'a': o->rq.all_cpus = true; break;
		case 'C': o->rq.trace.cpus = optarg; break;
		case 'p': {
			uint64_t pid;
			if ((r = cli_number_u64(&(struct cli_number){"record", "-p",
					1, CLI_MAX_PID, "a process id, 1 to 4194304"},
					optarg, &pid)))
				return r;
			o->rq.pid = (long)pid;
			break;
		}
		case O_PT: o->rq.trace.per_thread = true; break;
		case 'o': o->rq.output = optarg; break;
		case 'z': {
			char *end;
			long level = optarg ? strtol(optarg, &end, 10) : 1;

			if (optarg && (*end || end == optarg || level < 1 ||
				       level > 22))
				return cli_usage_error("record", "-z%s: the "
						       "compression level is a "
						       "number from 1 to 22",
						       optarg);
			o->rq.compress_level = (int)level;
			break;
		}
		case O_COMPRESS_AUX: o->rq.compress_aux = true; break;
		case O_KEEP_PARTIAL: o->rq.keep_partial = true; break;
		case O_TRIGGER_COUNT:
			if ((r = cli_number_u64(&(struct cli_number){"record",
					"--trigger-count", 1, 1000000, "a number of "
					"snapshots, 1 to 1000000"}, optarg,
					&o->rq.trigger_count)))
				return r;
			break;
		case O_TRIGGER:
			if (!hwt_aux_action_is_trigger(optarg) && !o->rq.call_trigger) {
				uint64_t ns;
				int call = hwt_trigger_parse_call(optarg, o->call_func,
								  sizeof(o->call_func),
								  &o->rq.call_latency, &ns);
				if (call < 0)
					return cli_usage_error("record", "%s",
							       hwt_errmsg());
				if (call > 0) {
					o->rq.call_trigger = optarg;
					o->rq.call_func = o->call_func;
					break;
				}
			}
			if (!hwt_aux_action_is_trigger(optarg))
				return cli_usage_error("record", "--trigger %s: a "
						       "trace PMU takes resume:FUNC "
						       "and pause:FUNC%%return (symbol:, "
						       "latency: and signal: are "
						       "-e sw_branch's)", optarg);
			if (o->rq.ntriggers == HWT_SESSION_MAX_PROBES)
				return cli_usage_error("record", "--trigger %s: at "
						       "most %d resume:/pause: "
						       "triggers", optarg,
						       HWT_SESSION_MAX_PROBES);
			o->triggers[o->rq.ntriggers++] = optarg;
			o->rq.triggers = o->triggers;
			break;
		case O_CONTROL: o->rq.control = optarg; break;
		case O_INTERVAL:
		{
			uint64_t ms;
			if ((r = cli_number_u64(&(struct cli_number){"record",
					"--snapshot-interval", 1, 86400000,
					"milliseconds, 1 to 86400000 (a day)"},
					optarg, &ms)))
				return r;
			o->rq.interval_ms = (unsigned)ms;
			break;
		}
		case O_EMU: o->rq.emulate = optarg; break;
		case O_SYSFS: o->rq.sysfs = optarg; break;
		case O_ETRACE: o->rq.emulate_trace = optarg; break;
		case O_ETSC: o->rq.emulate_tsc = true; break;
		case O_LOSSLESS: o->rq.emulate_lossless = true; break;
		case O_RATE:
			if ((r = cli_number_double(&(struct cli_number){"record",
					"--emulate-rate", 0, 0, "MB/s, more than 0 "
					"and at most 1000000"}, optarg, 0, 1e6,
					&o->rq.emulate_rate)))
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
	if (snap_arg) {
		/* -Se (perf's --snapshot=e): also snapshot at the end; a
		 * number is the snapshot size. */
		if (snap_arg[0] == 'e') {
			o->rq.snapshot_on_exit = true;
			snap_arg = snap_arg[1] == ',' ? snap_arg + 2 : snap_arg + 1;
		}
		if (*snap_arg &&
		    (r = cli_number_size(&(struct cli_number){"record", "-S",
				1, (uint64_t)CLI_MAX_RING_PAGES * 4096,
				"a size from 1 to 4G, the largest AUX area "
				"(e.g. -S64K, -Se,4M)"}, snap_arg,
				&o->rq.trace.snapshot_size)))
			return r;
	}
	o->argv = argv + optind;
	o->rq.argv = o->argv[0] ? o->argv : NULL;
	const struct hwt_trace_request *rq = &o->rq;
	struct hwt_record_combination comb = {
		.size = sizeof(comb), .snapshot = rq->trace.snapshot,
		.call_trigger = rq->call_trigger,
		.first_trigger = rq->ntriggers ? o->triggers[0] : NULL,
		.trigger_count = rq->trigger_count,
		.compress_level = rq->compress_level,
		.compress_aux = rq->compress_aux, .emulate = rq->emulate,
		.emulate_trace = rq->emulate_trace,
		.emulate_tsc = rq->emulate_tsc, .sysfs = rq->sysfs,
		.command = o->argv[0], .pid = rq->pid, .filter = rq->trace.filter,
		.all_cpus = rq->all_cpus, .cpus = rq->trace.cpus,
		.event = rq->trace.event, .profile = rq->trace.profile,
	};
	if (hwt_record_check_combination(&comb) < 0)
		return cli_usage_error("record", "%s", hwt_errmsg());
	return 0;
}
