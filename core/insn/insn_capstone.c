/* Instruction decoding through Capstone, without Capstone's detail mode:
 * the instruction id and operand text say all we need, and detail mode
 * would cost an allocation-heavy pass per instruction. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/insn/insn_internal.h"
#include "hwtrace/error.h"

#ifdef HWT_HAVE_CAPSTONE
#include <capstone/capstone.h>

struct insn_cs {
	csh handle;
	cs_insn *insn;
	cs_arch arch;
	cs_mode mode;
	bool fallback; /* the last decode used vex_length */
};

/* Capstone sorts some of its tables in static memory the first time it
 * prints an instruction that needs them: two threads disassembling for
 * the first time at once sort the same table together (ThreadSanitizer
 * saw it, and a half-sorted table names the wrong registers). Printing
 * a few such instructions of each architecture once, before a second
 * thread can, sorts them. */
static void warm_once(void)
{
	static const struct {
		cs_arch arch;
		cs_mode mode;
		uint8_t code[16];
		size_t size;
	} warm[] = {
		/* push rax; inc rax; jne; ret; mov eax, [rsp] */
		{CS_ARCH_X86, CS_MODE_64,
		 {0x50, 0x48, 0xff, 0xc0, 0x75, 0xfb, 0xc3, 0x8b, 0x04, 0x24}, 10},
		{CS_ARCH_X86, CS_MODE_32,
		 {0x50, 0x40, 0x75, 0xfc, 0xc3, 0x8b, 0x04, 0x24}, 8},
		{CS_ARCH_X86, CS_MODE_16, {0x50, 0x40, 0x75, 0xfc, 0xc3}, 5},
		/* stp x29, x30, [sp, #-16]!; ret */
		{CS_ARCH_ARM64, CS_MODE_ARM,
		 {0xfd, 0x7b, 0xbf, 0xa9, 0xc0, 0x03, 0x5f, 0xd6}, 8},
		/* push {lr}; bx lr */
		{CS_ARCH_ARM, CS_MODE_ARM,
		 {0x04, 0xe0, 0x2d, 0xe5, 0x1e, 0xff, 0x2f, 0xe1}, 8},
		{CS_ARCH_ARM, CS_MODE_THUMB, {0x00, 0xb5, 0x70, 0x47}, 4},
	};
	for (size_t i = 0; i < sizeof(warm) / sizeof(warm[0]); i++) {
		csh h;
		cs_insn *insn = NULL;
		if (cs_open(warm[i].arch, warm[i].mode, &h) != CS_ERR_OK)
			continue; /* not built in: nothing to sort */
		size_t n = cs_disasm(h, warm[i].code, warm[i].size, 0x1000, 0,
				     &insn);
		if (n)
			cs_free(insn, n);
		cs_close(&h);
	}
}

void hwt_insn_warm(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	pthread_once(&once, warm_once);
}

/* Where the instruction ends after its ModRM byte at @p[@i] (with its SIB
 * and displacement, 64-bit addressing); 0 when cut short. */
static size_t modrm_length(const uint8_t *p, size_t n, size_t i)
{
	size_t disp = 0;
	if (i + 1 > n)
		return 0;
	uint8_t modrm = p[i++];
	unsigned mod = modrm >> 6, rm = modrm & 7;
	if (mod != 3 && rm == 4) {
		if (i + 1 > n)
			return 0;
		if (mod == 0 && (p[i] & 7) == 5)
			disp = 4;
		i++;
	}
	if (mod == 0 && rm == 5)
		disp = 4;
	else if (mod == 1)
		disp = 1;
	else if (mod == 2)
		disp = 4;
	i += disp;
	return i <= n ? i : 0;
}

/* The length of a VEX- or EVEX-encoded instruction (64-bit mode), for the
 * AVX-512 and mask-register instructions Capstone 4 does not know (glibc's
 * string functions use them). None of them branches. Returns 0 when @p is
 * not such an instruction or is cut short. */
