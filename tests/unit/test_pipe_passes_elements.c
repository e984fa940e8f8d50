/* The element pipe (hwtrace/pipe.h): elements of every type, strings and
 * branch arrays included, reach the sink behind it in order and unchanged
 * when it runs on its own thread, as when it does not; the sink's error
 * stops the stream where the sink said it, reaches the emitting thread
 * with its message, and no element after it reaches the sink; a pipe
 * finished passes elements straight through, and starts again. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "elem_text.h"
#include "hwtrace/error.h"
#include "hwtrace/pipe.h"

#define N 200000

/* What the sink behind the pipe got: every element as a line (with a
 * sample's branches), and a failure to give at one element. */
struct got {
	struct elem_text text;
	uint64_t n;
	uint64_t fail_at; /* 0: never */
};

static int record(void *arg, const struct hwt_elem *e)
{
	struct got *g = arg;
	if (g->fail_at && g->n + 1 == g->fail_at)
		return hwt_error(HWT_ERR_IO, "writing element %" PRIu64
				 " failed: disk full", g->n + 1);
	g->n++;
	int err = elem_text_add(&g->text, e);
	if (err || e->type != HWT_ELEM_SAMPLE)
		return err;
	/* elem_text_add leaves a sample's body out. */
	char line[160];
	snprintf(line, sizeof(line), "sample %" PRIx64 " %" PRIu64 " %zu",
		 e->u.sample.ip, e->u.sample.period, e->u.sample.nbranches);
	for (size_t i = 0; i < e->u.sample.nbranches && !err; i++) {
		struct hwt_elem b = {.type = HWT_ELEM_BRANCH};
		b.u.branch.from = e->u.sample.branches[i].from;
		b.u.branch.to = e->u.sample.branches[i].to;
		b.u.branch.kind = e->u.sample.branches[i].kind;
		err = elem_text_add(&g->text, &b);
	}
	struct hwt_elem m = {.type = HWT_ELEM_ERROR};
	m.u.error.message = line;
	return err ? err : elem_text_add(&g->text, &m);
}

static uint64_t mix(uint64_t x)
{
	x = (x ^ (x >> 31)) * 0x7fb5d329728ea185ull;
	return x ^ (x >> 27);
}

/* Element @k: mostly ranges and branches in runs with the same common
 * fields, as decoders emit them, and every other type between, with
 * strings and branch arrays that change from one element to the next. */
static void make(uint64_t k, struct hwt_elem *e, char *text, size_t size,
		 struct hwt_branch_entry *br)
{
	uint64_t r = mix(k + 1);
	enum hwt_elem_type t = r % 16 < 12 ? (enum hwt_elem_type)(k & 1)
					   : (enum hwt_elem_type)(r % 9);
	hwt_elem_clear(e, t);
	e->fields = HWT_FIELD_CPU | HWT_FIELD_TID | HWT_FIELD_TIME;
	e->cpu = (int32_t)(k / 1000 % 4);
	e->tid = 100 + e->cpu;
	e->time = k / 37;
	e->trace_offset = k / 5;
	snprintf(text, size, "text of element %" PRIu64, k);
	switch (t) {
	case HWT_ELEM_RANGE:
		e->u.range.start = 0x400000 + (r >> 20 & 0xffff);
		e->u.range.end = e->u.range.start + (r & 31);
		e->u.range.insns = r & 7;
		e->u.range.text = r % 97 ? NULL : text;
		break;
	case HWT_ELEM_BRANCH:
		e->u.branch.from = r;
		e->u.branch.to = ~r;
		e->u.branch.kind = (enum hwt_branch_kind)(r % 5);
		break;
	case HWT_ELEM_GAP:
		e->u.gap.reason = (enum hwt_gap_reason)(r % 3);
		e->u.gap.bytes = r >> 30;
		e->u.gap.detail = r & 1 ? text : NULL;
		break;
	case HWT_ELEM_ERROR:
		e->u.error.message = text;
		break;
	case HWT_ELEM_SAMPLE:
		e->u.sample.ip = r;
		e->u.sample.period = r >> 3;
		e->u.sample.nbranches = r % 5;
		for (size_t i = 0; i < e->u.sample.nbranches; i++)
			br[i] = (struct hwt_branch_entry){r + i, r - i,
							  HWT_BRANCH_CALL};
		e->u.sample.branches = e->u.sample.nbranches ? br : NULL;
		break;
	default:
		e->u.trace.at = r;
		break;
	}
}

