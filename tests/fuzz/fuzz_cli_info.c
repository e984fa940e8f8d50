/* libFuzzer target for `hwtrace info` on arbitrary files. */
#define _GNU_SOURCE
#include "../../tools/cmd_info.c"
#include "fuzz_cli_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	run_on(cmd_info, "info", NULL, data, size);
	return 0;
}
