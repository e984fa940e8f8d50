/* The name of code no symbol covers: its binary's file name and the
 * address's offset in that file ("libgcc_s.so.1+0x16547"), which
 * objdump, addr2line and perf's build-id cache all read the same way. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "hwtrace/symbols.h"

int hwt_symbol_dso_name(const struct hwt_symbol *s, char *buf, size_t size)
{
	/* Only a binary read from a file has a file offset: the kernel and
	 * JIT maps name their code or nothing. */
	if (s->name || !s->dso || s->dso[0] != '/')
		return 0;
	const char *base = strrchr(s->dso, '/') + 1;
	if (!*base)
		return 0;
	int n = snprintf(buf, size, "%s+0x%" PRIx64, base, s->dso_offset);
	return n < 0 ? 0 : n;
}
