/* Branch records in the emulator: a sampling event with
 * PERF_SAMPLE_BRANCH_STACK on a machine whose sysfs fixture says it has
 * branch records (Intel LBR and Arch LBR, AMD BRS, Arm BRBE: the depth of
 * hwt_branch_hw_probe). Its source is ground truth, every taken branch of
 * a program (hwt_emu_branch_source, e.g. a sw_branch capture's): the
 * emulated counter counts taken branches, and each sample carries the
 * last DEPTH branches before it that the filter keeps, newest first, as
 * the hardware's ring of records holds them. Sideband records given with
 * hwt_emu_branch_record go into the ring first, then the samples, each
 * at the time of its newest branch. One thread per event writes them;
 * with opts.paced it waits for the reader instead of losing records. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include "core/capture/barrier.h"
#include "core/emulator/emu_internal.h"
#include "hwtrace/brstack.h"
#include "hwtrace/error.h"

/* The sample fields the emulated event can fill; others are refused. */
#define EMU_BR_SAMPLE_TYPES                                                 \
	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |        \
	 PERF_SAMPLE_TIME | PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID |        \
	 PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_BRANCH_STACK)

#define PRIV_BITS                                                           \
	(PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_KERNEL |              \
	 PERF_SAMPLE_BRANCH_HV)

struct emu_branch_src {
	struct hwt_emu_branch *v;
	size_t n;
	uint8_t **records; /* owned copies, written before the samples */
	size_t nrecords, cap;
	bool taken;        /* an event serves it already */
	size_t calls_unknown; /* calls not known direct or indirect */
	struct hwt_emu_branch_stats st;
};

static struct emu_branch_src *src_get(struct hwt_emu *emu)
{
	if (!emu->branch_src)
		emu->branch_src = calloc(1, sizeof(*emu->branch_src));
	return emu->branch_src;
}

int hwt_emu_branch_source(struct hwt_emu *emu, const struct hwt_emu_branch *v,
			  size_t n)
{
	pthread_mutex_lock(&emu->lock);
	struct emu_branch_src *s = src_get(emu);
	if (!s || s->taken) {
		pthread_mutex_unlock(&emu->lock);
		return s ? hwt_error(HWT_ERR_BUSY, "emulator: the branch source "
				     "is already being sampled") :
			   hwt_error(HWT_ERR_NOMEM, "no memory for branches");
	}
	void *p = realloc(s->v, (s->n + n ? s->n + n : 1) * sizeof(*v));
	if (!p) {
		pthread_mutex_unlock(&emu->lock);
		return hwt_error(HWT_ERR_NOMEM, "no memory for %zu branches", n);
	}
	s->v = p;
	memcpy(s->v + s->n, v, n * sizeof(*v));
	for (size_t i = 0; i < n; i++)
		s->calls_unknown += v[i].kind == HWT_BRANCH_CALL &&
				    !(v[i].flags & HWT_EMU_BRANCH_CALL_KNOWN);
	s->n += n;
	pthread_mutex_unlock(&emu->lock);
	return 0;
}

int hwt_emu_branch_record(struct hwt_emu *emu, const void *record)
{
	const struct perf_event_header *h = record;
	if (h->size < sizeof(*h) || h->size % 8)
		return hwt_error(HWT_ERR_FORMAT, "emulator: a record of %u bytes "
				 "(not a multiple of 8)", h->size);
	uint8_t *copy = malloc(h->size);
	if (!copy)
		return hwt_error(HWT_ERR_NOMEM, "no memory for a record");
	memcpy(copy, record, h->size);
	pthread_mutex_lock(&emu->lock);
	struct emu_branch_src *s = src_get(emu);
	if (s && s->nrecords == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 64;
		void *p = realloc(s->records, cap * sizeof(*s->records));
		if (p) {
			s->records = p;
			s->cap = cap;
		}
	}
	if (!s || s->nrecords == s->cap || s->taken) {
		bool busy = s && s->taken;
		pthread_mutex_unlock(&emu->lock);
		free(copy);
		return busy ? hwt_error(HWT_ERR_BUSY, "emulator: the branch "
					"source is already being sampled") :
			      hwt_error(HWT_ERR_NOMEM, "no memory for a record");
	}
	s->records[s->nrecords++] = copy;
	pthread_mutex_unlock(&emu->lock);
	return 0;
}

