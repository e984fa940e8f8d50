/* hwt_record_ring_pages_parse, record's -m DATA_PAGES[,AUX_PAGES]: the
 * sizes taken (both, data alone, AUX alone, the largest ring, C's bases)
 * and every refusal with the words `hwtrace record` prints: a shape that
 * is not one or two parts, a part that is not a number, too large, zero,
 * not a power of two, longer than any number. */
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "hwtrace/error.h"
#include "hwtrace/record_options.h"

static void taken(const char *arg, uint32_t want_data, uint32_t want_aux)
{
	uint32_t data = 7, aux = 7;
	CHECK_INT(hwt_record_ring_pages_parse("-m", arg, &data, &aux), 0);
	CHECK_INT(data, want_data);
	CHECK_INT(aux, want_aux);
}

static void refused(const char *option, const char *arg, const char *msg)
{
	uint32_t data, aux;
	hwt_error_clear();
	CHECK_INT(hwt_record_ring_pages_parse(option, arg, &data, &aux),
		  HWT_ERR_CONFIG);
	CHECK_STR(hwt_errmsg(), msg);
}

static void sizes_taken(void)
{
	taken("16,64", 16, 64);
	taken("1", 1, 0);
	taken(",128", 0, 128);
	taken("1048576,1048576", 1048576, 1048576);
	taken("0x10,010", 16, 8);
}

static void sizes_refused(void)
{
	refused("-m", "", "-m : expected DATA_PAGES[,AUX_PAGES]");
	refused("-m", "8,", "-m 8,: expected DATA_PAGES[,AUX_PAGES]");
	refused("--mmap-pages", "1,2,4", "--mmap-pages 1,2,4: expected "
		"DATA_PAGES[,AUX_PAGES]");
	refused("-m", "x,4", "-m x,4: data pages x: not a number (valid: a "
		"power of two, 1 to 1048576)");
	refused("-m", "4,-8", "-m 4,-8: AUX pages -8: not a number (valid: a "
		"power of two, 1 to 1048576)");
	refused("-m", "2097152", "-m 2097152: data pages 2097152: too large "
		"(valid: a power of two, 1 to 1048576)");
	refused("-m", "99999999999999999999", "-m 99999999999999999999: data "
		"pages 99999999999999999999: too large (valid: a power of two, "
		"1 to 1048576)");
	refused("-m", "0", "-m 0: data pages 0: zero pages (valid: a power of "
		"two, 1 to 1048576)");
	refused("-m", "8,3", "-m 8,3: AUX pages 3: not a power of two (valid: "
		"a power of two, 1 to 1048576)");
	char big[64];
	memset(big, '1', 40);
	big[40] = 0;
	char msg[160];
	snprintf(msg, sizeof(msg), "-m %s: data pages: not a number (valid: a "
		 "power of two, 1 to 1048576)", big);
	refused("-m", big, msg);
}

int main(void)
{
	RUN(sizes_taken);
	RUN(sizes_refused);
	return hwt_test_summary();
}
