/* The AUX ring reader on hand-built rings: full-trace spans (none, one,
 * two around the end, a head that cannot be right) and aux_tail; snapshot
 * copies with the core's default find_snapshot and a backend's. */
#include <stdlib.h>
#include <string.h>

#include "core/capture/ring_aux.h"
#include "harness.h"
#include "hwtrace/error.h"

#define SIZE 8192

struct rig {
	struct perf_event_mmap_page up;
	uint8_t aux[SIZE];
};

static struct rig *rig_new(void)
{
	struct rig *g = calloc(1, sizeof(*g));

	for (int i = 0; i < SIZE; i++)
		g->aux[i] = (uint8_t)(i * 3 + 1);
	return g;
}

static void test_full_mode_spans_and_tail(void)
{
	struct rig *g = rig_new();
	struct hwt_ring_aux r;
	struct hwt_aux_span sp[2];

	CHECK_INT(hwt_ring_aux_init(&r, &g->up, g->aux, SIZE, false), 0);
	CHECK_INT(hwt_ring_aux_peek(&r, sp), 0);
	g->up.aux_head = 1000;
	CHECK_INT(hwt_ring_aux_peek(&r, sp), 1);
	CHECK(sp[0].data == g->aux);
	CHECK_U64(sp[0].len, 1000);
	CHECK_U64(sp[0].offset, 0);
	hwt_ring_aux_consume(&r, 1000);
	CHECK_U64(g->up.aux_tail, 1000);
	/* 8000 -> 9000: 192 bytes before the end, 808 after. */
	hwt_ring_aux_consume(&r, 8000);
	g->up.aux_head = 9000;
	CHECK_INT(hwt_ring_aux_peek(&r, sp), 2);
	CHECK(sp[0].data == g->aux + 8000);
	CHECK_U64(sp[0].len, 192);
	CHECK_U64(sp[0].offset, 8000);
	CHECK(sp[1].data == g->aux);
	CHECK_U64(sp[1].len, 808);
	CHECK_U64(sp[1].offset, 8192);
	/* Exactly one buffer's worth is possible; more is not. */
	g->up.aux_head = 8000 + SIZE;
	CHECK_INT(hwt_ring_aux_peek(&r, sp), 2);
	CHECK_U64(sp[0].len + sp[1].len, SIZE);
	g->up.aux_head = 8001 + SIZE;
	CHECK_INT(hwt_ring_aux_peek(&r, sp), HWT_ERR_FORMAT);
	CHECK_CONTAINS(hwt_errmsg(), "more than the 8192-byte buffer");
	g->up.aux_head = 7999; /* behind the tail */
	CHECK_INT(hwt_ring_aux_peek(&r, sp), HWT_ERR_FORMAT);
	hwt_ring_aux_fini(&r);
	free(g);
}

static void test_default_find_snapshot(void)
{
	uint64_t start, len;
	bool wrapped;

	/* Not yet a buffer's worth since the last snapshot. */
	hwt_ring_aux_default_find_snapshot(NULL, SIZE, 5000, 0, &start, &len, &wrapped);
	CHECK_U64(start, 0);
	CHECK_U64(len, 5000);
	CHECK(!wrapped);
	/* 20000 written: the newest 8192 end at 20000 % 8192 = 3616. */
	hwt_ring_aux_default_find_snapshot(NULL, SIZE, 20000, 5000, &start, &len, &wrapped);
	CHECK_U64(start, 3616);
	CHECK_U64(len, SIZE);
	CHECK(wrapped);
	/* Exactly a buffer's worth since the last one: all of it, not
	 * wrapped. */
	hwt_ring_aux_default_find_snapshot(NULL, SIZE, 28192, 20000, &start, &len, &wrapped);
	CHECK_U64(start, 3616);
	CHECK_U64(len, SIZE);
	CHECK(!wrapped);
}

static void test_snapshot_copies_and_never_touches_the_tail(void)
{
	struct rig *g = rig_new();
	struct hwt_ring_aux r;
	struct hwt_aux_span sp;
	bool wrapped;

	g->up.aux_tail = 0x1234;
	CHECK_INT(hwt_ring_aux_init(&r, &g->up, g->aux, SIZE, true), 0);
	g->up.aux_head = 20000;
	CHECK_INT(hwt_ring_aux_snapshot(&r, NULL, &sp, &wrapped), 1);
	CHECK(wrapped);
	CHECK_U64(sp.len, SIZE);
	CHECK(memcmp(sp.data, g->aux + 3616, SIZE - 3616) == 0);
	CHECK(memcmp(sp.data + SIZE - 3616, g->aux, 3616) == 0);
	CHECK(sp.data != g->aux);
	/* Nothing new: no span. */
	CHECK_INT(hwt_ring_aux_snapshot(&r, NULL, &sp, &wrapped), 0);
	g->up.aux_head = 20100;
	CHECK_INT(hwt_ring_aux_snapshot(&r, NULL, &sp, &wrapped), 1);
	CHECK_U64(sp.len, 100);
	CHECK_U64(sp.offset, SIZE);
	CHECK(memcmp(sp.data, g->aux + 3616, 100) == 0);
	CHECK_U64(g->up.aux_tail, 0x1234);
	hwt_ring_aux_fini(&r);
	free(g);
}

static int bad_find(const uint8_t *aux, uint64_t aux_size, uint64_t head,
		    uint64_t prev_head, uint64_t *start, uint64_t *len,
		    bool *wrapped)
{
	*start = aux_size; /* outside */
	*len = 1;
	*wrapped = false;
	return 0;
}

static void test_backend_answer_outside_the_buffer_is_an_error(void)
{
	struct rig *g = rig_new();
	struct hwt_ring_aux r;
	struct hwt_aux_span sp;
	bool wrapped;

	CHECK_INT(hwt_ring_aux_init(&r, &g->up, g->aux, SIZE, true), 0);
	g->up.aux_head = 10;
	CHECK_INT(hwt_ring_aux_snapshot(&r, bad_find, &sp, &wrapped), HWT_ERR_FORMAT);
	CHECK_CONTAINS(hwt_errmsg(), "outside the 8192-byte buffer");
	hwt_ring_aux_fini(&r);
	free(g);
}

int main(void)
{
	RUN(test_full_mode_spans_and_tail);
	RUN(test_default_find_snapshot);
	RUN(test_snapshot_copies_and_never_touches_the_tail);
	RUN(test_backend_answer_outside_the_buffer_is_an_error);
	return hwt_test_summary();
}
