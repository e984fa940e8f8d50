/* hwtrace record: capture a trace into a perf.data file. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "hwtrace/backend.h"
#include "hwtrace/config.h"
#include "hwtrace/addrfilter.h"
#include "hwtrace/auxaction.h"
#include "hwtrace/emulator.h"
#include "hwtrace/error.h"
#include "hwtrace/infile.h"
#include "hwtrace/perfdata.h"
#include "hwtrace/pmu.h"
#include "hwtrace/recorder.h"
#include "hwtrace/session.h"
#include "hwtrace/trigger.h"
#include "hwtrace/outfile.h"

/* The recorder the signal handlers reach; a signal before it exists is
 * kept and handed over when it does. */
static struct hwt_recorder *volatile active;
static volatile sig_atomic_t early_stop, early_snapshot;

static void on_stop(int sig)
{
	if (active)
		hwt_recorder_request_stop(active);
	else
		early_stop = 1;
}

static void on_snapshot(int sig)
{
	if (active)
		hwt_recorder_request_snapshot(active);
	else
		early_snapshot = 1;
}

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

struct opts {
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

static int parse(int argc, char **argv, struct opts *o)
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
	o->pid = -1;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+c:e:S::m:aC:p:o:z::h", longopts,
				NULL)) != -1) {
		switch (c) {
		case 'c': o->profile = optarg; break;
		case 'e':
			/* A second event is AUX sampling's sampling event. */
			if (cli_sample_event_name(optarg) && !o->sample_event)
				o->sample_event = optarg;
			else if (o->event)
				return cli_usage_error("record", "-e %s: one trace "
						       "event only (and, with "
						       "--aux-sample, one sampling "
						       "event such as cycles)", optarg);
			else
				o->event = optarg;
			break;
		case O_AUX_SAMPLE:
			o->aux_sample = true;
			o->aux_sample_size = optarg;
			break;
		case O_SINK: o->sink = optarg; break;
		case O_FILTER: o->filter = optarg; break;
		case 'S':
		case O_SNAP:
			o->snapshot = true;
			snap_arg = optarg;
			break;
		case 'm':
			if ((r = cli_parse_pages("record", "-m", optarg,
						 &o->data_pages, &o->aux_pages)))
				return r;
			break;
		case 'a': o->all_cpus = true; break;
		case 'C': o->cpus = optarg; break;
		case 'p': {
			uint64_t pid;
			if ((r = cli_number_u64(&(struct cli_number){"record", "-p",
					1, CLI_MAX_PID, "a process id, 1 to 4194304"},
					optarg, &pid)))
				return r;
			o->pid = (pid_t)pid;
			break;
		}
		case O_PT: o->per_thread = true; break;
		case 'o': o->output = optarg; break;
		case 'z': {
			char *end;
			long level = optarg ? strtol(optarg, &end, 10) : 1;

			if (optarg && (*end || end == optarg || level < 1 ||
				       level > 22))
				return cli_usage_error("record", "-z%s: the "
						       "compression level is a "
						       "number from 1 to 22",
						       optarg);
			o->compress_level = (int)level;
			break;
		}
		case O_COMPRESS_AUX: o->compress_aux = true; break;
		case O_KEEP_PARTIAL: o->keep_partial = true; break;
		case O_TRIGGER_COUNT:
			if ((r = cli_number_u64(&(struct cli_number){"record",
					"--trigger-count", 1, 1000000, "a number of "
					"snapshots, 1 to 1000000"}, optarg,
					&o->trigger_count)))
				return r;
			break;
		case O_TRIGGER:
			if (!hwt_aux_action_is_trigger(optarg) && !o->call_trigger) {
				uint64_t ns;
				int call = hwt_trigger_parse_call(optarg, o->call_func,
								  sizeof(o->call_func),
								  &o->call_latency, &ns);
				if (call < 0)
					return cli_usage_error("record", "%s",
							       hwt_errmsg());
				if (call > 0) {
					o->call_trigger = optarg;
					break;
				}
			}
			if (!hwt_aux_action_is_trigger(optarg))
				return cli_usage_error("record", "--trigger %s: a "
						       "trace PMU takes resume:FUNC "
						       "and pause:FUNC%%return (symbol:, "
						       "latency: and signal: are "
						       "-e sw_branch's)", optarg);
			if (o->ntriggers == HWT_SESSION_MAX_PROBES)
				return cli_usage_error("record", "--trigger %s: at "
						       "most %d resume:/pause: "
						       "triggers", optarg,
						       HWT_SESSION_MAX_PROBES);
			o->triggers[o->ntriggers++] = optarg;
			break;
		case O_CONTROL: o->control = optarg; break;
		case O_INTERVAL:
		{
			uint64_t ms;
			if ((r = cli_number_u64(&(struct cli_number){"record",
					"--snapshot-interval", 1, 86400000,
					"milliseconds, 1 to 86400000 (a day)"},
					optarg, &ms)))
				return r;
			o->interval_ms = (long)ms;
			break;
		}
		case O_EMU: o->emulate = optarg; break;
		case O_SYSFS: o->sysfs = optarg; break;
		case O_ETRACE: o->emulate_trace = optarg; break;
		case O_ETSC: o->emulate_tsc = true; break;
		case O_LOSSLESS: o->emulate_lossless = true; break;
		case O_RATE:
			if ((r = cli_number_double(&(struct cli_number){"record",
					"--emulate-rate", 0, 0, "MB/s, more than 0 "
					"and at most 1000000"}, optarg, 0, 1e6,
					&o->emulate_rate)))
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
			o->snapshot_on_exit = true;
			snap_arg = snap_arg[1] == ',' ? snap_arg + 2 : snap_arg + 1;
		}
		if (*snap_arg &&
		    (r = cli_number_size(&(struct cli_number){"record", "-S",
				1, (uint64_t)CLI_MAX_RING_PAGES * 4096,
				"a size from 1 to 4G, the largest AUX area "
				"(e.g. -S64K, -Se,4M)"}, snap_arg,
				&o->snapshot_size)))
			return r;
	}
	if (o->call_trigger && !o->snapshot)
		return cli_usage_error("record", "--trigger %s takes snapshots: "
				       "give -S (--snapshot)", o->call_trigger);
	if (o->ntriggers && o->call_trigger)
		return cli_usage_error("record", "--trigger %s and %s: a call "
				       "trigger or resume:/pause:, not both",
				       o->call_trigger, o->triggers[0]);
	if (o->trigger_count && !o->call_trigger)
		return cli_usage_error("record", "--trigger-count counts the "
				       "snapshots of a symbol: or latency: trigger");
	if (o->compress_aux && !o->compress_level)
		return cli_usage_error("record", "--compress-aux compresses "
				       "with -z: give -z[LEVEL] too");
	o->argv = argv + optind;
	if ((o->emulate_trace || o->emulate_tsc) && !o->sysfs)
		return cli_usage_error("record", "--emulate-trace and --emulate-tsc "
				       "need --sysfs DIR (the emulated machine)");
	if (o->sysfs && (o->emulate || o->argv[0] || o->pid > 0))
		return cli_usage_error("record", "--sysfs emulates a machine: it "
				       "takes no --emulate, command or -p");
	if (o->sysfs && (r = cli_path_check("record", "--sysfs", o->sysfs, true)))
		return r;
	if ((r = cli_filter_check("record", o->filter)))
		return r;
	if (!o->emulate && !o->sysfs && !o->argv[0] && !o->all_cpus && !o->cpus &&
	    o->pid < 0)
		return cli_usage_error("record", "nothing to trace: give -- CMD, "
				       "-p PID, -a or -C CPUS");
	if (o->emulate && o->filter)
		return cli_usage_error("record", "--emulate replays a capture's "
				       "trace as it was: it takes no --filter");
	if (o->emulate && o->argv[0])
		return cli_usage_error("record", "--emulate replays a capture and "
				       "runs no command");
	if (!o->emulate && !o->event && !o->profile)
		return cli_usage_error("record", "which trace? give -e BACKEND "
				       "(see `hwtrace list`) or -c PROFILE");
	return 0;
}

