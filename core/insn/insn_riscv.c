/* RISC-V instructions for hwt_insn_decode and hwt_insn_format: RV32 and
 * RV64 I, M, A, F, D, C, Zicsr and Zifencei, told from the encoding
 * (Capstone 4 has no RISC-V). The text is the canonical form binutils
 * prints with `objdump -M no-aliases` (`c.addi sp,-16`, `jalr zero,0(ra)`),
 * so a listing can be read beside objdump's; direct targets are printed
 * as 0x-prefixed addresses. The flow classes follow the link-register
 * rules of the RISC-V specifications (x1 and x5 are link registers). */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/insn/insn_internal.h"
#include "hwtrace/error.h"

static const char *const xreg[32] = {
	"zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2",
	"s0", "s1", "a0", "a1", "a2", "a3", "a4", "a5",
	"a6", "a7", "s2", "s3", "s4", "s5", "s6", "s7",
	"s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6",
};

static const char *const freg[32] = {
	"ft0", "ft1", "ft2", "ft3", "ft4", "ft5", "ft6", "ft7",
	"fs0", "fs1", "fa0", "fa1", "fa2", "fa3", "fa4", "fa5",
	"fa6", "fa7", "fs2", "fs3", "fs4", "fs5", "fs6", "fs7",
	"fs8", "fs9", "fs10", "fs11", "ft8", "ft9", "ft10", "ft11",
};

static const char *const rounding[8] = {
	"rne", "rtz", "rdn", "rup", "rmm", "0x5", "0x6", "dyn",
};

struct csr_name {
	uint16_t num;
	const char *name;
};

/* The CSRs code commonly names (the privileged specification's tables);
 * others print as a number, as binutils prints those it does not know. */
static const struct csr_name csrs[] = {
	{0x001, "fflags"}, {0x002, "frm"}, {0x003, "fcsr"},
	{0x100, "sstatus"}, {0x104, "sie"}, {0x105, "stvec"},
	{0x106, "scounteren"}, {0x140, "sscratch"}, {0x141, "sepc"},
	{0x142, "scause"}, {0x143, "stval"}, {0x144, "sip"}, {0x180, "satp"},
	{0x300, "mstatus"}, {0x301, "misa"}, {0x302, "medeleg"},
	{0x303, "mideleg"}, {0x304, "mie"}, {0x305, "mtvec"},
	{0x306, "mcounteren"}, {0x310, "mstatush"}, {0x340, "mscratch"},
	{0x341, "mepc"}, {0x342, "mcause"}, {0x343, "mtval"}, {0x344, "mip"},
	{0xb00, "mcycle"}, {0xb02, "minstret"}, {0xb80, "mcycleh"},
	{0xb82, "minstreth"}, {0xc00, "cycle"}, {0xc01, "time"},
	{0xc02, "instret"}, {0xc80, "cycleh"}, {0xc81, "timeh"},
	{0xc82, "instreth"}, {0xf11, "mvendorid"}, {0xf12, "marchid"},
	{0xf13, "mimpid"}, {0xf14, "mhartid"},
};

/* What one decode found: the class, the target, and the text. */
struct rv_out {
	struct hwt_insn *insn;
	char *buf;
	size_t size, len;
};

static void put(struct rv_out *o, const char *fmt, ...)
{
	if (!o->buf || o->len + 1 >= o->size)
		return;
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(o->buf + o->len, o->size - o->len, fmt, ap);
	va_end(ap);
	if (n > 0)
		o->len += (size_t)n < o->size - o->len ? (size_t)n : o->size - o->len - 1;
}

static int64_t sext(uint64_t v, unsigned bits)
{
	uint64_t m = 1ull << (bits - 1);
	v &= (m << 1) - 1;
	return (int64_t)((v ^ m) - m);
}

static uint32_t bits(uint32_t v, unsigned hi, unsigned lo)
{
	return (v >> lo) & ((1u << (hi - lo + 1)) - 1);
}

static bool is_link(unsigned r)
{
	return r == 1 || r == 5;
}

static void target(struct rv_out *o, uint64_t pc, int64_t off, unsigned xlen,
		   enum hwt_insn_class c)
{
	uint64_t t = pc + (uint64_t)off;
	if (xlen == 32)
		t &= 0xffffffffu;
	o->insn->iclass = c;
	o->insn->has_target = true;
	o->insn->target = t;
	put(o, "0x%" PRIx64, t);
}

