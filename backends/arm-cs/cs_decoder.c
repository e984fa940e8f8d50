/* The cs_etm decoding half: AUXTRACE buffers through OpenCSD. Each chunk
 * (an AUXTRACE buffer, or a segment of one) gets a decode tree of its own:
 * formatted ETR/ETF data every CPU's decoder behind the deformatter, a raw
 * TRBE stream only its own CPU's. Like perf, each AUXTRACE buffer is
 * decoded on its own (the sink was stopped between buffers). */
#include "hwtrace/backend.h"

#ifdef HWT_HAVE_OPENCSD
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/arm-cs/cs_decode_meta.h"
#include "backends/arm-cs/cs_decode_tree.h"
#include "backends/arm-cs/cs_fault_scan.h"
#include "backends/arm-cs/cs_meta.h"
#include "backends/arm-cs/cs_snapshot.h"
#include "backends/arm-cs/cs_sync_points.h"
#include "hwtrace/error.h"

struct cs_dec {
	struct hwt_cs_meta meta;
	bool formatted_default; /* raw input without AUX flags */
	bool from_options;
	struct hwt_image *image;
	const struct hwt_elem_sink *sink;
};

static int load_meta(const struct hwt_decode_params *p, struct hwt_cs_meta *m,
		     bool *formatted, bool *from_options)
{
	*formatted = true;
	*from_options = !p->info;
	if (p->info)
		return hwt_cs_meta_parse(p->info, p->info_words, m);
	return hwt_cs_meta_from_options(p->raw_options, m, formatted);
}

static const struct hwt_cs_source *source_of(const struct hwt_cs_meta *m,
					     int32_t cpu)
{
	if (m->ncpus == 1 && (cpu < 0 || m->cpus[0].cpu < 0))
		return &m->cpus[0];
	for (size_t i = 0; i < m->ncpus; i++)
		if (m->cpus[i].cpu == cpu)
			return &m->cpus[i];
	return NULL;
}

/* A decode tree for a chunk: its elements to @sink, or with @packets
 * its packets listed there, or with @fault only looked through for
 * packets that trip a known OpenCSD fault. */
static int build_tree(const struct hwt_cs_meta *m, bool raw, int32_t cpu,
		      struct hwt_image *image, const struct hwt_elem_sink *sink,
		      const struct hwt_packet_sink *packets,
		      struct hwt_cs_fault *fault,
		      struct hwt_cs_tree **out)
{
	struct hwt_cs_tree *tree;
	uint32_t flags = raw ? 0
			     : OCSD_DFRMTR_FRAME_MEM_ALIGN |
				       OCSD_DFRMTR_RESET_ON_4X_FSYNC;
	int err = hwt_cs_tree_new(flags, fault ? NULL : image, sink, packets,
				  &tree);
	if (err)
		return err;
	if (fault)
		hwt_cs_tree_scan_faults(tree, fault);
	if (raw) {
		const struct hwt_cs_source *s = source_of(m, cpu);
		if (!s)
			err = hwt_error(HWT_ERR_FORMAT,
					"raw (TRBE) trace of CPU %d, which the "
					"cs_etm AUXTRACE_INFO does not describe",
					cpu);
		else
			err = hwt_cs_tree_add_source(tree, s);
	} else {
		for (size_t i = 0; i < m->ncpus && !err; i++)
			if (m->id_known[i])
				err = hwt_cs_tree_add_source(tree, &m->cpus[i]);
		if (!err && hwt_cs_tree_sources(tree) == 0)
			err = hwt_error(HWT_ERR_FORMAT,
					"no CPU of the cs_etm AUXTRACE_INFO has "
					"a trace ID (version 2 metadata without "
					"PERF_RECORD_AUX_OUTPUT_HW_ID records)");
	}
	if (err) {
		hwt_cs_tree_free(tree);
		return err;
	}
	*out = tree;
	return 0;
}

static int cs_create(const struct hwt_decode_params *p, void **priv)
{
	struct cs_dec *d = calloc(1, sizeof(*d));
	if (!d)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	int err = load_meta(p, &d->meta, &d->formatted_default,
			    &d->from_options);
	if (err) {
		free(d);
		return err;
	}
	d->image = p->image;
	d->sink = p->sink;
	*priv = d;
	return 0;
}

static void cs_destroy(void *priv)
{
	struct cs_dec *d = priv;
	if (!d)
		return;
	hwt_cs_meta_release(&d->meta);
	free(d);
}

