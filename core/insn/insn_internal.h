/* The two instruction decoders behind hwtrace/insn.h (core/ only): Capstone's for x86 and Arm (insn_capstone.c), and hwtrace's own
 * for RISC-V (insn_riscv.c), which Capstone 4 lacks. insn_decoder.c picks
 * one by ISA. */
#ifndef HWT_CORE_INSN_INTERNAL_H
#define HWT_CORE_INSN_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "hwtrace/insn.h"

struct insn_cs;

/* Errors: HWT_ERR_NOSUP (no Capstone, or it lacks @isa), HWT_ERR_NOMEM. */
int insn_cs_new(enum hwt_isa isa, struct insn_cs **out);
void insn_cs_free(struct insn_cs *cs);
int insn_cs_decode(struct insn_cs *cs, const uint8_t *code, size_t size,
		   uint64_t addr, struct hwt_insn *insn);
int insn_cs_format(struct insn_cs *cs, const uint8_t *code, size_t size,
		   uint64_t addr, struct hwt_insn *insn, char *buf,
		   size_t bufsize);

/* Decodes the RISC-V instruction at @addr for a hart of @xlen (32 or 64)
 * bits, and writes its text into @buf when @buf is not NULL. An
 * instruction of an extension not known here (V, the B extensions, ...)
 * decodes as HWT_INSN_OTHER of its length with binutils' `.insn` text.
 * Errors: HWT_ERR_DECODE (cut short, or a length no extension uses). */
int insn_rv_decode(unsigned xlen, const uint8_t *code, size_t size,
		   uint64_t addr, struct hwt_insn *insn, char *buf,
		   size_t bufsize);

/* Readies Capstone for use on several threads at once (insn_capstone.c):
 * called before decode threads start, as a backend's decoder may
 * disassemble with Capstone directly. Cheap after the first call. */
void hwt_insn_warm(void);

#endif
