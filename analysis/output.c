/* Text and JSON-lines formatting of elements. */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "hwtrace/error.h"
#include "hwtrace/output.h"

struct hwt_output {
	FILE *out;
	enum hwt_output_format format;
	char line[4096];
	struct hwt_output_annotator annotator;
	char extra[4096];
};

/* A bounded appender: keeps counting past the end like snprintf. */
struct line {
	char *buf;
	size_t size, len;
};

static void put(struct line *l, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void put(struct line *l, const char *fmt, ...)
{
	va_list ap;
	size_t room = l->len < l->size ? l->size - l->len : 0;

	va_start(ap, fmt);
	int n = vsnprintf(room ? l->buf + l->len : NULL, room, fmt, ap);
	va_end(ap);
	if (n > 0)
		l->len += (size_t)n;
}

static void put_json_string(struct line *l, const char *key, const char *s)
{
	put(l, ",\"%s\":\"", key);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			put(l, "\\%c", c);
		else if (c < 0x20)
			put(l, "\\u%04x", c);
		else
			put(l, "%c", c);
	}
	put(l, "\"");
}

static void format_sample_jsonl(struct line *l, const struct hwt_elem *e)
{
	put(l, ",\"ip\":\"0x%" PRIx64 "\"", e->u.sample.ip);
	if (e->u.sample.period)
		put(l, ",\"period\":%" PRIu64, e->u.sample.period);
	put(l, ",\"window\":%" PRIu64, e->u.sample.window);
	if (e->u.sample.sync < e->u.sample.window)
		put(l, ",\"sync\":%" PRIu64, e->u.sample.sync);
	put(l, ",\"branches\":[");
	for (size_t i = 0; i < e->u.sample.nbranches; i++) {
		const struct hwt_branch_entry *b = &e->u.sample.branches[i];
		put(l, "%s{\"from\":\"0x%" PRIx64 "\",\"to\":\"0x%" PRIx64
		    "\",\"kind\":\"%s\"}", i ? "," : "", b->from, b->to,
		    hwt_branch_kind_name(b->kind));
	}
	put(l, "]");
}

static void format_sample_text(struct line *l, const struct hwt_elem *e)
{
	put(l, "sample    ip 0x%" PRIx64, e->u.sample.ip);
	if (e->u.sample.period)
		put(l, " period %" PRIu64, e->u.sample.period);
	if (e->u.sample.sync < e->u.sample.window)
		put(l, " window %" PRIu64 " bytes (sync at %" PRIu64 ")",
		    e->u.sample.window, e->u.sample.sync);
	else
		put(l, " window %" PRIu64 " bytes (no sync point)",
		    e->u.sample.window);
	put(l, " %zu branches", e->u.sample.nbranches);
	for (size_t i = 0; i < e->u.sample.nbranches; i++) {
		const struct hwt_branch_entry *b = &e->u.sample.branches[i];
		put(l, "%s 0x%" PRIx64 "->0x%" PRIx64 " %s", i ? "," : ":",
		    b->from, b->to, hwt_branch_kind_name(b->kind));
	}
}

