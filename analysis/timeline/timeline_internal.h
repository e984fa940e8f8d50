/* The timeline's state, shared by the frame logic (timeline.c) and the two
 * file formats (timeline_perfetto.c, timeline_chrome.c). */
#ifndef HWT_ANALYSIS_TIMELINE_INTERNAL_H
#define HWT_ANALYSIS_TIMELINE_INTERNAL_H

#include <stdbool.h>
#include <stdio.h>

#include "hwtrace/timeline.h"

/* An open frame of a thread, mirrored from the stacks' enter/exit. */
struct tl_frame {
	uint64_t func;
	uint64_t ts;      /* its slice's start */
	uint64_t step;    /* its place in sequence order */
	bool begun;       /* its slice's start is written (Perfetto) */
	bool skip;        /* deeper than max_depth */
	bool timed;       /* the frame has time */
};

struct tl_thread {
	int32_t pid, tid;
	char *name;       /* from COMM, or NULL */
	bool described;   /* its track is written */
	uint64_t first_step; /* sequence order: its first frame's */
	struct tl_frame *v;
	size_t n, cap;
};

struct tl_process {
	int32_t pid;
	bool described;
};

struct hwt_timeline {
	FILE *out;
	struct hwt_timeline_opts opts;
	struct hwt_func_namer namer;
	struct tl_thread *threads;
	size_t nthreads, threads_cap;
	struct tl_process *procs;
	size_t nprocs, procs_cap;
	bool first_event;           /* Chrome: no comma before it */
	bool saw_time, decided;     /* an element had time; mode chosen */
	uint64_t step;              /* sequence order: calls and returns so far */
	uint8_t *pack;              /* Perfetto: one packet, packed */
	size_t pack_cap;
	struct hwt_timeline_stats stats;
};

/* The name a process takes: its main thread's (tid == pid). */
const char *tl_process_name(const struct hwt_timeline *tl, int32_t pid);

/* Perfetto: track descriptors, slice begin/end, instants. */
int tl_perfetto_thread(struct hwt_timeline *tl, const struct tl_thread *t,
		       bool new_process);
int tl_perfetto_slice(struct hwt_timeline *tl, const struct tl_thread *t,
		      bool begin, uint64_t ts, const char *name,
		      const struct hwt_frame *f);
int tl_perfetto_instant(struct hwt_timeline *tl, const struct tl_thread *t,
			uint64_t ts, const char *name);

/* Chrome JSON: metadata, complete events, instants, the closing. */
int tl_chrome_start(struct hwt_timeline *tl);
int tl_chrome_thread(struct hwt_timeline *tl, const struct tl_thread *t,
		     bool new_process);
int tl_chrome_slice(struct hwt_timeline *tl, const struct tl_thread *t,
		    uint64_t ts, uint64_t dur, const char *name,
		    const struct hwt_frame *f);
int tl_chrome_instant(struct hwt_timeline *tl, const struct tl_thread *t,
		      uint64_t ts, const char *name);
int tl_chrome_finish(struct hwt_timeline *tl);

/* The Chrome JSON formats (with or without args). */
bool tl_chrome(const struct hwt_timeline *tl);

/* What sequence order means, for the file's metadata. */
#define TL_SEQUENCE_NOTE                                                   \
	"the capture has no timestamps: slices are in sequence order, each " \
	"call and return 1 us after the one before"
/* One step of sequence order, in ns. */
#define TL_STEP_NS 1000u

/* HWT_ERR_IO naming the timeline when @out has failed, else 0. */
int tl_check_io(struct hwt_timeline *tl);

#endif
