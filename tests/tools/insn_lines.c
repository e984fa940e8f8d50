/* insn_lines ISA: reads an `objdump -d` listing on standard input and, for
 * each instruction line ("ADDR:<tab>ENCODING<tab>..."), decodes ENCODING
 * (the instruction as objdump prints it: a 16- or 32-bit number) with
 * hwt_insn_format for ISA (rv32, rv64) and prints "ADDR<tab>TEXT<tab>CLASS
 * [TARGET]". test_insn_riscv_matches_objdump sets the text beside
 * objdump's own. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hwtrace/error.h"
#include "hwtrace/insn.h"

static const char *class_name(enum hwt_insn_class c)
{
	static const char *const names[] = {
		"other", "call", "call_ind", "return", "jump", "jump_ind",
		"cond", "syscall", "sysret", "far",
	};
	return (size_t)c < sizeof(names) / sizeof(names[0]) ? names[c] : "?";
}

int main(int argc, char **argv)
{
	enum hwt_isa isa;
	if (argc != 2 || (strcmp(argv[1], "rv32") && strcmp(argv[1], "rv64"))) {
		fprintf(stderr, "usage: insn_lines rv32|rv64 <objdump-listing\n");
		return 2;
	}
	isa = strcmp(argv[1], "rv32") ? HWT_ISA_RV64 : HWT_ISA_RV32;
	struct hwt_insn_decoder *dec;
	if (hwt_insn_decoder_new(isa, &dec)) {
		fprintf(stderr, "insn_lines: %s\n", hwt_errmsg());
		return 1;
	}
	char line[512];
	while (fgets(line, sizeof(line), stdin)) {
		char *p = line, *end;
		while (*p == ' ')
			p++;
		uint64_t addr = strtoull(p, &end, 16);
		if (end == p || end[0] != ':' || end[1] != '\t')
			continue;
		p = end + 2;
		uint64_t value = strtoull(p, &end, 16);
		size_t digits = (size_t)(end - p);
		if (digits != 4 && digits != 8)
			continue;
		uint8_t code[4];
		for (size_t i = 0; i < 4; i++)
			code[i] = (uint8_t)(value >> (8 * i));
		struct hwt_insn insn;
		char text[128];
		if (hwt_insn_format(dec, code, digits / 2, addr, &insn, text,
				    sizeof(text))) {
			printf("%" PRIx64 "\t(error: %s)\n", addr, hwt_errmsg());
			hwt_error_clear();
			continue;
		}
		printf("%" PRIx64 "\t%s\t%s", addr, text, class_name(insn.iclass));
		if (insn.has_target)
			printf(" 0x%" PRIx64, insn.target);
		if (insn.size != digits / 2)
			printf("\t(size %u, objdump's %zu)", insn.size, digits / 2);
		putchar('\n');
	}
	hwt_insn_decoder_free(dec);
	return 0;
}
