/* The BTS decoder on garbage ends cleanly: random records (addresses in and
 * around the known_path program's code, and anywhere), cut into random
 * chunks with random AUX flags, in stream and snapshot mode. Every element
 * must be well formed, every range must lie in the program's code and hold
 * at least one instruction, and decoding must not fail. */
#include "harness.h"
#include "../programs/elf_syms.h"
#include "hwtrace/bts_format.h"
#include "hwtrace/backend.h"
#include "hwtrace/image.h"

extern const struct hwt_decoder_ops hwt_bts_decoder_ops;

static uint64_t seed = 0x9e3779b97f4a7c15ull;
static uint64_t rnd(void)
{
	seed ^= seed << 13;
	seed ^= seed >> 7;
	seed ^= seed << 17;
	return seed;
}

static uint64_t text_lo, text_hi;
static size_t nelem, bad;

static int check(void *arg, const struct hwt_elem *e)
{
	(void)arg;
	nelem++;
	switch (e->type) {
	case HWT_ELEM_RANGE:
		if (e->u.range.start < text_lo || e->u.range.end > text_hi ||
		    e->u.range.end <= e->u.range.start || !e->u.range.insns ||
		    e->u.range.insns > e->u.range.end - e->u.range.start)
			bad++;
		break;
	case HWT_ELEM_BRANCH:
		if (e->u.branch.kind > HWT_BRANCH_ERET)
			bad++;
		break;
	case HWT_ELEM_GAP:
		if (e->u.gap.reason > HWT_GAP_NO_IMAGE)
			bad++;
		break;
	case HWT_ELEM_ERROR:
		if (!e->u.error.message)
			bad++;
		break;
	default:
		break;
	}
	return 0;
}

static uint64_t addr(void)
{
	switch (rnd() % 4) {
	case 0: return 0;
	case 1: return rnd();
	default: return text_lo + rnd() % (text_hi - text_lo + 64);
	}
}

static void run(bool snapshot, const char *prog, uint64_t vaddr, uint64_t off,
		uint64_t size)
{
	static uint8_t buf[64 * 1024];
	static uint64_t info[HWT_BTS_INFO_WORDS];
	struct hwt_elem_sink sink = {check, NULL};
	struct hwt_image *image = hwt_image_new();
	void *priv = NULL;

	CHECK_INT(hwt_image_add_file(image, HWT_PID_ANY, vaddr, size, prog, off), 0);
	info[HWT_BTS_INFO_SNAPSHOT_MODE] = snapshot;
	struct hwt_decode_params p = {
		.size = sizeof(p), .info = info, .info_words = HWT_BTS_INFO_WORDS,
		.image = image, .sink = &sink, .disasm = rnd() % 2,
	};
	CHECK_INT(hwt_bts_decoder_ops.create(&p, &priv), 0);
	for (int round = 0; round < 20; round++) {
		for (size_t i = 0; i + 24 <= sizeof(buf); i += 24) {
			struct hwt_bts_record r = {addr(), addr(), rnd()};
			hwt_bts_record_write(buf + i, &r);
		}
		for (size_t i = 0; i < 64; i++)
			buf[rnd() % sizeof(buf)] = (uint8_t)rnd();
		uint64_t pos = 0, stream = (uint64_t)round * sizeof(buf);
		while (pos < sizeof(buf)) {
			uint64_t n = 1 + rnd() % 2000;
			if (n > sizeof(buf) - pos)
				n = sizeof(buf) - pos;
			struct hwt_aux_chunk c = {
				.data = buf + pos, .size = n,
				.offset = stream + pos + (rnd() % 8 == 0 ? 24 : 0),
				.cpu = -1, .tid = 7,
				.aux_flags = rnd() % 16 == 0 ? HWT_AUX_FLAG_TRUNCATED : 0,
			};
			CHECK_INT(hwt_bts_decoder_ops.feed(priv, &c), 0);
			pos += n;
		}
		if (rnd() % 2)
			hwt_bts_decoder_ops.reset(priv);
	}
	CHECK_INT(hwt_bts_decoder_ops.flush(priv), 0);
	hwt_bts_decoder_ops.destroy(priv);
	hwt_image_free(image);
}

int main(void)
{
	const char *prog = test_program("known_path_x86");
	uint64_t vaddr = 0, off = 0, size = 0;
	CHECK_INT(test_elf_text(prog, &vaddr, &off, &size), 0);
	text_lo = vaddr;
	text_hi = vaddr + size;
	run(false, prog, vaddr, off, size);
	run(true, prog, vaddr, off, size);
	CHECK(nelem > 100000);
	CHECK_INT(bad, 0);
	fprintf(stderr, "%zu elements\n", nelem);
	return hwt_test_summary();
}
