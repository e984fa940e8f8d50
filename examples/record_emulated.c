/* record_emulated: records a capture with the library's recorder, without
 * trace hardware, and reads it back.
 *
 * The kernel emulator (hwtrace/emulator.h) stands in for the kernel: its
 * fake intel_bts PMU "executes" a branch trace this program makes
 * (N branch records in the Intel BTS format, a loop of calls and returns).
 * hwt_record_setup turns the profile into session options, as `hwtrace
 * record -c intel_bts.ini` would (BTS follows threads: the session traces
 * this process); hwt_recorder writes the
 * header records and drains the rings into the perf.data file. The file is
 * then opened with hwt_capture, and a cursor counts its branches.
 *
 * Build against an installed libhwtrace and run it with a sysfs tree of a
 * machine that has intel_bts (the tests' tests/fixtures/sysfs/intel-client)
 * and the installed profile share/hwtrace/configs/intel_bts.ini:
 *   cc record_emulated.c -o record_emulated $(pkg-config --cflags --libs hwtrace)
 *   ./record_emulated SYSFS_TREE PROFILE OUT.data [N]
 * It prints "recorded N branches: B bytes of trace" and "decoded D
 * branches" (D is N), and exits 1 on an error. OUT.data is a perf.data file
 * that perf and `hwtrace decode` read. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <hwtrace/bts_format.h>
#include <hwtrace/capture.h>
#include <hwtrace/emulator.h>
#include <hwtrace/error.h>
#include <hwtrace/recorder.h>

/* @n branch records: a call from 0x401000 + 16k to 0x402000, and its
 * return, in turn. */
static struct hwt_bts_record *make_trace(size_t n)
{
	struct hwt_bts_record *v = calloc(n ? n : 1, sizeof(*v));
	for (size_t i = 0; v && i < n; i++) {
		uint64_t site = 0x401000 + 16 * (i / 2 % 64);
		v[i] = (i % 2 == 0)
			       ? (struct hwt_bts_record){site, 0x402000, 0}
			       : (struct hwt_bts_record){0x402010, site + 5, 0};
	}
	return v;
}

/* Records @trace through the emulator at @sysfs, with @profile's session,
 * into @path. */
static int record(const char *sysfs, const char *profile, const char *path,
		  const struct hwt_bts_record *trace, size_t n, uint64_t *bytes)
{
	struct hwt_emu_opts eo = {.size = sizeof(eo), .sysfs_root = sysfs,
				  .paced = true};
	struct hwt_recorder_opts ro = {.size = sizeof(ro), .poll_ms = 10};
	struct hwt_emu *emu = NULL;
	struct hwt_record_setup *rs = NULL;
	struct hwt_pd_writer *w = NULL;
	struct hwt_writer_sink *ws = NULL;
	struct hwt_session *s = NULL;
	struct hwt_recorder *r = NULL;
	struct hwt_capture_stats st;

	int err = hwt_emu_new(&eo, &emu);
	if (!err)
		err = hwt_record_setup_new(profile, NULL, NULL, hwt_emu_os(emu), emu,
					   &rs);
	/* What the traced thread runs: the trace unit writes these bytes
	 * once (-1: the per-thread event's stream). */
	if (!err)
		err = hwt_emu_stream_aux(emu, -1, trace, n * sizeof(*trace), 1);
	if (!err)
		err = hwt_pd_writer_open(path, &w);
	if (!err)
		err = hwt_writer_sink_new(w, false, &ws);
	if (!err)
		err = hwt_record_setup_session(rs, ws, &s);
	if (!err)
		err = hwt_recorder_new(&ro, s, w, &r);
	if (!err)
		err = hwt_recorder_write_header(r, hwt_record_setup_backend(rs),
						hwt_record_setup_pmu(rs),
						hwt_record_setup_session_opts(rs));
	/* Until the emulated trace ends (its events close). */
	if (!err)
		err = hwt_recorder_run(r, NULL, NULL, NULL);
	if (!err)
		err = hwt_session_stop(s);
	if (!err)
		err = hwt_session_stats(s, 0, &st);
	if (!err)
		*bytes = st.aux_bytes;
	if (!err) {
		err = hwt_pd_writer_close(w);
		w = NULL;
	}
	if (err)
		fprintf(stderr, "record_emulated: recording %s: %s\n", path,
			hwt_errmsg());
	hwt_recorder_free(r);
	hwt_session_free(s);
	hwt_pd_writer_discard(w); /* a file left half-written is removed */
	hwt_writer_sink_free(ws);
	hwt_record_setup_free(rs);
	hwt_emu_free(emu);
	return err;
}

/* The branches of the capture at @path, pulled one at a time. */
static int count_branches(const char *path, uint64_t *branches)
{
	struct hwt_capture *cap = NULL;
	struct hwt_cursor *cur = NULL;
	struct hwt_cursor_opts co = {.size = sizeof(co)};
	struct hwt_elem e;

	int err = hwt_capture_open(path, NULL, &cap);
	if (!err)
		err = hwt_cursor_new(cap, &co, &cur);
	int got = 0;
	while (!err && (got = hwt_cursor_next(cur, &e)) > 0)
		if (e.type == HWT_ELEM_BRANCH)
			(*branches)++;
	if (got < 0)
		err = got;
	if (err)
		fprintf(stderr, "record_emulated: reading %s: %s\n", path,
			hwt_errmsg());
	hwt_cursor_free(cur);
	hwt_capture_free(cap);
	return err;
}

int main(int argc, char **argv)
{
	if (argc < 4 || argc > 5) {
		fprintf(stderr, "usage: record_emulated SYSFS_TREE PROFILE OUT.data "
			"[N]\n");
		return 2;
	}
	char *end = NULL;
	errno = 0;
	unsigned long long n = argc == 5 ? strtoull(argv[4], &end, 10) : 1000;
	if (argc == 5 && (errno || !*argv[4] || *end || n == 0 || n > 1000000)) {
		fprintf(stderr, "record_emulated: N must be 1 to 1000000, not "
			"'%s'\n", argv[4]);
		return 2;
	}
	struct hwt_bts_record *trace = make_trace((size_t)n);
	if (!trace) {
		fprintf(stderr, "record_emulated: out of memory\n");
		return 1;
	}
	uint64_t bytes = 0, branches = 0;
	int err = record(argv[1], argv[2], argv[3], trace, (size_t)n, &bytes);
	free(trace);
	if (err)
		return 1;
	printf("recorded %llu branches: %" PRIu64 " bytes of trace\n", n, bytes);
	if (count_branches(argv[3], &branches))
		return 1;
	printf("decoded %" PRIu64 " branches\n", branches);
	return 0;
}
