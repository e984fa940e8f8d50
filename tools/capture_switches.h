/* A capture's context switches as perf's database exports them, for
 * `hwtrace export`. */
#ifndef HWT_TOOLS_CAPTURE_SWITCHES_H
#define HWT_TOOLS_CAPTURE_SWITCHES_H

#include "hwtrace/export.h"

/* Calls @sw for each SWITCH and SWITCH_CPU_WIDE record, in time order,
 * the way perf's db-export names its threads: a thread is known once a
 * COMM record names it (or a FORK from a known thread makes it; the idle
 * task 0/0 always is); an unknown side is given as pid/tid -1; a switch
 * whose sides are both unknown or idle is left out. Returns 0 or a
 * negative hwt error (@sw's first). */
int cli_context_switches(const char *file,
			 int (*sw)(void *arg, const struct hwt_export_switch *s),
			 void *arg);

#endif
