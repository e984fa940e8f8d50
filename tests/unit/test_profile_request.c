/* hwt_profile_request, what `hwtrace config check` asks of the library:
 * the usage errors it refuses (their exact words, first failure first),
 * the profile built from a file, -e strings, --set items and --filter in
 * that order with each key's origin, the filter's section following the
 * backend named by then, and the check against the intel-client sysfs
 * fixture giving what hwt_profile_check gives on the same profile put
 * together by hand (and the config perf record wrote for that PMU). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "hwtrace/config.h"
#include "hwtrace/error.h"
#include "hwtrace/os.h"
#include "hwtrace/perfdata.h"
#include "hwtrace/profile_check.h"
#include "hwtrace/profile_request.h"

#define TREE HWT_SOURCE_DIR "/tests/fixtures/sysfs/intel-client"
#define SNAPSHOT_INI HWT_SOURCE_DIR "/configs/intel_pt_snapshot.ini"
#define QUIPPER HWT_TESTDATA "/perf-data/quipper/perf.data.intel_pt-4.14"

static void refused(const struct hwt_profile_request *rq, const char *want)
{
	hwt_error_clear();
	CHECK_INT(hwt_profile_request_validate(rq), HWT_ERR_INVAL);
	CHECK_STR(hwt_errmsg(), want);
}

static void usage_errors(void)
{
	const char *good_set[] = {"session.aux_size=8M"};
	const char *bad_sets[] = {"session.aux_size=8M", "intel_pt.cyc"};
	struct hwt_profile_request rq = {.size = sizeof(rq)};

	refused(NULL, "no profile request");
	refused(&rq, "check needs a profile FILE, -e EVENT or --set KEY=VALUE");
	rq.sets = good_set;
	rq.nsets = 1;
	CHECK_INT(hwt_profile_request_validate(&rq), 0);
	rq.sysfs = TREE "/no-such-dir";
	refused(&rq, "--sysfs " TREE "/no-such-dir: the directory does not "
		"exist");
	rq.sysfs = SNAPSHOT_INI;
	refused(&rq, "--sysfs " SNAPSHOT_INI ": not a directory");
	rq.sysfs = SNAPSHOT_INI "/below";
	refused(&rq, "--sysfs " SNAPSHOT_INI "/below: the directory does not "
		"exist");
	rq.sysfs = TREE;
	CHECK_INT(hwt_profile_request_validate(&rq), 0);
	/* The sysfs tree is checked before the filter, the filter before
	 * the sets. */
	rq.filter = "";
	rq.sets = bad_sets;
	rq.nsets = 2;
	refused(&rq, "--filter '': an empty filter (give filter|start|stop|"
		"tracestop SYM|ADDR[/SIZE] [@ FILE], or no --filter)");
	rq.filter = "filter main";
	refused(&rq, "--set intel_pt.cyc: expected SECTION.KEY=VALUE");
	/* A filter alone is a request. */
	struct hwt_profile_request only_filter = {.size = sizeof(rq),
						  .filter = "filter main"};
	CHECK_INT(hwt_profile_request_validate(&only_filter), 0);
	struct hwt_profile_request small = {.size = sizeof(rq) - 1,
					    .filter = "filter main"};
	refused(&small, "no profile request");
}

static void origin_is(const struct hwt_profile *p, const char *key,
		      const char *value, const char *origin)
{
	CHECK_STR(hwt_profile_get(p, key), value);
	CHECK_STR(hwt_profile_origin(p, key), origin);
}

/* The file, then the event (over the file), then the sets (over the
 * event), then the filter. */
