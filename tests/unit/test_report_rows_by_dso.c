/* The report's rows are keyed by (binary, function): frames fed by hand
 * to hwt_report_ops, with a namer that gives two binaries a function of
 * one name (as crtstuff's frame_dummy is in a program and in each library)
 * and one function no binary is known for. The whole table is compared
 * with the exact text, in the default order and under hwt_report_set_sort,
 * and a partial result written, read back and merged with itself keeps
 * the binaries apart. */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "hwtrace/partial.h"
#include "hwtrace/report.h"

/* 0x1000: frame_dummy in prog; 0x2000: frame_dummy in libx.so; 0x3000:
 * main in prog; 0x4000: work, in no known binary. */
static const char *fake_name(void *arg, int32_t pid, uint64_t addr,
			     uint64_t *start)
{
	(void)arg;
	(void)pid;
	*start = addr;
	return addr == 0x3000 ? "main" : addr == 0x4000 ? "work"
						  : "frame_dummy";
}

static const char *fake_dso(void *arg, int32_t pid, uint64_t addr)
{
	(void)arg;
	(void)pid;
	return addr == 0x2000 ? "libx.so" : addr == 0x4000 ? NULL : "prog";
}

static const struct hwt_func_namer namer = {
	.name = fake_name, .dso = fake_dso,
};

/* One call of @func under main (tid 7) with @insns of its own. */
static void call(struct hwt_stack_ops *ops, const struct hwt_frame *caller,
		 uint64_t func, uint64_t insns)
{
	struct hwt_frame f = {
		.func = func, .call_site = 0x3010, .depth = 1, .pid = 7,
		.tid = 7, .cpu = -1, .start = HWT_FRAME_CALLED,
		.insns_self = insns, .insns_total = insns, .caller = caller,
	};
	CHECK_INT(ops->on_enter(ops->arg, &f), 0);
	CHECK_INT(ops->on_exit(ops->arg, &f), 0);
}

static struct hwt_report *make_report(void)
{
	struct hwt_report *r;
	CHECK_INT(hwt_report_new(&namer, &r), 0);
	struct hwt_stack_ops ops = hwt_report_ops(r);
	struct hwt_frame m = {
		.func = 0x3000, .depth = 0, .pid = 7, .tid = 7, .cpu = -1,
		.start = HWT_FRAME_CALLED, .insns_self = 5,
		.insns_total = 5 + 3 + 3 + 4 + 20,
	};
	CHECK_INT(ops.on_enter(ops.arg, &m), 0);
	call(&ops, &m, 0x1000, 3);
	call(&ops, &m, 0x2000, 3);
	call(&ops, &m, 0x2000, 4);
	call(&ops, &m, 0x4000, 20);
	CHECK_INT(ops.on_exit(ops.arg, &m), 0);
	return r;
}

/* The text @write puts in a stream. */
static char *table(struct hwt_report *r, const struct hwt_partial *p)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	CHECK(out != NULL);
	CHECK_INT(r ? hwt_report_write(r, out, 0, false)
		    : hwt_partial_write_report(p, out, 0), 0);
	fclose(out);
	return buf;
}

#define HEAD "# 35 instructions in 4 functions, 5 calls (tail calls and " \
	     "signal/trap entries included)\n"                            \
	     "#   self insns   self%  total insns  total%     calls  dso     " \
	     "   function\n"
#define ROW_WORK "            20  57.14%           20  57.14%         1  " \
		 "[unknown]  work\n"
#define ROW_LIBX "             7  20.00%            7  20.00%         2  " \
		 "libx.so    frame_dummy\n"
#define ROW_MAIN "             5  14.29%           35 100.00%         1  " \
		 "prog       main\n"
#define ROW_PROG "             3   8.57%            3   8.57%         1  " \
		 "prog       frame_dummy\n"

static void test_two_binaries_two_rows(void)
{
	struct hwt_report *r = make_report();
	size_t n;
	const struct hwt_report_func *f = hwt_report_funcs(r, &n);
	CHECK_U64(n, 4);
	CHECK_STR(f[1].name, "frame_dummy");
	CHECK_STR(f[1].dso, "prog");
	CHECK_STR(f[2].name, "frame_dummy");
	CHECK_STR(f[2].dso, "libx.so");
	CHECK_STR(f[3].dso, "[unknown]");
	char *t = table(r, NULL);
	CHECK_STR(t, HEAD ROW_WORK ROW_LIBX ROW_MAIN ROW_PROG);
	free(t);
	hwt_report_free(r);
}

