/* The native Intel BTS decoder: 24-byte branch records into ranges and
 * branches. A record cut at a buffer edge waits for the rest in the next
 * chunk of the same stream; in snapshot mode the padding at the wrap point
 * is skipped and the overlap with the previous snapshot is dropped, as
 * perf does. */
#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "hwtrace/bts_format.h"
#include "backends/x86-bts/bts_layout.h"
#include "backends/x86-bts/bts_split.h"
#include "backends/x86-bts/bts_walk.h"
#include "hwtrace/insn.h"
#include "hwtrace/backend.h"
#include "hwtrace/error.h"

/* Where user space ends on x86-64: a branch into the kernel that no
 * instruction asked for is an interrupt. */
#define KERNEL_START 0xffff800000000000ull

#define TRACE_ENDS_INSIDE "the trace ends inside a BTS record"

struct bts_dec {
	struct hwt_image *image;
	struct hwt_elem_sink sink;
	bool snapshot;
	struct hwt_bts_walk *walk;
	int walk_err;
	struct hwt_disasm *disasm; /* --disasm: wraps the caller's sink */
	bool nosup_reported;
	/* which process a stream belongs to, from the sideband */
	int32_t (*pid_at)(void *arg, int32_t cpu, int32_t tid, uint64_t time);
	void *pid_at_arg;
	/* sw_branch captures: each record carries the tracer's time */
	bool swb_time;
	bool have_time;
	uint64_t time;
	/* the stream; pid: the process whose code is read */
	int32_t cpu, tid, pid;
	bool has_stream_pid; /* the capture names the stream's process */
	int32_t stream_pid;
	uint8_t pend[HWT_BTS_RECORD_SIZE];
	size_t npend;
	bool have_expect;
	uint64_t expect_off;
	bool have_last;
	uint64_t last_to;
	/* raw input: branch records, and those with an end no --map covers */
	bool raw;
	uint64_t branches, unmapped;
	void (*warn)(void *arg, const char *message);
	void *warn_arg;
	/* snapshot mode: the previous snapshot, for the overlap */
	uint8_t *prev;
	size_t prev_size, prev_cap;
};

static void elem_init(struct bts_dec *d, struct hwt_elem *e,
		      enum hwt_elem_type type, uint64_t offset)
{
	hwt_elem_clear(e, type);
	e->fields = HWT_FIELD_OFFSET;
	e->trace_offset = offset;
	if (d->cpu >= 0) {
		e->fields |= HWT_FIELD_CPU;
		e->cpu = d->cpu;
	}
	if (d->tid >= 0) {
		e->fields |= HWT_FIELD_TID;
		e->tid = d->tid;
	}
	if (d->has_stream_pid) {
		e->fields |= HWT_FIELD_PID;
		e->pid = d->stream_pid;
	}
	if (d->have_time) {
		e->fields |= HWT_FIELD_TIME;
		e->time = d->time;
	}
}

/* sw_branch's clock is in the record's top 56 bits: it reads right for
 * 2^56 ns (834 days) of uptime, after which it wraps. */
static void record_time(struct bts_dec *d, const struct hwt_bts_record *rec)
{
	if (!d->swb_time || !(rec->flags & HWT_BTS_FLAG_SWB_TIME))
		return;
	d->time = rec->flags >> HWT_BTS_SWB_TIME_SHIFT;
	d->have_time = true;
}

/* The time code is read at: the record's (the code before a branch ran
 * just before it was recorded); Intel BTS records carry none. */
static uint64_t code_time(const struct bts_dec *d)
{
	return d->have_time ? d->time : HWT_TIME_UNKNOWN;
}

static int emit(struct bts_dec *d, const struct hwt_elem *e)
{
	return d->sink.emit ? d->sink.emit(d->sink.arg, e) : 0;
}

