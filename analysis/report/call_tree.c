/* The call-path tree of the report's stacks (call_tree.h), and its
 * folded text, made at output time only. */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/report/call_tree.h"
#include "analysis/util/array_grow.h"
#include "hwtrace/error.h"
#include "hwtrace/text.h"

int call_tree_frame(struct hwt_strmap *frames, const char *name,
		    uint64_t *id)
{
	char small[256] = "";
	size_t n = strlen(name);
	char *folded = n < sizeof(small) ? small : malloc(n + 1);
	if (!folded)
		return -1;
	for (size_t i = 0; i < n; i++)
		folded[i] = (name[i] == ' ' || name[i] == ';') ? '_' : name[i];
	struct hwt_strmap_entry *e = hwt_strmap_get(frames, folded, n);
	if (folded != small)
		free(folded);
	if (!e)
		return -1;
	*id = (uint64_t)(e - frames->e);
	return 0;
}

uint64_t call_tree_child(struct call_tree *t, uint64_t parent,
			 uint64_t frame)
{
	struct hwt_pairmap_entry *e = hwt_pairmap_get(&t->nodes, parent, frame);
	return e ? (uint64_t)(e - t->nodes.e) + 1 : 0;
}

uint64_t *call_tree_values(struct call_tree *t, uint64_t node)
{
	return t->nodes.e[node - 1].v;
}

uint64_t call_tree_graft(struct call_tree *t, uint64_t under, uint64_t node)
{
	/* The path's frames, innermost first, then added outermost first. */
	size_t depth = 0;
	for (uint64_t id = node; id; id = t->nodes.e[id - 1].a) {
		void *grown = t->scratch;
		if (!array_grow(&grown, &t->scratch_cap, sizeof(*t->scratch),
				depth + 1, 64))
			return 0;
		t->scratch = grown;
		t->scratch[depth++] = t->nodes.e[id - 1].b;
	}
	uint64_t at = under;
	while (depth-- > 0 && at)
		at = call_tree_child(t, at, t->scratch[depth]);
	return at;
}

int call_tree_copy(struct call_tree *dst, const struct call_tree *src)
{
	memset(dst, 0, sizeof(*dst));
	return hwt_pairmap_copy(&dst->nodes, &src->nodes);
}

void call_tree_free(struct call_tree *t)
{
	hwt_pairmap_free(&t->nodes);
	free(t->scratch);
	memset(t, 0, sizeof(*t));
}

/* Writing in text order without making every path's text: a node's own
 * line is its path's text, and every line below it starts with that
 * text and ';'. So among the children of one node, each child stands for
 * two items, its own line (sorted as its name) and the group of lines
 * below it (sorted as its name and ';'); no item's key can fall inside
 * another's group, so writing a node's items in key order, recursing
 * into groups, writes every line in bytewise order. */
struct fold_sort {
	const struct call_tree *t;
	const struct hwt_strmap *frames;
};

/* qsort has no argument for its comparison: the tree being sorted, one
 * per thread. */
static _Thread_local const struct fold_sort *folding;

/* An item: child node << 1, plus 1 for the group below it. */
static const char *item_name(uint64_t item, size_t *len)
{
	const char *name =
		folding->frames->e[folding->t->nodes.e[(item >> 1) - 1].b].key;
	*len = strlen(name);
	return name;
}

static int by_item_key(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	size_t nx, ny;
	const char *sx = item_name(x, &nx), *sy = item_name(y, &ny);
	size_t lx = nx + (x & 1), ly = ny + (y & 1);
	for (size_t i = 0; i < lx && i < ly; i++) {
		unsigned char cx = i < nx ? (unsigned char)sx[i] : ';';
		unsigned char cy = i < ny ? (unsigned char)sy[i] : ';';
		if (cx != cy)
			return cx < cy ? -1 : 1;
	}
	return lx < ly ? -1 : lx > ly;
}

/* The items of every node's children, node P's from items[at[P]] to
 * items[at[P + 1]], each node's in key order. */
static int sorted_items(const struct call_tree *t, uint64_t **items_out,
			size_t **at_out)
{
	size_t n = t->nodes.n;
	size_t *at = calloc(n + 2, sizeof(*at));
	uint64_t *items = malloc((2 * n + 1) * sizeof(*items));
	size_t *fill = malloc((n + 1) * sizeof(*fill));
	if (!at || !items || !fill) {
		free(at);
		free(items);
		free(fill);
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	}
	for (size_t i = 0; i < n; i++)
		at[t->nodes.e[i].a + 1] += 2;
	for (size_t p = 1; p <= n + 1; p++)
		at[p] += at[p - 1];
	memcpy(fill, at, (n + 1) * sizeof(*fill));
	for (size_t i = 0; i < n; i++) {
		uint64_t child = (uint64_t)i + 1;
		size_t *f = &fill[t->nodes.e[i].a];
		items[(*f)++] = child << 1;
		items[(*f)++] = child << 1 | 1;
	}
	free(fill);
	for (size_t p = 0; p <= n; p++)
		if (at[p + 1] - at[p] > 2)
			qsort(items + at[p], at[p + 1] - at[p], sizeof(*items),
			      by_item_key);
	*items_out = items;
	*at_out = at;
	return 0;
}

