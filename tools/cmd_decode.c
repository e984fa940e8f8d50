/* hwtrace decode */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "hwtrace/decode.h"
#include "hwtrace/error.h"
#include "hwtrace/output.h"

static void usage(FILE *out)
{
	fprintf(out,
		"usage: hwtrace decode FILE [options]\n"
		"       hwtrace decode --raw BACKEND[,OPTS]:TRACE --map FILE@ADDR... [options]\n"
		"       hwtrace decode --snapshot DIR [options]\n\n"
		"Decodes a perf.data capture (FILE - reads one in pipe mode), a raw trace\n"
		"stream or an OpenCSD snapshot directory into ranges, branches, gaps and\n"
		"errors. See docs/decode.md.\n\n"
		"  --format text|jsonl     output format (default text)\n"
		"  -o FILE                 write to FILE instead of standard output\n"
		"  --packets               list the packet layer instead of decoding\n"
		"  --disasm                one range per instruction, with its text\n"
		"  --branch-profile        print FROM->TO COUNT of every branch and\n"
		"                          AUX sample branch stack instead of elements\n"
		"                          (FILE+0xOFFSET where the binary is known;\n"
		"                          also --profile; see docs/aux-sampling.md)\n"
		"  --tid N                 only elements of thread N\n"
		"  --cpu N                 only elements of CPU N\n"
		"  --cpu F/M[/S]           (with a slash) the traced CPU, as --cpu-model\n"
		"  --cpu-model F/M[/S]     the traced CPU's family/model/stepping (errata)\n"
		"  --time START,END        only elements in this perf time range\n"
		"                          (ns, or seconds with a '.'; either end may be empty)\n"
		"  --map FILE@ADDR         raw input: FILE's bytes are the code at ADDR\n"
		"  --symfs DIR             look for the traced binaries under DIR\n"
		"  --buildid-dir DIR       a ~/.debug-style build-id cache\n"
		"  --vmlinux FILE          the kernel image for [kernel.kallsyms]\n"
		"  --kcore DIR             a directory holding kcore and kallsyms\n"
		"  --ignore-build-ids      use a found binary even when its build id\n"
		"                          or ELF machine is not the capture's\n"
		"  -h, --help              this text\n\n"
		"Gaps (lost or undecodable trace) are always shown, and counted on\n"
		"standard error at the end. Exit status: 0 decoded, 1 failed, 2 usage.\n");
}

struct counts {
	struct hwt_elem_sink next;
	uint64_t elems, ranges, insns, branches, errors, gaps;
	uint64_t samples, sample_branches, samples_nosync;
	uint64_t gap_by[HWT_GAP_NO_IMAGE + 1];
	uint64_t gap_bytes;
};

static int count_emit(void *arg, const struct hwt_elem *e)
{
	struct counts *c = arg;
	c->elems++;
	if (e->type == HWT_ELEM_RANGE) {
		c->ranges++;
		c->insns += e->u.range.insns;
	} else if (e->type == HWT_ELEM_BRANCH) {
		c->branches++;
	} else if (e->type == HWT_ELEM_SAMPLE) {
		c->samples++;
		c->sample_branches += e->u.sample.nbranches;
		c->samples_nosync += e->u.sample.sync >= e->u.sample.window;
	} else if (e->type == HWT_ELEM_ERROR) {
		c->errors++;
	} else if (e->type == HWT_ELEM_GAP) {
		c->gaps++;
		if ((unsigned)e->u.gap.reason <= HWT_GAP_NO_IMAGE)
			c->gap_by[e->u.gap.reason]++;
		if (e->fields & HWT_FIELD_GAP_BYTES)
			c->gap_bytes += e->u.gap.bytes;
	}
	return c->next.emit(c->next.arg, e);
}

static void print_counts(const struct counts *c)
{
	fprintf(stderr,
		"hwtrace decode: %" PRIu64 " ranges (%" PRIu64 " instructions), %"
		PRIu64 " branches, %" PRIu64 " errors, %" PRIu64 " gaps",
		c->ranges, c->insns, c->branches, c->errors, c->gaps);
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

static int parse_i32(const char *s, int32_t *out)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 0);
	if (end == s || *end || errno || v < -1 || v > INT32_MAX)
		return -1;
	*out = (int32_t)v;
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

static int parse_time_range(const char *s, struct hwt_decode_opts *o)
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
	fprintf(stderr, "hwtrace decode: %s\n", message);
}

enum {
	OPT_FORMAT = 256, OPT_PACKETS, OPT_DISASM, OPT_TID, OPT_CPU,
	OPT_CPU_MODEL, OPT_TIME, OPT_MAP, OPT_SYMFS, OPT_BUILDID_DIR,
	OPT_VMLINUX, OPT_KCORE, OPT_RAW, OPT_SNAPSHOT, OPT_BRANCH_PROFILE,
	OPT_IGNORE_BUILD_IDS,
};

