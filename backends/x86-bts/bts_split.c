/* The intel_bts split op's walk (sw_branch captures too): where a chunk
 * of records may be cut for parallel decode.
 *
 * The decoder carries little from one record to the next: where the last
 * branch went (the next range starts there) and, in a sw_branch capture,
 * the tracer's time. A branch record sets both, so a segment that starts
 * just after one reads it back (the chunk's lookbehind) and goes on as a
 * decoder running through would. Records do not cross a cut: each
 * segment holds whole records, and the padding where the kernel's buffer
 * wrapped is skipped by the same rule, as it depends only on the bytes
 * and the stream offset. Segments are about bts_split_bytes long: a BTS
 * record is a branch, and a range found by walking the code before it,
 * so a segment of 64 KiB (2,730 records) is worth a thread. */
#include "backends/x86-bts/bts_layout.h"
#include "backends/x86-bts/bts_split.h"

size_t bts_split_bytes = 64 * 1024;

size_t bts_split_records(const struct hwt_aux_chunk *c, bool swb_time,
			 uint64_t *starts, size_t max)
{
	uint64_t step = bts_split_bytes ? bts_split_bytes : 1;
	if (max > 1 && c->size / max > step)
		step = c->size / max + 1;
	size_t n = 0, pos = 0, size = (size_t)c->size;
	starts[n++] = 0;
	for (;;) {
		size_t pad = hwt_bts_wrap_pad(c->offset + pos, c->data + pos,
					      size - pos);
		if (pad) {
			pos += pad;
			continue;
		}
		if (size - pos < HWT_BTS_RECORD_SIZE)
			break;
		pos += HWT_BTS_RECORD_SIZE;
		/* Only records where a cut is due are read: this walk runs on
		 * the calling thread, ahead of the decoding ones. */
		if (n < max && pos >= starts[n - 1] + step && pos < size) {
			struct hwt_bts_record rec;
			hwt_bts_record_read(c->data + pos - HWT_BTS_RECORD_SIZE,
					    &rec);
			if (bts_cut_after(&rec, swb_time))
				starts[n++] = pos;
		}
	}
	return n;
}
