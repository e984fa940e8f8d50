/* The data ring reader on hand-built rings laid out as the kernel lays
 * them out (Documentation/userspace-api/perf_ring_buffer.rst): forward
 * with a tail, a record straddling the end, corrupt headers, and a
 * backward (write_backward) ring. */
#include <stdlib.h>
#include <string.h>

#include "hwtrace/ring_data.h"
#include "harness.h"
#include "hwtrace/error.h"

#define PAGE 4096
#define DATA 4096

static uint8_t *ring_new(void)
{
	uint8_t *m = aligned_alloc(PAGE, PAGE + DATA);
	struct perf_event_mmap_page *up = (void *)m;

	memset(m, 0, PAGE + DATA);
	up->data_offset = PAGE;
	up->data_size = DATA;
	return m;
}

/* Writes a record of @size bytes (type @type, body bytes = @fill) at the
 * free-running position @pos, wrapping as the kernel does. */
static void put(uint8_t *m, uint64_t pos, uint16_t size, uint32_t type,
		uint8_t fill)
{
	uint8_t rec[512];
	struct perf_event_header h = {type, 0, size};

	memset(rec, fill, size);
	memcpy(rec, &h, sizeof(h));
	for (uint16_t i = 0; i < size; i++)
		m[PAGE + ((pos + i) & (DATA - 1))] = rec[i];
}

static void test_forward_records_and_tail(void)
{
	uint8_t *m = ring_new();
	struct perf_event_mmap_page *up = (void *)m;
	struct hwt_ring_data r;
	const struct perf_event_header *h;
	int err;

	put(m, 0, 16, 3, 0xa1);
	put(m, 16, 40, 10, 0xa2);
	up->data_head = 56;
	CHECK_INT(hwt_ring_data_init(&r, m, PAGE, 0, false), 0);
	CHECK_U64(hwt_ring_data_begin(&r), 56);
	h = hwt_ring_data_next(&r, &err);
	CHECK(h && h->type == 3 && h->size == 16);
	h = hwt_ring_data_next(&r, &err);
	CHECK(h && h->type == 10 && h->size == 40 && ((uint8_t *)h)[39] == 0xa2);
	CHECK(hwt_ring_data_next(&r, &err) == NULL);
	CHECK_INT(err, 0);
	hwt_ring_data_end(&r);
	CHECK_U64(up->data_tail, 56);
	hwt_ring_data_fini(&r);
	free(m);
}

/* A 48-byte record at 4072 has 24 bytes before the end and 24 after. */
static void test_record_straddling_the_end_is_copied_whole(void)
{
	uint8_t *m = ring_new();
	struct perf_event_mmap_page *up = (void *)m;
	struct hwt_ring_data r;
	const struct perf_event_header *h;
	int err;

	up->data_tail = 4072;
	put(m, 4072, 48, 7, 0x5c);
	put(m, 4120, 8, 9, 0);
	up->data_head = 4128;
	CHECK_INT(hwt_ring_data_init(&r, m, PAGE, 0, false), 0);
	CHECK_U64(hwt_ring_data_begin(&r), 56);
	h = hwt_ring_data_next(&r, &err);
	CHECK(h != NULL);
	if (h) {
		int bad = 0;
		CHECK_INT(h->type, 7);
		CHECK_INT(h->size, 48);
		CHECK((const uint8_t *)h < m || (const uint8_t *)h >= m + PAGE + DATA);
		for (int i = 8; i < 48; i++)
			bad += ((const uint8_t *)h)[i] != 0x5c;
		CHECK_INT(bad, 0);
	}
	h = hwt_ring_data_next(&r, &err);
	CHECK(h && h->type == 9 && h->size == 8);
	hwt_ring_data_end(&r);
	CHECK_U64(up->data_tail, 4128);
	hwt_ring_data_fini(&r);
	free(m);
}

