/* The report by source line (hwt_report_by_line): each range's
 * instructions go to the line of its code, in the table and at the end of
 * the folded stack of the frame that ran it. With one range per
 * instruction (decode's disasm option) every instruction counts at its
 * own line. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/report/report_internal.h"
#include "analysis/util/array_grow.h"
#include "analysis/util/func_name.h"
#include "hwtrace/error.h"

int hwt_report_by_line(struct hwt_report *r,
		       const struct hwt_report_lines *lines)
{
	if (!lines || !lines->line)
		return hwt_error(HWT_ERR_INVAL, "report by line: no line lookup");
	r->lines = *lines;
	return 0;
}

/* The row and folded leaf of @addr, looked up once: *row and *leaf are
 * entries of line_rows and leaves. */
static int line_of(struct hwt_report *r, int32_t pid, uint64_t addr,
		   struct hwt_strmap_entry **row, struct hwt_strmap_entry **leaf)
{
	char key[32];
	int klen = snprintf(key, sizeof(key), "%" PRId32 ":%" PRIx64, pid, addr);
	struct hwt_strmap_entry *a = hwt_strmap_get(&r->addr_lines, key,
						    (size_t)klen);
	if (!a)
		return HWT_ERR_NOMEM;
	if (!a->v[A_ROW]) {
		const char *file = NULL;
		uint32_t line = 0;
		const char *const *inl = NULL;
		size_t ninl = 0;
		if (!r->lines.line(r->lines.arg, pid, addr, &file, &line, &inl,
				   &ninl))
			file = NULL, ninl = 0;
		char buf[24], where[4096];
		const char *func = ninl ? inl[ninl - 1]
					: hwt_func_name(&r->namer, pid, addr, buf);
		snprintf(where, sizeof(where), "%s:%" PRIu32,
			 file ? file : "??", file ? line : 0);
		char *label = NULL;
		size_t cap = 0, len = 0;
		for (size_t i = 0; i < ninl && (i == 0 || len); i++)
			len = report_frame_append(&label, &cap, len, inl[i]);
		if (ninl && !len) {
			free(label);
			return HWT_ERR_NOMEM;
		}
		len = report_frame_append(&label, &cap, len, where);
		struct hwt_strmap_entry *l =
			len ? hwt_strmap_get(&r->leaves, label, len) : NULL;
		size_t rlen = strlen(func) + 1 + strlen(where);
		char *rkey = l ? malloc(rlen + 1) : NULL;
		if (rkey)
			snprintf(rkey, rlen + 1, "%s %s", func, where);
		struct hwt_strmap_entry *w =
			rkey ? hwt_strmap_get(&r->line_rows, rkey, rlen) : NULL;
		free(rkey);
		free(label);
		if (!w)
			return HWT_ERR_NOMEM;
		/* Entries move as the maps grow: keep indexes. */
		a = hwt_strmap_get(&r->addr_lines, key, (size_t)klen);
		a->v[A_ROW] = (uint64_t)(w - r->line_rows.e) + 1;
		a->v[A_LEAF] = (uint64_t)(l - r->leaves.e) + 1;
	}
	*row = &r->line_rows.e[a->v[A_ROW] - 1];
	*leaf = &r->leaves.e[a->v[A_LEAF] - 1];
	return 0;
}

/* The frame ids of @leaf's parts (its inlined functions and its
 * "FILE:LINE", ';' between them), found on first use; -1 when out of
 * memory. */
static int leaf_frames(struct hwt_report *r, struct hwt_strmap_entry *leaf)
{
	if (leaf->v[LF_AT])
		return 0;
	size_t at = r->nleaf_frames;
	for (const char *part = leaf->key;; part++) {
		const char *end = strchr(part, ';');
		size_t n = end ? (size_t)(end - part) : strlen(part);
		char small[512], *name = n < sizeof(small) ? small : malloc(n + 1);
		uint64_t id;
		void *grown = r->leaf_frames;
		bool ok = name && array_grow(&grown, &r->leaf_frames_cap,
					     sizeof(*r->leaf_frames),
					     r->nleaf_frames + 1, 64);
		if (ok) {
			r->leaf_frames = grown;
			memcpy(name, part, n);
			name[n] = 0;
			ok = !call_tree_frame(&r->frames, name, &id);
		}
		if (name != small)
			free(name);
		if (!ok) {
			r->nleaf_frames = at;
			return -1;
		}
		r->leaf_frames[r->nleaf_frames++] = id;
		if (!end)
			break;
		part = end;
	}
	leaf->v[LF_AT] = at + 1;
	leaf->v[LF_N] = r->nleaf_frames - at;
	return 0;
}