static void test_sort_keys(void)
{
	struct hwt_report *r = make_report();
	const enum hwt_report_sort_key dso_sym[] = {HWT_SORT_DSO, HWT_SORT_SYM};
	CHECK_INT(hwt_report_set_sort(r, dso_sym, 2), 0);
	char *t = table(r, NULL);
	CHECK_STR(t, HEAD ROW_WORK ROW_LIBX ROW_PROG ROW_MAIN);
	free(t);
	/* sym first: the two frame_dummy rows by self instructions. */
	const enum hwt_report_sort_key sym[] = {HWT_SORT_SYM};
	CHECK_INT(hwt_report_set_sort(r, sym, 1), 0);
	t = table(r, NULL);
	CHECK_STR(t, HEAD ROW_LIBX ROW_PROG ROW_MAIN ROW_WORK);
	free(t);
	const enum hwt_report_sort_key calls_total[] = {HWT_SORT_CALLS,
							HWT_SORT_TOTAL};
	CHECK_INT(hwt_report_set_sort(r, calls_total, 2), 0);
	t = table(r, NULL);
	CHECK_STR(t, HEAD ROW_LIBX ROW_MAIN ROW_WORK ROW_PROG);
	free(t);
	const enum hwt_report_sort_key bad[] = {(enum hwt_report_sort_key)9};
	CHECK(hwt_report_set_sort(r, bad, 1) < 0);
	CHECK(hwt_report_set_sort(r, sym, 0) < 0);
	hwt_report_free(r);
}

static void test_partial_keeps_binaries(void)
{
	struct hwt_report *r = make_report();
	struct hwt_partial *p, *back, *twice;
	CHECK_INT(hwt_partial_from_report(r, false, &p), 0);
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	CHECK_INT(hwt_partial_write(p, out), 0);
	fclose(out);
	CHECK_CONTAINS(buf, "\nfunc frame_dummy libx.so 2 2 7 7 ");
	CHECK_CONTAINS(buf, "\nfunc frame_dummy prog 1 1 3 3 ");
	CHECK_CONTAINS(buf, "\nfunc work [unknown] 1 1 20 20 ");
	FILE *in = fmemopen(buf, len, "r");
	CHECK_INT(hwt_partial_read(in, "part", &back), 0);
	fclose(in);
	char *t = table(NULL, back);
	CHECK_STR(t, HEAD ROW_WORK ROW_LIBX ROW_MAIN ROW_PROG);
	free(t);
	in = fmemopen(buf, len, "r");
	CHECK_INT(hwt_partial_read(in, "part", &twice), 0);
	fclose(in);
	CHECK_INT(hwt_partial_merge(back, twice), 0);
	t = table(NULL, back);
	CHECK_CONTAINS(t, "# 70 instructions in 4 functions, 10 calls");
	CHECK_CONTAINS(t, "  libx.so    frame_dummy\n");
	CHECK_CONTAINS(t, "            14  20.00%           14  20.00%         4  libx.so");
	free(t);
	/* A func line without its binary, or with a path: refused. */
	const char *bad[] = {
		"hwtrace-partial 2 report\ntime ~ ~\nhas_time 0\n"
		"func main 1 1 5 5 0 0 0 0 0 0\nend 1\n",
		"hwtrace-partial 2 report\ntime ~ ~\nhas_time 0\n"
		"func main /bin/prog 1 1 5 5 0 0 0 0 0 0\nend 1\n",
	};
	for (size_t i = 0; i < 2; i++) {
		struct hwt_partial *q = NULL;
		in = fmemopen((void *)bad[i], strlen(bad[i]), "r");
		CHECK(hwt_partial_read(in, "bad", &q) < 0);
		fclose(in);
		hwt_partial_free(q);
	}
	/* Positive control: the same line with its binary reads. */
	const char *good = "hwtrace-partial 2 report\ntime ~ ~\nhas_time 0\n"
			   "func main prog 1 1 5 5 0 0 0 0 0 0\nend 1\n";
	struct hwt_partial *q = NULL;
	in = fmemopen((void *)good, strlen(good), "r");
	CHECK_INT(hwt_partial_read(in, "good", &q), 0);
	fclose(in);
	hwt_partial_free(q);
	free(buf);
	hwt_partial_free(p);
	hwt_partial_free(back);
	hwt_partial_free(twice);
	hwt_report_free(r);
}

int main(void)
{
	test_two_binaries_two_rows();
	test_sort_keys();
	test_partial_keeps_binaries();
	return hwt_test_summary();
}
