/* Test helper: an element stream as text, one line per element with
 * every field, strings included, for comparing two decodes of a capture
 * byte for byte. */
#ifndef HWT_TESTS_UNIT_ELEM_TEXT_H
#define HWT_TESTS_UNIT_ELEM_TEXT_H

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hwtrace/element.h"
#include "hwtrace/error.h"

struct elem_text {
	char *s; /* NUL-terminated */
	size_t len, cap;
};

/* Appends @e's line to @t. Returns 0 or HWT_ERR_NOMEM. */
static inline int elem_text_add(struct elem_text *t, const struct hwt_elem *e)
{
	char line[512];
	int n = snprintf(line, sizeof(line), "%d %x c%d p%d t%d @%" PRIu64
			 " o%" PRIu64, e->type, e->fields, e->cpu, e->pid,
			 e->tid, e->time, e->trace_offset);
	switch (e->type) {
	case HWT_ELEM_RANGE:
		n += snprintf(line + n, sizeof(line) - n, " %" PRIx64 "-%" PRIx64
			      "/%" PRIu64 " %d %s", e->u.range.start,
			      e->u.range.end, e->u.range.insns, e->u.range.isa,
			      e->u.range.text ? e->u.range.text : "-");
		break;
	case HWT_ELEM_BRANCH:
		n += snprintf(line + n, sizeof(line) - n, " %" PRIx64 "->%" PRIx64
			      " %d %u", e->u.branch.from, e->u.branch.to,
			      e->u.branch.kind, e->u.branch.exception);
		break;
	case HWT_ELEM_TRACE_ON:
	case HWT_ELEM_TRACE_OFF:
		n += snprintf(line + n, sizeof(line) - n, " %" PRIx64,
			      e->u.trace.at);
		break;
	case HWT_ELEM_GAP:
		n += snprintf(line + n, sizeof(line) - n, " %d %" PRIu64 " %s",
			      e->u.gap.reason, e->u.gap.bytes,
			      e->u.gap.detail ? e->u.gap.detail : "-");
		break;
	case HWT_ELEM_ERROR:
		n += snprintf(line + n, sizeof(line) - n, " %s",
			      e->u.error.message);
		break;
	default:
		break;
	}
	if (n >= (int)sizeof(line) - 1)
		n = (int)sizeof(line) - 2;
	line[n++] = '\n';
	if (t->len + (size_t)n + 1 > t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 1 << 16;
		while (cap < t->len + (size_t)n + 1)
			cap *= 2;
		char *s = realloc(t->s, cap);
		if (!s)
			return HWT_ERR_NOMEM;
		t->s = s;
		t->cap = cap;
	}
	memcpy(t->s + t->len, line, (size_t)n);
	t->len += (size_t)n;
	t->s[t->len] = 0;
	return 0;
}

/* Prints where @got first differs from @want, under @what. */
static inline void elem_text_diff(const char *what, const struct elem_text *want,
				  const struct elem_text *got)
{
	if (!want->s || !got->s || !strcmp(want->s, got->s))
		return;
	size_t i = 0;
	while (want->s[i] == got->s[i])
		i++;
	while (i && want->s[i - 1] != '\n')
		i--;
	fprintf(stderr, "%s: first difference:\nwant: %.200s\ngot:  %.200s\n",
		what, want->s + i, got->s + i);
}

#endif
