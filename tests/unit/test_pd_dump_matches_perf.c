/* hwt_pd_dump_record (hwtrace/pd_dump.h) through the library alone: each
 * record line it writes for the quipper Intel PT capture is one of the
 * lines `perf report -D` printed for that file (the dump beside it), all
 * 257 of them; an options struct of an older size asks for neither hex
 * nor raw bytes; a stream that cannot be written is HWT_ERR_IO. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "hwtrace/error.h"
#include "hwtrace/pd_dump.h"
#include "hwtrace/perfdata.h"

#define PT HWT_TESTDATA "/perf-data/quipper/perf.data.intel_pt-4.14"
#define MAXLINES 512

/* The lines "[CPU TIME ]0xOFF [0xSIZE]: PERF_RECORD_..." of @text. */
static size_t record_lines(char *text, char **lines, size_t max)
{
	size_t n = 0;
	for (char *l = strtok(text, "\n"); l; l = strtok(NULL, "\n")) {
		char *p = strstr(l, "0x");
		if (p && strstr(l, "]: PERF_RECORD_") && n < max &&
		    (p == l || p[-1] == ' '))
			lines[n++] = l;
	}
	return n;
}

static int by_text(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t cap = 0;
	if (!f)
		return NULL;
	ssize_t n = getdelim(&buf, &cap, 0, f);
	fclose(f);
	if (n < 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

static void matches_perf(void)
{
	struct hwt_pd_reader *r;
	struct hwt_pd_record rec;
	char *ours = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&ours, &len);
	/* size 0: an older caller; hex and raw are past its end. */
	struct hwt_pd_dump_opts old = {.size = 0, .hex = true, .raw = true};

	CHECK_INT(hwt_pd_reader_open(PT, &r), 0);
	if (!out || !r)
		return;
	int n;
	while ((n = hwt_pd_reader_next(r, &rec)) > 0)
		CHECK_INT(hwt_pd_dump_record(out, r, &rec, &old), 0);
	CHECK_INT(n, 0);
	hwt_pd_reader_free(r);
	fclose(out);
	CHECK(!strstr(ours, "raw event"));
	CHECK(!strstr(ours, ".  0000:"));

	char *perf = slurp(PT ".perf-report-D.txt");
	CHECK(perf != NULL);
	if (!perf) {
		free(ours);
		return;
	}
	static char *a[MAXLINES], *b[MAXLINES];
	size_t na = record_lines(ours, a, MAXLINES);
	size_t nb = record_lines(perf, b, MAXLINES);
	CHECK_INT(na, 257);
	CHECK_INT(nb, 257);
	qsort(a, na, sizeof(*a), by_text);
	qsort(b, nb, sizeof(*b), by_text);
	for (size_t i = 0; i < na && i < nb; i++)
		CHECK_STR(a[i], b[i]);
	free(perf);
	free(ours);
}

static void write_error(void)
{
	struct hwt_pd_reader *r;
	struct hwt_pd_record rec;
	FILE *ro = fopen("/dev/null", "r");

	CHECK_INT(hwt_pd_reader_open(PT, &r), 0);
	if (!ro || !r)
		return;
	CHECK_INT(hwt_pd_reader_next(r, &rec), 1);
	CHECK_INT(hwt_pd_dump_record(ro, r, &rec, NULL), HWT_ERR_IO);
	CHECK_INT(hwt_pd_dump_header(ro, r), HWT_ERR_IO);
	hwt_pd_reader_free(r);
	fclose(ro);
}

int main(void)
{
	matches_perf();
	write_error();
	printf("%d checks, %d failed\n", hwt_test_checks, hwt_test_failures);
	return hwt_test_failures != 0;
}
