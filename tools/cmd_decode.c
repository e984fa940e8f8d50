/* hwtrace decode */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "decode_counts.h"
#include "decode_lanes.h"
#include "decode_script.h"
#include "decode_symbols.h"
#include "hwtrace/calls.h"
#include "decode_jsonl.h"
#include "decode_progress.h"
#include "hwtrace/decode.h"
#include "hwtrace/edges.h"
#include "hwtrace/partial.h"
#include "hwtrace/error.h"
#include "hwtrace/filter.h"
#include "hwtrace/merge.h"
#include "hwtrace/outfile.h"
#include "hwtrace/output.h"
#include "merge_piped.h"
#include "stack_run.h"
#include "thread_names.h"
#include "unit_run.h"

static void usage(FILE *out)
{
	fprintf(out,
		"usage: hwtrace decode FILE [options]\n"
		"       hwtrace decode --raw BACKEND[,OPTS]:TRACE --map FILE@ADDR... | --elf FILE... [options]\n"
		"       hwtrace decode --snapshot DIR [options]\n\n"
		"Decodes a perf.data capture (FILE - reads one in pipe mode), a raw trace\n"
		"stream or an OpenCSD snapshot directory into ranges, branches, gaps and\n"
		"errors. See docs/decode.md.\n\n"
		"  --format text|jsonl     output format (default text)\n"
		"  -o FILE                 write to FILE instead of standard output\n"
		"  -q, --quiet             no progress line on the terminal\n"
		"  --packets               list the packet layer instead of decoding\n"
		"  --disasm                one range per instruction, with its text\n"
		"  -F, --fields LIST       a line per branch with perf script's fields\n"
		"                          (comm,tid,pid,cpu,time,flags,ip,sym,symoff,\n"
		"                          dso,addr,insn,srcline), as perf script\n"
		"                          --itrace=b -F LIST prints them\n"
		"  --comm NAME,...         only the trace of threads of these names\n"
		"  --dso NAME,...          only code in these binaries (path or file\n"
		"                          name), as perf script's --dsos\n"
		"  --sym NAME,...          only code in these functions (--symbols)\n"
		"  --calls                 one line per call and return, indented by\n"
		"                          depth (the rebuilt call stacks)\n"
		"  --per-cpu               each CPU's (or thread's) elements together,\n"
		"                          in file order, instead of merged by time\n"
		"  --branch-profile        print FROM->TO COUNT of every branch and\n"
		"                          AUX sample branch stack instead of elements\n"
		"                          (FILE+0xOFFSET where the binary is known;\n"
		"                          also --profile; see docs/aux-sampling.md)\n"
		"  --virtual-lbr N         each AUX sample as an LBR sample: the newest\n"
		"                          N (1 to 1024) taken branches of its window as\n"
		"                          its branch records (docs/aux-sampling.md)\n"
		"  --edges                 print FROM->TO COUNT of every distinct\n"
		"                          taken branch instead of elements (coverage)\n"
		"  --edges-bitmap SIZE     with --edges: write an AFL-style bitmap of\n"
		"                          SIZE bytes (a power of two) instead\n"
		"  --partial               with --edges: write a partial result for\n"
		"                          hwtrace merge (docs/scale-out.md)\n"
		"  --unit N                with --edges --partial: only unit N of the\n"
		"                          capture (hwtrace units lists them)\n"
		"  --tid N                 only elements of thread N\n"
		"  --cpu N                 only elements of CPU N\n"
		"  --cpu F/M[/S]           (with a slash) the traced CPU, as --cpu-model\n"
		"  --cpu-model F/M[/S]     the traced CPU's family/model/stepping (errata)\n"
		"  --time START,END        only elements in this perf time range\n"
		"                          (ns, or seconds with a '.'; either end may be empty)\n"
		"  --map FILE@ADDR         raw input: FILE's bytes are the code at ADDR\n"
		"  --elf FILE[@BIAS]       raw input: FILE's ELF load segments are the\n"
		"                          code, at their addresses (plus BIAS)\n"
		"  --symfs DIR             look for the traced binaries under DIR\n"
		"  --buildid-dir DIR       a ~/.debug-style build-id cache\n"
		"  --vmlinux FILE          the kernel image for [kernel.kallsyms]\n"
		"  --kcore DIR             a directory holding kcore and kallsyms\n"
		DECODE_SYMBOL_USAGE
		"  -j, --jobs N            decode with N threads (1 to 256; default:\n"
		"                          the online CPUs); the output is the same\n"
		"  --ignore-build-ids      use a found binary even when its build id\n"
		"                          or ELF machine is not the capture's\n"
		"  --isolate               run every backend's decoder in sandboxed\n"
		"                          worker processes (cs_etm's always is)\n"
		"  --no-isolate            decode in this process, OpenCSD too\n"
		"  --isolate-timeout SEC   stop an isolated decoder that is silent\n"
		"                          this long (default 30)\n"
		"  -h, --help              this text\n\n"
		"Gaps (lost or undecodable trace) are always shown, and counted on\n"
		"standard error at the end. Exit status: 0 decoded, 1 failed, 2 usage.\n");
}

