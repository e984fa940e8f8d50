/* Pieces every decode entry point uses: backend lookup, file mapping and
 * the element filters. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/decode/cpu_set.h"
#include "core/decode/decode_internal.h"
#include "hwtrace/error.h"
#include "hwtrace/infile.h"
#include "hwtrace/listing.h"

int hwt_decode_opts_copy(const struct hwt_decode_opts *opts,
			 struct hwt_decode_opts *out)
{
	memset(out, 0, sizeof(*out));
	if (!opts)
		return 0;
	if (opts->size < offsetof(struct hwt_decode_opts, packets))
		return hwt_error(HWT_ERR_INVAL,
				 "struct hwt_decode_opts: size %zu is too small "
				 "(set it to sizeof(struct hwt_decode_opts))",
				 opts->size);
	memcpy(out, opts, opts->size < sizeof(*out) ? opts->size : sizeof(*out));
	out->size = sizeof(*out);
	/* From here on the sinks are the one way to the listings: a FILE
	 * given alone gets the text printer. */
	if (!out->packet_sink.packet && out->packets)
		out->packet_sink = (struct hwt_packet_sink){
			hwt_packet_print_text, out->packets};
	if (!out->branch_count_sink.branch && out->branch_profile)
		out->branch_count_sink = (struct hwt_branch_count_sink){
			hwt_branch_count_print_text, out->branch_profile};
	if (out->virtual_lbr > HWT_VIRTUAL_LBR_MAX)
		return hwt_error(HWT_ERR_CONFIG,
				 "virtual LBR of %u records: the most a sample "
				 "takes is %u", out->virtual_lbr,
				 HWT_VIRTUAL_LBR_MAX);
	return 0;
}

bool hwt_decode_opts_list_packets(const struct hwt_decode_opts *opts)
{
	if (!opts)
		return false;
	if (opts->size >= offsetof(struct hwt_decode_opts, packet_sink) +
				  sizeof(opts->packet_sink) &&
	    opts->packet_sink.packet)
		return true;
	return opts->size >= offsetof(struct hwt_decode_opts, packets) +
				 sizeof(opts->packets) &&
	       opts->packets;
}

int hwt_decode_find_backend(const char *name, const struct hwt_backend **out)
{
	const struct hwt_backend *b = hwt_backend_find(name);
	if (!b) {
		char known[256] = "";
		size_t len = 0;
		for (size_t i = 0; (b = hwt_backend_at(i)) && len < sizeof(known); i++)
			len += (size_t)snprintf(known + len, sizeof(known) - len,
						"%s%s", i ? ", " : "", b->name);
		return hwt_error(HWT_ERR_NOENT,
				 "unknown trace backend '%s' (known: %s)", name,
				 known);
	}
	if (!b->decoder || !b->decoder->create || !b->decoder->feed)
		return hwt_error(HWT_ERR_NOSUP, "%s: no decoder: %s", b->name,
				 b->no_decoder_reason ? b->no_decoder_reason
						      : "this backend cannot decode");
	*out = b;
	return 0;
}

int hwt_mapped_open(struct hwt_mapped *m, const char *path, const char *what)
{
	m->data = NULL;
	m->size = 0;
	m->released = 0;
	int fd = hwt_infile_open(path, what, 0);
	if (fd < 0)
		return fd;
	struct stat st;
	if (fstat(fd, &st)) {
		int err = errno;
		close(fd);
		return hwt_error(HWT_ERR_IO, "%s %s: %s", what, path,
				 strerror(err));
	}
	if (st.st_size > 0) {
		void *p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE,
			       fd, 0);
		if (p == MAP_FAILED) {
			int err = errno;
			close(fd);
			return hwt_error(HWT_ERR_IO, "%s %s: mmap: %s", what, path,
					 strerror(err));
		}
		m->data = p;
		m->size = (size_t)st.st_size;
	}
	close(fd);
	return 0;
}

/* Given back in steps of this many bytes at least (one madvise call per
 * step), keeping as many behind the decode resident: together about the
 * size of the decoders' own buffers, small beside the process. */
#define RELEASE_STEP (1024 * 1024)
#define RELEASE_KEEP (256 * 1024)

void hwt_mapped_release(struct hwt_mapped *m, uint64_t done)
{
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
	if (!m->data || done > m->size || done < RELEASE_KEEP)
		return;
	/* The mapping starts on a page: offsets round down to pages. */
	uint64_t to = (done - RELEASE_KEEP) / page * page;
	if (to < m->released + RELEASE_STEP)
		return;
	/* Only a hint: pages that stay resident cost memory, not results. */
	(void)madvise((void *)(m->data + m->released), to - m->released,
		      MADV_DONTNEED);
	m->released = to;
}

