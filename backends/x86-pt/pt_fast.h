/* The fast path's table of blocks (pt_fast_blocks.c), for its decode
 * loop (pt_fast.c). */
#ifndef HWT_BACKENDS_X86_PT_PT_FAST_H
#define HWT_BACKENDS_X86_PT_PT_FAST_H

#include <stdbool.h>
#include <stdint.h>

#include "backends/x86-pt/pt_decode.h"

/* libipt's return stack: 64 return addresses, the oldest dropped. */
#define RETSTACK 64

/* How a block ends. */
enum fb_end {
	FB_NONE,  /* a free slot */
	FB_COND,  /* at a conditional branch: a TNT bit */
	FB_RET,   /* at a near return: a TNT bit (compressed) or a TIP */
	FB_JUMP,  /* at a near indirect jump: a TIP */
	FB_CALL,  /* at a near indirect call: a TIP */
	FB_FAR,   /* at a far branch (syscall, iret, ...): a TIP */
	FB_ON,    /* where its section ends: the next block starts at next */
	FB_NO,    /* not for the fast path: the block decoder's */
};

/* The block from a start address, as libipt's block decoder makes it. */
struct fast_block {
	uint64_t ip;                /* its start, */
	const struct pt_image *img; /* the image it was read from */
	uint64_t end_ip;            /* its last instruction */
	uint64_t next;              /* FB_COND's target, FB_ON's next */
	uint32_t first_push;        /* its pushes: pt_fast.push[first...] */
	int isid;
	uint16_t ninsn;
	uint8_t mode;
	uint8_t end;                /* enum fb_end */
	uint8_t len;                /* its last instruction's length */
	uint8_t iclass;             /* and class */
	uint8_t npush;              /* direct calls' return addresses */
	bool decodable;             /* FB_NO: its first instruction decodes */
	/* Its shape's place in the shapes' table, good while the table's
	 * gen is shape_gen (0: not known). */
	uint32_t shape_gen, shape_slot;
};

_Static_assert(sizeof(struct fast_block) == 56,
	       "pt_fast_blocks.c's MAX_SLOTS counts 56 bytes a block");

struct pt_fast {
	struct fast_block *slot;
	size_t mask, used;
	struct fast_block scratch; /* a block not kept */
	uint64_t *push;
	size_t npush, push_cap;
	/* The return stack of the chunk being decoded. */
	uint64_t ret[RETSTACK + 1];
	unsigned top, bottom;
};

static inline size_t block_hash(uint64_t ip, const struct pt_image *img,
				unsigned int mode)
{
	uint64_t h = (ip ^ (uint64_t)(uintptr_t)img << 17 ^ mode) *
		     0x9e3779b97f4a7c15ull;
	return (size_t)(h ^ h >> 29);
}

/* The return stack, as libipt keeps it. */
static inline void ret_push(struct pt_fast *f, uint64_t ip)
{
	f->ret[f->top] = ip;
	f->top = f->top == RETSTACK ? 0 : f->top + 1;
	if (f->top == f->bottom)
		f->bottom = f->bottom == RETSTACK ? 0 : f->bottom + 1;
}

static inline bool ret_pop(struct pt_fast *f, uint64_t *ip)
{
	if (f->top == f->bottom)
		return false;
	f->top = f->top ? f->top - 1 : RETSTACK;
	*ip = f->ret[f->top];
	return true;
}

/* The target of a direct near branch of 64-bit code without prefixes
 * (rel8 or rel32); false for any other. */
bool pt_fast_rel_target(const struct pt_insn *in, uint64_t *to);

/* Walks the block at @ip in @mode of d->img and keeps it (or holds it
 * until the next call, when the table is full). */
struct fast_block *pt_fast_walk_new(struct pt_dec *d, struct pt_fast *f,
				    uint64_t ip, unsigned int mode);

/* The block at @ip in @mode of the image in use. */
static inline struct fast_block *block_at(struct pt_dec *d, struct pt_fast *f,
					  uint64_t ip, unsigned int mode)
{
	size_t i = block_hash(ip, d->img, mode) & f->mask;
	for (;; i = (i + 1) & f->mask) {
		struct fast_block *fb = &f->slot[i];
		if (fb->end == FB_NONE)
			break;
		if (fb->ip == ip && fb->img == d->img && fb->mode == mode)
			return fb;
	}
	return pt_fast_walk_new(d, f, ip, mode);
}

#endif
