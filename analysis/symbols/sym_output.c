/* Symbols in the decode output: the annotator behind `hwtrace decode`'s
 * names, source lines and objdump-style function headers. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "analysis/symbols/symbols_internal.h"
#include "analysis/util/elem_pid.h"
#include "analysis/util/text_append.h"
#include "hwtrace/symbols.h"
#include "hwtrace/text.h"

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

static void put_raw(struct buf *b, const char *s, size_t n)
{
	if (b->len < b->size) {
		size_t room = b->size - b->len - 1;
		memcpy(b->p + b->len, s, n < room ? n : room);
		b->p[b->len + (n < room ? n : room)] = 0;
	}
	b->len += n;
}

/* A cached text (@s has 32 bytes or more, @n < 32): one fixed-size move
 * where the buffer has room for it, as most have. */
static void put_cached(struct buf *b, const char *s, size_t n)
{
	if (n < 32 && b->len < b->size && b->size - b->len > 32) {
		memcpy(b->p + b->len, s, 32);
		b->p[b->len + n] = 0;
		b->len += n;
		return;
	}
	put_raw(b, s, n);
}

/* @s escaped by @escape (the shared JSON writer or terminal sanitiser),
 * on a view that keeps room for the NUL. */
static void put_escaped(struct buf *b, const char *s,
			void (*escape)(struct hwt_text *, const char *))
{
	struct hwt_text t = {b->p, b->size ? b->size - 1 : 0, b->len};
	escape(&t, s);
	b->len = t.len;
	if (b->size)
		b->p[b->len < b->size ? b->len : b->size - 1] = 0;
}

static void put_json_str(struct buf *b, const char *s)
{
	put_escaped(b, s, hwt_text_json_str);
}

/* Names in text output come from the capture and its binaries: never
 * raw control characters on a terminal. */
static void put_term_str(struct buf *b, const char *s)
{
	put_escaped(b, s, hwt_text_term_str);
}

static void put_srcline_text(struct buf *b, const char *file, uint32_t line)
{
	put(b, " ");
	put_term_str(b, file ? file : "??");
	put(b, ":%" PRIu32, line);
}

/* Text: "sym+0xoff (dso) file:line [inlined: a file:line <- b ...]";
 * code no symbol covers is "FILE+0xOFF (dso)". */
