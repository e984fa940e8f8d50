/* hwtrace record's trace options as a request (hwtrace/record_options.h):
 * the empty request; -e's trace event and AUX sampling's sampling event
 * (and the second trace event refused); --trigger's call trigger (its
 * FUNC[@BIN] and latency flag) and resume:/pause: ones (the fifth
 * refused, a second call trigger and signal: refused, a malformed one
 * with hwt_trigger_parse_call's own message); -z's levels; -S's
 * argument read at the end (e, e,SIZE, SIZE; each bad size named); the
 * command; and the options checked together with the message that
 * hwt_record_check_combination gives the same options; the output
 * without -o, from a profile written here (its [session] output), else
 * perf.data, also for a replay (which takes no profile). sw_branch's
 * --snapshot=SIZE: records or bytes (an Intel BTS record is three u64s,
 * 24 bytes, as the kernel's intel_bts driver writes them), each bad value
 * named with its range. A branch sampling's -c: a period (digits
 * only, 1 to 2^63 - 1) or else a profile file. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "hwtrace/error.h"
#include "hwtrace/record_options.h"
#include "hwtrace/trigger.h"

static void empty_request(void)
{
	struct hwt_trace_options t;

	memset(&t, 0x5a, sizeof(t));
	hwt_trace_options_init(&t);
	CHECK_U64(t.size, sizeof(t));
	CHECK_U64(t.rq.size, sizeof(t.rq));
	CHECK_U64(t.rq.trace.size, sizeof(t.rq.trace));
	CHECK_INT((int)t.rq.pid, -1);
	CHECK(!t.rq.trace.event && !t.rq.output && !t.snapshot_arg);
	CHECK_U64(t.rq.ntriggers, 0);
	CHECK_INT(t.rq.compress_level, 0);
}

static void events(void)
{
	struct hwt_trace_options t;

	hwt_trace_options_init(&t);
	CHECK_INT(hwt_trace_options_event(&t, "cycles/period=1000/"), 0);
	CHECK_INT(hwt_trace_options_event(&t, "intel_pt//u"), 0);
	CHECK_STR(t.rq.sample_event, "cycles/period=1000/");
	CHECK_STR(t.rq.trace.event, "intel_pt//u");
	CHECK_INT(hwt_trace_options_event(&t, "intel_bts"), HWT_ERR_CONFIG);
	CHECK_STR(hwt_errmsg(), "-e intel_bts: one trace event only (and, with "
		  "--aux-sample, one sampling event such as cycles)");
	CHECK_STR(t.rq.trace.event, "intel_pt//u");

	/* The sampling event is taken once: a second one is the trace
	 * event while there is none. */
	hwt_trace_options_init(&t);
	CHECK_INT(hwt_trace_options_event(&t, "cycles"), 0);
	CHECK_INT(hwt_trace_options_event(&t, "instructions"), 0);
	CHECK_STR(t.rq.sample_event, "cycles");
	CHECK_STR(t.rq.trace.event, "instructions");
}

static void triggers(void)
{
	struct hwt_trace_options t;

	hwt_trace_options_init(&t);
	CHECK_INT(hwt_trace_options_trigger(&t, "latency:work@./prog>5ms"), 0);
	CHECK_STR(t.rq.call_trigger, "latency:work@./prog>5ms");
	CHECK_STR(t.rq.call_func, "work@./prog");
	CHECK(t.rq.call_func == t.call_func);
	CHECK(t.rq.call_latency);
	CHECK_INT(hwt_trace_options_trigger(&t, "symbol:main"), HWT_ERR_CONFIG);
	CHECK_STR(hwt_errmsg(), "--trigger symbol:main: a trace PMU takes "
		  "resume:FUNC and pause:FUNC%return (symbol:, latency: and "
		  "signal: are -e sw_branch's)");
	CHECK_STR(t.rq.call_func, "work@./prog");

	hwt_trace_options_init(&t);
	CHECK_INT(hwt_trace_options_trigger(&t, "symbol:main"), 0);
	CHECK_STR(t.rq.call_func, "main");
	CHECK(!t.rq.call_latency);

	hwt_trace_options_init(&t);
	const char *aux[] = {"resume:a", "pause:b%return", "resume:c@./p",
			     "resume:d"};
	for (int i = 0; i < 4; i++)
		CHECK_INT(hwt_trace_options_trigger(&t, aux[i]), 0);
	CHECK_U64(t.rq.ntriggers, 4);
	CHECK(t.rq.triggers == t.triggers);
	for (int i = 0; i < 4; i++)
		CHECK_STR(t.rq.triggers[i], aux[i]);
	CHECK(!t.rq.call_trigger);
	CHECK_INT(hwt_trace_options_trigger(&t, "resume:e"), HWT_ERR_CONFIG);
	CHECK_STR(hwt_errmsg(), "--trigger resume:e: at most 4 resume:/pause: "
		  "triggers");
	CHECK_U64(t.rq.ntriggers, 4);

	hwt_trace_options_init(&t);
	CHECK_INT(hwt_trace_options_trigger(&t, "signal:SIGSEGV"), HWT_ERR_CONFIG);
	CHECK_CONTAINS(hwt_errmsg(), "--trigger signal:SIGSEGV: a trace PMU takes ");

	/* A malformed call trigger: the trigger parser's own message. */
	char func[64], want[512];
	bool latency;
	uint64_t ns;
	CHECK(hwt_trigger_parse_call("latency:foo", func, sizeof(func), &latency,
				     &ns) < 0);
	snprintf(want, sizeof(want), "%s", hwt_errmsg());
	CHECK(want[0] != 0);
	hwt_error_clear();
	CHECK_INT(hwt_trace_options_trigger(&t, "latency:foo"), HWT_ERR_CONFIG);
	CHECK_STR(hwt_errmsg(), want);
	CHECK(!t.rq.call_trigger);
}

