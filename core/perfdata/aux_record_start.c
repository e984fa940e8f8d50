/* PERF_RECORD_AUX offsets as the kernel writes them. perf_aux_output_end()
 * reports rb->aux_head (the start of the data) in normal mode; in
 * overwrite mode it reports handle->head, which the driver sets:
 *  - CoreSight ETR (tmc_update_etr_buffer, snapshot mode: handle->head +=
 *    size) moves the free-running head past the write before
 *    perf_aux_output_end(handle, size): the offset is the END of the
 *    size bytes, and perf's cs_etm__queue_aux_fragment subtracts
 *    aux_size from aux_offset when PERF_AUX_FLAG_OVERWRITE is set.
 *  - intel_pt (pt_update_head: data_size = the write position inside the
 *    buffer; pt_event_stop: handle->head = that, size = the whole buffer)
 *    and intel_bts (bts_update and bts_event_stop, the same) report the
 *    in-buffer position after the write with the buffer's size, so
 *    offset - size is no start at all; perf's intel-pt.c and intel-bts.c
 *    read only a record's TRUNCATED flag and place snapshots by the
 *    AUXTRACE records. Their offsets are left as written. */
#include "core/perfdata/aux_record_start.h"

#include "hwtrace/backend.h"

int hwt_aux_record_start(uint64_t offset, uint64_t size, uint64_t flags,
			 bool end_reported, uint64_t *start)
{
	if (!(flags & HWT_AUX_FLAG_OVERWRITE) || !end_reported) {
		*start = offset;
		return 0;
	}
	if (size > offset)
		return -1; /* would wrap: a crafted or corrupt record */
	*start = offset - size;
	return 0;
}
