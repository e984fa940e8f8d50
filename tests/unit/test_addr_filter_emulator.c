/* Address filters reach the kernel: the session sets them on every AUX
 * event with PERF_EVENT_IOC_SET_FILTER after opening it, and the emulated
 * kernel (the intel-client fixture: intel_pt with nr_addr_filters 2)
 * keeps them per event, refusing more ranges than the PMU has, and any on
 * an event of a PMU without address filters, as the kernel does. The
 * session explains the refusal. */
#include <errno.h>
#include <string.h>

#include "harness.h"
#include "discard_sink.h"
#include "hwtrace/backend.h"
#include "hwtrace/emulator.h"
#include "hwtrace/error.h"
#include "hwtrace/os.h"
#include "hwtrace/session.h"

#define FIXTURE HWT_SOURCE_DIR "/tests/fixtures/sysfs/intel-client"
#define PT_TYPE 6
#define TWO "filter 0x1139/0x4f@/usr/bin/prog,stop 0x2000@/usr/bin/prog"
#define THREE TWO ",start 0x10@/usr/lib/libc.so.6"

static void session_opts(struct hwt_session_opts *o, struct hwt_emu *emu,
			 const int *cpus, int ncpus, const char *filter)
{
	memset(o, 0, sizeof(*o));
	o->size = sizeof(*o);
	o->os = hwt_emu_os(emu);
	o->aux = true;
	o->sideband = true;
	o->aux_attr.type = PT_TYPE;
	o->aux_attr.size = sizeof(o->aux_attr);
	o->cpus = cpus;
	o->ncpus = ncpus;
	o->pid = -1;
	o->data_pages = 4;
	o->aux_pages = 4;
	o->aux_filter = filter;
	o->backend = hwt_backend_find("intel_pt");
	o->sink = (struct hwt_capture_sink){NULL, hwt_test_discard_record, hwt_test_discard_aux};
}

static struct hwt_emu *fixture_emu(void)
{
	struct hwt_emu_opts eo = {.size = sizeof(eo), .sysfs_root = FIXTURE};
	struct hwt_emu *emu = NULL;

	CHECK_INT(hwt_emu_new(&eo, &emu), 0);
	return emu;
}

static void every_aux_event_gets_the_filters(void)
{
	static const int cpus[] = {0, 2};
	struct hwt_session_opts o;
	struct hwt_session *s = NULL;
	struct hwt_emu *emu = fixture_emu();
	char buf[256];

	if (!emu)
		return;
	session_opts(&o, emu, cpus, 2, TWO);
	CHECK_INT(hwt_session_new(&o, &s), 0);
	CHECK_INT(hwt_session_open(s), 0);
	CHECK_INT(hwt_emu_event_filter(emu, 0, buf, sizeof(buf)), 0);
	CHECK_STR(buf, TWO);
	CHECK_INT(hwt_emu_event_filter(emu, 2, buf, sizeof(buf)), 0);
	CHECK_STR(buf, TWO);
	CHECK_INT(hwt_emu_event_filter(emu, 1, buf, sizeof(buf)), HWT_ERR_NOENT);
	hwt_session_stop(s);
	hwt_session_free(s);
	hwt_emu_free(emu);
}

static void no_filter_sets_none(void)
{
	static const int cpus[] = {0};
	struct hwt_session_opts o;
	struct hwt_session *s = NULL;
	struct hwt_emu *emu = fixture_emu();
	char buf[256] = "x";

	if (!emu)
		return;
	session_opts(&o, emu, cpus, 1, NULL);
	CHECK_INT(hwt_session_new(&o, &s), 0);
	CHECK_INT(hwt_session_open(s), 0);
	CHECK_INT(hwt_emu_event_filter(emu, 0, buf, sizeof(buf)), 0);
	CHECK_STR(buf, "");
	hwt_session_free(s);
	hwt_emu_free(emu);
}

