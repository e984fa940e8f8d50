/* Calls and returns as lines (include/hwtrace/calls.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/util/func_name.h"
#include "analysis/util/text_append.h"
#include "hwtrace/calls.h"
#include "hwtrace/error.h"
#include "hwtrace/text.h"

struct hwt_calls_writer {
	FILE *out;
	enum hwt_output_format format;
	struct hwt_func_namer namer;
	bool announced; /* the next inferred frame entered is printed */
	/* Lines not yet handed to @out: one fwrite per buffer, not per
	 * line. */
	char buf[64 * 1024];
	size_t len;
	char *big;      /* a line longer than the buffer */
	size_t big_size;
};

static int write_out(FILE *out, const char *s, size_t n)
{
	if (fwrite(s, 1, n, out) != n || ferror(out))
		return hwt_error(HWT_ERR_IO, "writing calls failed: %s",
				 strerror(errno));
	return 0;
}

int hwt_calls_writer_flush(struct hwt_calls_writer *w)
{
	size_t n = w->len;
	w->len = 0;
	return n ? write_out(w->out, w->buf, n) : 0;
}

/* Text lines are indented by depth; callers inferred after their callees
 * have negative depths and start at the margin. */
static size_t indent_of(int depth)
{
	return depth > 0 ? (size_t)(depth > 200 ? 200 : depth) * 2 : 0;
}

/* A thread or CPU number: almost always positive, then as unsigned (the
 * padding writer is not inlined, and took a twentieth of the time). */
static inline void put_id(struct hwt_text *t, int64_t v)
{
	if (v >= 0)
		hwt_text_u64(t, (uint64_t)v);
	else
		hwt_text_i64(t, v);
}

/* @v (below 10^@width) as exactly @width digits, zeros in front. */
static inline void put_zero_padded(struct hwt_text *t, uint64_t v,
				   size_t width)
{
	char d[20];
	for (size_t i = width; i-- > 0; v /= 10)
		d[i] = (char)('0' + v % 10);
	hwt_text_put(t, d, width);
}

/* @n spaces, 16 at a time where the buffer has room past them: a copy
 * of a variable length became a `rep movs`, slow to start for the few
 * bytes of most indents. */
static inline void put_spaces(struct hwt_text *t, size_t n)
{
	static const char sixteen[16] = {
		' ', ' ', ' ', ' ', ' ', ' ', ' ', ' ',
		' ', ' ', ' ', ' ', ' ', ' ', ' ', ' ',
	};
	if (t->len <= t->size && t->size - t->len >= n + 16) {
		char *d = t->buf + t->len;
		for (size_t i = 0; i < n; i += 16)
			memcpy(d + i, sixteen, 16);
		t->len += n;
		return;
	}
	for (size_t i = 0; i < n; i++)
		hwt_text_char(t, ' ');
}

/* "SEC.NSEC " (or "- " without time), "[CPU] ", "PID/TID ". */
static void text_prefix(struct hwt_text *t, const struct hwt_frame *f,
			bool has_time, uint64_t time)
{
	if (has_time) {
		hwt_text_u64(t, time / 1000000000u);
		hwt_text_char(t, '.');
		put_zero_padded(t, time % 1000000000u, 9);
		hwt_text_char(t, ' ');
	} else {
		hwt_text_lit(t, "- ");
	}
	if (f->cpu >= 0) {
		hwt_text_char(t, '[');
		if (f->cpu < 1000)
			put_zero_padded(t, (uint64_t)f->cpu, 3);
		else
			hwt_text_u64(t, (uint64_t)f->cpu);
		hwt_text_lit(t, "] ");
	}
	put_id(t, f->pid);
	hwt_text_char(t, '/');
	put_id(t, f->tid);
	hwt_text_char(t, ' ');
	put_spaces(t, indent_of(f->depth));
}

/* {"type":TYPE, the thread, the time, depth, addr and "sym": (its value
 * next). */
static void json_common(struct hwt_text *t, const char *type,
			const struct hwt_frame *f, bool has_time,
			uint64_t time)
{
	hwt_text_lit(t, "{\"type\":\"");
	hwt_text_str(t, type);
	hwt_text_char(t, '"');
	if (f->cpu >= 0) {
		hwt_text_lit(t, ",\"cpu\":");
		put_id(t, f->cpu);
	}
	if (f->pid >= 0) {
		hwt_text_lit(t, ",\"pid\":");
		put_id(t, f->pid);
	}
	if (f->tid >= 0) {
		hwt_text_lit(t, ",\"tid\":");
		put_id(t, f->tid);
	}
	if (has_time) {
		hwt_text_lit(t, ",\"time\":");
		hwt_text_u64(t, time);
	}
	hwt_text_lit(t, ",\"depth\":");
	put_id(t, f->depth);
	hwt_text_lit(t, ",\"addr\":\"0x");
	hwt_text_hex(t, f->func);
	hwt_text_lit(t, "\",\"sym\":");
}

/* A call line at @time (an inferred caller found later: when it was
 * found; its return's duration still counts from when it began). */
