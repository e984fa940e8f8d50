/* hwt_record_check_combination (hwtrace/recorder.h): record's options
 * that go together. The positive controls first: a command with -e, a
 * replay, an emulated machine with its trace, a call trigger with -S and
 * a count, -z with --compress-aux, -a or -C or -p without a command.
 * Then each mistake alone, with its whole message; then the order:
 * several mistakes at once, and the first of them in the documented
 * order is the one told, whatever else is wrong. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "hwtrace/error.h"
#include "hwtrace/recorder.h"

#define SYSFS HWT_SOURCE_DIR "/tests/fixtures/sysfs/intel-client"

static struct hwt_record_combination base(void)
{
	return (struct hwt_record_combination){
		.size = sizeof(struct hwt_record_combination), .pid = -1,
		.command = "ls", .event = "intel_pt//u",
	};
}

static void combinations_that_go_together(void)
{
	struct hwt_record_combination c = base();
	CHECK_INT(hwt_record_check_combination(&c), 0);
	c = base();
	c.command = NULL;
	c.event = NULL;
	c.emulate = "pt.data";
	CHECK_INT(hwt_record_check_combination(&c), 0);
	c = base();
	c.command = NULL;
	c.sysfs = SYSFS;
	c.emulate_trace = "trace.bin";
	c.emulate_tsc = true;
	CHECK_INT(hwt_record_check_combination(&c), 0);
	c = base();
	c.snapshot = true;
	c.call_trigger = "symbol:main";
	c.trigger_count = 3;
	c.compress_level = 1;
	c.compress_aux = true;
	c.filter = "filter main";
	CHECK_INT(hwt_record_check_combination(&c), 0);
	c = base();
	c.command = NULL;
	c.event = NULL;
	c.profile = "pt.ini";
	c.all_cpus = true;
	CHECK_INT(hwt_record_check_combination(&c), 0);
	c.all_cpus = false;
	c.cpus = "0-1";
	CHECK_INT(hwt_record_check_combination(&c), 0);
	c.cpus = NULL;
	c.pid = 1;
	CHECK_INT(hwt_record_check_combination(&c), 0);
	/* A request without its size. */
	c.size = 0;
	CHECK_INT(hwt_record_check_combination(&c), HWT_ERR_INVAL);
	CHECK_INT(hwt_record_check_combination(NULL), HWT_ERR_INVAL);
}

/* The mistakes in their order: each sets what makes it one. */
static void no_snapshot(struct hwt_record_combination *c)
{
	c->call_trigger = "symbol:f";
}
static void two_kinds_of_trigger(struct hwt_record_combination *c)
{
	c->snapshot = true;
	c->call_trigger = "symbol:f";
	c->first_trigger = "resume:g";
}
static void count_without_trigger(struct hwt_record_combination *c)
{
	c->trigger_count = 2;
}
static void compress_aux_without_z(struct hwt_record_combination *c)
{
	c->compress_aux = true;
}
static void emulate_trace_without_sysfs(struct hwt_record_combination *c)
{
	c->emulate_trace = "t.bin";
}
static void sysfs_with_command(struct hwt_record_combination *c)
{
	c->sysfs = SYSFS;
}
static void sysfs_missing(struct hwt_record_combination *c)
{
	c->sysfs = "/nonexistent/sysfs";
	c->command = NULL;
}
static void sysfs_a_file(struct hwt_record_combination *c)
{
	c->sysfs = HWT_SOURCE_DIR "/CMakeLists.txt";
	c->command = NULL;
}
static void empty_filter(struct hwt_record_combination *c)
{
	c->filter = "";
}
static void nothing_to_trace(struct hwt_record_combination *c)
{
	c->command = NULL;
}
static void emulate_with_filter(struct hwt_record_combination *c)
{
	c->emulate = "pt.data";
	c->filter = "filter main";
}
static void emulate_with_command(struct hwt_record_combination *c)
{
	c->emulate = "pt.data";
}
static void no_trace(struct hwt_record_combination *c)
{
	c->event = NULL;
}