static int emit_gap(struct bts_dec *d, enum hwt_gap_reason reason,
		    uint64_t offset, uint64_t bytes, const char *detail)
{
	struct hwt_elem e;

	elem_init(d, &e, HWT_ELEM_GAP, offset);
	e.u.gap.reason = reason;
	if (bytes) {
		e.fields |= HWT_FIELD_GAP_BYTES;
		e.u.gap.bytes = bytes;
	}
	e.u.gap.detail = detail;
	d->have_last = false;
	return emit(d, &e);
}

static int32_t image_pid(const struct bts_dec *d)
{
	return d->pid;
}

/* Emits the instructions from the last branch target to @from (including
 * the instruction at @from when @inclusive). */
static int emit_range(struct bts_dec *d, uint64_t from, bool inclusive,
		      uint64_t offset)
{
	struct hwt_bts_block blk;
	struct hwt_elem e;

	if (!d->walk)
		return 0;
	hwt_bts_walk_set_time(d->walk, code_time(d));
	hwt_bts_walk_range(d->walk, image_pid(d), d->last_to, from, inclusive,
			   &blk);
	if (blk.status == HWT_BTS_WALK_NO_IMAGE)
		return emit_gap(d, HWT_GAP_NO_IMAGE, offset, 0, blk.detail);
	if (blk.status == HWT_BTS_WALK_BAD) {
		char msg[256];
		snprintf(msg, sizeof(msg), "0x%" PRIx64 "..0x%" PRIx64
			 ": at 0x%" PRIx64 ": %s", d->last_to, from,
			 blk.fail_at, blk.detail);
		return emit_gap(d, HWT_GAP_DECODE_ERROR, offset, 0, msg);
	}
	if (!blk.insns)
		return 0;
	elem_init(d, &e, HWT_ELEM_RANGE, offset);
	e.u.range.start = d->last_to;
	e.u.range.end = blk.end;
	e.u.range.insns = blk.insns;
	e.u.range.isa = HWT_ISA_X86_64;
	return emit(d, &e);
}

/* The kind of the branch from -> to. *async says that the instruction at
 * @from does not branch: the CPU was interrupted (or faulted) before it
 * ran, and runs it after the return. */
static enum hwt_branch_kind branch_kind(struct bts_dec *d, uint64_t from,
					uint64_t to, bool *async)
{
	struct hwt_insn insn;
	const char *detail;
	enum hwt_branch_kind kind = HWT_BRANCH_JUMP;

	*async = false;
	if (d->walk)
		hwt_bts_walk_set_time(d->walk, code_time(d));
	if (d->walk && !hwt_bts_walk_insn(d->walk, image_pid(d), from, &insn,
					  &detail)) {
		kind = hwt_insn_branch_kind(insn.iclass);
		*async = insn.iclass == HWT_INSN_OTHER;
	}
	if (from < KERNEL_START && to >= KERNEL_START &&
	    kind != HWT_BRANCH_SYSCALL)
		kind = HWT_BRANCH_INTERRUPT;
	return kind;
}

static int process_record(struct bts_dec *d, const uint8_t *p, uint64_t offset)
{
	struct hwt_bts_record rec;
	struct hwt_elem e;
	int err;

	hwt_bts_record_read(p, &rec);
	if (!rec.from && !rec.to)
		return 0;
	/* The record that ends tracing is written when the tracer sees the
	 * end (after the process's exit, say): the code before it ran at the
	 * time of the branch before. */
	if (rec.to || !d->have_time)
		record_time(d, &rec);
	if (!rec.from) {
		elem_init(d, &e, HWT_ELEM_TRACE_ON, offset);
		e.fields |= HWT_FIELD_AT;
		e.u.trace.at = rec.to;
		d->have_last = true;
		d->last_to = rec.to;
		return emit(d, &e);
	}
	if (!rec.to) {
		if (d->have_last && (err = emit_range(d, rec.from, false, offset)))
			return err;
		/* Only a tracer writing BTS records (sw_branch) ends its
		 * trace with one: at --stop or the thread's exit. */
		elem_init(d, &e, HWT_ELEM_TRACE_OFF, offset);
		e.fields |= HWT_FIELD_AT | HWT_FIELD_TRACE_END;
		e.u.trace.at = rec.from;
		d->have_last = false;
		return emit(d, &e);
	}
	d->branches++;
	if (d->raw && (!d->image ||
		       !hwt_image_find_at(d->image, image_pid(d), rec.from, code_time(d)) ||
		       !hwt_image_find_at(d->image, image_pid(d), rec.to, code_time(d))))
		d->unmapped++;
	bool async;
	enum hwt_branch_kind kind = branch_kind(d, rec.from, rec.to, &async);
	if (d->have_last && (err = emit_range(d, rec.from, !async, offset)))
		return err;
	elem_init(d, &e, HWT_ELEM_BRANCH, offset);
	e.u.branch.from = rec.from;
	e.u.branch.to = rec.to;
	e.u.branch.kind = kind;
	d->have_last = true;
	d->last_to = rec.to;
	return emit(d, &e);
}

