/* hwtrace info: what a capture holds, and what decoding it will need. */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "hwtrace/backend.h"
#include "hwtrace/error.h"
#include "hwtrace/pd_summary.h"
#include "hwtrace/symbols.h"

static void usage(FILE *out)
{
	fprintf(out,
		"usage: hwtrace info [--symfs DIR] FILE\n\n"
		"Summarise a perf.data capture: the trace backend, the CPUs and\n"
		"threads, the bytes of trace per CPU, the time span, lost data,\n"
		"the commands and binaries involved, and which binaries are missing\n"
		"on this machine for decoding.\n\n"
		"  --symfs DIR  look for the binaries under DIR as well\n"
		"  -h, --help   show this help\n\n"
		"Exit status: 0 when the whole file was read, 1 when it is corrupt\n"
		"or truncated (the summary covers the records before the damage),\n"
		"2 on a usage error.\n");
}

static const char *auxtrace_name(uint32_t type)
{
	static const char *const names[] = {
		"unknown", "intel_pt", "intel_bts", "cs_etm", "arm_spe",
		"s390_cpumsf", "hisi_ptt",
	};

	return type < sizeof(names) / sizeof(names[0]) ? names[type] : "unknown";
}

/* Whether an event of @r samples branch stacks (LBR, BRBE, BRS). */
static bool has_branch_stacks(struct hwt_pd_reader *r, uint64_t *bst)
{
	for (size_t i = 0; i < hwt_pd_reader_nr_attrs(r); i++) {
		const struct hwt_pd_attr *a = hwt_pd_reader_attr(r, i);
		if (a->attr.sample_type & PERF_SAMPLE_BRANCH_STACK) {
			*bst = a->attr.branch_sample_type;
			return true;
		}
	}
	return false;
}

static void print_backend(const struct hwt_pd_summary *in,
			  struct hwt_pd_reader *r)
{
	const struct hwt_backend *b;
	uint64_t bst;

	if (!in->have_auxtrace_info && has_branch_stacks(r, &bst)) {
		printf("backend:     none needed: branch records "
		       "(PERF_SAMPLE_BRANCH_STACK, branch_sample_type 0x%" PRIx64
		       ", %" PRIu64 " samples), which hwtrace decode reads "
		       "(docs/branch-records.md)\n", bst, in->samples);
		return;
	}
	if (!in->have_auxtrace_info) {
		printf("backend:     none (no AUXTRACE_INFO record: not a hardware "
		       "trace capture)\n");
		return;
	}
	b = hwt_backend_for_auxtrace((enum hwt_auxtrace_type)in->auxtrace_type);
	printf("backend:     %s (AUXTRACE_INFO type %u)", b ? b->name :
	       auxtrace_name(in->auxtrace_type), in->auxtrace_type);
	if (!b)
		printf(", no hwtrace backend decodes it");
	else if (!b->decoder)
		printf(", decoder not built: %s", b->no_decoder_reason ?
		       b->no_decoder_reason : "unknown reason");
	putchar('\n');
	cli_print_decoders("decoders:   ");
}

/* Names that are not files: anonymous memory, the vdso, the kernel. */
static bool is_file(const char *path)
{
	return path[0] == '/' && strncmp(path, "//anon", 6) &&
	       strncmp(path, "/memfd:", 7) && strncmp(path, "/dev/", 5) &&
	       strncmp(path, "/SYSV", 5);
}

static bool exists(const char *path, const char *symfs)
{
	char buf[8192];

	if (!access(path, R_OK))
		return true;
	if (!symfs)
		return false;
	snprintf(buf, sizeof(buf), "%s%s", symfs, path);
	return !access(buf, R_OK);
}

static void print_sym_warning(void *arg, const char *message)
{
	(void)arg;
	cli_message("hwtrace info: ", message);
}

/* Per binary: its symbols and debug info, and where they came from. */
static void print_symbols(struct hwt_symbolizer *sym, const char *path)
{
	struct hwt_sym_dso_info di;
	char b1[8192];
	if (!sym || hwt_symbolizer_dso_info(sym, path, &di) < 0)
		return;
	if (di.symbols_from)
		printf("      symbols:    %zu functions from %s\n", di.nsymbols,
		       cli_safe(di.symbols_from, b1, sizeof(b1)));
	else
		printf("      symbols:    missing (%zu PLT entries only)\n",
		       di.nsymbols);
	if (di.debug_file)
		printf("      debug info: %s (from the %s)\n",
		       cli_safe(di.debug_file, b1, sizeof(b1)), di.debug_from);
	else
		printf("      debug info: missing (tried %s)\n",
		       cli_safe(di.tried, b1, sizeof(b1)));
}