void hwt_mapped_release_range(struct hwt_mapped *m, const uint8_t *from,
			      const uint8_t *to)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t lo = (uintptr_t)m->data, hi = lo + m->size;
	if (!m->data || (uintptr_t)from < lo || (uintptr_t)to > hi ||
	    from >= to)
		return;
	/* Whole pages only: a page partly before @from may still be read. */
	uintptr_t a = ((uintptr_t)from - lo + page - 1) / page * page + lo;
	uintptr_t b = (uintptr_t)to == hi ? hi
					  : ((uintptr_t)to - lo) / page * page + lo;
	if (a < b)
		(void)madvise((void *)a, b - a, MADV_DONTNEED);
}

void hwt_mapped_close(struct hwt_mapped *m)
{
	if (m->data)
		munmap((void *)m->data, m->size);
	m->data = NULL;
	m->size = 0;
	m->released = 0;
}

int hwt_decode_warn(const struct hwt_decode_opts *opts,
		    const struct hwt_elem_sink *sink, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (opts->warn) {
		opts->warn(opts->warn_arg, msg);
		return 0;
	}
	if (!sink)
		return 0;
	struct hwt_elem e;
	hwt_elem_clear(&e, HWT_ELEM_ERROR);
	e.u.error.message = msg;
	return sink->emit(sink->arg, &e);
}

int hwt_decode_warn_cpu_absent(const struct hwt_decode_opts *opts,
			       const struct hwt_elem_sink *sink,
			       const struct hwt_cpu_set *cpus, const char *whose)
{
	if (!opts->filter_cpu || !cpus->n ||
	    (opts->cpu >= 0 && hwt_cpu_set_contains(cpus, (uint32_t)opts->cpu)))
		return 0;
	char list[256];
	hwt_cpu_set_format(cpus, list, sizeof(list));
	return hwt_decode_warn(opts, sink, "--cpu %" PRId32 " matches nothing: "
			       "%s has CPU%s %s", opts->cpu, whose,
			       cpus->n == 1 ? "" : "s", list);
}

int hwt_decode_has_filter(const struct hwt_decode_opts *opts)
{
	return opts->filter_cpu || opts->filter_tid || opts->filter_time;
}

static int filter_emit(void *arg, const struct hwt_elem *e)
{
	struct hwt_decode_filter *f = arg;
	const struct hwt_decode_opts *o = f->opts;

	if (e->type != HWT_ELEM_GAP && e->type != HWT_ELEM_ERROR) {
		f->seen++;
		if (e->fields & HWT_FIELD_TIME) {
			if (!f->timed++ || e->time < f->tmin)
				f->tmin = e->time;
			if (e->time > f->tmax)
				f->tmax = e->time;
		}
		if (o->filter_cpu &&
		    (!(e->fields & HWT_FIELD_CPU) || e->cpu != o->cpu))
			return 0;
		if (o->filter_tid &&
		    (!(e->fields & HWT_FIELD_TID) || e->tid != o->tid))
			return 0;
		if (o->filter_time &&
		    (!(e->fields & HWT_FIELD_TIME) || e->time < o->time_start ||
		     e->time > o->time_end))
			return 0;
		f->passed++;
	}
	return f->next->emit(f->next->arg, e);
}

int hwt_decode_filter_report(const struct hwt_decode_filter *f,
			     const struct hwt_elem_sink *sink)
{
	const struct hwt_decode_opts *o = f->opts;
	char a[32] = "", b[32] = "";

	if (!f->seen || f->passed)
		return 0;
	if (o->filter_time && !f->timed)
		return hwt_decode_warn(o, sink, "--time matches nothing: none of "
				       "the capture's %" PRIu64 " elements carries "
				       "a timestamp", f->seen);
	if (o->filter_time) {
		if (o->time_start)
			snprintf(a, sizeof(a), "%" PRIu64 ".%09" PRIu64,
				 o->time_start / 1000000000u,
				 o->time_start % 1000000000u);
		if (o->time_end != UINT64_MAX)
			snprintf(b, sizeof(b), "%" PRIu64 ".%09" PRIu64,
				 o->time_end / 1000000000u,
				 o->time_end % 1000000000u);
		return hwt_decode_warn(o, sink, "--time %s,%s matches nothing: the "
				       "capture's elements span %" PRIu64 ".%09" PRIu64
				       " to %" PRIu64 ".%09" PRIu64 " s", a, b,
				       f->tmin / 1000000000u, f->tmin % 1000000000u,
				       f->tmax / 1000000000u, f->tmax % 1000000000u);
	}
	if (o->filter_tid && f->trace_alone)
		return hwt_decode_warn(o, sink, "--tid %" PRId32 " matches nothing: "
				       "no element of the trace is of that thread "
				       "(without a capture's sideband, a thread is "
				       "known only from the trace's context IDs)",
				       o->tid);
	if (o->filter_tid)
		return hwt_decode_warn(o, sink, "--tid %" PRId32 " matches nothing: "
				       "no element of the capture is of that thread "
				       "(hwtrace info lists its threads)", o->tid);
	return 0;
}

