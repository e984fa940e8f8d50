/* hwt_merge_request_kind, hwt_merge_request_check and
 * hwt_merge_request_dest: the kinds by name, which kinds need
 * -o, each refusal with its message, each rule with a request it lets
 * through, and where each kind's merged result goes. */
#include "harness.h"
#include "hwtrace/error.h"
#include "hwtrace/merge_request.h"

static void refused(const struct hwt_merge_request *rq, const char *msg)
{
	CHECK_INT(hwt_merge_request_check(rq), HWT_ERR_INVAL);
	CHECK_STR(hwt_errmsg(), msg);
}

static void accepted(const struct hwt_merge_request *rq)
{
	CHECK_INT(hwt_merge_request_check(rq), 0);
}

static void kinds_and_outputs(void)
{
	refused(&(struct hwt_merge_request){.output = "x", .nparts = 2},
		"no --kind (report, collapsed, edges, autofdo, bolt, "
		"bolt-preagg, pprof, sqlite or branch-profile)");
	/* The text kinds go to standard output. */
	accepted(&(struct hwt_merge_request){.has_kind = true,
		.kind = HWT_MERGE_REPORT, .nparts = 1});
	accepted(&(struct hwt_merge_request){.has_kind = true,
		.kind = HWT_MERGE_EDGES, .nparts = 3});
	refused(&(struct hwt_merge_request){.has_kind = true,
		.kind = HWT_MERGE_COLLAPSED},
		"no partial result to merge");

	static const enum hwt_merge_kind per_binary[] = {
		HWT_MERGE_AUTOFDO, HWT_MERGE_BOLT, HWT_MERGE_BOLT_PREAGG,
	};
	static const char *const msgs[] = {
		"--kind autofdo writes one file per binary: -o PREFIX or "
		"DIRECTORY is required",
		"--kind bolt writes one file per binary: -o PREFIX or "
		"DIRECTORY is required",
		"--kind bolt-preagg writes one file per binary: -o PREFIX or "
		"DIRECTORY is required",
	};
	for (size_t i = 0; i < 3; i++) {
		refused(&(struct hwt_merge_request){.has_kind = true,
			.kind = per_binary[i], .nparts = 2}, msgs[i]);
		accepted(&(struct hwt_merge_request){.has_kind = true,
			.kind = per_binary[i], .output = "dir", .nparts = 2});
		accepted(&(struct hwt_merge_request){.has_kind = true,
			.kind = per_binary[i], .partial = true, .nparts = 2});
	}
	refused(&(struct hwt_merge_request){.has_kind = true,
		.kind = HWT_MERGE_PPROF, .nparts = 2},
		"--kind pprof writes a compressed profile: -o FILE is required");
	accepted(&(struct hwt_merge_request){.has_kind = true,
		.kind = HWT_MERGE_PPROF, .output = "p.pb.gz", .nparts = 2});
	refused(&(struct hwt_merge_request){.has_kind = true,
		.kind = HWT_MERGE_SQLITE, .nparts = 2},
		"--kind sqlite writes a database: -o FILE is required");
	accepted(&(struct hwt_merge_request){.has_kind = true,
		.kind = HWT_MERGE_SQLITE, .partial = true, .nparts = 2});
	/* The -o rule comes before the parts'. */
	refused(&(struct hwt_merge_request){.has_kind = true,
		.kind = HWT_MERGE_SQLITE},
		"--kind sqlite writes a database: -o FILE is required");
}

static void kinds_by_name(void)
{
	struct hwt_merge_request rq = {.nparts = 1};
	CHECK_INT(hwt_merge_request_kind(&rq, "bolt-preagg"), 0);
	CHECK(rq.has_kind);
	CHECK_INT(rq.kind, HWT_MERGE_BOLT_PREAGG);
	CHECK_INT(hwt_merge_request_kind(&rq, "collapsed"), 0);
	CHECK_INT(rq.kind, HWT_MERGE_COLLAPSED);
	CHECK_INT(hwt_merge_request_kind(&rq, "table"), HWT_ERR_INVAL);
	CHECK_STR(hwt_errmsg(), "--kind table: use report, collapsed, edges, "
		  "autofdo, bolt, bolt-preagg, pprof, sqlite or branch-profile");
	CHECK_INT(rq.kind, HWT_MERGE_COLLAPSED);
	struct hwt_merge_request none = {.nparts = 1};
	CHECK_INT(hwt_merge_request_kind(&none, ""), HWT_ERR_INVAL);
	CHECK(!none.has_kind);
}

static void destinations(void)
{
	struct hwt_merge_request rq = {.has_kind = true, .nparts = 1,
				       .output = "o"};
	static const struct {
		enum hwt_merge_kind kind;
		enum hwt_merge_dest dest;
	} want[] = {
		{HWT_MERGE_REPORT, HWT_MERGE_TO_STREAM},
		{HWT_MERGE_COLLAPSED, HWT_MERGE_TO_STREAM},
		{HWT_MERGE_EDGES, HWT_MERGE_TO_STREAM},
		{HWT_MERGE_AUTOFDO, HWT_MERGE_TO_PROFILES},
		{HWT_MERGE_BOLT, HWT_MERGE_TO_PROFILES},
		{HWT_MERGE_BOLT_PREAGG, HWT_MERGE_TO_PROFILES},
		{HWT_MERGE_PPROF, HWT_MERGE_TO_STREAM},
		{HWT_MERGE_SQLITE, HWT_MERGE_TO_DATABASE},
	};
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		rq.kind = want[i].kind;
		rq.partial = false;
		CHECK_INT(hwt_merge_request_dest(&rq), want[i].dest);
		/* A partial is one stream, whatever it merges into. */
		rq.partial = true;
		CHECK_INT(hwt_merge_request_dest(&rq), HWT_MERGE_TO_STREAM);
	}
}

int main(void)
{
	RUN(kinds_and_outputs);
	RUN(kinds_by_name);
	RUN(destinations);
	return hwt_test_summary();
}