static int process_grid(struct bts_dec *d, const uint8_t *data, size_t size,
			uint64_t offset, size_t *used)
{
	size_t pos = 0;
	int err;

	for (; size - pos >= HWT_BTS_RECORD_SIZE; pos += HWT_BTS_RECORD_SIZE)
		if ((err = process_record(d, data + pos, offset + pos)))
			return err;
	*used = pos;
	return 0;
}

static int bts_create(const struct hwt_decode_params *params, void **priv)
{
	struct bts_dec *d = calloc(1, sizeof(*d));
	if (!d)
		return hwt_error(HWT_ERR_NOMEM, "out of memory for the BTS decoder");
	d->image = params->image;
	if (params->sink)
		d->sink = *params->sink;
	d->cpu = -1;
	d->tid = -1;
	d->pid = HWT_PID_ANY;
	if (params->size >= offsetof(struct hwt_decode_params, pid_at_arg) +
			    sizeof(params->pid_at_arg)) {
		d->pid_at = params->pid_at;
		d->pid_at_arg = params->pid_at_arg;
	}
	d->raw = !params->info;
	if (params->size >= offsetof(struct hwt_decode_params, warn_arg) +
			    sizeof(params->warn_arg)) {
		d->warn = params->warn;
		d->warn_arg = params->warn_arg;
	}
	if (params->info && params->info_words > HWT_BTS_INFO_SNAPSHOT_MODE)
		d->snapshot = params->info[HWT_BTS_INFO_SNAPSHOT_MODE] != 0;
	d->swb_time = params->info && params->info_words > HWT_BTS_INFO_PMU_TYPE &&
		      params->info[HWT_BTS_INFO_PMU_TYPE] == HWT_BTS_SW_BRANCH_PMU_TYPE;
	if (params->info && params->info_words < HWT_BTS_INFO_SNAPSHOT_MODE) {
		free(d);
		return hwt_error(HWT_ERR_FORMAT,
				 "intel_bts AUXTRACE_INFO has %zu words, perf's "
				 "layout has at least %d", params->info_words,
				 HWT_BTS_INFO_SNAPSHOT_MODE);
	}
	if (params->raw_options && strstr(params->raw_options, "snapshot"))
		d->snapshot = true;
	int err = params->image ? hwt_bts_walk_new(params->image, &d->walk)
				: HWT_ERR_NOENT;
	if (err == HWT_ERR_NOMEM) {
		free(d);
		return err;
	}
	if (err) {
		d->walk = NULL; /* branches only; said once in the stream */
		d->walk_err = err;
		hwt_error_clear();
	}
	if (params->disasm && d->walk && d->sink.emit) {
		if ((err = hwt_disasm_new(params->image, &d->sink, &d->disasm))) {
			hwt_bts_walk_free(d->walk);
			free(d);
			return err;
		}
		d->sink = hwt_disasm_sink(d->disasm);
	}
	*priv = d;
	return 0;
}

