/* Raw trace streams with `--map FILE@ADDR` memory images. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "core/decode/decode_internal.h"
#include "core/decode/decode_isolate.h"
#include "core/decode/decode_progress.h"
#include "hwtrace/insn.h"
#include "hwtrace/error.h"
#include "hwtrace/infile.h"

/* The size of --map @m's file, opened as every input is. */
static int map_size(const struct hwt_map_spec *m, uint64_t *size)
{
	if (!m->path)
		return hwt_error(HWT_ERR_INVAL, "--map without a file");
	int fd = hwt_infile_open(m->path, "--map", 0);
	if (fd < 0)
		return fd;
	struct stat st;
	int err = fstat(fd, &st) ? hwt_error(HWT_ERR_IO, "--map %s: %s",
					     m->path, strerror(errno)) : 0;
	close(fd);
	*size = err ? 0 : (uint64_t)st.st_size;
	return err;
}

/* Two --maps at the same addresses: the code there would be whichever
 * came last, silently, so the command is refused instead. */
static int check_overlap(const struct hwt_map_spec *a, uint64_t asize,
			 const struct hwt_map_spec *b, uint64_t bsize)
{
	if (!asize || !bsize || a->vaddr >= b->vaddr + bsize ||
	    b->vaddr >= a->vaddr + asize)
		return 0;
	return hwt_error(HWT_ERR_CONFIG,
			 "--map %s@0x%llx (0x%llx-0x%llx) overlaps --map "
			 "%s@0x%llx (0x%llx-0x%llx): give each address once",
			 b->path, (unsigned long long)b->vaddr,
			 (unsigned long long)b->vaddr,
			 (unsigned long long)(b->vaddr + bsize),
			 a->path, (unsigned long long)a->vaddr,
			 (unsigned long long)a->vaddr,
			 (unsigned long long)(a->vaddr + asize));
}

static int build_image(const struct hwt_decode_opts *opts,
		       struct hwt_image **out)
{
	struct hwt_image *image = hwt_image_new();
	if (!image)
		return hwt_error(HWT_ERR_NOMEM, "out of memory for the image");
	uint64_t *sizes = calloc(opts->nmaps ? opts->nmaps : 1, sizeof(*sizes));
	int err = sizes ? 0 : hwt_error(HWT_ERR_NOMEM, "out of memory for the image");
	for (size_t i = 0; i < opts->nmaps && !err; i++)
		err = map_size(&opts->maps[i], &sizes[i]);
	for (size_t i = 0; i < opts->nmaps && !err; i++)
		for (size_t j = 0; j < i && !err; j++)
			err = check_overlap(&opts->maps[j], sizes[j],
					    &opts->maps[i], sizes[i]);
	for (size_t i = 0; i < opts->nmaps && !err; i++) {
		const struct hwt_map_spec *m = &opts->maps[i];
		err = hwt_image_add_file(image, HWT_PID_ANY, m->vaddr, sizes[i],
					 m->path, 0);
		if (err > 0)
			err = 0;
	}
	free(sizes);
	if (err < 0) {
		hwt_image_free(image);
		return err;
	}
	for (size_t i = 0; i < opts->nelfs; i++) {
		err = hwt_image_add_elf(image, HWT_PID_ANY, opts->elfs[i].path,
					    opts->elfs[i].vaddr);
		if (err < 0) {
			hwt_image_free(image);
			return err;
		}
	}
	*out = image;
	return 0;
}

/* A decoder's warnings about a raw stream, through the caller's. */
struct raw_warn {
	const struct hwt_decode_opts *opts;
	const struct hwt_elem_sink *sink;
};

static void raw_warn(void *arg, const char *message)
{
	struct raw_warn *w = arg;

	hwt_decode_warn(w->opts, w->sink, "%s", message);
}

/* The parallel decode's one piece: the whole stream, borrowed. */
static int load_whole(void *arg, size_t i, struct hwt_aux_chunk *chunk,
		      void **owned)
{
	(void)i;
	*chunk = *(const struct hwt_aux_chunk *)arg;
	*owned = NULL;
	return 0;
}

/* The trace's bounded window: where the decode has got to, from the
 * progress a decoder reports and the segments done, gives back the pages
 * behind it, then goes on to the caller's progress report. A decoder's
 * offsets count from the start of the segment it decodes, so they are
 * never ahead of its place in the stream: nothing not yet decoded is
 * given back. */
struct raw_window {
	struct hwt_mapped *trace;
	void (*progress)(void *arg, uint64_t done);
	void *progress_arg;
};