void cli_print_capture_stats(const struct hwt_capture_stats *rings, size_t n,
			     const struct hwt_emu_stats *const *trace,
			     const char *const *filters)
{
	fprintf(stderr, "hwtrace record: per %s:\n",
		n && rings[0].cpu < 0 ? "thread" : "CPU");
	for (size_t i = 0; i < n; i++) {
		const struct hwt_capture_stats *st = &rings[i];
		if (st->cpu >= 0)
			fprintf(stderr, "  cpu %d:", st->cpu);
		else
			fprintf(stderr, "  thread:");
		fprintf(stderr, " %" PRIu64 " bytes captured in %" PRIu64
			" chunks, %" PRIu64 " wakeups", st->aux_bytes, st->aux_chunks,
			st->wakeups);
		if (st->snapshots)
			fprintf(stderr, ", %" PRIu64 " snapshots (%" PRIu64 " wrapped)",
				st->snapshots, st->snapshot_wraps);
		fprintf(stderr, "\n    lost: %" PRIu64 " truncated (buffer full, "
			"%" PRIu64 " re-enabled), %" PRIu64 " collisions, %" PRIu64
			" partial, %" PRIu64 " records in %" PRIu64 " LOST events",
			st->truncated, st->reenables, st->collision, st->partial,
			st->lost_records, st->lost_events);
		if (trace && trace[i] && st->snapshots) {
			/* Snapshot mode overwrites by design: what the
			 * snapshots kept is the result, the rest was
			 * overwritten in the buffer, not lost. */
			uint64_t written = trace[i]->written;
			uint64_t kept = st->aux_bytes < written ? st->aux_bytes
								  : written;
			fprintf(stderr, "; of %" PRIu64 " trace bytes produced, %"
				PRIu64 " kept by the snapshots, %" PRIu64
				" overwritten before one, %" PRIu64 " dropped",
				trace[i]->produced, kept, written - kept,
				trace[i]->dropped);
		} else if (trace && trace[i]) {
			fprintf(stderr, ", %" PRIu64 " trace bytes dropped (of %" PRIu64
				" produced)", trace[i]->dropped, trace[i]->produced);
		}
		if (st->unmatched)
			fprintf(stderr, ", %" PRIu64 " AUX records unmatched",
				st->unmatched);
		fprintf(stderr, "\n");
		if (trace && trace[i] && trace[i]->capture_writes)
			/* The truncated count above holds both: the losses
			 * the capture replays and those of the replay. */
			fprintf(stderr, "    replay of %" PRIu64 " AUX records: the "
				"capture's losses %" PRIu64 " truncated, %" PRIu64
				" collisions, %" PRIu64 " partial; the replay's %"
				PRIu64 " truncated, %" PRIu64 " disabled with no "
				"room, %" PRIu64 " barrier packets inserted\n",
				trace[i]->capture_writes,
				trace[i]->capture_truncated,
				trace[i]->capture_collision,
				trace[i]->capture_partial, trace[i]->truncations,
				trace[i]->full_disables, trace[i]->barriers);
		if (filters && filters[i] && filters[i][0])
			fprintf(stderr, "    emulated kernel's address filters: %s\n",
				filters[i]);
	}
}

