/* hwtrace decode -F: the field writer, the thread names it prints for
 * comm, and the memory image it reads instruction bytes from. */
#include <stdlib.h>
#include <string.h>

#include "capture_names.h"
#include "decode_script.h"
#include "hwtrace/error.h"

struct thread_name {
	int32_t tid;
	char *comm;
};

static struct thread_name *name_of(struct decode_script *ds, int32_t tid)
{
	for (size_t i = 0; i < ds->nnames; i++)
		if (ds->names[i].tid == tid)
			return &ds->names[i];
	return NULL;
}

/* A thread's last COMM is its name (after an exec too), as perf script
 * shows the name a thread had when the trace ran for most programs. */
static int on_name(void *arg, int32_t pid, int32_t tid, const char *comm)
{
	struct decode_script *ds = arg;
	(void)pid;
	if (!comm)
		return 0;
	struct thread_name *n = name_of(ds, tid);
	if (!n) {
		if (ds->nnames == ds->names_cap) {
			size_t cap = ds->names_cap ? ds->names_cap * 2 : 16;
			void *grown = realloc(ds->names, cap * sizeof(*ds->names));
			if (!grown)
				return hwt_error(HWT_ERR_NOMEM, "out of memory");
			ds->names = grown;
			ds->names_cap = cap;
		}
		n = &ds->names[ds->nnames++];
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

static const char *comm_of(void *arg, int32_t pid, int32_t tid)
{
	(void)pid;
	struct thread_name *n = name_of(arg, tid);
	return n ? n->comm : NULL;
}

static void on_image(void *arg, struct hwt_image *image)
{
	struct decode_script *ds = arg;
	if (ds->next_on_image)
		ds->next_on_image(ds->next_on_image_arg, image);
	hwt_script_set_image(ds->script, image);
}

int decode_script_start(struct decode_script *ds, const char *file,
			struct hwt_decode_opts *opts, struct hwt_symbolizer *sym,
			FILE *out)
{
	if ((ds->fields & HWT_SCRIPT_COMM) && file && strcmp(file, "-")) {
		int err = cli_thread_names(file, on_name, ds);
		if (err < 0)
			return err;
	}
	struct hwt_script_opts so = {
		.size = sizeof(so),
		.fields = ds->fields,
		.out = out,
		.sym = sym,
		.comm = comm_of,
		.comm_arg = ds,
	};
	int err = hwt_script_new(&so, &ds->script);
	if (err < 0)
		return err;
	ds->next_on_image = opts->on_image;
	ds->next_on_image_arg = opts->on_image_arg;
	opts->on_image = on_image;
	opts->on_image_arg = ds;
	return 0;
}

void decode_script_end(struct decode_script *ds)
{
	hwt_script_free(ds->script);
	ds->script = NULL;
	for (size_t i = 0; i < ds->nnames; i++)
		free(ds->names[i].comm);
	free(ds->names);
	ds->names = NULL;
	ds->nnames = ds->names_cap = 0;
}