static void print_counts(const struct counts *c)
{
	fprintf(stderr,
		"hwtrace decode: %" PRIu64 " ranges (%" PRIu64 " instructions), %"
		PRIu64 " branches", c->ranges, c->insns, c->branches);
	if (c->branches_no_from)
		fprintf(stderr, " (%" PRIu64 " without their source, read "
			"from the packets where the code was missing)",
			c->branches_no_from);
	fprintf(stderr, ", %" PRIu64 " errors, %" PRIu64 " gaps", c->errors,
		c->gaps);
	if (c->gaps) {
		const char *sep = " (";
		for (int r = 0; r <= HWT_GAP_NO_IMAGE; r++) {
			if (!c->gap_by[r])
				continue;
			fprintf(stderr, "%s%" PRIu64 " %s", sep, c->gap_by[r],
				hwt_gap_reason_name((enum hwt_gap_reason)r));
			sep = ", ";
		}
		fprintf(stderr, "; %" PRIu64 " bytes of trace skipped)",
			c->gap_bytes);
	}
	if (c->samples)
		fprintf(stderr, "; %" PRIu64 " AUX samples (%" PRIu64 " branches; %"
			PRIu64 " without a sync point)", c->samples,
			c->sample_branches, c->samples_nosync);
	fputc('\n', stderr);
}

static int parse_u64(const char *s, uint64_t *out)
{
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 0);
	if (end == s || *end || errno || *s == '-')
		return -1;
	*out = v;
	return 0;
}

/* A perf time: ns, or seconds with a fraction ("641256.038"). */
static int parse_time(const char *s, size_t len, uint64_t *out)
{
	char buf[64];
	if (len >= sizeof(buf))
		return -1;
	memcpy(buf, s, len);
	buf[len] = 0;
	char *dot = strchr(buf, '.');
	if (!dot)
		return parse_u64(buf, out);
	*dot = 0;
	uint64_t sec = 0, frac = 0;
	size_t digits = strlen(dot + 1);
	if ((buf[0] && parse_u64(buf, &sec)) || digits > 9 ||
	    (digits && parse_u64(dot + 1, &frac)))
		return -1;
	for (size_t i = digits; i < 9; i++)
		frac *= 10;
	*out = sec * 1000000000ull + frac;
	return 0;
}

int cli_parse_time_range(const char *s, struct hwt_decode_opts *o)
{
	const char *comma = strchr(s, ',');
	if (!comma)
		return -1;
	o->time_start = 0;
	o->time_end = UINT64_MAX;
	if (comma > s && parse_time(s, (size_t)(comma - s), &o->time_start))
		return -1;
	if (comma[1] && parse_time(comma + 1, strlen(comma + 1), &o->time_end))
		return -1;
	o->filter_time = true;
	return o->time_start <= o->time_end ? 0 : -1;
}

/* Binaries refused (or used anyway) for not being the traced ones. */
static void warn_stderr(void *arg, const char *message)
{
	(void)arg;
	cli_message("hwtrace decode: ", message);
}

enum {
	OPT_FORMAT = 256, OPT_PACKETS, OPT_DISASM, OPT_TID, OPT_CPU,
	OPT_CPU_MODEL, OPT_TIME, OPT_MAP, OPT_ELF, OPT_SYMFS, OPT_BUILDID_DIR,
	OPT_VMLINUX, OPT_KCORE, OPT_RAW, OPT_SNAPSHOT, OPT_BRANCH_PROFILE,
	OPT_CALLS, OPT_PER_CPU, OPT_IGNORE_BUILD_IDS, OPT_QUIET, OPT_EDGES,
	OPT_EDGES_BITMAP, OPT_COMM, OPT_DSO, OPT_SYM, OPT_PARTIAL, OPT_UNIT,
	OPT_ISOLATE, OPT_NO_ISOLATE, OPT_ISOLATE_TIMEOUT, OPT_VIRTUAL_LBR,
};

