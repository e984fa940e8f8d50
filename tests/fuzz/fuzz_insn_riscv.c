/* libFuzzer target for the RISC-V instruction decoder behind
 * hwt_insn_format (core/insn/insn_riscv.c), which reads the code of
 * binaries a capture names: untrusted bytes. The first input byte picks
 * the hart (RV32 or RV64); every instruction of the rest is decoded from
 * its own exact-size heap copy (ASan sees a read past it), with these
 * checked: a size of 2 or 4 within the bytes there were, a NUL-terminated
 * text that is never empty, and a direct target only for the classes that
 * have one. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hwtrace/insn.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	struct hwt_insn_decoder *dec;
	if (hwt_insn_decoder_new(data[0] & 1 ? HWT_ISA_RV64 : HWT_ISA_RV32, &dec))
		abort();
	for (size_t at = 1; at < size;) {
		size_t avail = size - at < 4 ? size - at : 4;
		uint8_t *code = malloc(avail);
		if (!code)
			abort();
		memcpy(code, data + at, avail);
		struct hwt_insn insn;
		char text[64];
		memset(text, 'x', sizeof(text));
		int err = hwt_insn_format(dec, code, avail, 0x80000000u + at, &insn,
					  text, sizeof(text));
		free(code);
		if (err) {
			at += 2;  /* cut short or a length no extension uses */
			continue;
		}
		if ((insn.size != 2 && insn.size != 4) || insn.size > avail ||
		    !memchr(text, 0, sizeof(text)) || !text[0])
			abort();
		bool direct = insn.iclass == HWT_INSN_CALL ||
			      insn.iclass == HWT_INSN_JUMP ||
			      insn.iclass == HWT_INSN_COND;
		if (insn.has_target != direct)
			abort();
		at += insn.size;
	}
	hwt_insn_decoder_free(dec);
	return 0;
}
