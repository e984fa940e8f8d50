/* The emulated trace unit and driver: one thread per AUX event turns its
 * source stream into AUX buffer bytes and data-ring records by the kernel's
 * rules (perf_aux_output_begin/end, perf_output_begin/end). */
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/capture/barrier.h"
#include "core/emulator/emu_internal.h"

uint64_t hwt_emu_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void hwt_emu_wake(struct emu_event *ev)
{
	uint64_t one = 1;

	if (ev->stream)
		ev->stream->st.wakeups++;
	if (write(ev->fd, &one, sizeof(one)) < 0) {
		/* The counter is saturated: the poller is already woken. */
	}
}

size_t hwt_emu_sample_id(const struct emu_event *ev, uint8_t *buf)
{
	uint64_t st = ev->attr.sample_type;
	const struct emu_stream *s = ev->stream;
	int32_t pid = s ? s->pid : -1, tid = s ? s->tid : -1;
	size_t n = 0;

	if (!ev->attr.sample_id_all)
		return 0;
	if (st & PERF_SAMPLE_TID) {
		memcpy(buf + n, &pid, 4);
		memcpy(buf + n + 4, &tid, 4);
		n += 8;
	}
	if (st & PERF_SAMPLE_TIME) {
		uint64_t t = ev->record_time ? ev->record_time : hwt_emu_now_ns();
		memcpy(buf + n, &t, 8);
		n += 8;
	}
	if (st & PERF_SAMPLE_ID) {
		memcpy(buf + n, &ev->id, 8);
		n += 8;
	}
	if (st & PERF_SAMPLE_STREAM_ID) {
		memcpy(buf + n, &ev->id, 8);
		n += 8;
	}
	if (st & PERF_SAMPLE_CPU) {
		uint32_t cpu[2] = {(uint32_t)(ev->cpu < 0 ? 0 : ev->cpu), 0};
		memcpy(buf + n, cpu, 8);
		n += 8;
	}
	if (st & PERF_SAMPLE_IDENTIFIER) {
		memcpy(buf + n, &ev->id, 8);
		n += 8;
	}
	return n;
}

static void ring_copy(struct emu_event *ev, uint64_t head, const void *src,
		      size_t len)
{
	uint64_t off = head & (ev->data_size - 1);
	uint64_t first = ev->data_size - off;

	if (first >= len) {
		memcpy(ev->data + off, src, len);
	} else {
		memcpy(ev->data + off, src, first);
		memcpy(ev->data, (const uint8_t *)src + first, len - first);
	}
}

bool hwt_emu_ring_write(struct emu_event *ev, const void *rec, size_t len)
{
	struct perf_event_mmap_page *up = ev->up;
	uint64_t head, tail, space, need = len;
	uint8_t lost[8 + 16 + 48];
	size_t lost_len = 0;

	if (!up || !ev->data_size)
		return false;
	head = up->data_head; /* only this thread writes it */
	tail = hwt_tail_load(&up->data_tail);
	space = ev->data_size - (head - tail);
	if (ev->lost_pending) {
		struct perf_event_header h = {PERF_RECORD_LOST, 0, 0};
		lost_len = sizeof(h) + 16;
		memcpy(lost + 8, &ev->id, 8);
		memcpy(lost + 16, &ev->lost_pending, 8);
		lost_len += hwt_emu_sample_id(ev, lost + lost_len);
		h.size = (uint16_t)lost_len;
		memcpy(lost, &h, sizeof(h));
		need += lost_len;
	}
	if (space < need) {
		if (!len)
			return false;
		ev->lost_pending++;
		if (ev->stream)
			ev->stream->st.lost_records++;
		return false;
	}
	if (lost_len) {
		ring_copy(ev, head, lost, lost_len);
		head += lost_len;
		ev->lost_pending = 0;
	}
	if (len)
		ring_copy(ev, head, rec, len);
	hwt_head_store(&up->data_head, head + len);
	/* The kernel's default data-ring watermark: half the ring
	 * (perf_output_wakeup when head passes rb->watermark). */
	if (head + len - ev->data_wakeup_mark >= ev->data_size / 2) {
		ev->data_wakeup_mark = head + len;
		hwt_emu_wake(ev);
	}
	return true;
}

