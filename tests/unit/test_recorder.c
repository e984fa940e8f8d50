/* hwt_recorder: the AUXTRACE_INFO wrapper builds the record perf reads
 * (type 70, the backend's auxtrace type at offset 8, its priv[] from 16)
 * and refuses backends that cannot say it with a message naming them;
 * the loop ends on a stop asked from another thread, from a signal
 * handler, or before it starts; hwtrace record's signals reach it
 * through the library's stage callback. Sessions run on the emulated
 * kernel (the intel-client fixture), whose producer writes 1 KB/s of a
 * 1 MB stream: without a stop they would poll for about 17 minutes. */
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"
#include "discard_sink.h"
#include "hwtrace/emulator.h"
#include "hwtrace/error.h"
#include "hwtrace/record_console.h"
#include "hwtrace/recorder.h"

#define FIXTURE HWT_SOURCE_DIR "/tests/fixtures/sysfs/intel-client"
#define PT_TYPE 6

static char dir[64], path[128];
static uint8_t stream[1 << 20];
static struct hwt_recorder *signalled;

static int two_words(const struct hwt_os *os, const struct hwt_pmu *pmu,
		     const struct perf_event_attr *attr, const int *cpus,
		     int ncpus, bool snapshot,
		     const struct hwt_record_info_ctx *ctx, uint64_t *priv,
		     size_t max)
{
	(void)os, (void)pmu, (void)attr, (void)cpus, (void)ncpus, (void)ctx;
	if (max < 2)
		return HWT_ERR_INVAL;
	priv[0] = 0x1122334455667788ull;
	priv[1] = snapshot ? 1 : 2;
	return 2;
}

static const struct hwt_record_ops no_info_ops = {0};
static const struct hwt_record_ops two_word_ops = {.info = two_words};

struct rig {
	struct hwt_emu *emu;
	struct hwt_session_opts so;
	struct hwt_session *s;
	struct hwt_pd_writer *w;
	struct hwt_recorder *r;
};

static int rig_open(struct rig *g)
{
	static const int cpus[] = {0};
	struct hwt_emu_opts eo = {.size = sizeof(eo), .sysfs_root = FIXTURE,
				  .rate = 1000};
	struct hwt_recorder_opts ro = {.size = sizeof(ro), .poll_ms = 10};

	memset(g, 0, sizeof(*g));
	CHECK_INT(hwt_emu_new(&eo, &g->emu), 0);
	if (!g->emu)
		return -1;
	g->so.size = sizeof(g->so);
	g->so.os = hwt_emu_os(g->emu);
	g->so.aux = true;
	g->so.aux_attr.type = PT_TYPE;
	g->so.aux_attr.size = sizeof(g->so.aux_attr);
	g->so.cpus = cpus;
	g->so.ncpus = 1;
	g->so.pid = -1;
	g->so.data_pages = 4;
	g->so.aux_pages = 4;
	g->so.backend = hwt_backend_find("intel_pt");
	g->so.sink = (struct hwt_capture_sink){NULL, hwt_test_discard_record,
					       hwt_test_discard_aux};
	CHECK_INT(hwt_emu_stream_aux(g->emu, 0, stream, sizeof(stream), 1), 0);
	CHECK_INT(hwt_session_new(&g->so, &g->s), 0);
	CHECK_INT(hwt_session_open(g->s), 0);
	CHECK_INT(hwt_pd_writer_open(path, &g->w), 0);
	CHECK_INT(hwt_recorder_new(&ro, g->s, g->w, &g->r), 0);
	return g->r ? 0 : -1;
}

static void rig_close(struct rig *g)
{
	hwt_recorder_free(g->r);
	if (g->s)
		hwt_session_stop(g->s);
	hwt_session_free(g->s);
	hwt_pd_writer_discard(g->w);
	hwt_emu_free(g->emu);
	unlink(path);
}

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

