/* A recording's closing lines (hwt_record_print_capture_stats and
 * hwt_record_print_session_stats, hwtrace/recorder.h), into a memory
 * stream. Counters made up here with distinct values, each of which must
 * land in its place: per CPU and per thread; snapshot mode, where what
 * the snapshots kept is the smaller of the bytes captured and the bytes
 * the trace unit wrote, the rest overwritten before one (both cases of
 * the smaller); a replay's losses, the capture's apart from its own; the
 * emulated address filters; unmatched AUX records. Then a session on the
 * kernel emulator (intel-client fixture) fed 8192 bytes by a paced trace
 * unit, which loses nothing: its line says 8192 captured, 8192 produced,
 * 0 dropped (the oracle: the bytes given). A call trigger's line and a
 * compressed file's, its ratio to three places and 0 when nothing was
 * written. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "discard_sink.h"
#include "hwtrace/backend.h"
#include "hwtrace/emulator.h"
#include "hwtrace/error.h"
#include "hwtrace/recorder.h"
#include "hwtrace/session.h"

#define FIXTURE HWT_SOURCE_DIR "/tests/fixtures/sysfs/intel-client"
#define PT_TYPE 6

/* What the printer writes for the arguments, as a string (freed by the
 * caller). */
static char *printed(const struct hwt_capture_stats *rings, size_t n,
		     const struct hwt_emu_stats *const *trace,
		     const char *const *filters)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		return NULL;
	hwt_record_print_capture_stats(f, "rec", rings, n, trace, filters);
	fclose(f);
	return buf;
}

static void full_trace_per_cpu(void)
{
	struct hwt_capture_stats rings[2];
	memset(rings, 0, sizeof(rings));
	rings[0] = (struct hwt_capture_stats){.cpu = 0, .aux_bytes = 1000,
		.aux_chunks = 3, .wakeups = 7, .truncated = 11, .reenables = 12,
		.collision = 13, .partial = 14, .lost_records = 15,
		.lost_events = 16, .unmatched = 17};
	rings[1] = (struct hwt_capture_stats){.cpu = 5, .aux_bytes = 2};
	struct hwt_emu_stats st;
	memset(&st, 0, sizeof(st));
	st.produced = 900;
	st.dropped = 21;
	const struct hwt_emu_stats *trace[2] = {&st, NULL};
	const char *filters[2] = {"filter main", ""};
	char *got = printed(rings, 2, trace, filters);
	CHECK_STR(got,
		"rec: per CPU:\n"
		"  cpu 0: 1000 bytes captured in 3 chunks, 7 wakeups\n"
		"    lost: 11 truncated (buffer full, 12 re-enabled), 13 "
		"collisions, 14 partial, 15 records in 16 LOST events, 21 trace "
		"bytes dropped (of 900 produced), 17 AUX records unmatched\n"
		"    emulated kernel's address filters: filter main\n"
		"  cpu 5: 2 bytes captured in 0 chunks, 0 wakeups\n"
		"    lost: 0 truncated (buffer full, 0 re-enabled), 0 "
		"collisions, 0 partial, 0 records in 0 LOST events\n");
	free(got);
}

static void snapshots_per_thread(void)
{
	/* Captured fewer than written: 600 kept, 400 overwritten. */
	struct hwt_capture_stats ring = {.cpu = -1, .aux_bytes = 600,
		.aux_chunks = 2, .wakeups = 1, .snapshots = 4, .snapshot_wraps = 3};
	struct hwt_emu_stats st;
	memset(&st, 0, sizeof(st));
	st.produced = 1200;
	st.written = 1000;
	st.dropped = 200;
	const struct hwt_emu_stats *trace[1] = {&st};
	char *got = printed(&ring, 1, trace, NULL);
	CHECK_STR(got,
		"rec: per thread:\n"
		"  thread: 600 bytes captured in 2 chunks, 1 wakeups, 4 snapshots "
		"(3 wrapped)\n"
		"    lost: 0 truncated (buffer full, 0 re-enabled), 0 collisions, "
		"0 partial, 0 records in 0 LOST events; of 1200 trace bytes "
		"produced, 600 kept by the snapshots, 400 overwritten before one, "
		"200 dropped\n");
	free(got);
	/* Captured more than written (a snapshot copies some bytes twice):
	 * all that was written is kept. */
	ring.aux_bytes = 1500;
	got = printed(&ring, 1, trace, NULL);
	CHECK_CONTAINS(got, "; of 1200 trace bytes produced, 1000 kept by the "
		       "snapshots, 0 overwritten before one, 200 dropped\n");
	free(got);
}

