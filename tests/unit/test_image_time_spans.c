/* The memory image over time, through its public API: a mapping over part
 * of another ends only the overlapped part, exec ends a process's
 * mappings, lookups see the sections of their time, untimed lookups see
 * the latest and are noted where the mapping changed, and a time at which
 * nothing was mapped falls back to the nearest mapping. */
#include <pthread.h>
#include <string.h>

#include "harness.h"
#include "hwtrace/image.h"

static const uint8_t A[16] = "AAAAAAAAAAAAAAAA";
static const uint8_t B[4] = "BBBB";
static const uint8_t K[8] = "KKKKKKKK";

/* The byte that @pid sees at @addr at @time, or '-' when none. */
static char at(struct hwt_image *img, int32_t pid, uint64_t addr, uint64_t time)
{
	uint8_t c;
	return hwt_image_read_at(img, pid, addr, time, &c, 1) == 1 ? (char)c : '-';
}

/* Process 7 maps A at 0x1000 at time 10, B over 0x1004..0x1008 at time 20,
 * execs at 30 and maps B at 0x1000 at 40; K is shared from the start. */
static struct hwt_image *build(void)
{
	struct hwt_image *img = hwt_image_new();
	hwt_image_add_buffer(img, HWT_PID_ANY, 0x9000, K, sizeof(K), "k");
	hwt_image_set_time(img, 10);
	hwt_image_add_buffer(img, 7, 0x1000, A, sizeof(A), "a");
	hwt_image_set_time(img, 20);
	hwt_image_add_buffer(img, 7, 0x1004, B, sizeof(B), "b");
	hwt_image_set_time(img, 30);
	hwt_image_end_process(img, 7, 30);
	hwt_image_set_time(img, 40);
	hwt_image_add_buffer(img, 7, 0x1000, B, sizeof(B), "b2");
	return img;
}

static void test_spans(void)
{
	struct hwt_image *img = build();
	CHECK(hwt_image_changes(img));
	/* 0x1000 (A's start), 0x1005 (under B from 20), 0x100c (A's tail). */
	char got[64];
	uint64_t times[] = {15, 25, 35, 45};
	size_t n = 0;
	for (size_t i = 0; i < 4; i++)
		n += (size_t)snprintf(got + n, sizeof(got) - n, "%c%c%c ",
				      at(img, 7, 0x1000, times[i]),
				      at(img, 7, 0x1005, times[i]),
				      at(img, 7, 0x100c, times[i]));
	/* At 35 nothing of process 7 is mapped: the first mapping after
	 * (B at 40) at 0x1000, the last before elsewhere. */
	CHECK_STR(got, "AAA ABA BBA BBA ");
	CHECK_INT(at(img, 5, 0x9003, 0), 'K');
	CHECK_INT(at(img, 7, 0x9003, 1000), 'K');
	/* The parts of A outside B stay one section each, with A's bytes. */
	struct hwt_image_section *s = hwt_image_find_at(img, 7, 0x100c, 25);
	CHECK(s != NULL);
	if (s) {
		CHECK_U64(s->vaddr, 0x1008);
		CHECK_U64(s->size, 8);
		CHECK_U64(s->valid_from, 20);
		CHECK_U64(s->valid_until, 30);
	}
	hwt_image_free(img);
}

static void test_untimed(void)
{
	struct hwt_image *img = build();
	CHECK(!hwt_image_untimed_hits(img));
	CHECK_INT(at(img, 7, 0x9000, HWT_TIME_UNKNOWN), 'K');
	CHECK(!hwt_image_untimed_hits(img)); /* K never changed */
	/* The latest at 0x1000 is B (mapped at 40). */
	CHECK_INT(at(img, 7, 0x1000, HWT_TIME_UNKNOWN), 'B');
	CHECK(hwt_image_untimed_hits(img));
	hwt_image_free(img);

	/* An image whose mappings never change: nothing to note. */
	img = hwt_image_new();
	hwt_image_add_buffer(img, 3, 0x1000, A, sizeof(A), "a");
	CHECK(!hwt_image_changes(img));
	CHECK_INT(at(img, 3, 0x1001, HWT_TIME_UNKNOWN), 'A');
	CHECK(!hwt_image_untimed_hits(img));
	hwt_image_free(img);
}

/* Readers on several threads see the same answers at once (each thread's
 * lookup cache is its own). */
struct reader {
	struct hwt_image *img;
	int wrong;
};

static void *read_many(void *arg)
{
	struct reader *r = arg;
	for (int i = 0; i < 20000; i++) {
		uint64_t t = (uint64_t)(i % 4) * 10 + 15;
		char want = t < 40 ? (t < 30 ? 'A' : 'B') : 'B';
		if (at(r->img, 7, 0x1000, t) != want ||
		    at(r->img, 7, 0x100c, 15) != 'A')
			r->wrong++;
	}
	return NULL;
}

static void test_concurrent_readers(void)
{
	struct hwt_image *img = build();
	pthread_t th[4];
	struct reader r[4];
	for (int i = 0; i < 4; i++) {
		r[i] = (struct reader){img, 0};
		CHECK_INT(pthread_create(&th[i], NULL, read_many, &r[i]), 0);
	}
	int wrong = 0;
	for (int i = 0; i < 4; i++) {
		pthread_join(th[i], NULL);
		wrong += r[i].wrong;
	}
	CHECK_INT(wrong, 0);
	hwt_image_free(img);
}

int main(void)
{
	RUN(test_spans);
	RUN(test_untimed);
	RUN(test_concurrent_readers);
	return hwt_test_summary();
}