static const struct option long_opts[] = {
	{"format", required_argument, NULL, OPT_FORMAT},
	{"packets", no_argument, NULL, OPT_PACKETS},
	{"disasm", no_argument, NULL, OPT_DISASM},
	{"calls", no_argument, NULL, OPT_CALLS},
	{"fields", required_argument, NULL, 'F'},
	{"comm", required_argument, NULL, OPT_COMM},
	{"dso", required_argument, NULL, OPT_DSO},
	{"sym", required_argument, NULL, OPT_SYM},
	{"per-cpu", no_argument, NULL, OPT_PER_CPU},
	{"branch-profile", no_argument, NULL, OPT_BRANCH_PROFILE},
	{"virtual-lbr", required_argument, NULL, OPT_VIRTUAL_LBR},
	{"profile", no_argument, NULL, OPT_BRANCH_PROFILE},
	{"edges", no_argument, NULL, OPT_EDGES},
	{"edges-bitmap", required_argument, NULL, OPT_EDGES_BITMAP},
	{"partial", no_argument, NULL, OPT_PARTIAL},
	{"unit", required_argument, NULL, OPT_UNIT},
	{"tid", required_argument, NULL, OPT_TID},
	{"cpu", required_argument, NULL, OPT_CPU},
	{"cpu-model", required_argument, NULL, OPT_CPU_MODEL},
	{"time", required_argument, NULL, OPT_TIME},
	{"map", required_argument, NULL, OPT_MAP},
	{"elf", required_argument, NULL, OPT_ELF},
	{"symfs", required_argument, NULL, OPT_SYMFS},
	{"buildid-dir", required_argument, NULL, OPT_BUILDID_DIR},
	{"vmlinux", required_argument, NULL, OPT_VMLINUX},
	{"kcore", required_argument, NULL, OPT_KCORE},
	{"ignore-build-ids", no_argument, NULL, OPT_IGNORE_BUILD_IDS},
	{"isolate", no_argument, NULL, OPT_ISOLATE},
	{"no-isolate", no_argument, NULL, OPT_NO_ISOLATE},
	{"isolate-timeout", required_argument, NULL, OPT_ISOLATE_TIMEOUT},
	{"raw", required_argument, NULL, OPT_RAW},
	{"snapshot", required_argument, NULL, OPT_SNAPSHOT},
	{"output", required_argument, NULL, 'o'},
	{"quiet", no_argument, NULL, 'q'},
	{"jobs", required_argument, NULL, 'j'},
	{"help", no_argument, NULL, 'h'},
	DECODE_SYMBOL_LONG_OPTS,
	{NULL, 0, NULL, 0},
};

struct args {
	struct hwt_decode_opts opts;
	struct hwt_map_spec *maps;
	struct hwt_map_spec *elfs; /* --elf */
	enum hwt_output_format format;
	bool packets;
	bool profile;
	bool calls;
	bool per_cpu;
	bool edges;
	uint64_t bitmap;   /* --edges-bitmap SIZE, 0 when not given */
	bool partial;      /* --partial: the edges as a partial result */
	uint64_t unit;     /* --unit N, 0 when not given */
	const char *output;
	char *raw;         /* BACKEND[,OPTS]:TRACE, split in place */
	const char *snapshot;
	const char *file;
	struct decode_symbols symbols;
	struct decode_script script; /* -F */
	struct thread_names names;   /* for -F comm and --comm */
	struct hwt_elem_filter_opts filter; /* --comm, --dso, --sym */
	bool quiet;
	struct cli_progress progress;
	struct hwt_merge *merge; /* the time-ordered merge, while it runs */
	struct counts *counts;
	FILE *out;               /* where the elements go, */
	struct hwt_output *lines; /* through this output */
};

static int add_map(struct args *a, char *spec, bool elf)
{
	char *at = strrchr(spec, '@');
	uint64_t addr = 0;
	if (elf && (!at || at == spec || parse_u64(at + 1, &addr)))
		at = NULL; /* --elf FILE: no bias (an '@' of the file's name) */
	else if (!at || at == spec || parse_u64(at + 1, &addr))
		return -1;
	if (at)
		*at = 0;
	struct hwt_map_spec **list = elf ? &a->elfs : &a->maps;
	size_t *n = elf ? &a->opts.nelfs : &a->opts.nmaps;
	void *grown = realloc(*list, (*n + 1) * sizeof(**list));
	if (!grown)
		return -1;
	*list = grown;
	(*list)[*n] = (struct hwt_map_spec){spec, addr};
	(*n)++;
	a->opts.maps = a->maps;
	a->opts.elfs = a->elfs;
	return 0;
}

