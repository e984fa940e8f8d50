/* A cursor freed part way, at one job (the decode on a coroutine of the
 * caller's thread) and at two (the decode on a thread of its own), on the
 * ETE snapshot of testdata: every element pulled before the free is the
 * whole decode's at the same place, whether the free comes before the
 * first pull, inside the coroutine's first batch of elements, on its
 * edge, in a later one or after the end. Two cursors pulled in turn (two
 * coroutines) each give the whole decode. A decode that fails (the
 * snapshot's trace file gone after the capture was opened) gives the same
 * error, naming the file, at both job counts, and again on the next pull.
 * Run under ASan (HWT_SANITIZE), its leak check says every stop frees what
 * the decode held; the coroutine's stack is mapped, not allocated, so the
 * test itself checks that 32 cursors stopped part way leave the process
 * no larger by as much as one stack (at least 2 MiB: cursor_fiber.c).
 *
 * The positive control: both job counts give the same elements, more of
 * them than three of the coroutine's batches (the CLI's count of them is
 * test_cursor_matches_decode's). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hwtrace/capture.h"
#include "hwtrace/error.h"
#include "harness.h"

#define SNAP HWT_TESTDATA "/opencsd/ete_mem"
#define FIBER_BATCH 1024 /* core/pipeline/cursor.c */

struct elems {
	struct hwt_elem_record *v; /* text NULL: in texts[] */
	char **texts;
	size_t n;
};

static void add(struct elems *a, const struct hwt_elem_record *r)
{
	a->v = realloc(a->v, (a->n + 1) * sizeof(*a->v));
	a->texts = realloc(a->texts, (a->n + 1) * sizeof(*a->texts));
	if (!a->v || !a->texts)
		abort();
	a->v[a->n] = *r;
	a->v[a->n].text = NULL;
	a->texts[a->n] = r->text ? strdup(r->text) : NULL;
	a->n++;
}

static void drop(struct elems *a)
{
	for (size_t i = 0; i < a->n; i++)
		free(a->texts[i]);
	free(a->v);
	free(a->texts);
}

/* Warnings are not elements: with no callback a warning (such as the
 * isolated decoders' "the kernel refused the seccomp filter" under
 * qemu-user) would be one. They are shown. */
static void warn_to_stderr(void *arg, const char *message)
{
	(void)arg;
	fprintf(stderr, "warning: %s\n", message);
}

static struct hwt_cursor *cursor(struct hwt_capture *cap, unsigned jobs)
{
	struct hwt_cursor_opts o = {.size = sizeof(o), .jobs = jobs,
				    .warn = warn_to_stderr};
	struct hwt_cursor *cur = NULL;
	CHECK_INT(hwt_cursor_new(cap, &o, &cur), 0);
	return cur;
}

/* Whether @r is element @i of @all. */
static bool same_at(const struct elems *all, size_t i, const struct hwt_elem_record *r)
{
	if (i >= all->n)
		return false;
	struct hwt_elem_record c = *r;
	c.text = NULL;
	const char *t = all->texts[i];
	return !memcmp(&c, &all->v[i], sizeof(c)) &&
	       (r->text && t ? !strcmp(r->text, t) : r->text == t);
}

static void pull_all(struct hwt_capture *cap, unsigned jobs, struct elems *out)
{
	memset(out, 0, sizeof(*out));
	struct hwt_cursor *cur = cursor(cap, jobs);
	struct hwt_elem_record r[100];
	int64_t got;
	while ((got = hwt_cursor_next_batch(cur, r, 100)) > 0)
		for (int64_t i = 0; i < got; i++)
			add(out, &r[i]);
	CHECK_INT((int)got, 0);
	hwt_cursor_free(cur);
}

/* Pulls @k elements one at a time, each checked against @all, then frees
 * the cursor. */
static void stop_after(struct hwt_capture *cap, unsigned jobs, size_t k,
		       const struct elems *all)
{
	struct hwt_cursor *cur = cursor(cap, jobs);
	struct hwt_elem e;
	struct hwt_elem_record r;
	size_t i = 0, bad = 0;
	for (; i < k && hwt_cursor_next(cur, &e) > 0; i++) {
		hwt_elem_record_from_elem(&r, &e);
		bad += !same_at(all, i, &r);
	}
	if (bad || i != k)
		fprintf(stderr, "-j %u, stop after %zu: pulled %zu, %zu unlike the "
			"whole decode's\n", jobs, k, i, bad);
	CHECK_U64(i, k);
	CHECK_U64(bad, 0);
	hwt_cursor_free(cur);
}

/* The process's mapped size, in KiB (/proc/self/status VmSize). */
static long vm_kib(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	long kib = -1;
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "VmSize:", 7))
			kib = strtol(line + 7, NULL, 10);
	if (f)
		fclose(f);
	return kib;
}

