/* An Intel PT decoder instance gives a chunk the same elements, time
 * stamps included, whatever it decoded before. Decoding the first chunk
 * here (a PSB+, loop passes, a TSC, bytes that are no packet) leaves
 * libipt's block cache so that
 * the next chunk's first block ends at the loop's `inc rax`, which does
 * not branch, where a fresh decoder goes on to the `jne`; and the time
 * libipt gives after that first block is the PSB+'s, older than the TSC
 * read with the `jne`'s TNT that a fresh decoder gives after the whole
 * block. The parallel decode's threads each keep their caches warm from
 * whatever units they decoded, so the stamps depended on which thread
 * decoded what (test_decode_jobs_same_stream met it about once in 300
 * runs of a capture cut at every PSB). Ranges and --disasm instructions,
 * with the image fixed and changing over time (tick events). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <intel-pt.h>

#include "elem_text.h"
#include "harness.h"
#include "hwtrace/backend.h"
#include "hwtrace/image.h"
#include "pt_enc_psb.h"

#define ORG 0x400000ull

/* 400000 inc rax (3); 400003 jne 400000 (2); 400005 ret */
static const uint8_t code[] = {0x48, 0xff, 0xc0, 0x75, 0xfb, 0xc3};

static uint8_t warm[256], cold[256];

static int put_tnt(struct pt_encoder *e, unsigned taken)
{
	struct pt_packet p;
	memset(&p, 0, sizeof(p));
	p.type = ppt_tnt_8;
	p.payload.tnt.bit_size = (uint8_t)taken;
	p.payload.tnt.payload = (1u << taken) - 1;
	return pt_enc_put(e, &p);
}

static int put_tsc(struct pt_encoder *e, uint64_t tsc)
{
	struct pt_packet p;
	memset(&p, 0, sizeof(p));
	p.type = ppt_tsc;
	p.payload.tsc.tsc = tsc;
	return pt_enc_put(e, &p);
}

/* The chunk that warms the cache: a PSB+ at ORG, six passes of the loop,
 * a TSC, then bytes that are no packet (a decode error). The chunk
 * decoded after it: a PSB+ at ORG, one pass, a TSC read with the next
 * TNT, an overflow back to ORG, one more pass and tracing off. Returns
 * the sizes, 0 on failure. */
static size_t write_chunk(uint8_t *buf, size_t cap, bool warming)
{
	static const uint8_t junk[] = {0x02, 0xa7, 0x02, 0xa7, 0x02, 0xa7};
	struct pt_config c;
	pt_config_init(&c);
	c.begin = buf;
	c.end = buf + cap;
	struct pt_encoder *e = pt_alloc_encoder(&c);
	int err = !e || pt_enc_psb_plus(e, warming ? 5000 : 6000, ORG);
	if (warming) {
		err |= put_tnt(e, 6) || put_tsc(e, 5010);
	} else {
		struct pt_packet p;
		memset(&p, 0, sizeof(p));
		p.type = ppt_ovf;
		err |= put_tnt(e, 1) || put_tsc(e, 6010) || pt_enc_put(e, &p) ||
		       pt_enc_ip(e, ppt_fup, ORG) || put_tnt(e, 1) ||
		       pt_enc_ip(e, ppt_tip_pgd, 0);
	}
	uint64_t size = 0;
	if (e)
		pt_enc_get_offset(e, &size);
	pt_free_encoder(e);
	if (err)
		return 0;
	if (warming) {
		memcpy(buf + size, junk, sizeof(junk));
		size += sizeof(junk);
	}
	return (size_t)size;
}

static int collect(void *arg, const struct hwt_elem *e)
{
	return arg ? elem_text_add(arg, e) : 0;
}

/* The elements of the second chunk, decoded by a fresh instance, after
 * the first (@warm_size bytes) when @warm_size is not 0, as the core
 * feeds a new piece: after reset(). */
static char *decode(struct hwt_image *image, bool disasm, size_t warm_size,
		    size_t cold_size)
{
	const struct hwt_backend *b = hwt_backend_find("intel_pt");
	CHECK(b && b->decoder);
	if (!b || !b->decoder)
		return NULL;
	struct elem_text t = {0};
	struct hwt_elem_sink sink = {collect, NULL};
	struct hwt_decode_params p = {.size = sizeof(p), .sink = &sink,
				      .image = image, .disasm = disasm};
	void *priv = NULL;
	CHECK_INT(b->decoder->create(&p, &priv), 0);
	if (!priv)
		return NULL;
	if (warm_size) {
		struct hwt_aux_chunk w = {.data = warm, .size = warm_size,
					  .cpu = 0, .tid = -1};
		CHECK_INT(b->decoder->feed(priv, &w), 0);
		b->decoder->reset(priv);
	}
	sink.arg = &t;
	struct hwt_aux_chunk c = {.data = cold, .size = cold_size, .offset = 1000,
				  .cpu = 0, .tid = -1};
	CHECK_INT(b->decoder->feed(priv, &c), 0);
	b->decoder->destroy(priv);
	return t.s;
}

static void same_cold_and_warm(struct hwt_image *image, bool disasm,
			       size_t warm_size, size_t cold_size)
{
	char *fresh = decode(image, disasm, 0, cold_size);
	char *after = decode(image, disasm, warm_size, cold_size);
	/* The pass before the TSC that the next TNT brings: at its time. */
	const char *first = disasm ? "@6010 o0 400000-400003/1" :
				     "@6010 o0 400000-400005/2";
	CHECK(fresh && !strncmp(fresh, "0 9 c0 p0 t-1 ", 14) &&
	      !strncmp(fresh + 14, first, strlen(first)));
	CHECK(fresh && after && !strcmp(fresh, after));
	if (fresh && after) {
		struct elem_text want = {fresh, strlen(fresh), 0};
		struct elem_text got = {after, strlen(after), 0};
		elem_text_diff(disasm ? "--disasm, warm against fresh" :
					"warm against fresh", &want, &got);
	}
	free(fresh);
	free(after);
}

int main(void)
{
	size_t warm_size = write_chunk(warm, sizeof(warm), true);
	size_t cold_size = write_chunk(cold, sizeof(cold), false);
	CHECK(warm_size > 0 && cold_size > 0);
	char dir[] = "/tmp/hwt-warm-XXXXXX", path[64];
	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/code.bin", dir);
	FILE *f = fopen(path, "wb");
	CHECK(f && fwrite(code, 1, sizeof(code), f) == sizeof(code));
	if (f)
		fclose(f);
	struct hwt_image *image = hwt_image_new();
	CHECK(image != NULL);
	CHECK_INT(hwt_image_add_file(image, HWT_PID_ANY, ORG, sizeof(code), path,
				     0), 0);
	same_cold_and_warm(image, false, warm_size, cold_size);
	same_cold_and_warm(image, true, warm_size, cold_size);
	/* Code that is mapped again (long after the trace): the decoder
	 * reads code by time and asks libipt for a tick at each new time. */
	hwt_image_set_time(image, 1ull << 40);
	CHECK_INT(hwt_image_add_file(image, HWT_PID_ANY, ORG, sizeof(code), path,
				     0), 0);
	CHECK(hwt_image_changes(image));
	same_cold_and_warm(image, false, warm_size, cold_size);
	same_cold_and_warm(image, true, warm_size, cold_size);
	hwt_image_free(image);
	unlink(path);
	rmdir(dir);
	return hwt_test_summary();
}