static void compression(void)
{
	struct hwt_trace_options t;

	hwt_trace_options_init(&t);
	CHECK_INT(hwt_trace_options_compression(&t, NULL), 0);
	CHECK_INT(t.rq.compress_level, 1);
	CHECK_INT(hwt_trace_options_compression(&t, "22"), 0);
	CHECK_INT(t.rq.compress_level, 22);
	const char *bad[] = {"0", "23", "", "5x", "abc", "-1"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char want[128];
		snprintf(want, sizeof(want), "-z%s: the compression level is a "
			 "number from 1 to 22", bad[i]);
		CHECK_INT(hwt_trace_options_compression(&t, bad[i]), HWT_ERR_CONFIG);
		CHECK_STR(hwt_errmsg(), want);
	}
	CHECK_INT(t.rq.compress_level, 22);
}

/* -S@arg on a traced command: finish's result; *@t as it left it. */
static int snapshot(const char *arg, struct hwt_trace_options *t)
{
	static char *cmd[] = {"true", NULL};

	hwt_trace_options_init(t);
	CHECK_INT(hwt_trace_options_event(t, "intel_pt"), 0);
	t->rq.trace.snapshot = true;
	t->snapshot_arg = arg;
	return hwt_trace_options_finish(t, cmd);
}

static void snapshot_args(void)
{
	struct hwt_trace_options t;

	CHECK_INT(snapshot(NULL, &t), 0);
	CHECK(!t.rq.snapshot_on_exit);
	CHECK_U64(t.rq.trace.snapshot_size, 0);
	CHECK_INT(snapshot("e", &t), 0);
	CHECK(t.rq.snapshot_on_exit);
	CHECK_U64(t.rq.trace.snapshot_size, 0);
	CHECK_INT(snapshot("e,4M", &t), 0);
	CHECK(t.rq.snapshot_on_exit);
	CHECK_U64(t.rq.trace.snapshot_size, 4u << 20);
	CHECK_INT(snapshot("e64K", &t), 0);
	CHECK_U64(t.rq.trace.snapshot_size, 64u << 10);
	CHECK_INT(snapshot("4G", &t), 0);
	CHECK(!t.rq.snapshot_on_exit);
	CHECK_U64(t.rq.trace.snapshot_size, 4ull << 30);
	CHECK_INT(snapshot("1", &t), 0);
	CHECK_U64(t.rq.trace.snapshot_size, 1);

	const char *valid = " (valid: a size from 1 to 4G, the largest AUX "
			    "area (e.g. -S64K, -Se,4M))";
	struct { const char *arg, *shown, *what; } bad[] = {
		{"x", "x", "not a size (e.g. 4096, 64K, 4M)"},
		{"e,zz", "zz", "not a size (e.g. 4096, 64K, 4M)"},
		{"0", "0", "out of range"},
		{"4097M", "4097M", "out of range"},
		{"99999999999999999999", "99999999999999999999", "too large"},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char want[256];
		snprintf(want, sizeof(want), "-S %s: %s%s", bad[i].shown,
			 bad[i].what, valid);
		CHECK_INT(snapshot(bad[i].arg, &t), HWT_ERR_CONFIG);
		CHECK_STR(hwt_errmsg(), want);
	}
}