static size_t vex_length(const uint8_t *p, size_t n)
{
	size_t i = 0, imm = 0;
	unsigned map;

	while (i < n && i < 4 && (p[i] == 0x26 || p[i] == 0x2e || p[i] == 0x36 ||
				  p[i] == 0x3e || p[i] == 0x64 || p[i] == 0x65 ||
				  p[i] == 0x67))
		i++;
	if (i + 2 > n)
		return 0;
	if (p[i] == 0xc5) {
		map = 1;
		i += 2;
	} else if (p[i] == 0xc4) {
		map = p[i + 1] & 0x1f;
		i += 3;
	} else if (p[i] == 0x62) {
		map = p[i + 1] & 0x7;
		i += 4;
	} else {
		return 0;
	}
	if (i + 1 > n)
		return 0;
	uint8_t op = p[i++];
	if (map == 1 && op == 0x77)
		return i; /* vzeroupper, vzeroall: no ModRM */
	size_t m = modrm_length(p, n, i);
	if (!m)
		return 0;
	i = m;
	if (map == 3 || (map == 1 && ((op >= 0x70 && op <= 0x73) || op == 0xc2 ||
				      (op >= 0xc4 && op <= 0xc6))))
		imm = 1;
	i += imm;
	return i <= n && i <= 15 ? i : 0;
}

/* The length of an instruction in the 0F 18..1F hint-NOP space, where CET
 * puts rdssp, incssp, endbr and the like: executed as NOPs where CET is
 * off and never a branch, but not all known to Capstone 4 (libgcc's
 * unwinder runs rdsspq). Returns 0 when @p is not one or is cut short. */
static size_t hint_nop_length(const uint8_t *p, size_t n)
{
	size_t i = 0;
	while (i < n && i < 4 && (p[i] == 0x66 || p[i] == 0xf2 || p[i] == 0xf3 ||
				  p[i] == 0x2e || p[i] == 0x3e || p[i] == 0x26 ||
				  p[i] == 0x64 || p[i] == 0x65 || p[i] == 0x36))
		i++;
	if (i < n && (p[i] & 0xf0) == 0x40)
		i++;  /* REX */
	if (i + 2 > n || p[i] != 0x0f || p[i + 1] < 0x18 || p[i + 1] > 0x1f)
		return 0;
	size_t len = modrm_length(p, n, i + 2);
	return len <= 15 ? len : 0;
}

int insn_cs_new(enum hwt_isa isa, struct insn_cs **out)
{
	cs_arch arch;
	cs_mode mode;

	switch (isa) {
	case HWT_ISA_X86_64: arch = CS_ARCH_X86; mode = CS_MODE_64; break;
	case HWT_ISA_X86_32: arch = CS_ARCH_X86; mode = CS_MODE_32; break;
	case HWT_ISA_X86_16: arch = CS_ARCH_X86; mode = CS_MODE_16; break;
	case HWT_ISA_A64: arch = CS_ARCH_ARM64; mode = CS_MODE_ARM; break;
	/* A32/T32: text only; branches are not classified. */
	case HWT_ISA_A32: arch = CS_ARCH_ARM; mode = CS_MODE_ARM; break;
	case HWT_ISA_T32: arch = CS_ARCH_ARM; mode = CS_MODE_THUMB; break;
	default:
		return hwt_error(HWT_ERR_NOSUP,
				 "instruction decoding of %s code is not supported",
				 hwt_isa_name(isa));
	}
	hwt_insn_warm();
	struct insn_cs *dec = calloc(1, sizeof(*dec));
	if (!dec)
		return hwt_error(HWT_ERR_NOMEM, "out of memory for an instruction decoder");
	if (cs_open(arch, mode, &dec->handle) != CS_ERR_OK) {
		free(dec);
		return hwt_error(HWT_ERR_NOSUP,
				 "Capstone cannot decode %s code (is libcapstone "
				 "built with that architecture?)", hwt_isa_name(isa));
	}
	dec->insn = cs_malloc(dec->handle);
	if (!dec->insn) {
		cs_close(&dec->handle);
		free(dec);
		return hwt_error(HWT_ERR_NOMEM, "out of memory for an instruction decoder");
	}
	dec->arch = arch;
	dec->mode = mode;
	*out = dec;
	return 0;
}

