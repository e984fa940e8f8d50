/* Spill files are made in $TMPDIR (glibc's tmpfile() ignores it), are
 * nameless from the start, and a TMPDIR that cannot be written is named
 * in the error; the time-ordered merge spills there too. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "hwtrace/element.h"
#include "hwtrace/error.h"
#include "hwtrace/merge.h"
#include "hwtrace/spill.h"

static size_t entries(const char *dir)
{
	DIR *d = opendir(dir);
	size_t n = 0;
	if (!d)
		return (size_t)-1;
	for (struct dirent *e; (e = readdir(d));)
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(d);
	return n;
}

static void spill_file_is_in_tmpdir_and_nameless(void)
{
	char dir[] = "/tmp/hwt-spill-test.XXXXXX";
	CHECK(mkdtemp(dir) != NULL);
	setenv("TMPDIR", dir, 1);
	CHECK_STR(hwt_spill_dir(), dir);
	FILE *f = NULL;
	CHECK_INT(hwt_spill_open("a test", &f), 0);
	CHECK(f != NULL);
	if (!f)
		return;
	char link[64], target[4096] = "";
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fileno(f));
	ssize_t n = readlink(link, target, sizeof(target) - 1);
	CHECK(n > 0);
	target[n > 0 ? n : 0] = 0;
	char want[4200];
	snprintf(want, sizeof(want), "%s/hwtrace-spill.", dir);
	CHECK(!strncmp(target, want, strlen(want)));
	CHECK_CONTAINS(target, " (deleted)");
	CHECK_INT(entries(dir), 0);
	/* It is a working file all the same. */
	CHECK_INT(fputs("spilled", f) >= 0, 1);
	rewind(f);
	char back[16] = "";
	CHECK(fgets(back, sizeof(back), f) != NULL);
	CHECK_STR(back, "spilled");
	fclose(f);
	rmdir(dir);

	setenv("TMPDIR", "", 1);
	CHECK_STR(hwt_spill_dir(), "/tmp");
	unsetenv("TMPDIR");
	CHECK_STR(hwt_spill_dir(), "/tmp");
}

static void unwritable_tmpdir_is_named(void)
{
	setenv("TMPDIR", "/nonexistent/hwt-tmp", 1);
	FILE *f = NULL;
	CHECK_INT(hwt_spill_open("a test", &f), HWT_ERR_IO);
	CHECK(f == NULL);
	CHECK_CONTAINS(hwt_errmsg(), "temporary file for a test in "
		       "/nonexistent/hwt-tmp (No such file or directory): set "
		       "TMPDIR to a writable directory with room");
	unsetenv("TMPDIR");
}

static int drop(void *arg, const struct hwt_elem *e)
{
	(void)arg;
	(void)e;
	return 0;
}

/* Two CPUs' streams of 100,000 ranges: more than one chunk of the
 * first stream must wait for the second, in a spill file in TMPDIR. */
static void merge_spills_in_tmpdir(void)
{
	setenv("TMPDIR", "/nonexistent/hwt-tmp", 1);
	struct hwt_elem_sink out = {drop, NULL};
	struct hwt_merge *m;
	CHECK_INT(hwt_merge_new(&out, &m), 0);
	struct hwt_elem_sink in = hwt_merge_sink(m);
	int err = 0;
	for (int cpu = 1; cpu >= 0 && !err; cpu--)
		for (uint64_t i = 0; i < 100000 && !err; i++) {
			struct hwt_elem e;
			hwt_elem_clear(&e, HWT_ELEM_RANGE);
			e.fields |= HWT_FIELD_CPU | HWT_FIELD_TIME;
			e.cpu = cpu;
			e.time = 2 * i + (uint64_t)cpu + 1;
			e.u.range.start = i;
			e.u.range.end = i + 4;
			e.u.range.insns = 1;
			err = in.emit(in.arg, &e);
		}
	CHECK_INT(err, HWT_ERR_IO);
	CHECK_CONTAINS(hwt_errmsg(), "the time-ordered merge");
	CHECK_CONTAINS(hwt_errmsg(), "/nonexistent/hwt-tmp");
	hwt_merge_free(m);
	unsetenv("TMPDIR");
}

int main(void)
{
	RUN(spill_file_is_in_tmpdir_and_nameless);
	RUN(unwritable_tmpdir_is_named);
	RUN(merge_spills_in_tmpdir);
	return hwt_test_summary();
}