/* The combination check's own message for @c, to compare with. */
static void combination_message(struct hwt_record_combination c, char *buf,
				size_t size)
{
	c.size = sizeof(c);
	CHECK_INT(hwt_record_check_combination(&c), HWT_ERR_CONFIG);
	snprintf(buf, size, "%s", hwt_errmsg());
}

static void finish(void)
{
	struct hwt_trace_options t;
	static char *cmd[] = {"./prog", "arg", NULL};
	static char *none[] = {NULL};
	char want[512];

	hwt_trace_options_init(&t);
	CHECK_INT(hwt_trace_options_event(&t, "intel_pt"), 0);
	CHECK_INT(hwt_trace_options_finish(&t, cmd), 0);
	CHECK(t.rq.argv == cmd);
	CHECK_INT(hwt_trace_options_finish(NULL, cmd), HWT_ERR_INVAL);

	/* No command, no -p, -a or -C: nothing to trace. */
	combination_message((struct hwt_record_combination){.pid = -1,
			    .event = "intel_pt"}, want, sizeof(want));
	CHECK_CONTAINS(want, "nothing to trace");
	CHECK_INT(hwt_trace_options_finish(&t, none), HWT_ERR_CONFIG);
	CHECK_STR(hwt_errmsg(), want);
	CHECK(t.rq.argv == NULL);
	CHECK_INT(hwt_trace_options_finish(&t, NULL), HWT_ERR_CONFIG);

	/* A call trigger without -S. */
	hwt_trace_options_init(&t);
	CHECK_INT(hwt_trace_options_event(&t, "intel_pt"), 0);
	CHECK_INT(hwt_trace_options_trigger(&t, "symbol:main"), 0);
	combination_message((struct hwt_record_combination){.pid = -1,
			    .event = "intel_pt", .call_trigger = "symbol:main",
			    .command = "./prog"}, want, sizeof(want));
	CHECK_INT(hwt_trace_options_finish(&t, cmd), HWT_ERR_CONFIG);
	CHECK_STR(hwt_errmsg(), want);

	/* A resume: trigger with a call trigger: the first resume: named. */
	t.rq.trace.snapshot = true;
	CHECK_INT(hwt_trace_options_trigger(&t, "resume:x"), 0);
	CHECK_INT(hwt_trace_options_trigger(&t, "resume:y"), 0);
	combination_message((struct hwt_record_combination){.pid = -1,
			    .snapshot = true, .event = "intel_pt",
			    .call_trigger = "symbol:main",
			    .first_trigger = "resume:x", .command = "./prog"},
			    want, sizeof(want));
	CHECK_CONTAINS(want, "resume:x");
	CHECK_INT(hwt_trace_options_finish(&t, cmd), HWT_ERR_CONFIG);
	CHECK_STR(hwt_errmsg(), want);

	/* -z is checked with --compress-aux; -z3 makes it whole. */
	hwt_trace_options_init(&t);
	CHECK_INT(hwt_trace_options_event(&t, "intel_pt"), 0);
	t.rq.compress_aux = true;
	CHECK_INT(hwt_trace_options_finish(&t, cmd), HWT_ERR_CONFIG);
	CHECK_CONTAINS(hwt_errmsg(), "--compress-aux");
	CHECK_INT(hwt_trace_options_compression(&t, "3"), 0);
	CHECK_INT(hwt_trace_options_finish(&t, cmd), 0);
}

static void program_snapshot_sizes(void)
{
	uint64_t records = 7, bytes = 7;

	CHECK_INT(hwt_record_program_snapshot_size("100", &records, &bytes), 0);
	CHECK_U64(records, 100);
	CHECK_U64(bytes, 0);
	CHECK_INT(hwt_record_program_snapshot_size("1073741824", &records,
						   &bytes), 0);
	CHECK_U64(records, 1u << 30);
	CHECK_INT(hwt_record_program_snapshot_size("64K", &records, &bytes), 0);
	CHECK_U64(records, 0);
	CHECK_U64(bytes, 65536);
	CHECK_INT(hwt_record_program_snapshot_size("24B", &records, &bytes), 0);
	CHECK_U64(bytes, 3 * sizeof(uint64_t));
	CHECK_INT(hwt_record_program_snapshot_size("24G", &records, &bytes), 0);
	CHECK_U64(bytes, 24ull << 30);

	const char *in_records = "a number of records, 1 to 1073741824, or bytes "
				 "with K, M or G";
	const char *in_bytes = "24 bytes (one record) to 24G, or a number of "
			       "records";
	struct { const char *text, *what, *valid; } bad[] = {
		{"0", "out of range", in_records},
		{"1073741825", "out of range", in_records},
		{"99999999999999999999", "too large", in_records},
		{"23B", "out of range", in_bytes},
		{"25G", "out of range", in_bytes},
		{"abc", "not a size (e.g. 4096, 64K, 4M)", in_bytes},
		{"", "not a size (e.g. 4096, 64K, 4M)", in_bytes},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char want[256];
		snprintf(want, sizeof(want), "--snapshot %s: %s (valid: %s)",
			 bad[i].text, bad[i].what, bad[i].valid);
		CHECK_INT(hwt_record_program_snapshot_size(bad[i].text, &records,
							   &bytes), HWT_ERR_CONFIG);
		CHECK_STR(hwt_errmsg(), want);
	}
}