static void print_stats(struct hwt_session *s, struct hwt_emu *emu)
{
	size_t n = hwt_session_nr_rings(s), got = 0;
	struct hwt_capture_stats *rings = calloc(n ? n : 1, sizeof(*rings));
	struct hwt_emu_stats *trace = calloc(n ? n : 1, sizeof(*trace));
	char (*filter)[4096] = calloc(n ? n : 1, sizeof(*filter));
	const char **filters = calloc(n ? n : 1, sizeof(*filters));
	const struct hwt_emu_stats **traced = calloc(n ? n : 1, sizeof(*traced));

	if (!rings || !trace || !filter || !filters || !traced)
		goto out;
	for (size_t i = 0; i < n; i++) {
		if (hwt_session_stats(s, i, &rings[got]) < 0)
			continue;
		if (emu && hwt_emu_stream_stats(emu, rings[got].cpu,
						&trace[got]) == 0)
			traced[got] = &trace[got];
		if (emu && hwt_emu_event_filter(emu, rings[got].cpu, filter[got],
						sizeof(filter[got])) == 0)
			filters[got] = filter[got];
		got++;
	}
	cli_print_capture_stats(rings, got, traced, filters);
out:
	free(traced);
	free(rings);
	free(trace);
	free(filter);
	free(filters);
}

