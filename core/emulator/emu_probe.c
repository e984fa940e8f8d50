/* Emulated uprobes and the kernel's AUX pause/resume (aux_action).
 *
 * A uprobe event (the emulated uprobe PMU: config:0 retprobe, config1 the
 * binary's path, config2 the file offset) opened in an AUX event's group
 * fires when the replayed program enters FUNC (entry probe) or returns
 * from it (return probe). The emulator knows when from the replayed trace
 * itself: the binary's PERF_RECORD_MMAP/MMAP2 in the stream's sideband
 * (by its path, or by its build id: emu_probe_binary.c) give FUNC's
 * run-time address, and the stream's BTS records (a sw_branch
 * or intel_bts capture) give every call of it, as branch records whose
 * target is that address, and its return, the next branch back to just
 * after the call site. An Intel PT trace does not name its branches: its
 * decoder finds them (emu_decoded_calls.c), and the same matching of
 * calls and returns runs over the branches it gives; so does a
 * CoreSight trace, with OpenCSD in its isolated workers. Other traces
 * are not read: such a probe is refused with EOPNOTSUPP.
 *
 * Each hit is a source position of the AUX stream: the end of the call
 * record (the uprobe runs before FUNC's first instruction, so the call
 * itself went before it) and the end of the return record (the
 * uretprobe runs once the ret was executed). When the producer reaches a
 * hit it writes the probe's PERF_RECORD_SAMPLE and applies its
 * aux_action to the AUX event: aux_pause stops the trace unit writing
 * (the bytes it would have written are counted as paused), aux_resume
 * starts it again; an AUX event opened with aux_start_paused writes
 * nothing until a resume. The trace itself says where it stopped and
 * started again (trace_marker): in BTS records as perf shows a trace's
 * end and begin, in Intel PT with the packets of a TraceEn switch
 * (emu_pt_packets.c), in CoreSight frames cut at the branch's atom and a
 * restart (emu_cs_cut.c; such a hit is at the start of that frame),
 * right after the probe's sample in the data ring: the cause before the
 * effect. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "core/emulator/emu_cs.h"
#include "core/emulator/emu_internal.h"
#include "core/emulator/emu_replay.h"
#include "hwtrace/auxaction.h"
#include "hwtrace/bts_format.h"

/* x86's longest instruction: a return lands at most this far after the
 * call instruction that made the call. */
#define EMU_MAX_CALL_LEN 15u

#define EMU_PROBE_SAMPLE_TYPES                                               \
	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |         \
	 PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | PERF_SAMPLE_ID |              \
	 PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD)

bool hwt_emu_is_probe_type(uint32_t type)
{
	return type == HWT_EMU_UPROBE_TYPE;
}

bool hwt_emu_item_mapping(const struct emu_item *it, struct emu_mapping *m)
{
	struct perf_event_header h;
	size_t name_at;

	if (it->kind != EMU_ITEM_RECORD || it->len < sizeof(h))
		return false;
	memcpy(&h, it->data, sizeof(h));
	/* header, pid, tid, addr, len, pgoff, then (MMAP2) maj, min, ino,
	 * ino_generation, prot, flags (or the build id form of the same 24
	 * bytes), then the file name. */
	if (h.type == PERF_RECORD_MMAP)
		name_at = 8 + 8 + 24;
	else if (h.type == PERF_RECORD_MMAP2)
		name_at = 8 + 8 + 24 + 24 + 8;
	else
		return false;
	if (it->len <= name_at)
		return false;
	memcpy(&m->start, it->data + 16, 8);
	memcpy(&m->len, it->data + 24, 8);
	memcpy(&m->pgoff, it->data + 32, 8);
	m->name = (const char *)it->data + name_at;
	return strnlen(m->name, (size_t)it->len - name_at) < it->len - name_at;
}

/* FUNC's run-time address from the stream's MMAP/MMAP2 records of @path;
 * false when the stream never maps it. */
static bool run_time_address(const struct emu_stream *s, const char *path,
			     uint64_t offset, uint64_t *addr)
{
	for (size_t i = 0; i < s->nitems; i++) {
		struct emu_mapping m;
		if (!hwt_emu_item_mapping(&s->items[i], &m) || strcmp(m.name, path))
			continue;
		if (offset >= m.pgoff && offset - m.pgoff < m.len) {
			*addr = m.start + (offset - m.pgoff);
			return true;
		}
	}
	return false;
}

int hwt_emu_call_match(struct emu_call_match *m, uint64_t addr,
		       uint64_t from, uint64_t to)
{
	if (to == addr && from) {
		/* Deeper than we follow: its return is not looked for, as
		 * a uretprobe that cannot hijack more returns. */
		if (m->depth < EMU_CALL_MAX_DEPTH)
			m->sites[m->depth++] = from;
		return EMU_CALL_ENTRY;
	}
	if (m->depth && to > m->sites[m->depth - 1] &&
	    to - m->sites[m->depth - 1] <= EMU_MAX_CALL_LEN) {
		m->depth--;
		return EMU_CALL_RETURN;
	}
	return 0;
}