static void emit_itrace_start(struct emu_event *ev)
{
	uint8_t rec[8 + 8 + 48];
	struct perf_event_header h = {PERF_RECORD_ITRACE_START, 0, 0};
	int32_t ids[2] = {ev->stream->pid, ev->stream->tid};
	size_t n = sizeof(h);

	memcpy(rec + n, ids, 8);
	n += 8;
	n += hwt_emu_sample_id(ev, rec + n);
	h.size = (uint16_t)n;
	memcpy(rec, &h, sizeof(h));
	hwt_emu_ring_write(ev, rec, n);
}

/* PERF_RECORD_AUX; a replayed one keeps its sample @time (0: now), as the
 * sideband around it does. */
static void emit_aux(struct emu_event *ev, uint64_t offset, uint64_t size,
		     uint64_t flags, uint64_t time)
{
	uint8_t rec[8 + 24 + 48];
	struct perf_event_header h = {PERF_RECORD_AUX, 0, 0};
	size_t n = sizeof(h);

	memcpy(rec + n, &offset, 8);
	memcpy(rec + n + 8, &size, 8);
	memcpy(rec + n + 16, &flags, 8);
	n += 24;
	ev->record_time = time;
	n += hwt_emu_sample_id(ev, rec + n);
	ev->record_time = 0;
	h.size = (uint16_t)n;
	memcpy(rec, &h, sizeof(h));
	ev->stream->st.aux_records++;
	hwt_emu_ring_write(ev, rec, n);
}

static uint64_t aux_wrap(const struct emu_event *ev);

/* Whether the driver reports an overwrite-mode head as an offset inside
 * the buffer: record-aligned hardware (intel_bts), or the emulator's
 * option for a driver that does so (intel_pt). */
static bool head_in_buffer(const struct emu_event *ev)
{
	return ev->emu->opts.head_in_buffer || aux_wrap(ev) != ev->aux_len;
}

/* The aux_offset the kernel writes for @size bytes at free-running AUX
 * position @start. Normal mode: @start. Overwrite mode: handle->head as
 * the driver left it (see core/perfdata/aux_record_start.c). CoreSight's
 * sink has moved it past the write (tmc_update_etr_buffer: head +=
 * size), so it is the END of the bytes. intel_pt and intel_bts report
 * the in-buffer position after the write with the whole buffer's size
 * (pt_update_head then pt_event_stop, bts_update then bts_event_stop);
 * perf never reads their offsets, and the emulator keeps its own
 * convention for them: the write's start, with the write's size. */
static uint64_t reported_offset(const struct emu_event *ev, uint64_t start,
				uint64_t size)
{
	if (!ev->overwrite)
		return start;
	uint64_t pos = ev->cs_sink ? start + size : start;
	return head_in_buffer(ev) ? pos % aux_wrap(ev) : pos;
}

void hwt_emu_aux_window_end(struct emu_event *ev)
{
	if (!ev->cs_window)
		return;
	ev->cs_window = false;
	/* A snapshot's sink keeps its newest buffer's worth of a window
	 * longer than that. */
	uint64_t len = ev->cs_window_len;
	if (ev->overwrite && len > aux_wrap(ev))
		len = aux_wrap(ev);
	uint64_t start = ev->cs_window_off + ev->cs_window_len - len;
	emit_aux(ev, reported_offset(ev, start, len), len, ev->cs_window_flags,
		 ev->cs_window_time);
}

/* Reports @size AUX bytes at free-running position @start: at once, or,
 * for a CoreSight event with probes (whose hits split the capture's
 * writes, and whose resumes start the trace unit anew), as part of its
 * open window (a write that does not follow the window's bytes starts a
 * new one). In snapshot mode too: perf's cs-etm reader decodes each
 * record's bytes alone, so a write split at a probe's hit would lose
 * its second part there. */
