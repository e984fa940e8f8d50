/* The flight recorder's part of hwtrace record -e sw_branch
 * (tools/record_swb_recorder.c): --snapshot=SIZE. */
#ifndef HWT_TOOLS_RECORD_SWB_RECORDER_H
#define HWT_TOOLS_RECORD_SWB_RECORDER_H

#include <stdbool.h>
#include <stdint.h>

#include "hwtrace/swbranch.h"

/* --snapshot=SIZE: a number of records into *records, or bytes with a
 * K, M or G suffix into *bytes. 0, or the usage error's exit status. */
int swb_snapshot_size(const char *text, uint64_t *records, uint64_t *bytes);

#endif
