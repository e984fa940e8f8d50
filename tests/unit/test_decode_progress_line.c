/* hwt_progress_line_*: the exact bytes of the progress line for a known
 * sequence of updates on a clock the test sets, written into a memory
 * stream. The expected lines are worked out by hand from the rule (the
 * first line after `after` seconds, at most one per quarter second, the
 * rate counted from the update with done 0, the time left rounded to
 * whole seconds). Controls: the same sequence writes nothing when the
 * stream is not a terminal, or with options too short to be read. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "hwtrace/decode_progress.h"

#define ERASE "\r\033[K"

static double clock_now;

static double test_clock(void *arg)
{
	(void)arg;
	return clock_now;
}

struct stream {
	char *buf;
	size_t len;
	size_t taken;   /* bytes stream_take returned already */
	FILE *f;
};

static void stream_open(struct stream *s)
{
	s->buf = NULL;
	s->len = 0;
	s->taken = 0;
	s->f = open_memstream(&s->buf, &s->len);
	CHECK(s->f != NULL);
}

/* What was written since the last call. */
static const char *stream_take(struct stream *s, char *out, size_t size)
{
	fflush(s->f);
	snprintf(out, size, "%s", s->buf ? s->buf + s->taken : "");
	s->taken = s->len;
	return out;
}

static void stream_close(struct stream *s)
{
	fclose(s->f);
	free(s->buf);
}

static void decode_at(struct hwt_progress_line *line, double t,
		      uint64_t done, uint64_t total)
{
	clock_now = t;
	struct hwt_decode_progress p = {done, total, 1};
	hwt_progress_line_decode(line, &p);
}

static void written_at(struct hwt_progress_line *line, double t,
		       uint64_t done, uint64_t total)
{
	clock_now = t;
	hwt_progress_line_written(line, done, total);
}

static struct hwt_progress_line_opts opts_of(FILE *out, bool terminal)
{
	struct hwt_progress_line_opts o;
	memset(&o, 0, sizeof(o));
	o.size = sizeof(o);
	o.out = out;
	o.terminal = terminal;
	o.after = HWT_PROGRESS_LINE_AFTER;
	o.prefix = "hwtrace decode: ";
	o.now = test_clock;
	return o;
}

/* The sequence, each step's bytes checked when @check (a terminal). */
static void run_sequence(struct hwt_progress_line *line, struct stream *s,
			 bool check)
{
	char got[512];
	const char *none = "";
	/* Too early (0.5 s and 1 s of the 2 s): nothing. */
	decode_at(line, 0.5, 0, 10000000);
	CHECK_STR(stream_take(s, got, sizeof(got)), none);
	decode_at(line, 1.0, 1000000, 10000000);
	CHECK_STR(stream_take(s, got, sizeof(got)), none);
	/* 2 MB in the 2 s since done 0: 1 MB/s, 8 MB left: 8 s. */
	decode_at(line, 2.5, 2000000, 10000000);
	CHECK_STR(stream_take(s, got, sizeof(got)),
		  check ? ERASE "hwtrace decode: 2.0 of 10.0 MB of trace "
			  "decoded (20%), 1.0 MB/s, 8s left" : none);
	/* 0.1 s after a line: too soon for another. */
	decode_at(line, 2.6, 3000000, 10000000);
	CHECK_STR(stream_take(s, got, sizeof(got)), none);
	/* A quarter second after it: 5 MB in 2.25 s, 2.2 MB/s, 2.25 s
	 * left shown as 2 s. */
	decode_at(line, 2.75, 5000000, 10000000);
	CHECK_STR(stream_take(s, got, sizeof(got)),
		  check ? ERASE "hwtrace decode: 5.0 of 10.0 MB of trace "
			  "decoded (50%), 2.2 MB/s, 2s left" : none);
	hwt_progress_line_erase(line);
	CHECK_STR(stream_take(s, got, sizeof(got)), check ? ERASE : none);
	/* Nothing drawn: nothing to erase. */
	hwt_progress_line_erase(line);
	CHECK_STR(stream_take(s, got, sizeof(got)), none);
	/* 3 MB in 180 s: 7 MB left take 420 s, in minutes. */
	decode_at(line, 180.5, 3000000, 10000000);
	CHECK_STR(stream_take(s, got, sizeof(got)),
		  check ? ERASE "hwtrace decode: 3.0 of 10.0 MB of trace "
			  "decoded (30%), 0.0 MB/s, 7m00s left" : none);
	/* The merge's write-back: its rate from its own done 0, unknown
	 * at first. */
	written_at(line, 181, 0, 200);
	CHECK_STR(stream_take(s, got, sizeof(got)),
		  check ? ERASE "hwtrace decode: writing the merged elements: "
			  "0 of 200 (0%), ? left" : none);
	written_at(line, 182, 50, 200);
	CHECK_STR(stream_take(s, got, sizeof(got)),
		  check ? ERASE "hwtrace decode: writing the merged elements: "
			  "50 of 200 (25%), 3s left" : none);
	/* A total of 0 draws nothing (no share of nothing). */
	written_at(line, 190, 0, 0);
	CHECK_STR(stream_take(s, got, sizeof(got)), none);
	hwt_progress_line_erase(line);
	CHECK_STR(stream_take(s, got, sizeof(got)), check ? ERASE : none);
}

static void test_terminal(void)
{
	struct stream s;
	stream_open(&s);
	struct hwt_progress_line_opts o = opts_of(s.f, true);
	struct hwt_progress_line line;
	clock_now = 0;
	hwt_progress_line_start(&line, &o);
	run_sequence(&line, &s, true);
	stream_close(&s);
}

static void test_not_terminal(void)
{
	struct stream s;
	stream_open(&s);
	struct hwt_progress_line_opts o = opts_of(s.f, false);
	struct hwt_progress_line line;
	clock_now = 0;
	hwt_progress_line_start(&line, &o);
	run_sequence(&line, &s, false);
	fflush(s.f);
	CHECK_INT((int)s.len, 0);
	stream_close(&s);

	/* Options too short to read: a line that never draws. */
	stream_open(&s);
	o = opts_of(s.f, true);
	o.size = 8;
	clock_now = 0;
	hwt_progress_line_start(&line, &o);
	decode_at(&line, 0, 0, 100);
	decode_at(&line, 50, 50, 100);
	hwt_progress_line_erase(&line);
	fflush(s.f);
	CHECK_INT((int)s.len, 0);
	stream_close(&s);
}

/* after 0 and no prefix: the first update with a total draws. */
static void test_at_once(void)
{
	struct stream s;
	stream_open(&s);
	struct hwt_progress_line_opts o = opts_of(s.f, true);
	o.after = 0;
	o.prefix = NULL;
	struct hwt_progress_line line;
	clock_now = 10;
	hwt_progress_line_start(&line, &o);
	decode_at(&line, 10, 0, 4000000);
	char got[256];
	CHECK_STR(stream_take(&s, got, sizeof(got)),
		  ERASE "0.0 of 4.0 MB of trace decoded (0%), 0.0 MB/s, ? left");
	stream_close(&s);
}

int main(void)
{
	RUN(test_terminal);
	RUN(test_not_terminal);
	RUN(test_at_once);
	return hwt_test_summary();
}
