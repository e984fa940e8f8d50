/* Whether this machine's /proc/kallsyms describes a capture's kernel
 * (hwt_capture_host_kernel). */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>

#include "hwtrace/perfdata.h"
#include "hwtrace/symbols.h"

bool hwt_capture_host_kernel(const char *path, char *why, size_t size)
{
	struct hwt_pd_reader *r;
	struct utsname u;
	struct stat st;
	char host[256], rel[256];

	if (size)
		why[0] = '\0';
	if (!path)
		return true;
	/* Pipe-mode input (and anything else that is not a regular file) is
	 * read once, by the decode itself: where it was recorded cannot be
	 * known before its kernel addresses come. A path that cannot be
	 * looked at is left to the decode, which names the error. */
	bool piped = !strcmp(path, "-");
	if (!piped && stat(path, &st))
		return true;
	if (piped || !S_ISREG(st.st_mode)) {
		snprintf(why, size, "a machine this pipe does not name");
		return false;
	}
	/* Not a perf.data file (a raw stream): its user said where the code
	 * is. */
	if (hwt_pd_reader_open(path, &r))
		return true;
	bool named = !hwt_pd_reader_feature_string(r, HWT_PD_FEAT_HOSTNAME, host,
						   sizeof(host)) &&
		     !hwt_pd_reader_feature_string(r, HWT_PD_FEAT_OSRELEASE, rel,
						   sizeof(rel));
	hwt_pd_reader_free(r);
	/* A capture that does not say where it was recorded (simpleperf
	 * writes no hostname or osrelease) is not taken for this machine's:
	 * kernel names from the wrong kernel are worse than none. */
	if (!named) {
		snprintf(why, size, "a machine the file does not name (it has "
			 "no hostname or osrelease header)");
		return false;
	}
	if (uname(&u))
		return true;
	if (strcmp(host, u.nodename) || strcmp(rel, u.release)) {
		snprintf(why, size, "%s (kernel %s)", host, rel);
		return false;
	}
	return true;
}