static void window_progress(void *arg, uint64_t done)
{
	struct raw_window *w = arg;
	hwt_mapped_release(w->trace, done);
	if (w->progress)
		w->progress(w->progress_arg, done);
}

/* A pass of the backend's split op over the trace. */
static void window_read_done(void *arg, const uint8_t *from,
			     const uint8_t *to)
{
	struct raw_window *w = arg;
	hwt_mapped_release_range(w->trace, from, to);
}

/* A segment decoded on the calling thread. */
static void window_segment_done(void *arg, uint64_t end)
{
	struct raw_window *w = arg;
	hwt_mapped_release(w->trace, end);
}

/* How many segments the backend cuts @chunk into (a raw stream may not
 * be cut: its settings are not known), their starts in *starts (freed by
 * the caller); 0 when there is no split op or no memory. */
static int cut_up(const struct hwt_backend *b, void *priv,
		  const struct hwt_aux_chunk *chunk, uint64_t **starts)
{
	*starts = NULL;
	if (!b->decoder->split || !chunk->size)
		return 0;
	*starts = malloc(HWT_MAX_SEGMENTS * sizeof(**starts));
	return *starts ? hwt_decode_split(b, priv, chunk, *starts) : 0;
}

/* The option after the one at @item (past its ','), or its string's end. */
static const char *next_option(const char *item)
{
	item += strcspn(item, ",");
	return *item ? item + 1 : item;
}

/* Every backend reads its --raw options as KEY[=VALUE] items split by
 * commas, each key once, and every backend's own loop over them skips an
 * empty item. So the list is checked here, the one place all of them go
 * through: an empty item (a comma doubled or at an end) is a typo that
 * may have eaten an option, and a key given twice would leave one of its
 * values unused, so both are refused without a word lost. */
static int check_option_list(const char *backend, const char *options)
{
	if (options && !*options)
		return hwt_error(HWT_ERR_CONFIG, "%s option list is empty (a "
				 "comma after %s and no option): remove the "
				 "comma", backend, backend);
	size_t count = 1;
	for (const char *c = options; c && *c; c++)
		count += *c == ',';
	const char *item = options;
	for (size_t pos = 1; item && pos <= count; pos++) {
		size_t len = strcspn(item, ",");
		if (!len)
			return hwt_error(HWT_ERR_CONFIG, "%s option list \"%s\": "
					 "option %zu of %zu is empty (a comma "
					 "doubled or at an end): remove the "
					 "extra comma", backend, options, pos,
					 count);
		item += len + (item[len] == ',');
	}
	for (const char *a = options; a && *a; a = next_option(a)) {
		size_t akey = strcspn(a, "=,"), awhole = strcspn(a, ",");
		for (const char *b = options; akey && b < a; b = next_option(b)) {
			size_t bkey = strcspn(b, "=,"), bwhole = strcspn(b, ",");
			if (bkey == akey && !strncasecmp(a, b, akey))
				return hwt_error(HWT_ERR_CONFIG, "%s option %.*s is "
						 "given twice (%.*s, then %.*s): "
						 "give each option once", backend,
						 (int)akey, a, (int)bwhole, b,
						 (int)awhole, a);
		}
	}
	return 0;
}