/* jal and c.jal/c.j: a call when the link goes to a link register. */
static enum hwt_insn_class jal_class(unsigned rd)
{
	return is_link(rd) ? HWT_INSN_CALL : HWT_INSN_JUMP;
}

/* jalr, c.jr and c.jalr: the return/call rules of the specification's
 * hint table (a co-routine swap, rd and rs1 distinct link registers, is
 * a call: it pushes a return). */
static enum hwt_insn_class jalr_class(unsigned rd, unsigned rs1)
{
	if (is_link(rd))
		return HWT_INSN_CALL_IND;
	return is_link(rs1) ? HWT_INSN_RETURN : HWT_INSN_JUMP_IND;
}

static void csr(struct rv_out *o, uint32_t num)
{
	for (size_t i = 0; i < sizeof(csrs) / sizeof(csrs[0]); i++)
		if (csrs[i].num == num) {
			put(o, "%s", csrs[i].name);
			return;
		}
	put(o, "0x%" PRIx32, num);
}

static bool op_system(struct rv_out *o, uint32_t w)
{
	unsigned rd = bits(w, 11, 7), f3 = bits(w, 14, 12), rs1 = bits(w, 19, 15);
	static const char *const csr_ops[8] = {
		NULL, "csrrw", "csrrs", "csrrc", NULL, "csrrwi", "csrrsi", "csrrci",
	};
	if (f3 == 0) {
		switch (w) {
		case 0x00000073: put(o, "ecall"); o->insn->iclass = HWT_INSN_SYSCALL; return true;
		case 0x00100073: put(o, "ebreak"); o->insn->iclass = HWT_INSN_SYSCALL; return true;
		case 0x10200073: put(o, "sret"); o->insn->iclass = HWT_INSN_SYSRET; return true;
		case 0x30200073: put(o, "mret"); o->insn->iclass = HWT_INSN_SYSRET; return true;
		case 0x10500073: put(o, "wfi"); return true;
		}
		if (bits(w, 31, 25) == 0x09 && rd == 0) {
			put(o, "sfence.vma %s,%s", xreg[rs1], xreg[bits(w, 24, 20)]);
			return true;
		}
		return false;
	}
	if (!csr_ops[f3])
		return false;
	put(o, "%s %s,", csr_ops[f3], xreg[rd]);
	csr(o, bits(w, 31, 20));
	if (f3 >= 5)
		put(o, ",%u", rs1);
	else
		put(o, ",%s", xreg[rs1]);
	return true;
}

static void fence_set(struct rv_out *o, unsigned set)
{
	static const char letters[] = "iorw";
	if (!set) {
		put(o, "0");
		return;
	}
	for (int i = 0; i < 4; i++)
		if (set & (8u >> i))
			put(o, "%c", letters[i]);
}

static bool amo(struct rv_out *o, uint32_t w, unsigned xlen)
{
	static const struct { uint8_t f5; const char *name; } ops[] = {
		{0x02, "lr"}, {0x03, "sc"}, {0x01, "amoswap"}, {0x00, "amoadd"},
		{0x04, "amoxor"}, {0x0c, "amoand"}, {0x08, "amoor"},
		{0x10, "amomin"}, {0x14, "amomax"}, {0x18, "amominu"},
		{0x1c, "amomaxu"},
	};
	unsigned f3 = bits(w, 14, 12), f5 = bits(w, 31, 27);
	unsigned rd = bits(w, 11, 7), rs1 = bits(w, 19, 15), rs2 = bits(w, 24, 20);
	if (f3 != 2 && !(f3 == 3 && xlen == 64))
		return false;
	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		if (ops[i].f5 != f5)
			continue;
		if (f5 == 0x02 && rs2)
			return false;
		static const char *const order[4] = {"", ".rl", ".aq", ".aqrl"};
		put(o, "%s.%c%s %s,", ops[i].name, f3 == 2 ? 'w' : 'd',
		    order[bits(w, 26, 25)], xreg[rd]);
		if (f5 != 0x02)
			put(o, "%s,", xreg[rs2]);
		put(o, "(%s)", xreg[rs1]);
		return true;
	}
	return false;
}

