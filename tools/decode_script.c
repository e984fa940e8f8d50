/* hwtrace decode -F: the field writer, hooked to the thread names it
 * prints for comm and the memory image it reads instruction bytes from. */
#include <string.h>

#include "decode_script.h"
#include "hwtrace/error.h"

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
	if (ds->fields & HWT_SCRIPT_COMM) {
		int err = thread_names_load(ds->names, file);
		if (err < 0)
			return err;
	}
	struct hwt_script_opts so = {
		.size = sizeof(so),
		.fields = ds->fields,
		.out = out,
		.sym = sym,
		.comm = thread_names_of,
		.comm_arg = ds->names,
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
}