/* The decode's warnings: on standard error, never in the output. */
static void warn(void *arg, const char *message)
{
	struct args *a = arg;
	cli_progress_erase(&a->progress);
	cli_message("hwtrace decode: warning: ", message);
}

/* Before a symbol warning: the progress line goes first. */
static void erase_progress(void *arg)
{
	struct args *a = arg;
	cli_progress_erase(&a->progress);
}

/* The decode's progress: the line on the terminal, and the merge told
 * when there is only one stream (nothing to order, nothing to keep). */
static void on_progress(void *arg, const struct hwt_decode_progress *p)
{
	struct args *a = arg;
	if (!p->done && a->merge)
		hwt_merge_expect_streams(a->merge, p->streams);
	cli_progress_decode(&a->progress, p);
}

static int drop_emit(void *arg, const struct hwt_elem *e)
{
	(void)arg;
	(void)e;
	return 0;
}

static int parse_args(int argc, char **argv, struct args *a)
{
	int c;

	a->opts.size = sizeof(a->opts);
	a->opts.warn = warn_stderr;
	a->opts.lookup.size = sizeof(a->opts.lookup);
	a->format = HWT_OUTPUT_TEXT;
	a->opts.jobs = cli_online_cpus();
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:j:hqF:", long_opts, NULL)) != -1) {
		switch (c) {
		case OPT_COMM:
			a->filter.comms = optarg;
			break;
		case OPT_DSO:
			a->filter.dsos = optarg;
			break;
		case OPT_SYM:
			a->filter.syms = optarg;
			break;
		case 'F':
			if (hwt_script_fields_parse(optarg, &a->script.fields) < 0)
				return cli_usage_error("decode", "%s", hwt_errmsg());
			if (!a->script.fields)
				return cli_usage_error("decode", "-F needs fields");
			break;
		case OPT_FORMAT:
			if (hwt_output_format_parse(optarg, &a->format) < 0)
				return cli_usage_error("decode",
						       "--format %s: use text or jsonl",
						       optarg);
			break;
		case OPT_PACKETS:
			a->packets = true;
			break;
		case OPT_DISASM:
			a->opts.disasm = true;
			break;
		case OPT_CALLS:
			a->calls = true;
			break;
		case OPT_PER_CPU:
			a->per_cpu = true;
			break;
		case OPT_BRANCH_PROFILE:
			a->profile = true;
			break;
		case OPT_EDGES:
			a->edges = true;
			break;
		case OPT_PARTIAL:
			a->partial = true;
			break;
		case OPT_UNIT:
		{
			int r = cli_number_u64(&(struct cli_number){"decode",
					"--unit", 1, 1000000000, "a unit number "
					"from 1 (hwtrace units lists them)"},
					optarg, &a->unit);
			if (r)
				return r;
		}
			break;
		case OPT_EDGES_BITMAP:
		{
			int r = cli_number_size(&(struct cli_number){"decode",
					"--edges-bitmap", 1, 1ull << 30, "a power "
					"of two from 1 to 1G bytes"}, optarg,
					&a->bitmap);
			if (r)
				return r;
			if (a->bitmap & (a->bitmap - 1))
				return cli_usage_error("decode", "--edges-bitmap "
						       "%s: the size must be a "
						       "power of two (65536, 64K)",
						       optarg);
			a->edges = true;
		}
			break;
		case OPT_TID:
		{
			uint64_t tid;
			int r = cli_number_u64(&(struct cli_number){"decode",
					"--tid", 0, CLI_MAX_PID, "a thread id, 0 "
					"to 4194304"}, optarg, &tid);
			if (r)
				return r;
			a->opts.tid = (int32_t)tid;
			a->opts.filter_tid = true;
		}
			break;
		case OPT_CPU:
			if (strchr(optarg, '/')) {
				a->opts.cpu_model = optarg;
				break;
			}
		{
			uint64_t cpu;
			int r = cli_number_u64(&(struct cli_number){"decode",
					"--cpu", 0, 4095, "a CPU number, 0 to "
					"4095, or FAMILY/MODEL[/STEPPING]"},
					optarg, &cpu);
			if (r)
				return r;
			a->opts.cpu = (int32_t)cpu;
			a->opts.filter_cpu = true;
		}
			break;
		case OPT_CPU_MODEL:
			a->opts.cpu_model = optarg;
			break;
		case OPT_TIME:
			if (cli_parse_time_range(optarg, &a->opts))
				return cli_usage_error("decode",
						       "--time %s: expected START,END", optarg);
			break;
		case OPT_MAP:
			if (add_map(a, optarg, false))
				return cli_usage_error("decode",
						       "--map %s: expected FILE@ADDR", optarg);
			break;
		case OPT_ELF:
			if (add_map(a, optarg, true))
				return cli_usage_error("decode",
						       "--elf %s: expected FILE or FILE@BIAS", optarg);
			break;
		case OPT_SYMFS:
			a->opts.lookup.symfs = optarg;
			break;
		case OPT_BUILDID_DIR:
			a->opts.lookup.buildid_dir = optarg;
			break;
		case OPT_VMLINUX:
			a->opts.lookup.vmlinux = optarg;
			break;
		case OPT_KCORE:
			a->opts.kcore = optarg;
			break;
		case OPT_IGNORE_BUILD_IDS:
			a->opts.ignore_build_ids = true;
			break;
		case OPT_VIRTUAL_LBR:
		{
			int r = cli_virtual_lbr("decode", optarg,
						&a->opts.virtual_lbr);
			if (r)
				return r;
		}
			break;
		case OPT_ISOLATE:
			a->opts.isolate = HWT_ISOLATE_ON;
			break;
		case OPT_NO_ISOLATE:
			a->opts.isolate = HWT_ISOLATE_OFF;
			break;
		case OPT_ISOLATE_TIMEOUT: {
			double sec;
			int r = cli_number_double(&(struct cli_number){"decode",
					"--isolate-timeout", 0, 0, "seconds, more "
					"than 0 and at most 3600"}, optarg, 0, 3600,
					&sec);
			if (r)
				return r;
			a->opts.isolate_timeout_ms = sec * 1000 < 1 ? 1 :
						     (unsigned int)(sec * 1000);
		}
			break;
		case OPT_RAW:
			a->raw = optarg;
			break;
		case OPT_SNAPSHOT:
			a->snapshot = optarg;
			break;
		case 'o':
			a->output = optarg;
			break;
		case 'q':
			a->quiet = true;
			break;
		case 'j':
		{
			int r = cli_jobs("decode", optarg, &a->opts.jobs);
			if (r)
				return r;
		}
			break;
		case ':':
			return cli_usage_error("decode", "%s needs a value",
					       argv[optind - 1]);
		default:
			if (decode_symbols_option(&a->symbols, c, optarg))
				break;
			return cli_usage_error("decode", "unknown option %s",
					       argv[optind - 1]);
		}
	}
	int inputs = (a->raw != NULL) + (a->snapshot != NULL);
	if (optind < argc) {
		a->file = argv[optind++];
		inputs++;
	}
	if (optind < argc)
		return cli_usage_error("decode", "unexpected argument %s",
				       argv[optind]);
	if (inputs != 1)
		return cli_usage_error("decode",
				       "give one input: FILE, --raw or --snapshot");
	if ((a->opts.nmaps || a->opts.nelfs) && !a->raw)
		return cli_usage_error("decode", "--map and --elf are for --raw input");
	if (a->calls && !a->file)
		return cli_usage_error("decode", "--calls is for perf.data captures");
	if (a->script.fields &&
	    (a->packets || a->profile || a->calls || a->edges || a->opts.disasm ||
	     a->format == HWT_OUTPUT_JSONL))
		return cli_usage_error("decode", "-F lists branches as perf script "
				       "does: it goes with none of --packets, "
				       "--branch-profile, --calls, --edges, "
				       "--disasm and --format jsonl (jsonl has "
				       "every field)");
	bool filtered = a->filter.comms || a->filter.dsos || a->filter.syms;
	if (filtered && (a->packets || a->profile || a->calls || a->edges ||
			 !a->file))
		return cli_usage_error("decode", "--comm, --dso and --sym filter "
				       "the elements of a perf.data capture: not "
				       "with --packets, --branch-profile, --calls "
				       "or --edges");
	if (filtered && a->symbols.off && (a->filter.dsos || a->filter.syms))
		return cli_usage_error("decode", "--dso and --sym need symbols: "
				       "not with --no-symbols");
	if (a->calls && (a->packets || a->profile))
		return cli_usage_error("decode", "--calls goes with neither "
				       "--packets nor --branch-profile");
	if (a->packets && a->opts.disasm)
		return cli_usage_error("decode", "--packets lists packets, "
				       "--disasm decoded instructions: give one "
				       "of them");
	if (a->edges && (a->packets || a->profile || a->calls || a->opts.disasm))
		return cli_usage_error("decode", "--edges goes with none of "
				       "--packets, --branch-profile, --calls "
				       "and --disasm");
	if (a->partial && (!a->edges || a->bitmap || a->format != HWT_OUTPUT_TEXT))
		return cli_usage_error("decode", "--partial goes with --edges, "
				       "and with neither --edges-bitmap nor "
				       "--format jsonl");
	if (a->unit && (!a->partial || !a->file || a->raw || a->snapshot))
		return cli_usage_error("decode", "--unit goes with --edges "
				       "--partial on a perf.data capture");
	struct stat fst;
	if (a->file && !stat(a->file, &fst) && S_ISDIR(fst.st_mode)) {
		char ini[4096];
		snprintf(ini, sizeof(ini), "%s/snapshot.ini", a->file);
		if (!access(ini, F_OK))
			return cli_usage_error("decode", "%s is a directory, an "
					       "OpenCSD snapshot (it holds "
					       "snapshot.ini): decode it with "
					       "--snapshot %s", a->file, a->file);
		return cli_usage_error("decode", "%s is a directory, not a "
				       "perf.data capture (a snapshot directory "
				       "is given with --snapshot DIR)", a->file);
	}
	/* A path that is not there would decode as if it were not given. */
	const struct { const char *opt, *path; bool dir; } paths[] = {
		{"--symfs", a->opts.lookup.symfs, true},
		{"--buildid-dir", a->opts.lookup.buildid_dir, true},
		{"--kcore", a->opts.kcore, true},
		{"--vmlinux", a->opts.lookup.vmlinux, false},
	};
	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
		int r = paths[i].path ? cli_path_check("decode", paths[i].opt,
						       paths[i].path, paths[i].dir)
				      : 0;
		if (r)
			return r;
	}
	return 0;
}

