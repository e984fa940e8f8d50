/* Thread names from the capture's facts (tools/thread_names.h). */
#include <string.h>

#include "hwtrace/capture.h"
#include "thread_names.h"

int thread_names_load(struct thread_names *t, const char *file)
{
	if (t->loaded || !file || !strcmp(file, "-"))
		return 0;
	t->loaded = 1;
	return hwt_capture_open(file, NULL, &t->cap);
}

const char *thread_names_of(void *arg, int32_t pid, int32_t tid)
{
	const struct thread_names *t = arg;
	(void)pid;
	return t->cap ? hwt_capture_thread_name(t->cap, tid) : NULL;
}

void thread_names_free(struct thread_names *t)
{
	hwt_capture_free(t->cap);
	memset(t, 0, sizeof(*t));
}
