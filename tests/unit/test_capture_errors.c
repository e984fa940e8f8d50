/* A refusal by the kernel is explained: which limit, its value, the fix.
 * The OS here is a stub that answers perf_event_open and mmap with a chosen
 * errno and /proc with known limits. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "hwtrace/error.h"
#include "hwtrace/session.h"

static int open_err, mmap_err;

static int stub_procfs(void *ctx, const char *path, char *buf, size_t size)
{
	if (!strcmp(path, "sys/kernel/perf_event_paranoid"))
		return snprintf(buf, size, "3\n");
	if (!strcmp(path, "sys/kernel/perf_event_mlock_kb"))
		return snprintf(buf, size, "516\n");
	return -ENOENT;
}

static int stub_open(void *ctx, struct perf_event_attr *attr, int pid,
		     int cpu, int group_fd, unsigned long flags)
{
	return open_err ? -open_err : 5;
}

static int stub_ioctl(void *ctx, int fd, unsigned long req, unsigned long arg)
{
	if (req == PERF_EVENT_IOC_ID)
		*(uint64_t *)arg = 77;
	return 0;
}

static int stub_mmap(void *ctx, int fd, size_t len, int prot, uint64_t off,
		     void **addr)
{
	return -mmap_err;
}

static int stub_close(void *ctx, int fd)
{
	return 0;
}

static const struct hwt_os_ops stub_ops = {
	.size = sizeof(struct hwt_os_ops),
	.procfs_read = stub_procfs,
	.perf_event_open = stub_open,
	.ioctl = stub_ioctl,
	.mmap = stub_mmap,
	.close = stub_close,
};
static const struct hwt_os stub_os = {&stub_ops, NULL};

static int try_open(int oerr, int merr)
{
	static const int cpus[] = {2};
	struct hwt_session_opts o;
	struct hwt_session *s = NULL;
	int ret;

	open_err = oerr;
	mmap_err = merr;
	memset(&o, 0, sizeof(o));
	o.size = sizeof(o);
	o.os = &stub_os;
	o.aux = true;
	o.aux_attr.type = 8;
	o.aux_attr.config = 0x2001;
	o.cpus = cpus;
	o.ncpus = 1;
	o.pid = -1;
	o.aux_pages = 2048;
	CHECK_INT(hwt_session_new(&o, &s), 0);
	ret = hwt_session_open(s);
	hwt_session_free(s);
	return ret;
}

static void test_eacces_names_perf_event_paranoid(void)
{
	CHECK_INT(try_open(EACCES, 0), HWT_ERR_PERM);
	CHECK_CONTAINS(hwt_errmsg(), "cpu 2");
	CHECK_CONTAINS(hwt_errmsg(), "perf_event_paranoid is 3");
	CHECK_CONTAINS(hwt_errmsg(), "sysctl kernel.perf_event_paranoid=-1");
	CHECK_INT(try_open(EPERM, 0), HWT_ERR_PERM);
	CHECK_CONTAINS(hwt_errmsg(), "CAP_PERFMON");
}

static void test_enomem_names_the_mlock_limits(void)
{
	CHECK_INT(try_open(0, ENOMEM), HWT_ERR_NOMEM);
	CHECK_CONTAINS(hwt_errmsg(), "mmap of the data ring");
	CHECK_CONTAINS(hwt_errmsg(), "perf_event_mlock_kb");
	CHECK_CONTAINS(hwt_errmsg(), "516 KiB");
	CHECK_CONTAINS(hwt_errmsg(), "RLIMIT_MEMLOCK");
	CHECK_CONTAINS(hwt_errmsg(), "ulimit -l");
	CHECK_CONTAINS(hwt_errmsg(), "-m DATA,AUX");
	/* perf_mmap() refuses an unprivileged user over the limit with
	 * EPERM: still the lock limits, not perf_event_paranoid. */
	CHECK_INT(try_open(0, EPERM), HWT_ERR_NOMEM);
	CHECK_CONTAINS(hwt_errmsg(), "perf_event_mlock_kb");
}

static void test_enoent_and_einval_name_the_pmu_and_terms(void)
{
	CHECK_INT(try_open(ENOENT, 0), HWT_ERR_NOENT);
	CHECK_CONTAINS(hwt_errmsg(), "PMU type 8 config 0x2001");
	CHECK_CONTAINS(hwt_errmsg(), "hwtrace list");
	CHECK_INT(try_open(EINVAL, 0), HWT_ERR_CONFIG);
	CHECK_CONTAINS(hwt_errmsg(), "config 0x2001");
	CHECK_CONTAINS(hwt_errmsg(), "format/ and caps/");
	CHECK_INT(try_open(EBUSY, 0), HWT_ERR_BUSY);
	CHECK_CONTAINS(hwt_errmsg(), "in use");
}

/* The real kernel, asked for a PMU type nobody registered, answers
 * ENOENT (perf_init_event): explained the same way. */
static void test_real_kernel_unknown_pmu(void)
{
	static const int cpus[] = {0};
	struct hwt_session_opts o;
	struct hwt_session *s = NULL;

	if (hwt_test_emulator()) {
		HWT_SKIP_PART("the real kernel's answer: run under %s, which has "
			      "no perf_event_open", hwt_test_emulator());
		return;
	}
	memset(&o, 0, sizeof(o));
	o.size = sizeof(o);
	o.aux = true;
	o.aux_attr.type = 0x7fff;
	o.aux_attr.size = sizeof(o.aux_attr);
	o.cpus = cpus;
	o.ncpus = 1;
	o.pid = -1;
	CHECK_INT(hwt_session_new(&o, &s), 0);
	CHECK_INT(hwt_session_open(s), HWT_ERR_NOENT);
	CHECK_CONTAINS(hwt_errmsg(), "PMU type 32767");
	hwt_session_free(s);
}

int main(void)
{
	RUN(test_eacces_names_perf_event_paranoid);
	RUN(test_enomem_names_the_mlock_limits);
	RUN(test_enoent_and_einval_name_the_pmu_and_terms);
	RUN(test_real_kernel_unknown_pmu);
	return hwt_test_summary();
}
