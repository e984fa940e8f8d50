/* hwt_merge_kind_* and hwt_partial_merge_files: the --kind names of
 * `hwtrace merge` (as its --help and docs/scale-out.md list them) and
 * the partials each merges; edge partials written by hand in the format
 * docs/scale-out.md specifies, read back from files and merged, the sums
 * worked out by hand; and the refusals, each message naming the file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "hwtrace/error.h"
#include "hwtrace/partial.h"

static char dir[] = "/tmp/hwt-partial-merge-files.XXXXXX";

/* Writes @text to the file @name in the test's directory; its path in
 * @path. */
static void put(const char *name, const char *text, char *path, size_t size)
{
	snprintf(path, size, "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	CHECK(f != NULL);
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* @p in the partial format, as a string to free. */
static char *partial_text(const struct hwt_partial *p)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	CHECK_INT(hwt_partial_write(p, f), 0);
	fclose(f);
	return buf;
}

static void kinds_are_named_as_the_cli_lists_them(void)
{
	static const struct {
		const char *name;
		enum hwt_merge_kind kind;
		enum hwt_partial_kind partial;
		bool per_binary;
	} want[] = {
		{"report", HWT_MERGE_REPORT, HWT_PARTIAL_REPORT, false},
		{"collapsed", HWT_MERGE_COLLAPSED, HWT_PARTIAL_REPORT, false},
		{"edges", HWT_MERGE_EDGES, HWT_PARTIAL_EDGES, false},
		{"autofdo", HWT_MERGE_AUTOFDO, HWT_PARTIAL_AUTOFDO, true},
		{"bolt", HWT_MERGE_BOLT, HWT_PARTIAL_BOLT, true},
		{"bolt-preagg", HWT_MERGE_BOLT_PREAGG, HWT_PARTIAL_BOLT_PREAGG,
		 true},
		{"pprof", HWT_MERGE_PPROF, HWT_PARTIAL_PPROF, false},
		{"sqlite", HWT_MERGE_SQLITE, HWT_PARTIAL_SQLITE, false},
		{"branch-profile", HWT_MERGE_BRANCH_PROFILE,
		 HWT_PARTIAL_BRANCH_PROFILE, false},
	};
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		enum hwt_merge_kind k = HWT_MERGE_REPORT;
		CHECK_INT(hwt_merge_kind_parse(want[i].name, &k), 0);
		CHECK_INT(k, want[i].kind);
		CHECK_STR(hwt_merge_kind_name(k), want[i].name);
		CHECK_INT(hwt_merge_kind_partial(k), want[i].partial);
		CHECK_INT(hwt_merge_kind_per_binary(k), want[i].per_binary);
	}
	enum hwt_merge_kind k = HWT_MERGE_PPROF;
	CHECK_INT(hwt_merge_kind_parse("Report", &k), HWT_ERR_INVAL);
	CHECK_INT(hwt_merge_kind_parse("bolt-pre", &k), HWT_ERR_INVAL);
	CHECK_INT(hwt_merge_kind_parse("", &k), HWT_ERR_INVAL);
	CHECK_INT(k, HWT_MERGE_PPROF);
}

static const char part_a[] =
	"hwtrace-partial 2 edges\n"
	"stats 1 2 3 4\n"
	"edge 0x1000 0x2000 5\n"
	"edge 0x3000 0x4000 7\n"
	"end 2\n";

static const char part_b[] =
	"hwtrace-partial 2 edges\n"
	"stats 10 20 30 40\n"
	"edge 0x1000 0x2000 1\n"
	"edge 0x5000 0x6000 2\n"
	"end 2\n";

