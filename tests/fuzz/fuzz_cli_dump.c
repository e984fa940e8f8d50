/* libFuzzer target for `hwtrace dump` (plain, --hex, --raw) on arbitrary
 * files. */
#define _GNU_SOURCE
#include "../../tools/cmd_dump.c"
#include "fuzz_cli_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const opts[] = {NULL, "--hex", "--raw"};

	run_on(cmd_dump, "dump", opts[size ? data[0] % 3 : 0], data, size);
	return 0;
}