static void built_in_order(void)
{
	const char *events[] = {"intel_pt/cyc,mtc_period=2,psb_period=5/u"};
	const char *sets[] = {"intel_pt.psb_period=1", "session:aux_size=8M"};
	struct hwt_profile_request rq = {
		.size = sizeof(rq), .file = SNAPSHOT_INI, .events = events,
		.nevents = 1, .sets = sets, .nsets = 2,
		.filter = "filter main @ /bin/true",
	};
	struct hwt_profile *p = (struct hwt_profile *)1;

	CHECK_INT(hwt_profile_request_build(&rq, &p), 0);
	if (!p)
		return;
	origin_is(p, "session:data_size", "512K", SNAPSHOT_INI);
	origin_is(p, "session:backend", "intel_pt", "-e");
	origin_is(p, "intel_pt:cyc", "1", "-e");
	origin_is(p, "intel_pt:mtc_period", "2", "-e");
	origin_is(p, "intel_pt:psb_period", "1", "--set");
	origin_is(p, "session:aux_size", "8M", "--set");
	origin_is(p, "intel_pt:filter", "filter main @ /bin/true", "--filter");
	hwt_profile_free(p);
}

/* The filter's section is the backend's as the events and sets leave
 * it; intel_pt when none names one. */
static void filter_follows_backend(void)
{
	const char *bts[] = {"intel_bts//"};
	const char *to_pt[] = {"session.backend=intel_pt"};
	struct hwt_profile_request rq = {.size = sizeof(rq),
					 .filter = "filter 0x1000/0x10"};
	struct hwt_profile *p = NULL;

	CHECK_INT(hwt_profile_request_build(&rq, &p), 0);
	if (p) {
		CHECK(hwt_profile_get(p, "session:backend") == NULL);
		origin_is(p, "intel_pt:filter", "filter 0x1000/0x10", "--filter");
	}
	hwt_profile_free(p);
	rq.events = bts;
	rq.nevents = 1;
	CHECK_INT(hwt_profile_request_build(&rq, &p), 0);
	if (p) {
		origin_is(p, "intel_bts:filter", "filter 0x1000/0x10", "--filter");
		CHECK(hwt_profile_get(p, "intel_pt:filter") == NULL);
	}
	hwt_profile_free(p);
	rq.sets = to_pt;
	rq.nsets = 1;
	CHECK_INT(hwt_profile_request_build(&rq, &p), 0);
	if (p) {
		origin_is(p, "intel_pt:filter", "filter 0x1000/0x10", "--filter");
		CHECK(hwt_profile_get(p, "intel_bts:filter") == NULL);
	}
	hwt_profile_free(p);
}

/* Each piece's own error, and nothing to free. */
static void build_errors(void)
{
	const char *bad_event[] = {"intel_pt/cyc"};
	struct hwt_profile_request rq = {.size = sizeof(rq),
					 .file = TREE "/no-such.ini"};
	struct hwt_profile *p = (struct hwt_profile *)1;
	struct hwt_profile *direct = NULL;

	CHECK_INT(hwt_profile_request_build(&rq, &p), HWT_ERR_NOENT);
	CHECK(p == NULL);
	/* The same words as loading the file by hand. */
	char want[1024];
	snprintf(want, sizeof(want), "%s", hwt_errmsg());
	CHECK_INT(hwt_profile_load(TREE "/no-such.ini", &direct), HWT_ERR_NOENT);
	CHECK_STR(hwt_errmsg(), want);
	CHECK_CONTAINS(want, TREE "/no-such.ini");
	hwt_profile_free(direct);

	rq.file = NULL;
	rq.events = bad_event;
	rq.nevents = 1;
	p = (struct hwt_profile *)1;
	int err = hwt_profile_request_build(&rq, &p);
	CHECK_INT(err, HWT_ERR_CONFIG);
	CHECK(p == NULL);
	snprintf(want, sizeof(want), "%s", hwt_errmsg());
	direct = hwt_profile_new();
	CHECK(direct != NULL);
	if (direct) {
		CHECK_INT(hwt_profile_parse_event(direct, "intel_pt/cyc"),
			  HWT_ERR_CONFIG);
		CHECK_STR(hwt_errmsg(), want);
	}
	hwt_profile_free(direct);
	CHECK_INT(hwt_profile_request_build(NULL, &p), HWT_ERR_INVAL);
	CHECK(p == NULL);
}