static void edge_files_merge_to_their_sums(void)
{
	char a[128], b[128];
	put("a.part", part_a, a, sizeof(a));
	put("b.part", part_b, b, sizeof(b));
	/* Positive control: one file gives itself back. */
	const char *one[] = {a};
	struct hwt_partial *p = NULL;
	CHECK_INT(hwt_partial_merge_files(one, 1, HWT_PARTIAL_EDGES, &p), 0);
	char *text = p ? partial_text(p) : NULL;
	CHECK_STR(text, part_a);
	free(text);
	hwt_partial_free(p);

	/* The shared edge adds up, the others are kept, the stats add up;
	 * the order of the files does not matter. */
	static const char sum[] =
		"hwtrace-partial 2 edges\n"
		"stats 11 22 33 44\n"
		"edge 0x1000 0x2000 6\n"
		"edge 0x3000 0x4000 7\n"
		"edge 0x5000 0x6000 2\n"
		"end 3\n";
	const char *ab[] = {a, b}, *ba[] = {b, a};
	CHECK_INT(hwt_partial_merge_files(ab, 2, HWT_PARTIAL_EDGES, &p), 0);
	text = p ? partial_text(p) : NULL;
	CHECK_STR(text, sum);
	free(text);
	hwt_partial_free(p);
	CHECK_INT(hwt_partial_merge_files(ba, 2, HWT_PARTIAL_EDGES, &p), 0);
	text = p ? partial_text(p) : NULL;
	CHECK_STR(text, sum);
	free(text);

	/* As a stream kind, the merge writes what the edge writer writes;
	 * the per-binary kinds and sqlite are files, not a stream. */
	char *got = NULL, *direct = NULL;
	size_t len = 0;
	struct hwt_merge_write_opts opts = {
		.top = 25, .weight = HWT_WEIGHT_INSNS,
		.format = HWT_OUTPUT_TEXT,
	};
	FILE *f = open_memstream(&got, &len);
	CHECK_INT(hwt_partial_write_merged(p, HWT_MERGE_EDGES, &opts, f), 0);
	CHECK_INT(hwt_partial_write_merged(p, HWT_MERGE_BOLT, &opts, f),
		  HWT_ERR_INVAL);
	CHECK_STR(hwt_errmsg(), "a merged bolt partial is one file per binary: "
		  "hwt_partial_write_profiles writes them");
	CHECK_INT(hwt_partial_write_merged(p, HWT_MERGE_SQLITE, &opts, f),
		  HWT_ERR_INVAL);
	/* An edges partial has no report table. */
	CHECK_INT(hwt_partial_write_merged(p, HWT_MERGE_REPORT, &opts, f),
		  HWT_ERR_INVAL);
	fclose(f);
	f = open_memstream(&direct, &len);
	CHECK_INT(hwt_partial_write_edges(p, f, HWT_OUTPUT_TEXT), 0);
	fclose(f);
	CHECK(got && direct && strstr(got, "0x5000") != NULL);
	CHECK_STR(got, direct);
	free(got);
	free(direct);
	hwt_partial_free(p);
	unlink(a);
	unlink(b);
}

static void refusals_name_the_file(void)
{
	char a[128], cut[128], big[128], one[128], missing[160], msg[512];
	put("a.part", part_a, a, sizeof(a));
	put("cut.part", "hwtrace-partial 2 edges\nstats 0 0 0 0\n"
	    "edge 0x1 0x2 3\nend 2\n", cut, sizeof(cut));
	put("big.part", "hwtrace-partial 2 edges\nstats 0 0 0 0\n"
	    "edge 0x1000 0x2000 18446744073709551615\nend 1\n", big,
	    sizeof(big));
	put("one.part", "hwtrace-partial 2 edges\nstats 0 0 0 0\n"
	    "edge 0x1000 0x2000 1\nend 1\n", one, sizeof(one));
	snprintf(missing, sizeof(missing), "%s/none.part", dir);
	struct hwt_partial *p = (struct hwt_partial *)1;

	const char *kind[] = {a};
	CHECK_INT(hwt_partial_merge_files(kind, 1, HWT_PARTIAL_REPORT, &p),
		  HWT_ERR_FORMAT);
	CHECK(p == NULL);
	snprintf(msg, sizeof(msg), "%s: a partial result of kind edges where "
		 "report was asked for", a);
	CHECK_STR(hwt_errmsg(), msg);

	/* The second file is the one named, though the first was read. */
	const char *cuts[] = {a, cut};
	CHECK(hwt_partial_merge_files(cuts, 2, HWT_PARTIAL_EDGES, &p) < 0);
	CHECK(p == NULL);
	CHECK(!strncmp(hwt_errmsg(), cut, strlen(cut)));

	/* A sum past 2^64 - 1 is refused, the message naming the part
	 * whose merge it was (the merge itself knows no file names). */
	const char *over[] = {big, one};
	CHECK_INT(hwt_partial_merge_files(over, 2, HWT_PARTIAL_EDGES, &p),
		  HWT_ERR_FORMAT);
	CHECK(p == NULL);
	snprintf(msg, sizeof(msg), "%s: ", one);
	CHECK(!strncmp(hwt_errmsg(), msg, strlen(msg)));

	const char *none[] = {a, missing};
	CHECK(hwt_partial_merge_files(none, 2, HWT_PARTIAL_EDGES, &p) < 0);
	CHECK(p == NULL);
	CHECK_CONTAINS(hwt_errmsg(), missing);

	CHECK_INT(hwt_partial_merge_files(NULL, 0, HWT_PARTIAL_EDGES, &p),
		  HWT_ERR_INVAL);
	CHECK(p == NULL);
	unlink(a);
	unlink(cut);
	unlink(big);
	unlink(one);
}

int main(void)
{
	if (!mkdtemp(dir))
		return 1;
	RUN(kinds_are_named_as_the_cli_lists_them);
	RUN(edge_files_merge_to_their_sums);
	RUN(refusals_name_the_file);
	rmdir(dir);
	return hwt_test_summary();
}
