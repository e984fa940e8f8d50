/* The kernel's sideband for sw_branch, through the OS seam. */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "backends/sw-branch/swb_sideband.h"
#include "hwtrace/error.h"
#include "hwtrace/os.h"

#define DATA_PAGES 64

int hwt_swb_sideband_open(struct hwt_swb_sideband *sb, pid_t pid,
			  struct perf_event_attr *attr)
{
	const struct hwt_os *os = hwt_os_linux();
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
	int fd, err;

	memset(sb, 0, sizeof(*sb));
	sb->fd = -1;
	fd = os->ops->perf_event_open(os->ctx, attr, pid, -1, -1,
				      PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return hwt_error(fd == -EACCES || fd == -EPERM ? HWT_ERR_PERM
							       : HWT_ERR_IO,
				 "perf_event_open(dummy, pid %d): %s (see "
				 "/proc/sys/kernel/perf_event_paranoid)",
				 (int)pid, strerror(-fd));
	sb->fd = fd;
	sb->map_len = (size_t)((1 + DATA_PAGES) * page);
	err = os->ops->mmap(os->ctx, fd, sb->map_len, PROT_READ | PROT_WRITE, 0,
			    &sb->map);
	if (err < 0) {
		sb->map = NULL;
		hwt_swb_sideband_close(sb);
		return hwt_error(err == -EPERM ? HWT_ERR_PERM : HWT_ERR_IO,
				 "mapping the sideband ring of pid %d: %s "
				 "(see /proc/sys/kernel/perf_event_mlock_kb)",
				 (int)pid, strerror(-err));
	}
	err = os->ops->ioctl(os->ctx, fd, PERF_EVENT_IOC_ID,
			     (unsigned long)&sb->id);
	if (err < 0) {
		hwt_swb_sideband_close(sb);
		return hwt_error(HWT_ERR_IO, "PERF_EVENT_IOC_ID: %s",
				 strerror(-err));
	}
	err = hwt_ring_data_init(&sb->ring, sb->map, page, DATA_PAGES * page,
				 false);
	if (err) {
		hwt_swb_sideband_close(sb);
		return err;
	}
	return 0;
}

int hwt_swb_sideband_drain(struct hwt_swb_sideband *sb,
			   int (*cb)(void *arg, const struct perf_event_header *h),
			   void *arg)
{
	const struct perf_event_header *h;
	int err = 0, rerr = 0;

	if (!sb->map)
		return 0;
	hwt_ring_data_begin(&sb->ring);
	while (!err && (h = hwt_ring_data_next(&sb->ring, &rerr)))
		err = cb(arg, h);
	hwt_ring_data_end(&sb->ring);
	return err ? err : rerr;
}

void hwt_swb_sideband_close(struct hwt_swb_sideband *sb)
{
	const struct hwt_os *os = hwt_os_linux();

	if (sb->ring.bounce)
		hwt_ring_data_fini(&sb->ring);
	if (sb->map)
		os->ops->munmap(os->ctx, sb->map, sb->map_len);
	if (sb->fd >= 0)
		os->ops->close(os->ctx, sb->fd);
	sb->map = NULL;
	sb->fd = -1;
}