/* The merge's read-back on @a's threads: in slices, each formatted by
 * the lane that read it (decode_lanes.h), where the merge can cut its
 * records by time; else beside the output (merge_piped.h). */
static int finish_merged(struct args *a, struct merge_piped *m)
{
	/* -F and the filters write their lines themselves, in order, not
	 * through the lanes. */
	if (a->script.fields || a->filter.comms || a->filter.dsos ||
	    a->filter.syms || a->opts.jobs < 2 ||
	    hwt_merge_slices(m->merge, a->opts.jobs) < 2)
		return merge_piped_finish(m);
	/* What went straight out (hwt_merge_expect_streams) comes first. */
	int err = hwt_output_flush(a->lines);
	if (err < 0)
		return err;
	struct decode_lanes_config c = {
		.out = a->out,
		.format = a->format,
		.counts = a->counts,
		.lanes = a->opts.jobs,
	};
	c.has_annotator = decode_symbols_annotator(&a->symbols, &c.annotator);
	return decode_lanes_finish(m->merge, &c);
}

/* A capture's streams merged by time (the default order). */
static int run_merged(struct args *a, const struct hwt_elem_sink *sink)
{
	struct merge_piped m;
	int err = merge_piped_new(&m, sink, a->opts.jobs);
	if (err)
		return err;
	struct hwt_elem_sink into = hwt_merge_sink(m.merge);
	a->merge = m.merge;
	err = hwt_decode_file(a->file, &a->opts, &into);
	a->merge = NULL;
	struct hwt_merge_stats before;
	hwt_merge_get_stats(m.merge, &before);
	a->counts->progress = &a->progress;
	a->counts->written_base = a->counts->elems;
	/* What went straight out is not written again. */
	a->counts->written_total = before.elements - a->counts->elems;
	cli_progress_written(&a->progress, 0, a->counts->written_total);
	/* A decode that failed part way still shows what came before. */
	int ferr = finish_merged(a, &m);
	a->counts->written_total = 0;
	if (!err)
		err = ferr;
	struct hwt_merge_stats st;
	hwt_merge_get_stats(m.merge, &st);
	merge_piped_free(&m);
	if (!err && st.streams > 1 && !st.timed)
		fprintf(stderr, "hwtrace decode: the capture has no timestamps: "
			"its %" PRIu64 " streams are in stream order, not "
			"merged by time\n", st.streams);
	return err;
}

