/* A function's name for the writers: the namer's, else what the namer
 * calls the unnamed code there (its binary and offset), else its address
 * in hex (never NULL). */
#ifndef HWT_ANALYSIS_FUNC_NAME_H
#define HWT_ANALYSIS_FUNC_NAME_H

#include <inttypes.h>
#include <stdio.h>

#include "hwtrace/stack.h"

/* @buf holds the hex form; the result is valid until the next call. */
static inline const char *hwt_func_name(const struct hwt_func_namer *namer,
					int32_t pid, uint64_t addr,
					char buf[24])
{
	uint64_t start;
	const char *name = namer && namer->name
				   ? namer->name(namer->arg, pid, addr, &start)
				   : NULL;
	if (name)
		return name;
	name = namer && namer->unnamed ? namer->unnamed(namer->arg, pid, addr)
				       : NULL;
	if (name)
		return name;
	snprintf(buf, 24, "0x%" PRIx64, addr);
	return buf;
}

#endif
