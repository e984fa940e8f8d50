/* The peer of the Intel PT benchmarks: a bare libipt block-decoder loop
 * (pt_blk_next and pt_blk_event until the end of the trace, counting
 * instructions) over code read from the file @bin, @code_size bytes
 * loaded at @org. With @end_on_branch, blocks end at every call and jump,
 * so that each block is one address range. With @sink, each block is
 * also handed on as an element or two, as any decoder with a sink called
 * per element must: a range, and a branch when the block ends at one (the
 * cost of the interface, not of finding either). Header only. */
#ifndef HWT_BENCH_LIBIPT_LOOP_H
#define HWT_BENCH_LIBIPT_LOOP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <intel-pt.h>

#include "hwtrace/element.h"

/* Decodes @trace; returns the number of instructions. */
static inline uint64_t libipt_block_loop(uint8_t *trace, size_t size,
					 const char *bin, size_t code_size,
					 uint64_t org, bool end_on_branch,
					 const struct hwt_elem_sink *sink)
{
	struct hwt_elem range = {.type = HWT_ELEM_RANGE};
	struct hwt_elem branch = {.type = HWT_ELEM_BRANCH};
	struct pt_config c;
	pt_config_init(&c);
	c.begin = trace;
	c.end = trace + size;
	c.flags.variant.block.end_on_call = end_on_branch;
	c.flags.variant.block.end_on_jump = end_on_branch;
	struct pt_block_decoder *d = pt_blk_alloc_decoder(&c);
	struct pt_image_section_cache *isc = pt_iscache_alloc(NULL);
	int isid = pt_iscache_add_file(isc, bin, 0, code_size, org);
	pt_image_add_cached(pt_blk_get_image(d), isc, isid, NULL);
	uint64_t n = 0;
	for (;;) {
		int s = pt_blk_sync_forward(d);
		if (s < 0)
			break;
		for (;;) {
			while (s >= 0 && (s & pts_event_pending)) {
				struct pt_event ev;
				s = pt_blk_event(d, &ev, sizeof(ev));
			}
			if (s < 0 || (s & pts_eos))
				break;
			struct pt_block b;
			s = pt_blk_next(d, &b, sizeof(b));
			n += b.ninsn;
			if (sink && b.ninsn) {
				range.u.range.start = b.ip;
				range.u.range.end = b.end_ip;
				range.u.range.insns = b.ninsn;
				sink->emit(sink->arg, &range);
				if (b.iclass != ptic_other) {
					branch.u.branch.from = b.end_ip;
					sink->emit(sink->arg, &branch);
				}
			}
			if (s < 0)
				break;
		}
		if (s == -pte_eos || (s >= 0 && (s & pts_eos)))
			break;
	}
	pt_blk_free_decoder(d);
	pt_iscache_free(isc);
	return n;
}

#endif
