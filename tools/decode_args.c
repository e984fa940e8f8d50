/* hwtrace decode's command line: the option table, what each option sets
 * in the decode's options, and the checks of what goes together. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "decode_args.h"
#include "hwtrace/decode_request.h"
#include "hwtrace/error.h"
#include "hwtrace/script.h"
#include "hwtrace/value.h"

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

/* --map or --elf SPEC onto its list: 1 when SPEC is not one (the
 * library's message says why), -1 out of memory. */
static int add_map(struct decode_args *a, char *spec, bool elf)
{
	struct hwt_map_spec map;
	if (hwt_decode_map_spec_parse(spec, elf, &map) < 0)
		return 1;
	struct hwt_map_spec **list = elf ? &a->elfs : &a->maps;
	size_t *n = elf ? &a->opts.nelfs : &a->opts.nmaps;
	void *grown = realloc(*list, (*n + 1) * sizeof(**list));
	if (!grown)
		return -1;
	*list = grown;
	(*list)[(*n)++] = map;
	a->opts.maps = a->maps;
	a->opts.elfs = a->elfs;
	return 0;
}

/* --map's or --elf's usage error, or the exit status of no memory. */
static int map_refused(int r)
{
	if (r > 0)
		return cli_usage_error("decode", "%s", hwt_errmsg());
	return cli_report(hwt_error(HWT_ERR_NOMEM, "out of memory for the maps"));
}

int decode_args_parse(int argc, char **argv, struct decode_args *a)
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
			a->comms = optarg;
			break;
		case OPT_DSO:
			a->dsos = optarg;
			break;
		case OPT_SYM:
			a->syms = optarg;
			break;
		case 'F':
			if (hwt_script_fields_parse(optarg, &a->script_fields) < 0)
				return cli_usage_error("decode", "%s", hwt_errmsg());
			if (!a->script_fields)
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
			int r = cli_unit("decode", optarg, &a->unit);
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
			if (hwt_value_parse_time_range(optarg, &a->opts.time_start,
						       &a->opts.time_end))
				return cli_usage_error("decode",
						       "--time %s: expected START,END", optarg);
			a->opts.filter_time = true;
			break;
		case OPT_MAP:
		case OPT_ELF:
		{
			int r = add_map(a, optarg, c == OPT_ELF);
			if (r)
				return map_refused(r);
		}
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
	a->request = (struct hwt_decode_request){
		.size = sizeof(a->request),
		.input = a->raw ? HWT_CAPTURE_RAW : a->snapshot ?
			 HWT_CAPTURE_SNAPSHOT_DIR : HWT_CAPTURE_PERF_DATA,
		.maps = a->opts.nmaps || a->opts.nelfs,
		.packets = a->packets,
		.profile = a->profile,
		.calls = a->calls,
		.edges = a->edges,
		.edges_bitmap = a->bitmap,
		.partial = a->partial,
		.unit = a->unit,
		.disasm = a->opts.disasm,
		.jsonl = a->format == HWT_OUTPUT_JSONL,
		.no_symbols = a->symbols.off,
		.script_fields = a->script_fields,
		.comms = a->comms,
		.dsos = a->dsos,
		.syms = a->syms,
		.per_cpu = a->per_cpu,
	};
	if (hwt_decode_request_check(&a->request) < 0)
		return cli_usage_error("decode", "%s", hwt_errmsg());
	a->input = (struct hwt_decode_input){
		.size = sizeof(a->input),
		.kind = a->snapshot ? HWT_CAPTURE_SNAPSHOT_DIR
				    : HWT_CAPTURE_PERF_DATA,
		.path = a->snapshot ? a->snapshot : a->file,
	};
	if (!a->raw && hwt_decode_input_check(&a->input) < 0)
		return cli_usage_error("decode", "%s", hwt_errmsg());
	/* A path that is not there would decode as if it were not given. */
	if (hwt_decode_opts_paths_check(&a->opts) < 0)
		return cli_usage_error("decode", "%s", hwt_errmsg());
	if (a->raw && hwt_decode_raw_spec_parse(a->raw, &a->input) < 0)
		return cli_usage_error("decode", "%s", hwt_errmsg());
	return 0;
}
