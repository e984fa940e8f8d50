/* Branch-count profile: an open-addressing table keyed by from->to. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "hwtrace/error.h"
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

static void put_addr(FILE *out, struct hwt_image *image, int32_t pid,
		     uint64_t addr)
{
	struct hwt_image_section *s = image ? hwt_image_find(image, pid, addr)
					    : NULL;
	if (s && s->path && s->path[0] != '[')
		fprintf(out, "%s+0x%" PRIx64, s->path,
			addr - s->vaddr + s->file_offset);
	else
		fprintf(out, "0x%" PRIx64, addr);
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
	struct slot *v = malloc((p->n ? p->n : 1) * sizeof(*v));
	if (!v)
		return hwt_error(HWT_ERR_NOMEM, "out of memory for the branch profile");
	size_t n = 0;
	for (size_t i = 0; i < p->cap; i++)
		if (p->slots[i].used)
			v[n++] = p->slots[i];
	qsort(v, n, sizeof(*v), by_count);
	for (size_t i = 0; i < n; i++) {
		put_addr(out, image, v[i].pid, v[i].from);
		fputs("->", out);
		put_addr(out, image, v[i].pid, v[i].to);
		fprintf(out, " %" PRIu64, v[i].count);
		for (int end = 0; name_addr && end < 2; end++) {
			char name[1024];
			int len = name_addr(name_addr_arg, v[i].pid,
					    end ? v[i].to : v[i].from, name,
					    sizeof(name));
			fprintf(out, " %s", len > 0 ? name : "?");
		}
		fputc('\n', out);
	}
	free(v);
	if (ferror(out))
		return hwt_error(HWT_ERR_IO, "writing the branch profile failed");
	return 0;
}
