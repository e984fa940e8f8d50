/* A raw trace is read through a bounded window (hwt_mapped_release): the
 * pages behind the decode leave the process's resident set, counted by
 * the kernel (/proc/self/statm's file-backed resident pages), and a page
 * read again after it was given back holds the file's bytes. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/decode/decode_internal.h"
#include "harness.h"

#define FILE_SIZE (8u * 1024 * 1024)
#define KEEP (256u * 1024)
#define STEP (1024u * 1024)

static char path[256];

/* Resident pages of the process backed by files (statm's third field). */
static long resident_file_pages(void)
{
	FILE *f = fopen("/proc/self/statm", "r");
	long size = 0, resident = 0, shared = -1;
	if (f) {
		if (fscanf(f, "%ld %ld %ld", &size, &resident, &shared) != 3)
			shared = -1;
		fclose(f);
	}
	return shared;
}

static uint8_t pattern(size_t i)
{
	return (uint8_t)(i * 7 + (i >> 12));
}

static int write_file(void)
{
	uint8_t *buf = malloc(FILE_SIZE);
	if (!buf)
		return -1;
	for (size_t i = 0; i < FILE_SIZE; i++)
		buf[i] = pattern(i);
	FILE *f = fopen(path, "wb");
	int ok = f && fwrite(buf, 1, FILE_SIZE, f) == FILE_SIZE;
	if (f && fclose(f))
		ok = 0;
	free(buf);
	return ok ? 0 : -1;
}

/* Reads every page of @m, summing a byte of each so the reads stay. */
static unsigned touch(const struct hwt_mapped *m, size_t page)
{
	unsigned sum = 0;
	for (size_t i = 0; i < m->size; i += page)
		sum += *(volatile const uint8_t *)(m->data + i);
	return sum;
}

static void gives_back_behind_the_decode(void)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	struct hwt_mapped m;
	CHECK_INT(hwt_mapped_open(&m, path, "trace file"), 0);
	CHECK_U64(m.size, FILE_SIZE);
	CHECK_U64(m.released, 0);
	touch(&m, page);
	long before = resident_file_pages();
	CHECK(before > 0);

	/* Less than a step past the margin: nothing is given back. */
	hwt_mapped_release(&m, KEEP + STEP - page);
	CHECK_U64(m.released, 0);
	/* A step: the pages before done less the margin. */
	hwt_mapped_release(&m, KEEP + STEP);
	CHECK_U64(m.released, STEP);
	/* Behind what was given back, and past the end: ignored. */
	hwt_mapped_release(&m, KEEP);
	CHECK_U64(m.released, STEP);
	hwt_mapped_release(&m, FILE_SIZE + 1);
	CHECK_U64(m.released, STEP);
	/* An offset inside a page rounds down to it. */
	hwt_mapped_release(&m, KEEP + 3 * STEP + page / 2);
	CHECK_U64(m.released, 3 * STEP);
	hwt_mapped_release(&m, FILE_SIZE);
	CHECK_U64(m.released, FILE_SIZE - KEEP);

	/* The kernel no longer counts them (less a little the test itself
	 * may map meanwhile, e.g. stdio's pages). */
	long after = resident_file_pages();
	long gone = (long)((FILE_SIZE - KEEP) / page);
	CHECK(before - after >= gone - 16);

	/* Read again, every byte is the file's. */
	size_t bad = 0;
	for (size_t i = 0; i < m.size; i++)
		bad += m.data[i] != pattern(i);
	CHECK_U64(bad, 0);
	CHECK(resident_file_pages() - after >= gone - 16);
	hwt_mapped_close(&m);
	CHECK_U64(m.released, 0);
}

int main(void)
{
	const char *dir = getenv("TMPDIR");
	snprintf(path, sizeof(path), "%s/hwt-window-%ld", dir ? dir : "/tmp",
		 (long)getpid());
	if (write_file() < 0) {
		HWT_FAIL("cannot write %s", path);
		unlink(path);
		return hwt_test_summary();
	}
	RUN(gives_back_behind_the_decode);
	unlink(path);
	return hwt_test_summary();
}
