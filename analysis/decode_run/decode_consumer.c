/* The -F writer and the filters in front of a decode's printer, with the
 * capture's thread names (hwtrace/decode_consumer.h). */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "hwtrace/capture.h"
#include "hwtrace/decode_consumer.h"
#include "hwtrace/error.h"
#include "hwtrace/filter.h"
#include "hwtrace/script.h"

struct hwt_decode_consumer {
	struct hwt_capture *names;     /* NULL: no thread names */
	struct hwt_script *script;     /* -F; NULL: not asked */
	struct hwt_elem_filter *filter;
	struct hwt_elem_sink first;    /* where the elements go in */
	/* The decode's image hook before the script's (the symbolizer's). */
	void (*next_on_image)(void *arg, struct hwt_image *image);
	void *next_on_image_arg;
};

static void on_image(void *arg, struct hwt_image *image)
{
	struct hwt_decode_consumer *c = arg;
	if (c->next_on_image)
		c->next_on_image(c->next_on_image_arg, image);
	hwt_script_set_image(c->script, image);
}

/* A pipe's facts cannot be read ahead of its decode: it names nothing. */
static int open_names(struct hwt_decode_consumer *c, const char *file)
{
	if (!file || !strcmp(file, "-"))
		return 0;
	return hwt_capture_open(file, NULL, &c->names);
}

static int start_script(struct hwt_decode_consumer *c,
			const struct hwt_decode_consumer_opts *o,
			struct hwt_decode_opts *decode)
{
	struct hwt_script_opts so = {
		.size = sizeof(so),
		.fields = o->script_fields,
		.out = o->out,
		.sym = o->sym,
		.comm = hwt_capture_comm,
		.comm_arg = c->names,
	};
	int err = hwt_script_new(&so, &c->script);
	if (err < 0)
		return err;
	c->next_on_image = decode->on_image;
	c->next_on_image_arg = decode->on_image_arg;
	decode->on_image = on_image;
	decode->on_image_arg = c;
	c->first = hwt_script_sink(c->script);
	return 0;
}

static int start_filter(struct hwt_decode_consumer *c,
			const struct hwt_decode_consumer_opts *o)
{
	struct hwt_elem_filter_opts fo = {
		.size = sizeof(fo),
		.comms = o->comms,
		.dsos = o->dsos,
		.syms = o->syms,
		.sym = o->sym,
		.comm = hwt_capture_comm,
		.comm_arg = c->names,
		.next = c->first,
	};
	int err = hwt_elem_filter_new(&fo, &c->filter);
	if (err < 0)
		return err;
	c->first = hwt_elem_filter_sink(c->filter);
	return 0;
}

int hwt_decode_consumer_new(const struct hwt_decode_consumer_opts *o,
			    struct hwt_decode_opts *decode,
			    struct hwt_decode_consumer **out)
{
	if (!out)
		return hwt_error(HWT_ERR_INVAL, "hwt_decode_consumer_new: no "
				 "place for the consumer");
	*out = NULL;
	if (!o || o->size < sizeof(*o))
		return hwt_error(HWT_ERR_INVAL, "hwt_decode_consumer_new: NULL "
				 "options or size not set");
	if (o->script_fields && (!o->out || !decode))
		return hwt_error(HWT_ERR_INVAL, "hwt_decode_consumer_new: -F "
				 "fields need an output and the decode's "
				 "options");
	struct hwt_decode_consumer *c = calloc(1, sizeof(*c));
	if (!c)
		return hwt_error(HWT_ERR_NOMEM, "out of memory for the decode's "
				 "consumer");
	c->first = o->next;
	int err = 0;
	if ((o->script_fields & HWT_SCRIPT_COMM) || o->comms)
		err = open_names(c, o->file);
	if (err >= 0 && o->script_fields)
		err = start_script(c, o, decode);
	if (err >= 0 && (o->comms || o->dsos || o->syms))
		err = start_filter(c, o);
	if (err < 0) {
		/* The decode must not call a hook into freed memory. */
		if (decode && decode->on_image == on_image &&
		    decode->on_image_arg == c) {
			decode->on_image = c->next_on_image;
			decode->on_image_arg = c->next_on_image_arg;
		}
		hwt_decode_consumer_free(c);
		return err;
	}
	*out = c;
	return 0;
}

struct hwt_elem_sink hwt_decode_consumer_sink(struct hwt_decode_consumer *c)
{
	return c->first;
}

void hwt_decode_consumer_free(struct hwt_decode_consumer *c)
{
	if (!c)
		return;
	hwt_elem_filter_free(c->filter);
	hwt_script_free(c->script);
	hwt_capture_free(c->names);
	free(c);
}
