/* sw_branch's trigger syntax (backends/sw-branch/swb_trigger.c): what each
 * valid spec parses to, exactly, and that malformed ones are refused with
 * HWT_ERR_CONFIG and a message saying what is wanted; and the window's
 * description written in hwtrace's feature 101 reads back unchanged from
 * a perf.data file, beside perf's features. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backends/sw-branch/swb_trigger.h"
#include "harness.h"
#include "hwtrace/error.h"
#include "hwtrace/perfdata.h"
#include "hwtrace/swbranch.h"

static void valid_specs(void)
{
	struct hwt_swb_trigger t;

	CHECK_INT(hwt_swb_trigger_parse("symbol:parse", &t), 0);
	CHECK_INT(t.kind, HWT_SWB_TRIGGER_SYMBOL);
	CHECK_STR(t.func, "parse");
	CHECK_STR(t.text, "symbol:parse");
	CHECK_INT(hwt_swb_trigger_parse("symbol:exit@libc.so.6", &t), 0);
	CHECK_STR(t.func, "exit@libc.so.6");
	CHECK_INT(hwt_swb_trigger_parse("latency:slow>5ms", &t), 0);
	CHECK_INT(t.kind, HWT_SWB_TRIGGER_LATENCY);
	CHECK_STR(t.func, "slow");
	CHECK_U64(t.threshold_ns, 5000000);
	CHECK_INT(hwt_swb_trigger_parse("latency:f@./prog>250us", &t), 0);
	CHECK_STR(t.func, "f@./prog");
	CHECK_U64(t.threshold_ns, 250000);
	CHECK_INT(hwt_swb_trigger_parse("latency:f>1.5s", &t), 0);
	CHECK_U64(t.threshold_ns, 1500000000);
	CHECK_INT(hwt_swb_trigger_parse("latency:f>100ns", &t), 0);
	CHECK_U64(t.threshold_ns, 100);
	CHECK_INT(hwt_swb_trigger_parse("signal:SIGSEGV,abrt,SigBus", &t), 0);
	CHECK_INT(t.kind, HWT_SWB_TRIGGER_SIGNAL);
	CHECK_U64(t.signals, 1ull << SIGSEGV | 1ull << SIGABRT | 1ull << SIGBUS);
	CHECK_INT(hwt_swb_trigger_check("signal:SIGTERM"), 0);
}

static void refused(const char *spec, const char *fragment)
{
	struct hwt_swb_trigger t;

	CHECK_INT(hwt_swb_trigger_parse(spec, &t), HWT_ERR_CONFIG);
	CHECK_CONTAINS(hwt_errmsg(), fragment);
	CHECK_INT(hwt_swb_trigger_check(spec), HWT_ERR_CONFIG);
}

static void invalid_specs(void)
{
	refused("parse", "want symbol:FUNC[@BINARY], latency:");
	refused("symbol:", "want a function");
	refused("symbol:@libc.so.6", "want a function");
	refused("latency:slow", "with a unit (ns, us, ms or s)");
	refused("latency:slow>5", "with a unit");
	refused("latency:slow>5min", "with a unit");
	refused("latency:slow>-5ms", "with a unit");
	refused("latency:>5ms", "want a function");
	refused("signal:", "want a list of signals");
	refused("signal:SIGCHLD", "'SIGCHLD' is not a signal whose default action ends");
	refused("signal:SIGSEGV,SIGKILL", "'SIGKILL' is not a signal");
	refused("signal:SIGTRAP", "'SIGTRAP' is not a signal");
}

static void description_round_trip(void)
{
	char path[] = "/tmp/hwt-trigger-XXXXXX", buf[1024], text[1024];
	struct hwt_swb_trigger t;
	struct hwt_pd_writer *w;
	struct hwt_pd_reader *r;
	int fd = mkstemp(path);

	CHECK(fd >= 0);
	if (fd < 0)
		return;
	close(fd);
	CHECK_INT(hwt_swb_trigger_parse("latency:slow>5ms", &t), 0);
	struct hwt_swb_fire f = {.trigger = &t, .tid = 42, .time_ns = 3000,
				 .nth = 151, .entry_ns = 1000, .duration_ns = 2000};
	hwt_swb_fire_describe(&f, 3, true, text, sizeof(text));
	CHECK_STR(text, "trigger: latency:slow>5ms\nwindow: 3\ntime: 3000\n"
		  "tid: 42\nentry: 151\ncall_start: 1000\nduration_ns: 2000\n"
		  "whole_call: yes\n");
	CHECK_INT(hwt_pd_writer_open(path, &w), 0);
	CHECK_INT(hwt_pd_writer_set_feature(w, HWT_PD_FEAT_HWTRACE_TRIGGER, text,
					    strlen(text)), 0);
	CHECK_INT(hwt_pd_writer_set_feature(w, HWT_PD_FEAT_HOSTNAME, "box", 3), 0);
	CHECK_INT(hwt_pd_writer_close(w), 0);
	CHECK_INT(hwt_pd_reader_open(path, &r), 0);
	if (r) {
		CHECK_INT(hwt_pd_reader_feature_string(r, HWT_PD_FEAT_HWTRACE_TRIGGER,
						       buf, sizeof(buf)), 0);
		CHECK_STR(buf, text);
		/* perf's features before it are where they were. */
		CHECK_INT(hwt_pd_reader_feature_string(r, HWT_PD_FEAT_HOSTNAME, buf,
						       sizeof(buf)), 0);
		CHECK_STR(buf, "box");
		hwt_pd_reader_free(r);
	}
	/* perf reads such a file's header and features (it skips bit 101). */
	char cmd[256];
	snprintf(cmd, sizeof(cmd), "perf report --header-only -i %s 2>/dev/null "
		 "| grep -q 'hostname : box'", path);
	if (system("command -v perf >/dev/null 2>&1"))
		HWT_SKIP_PART("perf reads a file with feature 101: perf is not installed");
	else
		CHECK_INT(system(cmd), 0);
	/* Without the feature set, the file has none. */
	CHECK_INT(hwt_pd_writer_open(path, &w), 0);
	CHECK_INT(hwt_pd_writer_close(w), 0);
	CHECK_INT(hwt_pd_reader_open(path, &r), 0);
	if (r) {
		CHECK_INT(hwt_pd_reader_feature_string(r, HWT_PD_FEAT_HWTRACE_TRIGGER,
						       buf, sizeof(buf)), HWT_ERR_NOENT);
		hwt_pd_reader_free(r);
	}
	unlink(path);
}

int main(void)
{
	RUN(valid_specs);
	RUN(invalid_specs);
	RUN(description_round_trip);
	return hwt_test_summary();
}