int hwt_decode_raw(const char *backend, const char *backend_options,
		   const char *trace_path, const struct hwt_decode_opts *opts_in,
		   const struct hwt_elem_sink *sink)
{
	struct hwt_decode_opts opts;
	const struct hwt_backend *b;
	struct hwt_mapped trace;
	struct hwt_image *image = NULL;
	struct hwt_disasm *dis = NULL;

	if (!backend || !trace_path || (!sink && !hwt_decode_opts_list_packets(opts_in)))
		return hwt_error(HWT_ERR_INVAL, "hwt_decode_raw: missing argument");
	int err = hwt_decode_opts_copy(opts_in, &opts);
	if (err < 0)
		return err;
	err = hwt_decode_find_backend(backend, &b);
	if (err < 0)
		return err;
	err = check_option_list(b->name, backend_options);
	if (err >= 0)
		err = hwt_decode_packet_filters_check(&opts, "a raw trace stream");
	if (err < 0)
		return err;
	if (opts.packet_sink.packet && !b->decoder->packets)
		return hwt_error(HWT_ERR_NOSUP, "%s: no packet listing", b->name);
	err = hwt_mapped_open(&trace, trace_path, "trace file");
	if (err < 0)
		return err;
	/* A capture given as a raw stream decodes into nonsense: refuse it. */
	if (trace.size >= 8 && !memcmp(trace.data, "PERFILE2", 8)) {
		err = hwt_error(HWT_ERR_FORMAT, "%s is a perf.data file, not a raw "
				"%s trace stream: decode it without --raw "
				"(hwtrace decode %s)", trace_path, b->name,
				trace_path);
		goto out;
	}
	err = build_image(&opts, &image);
	if (err < 0)
		goto out;
	if (opts.on_image)
		opts.on_image(opts.on_image_arg, image);

	struct hwt_decode_filter filter = {.opts = &opts, .next = sink,
					   .trace_alone = true};
	struct hwt_elem_sink fsink = hwt_decode_filter_sink(&filter);
	/* --disasm: every backend's ranges as instructions with their text. */
	const struct hwt_elem_sink *inner = hwt_decode_has_filter(&opts) ? &fsink
									  : sink;
	struct hwt_elem_sink dsink;
	if (opts.disasm && !opts.packet_sink.packet && inner) {
		err = hwt_disasm_new(image, inner, &dis);
		if (err < 0)
			goto out;
		dsink = hwt_disasm_sink(dis);
		inner = &dsink;
	}
	struct raw_warn rw = {&opts, sink};
	/* The calling thread's instance emits through msink, which a
	 * parallel decode points elsewhere for a while. */
	struct hwt_elem_sink msink = inner ? *inner : (struct hwt_elem_sink){0};
	struct hwt_decode_params params = {
		.size = sizeof(params),
		.warn = raw_warn,
		.warn_arg = &rw,
		.image = image,
		.sink = inner ? &msink : NULL,
		.cpu_model = opts.cpu_model,
		.raw_options = backend_options,
		.disasm = opts.disasm,
		.edges_only = hwt_decode_edges_op(b, &opts),
	};
	struct hwt_aux_chunk chunk = {
		.data = trace.data,
		.size = trace.size,
		.cpu = -1,
		.tid = -1,
	};

	if (opts.packet_sink.packet) {
		err = b->decoder->packets(&params, &chunk, &opts.packet_sink);
		goto out;
	}
	/* Its one stream is no CPU's: --cpu selects nothing of it. */
	if (opts.filter_cpu &&
	    (err = hwt_decode_warn(&opts, sink, "--cpu %" PRId32 " matches "
				   "nothing: a raw trace stream names no CPU, so "
				   "its elements carry none", opts.cpu)) < 0)
		goto out;
	void *priv = NULL;
	struct hwt_progress pr = {0};
	hwt_progress_params(&pr, &opts, &params);
	struct raw_window window = {&trace, params.progress,
				    params.progress_arg};
	params.progress = window_progress;
	params.progress_arg = &window;
	params.read_done = window_read_done;
	params.read_done_arg = &window;
	struct hwt_isolation *iso = NULL;
	if (hwt_isolate_wanted(b, &opts)) {
		err = hwt_isolation_open(b, &opts, &iso);
		if (err < 0)
			goto out;
		b = hwt_isolation_backend(iso);
	}
	err = b->decoder->create(&params, &priv);
	if (err < 0)
		goto out;
	hwt_progress_start(&pr, &opts, trace.size, 1);
	uint64_t *starts = NULL;
	int nseg = opts.jobs > 1 ? cut_up(b, priv, &chunk, &starts) : 0;
	if (nseg > 1) {
		/* One piece, its segments on every thread. */
		struct hwt_par_source src = {.n = 1, .load = load_whole,
					     .arg = &chunk,
					     .edges = hwt_decode_edges_op(b, &opts)
							      ? opts.edges
							      : NULL,
					     .cut = starts, .ncut = nseg};
		params.sink = inner;
		err = hwt_decode_parallel(b, &params, priv, &msink, &src,
					  opts.jobs);
	} else {
		err = hwt_decode_feed_each(b, priv, &chunk, &opts,
					   window_segment_done, &window);
	}
	free(starts);
	if (err >= 0 && b->decoder->flush)
		err = b->decoder->flush(priv);
	if (err >= 0)
		hwt_progress_finish(&pr);
	if (priv && b->decoder->destroy)
		b->decoder->destroy(priv);
	err = hwt_isolation_close(iso, err);
	if (err >= 0 && hwt_decode_has_filter(&opts))
		err = hwt_decode_filter_report(&filter, sink);
out:
	hwt_disasm_free(dis);
	hwt_image_free(image);
	hwt_mapped_close(&trace);
	return err < 0 ? err : 0;
}
