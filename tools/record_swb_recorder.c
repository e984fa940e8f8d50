/* hwtrace record -e sw_branch's flight recorder on the command line:
 * --snapshot=SIZE. The window lines and the closing lines are the
 * library's (hwtrace/record_console.h), and so is what the options mean
 * together, the profile's [snapshot] keys among them
 * (hwt_record_program_resolve). */
#include <string.h>

#include "cli.h"
#include "hwtrace/bts_format.h"
#include "hwtrace/error.h"
#include "record_swb_recorder.h"

/* --snapshot=SIZE: a number of records into *records, or bytes with a
 * K, M or G suffix into *bytes (the recorder keeps their whole records). */
int swb_snapshot_size(const char *text, uint64_t *records, uint64_t *bytes)
{
	size_t len = strlen(text);
	/* The last --snapshot=SIZE given counts, in either unit. */
	*records = *bytes = 0;
	if (len && text[len - 1] >= '0' && text[len - 1] <= '9')
		return cli_number_u64(&(struct cli_number){"record", "--snapshot",
				1, 1u << 30, "a number of records, 1 to "
				"1073741824, or bytes with K, M or G"}, text,
				records);
	return cli_number_size(&(struct cli_number){"record", "--snapshot",
			HWT_BTS_RECORD_SIZE, (uint64_t)HWT_BTS_RECORD_SIZE << 30,
			"24 bytes (one record) to 24G, or a number of records"},
			text, bytes);
}