static void report_aux(struct emu_event *ev, uint64_t start, uint64_t size,
		       uint64_t flags, uint64_t time)
{
	if (!ev->cs_sink || !ev->nhits) {
		emit_aux(ev, reported_offset(ev, start, size), size, flags, time);
		return;
	}
	if (ev->cs_window && ev->cs_window_off + ev->cs_window_len != start)
		hwt_emu_aux_window_end(ev);
	if (!ev->cs_window) {
		ev->cs_window = true;
		ev->cs_window_off = start;
		ev->cs_window_len = 0;
		ev->cs_window_flags = 0;
		ev->cs_window_time = 0;
	}
	ev->cs_window_len += size;
	ev->cs_window_flags |= flags;
	if (time)
		ev->cs_window_time = time;
}

void hwt_emu_aux_insert(struct emu_event *ev, const void *data, uint64_t len,
			uint64_t time)
{
	uint64_t head = ev->aux_pos, wrap = aux_wrap(ev);
	uint64_t flags = 0;

	if (!ev->aux || !ev->up || ev->kernel_disabled || !len)
		return;
	if (ev->overwrite) {
		flags = PERF_AUX_FLAG_OVERWRITE;
	} else {
		uint64_t size = ev->aux_len, tail = hwt_tail_load(&ev->up->aux_tail);
		uint64_t space = head - tail < size ? (tail - head - 1) & (size - 1) : 0;
		if (space < len)
			return; /* no room: the packet is lost with the trace */
	}
	if (!ev->itrace_started && !ev->stream->has_itrace_start)
		emit_itrace_start(ev);
	ev->itrace_started = true;
	for (uint64_t i = 0; i < len; i++)
		ev->aux[(head + i) % wrap] = ((const uint8_t *)data)[i];
	ev->aux_pos = head + len;
	hwt_head_store(&ev->up->aux_head,
		       ev->overwrite && head_in_buffer(ev) ? ev->aux_pos % wrap
							    : ev->aux_pos);
	report_aux(ev, head, len, flags, time);
}

/* Where the trace unit wraps: the end of the buffer, or in overwrite mode
 * for record-aligned hardware (intel_bts) the end of its last whole
 * record, leaving the bytes after it unwritten. */
static uint64_t aux_wrap(const struct emu_event *ev)
{
	unsigned int align = ev->emu->aux_alignment;

	if (!ev->overwrite || !align || ev->aux_len < align)
		return ev->aux_len;
	return ev->aux_len - ev->aux_len % align;
}

/* Copies @len source bytes from the current item position into the AUX
 * buffer at free-running position @pos, wrapping at @wrap. */
static void aux_fill(struct emu_event *ev, const struct emu_item *it,
		     uint64_t item_off, uint64_t pos, uint64_t len,
		     uint64_t wrap)
{
	while (len) {
		uint64_t src = item_off % it->len;
		uint64_t n = it->len - src;
		uint64_t off = pos % wrap;
		if (n > len)
			n = len;
		if (n > wrap - off)
			n = wrap - off;
		memcpy(ev->aux + off, it->data + src, n);
		item_off += n;
		pos += n;
		len -= n;
	}
}

static void log_segment(struct emu_stream *s, uint64_t aux_pos,
			uint64_t src_pos, uint64_t len)
{
	struct hwt_emu_segment *last = s->nsegs ? &s->segs[s->nsegs - 1] : NULL;

	if (last && last->aux_pos + last->len == aux_pos &&
	    last->src_pos + last->len == src_pos) {
		last->len += len;
		return;
	}
	if (s->nsegs == s->segcap) {
		size_t ncap = s->segcap ? s->segcap * 2 : 64;
		struct hwt_emu_segment *n = realloc(s->segs, ncap * sizeof(*n));
		if (!n)
			return; /* the map is a test aid; the capture goes on */
		s->segs = n;
		s->segcap = ncap;
	}
	s->segs[s->nsegs++] = (struct hwt_emu_segment){aux_pos, src_pos, len};
}

static void advance(struct emu_stream *s, uint64_t n)
{
	const struct emu_item *it = &s->items[s->item];

	s->item_off += n;
	s->src_pos += n;
	s->st.produced += n;
	if (s->item_off == it->len * it->repeat) {
		s->item++;
		s->item_off = 0;
	}
}

