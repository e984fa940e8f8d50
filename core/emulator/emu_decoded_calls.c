/* Where a replayed trace that does not name its branches (Intel PT)
 * enters and leaves a probed function, found with the trace's own
 * decoder.
 *
 * The stream's AUX bytes are decoded once, whole, through the decoder
 * ops of the backend that the capture's AUXTRACE_INFO names (the
 * registry's, never a backend directly), with a memory image of the
 * stream's MMAP/MMAP2 records: that gives every branch in order, and
 * the calls of FUNC and their returns among them. The backend's packets
 * op lists where each packet starts (emu_packet_list.c). Where in the stream a branch
 * happened is then found from the shortest prefix of the stream whose
 * decode shows it (a search: doubling steps, then halving, each step a
 * decode of a prefix):
 *
 * - a prefix that ends where a packet ends is the packet that carries
 *   the branch (a TIP, a TNT bit): the branch happened at its end;
 * - a prefix that ends inside a packet is a branch no packet names (a
 *   direct call): the decoder followed it as soon as it saw that more
 *   trace comes, so it happened before that packet, and before the
 *   timing packets (TSC, MTC, CYC, ...) just ahead of it, which time
 *   what comes after.
 *
 * A probe fires there, between two packets, as a uprobe runs between
 * the instructions those packets describe; its time is the last one the
 * decode of the stream up to there knows. A few dozen decodes of the
 * stream's start a hit: affordable for the captures a test replays,
 * quadratic for long ones, which are refused (EOPNOTSUPP) once the
 * decodes would add up to more than EMU_DECODE_BUDGET bytes, rather
 * than keep the replay waiting for minutes (and streams of more than a
 * 64th of it at once).
 *
 * A decoder the registry isolates by default (cs_etm's, OpenCSD, which
 * must not read untrusted trace in this process) runs in its isolated
 * workers, as `hwtrace decode` runs it, one worker a prefix decode. Its
 * packets are not listed (that would parse the trace here): a hit is at
 * the end of the shortest prefix of whole 16-byte frames that shows it
 * (a CoreSight sink writes whole frames, and the deformatter reads
 * them). A trace without timestamps (an ETM
 * configured without them) gives a hit the time of the replayed
 * PERF_RECORD_AUX that brings its bytes, the time perf gives it too.
 *
 * A pause or resume probe on a CoreSight stream needs more than a frame:
 * the emulator cuts the stream at the atom of the branch (emu_cs_cut.c).
 * There the whole decode's own trace offsets place each hit, without
 * prefix decodes: the decoder gives each element the formatted index of
 * its packet, and a branch's atom in an atom packet is the number of
 * ranges that packet gave before it (one range an atom). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/decode/decode_isolate.h"
#include "core/emulator/emu_cs.h"
#include "core/emulator/emu_internal.h"
#include "core/emulator/emu_replay.h"
#include "hwtrace/auxaction.h"
#include "hwtrace/backend.h"
#include "hwtrace/decode.h"
#include "hwtrace/element.h"
#include "hwtrace/error.h"
#include "hwtrace/image.h"

#define EMU_DECODE_BUDGET (1ull << 30)

struct decoded_branch {
	uint64_t from, to;
	/* The trace offset of the packet the decoder gave it for (for
	 * cs_etm, its formatted index) and, for an atom packet, which of
	 * its atoms: the ranges of that packet before its own, one an
	 * atom. */
	uint64_t off;
	uint32_t atom;
};

/* What the sink keeps: every branch (@keep), or just whether branch
 * number @want was reached; and the last time an element had. */
struct branch_log {
	bool keep;
	struct decoded_branch *v;
	size_t n, cap;
	size_t want;
	bool reached, nomem;
	uint64_t last_time;
	uint64_t range_off;   /* the offset of the last range */
	uint32_t ranges_there; /* ranges at that offset so far */
};