int hwt_emu_branch_stats(struct hwt_emu *emu, struct hwt_emu_branch_stats *st)
{
	pthread_mutex_lock(&emu->lock);
	int err = emu->branch_src ? 0 : HWT_ERR_NOENT;
	if (!err)
		*st = emu->branch_src->st;
	pthread_mutex_unlock(&emu->lock);
	return err;
}

void hwt_emu_branch_free(struct emu_branch_src *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nrecords; i++)
		free(s->records[i]);
	free(s->records);
	free(s->v);
	free(s);
}

/* What the emulated kernel refuses, as the kernel would: no branch
 * records on this PMU (EOPNOTSUPP), a filter the hardware cannot do or
 * the emulator cannot tell from its ground truth (EOPNOTSUPP; AMD BRS:
 * EINVAL, as amd_brs_setup_filter). */
static int check_attr(const struct perf_event_attr *a,
		      const struct hwt_branch_hw *hw, const char **why)
{
	uint64_t mode = a->branch_sample_type;
	if (a->type != PERF_TYPE_HARDWARE ||
	    a->config != PERF_COUNT_HW_BRANCH_INSTRUCTIONS) {
		*why = "the emulator samples branch records on the "
		       "branches event (branch-instructions) only";
		return -EOPNOTSUPP;
	}
	if (a->sample_type & ~(uint64_t)EMU_BR_SAMPLE_TYPES)
		return -EINVAL;
	if (!hw->depth) {
		*why = "the emulated machine's sysfs gives its CPU PMU no "
		       "branch records (no caps/branches or branch depth)";
		return -EOPNOTSUPP;
	}
	if (hw->kind == HWT_BRANCH_HW_BRS &&
	    (mode & ~(uint64_t)PRIV_BITS) != PERF_SAMPLE_BRANCH_ANY)
		return -EINVAL;
	/* Branch counters: Intel's LBR event logging, where sysfs says it
	 * has it (intel_pmu_hw_config: EINVAL elsewhere). */
	if ((mode & HWT_SAMPLE_BRANCH_COUNTERS) &&
	    (hw->kind != HWT_BRANCH_HW_LBR || !hw->counters ||
	     !hw->counter_width))
		return -EINVAL;
	if (mode & ~(uint64_t)HWT_EMU_BRANCH_FILTERS) {
		*why = "a -j filter the emulator cannot tell from its "
		       "ground truth";
		return -EOPNOTSUPP;
	}
	if (!a->freq && !a->sample_period)
		return -EINVAL;
	return 0;
}

int hwt_emu_open_brsampler(struct hwt_emu *emu,
			   const struct perf_event_attr *attr, int pid, int cpu,
			   int group_fd)
{
	/* In a group, a member (emu_branch_group.c): the emulator samples
	 * the leader only. */
	if (group_fd != -1)
		return hwt_emu_open_brmember(emu, attr, pid, cpu, group_fd);
	struct hwt_branch_hw hw;
	if (hwt_branch_hw_probe(&emu->os, &hw) < 0)
		memset(&hw, 0, sizeof(hw));
	hwt_error_clear();
	const char *why = NULL;
	int err = check_attr(attr, &hw, &why);
	if (err && why)
		err = hwt_emu_refuse_unlocked(emu, why);
	if (err)
		return err;
	if (pid == -1 && cpu == -1)
		return -EINVAL;
	/* Direct or indirect: only the calls' instructions tell. */
	pthread_mutex_lock(&emu->lock);
	bool unknown = emu->branch_src && emu->branch_src->calls_unknown;
	pthread_mutex_unlock(&emu->lock);
	if (unknown && (attr->branch_sample_type &
			(PERF_SAMPLE_BRANCH_CALL | PERF_SAMPLE_BRANCH_IND_CALL))) {
		return hwt_emu_refuse_unlocked(
			emu, "-j call and ind_call need to know which calls "
			"are indirect, which this ground truth does not say");
	}
	struct emu_event *ev = hwt_emu_event_new(emu, attr, pid, cpu, &err);
	if (!ev)
		return err;
	/* A fixture may claim more than any hardware has (LBR 32, BRBE 64):
	 * the emulated one keeps at most HWT_EMU_BRANCH_MAX_DEPTH. */
	ev->br_depth = hw.depth < HWT_EMU_BRANCH_MAX_DEPTH ? hw.depth :
							      HWT_EMU_BRANCH_MAX_DEPTH;
	ev->br_kind = hw.kind;
	ev->br_arch_lbr = hw.arch_lbr;
	if (attr->branch_sample_type & HWT_SAMPLE_BRANCH_COUNTERS) {
		ev->br_cntr_width = hw.counter_width;
		ev->br_fields[ev->br_nfields++] = EMU_BR_COUNT_TAKEN;
	}
	pthread_mutex_lock(&emu->lock);
	/* Away from the ids of the captures whose sideband it replays. */
	ev->id = (1ull << 41) + emu->next_id++;
	struct emu_branch_src *s = emu->branch_src;
	if (s && !s->taken) {
		s->taken = true;
		ev->br_src = s;
	}
	ev->next = emu->events;
	emu->events = ev;
	pthread_mutex_unlock(&emu->lock);
	return ev->fd;
}