/* The CoreSight barrier packet (coresight_barrier_pkt: four frame syncs,
 * 0x7fffffff each, little-endian): the TMC ETR/ETF drivers write it over
 * the first 16 bytes of an AUX write that follows lost trace, so the
 * deformatter resynchronises there instead of joining two unrelated
 * frames. */
static const uint8_t cs_barrier[16] = {
	0xff, 0xff, 0xff, 0x7f, 0xff, 0xff, 0xff, 0x7f,
	0xff, 0xff, 0xff, 0x7f, 0xff, 0xff, 0xff, 0x7f,
};

static void put_barrier(struct emu_event *ev, uint64_t pos)
{
	for (unsigned int i = 0; i < sizeof(cs_barrier); i++)
		ev->aux[(pos + i) % ev->aux_len] = cs_barrier[i];
	ev->stream->st.barriers++;
}

static void count_capture(struct emu_stream *s, uint64_t flags)
{
	s->st.capture_writes++;
	s->st.capture_truncated += !!(flags & PERF_AUX_FLAG_TRUNCATED);
	s->st.capture_collision += !!(flags & PERF_AUX_FLAG_COLLISION);
	s->st.capture_partial += !!(flags & PERF_AUX_FLAG_PARTIAL);
}

/* One write of up to @n bytes of the current AUX item, as the driver's
 * perf_aux_output_begin/end pair would do it. */
static void produce(struct emu_event *ev, uint64_t n)
{
	struct emu_stream *s = ev->stream;
	const struct emu_item *it = &s->items[s->item];
	/* A replayed PERF_RECORD_AUX brings its flags and time, with the
	 * last piece of its write (a write bigger than the ring goes in
	 * pieces when paced). */
	bool replayed = it->write && s->item_off + n == it->len * it->repeat;
	uint64_t orig = replayed ? it->flags : 0, time = it->write ? it->time : 0;
	uint64_t size = ev->aux_len, head = ev->aux_pos, m, skip = 0, flags = 0;
	bool own, barrier = false;

	if (ev->paused || ev->cs_skip) {
		/* aux_pause: the trace unit is off; nothing is lost. The
		 * sink's frames a CoreSight resume wrote anew count so too:
		 * not written as they were. */
		ev->cs_skip -= ev->cs_skip < n ? ev->cs_skip : n;
		s->st.paused += n;
		advance(s, n);
		return;
	}
	if (ev->kernel_disabled) {
		s->st.dropped += n;
		if (n)
			ev->lost_since_write = true;
		advance(s, n);
		return;
	}
	if (!ev->itrace_started && !s->has_itrace_start)
		emit_itrace_start(ev);
	ev->itrace_started = true;
	if (ev->overwrite) {
		uint64_t wrap = aux_wrap(ev);
		bool in_buffer = head_in_buffer(ev);
		m = n;
		flags = PERF_AUX_FLAG_OVERWRITE | orig;
		aux_fill(ev, it, s->item_off, head, m, wrap);
		log_segment(s, head, s->src_pos, m);
		ev->aux_pos = head + m;
		hwt_head_store(&ev->up->aux_head,
			       in_buffer ? ev->aux_pos % wrap : ev->aux_pos);
		s->st.written += m;
		advance(s, n);
		if (replayed)
			count_capture(s, orig);
		report_aux(ev, head, m, flags, time);
		/* As below: a capture's write ends its trace unit's window. */
		if (replayed || !it->write)
			hwt_emu_aux_window_end(ev);
		hwt_emu_sample_fire(ev);
		return;
	}
	{
		uint64_t tail = hwt_tail_load(&ev->up->aux_tail);
		uint64_t space = 0;
		if (head - tail < size)
			space = (tail - head - 1) & (size - 1);
		if (!space) {
			/* perf_aux_output_begin() finds no room: the event is
			 * disabled and pollers woken, with no record. */
			s->st.full_disables++;
			s->st.dropped += n;
			if (n)
				ev->lost_since_write = true;
			advance(s, n);
			ev->enabled = false;
			ev->kernel_disabled = true;
			hwt_emu_wake(ev);
			return;
		}
		m = n < space ? n : space;
	}
	own = m < n;
	if (own) {
		flags |= PERF_AUX_FLAG_TRUNCATED;
		/* A CoreSight sink keeps the newest trace, in whole 16-byte
		 * frames (tmc_update_etr_buffer, tmc_get_memwidth_mask). */
		if (ev->cs_sink) {
			m &= ~(uint64_t)15;
			skip = n - m;
		}
	}
	if (m)
		aux_fill(ev, it, s->item_off + skip, head, m, size);
	if (ev->cs_sink && (own || ev->lost_since_write)) {
		barrier = m >= sizeof(cs_barrier);
		ev->lost_since_write = !barrier;
		if (barrier)
			put_barrier(ev, head);
	}
	{
		/* The source map leaves the barrier out. */
		uint64_t b = barrier ? sizeof(cs_barrier) : 0;
		if (m > b)
			log_segment(s, head + b, s->src_pos + skip + b, m - b);
	}
	flags |= orig;
	ev->aux_pos = head + m;
	hwt_head_store(&ev->up->aux_head, ev->aux_pos);
	s->st.written += m;
	s->st.dropped += n - m;
	advance(s, n);
	if (replayed)
		count_capture(s, orig);
	report_aux(ev, head, m, flags, time);
	/* The capture's write ended where its trace unit stopped (a burst
	 * of another source is a write of its own); a sink that ran out of
	 * room stops it too. */
	if (replayed || own || !it->write)
		hwt_emu_aux_window_end(ev);
	hwt_emu_sample_fire(ev);
	if (own) {
		s->st.truncations++;
		ev->enabled = false;
		ev->kernel_disabled = true;
		ev->wakeup_mark = ev->aux_pos;
		hwt_emu_wake(ev);
	} else if (orig & PERF_AUX_FLAG_TRUNCATED) {
		/* The capture lost trace here and its reader enabled the
		 * event again: its next bytes are those traced after that,
		 * so the source waits for the enable rather than flowing
		 * into the void, as after the replay's own losses. */
		ev->enabled = false;
		ev->wakeup_mark = ev->aux_pos;
		hwt_emu_wake(ev);
	} else if (ev->aux_pos - ev->wakeup_mark >= ev->watermark) {
		ev->wakeup_mark = ev->aux_pos;
		hwt_emu_wake(ev);
	}
}

