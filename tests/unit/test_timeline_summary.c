/* hwt_timeline_format_*, hwt_timeline_name_capture_threads and
 * hwt_timeline_write_summary: the --format names of `hwtrace timeline`;
 * a Chrome timeline of a hand-built stream on thread 3174 of the quipper
 * Intel PT capture, its threads named from the capture, which names 3174
 * "echo" last (PERF_RECORD_COMM in the file's perf report -D); and the
 * summary, whose slices are counted in the JSON written. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "hwtrace/capture.h"
#include "hwtrace/error.h"
#include "hwtrace/timeline.h"

#define PT HWT_TESTDATA "/perf-data/quipper/perf.data.intel_pt-4.14"

static struct hwt_elem_sink frames;
static uint64_t now = 1000;
static bool timed = true;   /* the elements carry times */

static void emit(struct hwt_elem e)
{
	e.fields |= HWT_FIELD_PID | HWT_FIELD_TID |
		    (timed ? HWT_FIELD_TIME : 0);
	e.pid = 3174;
	e.tid = 3174;
	e.time = now;
	now += 10;
	CHECK_INT(frames.emit(frames.arg, &e), 0);
}

static void range(uint64_t start, uint64_t end)
{
	struct hwt_elem e = {.type = HWT_ELEM_RANGE};
	e.u.range.start = start;
	e.u.range.end = end;
	e.u.range.insns = (end - start) / 4;
	emit(e);
}

static void branch(uint64_t from, uint64_t to, enum hwt_branch_kind kind)
{
	struct hwt_elem e = {.type = HWT_ELEM_BRANCH};
	e.u.branch.from = from;
	e.u.branch.to = to;
	e.u.branch.kind = kind;
	emit(e);
}

static void formats_by_name(void)
{
	static const char *const names[] = {"perfetto", "chrome", "speedscope"};
	static const enum hwt_timeline_format formats[] = {
		HWT_TIMELINE_PERFETTO, HWT_TIMELINE_CHROME,
		HWT_TIMELINE_SPEEDSCOPE,
	};
	for (size_t i = 0; i < 3; i++) {
		enum hwt_timeline_format f = HWT_TIMELINE_CHROME;
		CHECK_INT(hwt_timeline_format_parse(names[i], &f), 0);
		CHECK_INT(f, formats[i]);
		CHECK_STR(hwt_timeline_format_name(f), names[i]);
	}
	enum hwt_timeline_format f = HWT_TIMELINE_SPEEDSCOPE;
	CHECK_INT(hwt_timeline_format_parse("json", &f), HWT_ERR_INVAL);
	CHECK_INT(hwt_timeline_format_parse("Chrome", &f), HWT_ERR_INVAL);
	CHECK_INT(f, HWT_TIMELINE_SPEEDSCOPE);
}

/* A Chrome timeline of a call and its return; @cap names its threads
 * when not NULL. The JSON in *@json, the summary in *@summary. */
static void chrome(const struct hwt_capture *cap, char **json, char **summary)
{
	size_t len = 0;
	FILE *out = open_memstream(json, &len);
	struct hwt_timeline_opts o = {.size = sizeof(o),
				      .format = HWT_TIMELINE_CHROME};
	struct hwt_timeline *tl;
	CHECK_INT(hwt_timeline_new(out, &o, &tl), 0);
	if (cap)
		CHECK_INT(hwt_timeline_name_capture_threads(tl, cap), 0);
	struct hwt_stack_ops ops = hwt_timeline_ops(tl);
	struct hwt_stack *stack = hwt_stack_new(&ops);
	frames = hwt_stack_sink(stack);
	now = 1000;
	range(0x100, 0x110);
	branch(0x10c, 0x200, HWT_BRANCH_CALL);
	range(0x200, 0x208);
	branch(0x204, 0x110, HWT_BRANCH_RETURN);
	range(0x110, 0x118);
	CHECK_INT(hwt_stack_finish(stack), 0);
	CHECK_INT(hwt_timeline_finish(tl), 0);
	hwt_stack_free(stack);
	fclose(out);
	size_t slen = 0;
	FILE *s = open_memstream(summary, &slen);
	CHECK_INT(hwt_timeline_write_summary(tl, s, "hwtrace timeline: ",
					     "out.json"), 0);
	fclose(s);
	hwt_timeline_free(tl);
}

/* How many times @needle is in @hay. */
static unsigned int occurrences(const char *hay, const char *needle)
{
	unsigned int n = 0;
	for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

static void threads_named_from_the_capture(void)
{
	static const char named[] = "{\"name\":\"thread_name\",\"ph\":\"M\","
				    "\"pid\":3174,\"tid\":3174,\"args\":"
				    "{\"name\":\"echo\"}}";
	struct hwt_capture *cap = NULL;
#ifndef HWT_HAVE_LIBIPT
	HWT_SKIP_PART("threads named from the Intel PT capture: built without "
		      "libipt (no Intel PT decoder)");
	return;
#endif
	CHECK_INT(hwt_capture_open(PT, NULL, &cap), 0);
	if (!cap)
		return;
	char *json = NULL, *summary = NULL;
	chrome(cap, &json, &summary);
	CHECK_CONTAINS(json, named);
	free(json);
	free(summary);
	hwt_capture_free(cap);
	/* Control: unnamed, the thread has no name line. */
	chrome(NULL, &json, &summary);
	CHECK(json && !strstr(json, "thread_name"));
	free(json);
	free(summary);
}

static void summary_counts_what_was_written(void)
{
	char *json = NULL, *summary = NULL;
	chrome(NULL, &json, &summary);
	/* Complete events ("ph":"X") are the slices: the function the
	 * trace began in and the one it called. */
	unsigned int slices = json ? occurrences(json, "\"ph\":\"X\"") : 0;
	CHECK_INT(slices, 2);
	char want[512];
	snprintf(want, sizeof(want), "hwtrace timeline: wrote out.json: %u "
		 "slices on 1 threads of 1 processes, 0 instants; left out 0 "
		 "shorter than --min-duration, 0 deeper than --max-depth, 0 "
		 "without time\n", slices);
	CHECK_STR(summary, want);
	free(json);
	free(summary);
}

/* Without time, the summary says the slices are in sequence order. */
static void untimed_capture_says_so(void)
{
	char *json = NULL, *summary = NULL;
	timed = false;
	chrome(NULL, &json, &summary);
	timed = true;
	CHECK_STR(summary, "hwtrace timeline: wrote out.json: 2 slices on 1 "
		  "threads of 1 processes, 0 instants; left out 0 shorter than "
		  "--min-duration, 0 deeper than --max-depth, 0 without time\n"
		  "hwtrace timeline: the capture has no timestamps: its slices "
		  "are in sequence order (1 us per call and return), as the "
		  "file's metadata says\n");
	free(json);
	free(summary);
}

int main(void)
{
	RUN(formats_by_name);
	RUN(threads_named_from_the_capture);
	RUN(summary_counts_what_was_written);
	RUN(untimed_capture_says_so);
	return hwt_test_summary();
}