/* Emits elements @from..@to-1 into @sink; returns the first error. */
static int emit_range(const struct hwt_elem_sink *sink, uint64_t from,
		      uint64_t to)
{
	for (uint64_t k = from; k < to; k++) {
		struct hwt_elem e;
		char text[64];
		struct hwt_branch_entry br[4];
		make(k, &e, text, sizeof(text), br);
		int err = sink->emit(sink->arg, &e);
		/* The strings are the emitter's again: the pipe copied. */
		memset(text, 'x', sizeof(text) - 1);
		memset(br, 0xee, sizeof(br));
		if (err < 0)
			return err;
	}
	return 0;
}

static void same_stream_on_a_thread(void)
{
	struct got direct = {0}, piped = {0};
	struct hwt_elem_sink d = {record, &direct}, p = {record, &piped};
	CHECK_INT(emit_range(&d, 0, N), 0);

	struct hwt_pipe *pipe;
	CHECK_INT(hwt_pipe_new(&p, &pipe), 0);
	struct hwt_elem_sink in = hwt_pipe_sink(pipe);
	/* Straight through before the start, on a thread after it, and
	 * straight through again once finished. */
	CHECK_INT(emit_range(&in, 0, 1000), 0);
	CHECK_U64(piped.n, 1000);
	CHECK_INT(hwt_pipe_start(pipe), 0);
	CHECK_INT(emit_range(&in, 1000, N / 2), 0);
	CHECK_INT(hwt_pipe_finish(pipe), 0);
	CHECK_U64(piped.n, N / 2);
	/* Started again: the rest, but one, on the thread. */
	CHECK_INT(hwt_pipe_start(pipe), 0);
	CHECK_INT(emit_range(&in, N / 2, N - 1), 0);
	CHECK_INT(hwt_pipe_finish(pipe), 0);
	CHECK_INT(emit_range(&in, N - 1, N), 0);
	hwt_pipe_free(pipe);

	CHECK_U64(piped.n, N);
	CHECK(direct.text.s && piped.text.s &&
	      !strcmp(direct.text.s, piped.text.s));
	elem_text_diff("piped", &direct.text, &piped.text);
	free(direct.text.s);
	free(piped.text.s);
}

static void sink_error_stops_the_stream(void)
{
	static const uint64_t fail_at[] = {1, 4096, 4097, 150001};
	for (size_t i = 0; i < sizeof(fail_at) / sizeof(fail_at[0]); i++) {
		struct got g = {.fail_at = fail_at[i]};
		struct hwt_elem_sink out = {record, &g};
		struct hwt_pipe *pipe;
		CHECK_INT(hwt_pipe_new(&out, &pipe), 0);
		CHECK_INT(hwt_pipe_start(pipe), 0);
		struct hwt_elem_sink in = hwt_pipe_sink(pipe);
		char want[80];
		snprintf(want, sizeof(want), "writing element %" PRIu64
			 " failed: disk full", fail_at[i]);
		/* The emitter learns of it at a batch's end, or at the
		 * finish when the error was in the last batch. */
		int err = emit_range(&in, 0, N);
		if (err) {
			CHECK_INT(err, HWT_ERR_IO);
			CHECK_STR(hwt_errmsg(), want);
		}
		CHECK_INT(hwt_pipe_finish(pipe), HWT_ERR_IO);
		CHECK_STR(hwt_errmsg(), want);
		/* A finished pipe has nothing more to say. */
		CHECK_INT(hwt_pipe_finish(pipe), 0);
		hwt_pipe_free(pipe);
		/* The sink got the elements before the one it refused,
		 * and nothing after. */
		CHECK_U64(g.n, fail_at[i] - 1);
		struct got want_text = {0};
		struct hwt_elem_sink d = {record, &want_text};
		CHECK_INT(emit_range(&d, 0, fail_at[i] - 1), 0);
		CHECK(!g.n || (g.text.s && want_text.text.s &&
			       !strcmp(g.text.s, want_text.text.s)));
		free(g.text.s);
		free(want_text.text.s);
	}
}

int main(void)
{
	RUN(same_stream_on_a_thread);
	RUN(sink_error_stops_the_stream);
	return hwt_test_summary();
}
