/* The text of `hwtrace info` (hwtrace/pd_summary.h): a summary of a
 * perf.data file as "key:  value" lines, then the binaries it maps and
 * whether decoding will find them on this machine. */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "hwtrace/backend.h"
#include "hwtrace/error.h"
#include "hwtrace/pd_summary.h"
#include "hwtrace/perfdata.h"
#include "hwtrace/symbols.h"
#include "hwtrace/text.h"

/* A name from the capture, its control characters and ill-formed bytes
 * escaped for a terminal, in @buf. */
static const char *safe_text(const char *s, char *buf, size_t size)
{
	size_t n = s ? hwt_term_escape(buf, size - 1, s, strlen(s)) : 0;
	buf[n < size - 1 ? n : size - 1] = 0;
	return buf;
}

/* perf's names of the AUXTRACE_INFO types, for those no backend takes. */
static const char *auxtrace_name(uint32_t type)
{
	static const char *const names[] = {
		"unknown", "intel_pt", "intel_bts", "cs_etm", "arm_spe",
		"s390_cpumsf", "hisi_ptt",
	};

	return type < sizeof(names) / sizeof(names[0]) ? names[type] : "unknown";
}

/* Whether an event of @r samples branch stacks (LBR, BRBE, BRS). */
static bool has_branch_stacks(const struct hwt_pd_reader *r, uint64_t *bst)
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

static void print_backend(FILE *out, const struct hwt_pd_summary *s,
			  const struct hwt_pd_reader *r)
{
	const struct hwt_backend *b;
	uint64_t bst;

	if (!s->have_auxtrace_info && has_branch_stacks(r, &bst)) {
		fprintf(out, "backend:     none needed: branch records "
			"(PERF_SAMPLE_BRANCH_STACK, branch_sample_type 0x%" PRIx64
			", %" PRIu64 " samples), which hwtrace decode reads "
			"(docs/branch-records.md)\n", bst, s->samples);
		return;
	}
	if (!s->have_auxtrace_info) {
		fprintf(out, "backend:     none (no AUXTRACE_INFO record: not a "
			"hardware trace capture)\n");
		return;
	}
	b = hwt_backend_for_auxtrace((enum hwt_auxtrace_type)s->auxtrace_type);
	fprintf(out, "backend:     %s (AUXTRACE_INFO type %u)", b ? b->name :
		auxtrace_name(s->auxtrace_type), s->auxtrace_type);
	if (!b)
		fprintf(out, ", no hwtrace backend decodes it");
	else if (!b->decoder)
		fprintf(out, ", decoder not built: %s", b->no_decoder_reason ?
			b->no_decoder_reason : "unknown reason");
	fputc('\n', out);
	hwt_backends_print_decoders(out, "decoders:   ");
}

/* A flight recorder window says what made it be written: which trigger,
 * its window number, when (perf time), which thread, and the entry or
 * call that fired (docs/record.md), as "key: value" lines. */
static void print_trigger(FILE *out, const struct hwt_pd_reader *r)
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
			fprintf(out, "trigger:     %s\n",
				safe_text(line + 9, safe, sizeof(safe)));
		else
			fprintf(out, "  %s\n", safe_text(line, safe, sizeof(safe)));
	}
}

