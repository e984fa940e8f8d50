/* Sideband of a sw_branch capture from the real kernel: a `dummy` software
 * event on the traced process (per thread, any CPU) with mmap2, comm and
 * task records, opened when the process stops at exec. Software events work
 * on every Linux machine, so the mappings the dynamic loader and dlopen
 * make come from the kernel, as they do for a hardware trace. */
#ifndef HWT_SWB_SIDEBAND_H
#define HWT_SWB_SIDEBAND_H

#include <stdint.h>
#include <sys/types.h>
#include <linux/perf_event.h>

#include "hwtrace/ring_data.h"

struct hwt_swb_sideband {
	int fd;
	void *map;
	size_t map_len;
	struct hwt_ring_data ring;
	uint64_t id; /* the kernel's sample id of the event */
};

/* Opens @attr (a dummy event) on @pid. Errors: HWT_ERR_PERM
 * (perf_event_paranoid or seccomp; the message names the file),
 * HWT_ERR_IO, HWT_ERR_NOMEM. */
int hwt_swb_sideband_open(struct hwt_swb_sideband *sb, pid_t pid,
			  struct perf_event_attr *attr);

/* Hands every record the kernel wrote since the last call to @cb. */
int hwt_swb_sideband_drain(struct hwt_swb_sideband *sb,
			   int (*cb)(void *arg, const struct perf_event_header *h),
			   void *arg);

/* Closes the event; a zeroed or closed one is a no-op. */
void hwt_swb_sideband_close(struct hwt_swb_sideband *sb);

#endif
