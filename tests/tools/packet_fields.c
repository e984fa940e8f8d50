/* packet_fields FILE | --snapshot DIR: the packet listing of a perf.data
 * capture or an OpenCSD snapshot directory as the library's records give
 * it (hwt_decode_opts.packet_sink), one line a packet: "AUX_IDX OFFSET
 * KIND NAME=0xVALUE ...", offsets and values in hex (AUX_IDX 0 for a
 * snapshot); for comparing the records' typed fields with another
 * decoder's packet dump (test_pt_packet_fields_match_perf,
 * test_cs_packet_fields_match_opencsd). */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "hwtrace/decode.h"
#include "hwtrace/error.h"
#include "hwtrace/listing.h"

static int print_packet(void *arg, const struct hwt_packet_rec *rec)
{
	uint32_t *idx = arg;

	if (rec->type == HWT_PACKET_REC_AUX_BUFFER) {
		*idx = rec->aux_idx;
		return 0;
	}
	if (rec->type != HWT_PACKET_REC_PACKET)
		return 0;
	printf("%" PRIu32 " %" PRIx64 " %s", *idx, rec->offset, rec->kind);
	for (size_t i = 0; i < rec->nfields; i++)
		printf(" %s=0x%" PRIx64, rec->fields[i].name,
		       rec->fields[i].value);
	putchar('\n');
	return ferror(stdout) ? HWT_ERR_IO : 0;
}

int main(int argc, char **argv)
{
	uint32_t idx = 0;
	struct hwt_decode_opts opts;

	bool snapshot = argc == 3 && !strcmp(argv[1], "--snapshot");
	if (argc != 2 && !snapshot) {
		fprintf(stderr, "usage: packet_fields FILE | --snapshot DIR\n");
		return 2;
	}
	memset(&opts, 0, sizeof(opts));
	opts.size = sizeof(opts);
	opts.packet_sink = (struct hwt_packet_sink){print_packet, &idx};
	int err = snapshot ? hwt_decode_snapshot_dir(argv[2], &opts, NULL)
			   : hwt_decode_file(argv[1], &opts, NULL);
	if (err < 0) {
		fprintf(stderr, "packet_fields: %s\n", hwt_errmsg());
		return 1;
	}
	return 0;
}