static void info_record_and_refusals(void)
{
	struct hwt_backend none = {.name = "nothing", .auxtrace_type = 9};
	struct hwt_backend noinfo = {.name = "silent", .auxtrace_type = 9,
				     .record = &no_info_ops};
	struct hwt_backend two = {.name = "two", .auxtrace_type = 9,
				  .record = &two_word_ops};
	uint8_t rec[64], want[32] = {70, 0, 0, 0, 0, 0, 32, 0, 9, 0, 0, 0, 0, 0, 0, 0,
				     0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11,
				     2, 0, 0, 0, 0, 0, 0, 0};
	struct rig g;

	if (rig_open(&g))
		goto out;
	CHECK_INT(hwt_recorder_auxtrace_info(NULL, NULL, g.s, &g.so, rec,
					     sizeof(rec)), HWT_ERR_NOSUP);
	CHECK_CONTAINS(hwt_errmsg(), "backend ? cannot record");
	CHECK_INT(hwt_recorder_auxtrace_info(&none, NULL, g.s, &g.so, rec,
					     sizeof(rec)), HWT_ERR_NOSUP);
	CHECK_CONTAINS(hwt_errmsg(), "backend nothing cannot record");
	CHECK_INT(hwt_recorder_auxtrace_info(&noinfo, NULL, g.s, &g.so, rec,
					     sizeof(rec)), HWT_ERR_NOSUP);
	CHECK_CONTAINS(hwt_errmsg(), "backend silent cannot record: it has no "
		       "AUXTRACE_INFO writer");
	/* Positive control: the bytes of the record, exactly. */
	memset(rec, 0xff, sizeof(rec));
	CHECK_INT(hwt_recorder_auxtrace_info(&two, NULL, g.s, &g.so, rec,
					     sizeof(rec)), 32);
	CHECK(memcmp(rec, want, sizeof(want)) == 0);
	/* A buffer too small for it is refused, not overrun. */
	CHECK_INT(hwt_recorder_auxtrace_info(&two, NULL, g.s, &g.so, rec, 31),
		  HWT_ERR_INVAL);
	CHECK_CONTAINS(hwt_errmsg(), "does not fit");
out:
	rig_close(&g);
}

static void *stop_later(void *arg)
{
	usleep(150 * 1000);
	hwt_recorder_request_stop(arg);
	return NULL;
}

static void stop_from_another_thread(void)
{
	struct rig g;
	pthread_t t;
	long t0;

	if (rig_open(&g))
		goto out;
	CHECK(!hwt_recorder_stop_requested(g.r));
	t0 = now_ms();
	CHECK_INT(pthread_create(&t, NULL, stop_later, g.r), 0);
	CHECK_INT(hwt_recorder_run(g.r, NULL, NULL, NULL), 0);
	CHECK(now_ms() - t0 >= 150);
	pthread_join(t, NULL);
	CHECK(now_ms() - t0 < 5000);
	CHECK(hwt_recorder_stop_requested(g.r));
out:
	rig_close(&g);
}

static void on_alarm(int sig)
{
	(void)sig;
	hwt_recorder_request_stop(signalled);
}

static void stop_from_a_signal_handler(void)
{
	struct rig g;
	long t0;

	if (rig_open(&g))
		goto out;
	signalled = g.r;
	signal(SIGALRM, on_alarm);
	t0 = now_ms();
	alarm(1);
	CHECK_INT(hwt_recorder_run(g.r, NULL, NULL, NULL), 0);
	CHECK(now_ms() - t0 >= 900);
	CHECK(now_ms() - t0 < 6000);
	signal(SIGALRM, SIG_DFL);
out:
	rig_close(&g);
}

static void stop_before_run(void)
{
	struct rig g;
	long t0;

	if (rig_open(&g))
		goto out;
	hwt_recorder_request_stop(g.r);
	t0 = now_ms();
	CHECK_INT(hwt_recorder_run(g.r, NULL, NULL, NULL), 0);
	CHECK(now_ms() - t0 < 1000);
	/* The loop never polled: no round was written. */
	CHECK_INT((long long)hwt_pd_writer_data_size(g.w), 0);
out:
	rig_close(&g);
}

