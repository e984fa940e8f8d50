/* What a path names when it is not a regular file, in the words the input
 * opener and the output rule both use in their messages. */
#ifndef HWT_OS_FILE_KIND_H
#define HWT_OS_FILE_KIND_H

#include <sys/stat.h>

static inline const char *hwt_os_file_kind(mode_t m)
{
	if (S_ISDIR(m))
		return "a directory";
	if (S_ISCHR(m))
		return "a character device";
	if (S_ISBLK(m))
		return "a block device";
	if (S_ISFIFO(m))
		return "a FIFO";
	if (S_ISSOCK(m))
		return "a socket";
	if (S_ISLNK(m))
		return "a symbolic link";
	return "not a regular file";
}

#endif
