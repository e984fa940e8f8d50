/* The capture's thread names for -F's comm and the --comm filter: each
 * thread's last name (hwt_capture_thread_name). */
#ifndef HWT_TOOLS_THREAD_NAMES_H
#define HWT_TOOLS_THREAD_NAMES_H

#include <stdint.h>

struct hwt_capture;

struct thread_names {
	struct hwt_capture *cap;  /* opened for its facts; NULL: no names */
	int loaded;               /* opened once */
};

/* Opens @file for its thread names (once; a pipe's cannot be read ahead:
 * none). Returns 0 or a negative hwt error. */
int thread_names_load(struct thread_names *t, const char *file);

/* For hwt_script_opts.comm and hwt_elem_filter_opts.comm: @arg is the
 * struct thread_names; NULL when the thread has no name. */
const char *thread_names_of(void *arg, int32_t pid, int32_t tid);

void thread_names_free(struct thread_names *t);

#endif