void insn_cs_free(struct insn_cs *dec)
{
	if (!dec)
		return;
	cs_free(dec->insn, 1);
	cs_close(&dec->handle);
	free(dec);
}

/* The last "0x..." number of an operand string: a direct target. */
static bool last_hex(const char *ops, uint64_t *value)
{
	const char *p = NULL;
	for (const char *q = strstr(ops, "0x"); q; q = strstr(q + 2, "0x"))
		p = q;
	if (!p)
		return false;
	*value = strtoull(p, NULL, 16);
	return true;
}

static void classify_x86(const cs_insn *ci, struct hwt_insn *insn)
{
	bool direct = !strncmp(ci->op_str, "0x", 2);

	switch (ci->id) {
	case X86_INS_CALL:
		insn->iclass = direct ? HWT_INSN_CALL : HWT_INSN_CALL_IND;
		break;
	case X86_INS_JMP:
		insn->iclass = direct ? HWT_INSN_JUMP : HWT_INSN_JUMP_IND;
		break;
	case X86_INS_RET:
		insn->iclass = HWT_INSN_RETURN;
		break;
	case X86_INS_JAE: case X86_INS_JA: case X86_INS_JBE: case X86_INS_JB:
	case X86_INS_JCXZ: case X86_INS_JECXZ: case X86_INS_JRCXZ:
	case X86_INS_JE: case X86_INS_JGE: case X86_INS_JG: case X86_INS_JLE:
	case X86_INS_JL: case X86_INS_JNE: case X86_INS_JNO: case X86_INS_JNP:
	case X86_INS_JNS: case X86_INS_JO: case X86_INS_JP: case X86_INS_JS:
	case X86_INS_LOOP: case X86_INS_LOOPE: case X86_INS_LOOPNE:
		insn->iclass = HWT_INSN_COND;
		direct = true;
		break;
	case X86_INS_SYSCALL: case X86_INS_SYSENTER: case X86_INS_INT:
	case X86_INS_INT1: case X86_INS_INT3: case X86_INS_INTO:
		insn->iclass = HWT_INSN_SYSCALL;
		direct = false;
		break;
	case X86_INS_SYSRET: case X86_INS_SYSEXIT: case X86_INS_IRET:
	case X86_INS_IRETD: case X86_INS_IRETQ:
		insn->iclass = HWT_INSN_SYSRET;
		direct = false;
		break;
	case X86_INS_LCALL: case X86_INS_LJMP: case X86_INS_RETF:
	case X86_INS_RETFQ:
		insn->iclass = HWT_INSN_FAR;
		direct = false;
		break;
	default:
		insn->iclass = HWT_INSN_OTHER;
		direct = false;
		break;
	}
	if (direct)
		insn->has_target = last_hex(ci->op_str, &insn->target);
}