static int log_branch(void *arg, const struct hwt_elem *e)
{
	struct branch_log *log = arg;

	if (e->fields & HWT_FIELD_TIME)
		log->last_time = e->time;
	if (e->type == HWT_ELEM_RANGE) {
		if (!log->ranges_there || e->trace_offset != log->range_off)
			log->ranges_there = 0;
		log->range_off = e->trace_offset;
		log->ranges_there++;
	}
	if (e->type != HWT_ELEM_BRANCH)
		return 0;
	if (!log->keep) {
		if (log->n++ < log->want)
			return 0;
		log->reached = true;
		/* Seen enough: stop this decode. Not HWT_ERR_EOF, which an
		 * isolated decoder's caller takes for its worker's end. */
		return HWT_ERR_NOSPC;
	}
	if (log->n == log->cap) {
		size_t ncap = log->cap ? log->cap * 2 : 256;
		struct decoded_branch *nv = realloc(log->v, ncap * sizeof(*nv));
		if (!nv) {
			log->nomem = true;
			return HWT_ERR_NOMEM;
		}
		log->v = nv;
		log->cap = ncap;
	}
	log->v[log->n++] = (struct decoded_branch){
		e->u.branch.from, e->u.branch.to, e->trace_offset,
		log->ranges_there && log->range_off == e->trace_offset ?
			log->ranges_there - 1 : UINT32_MAX};
	return 0;
}

struct stream_decoder {
	const struct hwt_decoder_ops *ops;
	struct emu_packet *packets;
	size_t npackets;
	struct hwt_decode_params params;
	struct hwt_elem_sink sink;
	struct branch_log log;
	const uint8_t *bytes;
	uint64_t len;
	int cpu;
	uint64_t budget; /* bytes the prefix decodes may still take */
	const struct emu_stream *stream;
	/* Prefixes end at multiples of this (a CoreSight sink's 16-byte
	 * frames: a decode of part of a frame says nothing), or at the
	 * stream's end. */
	uint64_t granule;
};

static uint64_t whole_granules(const struct stream_decoder *sd, uint64_t len)
{
	uint64_t up = (len + sd->granule - 1) / sd->granule * sd->granule;
	return up < sd->len ? up : sd->len;
}

/* Decodes the stream's first @len bytes in a fresh decoder instance. */
static int decode_prefix(struct stream_decoder *sd, uint64_t len)
{
	struct hwt_aux_chunk chunk;
	void *priv = NULL;
	int err;

	if (len > sd->budget)
		return HWT_ERR_NOSUP;
	sd->budget -= len;
	memset(&chunk, 0, sizeof(chunk));
	chunk.data = sd->bytes;
	chunk.size = len;
	chunk.cpu = sd->cpu;
	chunk.tid = -1;
	sd->log.n = 0;
	sd->log.ranges_there = 0;
	sd->log.reached = false;
	sd->log.last_time = 0;
	err = sd->ops->create(&sd->params, &priv);
	if (err < 0)
		return err;
	err = sd->ops->feed(priv, &chunk);
	if (err >= 0 && sd->ops->flush)
		err = sd->ops->flush(priv);
	sd->ops->destroy(priv);
	if (sd->log.nomem)
		return HWT_ERR_NOMEM;
	/* A stop asked for by the sink, or a decode error in a prefix cut
	 * inside a packet: what was decoded until then stands. */
	return 0;
}

/* Whether the first @len bytes show branch number @k (from 0). */
static int shows(struct stream_decoder *sd, uint64_t len, size_t k, bool *yes)
{
	sd->log.want = k;
	int err = decode_prefix(sd, whole_granules(sd, len));
	*yes = sd->log.reached;
	return err;
}

/* The shortest prefix, at least @from bytes, that shows branch @k. */
static int position_of(struct stream_decoder *sd, size_t k, uint64_t from,
		       uint64_t *pos)
{
	uint64_t lo = from, hi = sd->len, step = 64;
	bool yes = false;
	int err;

	/* Doubling steps from @from: hits are close to each other. */
	while (lo + step < sd->len) {
		if ((err = shows(sd, lo + step, k, &yes)) < 0)
			return err;
		if (yes) {
			hi = lo + step;
			break;
		}
		lo += step;
		step *= 2;
	}
	/* Halving: lo does not show it (or is @from), hi does or is the end. */
	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;
		if ((err = shows(sd, mid, k, &yes)) < 0)
			return err;
		if (yes)
			hi = mid;
		else
			lo = mid + 1;
	}
	*pos = whole_granules(sd, hi);
	return 0;
}

/* Where a branch happened, from the shortest prefix @shortest that
 * shows it (see the top of the file). */