/* 32 cursors of one job, each freed in its second batch: the stacks of
 * their coroutines are unmapped. */
static void stacks_unmapped(struct hwt_capture *cap, const struct elems *all)
{
	stop_after(cap, 1, FIBER_BATCH + 500, all); /* the allocator warmed */
	long before = vm_kib();
	for (int i = 0; i < 32; i++)
		stop_after(cap, 1, FIBER_BATCH + 500, all);
	long grown = vm_kib() - before;
	if (grown >= 2048)
		fprintf(stderr, "32 cursors freed part way: %ld KiB more mapped\n",
			grown);
	CHECK(before > 0);
	CHECK(grown < 2048);
}

/* Two cursors of one job, pulled in turns of 700 elements. */
static void in_turns(struct hwt_capture *cap, const struct elems *all)
{
	struct hwt_cursor *cur[2] = {cursor(cap, 1), cursor(cap, 1)};
	size_t n[2] = {0, 0}, bad = 0;
	struct hwt_elem_record r[700];
	for (bool more = true; more;) {
		more = false;
		for (int c = 0; c < 2; c++) {
			int64_t got = hwt_cursor_next_batch(cur[c], r, 700);
			CHECK(got >= 0);
			for (int64_t i = 0; i < got; i++)
				bad += !same_at(all, n[c]++, &r[i]);
			more |= got > 0;
		}
	}
	CHECK_U64(n[0], all->n);
	CHECK_U64(n[1], all->n);
	CHECK_U64(bad, 0);
	hwt_cursor_free(cur[0]);
	hwt_cursor_free(cur[1]);
}

/* The snapshot copied into a directory of its own, @trace its trace file. */
static void copy_snapshot(char *dir, char *trace, size_t size)
{
	char cmd[1024];
	CHECK(mkdtemp(dir) != NULL);
	snprintf(cmd, sizeof(cmd), "cp -r '%s'/. '%s'", SNAP, dir);
	CHECK_INT(system(cmd), 0);
	snprintf(trace, size, "%s/session1.bin", dir);
}

/* The error of a decode whose trace file is gone, at @jobs: the first
 * pull's, which the next pull repeats. */
static int gone_error(struct hwt_capture *cap, unsigned jobs, char *msg, size_t size)
{
	struct hwt_cursor *cur = cursor(cap, jobs);
	struct hwt_elem e;
	int rc = hwt_cursor_next(cur, &e);
	snprintf(msg, size, "%s", hwt_errmsg());
	CHECK_INT(hwt_cursor_next(cur, &e), rc);
	CHECK_STR(hwt_errmsg(), msg);
	hwt_cursor_free(cur);
	return rc;
}

int main(void)
{
	struct hwt_capture *cap;
	CHECK_INT(hwt_capture_open_snapshot(SNAP, NULL, &cap), 0);

	struct elems one, two;
	pull_all(cap, 1, &one);
	pull_all(cap, 2, &two);
	CHECK(one.n > 3 * FIBER_BATCH);
	CHECK_U64(one.n, two.n);
	size_t bad = 0;
	for (size_t i = 0; i < one.n && i < two.n; i++) {
		struct hwt_elem_record r = two.v[i];
		r.text = two.texts[i];
		bad += !same_at(&one, i, &r);
	}
	CHECK_U64(bad, 0);

	const size_t stops[] = {0, 1, FIBER_BATCH - 1, FIBER_BATCH, FIBER_BATCH + 1,
				2 * FIBER_BATCH + 500, one.n - 1, one.n};
	for (size_t s = 0; s < sizeof(stops) / sizeof(stops[0]); s++) {
		stop_after(cap, 1, stops[s], &one);
		stop_after(cap, 2, stops[s], &one);
	}
	/* A cursor made and freed, never pulled. */
	hwt_cursor_free(cursor(cap, 1));
	in_turns(cap, &one);
	stacks_unmapped(cap, &one);
	hwt_capture_free(cap);

	char dir[] = "/tmp/hwt-cursor-free-XXXXXX", trace[512], cmd[1100];
	copy_snapshot(dir, trace, sizeof(trace));
	CHECK_INT(hwt_capture_open_snapshot(dir, NULL, &cap), 0);
	CHECK_INT(unlink(trace), 0);
	char msg1[512], msg2[512];
	int rc1 = gone_error(cap, 1, msg1, sizeof(msg1));
	int rc2 = gone_error(cap, 2, msg2, sizeof(msg2));
	CHECK(rc1 < 0);
	CHECK_INT(rc1, rc2);
	CHECK_STR(msg1, msg2);
	CHECK_CONTAINS(msg1, trace);
	hwt_capture_free(cap);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	CHECK_INT(system(cmd), 0);

	drop(&one);
	drop(&two);
	return hwt_test_summary();
}
