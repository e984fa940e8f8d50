/* The branch-profile partial (hwtrace/partial.h): branches of several
 * parts, one binary loaded at other addresses in each, merge by their
 * FILE+0xOFFSET texts to sums worked out by hand, in the decode's order
 * (most taken, then lowest address pair, then texts); the partial format
 * is the one docs/scale-out.md gives, byte for byte, and reads back; 50
 * random trees of merges over random cuts of one run of branches give the
 * bytes the decode's own writer (hwt_branch_profile_write) gives on the
 * whole run; names go through as the printers show them; and the
 * refusals. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "hwtrace/error.h"
#include "hwtrace/partial.h"
#include "hwtrace/sample.h"

/* What @write puts in a stream, as a string to free. */
static char *text_of(const struct hwt_partial *p, int format)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (format < 0)
		CHECK_INT(hwt_partial_write(p, f), 0);
	else
		CHECK_INT(hwt_partial_write_branch_profile(
				  p, f, (enum hwt_output_format)format), 0);
	fclose(f);
	return buf;
}

static struct hwt_partial *read_text(const char *text, int want)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	struct hwt_partial *p = NULL;
	CHECK_INT(hwt_partial_read(f, "t.part", &p), want);
	fclose(f);
	return p;
}

static void add(struct hwt_partial *p, const char *from, const char *to,
		uint64_t count, uint64_t from_addr, uint64_t to_addr)
{
	struct hwt_branch_count_rec rec = {
		.pid = 1, .from_addr = from_addr, .to_addr = to_addr,
		.from = from, .to = to, .count = count,
	};
	CHECK_INT(hwt_partial_branch_count(p, &rec), 0);
}

/* Five parts; /bin/a loaded at 0x400000, 0x7f0000 and 0x300000. */
static void make_parts(struct hwt_partial *v[5])
{
	for (int i = 0; i < 5; i++)
		CHECK_INT(hwt_partial_new_branch_profile(false, &v[i]), 0);
	add(v[0], "/bin/a+0x10", "/bin/a+0x20", 3, 0x400010, 0x400020);
	add(v[0], "0x1000", "0x2000", 2, 0x1000, 0x2000);
	add(v[1], "/bin/a+0x10", "/bin/a+0x20", 4, 0x7f0010, 0x7f0020);
	add(v[1], "/bin/b+0x8", "/bin/a+0x10", 5, 0x500008, 0x400010);
	add(v[2], "0x1000", "0x2000", 1, 0x1000, 0x2000);
	add(v[2], "/bin/b+0x8", "/bin/b+0x30", 2, 0x500008, 0x500030);
	add(v[3], "/bin/a+0x10", "/bin/a+0x20", 1, 0x300010, 0x300020);
	/* Another binary at the raw branch's addresses: two branches. */
	add(v[3], "/bin/c+0x1", "/bin/c+0x2", 3, 0x1000, 0x2000);
	add(v[4], "/bin/b+0x8", "/bin/b+0x30", 3, 0x600008, 0x600030);
}

/* Worked out by hand: a+0x10->a+0x20 3+4+1, b+0x8->b+0x30 2+3,
 * 0x1000->0x2000 2+1; equal counts by their lowest address pair
 * (0x400010 before 0x500030), then by text ('/' before '0'). */
static const char want_text[] =
	"/bin/a+0x10->/bin/a+0x20 8\n"
	"/bin/b+0x8->/bin/a+0x10 5\n"
	"/bin/b+0x8->/bin/b+0x30 5\n"
	"/bin/c+0x1->/bin/c+0x2 3\n"
	"0x1000->0x2000 3\n";

static const char want_partial[] =
	"hwtrace-partial 2 branch-profile\n"
	"named 0\n"
	"branch /bin/a+0x10 /bin/a+0x20 ~ ~ 8 0x300010 0x300020\n"
	"branch /bin/b+0x8 /bin/a+0x10 ~ ~ 5 0x500008 0x400010\n"
	"branch /bin/b+0x8 /bin/b+0x30 ~ ~ 5 0x500008 0x500030\n"
	"branch /bin/c+0x1 /bin/c+0x2 ~ ~ 3 0x1000 0x2000\n"
	"branch 0x1000 0x2000 ~ ~ 3 0x1000 0x2000\n"
	"end 5\n";