static const struct mistake {
	void (*make)(struct hwt_record_combination *c);
	const char *message;
} mistakes[] = {
	{no_snapshot, "--trigger symbol:f takes snapshots: give -S (--snapshot)"},
	{two_kinds_of_trigger, "--trigger symbol:f and resume:g: a call trigger "
	 "or resume:/pause:, not both"},
	{count_without_trigger, "--trigger-count counts the snapshots of a "
	 "symbol: or latency: trigger"},
	{compress_aux_without_z, "--compress-aux compresses with -z: give "
	 "-z[LEVEL] too"},
	{emulate_trace_without_sysfs, "--emulate-trace and --emulate-tsc need "
	 "--sysfs DIR (the emulated machine)"},
	{sysfs_with_command, "--sysfs emulates a machine: it takes no "
	 "--emulate, command or -p"},
	{sysfs_missing, "--sysfs /nonexistent/sysfs: the directory does not exist"},
	{sysfs_a_file, "--sysfs " HWT_SOURCE_DIR "/CMakeLists.txt: not a directory"},
	{empty_filter, "--filter '': an empty filter (give "
	 "filter|start|stop|tracestop SYM|ADDR[/SIZE] [@ FILE], or no --filter)"},
	{nothing_to_trace, "nothing to trace: give -- CMD, -p PID, -a or -C CPUS"},
	{emulate_with_filter, "--emulate replays a capture's trace as it was: "
	 "it takes no --filter"},
	{emulate_with_command, "--emulate replays a capture and runs no command"},
	{no_trace, "which trace? give -e BACKEND (see `hwtrace list`) or -c PROFILE"},
};
#define NMISTAKES (sizeof(mistakes) / sizeof(mistakes[0]))

static void each_mistake_alone(void)
{
	for (size_t i = 0; i < NMISTAKES; i++) {
		struct hwt_record_combination c = base();
		mistakes[i].make(&c);
		CHECK_INT(hwt_record_check_combination(&c), HWT_ERR_CONFIG);
		CHECK_STR(hwt_errmsg(), mistakes[i].message);
	}
}

/* Several mistakes at once, each list's last the first in the order
 * (applied last, so that the options of each hold together). */
typedef void (*make_fn)(struct hwt_record_combination *c);
static const struct several {
	make_fn make[4];
	size_t n;
} severals[] = {
	{{no_trace, empty_filter, compress_aux_without_z, no_snapshot}, 4},
	{{emulate_trace_without_sysfs, compress_aux_without_z,
	  two_kinds_of_trigger}, 3},
	{{nothing_to_trace, compress_aux_without_z, count_without_trigger}, 3},
	{{emulate_with_command, emulate_trace_without_sysfs,
	  compress_aux_without_z}, 3},
	{{no_trace, empty_filter, emulate_trace_without_sysfs}, 3},
	{{no_trace, empty_filter, sysfs_with_command}, 3},
	{{no_trace, empty_filter, sysfs_missing}, 3},
	{{no_trace, nothing_to_trace, empty_filter}, 3},
	{{no_trace, nothing_to_trace}, 2},
	{{emulate_with_command, emulate_with_filter}, 2},
};

static const char *message_of(make_fn make)
{
	for (size_t i = 0; i < NMISTAKES; i++)
		if (mistakes[i].make == make)
			return mistakes[i].message;
	return NULL;
}

static void first_mistake_is_told(void)
{
	for (size_t i = 0; i < sizeof(severals) / sizeof(severals[0]); i++) {
		const struct several *sv = &severals[i];
		struct hwt_record_combination c = base();
		for (size_t j = 0; j < sv->n; j++)
			sv->make[j](&c);
		/* Each of the others alone is a mistake too (the controls
		 * that the list holds several). */
		for (size_t j = 0; j + 1 < sv->n; j++) {
			struct hwt_record_combination one = base();
			sv->make[j](&one);
			CHECK_INT(hwt_record_check_combination(&one), HWT_ERR_CONFIG);
		}
		CHECK_INT(hwt_record_check_combination(&c), HWT_ERR_CONFIG);
		CHECK_STR(hwt_errmsg(), message_of(sv->make[sv->n - 1]));
	}
}

int main(void)
{
	RUN(combinations_that_go_together);
	RUN(each_mistake_alone);
	RUN(first_mistake_is_told);
	return hwt_test_summary();
}