static const struct option long_opts[] = {
	{"format", required_argument, NULL, OPT_FORMAT},
	{"packets", no_argument, NULL, OPT_PACKETS},
	{"disasm", no_argument, NULL, OPT_DISASM},
	{"branch-profile", no_argument, NULL, OPT_BRANCH_PROFILE},
	{"profile", no_argument, NULL, OPT_BRANCH_PROFILE},
	{"tid", required_argument, NULL, OPT_TID},
	{"cpu", required_argument, NULL, OPT_CPU},
	{"cpu-model", required_argument, NULL, OPT_CPU_MODEL},
	{"time", required_argument, NULL, OPT_TIME},
	{"map", required_argument, NULL, OPT_MAP},
	{"symfs", required_argument, NULL, OPT_SYMFS},
	{"buildid-dir", required_argument, NULL, OPT_BUILDID_DIR},
	{"vmlinux", required_argument, NULL, OPT_VMLINUX},
	{"kcore", required_argument, NULL, OPT_KCORE},
	{"ignore-build-ids", no_argument, NULL, OPT_IGNORE_BUILD_IDS},
	{"raw", required_argument, NULL, OPT_RAW},
	{"snapshot", required_argument, NULL, OPT_SNAPSHOT},
	{"output", required_argument, NULL, 'o'},
	{"help", no_argument, NULL, 'h'},
	{NULL, 0, NULL, 0},
};

struct args {
	struct hwt_decode_opts opts;
	struct hwt_map_spec *maps;
	enum hwt_output_format format;
	bool packets;
	bool profile;
	const char *output;
	char *raw;         /* BACKEND[,OPTS]:TRACE, split in place */
	const char *snapshot;
	const char *file;
};

static int add_map(struct args *a, char *spec)
{
	char *at = strrchr(spec, '@');
	uint64_t addr;
	if (!at || at == spec || parse_u64(at + 1, &addr))
		return -1;
	*at = 0;
	void *n = realloc(a->maps, (a->opts.nmaps + 1) * sizeof(*a->maps));
	if (!n)
		return -1;
	a->maps = n;
	a->maps[a->opts.nmaps].path = spec;
	a->maps[a->opts.nmaps].vaddr = addr;
	a->opts.nmaps++;
	a->opts.maps = a->maps;
	return 0;
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
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:h", long_opts, NULL)) != -1) {
		switch (c) {
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
		case OPT_BRANCH_PROFILE:
			a->profile = true;
			break;
		case OPT_TID:
			if (parse_i32(optarg, &a->opts.tid))
				return cli_usage_error("decode", "--tid %s: not a thread id",
						       optarg);
			a->opts.filter_tid = true;
			break;
		case OPT_CPU:
			if (strchr(optarg, '/')) {
				a->opts.cpu_model = optarg;
				break;
			}
			if (parse_i32(optarg, &a->opts.cpu) || a->opts.cpu < 0)
				return cli_usage_error("decode",
						       "--cpu %s: not a CPU number or "
						       "FAMILY/MODEL/STEPPING", optarg);
			a->opts.filter_cpu = true;
			break;
		case OPT_CPU_MODEL:
			a->opts.cpu_model = optarg;
			break;
		case OPT_TIME:
			if (parse_time_range(optarg, &a->opts))
				return cli_usage_error("decode",
						       "--time %s: expected START,END", optarg);
			break;
		case OPT_MAP:
			if (add_map(a, optarg))
				return cli_usage_error("decode",
						       "--map %s: expected FILE@ADDR", optarg);
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
		case OPT_RAW:
			a->raw = optarg;
			break;
		case OPT_SNAPSHOT:
			a->snapshot = optarg;
			break;
		case 'o':
			a->output = optarg;
			break;
		case ':':
			return cli_usage_error("decode", "%s needs a value",
					       argv[optind - 1]);
		default:
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
	if (a->opts.nmaps && !a->raw)
		return cli_usage_error("decode", "--map is for --raw input");
	return 0;
}

static int run(struct args *a, const struct hwt_elem_sink *sink)
{
	if (a->snapshot)
		return hwt_decode_snapshot_dir(a->snapshot, &a->opts, sink);
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
		return rc;
	}
	if (a.raw) {
		char *colon = strchr(a.raw, ':');
		if (!colon || colon == a.raw || !colon[1]) {
			free(a.maps);
			return cli_usage_error("decode", "--raw %s: expected "
					       "BACKEND[,OPTS]:TRACE", a.raw);
		}
	}

	FILE *out = stdout;
	if (a.output) {
		out = fopen(a.output, "w");
		if (!out) {
			fprintf(stderr, "hwtrace: %s: %s\n", a.output, strerror(errno));
			free(a.maps);
			return EXIT_RUNTIME;
		}
	}

	struct hwt_output *output = NULL;
	struct counts counts;
	memset(&counts, 0, sizeof(counts));
	int err;
	if (a.packets) {
		a.opts.packets = out;
		err = run(&a, NULL);
	} else {
		output = hwt_output_new(out, a.format);
		if (!output) {
			err = hwt_error(HWT_ERR_NOMEM, "out of memory");
		} else {
			counts.next = hwt_output_sink(output);
			if (a.profile) {
				/* The profile replaces the element listing. */
				a.opts.branch_profile = out;
				counts.next.emit = drop_emit;
			}
			struct hwt_elem_sink sink = {count_emit, &counts};
			err = run(&a, &sink);
		}
	}
	if (fflush(out) && err >= 0)
		err = hwt_error(HWT_ERR_IO, "writing %s: %s",
				a.output ? a.output : "standard output",
				strerror(errno));
	hwt_output_free(output);
	if (out != stdout)
		fclose(out);
	free(a.maps);
	if (!a.packets)
		print_counts(&counts);
	return err < 0 ? cli_report(err) : EXIT_OK;
}