/* Keeps the capture's description of the machine it was recorded on and
 * of the binaries it traced, byte for byte: a replay describes the
 * original's machine (its cpuid picks the decoder's errata), and its build
 * ids make perf and hwtrace decode refuse binaries that are not the
 * traced ones. A feature the capture lacks stays out of the replay rather
 * than describing this machine. */
static int copy_features(const char *path, struct hwt_pd_writer *w)
{
	static const unsigned int feats[] = {
		HWT_PD_FEAT_BUILD_ID, HWT_PD_FEAT_HOSTNAME, HWT_PD_FEAT_OSRELEASE,
		HWT_PD_FEAT_VERSION, HWT_PD_FEAT_ARCH, HWT_PD_FEAT_NRCPUS,
		HWT_PD_FEAT_CPUDESC, HWT_PD_FEAT_CPUID, HWT_PD_FEAT_TOTAL_MEM,
		HWT_PD_FEAT_CPU_TOPOLOGY, HWT_PD_FEAT_NUMA_TOPOLOGY,
		HWT_PD_FEAT_PMU_MAPPINGS, HWT_PD_FEAT_CACHE,
		HWT_PD_FEAT_MEM_TOPOLOGY, HWT_PD_FEAT_CLOCKID,
		HWT_PD_FEAT_CPU_PMU_CAPS, HWT_PD_FEAT_CLOCK_DATA,
		HWT_PD_FEAT_HYBRID_TOPOLOGY, HWT_PD_FEAT_PMU_CAPS,
	};
	struct hwt_pd_reader *r;
	int err = hwt_pd_reader_open(path, &r);

	if (err < 0)
		return err;
	err = hwt_pd_writer_copy_features(w, r, feats, sizeof(feats) / sizeof(*feats));
	hwt_pd_reader_free(r);
	return err;
}

static int read_file(const char *path, uint8_t **data, size_t *len)
{
	FILE *f;
	uint8_t *buf = NULL;
	size_t n = 0, cap = 0;
	int err = hwt_infile_fopen(path, "--emulate-trace", 0, &f);

	if (err < 0)
		return err;
	for (;;) {
		size_t got;
		if (n == cap) {
			uint8_t *nb = realloc(buf, cap ? cap * 2 : 65536);
			if (!nb) {
				free(buf);
				fclose(f);
				return hwt_error(HWT_ERR_NOMEM, "%s: out of memory", path);
			}
			buf = nb;
			cap = cap ? cap * 2 : 65536;
		}
		got = fread(buf + n, 1, cap - n, f);
		n += got;
		if (got == 0)
			break;
	}
	fclose(f);
	*data = buf;
	*len = n;
	return 0;
}

/* Where record writes without -o: the profile's [session] output, as
 * `hwtrace config check` shows it, else perf.data. A replay (--emulate)
 * takes no profile. A profile that does not load is reported later,
 * where it is read for the capture. */
static const char *output_of_profile(const char *path, const char *emulate,
				     char *buf, size_t size)
{
	struct hwt_profile *p = NULL;
	const char *out = "perf.data";

	if (path && !emulate && hwt_profile_load(path, &p) == 0) {
		const char *v = hwt_profile_get(p, "session:output");
		if (v && *v) {
			snprintf(buf, size, "%s", v);
			out = buf;
		}
	}
	hwt_profile_free(p);
	hwt_error_clear();
	return out;
}

