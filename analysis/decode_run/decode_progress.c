/* A decode's progress line (hwtrace/decode_progress.h). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "hwtrace/decode_progress.h"

/* Lines at most this often: a terminal redraw costs little, but more
 * than a few a second cannot be read anyway. */
#define REDRAW_SECONDS 0.25

static double monotonic_now(void *arg)
{
	(void)arg;
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double now(const struct hwt_progress_line *line)
{
	return line->opts.now ? line->opts.now(line->opts.now_arg)
			      : monotonic_now(NULL);
}

void hwt_progress_line_start(struct hwt_progress_line *line,
			     const struct hwt_progress_line_opts *opts)
{
	memset(line, 0, sizeof(*line));
	if (opts && opts->size >= sizeof(*opts))
		line->opts = *opts;
	if (!line->opts.out)
		line->opts.terminal = false;
	line->begin = now(line);
	line->decode_begin = line->begin;
}

/* Whether a line is due now: the decode has lasted long enough and the
 * last line is old enough. */
static bool due(struct hwt_progress_line *line, double t)
{
	if (!line->opts.terminal || t - line->begin < line->opts.after ||
	    t < line->next)
		return false;
	line->next = t + REDRAW_SECONDS;
	return true;
}

/* "1m05s" or "12s" */
static void put_eta(char *buf, size_t size, double secs)
{
	uint64_t s = secs > 0 && secs < 1e9 ? (uint64_t)(secs + 0.5) : 0;
	if (s >= 60)
		snprintf(buf, size, "%" PRIu64 "m%02" PRIu64 "s", s / 60, s % 60);
	else
		snprintf(buf, size, "%" PRIu64 "s", s);
}

/* One step of @done of @total: bytes of trace, or merged elements. */
static void step(struct hwt_progress_line *line, uint64_t done,
		 uint64_t total, bool bytes)
{
	double t = now(line);
	if (!done)
		line->decode_begin = t;
	if (!due(line, t) || !total)
		return;
	double secs = t - line->decode_begin;
	double rate = secs > 0 ? done / secs : 0;
	char eta[32] = "?";
	if (rate > 0)
		put_eta(eta, sizeof(eta), (total - done) / rate);
	FILE *out = line->opts.out;
	const char *prefix = line->opts.prefix ? line->opts.prefix : "";
	if (bytes)
		fprintf(out, "\r\033[K%s%.1f of %.1f MB of trace decoded "
			"(%.0f%%), %.1f MB/s, %s left", prefix, done / 1e6,
			total / 1e6, 100.0 * done / total, rate / 1e6, eta);
	else
		fprintf(out, "\r\033[K%swriting the merged elements: %" PRIu64
			" of %" PRIu64 " (%.0f%%), %s left", prefix, done,
			total, 100.0 * done / total, eta);
	line->drawn = true;
}

void hwt_progress_line_decode(void *line, const struct hwt_decode_progress *p)
{
	step(line, p->done, p->total, true);
}

void hwt_progress_line_written(void *line, uint64_t done, uint64_t total)
{
	step(line, done, total, false);
}

void hwt_progress_line_erase(struct hwt_progress_line *line)
{
	if (!line->drawn)
		return;
	fputs("\r\033[K", line->opts.out);
	line->drawn = false;
}
