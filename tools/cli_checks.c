/* Option values checked before anything runs, where a wrong one would
 * otherwise be taken without a word: an empty filter as no filter (the
 * paths are checked by the library, hwt_value_check_path). */
#include "cli.h"

int cli_filter_check(const char *cmd, const char *filter)
{
	if (filter && !*filter)
		return cli_usage_error(cmd, "--filter '': an empty filter (give "
				       "filter|start|stop|tracestop "
				       "SYM|ADDR[/SIZE] [@ FILE], or no --filter)");
	return 0;
}
