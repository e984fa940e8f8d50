/* hwtrace decode -F (tools/decode_script.c): perf script's field lines
 * (hwtrace/script.h) hooked into the decode, with the capture's thread
 * names for comm. */
#ifndef HWT_TOOLS_DECODE_SCRIPT_H
#define HWT_TOOLS_DECODE_SCRIPT_H

#include <stdio.h>

#include "hwtrace/decode.h"
#include "hwtrace/script.h"
#include "thread_names.h"

struct decode_script {
	uint32_t fields;               /* -F's, 0: not asked */
	struct hwt_script *script;
	struct thread_names *names;    /* for comm; borrowed */
	/* The decode's image hook before ours (the symbolizer's). */
	void (*next_on_image)(void *arg, struct hwt_image *image);
	void *next_on_image_arg;
};

/* Creates the writer on @out for @file's decode: reads the capture's
 * thread names into ds->names (set it first), and takes the image hook of @opts (calling the one set
 * before). @sym may be NULL (no names). */
int decode_script_start(struct decode_script *ds, const char *file,
			struct hwt_decode_opts *opts, struct hwt_symbolizer *sym,
			FILE *out);

void decode_script_end(struct decode_script *ds);

#endif