/* --calls: the rebuilt stacks' calls and returns instead of elements;
 * the elements are still counted. */
static int run_calls(struct args *a, FILE *out, struct counts *counts)
{
	struct hwt_calls_writer *w;
	struct hwt_func_namer namer = decode_symbols_namer(&a->symbols);
	int err = hwt_calls_writer_new(out, a->format, &namer, &w);
	if (err)
		return err;
	counts->next.emit = drop_emit;
	struct hwt_elem_sink counted = {count_emit, counts};
	struct cli_stack_run run = {
		.file = a->file,
		.opts = &a->opts,
		.per_cpu = a->per_cpu,
		.ops = hwt_calls_writer_ops(w),
		.namer = &namer,
		.elements = &counted,
	};
	err = cli_stack_run(&run);
	int ferr = hwt_calls_writer_flush(w);
	if (!err)
		err = ferr;
	if (!err)
		cli_stack_run_summary(&run, "decode");
	hwt_calls_writer_free(w);
	return err;
}

static int run(struct args *a, const struct hwt_elem_sink *sink)
{
	if (a->snapshot)
		return hwt_decode_snapshot_dir(a->snapshot, &a->opts, sink);
	if (a->file && sink && !a->per_cpu && !a->profile && !a->edges)
		return run_merged(a, sink);
	if (a->file)
		return hwt_decode_file(a->file, &a->opts, sink);

	/* parse_args checked the form. */
	char *colon = strchr(a->raw, ':');
	*colon = 0;
	char *options = strchr(a->raw, ',');
	if (options)
		*options++ = 0;
	return hwt_decode_raw(a->raw, options, colon + 1, &a->opts, sink);
}

