/* libFuzzer target for the native Intel BTS decoder: any bytes as a BTS
 * record stream, cut into chunks, in stream or snapshot mode, with or
 * without --disasm, over a fixed code image (a loop that calls a function
 * with a conditional, a system call and an indirect jump at 0x1000). Most
 * record addresses are folded into the code so the range walker, its
 * cache, the wrap-padding and overlap logic all run. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hwtrace/bts_format.h"
#include "hwtrace/backend.h"
#include "hwtrace/error.h"
#include "hwtrace/image.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

extern const struct hwt_decoder_ops hwt_bts_decoder_ops;

static const uint8_t code[] = {
	0xb9, 0x05, 0x00, 0x00, 0x00, /* 1000: mov ecx, 5 */
	0xe8, 0x06, 0x00, 0x00, 0x00, /* 1005: call 1010 */
	0xff, 0xc9,                   /* 100a: dec ecx */
	0x75, 0xf7,                   /* 100c: jne 1005 */
	0xc3,                         /* 100e: ret */
	0x90,                         /* 100f: nop */
	0x83, 0xc0, 0x01,             /* 1010: add eax, 1 */
	0xa8, 0x01,                   /* 1013: test al, 1 */
	0x75, 0x03,                   /* 1015: jne 101a */
	0x83, 0xc2, 0x01,             /* 1017: add edx, 1 */
	0xc3,                         /* 101a: ret */
	0x0f, 0x05,                   /* 101b: syscall */
	0xff, 0xe0,                   /* 101d: jmp rax */
	0x62, 0xb2, 0x66, 0x20, 0x26, 0xc3, /* 101f: vptestnmb k0, ymm19, ymm19 */
};

static struct hwt_image *image;

static int check(void *arg, const struct hwt_elem *e)
{
	(*(size_t *)arg)++;
	if (e->type == HWT_ELEM_RANGE &&
	    (e->u.range.end <= e->u.range.start || !e->u.range.insns))
		abort();
	if (e->type == HWT_ELEM_ERROR && !e->u.error.message)
		abort();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t buf[1 << 16];
	static uint64_t info[HWT_BTS_INFO_WORDS];
	size_t count = 0;
	void *priv = NULL;

	if (!image) {
		image = hwt_image_new();
		if (!image || hwt_image_add_buffer(image, HWT_PID_ANY, 0x1000, code,
						   sizeof(code), "code"))
			abort();
	}
	if (size < 2 || size - 1 > sizeof(buf))
		return 0;
	uint8_t sel = data[0];
	size_t len = size - 1;
	memcpy(buf, data + 1, len);
	/* Fold most addresses into the code. */
	for (size_t i = 0; i + 8 <= len; i += 8) {
		if (buf[i + 7] < 0xc0) {
			uint64_t a = 0x1000 + buf[i] % (sizeof(code) + 4);
			hwt_bts_put_le64(buf + i, a);
		}
	}
	info[HWT_BTS_INFO_SNAPSHOT_MODE] = sel & 1;
	struct hwt_elem_sink sink = {check, &count};
	struct hwt_decode_params p = {
		.size = sizeof(p), .info = info, .info_words = HWT_BTS_INFO_WORDS,
		.image = (sel & 2) ? image : NULL, .sink = &sink,
		.disasm = (sel & 4) != 0,
	};
	if (hwt_bts_decoder_ops.create(&p, &priv))
		return 0;
	size_t pos = 0, step = 1 + (sel >> 3) * 7u;
	uint64_t off = (sel & 0x80) ? 4096 - 16 : 0;
	while (pos < len) {
		size_t n = step < len - pos ? step : len - pos;
		struct hwt_aux_chunk c = {
			.data = buf + pos, .size = n, .offset = off + pos,
			.cpu = -1, .tid = 1,
			.aux_flags = (buf[pos] == 0xff) ? HWT_AUX_FLAG_TRUNCATED : 0,
		};
		if (hwt_bts_decoder_ops.feed(priv, &c))
			abort();
		pos += n;
	}
	if (hwt_bts_decoder_ops.flush(priv))
		abort();
	hwt_bts_decoder_ops.destroy(priv);
	return 0;
}