static bool op_reg(struct rv_out *o, uint32_t w, bool word)
{
	static const char *const base[8] = {"add", "sll", "slt", "sltu", "xor", "srl", "or", "and"};
	static const char *const mul[8] = {"mul", "mulh", "mulhsu", "mulhu", "div", "divu", "rem", "remu"};
	unsigned f3 = bits(w, 14, 12), f7 = bits(w, 31, 25);
	const char *name;
	if (f7 == 0x01)
		name = mul[f3];
	else if (f7 == 0x20 && f3 == 0)
		name = "sub";
	else if (f7 == 0x20 && f3 == 5)
		name = "sra";
	else if (f7 == 0)
		name = base[f3];
	else
		return false;
	if (word) {
		/* OP-32: addw subw sllw srlw sraw, mulw divw divuw remw remuw */
		bool ok = f7 == 0x01 ? (f3 == 0 || f3 >= 4) : (f3 == 0 || f3 == 1 || f3 == 5);
		if (!ok)
			return false;
	}
	put(o, "%s%s %s,%s,%s", name, word ? "w" : "", xreg[bits(w, 11, 7)],
	    xreg[bits(w, 19, 15)], xreg[bits(w, 24, 20)]);
	return true;
}

static bool op_imm(struct rv_out *o, uint32_t w, unsigned xlen, bool word)
{
	static const char *const names[8] = {"addi", NULL, "slti", "sltiu", "xori", NULL, "ori", "andi"};
	unsigned f3 = bits(w, 14, 12), rd = bits(w, 11, 7), rs1 = bits(w, 19, 15);
	const char *w_ = word ? "w" : "";
	if (f3 == 1 || f3 == 5) {
		unsigned shbits = word || xlen == 32 ? 5 : 6;
		unsigned top = bits(w, 31, 20) >> shbits;
		unsigned sh = bits(w, 19 + shbits, 20);
		const char *name = f3 == 1 ? (top ? NULL : "slli") :
				   top == 0 ? "srli" :
				   top == (0x400u >> shbits) ? "srai" : NULL;
		if (!name)
			return false;
		put(o, "%s%s %s,%s,0x%x", name, w_, xreg[rd], xreg[rs1], sh);
		return true;
	}
	if (word && f3 != 0)
		return false;
	put(o, "%s%s %s,%s,%" PRId64, names[f3], w_, xreg[rd], xreg[rs1],
	    sext(bits(w, 31, 20), 12));
	return true;
}

/* OP-FP and the fused multiply-adds: F (.s) and D (.d). */
static bool op_fp(struct rv_out *o, uint32_t w, unsigned xlen)
{
	unsigned f7 = bits(w, 31, 25), rm = bits(w, 14, 12);
	unsigned rd = bits(w, 11, 7), rs1 = bits(w, 19, 15), rs2 = bits(w, 24, 20);
	unsigned fmt = f7 & 3, op = f7 >> 2;
	if (fmt > 1)
		return false;
	char t = fmt ? 'd' : 's';
	const char *rmtext = rm == 7 ? NULL : rounding[rm];
	static const char *const arith[4] = {"fadd", "fsub", "fmul", "fdiv"};
	switch (op) {
	case 0: case 1: case 2: case 3:
		put(o, "%s.%c %s,%s,%s", arith[op], t, freg[rd], freg[rs1], freg[rs2]);
		break;
	case 0x0b:
		if (rs2)
			return false;
		put(o, "fsqrt.%c %s,%s", t, freg[rd], freg[rs1]);
		break;
	case 0x04: {
		static const char *const sg[3] = {"fsgnj", "fsgnjn", "fsgnjx"};
		if (rm > 2)
			return false;
		put(o, "%s.%c %s,%s,%s", sg[rm], t, freg[rd], freg[rs1], freg[rs2]);
		return true;
	}
	case 0x05:
		if (rm > 1)
			return false;
		put(o, "%s.%c %s,%s,%s", rm ? "fmax" : "fmin", t, freg[rd], freg[rs1], freg[rs2]);
		return true;
	case 0x08: /* fcvt.s.d (fmt s, rs2 1), fcvt.d.s (fmt d, rs2 0) */
		if (rs2 != (fmt ? 0u : 1u))
			return false;
		put(o, "fcvt.%c.%c %s,%s", t, fmt ? 's' : 'd', freg[rd], freg[rs1]);
		if (fmt)  /* widening is exact: binutils prints no mode */
			return true;
		break;
	case 0x14: {
		static const char *const cmp[3] = {"fle", "flt", "feq"};
		if (rm > 2)
			return false;
		put(o, "%s.%c %s,%s,%s", cmp[rm], t, xreg[rd], freg[rs1], freg[rs2]);
		return true;
	}
	case 0x18: case 0x1a: { /* fcvt to / from an integer */
		static const char *const it[4] = {"w", "wu", "l", "lu"};
		if (rs2 > 3 || (rs2 > 1 && xlen == 32))
			return false;
		if (op == 0x18)
			put(o, "fcvt.%s.%c %s,%s", it[rs2], t, xreg[rd], freg[rs1]);
		else
			put(o, "fcvt.%c.%s %s,%s", t, it[rs2], freg[rd], xreg[rs1]);
		/* A 32-bit integer fits a double exactly: no mode printed. */
		if (op == 0x1a && fmt && rs2 < 2)
			return true;
		break;
	}
	case 0x1c:
		if (rs2)
			return false;
		if (rm == 0 && (fmt == 0 || xlen == 64))
			put(o, "fmv.x.%c %s,%s", fmt ? 'd' : 'w', xreg[rd], freg[rs1]);
		else if (rm == 1)
			put(o, "fclass.%c %s,%s", t, xreg[rd], freg[rs1]);
		else
			return false;
		return true;
	case 0x1e:
		if (rs2 || rm || (fmt && xlen == 32))
			return false;
		put(o, "fmv.%c.x %s,%s", fmt ? 'd' : 'w', freg[rd], xreg[rs1]);
		return true;
	default:
		return false;
	}
	if (rmtext)
		put(o, ",%s", rmtext);
	return true;
}

