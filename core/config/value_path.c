/* A path an option names, checked before it is used
 * (hwt_value_check_path, hwtrace/value.h): a directory that is not there
 * would read as an empty one (a --symfs with nothing in it, a --sysfs
 * machine with no trace PMUs), without a word. */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "hwtrace/error.h"
#include "hwtrace/value.h"

int hwt_value_check_path(const char *option, const char *path, bool dir)
{
	struct stat st;
	if (!option || !path)
		return hwt_error(HWT_ERR_INVAL, "hwt_value_check_path: missing "
				 "argument");
	if (stat(path, &st)) {
		if (errno == ENOENT || errno == ENOTDIR)
			return hwt_error(HWT_ERR_CONFIG, "%s %s: the %s does not "
					 "exist", option, path,
					 dir ? "directory" : "file");
		return hwt_error(HWT_ERR_CONFIG, "%s %s: %s", option, path,
				 strerror(errno));
	}
	if (dir != !!S_ISDIR(st.st_mode))
		return hwt_error(HWT_ERR_CONFIG, "%s %s: not a %s", option, path,
				 dir ? "directory" : "file");
	return 0;
}
