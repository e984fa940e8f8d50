/* A pprof profile's content, identified by content (pprof_profile.h):
 * adding locations and samples, and adding one profile to another. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/export/export_internal.h"
#include "analysis/export/pprof_profile.h"
#include "hwtrace/error.h"

static int nomem(void)
{
	return hwt_error(HWT_ERR_NOMEM, "out of memory");
}

void pprof_profile_free(struct pprof_profile *p)
{
	hwt_strmap_free(&p->texts);
	hwt_strmap_free(&p->loc_keys);
	hwt_strmap_free(&p->map_keys);
	hwt_strmap_free(&p->sample_keys);
	free(p->locs);
	free(p->lines);
	free(p->maps);
	free(p->samples);
	free(p->stack);
	memset(p, 0, sizeof(*p));
}

const char *pprof_text(struct pprof_profile *p, const char *s)
{
	if (!s)
		s = "";
	struct hwt_strmap_entry *e = hwt_strmap_get(&p->texts, s, strlen(s));
	return e ? e->key : NULL;
}

/* A key being built: the bytes of a content, grown as needed. */
struct key {
	char *buf;
	size_t len, cap;
	bool failed;
};

static void key_put(struct key *k, const void *bytes, size_t n)
{
	if (k->failed)
		return;
	if (k->len + n > k->cap) {
		size_t cap = k->cap ? k->cap : 256;
		while (cap < k->len + n)
			cap *= 2;
		char *grown = realloc(k->buf, cap);
		if (!grown) {
			k->failed = true;
			return;
		}
		k->buf = grown;
		k->cap = cap;
	}
	memcpy(k->buf + k->len, bytes, n);
	k->len += n;
}

/* The map's keys are C strings: a text's bytes 1 and 2 are written as
 * 2 and the byte plus 0x40, and 1 ends each text and number, so that no
 * two contents give one key. */
static void key_text(struct key *k, const char *s)
{
	for (const char *c = s ? s : ""; *c; c++) {
		if (*c == 1 || *c == 2) {
			char esc[2] = {2, (char)(*c + 0x40)};
			key_put(k, esc, 2);
		} else {
			key_put(k, c, 1);
		}
	}
	key_put(k, "\1", 1);
}

static void key_u64(struct key *k, uint64_t v)
{
	char hex[24];
	int n = snprintf(hex, sizeof(hex), "%" PRIx64 "\1", v);
	key_put(k, hex, (size_t)n);
}

size_t pprof_add_map(struct pprof_profile *p, const struct pprof_map *m)
{
	struct key k = {0};
	key_text(&k, m->dso);
	key_text(&k, m->build_id);
	key_u64(&k, m->bias);
	struct hwt_strmap_entry *e = k.failed ? NULL
		: hwt_strmap_get(&p->map_keys, k.buf, k.len);
	free(k.buf);
	if (!e)
		return 0;
	if (e->v[0])
		return e->v[0];
	if (hwt_export_grow(&p->maps, &p->maps_cap, p->nmaps,
			    sizeof(*p->maps)))
		return 0;
	struct pprof_map *n = &p->maps[p->nmaps];
	n->dso = pprof_text(p, m->dso);
	n->build_id = pprof_text(p, m->build_id);
	n->bias = m->bias;
	if (!n->dso || !n->build_id)
		return 0;
	e->v[0] = ++p->nmaps;
	return e->v[0];
}

size_t pprof_add_loc(struct pprof_profile *p, const struct pprof_loc *l,
		     const struct pprof_line *lines)
{
	struct key k = {0};
	key_u64(&k, (uint64_t)l->pid);
	key_u64(&k, l->addr);
	key_u64(&k, l->map);
	key_u64(&k, l->nlines);
	for (size_t i = 0; i < l->nlines; i++) {
		key_text(&k, lines[i].name);
		key_text(&k, lines[i].file);
		key_u64(&k, lines[i].line);
		key_u64(&k, lines[i].start_line);
	}
	struct hwt_strmap_entry *e = k.failed ? NULL
		: hwt_strmap_get(&p->loc_keys, k.buf, k.len);
	free(k.buf);
	if (!e)
		return SIZE_MAX;
	if (e->v[0])
		return e->v[0] - 1;
	if (hwt_export_grow(&p->locs, &p->locs_cap, p->nlocs,
			    sizeof(*p->locs)))
		return SIZE_MAX;
	for (size_t i = 0; i < l->nlines; i++) {
		if (hwt_export_grow(&p->lines, &p->lines_cap, p->nlines + i,
				    sizeof(*p->lines)))
			return SIZE_MAX;
		struct pprof_line *n = &p->lines[p->nlines + i];
		*n = lines[i];
		n->name = pprof_text(p, lines[i].name);
		n->file = pprof_text(p, lines[i].file);
		if (!n->name || !n->file)
			return SIZE_MAX;
	}
	struct pprof_loc *n = &p->locs[p->nlocs];
	*n = *l;
	n->first_line = p->nlines;
	p->nlines += l->nlines;
	e->v[0] = ++p->nlocs;
	return p->nlocs - 1;
}

