/* hwt_pd_summary_print_symbols, the text of `hwtrace info`: on a
 * generated Intel BTS capture mapping a file of raw code
 * (tests/unit/bts_capture.h) and on the quipper Intel PT capture, the
 * text is what hwt_pd_summary_print writes given a symbolizer's
 * hwt_symbolizer_dso_info by hand, with @symfs too; for the raw code the
 * symbolizer's word on the file is in it (a "symbols:" line) and not in
 * the text printed without a symbolizer; its warnings reach the caller's
 * callback. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "bts_capture.h"
#include "hwtrace/error.h"
#include "hwtrace/pd_summary.h"
#include "hwtrace/perfdata.h"
#include "hwtrace/sym_setup.h"
#include "hwtrace/symbols.h"

#define PT HWT_TESTDATA "/perf-data/quipper/perf.data.intel_pt-4.14"

static char tmp[] = "/tmp/hwt-summary-symbols.XXXXXX";
static unsigned warnings;

static void count_warning(void *arg, const char *message)
{
	(void)message;
	(*(unsigned *)arg)++;
}

static int by_hand_info(void *sym, const char *path,
			struct hwt_sym_dso_info *info)
{
	return hwt_symbolizer_dso_info(sym, path, info);
}

/* The summary of @path printed three ways: the call, by hand with a
 * symbolizer, without one. */
static void printed(const char *path, const char *symfs, char **call,
		    char **hand, char **bare)
{
	struct hwt_pd_reader *r = NULL;
	struct hwt_pd_summary *s = NULL;
	size_t len;
	*call = *hand = *bare = NULL;
	CHECK_INT(hwt_pd_reader_open(path, &r), 0);
	if (!r)
		return;
	CHECK_INT(hwt_pd_summarize(r, &s), 0);
	FILE *f = open_memstream(call, &len);
	CHECK_INT(hwt_pd_summary_print_symbols(f, r, s, symfs, count_warning,
					       &warnings), 0);
	fclose(f);

	struct hwt_symbolizer *sym = NULL;
	struct hwt_sym_opts so = {.size = sizeof(so), .symfs = symfs};
	CHECK_INT(hwt_symbolizer_new(&so, &sym), 0);
	struct hwt_pd_summary_print_opts po = {.size = sizeof(po),
					       .symfs = symfs,
					       .dso_info = by_hand_info,
					       .dso_arg = sym};
	f = open_memstream(hand, &len);
	CHECK_INT(hwt_pd_summary_print(f, r, s, &po), 0);
	fclose(f);
	hwt_symbolizer_free(sym);

	f = open_memstream(bare, &len);
	CHECK_INT(hwt_pd_summary_print(f, r, s, NULL), 0);
	fclose(f);
	hwt_pd_summary_free(s);
	hwt_pd_reader_free(r);
}

static void raw_code_capture(void)
{
	char code[300], data[300];
	snprintf(code, sizeof(code), "%s/code.bin", tmp);
	snprintf(data, sizeof(data), "%s/bts.data", tmp);
	CHECK_INT(bts_capture_write_code(code), 0);
	struct bts_written w[BTS_NTHREADS];
	struct bts_capture c = {.code_path = code, .seed = 2, .npieces = 1,
				.records = 10};
	CHECK_INT(bts_capture_write(data, &c, w), 0);
	char *call, *hand, *bare;
	warnings = 0;
	printed(data, NULL, &call, &hand, &bare);
	CHECK(call && hand && bare);
	if (call && hand && bare) {
		CHECK_STR(call, hand);
		CHECK_CONTAINS(call, code);
		CHECK_CONTAINS(call, "symbols:");
		CHECK(!strstr(bare, "symbols:"));
		/* The raw file is not ELF: one warning, to the callback. */
		CHECK_INT(warnings, 1);
	}
	free(call);
	free(hand);
	free(bare);
	unlink(data);
	unlink(code);
}

static void quipper_with_symfs(void)
{
	char *call, *hand, *bare;
	printed(PT, tmp, &call, &hand, &bare);
	CHECK(call && hand);
	if (call && hand)
		CHECK_STR(call, hand);
	CHECK_CONTAINS(call, "intel_pt");
	free(call);
	free(hand);
	free(bare);
}

int main(void)
{
	if (!mkdtemp(tmp)) {
		perror(tmp);
		return 1;
	}
	RUN(raw_code_capture);
	RUN(quipper_with_symfs);
	rmdir(tmp);
	return hwt_test_summary();
}