static void test_corrupt_header_is_an_error_not_a_crash(void)
{
	uint8_t *m = ring_new();
	struct perf_event_mmap_page *up = (void *)m;
	struct hwt_ring_data r;
	int err;

	put(m, 0, 16, 3, 1);
	put(m, 16, 8, 3, 1);
	((struct perf_event_header *)(m + PAGE + 16))->size = 4; /* < 8 */
	up->data_head = 64;
	CHECK_INT(hwt_ring_data_init(&r, m, PAGE, 0, false), 0);
	hwt_ring_data_begin(&r);
	CHECK(hwt_ring_data_next(&r, &err) != NULL);
	CHECK(hwt_ring_data_next(&r, &err) == NULL);
	CHECK_INT(err, HWT_ERR_FORMAT);
	CHECK_CONTAINS(hwt_errmsg(), "ring offset 16");
	hwt_ring_data_end(&r);
	CHECK_U64(up->data_tail, 64); /* the rest is skipped, not re-read */
	/* A size running past data_head. */
	put(m, 64, 200, 3, 1);
	up->data_head = 64 + 100;
	hwt_ring_data_begin(&r);
	CHECK(hwt_ring_data_next(&r, &err) == NULL);
	CHECK_INT(err, HWT_ERR_FORMAT);
	hwt_ring_data_fini(&r);
	free(m);
}

/* write_backward: the kernel writes each record below the previous one,
 * data_head going down from 0. From the head up: newest first. */
static void test_backward_ring_reads_newest_first(void)
{
	uint8_t *m = ring_new();
	struct perf_event_mmap_page *up = (void *)m;
	struct hwt_ring_data r;
	const struct perf_event_header *h;
	uint64_t head = 0;
	int err, n = 0;
	uint8_t last_fill = 0;

	/* 100 records of 64 bytes: 6400 bytes into 4096, so only the newest
	 * 64 (4096 / 64) survive whole. */
	for (int i = 1; i <= 100; i++) {
		head -= 64;
		put(m, head, 64, 3, (uint8_t)i);
	}
	up->data_head = head;
	CHECK_INT(hwt_ring_data_init(&r, m, PAGE, 0, true), 0);
	CHECK_U64(hwt_ring_data_begin(&r), 4096);
	while ((h = hwt_ring_data_next(&r, &err))) {
		if (n == 0)
			CHECK_INT(((const uint8_t *)h)[8], 100);
		last_fill = ((const uint8_t *)h)[8];
		n++;
	}
	CHECK_INT(err, 0);
	CHECK_INT(n, 64);
	CHECK_INT(last_fill, 37);
	hwt_ring_data_end(&r);
	CHECK_U64(up->data_tail, 0); /* never written for a backward ring */
	hwt_ring_data_fini(&r);
	free(m);
}

/* A backward ring not yet full: a zero header ends the walk. */
static void test_backward_ring_partly_written(void)
{
	uint8_t *m = ring_new();
	struct perf_event_mmap_page *up = (void *)m;
	struct hwt_ring_data r;
	uint64_t head = 0;
	int err, n = 0;

	for (int i = 1; i <= 3; i++) {
		head -= 24;
		put(m, head, 24, 3, (uint8_t)i);
	}
	up->data_head = head;
	CHECK_INT(hwt_ring_data_init(&r, m, PAGE, 0, true), 0);
	CHECK_U64(hwt_ring_data_begin(&r), 72);
	while (hwt_ring_data_next(&r, &err))
		n++;
	CHECK_INT(n, 3);
	hwt_ring_data_fini(&r);
	free(m);
}

static void test_size_not_power_of_two_is_refused(void)
{
	uint8_t *m = ring_new();
	struct perf_event_mmap_page *up = (void *)m;
	struct hwt_ring_data r;

	up->data_size = 3 * 1024;
	CHECK_INT(hwt_ring_data_init(&r, m, PAGE, 0, false), HWT_ERR_INVAL);
	free(m);
}

int main(void)
{
	RUN(test_forward_records_and_tail);
	RUN(test_record_straddling_the_end_is_copied_whole);
	RUN(test_corrupt_header_is_an_error_not_a_crash);
	RUN(test_backward_ring_reads_newest_first);
	RUN(test_backward_ring_partly_written);
	RUN(test_size_not_power_of_two_is_refused);
	return hwt_test_summary();
}