static int add_value(uint64_t *sum, uint64_t add)
{
	if (add > (uint64_t)INT64_MAX - *sum)
		return hwt_error(HWT_ERR_FORMAT, "a pprof sample's value would "
				 "pass 2^63 - 1 (%" PRIu64 " + %" PRIu64 ")",
				 *sum, add);
	*sum += add;
	return 0;
}

int pprof_add_sample(struct pprof_profile *p, const struct pprof_sample *s,
		     const size_t *stack)
{
	struct key k = {0};
	key_u64(&k, (uint64_t)s->pid);
	key_u64(&k, (uint64_t)s->tid);
	key_u64(&k, (uint64_t)s->cpu);
	key_u64(&k, s->comm != NULL);
	key_text(&k, s->comm);
	for (size_t i = 0; i < s->nlocs; i++)
		key_u64(&k, stack[i]);
	struct hwt_strmap_entry *e = k.failed ? NULL
		: hwt_strmap_get(&p->sample_keys, k.buf, k.len);
	free(k.buf);
	if (!e)
		return nomem();
	if (!e->v[0]) {
		if (hwt_export_grow(&p->samples, &p->samples_cap, p->nsamples,
				    sizeof(*p->samples)))
			return nomem();
		for (size_t i = 0; i < s->nlocs; i++) {
			if (hwt_export_grow(&p->stack, &p->stack_cap,
					    p->nstack + i, sizeof(*p->stack)))
				return nomem();
			p->stack[p->nstack + i] = stack[i];
		}
		struct pprof_sample *n = &p->samples[p->nsamples];
		*n = *s;
		memset(n->v, 0, sizeof(n->v));
		n->first_loc = p->nstack;
		p->nstack += s->nlocs;
		if (s->comm && !(n->comm = pprof_text(p, s->comm)))
			return nomem();
		e->v[0] = ++p->nsamples;
	}
	struct pprof_sample *n = &p->samples[e->v[0] - 1];
	for (int i = 0; i < 3; i++) {
		int err = add_value(&n->v[i], s->v[i]);
		if (err)
			return err;
	}
	return 0;
}

void pprof_add_records(struct pprof_profile *p, uint64_t records,
		       uint64_t min, uint64_t max)
{
	if (!records)
		return;
	if (!p->records || min < p->period_min)
		p->period_min = min;
	if (!p->records || max > p->period_max)
		p->period_max = max;
	p->records = records > UINT64_MAX - p->records ? UINT64_MAX
						       : p->records + records;
}

int pprof_profile_merge(struct pprof_profile *dst,
			const struct pprof_profile *src)
{
	size_t *loc = calloc(src->nlocs + 1, sizeof(*loc));
	size_t *stack = NULL, stack_cap = 0;
	int err = loc ? 0 : nomem();
	for (size_t i = 0; !err && i < src->nlocs; i++) {
		struct pprof_loc l = src->locs[i];
		if (l.map && !(l.map = pprof_add_map(dst, &src->maps[l.map - 1])))
			err = nomem();
		else if ((loc[i] = pprof_add_loc(dst, &l,
						 &src->lines[l.first_line])) ==
			 SIZE_MAX)
			err = nomem();
	}
	for (size_t i = 0; !err && i < src->nsamples; i++) {
		const struct pprof_sample *s = &src->samples[i];
		if (s->nlocs > stack_cap) {
			free(stack);
			stack_cap = s->nlocs;
			if (!(stack = malloc(stack_cap * sizeof(*stack)))) {
				err = nomem();
				break;
			}
		}
		for (size_t j = 0; j < s->nlocs; j++)
			stack[j] = loc[src->stack[s->first_loc + j]];
		err = pprof_add_sample(dst, s, stack);
	}
	free(stack);
	free(loc);
	if (err)
		return err;
	dst->has_time |= src->has_time;
	dst->srcline |= src->srcline;
	pprof_add_records(dst, src->records, src->period_min,
			  src->period_max);
	return 0;
}