static int report_nosup(struct bts_dec *d, uint64_t offset)
{
	struct hwt_elem e;

	if (d->walk || d->nosup_reported)
		return 0;
	d->nosup_reported = true;
	if (d->walk_err == HWT_ERR_NOENT)
		return emit_gap(d, HWT_GAP_NO_IMAGE, offset, 0,
				"no memory image: only branches are shown");
	elem_init(d, &e, HWT_ELEM_ERROR, offset);
	e.u.error.message = "instruction ranges are not supported: hwtrace was "
			    "built without Capstone; only branches are shown";
	return emit(d, &e);
}

/* Decodes the records of @buf (stream offset @off) and returns in *used
 * how many bytes were consumed; fewer than 24 are left over. */
static int run_stream(struct bts_dec *d, const uint8_t *buf, size_t len,
		      uint64_t off, size_t *used)
{
	size_t pos = 0, pad;
	int err;

	for (;;) {
		if ((pad = hwt_bts_wrap_pad(off + pos, buf + pos, len - pos))) {
			pos += pad;
			continue;
		}
		if (len - pos < HWT_BTS_RECORD_SIZE)
			break;
		if ((err = process_record(d, buf + pos, off + pos)))
			return err;
		pos += HWT_BTS_RECORD_SIZE;
	}
	*used = pos;
	return 0;
}

static int feed_stream(struct bts_dec *d, const struct hwt_aux_chunk *c)
{
	const uint8_t *data = c->data;
	size_t size = (size_t)c->size, used = 0;
	int err;

	if (d->have_expect && c->offset != d->expect_off) {
		uint64_t lost = c->offset > d->expect_off ?
				c->offset - d->expect_off : 0;
		if (d->npend)
			lost += d->npend;
		d->npend = 0;
		if ((err = emit_gap(d, HWT_GAP_LOST, c->offset, lost,
				    "the AUX stream skips ahead")))
			return err;
	}
	if (d->npend) {
		/* The record cut at the end of the last chunk, and enough of
		 * this one to finish it or to see padding. */
		uint8_t scratch[HWT_BTS_RECORD_SIZE + 48];
		size_t had = d->npend, extra = size < 48 ? size : 48;
		uint64_t at = c->offset - had;

		memcpy(scratch, d->pend, had);
		memcpy(scratch + had, data, extra);
		if ((err = run_stream(d, scratch, had + extra, at, &used)))
			return err;
		if (used < had) {
			/* Still not one whole record (a tiny chunk). */
			d->npend = had + extra - used;
			memmove(d->pend, scratch + used, d->npend);
			data += extra;
			size -= extra;
		} else {
			d->npend = 0;
			data += used - had;
			size -= used - had;
		}
	}
	if (!d->npend) {
		uint64_t base = c->offset + (uint64_t)(data - c->data);
		if ((err = run_stream(d, data, size, base, &used)))
			return err;
		if (size > used) {
			memcpy(d->pend, data + used, size - used);
			d->npend = size - used;
		}
	}
	d->have_expect = true;
	d->expect_off = c->offset + c->size;
	if (c->final && d->npend) {
		/* Nothing will finish it: say so where it was cut. */
		size_t n = d->npend;
		d->npend = 0;
		return emit_gap(d, HWT_GAP_TRUNCATED, d->expect_off - n, n,
				TRACE_ENDS_INSIDE);
	}
	return 0;
}