static void *terminate_later(void *arg)
{
	(void)arg;
	usleep(300000);
	kill(getpid(), SIGTERM);
	return NULL;
}

/* Runs @g's recorder, which a SIGTERM sent 300 ms on must end. */
static void run_until_terminated(struct rig *g)
{
	pthread_t t;
	CHECK_INT(pthread_create(&t, NULL, terminate_later, NULL), 0);
	long t0 = now_ms();
	CHECK_INT(hwt_recorder_run(g->r, NULL, NULL, NULL), 0);
	CHECK(now_ms() - t0 >= 250);
	CHECK(now_ms() - t0 < 6000);
	pthread_join(t, NULL);
}

static bool caught(int sig)
{
	struct sigaction sa;
	return sigaction(sig, NULL, &sa) == 0 && sa.sa_handler != SIG_DFL &&
	       sa.sa_handler != SIG_IGN;
}

/* hwtrace record's signals through the library (hwt_record_signals_on_stage,
 * hwtrace/record_console.h): caught from the OPENING stage (SIGUSR2 from
 * RUNNING), a SIGTERM during the poll ends it; a SIGHUP that comes before
 * the recorder exists is kept and ends the next one before it reads, and
 * only that one. */
static void signals_through_the_stages(void)
{
	struct rig g;
	long t0;

	signal(SIGUSR2, SIG_DFL);
	hwt_record_signals_on_stage(NULL, HWT_TRACE_STAGE_OPENING, NULL);
	CHECK(caught(SIGINT) && caught(SIGTERM) && caught(SIGHUP));
	CHECK(!caught(SIGUSR2));
	if (rig_open(&g))
		goto out;
	hwt_record_signals_on_stage(NULL, HWT_TRACE_STAGE_RECORDER, g.r);
	hwt_record_signals_on_stage(NULL, HWT_TRACE_STAGE_RUNNING, g.r);
	CHECK(caught(SIGUSR2));
	run_until_terminated(&g);
	hwt_record_signals_on_stage(NULL, HWT_TRACE_STAGE_DONE, NULL);
	rig_close(&g);

	/* No recorder attached: the request waits for the next one. */
	raise(SIGHUP);
	if (rig_open(&g))
		goto out;
	hwt_record_signals_on_stage(NULL, HWT_TRACE_STAGE_RECORDER, g.r);
	t0 = now_ms();
	CHECK_INT(hwt_recorder_run(g.r, NULL, NULL, NULL), 0);
	CHECK(now_ms() - t0 < 1000);
	CHECK_INT((long long)hwt_pd_writer_data_size(g.w), 0);
	hwt_record_signals_on_stage(NULL, HWT_TRACE_STAGE_DONE, NULL);
	rig_close(&g);

	/* That request was handed over once: the next recorder polls until
	 * a signal of its own. */
	if (rig_open(&g))
		goto out;
	hwt_record_signals_on_stage(NULL, HWT_TRACE_STAGE_RECORDER, g.r);
	run_until_terminated(&g);
	hwt_record_signals_on_stage(NULL, HWT_TRACE_STAGE_DONE, NULL);
out:
	rig_close(&g);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	signal(SIGUSR2, SIG_DFL);
}

int main(void)
{
	snprintf(dir, sizeof(dir), "/tmp/hwt-rec-XXXXXX");
	if (!mkdtemp(dir))
		return 1;
	snprintf(path, sizeof(path), "%s/out.data", dir);
	info_record_and_refusals();
	stop_from_another_thread();
	stop_from_a_signal_handler();
	stop_before_run();
	signals_through_the_stages();
	rmdir(dir);
	return hwt_test_summary();
}
