/* Spill files in $TMPDIR (hwtrace/spill.h). */
#define _GNU_SOURCE
#include <fcntl.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hwtrace/error.h"
#include "hwtrace/spill.h"

const char *hwt_spill_dir(void)
{
	const char *dir = getenv("TMPDIR");
	return dir && *dir ? dir : "/tmp";
}

int hwt_spill_open(const char *what, FILE **out)
{
	const char *dir = hwt_spill_dir();
	char path[4096];
	*out = NULL;
	if ((size_t)snprintf(path, sizeof(path), "%s/hwtrace-spill.XXXXXX",
			     dir) >= sizeof(path))
		return hwt_error(HWT_ERR_IO, "cannot create a temporary file for "
				 "%s: TMPDIR %s is too long", what, dir);
	int fd = mkostemp(path, O_CLOEXEC);
	if (fd < 0)
		return hwt_error(HWT_ERR_IO, "cannot create a temporary file for "
				 "%s in %s (%s): set TMPDIR to a writable "
				 "directory with room", what, dir, strerror(errno));
	/* Nameless from here on: nothing to clean up on any exit. */
	unlink(path);
	*out = fdopen(fd, "w+");
	if (!*out) {
		close(fd);
		return hwt_error(HWT_ERR_NOMEM, "out of memory for a temporary "
				 "file for %s", what);
	}
	return 0;
}