static void sleep_ns(uint64_t ns)
{
	struct timespec ts = {(time_t)(ns / 1000000000u), (long)(ns % 1000000000u)};

	nanosleep(&ts, NULL);
}

/* The largest record the producer emits beside AUX bytes (AUX, LOST or
 * ITRACE_START with a full sample_id). */
#define EMU_MAX_SIDE_RECORD 128u

static uint64_t data_space(const struct emu_event *ev)
{
	const struct perf_event_mmap_page *up = ev->up;
	if (!up || !ev->data_size)
		return UINT64_MAX; /* no ring: nothing to wait for */
	return ev->data_size - (up->data_head - hwt_tail_load(&up->data_tail));
}

/* Paced mode: how many of the @n bytes of item @it may be produced now
 * without loss; 0 means wait for the reader. */
static uint64_t paced_allowance(const struct emu_event *ev,
				const struct emu_item *it, uint64_t n)
{
	if (it->kind == EMU_ITEM_RECORD)
		return data_space(ev) >= it->len + EMU_MAX_SIDE_RECORD ? n : 0;
	if (data_space(ev) < 2 * EMU_MAX_SIDE_RECORD)
		return 0;
	if (!ev->up || ev->overwrite || !ev->enabled || !ev->aux_len)
		return n;
	uint64_t head = ev->aux_pos, size = ev->aux_len;
	uint64_t tail = hwt_tail_load(&ev->up->aux_tail);
	uint64_t space = head - tail < size ? (tail - head - 1) & (size - 1) : 0;
	/* The reader takes whole 8-byte words until the end, so up to 7
	 * bytes may stay: a piece of size - 8 always finds room in time. */
	uint64_t want = n < size - 8 ? n : size - 8;
	return space >= want ? want : 0;
}