static void format_jsonl(struct line *l, const struct hwt_elem *e)
{
	put(l, "{\"type\":\"%s\"", hwt_elem_type_name(e->type));
	if (e->fields & HWT_FIELD_CPU)
		put(l, ",\"cpu\":%" PRId32, e->cpu);
	if (e->fields & HWT_FIELD_PID)
		put(l, ",\"pid\":%" PRId32, e->pid);
	if (e->fields & HWT_FIELD_TID)
		put(l, ",\"tid\":%" PRId32, e->tid);
	if (e->fields & HWT_FIELD_TASK_AMBIGUOUS)
		put(l, ",\"task\":\"ambiguous\"");

	switch (e->type) {
	case HWT_ELEM_RANGE:
		put(l, ",\"start\":\"0x%" PRIx64 "\",\"end\":\"0x%" PRIx64
		    "\",\"insns\":%" PRIu64,
		    e->u.range.start, e->u.range.end, e->u.range.insns);
		if (e->u.range.isa != HWT_ISA_UNKNOWN)
			put(l, ",\"isa\":\"%s\"", hwt_isa_name(e->u.range.isa));
		if (e->u.range.text)
			put_json_string(l, "insn", e->u.range.text);
		break;
	case HWT_ELEM_BRANCH:
		put(l, ",\"from\":\"0x%" PRIx64 "\",\"to\":\"0x%" PRIx64
		    "\",\"kind\":\"%s\"",
		    e->u.branch.from, e->u.branch.to,
		    hwt_branch_kind_name(e->u.branch.kind));
		if (e->fields & HWT_FIELD_EXC_NUM)
			put(l, ",\"exception\":%" PRIu32, e->u.branch.exception);
		break;
	case HWT_ELEM_TRACE_ON:
	case HWT_ELEM_TRACE_OFF:
		if (e->fields & HWT_FIELD_AT)
			put(l, ",\"at\":\"0x%" PRIx64 "\"", e->u.trace.at);
		break;
	case HWT_ELEM_CONTEXT:
		if (e->fields & HWT_FIELD_EL)
			put(l, ",\"el\":%" PRIu32, e->u.context.el);
		if (e->fields & HWT_FIELD_VMID)
			put(l, ",\"vmid\":%" PRIu32, e->u.context.vmid);
		break;
	case HWT_ELEM_GAP:
		put(l, ",\"reason\":\"%s\"", hwt_gap_reason_name(e->u.gap.reason));
		if (e->fields & HWT_FIELD_GAP_BYTES)
			put(l, ",\"bytes\":%" PRIu64, e->u.gap.bytes);
		if (e->fields & HWT_FIELD_OFFSET)
			put(l, ",\"offset\":%" PRIu64, e->trace_offset);
		if (e->u.gap.detail)
			put_json_string(l, "detail", e->u.gap.detail);
		break;
	case HWT_ELEM_ERROR:
		if (e->fields & HWT_FIELD_OFFSET)
			put(l, ",\"offset\":%" PRIu64, e->trace_offset);
		put_json_string(l, "message", e->u.error.message);
		break;
	case HWT_ELEM_TIMESTAMP:
		break;
	case HWT_ELEM_SAMPLE:
		format_sample_jsonl(l, e);
		break;
	}
	if (e->fields & HWT_FIELD_TIME)
		put(l, ",\"time\":%" PRIu64, e->time);
	put(l, "}");
}

static void format_text(struct line *l, const struct hwt_elem *e)
{
	if (e->fields & HWT_FIELD_CPU)
		put(l, "[%03" PRId32 "] ", e->cpu);
	if (e->fields & HWT_FIELD_TID)
		put(l, "%6" PRId32 " ", e->tid);
	else if (e->fields & HWT_FIELD_TASK_AMBIGUOUS)
		put(l, "     ? ");
	if (e->fields & HWT_FIELD_TIME)
		put(l, "%" PRIu64 ": ", e->time);

	switch (e->type) {
	case HWT_ELEM_RANGE:
		put(l, "range     0x%" PRIx64 "..0x%" PRIx64 " %" PRIu64 " insns",
		    e->u.range.start, e->u.range.end, e->u.range.insns);
		if (e->u.range.isa != HWT_ISA_UNKNOWN)
			put(l, " %s", hwt_isa_name(e->u.range.isa));
		if (e->u.range.text)
			put(l, "  %s", e->u.range.text);
		break;
	case HWT_ELEM_BRANCH:
		put(l, "branch    0x%" PRIx64 " -> 0x%" PRIx64 " %s",
		    e->u.branch.from, e->u.branch.to,
		    hwt_branch_kind_name(e->u.branch.kind));
		if (e->fields & HWT_FIELD_EXC_NUM)
			put(l, " #%" PRIu32, e->u.branch.exception);
		break;
	case HWT_ELEM_TRACE_ON:
	case HWT_ELEM_TRACE_OFF:
		put(l, "%s", e->type == HWT_ELEM_TRACE_ON ? "trace on " : "trace off");
		if (e->fields & HWT_FIELD_AT)
			put(l, " at 0x%" PRIx64, e->u.trace.at);
		break;
	case HWT_ELEM_TIMESTAMP:
		put(l, "timestamp");
		break;
	case HWT_ELEM_CONTEXT:
		put(l, "context  ");
		if (e->fields & HWT_FIELD_PID)
			put(l, " pid %" PRId32, e->pid);
		if (e->fields & HWT_FIELD_EL)
			put(l, " el%" PRIu32, e->u.context.el);
		if (e->fields & HWT_FIELD_VMID)
			put(l, " vmid %" PRIu32, e->u.context.vmid);
		break;
	case HWT_ELEM_GAP:
		put(l, "gap       %s", hwt_gap_reason_name(e->u.gap.reason));
		if (e->fields & HWT_FIELD_GAP_BYTES)
			put(l, " %" PRIu64 " bytes", e->u.gap.bytes);
		if (e->u.gap.detail)
			put(l, ": %s", e->u.gap.detail);
		break;
	case HWT_ELEM_ERROR:
		put(l, "error    ");
		if (e->fields & HWT_FIELD_OFFSET)
			put(l, " at offset %" PRIu64, e->trace_offset);
		put(l, ": %s", e->u.error.message);
		break;
	case HWT_ELEM_SAMPLE:
		format_sample_text(l, e);
		break;
	}
}

