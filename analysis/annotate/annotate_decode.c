/* A capture decoded into an annotation: the decode's memory image is
 * what the functions' instructions are read from, so the annotation
 * takes each one after whoever hooked the decode before it (the
 * symbolizer, which must see the image first to name what it holds). */
#include "hwtrace/annotate.h"
#include "hwtrace/decode.h"

struct image_chain {
	struct hwt_annotate *annotate;
	void (*next)(void *arg, struct hwt_image *image);
	void *next_arg;
};

static void on_image(void *arg, struct hwt_image *image)
{
	struct image_chain *c = arg;
	if (c->next)
		c->next(c->next_arg, image);
	hwt_annotate_set_image(c->annotate, image);
}

int hwt_annotate_decode(struct hwt_annotate *annotate, const char *file,
			struct hwt_decode_opts *opts)
{
	struct image_chain chain = {annotate, opts->on_image,
				    opts->on_image_arg};
	struct hwt_elem_sink sink = hwt_annotate_sink(annotate);

	/* Every instruction counts once, at its own address. */
	opts->disasm = true;
	opts->on_image = on_image;
	opts->on_image_arg = &chain;
	int err = hwt_decode_file(file, opts, &sink);
	opts->on_image = chain.next;
	opts->on_image_arg = chain.next_arg;
	return err;
}