static void format_call(struct hwt_text *t, enum hwt_output_format format,
			const struct hwt_frame *f, uint64_t time,
			const char *name)
{
	if (format == HWT_OUTPUT_JSONL) {
		json_common(t, "call", f, f->has_time, time);
		hwt_text_json_str(t, name);
		if (f->call_site) {
			hwt_text_lit(t, ",\"from\":\"0x");
			hwt_text_hex(t, f->call_site);
			hwt_text_char(t, '"');
		}
		hwt_text_lit(t, ",\"start\":\"");
		hwt_text_str(t, hwt_frame_start_name(f->start));
		hwt_text_lit(t, "\"}\n");
		return;
	}
	text_prefix(t, f, f->has_time, time);
	hwt_text_lit(t, "-> ");
	hwt_text_term_str(t, name);
	if (f->start != HWT_FRAME_CALLED) {
		hwt_text_lit(t, " [");
		hwt_text_str(t, hwt_frame_start_name(f->start));
		hwt_text_char(t, ']');
	}
	hwt_text_char(t, '\n');
}

static void format_return(struct hwt_text *t, enum hwt_output_format format,
			  const struct hwt_frame *f, const char *name)
{
	if (format == HWT_OUTPUT_JSONL) {
		json_common(t, "return", f, f->has_time, f->return_time);
		hwt_text_json_str(t, name);
		hwt_text_lit(t, ",\"end\":\"");
		hwt_text_str(t, hwt_frame_end_name(f->end));
		hwt_text_lit(t, "\",\"insns\":");
		hwt_text_u64(t, f->insns_total);
		hwt_text_lit(t, ",\"insns_self\":");
		hwt_text_u64(t, f->insns_self);
		hwt_text_lit(t, ",\"branches\":");
		hwt_text_u64(t, f->branches_total);
		if (f->has_time) {
			hwt_text_lit(t, ",\"duration\":");
			hwt_text_u64(t, f->return_time - f->call_time);
		}
		hwt_text_lit(t, "}\n");
		return;
	}
	text_prefix(t, f, f->has_time, f->return_time);
	hwt_text_lit(t, "<- ");
	hwt_text_term_str(t, name);
	hwt_text_lit(t, "  ");
	hwt_text_u64(t, f->insns_total);
	hwt_text_lit(t, " insns");
	if (f->end != HWT_FRAME_RETURNED) {
		hwt_text_lit(t, " [");
		hwt_text_str(t, hwt_frame_end_name(f->end));
		hwt_text_char(t, ']');
	}
	hwt_text_char(t, '\n');
}

static void format_line(struct hwt_text *t, const struct hwt_calls_writer *w,
			const struct hwt_frame *f, bool is_return,
			uint64_t time, const char *name)
{
	if (is_return)
		format_return(t, w->format, f, name);
	else
		format_call(t, w->format, f, time, name);
}

/* Formats one line (a call, or a return when @is_return) at the end of
 * the writer's buffer, written out first when the line does not fit in
 * what is left; a line longer than the whole buffer (a long name) goes
 * out on its own. */
static int write_line(struct hwt_calls_writer *w, const struct hwt_frame *f,
		      bool is_return, uint64_t time)
{
	char name_buf[24];
	const char *name = hwt_func_name(&w->namer, f->pid, f->func, name_buf);
	struct hwt_text t = {w->buf + w->len, sizeof(w->buf) - w->len, 0};
	format_line(&t, w, f, is_return, time, name);
	if (t.len <= t.size) {
		w->len += t.len;
		return 0;
	}
	int err = hwt_calls_writer_flush(w);
	if (err)
		return err;
	size_t need = t.len;
	t = (struct hwt_text){w->buf, sizeof(w->buf), 0};
	if (need > sizeof(w->buf)) {
		if (need > w->big_size) {
			char *big = realloc(w->big, need);
			if (!big)
				return hwt_error(HWT_ERR_NOMEM, "out of memory");
			w->big = big;
			w->big_size = need;
		}
		t = (struct hwt_text){w->big, w->big_size, 0};
	}
	format_line(&t, w, f, is_return, time, name);
	if (t.buf == w->buf) {
		w->len = t.len;
		return 0;
	}
	return write_out(w->out, t.buf, t.len);
}

/* The caller of the outermost frame, found by its return: printed now,
 * before that return, in time order. */
static int frame_caller(void *arg, const struct hwt_frame *f, uint64_t time)
{
	struct hwt_calls_writer *w = arg;
	w->announced = true;
	return write_line(w, f, false, time);
}

static int frame_enter(void *arg, const struct hwt_frame *f)
{
	struct hwt_calls_writer *w = arg;
	if (w->announced && f->start == HWT_FRAME_INFERRED) {
		w->announced = false;
		return 0;
	}
	return write_line(w, f, false, f->call_time);
}

static int frame_exit(void *arg, const struct hwt_frame *f)
{
	return write_line(arg, f, true, 0);
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
	if (!w)
		return;
	/* An error stays on the stream, for its closer to see. */
	hwt_calls_writer_flush(w);
	free(w->big);
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
