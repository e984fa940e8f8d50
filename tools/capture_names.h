/* What a capture's records name, for the writers that label threads and
 * binaries (timeline, export): threads and their processes (COMM and FORK
 * records) and the binaries' build ids (the build-id table). */
#ifndef HWT_TOOLS_CAPTURE_NAMES_H
#define HWT_TOOLS_CAPTURE_NAMES_H

#include <stdint.h>

/* Calls @name for each COMM record (thread @tid of process @pid is called
 * @comm; the last one of a thread is its name after exec) and each FORK
 * record (@comm NULL: only its process), in file order. Stops at the
 * first error @name returns. Returns 0 or a negative hwt error. */
int cli_thread_names(const char *file,
		     int (*name)(void *arg, int32_t pid, int32_t tid,
				 const char *comm),
		     void *arg);

/* Calls @id for each entry of the capture's build-id table: the binary's
 * path as recorded and its build id in lower-case hex. Returns 0 (also
 * when the capture has no table) or a negative hwt error. */
int cli_build_ids(const char *file,
		  int (*id)(void *arg, const char *path, const char *hex),
		  void *arg);

#endif
