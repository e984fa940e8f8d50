/* hwt_decode_opts_paths_check and hwt_value_check_path under it (also
 * `record --sysfs`'s check): the paths a decode's options name are
 * refused, with the option and the path, when they are not there or not
 * of their kind; the messages are the ones `hwtrace decode` printed
 * before the check moved into the library ("hwtrace decode: --symfs
 * /nonexistent: the directory does not exist"). Positive control: paths
 * that are there pass, and options without paths pass. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "hwtrace/decode_input.h"
#include "hwtrace/error.h"
#include "hwtrace/value.h"

static char dir[] = "/tmp/hwt_paths_check_XXXXXX";
static char file[64];

static struct hwt_decode_opts opts_of(const char *symfs, const char *buildid,
				      const char *kcore, const char *vmlinux)
{
	struct hwt_decode_opts o;
	memset(&o, 0, sizeof(o));
	o.size = sizeof(o);
	o.lookup.size = sizeof(o.lookup);
	o.lookup.symfs = symfs;
	o.lookup.buildid_dir = buildid;
	o.kcore = kcore;
	o.lookup.vmlinux = vmlinux;
	return o;
}

static void check_refused(struct hwt_decode_opts o, const char *want)
{
	CHECK_INT(hwt_decode_opts_paths_check(&o), HWT_ERR_CONFIG);
	CHECK_STR(hwt_errmsg(), want);
}

static void test_paths(void)
{
	char want[256];
	struct hwt_decode_opts none = opts_of(NULL, NULL, NULL, NULL);
	CHECK_INT(hwt_decode_opts_paths_check(&none), 0);
	struct hwt_decode_opts good = opts_of(dir, dir, dir, file);
	CHECK_INT(hwt_decode_opts_paths_check(&good), 0);
	check_refused(opts_of("/nonexistent", NULL, NULL, NULL),
		      "--symfs /nonexistent: the directory does not exist");
	check_refused(opts_of(NULL, "/nonexistent/x", NULL, NULL),
		      "--buildid-dir /nonexistent/x: the directory does not "
		      "exist");
	snprintf(want, sizeof(want), "--kcore %s: not a directory", file);
	check_refused(opts_of(NULL, NULL, file, NULL), want);
	snprintf(want, sizeof(want), "--vmlinux %s: not a file", dir);
	check_refused(opts_of(NULL, NULL, NULL, dir), want);
	check_refused(opts_of(dir, NULL, NULL, "/nonexistent"),
		      "--vmlinux /nonexistent: the file does not exist");
	/* A path under a file: ENOTDIR, "does not exist" as for ENOENT. */
	snprintf(want, sizeof(want), "%s/x", file);
	char msg[512];
	snprintf(msg, sizeof(msg), "--symfs %s: the directory does not exist",
		 want);
	check_refused(opts_of(want, NULL, NULL, NULL), msg);
	/* The first refused in the order symfs, buildid-dir, kcore,
	 * vmlinux. */
	check_refused(opts_of("/nonexistent", NULL, NULL, "/nonexistent"),
		      "--symfs /nonexistent: the directory does not exist");
	CHECK_INT(hwt_decode_opts_paths_check(NULL), HWT_ERR_INVAL);
}

/* One path, as `record --sysfs DIR` checks it ("hwtrace record: --sysfs
 * /nonexistent: the directory does not exist" before the move). */
static void test_check_path(void)
{
	CHECK_INT(hwt_value_check_path("--sysfs", dir, true), 0);
	CHECK_INT(hwt_value_check_path("--vmlinux", file, false), 0);
	CHECK_INT(hwt_value_check_path("--sysfs", "/nonexistent", true),
		  HWT_ERR_CONFIG);
	CHECK_STR(hwt_errmsg(), "--sysfs /nonexistent: the directory does not "
		  "exist");
	CHECK_INT(hwt_value_check_path(NULL, dir, true), HWT_ERR_INVAL);
	CHECK_INT(hwt_value_check_path("--sysfs", NULL, true), HWT_ERR_INVAL);
}

int main(void)
{
	if (!mkdtemp(dir))
		return 1;
	snprintf(file, sizeof(file), "%s/vmlinux", dir);
	FILE *f = fopen(file, "w");
	if (!f)
		return 1;
	fclose(f);
	RUN(test_paths);
	RUN(test_check_path);
	unlink(file);
	rmdir(dir);
	return hwt_test_summary();
}
