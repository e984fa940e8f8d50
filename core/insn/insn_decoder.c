/* hwtrace/insn.h's decoders: RISC-V code goes to hwtrace's own decoder,
 * every other ISA to Capstone's. */
#include <stdlib.h>

#include "core/insn/insn_internal.h"
#include "hwtrace/error.h"

struct hwt_insn_decoder {
	unsigned rv_xlen;   /* RISC-V: 32 or 64; 0 for Capstone's ISAs */
	struct insn_cs *cs;
};

int hwt_insn_decoder_new(enum hwt_isa isa, struct hwt_insn_decoder **out)
{
	struct hwt_insn_decoder *dec = calloc(1, sizeof(*dec));
	if (!dec)
		return hwt_error(HWT_ERR_NOMEM, "out of memory for an instruction decoder");
	if (isa == HWT_ISA_RV32 || isa == HWT_ISA_RV64) {
		dec->rv_xlen = isa == HWT_ISA_RV32 ? 32 : 64;
	} else {
		int err = insn_cs_new(isa, &dec->cs);
		if (err) {
			free(dec);
			*out = NULL;
			return err;
		}
	}
	*out = dec;
	return 0;
}

void hwt_insn_decoder_free(struct hwt_insn_decoder *dec)
{
	if (!dec)
		return;
	insn_cs_free(dec->cs);
	free(dec);
}

int hwt_insn_decode(struct hwt_insn_decoder *dec, const uint8_t *code,
		    size_t size, uint64_t addr, struct hwt_insn *insn)
{
	if (dec->rv_xlen)
		return insn_rv_decode(dec->rv_xlen, code, size, addr, insn, NULL, 0);
	return insn_cs_decode(dec->cs, code, size, addr, insn);
}

int hwt_insn_format(struct hwt_insn_decoder *dec, const uint8_t *code,
		    size_t size, uint64_t addr, struct hwt_insn *insn,
		    char *buf, size_t bufsize)
{
	if (dec->rv_xlen)
		return insn_rv_decode(dec->rv_xlen, code, size, addr, insn, buf,
				      bufsize);
	return insn_cs_format(dec->cs, code, size, addr, insn, buf, bufsize);
}

enum hwt_branch_kind hwt_insn_branch_kind(enum hwt_insn_class iclass)
{
	switch (iclass) {
	case HWT_INSN_CALL:
	case HWT_INSN_CALL_IND:
		return HWT_BRANCH_CALL;
	case HWT_INSN_RETURN:
		return HWT_BRANCH_RETURN;
	case HWT_INSN_JUMP:
	case HWT_INSN_FAR:
		return HWT_BRANCH_JUMP;
	case HWT_INSN_JUMP_IND:
		return HWT_BRANCH_INDIRECT;
	case HWT_INSN_COND:
		return HWT_BRANCH_COND;
	case HWT_INSN_SYSCALL:
		return HWT_BRANCH_SYSCALL;
	case HWT_INSN_SYSRET:
		return HWT_BRANCH_SYSRET;
	case HWT_INSN_OTHER:
		break;
	}
	/* A transfer from an instruction that does not branch: the CPU was
	 * interrupted (or faulted) there. */
	return HWT_BRANCH_INTERRUPT;
}

bool hwt_insn_is_unconditional(enum hwt_insn_class iclass)
{
	return iclass != HWT_INSN_OTHER && iclass != HWT_INSN_COND;
}

