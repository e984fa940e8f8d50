/* A cursor's decoder warnings with no warn callback of the caller's come
 * as error elements beside the others, not through the merge by time,
 * which would take the warning (no CPU, thread or time) for a stream of
 * its own. On simpleperf's LBR capture (one thread on one CPU; its
 * binary is not in the test data, so the decode warns once that the
 * ranges between records have no code): the time-ordered cursor gives
 * exactly the stream-ordered one's elements (one stream merged by time
 * is that stream), the warning among them once and at the same place;
 * with a warn callback the callback has it once and no element does.
 * The positive control: both orders give the capture's 386 branch
 * elements, as `hwtrace decode` lists them (a cursor that gave nothing
 * would agree with itself). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hwtrace/capture.h"
#include "hwtrace/error.h"
#include "harness.h"

#define LBR HWT_TESTDATA "/perf-data/simpleperf-lbr/perf_lbr.data"
#define WARNING "have no range element"

struct pulled {
	struct hwt_elem_record *v;
	size_t n, cap;
	size_t warnings, warning_at, branches;
};

static void pull_all(struct hwt_capture *cap, enum hwt_cursor_order order,
		     struct hwt_cursor_opts *o, struct pulled *p)
{
	memset(p, 0, sizeof(*p));
	o->order = order;
	struct hwt_cursor *cur;
	CHECK_INT(hwt_cursor_new(cap, o, &cur), 0);
	struct hwt_elem_record r[7]; /* small: many calls, runs split */
	int64_t got;
	while ((got = hwt_cursor_next_batch(cur, r, 7)) > 0) {
		for (int64_t i = 0; i < got; i++) {
			if (p->n == p->cap) {
				p->cap = p->cap ? 2 * p->cap : 1024;
				p->v = realloc(p->v, p->cap * sizeof(*p->v));
				if (!p->v)
					abort();
			}
			if (r[i].type == HWT_ELEM_ERROR && strstr(r[i].text, WARNING)) {
				p->warnings++;
				p->warning_at = p->n;
			}
			p->branches += r[i].type == HWT_ELEM_BRANCH;
			r[i].text = NULL; /* valid only until the next call */
			p->v[p->n++] = r[i];
		}
	}
	CHECK_INT((int)got, 0);
	hwt_cursor_free(cur);
}

static void called(void *arg, const char *message)
{
	*(unsigned *)arg += strstr(message, WARNING) != NULL;
}

/* Where the warning was in each order (for a look at a failure). */
static void say_where(const char *file, const struct pulled *t,
		      const struct pulled *s)
{
	if (t->warning_at != s->warning_at)
		fprintf(stderr, "%s: the warning is element %zu of %zu by time, "
			"%zu of %zu by stream\n", file, t->warning_at, t->n,
			s->warning_at, s->n);
}

int main(void)
{
	struct hwt_capture *cap;
	CHECK_INT(hwt_capture_open(LBR, NULL, &cap), 0);

	struct hwt_cursor_opts o = {.size = sizeof(o), .jobs = 1};
	struct pulled by_time, by_stream;
	pull_all(cap, HWT_CURSOR_ORDER_TIME, &o, &by_time);
	pull_all(cap, HWT_CURSOR_ORDER_STREAM, &o, &by_stream);
	CHECK_U64(by_stream.branches, 386);
	CHECK_U64(by_time.branches, by_stream.branches);
	CHECK_U64(by_time.n, by_stream.n);
	CHECK_U64(by_stream.warnings, 1);
	CHECK_U64(by_time.warnings, 1);
	say_where(LBR, &by_time, &by_stream);
	CHECK_U64(by_time.warning_at, by_stream.warning_at);
	CHECK(by_time.n == by_stream.n &&
	      !memcmp(by_time.v, by_stream.v, by_time.n * sizeof(*by_time.v)));

	unsigned calls = 0;
	o.warn = called;
	o.warn_arg = &calls;
	struct pulled quiet;
	pull_all(cap, HWT_CURSOR_ORDER_TIME, &o, &quiet);
	CHECK_INT((int)calls, 1);
	CHECK_U64(quiet.warnings, 0);
	CHECK_U64(quiet.n, by_time.n - 1);
	CHECK_U64(quiet.branches, by_time.branches);

	free(by_time.v);
	free(by_stream.v);
	free(quiet.v);
	hwt_capture_free(cap);
	return hwt_test_summary();
}