int hwt_elem_format(const struct hwt_elem *elem, enum hwt_output_format format,
		    char *buf, size_t size)
{
	struct line l = {buf, size, 0};

	if (size)
		buf[0] = '\0';
	if (format == HWT_OUTPUT_JSONL)
		format_jsonl(&l, elem);
	else
		format_text(&l, elem);
	return (int)l.len;
}

/* The line in o->line (@len bytes) with the annotator's text: at the end
 * of a text line, before the closing brace of a JSON object. */
static int emit_annotated(struct hwt_output *o, const struct hwt_elem *elem,
			  size_t len)
{
	int n = o->annotator.annotate(o->annotator.arg, elem, o->format, o->out,
				      o->extra, sizeof(o->extra));
	if (n < 0)
		return n;
	bool json = o->format == HWT_OUTPUT_JSONL && len && o->line[len - 1] == '}';
	fwrite(o->line, 1, json ? len - 1 : len, o->out);
	fwrite(o->extra, 1, (size_t)n < sizeof(o->extra) ? (size_t)n
							 : sizeof(o->extra) - 1,
	       o->out);
	if (json)
		fputc('}', o->out);
	if (fputc('\n', o->out) == EOF)
		return hwt_error(HWT_ERR_IO, "writing decoded output failed");
	return 0;
}

void hwt_output_set_annotator(struct hwt_output *output,
			      const struct hwt_output_annotator *annotator)
{
	if (annotator)
		output->annotator = *annotator;
	else
		memset(&output->annotator, 0, sizeof(output->annotator));
}

static int output_emit(void *arg, const struct hwt_elem *elem)
{
	struct hwt_output *o = arg;
	int n = hwt_elem_format(elem, o->format, o->line, sizeof(o->line));

	if ((size_t)n >= sizeof(o->line)) {
		char *big = malloc((size_t)n + 1);
		if (!big)
			return hwt_error(HWT_ERR_NOMEM, "out of memory formatting output");
		hwt_elem_format(elem, o->format, big, (size_t)n + 1);
		fputs(big, o->out);
		free(big);
	} else if (o->annotator.annotate) {
		return emit_annotated(o, elem, (size_t)n);
	} else {
		fputs(o->line, o->out);
	}
	if (fputc('\n', o->out) == EOF)
		return hwt_error(HWT_ERR_IO, "writing decoded output failed: %s",
				 strerror(errno));
	return 0;
}

struct hwt_output *hwt_output_new(FILE *out, enum hwt_output_format format)
{
	struct hwt_output *o = calloc(1, sizeof(*o));
	if (o) {
		o->out = out;
		o->format = format;
	}
	return o;
}

void hwt_output_free(struct hwt_output *output)
{
	free(output);
}

struct hwt_elem_sink hwt_output_sink(struct hwt_output *output)
{
	struct hwt_elem_sink sink = {output_emit, output};
	return sink;
}

int hwt_output_format_parse(const char *name, enum hwt_output_format *format)
{
	if (!strcmp(name, "text"))
		*format = HWT_OUTPUT_TEXT;
	else if (!strcmp(name, "jsonl"))
		*format = HWT_OUTPUT_JSONL;
	else
		return hwt_error(HWT_ERR_CONFIG,
				 "unknown output format \"%s\": use text or jsonl",
				 name);
	return 0;
}