static void put(uint8_t *rec, size_t *n, uint64_t v)
{
	memcpy(rec + *n, &v, 8);
	*n += 8;
}

/* Whether @b is a call through a register or memory (its kind says
 * "call" for both; the ground truth's flags tell). */
static bool indirect_call(const struct hwt_emu_branch *b)
{
	return b->kind == HWT_BRANCH_CALL && (b->flags & HWT_EMU_BRANCH_IND_CALL);
}

/* Whether a stack with filter @mode keeps branch @b (user code: the
 * ground truth is a user program's). */
static bool keeps(uint64_t mode, const struct perf_event_attr *a,
		  const struct hwt_emu_branch *b)
{
	uint8_t k = b->kind;
	bool ind_call = indirect_call(b);
	bool user = (mode & PERF_SAMPLE_BRANCH_USER) ||
		    (!(mode & PRIV_BITS) && !a->exclude_user);
	if (!user)
		return false;
	if (mode & PERF_SAMPLE_BRANCH_ANY)
		return true;
	return ((mode & PERF_SAMPLE_BRANCH_ANY_CALL) &&
		(k == HWT_BRANCH_CALL || k == HWT_BRANCH_SYSCALL)) ||
	       ((mode & PERF_SAMPLE_BRANCH_ANY_RETURN) &&
		(k == HWT_BRANCH_RETURN || k == HWT_BRANCH_SYSRET ||
		 k == HWT_BRANCH_ERET)) ||
	       ((mode & PERF_SAMPLE_BRANCH_CALL) && k == HWT_BRANCH_CALL &&
		!ind_call) ||
	       ((mode & PERF_SAMPLE_BRANCH_IND_CALL) && ind_call) ||
	       ((mode & PERF_SAMPLE_BRANCH_COND) && k == HWT_BRANCH_COND) ||
	       ((mode & PERF_SAMPLE_BRANCH_IND_JUMP) && k == HWT_BRANCH_INDIRECT);
}

/* perf_branch_entry's flags word with the type saved: type at bit 20,
 * priv (user) at bit 30; 0 for a kind perf has no type of. */
static uint64_t type_flags(uint64_t mode, const struct hwt_emu_branch *b)
{
	uint8_t k = b->kind;
	static const uint8_t types[] = {
		[HWT_BRANCH_CALL] = HWT_BR_CALL, [HWT_BRANCH_RETURN] = HWT_BR_RET,
		[HWT_BRANCH_JUMP] = HWT_BR_UNCOND, [HWT_BRANCH_COND] = HWT_BR_COND,
		[HWT_BRANCH_INDIRECT] = HWT_BR_IND,
		[HWT_BRANCH_SYSCALL] = HWT_BR_SYSCALL,
		[HWT_BRANCH_SYSRET] = HWT_BR_SYSRET,
		[HWT_BRANCH_ERET] = HWT_BR_ERET,
	};
	uint64_t f = 0, type = k < sizeof(types) ? types[k] : 0;
	if (indirect_call(b))
		type = HWT_BR_IND_CALL;
	if (mode & PERF_SAMPLE_BRANCH_TYPE_SAVE)
		f |= type << 20;
	if (mode & HWT_SAMPLE_BRANCH_PRIV_SAVE)
		f |= 1ull << 30; /* PERF_BR_PRIV_USER */
	return f;
}

