/* hwt_pd_summary_print, the text of `hwtrace info`, on quipper's Intel PT
 * capture: its counts are those perf report -D of the same file shows
 * (perf.data.intel_pt-4.14.perf-report-D.txt: "TOTAL events: 257", the
 * AUXTRACE records of 0x2fd0 bytes on CPU 0 and 0x21a00 on CPU 3, the
 * AUX records' sizes, the files its MMAP and MMAP2 records map), a binary
 * put under --symfs stops being missing and gets the symbol lines its
 * callback gives, and hwt_backends_print_decoders names the registry's
 * backends. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"
#include "hwtrace/backend.h"
#include "hwtrace/error.h"
#include "hwtrace/pd_summary.h"
#include "hwtrace/symbols.h"

#define QUIPPER HWT_TESTDATA "/perf-data/quipper/perf.data.intel_pt-4.14"
#define PERF_D QUIPPER ".perf-report-D.txt"
#define COREUTILS "/usr/bin/coreutils"

/* What perf report -D says: the distinct files mapped (paths from '/')
 * and the sum of the AUX records' sizes. */
static void perf_facts(size_t *files, unsigned long long *aux_bytes)
{
	FILE *f = fopen(PERF_D, "r");
	char line[8192], seen[128][512];
	size_t nseen = 0;

	*files = 0;
	*aux_bytes = 0;
	CHECK(f != NULL);
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		const char *p;

		if ((p = strstr(line, "PERF_RECORD_AUX offset:")) &&
		    (p = strstr(p, "size: ")))
			*aux_bytes += strtoull(p + 6, NULL, 0);
		if (!strstr(line, "PERF_RECORD_MMAP") || !(p = strrchr(line, ' ')))
			continue;
		p++;
		line[strcspn(line, "\n")] = 0;
		if (p[0] != '/')
			continue;
		bool known = false;
		for (size_t i = 0; i < nseen; i++)
			known |= !strcmp(seen[i], p);
		if (!known && nseen < 128)
			snprintf(seen[nseen++], sizeof(seen[0]), "%s", p);
	}
	fclose(f);
	*files = nseen;
}

static int dso_calls;
static char dso_path[256];

/* Stands for the symbolizer: fixed facts, and which path was asked. */
static int fake_dso_info(void *arg, const char *path,
			 struct hwt_sym_dso_info *info)
{
	CHECK_STR((const char *)arg, "symbolizer");
	dso_calls++;
	snprintf(dso_path, sizeof(dso_path), "%s", path);
	memset(info, 0, sizeof(*info));
	info->path = path;
	info->nsymbols = 3;
	info->symbols_from = ".symtab";
	info->debug_file = "/d/coreutils.debug";
	info->debug_from = "debuglink";
	return 0;
}

/* The summary's text with @o, in a string to free. */
static char *summary_text(const struct hwt_pd_summary_print_opts *o, int *rc)
{
	struct hwt_pd_reader *r = NULL;
	struct hwt_pd_summary *s = NULL;
	char *text = NULL;
	size_t size = 0;

	*rc = -1;
	CHECK_INT(hwt_pd_reader_open(QUIPPER, &r), 0);
	if (!r)
		return NULL;
	CHECK_INT(hwt_pd_summarize(r, &s), 0);
	FILE *out = open_memstream(&text, &size);
	if (s && out)
		*rc = hwt_pd_summary_print(out, r, s, o);
	if (out)
		fclose(out);
	hwt_pd_summary_free(s);
	hwt_pd_reader_free(r);
	return text;
}

static void counts_as_perf(void)
{
	size_t files;
	unsigned long long aux_bytes;
	char want[512];
	int rc;

	perf_facts(&files, &aux_bytes);
	CHECK_U64(files, 64); /* 56 MMAP and 10 MMAP2, two not files */
	char *text = summary_text(NULL, &rc);
	CHECK_INT(rc, 0);
	if (!text)
		return;
	CHECK(!strncmp(text, "file:        " QUIPPER " (perf file mode)\n",
		       strlen("file:        " QUIPPER " (perf file mode)\n")));
	CHECK_CONTAINS(text, "\nhost:        localhost\n");
	CHECK_CONTAINS(text, "\nos release:  4.14.18\n");
	CHECK_CONTAINS(text, "\nbackend:     intel_pt (AUXTRACE_INFO type 1)");
	CHECK_CONTAINS(text, "\nevent:       intel_pt// (type 6, config 0x300e601)\n");
	CHECK_CONTAINS(text, "\nrecords:     257\n");
	CHECK_CONTAINS(text, "\ntrace:       149968 bytes in 2 AUXTRACE buffers\n"
			     "  cpu 0       12240 bytes in 1 buffers\n"
			     "  cpu 3       137728 bytes in 1 buffers\n");
	snprintf(want, sizeof(want), "\naux:         10 AUX records, %llu bytes "
		 "reported by the kernel\n", aux_bytes);
	CHECK_CONTAINS(text, want);
	CHECK_CONTAINS(text, "\n  3174/3174 echo\n");
	CHECK_CONTAINS(text, "\ncommands:    perf echo\n");
	snprintf(want, sizeof(want), "\nbinaries:    %zu files mapped\n"
		 "  [kernel.kallsyms]_text (the kernel: ", files);
	CHECK_CONTAINS(text, want);
	CHECK_CONTAINS(text, "\n  [vdso] (not a file)\n");
	if (access(COREUTILS, R_OK)) {
		CHECK_CONTAINS(text, "\n  " COREUTILS " MISSING\n");
		snprintf(want, sizeof(want), "\nmissing:     %zu of %zu binaries "
			 "are not on this machine; decoding cannot follow code "
			 "in them (use --symfs DIR with a copy of the traced "
			 "system's files)\n", files, files);
		CHECK_CONTAINS(text, want);
	}
	free(text);
}