void *hwt_emu_producer_main(void *arg)
{
	struct emu_event *ev = arg;
	struct hwt_emu *emu = ev->emu;
	struct emu_stream *s = ev->stream;
	uint64_t rate = emu->opts.rate, burst = emu->opts.burst;

	pthread_mutex_lock(&emu->lock);
	while (!ev->stop) {
		const struct emu_item *it;
		uint64_t n, remain;
		bool yield;

		if (s->item >= s->nitems && s->live && !s->closed) {
			/* A live source that has produced all it was given:
			 * wait for its producer to push more or close it. */
			pthread_cond_wait(&emu->cond, &emu->lock);
			continue;
		}
		if (s->item >= s->nitems) {
			/* A probe at the source's very end (a last return). */
			hwt_emu_probe_fire(ev);
			/* The kernel reports lost records with the next record
			 * that fits: wait for room to say how many were lost. */
			if (ev->lost_pending && !hwt_emu_ring_write(ev, NULL, 0)) {
				pthread_mutex_unlock(&emu->lock);
				sleep_ns(200000);
				pthread_mutex_lock(&emu->lock);
				continue;
			}
			hwt_emu_aux_window_end(ev);
			s->st.finished = true;
			hwt_emu_wake(ev);
			break;
		}
		if (!ev->enabled && !ev->kernel_disabled) {
			pthread_cond_wait(&emu->cond, &emu->lock);
			continue;
		}
		it = &s->items[s->item];
		if (emu->opts.paced && !paced_allowance(ev, it, 1)) {
			pthread_mutex_unlock(&emu->lock);
			sleep_ns(100000);
			pthread_mutex_lock(&emu->lock);
			continue;
		}
		if (it->kind == EMU_ITEM_RECORD) {
			hwt_emu_ring_write(ev, it->data, it->len);
			s->item++;
			continue;
		}
		remain = it->len * it->repeat - s->item_off;
		/* A replayed PERF_RECORD_AUX is one write, whatever its
		 * size; other sources go in bursts. */
		n = remain < burst || it->write ? remain : burst;
		if (ev->overwrite && n > aux_wrap(ev))
			n = aux_wrap(ev);
		n = hwt_emu_sample_clamp(ev, n);
		/* A probe fires between two writes, where the program
		 * enters or leaves its function. */
		hwt_emu_probe_fire(ev);
		n = hwt_emu_probe_clamp(ev, n);
		if (ev->cs_skip && n > ev->cs_skip)
			n = ev->cs_skip;
		if (emu->opts.paced && n) {
			uint64_t allowed = paced_allowance(ev, it, n);
			if (!allowed) {
				pthread_mutex_unlock(&emu->lock);
				sleep_ns(100000);
				pthread_mutex_lock(&emu->lock);
				continue;
			}
			n = allowed;
		}
		if (rate) {
			uint64_t el = hwt_emu_now_ns() - ev->rate_t0;
			uint64_t due = (uint64_t)((unsigned __int128)el * rate /
						  1000000000u);
			uint64_t done = s->st.produced - ev->rate_base;
			uint64_t allowed = due > done ? due - done : 0;
			if (allowed < n) {
				uint64_t wait = (n - allowed) * 1000000000u / rate;
				pthread_mutex_unlock(&emu->lock);
				sleep_ns(wait > 2000000 ? 2000000 : wait < 20000 ? 20000 : wait);
				pthread_mutex_lock(&emu->lock);
				continue;
			}
		}
		produce(ev, n);
		/* Let the reader's ioctls and polls in between bursts; yield
		 * when dropping so the reader gets to re-enable. */
		yield = !rate && (ev->kernel_disabled || ev->overwrite);
		pthread_mutex_unlock(&emu->lock);
		if (yield)
			sched_yield();
		pthread_mutex_lock(&emu->lock);
	}
	pthread_mutex_unlock(&emu->lock);
	return NULL;
}