struct fold_level {
	uint64_t node;
	size_t pos, end;  /* its items left */
	size_t len;       /* the length of its path's text */
};

int call_tree_write_folded(const struct call_tree *t,
			   const struct hwt_strmap *frames, unsigned which,
			   FILE *out)
{
	struct fold_sort ctx = {t, frames};
	folding = &ctx;
	uint64_t *items = NULL;
	size_t *at = NULL;
	int err = sorted_items(t, &items, &at);
	if (err)
		return err;
	struct fold_level *levels = NULL;
	size_t depth = 0, levels_cap = 0, text_cap = 0;
	char *text = NULL;
	void *grown = levels;
	if (!array_grow(&grown, &levels_cap, sizeof(*levels), 1, 64))
		err = hwt_error(HWT_ERR_NOMEM, "out of memory");
	levels = grown;
	if (!err)
		levels[depth++] = (struct fold_level){0, at[0], at[1], 0};
	while (!err && depth) {
		struct fold_level *l = &levels[depth - 1];
		if (l->pos == l->end) {
			depth--;
			continue;
		}
		uint64_t item = items[l->pos++], child = item >> 1;
		size_t nlen;
		const char *name = item_name(item, &nlen);
		size_t len = l->len + (l->node != 0) + nlen;
		bool group = item & 1;
		grown = text;
		if (!array_grow(&grown, &text_cap, 1, len + 1, 256)) {
			err = hwt_error(HWT_ERR_NOMEM, "out of memory");
			break;
		}
		text = grown;
		if (l->node)
			text[l->len] = ';';
		memcpy(text + len - nlen, name, nlen);
		if (!group) {
			const uint64_t *v = t->nodes.e[child - 1].v;
			if (v[S_SEEN] && v[which]) {
				hwt_term_fwrite(out, text, len);
				fprintf(out, " %" PRIu64 "\n", v[which]);
			}
			continue;
		}
		if (at[child] == at[child + 1])
			continue;
		grown = levels;
		if (!array_grow(&grown, &levels_cap, sizeof(*levels), depth + 1,
				64)) {
			err = hwt_error(HWT_ERR_NOMEM, "out of memory");
			break;
		}
		levels = grown;
		levels[depth++] = (struct fold_level){child, at[child],
						      at[child + 1], len};
	}
	free(levels);
	free(text);
	free(items);
	free(at);
	if (!err && ferror(out))
		err = hwt_error(HWT_ERR_IO, "writing the report failed: %s",
				strerror(errno));
	return err;
}

int call_tree_add_text(const struct call_tree *t,
		       const struct hwt_strmap *frames,
		       struct hwt_strmap *full)
{
	char *text = NULL;
	size_t cap = 0;
	int err = 0;
	for (size_t i = 0; i < t->nodes.n && !err; i++) {
		const uint64_t *v = t->nodes.e[i].v;
		if (!v[S_SEEN])
			continue;
		/* The text is built from the end: the node's name last. */
		size_t len = 0;
		for (uint64_t id = i + 1; id; id = t->nodes.e[id - 1].a)
			len += strlen(frames->e[t->nodes.e[id - 1].b].key) +
			       (id != i + 1);
		void *grown = text;
		struct hwt_strmap_entry *f = NULL;
		if (array_grow(&grown, &cap, 1, len + 1, 256)) {
			text = grown;
			size_t end = len;
			for (uint64_t id = i + 1; id; id = t->nodes.e[id - 1].a) {
				const char *name =
					frames->e[t->nodes.e[id - 1].b].key;
				size_t n = strlen(name);
				if (id != i + 1)
					text[--end] = ';';
				end -= n;
				memcpy(text + end, name, n);
			}
			f = hwt_strmap_get(full, text, len);
		}
		if (!f) {
			err = hwt_error(HWT_ERR_NOMEM, "out of memory");
			break;
		}
		for (unsigned w = S_INSNS; w <= S_CALLS; w++)
			f->v[w] += v[w];
	}
	free(text);
	return err;
}
