/* bts_capture DIR MIB [swb]: writes DIR/bts-code.bin and DIR/bts.data, a
 * capture of two threads' Intel BTS records (or sw_branch records, with
 * the tracer's time on each, given "swb"), about MIB MiB a thread in four
 * pieces each: tests/unit/bts_capture.h's records, every kind it writes.
 * Intel BTS records carry no time: merged, such a capture goes out in
 * stream order. Prints the branch records written. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit/bts_capture.h"

int main(int argc, char **argv)
{
	unsigned long mib = argc >= 3 ? strtoul(argv[2], NULL, 0) : 0;
	bool swb = argc == 4 && !strcmp(argv[3], "swb");
	if (!mib || mib > 1024 || argc > 4 || (argc == 4 && !swb)) {
		fprintf(stderr, "usage: bts_capture DIR MIB [swb]\n");
		return 2;
	}
	char bin[4096], data[4096];
	snprintf(bin, sizeof(bin), "%s/bts-code.bin", argv[1]);
	snprintf(data, sizeof(data), "%s/bts.data", argv[1]);
	struct bts_written w[BTS_NTHREADS];
	struct bts_capture c = bts_capture_sized(bin, swb, mib);
	if (bts_capture_write_code(bin) < 0 || bts_capture_write(data, &c, w) < 0) {
		fprintf(stderr, "bts_capture: %s: %s\n", data, hwt_errmsg());
		return 1;
	}
	printf("%u\n", w[0].branches + w[1].branches);
	return 0;
}
