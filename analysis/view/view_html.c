/* The view's page: a fixed HTML frame, the capture's data as one JSON
 * object in a <script type="application/json"> element, and the page's
 * own style and script (view_page.css, view_page.js), embedded at build
 * time. A Content-Security-Policy forbids the page every fetch, so it
 * works the same from file:// and offline. */
#define _GNU_SOURCE /* open_memstream */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/util/strmap.h"
#include "analysis/view/view_internal.h"
#include "hwtrace/error.h"
#include "hwtrace/text.h"

/* Writes @s as a JSON string that may sit inside a <script> element: a
 * '<' (of "</script>" or "<!--") becomes \u003c. */
static void json_str(FILE *out, const char *s, size_t n)
{
	char small[256];
	size_t len = hwt_json_escape(small, sizeof(small), s, n);
	char *buf = small;
	if (len >= sizeof(small)) {
		buf = malloc(len + 1);
		if (!buf) {
			fputs("\"\"", out);
			return;
		}
		hwt_json_escape(buf, len + 1, s, n);
	}
	for (size_t i = 0; i < len; i++) {
		if (buf[i] == '<')
			fputs("\\u003c", out);
		else
			fputc(buf[i], out);
	}
	if (buf != small)
		free(buf);
}

static void json_cstr(FILE *out, const char *s)
{
	json_str(out, s ? s : "", s ? strlen(s) : 0);
}

/* Folded stacks of one weight, added to @stacks at value @which. */
static int add_folded(struct hwt_view *v, struct hwt_strmap *stacks,
		      enum hwt_report_weight weight, unsigned which)
{
	char *text = NULL;
	size_t size = 0;
	FILE *mem = open_memstream(&text, &size);
	if (!mem)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	int err = hwt_report_write_collapsed(v->report, mem, weight);
	if (fclose(mem) && !err)
		err = hwt_error(HWT_ERR_NOMEM, "out of memory");
	/* "a;b;c COUNT" a line: the count after the last space. */
	for (char *line = text; !err && line && *line;) {
		char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);
		char *space = memrchr(line, ' ', len);
		if (space) {
			struct hwt_strmap_entry *e =
				hwt_strmap_get(stacks, line, (size_t)(space - line));
			if (!e)
				err = hwt_error(HWT_ERR_NOMEM, "out of memory");
			else
				e->v[which] = strtoull(space + 1, NULL, 10);
		}
		line = nl ? nl + 1 : NULL;
	}
	free(text);
	return err;
}

static int write_stacks(struct hwt_view *v, FILE *out)
{
	struct hwt_strmap stacks = {0};
	int err = add_folded(v, &stacks, HWT_WEIGHT_INSNS, 0);
	if (!err)
		err = add_folded(v, &stacks, HWT_WEIGHT_CALLS, 1);
	if (!err)
		err = add_folded(v, &stacks, HWT_WEIGHT_TIME, 2);
	fputs("\"stacks\":[", out);
	for (size_t i = 0; i < stacks.n && !err; i++) {
		const struct hwt_strmap_entry *e = &stacks.e[i];
		fputs(i ? ",\n[" : "\n[", out);
		json_cstr(out, e->key);
		fprintf(out, ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 "]", e->v[0],
			e->v[1], e->v[2]);
	}
	fputs("],\n", out);
	hwt_strmap_free(&stacks);
	return err;
}

static void write_funcs(const struct hwt_view *v, FILE *out)
{
	size_t n;
	const struct hwt_report_func *f = hwt_report_funcs(v->report, &n);
	fputs("\"funcs\":[", out);
	for (size_t i = 0; i < n; i++) {
		fputs(i ? ",\n[" : "\n[", out);
		json_cstr(out, f[i].name);
		fputc(',', out);
		json_cstr(out, f[i].dso ? f[i].dso : "[unknown]");
		fprintf(out, ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
			",%" PRIu64 "]", f[i].calls, f[i].insns_self,
			f[i].insns_total, f[i].time_self, f[i].time_total);
	}
	fputs("],\n", out);
}

