/* libFuzzer target for `hwtrace dump` (with --hex) on arbitrary files. */
#define _GNU_SOURCE
#include "../../tools/cmd_dump.c"
#include "fuzz_cli_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	run_on(cmd_dump, "dump", size && data[0] & 1 ? "--hex" : NULL, data,
	       size);
	return 0;
}
