/* Interned annotations of records (hwtrace/annotation_table.h): an open
 * addressing table from what an annotation depends on to its id, and the
 * texts end to end in one growing buffer. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "hwtrace/annotation_table.h"
#include "hwtrace/element.h"
#include "hwtrace/error.h"

/* What an annotation may depend on (output.h's rule): the type,
 * addresses, count, ISA or kind, exception number, process and the
 * annotator's tag. The fields bits are kept whole but for the CPU and
 * the time, on which it may not depend: wider than needed, never
 * narrower. */
struct annot_key {
	uint64_t from, to, count, tag;
	uint32_t type, fields, kind, number;
	int32_t task;
};

struct slot {
	struct annot_key key;
	uint32_t id; /* 0: empty slot (ids of texts start at 1 here) */
};

/* A trace_on's or trace_off's text, found again by its hash, type and
 * bytes: a capture with many trace starts and ends (sw_branch's) gives
 * few distinct texts, and a binding parses each id's text once. */
struct text_slot {
	uint64_t hash;
	uint32_t type;
	uint32_t id; /* the text's id + 1; 0: empty slot */
};

struct hwt_annot_table {
	struct hwt_output_annotator a;
	enum hwt_output_format format;
	struct slot *slots;
	size_t nslots, used; /* nslots a power of two */
	char *text;          /* the texts, each NUL-terminated */
	size_t text_len, text_cap;
	size_t *starts;      /* id -> offset in text */
	size_t nids, ids_cap;
	uint64_t calls;
	struct text_slot *tslots;
	size_t ntslots, tused; /* ntslots 0 or a power of two */
	char *scratch;
	size_t scratch_cap;
};

/* Once per record: each field times its own odd constant, summed, then
 * one final mix (a seventh of the instructions of a mix per field, which
 * were most of a record's lookup). The slots' order changes, not the
 * ids, which follow the records' order. */
static uint64_t key_hash(const struct annot_key *k)
{
	uint64_t h = k->from * 0x9e3779b97f4a7c15ull +
		     k->to * 0xc2b2ae3d27d4eb4full +
		     k->count * 0x165667b19e3779f9ull +
		     k->tag * 0xd6e8feb86659fd93ull +
		     ((uint64_t)k->type << 32 | k->fields) * 0xff51afd7ed558ccdull +
		     ((uint64_t)k->kind << 32 | k->number) * 0xc4ceb9fe1a85ec53ull +
		     (uint32_t)k->task * 0x27d4eb2f165667c5ull;
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	return h;
}

static bool key_eq(const struct annot_key *a, const struct annot_key *b)
{
	return a->from == b->from && a->to == b->to && a->count == b->count &&
	       a->tag == b->tag && a->type == b->type &&
	       a->fields == b->fields && a->kind == b->kind &&
	       a->number == b->number && a->task == b->task;
}

static bool grow(void **p, size_t *cap, size_t need, size_t elem)
{
	if (need <= *cap)
		return true;
	size_t n = *cap ? *cap : 64;
	while (n < need)
		n *= 2;
	void *q = realloc(*p, n * elem);
	if (!q)
		return false;
	*p = q;
	*cap = n;
	return true;
}

/* Appends @len bytes of @s (and a NUL) as the next id's text. */
static int add_text(struct hwt_annot_table *t, const char *s, size_t len,
		    uint32_t *id)
{
	if (t->nids >= HWT_ANNOT_NONE - 1)
		return hwt_error(HWT_ERR_NOMEM, "annotation table: more than "
				 "%u distinct annotations", HWT_ANNOT_NONE - 1);
	if (!grow((void **)&t->text, &t->text_cap, t->text_len + len + 1, 1) ||
	    !grow((void **)&t->starts, &t->ids_cap, t->nids + 1,
		  sizeof(*t->starts)))
		return hwt_error(HWT_ERR_NOMEM, "annotation table: out of memory");
	memcpy(t->text + t->text_len, s, len);
	t->text[t->text_len + len] = '\0';
	t->starts[t->nids] = t->text_len;
	t->text_len += len + 1;
	*id = (uint32_t)t->nids++;
	return 0;
}