/* When the branch record with @flags ran: sw_branch's clock in the
 * record (CLOCK_MONOTONIC, the capture's perf time; 2^56 ns is two
 * years), else the time of the write @it that holds it. */
static uint64_t hit_time(uint64_t flags, const struct emu_item *it)
{
	if (flags & HWT_BTS_FLAG_SWB_TIME)
		return flags >> HWT_BTS_SWB_TIME_SHIFT;
	return it->time;
}

int hwt_emu_add_hit(struct emu_event *leader, uint64_t pos,
		    struct emu_event *probe, uint64_t ip, uint64_t flags,
		    uint64_t time)
{
	if (leader->nhits == leader->hitcap) {
		size_t ncap = leader->hitcap ? leader->hitcap * 2 : 64;
		struct emu_probe_hit *n = realloc(leader->hits, ncap * sizeof(*n));
		if (!n)
			return -ENOMEM;
		leader->hits = n;
		leader->hitcap = ncap;
	}
	leader->hits[leader->nhits++] = (struct emu_probe_hit){
		.pos = pos, .probe = probe, .ip = ip, .flags = flags, .time = time};
	return 0;
}

/* Walks the stream's AUX source as BTS records, adding a hit of @probe
 * (FUNC at @addr) at each entry or return. */
static int find_hits(struct emu_event *leader, struct emu_event *probe,
		     uint64_t addr, bool at_return)
{
	const struct emu_stream *s = leader->stream;
	struct emu_call_match match = {0};
	uint8_t rec[HWT_BTS_RECORD_SIZE];
	uint64_t pos = 0;
	unsigned have = 0;

	for (size_t i = 0; i < s->nitems; i++) {
		const struct emu_item *it = &s->items[i];
		if (it->kind != EMU_ITEM_AUX)
			continue;
		for (uint64_t k = 0; k < it->len * it->repeat; k++) {
			rec[have++] = it->data[k % it->len];
			pos++;
			if (have < sizeof(rec))
				continue;
			have = 0;
			uint64_t from = hwt_bts_le64(rec), to = hwt_bts_le64(rec + 8);
			uint64_t flags = hwt_bts_le64(rec + 16);
			int what = hwt_emu_call_match(&match, addr, from, to);
			int err = 0;
			if (what == EMU_CALL_ENTRY && !at_return)
				err = hwt_emu_add_hit(leader, pos, probe, addr, flags,
						      hit_time(flags, it));
			else if (what == EMU_CALL_RETURN && at_return)
				err = hwt_emu_add_hit(leader, pos, probe, to, flags,
						      hit_time(flags, it));
			if (err)
				return err;
		}
	}
	return 0;
}