/* The config perf record gave intel_pt// in quipper's capture. */
static unsigned long long perf_pt_config(void)
{
	struct hwt_pd_reader *r = NULL;
	unsigned long long config = 0;

	CHECK_INT(hwt_pd_reader_open(QUIPPER, &r), 0);
	for (size_t i = 0; r && i < hwt_pd_reader_nr_attrs(r); i++)
		if (hwt_pd_reader_attr(r, i)->attr.type == 6)
			config = hwt_pd_reader_attr(r, i)->attr.config;
	hwt_pd_reader_free(r);
	return config;
}

static char *printed(const struct hwt_profile_check *c)
{
	char *text = NULL;
	size_t size = 0;
	FILE *out = open_memstream(&text, &size);

	CHECK(out != NULL);
	if (out) {
		CHECK_INT(hwt_profile_check_print(out, c, "FILE", "TREE"), 0);
		fclose(out);
	}
	return text;
}

/* The same profile by hand: loaded, one --set, checked on the tree. */
static struct hwt_profile_check *by_hand(const char *key, const char *value)
{
	struct hwt_profile *p = NULL;
	struct hwt_os *os = hwt_os_linux_new(TREE);
	struct hwt_profile_check *c = NULL;

	CHECK_INT(hwt_profile_load(SNAPSHOT_INI, &p), 0);
	CHECK(os != NULL);
	if (p && os) {
		CHECK_INT(hwt_profile_set_from(p, key, value, "--set"), 0);
		(void)hwt_profile_check(p, os, &c);
	}
	hwt_os_free(os);
	hwt_profile_free(p);
	return c;
}

static void checked_on_tree(void)
{
	const char *sets[] = {"session.data_size=512K"};
	struct hwt_profile_request rq = {.size = sizeof(rq), .file = SNAPSHOT_INI,
					 .sets = sets, .nsets = 1, .sysfs = TREE};
	struct hwt_profile_check *c = (struct hwt_profile_check *)1;

	CHECK_INT(hwt_profile_request_check(&rq, &c), 0);
	struct hwt_profile_check *hand = by_hand("session:data_size", "512K");
	CHECK(c != NULL && hand != NULL);
	if (c && hand) {
		CHECK_U64(c->plan.aux_attr.config, perf_pt_config());
		CHECK_U64(c->plan.data_pages, 512 * 1024 / 4096);
		CHECK_U64(c->plan.aux_pages, 4 * 1024 * 1024 / 4096);
		char *a = printed(c), *b = printed(hand);
		CHECK(a && b);
		if (a && b)
			CHECK_STR(a, b);
		free(a);
		free(b);
	}
	hwt_profile_check_free(c);
	hwt_profile_check_free(hand);

	/* A key the backend does not know: the check's own words. */
	const char *typo[] = {"intel_pt.psb_perod=3"};
	rq.sets = typo;
	c = (struct hwt_profile_check *)1;
	int err = hwt_profile_request_check(&rq, &c);
	CHECK_INT(err, HWT_ERR_CONFIG);
	CHECK(c == NULL);
	char want[2048];
	snprintf(want, sizeof(want), "%s", hwt_errmsg());
	CHECK_CONTAINS(want, "psb_perod");
	hand = by_hand("intel_pt:psb_perod", "3");
	CHECK(hand == NULL);
	CHECK_STR(hwt_errmsg(), want);
	hwt_profile_check_free(hand);

	/* The fixture has no cs_etm PMU. */
	const char *etm[] = {"cs_etm//"};
	struct hwt_profile_request arm = {.size = sizeof(arm), .events = etm,
					  .nevents = 1, .sysfs = TREE};
	c = (struct hwt_profile_check *)1;
	CHECK(hwt_profile_request_check(&arm, &c) < 0);
	CHECK(c == NULL);
	CHECK_CONTAINS(hwt_errmsg(), "cs_etm");
}

int main(void)
{
	RUN(usage_errors);
	RUN(built_in_order);
	RUN(filter_follows_backend);
	RUN(build_errors);
	RUN(checked_on_tree);
	return hwt_test_summary();
}
