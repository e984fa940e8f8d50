/* The report's folded stacks (hwt_report_write_collapsed), kept as a
 * call-path tree and written by walking it, against the text they must
 * be: every stack "a;b;c COUNT" once, sorted bytewise as strcmp sorts
 * the whole lines' stacks.
 *  - Hand-made frames whose names make walking the tree in name order
 *    wrong ("a!" sorts between "a" and "a;...": '!' is below ';'),
 *    names that fold to one frame ("a;b" and "a b" both "a_b"; "dup" in
 *    two binaries), UTF-8; callers found after their callees ended, a cut
 *    that starts a new segment, and a second capture: exact text written
 *    out here. Writing in the middle must not end a live segment, and a
 *    partial result must give the same stacks.
 *  - Random call sequences over names that are prefixes of each other,
 *    against a model that keeps each stack as a string (the way the
 *    report used to) and sorts the lines with strcmp. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "hwtrace/partial.h"
#include "hwtrace/report.h"

static const char *const names[] = {
	[1] = "main", [2] = "a", [3] = "a!", [4] = "a;b", [5] = "a b",
	[6] = "dup", [7] = "dup", [8] = "\xc3\xa9", [9] = "leaf",
	[10] = "mid", [11] = "top", [12] = "x", [13] = "y", [14] = "z",
};

static const char *fake_name(void *arg, int32_t pid, uint64_t addr,
			     uint64_t *start)
{
	(void)arg;
	(void)pid;
	*start = addr;
	return addr < sizeof(names) / sizeof(names[0]) ? names[addr] : NULL;
}

static const char *fake_dso(void *arg, int32_t pid, uint64_t addr)
{
	(void)arg;
	(void)pid;
	return addr == 7 ? "lib.so" : "prog";
}

static const struct hwt_func_namer namer = {
	.name = fake_name, .dso = fake_dso,
};

static struct hwt_frame frame(uint64_t func, int depth, int32_t tid,
			      enum hwt_frame_start start, uint64_t insns)
{
	struct hwt_frame f = {
		.func = func, .depth = depth, .pid = tid, .tid = tid,
		.cpu = -1, .start = start, .insns_self = insns,
		.insns_total = insns,
	};
	return f;
}

static void enter(struct hwt_stack_ops *ops, const struct hwt_frame *f)
{
	CHECK_INT(ops->on_enter(ops->arg, f), 0);
}

static void leave(struct hwt_stack_ops *ops, const struct hwt_frame *f)
{
	CHECK_INT(ops->on_exit(ops->arg, f), 0);
}

/* One call of @func at depth 1 under thread 1's main. */
static void leaf_call(struct hwt_stack_ops *ops, uint64_t func,
		      uint64_t insns)
{
	struct hwt_frame f = frame(func, 1, 1, HWT_FRAME_CALLED, insns);
	enter(ops, &f);
	leave(ops, &f);
}

static char *collapsed(const struct hwt_report *r,
		       const struct hwt_partial *p)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	CHECK(out != NULL);
	CHECK_INT(r ? hwt_report_write_collapsed(r, out, HWT_WEIGHT_INSNS)
		    : hwt_partial_write_collapsed(p, out, HWT_WEIGHT_INSNS), 0);
	fclose(out);
	return buf;
}

