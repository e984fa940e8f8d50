/* Every PLT slot of this machine's libc is named as objdump -d names it:
 * "name@plt" for a slot whose relocation has a symbol, "*ABS*+0xADDEND@plt"
 * for an IRELATIVE one (an ifunc libc resolves for itself, with no
 * symbol), each at the slot its GOT word gives (libc's .rela.plt lists
 * the IRELATIVE ones last, so a slot's place in it is not its number). */
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/symbols/symbols_internal.h"
#include "harness.h"

#define LIBC "/lib/x86_64-linux-gnu/libc.so.6"

int main(void)
{
	elf_version(EV_CURRENT);
	struct str_pool pool = {0};
	struct hwt_sym_opts opts = {.size = sizeof(opts)};
	struct hwt_sym_ctx ctx = {&opts, &pool};
	struct dso d = {0};
	d.path = strdup(LIBC);
	d.found_at = strdup(LIBC);
	char why[1024] = "";
	CHECK_INT(dso_read_elf(&ctx, &d, why, sizeof(why)), 0);
	sym_table_finish(&d.syms);

	/* objdump's "ADDR <NAME>:" lines of .plt, the first (PLT0) left out. */
	FILE *p = popen("objdump -d --no-show-raw-insn -j .plt " LIBC, "r");
	CHECK(p != NULL);
	char line[4096];
	size_t slots = 0, irelative = 0;
	while (p && fgets(line, sizeof(line), p)) {
		unsigned long long addr;
		char name[1024];
		if (sscanf(line, "%llx <%1023[^>]>:", &addr, name) != 2 ||
		    strstr(name, "@plt-0x"))
			continue;
		slots++;
		irelative += !strncmp(name, "*ABS*+0x", 8);
		const struct sym_entry *e = sym_table_find(&d.syms, addr);
		hwt_test_checks++;
		if (!e || e->start != addr || strcmp(e->name, name))
			HWT_FAIL("slot at 0x%llx: %s, objdump: %s", addr,
				 e ? e->name : "(none)", name);
	}
	CHECK(p && pclose(p) == 0);
	/* A positive control: the slots were read, IRELATIVE ones too. */
	CHECK(slots > 10);
	CHECK(irelative > 3);
	printf("%zu slots (%zu IRELATIVE)\n", slots, irelative);
	sym_table_free(&d.syms);
	for (size_t i = 0; i < d.nstrtabs; i++)
		free(d.strtabs[i]);
	free(d.strtabs);
	free(d.segs);
	free(d.path);
	free(d.found_at);
	str_pool_free(&pool);
	printf("%d checks, %d failed\n", hwt_test_checks, hwt_test_failures);
	return hwt_test_failures != 0;
}