/* A copy of one binary under symfs: found, and its symbol lines printed. */
static void symfs_finds_binary(void)
{
	char dir[] = "/tmp/hwt-symfs-XXXXXX", path[256], want[1024];
	size_t files;
	unsigned long long aux_bytes;
	int rc;

	perf_facts(&files, &aux_bytes);
	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/usr", dir);
	CHECK_INT(mkdir(path, 0700), 0);
	snprintf(path, sizeof(path), "%s/usr/bin", dir);
	CHECK_INT(mkdir(path, 0700), 0);
	snprintf(path, sizeof(path), "%s" COREUTILS, dir);
	FILE *f = fopen(path, "w");
	CHECK(f != NULL);
	if (f)
		fclose(f);
	struct hwt_pd_summary_print_opts o = {
		.size = sizeof(o), .symfs = dir, .dso_info = fake_dso_info,
		.dso_arg = "symbolizer",
	};
	dso_calls = 0;
	char *text = summary_text(&o, &rc);
	CHECK_INT(rc, 0);
	CHECK_INT(dso_calls, 1);
	CHECK_STR(dso_path, COREUTILS);
	if (text) {
		CHECK_CONTAINS(text, "\n  " COREUTILS "\n"
				     "      symbols:    3 functions from .symtab\n"
				     "      debug info: /d/coreutils.debug (from the "
				     "debuglink)\n");
		snprintf(want, sizeof(want), "\nmissing:     %zu of %zu binaries "
			 "are not on this machine nor under %s; decoding", files - 1,
			 files, dir);
		if (access(COREUTILS, R_OK) == 0)
			snprintf(want, sizeof(want), "\n  " COREUTILS "\n");
		CHECK_CONTAINS(text, want);
	}
	free(text);
	unlink(path);
	snprintf(path, sizeof(path), "%s/usr/bin", dir);
	rmdir(path);
	snprintf(path, sizeof(path), "%s/usr", dir);
	rmdir(path);
	rmdir(dir);
}

static void bad_opts_and_write_errors(void)
{
	struct hwt_pd_summary_print_opts o = {.size = 0, .symfs = NULL,
					      .dso_info = NULL, .dso_arg = NULL};
	int rc;
	char *text = summary_text(&o, &rc);

	CHECK_INT(rc, HWT_ERR_INVAL);
	CHECK(!text || !text[0]);
	free(text);

	struct hwt_pd_reader *r = NULL;
	struct hwt_pd_summary *s = NULL;
	FILE *ro = fopen(QUIPPER, "r"); /* writes to it fail */
	CHECK_INT(hwt_pd_reader_open(QUIPPER, &r), 0);
	if (r)
		CHECK_INT(hwt_pd_summarize(r, &s), 0);
	if (ro && s)
		CHECK_INT(hwt_pd_summary_print(ro, r, s, NULL), HWT_ERR_IO);
	if (ro) {
		CHECK_INT(hwt_backends_print_decoders(ro, "decoders:"), HWT_ERR_IO);
		fclose(ro);
	}
	hwt_pd_summary_free(s);
	hwt_pd_reader_free(r);
}

/* One line naming the backends with a decoder, then one per backend
 * without, as the registry has them. */
static void decoders_line(void)
{
	char *text = NULL, want[4096];
	size_t size = 0, pos, n = 0;
	const struct hwt_backend *b;
	FILE *out = open_memstream(&text, &size);

	CHECK(out != NULL);
	if (!out)
		return;
	CHECK_INT(hwt_backends_print_decoders(out, "Decoders:"), 0);
	fclose(out);
	pos = (size_t)snprintf(want, sizeof(want), "Decoders:");
	for (size_t i = 0; (b = hwt_backend_at(i)); i++)
		if (b->decoder)
			pos += (size_t)snprintf(want + pos, sizeof(want) - pos,
						"%s%s", n++ ? ", " : " ", b->name);
	pos += (size_t)snprintf(want + pos, sizeof(want) - pos, "%s\n",
				n ? "" : " none");
	CHECK(!strncmp(text, want, strlen(want))); /* the first line exactly */
	for (size_t i = 0; (b = hwt_backend_at(i)); i++) {
		char why[256];

		snprintf(why, sizeof(why), "\n  %s: no decoder: %s\n", b->name,
			 b->no_decoder_reason ? b->no_decoder_reason :
						"unknown reason");
		if (!b->decoder)
			CHECK_CONTAINS(text, why);
		else
			CHECK(!strstr(text, why));
	}
	CHECK_CONTAINS(text, " sw_branch"); /* always built: it decodes itself */
	if (hwt_backend_find("intel_pt") && hwt_backend_find("intel_pt")->decoder)
		CHECK(!strncmp(text, "Decoders: intel_pt", 18));
	else
		CHECK_CONTAINS(text, "\n  intel_pt: no decoder: ");
	free(text);
}

int main(void)
{
	RUN(counts_as_perf);
	RUN(symfs_finds_binary);
	RUN(bad_opts_and_write_errors);
	RUN(decoders_line);
	return hwt_test_summary();
}