/* -j counter: what Intel's LBR event logging writes beside each record,
 * the occurrences of the group's events since the record before it: per
 * field of the word (the leader's br_fields, emu_branch_group.c), the
 * branches it counts after the filter's previous kept one up to and
 * including this one (the leader's own, every taken branch: 1 for every
 * record of -j any), each saturating at the counter's width, field j at
 * bit j * width. One word per kept branch, the newest
 * HWT_EMU_BRANCH_MAX_DEPTH, at (kept - 1) % HWT_EMU_BRANCH_MAX_DEPTH. */
struct branch_counts {
	uint64_t ring[HWT_EMU_BRANCH_MAX_DEPTH];
	uint64_t since[HWT_EMU_BRANCH_MAX_FIELDS]; /* since the last kept one */
};

static void count_branch(struct branch_counts *c, const struct emu_event *ev,
			 const struct hwt_emu_branch *b, bool kept_it,
			 uint64_t kept)
{
	for (unsigned j = 0; j < ev->br_nfields; j++)
		c->since[j] += hwt_emu_br_counts(ev->br_fields[j], b);
	if (!kept_it || !ev->br_cntr_width)
		return;
	unsigned w = ev->br_cntr_width;
	uint64_t max = w >= 64 ? ~0ull : (1ull << w) - 1, word = 0;
	for (unsigned j = 0; j < ev->br_nfields && (j + 1) * w <= 64; j++) {
		uint64_t v = c->since[j] < max ? c->since[j] : max;
		word |= v << (j * w); /* j * w < 64 */
		c->since[j] = 0;
	}
	c->ring[(kept - 1) % HWT_EMU_BRANCH_MAX_DEPTH] = word;
}

/* The sample after branch @newest, of @period events, into @rec (room
 * for HWT_EMU_BRANCH_MAX_DEPTH records and their counters); returns its
 * size. @kept counts the branches the filter kept so far (the LBR's
 * top-of-stack, hw_idx), @counts their counters. */
static size_t make_sample(const struct emu_event *ev, size_t newest,
			  uint64_t period, uint64_t kept,
			  const struct branch_counts *counts, uint8_t *rec)
{
	const struct perf_event_attr *a = &ev->attr;
	const struct hwt_emu_branch *v = ev->br_src->v, *top = &v[newest];
	uint64_t st = a->sample_type, mode = a->branch_sample_type;
	size_t n = 8;
	if (st & PERF_SAMPLE_IDENTIFIER)
		put(rec, &n, ev->id);
	if (st & PERF_SAMPLE_IP)
		put(rec, &n, top->to);
	if (st & PERF_SAMPLE_TID)
		put(rec, &n, (uint64_t)(uint32_t)top->pid |
				     (uint64_t)(uint32_t)top->tid << 32);
	if (st & PERF_SAMPLE_TIME)
		put(rec, &n, top->time);
	if (st & PERF_SAMPLE_ID)
		put(rec, &n, ev->id);
	if (st & PERF_SAMPLE_STREAM_ID)
		put(rec, &n, ev->id);
	if (st & PERF_SAMPLE_CPU)
		put(rec, &n, (uint64_t)(uint32_t)(ev->cpu < 0 ? 0 : ev->cpu));
	if (st & PERF_SAMPLE_PERIOD)
		put(rec, &n, period);
	if (st & PERF_SAMPLE_BRANCH_STACK) {
		size_t nr_at = n;
		uint64_t nr = 0;
		n += 8;
		/* Intel's LBR says where its ring's newest record is (the
		 * TOS); the others have no such index: -1, as the kernel.
		 * Arch LBR has no TOS either (record 0 is always the
		 * newest; lbr.c: "Cannot get TOS for ... Arch LBR"). */
		bool tos = ev->br_kind == HWT_BRANCH_HW_LBR && !ev->br_arch_lbr;
		if (mode & PERF_SAMPLE_BRANCH_HW_INDEX)
			put(rec, &n, tos && kept ? (kept - 1) % ev->br_depth
						 : ~0ull);
		/* Arch LBR's LBR_INFO holds each record's type, and the
		 * kernel saves it whatever the filter says
		 * (intel_pmu_setup_hw_lbr_filter sets X86_BR_TYPE_SAVE). */
		uint64_t type_mode = ev->br_arch_lbr
					     ? mode | PERF_SAMPLE_BRANCH_TYPE_SAVE
					     : mode;
		for (size_t i = newest + 1; i-- > 0 && nr < ev->br_depth;) {
			if (!keeps(mode, a, &v[i]))
				continue;
			put(rec, &n, v[i].from);
			put(rec, &n, v[i].to);
			put(rec, &n, type_flags(type_mode, &v[i]));
			nr++;
		}
		memcpy(rec + nr_at, &nr, 8);
		/* The records are the newest nr kept: kept - 1 down. */
		for (uint64_t r = 0; ev->br_cntr_width && r < nr; r++)
			put(rec, &n, counts->ring[(kept - 1 - r) %
						  HWT_EMU_BRANCH_MAX_DEPTH]);
	}
	struct perf_event_header h = {PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER,
				      (uint16_t)n};
	memcpy(rec, &h, sizeof(h));
	return n;
}