static void parts_add_up_by_text(void)
{
	struct hwt_partial *v[5];
	make_parts(v);
	for (int i = 1; i < 5; i++)
		CHECK_INT(hwt_partial_merge(v[0], v[i]), 0);
	char *t = text_of(v[0], HWT_OUTPUT_TEXT);
	CHECK_STR(t, want_text);
	free(t);
	t = text_of(v[0], -1);
	CHECK_STR(t, want_partial);
	free(t);
	t = text_of(v[0], HWT_OUTPUT_JSONL);
	CHECK_CONTAINS(t, "{\"type\":\"branch_count\",\"from\":\"/bin/a+0x10\","
		       "\"to\":\"/bin/a+0x20\",\"count\":8}\n");
	free(t);
	/* Read back: the same partial, and it merges with itself to twice
	 * the counts. */
	struct hwt_partial *r = read_text(want_partial, 0);
	if (r) {
		t = text_of(r, -1);
		CHECK_STR(t, want_partial);
		free(t);
		CHECK_INT(hwt_partial_merge(r, v[0]), 0);
		t = text_of(r, HWT_OUTPUT_TEXT);
		CHECK_CONTAINS(t, "/bin/a+0x10->/bin/a+0x20 16\n");
		CHECK_CONTAINS(t, "0x1000->0x2000 6\n");
		free(t);
	}
	hwt_partial_free(r);
	for (int i = 0; i < 5; i++)
		hwt_partial_free(v[i]);
}

/* Merges the partials @v[0..@n) in a random tree (random order, random
 * groups, groups of groups); frees them; returns the result. */
static struct hwt_partial *random_tree(struct hwt_partial **v, size_t n)
{
	while (n > 1) {
		for (size_t j = n - 1; j > 0; j--) {
			size_t k = (size_t)rand() % (j + 1);
			struct hwt_partial *x = v[j];
			v[j] = v[k];
			v[k] = x;
		}
		size_t out = 0;
		for (size_t j = 0; j < n;) {
			size_t g = 1 + (size_t)rand() % 3;
			struct hwt_partial *sum = v[j++];
			for (; g > 1 && j < n; g--, j++) {
				CHECK_INT(hwt_partial_merge(sum, v[j]), 0);
				hwt_partial_free(v[j]);
			}
			v[out++] = sum;
		}
		n = out;
	}
	return v[0];
}

/* The decode's writer over the whole run is the oracle: the run cut at
 * random into parts, each part's profile made a partial, the partials
 * merged in a random tree, written as text. With no image the texts
 * are the addresses, so the bytes must match exactly. */
static void random_trees_give_the_decodes_bytes(void)
{
	srand(41);
	enum { BRANCHES = 600, PARTS = 9 };
	for (int trial = 0; trial < 50; trial++) {
		uint64_t from[BRANCHES], to[BRANCHES];
		for (int i = 0; i < BRANCHES; i++) {
			/* Few distinct pairs, so that counts tie often. */
			from[i] = 0x1000 + 0x10 * (uint64_t)(rand() % 12);
			to[i] = 0x8000 + 0x10 * (uint64_t)(rand() % 6);
		}
		struct hwt_branch_profile *whole = hwt_branch_profile_new();
		struct hwt_branch_profile *part[PARTS];
		for (int k = 0; k < PARTS; k++)
			part[k] = hwt_branch_profile_new();
		for (int i = 0; i < BRANCHES; i++) {
			CHECK_INT(hwt_branch_profile_add(whole, 7, from[i], to[i]), 0);
			CHECK_INT(hwt_branch_profile_add(part[rand() % PARTS], 7,
							 from[i], to[i]), 0);
		}
		char *want = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&want, &len);
		CHECK_INT(hwt_branch_profile_write(whole, NULL, f), 0);
		fclose(f);
		struct hwt_partial *v[PARTS];
		for (int k = 0; k < PARTS; k++)
			CHECK_INT(hwt_partial_from_branch_profile(part[k], NULL, NULL,
								  NULL, &v[k]), 0);
		struct hwt_partial *sum = random_tree(v, PARTS);
		char *got = text_of(sum, HWT_OUTPUT_TEXT);
		CHECK_STR(got, want);
		/* Positive control: the profile is not empty and has ties. */
		CHECK(hwt_branch_profile_size(whole) > 40);
		free(got);
		free(want);
		hwt_partial_free(sum);
		hwt_branch_profile_free(whole);
		for (int k = 0; k < PARTS; k++)
			hwt_branch_profile_free(part[k]);
	}
	/* Every tree of the hand-made parts gives the one partial too. */
	for (int trial = 0; trial < 50; trial++) {
		struct hwt_partial *v[5];
		make_parts(v);
		struct hwt_partial *sum = random_tree(v, 5);
		char *t = text_of(sum, -1);
		CHECK_STR(t, want_partial);
		free(t);
		hwt_partial_free(sum);
	}
}