static int feed_snapshot(struct bts_dec *d, const struct hwt_aux_chunk *c)
{
	size_t start = 0, size = (size_t)c->size, used = 0;
	int err;

	if (d->prev_size) {
		start = hwt_bts_overlap(d->prev, d->prev_size, c->data, size);
		if (!start && (err = emit_gap(d, HWT_GAP_LOST, c->offset, 0,
					      "this snapshot does not overlap the "
					      "previous one: branches between "
					      "them were overwritten")))
			return err;
	} else {
		d->have_last = false;
	}
	if (d->prev_cap < size) {
		uint8_t *n = realloc(d->prev, size);
		if (!n)
			return hwt_error(HWT_ERR_NOMEM,
					 "out of memory keeping a %zu-byte BTS snapshot",
					 size);
		d->prev = n;
		d->prev_cap = size;
	}
	memcpy(d->prev, c->data, size);
	d->prev_size = size;

	struct hwt_bts_span spans[2];
	int n = hwt_bts_snapshot_spans(c->data + start, size - start, spans);
	for (int i = 0; i < n; i++) {
		uint64_t off = c->offset + start + spans[i].start;
		if ((err = process_grid(d, c->data + start + spans[i].start,
					spans[i].len, off, &used)))
			return err;
		if (spans[i].len > used &&
		    (err = emit_gap(d, HWT_GAP_TRUNCATED, off + used,
				    spans[i].len - used,
				    "a BTS record cut at the end of the snapshot")))
			return err;
	}
	return 0;
}

static int bts_feed(void *priv, const struct hwt_aux_chunk *c)
{
	struct bts_dec *d = priv;
	int err;

	if (!c->data && c->size)
		return hwt_error(HWT_ERR_INVAL, "a BTS chunk without data");
	if (d->cpu != c->cpu || d->tid != c->tid) {
		/* Another stream: records do not continue across it. */
		d->npend = 0;
		d->have_expect = false;
		d->have_last = false;
		d->prev_size = 0;
		d->have_time = false;
	}
	d->cpu = c->cpu;
	d->tid = c->tid;
	d->has_stream_pid = c->has_pid;
	d->stream_pid = c->pid;
	/* BTS records carry no time: the buffer's reference places it. */
	d->pid = d->pid_at ? d->pid_at(d->pid_at_arg, c->cpu, c->tid, c->reference)
			   : HWT_PID_ANY;
	if (d->pid == HWT_PID_ANY && c->tid >= 0)
		d->pid = c->tid;
	if (c->lookbehind >= HWT_BTS_RECORD_SIZE && !d->snapshot) {
		/* A segment split() cut after a branch record: where it went
		 * (and its time) is where this one goes on from. */
		struct hwt_bts_record rec;
		hwt_bts_record_read(c->data - HWT_BTS_RECORD_SIZE, &rec);
		if (bts_cut_after(&rec, d->swb_time)) {
			d->have_last = true;
			d->last_to = rec.to;
			record_time(d, &rec);
		}
	} else if ((err = report_nosup(d, c->offset))) {
		return err;
	}
	err = d->snapshot ? feed_snapshot(d, c) : feed_stream(d, c);
	/* The flags are of the chunk's end, which a segment split() cut
	 * before the last is not. */
	if (err || c->lookahead)
		return err;
	if (c->aux_flags & HWT_AUX_FLAG_TRUNCATED) {
		d->npend = 0;
		d->have_expect = false;
		err = emit_gap(d, HWT_GAP_TRUNCATED, c->offset + c->size, 0,
			       "the AUX buffer was full: branches after this "
			       "point were lost");
	} else if (c->aux_flags & HWT_AUX_FLAG_COLLISION) {
		err = emit_gap(d, HWT_GAP_COLLISION, c->offset + c->size, 0, NULL);
	}
	return err;
}

static int bts_flush(void *priv)
{
	struct bts_dec *d = priv;
	int err = 0;

	if (d->npend)
		err = emit_gap(d, HWT_GAP_TRUNCATED, d->expect_off - d->npend,
			       d->npend, TRACE_ENDS_INSIDE);
	d->npend = 0;
	/* A raw stream whose branches lead nowhere the maps cover is not
	 * BTS records of that code (random bytes, another format), or the
	 * maps are wrong. */
	if (d->raw && d->warn && d->unmapped && d->unmapped * 2 >= d->branches) {
		char msg[320];
		snprintf(msg, sizeof(msg), "%" PRIu64 " of the %" PRIu64 " BTS "
			 "branch records lead from or to addresses that no --map "
			 "covers: is the input an Intel BTS stream of the mapped "
			 "code, and are the --map addresses right?",
			 d->unmapped, d->branches);
		d->warn(d->warn_arg, msg);
		d->unmapped = 0;
	}
	return err;
}