static uint64_t space(const struct emu_event *ev)
{
	const struct perf_event_mmap_page *up = ev->up;
	return ev->data_size - (up->data_head - hwt_tail_load(&up->data_tail));
}

/* Waits (lock held, dropped while sleeping) until @ev is enabled and, when
 * paced, its ring has @len bytes free; false when it is stopping. */
static bool wait_to_write(struct emu_event *ev, size_t len)
{
	struct hwt_emu *emu = ev->emu;
	while (!ev->stop && ev->up &&
	       (!ev->enabled || (emu->opts.paced && space(ev) < len + 64))) {
		if (ev->enabled)
			hwt_emu_wake(ev);
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += 1000000;
		if (ts.tv_nsec >= 1000000000) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000;
		}
		pthread_cond_timedwait(&emu->cond, &emu->lock, &ts);
	}
	return !ev->stop && ev->up;
}

static void write_counted(struct emu_event *ev, const void *rec, size_t len)
{
	struct emu_branch_src *s = ev->br_src;
	if (hwt_emu_ring_write(ev, rec, len))
		s->st.written++;
	else
		s->st.lost++;
}

static void *brsampler_main(void *arg)
{
	struct emu_event *ev = arg;
	struct hwt_emu *emu = ev->emu;
	static __thread uint8_t rec[8 + 12 * 8 + HWT_EMU_BRANCH_MAX_DEPTH * 32];
	pthread_mutex_lock(&emu->lock);
	struct emu_branch_src *s = ev->br_src;
	const struct perf_event_attr *a = &ev->attr;
	struct branch_counts counts;
	for (size_t i = 0; s && i < s->nrecords; i++) {
		const struct perf_event_header *h = (const void *)s->records[i];
		if (!wait_to_write(ev, h->size))
			goto out;
		write_counted(ev, h, h->size);
	}
	/* Frequency mode: a sample once per 1/freq seconds of the
	 * program's own time, the period the branches since the last. */
	uint64_t step = a->freq ? 1000000000ull / (a->sample_freq ? a->sample_freq : 1)
				: 0;
	uint64_t since = 0, kept = 0, next_t = 0;
	memset(&counts, 0, sizeof(counts));
	for (size_t i = 0; s && i < s->n; i++) {
		if (!wait_to_write(ev, sizeof(rec)))
			goto out;
		since++;
		bool kept_it = keeps(a->branch_sample_type, a, &s->v[i]);
		kept += kept_it;
		count_branch(&counts, ev, &s->v[i], kept_it, kept);
		bool due;
		if (step) {
			if (!next_t)
				next_t = s->v[i].time + step;
			due = s->v[i].time >= next_t;
			while (due && next_t <= s->v[i].time)
				next_t += step;
		} else {
			due = since == a->sample_period;
		}
		if (!due)
			continue;
		write_counted(ev, rec, make_sample(ev, i, since, kept, &counts, rec));
		s->st.samples++;
		since = 0;
	}
out:
	ev->br_done = true;
	hwt_emu_wake(ev);
	pthread_mutex_unlock(&emu->lock);
	return NULL;
}

int hwt_emu_brsampler_start(struct emu_event *ev)
{
	if (!ev->br_src) {
		ev->br_done = true; /* no source: nothing will come */
		return 0;
	}
	ev->stop = false;
	if (pthread_create(&ev->thread, NULL, brsampler_main, ev))
		return -EAGAIN;
	ev->thread_running = true;
	return 0;
}