static void test_order_names_and_segments(void)
{
	struct hwt_report *r;
	CHECK_INT(hwt_report_new(&namer, &r), 0);
	struct hwt_stack_ops ops = hwt_report_ops(r);

	/* Thread 1: main and its callees. */
	struct hwt_frame m = frame(1, 0, 1, HWT_FRAME_CALLED, 9);
	enter(&ops, &m);
	leaf_call(&ops, 2, 1);
	leaf_call(&ops, 3, 2);
	struct hwt_frame a = frame(2, 1, 1, HWT_FRAME_CALLED, 0);
	enter(&ops, &a);
	struct hwt_frame ab = frame(4, 2, 1, HWT_FRAME_CALLED, 3);
	enter(&ops, &ab);
	leave(&ops, &ab);
	leave(&ops, &a);
	leaf_call(&ops, 5, 4);
	leaf_call(&ops, 4, 5);
	leaf_call(&ops, 6, 6);
	leaf_call(&ops, 7, 7);
	leaf_call(&ops, 8, 8);
	leave(&ops, &m);

	/* Thread 2 starts inside leaf; mid and then top are found to be
	 * its callers after it ended. */
	struct hwt_frame l0 = frame(9, 0, 2, HWT_FRAME_INFERRED, 10);
	enter(&ops, &l0);
	leave(&ops, &l0);
	char *early = collapsed(r, NULL);
	CHECK_STR(early, "leaf 10\n"
			 "main 9\nmain;a 1\nmain;a! 2\nmain;a;a_b 3\n"
			 "main;a_b 9\nmain;dup 13\nmain;\xc3\xa9 8\n");
	free(early);
	struct hwt_frame mid = frame(10, -1, 2, HWT_FRAME_INFERRED, 30);
	enter(&ops, &mid);
	struct hwt_frame l1 = frame(9, 0, 2, HWT_FRAME_CALLED, 20);
	enter(&ops, &l1);
	leave(&ops, &l1);
	leave(&ops, &mid);
	struct hwt_frame top = frame(11, -2, 2, HWT_FRAME_INFERRED, 40);
	enter(&ops, &top);
	leave(&ops, &top);
	/* A cut: x starts a stack of its own, and y is found under it; the
	 * stacks before the cut get no y. */
	struct hwt_frame x = frame(12, 0, 2, HWT_FRAME_INFERRED, 50);
	enter(&ops, &x);
	leave(&ops, &x);
	struct hwt_frame y = frame(13, -1, 2, HWT_FRAME_INFERRED, 60);
	enter(&ops, &y);
	leave(&ops, &y);

	/* The next capture: its thread 2 is another thread. */
	hwt_report_end_capture(r);
	struct hwt_frame x2 = frame(12, 0, 2, HWT_FRAME_INFERRED, 5);
	enter(&ops, &x2);
	leave(&ops, &x2);
	struct hwt_frame z = frame(14, -1, 2, HWT_FRAME_INFERRED, 1);
	enter(&ops, &z);
	leave(&ops, &z);

	static const char want[] =
		"main 9\n"
		"main;a 1\n"
		"main;a! 2\n"
		"main;a;a_b 3\n"
		"main;a_b 9\n"
		"main;dup 13\n"
		"main;\xc3\xa9 8\n"
		"top 40\n"
		"top;mid 30\n"
		"top;mid;leaf 30\n"
		"y 60\n"
		"y;x 50\n"
		"z 1\n"
		"z;x 5\n";
	char *got = collapsed(r, NULL);
	CHECK_STR(got, want);
	free(got);
	/* Writing twice gives the same: writing ends no segment. */
	got = collapsed(r, NULL);
	CHECK_STR(got, want);
	free(got);
	struct hwt_partial *p = NULL;
	CHECK_INT(hwt_partial_from_report(r, false, &p), 0);
	got = p ? collapsed(NULL, p) : NULL;
	CHECK_STR(got, want);
	free(got);
	hwt_partial_free(p);
	hwt_report_free(r);
}

/* The model: stacks as strings, summed, then sorted with strcmp. */
struct model_line {
	char *stack;
	uint64_t insns;
};

static int by_stack(const void *a, const void *b)
{
	return strcmp(((const struct model_line *)a)->stack,
		      ((const struct model_line *)b)->stack);
}

static const char *const rnames[] = {
	NULL, "a", "a!", "a.b", "ab", "a0", "b", "b;", "a-", "\xc3\xa9",
};

static const char *random_name(void *arg, int32_t pid, uint64_t addr,
			       uint64_t *start)
{
	(void)arg;
	(void)pid;
	*start = addr;
	return rnames[addr];
}

/* The folded name: ';' and ' ' made '_'. */
static void fold_into(char *dst, const char *name)
{
	for (; *name; name++)
		*dst++ = (*name == ';' || *name == ' ') ? '_' : *name;
	*dst = 0;
}

static void test_random_stacks_match_model(void)
{
	const struct hwt_func_namer rnamer = {.name = random_name};
	srand(47);
	for (int round = 0; round < 40; round++) {
		struct hwt_report *r;
		CHECK_INT(hwt_report_new(&rnamer, &r), 0);
		struct hwt_stack_ops ops = hwt_report_ops(r);
		struct model_line lines[4096];
		size_t nlines = 0;
		struct hwt_frame open[12];
		char path[12 * 8];
		size_t depth = 0, plen[13] = {0};
		for (int step = 0; step < 600; step++) {
			bool call = depth == 0 ||
				    (depth < 12 && rand() % 100 < 55);
			if (call) {
				uint64_t func = 1 + (uint64_t)rand() % 9;
				open[depth] = frame(func, (int)depth, 1,
						    HWT_FRAME_CALLED,
						    1 + (uint64_t)rand() % 5);
				enter(&ops, &open[depth]);
				char folded[8];
				fold_into(folded, rnames[func]);
				size_t at = plen[depth];
				if (depth)
					path[at++] = ';';
				strcpy(path + at, folded);
				plen[depth + 1] = at + strlen(folded);
				depth++;
				continue;
			}
			depth--;
			leave(&ops, &open[depth]);
			path[plen[depth + 1]] = 0;
			size_t i = 0;
			while (i < nlines && strcmp(lines[i].stack, path))
				i++;
			if (i == nlines) {
				lines[nlines].stack = strdup(path);
				lines[nlines++].insns = 0;
			}
			lines[i].insns += open[depth].insns_self;
		}
		/* Frames still open have no stack line yet, in either. */
		qsort(lines, nlines, sizeof(lines[0]), by_stack);
		char *want = NULL;
		size_t len = 0;
		FILE *w = open_memstream(&want, &len);
		for (size_t i = 0; i < nlines; i++) {
			fprintf(w, "%s %" PRIu64 "\n", lines[i].stack,
				lines[i].insns);
			free(lines[i].stack);
		}
		fclose(w);
		char *got = collapsed(r, NULL);
		CHECK_STR(got, want);
		free(got);
		free(want);
		hwt_report_free(r);
	}
}

int main(void)
{
	RUN(test_order_names_and_segments);
	RUN(test_random_stacks_match_model);
	return hwt_test_summary();
}