static void names_go_through(void)
{
	struct hwt_partial *p;
	CHECK_INT(hwt_partial_new_branch_profile(true, &p), 0);
	struct hwt_branch_count_rec rec = {
		.pid = 1, .from_addr = 0x10, .to_addr = 0x20,
		.from = "/bin/a+0x10", .to = "/bin/a+0x20", .count = 2,
		.named = true, .from_sym = "main+0x4", .to_sym = "[unknown]",
	};
	CHECK_INT(hwt_partial_branch_count(p, &rec), 0);
	rec.to = "0x30";
	rec.to_sym = NULL;
	CHECK_INT(hwt_partial_branch_count(p, &rec), 0);
	char *t = text_of(p, HWT_OUTPUT_TEXT);
	CHECK_STR(t, "/bin/a+0x10->/bin/a+0x20 2 main+0x4 [unknown]\n"
		  "/bin/a+0x10->0x30 2 main+0x4 ?\n");
	free(t);
	t = text_of(p, HWT_OUTPUT_JSONL);
	CHECK_STR(t, "{\"type\":\"branch_count\",\"from\":\"/bin/a+0x10\","
		  "\"to\":\"/bin/a+0x20\",\"count\":2,\"from_sym\":\"main+0x4\"}\n"
		  "{\"type\":\"branch_count\",\"from\":\"/bin/a+0x10\","
		  "\"to\":\"0x30\",\"count\":2,\"from_sym\":\"main+0x4\"}\n");
	free(t);
	t = text_of(p, -1);
	CHECK_STR(t, "hwtrace-partial 2 branch-profile\nnamed 1\n"
		  "branch /bin/a+0x10 /bin/a+0x20 main+0x4 [unknown] 2 0x10 0x20\n"
		  "branch /bin/a+0x10 0x30 main+0x4 ~ 2 0x10 0x20\n"
		  "end 2\n");
	struct hwt_partial *r = read_text(t, 0);
	free(t);
	if (r) {
		t = text_of(r, HWT_OUTPUT_TEXT);
		CHECK_CONTAINS(t, "/bin/a+0x10->0x30 2 main+0x4 ?\n");
		free(t);
	}
	/* A profile with names and one without do not add up. */
	struct hwt_partial *plain;
	CHECK_INT(hwt_partial_new_branch_profile(false, &plain), 0);
	CHECK_INT(hwt_partial_merge(p, plain), HWT_ERR_INVAL);
	CHECK_CONTAINS(hwt_errmsg(), "same symbol options");
	rec.named = true;
	CHECK_INT(hwt_partial_branch_count(plain, &rec), HWT_ERR_INVAL);
	hwt_partial_free(plain);
	hwt_partial_free(r);
	hwt_partial_free(p);
}