static void text_symbol(struct buf *b, const struct hwt_symbol *s, bool srcline)
{
	char unnamed[512];
	if (s->name) {
		put_term_str(b, s->name);
		put(b, "+0x%" PRIx64, s->offset);
	} else if (hwt_symbol_dso_name(s, unnamed, sizeof(unnamed))) {
		put_term_str(b, unnamed);
	} else {
		put(b, "[unknown]");
	}
	if (s->dso && !s->main_program) {
		put(b, " (");
		put_term_str(b, s->dso);
		put(b, ")");
	}
	if (srcline && s->file) {
		put_srcline_text(b, s->file, s->line);
		for (size_t i = 0; i < s->ninlines; i++) {
			put(b, "%s", i ? " <- " : " [inlined: ");
			put_term_str(b, s->inlines[i].name ? s->inlines[i].name
							   : "??");
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
	char unnamed[512];
	if (s->name) {
		put(b, ",\"%ssym\":", prefix);
		put_json_str(b, s->name);
		put(b, ",\"%ssymoff\":%" PRIu64, prefix, s->offset);
	} else if (hwt_symbol_dso_name(s, unnamed, sizeof(unnamed))) {
		/* No symoff: the name is not a function's. */
		put(b, ",\"%ssym\":", prefix);
		put_json_str(b, unnamed);
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

/* Formatted symbol text per address: a trace shows the same few
 * addresses over and over, and formatting costs more than the lookup. */
#define OUT_CACHE 4096
struct out_entry {
	uint64_t addr;
	const void *section; /* the mapping the name came from */
	int32_t pid;
	uint8_t kind; /* 1 + enum: range text/json, from/to text/json */
	uint8_t found;
	uint16_t len;
	char text[244];
};

enum { K_RANGE, K_FROM, K_TO };

/* Appends the symbol text of @addr as @kind; returns 1 when the address
 * is known, 0 when not, or a negative error. */
static int put_symbol(struct hwt_symbolizer *sym, struct buf *b, int32_t pid,
		      uint64_t addr, uint64_t time, int kind,
		      enum hwt_output_format format)
{
	const void *section = symbolizer_section(sym, pid, addr, time);
	struct out_entry *cache = symbolizer_out_cache(sym, OUT_CACHE * sizeof(*cache));
	uint8_t k = (uint8_t)(1 + kind * 2 + (format == HWT_OUTPUT_JSONL));
	struct out_entry *ce = NULL;
	if (cache) {
		ce = &cache[(addr ^ (addr >> 11) ^ (uint64_t)kind * 0x9e37u) & (OUT_CACHE - 1)];
		if (ce->kind == k && ce->addr == addr && ce->pid == pid &&
		    ce->section == section) {
			put_cached(b, ce->text, ce->len);
			return ce->found;
		}
	}
	struct hwt_symbol s;
	int rc = hwt_symbolizer_lookup_at(sym, pid, addr, time, &s);
	if (rc < 0)
		return rc;
	bool srcline = hwt_symbolizer_srcline(sym);
	char tmp[4096];
	struct buf t = {tmp, sizeof(tmp), 0};
	tmp[0] = 0;
	if (rc && format == HWT_OUTPUT_JSONL)
		json_symbol(&t, kind == K_RANGE ? "" : kind == K_FROM ? "from_" : "to_",
			    &s, srcline, kind == K_RANGE);
	else if (rc) {
		put(&t, kind == K_TO ? " -> " : "  ");
		text_symbol(&t, &s, srcline);
	}
	if (t.len >= sizeof(tmp))
		t.len = sizeof(tmp) - 1;
	put_raw(b, tmp, t.len);
	if (ce && t.len < sizeof(ce->text)) {
		ce->addr = addr;
		ce->section = section;
		ce->pid = pid;
		ce->kind = k;
		ce->found = (uint8_t)rc;
		ce->len = (uint16_t)t.len;
		memcpy(ce->text, tmp, t.len);
	}
	return rc;
}


static int annotate(void *arg, const struct hwt_elem *e,
		    enum hwt_output_format format, FILE *out, char *p,
		    size_t size)
{
	struct hwt_symbolizer *sym = arg;
	struct buf b = {p, size, 0};
	int32_t pid = hwt_elem_pid(e);
	/* The code of the element's time: the same address may hold
	 * another binary before or after it. */
	uint64_t time = e->fields & HWT_FIELD_TIME ? e->time : HWT_TIME_UNKNOWN;
	if (size)
		p[0] = 0;

	if (e->type == HWT_ELEM_RANGE) {
		/* objdump's header at a function's first instruction. */
		if (e->u.range.text && format == HWT_OUTPUT_TEXT) {
			struct hwt_symbol s;
			int rc = hwt_symbolizer_lookup_at(sym, pid, e->u.range.start,
							  time, &s);
			if (rc < 0)
				return rc;
			if (rc && s.name && !s.offset) {
				fprintf(out, "\n%016" PRIx64 " <", s.start);
				hwt_term_fwrite(out, s.name, strlen(s.name));
				fputs(">:\n", out);
			}
		}
		int rc = put_symbol(sym, &b, pid, e->u.range.start, time, K_RANGE,
				    format);
		return rc < 0 ? rc : (int)b.len;
	}
	if ((e->type == HWT_ELEM_TRACE_ON || e->type == HWT_ELEM_TRACE_OFF) &&
	    (e->fields & HWT_FIELD_AT)) {
		int rc = put_symbol(sym, &b, pid, e->u.trace.at, time, K_RANGE,
				    format);
		return rc < 0 ? rc : (int)b.len;
	}
	if (e->type != HWT_ELEM_BRANCH)
		return 0;
	if (e->fields & HWT_FIELD_NO_FROM) { /* only the target is known */
		int rc = put_symbol(sym, &b, pid, e->u.branch.to, time, K_TO,
				    format);
		return rc < 0 ? rc : (int)b.len;
	}
	int rc = put_symbol(sym, &b, pid, e->u.branch.from, time, K_FROM, format);
	if (rc < 0)
		return rc;
	if (!rc && format == HWT_OUTPUT_TEXT)
		put_raw(&b, "  [unknown]", 11);
	rc = put_symbol(sym, &b, pid, e->u.branch.to, time, K_TO, format);
	return rc < 0 ? rc : (int)b.len;
}

/* Where the image never changed, an address names the same code at every
 * time: no tag. Else the mappings the element's addresses fall in at its
 * time tell apart the annotations of one address at different times. */
static uint64_t cache_tag(void *arg, const struct hwt_elem *e)
{
	struct hwt_symbolizer *sym = arg;
	if (!symbolizer_image_changes(sym))
		return 0;
	int32_t pid = hwt_elem_pid(e);
	uint64_t time = e->fields & HWT_FIELD_TIME ? e->time : HWT_TIME_UNKNOWN;
	if (e->type == HWT_ELEM_RANGE)
		return (uintptr_t)symbolizer_section(sym, pid, e->u.range.start,
						     time);
	if (e->type != HWT_ELEM_BRANCH)
		return 0;
	uint64_t from = (uintptr_t)symbolizer_section(sym, pid, e->u.branch.from,
						      time);
	uint64_t to = (uintptr_t)symbolizer_section(sym, pid, e->u.branch.to,
						    time);
	return from ^ (to * 0x9e3779b97f4a7c15ull);
}

struct hwt_output_annotator hwt_symbolizer_annotator(struct hwt_symbolizer *sym)
{
	struct hwt_output_annotator a = {annotate, sym, cache_tag};
	return a;
}

void hwt_symbolizer_on_image(void *arg, struct hwt_image *image)
{
	hwt_symbolizer_set_image(arg, image);
}

int hwt_symbolizer_name(void *arg, int32_t pid, uint64_t addr, char *buf,
			size_t size)
{
	struct hwt_symbol s;
	int rc = hwt_symbolizer_lookup(arg, pid, addr, &s);
	if (rc <= 0)
		return rc;
	if (s.name)
		return snprintf(buf, size, "%s+0x%" PRIx64, s.name, s.offset);
	int n = hwt_symbol_dso_name(&s, buf, size);
	return n ? n : snprintf(buf, size, "[unknown]");
}
