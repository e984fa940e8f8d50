/* hwt_decode_raw_spec_parse and hwt_decode_input
 * (hwtrace/decode_input.h). --raw's BACKEND[,OPTS]:TRACE split at the
 * first ':' (a trace path keeps its own colons and commas), the options
 * after the backend's first ','; the refusals keep the spec whole and
 * carry the command's usage message. hwt_decode_input hands each kind to
 * its decode: the errors are those decodes' own (the oracle: the same
 * call made directly gives the same code and message). */
#include <string.h>

#include "harness.h"
#include "hwtrace/decode_input.h"
#include "hwtrace/error.h"

static void spec_split(void)
{
	struct hwt_decode_input in;
	char a[] = "cs_etm,etmv4,traceid=0x10:/tmp/x:y,z.bin";
	CHECK_INT(hwt_decode_raw_spec_parse(a, &in), 0);
	CHECK_U64(in.size, sizeof(in));
	CHECK_INT(in.kind, HWT_CAPTURE_RAW);
	CHECK_STR(in.backend, "cs_etm");
	CHECK_STR(in.backend_options, "etmv4,traceid=0x10");
	CHECK_STR(in.path, "/tmp/x:y,z.bin");
	char b[] = "intel_pt:trace.bin";
	CHECK_INT(hwt_decode_raw_spec_parse(b, &in), 0);
	CHECK_STR(in.backend, "intel_pt");
	CHECK(in.backend_options == NULL);
	CHECK_STR(in.path, "trace.bin");
}

static void spec_refused(void)
{
	const char *bad[] = {"intel_pt", ":trace.bin", "intel_pt:"};
	struct hwt_decode_input in;
	for (size_t i = 0; i < 3; i++) {
		char spec[32];
		strcpy(spec, bad[i]);
		CHECK_INT(hwt_decode_raw_spec_parse(spec, &in), HWT_ERR_CONFIG);
		char want[96];
		snprintf(want, sizeof(want), "--raw %s: expected "
			 "BACKEND[,OPTS]:TRACE", bad[i]);
		CHECK_STR(hwt_errmsg(), want);
		CHECK_STR(spec, bad[i]);
	}
	CHECK_INT(hwt_decode_raw_spec_parse(NULL, &in), HWT_ERR_INVAL);
}

static int drop(void *arg, const struct hwt_elem *e)
{
	(void)arg;
	(void)e;
	return 0;
}

/* Each kind reaches its own decode: the same error as the direct call. */
static void kinds_dispatched(void)
{
	struct hwt_decode_opts opts = {.size = sizeof(opts)};
	struct hwt_elem_sink sink = {drop, NULL};
	const char *nowhere = "/nonexistent/hwt-decode-input";
	char direct[512];

	struct hwt_decode_input in = {.size = sizeof(in),
		.kind = HWT_CAPTURE_PERF_DATA, .path = nowhere,
		.backend = NULL, .backend_options = NULL};
	int want = hwt_decode_file(nowhere, &opts, &sink);
	CHECK(want < 0);
	snprintf(direct, sizeof(direct), "%s", hwt_errmsg());
	CHECK_INT(hwt_decode_input(&in, &opts, &sink), want);
	CHECK_STR(hwt_errmsg(), direct);

	in.kind = HWT_CAPTURE_SNAPSHOT_DIR;
	want = hwt_decode_snapshot_dir(nowhere, &opts, &sink);
	CHECK(want < 0);
	snprintf(direct, sizeof(direct), "%s", hwt_errmsg());
	CHECK_INT(hwt_decode_input(&in, &opts, &sink), want);
	CHECK_STR(hwt_errmsg(), direct);

	in.kind = HWT_CAPTURE_RAW;
	in.backend = "no_such_backend";
	want = hwt_decode_raw("no_such_backend", NULL, nowhere, &opts, &sink);
	CHECK(want < 0);
	snprintf(direct, sizeof(direct), "%s", hwt_errmsg());
	CHECK_INT(hwt_decode_input(&in, &opts, &sink), want);
	CHECK_STR(hwt_errmsg(), direct);

	in.backend = NULL;
	CHECK_INT(hwt_decode_input(&in, &opts, &sink), HWT_ERR_INVAL);
	in.kind = HWT_CAPTURE_PERF_DATA;
	in.size = 0;
	CHECK_INT(hwt_decode_input(&in, &opts, &sink), HWT_ERR_INVAL);
	CHECK_INT(hwt_decode_input(NULL, &opts, &sink), HWT_ERR_INVAL);
}

int main(void)
{
	RUN(spec_split);
	RUN(spec_refused);
	RUN(kinds_dispatched);
	return hwt_test_summary();
}
