/* RISC-V instructions as an N-Trace decoder needs them: the length, and
 * how each one changes the flow, told from the encoding alone (RV32/RV64
 * I, M, A, F, D and C; Capstone 4 has no RISC-V). The link-register rules
 * of calls, returns and co-routine swaps are the N-Trace specification's
 * (its table "Generating itype for different instructions"). */
#ifndef HWT_RVT_INSN_H
#define HWT_RVT_INSN_H

#include <stddef.h>
#include <stdint.h>

enum rvt_iclass {
	RVT_I_OTHER,     /* the next instruction follows */
	RVT_I_BRANCH,    /* direct conditional branch: beq ... c.bnez */
	RVT_I_CALL,      /* jal with rd = x1/x5, c.jal: pushes the return */
	RVT_I_JUMP,      /* any other jal, c.j */
	RVT_I_CALL_IND,  /* jalr rd = link (rs not another link), c.jalr */
	RVT_I_JUMP_IND,  /* jalr, c.jr not through a link register */
	RVT_I_RETURN,    /* jalr rd != link, rs = link; c.jr x1/x5 */
	RVT_I_SWAP,      /* co-routine swap: jalr x1, x5 / x5, x1; c.jalr x5 */
	RVT_I_TRAP,      /* ecall, ebreak, c.ebreak: trap, never retire */
	RVT_I_TRAP_RET,  /* mret, sret */
	RVT_I_ILLEGAL,   /* the defined illegal encodings, reserved C forms */
};

struct rvt_insn {
	uint8_t size;   /* bytes: 2, 4, 6 or 8 */
	uint8_t iclass; /* enum rvt_iclass */
	uint8_t rd, rs; /* jumps' registers, for listings */
	uint64_t target; /* direct branches and jumps */
};

/* How long the instruction is whose first halfword is @lo16 (2, 4, 6 or
 * 8 bytes), or 0 for the longer formats, which no ratified extension
 * uses. */
static inline unsigned rvt_insn_size(uint16_t lo16)
{
	if ((lo16 & 3) != 3)
		return 2;
	if ((lo16 & 0x1c) != 0x1c)
		return 4;
	if ((lo16 & 0x3f) == 0x1f)
		return 6;
	if ((lo16 & 0x7f) == 0x3f)
		return 8;
	return 0;
}

/* Classifies the instruction at @pc whose bytes are @code[0..@avail)
 * (little-endian, as RISC-V stores code) for a hart of @xlen bits (32:
 * 0x2001 is c.jal; 64: c.addiw). Returns 0, or -1 when @avail is shorter
 * than the instruction or its length is not supported. */
int rvt_insn_decode(const uint8_t *code, size_t avail, uint64_t pc,
		    unsigned xlen, struct rvt_insn *insn);

/* The instruction's class as a name ("call", "return", ...), for
 * listings and messages. */
const char *rvt_iclass_name(enum rvt_iclass iclass);

#endif