static int hit_order(const void *a, const void *b)
{
	const struct emu_probe_hit *x = a, *y = b;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

static struct emu_event *find_leader(struct hwt_emu *emu, int group_fd)
{
	for (struct emu_event *e = emu->events; e; e = e->next)
		if (!e->closed && e->fd == group_fd)
			return e;
	return NULL;
}

/* Two CoreSight cuts in one frame of the sink (a call shorter than a
 * frame, two probes on one branch): the frame cannot be written both
 * ways, so the probe that adds the second is refused. Any other hit in
 * that frame would fire in the middle of the cut, too. */
static bool cuts_collide(const struct emu_event *leader)
{
	for (size_t i = 1; i < leader->nhits; i++) {
		const struct emu_probe_hit *a = &leader->hits[i - 1];
		const struct emu_probe_hit *b = &leader->hits[i];
		if ((a->cs_cut || b->cs_cut) &&
		    b->pos / HWT_CS_FRAME == a->pos / HWT_CS_FRAME)
			return true;
	}
	return false;
}

/* Called with the lock held; @ev is filled but not yet listed. */
static int attach(struct hwt_emu *emu, struct emu_event *ev, int group_fd)
{
	struct emu_event *leader = find_leader(emu, group_fd);
	const char *path = (const char *)(uintptr_t)ev->attr.config1;
	bool at_return = ev->attr.config & HWT_UPROBE_RETPROBE;
	uint64_t addr;
	size_t before;

	if (!leader || !leader->aux_pmu || leader->cpu != ev->cpu || !path)
		return -EINVAL;
	if (!(leader->bts_format || leader->pt_format || leader->cs_sink) ||
	    !leader->stream)
		return hwt_emu_refuse(emu, "the emulator's probes fire only in a "
				      "replayed Intel BTS, Intel PT or CoreSight "
				      "sink's trace");
	/* The capture's name of the binary: its path, else the file the
	 * capture gives the same build id (recorded on another machine). */
	const char *name = path;
	if (!run_time_address(leader->stream, path, ev->attr.config2, &addr)) {
		name = hwt_emu_capture_name_of(emu, path);
		if (!name || !run_time_address(leader->stream, name,
					       ev->attr.config2, &addr))
			return 0; /* never mapped: a probe that never fires */
	}
	before = leader->nhits;
	int err = leader->bts_format ?
			  find_hits(leader, ev, addr, at_return) :
			  hwt_emu_decoded_hits(emu, leader, ev, addr, at_return,
					       name == path ? NULL : name);
	if (err)
		return err;
	if (leader->nhits != before)
		qsort(leader->hits, leader->nhits, sizeof(*leader->hits),
		      hit_order);
	if (leader->cs_cut && cuts_collide(leader)) {
		size_t kept = 0;
		for (size_t i = 0; i < leader->nhits; i++)
			if (leader->hits[i].probe != ev)
				leader->hits[kept++] = leader->hits[i];
		leader->nhits = kept;
		return hwt_emu_refuse(emu, "two cuts of the trace would fall in "
				      "one 16-byte frame of the sink (both probes "
				      "on one branch, or a call shorter than a "
				      "frame), which cannot be written both ways");
	}
	ev->leader = leader;
	return 0;
}

int hwt_emu_open_probe(struct hwt_emu *emu, const struct perf_event_attr *attr,
		       int pid, int cpu, int group_fd)
{
	struct emu_event *ev;
	int err;

	if ((attr->sample_type & ~(uint64_t)EMU_PROBE_SAMPLE_TYPES) ||
	    (pid == -1 && cpu == -1))
		return -EINVAL;
	if (!(ev = hwt_emu_event_new(emu, attr, pid, cpu, &err)))
		return err;
	ev->probe = true;
	pthread_mutex_lock(&emu->lock);
	err = attach(emu, ev, group_fd);
	if (err) {
		pthread_mutex_unlock(&emu->lock);
		close(ev->fd);
		free(ev);
		return err;
	}
	/* Away from the ids a replayed capture gives its own events. */
	ev->id = (1ull << 41) + emu->next_id++;
	ev->next = emu->events;
	emu->events = ev;
	pthread_mutex_unlock(&emu->lock);
	return ev->fd;
}

uint64_t hwt_emu_probe_clamp(const struct emu_event *ev, uint64_t n)
{
	const struct emu_stream *s = ev->stream;

	if (ev->next_hit >= ev->nhits)
		return n;
	uint64_t at = ev->hits[ev->next_hit].pos;
	return at > s->src_pos && at - s->src_pos < n ? at - s->src_pos : n;
}

/* The trace unit says where its trace stops and starts again: Intel PT
 * with the packets of a TraceEn switch; in BTS records, perf's trace end
 * {from, 0} and begin {0, to}, with the sw_branch clock of the record
 * the probe followed. */
static void trace_marker(struct emu_event *ev, uint64_t from, uint64_t to,
			 const struct emu_probe_hit *h)
{
	uint64_t flags = h->flags;
	uint8_t rec[HWT_BTS_RECORD_SIZE];

	if (ev->cs_cut && h->cs_cut) {
		/* The sink's frame of the branch's atom, cut there
		 * (emu_cs_cut.c); a resume's replaces frames of the sink
		 * that the producer then skips. */
		uint8_t frames[HWT_EMU_CS_CUT_ROOM];
		uint64_t frame = 0, replaced = 0;
		long n = to ? hwt_emu_cs_resume_frames(ev->cs_cut, h->cs_pkt,
						       h->cs_atom, to, frames,
						       &frame, &replaced) :
			      hwt_emu_cs_pause_frames(ev->cs_cut, h->cs_pkt,
						      h->cs_atom, frames, &frame);
		if (n > 0)
			hwt_emu_aux_insert(ev, frames, (uint64_t)n, h->time);
		ev->cs_skip = replaced;
		/* A pause stops the trace unit: its window is one record. */
		if (!to)
			hwt_emu_aux_window_end(ev);
		return;
	}

	if (ev->pt_format) {
		uint8_t pkt[EMU_PT_MARK_MAX];
		size_t n = to ? hwt_emu_pt_trace_on(pkt, to, h->time,
						    ev->emu->replay ?
							    ev->emu->replay->info : NULL) :
				hwt_emu_pt_trace_off(pkt, from);
		hwt_emu_aux_insert(ev, pkt, n, h->time);
		return;
	}

	hwt_bts_put_le64(rec, from);
	hwt_bts_put_le64(rec + 8, to);
	hwt_bts_put_le64(rec + 16, flags & HWT_BTS_FLAG_SWB_TIME ?
					   flags & ~(uint64_t)HWT_BTS_FLAG_PREDICTED : 0);
	hwt_emu_aux_insert(ev, rec, sizeof(rec), h->time);
}

void hwt_emu_probe_fire(struct emu_event *ev)
{
	const struct emu_stream *s = ev->stream;

	while (ev->next_hit < ev->nhits &&
	       ev->hits[ev->next_hit].pos <= s->src_pos) {
		const struct emu_probe_hit *h = &ev->hits[ev->next_hit++];
		struct emu_event *p = h->probe;
		uint32_t action = hwt_attr_aux_action(&p->attr);

		if (p->closed || !p->enabled)
			continue;
		p->fired++;
		hwt_emu_write_sample(ev, p, 1, h->ip, h->time);
		if ((action & HWT_AUX_PAUSE) && !ev->paused) {
			trace_marker(ev, h->ip, 0, h);
			ev->paused = true;
		} else if ((action & HWT_AUX_RESUME) && ev->paused) {
			ev->paused = false;
			trace_marker(ev, 0, h->ip, h);
		}
	}
}