/* The file, where it was recorded and how: the header and features. */
static void print_origin(FILE *out, const struct hwt_pd_reader *r)
{
	static const struct {
		int feature;
		const char *key;
	} features[] = {
		{HWT_PD_FEAT_HOSTNAME, "host:       "},
		{HWT_PD_FEAT_ARCH, "arch:       "},
		{HWT_PD_FEAT_OSRELEASE, "os release: "},
		{HWT_PD_FEAT_CPUDESC, "cpu:        "},
	};
	char buf[4096], safe[8192];

	fprintf(out, "file:        %s (%s%s)\n",
		safe_text(hwt_pd_reader_path(r), safe, sizeof(safe)),
		hwt_pd_reader_is_pipe(r) ? "perf pipe mode" : "perf file mode",
		hwt_pd_reader_is_simpleperf(r) ? ", written by simpleperf" : "");
	if (hwt_pd_reader_cut_short(r))
		fprintf(out, "cut short:   yes: the disk filled up while it was "
			"recorded; its trace ends early\n");
	for (size_t i = 0; i < sizeof(features) / sizeof(features[0]); i++)
		if (!hwt_pd_reader_feature_string(r, features[i].feature, buf,
						  sizeof(buf)))
			fprintf(out, "%s %s\n", features[i].key,
				safe_text(buf, safe, sizeof(safe)));
	if (!hwt_pd_reader_cmdline(r, buf, sizeof(buf)))
		fprintf(out, "cmdline:     %s\n", safe_text(buf, safe, sizeof(safe)));
}

/* The events, the counts of records, trace and losses, the threads and
 * the commands. */
static void print_counts(FILE *out, const struct hwt_pd_reader *r,
			 const struct hwt_pd_summary *s)
{
	char safe[8192];
	uint32_t avail, online;

	for (size_t i = 0; i < hwt_pd_reader_nr_attrs(r); i++) {
		const struct hwt_pd_attr *a = hwt_pd_reader_attr(r, i);

		fprintf(out, "event:       %s (type %u, config 0x%llx)\n",
			a->name ? safe_text(a->name, safe, sizeof(safe)) :
				  "(no name)",
			a->attr.type, (unsigned long long)a->attr.config);
	}
	if (!hwt_pd_reader_nr_cpus(r, &avail, &online))
		fprintf(out, "cpus:        %u available, %u online\n", avail,
			online);
	fprintf(out, "records:     %" PRIu64 "\n", s->records);
	fprintf(out, "trace:       %" PRIu64 " bytes in %" PRIu64
		" AUXTRACE buffers\n", s->auxtrace_bytes, s->auxtrace_buffers);
	for (size_t i = 0; i < s->ncpus; i++) {
		if (s->cpus[i].cpu < 0)
			fprintf(out, "  per-thread: %" PRIu64 " bytes in %" PRIu64
				" buffers\n", s->cpus[i].bytes, s->cpus[i].buffers);
		else
			fprintf(out, "  cpu %-6d  %" PRIu64 " bytes in %" PRIu64
				" buffers\n", s->cpus[i].cpu, s->cpus[i].bytes,
				s->cpus[i].buffers);
	}
	if (s->have_time)
		fprintf(out, "time:        %" PRIu64 " .. %" PRIu64 " (%.6f s)\n",
			s->first_time, s->last_time,
			(double)(s->last_time - s->first_time) / 1e9);
	fprintf(out, "lost:        %" PRIu64 " LOST records (%" PRIu64
		" events), %" PRIu64 " lost samples, %" PRIu64 " truncated and %"
		PRIu64 " collided AUX writes, %" PRIu64 " AUXTRACE errors\n",
		s->lost_records, s->lost_events, s->lost_samples,
		s->aux_truncated, s->aux_collisions, s->auxtrace_errors);
	fprintf(out, "aux:         %" PRIu64 " AUX records, %" PRIu64
		" bytes reported by the kernel\n", s->aux_records, s->aux_bytes);
	fprintf(out, "threads:     %zu\n", s->nthreads);
	for (size_t i = 0; i < s->nthreads; i++)
		fprintf(out, "  %d/%d %s\n", s->threads[i].pid, s->threads[i].tid,
			safe_text(s->threads[i].comm, safe, sizeof(safe)));
	fprintf(out, "commands:   ");
	for (size_t i = 0; i < s->ncommands; i++)
		fprintf(out, " %s", safe_text(s->commands[i], safe, sizeof(safe)));
	fputc('\n', out);
}

