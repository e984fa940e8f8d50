/* riscv_ntrace's split op cuts an N-Trace stream only before a
 * ProgTraceSync that follows trace off (ProgTraceCorrelation) or the
 * stream's start, and the segments, each decoded by a fresh instance,
 * give the elements of the whole stream decoded by one: five copies of
 * the Nexus Trace TG's t1 stream with idle bytes between them are cut at
 * exactly the copies' starts. Negative control: a cut after t1's first
 * message (inside the trace) decodes to other elements. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/riscv-trace/rvt_split.h"
#include "elem_text.h"
#include "file_bytes.h"
#include "harness.h"
#include "hwtrace/backend.h"
#include "hwtrace/image.h"

#define T HWT_TESTDATA "/riscv-ntrace/t1/"
#define COPIES 5
#define IDLE 3

static const struct hwt_backend *b;
static struct hwt_decode_params params;
static struct elem_text text;

static int collect(void *arg, const struct hwt_elem *e)
{
	(void)arg;
	return elem_text_add(&text, e);
}

/* Decodes [starts[i], starts[i+1]) of @data in fresh instances (one
 * for everything when @n is 1) into text. */
static void decode(const uint8_t *data, size_t size, const uint64_t *starts,
		   size_t n)
{
	free(text.s);
	memset(&text, 0, sizeof(text));
	for (size_t i = 0; i < n; i++) {
		uint64_t end = i + 1 < n ? starts[i + 1] : size;
		struct hwt_aux_chunk c = {.data = data + starts[i],
					  .size = end - starts[i],
					  .offset = starts[i], .cpu = -1,
					  .tid = -1, .lookahead = size - end};
		void *priv = NULL;
		CHECK_INT(b->decoder->create(&params, &priv), 0);
		if (!priv)
			return;
		CHECK_INT(b->decoder->feed(priv, &c), 0);
		CHECK_INT(b->decoder->flush(priv), 0);
		b->decoder->destroy(priv);
	}
}

int main(void)
{
	size_t one;
	uint8_t *t1 = hwt_test_slurp(T "test-NEX.bin", &one);
	struct hwt_image *image = hwt_image_new();
	CHECK(t1 != NULL);
	CHECK(image != NULL);
	if (!t1 || !image)
		return 1;
	CHECK_INT(one, 2604);
	CHECK_INT(hwt_image_add_elf(image, HWT_PID_ANY, T "test.elf", 0), 0);
	b = hwt_backend_find("riscv_ntrace");
	CHECK(b && b->decoder && b->decoder->split);
	if (!b || !b->decoder || !b->decoder->split)
		return 1;

	size_t size = COPIES * (one + IDLE);
	uint8_t *data = malloc(size);
	for (size_t i = 0; i < COPIES; i++) {
		memcpy(data + i * (one + IDLE), t1, one);
		memset(data + i * (one + IDLE) + one, 0xff, IDLE);
	}
	struct hwt_elem_sink sink = {collect, NULL};
	params = (struct hwt_decode_params){.size = sizeof(params),
					    .image = image, .sink = &sink,
					    .raw_options = "xlen=32,callstack=8"};
	uint64_t zero = 0;
	decode(data, size, &zero, 1);
	struct elem_text whole = text;
	memset(&text, 0, sizeof(text));
	CHECK(whole.s && strstr(whole.s, "2001052"));

	void *priv = NULL;
	CHECK_INT(b->decoder->create(&params, &priv), 0);
	struct hwt_aux_chunk c = {.data = data, .size = size, .cpu = -1,
				  .tid = -1};
	uint64_t starts[16];
	/* The default segment size keeps this stream whole. */
	CHECK_INT(b->decoder->split(priv, &c, starts, 16), 1);
	size_t saved = rvt_split_bytes;
	rvt_split_bytes = 1;
	int n = b->decoder->split(priv, &c, starts, 16);
	CHECK_INT(n, COPIES);
	for (int i = 0; i < n && i < COPIES; i++)
		CHECK_U64(starts[i], (uint64_t)i * (one + IDLE));
	uint64_t two[2];
	CHECK_INT(b->decoder->split(priv, &c, two, 2), 2);
	b->decoder->destroy(priv);

	decode(data, size, starts, n > 0 ? (size_t)n : 0);
	CHECK(text.s && whole.s && !strcmp(text.s, whole.s));
	elem_text_diff("segments", &whole, &text);

	/* After MSG #0 (7 bytes) the walk is under way: not a cut. */
	uint64_t bad[2] = {0, 7};
	decode(data, size, bad, 2);
	CHECK(text.s && whole.s && strcmp(text.s, whole.s) != 0);

	rvt_split_bytes = saved;
	free(text.s);
	free(whole.s);
	free(data);
	free(t1);
	hwt_image_free(image);
	printf("%d checks, %d failed\n", hwt_test_checks, hwt_test_failures);
	return hwt_test_failures != 0;
}
