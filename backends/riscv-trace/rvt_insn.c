/* RISC-V flow classification by encoding (see rvt_insn.h). */
#include "backends/riscv-trace/rvt_insn.h"

#define OP_BRANCH 0x63
#define OP_JALR 0x67
#define OP_JAL 0x6f
#define OP_SYSTEM 0x73

static inline uint32_t bits(uint32_t v, unsigned hi, unsigned lo)
{
	return (v >> lo) & ((1u << (hi - lo + 1)) - 1);
}

static inline int64_t sext(uint64_t v, unsigned width)
{
	uint64_t m = 1ull << (width - 1);
	return (int64_t)((v ^ m) - m);
}

/* x1 (ra) and x5 (t0): the registers the ISA manual names as links. */
static inline int is_link(unsigned r)
{
	return r == 1 || r == 5;
}

/* jalr rd, rs1 and its compressed forms, by the specification's table. */
static enum rvt_iclass classify_jalr(unsigned rd, unsigned rs)
{
	if (is_link(rd)) {
		if (is_link(rs) && rd != rs)
			return RVT_I_SWAP;
		return RVT_I_CALL_IND;
	}
	return is_link(rs) ? RVT_I_RETURN : RVT_I_JUMP_IND;
}

static void decode32(uint32_t w, uint64_t pc, struct rvt_insn *in)
{
	unsigned rd = bits(w, 11, 7), rs = bits(w, 19, 15);

	switch (w & 0x7f) {
	case OP_JAL: {
		uint64_t imm = bits(w, 31, 31) << 20 | bits(w, 19, 12) << 12 |
			       bits(w, 20, 20) << 11 | bits(w, 30, 21) << 1;
		in->iclass = is_link(rd) ? RVT_I_CALL : RVT_I_JUMP;
		in->target = pc + (uint64_t)sext(imm, 21);
		in->rd = (uint8_t)rd;
		break;
	}
	case OP_JALR:
		if (bits(w, 14, 12) != 0) {
			in->iclass = RVT_I_ILLEGAL;
			break;
		}
		in->iclass = (uint8_t)classify_jalr(rd, rs);
		in->rd = (uint8_t)rd;
		in->rs = (uint8_t)rs;
		break;
	case OP_BRANCH: {
		unsigned f3 = bits(w, 14, 12);
		if (f3 == 2 || f3 == 3) {
			in->iclass = RVT_I_ILLEGAL;
			break;
		}
		uint64_t imm = bits(w, 31, 31) << 12 | bits(w, 7, 7) << 11 |
			       bits(w, 30, 25) << 5 | bits(w, 11, 8) << 1;
		in->iclass = RVT_I_BRANCH;
		in->target = pc + (uint64_t)sext(imm, 13);
		break;
	}
	case OP_SYSTEM:
		/* ecall, ebreak; mret, sret (uret was never ratified). */
		if (w == 0x00000073 || w == 0x00100073)
			in->iclass = RVT_I_TRAP;
		else if (w == 0x30200073 || w == 0x10200073)
			in->iclass = RVT_I_TRAP_RET;
		break;
	default:
		if (w == 0xffffffffu)
			in->iclass = RVT_I_ILLEGAL;
		break;
	}
}

static void decode16(uint16_t h, uint64_t pc, unsigned xlen,
		     struct rvt_insn *in)
{
	unsigned f3 = bits(h, 15, 13);

	if (h == 0) {
		in->iclass = RVT_I_ILLEGAL;
		return;
	}
	switch (h & 3) {
	case 1:
		if (f3 == 5 || (f3 == 1 && xlen == 32)) {
			/* c.j / c.jal: offset[11|4|9:8|10|6|7|3:1|5]. */
			uint64_t imm = bits(h, 12, 12) << 11 | bits(h, 11, 11) << 4 |
				       bits(h, 10, 9) << 8 | bits(h, 8, 8) << 10 |
				       bits(h, 7, 7) << 6 | bits(h, 6, 6) << 7 |
				       bits(h, 5, 3) << 1 | bits(h, 2, 2) << 5;
			in->iclass = f3 == 1 ? RVT_I_CALL : RVT_I_JUMP;
			in->rd = f3 == 1 ? 1 : 0;
			in->target = pc + (uint64_t)sext(imm, 12);
		} else if (f3 == 6 || f3 == 7) {
			/* c.beqz / c.bnez: offset[8|4:3] [7:6|2:1|5]. */
			uint64_t imm = bits(h, 12, 12) << 8 | bits(h, 11, 10) << 3 |
				       bits(h, 6, 5) << 6 | bits(h, 4, 3) << 1 |
				       bits(h, 2, 2) << 5;
			in->iclass = RVT_I_BRANCH;
			in->target = pc + (uint64_t)sext(imm, 9);
		}
		break;
	case 2:
		if (f3 == 4 && bits(h, 6, 2) == 0) {
			unsigned rs = bits(h, 11, 7);
			if (!bits(h, 12, 12)) {
				/* c.jr; rs = 0 is reserved. */
				in->iclass = rs ? (is_link(rs) ? RVT_I_RETURN
							       : RVT_I_JUMP_IND)
						: RVT_I_ILLEGAL;
			} else if (!rs) {
				in->iclass = RVT_I_TRAP; /* c.ebreak */
			} else {
				/* c.jalr rs: jalr x1, rs. */
				in->iclass = (uint8_t)classify_jalr(1, rs);
				in->rd = 1;
			}
			in->rs = (uint8_t)rs;
		}
		break;
	default:
		break;
	}
}

int rvt_insn_decode(const uint8_t *code, size_t avail, uint64_t pc,
		    unsigned xlen, struct rvt_insn *insn)
{
	if (avail < 2)
		return -1;
	uint16_t lo = (uint16_t)(code[0] | code[1] << 8);
	unsigned size = rvt_insn_size(lo);
	if (!size || avail < size)
		return -1;
	insn->size = (uint8_t)size;
	insn->iclass = RVT_I_OTHER;
	insn->rd = insn->rs = 0;
	insn->target = 0;
	if (size == 2)
		decode16(lo, pc, xlen, insn);
	else if (size == 4)
		decode32((uint32_t)lo | (uint32_t)code[2] << 16 |
				 (uint32_t)code[3] << 24, pc, insn);
	if (xlen == 32)
		insn->target &= 0xffffffffull;
	return 0;
}

const char *rvt_iclass_name(enum rvt_iclass iclass)
{
	switch (iclass) {
	case RVT_I_OTHER: return "other";
	case RVT_I_BRANCH: return "branch";
	case RVT_I_CALL: return "call";
	case RVT_I_JUMP: return "jump";
	case RVT_I_CALL_IND: return "indirect call";
	case RVT_I_JUMP_IND: return "indirect jump";
	case RVT_I_RETURN: return "return";
	case RVT_I_SWAP: return "co-routine swap";
	case RVT_I_TRAP: return "trap";
	case RVT_I_TRAP_RET: return "trap return";
	case RVT_I_ILLEGAL: return "illegal instruction";
	}
	return "unknown";
}
