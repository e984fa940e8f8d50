/* Thread names and processes from a capture's COMM and FORK records, for
 * the writers that label threads (timeline, export). */
#ifndef HWT_TOOLS_THREAD_NAMES_H
#define HWT_TOOLS_THREAD_NAMES_H

#include <stdint.h>

/* Calls @name for each COMM record (thread @tid of process @pid is called
 * @comm; the last one of a thread is its name after exec) and each FORK
 * record (@comm NULL: only its process), in file order. Stops at the
 * first error @name returns. Returns 0 or a negative hwt error. */
int cli_thread_names(const char *file,
		     int (*name)(void *arg, int32_t pid, int32_t tid,
				 const char *comm),
		     void *arg);

#endif