static uint64_t branch_position(const struct stream_decoder *sd,
				uint64_t shortest)
{
	if (!sd->npackets || !shortest || shortest >= sd->len)
		return shortest;
	size_t i = hwt_emu_packet_at(sd->packets, sd->npackets, shortest);
	if (sd->packets[i].start == shortest)
		return shortest; /* the end of the packet that carried it */
	while (i > 0 && sd->packets[i - 1].timing)
		i--;
	return sd->packets[i].start;
}

/* The stream's AUX bytes in source order, one copy. */
static uint8_t *stream_copy(const struct emu_stream *s, uint64_t *len)
{
	uint64_t n = 0, at = 0;
	uint8_t *buf;

	for (size_t i = 0; i < s->nitems; i++)
		if (s->items[i].kind == EMU_ITEM_AUX)
			n += s->items[i].len * s->items[i].repeat;
	if (!(buf = malloc(n ? n : 1)))
		return NULL;
	for (size_t i = 0; i < s->nitems; i++) {
		const struct emu_item *it = &s->items[i];
		if (it->kind != EMU_ITEM_AUX)
			continue;
		for (uint64_t r = 0; r < it->repeat; r++, at += it->len)
			memcpy(buf + at, it->data, it->len);
	}
	*len = n;
	return buf;
}

/* The stream's mappings as the decoder's memory image; the mapping of
 * @capture_name (NULL: none) reads @local, the probe's binary. */
static int stream_image(const struct emu_stream *s, struct hwt_image *image,
			const char *capture_name, const char *local)
{
	for (size_t i = 0; i < s->nitems; i++) {
		struct emu_mapping m;
		if (!hwt_emu_item_mapping(&s->items[i], &m))
			continue;
		const char *file = capture_name && !strcmp(m.name, capture_name) ?
					   local : m.name;
		int err = hwt_image_add_file(image, HWT_PID_ANY, m.start, m.len,
					     file, m.pgoff);
		if (err == HWT_ERR_NOMEM)
			return err;
	}
	return 0;
}

/* The sample time of the replayed write that brings the stream's byte
 * before @pos (the first write for 0); 0 when it has none. */
static uint64_t write_time(const struct emu_stream *s, uint64_t pos)
{
	uint64_t at = 0, time = 0;

	for (size_t i = 0; i < s->nitems; i++) {
		const struct emu_item *it = &s->items[i];
		if (it->kind != EMU_ITEM_AUX)
			continue;
		at += it->len * it->repeat;
		time = it->time;
		if (at >= pos && at)
			break;
	}
	return time;
}

static int find_positions(struct stream_decoder *sd, struct emu_event *leader,
			  struct emu_event *probe, uint64_t addr, bool at_return)
{
	struct emu_call_match match = {0};
	struct decoded_branch *all = sd->log.v;
	size_t nall = sd->log.n;
	uint64_t pos = 0;
	int err = 0;

	sd->log.keep = false;
	for (size_t k = 0; k < nall && err >= 0; k++) {
		const struct decoded_branch *b = &all[k];
		int what = hwt_emu_call_match(&match, addr, b->from, b->to);
		if (what != (at_return ? EMU_CALL_RETURN : EMU_CALL_ENTRY))
			continue;
		uint64_t shortest = pos, at;
		err = position_of(sd, k, pos, &shortest);
		at = branch_position(sd, shortest);
		/* The time the trace knows there. */
		if (err >= 0)
			err = decode_prefix(sd, at);
		uint64_t time = sd->log.last_time ? sd->log.last_time
						  : write_time(sd->stream, at);
		if (err >= 0 && hwt_emu_add_hit(leader, at, probe,
						at_return ? b->to : addr, 0,
						time))
			err = HWT_ERR_NOMEM;
		pos = at;
	}
	return err;
}

/* A pause or resume probe on a cs_etm stream: each hit is at the sink's
 * frame that holds its branch's atom, the packet the decoder gave the
 * branch for (emu_cs_cut.c writes the cut there); a branch that is not an
 * atom's, or a cut the stream does not allow, refuses the probe. */
