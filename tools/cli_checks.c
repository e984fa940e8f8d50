/* Option values checked before anything runs, where a wrong one would
 * otherwise be taken without a word: a directory that is not there reads
 * as an empty one (or as a machine with no trace PMUs), an empty filter
 * as no filter. */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

int cli_path_check(const char *cmd, const char *opt, const char *path,
		   bool dir)
{
	struct stat st;
	if (stat(path, &st)) {
		if (errno == ENOENT || errno == ENOTDIR)
			return cli_usage_error(cmd, "%s %s: the %s does not exist",
					       opt, path, dir ? "directory" : "file");
		return cli_usage_error(cmd, "%s %s: %s", opt, path,
				       strerror(errno));
	}
	if (dir != !!S_ISDIR(st.st_mode))
		return cli_usage_error(cmd, "%s %s: not a %s", opt, path,
				       dir ? "directory" : "file");
	return 0;
}

int cli_filter_check(const char *cmd, const char *filter)
{
	if (filter && !*filter)
		return cli_usage_error(cmd, "--filter '': an empty filter (give "
				       "filter|start|stop|tracestop "
				       "SYM|ADDR[/SIZE] [@ FILE], or no --filter)");
	return 0;
}