int hwt_annot_table_new(const struct hwt_output_annotator *annotator,
			enum hwt_output_format format,
			struct hwt_annot_table **out)
{
	if (!annotator || !annotator->annotate || !out)
		return hwt_error(HWT_ERR_INVAL, "hwt_annot_table_new: missing "
				 "argument");
	struct hwt_annot_table *t = calloc(1, sizeof(*t));
	if (!t)
		return hwt_error(HWT_ERR_NOMEM, "annotation table: out of memory");
	t->a = *annotator;
	t->format = format;
	t->nslots = 1024;
	t->slots = calloc(t->nslots, sizeof(*t->slots));
	/* Room for the usual symbol members: one call of the annotator. */
	t->scratch_cap = 256;
	t->scratch = malloc(t->scratch_cap);
	uint32_t empty;
	if (!t->slots || !t->scratch || add_text(t, "", 0, &empty) < 0) {
		hwt_annot_table_free(t);
		return hwt_error(HWT_ERR_NOMEM, "annotation table: out of memory");
	}
	*out = t;
	return 0;
}

void hwt_annot_table_free(struct hwt_annot_table *t)
{
	if (!t)
		return;
	free(t->slots);
	free(t->tslots);
	free(t->text);
	free(t->starts);
	free(t->scratch);
	free(t);
}

/* Doubles the slots (keeping the load under a half). */
static int rehash(struct hwt_annot_table *t)
{
	size_t n = t->nslots * 2;
	struct slot *s = calloc(n, sizeof(*s));
	if (!s)
		return hwt_error(HWT_ERR_NOMEM, "annotation table: out of memory");
	for (size_t i = 0; i < t->nslots; i++) {
		if (!t->slots[i].id)
			continue;
		size_t j = key_hash(&t->slots[i].key) & (n - 1);
		while (s[j].id)
			j = (j + 1) & (n - 1);
		s[j] = t->slots[i];
	}
	free(t->slots);
	t->slots = s;
	t->nslots = n;
	return 0;
}

/* The annotator's text for @e, into t->scratch; its length or an
 * error. */
static int annotate(struct hwt_annot_table *t, const struct hwt_elem *e)
{
	for (;;) {
		t->calls++;
		int n = t->a.annotate(t->a.arg, e, t->format, NULL, t->scratch,
				      t->scratch_cap);
		if (n < 0 || (size_t)n < t->scratch_cap)
			return n;
		if (!grow((void **)&t->scratch, &t->scratch_cap, (size_t)n + 1, 1))
			return hwt_error(HWT_ERR_NOMEM, "annotation table: out of "
					 "memory");
	}
}

static bool annotated_here(const struct hwt_elem_record *r)
{
	return r->type == HWT_ELEM_BRANCH || r->type == HWT_ELEM_TRACE_ON ||
	       r->type == HWT_ELEM_TRACE_OFF ||
	       (r->type == HWT_ELEM_RANGE && !r->text);
}

/* Whether equal keys may share an annotation: output.h promises it for
 * ranges and branches only (a cache_tag need not tell apart the times of
 * other elements). */
static bool shared(const struct hwt_elem_record *r)
{
	return r->type == HWT_ELEM_BRANCH || r->type == HWT_ELEM_RANGE;
}

static uint64_t text_hash(const char *s, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a */
	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 0x100000001b3ull;
	return h;
}

/* Doubles the text slots (keeping the load under a half). */
static int text_rehash(struct hwt_annot_table *t)
{
	size_t n = t->ntslots ? t->ntslots * 2 : 64;
	struct text_slot *s = calloc(n, sizeof(*s));
	if (!s)
		return hwt_error(HWT_ERR_NOMEM, "annotation table: out of memory");
	for (size_t i = 0; i < t->ntslots; i++) {
		if (!t->tslots[i].id)
			continue;
		size_t j = t->tslots[i].hash & (n - 1);
		while (s[j].id)
			j = (j + 1) & (n - 1);
		s[j] = t->tslots[i];
	}
	free(t->tslots);
	t->tslots = s;
	t->ntslots = n;
	return 0;
}

/* A trace_on's or trace_off's own annotation (annotated each time: no
 * cache_tag promise covers them), under the id of an equal text of its
 * type given before, or a new one. */
