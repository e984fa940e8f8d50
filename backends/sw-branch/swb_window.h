/* The flight recorder's memory: the last N branch records of each thread
 * and every sideband record so far, and how a window of them is written
 * as a complete capture (hwt_swb_opts.snapshot_records). */
#ifndef HWT_SWB_WINDOW_H
#define HWT_SWB_WINDOW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <linux/perf_event.h>

#include "hwtrace/perfdata.h"

/* One thread's last records, oldest at (head - n) modulo cap. */
struct hwt_swb_ring {
	pid_t tid;
	uint8_t *rec;
	size_t head, n;
	uint64_t total;          /* records ever kept (the AUX offset) */
};

struct hwt_swb_window {
	size_t cap;              /* records kept per thread */
	struct hwt_swb_ring *rings;
	size_t nrings;
	uint8_t *sb;             /* sideband records, in order */
	size_t sb_len, sb_cap;
};

void hwt_swb_window_init(struct hwt_swb_window *w, size_t records);

/* Keeps BTS record @rec of thread @tid, dropping its oldest when full.
 * Errors: HWT_ERR_NOMEM. */
int hwt_swb_window_record(struct hwt_swb_window *w, pid_t tid,
			  const uint8_t *rec);

/* Keeps sideband record @h (COMM, MMAP2, FORK, ...). Errors:
 * HWT_ERR_NOMEM. */
int hwt_swb_window_sideband(struct hwt_swb_window *w,
			    const struct perf_event_header *h);

/* Writes the kept sideband, then each thread's kept records as perf's
 * per-thread AUX stream has them: ITRACE_START, AUX and one AUXTRACE
 * buffer (queue = the thread's number, ending in an all-zero record as
 * the driver pads), with sample ids {pid, tid, time, @aux_id}.
 * Errors: the writer's. */
int hwt_swb_window_write(const struct hwt_swb_window *w,
			 struct hwt_pd_writer *pw, pid_t pid, uint64_t aux_id);

/* Whether thread @tid's kept records go back to @since_ns (its clock):
 * none of its records was dropped, or its oldest kept one is that old. */
bool hwt_swb_window_reaches(const struct hwt_swb_window *w, pid_t tid,
			    uint64_t since_ns);

void hwt_swb_window_free(struct hwt_swb_window *w);

#endif
