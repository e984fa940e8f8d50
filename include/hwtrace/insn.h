/* Backend-author header (see docs/architecture.md).
 * Instruction decoding for every backend: the length and branch class of
 * one instruction, and its text for `--disasm`. x86 and Arm code go
 * through Capstone when HWT_HAVE_CAPSTONE is set (without it they answer
 * HWT_ERR_NOSUP); RISC-V code through hwtrace's own decoder, always. */
#ifndef HWTRACE_INSN_H
#define HWTRACE_INSN_H

#include "hwtrace/common.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hwtrace/element.h"
#include "hwtrace/image.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The longest instruction of any supported ISA (x86: 15 bytes). */
#define HWT_INSN_MAX_SIZE 16

enum hwt_insn_class {
	HWT_INSN_OTHER,    /* does not change the flow */
	HWT_INSN_CALL,     /* direct call */
	HWT_INSN_CALL_IND, /* indirect call */
	HWT_INSN_RETURN,
	HWT_INSN_JUMP,     /* direct unconditional jump */
	HWT_INSN_JUMP_IND, /* indirect jump */
	HWT_INSN_COND,     /* conditional branch (jcc, loop, cbz, b.cond) */
	HWT_INSN_SYSCALL,  /* syscall, sysenter, int n, svc */
	HWT_INSN_SYSRET,   /* sysret, sysexit, iret, eret */
	HWT_INSN_FAR,      /* far call/jump/return */
};

struct hwt_insn {
	uint64_t addr;
	uint8_t size;
	enum hwt_insn_class iclass;
	bool has_target; /* a direct branch: target is known */
	uint64_t target;
};

struct hwt_insn_decoder;

/* Creates a decoder for @isa (x86_64, x86_32, x86_16, a64; a32 and t32
 * give text, not classes; rv32 and rv64: RV I, M, A, F, D, C, Zicsr and
 * Zifencei, printed as `objdump -M no-aliases` prints them).
 * Errors: HWT_ERR_NOSUP (built without Capstone, or an ISA it lacks),
 * HWT_ERR_NOMEM. */
HWT_API int hwt_insn_decoder_new(enum hwt_isa isa, struct hwt_insn_decoder **out);

/* Frees the decoder; NULL is a no-op. */
HWT_API void hwt_insn_decoder_free(struct hwt_insn_decoder *dec);

/* Decodes the instruction at @addr whose bytes are @code[0..@size).
 * Errors: HWT_ERR_DECODE (not a valid instruction, or cut short). */
HWT_API int hwt_insn_decode(struct hwt_insn_decoder *dec, const uint8_t *code,
		    size_t size, uint64_t addr, struct hwt_insn *insn);

/* Like hwt_insn_decode, and writes "mnemonic operands" into @buf (always
 * NUL-terminated when @bufsize > 0). */
HWT_API int hwt_insn_format(struct hwt_insn_decoder *dec, const uint8_t *code,
		    size_t size, uint64_t addr, struct hwt_insn *insn,
		    char *buf, size_t bufsize);

/* The element branch kind an instruction class produces when taken. */
HWT_API enum hwt_branch_kind hwt_insn_branch_kind(enum hwt_insn_class iclass);

/* Whether the class always transfers control (so a trace that shows it
 * falling through is inconsistent). */
HWT_API bool hwt_insn_is_unconditional(enum hwt_insn_class iclass);

/* `--disasm` for every backend: a sink that splits each range it receives
 * into one range per instruction, with the instruction's text, reading the
 * code from @image, and passes every element on to @inner. Ranges that
 * already hold one instruction with text, and ranges whose code is not in
 * the image, pass unchanged. @image and @inner are borrowed and must
 * outlive the object. Errors: HWT_ERR_NOMEM. */
struct hwt_disasm;
HWT_API int hwt_disasm_new(struct hwt_image *image, const struct hwt_elem_sink *inner,
		   struct hwt_disasm **out);
HWT_API struct hwt_elem_sink hwt_disasm_sink(struct hwt_disasm *dis);
HWT_API void hwt_disasm_free(struct hwt_disasm *dis);

#ifdef __cplusplus
}
#endif

#endif
