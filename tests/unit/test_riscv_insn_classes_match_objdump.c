/* The RISC-V flow classifier (rvt_insn.c) against binutils: every
 * instruction below was assembled by Debian's riscv64-linux-gnu-as
 * (rv64gc and rv32gc) and its bytes, length, address and target are
 * objdump -d -M no-aliases,numeric's. The expected class follows from
 * objdump's mnemonic and registers by the N-Trace specification's itype
 * table (link = x1 or x5): jal/c.jal with rd = link is a call, jalr with
 * rd = link a call unless rs is the other link (a co-routine swap),
 * jalr/c.jr with rd not a link and rs a link a return; ecall, ebreak,
 * c.ebreak traps; mret, sret trap returns; loads, stores, A, F, D and M
 * instructions, c.addiw and c.nop change nothing. Also: 0x2081 is c.jal
 * for RV32 but c.addiw for RV64, and lengths from the encoding's low
 * bits (16, 32, 48, 64 bits). */
#include <stdio.h>

#include "backends/riscv-trace/rvt_insn.h"
#include "harness.h"

struct row {
	unsigned xlen;
	uint64_t pc;
	uint8_t bytes[4];
	unsigned size;
	enum rvt_iclass iclass;
	uint64_t target;
	const char *objdump;
};

static const struct row rows[] = {
	{64, 0x0, {0xef, 0x00, 0x00, 0x02}, 4, RVT_I_CALL, 0x20ull, "jal x1,20"},
	{64, 0x4, {0x6f, 0xf0, 0x1f, 0xff}, 4, RVT_I_JUMP, 0xfffffffffffffff4ull, "jal x0,fffffffffffffff4"},
	{64, 0x8, {0xef, 0x02, 0x80, 0x00}, 4, RVT_I_CALL, 0x10ull, "jal x5,10"},
	{64, 0xc, {0xef, 0xf3, 0xff, 0x7f}, 4, RVT_I_JUMP, 0x10000aull, "jal x7,10000a"},
	{64, 0x10, {0x6f, 0x00, 0x00, 0x80}, 4, RVT_I_JUMP, 0xfffffffffff00010ull, "jal x0,fffffffffff00010"},
	{64, 0x14, {0x67, 0x80, 0x00, 0x00}, 4, RVT_I_RETURN, 0x0ull, "jalr x0,0(x1)"},
	{64, 0x18, {0x67, 0x80, 0x02, 0x00}, 4, RVT_I_RETURN, 0x0ull, "jalr x0,0(x5)"},
	{64, 0x1c, {0xe7, 0x00, 0x05, 0x00}, 4, RVT_I_CALL_IND, 0x0ull, "jalr x1,0(x10)"},
	{64, 0x20, {0xe7, 0x80, 0x00, 0x00}, 4, RVT_I_CALL_IND, 0x0ull, "jalr x1,0(x1)"},
	{64, 0x24, {0xe7, 0x80, 0x02, 0x00}, 4, RVT_I_SWAP, 0x0ull, "jalr x1,0(x5)"},
	{64, 0x28, {0xe7, 0x82, 0x00, 0x00}, 4, RVT_I_SWAP, 0x0ull, "jalr x5,0(x1)"},
	{64, 0x2c, {0xe7, 0x82, 0x02, 0x01}, 4, RVT_I_CALL_IND, 0x0ull, "jalr x5,16(x5)"},
	{64, 0x30, {0x67, 0x00, 0x85, 0x00}, 4, RVT_I_JUMP_IND, 0x0ull, "jalr x0,8(x10)"},
	{64, 0x34, {0xe7, 0x83, 0x00, 0x00}, 4, RVT_I_RETURN, 0x0ull, "jalr x7,0(x1)"},
	{64, 0x38, {0xe7, 0x03, 0xc5, 0xff}, 4, RVT_I_JUMP_IND, 0x0ull, "jalr x7,-4(x10)"},
	{64, 0x3c, {0xe3, 0x0f, 0xb5, 0x7e}, 4, RVT_I_BRANCH, 0x103aull, "beq x10,x11,103a"},
	{64, 0x40, {0x63, 0x10, 0x05, 0x80}, 4, RVT_I_BRANCH, 0xfffffffffffff040ull, "bne x10,x0,fffffffffffff040"},
	{64, 0x44, {0x63, 0xc4, 0x62, 0x00}, 4, RVT_I_BRANCH, 0x4cull, "blt x5,x6,4c"},
	{64, 0x48, {0xe3, 0xdc, 0x62, 0xfe}, 4, RVT_I_BRANCH, 0x40ull, "bge x5,x6,40"},
	{64, 0x4c, {0xe3, 0xe0, 0x20, 0x00}, 4, RVT_I_BRANCH, 0x84cull, "bltu x1,x2,84c"},
	{64, 0x50, {0x63, 0xff, 0x20, 0xfe}, 4, RVT_I_BRANCH, 0xfffffffffffff84eull, "bgeu x1,x2,fffffffffffff84e"},
	{64, 0x54, {0x73, 0x00, 0x00, 0x00}, 4, RVT_I_TRAP, 0x0ull, "ecall"},
	{64, 0x58, {0x73, 0x00, 0x10, 0x00}, 4, RVT_I_TRAP, 0x0ull, "ebreak"},
	{64, 0x5c, {0x73, 0x00, 0x20, 0x30}, 4, RVT_I_TRAP_RET, 0x0ull, "mret"},
	{64, 0x60, {0x73, 0x00, 0x20, 0x10}, 4, RVT_I_TRAP_RET, 0x0ull, "sret"},
	{64, 0x64, {0x73, 0x00, 0x50, 0x10}, 4, RVT_I_OTHER, 0x0ull, "wfi"},
	{64, 0x68, {0x0f, 0x00, 0xf0, 0x0f}, 4, RVT_I_OTHER, 0x0ull, "fence iorw,iorw"},
	{64, 0x6c, {0x2f, 0xa5, 0x05, 0x10}, 4, RVT_I_OTHER, 0x0ull, "lr.w x10,(x11)"},
	{64, 0x70, {0x2f, 0xb5, 0xc5, 0x18}, 4, RVT_I_OTHER, 0x0ull, "sc.d x10,x12,(x11)"},
	{64, 0x74, {0x53, 0xf0, 0x20, 0x02}, 4, RVT_I_OTHER, 0x0ull, "fadd.d f0,f1,f2"},
	{64, 0x78, {0xb3, 0x00, 0x31, 0x02}, 4, RVT_I_OTHER, 0x0ull, "mul x1,x2,x3"},
	{64, 0x7c, {0x93, 0x80, 0x10, 0x00}, 4, RVT_I_OTHER, 0x0ull, "addi x1,x1,1"},
	{64, 0x80, {0xfd, 0xaf}, 2, RVT_I_JUMP, 0x87eull, "c.j 87e"},
	{64, 0x82, {0x01, 0xb0}, 2, RVT_I_JUMP, 0xfffffffffffff882ull, "c.j fffffffffffff882"},
	{64, 0x84, {0x82, 0x80}, 2, RVT_I_RETURN, 0x0ull, "c.jr x1"},
	{64, 0x86, {0x82, 0x82}, 2, RVT_I_RETURN, 0x0ull, "c.jr x5"},
	{64, 0x88, {0x02, 0x85}, 2, RVT_I_JUMP_IND, 0x0ull, "c.jr x10"},
	{64, 0x8a, {0x02, 0x95}, 2, RVT_I_CALL_IND, 0x0ull, "c.jalr x10"},
	{64, 0x8c, {0x82, 0x92}, 2, RVT_I_SWAP, 0x0ull, "c.jalr x5"},
	{64, 0x8e, {0x82, 0x90}, 2, RVT_I_CALL_IND, 0x0ull, "c.jalr x1"},
	{64, 0x90, {0x7d, 0xcc}, 2, RVT_I_BRANCH, 0x18eull, "c.beqz x8,18e"},
	{64, 0x92, {0x81, 0xf0}, 2, RVT_I_BRANCH, 0xffffffffffffff92ull, "c.bnez x9,ffffffffffffff92"},
	{64, 0x94, {0x02, 0x90}, 2, RVT_I_TRAP, 0x0ull, "c.ebreak"},
	{64, 0x96, {0x05, 0x25}, 2, RVT_I_OTHER, 0x0ull, "c.addiw x10,1"},
	{64, 0x98, {0x01, 0x00}, 2, RVT_I_OTHER, 0x0ull, "c.addi x0,0"},
	{64, 0x9a, {0x7d, 0x15}, 2, RVT_I_OTHER, 0x0ull, "c.addi x10,-1"},
	{64, 0x9c, {0x80, 0x60}, 2, RVT_I_OTHER, 0x0ull, "c.ld x8,0(x9)"},
	{64, 0x9e, {0x06, 0xe4}, 2, RVT_I_OTHER, 0x0ull, "c.sdsp x1,8(x2)"},
	{32, 0x0, {0x81, 0x20}, 2, RVT_I_CALL, 0x40ull, "c.jal 40"},
	{32, 0x2, {0x09, 0x30}, 2, RVT_I_CALL, 0xfffff804ull, "c.jal fffff804"},
	{32, 0x4, {0x09, 0xa0}, 2, RVT_I_JUMP, 0x6ull, "c.j 6"},
	{32, 0x6, {0x82, 0x80}, 2, RVT_I_RETURN, 0x0ull, "c.jr x1"},
	{32, 0x8, {0xef, 0x10, 0x00, 0x00}, 4, RVT_I_CALL, 0x1008ull, "jal x1,1008"},
};

