/* A backend's packet lister hands one line to its sink (hwtrace/listing.h):
 * the record every lister fills the same way, built in one place. */
#include "hwtrace/listing.h"

int hwt_packet_emit(const struct hwt_packet_sink *sink, const char *backend,
		    enum hwt_packet_rec_type type, bool has_offset,
		    uint64_t offset, const char *kind,
		    const struct hwt_packet_field *fields, size_t nfields,
		    const char *text)
{
	struct hwt_packet_rec rec = {
		.type = type,
		.backend = backend,
		.has_offset = has_offset,
		.offset = offset,
		.kind = kind,
		.text = text,
		.fields = fields,
		.nfields = nfields,
		.aux_cpu = -1,
		.aux_tid = -1,
	};
	return sink->packet(sink->arg, &rec);
}
