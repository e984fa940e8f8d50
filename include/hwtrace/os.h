/* The OS seam: every system call and every /sys or /proc read that hwtrace
 * makes goes through one table of operations, so the same code runs against
 * the real kernel, against a fake sysfs tree (tests, `--sysfs DIR`) and
 * against the in-process kernel emulator (`--emulate`). */
#ifndef HWTRACE_OS_H
#define HWTRACE_OS_H

#include <poll.h>
#include <stdint.h>
#include <linux/perf_event.h>

#include "hwtrace/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Called once per directory entry by sysfs_list; a non-zero return stops the
 * listing and is returned by it. */
typedef int (*hwt_dir_cb)(void *arg, const char *name, int is_dir);

/* System calls return a non-negative result or a negative errno, so callers
 * can explain the kernel's refusal (EACCES, ENOMEM, ...). Paths are relative
 * to the sysfs root ("bus/event_source/devices") or to /proc ("sys/kernel/
 * perf_event_paranoid"). */
struct hwt_os_ops {
	size_t size; /* sizeof(struct hwt_os_ops), for growth */
	/* Reads up to @size - 1 bytes of a file and NUL-terminates them.
	 * Returns the number of bytes read or -errno. */
	int (*sysfs_read)(void *ctx, const char *path, char *buf, size_t size);
	int (*procfs_read)(void *ctx, const char *path, char *buf, size_t size);
	/* Lists a directory in name order, without "." and "..". */
	int (*sysfs_list)(void *ctx, const char *path, hwt_dir_cb cb, void *arg);
	int (*perf_event_open)(void *ctx, struct perf_event_attr *attr, int pid,
			       int cpu, int group_fd, unsigned long flags);
	/* Maps @len bytes of @fd at @offset, shared. On success stores the
	 * address in *addr and returns 0. */
	int (*mmap)(void *ctx, int fd, size_t len, int prot, uint64_t offset,
		    void **addr);
	int (*munmap)(void *ctx, void *addr, size_t len);
	int (*ioctl)(void *ctx, int fd, unsigned long request, unsigned long arg);
	int (*poll)(void *ctx, struct pollfd *fds, unsigned int nfds,
		    int timeout_ms);
	int (*close)(void *ctx, int fd);
	/* Optional: 1 while the event @fd is enabled, 0 once it was disabled
	 * (by PERF_EVENT_IOC_DISABLE or by the kernel itself, as on an AUX
	 * buffer with no room). NULL or -EOPNOTSUPP: the OS cannot tell; the
	 * Linux kernel has no such query, the kernel emulator answers. */
	int (*event_enabled)(void *ctx, int fd);
	/* Optional: why the last perf_event_open failed,
	 * when the OS can say more than its errno, as words for a message
	 * (NUL-terminated, at most @size bytes). Returns their length, or 0
	 * when there is nothing more to say. The Linux kernel says nothing
	 * (NULL); the kernel emulator names what it could not do, e.g. the
	 * cut of a replayed trace a pause or resume probe would need. */
	int (*open_refusal)(void *ctx, char *buf, size_t size);
};

/* An OS: a table and the context its operations receive. */
struct hwt_os {
	const struct hwt_os_ops *ops;
	void *ctx;
};

/* The real kernel with sysfs at /sys. Static; never freed. */
HWT_API const struct hwt_os *hwt_os_linux(void);

/* The real kernel with the sysfs root at @sysfs_root (a fixture tree laid
 * out like /sys). @sysfs_root is copied. Free with hwt_os_free.
 * Returns NULL on allocation failure. */
HWT_API struct hwt_os *hwt_os_linux_new(const char *sysfs_root);

/* Frees an OS made by hwt_os_linux_new; NULL is a no-op. */
HWT_API void hwt_os_free(struct hwt_os *os);

/* Convenience wrappers: read a sysfs file into @buf with the trailing newline
 * removed. Return the length, or a negative hwt_err (HWT_ERR_NOENT when the
 * file does not exist) with a message naming the path. */
HWT_API int hwt_os_sysfs_read(const struct hwt_os *os, const char *path,
			      char *buf, size_t size);
HWT_API int hwt_os_procfs_read(const struct hwt_os *os, const char *path,
			       char *buf, size_t size);

/* Reads a sysfs file holding one integer (decimal or 0x-hex). */
HWT_API int hwt_os_sysfs_read_u64(const struct hwt_os *os, const char *path,
				  uint64_t *value);

#ifdef __cplusplus
}
#endif

#endif
