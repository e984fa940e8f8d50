/* Raw (TRBE) trace through the perf path: an AUXTRACE buffer flagged
 * PERF_AUX_FLAG_CORESIGHT_FORMAT_RAW and a version 1 cs_etm AUXTRACE_INFO
 * with one ETE block decode like OpenCSD's own snapshot decode of the same
 * stream. The stream is ete_mem's session1.bin (an ETE model capture);
 * the expected range count is that of trc_pkt_lister 1.3.3's listing of
 * it (expected-1.3.3/ete_mem.ppl.xz, last run). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "opencsd_listing.h"
#include "backends/arm-cs/cs_meta.h"
#include "backends/arm-cs/cs_snapshot.h"
#include "hwtrace/backend.h"
#include "hwtrace/error.h"

#define SS HWT_TESTDATA "/opencsd/ete_mem"

struct counts {
	unsigned long ranges, insns, branches, errors;
};

static int count(void *arg, const struct hwt_elem *e)
{
	struct counts *c = arg;
	if (e->type == HWT_ELEM_RANGE) {
		c->ranges++;
		c->insns += e->u.range.insns;
	} else if (e->type == HWT_ELEM_BRANCH) {
		c->branches++;
	} else if (e->type == HWT_ELEM_ERROR) {
		c->errors++;
	}
	if (e->cpu != 3 || !(e->fields & HWT_FIELD_CPU))
		HWT_FAIL("element of CPU %d, want 3", e->cpu);
	return 0;
}

static void trbe_buffer_decodes_like_opencsd(void)
{
	unsigned long want_insns;
	long want = listing_ranges(HWT_TESTDATA "/opencsd/expected-1.3.3/ete_mem.ppl.xz",
				   &want_insns);
	CHECK_INT(want, 2008);

	/* The trace unit of ETE_0_s1.ini, as perf would describe it for
	 * CPU 3. */
	uint64_t info[HWT_CS_HDR_WORDS + HWT_CS_ETE_WORDS] = {
		HWT_CS_HEADER_VERSION_1, (8ull << 32) | 1, 0,
		HWT_CS_MAGIC_ETE, 3, HWT_CS_ETE_NR_PARAMS,
		OCSD_ETE_0_S1_REGS,
	};
	struct hwt_cs_snapshot *ss;
	CHECK_INT(hwt_cs_snapshot_load(SS, &ss), 0);
	struct hwt_image *image = hwt_image_new();
	CHECK_INT(hwt_cs_snapshot_add_dumps(ss, image), 0);
	hwt_cs_snapshot_free(ss);

	FILE *f = fopen(SS "/session1.bin", "rb");
	static uint8_t buf[1 << 16];
	size_t n = f ? fread(buf, 1, sizeof(buf), f) : 0;
	if (f)
		fclose(f);
	CHECK_INT(n, 1906);

	const struct hwt_backend *b = hwt_backend_find("cs_etm");
	CHECK(b && b->decoder);
	if (!b || !b->decoder) {
		hwt_image_free(image);
		return;
	}
	struct counts c = {0};
	struct hwt_elem_sink sink = {count, &c};
	struct hwt_decode_params p = {.size = sizeof(p), .info = info,
				      .info_words = sizeof(info) / 8,
				      .image = image, .sink = &sink};
	void *priv = NULL;
	CHECK_INT(b->decoder->create(&p, &priv), 0);
	struct hwt_aux_chunk ch = {.data = buf, .size = n, .idx = 3, .cpu = 3,
				   .tid = -1,
				   .aux_flags = HWT_AUX_FLAG_CORESIGHT_FORMAT_RAW};
	if (priv) {
		CHECK_INT(b->decoder->feed(priv, &ch), 0);
		b->decoder->destroy(priv);
	}
	CHECK_INT(c.ranges, want);
	CHECK_INT(c.insns, want_insns);
	CHECK_INT(c.errors, 0);
	printf("TRBE-style raw ETE buffer: %lu ranges, %lu instructions, %lu "
	       "branches (listing: %ld ranges, %lu instructions)\n", c.ranges,
	       c.insns, c.branches, want, want_insns);

	/* Without the flag the same bytes are taken for formatted frames:
	 * nothing decodes, and nothing breaks. */
	memset(&c, 0, sizeof(c));
	ch.aux_flags = 0;
	priv = NULL;
	CHECK_INT(b->decoder->create(&p, &priv), 0);
	if (priv) {
		CHECK_INT(b->decoder->feed(priv, &ch), 0);
		b->decoder->destroy(priv);
	}
	CHECK(c.ranges < (unsigned long)want / 10);
	hwt_image_free(image);
}

int main(void)
{
	RUN(trbe_buffer_decodes_like_opencsd);
	return hwt_test_summary();
}