static void more_ranges_than_the_pmu_has_are_refused(void)
{
	static const int cpus[] = {1};
	struct hwt_session_opts o;
	struct hwt_session *s = NULL;
	struct hwt_emu *emu = fixture_emu();

	if (!emu)
		return;
	session_opts(&o, emu, cpus, 1, THREE);
	CHECK_INT(hwt_session_new(&o, &s), 0);
	CHECK_INT(hwt_session_open(s), HWT_ERR_CONFIG);
	CHECK_STR(hwt_errmsg(),
		  "intel_pt on cpu 1 refused the address filters \"" THREE "\" "
		  "(EINVAL): the PMU cannot filter that (more ranges than its "
		  "nr_addr_filters, a range it cannot place, or a file not mapped "
		  "executable); check with hwtrace config check");
	hwt_session_free(s);
	hwt_emu_free(emu);
}

/* The dummy event's PMU has no address filters: EINVAL, as the kernel's
 * perf_event_set_filter answers for it. */
static void only_aux_events_take_filters(void)
{
	struct hwt_emu *emu = fixture_emu();
	const struct hwt_os *os;
	struct perf_event_attr a;
	char buf[64] = "x";
	int fd;

	if (!emu)
		return;
	os = hwt_emu_os(emu);
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_DUMMY;
	a.disabled = 1;
	fd = os->ops->perf_event_open(os->ctx, &a, -1, 0, -1, 0);
	CHECK(fd >= 0);
	CHECK_INT(os->ops->ioctl(os->ctx, fd, PERF_EVENT_IOC_SET_FILTER,
				 (unsigned long)"filter 0x10/0x10@/bin/ls"), -EINVAL);
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PT_TYPE;
	a.disabled = 1;
	fd = os->ops->perf_event_open(os->ctx, &a, 4321, -1, -1, 0);
	CHECK(fd >= 0);
	CHECK_INT(os->ops->ioctl(os->ctx, fd, PERF_EVENT_IOC_SET_FILTER,
				 (unsigned long)"start 0x10@/bin/ls"), 0);
	CHECK_INT(hwt_emu_event_filter(emu, -1, buf, sizeof(buf)), 0);
	CHECK_STR(buf, "start 0x10@/bin/ls");
	hwt_emu_free(emu);
}

/* A kernel whose PMU cannot filter by address at all (EOPNOTSUPP from
 * its addr_filters_validate): the emulator's table with that one answer
 * changed, every other call served by the emulator with its context. */
static const struct hwt_os *emulator_os;

static int refusing_ioctl(void *ctx, int fd, unsigned long request,
			  unsigned long arg)
{
	if (request == PERF_EVENT_IOC_SET_FILTER)
		return -EOPNOTSUPP;
	return emulator_os->ops->ioctl(ctx, fd, request, arg);
}

static void a_pmu_without_filtering_is_explained(void)
{
	static const int cpus[] = {3};
	struct hwt_os_ops ops;
	struct hwt_os os;
	struct hwt_session_opts o;
	struct hwt_session *s = NULL;
	struct hwt_emu *emu = fixture_emu();

	if (!emu)
		return;
	emulator_os = hwt_emu_os(emu);
	ops = *emulator_os->ops;
	ops.ioctl = refusing_ioctl;
	os.ops = &ops;
	os.ctx = emulator_os->ctx;
	session_opts(&o, emu, cpus, 1, "start 0x10@/bin/ls");
	o.os = &os;
	CHECK_INT(hwt_session_new(&o, &s), 0);
	CHECK_INT(hwt_session_open(s), HWT_ERR_NOSUP);
	CHECK_STR(hwt_errmsg(),
		  "intel_pt on cpu 3 does not support the address filters "
		  "\"start 0x10@/bin/ls\" (EOPNOTSUPP): this hardware cannot "
		  "filter by address, or not with these actions; remove the filter");
	hwt_session_free(s);
	hwt_emu_free(emu);
}

int main(void)
{
	RUN(every_aux_event_gets_the_filters);
	RUN(no_filter_sets_none);
	RUN(more_ranges_than_the_pmu_has_are_refused);
	RUN(only_aux_events_take_filters);
	RUN(a_pmu_without_filtering_is_explained);
	return hwt_test_summary();
}