int hwt_decode_packet_filters_check(const struct hwt_decode_opts *o,
				    const char *input)
{
	if (!o->packet_sink.packet)
		return 0;
	const char *opt = o->filter_tid ? "--tid" : o->filter_time ? "--time" : NULL;
	if (opt)
		return hwt_error(HWT_ERR_CONFIG, "--packets with %s: the listing "
				 "has every packet of the trace, and %s selects "
				 "decoded elements, not packets: give one of them",
				 opt, opt);
	if (o->filter_cpu && input)
		return hwt_error(HWT_ERR_CONFIG, "--packets with --cpu on %s: "
				 "the listing has every packet of it, and --cpu "
				 "selects a perf.data capture's AUX buffers, not "
				 "packets: give one of them", input);
	return 0;
}

struct hwt_elem_sink hwt_decode_filter_sink(struct hwt_decode_filter *f)
{
	struct hwt_elem_sink s = {filter_emit, f};
	return s;
}

bool hwt_decode_edges_op(const struct hwt_backend *b,
			 const struct hwt_decode_opts *opts)
{
	/* --tid and --time select elements, which the edges op never
	 * makes: those decodes count the elements' branches instead. */
	return opts->edges && b->decoder->edges && !opts->filter_tid &&
	       !opts->filter_time && !opts->disasm;
}

bool hwt_decode_edges_takes(const struct hwt_backend *b, void *priv,
			    const struct hwt_aux_chunk *chunk,
			    struct hwt_edges *edges)
{
	struct hwt_aux_chunk probe = *chunk;
	probe.size = 0;
	return b->decoder->edges && b->decoder->edges(priv, &probe, edges) == 0;
}

/* One chunk or segment to the edges op, or to feed(). */
static int feed_one(const struct hwt_backend *b, void *priv,
		    const struct hwt_aux_chunk *chunk,
		    const struct hwt_decode_opts *opts, bool edges_op)
{
	if (edges_op) {
		int err = b->decoder->edges(priv, chunk, opts->edges);
		if (err != HWT_ERR_NOSUP)
			return err;
	}
	return b->decoder->feed(priv, chunk);
}

int hwt_decode_feed(const struct hwt_backend *b, void *priv,
		    const struct hwt_aux_chunk *chunk,
		    const struct hwt_decode_opts *opts)
{
	return hwt_decode_feed_each(b, priv, chunk, opts, NULL, NULL);
}

int hwt_decode_feed_each(const struct hwt_backend *b, void *priv,
			 const struct hwt_aux_chunk *chunk,
			 const struct hwt_decode_opts *opts,
			 void (*done)(void *arg, uint64_t end), void *arg)
{
	bool edges_op = false;
	if (hwt_decode_edges_op(b, opts)) {
		edges_op = hwt_decode_edges_takes(b, priv, chunk, opts->edges);
		if (!edges_op)
			hwt_edges_stats(opts->edges)->fallbacks++;
	}
	if (!b->decoder->split || !chunk->size)
		return feed_one(b, priv, chunk, opts, edges_op);
	/* Cut as a parallel decode cuts, so that the edges op's counts (of
	 * fallbacks too) are the same for every number of threads. */
	uint64_t *starts = malloc(HWT_MAX_SEGMENTS * sizeof(*starts));
	if (!starts)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	int n = hwt_decode_split(b, priv, chunk, starts);
	int err = n < 0 ? n : 0;
	for (int i = 0; i < n && err >= 0; i++) {
		struct hwt_aux_chunk seg = hwt_decode_segment(chunk, starts, n, i);
		if (i && b->decoder->reset)
			b->decoder->reset(priv);
		err = feed_one(b, priv, &seg, opts, edges_op);
		if (err >= 0 && done)
			done(arg, starts[i] + seg.size);
	}
	free(starts);
	return err;
}

struct hwt_aux_chunk hwt_decode_segment(const struct hwt_aux_chunk *chunk,
					const uint64_t *starts, int n, int i)
{
	uint64_t end = i + 1 < n ? starts[i + 1] : chunk->size;
	struct hwt_aux_chunk seg = *chunk;
	seg.data = chunk->data + starts[i];
	seg.offset = chunk->offset + starts[i];
	seg.size = end - starts[i];
	seg.lookahead = i + 1 < n ? chunk->size - end : chunk->lookahead;
	seg.lookbehind = chunk->lookbehind + starts[i];
	seg.final = i + 1 == n && chunk->final;
	return seg;
}

int hwt_decode_split(const struct hwt_backend *b, void *priv,
		     const struct hwt_aux_chunk *chunk, uint64_t *starts)
{
	int n = 1;
	starts[0] = 0;
	if (chunk->size && b->decoder->split)
		n = b->decoder->split(priv, chunk, starts, HWT_MAX_SEGMENTS);
	if (n < 0)
		return n;
	if (n < 1 || n > HWT_MAX_SEGMENTS || starts[0] != 0)
		return hwt_error(HWT_ERR_INVAL, "%s: split gave %d segments",
				 b->name, n);
	for (int i = 0; i < n; i++) {
		uint64_t end = i + 1 < n ? starts[i + 1] : chunk->size;
		if (end < starts[i] || end > chunk->size)
			return hwt_error(HWT_ERR_INVAL, "%s: split gave segments "
					 "out of order", b->name);
	}
	return n;
}