/* Names that are not files: anonymous memory, the vdso, the kernel. */
static bool is_file(const char *path)
{
	return path[0] == '/' && strncmp(path, "//anon", 6) &&
	       strncmp(path, "/memfd:", 7) && strncmp(path, "/dev/", 5) &&
	       strncmp(path, "/SYSV", 5);
}

/* Whether decoding can read @path: here, or under @symfs. */
static bool readable(const char *path, const char *symfs)
{
	char buf[8192];

	if (!access(path, R_OK))
		return true;
	if (!symfs)
		return false;
	snprintf(buf, sizeof(buf), "%s%s", symfs, path);
	return !access(buf, R_OK);
}

/* Per binary: its symbols and debug info, and where they came from. */
static void print_symbols(FILE *out, const struct hwt_pd_summary_print_opts *o,
			  const char *path)
{
	struct hwt_sym_dso_info di;
	char safe[8192];

	if (!o->dso_info || o->dso_info(o->dso_arg, path, &di) < 0)
		return;
	if (di.symbols_from)
		fprintf(out, "      symbols:    %zu functions from %s\n",
			di.nsymbols, safe_text(di.symbols_from, safe, sizeof(safe)));
	else
		fprintf(out, "      symbols:    missing (%zu PLT entries only)\n",
			di.nsymbols);
	if (di.debug_file)
		fprintf(out, "      debug info: %s (from the %s)\n",
			safe_text(di.debug_file, safe, sizeof(safe)), di.debug_from);
	else
		fprintf(out, "      debug info: missing (tried %s)\n",
			safe_text(di.tried, safe, sizeof(safe)));
}

static void print_binaries(FILE *out, const struct hwt_pd_summary *s,
			   const struct hwt_pd_summary_print_opts *o)
{
	char safe[8192];
	size_t missing = 0, files = 0;

	for (size_t i = 0; i < s->nbinaries; i++)
		files += is_file(s->binaries[i].path);
	fprintf(out, "binaries:    %zu files mapped\n", files);
	for (size_t i = 0; i < s->nbinaries; i++) {
		const char *path = s->binaries[i].path;
		const char *shown = safe_text(path, safe, sizeof(safe));

		if (!strncmp(path, "[kernel.kallsyms]", 17)) {
			fprintf(out, "  %s (the kernel: decoding it needs "
				"/proc/kcore or the traced kernel's vmlinux)\n",
				shown);
		} else if (!is_file(path)) {
			fprintf(out, "  %s (not a file)\n", shown);
		} else if (readable(path, o->symfs)) {
			fprintf(out, "  %s\n", shown);
			print_symbols(out, o, path);
		} else {
			fprintf(out, "  %s MISSING\n", shown);
			missing++;
		}
	}
	fprintf(out, "missing:     %zu of %zu binaries are not on this machine"
		"%s%s%s\n", missing, files, o->symfs ? " nor under " : "",
		o->symfs ? o->symfs : "",
		missing ? "; decoding cannot follow code in them (use --symfs "
		"DIR with a copy of the traced system's files)" : "");
}

int hwt_pd_summary_print(FILE *out, const struct hwt_pd_reader *r,
			 const struct hwt_pd_summary *s,
			 const struct hwt_pd_summary_print_opts *o)
{
	static const struct hwt_pd_summary_print_opts none = {
		.size = sizeof(none), .symfs = NULL, .dso_info = NULL,
		.dso_arg = NULL,
	};

	if (!o)
		o = &none;
	if (o->size < sizeof(*o))
		return hwt_error(HWT_ERR_INVAL, "hwt_pd_summary_print: opts.size "
				 "%zu, expected %zu", o->size, sizeof(*o));
	print_origin(out, r);
	print_trigger(out, r);
	print_backend(out, s, r);
	print_counts(out, r, s);
	print_binaries(out, s, o);
	if (ferror(out))
		return hwt_error(HWT_ERR_IO, "writing the summary failed");
	return 0;
}
