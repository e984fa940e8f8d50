/* The emulator's uprobes and the kernel's AUX pause/resume on a BTS
 * stream built here by hand: FUNC at 0x400100 of a file mapped at
 * 0x400000 (offset 0x100) is called twice, from 0x400060 and 0x400090.
 * With the AUX event opened aux_start_paused, an entry probe with
 * aux_resume and a return probe with aux_pause, the AUX buffer must hold
 * exactly: trace begin at FUNC, the two records inside the first call
 * (its ret included), trace end at the return site, and the same for the
 * second call; the five records outside the calls are paused bytes,
 * never written. The probes' four samples go into the AUX event's data
 * ring with FUNC's address and the return sites as their ip. */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "hwtrace/auxaction.h"
#include "hwtrace/bts_format.h"
#include "hwtrace/emulator.h"
#include "hwtrace/error.h"

#define BTS_TYPE 9
#define PT_TYPE 8
#define PAGE 4096
#define DATA_PAGES 8
#define AUX_PAGES 4
static const char path[] = "/emulated/probe_target";

static const struct hwt_bts_record stream[] = {
	{0x400010, 0x400050, 0}, /* outside */
	{0x400060, 0x400100, 0}, /* call FUNC (returns to 0x400065) */
	{0x400108, 0x400120, 0}, /* inside */
	{0x400130, 0x400065, 0}, /* ret */
	{0x400070, 0x400080, 0}, /* outside */
	{0x400090, 0x400100, 0}, /* call FUNC (returns to 0x400095) */
	{0x400104, 0x400140, 0}, /* inside */
	{0x400150, 0x400095, 0}, /* ret */
	{0x4000a0, 0x4000b0, 0}, /* outside */
};
static const struct hwt_bts_record want[] = {
	{0, 0x400100, 0},        {0x400108, 0x400120, 0}, {0x400130, 0x400065, 0},
	{0x400065, 0, 0},        {0, 0x400100, 0},        {0x400104, 0x400140, 0},
	{0x400150, 0x400095, 0}, {0x400095, 0, 0},
};
static uint8_t bytes[sizeof(stream) / sizeof(stream[0])][HWT_BTS_RECORD_SIZE];

static void mmap2_record(uint8_t *rec, size_t *len)
{
	struct perf_event_header h = {PERF_RECORD_MMAP2, 0, 0};
	uint64_t addr = 0x400000, size = 0x1000, pgoff = 0;

	memset(rec, 0, 128);
	memcpy(rec + 16, &addr, 8);
	memcpy(rec + 24, &size, 8);
	memcpy(rec + 32, &pgoff, 8);
	memcpy(rec + 72, path, sizeof(path));
	*len = (72 + sizeof(path) + 7) & ~(size_t)7;
	h.size = (uint16_t)*len;
	memcpy(rec, &h, sizeof(h));
}

static void probe_attr(struct perf_event_attr *a, bool at_return, uint32_t action)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = HWT_EMU_UPROBE_TYPE;
	a->config = at_return ? HWT_UPROBE_RETPROBE : 0;
	a->config1 = (uint64_t)(uintptr_t)path;
	a->config2 = 0x100;
	a->sample_period = 1;
	a->sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP;
	hwt_attr_set_aux_action(a, action);
}

static struct hwt_emu *emulator(void)
{
	struct hwt_emu_opts o = {.size = sizeof(o), .paced = true};
	struct hwt_emu *emu = NULL;
	uint8_t rec[128];
	size_t len;

	CHECK_INT(hwt_emu_new(&o, &emu), 0);
	if (!emu)
		return NULL;
	CHECK_INT(hwt_emu_add_pmu(emu, "intel_bts", BTS_TYPE), 0);
	CHECK_INT(hwt_emu_add_pmu(emu, "intel_pt", PT_TYPE), 0);
	mmap2_record(rec, &len);
	CHECK_INT(hwt_emu_stream_record(emu, 0, rec), 0);
	for (size_t i = 0; i < sizeof(stream) / sizeof(stream[0]); i++) {
		hwt_bts_put_le64(bytes[i], stream[i].from);
		hwt_bts_put_le64(bytes[i] + 8, stream[i].to);
		hwt_bts_put_le64(bytes[i] + 16, stream[i].flags);
	}
	CHECK_INT(hwt_emu_stream_aux(emu, 0, bytes, sizeof(bytes), 1), 0);
	return emu;
}

static void wait_finished(struct hwt_emu *emu, struct hwt_emu_stats *st)
{
	for (int i = 0; i < 20000; i++) {
		hwt_emu_stream_stats(emu, 0, st);
		if (st->finished)
			return;
		usleep(500);
	}
	HWT_FAIL("the producer did not finish");
}