static void refusals(void)
{
	static const struct {
		const char *text, *msg;
	} bad[] = {
		{"hwtrace-partial 2 branch-profile\nbranch a b ~ ~ 1 0x1 0x2\n"
		 "end 1\n", "t.part: line 2: no named line"},
		{"hwtrace-partial 2 branch-profile\nnamed 0\n"
		 "branch a b ~ ~ 0 0x1 0x2\nend 1\n",
		 "t.part: line 3: a branch taken 0 times"},
		{"hwtrace-partial 2 branch-profile\nnamed 0\n"
		 "branch a b ~ ~ 1 0x1 0x2\nbranch a b ~ ~ 2 0x1 0x2\nend 2\n",
		 "t.part: line 4: a branch listed twice"},
		{"hwtrace-partial 2 branch-profile\nnamed 0\n"
		 "branch a b f ~ 1 0x1 0x2\nend 1\n",
		 "t.part: line 3: a name in a profile without names"},
		{"hwtrace-partial 2 branch-profile\nnamed 0\n"
		 "branch a ~ ~ ~ 1 0x1 0x2\nend 1\n",
		 "t.part: line 3: a branch end whose text is absent or empty"},
		{"hwtrace-partial 2 branch-profile\nnamed 0\n"
		 "branch a b ~ ~ 1 0x1\nend 1\n",
		 "t.part: line 3: branch: 7 fields where 8 belong"},
		{"hwtrace-partial 2 branch-profile\nnamed 0\n"
		 "branch a b ~ ~ 1 1 0x2\nend 1\n",
		 "t.part: line 3: an address without 0x"},
		{"hwtrace-partial 2 branch-profile\nnamed 0\n"
		 "edge 0x1 0x2 3\nend 1\n",
		 "t.part: line 3: a line of no known kind"},
		{"hwtrace-partial 2 branch-profile\nnamed 0\n"
		 "branch a b ~ ~ 1 0x1 0x2\nend 2\n",
		 "t.part: line 4: the end line counts other entries than the "
		 "file has"},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct hwt_partial *p = read_text(bad[i].text, HWT_ERR_FORMAT);
		CHECK(p == NULL);
		char want[256];
		snprintf(want, sizeof(want), "%s (not a partial result hwtrace "
			 "wrote, or cut short: decode its unit again)",
			 bad[i].msg);
		CHECK_STR(hwt_errmsg(), want);
	}
	/* Positive control: the same lines, right, are read. */
	struct hwt_partial *ok = read_text("hwtrace-partial 2 branch-profile\n"
					   "named 0\nbranch a b ~ ~ 1 0x1 0x2\n"
					   "end 1\n", 0);
	CHECK(ok != NULL);
	/* A sum past 2^64 - 1 is refused. */
	struct hwt_partial *big = read_text(
		"hwtrace-partial 2 branch-profile\nnamed 0\n"
		"branch a b ~ ~ 18446744073709551615 0x1 0x2\nend 1\n", 0);
	if (ok && big) {
		CHECK_INT(hwt_partial_merge(big, ok), HWT_ERR_FORMAT);
		CHECK_CONTAINS(hwt_errmsg(), "2^64 - 1");
	}
	/* Another kind gives no branch profile, and takes no branch. */
	struct hwt_edges *edges = hwt_edges_new();
	struct hwt_partial *e = NULL;
	CHECK_INT(hwt_partial_from_edges(edges, &e), 0);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	CHECK_INT(hwt_partial_write_branch_profile(e, f, HWT_OUTPUT_TEXT),
		  HWT_ERR_INVAL);
	fclose(f);
	free(buf);
	struct hwt_branch_count_rec rec = {.from = "a", .to = "b", .count = 1};
	CHECK_INT(hwt_partial_branch_count(e, &rec), HWT_ERR_INVAL);
	if (ok)
		CHECK_INT(hwt_partial_merge(ok, e), HWT_ERR_INVAL);
	hwt_partial_free(e);
	hwt_edges_free(edges);
	hwt_partial_free(big);
	hwt_partial_free(ok);
}

int main(void)
{
	RUN(parts_add_up_by_text);
	RUN(random_trees_give_the_decodes_bytes);
	RUN(names_go_through);
	RUN(refusals);
	return hwt_test_summary();
}
