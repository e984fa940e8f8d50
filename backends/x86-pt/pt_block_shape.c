/* What a libipt block holds between its first and its last instruction.
 *
 * Blocks are asked for in libipt's default mode, its fastest, in which a
 * block runs on through direct calls and jumps and ends only where trace
 * is needed (a conditional, indirect or far branch, a return), at an
 * event, or where its section ends. hwtrace's elements are address ranges
 * and the branches between them, so a block that went through direct
 * branches is cut there. Nothing but the code decides where those are: a
 * block's path is fixed by its start and its number of instructions. The
 * path is walked once, with the instruction lengths capstone gives, and
 * kept in a direct-mapped cache keyed by the block's start, length, mode
 * and code (libipt's section id, or the libipt image when the code is
 * read through a callback).
 *
 * A walk that does not end at the instruction libipt ends the block with
 * (an instruction capstone cannot decode, code that cannot be read) gives
 * a shape that is not cut: the caller reports it. */
#include <stdlib.h>
#include <string.h>

#include "backends/x86-pt/pt_decode.h"

struct pt_shapes *pt_shapes_new(void)
{
	return calloc(1, sizeof(struct pt_shapes));
}

void pt_shapes_free(struct pt_shapes *s)
{
	if (!s)
		return;
	free(s->cuts);
	pt_insn_free_decoder(s->walker);
	free(s);
}

/* The walker: libipt's instruction decoder, given a trace that only
 * says "tracing starts at IP in MODE". It runs on without trace through
 * the instructions a block runs through without trace, with libipt's own
 * instruction decoding, so that its path is libipt's. */
/* Returns the decoder's status at the start, or a negative error. */
static int start_walker(struct pt_shapes *s, uint64_t ip, enum pt_exec_mode mode)
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
	p[1].payload.ip.ip = ip;
	p[2].type = ppt_mode;
	p[2].payload.mode.leaf = pt_mol_exec;
	p[2].payload.mode.bits.exec.csl = mode == ptem_64bit;
	p[2].payload.mode.bits.exec.csd = mode == ptem_32bit;
	p[3].type = ppt_psbend;
	bool ok = true;
	for (int i = 0; i < 4 && ok; i++)
		ok = pt_enc_next(enc, &p[i]) > 0;
	uint64_t size = 0;
	ok = ok && pt_enc_get_offset(enc, &size) >= 0;
	pt_free_encoder(enc);
	if (!ok)
		return -pte_internal;
	/* The same packets, so the same size, at every start: the decoder
	 * is made once, over them, and set back to their start. */
	if (!s->walker) {
		c.end = s->trace + size;
		s->walker = pt_insn_alloc_decoder(&c);
		if (!s->walker)
			return -pte_nomem;
	}
	return pt_insn_sync_set(s->walker, 0);
}

static bool add_cut(struct pt_shapes *s, size_t n, const struct pt_shape_cut *c)
{
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

/* Walks @b's path through @img into s->cuts; sets @sh's ncuts and
 * last_len. False when the path does not lead to @b's last instruction
 * in b->ninsn steps. */
static bool walk(struct pt_shapes *s, const struct pt_block *b,
		 struct pt_image *img, struct pt_block_shape *sh)
{
	int status = img ? start_walker(s, b->ip, b->mode) : -pte_internal;
	if (status < 0 || pt_insn_set_image(s->walker, img) < 0)
		return false;
	uint16_t seg = 0;
	size_t n = 0;
	struct pt_shape_cut cut;
	bool cutting = false;
	for (uint16_t i = 0; i < b->ninsn; i++) {
		struct pt_insn insn;
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
	sh->ncuts = (uint16_t)n;
	return true;
}

struct pt_block_shape *pt_shape_walk(struct pt_shapes *s, const struct pt_block *b,
				     uint64_t tag, struct pt_image *img)
{
	struct pt_block_shape *sh = pt_shape_slot(s, b);
	struct pt_block_shape fresh = {
		.ip = b->ip, .tag = tag, .end_ip = b->end_ip,
		.ninsn = b->ninsn, .mode = (uint8_t)b->mode,
	};
	fresh.uncut = !walk(s, b, img, &fresh);
	if (fresh.uncut) {
		fresh.ncuts = 0;
		fresh.last_len = b->truncated ? b->size : 0;
	}
	/* Kept when its cuts fit and its last instruction lies in one
	 * section (libipt gives a cut one's bytes with the block). */
	if (!b->truncated && fresh.ncuts <= PT_SHAPE_CUTS) {
		*sh = fresh;
		memcpy(sh->inline_cuts, s->cuts, fresh.ncuts * sizeof(*s->cuts));
		sh->cut = sh->inline_cuts;
		return sh;
	}
	s->scratch = fresh;
	s->scratch.cut = s->cuts;
	return &s->scratch;
}