static void trace_only_inside_the_calls(void)
{
	struct hwt_emu *emu = emulator();
	if (!emu)
		return;
	const struct hwt_os *os = hwt_emu_os(emu);
	struct perf_event_attr a, entry, ret;
	struct hwt_emu_stats st;
	void *map = NULL, *aux = NULL;
	int fd, fe, fr;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = BTS_TYPE;
	a.disabled = 1;
	hwt_attr_set_aux_action(&a, HWT_AUX_START_PAUSED);
	fd = os->ops->perf_event_open(os->ctx, &a, -1, 0, -1, 0);
	CHECK(fd >= 0);
	CHECK_INT(os->ops->mmap(os->ctx, fd, (1 + DATA_PAGES) * PAGE, 3, 0, &map), 0);
	if (!map)
		return;
	struct perf_event_mmap_page *up = map;
	up->aux_offset = (1 + DATA_PAGES) * PAGE;
	up->aux_size = AUX_PAGES * PAGE;
	CHECK_INT(os->ops->mmap(os->ctx, fd, AUX_PAGES * PAGE, 3,
				(1 + DATA_PAGES) * PAGE, &aux), 0);
	probe_attr(&entry, false, HWT_AUX_RESUME);
	probe_attr(&ret, true, HWT_AUX_PAUSE);
	fe = os->ops->perf_event_open(os->ctx, &entry, -1, 0, fd, 0);
	fr = os->ops->perf_event_open(os->ctx, &ret, -1, 0, fd, 0);
	CHECK(fe >= 0 && fr >= 0);
	CHECK_INT(os->ops->ioctl(os->ctx, fe, PERF_EVENT_IOC_SET_OUTPUT, (unsigned long)fd), 0);
	CHECK_INT(os->ops->ioctl(os->ctx, fr, PERF_EVENT_IOC_SET_OUTPUT, (unsigned long)fd), 0);
	uint64_t ide = 0, idr = 0;
	CHECK_INT(os->ops->ioctl(os->ctx, fe, PERF_EVENT_IOC_ID, (unsigned long)&ide), 0);
	CHECK_INT(os->ops->ioctl(os->ctx, fr, PERF_EVENT_IOC_ID, (unsigned long)&idr), 0);
	CHECK_INT(os->ops->ioctl(os->ctx, fd, PERF_EVENT_IOC_ENABLE, 0), 0);
	wait_finished(emu, &st);

	/* The AUX buffer, record by record. */
	size_t nwant = sizeof(want) / sizeof(want[0]);
	CHECK_U64(up->aux_head, nwant * HWT_BTS_RECORD_SIZE);
	for (size_t i = 0; aux && i < nwant && i * HWT_BTS_RECORD_SIZE < up->aux_head; i++) {
		struct hwt_bts_record r;
		hwt_bts_record_read((const uint8_t *)aux + i * HWT_BTS_RECORD_SIZE, &r);
		CHECK_U64(r.from, want[i].from);
		CHECK_U64(r.to, want[i].to);
	}
	CHECK_U64(st.paused, 5 * HWT_BTS_RECORD_SIZE);
	CHECK_U64(st.written, 4 * HWT_BTS_RECORD_SIZE);
	CHECK_U64(st.dropped, 0);

	/* The samples in the data ring: {id, ip} after each header. */
	static const uint64_t ips[] = {0x400100, 0x400065, 0x400100, 0x400095};
	const uint8_t *data = (const uint8_t *)map + PAGE;
	size_t nsamples = 0;
	for (uint64_t at = 0; at + 8 <= up->data_head;) {
		struct perf_event_header h;
		memcpy(&h, data + at, sizeof(h));
		if (!h.size)
			break;
		if (h.type == PERF_RECORD_SAMPLE && nsamples < 4) {
			uint64_t id, ip;
			memcpy(&id, data + at + 8, 8);
			memcpy(&ip, data + at + 16, 8);
			CHECK_U64(id, nsamples % 2 ? idr : ide);
			CHECK_U64(ip, ips[nsamples]);
		}
		nsamples += h.type == PERF_RECORD_SAMPLE;
		at += h.size;
	}
	CHECK_INT(nsamples, 4);
	os->ops->close(os->ctx, fe);
	os->ops->close(os->ctx, fr);
	os->ops->close(os->ctx, fd);
	hwt_emu_free(emu);
}

/* Without a decoder the emulator cannot find calls in an Intel PT
 * stream: the probe is refused; and a probe needs an AUX group leader. */
static void probes_need_a_bts_leader(void)
{
	struct hwt_emu *emu = emulator();
	if (!emu)
		return;
	const struct hwt_os *os = hwt_emu_os(emu);
	struct perf_event_attr a, p;
	int fd;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PT_TYPE;
	a.disabled = 1;
	fd = os->ops->perf_event_open(os->ctx, &a, -1, 1, -1, 0);
	CHECK(fd >= 0);
	probe_attr(&p, false, HWT_AUX_RESUME);
	CHECK_INT(os->ops->perf_event_open(os->ctx, &p, -1, 1, fd, 0), -EOPNOTSUPP);
	CHECK_INT(os->ops->perf_event_open(os->ctx, &p, -1, 1, -1, 0), -EINVAL);
	os->ops->close(os->ctx, fd);
	hwt_emu_free(emu);
}

int main(void)
{
	RUN(trace_only_inside_the_calls);
	RUN(probes_need_a_bts_leader);
	return hwt_test_summary();
}
