/* hwt_pd_writer_set_cmdline: the cmdline feature as perf record writes
 * it, the program's name and its arguments joined by NULs. */
#include <stdlib.h>
#include <string.h>

#include "hwtrace/error.h"
#include "hwtrace/perfdata.h"

int hwt_pd_writer_set_cmdline(struct hwt_pd_writer *writer, const char *prog,
			      int argc, char *const *argv)
{
	size_t len = strlen(prog) + 1, at = 0;
	char *cmdline;
	int err;

	for (int i = 0; i < argc; i++)
		len += strlen(argv[i]) + 1;
	if (!(cmdline = malloc(len)))
		return hwt_error(HWT_ERR_NOMEM, "no memory for the command line");
	memcpy(cmdline, prog, strlen(prog) + 1);
	at = strlen(prog) + 1;
	for (int i = 0; i < argc; i++) {
		size_t n = strlen(argv[i]) + 1;
		memcpy(cmdline + at, argv[i], n);
		at += n;
	}
	err = hwt_pd_writer_set_feature(writer, HWT_PD_FEAT_CMDLINE, cmdline, at);
	free(cmdline);
	return err;
}
