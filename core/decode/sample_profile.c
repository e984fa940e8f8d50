/* Branch-count profile: an open-addressing table keyed by from->to. */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hwtrace/error.h"
#include "hwtrace/listing.h"
#include "hwtrace/sample.h"

struct slot {
	uint64_t from, to, count;
	int32_t pid;
	bool used;
};

struct hwt_branch_profile {
	struct slot *slots;
	size_t cap, n; /* cap is a power of two */
};

static size_t hash(uint64_t from, uint64_t to)
{
	uint64_t h = from * 0x9e3779b97f4a7c15ull ^ (to + 0x632be59bd9b4e019ull);
	h ^= h >> 29;
	h *= 0xbf58476d1ce4e5b9ull;
	return (size_t)(h ^ (h >> 32));
}

struct hwt_branch_profile *hwt_branch_profile_new(void)
{
	struct hwt_branch_profile *p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->cap = 1024;
	p->slots = calloc(p->cap, sizeof(*p->slots));
	if (!p->slots) {
		free(p);
		return NULL;
	}
	return p;
}

void hwt_branch_profile_free(struct hwt_branch_profile *p)
{
	if (!p)
		return;
	free(p->slots);
	free(p);
}

static struct slot *find(const struct hwt_branch_profile *p, uint64_t from,
			 uint64_t to)
{
	size_t i = hash(from, to) & (p->cap - 1);
	while (p->slots[i].used &&
	       (p->slots[i].from != from || p->slots[i].to != to))
		i = (i + 1) & (p->cap - 1);
	return &p->slots[i];
}

static int grow(struct hwt_branch_profile *p)
{
	struct hwt_branch_profile q = {calloc(p->cap * 2, sizeof(struct slot)),
				       p->cap * 2, p->n};
	if (!q.slots)
		return hwt_error(HWT_ERR_NOMEM, "out of memory for the branch profile");
	for (size_t i = 0; i < p->cap; i++)
		if (p->slots[i].used)
			*find(&q, p->slots[i].from, p->slots[i].to) = p->slots[i];
	free(p->slots);
	*p = q;
	return 0;
}

int hwt_branch_profile_add(struct hwt_branch_profile *p, int32_t pid,
			   uint64_t from, uint64_t to)
{
	struct slot *s = find(p, from, to);
	if (!s->used) {
		if ((p->n + 1) * 4 > p->cap * 3) {
			int err = grow(p);
			if (err < 0)
				return err;
			s = find(p, from, to);
		}
		s->used = true;
		s->from = from;
		s->to = to;
		s->pid = pid;
		p->n++;
	}
	s->count++;
	return 0;
}

int hwt_branch_profile_add_elem(struct hwt_branch_profile *p,
				const struct hwt_elem *e)
{
	int32_t pid = e->fields & HWT_FIELD_PID ? e->pid : HWT_PID_ANY;
	int err = 0;
	if (e->type == HWT_ELEM_BRANCH && (e->fields & HWT_FIELD_NO_FROM))
		return 0; /* a target alone is no branch of the profile */
	if (e->type == HWT_ELEM_BRANCH)
		return hwt_branch_profile_add(p, pid, e->u.branch.from,
					      e->u.branch.to);
	if (e->type != HWT_ELEM_SAMPLE)
		return 0;
	for (size_t i = 0; i < e->u.sample.nbranches && err >= 0; i++)
		err = hwt_branch_profile_add(p, pid, e->u.sample.branches[i].from,
					     e->u.sample.branches[i].to);
	return err;
}

size_t hwt_branch_profile_size(const struct hwt_branch_profile *p)
{
	return p->n;
}

uint64_t hwt_branch_profile_count(const struct hwt_branch_profile *p,
				  uint64_t from, uint64_t to)
{
	const struct slot *s = find(p, from, to);
	return s->used ? s->count : 0;
}

static int by_count(const void *a, const void *b)
{
	const struct slot *x = a, *y = b;
	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	if (x->from != y->from)
		return x->from < y->from ? -1 : 1;
	return x->to < y->to ? -1 : x->to > y->to;
}

/* @addr as FILE+0xOFFSET where @image maps a file (not a "[kernel]"
 * style name) there, else as 0xADDRESS; allocated, as a path read from
 * a capture has no length limit. NULL when out of memory. */
static char *addr_text(struct hwt_image *image, int32_t pid, uint64_t addr)
{
	struct hwt_image_section *s = image ? hwt_image_find(image, pid, addr)
					    : NULL;
	char *text = NULL;
	int n;

	if (s && s->path && s->path[0] != '[')
		n = asprintf(&text, "%s+0x%" PRIx64, s->path,
			     addr - s->vaddr + s->file_offset);
	else
		n = asprintf(&text, "0x%" PRIx64, addr);
	return n < 0 ? NULL : text;
}

int hwt_branch_profile_write(const struct hwt_branch_profile *p,
			     struct hwt_image *image, FILE *out)
{
	return hwt_branch_profile_write_named(p, image, out, NULL, NULL);
}

int hwt_branch_profile_write_named(
	const struct hwt_branch_profile *p, struct hwt_image *image, FILE *out,
	int (*name_addr)(void *arg, int32_t pid, uint64_t addr, char *buf,
			 size_t size),
	void *name_addr_arg)
{
	struct hwt_branch_count_sink text = {hwt_branch_count_print_text, out};
	return hwt_branch_profile_emit(p, image, name_addr, name_addr_arg,
				       &text);
}

int hwt_branch_profile_emit(
	const struct hwt_branch_profile *p, struct hwt_image *image,
	int (*name_addr)(void *arg, int32_t pid, uint64_t addr, char *buf,
			 size_t size),
	void *name_addr_arg, const struct hwt_branch_count_sink *sink)
{
	struct slot *v = malloc((p->n ? p->n : 1) * sizeof(*v));
	if (!v)
		return hwt_error(HWT_ERR_NOMEM, "out of memory for the branch profile");
	size_t n = 0;
	for (size_t i = 0; i < p->cap; i++)
		if (p->slots[i].used)
			v[n++] = p->slots[i];
	qsort(v, n, sizeof(*v), by_count);
	int err = 0;
	for (size_t i = 0; i < n && err >= 0; i++) {
		char names[2][1024];
		char *from = addr_text(image, v[i].pid, v[i].from);
		char *to = addr_text(image, v[i].pid, v[i].to);
		struct hwt_branch_count_rec rec = {
			.pid = v[i].pid,
			.from_addr = v[i].from,
			.to_addr = v[i].to,
			.from = from,
			.to = to,
			.count = v[i].count,
			.named = name_addr != NULL,
			.from_sym = NULL,
			.to_sym = NULL,
		};
		if (!from || !to) {
			free(from);
			free(to);
			err = hwt_error(HWT_ERR_NOMEM, "out of memory for the "
					"branch profile");
			break;
		}
		for (int end = 0; name_addr && end < 2; end++) {
			int len = name_addr(name_addr_arg, v[i].pid,
					    end ? v[i].to : v[i].from, names[end],
					    sizeof(names[end]));
			if (len > 0)
				*(end ? &rec.to_sym : &rec.from_sym) = names[end];
		}
		err = sink->branch(sink->arg, &rec);
		free(from);
		free(to);
	}
	free(v);
	return err < 0 ? err : 0;
}