/* --edges: the decode's taken branches counted into a map (through the
 * backend's edges op where it has one), then written as lines or as a
 * bitmap; the summary counts what was not a branch. */
static int run_edges(struct args *a, FILE *out)
{
	struct hwt_edges *edges = hwt_edges_new();
	if (!edges)
		return hwt_error(HWT_ERR_NOMEM, "out of memory for the edges");
	a->opts.edges = edges;
	struct hwt_elem_sink sink = hwt_edges_sink(edges);
	int err = a->unit ? cli_unit_decode(a->file, a->unit, &a->opts, &sink)
			  : run(a, &sink);
	if (err >= 0 && a->partial) {
		struct hwt_partial *p;
		err = hwt_partial_from_edges(edges, &p);
		if (!err)
			err = hwt_partial_write(p, out);
		hwt_partial_free(p);
	} else if (err >= 0 && a->bitmap) {
		uint8_t *map = malloc(a->bitmap);
		if (!map)
			err = hwt_error(HWT_ERR_NOMEM, "out of memory for a "
					"%" PRIu64 "-byte bitmap", a->bitmap);
		else
			err = hwt_edges_bitmap(edges, map, a->bitmap);
		if (err >= 0 && fwrite(map, 1, a->bitmap, out) != a->bitmap)
			err = hwt_error(HWT_ERR_IO, "writing %s: %s", a->output ?
					a->output : "standard output",
					strerror(errno));
		free(map);
	} else if (err >= 0) {
		err = hwt_edges_write(edges, out, a->format);
	}
	const struct hwt_edges_stats *st = hwt_edges_stats(edges);
	fprintf(stderr, "hwtrace decode: %zu edges (%" PRIu64 " taken "
		"branches), %" PRIu64 " overflows, %" PRIu64 " errors, %"
		PRIu64 " other gaps", hwt_edges_size(edges),
		hwt_edges_total(edges), st->overflows, st->errors, st->gaps);
	if (st->fallbacks)
		fprintf(stderr, "; %" PRIu64 " chunks decoded (in part) by the "
			"element decoder", st->fallbacks);
	fputc('\n', stderr);
	hwt_edges_free(edges);
	return err;
}

/* --comm, --dso, --sym: a filter in front of *@next (none asked: as
 * it was). */
static int start_filter(struct args *a, struct hwt_elem_sink *next,
			struct hwt_elem_filter **filter)
{
	if (!a->filter.comms && !a->filter.dsos && !a->filter.syms)
		return 0;
	int err = a->filter.comms ? thread_names_load(&a->names, a->file) : 0;
	if (err < 0)
		return err;
	a->filter.size = sizeof(a->filter);
	a->filter.sym = a->symbols.sym;
	a->filter.comm = thread_names_of;
	a->filter.comm_arg = &a->names;
	a->filter.next = *next;
	err = hwt_elem_filter_new(&a->filter, filter);
	if (err < 0)
		return err;
	*next = hwt_elem_filter_sink(*filter);
	return 0;
}