static int cut_positions(struct hwt_emu *emu, struct stream_decoder *sd,
			 struct emu_event *leader, struct emu_event *probe,
			 uint64_t addr, bool at_return)
{
	struct emu_call_match match = {0};
	bool pause = hwt_attr_aux_action(&probe->attr) & HWT_AUX_PAUSE;

	for (size_t k = 0; k < sd->log.n; k++) {
		const struct decoded_branch *b = &sd->log.v[k];
		int what = hwt_emu_call_match(&match, addr, b->from, b->to);
		if (what != (at_return ? EMU_CALL_RETURN : EMU_CALL_ENTRY))
			continue;
		uint64_t ip = at_return ? b->to : addr, frame = 0, replaced = 0;
		uint8_t out[HWT_EMU_CS_CUT_ROOM];
		if (b->atom == UINT32_MAX || b->off > UINT32_MAX)
			return hwt_emu_refuse(emu, "the decoder gives the probed "
					      "branch at %#llx for a packet that is "
					      "not an atom packet, where the trace "
					      "cannot be cut",
					      (unsigned long long)b->from);
		long r = pause ? hwt_emu_cs_pause_frames(leader->cs_cut,
							 (uint32_t)b->off, b->atom,
							 out, &frame) :
				 hwt_emu_cs_resume_frames(leader->cs_cut,
							  (uint32_t)b->off, b->atom, ip,
							  out, &frame, &replaced);
		if (r < 0)
			return hwt_emu_refuse(
				emu, "the trace cannot be %s after the probed "
				"branch at %#llx (byte %#llx of the trace): %s",
				pause ? "stopped" : "restarted",
				(unsigned long long)b->from,
				(unsigned long long)b->off,
				pause ? "its atom packet is not one the cut can "
					"end a frame with" :
					"an address after it would read "
					"differently after the restart, or the "
					"restart does not fit in the frames it "
					"replaces");
		/* No timestamps: the time of the write with the frame's
		 * last byte. */
		if (hwt_emu_add_hit(leader, frame, probe, ip, 0,
				    write_time(sd->stream, frame + HWT_CS_FRAME)))
			return -ENOMEM;
		struct emu_probe_hit *h = &leader->hits[leader->nhits - 1];
		h->cs_cut = true;
		h->cs_pkt = (uint32_t)b->off;
		h->cs_atom = b->atom;
	}
	return 0;
}

/* The cut of @leader's stream (@bytes), opened once. */
static int open_cut(struct hwt_emu *emu, struct emu_event *leader,
		    const struct hwt_decode_params *p, const uint8_t *bytes,
		    uint64_t len)
{
	struct hwt_etm_cfg cfg;
	const char *why;
	uint8_t id;

	if (leader->cs_cut)
		return 0;
	if (hwt_emu_cs_source(p->info, p->info_words, leader->stream->cpu, &id,
			      &cfg, &why) < 0)
		return hwt_emu_refuse(emu, "the trace cannot be cut: %s", why);
	struct hwt_emu_cs_cut *c = malloc(sizeof(*c));
	if (!c)
		return -ENOMEM;
	int err = hwt_emu_cs_cut_open(bytes, len, id, &cfg, c, &why);
	if (err) {
		free(c);
		return err == -EOPNOTSUPP ?
			       hwt_emu_refuse(emu, "the trace cannot be cut: %s",
					      why) :
			       err;
	}
	leader->cs_cut = c;
	return 0;
}

/* The errno of a search for hits that ended with @err. */
static int decode_refusal(struct hwt_emu *emu, int err)
{
	if (err == HWT_ERR_NOMEM)
		return -ENOMEM;
	if (err == HWT_ERR_NOSUP)
		return hwt_emu_refuse(emu, "finding the probe's hits would take "
				      "more than %llu GiB of decoding of the "
				      "replayed trace",
				      (unsigned long long)(EMU_DECODE_BUDGET >> 30));
	if (err < 0)
		return hwt_emu_refuse(emu, "the replayed trace could not be "
				      "decoded to find the probe's hits: %s",
				      hwt_errmsg());
	return 0;
}