static bool chunk_is_raw(const struct cs_dec *d, const struct hwt_aux_chunk *c)
{
	if (c->aux_flags & HWT_AUX_FLAG_CORESIGHT_FORMAT_RAW)
		return true;
	return d->from_options && !d->formatted_default;
}

/* The elements of a segment of a cut chunk (cs_split) are those from the
 * end of its own sync sequence to the end of the next segment's: the
 * decoder reads on into the next segment (the lookahead) until it decodes
 * an element from past that, in steps of this many bytes. */
#define CS_LOOKAHEAD_STEP 64

static int segment_window(const struct cs_dec *d,
			  const struct hwt_aux_chunk *c, uint64_t *from,
			  uint64_t *until)
{
	const struct hwt_cs_source *src = source_of(&d->meta, c->cpu);
	uint64_t end;
	int err = 0;

	*from = 0;
	*until = UINT64_MAX;
	if (!c->lookbehind && !c->lookahead)
		return 0;
	if (!src)
		return hwt_error(HWT_ERR_INVAL, "a cut CoreSight stream of "
				 "CPU %d, which no source describes", c->cpu);
	if (c->lookbehind &&
	    !(err = hwt_cs_sync_end(src, c->data, c->size + c->lookahead, &end)))
		*from = c->offset + end;
	if (!err && c->lookahead &&
	    !(err = hwt_cs_sync_end(src, c->data + c->size, c->lookahead, &end)))
		*until = c->offset + c->size + end;
	return err;
}

/* Every chunk gets a new tree: OpenCSD's reset leaves the last context
 * ID in the elements a tree makes after it, so a tree that decoded
 * another chunk (another unit of a parallel decode, or the segment
 * before) would not decode this one as a new tree does. */
/* Says, before a chunk is decoded, that a packet in it trips a known
 * fault of OpenCSD (cs_fault_scan.c): an error element first in the
 * chunk's elements, so that it keeps its place for every -j (a warning
 * from a decode thread would not). Splitting packets alone is safe. */
static int say_known_fault(struct cs_dec *d, const struct hwt_aux_chunk *c)
{
	struct hwt_cs_fault fault = {0};
	struct hwt_cs_tree *tree = NULL;
	/* A stream the look fails on fails its decode too, which says why. */
	if (build_tree(&d->meta, chunk_is_raw(d, c), c->cpu, NULL, NULL, NULL,
		       &fault, &tree))
		return 0;
	if (!hwt_cs_tree_feed(tree, c->data, c->size, c->offset))
		hwt_cs_tree_eot(tree);
	hwt_cs_tree_free(tree);
	if (!fault.found)
		return 0;
	char stream[48], msg[512];
	if (c->cpu >= 0)
		snprintf(stream, sizeof(stream), "CPU %d's trace", (int)c->cpu);
	else
		snprintf(stream, sizeof(stream), "the trace");
	snprintf(msg, sizeof(msg), "%s, AUX buffer %u, bytes 0x%llx-0x%llx, "
		 "has %s at offset 0x%llx, which is known to make OpenCSD "
		 "1.3.3 read memory it does not own: the elements decoded "
		 "from these bytes may be wrong, and its decoder may crash "
		 "(docs/coresight.md, \"Untrusted trace\")", stream,
		 (unsigned)c->idx, (unsigned long long)c->offset,
		 (unsigned long long)(c->offset + c->size), fault.what,
		 (unsigned long long)fault.offset);
	struct hwt_elem e;
	hwt_elem_clear(&e, HWT_ELEM_ERROR);
	e.fields = HWT_FIELD_OFFSET;
	e.trace_offset = fault.offset;
	if (c->cpu >= 0) {
		e.fields |= HWT_FIELD_CPU;
		e.cpu = c->cpu;
	}
	e.u.error.message = msg;
	return d->sink->emit(d->sink->arg, &e);
}

