/* What every subcommand does with its output: files named by -o are
 * checked and written through hwtrace/outfile.h (a temporary file renamed
 * into place when complete), and every write, flush and close is checked,
 * so a command whose output was lost says where and why and exits 1. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "cli.h"
#include "hwtrace/error.h"
#include "hwtrace/outfile.h"

/* Whether @path is the null device itself (not a link to it): text
 * written there is meant to be discarded, as when a decode is timed, so
 * it is written straight through; no other device is. */
static bool is_null_device(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0 && S_ISCHR(st.st_mode) &&
	       st.st_rdev == makedev(1, 3);
}

int cli_output_check(const char *cmd, const char *path,
		     const char *const *inputs, size_t ninputs)
{
	int err = hwt_outfile_check(path, inputs, ninputs);

	if (!err)
		return 0;
	if (err == HWT_ERR_CONFIG)
		return cli_usage_error(cmd, "-o: %s", hwt_errmsg());
	fprintf(stderr, "hwtrace %s: -o: %s\n", cmd, hwt_errmsg());
	return EXIT_RUNTIME;
}

int cli_write_failed(const char *cmd, const char *path, int err)
{
	fprintf(stderr, "hwtrace %s: writing %s failed: %s\n", cmd,
		path ? path : "standard output", strerror(err ? err : EIO));
	return EXIT_RUNTIME;
}

int cli_stream_close(const char *cmd, FILE *f, const char *path)
{
	int e = errno;
	int bad = ferror(f);

	/* A failed flush sets errno now; an earlier failed write left its
	 * errno behind, unless something succeeded since. */
	if (fflush(f)) {
		bad = 1;
		e = errno;
	}
	if (f == stdout) {
		if (bad)
			return cli_write_failed(cmd, path, e);
		return 0;
	}
	if (fclose(f) && !bad) {
		bad = 1;
		e = errno;
	}
	return bad ? cli_write_failed(cmd, path, e) : 0;
}

int cli_finish_stdout(const char *cmd, int status)
{
	/* A command that failed has said why (cli_stream_close included). */
	if (status != EXIT_OK)
		return status;
	int rc = cli_stream_close(cmd, stdout, NULL);
	if (!rc && fclose(stdout) && errno != EBADF)
		rc = cli_write_failed(cmd, NULL, errno);
	return rc;
}

int cli_output_open(const char *cmd, const char *path,
		    const char *const *inputs, size_t ninputs, FILE **out,
		    struct hwt_outfile **of)
{
	*out = stdout;
	*of = NULL;
	if (!path)
		return 0;
	if (is_null_device(path)) {
		*out = fopen(path, "w");
		return *out ? 0 : cli_write_failed(cmd, path, errno);
	}
	int rc = cli_output_check(cmd, path, inputs, ninputs);
	if (!rc && hwt_outfile_open(path, inputs, ninputs, 0666, of))
		rc = cli_report(HWT_ERR_IO);
	if (!rc && !(*out = fdopen(hwt_outfile_fd(*of), "w"))) {
		rc = cli_write_failed(cmd, path, errno);
		hwt_outfile_discard(*of);
	}
	if (rc) {
		*out = stdout;
		*of = NULL;
		return rc;
	}
	hwt_outfile_release_fd(*of);
	return 0;
}

int cli_output_close(const char *cmd, FILE *out, const char *path,
		     struct hwt_outfile *of, bool failed)
{
	int wrc = cli_stream_close(cmd, out, path), err;
	if (of) {
		if (wrc || failed)
			hwt_outfile_discard(of);
		else if ((err = hwt_outfile_commit(of)))
			wrc = cli_report_status(err);
	}
	return wrc;
}

void cli_jsonl_header(FILE *out, const char *listing, const char *version)
{
	fprintf(out, "{\"type\":\"header\",\"version\":%d,\"listing\":\"%s\","
		"\"producer\":\"hwtrace %s\"}\n", CLI_JSONL_VERSION, listing,
		version);
}
