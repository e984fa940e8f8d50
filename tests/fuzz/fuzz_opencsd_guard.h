/* OpenCSD 1.3.3 (Debian's) reads through a deque iterator it has just
 * invalidated when a mispredict or cancel packet erases an address element
 * of its ETMv4/ETE P0 stack (TrcPktDecodeEtmV4I::mispredictAtom,
 * EtmV4P0Stack::erase_curr_from_front; Linaro/OpenCSD issue 52, fixed in
 * later releases). Under ASan that is a crash inside the library that
 * hwtrace cannot prevent. Its packet processor alone is safe, so the
 * CoreSight targets list packets first and decode elements only from
 * streams without such packets: the fuzzer goes on looking for bugs of
 * hwtrace's own instead of stopping at this one. docs/coresight.md names
 * the limit; corpus/fuzz_etm_raw/crash-888d4045... is the input that
 * found it. The same decoder also dereferences a wild pointer in
 * TrcPktDecodeEtmV4I::processException on some streams with exception
 * packets (an ETMv4 stream found it, corpus/fuzz_etm_raw/crash-aed68aee...:
 * a SEGV under ASan, not reproduced in a plain build): streams with an
 * I_EXCEPT packet are listed, not decoded, too. Its memory access cache
 * wraps around the top of the address space: a read a few bytes below
 * 2^64 counts as a hit in any cached page and copies from far outside it
 * (TrcMemAccCache::blockInCache; corpus/fuzz_etm_raw/crash-3ff46de3...,
 * an address packet of 0xFFFFFFFFFFFFFFFE): streams whose packets name an
 * address in the last 4 KiB are left out of the element decode as well. */
#ifndef HWT_FUZZ_OPENCSD_GUARD_H
#define HWT_FUZZ_OPENCSD_GUARD_H

#define _GNU_SOURCE
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Runs @list (a packet listing into @f) and says whether the listing has
 * a packet OpenCSD 1.3.3's element decoder must not see. */
static bool fuzz_opencsd_unsafe(void (*list)(void *arg, FILE *f), void *arg)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (!f)
		abort();
	list(arg, f);
	fclose(f);
	bool unsafe = text && (memmem(text, len, "Mispredict", 10) ||
			       memmem(text, len, "I_CANCEL", 8) ||
			       memmem(text, len, "I_MISPREDICT", 12) ||
			       memmem(text, len, "I_EXCEPT :", 10) ||
			       memmem(text, len, "Addr=0xFFFFFFFFFFFFF", 20));
	free(text);
	return unsafe;
}

#endif
