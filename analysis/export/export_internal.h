/* What the export formats share (analysis/export/): threads with the
 * calls they have open, the call path tree, and the table of functions
 * each format fills its own way. */
#ifndef HWT_ANALYSIS_EXPORT_INTERNAL_H
#define HWT_ANALYSIS_EXPORT_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis/util/strmap.h"
#include "hwtrace/export.h"

/* One open frame of a thread, as the format numbered it. */
struct export_open {
	uint64_t call_id;      /* sqlite: its calls row */
	uint64_t path_id;      /* its node in the call path tree */
	uint64_t call_sample;  /* sqlite: the sample of the call branch */
};

struct export_thread {
	int64_t key;           /* tid, or -2 - cpu without one */
	int32_t pid, tid;
	char *comm;            /* NULL until a COMM record names it */
	uint64_t id;           /* 1, 2, ... in order of first sight */
	bool traced;           /* it has elements (not only a COMM record) */
	bool listed;           /* a context switch or a listed thread
				* names it (sqlite, postgresql) */
	struct export_open *v; /* open frames, outermost first */
	size_t n, cap;
	uint64_t last_sample;  /* sqlite: the thread's latest sample */
	uint64_t insns;        /* instructions since that sample */
};

struct export_format {
	int (*element)(struct hwt_export *ex, struct export_thread *t,
		       const struct hwt_elem *e);
	/* @top: the thread's new top entry to fill (the one below it, when
	 * t->n > 1, is its caller's). */
	int (*enter)(struct hwt_export *ex, struct export_thread *t,
		     const struct hwt_frame *f, struct export_open *top);
	/* Called before the top entry is popped. */
	int (*exit)(struct hwt_export *ex, struct export_thread *t,
		    const struct hwt_frame *f);
	int (*finish)(struct hwt_export *ex, bool has_time);
	/* Optional: ends one capture of several (hwt_export_next_capture);
	 * the format may not take several without it. */
	int (*end_capture)(struct hwt_export *ex);
	void (*free)(struct hwt_export *ex);
};

struct hwt_export {
	struct hwt_export_opts opts;
	const struct export_format *fmt;
	void *impl;
	struct export_thread *threads;
	size_t nthreads, threads_cap;
	size_t last_thread; /* the one the last element went to */
	uint64_t threads_forgotten; /* traced threads of past captures */
	struct hwt_strmap paths;   /* "parent:func:ip" -> v[0] id */
	struct hwt_export_stats stats;
	struct hwt_strmap build_ids; /* path -> v[0] index + 1 in bids */
	char **bids;
	size_t nbids;
};

/* Grows the array that the pointer at @arrp points to (a T **, @size-byte
 * items) to hold @n + 1; -1 when out of memory. The pointer is copied in
 * and out rather than written through a void **, which would write a
 * T * through another type. */
int hwt_export_grow(void *arrp, size_t *cap, size_t n, size_t size);

/* The build id of the binary @path, "" when the capture has none. */
const char *hwt_export_build_id(struct hwt_export *ex, const char *path);

extern const struct export_format hwt_export_pprof_format;
/* Each sets ex->fmt and ex->impl. */
int hwt_export_sqlite_open(struct hwt_export *ex);
int hwt_export_postgresql_open(struct hwt_export *ex);
int hwt_export_pprof_open(struct hwt_export *ex);
extern const struct export_format hwt_export_pgo_format; /* AutoFDO, BOLT */
int hwt_export_pgo_open(struct hwt_export *ex);

/* The node of the call path tree under @parent (0: the root) for the
 * function the format numbers @func, entered at @ip; *created says it is
 * new. Ids start at 1. Errors: HWT_ERR_NOMEM. */
int hwt_export_path(struct hwt_export *ex, uint64_t parent, uint64_t func,
		    uint64_t ip, uint64_t *id, bool *created);

/* The thread with @pid/@tid/@cpu (-1 unknown), created when new; NULL
 * when out of memory. */
/* Forgets the threads (when none has a frame open), so that the next
 * capture's are its own even where its thread ids are an earlier one's;
 * the stats still count them. */
void hwt_export_forget_threads(struct hwt_export *ex);

struct export_thread *hwt_export_thread(struct hwt_export *ex, int32_t pid,
					int32_t tid, int32_t cpu);

#endif