int main(void)
{
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct row *r = &rows[i];
		struct rvt_insn in;
		int err = rvt_insn_decode(r->bytes, r->size, r->pc, r->xlen, &in);
		CHECK_INT(err, 0);
		if (err)
			continue;
		hwt_test_checks += 3;
		if (in.size != r->size || in.iclass != r->iclass ||
		    ((r->iclass == RVT_I_BRANCH || r->iclass == RVT_I_CALL ||
		      r->iclass == RVT_I_JUMP) && in.target != r->target)) {
			HWT_FAIL("rv%u %s: size %u class %s target 0x%llx, want "
				 "%u %s 0x%llx", r->xlen, r->objdump, in.size,
				 rvt_iclass_name((enum rvt_iclass)in.iclass),
				 (unsigned long long)in.target, r->size,
				 rvt_iclass_name(r->iclass),
				 (unsigned long long)r->target);
		}
		/* One byte short of the instruction: not decoded. */
		CHECK_INT(rvt_insn_decode(r->bytes, r->size - 1, r->pc, r->xlen, &in), -1);
	}
	struct rvt_insn in;
	static const uint8_t cjal[] = {0x81, 0x20};
	CHECK_INT(rvt_insn_decode(cjal, 2, 0, 64, &in), 0);
	CHECK_INT(in.iclass, RVT_I_OTHER);
	CHECK_INT(rvt_insn_decode(cjal, 2, 0, 32, &in), 0);
	CHECK_INT(in.iclass, RVT_I_CALL);
	CHECK_U64(in.target, 0x40);
	CHECK_INT(rvt_insn_size(0x0001), 2);
	CHECK_INT(rvt_insn_size(0x0013), 4);
	CHECK_INT(rvt_insn_size(0x001f), 6);
	CHECK_INT(rvt_insn_size(0x003f), 8);
	CHECK_INT(rvt_insn_size(0x007f), 0);
	/* 0x0000 is the defined illegal instruction; all ones starts an
	 * 80-bit or longer one, whose length is not supported. */
	static const uint8_t zero[] = {0, 0}, ones[] = {0xff, 0xff, 0xff, 0xff};
	CHECK_INT(rvt_insn_decode(zero, 2, 0, 64, &in), 0);
	CHECK_INT(in.iclass, RVT_I_ILLEGAL);
	CHECK_INT(rvt_insn_decode(ones, 4, 0, 64, &in), -1); /* 80+ bits */
	printf("%d checks, %d failed\n", hwt_test_checks, hwt_test_failures);
	return hwt_test_failures != 0;
}
