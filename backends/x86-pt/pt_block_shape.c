/* What a libipt block holds between its first and its last instruction.
 *
 * Blocks are asked for in libipt's default mode, its fastest, in which a
 * block runs on through direct calls and jumps and ends only where trace
 * is needed (a conditional, indirect or far branch, a return), at an
 * event, or where its section ends. hwtrace's elements are address ranges
 * and the branches between them, so a block that went through direct
 * branches is cut there. Nothing but the code decides where those are: a
 * block's path is fixed by its start and its number of instructions.
 *
 * The path is walked once by libipt's instruction decoder, so that its
 * instruction lengths and classes are the block decoder's own, and the
 * shape is kept by the block's start, length, mode and code (libipt's
 * section id, or the libipt image when code is read through a callback).
 *
 * A walk that does not reach the instruction libipt ends the block with
 * gives a shape that is not cut: the caller reports it. */
#include <stdlib.h>
#include <string.h>

#include "backends/x86-pt/pt_decode.h"

#define FIRST_SLOTS 1024u
/* Past this many shapes (32 MB), the table starts again empty. */
#define MAX_SLOTS (1u << 20)

struct pt_shapes *pt_shapes_new(void)
{
	struct pt_shapes *s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	s->slot = calloc(FIRST_SLOTS, sizeof(*s->slot));
	if (!s->slot) {
		free(s);
		return NULL;
	}
	s->mask = FIRST_SLOTS - 1;
	s->trace_mode = -1;
	return s;
}

/* No shape kept; the table keeps its size. */
static void empty_table(struct pt_shapes *s)
{
	s->gen++;
	memset(s->slot, 0, (s->mask + 1) * sizeof(*s->slot));
	s->used = 0;
	s->ncuts = 0;
}

void pt_shapes_clear(struct pt_shapes *s)
{
	empty_table(s);
	/* It may hold an image that is gone. */
	pt_insn_free_decoder(s->walker);
	s->walker = NULL;
	s->trace_mode = -1;
}

void pt_shapes_free(struct pt_shapes *s)
{
	if (!s)
		return;
	free(s->slot);
	free(s->cuts);
	pt_insn_free_decoder(s->walker);
	free(s);
}

/* The walker: libipt's instruction decoder, given a trace that only
 * says "tracing starts at IP in MODE". It runs on without trace through
 * the instructions a block runs through without trace. The packets are
 * written once per mode; a start only rewrites the IP. */
static int write_start(struct pt_shapes *s, enum pt_exec_mode mode)
{
	struct pt_config c;
	pt_config_init(&c);
	c.begin = s->trace;
	c.end = s->trace + sizeof(s->trace);
	struct pt_encoder *enc = pt_alloc_encoder(&c);
	if (!enc)
		return -pte_nomem;
	struct pt_packet p[4];
	memset(p, 0, sizeof(p));
	p[0].type = ppt_psb;
	p[1].type = ppt_fup;
	p[1].payload.ip.ipc = pt_ipc_full;
	p[2].type = ppt_mode;
	p[2].payload.mode.leaf = pt_mol_exec;
	p[2].payload.mode.bits.exec.csl = mode == ptem_64bit;
	p[2].payload.mode.bits.exec.csd = mode == ptem_32bit;
	p[3].type = ppt_psbend;
	bool ok = pt_enc_next(enc, &p[0]) > 0;
	uint64_t fup = 0, size = 0;
	ok = ok && pt_enc_get_offset(enc, &fup) >= 0;
	for (int i = 1; i < 4 && ok; i++)
		ok = pt_enc_next(enc, &p[i]) > 0;
	ok = ok && pt_enc_get_offset(enc, &size) >= 0;
	pt_free_encoder(enc);
	if (!ok)
		return -pte_internal;
	/* The same packets, so the same size, in every mode: the decoder
	 * is made once, over them. */
	if (!s->walker) {
		c.end = s->trace + size;
		s->walker = pt_insn_alloc_decoder(&c);
		if (!s->walker)
			return -pte_nomem;
	}
	s->fup_ip = (size_t)fup + 1; /* after the FUP's header byte */
	s->trace_mode = mode;
	return 0;
}

/* Returns the walker's status at @ip, or a negative error. */
static int start_walker(struct pt_shapes *s, uint64_t ip, enum pt_exec_mode mode)
{
	if (s->trace_mode != (int)mode) {
		int err = write_start(s, mode);
		if (err < 0)
			return err;
	}
	for (int i = 0; i < 8; i++) /* the payload is little endian */
		s->trace[s->fup_ip + i] = (uint8_t)(ip >> 8 * i);
	return pt_insn_sync_set(s->walker, 0);
}

int pt_shapes_walk_start(struct pt_shapes *s, uint64_t ip,
			 enum pt_exec_mode mode, struct pt_image *img)
{
	int status = img ? start_walker(s, ip, mode) : -pte_internal;
	if (status >= 0 && pt_insn_set_image(s->walker, img) < 0)
		return -pte_internal;
	return status;
}