/* A profile whose [session] output is @output, in a directory of its own
 * (@dir, mkdtemp's template, is left for the caller to remove). */
static const char *profile_naming(char *dir, const char *output)
{
	static char path[128];
	if (!mkdtemp(dir))
		return NULL;
	snprintf(path, sizeof(path), "%s/p.ini", dir);
	FILE *f = fopen(path, "w");
	if (!f)
		return NULL;
	fprintf(f, "[session]\nbackend = intel_pt\noutput = %s\n", output);
	fclose(f);
	return path;
}

static void default_output(void)
{
	struct hwt_trace_options t;
	static char *cmd[] = {"./prog", NULL};
	char dir[] = "/tmp/hwt-record-options-XXXXXX";
	const char *profile = profile_naming(dir, "from profile.data");

	CHECK(profile != NULL);
	if (!profile)
		return;
	hwt_trace_options_init(&t);
	t.rq.trace.profile = profile;
	CHECK_INT(hwt_trace_options_finish(&t, cmd), 0);
	CHECK_STR(t.rq.output, "from profile.data");
	CHECK(t.rq.output == t.output);

	hwt_trace_options_init(&t);
	t.rq.trace.profile = profile;
	t.rq.output = "given.data";
	CHECK_INT(hwt_trace_options_finish(&t, cmd), 0);
	CHECK_STR(t.rq.output, "given.data");

	hwt_trace_options_init(&t);
	CHECK_INT(hwt_trace_options_event(&t, "intel_pt"), 0);
	CHECK_INT(hwt_trace_options_finish(&t, cmd), 0);
	CHECK_STR(t.rq.output, "perf.data");

	/* A replay takes no profile: its output is perf.data. */
	hwt_trace_options_init(&t);
	t.rq.trace.profile = profile;
	t.rq.emulate = "capture.data";
	int r = hwt_trace_options_finish(&t, NULL);
	CHECK_INT(r, 0);
	if (r)
		fprintf(stderr, "replay refused: %s\n", hwt_errmsg());
	CHECK_STR(t.rq.output, "perf.data");

	/* A refused request is left without an output. */
	hwt_trace_options_init(&t);
	t.rq.trace.profile = profile;
	CHECK_INT(hwt_trace_options_finish(&t, NULL), HWT_ERR_CONFIG);
	CHECK(t.rq.output == NULL);
	unlink(profile);
	rmdir(dir);
}

static void branch_counts(void)
{
	struct hwt_branch_request rq = {.size = sizeof(rq)};

	CHECK_INT(hwt_branch_request_count(&rq, "4000"), 0);
	CHECK_U64(rq.period, 4000);
	CHECK(rq.profile == NULL);
	CHECK_INT(hwt_branch_request_count(&rq, "9223372036854775807"), 0);
	CHECK_U64(rq.period, UINT64_MAX >> 1);
	const char *files[] = {"configs/lbr.ini", "12abc", "0x10", ""};
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		CHECK_INT(hwt_branch_request_count(&rq, files[i]), 0);
		CHECK(rq.profile == files[i]);
	}
	CHECK_U64(rq.period, UINT64_MAX >> 1);

	const char *valid = " (valid: a period: the events between two "
			    "samples, 1 or more)";
	struct { const char *text, *what; } bad[] = {
		{"0", "out of range"},
		{"9223372036854775808", "out of range"},
		{"99999999999999999999", "too large"},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char want[256];
		snprintf(want, sizeof(want), "-c %s: %s%s", bad[i].text,
			 bad[i].what, valid);
		CHECK_INT(hwt_branch_request_count(&rq, bad[i].text),
			  HWT_ERR_CONFIG);
		CHECK_STR(hwt_errmsg(), want);
	}
}

int main(void)
{
	RUN(empty_request);
	RUN(events);
	RUN(triggers);
	RUN(compression);
	RUN(snapshot_args);
	RUN(finish);
	RUN(default_output);
	RUN(program_snapshot_sizes);
	RUN(branch_counts);
	return hwt_test_summary();
}