/* A flight recorder window says what made it be written: which trigger,
 * its window number, when (perf time), which thread, and the entry or
 * call that fired (docs/record.md), as "key: value" lines. */
static void print_trigger(struct hwt_pd_reader *r)
{
	char buf[4096], safe[8192];

	if (hwt_pd_reader_feature_string(r, HWT_PD_FEAT_HWTRACE_TRIGGER, buf,
					 sizeof(buf))) {
		hwt_error_clear();
		return;
	}
	for (char *save = NULL, *line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (!strncmp(line, "trigger: ", 9))
			printf("trigger:     %s\n", cli_safe(line + 9, safe, sizeof(safe)));
		else
			printf("  %s\n", cli_safe(line, safe, sizeof(safe)));
	}
}

static void print_info(struct hwt_pd_reader *r, const struct hwt_pd_summary *in,
		       const char *symfs)
{
	char buf[4096], safe[8192];
	uint32_t avail, online;
	size_t missing = 0, files = 0;

	printf("file:        %s (%s%s)\n",
	       cli_safe(hwt_pd_reader_path(r), safe, sizeof(safe)),
	       hwt_pd_reader_is_pipe(r) ? "perf pipe mode" : "perf file mode",
	       hwt_pd_reader_is_simpleperf(r) ? ", written by simpleperf" : "");
	if (hwt_pd_reader_cut_short(r))
		printf("cut short:   yes: the disk filled up while it was "
		       "recorded; its trace ends early\n");
	if (!hwt_pd_reader_feature_string(r, HWT_PD_FEAT_HOSTNAME, buf, sizeof(buf)))
		printf("host:        %s\n", cli_safe(buf, safe, sizeof(safe)));
	if (!hwt_pd_reader_feature_string(r, HWT_PD_FEAT_ARCH, buf, sizeof(buf)))
		printf("arch:        %s\n", cli_safe(buf, safe, sizeof(safe)));
	if (!hwt_pd_reader_feature_string(r, HWT_PD_FEAT_OSRELEASE, buf, sizeof(buf)))
		printf("os release:  %s\n", cli_safe(buf, safe, sizeof(safe)));
	if (!hwt_pd_reader_feature_string(r, HWT_PD_FEAT_CPUDESC, buf, sizeof(buf)))
		printf("cpu:         %s\n", cli_safe(buf, safe, sizeof(safe)));
	if (!hwt_pd_reader_cmdline(r, buf, sizeof(buf)))
		printf("cmdline:     %s\n", cli_safe(buf, safe, sizeof(safe)));
	print_trigger(r);
	print_backend(in, r);
	for (size_t i = 0; i < hwt_pd_reader_nr_attrs(r); i++) {
		const struct hwt_pd_attr *a = hwt_pd_reader_attr(r, i);

		printf("event:       %s (type %u, config 0x%llx)\n",
		       a->name ? cli_safe(a->name, safe, sizeof(safe)) : "(no name)",
		       a->attr.type,
		       (unsigned long long)a->attr.config);
	}
	if (!hwt_pd_reader_nr_cpus(r, &avail, &online))
		printf("cpus:        %u available, %u online\n", avail, online);
	printf("records:     %" PRIu64 "\n", in->records);
	printf("trace:       %" PRIu64 " bytes in %" PRIu64 " AUXTRACE buffers\n",
	       in->auxtrace_bytes, in->auxtrace_buffers);
	for (size_t i = 0; i < in->ncpus; i++) {
		if (in->cpus[i].cpu < 0)
			printf("  per-thread: %" PRIu64 " bytes in %" PRIu64
			       " buffers\n", in->cpus[i].bytes,
			       in->cpus[i].buffers);
		else
			printf("  cpu %-6d  %" PRIu64 " bytes in %" PRIu64
			       " buffers\n", in->cpus[i].cpu, in->cpus[i].bytes,
			       in->cpus[i].buffers);
	}
	if (in->have_time)
		printf("time:        %" PRIu64 " .. %" PRIu64 " (%.6f s)\n",
		       in->first_time, in->last_time,
		       (double)(in->last_time - in->first_time) / 1e9);
	printf("lost:        %" PRIu64 " LOST records (%" PRIu64 " events), %"
	       PRIu64 " lost samples, %" PRIu64 " truncated and %" PRIu64
	       " collided AUX writes, %" PRIu64 " AUXTRACE errors\n",
	       in->lost_records, in->lost_events, in->lost_samples,
	       in->aux_truncated, in->aux_collisions, in->auxtrace_errors);
	printf("aux:         %" PRIu64 " AUX records, %" PRIu64 " bytes reported "
	       "by the kernel\n", in->aux_records, in->aux_bytes);
	printf("threads:     %zu\n", in->nthreads);
	for (size_t i = 0; i < in->nthreads; i++)
		printf("  %d/%d %s\n", in->threads[i].pid, in->threads[i].tid,
		       cli_safe(in->threads[i].comm, safe, sizeof(safe)));
	printf("commands:   ");
	for (size_t i = 0; i < in->ncommands; i++)
		printf(" %s", cli_safe(in->commands[i], safe, sizeof(safe)));
	putchar('\n');
	for (size_t i = 0; i < in->nbinaries; i++)
		files += is_file(in->binaries[i].path);
	printf("binaries:    %zu files mapped\n", files);
	struct hwt_symbolizer *sym = NULL;
	struct hwt_sym_opts so = {.size = sizeof(so), .symfs = symfs,
				  .warn = print_sym_warning};
	if (hwt_symbolizer_new(&so, &sym) < 0)
		sym = NULL;
	for (size_t i = 0; i < in->nbinaries; i++) {
		const char *path = in->binaries[i].path;
		const char *shown = cli_safe(path, safe, sizeof(safe));

		if (!strncmp(path, "[kernel.kallsyms]", 17)) {
			printf("  %s (the kernel: decoding it needs /proc/kcore "
			       "or the traced kernel's vmlinux)\n", shown);
			continue;
		}
		if (!is_file(path)) {
			printf("  %s (not a file)\n", shown);
			continue;
		}
		if (exists(path, symfs)) {
			printf("  %s\n", shown);
			print_symbols(sym, path);
		} else {
			printf("  %s MISSING\n", shown);
			missing++;
		}
	}
	hwt_symbolizer_free(sym);
	printf("missing:     %zu of %zu binaries are not on this machine%s%s%s\n",
	       missing, files, symfs ? " nor under " : "", symfs ? symfs : "",
	       missing ? "; decoding cannot follow code in them (use --symfs "
	       "DIR with a copy of the traced system's files)" : "");
}