static bool add_cut(struct pt_shapes *s, size_t n, const struct pt_shape_cut *c)
{
	if (n >= UINT32_MAX)
		return false;
	if (n == s->cuts_cap) {
		size_t cap = s->cuts_cap ? 2 * s->cuts_cap : 64;
		struct pt_shape_cut *p = realloc(s->cuts, cap * sizeof(*p));
		if (!p)
			return false;
		s->cuts = p;
		s->cuts_cap = cap;
	}
	s->cuts[n] = *c;
	return true;
}

/* The next instruction on the walk; its status, or a negative error. */
static int walk_next(struct pt_insn_decoder *w, int status, struct pt_insn *insn)
{
	while (status >= 0 && (status & pts_event_pending)) {
		struct pt_event ev;
		status = pt_insn_event(w, &ev, sizeof(ev));
	}
	if (status < 0)
		return status;
	return pt_insn_next(w, insn, sizeof(*insn));
}

int pt_shapes_walk_next(struct pt_shapes *s, int status, struct pt_insn *insn)
{
	return walk_next(s->walker, status, insn);
}

/* Walks @b's path through @img; its cuts go after the kept shapes' in
 * s->cuts. Sets @sh's ncuts, first_cut and last_len. False when the path
 * does not lead to @b's last instruction in b->ninsn steps. */
static bool walk(struct pt_shapes *s, const struct pt_block *b,
		 struct pt_image *img, struct pt_block_shape *sh)
{
	int status = pt_shapes_walk_start(s, b->ip, b->mode, img);
	if (status < 0)
		return false;
	uint16_t seg = 0;
	size_t n = s->ncuts;
	struct pt_shape_cut cut;
	bool cutting = false;
	for (uint16_t i = 0; i < b->ninsn; i++) {
		/* Zero when the walker fails before decoding it. */
		struct pt_insn insn = {.size = 0};
		status = walk_next(s->walker, status, &insn);
		/* The last instruction may need trace, which there is none
		 * of: libipt has decoded it all the same. */
		if (!insn.size || (status < 0 && i + 1 < b->ninsn))
			return false;
		if (cutting) {
			cut.to = insn.ip;
			if (!add_cut(s, n++, &cut))
				return false;
			cutting = false;
		}
		if (i + 1 == b->ninsn) {
			if (insn.ip != b->end_ip)
				return false;
			sh->last_len = insn.size;
			break;
		}
		seg++;
		if (insn.iclass == ptic_call || insn.iclass == ptic_jump) {
			cut = (struct pt_shape_cut){
				.from = insn.ip, .len = insn.size, .insns = seg,
				.kind = insn.iclass == ptic_call ? HWT_BRANCH_CALL
								 : HWT_BRANCH_JUMP,
			};
			cutting = true;
			seg = 0;
		}
	}
	sh->first_cut = (uint32_t)s->ncuts;
	sh->ncuts = (uint16_t)(n - s->ncuts);
	return true;
}

/* Doubles the table, or empties it when it is as large as it gets. */
static bool grow(struct pt_shapes *s)
{
	size_t n = (s->mask + 1) * 2;
	if (n > MAX_SLOTS) {
		empty_table(s);
		return true;
	}
	struct pt_block_shape *slot = calloc(n, sizeof(*slot));
	if (!slot)
		return false;
	for (size_t i = 0; i <= s->mask; i++) {
		const struct pt_block_shape *sh = &s->slot[i];
		if (!sh->ninsn)
			continue;
		size_t j = pt_shape_hash(sh->ip, sh->ninsn) & (n - 1);
		while (slot[j].ninsn)
			j = (j + 1) & (n - 1);
		slot[j] = *sh;
	}
	free(s->slot);
	s->slot = slot;
	s->mask = n - 1;
	s->gen++;
	return true;
}

struct pt_block_shape *pt_shape_walk(struct pt_shapes *s, const struct pt_block *b,
				     uint64_t tag, struct pt_image *img)
{
	/* A truncated last instruction spans sections, whose neighbours
	 * the key does not name: such a block is walked each time. */
	bool keep = !b->truncated;
	if (keep && (s->used + 1) * 2 > s->mask + 1)
		keep = grow(s);
	struct pt_block_shape fresh = {
		.ip = b->ip, .tag = tag, .ninsn = b->ninsn,
		.mode = (uint8_t)b->mode,
	};
	fresh.uncut = !walk(s, b, img, &fresh);
	if (fresh.uncut) {
		fresh.ncuts = 0;
		fresh.last_len = b->truncated ? b->size : 0;
	}
	if (!keep) {
		s->scratch = fresh;
		return &s->scratch;
	}
	size_t i = pt_shape_hash(b->ip, b->ninsn) & s->mask;
	while (s->slot[i].ninsn)
		i = (i + 1) & s->mask;
	s->slot[i] = fresh;
	s->used++;
	s->ncuts += fresh.ncuts;
	return &s->slot[i];
}
