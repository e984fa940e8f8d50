/* The Chrome trace-event JSON format: {"traceEvents":[...]} with metadata
 * events naming processes and threads, a complete event ("ph":"X") per
 * call with its start and duration in microseconds, and instants. */
#include <inttypes.h>

#include "analysis/timeline/timeline_internal.h"

static void json_str(FILE *out, const char *s)
{
	fputc('"', out);
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c < 0x20)
			fprintf(out, "\\u%04x", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
}

static void sep(struct hwt_timeline *tl)
{
	if (!tl->first_event)
		fputs(",\n", tl->out);
	tl->first_event = false;
}

/* Microseconds with the nanoseconds as decimals. */
static void micros(FILE *out, uint64_t ns)
{
	fprintf(out, "%" PRIu64 ".%03" PRIu64, ns / 1000, ns % 1000);
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
	fprintf(tl->out, ",\"cat\":\"call\",\"ph\":\"X\",\"pid\":%" PRId32
		",\"tid\":%" PRId32 ",\"ts\":", t->pid, t->tid);
	micros(tl->out, ts);
	fputs(",\"dur\":", tl->out);
	micros(tl->out, dur);
	fprintf(tl->out, ",\"args\":{\"insns\":%" PRIu64 ",\"end\":\"%s\"}}",
		f->insns_total, hwt_frame_end_name(f->end));
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
	micros(tl->out, ts);
	fputc('}', tl->out);
	return tl_check_io(tl);
}

int tl_chrome_finish(struct hwt_timeline *tl)
{
	fputs("\n]}\n", tl->out);
	return tl_check_io(tl);
}
