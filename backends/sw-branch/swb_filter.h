/* Where sw_branch tracing starts and stops (swb_filter.c). */
#ifndef HWT_SWB_FILTER_H
#define HWT_SWB_FILTER_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "hwtrace/swbranch.h"

struct hwt_swb_specs {
	const char *start, *stop; /* symbols or 0xADDR; NULL when not given */
	bool until_return;        /* 'filter SYM': one call, to its return */
	char buf[3][512];
};

/* perf's address filter syntax, as far as stepping can honour it:
 * "filter SYM [@FILE]" (one call of SYM, callees included), "start ..."
 * and "stop ...", separated by commas; else o->start and o->stop.
 * @spec may point into itself. HWT_ERR_CONFIG says what is wrong. */
int hwt_swb_parse_filter(const struct hwt_swb_opts *o,
			 struct hwt_swb_specs *spec);

/* The address of @spec in process @pid, whose program is @exe, looked up
 * in the program and the libraries mapped now. HWT_ERR_NOENT when it is
 * in none (with a message unless @quiet). */
int hwt_swb_resolve_spec(pid_t pid, const char *exe, const char *spec,
			 uint64_t *addr, bool quiet);

#endif