/* The node of @leaf's parts under @node; 0 when out of memory. */
static uint64_t leaf_node(struct hwt_report *r, struct hwt_strmap_entry *leaf,
			  uint64_t node)
{
	if (leaf_frames(r, leaf))
		return 0;
	const uint64_t *id = &r->leaf_frames[leaf->v[LF_AT] - 1];
	for (uint64_t i = 0; i < leaf->v[LF_N] && node; i++)
		node = call_tree_child(&r->tree, node, id[i]);
	return node;
}

static int lines_emit(void *arg, const struct hwt_elem *e)
{
	struct hwt_report *r = arg;
	if (e->type != HWT_ELEM_RANGE || !e->u.range.insns || !r->lines.line)
		return 0;
	int64_t key = (e->fields & HWT_FIELD_TID) && e->tid >= 0 ? e->tid
		    : (e->fields & HWT_FIELD_CPU) ? -2 - (int64_t)e->cpu : -1;
	struct thread_path *t = report_thread(r, key);
	if (!t)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	if (!t->n)
		return 0; /* the stacks have no frame for it */
	int32_t pid = (e->fields & HWT_FIELD_PID) ? e->pid : -1;
	struct hwt_strmap_entry *row, *leaf;
	if (line_of(r, pid, e->u.range.start, &row, &leaf))
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	row->v[L_INSNS] += e->u.range.insns;
	uint64_t node = leaf_node(r, leaf, t->v[t->n - 1].node);
	uint64_t *s = node ? report_stack(t, node) : NULL;
	if (!s)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	s[S_INSNS] += e->u.range.insns;
	return 0;
}

struct hwt_elem_sink hwt_report_elements(struct hwt_report *r)
{
	struct hwt_elem_sink sink = {lines_emit, r};
	return sink;
}

static int by_insns(const void *a, const void *b)
{
	const struct hwt_strmap_entry *x = *(const struct hwt_strmap_entry *const *)a;
	const struct hwt_strmap_entry *y = *(const struct hwt_strmap_entry *const *)b;
	if (x->v[L_INSNS] != y->v[L_INSNS])
		return x->v[L_INSNS] < y->v[L_INSNS] ? 1 : -1;
	return strcmp(x->key, y->key);
}

int report_write_lines(const struct hwt_report *r, FILE *out, size_t top)
{
	size_t n = r->line_rows.n;
	const struct hwt_strmap_entry **order = malloc((n + 1) * sizeof(*order));
	if (!order)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	uint64_t all = 0;
	for (size_t i = 0; i < n; i++) {
		order[i] = &r->line_rows.e[i];
		all += r->line_rows.e[i].v[L_INSNS];
	}
	qsort(order, n, sizeof(*order), by_insns);
	fprintf(out, "# %" PRIu64 " instructions in %zu source lines\n", all, n);
	fprintf(out, "# %12s %7s  function file:line (the innermost inlined "
		"function)\n", "self insns", "self%");
	size_t shown = top && top < n ? top : n;
	for (size_t i = 0; i < shown; i++)
		fprintf(out, "  %12" PRIu64 " %6.2f%%  %s\n", order[i]->v[L_INSNS],
			all ? 100.0 * (double)order[i]->v[L_INSNS] / (double)all
			    : 0.0,
			order[i]->key);
	free(order);
	return ferror(out) ? hwt_error(HWT_ERR_IO, "writing the report failed: %s",
				       strerror(errno))
			   : 0;
}
