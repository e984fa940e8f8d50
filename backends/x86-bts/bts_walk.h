/* Following straight-line code between two branch records: from where the
 * last branch landed to the next branch instruction, counting instructions
 * decoded from the memory image. Results are cached per (start, stop), as
 * loops revisit the same blocks. */
#ifndef HWT_BTS_WALK_H
#define HWT_BTS_WALK_H

#include <stdbool.h>
#include <stdint.h>

#include "hwtrace/insn.h"
#include "hwtrace/image.h"

enum hwt_bts_walk_status {
	HWT_BTS_WALK_OK,
	HWT_BTS_WALK_NO_IMAGE, /* code not in the image (detail: the file) */
	HWT_BTS_WALK_BAD,      /* the code does not lead from start to stop */
};

struct hwt_bts_block {
	enum hwt_bts_walk_status status;
	uint64_t end;          /* just after the last instruction */
	uint64_t insns;
	uint64_t fail_at;      /* where the walk failed */
	const char *detail;    /* missing file or reason; static or image-owned */
};

struct hwt_bts_walk;

/* @image is borrowed. Errors: HWT_ERR_NOSUP (no instruction decoder in
 * this build), HWT_ERR_NOMEM. */
int hwt_bts_walk_new(struct hwt_image *image, struct hwt_bts_walk **out);
void hwt_bts_walk_free(struct hwt_bts_walk *walk);

/* The perf time of the code walked from now on (HWT_TIME_UNKNOWN: the
 * latest mapping), so that code mapped over other code reads right. */
void hwt_bts_walk_set_time(struct hwt_bts_walk *walk, uint64_t time);

/* Walks [start, stop] (with the instruction at @stop when @inclusive,
 * else up to it) of process @pid into @blk. */
void hwt_bts_walk_range(struct hwt_bts_walk *walk, int32_t pid,
			uint64_t start, uint64_t stop, bool inclusive,
			struct hwt_bts_block *blk);

/* Decodes the instruction at @addr. Returns 0, HWT_ERR_NOENT (not in the
 * image; *detail names the missing file when known) or HWT_ERR_DECODE. */
int hwt_bts_walk_insn(struct hwt_bts_walk *walk, int32_t pid, uint64_t addr,
		      struct hwt_insn *insn, const char **detail);

/* The instruction decoder, for `--disasm`. */
struct hwt_insn_decoder *hwt_bts_walk_decoder(struct hwt_bts_walk *walk);

#endif