static bool fused(struct rv_out *o, uint32_t w, unsigned opcode)
{
	static const char *const names[4] = {"fmadd", "fmsub", "fnmsub", "fnmadd"};
	unsigned fmt = bits(w, 26, 25), rm = bits(w, 14, 12);
	if (fmt > 1)
		return false;
	put(o, "%s.%c %s,%s,%s,%s", names[(opcode >> 2) & 3], fmt ? 'd' : 's',
	    freg[bits(w, 11, 7)], freg[bits(w, 19, 15)], freg[bits(w, 24, 20)],
	    freg[bits(w, 31, 27)]);
	if (rm != 7)
		put(o, ",%s", rounding[rm]);
	return true;
}

static bool decode32(struct rv_out *o, uint32_t w, uint64_t pc, unsigned xlen)
{
	unsigned opcode = w & 0x7f, rd = bits(w, 11, 7), f3 = bits(w, 14, 12);
	unsigned rs1 = bits(w, 19, 15), rs2 = bits(w, 24, 20);
	int64_t imm_i = sext(bits(w, 31, 20), 12);
	int64_t imm_s = sext((bits(w, 31, 25) << 5) | rd, 12);

	switch (opcode) {
	case 0x37: case 0x17:
		put(o, "%s %s,0x%x", opcode == 0x37 ? "lui" : "auipc", xreg[rd], bits(w, 31, 12));
		return true;
	case 0x6f: {
		uint32_t imm = (bits(w, 31, 31) << 20) | (bits(w, 19, 12) << 12) |
			       (bits(w, 20, 20) << 11) | (bits(w, 30, 21) << 1);
		put(o, "jal %s,", xreg[rd]);
		target(o, pc, sext(imm, 21), xlen, jal_class(rd));
		return true;
	}
	case 0x67:
		if (f3)
			return false;
		o->insn->iclass = jalr_class(rd, rs1);
		put(o, "jalr %s,%" PRId64 "(%s)", xreg[rd], imm_i, xreg[rs1]);
		return true;
	case 0x63: {
		static const char *const names[8] = {"beq", "bne", NULL, NULL, "blt", "bge", "bltu", "bgeu"};
		if (!names[f3])
			return false;
		uint32_t imm = (bits(w, 31, 31) << 12) | (bits(w, 7, 7) << 11) |
			       (bits(w, 30, 25) << 5) | (bits(w, 11, 8) << 1);
		put(o, "%s %s,%s,", names[f3], xreg[rs1], xreg[rs2]);
		target(o, pc, sext(imm, 13), xlen, HWT_INSN_COND);
		return true;
	}
	case 0x03: {
		static const char *const names[8] = {"lb", "lh", "lw", "ld", "lbu", "lhu", "lwu", NULL};
		if (!names[f3] || (xlen == 32 && (f3 == 3 || f3 == 6)))
			return false;
		put(o, "%s %s,%" PRId64 "(%s)", names[f3], xreg[rd], imm_i, xreg[rs1]);
		return true;
	}
	case 0x23: {
		static const char *const names[8] = {"sb", "sh", "sw", "sd"};
		if (f3 > 3 || (xlen == 32 && f3 == 3))
			return false;
		put(o, "%s %s,%" PRId64 "(%s)", names[f3], xreg[rs2], imm_s, xreg[rs1]);
		return true;
	}
	case 0x07: case 0x27: {
		if (f3 != 2 && f3 != 3)
			return false;
		bool load = opcode == 0x07;
		put(o, "f%c%c %s,%" PRId64 "(%s)", load ? 'l' : 's', f3 == 2 ? 'w' : 'd',
		    freg[load ? rd : rs2], load ? imm_i : imm_s, xreg[rs1]);
		return true;
	}
	case 0x13:
		return op_imm(o, w, xlen, false);
	case 0x1b:
		return xlen == 64 && op_imm(o, w, xlen, true);
	case 0x33:
		return op_reg(o, w, false);
	case 0x3b:
		return xlen == 64 && op_reg(o, w, true);
	case 0x2f:
		return amo(o, w, xlen);
	case 0x53:
		return op_fp(o, w, xlen);
	case 0x43: case 0x47: case 0x4b: case 0x4f:
		return fused(o, w, opcode);
	case 0x0f:
		if (f3 == 1 && !(w & ~0x707fu)) {
			put(o, "fence.i");
			return true;
		}
		if (f3 != 0)
			return false;
		if (w == 0x8330000f) {
			put(o, "fence.tso");
			return true;
		}
		put(o, "fence ");
		fence_set(o, bits(w, 27, 24));
		put(o, ",");
		fence_set(o, bits(w, 23, 20));
		return true;
	case 0x73:
		return op_system(o, w);
	}
	return false;
}