static int unshared_id(struct hwt_annot_table *t,
		       const struct hwt_elem_record *r, uint32_t *id)
{
	struct hwt_elem e;
	hwt_elem_record_to_elem(&e, r);
	int n = annotate(t, &e);
	if (n < 0)
		return n;
	if (t->tused * 2 >= t->ntslots) {
		int rc = text_rehash(t);
		if (rc < 0)
			return rc;
	}
	uint64_t h = text_hash(t->scratch, (size_t)n);
	size_t mask = t->ntslots - 1, i = h & mask;
	for (; t->tslots[i].id; i = (i + 1) & mask) {
		const struct text_slot *ts = &t->tslots[i];
		if (ts->hash != h || ts->type != r->type)
			continue;
		size_t len = 0;
		const char *s = hwt_annot_text(t, ts->id - 1, &len);
		if (len == (size_t)n && !memcmp(s, t->scratch, len)) {
			*id = ts->id - 1;
			return 0;
		}
	}
	int rc = add_text(t, t->scratch, (size_t)n, id);
	if (rc < 0)
		return rc;
	t->tslots[i] = (struct text_slot){.hash = h, .type = r->type,
					  .id = *id + 1};
	t->tused++;
	return 0;
}

static int record_id(struct hwt_annot_table *t,
		     const struct hwt_elem_record *r, uint32_t *id)
{
	struct hwt_elem e;
	hwt_elem_record_to_elem(&e, r);
	struct annot_key k = {
		.from = r->from, .to = r->to, .count = r->count,
		.type = r->type, .kind = r->kind, .number = r->number,
		.fields = r->fields & ~(uint32_t)(HWT_FIELD_CPU | HWT_FIELD_TIME),
		.task = (r->fields & HWT_FIELD_PID) ? r->pid
			: (r->fields & HWT_FIELD_TID) ? r->tid : -1,
	};
	k.tag = t->a.cache_tag ? t->a.cache_tag(t->a.arg, &e) : 0;
	size_t mask = t->nslots - 1, i = key_hash(&k) & mask;
	for (; t->slots[i].id; i = (i + 1) & mask) {
		if (key_eq(&t->slots[i].key, &k)) {
			*id = t->slots[i].id;
			return 0;
		}
	}
	int n = annotate(t, &e);
	if (n < 0)
		return n;
	/* Slot ids are text ids + 1, so that 0 marks an empty slot. */
	/* An empty text gets an id of its own too: an id then names
	 * records of one type (its key has it), which a binding may rely
	 * on. */
	uint32_t text_id = 0;
	int rc = add_text(t, t->scratch, (size_t)n, &text_id);
	if (rc < 0)
		return rc;
	t->slots[i] = (struct slot){.key = k, .id = text_id + 1};
	*id = text_id + 1;
	if (++t->used * 2 > t->nslots)
		return rehash(t);
	return 0;
}

int64_t hwt_annot_records(struct hwt_annot_table *t,
			  const struct hwt_elem_record *recs, size_t n,
			  uint32_t *ids)
{
	if (!t || (n && (!recs || !ids)))
		return hwt_error(HWT_ERR_INVAL, "hwt_annot_records: missing "
				 "argument");
	for (size_t i = 0; i < n; i++) {
		if (!annotated_here(&recs[i])) {
			ids[i] = HWT_ANNOT_NONE;
			continue;
		}
		if (!shared(&recs[i])) {
			int rc = unshared_id(t, &recs[i], &ids[i]);
			if (rc < 0)
				return rc;
			continue;
		}
		uint32_t slot_id = 0;
		int rc = record_id(t, &recs[i], &slot_id);
		if (rc < 0)
			return rc;
		ids[i] = slot_id - 1;
	}
	return (int64_t)n;
}

const char *hwt_annot_text(const struct hwt_annot_table *t, uint32_t id,
			   size_t *len)
{
	if (!t || id >= t->nids)
		return NULL;
	const char *s = t->text + t->starts[id];
	if (len)
		*len = (id + 1 < t->nids ? t->starts[id + 1] : t->text_len) -
		       t->starts[id] - 1;
	return s;
}

void hwt_annot_table_stats(const struct hwt_annot_table *t, size_t *texts,
			   uint64_t *calls)
{
	if (texts)
		*texts = t ? t->nids : 0;
	if (calls)
		*calls = t ? t->calls : 0;
}