static void replay_losses(void)
{
	struct hwt_capture_stats ring = {.cpu = 2, .aux_bytes = 64};
	struct hwt_emu_stats st;
	memset(&st, 0, sizeof(st));
	st.capture_writes = 31;
	st.capture_truncated = 32;
	st.capture_collision = 33;
	st.capture_partial = 34;
	st.truncations = 35;
	st.full_disables = 36;
	st.barriers = 37;
	const struct hwt_emu_stats *trace[1] = {&st};
	char *got = printed(&ring, 1, trace, NULL);
	CHECK_CONTAINS(got, "\n    replay of 31 AUX records: the capture's losses "
		       "32 truncated, 33 collisions, 34 partial; the replay's 35 "
		       "truncated, 36 disabled with no room, 37 barrier packets "
		       "inserted\n");
	free(got);
	/* No rings: the heading alone. */
	got = printed(NULL, 0, NULL, NULL);
	CHECK_STR(got, "rec: per CPU:\n");
	free(got);
}

static void emulated_session_counts_the_bytes_given(void)
{
	static const int cpus[] = {0};
	static uint8_t stream[8192];
	struct hwt_emu_opts eo = {.size = sizeof(eo), .sysfs_root = FIXTURE,
				  .paced = true};
	struct hwt_emu *emu = NULL;
	struct hwt_session *s = NULL;
	struct hwt_session_opts so;
	memset(&so, 0, sizeof(so));
	CHECK_INT(hwt_emu_new(&eo, &emu), 0);
	if (!emu)
		return;
	so.size = sizeof(so);
	so.os = hwt_emu_os(emu);
	so.aux = true;
	so.aux_attr.type = PT_TYPE;
	so.aux_attr.size = sizeof(so.aux_attr);
	so.cpus = cpus;
	so.ncpus = 1;
	so.pid = -1;
	so.data_pages = 4;
	so.aux_pages = 4;
	so.backend = hwt_backend_find("intel_pt");
	so.sink = (struct hwt_capture_sink){NULL, hwt_test_discard_record,
					    hwt_test_discard_aux};
	memset(stream, 0x5a, sizeof(stream));
	CHECK_INT(hwt_emu_stream_aux(emu, 0, stream, sizeof(stream), 1), 0);
	CHECK_INT(hwt_session_new(&so, &s), 0);
	CHECK_INT(hwt_session_open(s), 0);
	/* Until the trace unit has written it all (at most ~5 s). */
	struct hwt_emu_stats st;
	for (int i = 0; i < 500; i++) {
		CHECK(hwt_session_poll(s, 10, NULL, 0) >= 0);
		if (hwt_emu_stream_stats(emu, 0, &st) == 0 && st.finished)
			break;
	}
	CHECK_INT(hwt_session_stop(s), 0);

	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	CHECK(f != NULL);
	if (f) {
		CHECK_INT(hwt_record_print_session_stats(f, "rec", s, emu), 0);
		fclose(f);
		CHECK_CONTAINS(buf, "rec: per CPU:\n  cpu 0: 8192 bytes captured in ");
		CHECK_CONTAINS(buf, ", 0 trace bytes dropped (of 8192 produced)\n");
		free(buf);
	}
	hwt_session_free(s);
	hwt_emu_free(emu);
}

/* What @print writes into a memory stream (freed by the caller). */
#define PRINTED(buf, call)                                                   \
	do {                                                                 \
		size_t len_ = 0;                                             \
		FILE *f_ = open_memstream(&(buf), &len_);                    \
		CHECK(f_ != NULL);                                           \
		if (f_) {                                                    \
			FILE *out = f_;                                      \
			call;                                                \
			fclose(f_);                                          \
		}                                                            \
	} while (0)

static void trigger_and_compression_lines(void)
{
	struct hwt_recorder_trigger_stats ts = {.entries = 41, .calls = 42,
						.fired = 43, .windows = 44};
	char *buf = NULL;
	PRINTED(buf, hwt_record_print_trigger_stats(out, "rec", "latency:f>2us", &ts));
	CHECK_STR(buf, "rec: trigger latency:f>2us: 41 entries, 42 calls "
		  "returned, 43 fired, in 44 windows\n");
	free(buf);
	buf = NULL;
	/* 1000 / 300 to three places; the trace too with aux. */
	PRINTED(buf, hwt_record_print_compression(out, "rec", false, 1000, 300));
	CHECK_STR(buf, "rec: compressed 1000 bytes of records to 300 (ratio 3.333)\n");
	free(buf);
	buf = NULL;
	PRINTED(buf, hwt_record_print_compression(out, "rec", true, 5, 8));
	CHECK_STR(buf, "rec: compressed 5 bytes of records and trace to 8 "
		  "(ratio 0.625)\n");
	free(buf);
	buf = NULL;
	/* Nothing written: a ratio of 0. */
	PRINTED(buf, hwt_record_print_compression(out, "rec", false, 0, 0));
	CHECK_STR(buf, "rec: compressed 0 bytes of records to 0 (ratio 0.000)\n");
	free(buf);
}

int main(void)
{
	RUN(trigger_and_compression_lines);
	RUN(full_trace_per_cpu);
	RUN(snapshots_per_thread);
	RUN(replay_losses);
	RUN(emulated_session_counts_the_bytes_given);
	return hwt_test_summary();
}