/* The 3-bit register fields of the compressed forms: x8-x15. */
static const char *creg(uint32_t v)
{
	return xreg[8 + (v & 7)];
}

static const char *cfreg(uint32_t v)
{
	return freg[8 + (v & 7)];
}

/* Quadrant 0: loads and stores through x8-x15, c.addi4spn. */
static bool quad0(struct rv_out *o, uint32_t h, unsigned xlen)
{
	unsigned f3 = bits(h, 15, 13), rd = bits(h, 4, 2), rs1 = bits(h, 9, 7);
	/* offsets: word forms uimm[5:3|2|6], double forms uimm[5:3|7:6] */
	unsigned offw = (bits(h, 12, 10) << 3) | (bits(h, 6, 6) << 2) | (bits(h, 5, 5) << 6);
	unsigned offd = (bits(h, 12, 10) << 3) | (bits(h, 6, 5) << 6);
	switch (f3) {
	case 0: {
		unsigned imm = (bits(h, 12, 11) << 4) | (bits(h, 10, 7) << 6) |
			       (bits(h, 6, 6) << 2) | (bits(h, 5, 5) << 3);
		if (!imm)
			return false;
		put(o, "c.addi4spn %s,sp,%u", creg(rd), imm);
		return true;
	}
	case 1: put(o, "c.fld %s,%u(%s)", cfreg(rd), offd, creg(rs1)); return true;
	case 2: put(o, "c.lw %s,%u(%s)", creg(rd), offw, creg(rs1)); return true;
	case 3:
		if (xlen == 32)
			put(o, "c.flw %s,%u(%s)", cfreg(rd), offw, creg(rs1));
		else
			put(o, "c.ld %s,%u(%s)", creg(rd), offd, creg(rs1));
		return true;
	case 5: put(o, "c.fsd %s,%u(%s)", cfreg(rd), offd, creg(rs1)); return true;
	case 6: put(o, "c.sw %s,%u(%s)", creg(rd), offw, creg(rs1)); return true;
	case 7:
		if (xlen == 32)
			put(o, "c.fsw %s,%u(%s)", cfreg(rd), offw, creg(rs1));
		else
			put(o, "c.sd %s,%u(%s)", creg(rd), offd, creg(rs1));
		return true;
	}
	return false;
}

