/* The text printer of the listings (include/hwtrace/listing.h): a packet
 * record is its backend's line; a branch count is "FROM->TO COUNT", with
 * the two names when the profile has them. */
#include <inttypes.h>
#include <stdio.h>

#include "hwtrace/error.h"
#include "hwtrace/listing.h"

static int written(FILE *out, const char *what)
{
	if (ferror(out))
		return hwt_error(HWT_ERR_IO, "writing the %s failed", what);
	return 0;
}

int hwt_packet_print_text(void *file, const struct hwt_packet_rec *rec)
{
	FILE *out = file;

	if (rec->type == HWT_PACKET_REC_AUX_BUFFER)
		fprintf(out, "# AUXTRACE idx %" PRIu32 " cpu %" PRId32
			" tid %" PRId32 " offset 0x%" PRIx64 " size 0x%" PRIx64
			"\n", rec->aux_idx, rec->aux_cpu, rec->aux_tid,
			rec->offset, rec->aux_size);
	else
		fprintf(out, "%s\n", rec->text);
	return written(out, "packet listing");
}

int hwt_branch_count_print_text(void *file,
				const struct hwt_branch_count_rec *rec)
{
	FILE *out = file;

	fprintf(out, "%s->%s %" PRIu64, rec->from, rec->to, rec->count);
	if (rec->named)
		fprintf(out, " %s %s", rec->from_sym ? rec->from_sym : "?",
			rec->to_sym ? rec->to_sym : "?");
	fputc('\n', out);
	return written(out, "branch profile");
}
