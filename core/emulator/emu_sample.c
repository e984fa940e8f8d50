/* AUX sampling in the emulator: a sampling event opened in an AUX event's
 * group with PERF_SAMPLE_AUX. The emulated event counts trace bytes: a
 * sample falls due each time the trace unit has written its period of
 * bytes (frequency mode: every 16 KiB), and carries the last
 * aux_sample_size bytes written, read back from the AUX buffer as the
 * kernel's perf_aux_sample_output does. The machine being emulated has no
 * instruction pointer to report: the sample's ip is 0. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "core/emulator/emu_internal.h"

#define EMU_FREQ_PERIOD 16384u

/* The fields the emulated sample can fill; others are refused at open. */
#define EMU_SAMPLE_TYPES                                                     \
	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |         \
	 PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | PERF_SAMPLE_ID |              \
	 PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD |      \
	 PERF_SAMPLE_AUX)

static uint64_t period_of(const struct emu_event *s)
{
	if (s->attr.freq || !s->attr.sample_period)
		return EMU_FREQ_PERIOD;
	return s->attr.sample_period;
}

int hwt_emu_open_sampler(struct hwt_emu *emu, const struct perf_event_attr *attr,
			 int pid, int cpu, int group_fd)
{
	struct emu_event *leader = NULL, *ev;

	if ((attr->sample_type & ~(uint64_t)EMU_SAMPLE_TYPES) ||
	    !attr->aux_sample_size)
		return -EINVAL;
	if (pid == -1 && cpu == -1)
		return -EINVAL;
	int err;
	if (!(ev = hwt_emu_event_new(emu, attr, pid, cpu, &err)))
		return err;
	pthread_mutex_lock(&emu->lock);
	for (struct emu_event *e = emu->events; e; e = e->next)
		if (!e->closed && e->fd == group_fd)
			leader = e;
	/* The kernel wants the group leader to be an AUX event with no
	 * sampling event of this kind yet (perf_get_aux_event). */
	if (!leader || !leader->aux_pmu || leader->sampler ||
	    leader->cpu != cpu) {
		pthread_mutex_unlock(&emu->lock);
		close(ev->fd);
		free(ev);
		return -EINVAL;
	}
	/* Away from the ids a replayed capture gives its own events. */
	ev->id = (1ull << 40) + emu->next_id++;
	ev->leader = leader;
	ev->next_sample = leader->aux_pos + period_of(ev);
	leader->sampler = ev;
	ev->next = emu->events;
	emu->events = ev;
	pthread_mutex_unlock(&emu->lock);
	return ev->fd;
}

uint64_t hwt_emu_sample_clamp(const struct emu_event *ev, uint64_t n)
{
	const struct emu_event *s = ev->sampler;
	if (!s || s->closed || !s->enabled || s->next_sample <= ev->aux_pos)
		return n;
	uint64_t room = s->next_sample - ev->aux_pos;
	return room < n ? room : n;
}

static void put(uint8_t *rec, size_t *n, uint64_t v)
{
	memcpy(rec + *n, &v, 8);
	*n += 8;
}

void hwt_emu_write_sample(struct emu_event *ev, struct emu_event *s,
			  uint64_t period, uint64_t ip, uint64_t time)
{
	static __thread uint8_t rec[65536];
	uint64_t st = s->attr.sample_type, size = s->attr.aux_sample_size;
	const struct emu_stream *str = ev->stream;
	size_t n = 8;

	if (size > ev->aux_len)
		size = ev->aux_len;
	if (size > ev->aux_pos)
		size = ev->aux_pos;
	/* The record's size is 16 bits: keep room for the other fields. */
	if (size > 65535 - 128)
		size = 65535 - 128;
	size &= ~7ull;
	if (st & PERF_SAMPLE_IDENTIFIER)
		put(rec, &n, s->id);
	if (st & PERF_SAMPLE_IP)
		put(rec, &n, ip);
	if (st & PERF_SAMPLE_TID) {
		int32_t ids[2] = {str ? str->pid : -1, str ? str->tid : -1};
		memcpy(rec + n, ids, 8);
		n += 8;
	}
	if (st & PERF_SAMPLE_TIME)
		put(rec, &n, time ? time : hwt_emu_now_ns());
	if (st & PERF_SAMPLE_ADDR)
		put(rec, &n, 0);
	if (st & PERF_SAMPLE_ID)
		put(rec, &n, s->id);
	if (st & PERF_SAMPLE_STREAM_ID)
		put(rec, &n, s->id);
	if (st & PERF_SAMPLE_CPU)
		put(rec, &n, (uint64_t)(uint32_t)(ev->cpu < 0 ? 0 : ev->cpu));
	if (st & PERF_SAMPLE_PERIOD)
		put(rec, &n, period);
	if (st & PERF_SAMPLE_AUX) {
		uint64_t mask = ev->aux_len - 1, pos = ev->aux_pos - size;
		put(rec, &n, size);
		while (size) {
			uint64_t off = pos & mask, k = ev->aux_len - off;
			if (k > size)
				k = size;
			memcpy(rec + n, ev->aux + off, k);
			n += k;
			pos += k;
			size -= k;
		}
	}
	struct perf_event_header h = {PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER,
				      (uint16_t)n};
	memcpy(rec, &h, sizeof(h));
	/* Where the sampling event's records go: its SET_OUTPUT target, its
	 * own ring, else the leader's. */
	struct emu_event *to = s->output ? s->output : s->up ? s : ev;
	hwt_emu_ring_write(to, rec, n);
}

void hwt_emu_sample_fire(struct emu_event *ev)
{
	struct emu_event *s = ev->sampler;
	if (!s || s->closed || !s->enabled || !ev->aux)
		return;
	if (ev->aux_pos < s->next_sample)
		return;
	uint64_t period = period_of(s);
	hwt_emu_write_sample(ev, s, period, 0, 0);
	while (s->next_sample <= ev->aux_pos)
		s->next_sample += period;
}
