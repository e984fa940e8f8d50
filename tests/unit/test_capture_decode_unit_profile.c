/* hwt_capture_decode_unit with a branch profile asked for in the decode
 * options (branch_count_sink): each unit of the Intel PT capture of the
 * test data hands the profile of its own elements, its addresses rendered
 * against the unit's image (held by the call until the profile is written,
 * after the cursor is freed).
 *
 * Oracle: `hwtrace decode --branch-profile --partial --unit N` on the
 * capture, run before the one unit call took the profile over from a call
 * of its own, printed one branch in each of units 1, 2, 8 and 9 and none
 * in units 3 to 7:
 *
 *   1: branch /lib64/libselinux.so.1+0x1d300 0xffffffffba001340 ... ~ 1
 *      0x7fb36d296300 0xffffffffba001340
 *   2: branch /lib64/ld-2.23.so+0xd60 ... ~ 1 0x7fb36d08bd60 ...
 *   8: branch /usr/bin/coreutils+0xcb580 ... ~ 1 0x5cba63221580 ...
 *   9: branch /usr/bin/coreutils+0x99570 ... ~ 1 0x5cba631ef570 ...
 *
 * Independent check: the units' profiles summed are the profile the
 * whole-file decode (hwt_decode_file) hands for the same options.
 * Positive control: the same call without a profile asked hands none and
 * the same elements. Also: the decode's warnings go to the options' warn
 * (the CoreSight capture's "without context-switch records"), not into
 * the elements as errors, and the argument and unit errors. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "hwtrace/capture.h"
#include "hwtrace/decode.h"
#include "hwtrace/error.h"
#include "hwtrace/listing.h"

#define PT HWT_TESTDATA "/perf-data/quipper/perf.data.intel_pt-4.14"
#define ETM HWT_TESTDATA "/perf-data/simpleperf-etm/perf_etm.data"
#define UNITS 9
#define MAXREC 32

struct rec {
	char from[128], to[128];
	uint64_t from_addr, to_addr, count;
};

struct profile {
	struct rec r[MAXREC];
	size_t n;
	uint64_t elems, errors;
	unsigned warnings;
	char warning[512];
};

static int take_branch(void *arg, const struct hwt_branch_count_rec *rec)
{
	struct profile *p = arg;
	if (p->n == MAXREC)
		return HWT_ERR_NOSPC;
	struct rec *r = &p->r[p->n++];
	snprintf(r->from, sizeof(r->from), "%s", rec->from ? rec->from : "");
	snprintf(r->to, sizeof(r->to), "%s", rec->to ? rec->to : "");
	r->from_addr = rec->from_addr;
	r->to_addr = rec->to_addr;
	r->count = rec->count;
	return 0;
}

static int count_elem(void *arg, const struct hwt_elem *e)
{
	struct profile *p = arg;
	p->elems++;
	p->errors += e->type == HWT_ELEM_ERROR;
	return 0;
}

static void take_warning(void *arg, const char *message)
{
	struct profile *p = arg;
	p->warnings++;
	snprintf(p->warning, sizeof(p->warning), "%s", message);
}

static void opts_for(struct hwt_decode_opts *o, struct profile *p,
		     bool profile, bool warn)
{
	memset(o, 0, sizeof(*o));
	o->size = sizeof(*o);
	if (profile)
		o->branch_count_sink = (struct hwt_branch_count_sink){
			take_branch, p};
	if (warn) {
		o->warn = take_warning;
		o->warn_arg = p;
	}
}

static int unit_profile(const char *file, size_t unit, struct profile *p,
			bool profile, bool warn)
{
	memset(p, 0, sizeof(*p));
	struct hwt_decode_opts o;
	opts_for(&o, p, profile, warn);
	struct hwt_elem_sink sink = {count_elem, p};
	return hwt_capture_decode_unit(file, unit, &o, &sink);
}

static int by_from(const void *a, const void *b)
{
	return strcmp(((const struct rec *)a)->from,
		      ((const struct rec *)b)->from);
}

/* The pre-change CLI's per-unit lines (see the top). */
static const struct {
	size_t unit;
	const char *from;
	uint64_t from_addr;
} want[] = {
	{1, "/lib64/libselinux.so.1+0x1d300", 0x7fb36d296300},
	{2, "/lib64/ld-2.23.so+0xd60", 0x7fb36d08bd60},
	{8, "/usr/bin/coreutils+0xcb580", 0x5cba63221580},
	{9, "/usr/bin/coreutils+0x99570", 0x5cba631ef570},
};

static void test_units_as_the_cli_printed(void)
{
	static struct profile p;
	for (size_t u = 1; u <= UNITS; u++) {
		CHECK_INT(unit_profile(PT, u, &p, true, false), 0);
		size_t k = 0;
		while (k < sizeof(want) / sizeof(want[0]) && want[k].unit != u)
			k++;
		if (k == sizeof(want) / sizeof(want[0])) {
			CHECK_INT(p.n, 0);
			continue;
		}
		CHECK_INT(p.n, 1);
		CHECK_STR(p.r[0].from, want[k].from);
		CHECK_STR(p.r[0].to, "0xffffffffba001340");
		CHECK_U64(p.r[0].from_addr, want[k].from_addr);
		CHECK_U64(p.r[0].to_addr, 0xffffffffba001340);
		CHECK_U64(p.r[0].count, 1);
	}
}

