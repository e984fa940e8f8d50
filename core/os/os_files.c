/* Small readers on top of the OS seam's file operations. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "hwtrace/error.h"
#include "hwtrace/os.h"

static int finish_read(int n, const char *root, const char *path, char *buf)
{
	if (n == -ENOENT || n == -ENOTDIR)
		return hwt_error(HWT_ERR_NOENT, "%s/%s does not exist", root, path);
	if (n == -EACCES || n == -EPERM)
		return hwt_error(HWT_ERR_PERM, "%s/%s: permission denied", root,
				 path);
	if (n < 0)
		return hwt_error(HWT_ERR_IO, "%s/%s: %s", root, path, strerror(-n));
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	return n;
}

int hwt_os_sysfs_read(const struct hwt_os *os, const char *path, char *buf,
		      size_t size)
{
	return finish_read(os->ops->sysfs_read(os->ctx, path, buf, size), "sysfs",
			   path, buf);
}

int hwt_os_procfs_read(const struct hwt_os *os, const char *path, char *buf,
		       size_t size)
{
	return finish_read(os->ops->procfs_read(os->ctx, path, buf, size),
			   "/proc", path, buf);
}

int hwt_os_sysfs_read_u64(const struct hwt_os *os, const char *path,
			  uint64_t *value)
{
	char buf[64], *end;
	int n = hwt_os_sysfs_read(os, path, buf, sizeof(buf));

	if (n < 0)
		return n;
	errno = 0;
	*value = strtoull(buf, &end, 0);
	if (errno || end == buf || *end != '\0')
		return hwt_error(HWT_ERR_FORMAT,
				 "sysfs/%s: expected a number, found \"%s\"", path,
				 buf);
	return 0;
}
