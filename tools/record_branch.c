/* hwtrace record -b / -j FILTERS: branch records (Intel LBR and Arch LBR,
 * AMD BRS and LBRv2, Arm BRBE) sampled through the capture engine, into
 * the file `perf record -b` writes. Two machines: this one's kernel, for
 * a command (`-- CMD`), or the kernel emulator's, whose PMU is a sysfs
 * tree's (--sysfs DIR) and whose program is the branches of a sw_branch
 * capture (--emulate-branches FILE), sampled as the hardware would. */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "hwtrace/brstack.h"
#include "hwtrace/emulator.h"
#include "hwtrace/error.h"
#include "hwtrace/perfdata.h"
#include "hwtrace/recorder.h"
#include "hwtrace/session.h"

bool cli_record_is_branch(int argc, char **argv)
{
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "-b") || !strncmp(argv[i], "-j", 2) ||
		    !strcmp(argv[i], "--branch-any") ||
		    !strncmp(argv[i], "--branch-filter", 15) ||
		    !strncmp(argv[i], "--emulate-branches", 18))
			return true;
	return false;
}

static void usage(FILE *out)
{
	fprintf(out,
		"usage: hwtrace record (-b | -j FILTERS) [-c PERIOD | -F FREQ]\n"
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
		"  -c, --count PERIOD    a sample every PERIOD events (a number; any\n"
		"                        other -c argument is a PROFILE, as in record)\n"
		"  -F, --freq FREQ       FREQ samples a second (default 4000, perf's)\n"
		"      --config PROFILE  INI profile; its [branch] section has filter,\n"
		"                        period, freq (the options above override it)\n"
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

struct opts {
	const char *filter, *profile, *sysfs, *truth, *output;
	char **argv; /* the command, or NULL on the emulator */
	uint64_t period, freq;
	uint32_t data_pages;
	bool any;
};

static bool all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

static int parse(int argc, char **argv, struct opts *o)
{
	enum { O_CONFIG = 256, O_SYSFS, O_TRUTH };
	static const struct option longopts[] = {
		{"branch-any", no_argument, NULL, 'b'},
		{"branch-filter", required_argument, NULL, 'j'},
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
	memset(o, 0, sizeof(*o));
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+bj:c:F:m:o:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'b': o->any = true; break;
		case 'j':
			if (o->filter)
				return cli_usage_error("record", "-j %s: one -j only "
						       "(its filters comma-separated)",
						       optarg);
			o->filter = optarg;
			break;
		case 'c':
			if (!all_digits(optarg)) {
				o->profile = optarg;
				break;
			}
			if ((r = cli_number_u64(&(struct cli_number){"record", "-c",
					1, UINT64_MAX >> 1, "a period: the events "
					"between two samples, 1 or more"},
					optarg, &o->period)))
				return r;
			break;
		case 'F':
			if ((r = cli_number_u64(&(struct cli_number){"record", "-F",
					1, 1000000000, "samples a second, 1 to "
					"1000000000"}, optarg, &o->freq)))
				return r;
			break;
		case O_CONFIG: o->profile = optarg; break;
		case 'm': {
			uint32_t aux;
			if ((r = cli_parse_pages("record", "-m", optarg,
						 &o->data_pages, &aux)))
				return r;
			break;
		}
		case O_SYSFS: o->sysfs = optarg; break;
		case O_TRUTH: o->truth = optarg; break;
		case 'o': o->output = optarg; break;
		case 'h':
			usage(stdout);
			return -1;
		default:
			return cli_usage_error("record", "unknown option '%s' (branch "
					       "records: hwtrace record -b --help)",
					       argv[optind - 1]);
		}
	}
	if (o->any && o->filter)
		return cli_usage_error("record", "-b is -j any: give one of -b "
				       "and -j %s", o->filter);
	if (o->period && o->freq)
		return cli_usage_error("record", "-c %" PRIu64 " and -F %" PRIu64
				       ": a period or a frequency, not both",
				       o->period, o->freq);
	if (argv[optind] && !strcmp(argv[optind], "--"))
		optind++;
	o->argv = argv[optind] ? argv + optind : NULL;
	if (o->argv && (o->sysfs || o->truth))
		return cli_usage_error("record", "--sysfs and --emulate-branches "
				       "record the emulator's program: no command");
	if (!o->argv && (!o->sysfs || !o->truth))
		return cli_usage_error("record", "what to sample? give -- CMD, or "
				       "--sysfs DIR (the emulated machine) and "
				       "--emulate-branches FILE (a sw_branch "
				       "capture of its program)");
	if (o->sysfs && (r = cli_path_check("record", "--sysfs", o->sysfs, true)))
		return r;
	if (!o->output)
		o->output = "perf.data";
	return 0;
}

/* What is sampled where: the OS seam, the event and its hardware, and
 * either the emulator (fed from the capture) or the command. */
struct machine {
	struct hwt_emu *emu;
	struct hwt_workload *wl;
	const struct hwt_os *os;
	struct hwt_branch_hw hw;
	int *cpus;
	int ncpus;
};

static int machine_open(const struct opts *o, struct machine *m)
{
	int ret;
	if (o->truth) {
		struct hwt_emu_opts eo = {.size = sizeof(eo), .sysfs_root = o->sysfs,
					  .paced = true};
		if ((ret = hwt_emu_new(&eo, &m->emu)) < 0)
			return ret;
		m->os = hwt_emu_os(m->emu);
	} else {
		m->os = hwt_os_linux();
	}
	if ((ret = hwt_branch_hw_probe(m->os, &m->hw)) == HWT_ERR_NOENT)
		memset(&m->hw, 0, sizeof(m->hw));
	else if (ret < 0)
		return ret;
	return 0;
}

static void machine_close(struct machine *m)
{
	hwt_workload_free(m->wl);
	hwt_emu_free(m->emu);
	free(m->cpus);
}

/* The session's events: the emulator's one per-thread event, or one per
 * online CPU following the command (and its children), which starts
 * with its exec, the sideband event beside it. */
static int session_setup(const struct opts *o, struct machine *m,
			 struct hwt_session_opts *so)
{
	so->os = m->os;
	so->branch = true;
	so->data_pages = o->data_pages;
	if (m->emu) {
		so->branch_name = "branches";
		so->per_thread = true;
		so->pid = getpid();
		return 0;
	}
	so->branch_name = "cycles";
	so->branch_attr.inherit = 1;
	int ret = hwt_online_cpus(&m->cpus);
	if (ret < 0)
		return ret;
	m->ncpus = ret;
	so->cpus = m->cpus;
	so->ncpus = m->ncpus;
	ret = hwt_workload_new(o->argv, &m->wl);
	if (ret < 0)
		return ret;
	so->pid = hwt_workload_pid(m->wl);
	so->enable_on_exec = true;
	so->sideband = true;
	return 0;
}

int cmd_record_branch(int argc, char **argv)
{
	struct opts o;
	int ret = parse(argc, argv, &o);
	if (ret)
		return ret < 0 ? EXIT_OK : ret;
	{
		const char *inputs[] = {o.truth, o.profile, o.argv ? o.argv[0] : NULL};
		if ((ret = cli_output_check("record", o.output, inputs, 3)))
			return ret;
	}
	struct hwt_branch_sampling bs;
	struct machine m;
	struct hwt_pd_writer *w = NULL;
	struct hwt_writer_sink *wsink = NULL;
	struct hwt_session *s = NULL;
	struct hwt_recorder *rec = NULL;
	struct hwt_session_opts so;
	int wstatus = 0;
	memset(&m, 0, sizeof(m));
	memset(&so, 0, sizeof(so));
	so.size = sizeof(so);
	if ((ret = hwt_branch_sampling_of(o.profile, o.any, o.filter, o.period,
					  o.freq, &bs)) < 0 ||
	    (ret = machine_open(&o, &m)) < 0)
		goto out;
	/* Real hardware counts cycles, as perf record -b; the emulator
	 * counts the taken branches of its ground truth. */
	if (!m.emu)
		bs.config = PERF_COUNT_HW_CPU_CYCLES;
	if ((ret = hwt_branch_attr_build(&bs, &m.hw, m.emu ? "branches" : "cycles",
					 &so.branch_attr)) < 0)
		goto out;
	if (m.emu && (bs.mode & ~(uint64_t)HWT_EMU_BRANCH_FILTERS)) {
		ret = hwt_error(HWT_ERR_CONFIG, "-j: the emulator records any, "
				"any_call, call, ind_call, any_ret, cond and "
				"ind_jmp (with u, k, hv, save_type, priv, "
				"hw_index, counter): its ground truth has no "
				"transactions");
		goto out;
	}
	if ((ret = session_setup(&o, &m, &so)) < 0 ||
	    (ret = hwt_pd_writer_open(o.output, &w)) < 0 ||
	    (m.emu && (ret = hwt_record_branch_truth(o.truth, m.emu, w)) < 0) ||
	    (!m.emu && (ret = hwt_pd_writer_set_nr_cpus(w, (uint32_t)m.ncpus,
							(uint32_t)m.ncpus)) < 0) ||
	    (ret = hwt_writer_sink_new(w, false, &wsink)) < 0)
		goto out;
	so.sink = hwt_writer_sink_get(wsink);
	if ((ret = hwt_session_new(&so, &s)) < 0 || (ret = hwt_session_open(s)) < 0)
		goto out;
	struct hwt_recorder_opts ro = {.size = sizeof(ro)};
	if ((ret = hwt_recorder_add_session_attrs(w, s, 0, SIZE_MAX)) < 0 ||
	    (ret = hwt_recorder_new(&ro, s, w, &rec)) < 0 ||
	    (m.wl && (ret = hwt_workload_start(m.wl)) < 0) ||
	    (ret = hwt_recorder_run(rec, NULL, m.wl, &wstatus)) < 0 ||
	    (ret = hwt_session_stop(s)) < 0)
		goto out;
	struct hwt_emu_branch_stats st;
	if (m.emu && hwt_emu_branch_stats(m.emu, &st) == 0)
		fprintf(stderr, "hwtrace record: %" PRIu64 " samples of %s's "
			"%u-record branch stacks (%s), %" PRIu64 " records lost\n",
			st.samples, m.hw.pmu, m.hw.depth, hwt_branch_hw_name(m.hw.kind),
			st.lost);
	ret = hwt_pd_writer_close(w);
	w = NULL;
	if (ret >= 0)
		fprintf(stderr, "hwtrace record: wrote %s\n", o.output);
out:
	hwt_pd_writer_discard(w);
	hwt_recorder_free(rec);
	hwt_session_free(s);
	machine_close(&m);
	hwt_writer_sink_free(wsink);
	return ret < 0 ? cli_report_status(ret) : EXIT_OK;
}