static void test_units_sum_to_the_whole(void)
{
	static struct profile whole, part, sum;
	struct hwt_decode_opts o;
	opts_for(&o, &whole, true, false);
	struct hwt_elem_sink sink = {count_elem, &whole};
	CHECK_INT(hwt_decode_file(PT, &o, &sink), 0);
	CHECK_INT(whole.n, 4);
	memset(&sum, 0, sizeof(sum));
	for (size_t u = 1; u <= UNITS; u++) {
		CHECK_INT(unit_profile(PT, u, &part, true, false), 0);
		for (size_t i = 0; i < part.n; i++) {
			size_t j = 0;
			while (j < sum.n && (strcmp(sum.r[j].from, part.r[i].from) ||
					     strcmp(sum.r[j].to, part.r[i].to)))
				j++;
			if (j == sum.n && sum.n < MAXREC)
				sum.r[sum.n++] = part.r[i];
			else if (j < sum.n)
				sum.r[j].count += part.r[i].count;
		}
	}
	CHECK_INT(sum.n, whole.n);
	qsort(sum.r, sum.n, sizeof(sum.r[0]), by_from);
	qsort(whole.r, whole.n, sizeof(whole.r[0]), by_from);
	for (size_t i = 0; i < whole.n && i < sum.n; i++) {
		CHECK_STR(sum.r[i].from, whole.r[i].from);
		CHECK_STR(sum.r[i].to, whole.r[i].to);
		CHECK_U64(sum.r[i].from_addr, whole.r[i].from_addr);
		CHECK_U64(sum.r[i].count, whole.r[i].count);
	}
}

/* Positive control: no profile asked, none handed; the same elements. */
static void test_no_profile_asked(void)
{
	static struct profile with, without;
	CHECK_INT(unit_profile(PT, 2, &with, true, false), 0);
	CHECK_INT(unit_profile(PT, 2, &without, false, false), 0);
	CHECK_INT(with.n, 1);
	CHECK_INT(without.n, 0);
	CHECK(without.elems > 0);
	CHECK_U64(without.elems, with.elems);
}

/* The CoreSight capture's one unit: its warning to warn as the
 * whole-file decode gives it, no error element; without warn, the
 * warning is the one error element. */
static void test_warning_to_warn(void)
{
	static struct profile whole, unit, unwarned;
	struct hwt_decode_opts o;
	opts_for(&o, &whole, true, true);
	struct hwt_elem_sink sink = {count_elem, &whole};
	CHECK_INT(hwt_decode_file(ETM, &o, &sink), 0);
	CHECK_INT(unit_profile(ETM, 1, &unit, true, true), 0);
	CHECK_INT(whole.warnings, 1);
	CHECK_INT(unit.warnings, 1);
	CHECK_CONTAINS(unit.warning, "per-CPU trace without context-switch "
			"records");
	CHECK_STR(unit.warning, whole.warning);
	CHECK_U64(unit.errors, 0);
	CHECK_U64(whole.errors, 0);
	CHECK_U64(unit.elems, whole.elems);
	CHECK_INT(unit.n, whole.n);
	CHECK_INT(unit_profile(ETM, 1, &unwarned, true, false), 0);
	CHECK_U64(unwarned.errors, 1);
	CHECK_U64(unwarned.elems, whole.elems + 1);
}

static void test_errors(void)
{
	static struct profile p;
	struct hwt_decode_opts o;
	opts_for(&o, &p, true, false);
	struct hwt_elem_sink sink = {count_elem, &p};
	CHECK_INT(hwt_capture_decode_unit(NULL, 1, &o, &sink), HWT_ERR_INVAL);
	CHECK_STR(hwt_errmsg(), "hwt_capture_decode_unit: missing argument");
	CHECK_INT(hwt_capture_decode_unit(PT, 1, NULL, &sink), HWT_ERR_INVAL);
	CHECK_INT(hwt_capture_decode_unit(PT, 1, &o, NULL), HWT_ERR_INVAL);
	struct hwt_elem_sink no_emit = {NULL, NULL};
	CHECK_INT(hwt_capture_decode_unit(PT, 1, &o, &no_emit), HWT_ERR_INVAL);
	CHECK_INT(hwt_capture_decode_unit(PT, 0, &o, &sink), HWT_ERR_INVAL);
	CHECK_STR(hwt_errmsg(), PT ", unit 0: no such unit: the capture has 9 "
		  "(hwtrace units lists them)");
	CHECK_INT(hwt_capture_decode_unit(PT, UNITS + 1, &o, &sink),
		  HWT_ERR_INVAL);
	CHECK_STR(hwt_errmsg(), PT ", unit 10: no such unit: the capture has 9 "
		  "(hwtrace units lists them)");
	CHECK_INT(p.n, 0);
	CHECK_U64(p.elems, 0);
}

int main(void)
{
	RUN(test_units_as_the_cli_printed);
	RUN(test_units_sum_to_the_whole);
	RUN(test_no_profile_asked);
	RUN(test_warning_to_warn);
	RUN(test_errors);
	return hwt_test_summary();
}
