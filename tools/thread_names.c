/* Thread names from a capture's COMM records (tools/thread_names.h). A
 * thread's last COMM is its name (after an exec too), the name perf
 * script shows for most programs' whole trace. */
#include <stdlib.h>
#include <string.h>

#include "capture_names.h"
#include "hwtrace/error.h"
#include "thread_names.h"

struct thread_name {
	int32_t tid;
	char *comm;
};

static struct thread_name *find(struct thread_names *t, int32_t tid)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->v[i].tid == tid)
			return &t->v[i];
	return NULL;
}

static int on_name(void *arg, int32_t pid, int32_t tid, const char *comm)
{
	struct thread_names *t = arg;
	(void)pid;
	if (!comm)
		return 0;
	struct thread_name *n = find(t, tid);
	if (!n) {
		if (t->n == t->cap) {
			size_t cap = t->cap ? t->cap * 2 : 16;
			void *grown = realloc(t->v, cap * sizeof(*t->v));
			if (!grown)
				return hwt_error(HWT_ERR_NOMEM, "out of memory");
			t->v = grown;
			t->cap = cap;
		}
		n = &t->v[t->n++];
		n->tid = tid;
		n->comm = NULL;
	}
	char *copy = strdup(comm);
	if (!copy)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	free(n->comm);
	n->comm = copy;
	return 0;
}

int thread_names_load(struct thread_names *t, const char *file)
{
	if (t->loaded || !file || !strcmp(file, "-"))
		return 0;
	t->loaded = 1;
	return cli_thread_names(file, on_name, t);
}

const char *thread_names_of(void *arg, int32_t pid, int32_t tid)
{
	(void)pid;
	struct thread_name *n = find(arg, tid);
	return n ? n->comm : NULL;
}

void thread_names_free(struct thread_names *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->v[i].comm);
	free(t->v);
	memset(t, 0, sizeof(*t));
}
