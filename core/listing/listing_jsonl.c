/* The jsonl printer of the listings (docs/jsonl.md, "Packets" and
 * "Branch profile"): one object a record, the fields that are not known
 * left out, as everywhere in jsonl. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "hwtrace/error.h"
#include "hwtrace/listing.h"
#include "hwtrace/text.h"

static void put_string(FILE *out, const char *key, const char *s)
{
	fprintf(out, ",\"%s\":", key);
	hwt_json_fwrite(out, s, strlen(s));
}

static int written(FILE *out, const char *what)
{
	if (ferror(out))
		return hwt_error(HWT_ERR_IO, "writing the %s failed", what);
	return 0;
}

int hwt_packet_print_jsonl(void *file, const struct hwt_packet_rec *rec)
{
	FILE *out = file;

	if (rec->type == HWT_PACKET_REC_AUX_BUFFER) {
		fprintf(out, "{\"type\":\"aux_buffer\",\"idx\":%" PRIu32,
			rec->aux_idx);
		if (rec->aux_cpu >= 0)
			fprintf(out, ",\"cpu\":%" PRId32, rec->aux_cpu);
		if (rec->aux_tid >= 0)
			fprintf(out, ",\"tid\":%" PRId32, rec->aux_tid);
		fprintf(out, ",\"offset\":%" PRIu64 ",\"size\":%" PRIu64 "}\n",
			rec->offset, rec->aux_size);
		return written(out, "packet listing");
	}
	/* A note is a line of the listing like a packet's (schema version 2
	 * has no type of its own for it). */
	fputs("{\"type\":\"packet\"", out);
	if (rec->has_offset)
		fprintf(out, ",\"offset\":%" PRIu64, rec->offset);
	put_string(out, "text", rec->text);
	fputs("}\n", out);
	return written(out, "packet listing");
}

/* A symbolizer names an address in no function "[unknown]": in jsonl an
 * unknown name is left out. */
static bool known_name(const char *s)
{
	return s && strcmp(s, "[unknown]");
}

int hwt_branch_count_print_jsonl(void *file,
				 const struct hwt_branch_count_rec *rec)
{
	FILE *out = file;

	fputs("{\"type\":\"branch_count\"", out);
	put_string(out, "from", rec->from);
	put_string(out, "to", rec->to);
	fprintf(out, ",\"count\":%" PRIu64, rec->count);
	if (rec->named && known_name(rec->from_sym))
		put_string(out, "from_sym", rec->from_sym);
	if (rec->named && known_name(rec->to_sym))
		put_string(out, "to_sym", rec->to_sym);
	fputs("}\n", out);
	return written(out, "branch profile");
}