int cmd_record(int argc, char **argv)
{
	struct opts o;
	struct hwt_profile *profile = NULL;
	struct hwt_pmu_list *pmus = NULL;
	struct hwt_event_plan plan;
	struct hwt_emu *emu = NULL;
	struct hwt_emu_replay rp;
	struct hwt_aux_action_set actions;
	struct hwt_session_opts so;
	struct hwt_session *s = NULL;
	struct hwt_workload *wl = NULL;
	struct hwt_control *ctl = NULL;
	struct hwt_pd_writer *w = NULL;
	struct hwt_recorder *rec = NULL;
	struct hwt_writer_sink *wsink = NULL;
	uint8_t *trace = NULL;
	size_t trace_len = 0;
	int *cpus = NULL;
	size_t ncpus = 0;
	int ret, status = EXIT_RUNTIME, wstatus = 0;
	bool plan_built = false, recorded = false, wl_started = false;
	char filter[4096];

	/* sw_branch has no PMU: it steps the program itself. */
	if (cli_record_is_sw_branch(argc, argv))
		return cmd_record_sw_branch(argc, argv);
	/* Branch records are samples of the CPU's PMU, not a trace. */
	if (cli_record_is_branch(argc, argv))
		return cmd_record_branch(argc, argv);
	memset(&plan, 0, sizeof(plan));
	ret = parse(argc, argv, &o);
	if (ret)
		return ret < 0 ? EXIT_OK : ret;
	char profile_output[4096];
	if (!o.output)
		o.output = output_of_profile(o.profile, o.emulate, profile_output,
					     sizeof(profile_output));
	bool output_existed = access(o.output, F_OK) == 0;
	{
		const char *inputs[] = {o.emulate, o.emulate_trace, o.profile,
					o.argv[0]};
		if ((ret = cli_output_check("record", o.output, inputs, 4)))
			return ret;
	}
	memset(&so, 0, sizeof(so));
	so.size = sizeof(so);
	so.pid = -1;
	so.snapshot = o.snapshot;
	so.data_pages = o.data_pages;
	so.aux_pages = o.aux_pages;
	so.aux = true;

	if (o.emulate) {
		struct hwt_emu_opts eo = {
			.size = sizeof(eo),
			.rate = (uint64_t)(o.emulate_rate * 1e6),
			.paced = o.emulate_lossless,
		};
		if ((ret = hwt_emu_new(&eo, &emu)) < 0 ||
		    (ret = hwt_emu_load_capture(emu, o.emulate)) < 0 ||
		    (ret = hwt_emu_replay_info(emu, &rp)) < 0)
			goto fail;
		so.os = hwt_emu_os(emu);
		so.aux_attr = *rp.aux_attr;
		so.aux_attr.enable_on_exec = 0;
		so.aux_attr_as_is = true;
		so.snapshot_size = o.snapshot_size;
		so.backend = hwt_backend_for_auxtrace(
			(enum hwt_auxtrace_type)((const uint32_t *)rp.auxtrace_info)[2]);
		/* Record-aligned hardware (intel_bts) wraps at its last
		 * whole record in snapshot mode. */
		if (so.backend && so.backend->record)
			hwt_emu_set_aux_alignment(emu, so.backend->record->alignment);
		if (rp.ncpus == 1 && rp.cpus[0] == -1) {
			so.per_thread = true;
			so.pid = getpid();
		} else {
			so.cpus = rp.cpus;
			so.ncpus = rp.ncpus;
			/* A capture of one task replays as one: its buffers
			 * keep naming it. */
			int32_t task;
			if ((ret = hwt_pd_aux_task(o.emulate, &task)) < 0)
				goto fail;
			so.pid = task;
		}
		if ((o.aux_sample || o.sample_event) &&
		    (ret = cli_sample_replay(o.sample_event, o.aux_sample,
					     o.aux_sample_size, rp.aux_attr,
					     so.backend && so.backend->auxtrace_type ==
						     HWT_AUXTRACE_INTEL_PT, &so)) < 0)
			goto fail;
	} else {
		const struct hwt_os *os = hwt_os_linux();
		if (o.sysfs) {
			struct hwt_emu_opts eo = {
				.size = sizeof(eo),
				.sysfs_root = o.sysfs,
				.rate = (uint64_t)(o.emulate_rate * 1e6),
				.paced = o.emulate_lossless,
			};
			if ((ret = hwt_emu_new(&eo, &emu)) < 0)
				goto fail;
			/* Without a TSC by default: perf 6.1 decodes the
			 * emulated machine's captures only without timing. */
			hwt_emu_set_time_conv(emu, o.emulate_tsc);
			os = hwt_emu_os(emu);
			if (o.emulate_trace &&
			    (ret = read_file(o.emulate_trace, &trace, &trace_len)) < 0)
				goto fail;
		}
		ret = o.profile ? hwt_profile_load(o.profile, &profile) :
				  ((profile = hwt_profile_new()) ? 0 : HWT_ERR_NOMEM);
		if (!ret && o.event)
			ret = hwt_profile_parse_event(profile, o.event);
		if (!ret && o.sink) {
			char key[96];
			const char *be = hwt_profile_get(profile, "session:backend");
			snprintf(key, sizeof(key), "%s:sink", be ? be : "cs_etm");
			ret = hwt_profile_set_from(profile, key, o.sink, "--sink");
		}
		if (!ret && o.filter) {
			char key[96];
			const char *be = hwt_profile_get(profile, "session:backend");
			snprintf(key, sizeof(key), "%s:filter", be ? be : "intel_pt");
			ret = hwt_profile_set_from(profile, key, o.filter, "--filter");
		}
		if (!ret && o.snapshot)
			ret = hwt_profile_set_from(profile, "session:mode", "snapshot",
						   "-S");
		if (!ret && o.snapshot && o.snapshot_size) {
			char v[32];
			snprintf(v, sizeof(v), "%llu", (unsigned long long)o.snapshot_size);
			ret = hwt_profile_set_from(profile, "snapshot:size", v, "-S");
		}
		if (!ret && (o.aux_sample || o.sample_event))
			ret = cli_sample_profile(profile, o.sample_event, o.aux_sample,
						 o.aux_sample_size);
		if (!ret && o.cpus)
			ret = hwt_profile_set_from(profile, "session:cpus", o.cpus, "-C");
		if (!ret && o.per_thread)
			ret = hwt_profile_set_from(profile, "session:per_thread", "1",
						   "--per-thread");
		if (!ret)
			ret = hwt_pmu_scan(os, &pmus);
		if (!ret)
			ret = hwt_profile_build_attrs(profile, os, pmus, &plan);
		if (ret < 0)
			goto fail;
		plan_built = true;
		/* Symbols without @ FILE are the command's. */
		if ((ret = hwt_addr_filter_resolve(plan.filter, o.argv[0], filter,
						   sizeof(filter), NULL)) < 0)
			goto fail;
		so.aux_filter = filter;
		so.os = os;
		if (plan.mode == HWT_MODE_SAMPLE &&
		    (ret = cli_sample_session(profile, &plan, &so)) < 0)
			goto fail;
		so.aux_attr = plan.aux_attr;
		so.backend = plan.backend;
		so.sideband = true;
		so.sideband_attr = &plan.sideband_attr;
		so.snapshot_size = plan.snapshot_size;
		so.per_thread = plan.per_thread || o.per_thread;
		if (!so.data_pages)
			so.data_pages = (uint32_t)plan.data_pages;
		if (!so.aux_pages)
			so.aux_pages = (uint32_t)plan.aux_pages;
		if (plan.ncpus) {
			so.cpus = plan.cpus;
			so.ncpus = (int)plan.ncpus;
		} else if (!so.per_thread) {
			long n = sysconf(_SC_NPROCESSORS_ONLN);
			cpus = calloc((size_t)n, sizeof(int));
			for (long i = 0; cpus && i < n; i++)
				cpus[ncpus++] = (int)i;
			so.cpus = cpus;
			so.ncpus = (int)ncpus;
		}
		if (o.argv[0]) {
			if ((ret = hwt_workload_new(o.argv, &wl)) < 0)
				goto fail;
			/* With -a or -C the command only sets how long every
			 * task is traced, as in perf record -a. */
			if (!o.all_cpus && !o.cpus) {
				so.pid = hwt_workload_pid(wl);
				so.enable_on_exec = true;
			}
		} else if (o.pid > 0) {
			so.pid = o.pid;
		}
		if (emu) {
			/* Intel PT's driver reports aux_head inside the buffer
			 * in snapshot mode; the others let it run free. */
			hwt_emu_set_head_in_buffer(emu, plan.backend &&
					plan.backend->auxtrace_type ==
						HWT_AUXTRACE_INTEL_PT);
			/* Record-aligned hardware (intel_bts) wraps at its
			 * last whole record. */
			if (plan.backend && plan.backend->record)
				hwt_emu_set_aux_alignment(
					emu, plan.backend->record->alignment);
			/* Every traced CPU's trace unit writes the same bytes. */
			if (so.per_thread)
				so.pid = getpid();
			for (int i = 0; trace_len && i < (so.per_thread ? 1 : so.ncpus) &&
					ret >= 0; i++)
				ret = hwt_emu_stream_aux(emu, so.per_thread ? -1 : so.cpus[i],
							 trace, trace_len, 1);
			if (ret < 0)
				goto fail;
		}
	}
	/* resume:/pause: triggers: uprobes in the AUX event's group. */
	ret = 0;
	if (o.ntriggers)
		ret = hwt_aux_action_setup(&actions, o.triggers, o.ntriggers,
					   o.argv[0], so.os, &so);
	else if (o.call_trigger)
		ret = hwt_aux_action_call_probes(&actions, o.call_func,
						 o.call_latency, o.argv[0], so.os,
						 &so);
	if (ret)
		goto fail;
	/* From the moment the file exists, a signal ends the capture with a
	 * complete file (at once, when it comes before the first read). */
	signal(SIGINT, on_stop);
	signal(SIGTERM, on_stop);
	signal(SIGHUP, on_stop);
	if ((ret = hwt_pd_writer_open(o.output, &w)) < 0)
		goto fail;
	hwt_pd_writer_keep_partial(w, o.keep_partial);
	if (o.compress_level &&
	    (ret = hwt_pd_writer_set_compression(w, o.compress_level,
						 o.compress_aux ? HWT_PD_COMPRESS_AUX
								: 0)) < 0)
		goto fail;
	{
		/* perf's cmdline feature: the arguments joined by NULs. */
		size_t len = 0;
		char *cmdline;
		for (int i = 0; i < argc; i++)
			len += strlen(argv[i]) + 1;
		cmdline = malloc(len + 8);
		if (cmdline) {
			size_t at = (size_t)sprintf(cmdline, "hwtrace") + 1;
			for (int i = 0; i < argc; i++)
				at += (size_t)sprintf(cmdline + at, "%s", argv[i]) + 1;
			hwt_pd_writer_set_feature(w, HWT_PD_FEAT_CMDLINE, cmdline, at);
			free(cmdline);
		}
	}
	if ((ret = hwt_writer_sink_new(w, false, &wsink)) < 0)
		goto fail;
	so.sink = hwt_writer_sink_get(wsink);
	if ((ret = hwt_session_new(&so, &s)) < 0 || (ret = hwt_session_open(s)) < 0)
		goto fail;
	{
		struct hwt_recorder_opts ro = {
			.size = sizeof(ro),
			.snapshot = o.snapshot,
			.snapshot_on_exit = o.snapshot_on_exit,
			.interval_ms = (unsigned)o.interval_ms,
			.trigger = o.call_trigger,
			.trigger_count = o.trigger_count,
		};
		if ((ret = hwt_recorder_new(&ro, s, w, &rec)) < 0)
			goto fail;
		active = rec;
		if (early_stop)
			hwt_recorder_request_stop(rec);
		if (early_snapshot)
			hwt_recorder_request_snapshot(rec);
	}

	/* Attributes, then the decoder's metadata, then data. */
	if (o.emulate) {
		/* The capture's events, ids and layouts, unchanged: its
		 * sideband records are replayed as they were. */
		for (size_t i = 0; i < rp.nattrs && ret >= 0; i++) {
			struct perf_event_attr a = rp.attrs[i];
			/* Whether the replay started paused. */
			if (&rp.attrs[i] == rp.aux_attr)
				hwt_attr_set_aux_action(&a, hwt_attr_aux_action(&so.aux_attr));
			ret = hwt_pd_writer_add_attr(w, &a, rp.ids[i], rp.nids[i],
						     rp.names[i]);
		}
		/* AUX sampling's event, then the pause/resume probes. */
		for (size_t i = 1; i < 1 + so.aux_sample + so.nprobes && ret >= 0; i++) {
			const struct perf_event_attr *a;
			const uint64_t *ids;
			size_t nids;
			const char *name;
			if (hwt_session_attr(s, i, &a, &ids, &nids, &name) < 0)
				break;
			ret = hwt_pd_writer_add_attr(w, a, ids, nids, name);
		}
		if (ret >= 0)
			ret = hwt_pd_writer_record(w, rp.auxtrace_info);
		if (ret >= 0 && rp.time_conv)
			ret = hwt_pd_writer_record(w, rp.time_conv);
		if (ret >= 0)
			ret = copy_features(o.emulate, w);
	} else {
		ret = hwt_recorder_write_header(rec, plan.backend, plan.pmu, &so);
	}
	if (ret < 0)
		goto fail;
	if (o.control && (ret = hwt_control_open(o.control, &ctl)) < 0)
		goto fail;

	signal(SIGUSR2, on_snapshot);
	if (wl && (ret = hwt_workload_start(wl)) < 0)
		goto fail;
	wl_started = wl != NULL;
	if ((ret = hwt_recorder_run(rec, ctl, wl, &wstatus)) < 0)
		goto fail;
	if ((ret = hwt_session_stop(s)) < 0)
		goto fail;
	print_stats(s, emu);
	if (o.call_trigger) {
		struct hwt_recorder_trigger_stats ts;
		hwt_recorder_trigger_stats(rec, &ts);
		fprintf(stderr, "hwtrace record: trigger %s: %" PRIu64 " entries, "
			"%" PRIu64 " calls returned, %" PRIu64 " fired, in %" PRIu64
			" windows\n", o.call_trigger, ts.entries, ts.calls, ts.fired,
			ts.windows);
	}
	if (o.compress_level) {
		uint64_t zin, zout;

		/* Flushed first so that the numbers count every record. */
		hwt_pd_writer_flush(w);
		hwt_pd_writer_compression_stats(w, &zin, &zout);
		fprintf(stderr, "hwtrace record: compressed %" PRIu64 " bytes of "
			"%s to %" PRIu64 " (ratio %.3f)\n", zin,
			o.compress_aux ? "records and trace" : "records", zout,
			zout ? (double)zin / (double)zout : 0.0);
	}
	recorded = hwt_pd_writer_data_size(w) > 0;
	ret = hwt_pd_writer_close(w);
	w = NULL;
	if (ret < 0)
		goto fail;
	fprintf(stderr, "hwtrace record: wrote %s\n", o.output);
	status = EXIT_OK;
	goto out;
fail:
	/* A full disk ends the capture where it is: the writer keeps it,
	 * marked as cut short, or keeps the file that was there. */
	if (ret == HWT_ERR_NOSPC && w) {
		recorded = hwt_pd_writer_data_size(w) > 0;
		ret = hwt_pd_writer_close(w);
		w = NULL;
	}
	status = cli_report_status(ret);
	if (ret == HWT_ERR_NOSPC && recorded && output_existed &&
	    !o.keep_partial)
		fprintf(stderr, "hwtrace record: --keep-partial replaces %s with "
			"the part recorded (marked as cut short) when the disk "
			"fills up\n", o.output);
out:
	hwt_pd_writer_discard(w);
	active = NULL;
	hwt_recorder_free(rec);
	hwt_session_free(s);
	hwt_control_free(ctl);
	if (wl_started && hwt_workload_poll(wl, &wstatus) == 0)
		fprintf(stderr, "hwtrace record: the command is still running: "
			"it gets SIGTERM, and SIGKILL if it has not ended %d ms "
			"later\n", HWT_TERM_GRACE_MS);
	hwt_workload_free(wl);
	hwt_emu_free(emu);
	if (plan_built)
		hwt_event_plan_release(&plan);
	hwt_pmu_list_free(pmus);
	hwt_profile_free(profile);
	free(cpus);
	hwt_writer_sink_free(wsink);
	free(trace);
	return status;
}