static void bts_reset(void *priv)
{
	struct bts_dec *d = priv;

	d->npend = 0;
	d->have_expect = false;
	d->have_last = false;
	d->prev_size = 0;
	/* A chunk decodes the same in any instance: no time, and the
	 * missing image said again, from its own records. */
	d->have_time = false;
	d->nosup_reported = false;
}

/* The split op: streams of records are cut after branch records
 * (bts_split.c); snapshots, whose overlap with the snapshot before needs
 * it whole, raw input, and a chunk that goes on from a record cut at the
 * end of the last one are not cut. */
static int bts_split(void *priv, const struct hwt_aux_chunk *c,
		     uint64_t *starts, size_t max)
{
	struct bts_dec *d = priv;
	starts[0] = 0;
	if (d->snapshot || d->raw || d->npend)
		return 1;
	return (int)bts_split_records(c, d->swb_time, starts, max);
}

static void bts_destroy(void *priv)
{
	struct bts_dec *d = priv;

	if (!d)
		return;
	hwt_disasm_free(d->disasm);
	hwt_bts_walk_free(d->walk);
	free(d->prev);
	free(d);
}

/* One line of the BTS listing to @sink, with its record's fields. */
static int bts_line(const struct hwt_packet_sink *sink,
		    enum hwt_packet_rec_type type, bool has_offset,
		    uint64_t offset, const char *kind,
		    const struct hwt_packet_field *fields, size_t nfields,
		    const char *line)
{
	return hwt_packet_emit(sink, "intel_bts", type, has_offset, offset, kind,
			       fields, nfields, line);
}

static int bts_packets(const struct hwt_decode_params *params,
		       const struct hwt_aux_chunk *c,
		       const struct hwt_packet_sink *sink)
{
	size_t pos = 0;
	bool stepped = params->info && params->info_words > HWT_BTS_INFO_PMU_TYPE &&
		       params->info[HWT_BTS_INFO_PMU_TYPE] ==
			       HWT_BTS_SW_BRANCH_PMU_TYPE;
	char line[128];

	snprintf(line, sizeof(line), ". ... Intel BTS data: size %" PRIu64
		 " bytes", c->size);
	int err = bts_line(sink, HWT_PACKET_REC_NOTE, false, 0, NULL, NULL, 0,
			   line);
	for (; err >= 0 && c->size - pos >= HWT_BTS_RECORD_SIZE;
	     pos += HWT_BTS_RECORD_SIZE) {
		struct hwt_bts_record rec;
		hwt_bts_record_read(c->data + pos, &rec);
		struct hwt_packet_field fields[] = {
			{"from", rec.from},
			{"to", rec.to},
			{"flags", rec.flags},
		};
		snprintf(line, sizeof(line), "  %08" PRIx64 ": %" PRIx64 " -> %"
			 PRIx64 " %s", c->offset + pos, rec.from, rec.to,
			 stepped ? "unknown" :
			 rec.flags & HWT_BTS_FLAG_PREDICTED ? "pred" : "miss");
		err = bts_line(sink, HWT_PACKET_REC_PACKET, true, c->offset + pos,
			       "branch", fields, 3, line);
	}
	if (err >= 0 && pos < c->size) {
		snprintf(line, sizeof(line), "  %08" PRIx64 ": partial record (%"
			 PRIu64 " bytes)", c->offset + pos, c->size - pos);
		err = bts_line(sink, HWT_PACKET_REC_NOTE, true, c->offset + pos,
			       NULL, NULL, 0, line);
	}
	return err < 0 ? err : 0;
}

const struct hwt_decoder_ops hwt_bts_decoder_ops = {
	.create = bts_create,
	.feed = bts_feed,
	.flush = bts_flush,
	.reset = bts_reset,
	.destroy = bts_destroy,
	.packets = bts_packets,
	.split = bts_split,
	.code_isa = hwt_decoder_code_isa_x86_64,
};
