/* hwt_timeline_name_capture_file, how `hwtrace timeline` names its
 * threads: from the quipper Intel PT capture, whose PERF_RECORD_COMM
 * names thread 3174 "echo" last (the file's perf report -D), a Chrome
 * timeline of a call on thread 3174 carries that name; without the
 * capture it carries none; a capture that is not there is an error
 * naming it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "hwtrace/error.h"
#include "hwtrace/stack.h"
#include "hwtrace/timeline.h"

#define PT HWT_TESTDATA "/perf-data/quipper/perf.data.intel_pt-4.14"

/* A Chrome timeline of one call on thread 3174, its threads named from
 * @path (NULL: not named); the JSON to free, NULL when naming failed. */
static char *chrome(const char *path, int *err)
{
	char *json = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&json, &len);
	struct hwt_timeline_opts o = {.size = sizeof(o),
				      .format = HWT_TIMELINE_CHROME};
	struct hwt_timeline *tl = NULL;
	CHECK_INT(hwt_timeline_new(out, &o, &tl), 0);
	*err = path && tl ? hwt_timeline_name_capture_file(tl, path) : 0;
	if (tl && !*err) {
		struct hwt_stack_ops ops = hwt_timeline_ops(tl);
		struct hwt_frame f = {
			.func = 0x200, .has_time = true, .call_time = 1000,
			.return_time = 2000, .pid = 3174, .tid = 3174, .cpu = 0,
		};
		CHECK_INT(ops.on_enter(ops.arg, &f), 0);
		CHECK_INT(ops.on_exit(ops.arg, &f), 0);
		CHECK_INT(hwt_timeline_finish(tl), 0);
	}
	hwt_timeline_free(tl);
	fclose(out);
	if (*err) {
		free(json);
		return NULL;
	}
	return json;
}

static void threads_named_from_the_file(void)
{
	static const char named[] = "{\"name\":\"thread_name\",\"ph\":\"M\","
				    "\"pid\":3174,\"tid\":3174,\"args\":"
				    "{\"name\":\"echo\"}}";
	int err;
	char *json = chrome(PT, &err);
	CHECK_INT(err, 0);
	CHECK_CONTAINS(json, named);
	CHECK_CONTAINS(json, "\"ph\":\"X\"");
	free(json);
	/* Control: unnamed, the thread has no name line. */
	json = chrome(NULL, &err);
	CHECK(json && !strstr(json, "thread_name"));
	CHECK_CONTAINS(json, "\"ph\":\"X\"");
	free(json);
}

static void missing_file_named(void)
{
	const char *missing = HWT_SOURCE_DIR "/tests/no-such.data";
	int err;
	char *json = chrome(missing, &err);
	CHECK(err < 0);
	CHECK(json == NULL);
	CHECK_CONTAINS(hwt_errmsg(), missing);
}

int main(void)
{
	RUN(threads_named_from_the_file);
	RUN(missing_file_named);
	return hwt_test_summary();
}