/* The binaries the decode had no code for, each path once. */
static int write_missing(const struct hwt_view *v, FILE *out)
{
	const struct hwt_capture_mmap *m = NULL;
	size_t n = v->cap ? hwt_capture_mmaps(v->cap, &m) : 0;
	struct hwt_strmap seen = {0};
	int err = 0;
	bool first = true;
	fputs("\"missing\":[", out);
	for (size_t i = 0; i < n && !err; i++) {
		if (!m[i].missing || !m[i].path)
			continue;
		struct hwt_strmap_entry *e =
			hwt_strmap_get(&seen, m[i].path, strlen(m[i].path));
		if (!e) {
			err = hwt_error(HWT_ERR_NOMEM, "out of memory");
			break;
		}
		if (e->v[0]++)
			continue;
		fputs(first ? "[" : ",[", out);
		first = false;
		json_cstr(out, m[i].path);
		fputc(',', out);
		json_cstr(out, m[i].missing_detail ? m[i].missing_detail
						   : "not found");
		fputc(']', out);
	}
	fputs("],\n", out);
	hwt_strmap_free(&seen);
	return err;
}

static int write_facts(const struct hwt_view *v, FILE *out)
{
	fputs("\"facts\":{\"backend\":", out);
	json_cstr(out, v->cap ? hwt_capture_backend(v->cap) : NULL);
	const int32_t *cpus = NULL;
	size_t ncpus = v->cap ? hwt_capture_cpus(v->cap, &cpus) : 0;
	fputs(",\"cpus\":[", out);
	for (size_t i = 0; i < ncpus; i++)
		fprintf(out, "%s%" PRId32, i ? "," : "", cpus[i]);
	fputs("]", out);
	if (v->cap) {
		struct hwt_capture_losses l;
		hwt_capture_losses(v->cap, &l);
		fprintf(out, ",\"losses\":{\"lost_events\":%" PRIu64
			",\"lost_records\":%" PRIu64 ",\"truncated\":%" PRIu64
			",\"collisions\":%" PRIu64 ",\"trace_errors\":%" PRIu64
			"}", l.lost_events, l.lost_records, l.truncated,
			l.collisions, l.trace_errors);
	}
	fputs(",\"gaps\":{", out);
	bool first = true;
	for (unsigned r = 0; r < sizeof(v->gaps) / sizeof(v->gaps[0]); r++) {
		if (!v->gaps[r])
			continue;
		fprintf(out, "%s\"%s\":%" PRIu64, first ? "" : ",",
			hwt_gap_reason_name((enum hwt_gap_reason)r), v->gaps[r]);
		first = false;
	}
	fprintf(out, "},\"decode_errors\":%" PRIu64, v->errors);
	if (v->have_stack_stats) {
		const struct hwt_stack_stats *s = &v->stack_stats;
		fprintf(out, ",\"stacks\":{\"calls\":%" PRIu64 ",\"threads\":%"
			PRIu64 ",\"max_depth\":%" PRIu64 ",\"inferred\":%" PRIu64
			",\"cut_by_gap\":%" PRIu64 ",\"cut_by_trace_off\":%"
			PRIu64 "}", s->entered, s->threads, s->max_depth,
			s->inferred, s->cut_by_gap, s->cut_by_trace_off);
	}
	fputs(",\n", out);
	int err = write_missing(v, out);
	fputs("\"end\":0},\n", out);
	return err;
}

struct slice_writer {
	FILE *out;
	const struct hwt_view *v;
	uint64_t first;
	size_t written;
};

/* thread, name (-1: several), depth (0 the outermost seen), start,
 * duration, calls */
static int put_slice(void *arg, const struct view_slice *s)
{
	struct slice_writer *w = arg;
	fprintf(w->out, "%s%" PRIu32 ",%" PRId64 ",%" PRId64 ",%" PRIu64
		",%" PRIu64 ",%" PRIu32, w->written ? "," : "", s->thread,
		s->name == UINT32_MAX ? -1 : (int64_t)s->name,
		(int64_t)s->depth - w->v->threads[s->thread].min_depth,
		s->start - w->first, s->end - s->start, s->calls);
	if (++w->written % 8 == 0)
		fputc('\n', w->out);
	return 0;
}

