/* Calls and returns as lines (include/hwtrace/calls.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/util/func_name.h"
#include "hwtrace/calls.h"
#include "hwtrace/error.h"
#include "hwtrace/text.h"

struct hwt_calls_writer {
	FILE *out;
	enum hwt_output_format format;
	struct hwt_func_namer namer;
	bool announced; /* the next inferred frame entered is printed */
};

/* Text lines are indented by depth; callers inferred after their callees
 * have negative depths and start at the margin. */
static int indent_of(int depth)
{
	return depth > 0 ? (depth > 200 ? 200 : depth) * 2 : 0;
}

static void text_prefix(FILE *out, const struct hwt_frame *f, bool has_time,
			uint64_t time)
{
	if (has_time)
		fprintf(out, "%" PRIu64 ".%09" PRIu64 " ", time / 1000000000u,
			time % 1000000000u);
	else
		fputs("- ", out);
	if (f->cpu >= 0)
		fprintf(out, "[%03" PRId32 "] ", f->cpu);
	fprintf(out, "%" PRId32 "/%" PRId32 " ", f->pid, f->tid);
}

static void json_common(FILE *out, const char *type,
			const struct hwt_frame *f, bool has_time,
			uint64_t time)
{
	fprintf(out, "{\"type\":\"%s\"", type);
	if (f->cpu >= 0)
		fprintf(out, ",\"cpu\":%" PRId32, f->cpu);
	if (f->pid >= 0)
		fprintf(out, ",\"pid\":%" PRId32, f->pid);
	if (f->tid >= 0)
		fprintf(out, ",\"tid\":%" PRId32, f->tid);
	if (has_time)
		fprintf(out, ",\"time\":%" PRIu64, time);
	fprintf(out, ",\"depth\":%d,\"addr\":\"0x%" PRIx64 "\",\"sym\":",
		f->depth, f->func);
}

static int check(struct hwt_calls_writer *w)
{
	if (ferror(w->out))
		return hwt_error(HWT_ERR_IO, "writing calls failed: %s",
				 strerror(errno));
	return 0;
}

/* A call line at @time (an inferred caller found later: when it was
 * found; its return's duration still counts from when it began). */
static int write_call(struct hwt_calls_writer *w, const struct hwt_frame *f,
		      uint64_t time)
{
	char buf[24];
	const char *name = hwt_func_name(&w->namer, f->pid, f->func, buf);
	if (w->format == HWT_OUTPUT_JSONL) {
		json_common(w->out, "call", f, f->has_time, time);
		hwt_json_fwrite(w->out, name, strlen(name));
		if (f->call_site)
			fprintf(w->out, ",\"from\":\"0x%" PRIx64 "\"",
				f->call_site);
		fprintf(w->out, ",\"start\":\"%s\"}\n",
			hwt_frame_start_name(f->start));
		return check(w);
	}
	text_prefix(w->out, f, f->has_time, time);
	fprintf(w->out, "%*s-> ", indent_of(f->depth), "");
	hwt_term_fwrite(w->out, name, strlen(name));
	if (f->start != HWT_FRAME_CALLED)
		fprintf(w->out, " [%s]", hwt_frame_start_name(f->start));
	fputc('\n', w->out);
	return check(w);
}

/* The caller of the outermost frame, found by its return: printed now,
 * before that return, in time order. */
static int frame_caller(void *arg, const struct hwt_frame *f, uint64_t time)
{
	struct hwt_calls_writer *w = arg;
	w->announced = true;
	return write_call(w, f, time);
}

static int frame_enter(void *arg, const struct hwt_frame *f)
{
	struct hwt_calls_writer *w = arg;
	if (w->announced && f->start == HWT_FRAME_INFERRED) {
		w->announced = false;
		return 0;
	}
	return write_call(w, f, f->call_time);
}

static int frame_exit(void *arg, const struct hwt_frame *f)
{
	struct hwt_calls_writer *w = arg;
	char buf[24];
	const char *name = hwt_func_name(&w->namer, f->pid, f->func, buf);
	if (w->format == HWT_OUTPUT_JSONL) {
		json_common(w->out, "return", f, f->has_time, f->return_time);
		hwt_json_fwrite(w->out, name, strlen(name));
		fprintf(w->out,
			",\"end\":\"%s\",\"insns\":%" PRIu64
			",\"insns_self\":%" PRIu64 ",\"branches\":%" PRIu64,
			hwt_frame_end_name(f->end), f->insns_total,
			f->insns_self, f->branches_total);
		if (f->has_time)
			fprintf(w->out, ",\"duration\":%" PRIu64,
				f->return_time - f->call_time);
		fputs("}\n", w->out);
		return check(w);
	}
	text_prefix(w->out, f, f->has_time, f->return_time);
	fprintf(w->out, "%*s<- ", indent_of(f->depth), "");
	hwt_term_fwrite(w->out, name, strlen(name));
	fprintf(w->out, "  %" PRIu64 " insns", f->insns_total);
	if (f->end != HWT_FRAME_RETURNED)
		fprintf(w->out, " [%s]", hwt_frame_end_name(f->end));
	fputc('\n', w->out);
	return check(w);
}


int hwt_calls_writer_new(FILE *out, enum hwt_output_format format,
			 const struct hwt_func_namer *namer,
			 struct hwt_calls_writer **writer)
{
	struct hwt_calls_writer *w = calloc(1, sizeof(*w));
	if (!w)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	w->out = out;
	w->format = format;
	if (namer)
		w->namer = *namer;
	*writer = w;
	return 0;
}

void hwt_calls_writer_free(struct hwt_calls_writer *w)
{
	free(w);
}

struct hwt_stack_ops hwt_calls_writer_ops(struct hwt_calls_writer *w)
{
	struct hwt_stack_ops ops = {
		.on_enter = frame_enter,
		.on_exit = frame_exit,
		.on_caller = frame_caller,
		.arg = w,
	};
	return ops;
}