static int cs_feed(void *priv, const struct hwt_aux_chunk *c)
{
	struct cs_dec *d = priv;
	struct hwt_cs_tree *tree = NULL;
	uint64_t from, until;
	int err = segment_window(d, c, &from, &until);
	if (!err)
		err = say_known_fault(d, c);
	if (!err)
		err = build_tree(&d->meta, chunk_is_raw(d, c), c->cpu, d->image,
				 d->sink, NULL, NULL, &tree);
	if (err)
		return err;
	hwt_cs_tree_set_default_ctx(tree, c->cpu, c->tid);
	hwt_cs_tree_set_time(tree, c->time ? c->time : HWT_TIME_UNKNOWN);
	hwt_cs_tree_set_window(tree, from, until);
	err = hwt_cs_tree_feed(tree, c->data, c->size, c->offset);
	for (uint64_t done = 0; !err && done < c->lookahead &&
				!hwt_cs_tree_window_passed(tree);) {
		uint64_t step = c->lookahead - done < CS_LOOKAHEAD_STEP
					? c->lookahead - done
					: CS_LOOKAHEAD_STEP;
		err = hwt_cs_tree_feed(tree, c->data + c->size + done, step,
				       c->offset + c->size + done);
		done += step;
	}
	/* Past the window, what the tree holds is the next segment's. */
	if (!err && !hwt_cs_tree_window_passed(tree))
		err = hwt_cs_tree_eot(tree);
	hwt_cs_tree_free(tree);
	return err;
}

static int cs_hw_id(void *priv, int32_t cpu, uint64_t hw_id)
{
	struct cs_dec *d = priv;
	/* Trees are built per chunk, with the IDs known then. */
	int changed = hwt_cs_meta_set_hw_id(&d->meta, cpu, hw_id);
	return changed < 0 ? changed : 0;
}

static int cs_packets(const struct hwt_decode_params *p,
		      const struct hwt_aux_chunk *c,
		      const struct hwt_packet_sink *out)
{
	struct hwt_cs_meta m;
	struct hwt_cs_tree *tree;
	bool formatted, from_options;
	int err = load_meta(p, &m, &formatted, &from_options);
	if (err)
		return err;
	bool raw = (c->aux_flags & HWT_AUX_FLAG_CORESIGHT_FORMAT_RAW) ||
		   (from_options && !formatted);
	err = build_tree(&m, raw, c->cpu, NULL, NULL, out, NULL, &tree);
	if (!err) {
		err = hwt_cs_tree_feed(tree, c->data, c->size, c->offset);
		if (!err)
			err = hwt_cs_tree_eot(tree);
		hwt_cs_tree_free(tree);
	}
	hwt_cs_meta_release(&m);
	return err;
}

/* A raw (TRBE, source_data) ETMv4/ETE chunk is cut at sync points
 * (cs_sync_points.h). Every chunk is fed to its source's decode tree after
 * a reset and ends with end-of-trace, so it decodes the same in any
 * instance. Formatted chunks (ETR/ETF) are not cut: a cut there would
 * need the frames and every trace ID's decoder resynchronised together,
 * and each ID's elements kept in the order the frames interleave them. */
static int cs_split(void *priv, const struct hwt_aux_chunk *c,
		    uint64_t *starts, size_t max)
{
	struct cs_dec *d = priv;
	const struct hwt_cs_source *src =
		chunk_is_raw(d, c) ? source_of(&d->meta, c->cpu) : NULL;

	starts[0] = 0;
	if (!src)
		return 1;
	return hwt_cs_sync_points(src, c->data, c->size, starts, max);
}

/* The tracer of the first CPU's block names the code: an ETMv3/PTM
 * traces 32-bit Arm cores, an ETMv4 or ETE (nearly always) AArch64
 * code. A trace that changes state is decoded with its own ISA per
 * range by OpenCSD; this is the one ISA the core's walk takes. */
static enum hwt_isa cs_code_isa(const struct hwt_decode_params *params)
{
	if (!params->info || params->info_words <= HWT_CS_HDR_WORDS)
		return HWT_ISA_UNKNOWN;
	switch (params->info[HWT_CS_HDR_WORDS + HWT_CS_BLK_MAGIC]) {
	case HWT_CS_MAGIC_ETMV3:
		return HWT_ISA_A32;
	case HWT_CS_MAGIC_ETMV4:
	case HWT_CS_MAGIC_ETE:
		return HWT_ISA_A64;
	default:
		return HWT_ISA_UNKNOWN;
	}
}

const struct hwt_decoder_ops hwt_cs_decoder_ops = {
	.create = cs_create,
	.feed = cs_feed,
	.destroy = cs_destroy,
	.packets = cs_packets,
	.hw_id = cs_hw_id,
	.snapshot_dir = hwt_cs_decode_snapshot_dir,
	.split = cs_split,
	.code_isa = cs_code_isa,
};
#endif
