/* The merge's read-back in slices (hwt_merge_finish_lanes): on six
 * streams (four CPUs, two threads) of 800,000 elements in all, with time
 * ties within and across streams, untimed elements, elements older than
 * their stream's last, elements at the largest time and strings, spilled
 * to the temporary file, 2, 3 and 8 lanes write through their flushes
 * exactly the sequence one reader (hwt_merge_finish) gives, cut into
 * several slices; one lane flushes every 65536 elements and gives it too;
 * a capture without time stamps is cut into runs of a stream's blocks
 * and gives its streams whole, in stream order, too. A lane's sink that
 * fails stops the read-back with
 * its error and message, and what was flushed is the sequence up to a
 * slice before the failure; a failing flush stops it too. */
#include <pthread.h>
#include <stdbool.h>

#include "harness.h"
#include "hwtrace/error.h"
#include "hwtrace/merge.h"

#define NSTREAMS 6
#define PER_STREAM 133334 /* 800,004 in all */

static uint64_t mix(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdull;
	k ^= k >> 33;
	return k;
}

/* Element @j of stream @s; @timed false: no element has a time. */
static void make(int s, uint64_t j, bool timed, struct hwt_elem *e,
		 char *text, size_t size)
{
	uint64_t r = mix((uint64_t)s << 40 | j);
	hwt_elem_clear(e, r % 5 == 0 ? HWT_ELEM_BRANCH : HWT_ELEM_RANGE);
	if (s < 4) {
		e->fields = HWT_FIELD_CPU | HWT_FIELD_TID;
		e->cpu = 3 - s; /* CPU 3's stream first, as decoders may */
	} else {
		e->fields = HWT_FIELD_TID;
	}
	e->tid = 100 + s;
	/* Streams 0 and 1 share their times; the others start apart. A
	 * time every third element, none on every 17th, an older one on
	 * every 1000th. */
	uint64_t base = s < 2 ? 500 : 500 + 7 * (uint64_t)s;
	if (timed && j % 17) {
		e->fields |= HWT_FIELD_TIME;
		e->time = base + j / 3 * 10 - (j % 1000 == 999 ? 25 : 0);
		/* The last stream ends at the largest time there is: a
		 * block starts there, which must not start a slice too. */
		if (s == NSTREAMS - 1 && j >= PER_STREAM - 60000)
			e->time = UINT64_MAX;
	}
	if (e->type == HWT_ELEM_RANGE) {
		e->u.range.start = 0x400000 + (r >> 16 & 0xfff);
		e->u.range.end = e->u.range.start + (r & 15) + 1;
		e->u.range.insns = r & 3;
		if (r >> 50 & 1) {
			snprintf(text, size, "op %d.%llu", s, (unsigned long long)j);
			e->u.range.text = text;
		}
	} else {
		e->u.branch.from = r;
		e->u.branch.to = r >> 7;
	}
}

static struct hwt_merge *filled(bool timed, const struct hwt_elem_sink *out)
{
	struct hwt_merge *m;
	CHECK_INT(hwt_merge_new(out, &m), 0);
	struct hwt_elem_sink in = hwt_merge_sink(m);
	char text[32];
	for (int s = 0; s < NSTREAMS; s++)
		for (uint64_t j = 0; j < PER_STREAM; j++) {
			struct hwt_elem e;
			make(s, j, timed, &e, text, sizeof(text));
			CHECK(in.emit(in.arg, &e) == 0);
		}
	return m;
}

/* An element as a number: its fields and its text. */
static uint64_t digest(const struct hwt_elem *e)
{
	struct hwt_elem c = *e;
	const char *text = c.type == HWT_ELEM_RANGE ? c.u.range.text : NULL;
	if (c.type == HWT_ELEM_RANGE)
		c.u.range.text = NULL;
	uint64_t h = 1469598103934665603ull;
	const unsigned char *p = (const unsigned char *)&c;
	for (size_t i = 0; i < sizeof(c); i++)
		h = (h ^ p[i]) * 1099511628211ull;
	for (; text && *text; text++)
		h = (h ^ (unsigned char)*text) * 1099511628211ull;
	return h;
}

struct seq {
	uint64_t *v;
	size_t n, cap;
};

static void seq_put(struct seq *q, uint64_t x)
{
	if (q->n == q->cap) {
		q->cap = q->cap ? q->cap * 2 : 4096;
		q->v = realloc(q->v, q->cap * sizeof(*q->v));
	}
	q->v[q->n++] = x;
}

static int record(void *arg, const struct hwt_elem *e)
{
	seq_put(arg, digest(e));
	return 0;
}

/* A lane: its slice's digests until its flush moves them to the shared
 * sequence. fail_at: the digest its sink fails at (0: none); fail_flush:
 * the flush that fails (0: none), counted over all lanes. */
struct lane {
	struct seq held;
	struct seq *out;
	uint64_t fail_at;
	size_t *flushes, fail_flush;
};

static int lane_emit(void *arg, const struct hwt_elem *e)
{
	struct lane *l = arg;
	uint64_t d = digest(e);
	if (l->fail_at && d == l->fail_at)
		return hwt_error(HWT_ERR_IO, "lane sink failed on purpose");
	seq_put(&l->held, d);
	return 0;
}

static int lane_flush(void *arg)
{
	struct lane *l = arg;
	if (l->fail_flush && ++*l->flushes == l->fail_flush)
		return hwt_error(HWT_ERR_IO, "flush failed on purpose");
	for (size_t i = 0; i < l->held.n; i++)
		seq_put(l->out, l->held.v[i]);
	l->held.n = 0;
	return 0;
}