static int64_t cj_offset(uint32_t h)
{
	uint32_t imm = (bits(h, 12, 12) << 11) | (bits(h, 11, 11) << 4) |
		       (bits(h, 10, 9) << 8) | (bits(h, 8, 8) << 10) |
		       (bits(h, 7, 7) << 6) | (bits(h, 6, 6) << 7) |
		       (bits(h, 5, 3) << 1) | (bits(h, 2, 2) << 5);
	return sext(imm, 12);
}

/* Quadrant 1: immediates, c.jal/c.j, c.beqz/c.bnez, the x8-x15 ALU. */
static bool quad1(struct rv_out *o, uint32_t h, uint64_t pc, unsigned xlen)
{
	unsigned f3 = bits(h, 15, 13), rd = bits(h, 11, 7);
	int64_t imm6 = sext((bits(h, 12, 12) << 5) | bits(h, 6, 2), 6);
	switch (f3) {
	case 0: /* rd 0, imm 0 is c.nop, which no-aliases prints so */
		put(o, "c.addi %s,%" PRId64, xreg[rd], imm6);
		return true;
	case 1:
		if (xlen == 32) {
			put(o, "c.jal ");
			target(o, pc, cj_offset(h), xlen, HWT_INSN_CALL);
			return true;
		}
		if (!rd)
			return false;
		put(o, "c.addiw %s,%" PRId64, xreg[rd], imm6);
		return true;
	case 2:
		put(o, "c.li %s,%" PRId64, xreg[rd], imm6);
		return true;
	case 3:
		if (rd == 2) {
			uint32_t imm = (bits(h, 12, 12) << 9) | (bits(h, 6, 6) << 4) |
				       (bits(h, 5, 5) << 6) | (bits(h, 4, 3) << 7) |
				       (bits(h, 2, 2) << 5);
			if (!imm)
				return false;
			put(o, "c.addi16sp sp,%" PRId64, sext(imm, 10));
			return true;
		}
		if (!imm6)
			return false;
		put(o, "c.lui %s,0x%" PRIx64, xreg[rd], (uint64_t)imm6 & 0xfffff);
		return true;
	case 4: {
		unsigned f2 = bits(h, 11, 10), r = bits(h, 9, 7);
		unsigned sh = (bits(h, 12, 12) << 5) | bits(h, 6, 2);
		if (f2 < 2) {
			if (xlen == 32 && sh >= 32)
				return false;
			put(o, "%s %s,0x%x", f2 ? "c.srai" : "c.srli", creg(r), sh);
			return true;
		}
		if (f2 == 2) {
			put(o, "c.andi %s,%" PRId64, creg(r), imm6);
			return true;
		}
		static const char *const ops[8] = {
			"c.sub", "c.xor", "c.or", "c.and", "c.subw", "c.addw", NULL, NULL,
		};
		unsigned k = (bits(h, 12, 12) << 2) | bits(h, 6, 5);
		if (!ops[k] || (k >= 4 && xlen == 32))
			return false;
		put(o, "%s %s,%s", ops[k], creg(r), creg(bits(h, 4, 2)));
		return true;
	}
	case 5:
		put(o, "c.j ");
		target(o, pc, cj_offset(h), xlen, HWT_INSN_JUMP);
		return true;
	default: { /* 6, 7: c.beqz, c.bnez */
		uint32_t imm = (bits(h, 12, 12) << 8) | (bits(h, 11, 10) << 3) |
			       (bits(h, 6, 5) << 6) | (bits(h, 4, 3) << 1) |
			       (bits(h, 2, 2) << 5);
		put(o, "%s %s,", f3 == 6 ? "c.beqz" : "c.bnez", creg(bits(h, 9, 7)));
		target(o, pc, sext(imm, 9), xlen, HWT_INSN_COND);
		return true;
	}
	}
}

/* Quadrant 2: stack-pointer loads and stores, c.slli, c.jr/c.jalr,
 * c.mv/c.add, c.ebreak. */
