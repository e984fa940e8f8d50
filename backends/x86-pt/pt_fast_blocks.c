/* The fast path's blocks (pt_fast.c): the code walked once per start
 * address, as libipt's block decoder walks it, and kept in a table.
 *
 * A block runs from its start through the instructions that need no
 * trace (direct calls and jumps followed) to the first that does (a
 * conditional or indirect branch, a return, a far branch), or to where
 * its section ends, where libipt ends a block too. The walk is libipt's
 * instruction decoder's (the block shapes' walker), so that lengths and
 * classes are libipt's own. Kept with it: its last instruction, a
 * conditional branch's target and the return addresses of its direct
 * calls, in order. Anything else (another mode than 64-bit, a branch
 * with prefixes, code that cannot be read) leaves the block to libipt's
 * block decoder (FB_NO). */
#include <stdlib.h>
#include <string.h>

#include "backends/x86-pt/pt_fast.h"

#define FIRST_SLOTS 1024u
/* Past this many blocks (56 MB), the table starts again empty. */
#define MAX_SLOTS (1u << 20)

struct pt_fast *pt_fast_new(void)
{
	struct pt_fast *f = calloc(1, sizeof(*f));
	if (!f)
		return NULL;
	f->slot = calloc(FIRST_SLOTS, sizeof(*f->slot));
	if (!f->slot) {
		free(f);
		return NULL;
	}
	f->mask = FIRST_SLOTS - 1;
	return f;
}

void pt_fast_free(struct pt_fast *f)
{
	if (!f)
		return;
	free(f->slot);
	free(f->push);
	free(f);
}

void pt_fast_clear(struct pt_fast *f)
{
	memset(f->slot, 0, (f->mask + 1) * sizeof(*f->slot));
	f->used = 0;
	f->npush = 0;
}

bool pt_fast_rel_target(const struct pt_insn *in, uint64_t *to)
{
	const uint8_t *r = in->raw;
	int64_t rel;
	if (in->size == 2 && ((r[0] >= 0x70 && r[0] <= 0x7f) || r[0] == 0xeb ||
			      (r[0] >= 0xe0 && r[0] <= 0xe3))) {
		rel = (int8_t)r[1];
	} else if (in->size == 5 && (r[0] == 0xe8 || r[0] == 0xe9)) {
		int32_t v;
		memcpy(&v, r + 1, 4);
		rel = v;
	} else if (in->size == 6 && r[0] == 0x0f && (r[1] & 0xf0) == 0x80) {
		int32_t v;
		memcpy(&v, r + 2, 4);
		rel = v;
	} else {
		return false;
	}
	*to = in->ip + in->size + (uint64_t)rel;
	return true;
}

static bool add_push(struct pt_fast *f, uint64_t ip)
{
	if (f->npush >= UINT32_MAX)
		return false;
	if (f->npush == f->push_cap) {
		size_t cap = f->push_cap ? 2 * f->push_cap : 256;
		uint64_t *p = realloc(f->push, cap * sizeof(*p));
		if (!p)
			return false;
		f->push = p;
		f->push_cap = cap;
	}
	f->push[f->npush++] = ip;
	return true;
}

/* A direct call pushes its return address, unless it calls the next
 * instruction (position-independent code reading its IP). False when
 * its target cannot be told. */
static bool direct_call(struct pt_fast *f, const struct pt_insn *in,
			struct fast_block *fb)
{
	uint64_t to;
	if (!pt_fast_rel_target(in, &to))
		return false;
	if (to == in->ip + in->size)
		return true;
	if (fb->npush == UINT8_MAX || !add_push(f, in->ip + in->size))
		return false;
	fb->npush++;
	return true;
}

/* Walks the code from fb->ip to the end of its block, as libipt's block
 * decoder would: through the instructions that need no trace (direct
 * calls and jumps followed) to the first that does, or to where the
 * section ends. Anything else leaves it FB_NO. */
static void walk(struct pt_dec *d, struct pt_fast *f, struct fast_block *fb)
{
	fb->end = FB_NO;
	fb->ninsn = 0;
	fb->npush = 0;
	fb->first_push = (uint32_t)f->npush;
	fb->decodable = false;
	if (fb->mode != ptem_64bit)
		return;
	int status = pt_shapes_walk_start(d->shapes, fb->ip, ptem_64bit,
					  (struct pt_image *)fb->img);
	if (status < 0)
		return;
	for (;;) {
		struct pt_insn in = {.size = 0};
		status = pt_shapes_walk_next(d->shapes, status, &in);
		if (!in.size || in.truncated)
			return;
		if (!fb->ninsn) {
			fb->isid = in.isid;
			fb->decodable = true;
		} else if (in.isid != fb->isid) {
			/* libipt does not switch sections inside a block. */
			fb->end = FB_ON;
			fb->next = in.ip;
			return;
		}
		if (fb->ninsn == UINT16_MAX - 1)
			return; /* a block libipt fills up: rare */
		fb->ninsn++;
		fb->end_ip = in.ip;
		fb->len = in.size;
		fb->iclass = (uint8_t)in.iclass;
		if (status >= 0) {
			if (in.iclass == ptic_call && !direct_call(f, &in, fb))
				return;
			continue;
		}
		/* It needs trace, which the walker has none of. */
		switch (in.iclass) {
		case ptic_cond_jump:
			if (pt_fast_rel_target(&in, &fb->next))
				fb->end = FB_COND;
			return;
		case ptic_return:
			fb->end = FB_RET;
			return;
		case ptic_jump:
			fb->end = FB_JUMP;
			return;
		case ptic_call:
			fb->end = FB_CALL;
			return;
		case ptic_far_call:
		case ptic_far_return:
		case ptic_far_jump:
			fb->end = FB_FAR;
			return;
		default:
			return;
		}
	}
}

/* Doubles the table, or empties it when it is as large as it gets. */
static bool grow(struct pt_fast *f)
{
	size_t n = (f->mask + 1) * 2;
	if (n > MAX_SLOTS) {
		pt_fast_clear(f);
		return true;
	}
	struct fast_block *slot = calloc(n, sizeof(*slot));
	if (!slot)
		return false;
	for (size_t i = 0; i <= f->mask; i++) {
		const struct fast_block *fb = &f->slot[i];
		if (fb->end == FB_NONE)
			continue;
		size_t j = block_hash(fb->ip, fb->img, fb->mode) & (n - 1);
		while (slot[j].end != FB_NONE)
			j = (j + 1) & (n - 1);
		slot[j] = *fb;
	}
	free(f->slot);
	f->slot = slot;
	f->mask = n - 1;
	return true;
}

struct fast_block *pt_fast_walk_new(struct pt_dec *d, struct pt_fast *f,
				    uint64_t ip, unsigned int mode)
{
	bool keep = (f->used + 1) * 2 <= f->mask + 1 || grow(f);
	struct fast_block fresh = {.ip = ip, .img = d->img, .mode = (uint8_t)mode};
	walk(d, f, &fresh);
	if (!keep) {
		f->scratch = fresh;
		return &f->scratch;
	}
	size_t i = block_hash(ip, d->img, mode) & f->mask;
	while (f->slot[i].end != FB_NONE)
		i = (i + 1) & f->mask;
	f->slot[i] = fresh;
	f->used++;
	return &f->slot[i];
}
