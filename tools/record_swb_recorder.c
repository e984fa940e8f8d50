/* hwtrace record -e sw_branch's flight recorder on the command line:
 * --snapshot=SIZE, and the line it prints as each window is written. The
 * closing lines are the library's (hwt_record_print_program_stats), and
 * so is what the options mean together, the profile's [snapshot] keys
 * among them (hwt_record_program_resolve). */
#include <stdio.h>
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

/* A flight recorder window is complete on disk. Runs in the tracer. */
void swb_show_window(void *arg, const char *path, int tid)
{
	char safe[512];

	(void)arg;
	fprintf(stderr, "hwtrace record: sw_branch: trigger fired in thread %d: "
		"wrote %s\n", tid, cli_safe(path, safe, sizeof(safe)));
}