/* The timeline, its times from the threads' first. */
static int write_timeline(struct hwt_view *v, FILE *out)
{
	uint64_t first, last;
	view_time_span(v, &first, &last);
	uint64_t pixel = (last - first) / v->opts.timeline_pixels;
	fputs("\"timeline\":{\"threads\":[", out);
	for (size_t i = 0; i < v->nthreads; i++) {
		const struct view_thread *t = &v->threads[i];
		/* A thread no COMM names has its process's name. */
		const char *name = v->cap && t->tid >= 0
			? hwt_capture_name_at(v->cap, t->tid, t->first) : NULL;
		if (!name && v->cap && t->pid >= 0)
			name = hwt_capture_name_at(v->cap, t->pid, t->first);
		fprintf(out, "%s{\"pid\":%" PRId32 ",\"tid\":%" PRId32
			",\"cpu\":%" PRId64 ",\"name\":", i ? "," : "", t->pid,
			t->tid, t->key < -1 ? -2 - t->key : -1);
		json_cstr(out, name);
		fputc('}', out);
	}
	fputs("],\n\"names\":[", out);
	for (size_t i = 0; i < v->nnames; i++) {
		if (i)
			fputc(',', out);
		json_cstr(out, v->name_v[i]);
	}
	fputs("],\n\"slices\":[", out);
	struct slice_writer w = {out, v, first, 0};
	int err = view_add_up(v, first, pixel,
			      &(struct view_put){put_slice, &w}, &v->stats);
	/* thread, kind, time, what */
	static const char *const kinds[] = {"gap", "error", "off", "on"};
	fputs("],\n\"marks\":[", out);
	for (size_t i = 0; i < v->nmarks; i++) {
		const struct view_mark *m = &v->marks[i];
		fprintf(out, "%s[%" PRIu32 ",\"%s\",%" PRIu64 ",\"%s\"]",
			i ? ",\n" : "", m->thread, kinds[m->kind],
			m->time - first,
			m->kind == MARK_GAP
				? hwt_gap_reason_name((enum hwt_gap_reason)m->what)
				: "");
	}
	fprintf(out, "],\n\"span\":%" PRIu64 ",\"start\":%" PRIu64
		",\"pixels\":%" PRIu32 ",\"pixel\":%" PRIu64
		",\"short\":%" PRIu64 ",\"blocks\":%" PRIu64
		",\"untimed\":%" PRIu64 ",\"marks_dropped\":%" PRIu64 "}\n",
		last - first, first, v->opts.timeline_pixels, pixel,
		v->stats.slices_short, v->stats.blocks, v->stats.untimed,
		v->stats.marks_dropped);
	return err;
}

int view_write_page(struct hwt_view *v, FILE *out)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
	      "<meta http-equiv=\"Content-Security-Policy\" content=\""
	      "default-src 'none'; script-src 'unsafe-inline'; "
	      "style-src 'unsafe-inline'; img-src data:\">\n"
	      "<title>hwtrace view</title>\n<style>\n", out);
	fputs(hwt_view_page_css, out);
	fputs("</style></head>\n<body>\n<noscript>This page draws with "
	      "JavaScript: allow it for this file.</noscript>\n"
	      "<script type=\"application/json\" id=\"hwt-data\">{\"title\":",
	      out);
	json_cstr(out, v->title);
	fputs(",\n", out);
	int err = write_facts(v, out);
	if (!err)
		err = write_stacks(v, out);
	write_funcs(v, out);
	if (!err)
		err = write_timeline(v, out);
	fputs("}</script>\n<script>\n", out);
	fputs(hwt_view_page_js, out);
	fputs("</script>\n</body></html>\n", out);
	if (!err && ferror(out))
		err = hwt_error(HWT_ERR_IO, "writing the page failed");
	return err;
}