/* Reads @m back on @n lanes into @out; returns what the read-back did. */
static int read_lanes(struct hwt_merge *m, size_t n, struct seq *out,
		      uint64_t fail_at, size_t fail_flush)
{
	struct lane lanes[8];
	struct hwt_merge_lane ml[8] = {0};
	size_t flushes = 0;
	for (size_t i = 0; i < n; i++) {
		lanes[i] = (struct lane){{0}, out, fail_at, &flushes, fail_flush};
		ml[i] = (struct hwt_merge_lane){{lane_emit, &lanes[i]},
						lane_flush, &lanes[i]};
	}
	int err = hwt_merge_finish_lanes(m, ml, n);
	for (size_t i = 0; i < n; i++)
		free(lanes[i].held.v);
	return err;
}

static bool same_prefix(const struct seq *a, const struct seq *b, size_t n)
{
	return a->n >= n && b->n >= n &&
	       !memcmp(a->v, b->v, n * sizeof(*a->v));
}

static void test_lanes_give_one_readers_sequence(const struct seq *want)
{
	size_t counts[] = {2, 3, 8};
	for (size_t c = 0; c < sizeof(counts) / sizeof(counts[0]); c++) {
		struct seq got = {0};
		struct hwt_merge *m = filled(true, &(struct hwt_elem_sink){0});
		/* Cut into several slices, so that lanes do run at once. */
		CHECK(hwt_merge_slices(m, counts[c]) >= 3);
		struct hwt_merge_stats st;
		hwt_merge_get_stats(m, &st);
		CHECK(st.spilled_bytes > 1024u * 1024);
		CHECK_INT(read_lanes(m, counts[c], &got, 0, 0), 0);
		CHECK_INT(got.n, want->n);
		CHECK(same_prefix(&got, want, want->n));
		hwt_merge_free(m);
		free(got.v);
	}
	/* One lane: everything, flushed as it goes. */
	struct seq got = {0};
	struct hwt_merge *m = filled(true, &(struct hwt_elem_sink){0});
	CHECK_INT(read_lanes(m, 1, &got, 0, 0), 0);
	CHECK_INT(got.n, want->n);
	CHECK(same_prefix(&got, want, want->n));
	hwt_merge_free(m);
	free(got.v);
}

/* Without time stamps: each stream whole, in the order the streams came,
 * on any number of lanes. */
static void test_untimed_in_stream_order(void)
{
	struct seq want = {0};
	struct hwt_elem_sink out = {record, &want};
	struct hwt_merge *m = filled(false, &out);
	CHECK_INT(hwt_merge_finish(m), 0);
	hwt_merge_free(m);
	/* The oracle: stream 0's elements, then stream 1's, ... */
	CHECK_INT(want.n, NSTREAMS * PER_STREAM);
	char text[32];
	size_t wrong = 0;
	for (int s = 0; s < NSTREAMS; s++)
		for (uint64_t j = 0; j < PER_STREAM; j++) {
			struct hwt_elem e;
			make(s, j, false, &e, text, sizeof(text));
			wrong += want.v[s * PER_STREAM + j] != digest(&e);
		}
	CHECK_INT(wrong, 0);
	size_t counts[] = {1, 2, 3, 8};
	for (size_t c = 0; c < sizeof(counts) / sizeof(counts[0]); c++) {
		struct seq got = {0};
		m = filled(false, &(struct hwt_elem_sink){0});
		/* 33 blocks a stream: a run of 32 and one of 1 each. */
		CHECK_INT(hwt_merge_slices(m, counts[c]),
			  counts[c] == 1 ? 1 : 2 * NSTREAMS);
		CHECK_INT(read_lanes(m, counts[c], &got, 0, 0), 0);
		CHECK_INT(got.n, want.n);
		CHECK(same_prefix(&got, &want, want.n));
		hwt_merge_free(m);
		free(got.v);
	}
	free(want.v);
}

static void test_failures_stop_in_slice_order(const struct seq *want)
{
	/* The sink fails on the element two thirds in. */
	size_t at = want->n * 2 / 3;
	struct seq got = {0};
	struct hwt_merge *m = filled(true, &(struct hwt_elem_sink){0});
	CHECK_INT(read_lanes(m, 3, &got, want->v[at], 0), HWT_ERR_IO);
	CHECK(strstr(hwt_errmsg(), "lane sink failed on purpose") != NULL);
	/* Flushed: whole slices before the failing one, in order. */
	CHECK(got.n > 0 && got.n <= at);
	CHECK(same_prefix(&got, want, got.n));
	hwt_merge_free(m);
	free(got.v);

	/* The second flush fails: only the first slice is out. */
	got.v = NULL;
	got.n = got.cap = 0;
	m = filled(true, &(struct hwt_elem_sink){0});
	CHECK_INT(read_lanes(m, 2, &got, 0, 2), HWT_ERR_IO);
	CHECK(strstr(hwt_errmsg(), "flush failed on purpose") != NULL);
	CHECK(got.n > 0 && got.n < want->n / 2);
	CHECK(same_prefix(&got, want, got.n));
	hwt_merge_free(m);
	free(got.v);
}

int main(void)
{
	struct seq want = {0};
	struct hwt_elem_sink out = {record, &want};
	struct hwt_merge *m = filled(true, &out);
	CHECK_INT(hwt_merge_finish(m), 0);
	CHECK_INT(want.n, NSTREAMS * PER_STREAM);
	hwt_merge_free(m);

	test_lanes_give_one_readers_sequence(&want);
	test_untimed_in_stream_order();
	test_failures_stop_in_slice_order(&want);
	free(want.v);
	printf("%d checks, %d failed\n", hwt_test_checks, hwt_test_failures);
	return hwt_test_failures != 0;
}
