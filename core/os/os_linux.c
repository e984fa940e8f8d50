/* The OS seam's default table: real system calls, files under a sysfs root. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "hwtrace/error.h"
#include "hwtrace/os.h"

struct linux_ctx {
	char sysfs_root[4096];
	char procfs_root[4096];
};

static int read_under(const char *root, const char *path, char *buf,
		      size_t size)
{
	char full[8192];
	ssize_t n;
	int fd;

	if (size == 0)
		return -EINVAL;
	snprintf(full, sizeof(full), "%s/%s", root, path);
	fd = open(full, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, size - 1);
	if (n < 0) {
		int err = -errno;
		close(fd);
		return err;
	}
	close(fd);
	buf[n] = '\0';
	return (int)n;
}

static int linux_sysfs_read(void *ctx, const char *path, char *buf,
			    size_t size)
{
	return read_under(((struct linux_ctx *)ctx)->sysfs_root, path, buf, size);
}

static int linux_procfs_read(void *ctx, const char *path, char *buf,
			     size_t size)
{
	return read_under(((struct linux_ctx *)ctx)->procfs_root, path, buf, size);
}

static int compare_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int linux_sysfs_list(void *ctx, const char *path, hwt_dir_cb cb,
			    void *arg)
{
	struct linux_ctx *lc = ctx;
	char full[8192];
	char **names = NULL;
	size_t count = 0, cap = 0;
	struct dirent *de;
	int ret = 0;
	DIR *dir;

	snprintf(full, sizeof(full), "%s/%s", lc->sysfs_root, path);
	dir = opendir(full);
	if (!dir)
		return -errno;
	while ((de = readdir(dir))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (count == cap) {
			size_t ncap = cap ? cap * 2 : 32;
			char **n = realloc(names, ncap * sizeof(*n));
			if (!n) {
				ret = -ENOMEM;
				break;
			}
			names = n;
			cap = ncap;
		}
		names[count] = strdup(de->d_name);
		if (!names[count]) {
			ret = -ENOMEM;
			break;
		}
		count++;
	}
	closedir(dir);
	if (ret == 0 && count)
		qsort(names, count, sizeof(*names), compare_names);
	for (size_t i = 0; i < count; i++) {
		if (ret == 0) {
			char entry[8192 + 256];
			struct stat st;
			/* sysfs links (cs_etm/cpu0 -> device) count as folders. */
			snprintf(entry, sizeof(entry), "%s/%s", full, names[i]);
			int is_dir = stat(entry, &st) == 0 && S_ISDIR(st.st_mode);
			ret = cb(arg, names[i], is_dir);
		}
		free(names[i]);
	}
	free(names);
	return ret;
}

static int linux_perf_event_open(void *ctx, struct perf_event_attr *attr,
				 int pid, int cpu, int group_fd,
				 unsigned long flags)
{
	long fd = syscall(SYS_perf_event_open, attr, pid, cpu, group_fd, flags);
	return fd < 0 ? -errno : (int)fd;
}

static int linux_mmap(void *ctx, int fd, size_t len, int prot,
		      uint64_t offset, void **addr)
{
	void *p = mmap(NULL, len, prot, MAP_SHARED, fd, (off_t)offset);
	if (p == MAP_FAILED)
		return -errno;
	*addr = p;
	return 0;
}

static int linux_munmap(void *ctx, void *addr, size_t len)
{
	return munmap(addr, len) ? -errno : 0;
}

static int linux_ioctl(void *ctx, int fd, unsigned long request,
		       unsigned long arg)
{
	int ret = ioctl(fd, request, arg);
	return ret < 0 ? -errno : ret;
}

static int linux_poll(void *ctx, struct pollfd *fds, unsigned int nfds,
		      int timeout_ms)
{
	int ret = poll(fds, nfds, timeout_ms);
	return ret < 0 ? -errno : ret;
}

static int linux_close(void *ctx, int fd)
{
	return close(fd) ? -errno : 0;
}

static const struct hwt_os_ops linux_ops = {
	.size = sizeof(struct hwt_os_ops),
	.sysfs_read = linux_sysfs_read,
	.procfs_read = linux_procfs_read,
	.sysfs_list = linux_sysfs_list,
	.perf_event_open = linux_perf_event_open,
	.mmap = linux_mmap,
	.munmap = linux_munmap,
	.ioctl = linux_ioctl,
	.poll = linux_poll,
	.close = linux_close,
};

static struct linux_ctx default_ctx = {"/sys", "/proc"};
static const struct hwt_os default_os = {&linux_ops, &default_ctx};

const struct hwt_os *hwt_os_linux(void)
{
	return &default_os;
}

struct hwt_os *hwt_os_linux_new(const char *sysfs_root)
{
	struct hwt_os *os = calloc(1, sizeof(*os));
	struct linux_ctx *ctx = calloc(1, sizeof(*ctx));

	if (!os || !ctx) {
		free(os);
		free(ctx);
		return NULL;
	}
	snprintf(ctx->sysfs_root, sizeof(ctx->sysfs_root), "%s", sysfs_root);
	snprintf(ctx->procfs_root, sizeof(ctx->procfs_root), "/proc");
	os->ops = &linux_ops;
	os->ctx = ctx;
	return os;
}

void hwt_os_free(struct hwt_os *os)
{
	if (!os)
		return;
	if (os->ctx != &default_ctx)
		free(os->ctx);
	free(os);
}
