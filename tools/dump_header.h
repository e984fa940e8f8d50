/* What hwtrace dump's files share (cmd_dump.c, dump_header.c). */
#ifndef HWT_TOOLS_DUMP_HEADER_H
#define HWT_TOOLS_DUMP_HEADER_H

#include <stdint.h>

#include "hwtrace/perfdata.h"

/* Prints @r's header, event attributes and feature sections as "# "
 * lines. */
void dump_print_header(const struct hwt_pd_reader *r);
/* The event attributes and feature sections alone (pipe mode has them
 * only after its records). */
void dump_print_events(const struct hwt_pd_reader *r);

/* A little-endian u64 at @p (perf.data is little-endian; so is every
 * host hwtrace runs on). */
uint64_t dump_u64_at(const uint8_t *p);

#endif