int hwt_emu_decoded_hits(struct hwt_emu *emu, struct emu_event *leader,
			 struct emu_event *probe, uint64_t addr, bool at_return,
			 const char *capture_name)
{
	const struct emu_replay_data *r = emu->replay;
	const struct hwt_backend *be;
	struct stream_decoder sd;
	struct hwt_image *image;
	struct perf_event_header h;
	uint8_t *bytes;
	int err;

	if (!r || !r->info)
		return hwt_emu_refuse(emu, "the replayed capture has no "
				      "AUXTRACE_INFO, which its trace's decoder "
				      "needs to find the probe's hits");
	memcpy(&h, r->info, sizeof(h));
	be = hwt_backend_for_auxtrace(
		(enum hwt_auxtrace_type)((const uint32_t *)r->info)[2]);
	if (!be || !be->decoder || h.size < 16)
		return hwt_emu_refuse(emu, "no decoder in this build reads the "
				      "replayed capture's trace, which finds the "
				      "probe's hits");
	/* Its packet listing is kept in memory, some 40 bytes a packet. */
	if (leader->stream->src_total > EMU_DECODE_BUDGET / 64)
		return hwt_emu_refuse(emu, "the replayed trace of cpu %d is %llu "
				      "bytes, over the %llu MiB in which the "
				      "emulator finds a probe's hits by decoding "
				      "it", leader->stream->cpu,
				      (unsigned long long)leader->stream->src_total,
				      (unsigned long long)(EMU_DECODE_BUDGET / 64 >> 20));
	/* A decoder that must not read untrusted trace in this process
	 * (OpenCSD's) runs in its isolated workers. */
	struct hwt_decode_opts opts = {.jobs = 1};
	struct hwt_isolation *iso = NULL;
	if (hwt_isolate_wanted(be, &opts)) {
		if (hwt_isolation_open(be, &opts, &iso) < 0)
			return hwt_emu_refuse(emu, "the isolated decoder that finds "
					      "the probe's hits did not start: %s",
					      hwt_errmsg());
	}
	if (!(image = hwt_image_new())) {
		hwt_isolation_close(iso, 0);
		return -ENOMEM;
	}
	if (!(bytes = stream_copy(leader->stream, &sd.len)) ||
	    stream_image(leader->stream, image, capture_name,
			 (const char *)(uintptr_t)probe->attr.config1) < 0) {
		free(bytes);
		hwt_image_free(image);
		hwt_isolation_close(iso, 0);
		return -ENOMEM;
	}
	memset(&sd.params, 0, sizeof(sd.params));
	memset(&sd.log, 0, sizeof(sd.log));
	sd.ops = iso ? hwt_isolation_backend(iso)->decoder : be->decoder;
	sd.stream = leader->stream;
	sd.granule = leader->cs_sink ? 16 : 1;
	sd.bytes = bytes;
	sd.cpu = leader->stream->cpu;
	sd.sink = (struct hwt_elem_sink){log_branch, &sd.log};
	sd.params.size = sizeof(sd.params);
	sd.params.info = (const uint64_t *)((const uint8_t *)r->info + 16);
	sd.params.info_words = (h.size - 16) / 8;
	sd.params.image = image;
	sd.params.sink = &sd.sink;
	sd.params.aux_attr = &r->attrs[r->aux_index];
	/* The whole stream once: every branch, in order. */
	sd.log.keep = true;
	sd.packets = NULL;
	sd.npackets = 0;
	sd.budget = EMU_DECODE_BUDGET;
	err = decode_prefix(&sd, sd.len);
	bool cut = leader->cs_sink && hwt_attr_aux_action(&probe->attr);
	if (cut) {
		int e = err >= 0 ? open_cut(emu, leader, &sd.params, bytes, sd.len)
				 : 0;
		if (e == 0 && err >= 0)
			e = cut_positions(emu, &sd, leader, probe, addr, at_return);
		free(sd.log.v);
		free(bytes);
		hwt_image_free(image);
		err = hwt_isolation_close(iso, err);
		return e ? e : decode_refusal(emu, err);
	}
	if (err >= 0 && !iso)
		err = hwt_emu_packet_list(sd.ops, &sd.params, bytes, sd.len, sd.cpu,
					  &sd.packets, &sd.npackets);
	if (err >= 0)
		err = find_positions(&sd, leader, probe, addr, at_return);
	free(sd.packets);
	free(sd.log.v);
	free(bytes);
	hwt_image_free(image);
	/* A lost worker fails the search: its hits are not known. */
	err = hwt_isolation_close(iso, err);
	return decode_refusal(emu, err);
}