int cmd_decode(int argc, char **argv)
{
	struct args a;

	if (cli_wants_help(argc, argv)) {
		usage(stdout);
		return EXIT_OK;
	}
	memset(&a, 0, sizeof(a));
	int rc = parse_args(argc, argv, &a);
	if (rc) {
		free(a.maps);
		free(a.elfs);
		return rc;
	}
	if (a.raw) {
		char *colon = strchr(a.raw, ':');
		if (!colon || colon == a.raw || !colon[1]) {
			free(a.maps);
			free(a.elfs);
			return cli_usage_error("decode", "--raw %s: expected "
					       "BACKEND[,OPTS]:TRACE", a.raw);
		}
	}

	/* Written beside -o's path, renamed over it once complete. */
	FILE *out;
	struct hwt_outfile *of;
	const char *raw_file = a.raw ? strchr(a.raw, ':') + 1 : NULL;
	const char *inputs[] = {a.file, raw_file, a.opts.lookup.vmlinux};
	rc = cli_output_open("decode", a.output, inputs, 3, &out, &of);
	if (rc) {
		free(a.maps);
		free(a.elfs);
		return rc;
	}

	struct hwt_output *output = NULL;
	struct hwt_elem_filter *filter = NULL;
	struct counts counts;
	memset(&counts, 0, sizeof(counts));
	int err;
	bool jsonl = a.format == HWT_OUTPUT_JSONL;
	/* --packets and --branch-profile write text lines; in jsonl each
	 * becomes an object on its way out. */
	FILE *listing = out;
	a.opts.warn = warn;
	a.opts.warn_arg = &a;
	a.opts.progress = on_progress;
	a.opts.progress_arg = &a;
	a.counts = &counts;
	a.out = out;
	/* Elements written to the terminal show the progress themselves. */
	cli_progress_init(&a.progress, a.quiet ||
			  (!a.output && isatty(STDOUT_FILENO)));
	if (jsonl && !a.bitmap)
		cli_jsonl_header(out, a.edges ? "edges" : a.packets ? "packets" : a.profile ?
				 "branch_profile" : a.calls ? "calls" : "elements",
				 hwt_version());
	if (jsonl && (a.packets || a.profile) &&
	    !(listing = cli_jsonl_listing(out, a.packets ? CLI_JSONL_PACKETS :
					  CLI_JSONL_BRANCH_PROFILE))) {
		err = hwt_error(HWT_ERR_NOMEM, "out of memory");
	} else if (a.edges) {
		err = run_edges(&a, out);
	} else if (a.packets) {
		a.opts.packets = listing;
		err = run(&a, NULL);
	} else {
		output = hwt_output_new(out, a.format);
		if (!output) {
			err = hwt_error(HWT_ERR_NOMEM, "out of memory");
		} else {
			counts.next = hwt_output_sink(output);
			a.lines = output;
			if (a.profile) {
				/* The profile replaces the element listing. */
				a.opts.branch_profile = listing;
				counts.next.emit = drop_emit;
			}
			struct hwt_elem_sink sink = {count_emit, &counts};
			a.symbols.capture = a.file;
			a.symbols.before_warning = erase_progress;
			a.symbols.before_warning_arg = &a;
			if (a.script.fields & HWT_SCRIPT_SRCLINE)
				a.symbols.opts.srcline = true;
			err = decode_symbols_start(&a.symbols, &a.opts,
						   a.script.fields ? NULL : output);
			a.script.names = &a.names;
			if (err >= 0 && a.script.fields) {
				err = decode_script_start(&a.script, a.file, &a.opts,
							  a.symbols.sym, out);
				if (err >= 0)
					counts.next = hwt_script_sink(a.script.script);
			}
			if (err >= 0)
				err = start_filter(&a, &counts.next, &filter);
			if (err >= 0)
				err = a.calls ? run_calls(&a, out, &counts)
					      : run(&a, &sink);
		}
	}
	cli_progress_erase(&a.progress);
	if (listing && listing != out && fclose(listing) && err >= 0)
		err = hwt_error(HWT_ERR_IO, "writing %s: %s",
				a.output ? a.output : "standard output",
				strerror(errno));
	hwt_output_free(output);
	hwt_elem_filter_free(filter);
	decode_script_end(&a.script);
	thread_names_free(&a.names);
	decode_symbols_end(&a.symbols);
	/* A lost write is the error to report, whatever the decoder said
	 * after it. */
	int wrc = cli_output_close("decode", out, a.output, of, err < 0);
	free(a.maps);
	free(a.elfs);
	if (wrc)
		return wrc;
	/* The counts describe a decode: none when it failed before the
	 * first element (a missing file, a file that is no capture). */
	if (!a.packets && !a.edges && (err >= 0 || counts.elems))
		print_counts(&counts);
	/* A wrong option value found by the decoder (a raw stream's
	 * options, a --map that overlaps another) is a usage error. */
	return err < 0 ? cli_report_status(err) : EXIT_OK;
}
