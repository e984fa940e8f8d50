/* perf.data reader, pipe mode: attributes, build ids and features that
 * arrive as records in the stream. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "core/perfdata/perfdata_reader_internal.h"
#include "hwtrace/error.h"

int pd_reader_pipe_record(struct hwt_pd_reader *r, const uint8_t *rec,
			  uint32_t type, uint16_t size)
{
	if (type == HWT_PD_RECORD_HEADER_ATTR) {
		uint32_t asz = size >= 8 + 8 ? pd_u32(rec + 8 + 4) : 0;

		if (asz == 0)
			asz = PERF_ATTR_SIZE_VER0;
		if (size < 8 + 8 || asz > (uint32_t)size - 8 || (size - 8 - asz) % 8)
			return hwt_error(HWT_ERR_FORMAT, "%s: ATTR record at "
					 "byte offset %" PRIu64 " has attr.size "
					 "%u, which does not fit its %u bytes",
					 r->path, r->pos, asz, size);
		/* Whatever failed said why; the stream reports it as lack
		 * of memory, the usual cause. */
		if (pd_reader_add_attr(r, rec + 8, asz, rec + 8 + asz,
				       (size - 8 - asz) / 8) ||
		    pd_reader_index_ids(r))
			return HWT_ERR_NOMEM;
	} else if (type == HWT_PD_RECORD_HEADER_BUILD_ID) {
		/* Collected into the build id feature, whose entries have the
		 * same layout. */
		struct feature *f = &r->features[HWT_PD_FEAT_BUILD_ID];
		uint8_t *data = realloc(f->data, (size_t)f->size + size + 1);

		if (!data)
			return hwt_error(HWT_ERR_NOMEM, "%s: out of memory",
					 r->path);
		memcpy(data + f->size, rec, size);
		data[f->size + size] = 0;
		f->data = data;
		f->size += size;
		r->hdr.features[0] |= 1ULL << HWT_PD_FEAT_BUILD_ID;
	} else if (type == HWT_PD_RECORD_HEADER_FEATURE && size >= 16) {
		uint64_t bit = pd_u64(rec + 8);
		struct feature *f;

		if (bit >= PD_MAX_FEATURES)
			return 0;
		f = &r->features[bit];
		free(f->data);
		f->data = calloc(1, (size_t)size - 16 + 1);
		if (!f->data)
			return hwt_error(HWT_ERR_NOMEM, "%s: out of memory",
					 r->path);
		memcpy(f->data, rec + 16, (size_t)size - 16);
		f->size = size - 16;
		f->offset = 0;
		r->hdr.features[bit / 64] |= 1ULL << (bit % 64);
		if (bit == HWT_PD_FEAT_EVENT_DESC)
			pd_reader_name_attrs(r);
	}
	return 0;
}
