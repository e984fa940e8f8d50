/* hwt_filter_list_check: the --comm, --dso and --sym lists the commands
 * take, names separated by commas: lists of one and of several names
 * pass (the positive control); an empty list, an empty name at either
 * end or between two commas, and no list at all are refused with
 * HWT_ERR_CONFIG and a message naming the option and the list. */
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "hwtrace/error.h"
#include "hwtrace/filter.h"

static void passes(const char *list)
{
	CHECK_INT(hwt_filter_list_check("--sym", list), 0);
}

static void refused(const char *option, const char *list, const char *shown)
{
	CHECK_INT(hwt_filter_list_check(option, list), HWT_ERR_CONFIG);
	char want[200];
	snprintf(want, sizeof(want), "%s '%s': expected NAME[,NAME...] "
		 "without empty names", option, shown);
	CHECK_STR(hwt_errmsg(), want);
}

/* --dso and --sym with --no-symbols; --comm alone needs no symbols and
 * is not an argument; symbols on, any list passes. */
static void symbols_needed(void)
{
	const char *msg = "--dso and --sym need symbols: not with --no-symbols";
	CHECK_INT(hwt_filter_symbols_check(true, "libc.so.6", NULL),
		  HWT_ERR_CONFIG);
	CHECK_STR(hwt_errmsg(), msg);
	CHECK_INT(hwt_filter_symbols_check(true, NULL, "main"), HWT_ERR_CONFIG);
	CHECK_STR(hwt_errmsg(), msg);
	CHECK_INT(hwt_filter_symbols_check(true, "", ""), HWT_ERR_CONFIG);
	CHECK_INT(hwt_filter_symbols_check(true, NULL, NULL), 0);
	CHECK_INT(hwt_filter_symbols_check(false, "libc.so.6", "main"), 0);
}

int main(void)
{
	passes("main");
	passes("main,do_lookup_x,strcmp");
	passes("a b,c");    /* a space is part of a name */
	refused("--comm", "", "");
	refused("--dso", ",libc.so.6", ",libc.so.6");
	refused("--dso", "libc.so.6,", "libc.so.6,");
	refused("--sym", "main,,cos", "main,,cos");
	refused("--sym", ",", ",");
	refused("--comm", NULL, "");
	symbols_needed();
	return hwt_test_summary();
}
