/* hwt_record_setup: an event string on the emulated intel-client machine
 * becomes a session that records a complete perf.data (the backend's
 * AUXTRACE_INFO, the trace bytes the emulated trace unit wrote, exactly);
 * a bad term, an absent PMU and a missing event are refused with the
 * library's messages. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "hwtrace/emulator.h"
#include "hwtrace/error.h"
#include "hwtrace/recorder.h"

#define FIXTURE HWT_SOURCE_DIR "/tests/fixtures/sysfs/intel-client"

static char dir[64], path[128];
static uint8_t stream[4096];

static struct hwt_emu *emulator(void)
{
	struct hwt_emu_opts eo = {.size = sizeof(eo), .sysfs_root = FIXTURE};
	struct hwt_emu *emu = NULL;

	CHECK_INT(hwt_emu_new(&eo, &emu), 0);
	return emu;
}

/* The file's AUXTRACE_INFO type and its trace bytes of @cpu. */
static void read_back(uint32_t *info_type, uint8_t *got, size_t max,
		      size_t *len)
{
	struct hwt_pd_reader *r;
	struct hwt_pd_record rec;

	*info_type = 0;
	*len = 0;
	CHECK_INT(hwt_pd_reader_open(path, &r), 0);
	if (!r)
		return;
	while (hwt_pd_reader_next(r, &rec) > 0) {
		if (rec.type == HWT_PD_RECORD_AUXTRACE_INFO)
			memcpy(info_type, (const uint8_t *)rec.data + 8, 4);
		if (rec.type == HWT_PD_RECORD_AUXTRACE && rec.aux.cpu == 0 &&
		    *len + rec.aux.size <= max) {
			memcpy(got + *len, rec.aux_data, rec.aux.size);
			*len += rec.aux.size;
		}
	}
	hwt_pd_reader_free(r);
}

static void records_a_complete_file(void)
{
	struct hwt_emu *emu = emulator();
	struct hwt_record_setup *rs = NULL;
	struct hwt_pd_writer *w = NULL;
	struct hwt_writer_sink *ws = NULL;
	struct hwt_session *s = NULL;
	struct hwt_recorder *r = NULL;
	struct hwt_recorder_opts ro = {.size = sizeof(ro), .poll_ms = 10};
	struct hwt_capture_stats st;
	static uint8_t got[sizeof(stream) * 2];
	const int *cpus = NULL;
	uint32_t info_type;
	size_t len;

	if (!emu)
		return;
	for (size_t i = 0; i < sizeof(stream); i++)
		stream[i] = (uint8_t)(i * 7 + 3);
	CHECK_INT(hwt_record_setup_new(NULL, "intel_pt//", "0", hwt_emu_os(emu),
				       emu, &rs), 0);
	if (!rs)
		goto out;
	CHECK_STR(hwt_record_setup_backend(rs)->name, "intel_pt");
	CHECK(hwt_record_setup_pmu(rs) != NULL);
	CHECK(!hwt_record_setup_snapshot(rs));
	CHECK_INT(hwt_record_setup_cpus(rs, &cpus), 1);
	CHECK(cpus && cpus[0] == 0);
	CHECK_INT(hwt_record_setup_session_opts(rs)->aux_attr.type, 6);
	CHECK_INT(hwt_emu_stream_aux(emu, 0, stream, sizeof(stream), 1), 0);
	CHECK_INT(hwt_pd_writer_open(path, &w), 0);
	CHECK_INT(hwt_writer_sink_new(w, false, &ws), 0);
	CHECK_INT(hwt_record_setup_session(rs, ws, &s), 0);
	if (!s)
		goto out;
	CHECK_INT(hwt_recorder_new(&ro, s, w, &r), 0);
	CHECK_INT(hwt_recorder_write_header(r, hwt_record_setup_backend(rs),
					    hwt_record_setup_pmu(rs),
					    hwt_record_setup_session_opts(rs)), 0);
	CHECK_INT(hwt_recorder_run(r, NULL, NULL, NULL), 0);
	CHECK_INT(hwt_session_stop(s), 0);
	CHECK_INT(hwt_session_stats(s, 0, &st), 0);
	CHECK_INT(st.cpu, 0);
	CHECK_INT((long long)st.aux_bytes, (long long)sizeof(stream));
	CHECK_INT(hwt_pd_writer_close(w), 0);
	w = NULL;
	read_back(&info_type, got, sizeof(got), &len);
	CHECK_INT(info_type, 1); /* PERF_AUXTRACE_INTEL_PT */
	CHECK_INT((long long)len, (long long)sizeof(stream));
	CHECK(memcmp(got, stream, sizeof(stream)) == 0);
out:
	hwt_recorder_free(r);
	hwt_session_free(s);
	hwt_pd_writer_discard(w);
	hwt_writer_sink_free(ws);
	hwt_record_setup_free(rs);
	hwt_emu_free(emu);
	unlink(path);
}

static void refusals(void)
{
	struct hwt_emu *emu = emulator();
	struct hwt_record_setup *rs = (void *)1;
	const int *cpus = NULL;
	int n;

	if (!emu)
		return;
	CHECK_INT(hwt_record_setup_new(NULL, "intel_pt/nosuchterm/", NULL,
				       hwt_emu_os(emu), emu, &rs), HWT_ERR_CONFIG);
	CHECK(rs == NULL);
	CHECK_CONTAINS(hwt_errmsg(), "nosuchterm");
	CHECK_INT(hwt_record_setup_new(NULL, "cs_etm//", NULL, hwt_emu_os(emu),
				       emu, &rs), HWT_ERR_NOENT);
	CHECK_CONTAINS(hwt_errmsg(), "cs_etm");
	CHECK_INT(hwt_record_setup_new(NULL, NULL, NULL, hwt_emu_os(emu), emu,
				       &rs), HWT_ERR_CONFIG);
	CHECK_CONTAINS(hwt_errmsg(), "which trace?");
	CHECK_INT(hwt_record_setup_new(NULL, "intel_pt//", NULL, NULL, emu, &rs),
		  HWT_ERR_INVAL);
	/* Positive control: without a CPU list, the fixture machine's four
	 * (its PMU's cpumask, 0-3). */
	CHECK_INT(hwt_record_setup_new(NULL, "intel_pt//", NULL, hwt_emu_os(emu),
				       emu, &rs), 0);
	n = hwt_record_setup_cpus(rs, &cpus);
	CHECK_INT(n, 4);
	CHECK(n == 4 && cpus[0] == 0 && cpus[1] == 1 && cpus[2] == 2 &&
	      cpus[3] == 3);
	hwt_record_setup_free(rs);
	hwt_record_setup_free(NULL);
	hwt_emu_free(emu);
}

int main(void)
{
	snprintf(dir, sizeof(dir), "/tmp/hwt-rsetup-XXXXXX");
	if (!mkdtemp(dir))
		return 1;
	snprintf(path, sizeof(path), "%s/out.data", dir);
	records_a_complete_file();
	refusals();
	rmdir(dir);
	return hwt_test_summary();
}
