/* What a CLI fuzz target needs besides the subcommand it includes: the
 * helpers tools/main.c provides, quiet, and the input as a file path. */
#ifndef HWT_FUZZ_CLI_COMMON_H
#define HWT_FUZZ_CLI_COMMON_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "hwtrace/error.h"

#include "../../tools/cli_safe.c"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int cli_report(int err)
{
	(void)hwt_errstr(err);
	return EXIT_RUNTIME;
}

/* Quiet, but each message still goes through the terminal sanitiser. */
void cli_message(const char *prefix, const char *message)
{
	char buf[256];
	(void)prefix;
	(void)cli_safe(message, buf, sizeof(buf));
}

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
	return EXIT_USAGE;
}

int cli_wants_help(int argc, char **argv)
{
	return 0;
}

/* tools/cli_output.c's, quiet: a stream that failed is a runtime error. */
int cli_stream_close(const char *cmd, FILE *f, const char *path)
{
	(void)cmd;
	(void)path;
	int bad = ferror(f) | fflush(f);
	if (f != stdout && fclose(f))
		bad = 1;
	return bad ? EXIT_RUNTIME : 0;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	/* The subcommands print a lot; the fuzzer's own output is stderr. */
	if (!freopen("/dev/null", "w", stdout))
		return 1;
	return 0;
}

/* Writes the input to an in-memory file and runs @cmd on its path with
 * @opt (or no option). */
static void run_on(int (*cmd)(int, char **), const char *name,
		   const char *opt, const uint8_t *data, size_t size)
{
	char path[64], *argv[4];
	int argc = 0, fd = memfd_create("input", MFD_CLOEXEC);

	if (fd < 0)
		return;
	if (write(fd, data, size) == (ssize_t)size) {
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		argv[argc++] = (char *)name;
		if (opt)
			argv[argc++] = (char *)opt;
		argv[argc++] = path;
		argv[argc] = NULL;
		cmd(argc, argv);
		fflush(stdout);
	}
	close(fd);
}

#endif