static void classify_a64(const cs_insn *ci, struct hwt_insn *insn)
{
	bool direct = false;

	switch (ci->id) {
	case ARM64_INS_B:
		/* "b.eq" and friends share the id of "b". */
		insn->iclass = ci->mnemonic[1] == '.' ? HWT_INSN_COND : HWT_INSN_JUMP;
		direct = true;
		break;
	case ARM64_INS_BL:
		insn->iclass = HWT_INSN_CALL;
		direct = true;
		break;
	case ARM64_INS_BLR:
		insn->iclass = HWT_INSN_CALL_IND;
		break;
	case ARM64_INS_BR:
		insn->iclass = HWT_INSN_JUMP_IND;
		break;
	case ARM64_INS_RET:
		insn->iclass = HWT_INSN_RETURN;
		break;
	case ARM64_INS_CBZ: case ARM64_INS_CBNZ:
	case ARM64_INS_TBZ: case ARM64_INS_TBNZ:
		insn->iclass = HWT_INSN_COND;
		direct = true;
		break;
	case ARM64_INS_SVC:
		insn->iclass = HWT_INSN_SYSCALL;
		break;
	case ARM64_INS_ERET:
		insn->iclass = HWT_INSN_SYSRET;
		break;
	default:
		insn->iclass = HWT_INSN_OTHER;
		break;
	}
	if (direct)
		insn->has_target = last_hex(ci->op_str, &insn->target);
}

int insn_cs_decode(struct insn_cs *dec, const uint8_t *code,
		    size_t size, uint64_t addr, struct hwt_insn *insn)
{
	const uint8_t *p = code;
	size_t left = size;
	uint64_t at = addr;

	memset(insn, 0, sizeof(*insn));
	insn->addr = addr;
	dec->fallback = false;
	if (!cs_disasm_iter(dec->handle, &p, &left, &at, dec->insn)) {
		bool x64 = dec->arch == CS_ARCH_X86 && dec->mode == CS_MODE_64;
		size_t len = x64 ? vex_length(code, size) : 0;
		if (x64 && !len)
			len = hint_nop_length(code, size);
		if (len) {
			dec->fallback = true;
			insn->size = (uint8_t)len;
			insn->iclass = HWT_INSN_OTHER;
			return 0;
		}
		return hwt_error(HWT_ERR_DECODE,
				 "no valid instruction at 0x%llx (%zu bytes available)",
				 (unsigned long long)addr, size);
	}
	insn->size = (uint8_t)dec->insn->size;
	if (dec->arch == CS_ARCH_X86)
		classify_x86(dec->insn, insn);
	else if (dec->arch == CS_ARCH_ARM64)
		classify_a64(dec->insn, insn);
	else
		insn->iclass = HWT_INSN_OTHER;
	return 0;
}

int insn_cs_format(struct insn_cs *dec, const uint8_t *code,
		    size_t size, uint64_t addr, struct hwt_insn *insn,
		    char *buf, size_t bufsize)
{
	int err = insn_cs_decode(dec, code, size, addr, insn);
	if (err)
		return err;
	if (bufsize && dec->fallback)
		snprintf(buf, bufsize, "(%u-byte VEX/EVEX or hint-NOP instruction)",
			 (unsigned)insn->size);
	else if (bufsize)
		snprintf(buf, bufsize, "%s%s%s", dec->insn->mnemonic,
			 dec->insn->op_str[0] ? " " : "", dec->insn->op_str);
	return 0;
}

#else /* !HWT_HAVE_CAPSTONE */

static int no_capstone(void)
{
	return hwt_error(HWT_ERR_NOSUP,
			 "instruction decoding is not supported: hwtrace was built "
			 "without Capstone (install libcapstone-dev and rebuild "
			 "with -DHWT_WITH_CAPSTONE=ON)");
}

void hwt_insn_warm(void)
{
}

int insn_cs_new(enum hwt_isa isa, struct insn_cs **out)
{
	(void)isa;
	*out = NULL;
	return no_capstone();
}

void insn_cs_free(struct insn_cs *dec)
{
	(void)dec;
}

int insn_cs_decode(struct insn_cs *dec, const uint8_t *code,
		    size_t size, uint64_t addr, struct hwt_insn *insn)
{
	return no_capstone();
}

int insn_cs_format(struct insn_cs *dec, const uint8_t *code,
		    size_t size, uint64_t addr, struct hwt_insn *insn,
		    char *buf, size_t bufsize)
{
	return no_capstone();
}

#endif
