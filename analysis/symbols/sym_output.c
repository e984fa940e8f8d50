/* Symbols in the decode output: the annotator behind `hwtrace decode`'s
 * names, source lines and objdump-style function headers. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "hwtrace/symbols.h"

struct buf {
	char *p;
	size_t size, len;
};

static void put(struct buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void put(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	size_t room = b->len < b->size ? b->size - b->len : 0;
	va_start(ap, fmt);
	int n = vsnprintf(room ? b->p + b->len : NULL, room, fmt, ap);
	va_end(ap);
	if (n > 0)
		b->len += (size_t)n;
}

static void put_json_str(struct buf *b, const char *s)
{
	put(b, "\"");
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			put(b, "\\%c", c);
		else if (c < 0x20)
			put(b, "\\u%04x", c);
		else
			put(b, "%c", c);
	}
	put(b, "\"");
}

static void put_srcline_text(struct buf *b, const char *file, uint32_t line)
{
	put(b, " %s:%" PRIu32, file ? file : "??", line);
}

/* Text: "sym+0xoff (dso) file:line [inlined: a file:line <- b ...]". */
static void text_symbol(struct buf *b, const struct hwt_symbol *s, bool srcline)
{
	if (s->name)
		put(b, "%s+0x%" PRIx64, s->name, s->offset);
	else
		put(b, "[unknown]");
	if (s->dso && !s->main_program)
		put(b, " (%s)", s->dso);
	if (srcline && s->file) {
		put_srcline_text(b, s->file, s->line);
		for (size_t i = 0; i < s->ninlines; i++) {
			put(b, "%s%s", i ? " <- " : " [inlined: ",
			    s->inlines[i].name ? s->inlines[i].name : "??");
			put_srcline_text(b, s->inlines[i].file, s->inlines[i].line);
		}
		if (s->ninlines)
			put(b, "]");
	}
}

static void json_srcline(struct buf *b, const char *key, const char *file,
			 uint32_t line)
{
	char tmp[4200];
	snprintf(tmp, sizeof(tmp), "%s:%" PRIu32, file, line);
	put(b, ",\"%s\":", key);
	put_json_str(b, tmp);
}

static void json_symbol(struct buf *b, const char *prefix,
			const struct hwt_symbol *s, bool srcline, bool inlines)
{
	if (s->name) {
		put(b, ",\"%ssym\":", prefix);
		put_json_str(b, s->name);
		put(b, ",\"%ssymoff\":%" PRIu64, prefix, s->offset);
	}
	if (s->dso) {
		put(b, ",\"%sdso\":", prefix);
		put_json_str(b, s->dso);
	}
	if (!srcline || !s->file)
		return;
	char key[32];
	snprintf(key, sizeof(key), "%ssrcline", prefix);
	json_srcline(b, key, s->file, s->line);
	if (!inlines || !s->ninlines)
		return;
	put(b, ",\"inlines\":[");
	for (size_t i = 0; i < s->ninlines; i++) {
		put(b, "%s{\"sym\":", i ? "," : "");
		put_json_str(b, s->inlines[i].name ? s->inlines[i].name : "??");
		if (s->inlines[i].file) {
			char tmp[4200];
			snprintf(tmp, sizeof(tmp), "%s:%" PRIu32, s->inlines[i].file,
				 s->inlines[i].line);
			put(b, ",\"srcline\":");
			put_json_str(b, tmp);
		}
		put(b, "}");
	}
	put(b, "]");
}

static int32_t pid_of(const struct hwt_elem *e)
{
	if (e->fields & HWT_FIELD_PID)
		return e->pid;
	if (e->fields & HWT_FIELD_TID)
		return e->tid; /* a process's first thread has its pid */
	return HWT_PID_ANY;
}


static int annotate(void *arg, const struct hwt_elem *e,
		    enum hwt_output_format format, FILE *out, char *p,
		    size_t size)
{
	struct hwt_symbolizer *sym = arg;
	bool srcline = hwt_symbolizer_srcline(sym);
	struct buf b = {p, size, 0};
	struct hwt_symbol s;
	int32_t pid = pid_of(e);
	if (size)
		p[0] = 0;

	if (e->type == HWT_ELEM_RANGE) {
		int rc = hwt_symbolizer_lookup(sym, pid, e->u.range.start, &s);
		if (rc <= 0)
			return rc;
		if (format == HWT_OUTPUT_JSONL) {
			json_symbol(&b, "", &s, srcline, true);
			return (int)b.len;
		}
		/* objdump's header at a function's first instruction. */
		if (e->u.range.text && s.name && !s.offset)
			fprintf(out, "\n%016" PRIx64 " <%s>:\n", s.start, s.name);
		put(&b, "  ");
		text_symbol(&b, &s, srcline);
		return (int)b.len;
	}
	if (e->type != HWT_ELEM_BRANCH)
		return 0;
	struct hwt_symbol to;
	int rc = hwt_symbolizer_lookup(sym, pid, e->u.branch.from, &s);
	if (rc < 0)
		return rc;
	if (rc == 0)
		memset(&s, 0, sizeof(s));
	if (format == HWT_OUTPUT_JSONL)
		json_symbol(&b, "from_", &s, srcline, false);
	else if (rc) {
		put(&b, "  ");
		text_symbol(&b, &s, srcline);
	}
	int rc_to = hwt_symbolizer_lookup(sym, pid, e->u.branch.to, &to);
	if (rc_to < 0)
		return rc_to;
	if (format == HWT_OUTPUT_JSONL) {
		if (rc_to)
			json_symbol(&b, "to_", &to, srcline, false);
	} else if (rc_to) {
		put(&b, rc ? " -> " : "  -> ");
		text_symbol(&b, &to, srcline);
	}
	return (int)b.len;
}

struct hwt_output_annotator hwt_symbolizer_annotator(struct hwt_symbolizer *sym)
{
	struct hwt_output_annotator a = {annotate, sym};
	return a;
}

void hwt_symbolizer_on_image(void *arg, struct hwt_image *image)
{
	hwt_symbolizer_set_image(arg, image);
}