static bool quad2(struct rv_out *o, uint32_t h, unsigned xlen)
{
	unsigned f3 = bits(h, 15, 13), rd = bits(h, 11, 7), rs2 = bits(h, 6, 2);
	unsigned b12 = bits(h, 12, 12);
	unsigned lw = (b12 << 5) | (bits(h, 6, 4) << 2) | (bits(h, 3, 2) << 6);
	unsigned ld = (b12 << 5) | (bits(h, 6, 5) << 3) | (bits(h, 4, 2) << 6);
	unsigned sw = (bits(h, 12, 9) << 2) | (bits(h, 8, 7) << 6);
	unsigned sd = (bits(h, 12, 10) << 3) | (bits(h, 9, 7) << 6);
	switch (f3) {
	case 0: {
		unsigned sh = (b12 << 5) | rs2;
		if (xlen == 32 && sh >= 32)
			return false;
		put(o, "c.slli %s,0x%x", xreg[rd], sh);
		return true;
	}
	case 1: put(o, "c.fldsp %s,%u(sp)", freg[rd], ld); return true;
	case 2:
		if (!rd)
			return false;
		put(o, "c.lwsp %s,%u(sp)", xreg[rd], lw);
		return true;
	case 3:
		if (xlen == 32)
			put(o, "c.flwsp %s,%u(sp)", freg[rd], lw);
		else if (rd)
			put(o, "c.ldsp %s,%u(sp)", xreg[rd], ld);
		else
			return false;
		return true;
	case 4:
		if (!b12 && !rs2) {
			if (!rd)
				return false;
			o->insn->iclass = jalr_class(0, rd);
			put(o, "c.jr %s", xreg[rd]);
		} else if (!b12) {
			put(o, "c.mv %s,%s", xreg[rd], xreg[rs2]);
		} else if (!rd && !rs2) {
			o->insn->iclass = HWT_INSN_SYSCALL;
			put(o, "c.ebreak");
		} else if (!rs2) {
			o->insn->iclass = jalr_class(1, rd);
			put(o, "c.jalr %s", xreg[rd]);
		} else {
			put(o, "c.add %s,%s", xreg[rd], xreg[rs2]);
		}
		return true;
	case 5: put(o, "c.fsdsp %s,%u(sp)", freg[rs2], sd); return true;
	case 6: put(o, "c.swsp %s,%u(sp)", xreg[rs2], sw); return true;
	default:
		if (xlen == 32)
			put(o, "c.fswsp %s,%u(sp)", freg[rs2], sw);
		else
			put(o, "c.sdsp %s,%u(sp)", xreg[rs2], sd);
		return true;
	}
}

int insn_rv_decode(unsigned xlen, const uint8_t *code, size_t size,
		   uint64_t addr, struct hwt_insn *insn, char *buf, size_t bufsize)
{
	struct rv_out o = {insn, buf, bufsize, 0};
	memset(insn, 0, sizeof(*insn));
	insn->addr = addr;
	if (buf && bufsize)
		buf[0] = '\0';
	if (size < 2)
		goto invalid;
	uint32_t h = code[0] | (uint32_t)code[1] << 8;
	bool ok;
	if ((h & 3) != 3) {
		insn->size = 2;
		ok = (h & 3) == 0 ? h && quad0(&o, h, xlen) :
		     (h & 3) == 1 ? quad1(&o, h, addr, xlen) : quad2(&o, h, xlen);
	} else if ((h & 0x1c) != 0x1c && size >= 4) {
		insn->size = 4;
		ok = decode32(&o, h | (uint32_t)code[2] << 16 | (uint32_t)code[3] << 24,
			      addr, xlen);
	} else {
		goto invalid;
	}
	if (ok)
		return 0;
	/* A whole instruction of no extension known here: binutils' form
	 * for it, so the listing goes on past it. */
	memset(insn, 0, sizeof(*insn));
	insn->addr = addr;
	insn->size = (uint8_t)(h & 3) == 3 ? 4 : 2;
	o.len = 0;
	if (insn->size == 2)
		put(&o, ".insn 2, 0x%04" PRIx32, h);
	else
		put(&o, ".insn 4, 0x%08" PRIx32,
		    h | (uint32_t)code[2] << 16 | (uint32_t)code[3] << 24);
	return 0;
invalid:
	return hwt_error(HWT_ERR_DECODE,
			 "no valid RISC-V instruction at 0x%llx (%zu bytes available)",
			 (unsigned long long)addr, size);
}
