/* The Chrome trace-event JSON format: {"traceEvents":[...]} with metadata
 * events naming processes and threads, a complete event ("ph":"X") per
 * call with its start and duration in microseconds, and instants.
 *
 * A call's event carries its instructions as "args" (chrome://tracing
 * and Perfetto show them), except in the speedscope flavour: speedscope
 * names a frame by its name and its args together, so per-call args
 * would make every call of a function a function of its own there, and
 * its totals and sandwich view useless. How a frame ended, when it did
 * not return, goes in its category ("call,no_return"), which
 * chrome://tracing and Perfetto show and filter on. */
#include <inttypes.h>
#include <string.h>

#include "analysis/timeline/timeline_internal.h"
#include "hwtrace/text.h"

static void json_str(FILE *out, const char *s)
{
	hwt_json_fwrite(out, s ? s : "", s ? strlen(s) : 0);
}

static void sep(struct hwt_timeline *tl)
{
	if (!tl->first_event)
		fputs(",\n", tl->out);
	tl->first_event = false;
}

/* Times in microseconds, on a grid of 1/1024 us (under half a nanosecond
 * from the true time, so distinct nanoseconds stay distinct and in
 * order): a viewer adds "dur" to "ts" in doubles, and only binary
 * fractions add up exactly. With thousandths, a slice that ends where its
 * caller or the next one does (longjmp, trace off, a tail call) could end
 * a rounding error later, and speedscope then nests everything after it
 * wrongly. Exact while the time is under 2^43 us (101 days of the perf
 * clock, which counts from boot). */
static uint64_t grid(uint64_t ns)
{
	return ns / 125 * 128 + (ns % 125 * 128 + 62) / 125;
}

static void micros(FILE *out, uint64_t g)
{
	fprintf(out, "%" PRIu64, g >> 10);
	uint64_t frac = (g & 1023) * 9765625; /* 10^10 / 1024 */
	if (!frac)
		return;
	char digits[11];
	snprintf(digits, sizeof(digits), "%010" PRIu64, frac);
	size_t n = 10;
	while (digits[n - 1] == '0')
		n--;
	fprintf(out, ".%.*s", (int)n, digits);
}

int tl_chrome_start(struct hwt_timeline *tl)
{
	fputs("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n", tl->out);
	return tl_check_io(tl);
}

int tl_chrome_thread(struct hwt_timeline *tl, const struct tl_thread *t,
		     bool new_process)
{
	const char *pname = tl_process_name(tl, t->pid);
	if (new_process && pname) {
		sep(tl);
		fprintf(tl->out, "{\"name\":\"process_name\",\"ph\":\"M\","
			"\"pid\":%" PRId32 ",\"args\":{\"name\":", t->pid);
		json_str(tl->out, pname);
		fputs("}}", tl->out);
	}
	if (t->name) {
		sep(tl);
		fprintf(tl->out, "{\"name\":\"thread_name\",\"ph\":\"M\","
			"\"pid\":%" PRId32 ",\"tid\":%" PRId32
			",\"args\":{\"name\":", t->pid, t->tid);
		json_str(tl->out, t->name);
		fputs("}}", tl->out);
	}
	return tl_check_io(tl);
}

int tl_chrome_slice(struct hwt_timeline *tl, const struct tl_thread *t,
		    uint64_t ts, uint64_t dur, const char *name,
		    const struct hwt_frame *f)
{
	sep(tl);
	fputs("{\"name\":", tl->out);
	json_str(tl->out, name);
	fputs(",\"cat\":\"call", tl->out);
	if (f->end != HWT_FRAME_RETURNED)
		fprintf(tl->out, ",%s", hwt_frame_end_name(f->end));
	fprintf(tl->out, "\",\"ph\":\"X\",\"pid\":%" PRId32
		",\"tid\":%" PRId32 ",\"ts\":", t->pid, t->tid);
	micros(tl->out, grid(ts));
	fputs(",\"dur\":", tl->out);
	micros(tl->out, grid(ts + dur) - grid(ts));
	if (tl->opts.format == HWT_TIMELINE_CHROME)
		fprintf(tl->out, ",\"args\":{\"insns\":%" PRIu64
			",\"insns_self\":%" PRIu64 "}", f->insns_total,
			f->insns_self);
	fputc('}', tl->out);
	return tl_check_io(tl);
}

int tl_chrome_instant(struct hwt_timeline *tl, const struct tl_thread *t,
		      uint64_t ts, const char *name)
{
	sep(tl);
	fputs("{\"name\":", tl->out);
	json_str(tl->out, name);
	fprintf(tl->out, ",\"cat\":\"trace\",\"ph\":\"i\",\"s\":\"t\",\"pid\":%"
		PRId32 ",\"tid\":%" PRId32 ",\"ts\":", t->pid, t->tid);
	micros(tl->out, grid(ts));
	fputc('}', tl->out);
	return tl_check_io(tl);
}

int tl_chrome_finish(struct hwt_timeline *tl)
{
	fputs("\n]", tl->out);
	if (tl->stats.sequence)
		fputs(",\"otherData\":{\"clock\":\"sequence\",\"note\":\""
		      TL_SEQUENCE_NOTE "\"}", tl->out);
	fputs("}\n", tl->out);
	return tl_check_io(tl);
}
