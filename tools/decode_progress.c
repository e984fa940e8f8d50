/* hwtrace decode's progress line: see decode_progress.h. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "decode_progress.h"

/* Lines at most this often: a terminal redraw costs little, but more
 * than a few a second cannot be read anyway. */
#define REDRAW_SECONDS 0.25

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void cli_progress_init(struct cli_progress *p, bool quiet)
{
	*p = (struct cli_progress){0};
	p->on = !quiet && isatty(STDERR_FILENO);
	p->begin = now();
	p->decode_begin = p->begin;
	p->after = 2.0;
	const char *env = getenv(CLI_PROGRESS_AFTER_ENV);
	char *end;
	double v = env ? strtod(env, &end) : -1;
	if (env && end != env && !*end && v >= 0)
		p->after = v;
}

/* Whether a line is due now: the decode has lasted long enough and the
 * last line is old enough. */
static bool due(struct cli_progress *p, double t)
{
	if (!p->on || t - p->begin < p->after || t < p->next)
		return false;
	p->next = t + REDRAW_SECONDS;
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
static void step(struct cli_progress *p, uint64_t done, uint64_t total,
		 bool bytes)
{
	double t = now();
	if (!done)
		p->decode_begin = t;
	if (!due(p, t) || !total)
		return;
	double secs = t - p->decode_begin;
	double rate = secs > 0 ? done / secs : 0;
	char eta[32] = "?";
	if (rate > 0)
		put_eta(eta, sizeof(eta), (total - done) / rate);
	if (bytes)
		fprintf(stderr, "\r\033[Khwtrace decode: %.1f of %.1f MB of trace "
			"decoded (%.0f%%), %.1f MB/s, %s left", done / 1e6,
			total / 1e6, 100.0 * done / total, rate / 1e6, eta);
	else
		fprintf(stderr, "\r\033[Khwtrace decode: writing the merged "
			"elements: %" PRIu64 " of %" PRIu64 " (%.0f%%), %s left",
			done, total, 100.0 * done / total, eta);
	p->drawn = true;
}

void cli_progress_decode(struct cli_progress *p,
			 const struct hwt_decode_progress *dp)
{
	step(p, dp->done, dp->total, true);
}

void cli_progress_written(struct cli_progress *p, uint64_t written,
			  uint64_t total)
{
	step(p, written, total, false);
}

void cli_progress_erase(struct cli_progress *p)
{
	if (!p->drawn)
		return;
	fputs("\r\033[K", stderr);
	p->drawn = false;
}