int cmd_info(int argc, char **argv)
{
	struct hwt_pd_summary *in = NULL;
	struct hwt_pd_reader *r;
	const char *path = NULL, *symfs = NULL, *warning;
	int err, n;

	if (cli_wants_help(argc, argv)) {
		usage(stdout);
		return EXIT_OK;
	}
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--symfs")) {
			if (++i == argc)
				return cli_usage_error("info", "--symfs needs a "
						       "directory");
			symfs = argv[i];
		} else if (!strncmp(argv[i], "--symfs=", 8)) {
			symfs = argv[i] + 8;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			return cli_usage_error("info", "unknown option '%s'",
					       argv[i]);
		} else if (path) {
			return cli_usage_error("info", "one FILE only, got '%s' "
					       "and '%s'", path, argv[i]);
		} else {
			path = argv[i];
		}
	}
	if (!path)
		return cli_usage_error("info", "a perf.data FILE is required");
	err = hwt_pd_reader_open(path, &r);
	if (err)
		return cli_report(err);
	n = hwt_pd_summarize(r, &in);
	if (!in) {
		hwt_pd_reader_free(r);
		return cli_report(n);
	}
	if (n < 0) {
		/* Keep the message: printing the summary may not touch it, but
		 * say it after the summary, where the user looks. */
		char msg[1024];

		snprintf(msg, sizeof(msg), "%s", hwt_errmsg());
		print_info(r, in, symfs);
		cli_message("hwtrace: ", msg);
	} else {
		print_info(r, in, symfs);
	}
	warning = hwt_pd_reader_warning(r);
	if (warning)
		cli_message("hwtrace: warning: ", warning);
	if (hwt_pd_reader_cut_short(r))
		fprintf(stderr, "hwtrace: warning: %s was cut short while it was "
			"recorded (the disk filled up): its trace ends early\n",
			path);
	hwt_pd_reader_free(r);
	hwt_pd_summary_free(in);
	return n < 0 ? EXIT_RUNTIME : EXIT_OK;
}
