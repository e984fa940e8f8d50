/* perf.data captures: sideband to memory image and task context, AUXTRACE
 * buffers to per-CPU (or per-thread) queues, then each queue through the
 * backend that the AUXTRACE_INFO names. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "core/decode/brstack_internal.h"
#include "core/decode/array_grow.h"
#include "core/decode/aux_cause.h"
#include "core/decode/cpu_set.h"
#include "core/decode/decode_internal.h"
#include "core/decode/decode_isolate.h"
#include "core/perfdata/aux_record_start.h"
#include "core/decode/decode_progress.h"
#include "hwtrace/capture.h"
#include "hwtrace/insn.h"
#include "core/decode/sample_internal.h"
#include "hwtrace/error.h"
#include "hwtrace/records.h"

#define MISC_SWITCH_OUT (1u << 13)
#define MISC_COMM_EXEC (1u << 13)
#define MISC_MMAP_BUILD_ID (1u << 14)

/* What changes the memory image, kept until every record is read and then
 * applied in time order: records of different CPUs come out of order. */
struct image_event {
	uint64_t time;
	size_t seq;          /* file order, for equal times */
	bool ends;           /* the process exec'd or exited */
	bool noexec;         /* a data mapping: only for map_base */
	uint64_t map_base;   /* see struct hwt_image_section */
	int32_t pid;
	uint64_t start, len, pgoff;
	char *name;
	uint8_t build_id[20];
	size_t build_id_size;
	bool has_build_id;
};

struct file_state {
	const char *path;
	uint64_t decode_errors; /* error elements of the decoder itself */
	const struct hwt_decode_opts *opts;
	struct hwt_image *image;
	struct hwt_sideband sb;
	struct hwt_aux_queues queues;
	uint32_t auxtrace_type;
	uint64_t *info;
	size_t info_words;
	bool have_info;
	uint64_t lost_records;
	struct hwt_pd_reader *reader; /* for the build id feature */
	/* AUXTRACE payloads are noted by their place in the file and read
	 * piece by piece when decoded (a file, not compressed). */
	bool stream_aux;
	struct hwt_image_check check; /* build ids the found files must have */
	bool kernel_added;
	struct image_event *img_events;
	size_t nimg_events;
	struct hwt_sample_store samples; /* AUX sampling captures */
	struct hwt_brstack_store brstack; /* branch-stack samples (LBR) */
	struct aux_causes causes; /* aux_pause / aux_resume events' samples */
	/* Per CPU: the PMU format bits of its PERF_RECORD_AUX records (e.g.
	 * CoreSight's raw TRBE format), handed to the decoder with each chunk. */
	struct cpu_flags {
		int32_t cpu;
		uint32_t flags;
	} *aux_formats;
	size_t naux_formats;
	/* PERF_RECORD_AUX records: where each write of a stream ended, and
	 * when, for the time of each AUXTRACE buffer. */
	struct aux_write {
		int32_t cpu, tid;
		uint64_t offset, size, time;
	} *aux_writes;
	size_t naux_writes;
	/* Overwrite-mode PERF_RECORD_AUX records of a PMU that reports the
	 * end of each write whose size exceeds their offset, skipped; the
	 * file offset of the first. */
	uint64_t aux_unplaced, aux_unplaced_at;
	/* PERF_RECORD_AUX_OUTPUT_HW_ID values, in file order. */
	struct cpu_hw_id {
		int32_t cpu;
		uint64_t hw_id;
	} *hw_ids;
	size_t nhw_ids;
	struct hwt_file_facts *facts; /* hwt_decode_file_facts: no decode */
	/* hwt_decode_file_unit: decode this unit alone; @unit_last: it is
	 * the capture's last, which shows the losses no unit placed. */
	const struct hwt_capture_unit *unit;
	bool unit_last;
	/* hwt_decode_file_units: list the units instead of decoding. */
	struct hwt_capture_unit **units_out;
	size_t *nunits_out;
};

/* Makes room for one more element of a growing array of @size-byte
 * elements whose capacity is the smallest power of two >= its count. */
static void *grow(void *array, size_t *count, size_t size)
{
	if ((*count & (*count - 1)) == 0) { /* 0 or a power of two: full */
		size_t cap = *count ? *count * 2 : 1;
		void *n = realloc(array, cap * size);
		if (!n)
			return NULL;
		array = n;
	}
	(*count)++;
	return array;
}

static int note_aux_format(struct file_state *st, int32_t cpu, uint32_t flags)
{
	flags &= HWT_AUX_FLAG_PMU_FORMAT_MASK;
	for (size_t i = 0; i < st->naux_formats; i++) {
		if (st->aux_formats[i].cpu == cpu) {
			st->aux_formats[i].flags |= flags;
			return 0;
		}
	}
	void *n = grow(st->aux_formats, &st->naux_formats, sizeof(*st->aux_formats));
	if (!n)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	st->aux_formats = n;
	st->aux_formats[st->naux_formats - 1] = (struct cpu_flags){cpu, flags};
	return 0;
}

/* The format bits of @cpu; a per-thread stream (cpu -1) takes any CPU's,
 * as every CPU of a session traces in the same format. */
static uint32_t aux_format_of(const struct file_state *st, int32_t cpu)
{
	uint32_t any = 0;
	for (size_t i = 0; i < st->naux_formats; i++) {
		if (st->aux_formats[i].cpu == cpu)
			return st->aux_formats[i].flags;
		any |= st->aux_formats[i].flags;
	}
	return cpu < 0 ? any : 0;
}

/* The build id the file's header gives for @filename, when MMAP2 did
 * not carry one. */
static const uint8_t *header_build_id(struct file_state *st,
				      const char *filename, size_t *size)
{
	static struct hwt_pd_build_id b;
	for (size_t i = 0; st->reader &&
			   hwt_pd_reader_build_id(st->reader, i, &b) == 1; i++) {
		if (b.filename && !strcmp(b.filename, filename)) {
			*size = b.size > 20 ? 20 : b.size;
			return b.id;
		}
	}
	return NULL;
}

static int32_t pid_of(uint32_t pid)
{
	return pid == UINT32_MAX ? HWT_PID_ANY : (int32_t)pid;
}

static uint64_t time_of(const struct hwt_pd_record *rec)
{
	return rec->sid.present & PERF_SAMPLE_TIME ? rec->sid.time : 0;
}

static struct image_event *new_image_event(struct file_state *st,
					   const struct hwt_pd_record *rec)
{
	void *n = grow(st->img_events, &st->nimg_events, sizeof(*st->img_events));
	if (!n)
		return NULL;
	st->img_events = n;
	struct image_event *ev = &st->img_events[st->nimg_events - 1];
	memset(ev, 0, sizeof(*ev));
	ev->time = time_of(rec);
	ev->seq = st->nimg_events - 1;
	return ev;
}

static int on_mmap(struct file_state *st, const struct hwt_pd_record *rec,
		   const struct hwt_rec *v)
{
	bool v2 = rec->type == PERF_RECORD_MMAP2;
	/* Without a name there is nothing to map. */
	if (rec->size <= (v2 ? 72 : 40))
		return 0;
	const struct hwt_rec_mmap2 *m2 = &v->u.mmap2;
	const struct hwt_rec_mmap *m = &v->u.mmap;
	struct image_event *ev = new_image_event(st, rec);
	if (!ev)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	ev->noexec = v2 && !(m2->prot & 4 /* PROT_EXEC */);
	ev->pid = pid_of((uint32_t)(v2 ? m2->pid : m->pid));
	ev->start = v2 ? m2->addr : m->addr;
	ev->len = v2 ? m2->len : m->len;
	ev->pgoff = v2 ? m2->pgoff : m->pgoff;
	if (v2 && m2->has_build_id) {
		ev->build_id_size = m2->build_id_size;
		memcpy(ev->build_id, m2->build_id, ev->build_id_size);
		ev->has_build_id = true;
	}
	struct hwt_rec_str name = v2 ? m2->filename : m->filename;
	ev->name = malloc(name.len + 1);
	if (!ev->name)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	memcpy(ev->name, name.s, name.len);
	ev->name[name.len] = 0;
	return 0;
}

/* The process @pid execs or exits at the record's time: its mappings end. */
static int on_process_end(struct file_state *st, const struct hwt_pd_record *rec,
			  uint32_t pid)
{
	struct image_event *ev = new_image_event(st, rec);
	if (!ev)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	ev->ends = true;
	ev->pid = pid_of(pid);
	return 0;
}

static int add_mapping(struct file_state *st, const struct image_event *ev)
{
	const char *name = ev->name;
	const uint8_t *build_id = ev->has_build_id ? ev->build_id : NULL;
	size_t build_id_size = ev->build_id_size;
	/* The kernel: kcore (added after all records, so it wins) or a
	 * vmlinux placed where this record says the kernel ran. */
	/* The header names the kernel [kernel.kallsyms], its MMAP record
	 * [kernel.kallsyms]_text. */
	if (!build_id)
		build_id = header_build_id(st, strncmp(name, "[kernel.kallsyms]", 17)
						       ? name : "[kernel.kallsyms]",
					   &build_id_size);
	size_t first = hwt_image_count(st->image);
	int err;
	if (!strncmp(name, "[kernel.kallsyms]", 17)) {
		if (st->opts->kcore)
			return 0;
		if (st->opts->lookup.vmlinux && !st->kernel_added) {
			st->kernel_added = true;
			err = hwt_decode_add_vmlinux(st->image,
						     st->opts->lookup.vmlinux,
						     ev->start);
			goto expect;
		}
	}
	err = hwt_image_add_mapping(st->image, &st->opts->lookup, ev->pid,
				    ev->start, ev->len, ev->pgoff, name,
				    build_id, build_id_size);
	for (size_t i = first; i < hwt_image_count(st->image); i++) {
		struct hwt_image_section *s = hwt_image_section(st->image, i);
		if (s->path && !strcmp(s->path, name))
			s->map_base = ev->map_base;
	}
	/* A missing file is kept as a missing section: the decoder names it
	 * when trace runs into it. */
	if (err == HWT_ERR_NOENT || err == HWT_ERR_IO)
		return 0;
expect:
	/* The file found must be the one traced: checked once the trace's
	 * ISA is known (hwt_image_check_run). The sections added are the new
	 * mapping's and what is left of those it replaced (other files). */
	for (size_t i = first; err >= 0 && i < hwt_image_count(st->image); i++) {
		const struct hwt_image_section *s = hwt_image_section(st->image, i);
		const struct hwt_image_section *added =
			hwt_image_section(st->image, first);
		if (s->found_at && added->found_at && strcmp(s->found_at, added->found_at))
			continue;
		err = hwt_image_check_expect(&st->check, i, build_id,
					     build_id_size);
	}
	return err;
}

static int cmp_image_events(const void *a, const void *b)
{
	const struct image_event *x = a, *y = b;
	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The memory image from the mappings, exec's and exits, in time order. */
static int cmp_by_file(const void *a, const void *b)
{
	const struct image_event *x = *(const struct image_event *const *)a;
	const struct image_event *y = *(const struct image_event *const *)b;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* Each mapping's map_base: the lowest start - pgoff of the mappings of
 * its file in its process. */
static int set_map_bases(struct file_state *st)
{
	size_t n = 0;
	struct image_event **v = malloc((st->nimg_events + 1) * sizeof(*v));
	if (!v)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	for (size_t i = 0; i < st->nimg_events; i++)
		if (!st->img_events[i].ends)
			v[n++] = &st->img_events[i];
	if (n)
		qsort(v, n, sizeof(*v), cmp_by_file);
	for (size_t i = 0, j; i < n; i = j) {
		uint64_t base = UINT64_MAX;
		for (j = i; j < n && !cmp_by_file(&v[i], &v[j]); j++)
			if (v[j]->start >= v[j]->pgoff &&
			    v[j]->start - v[j]->pgoff < base)
				base = v[j]->start - v[j]->pgoff;
		for (size_t k = i; k < j; k++)
			v[k]->map_base = base == UINT64_MAX ? 0 : base;
	}
	free(v);
	return 0;
}

static int build_image(struct file_state *st)
{
	int err = set_map_bases(st);

	if (st->nimg_events) /* qsort must not be given NULL */
		qsort(st->img_events, st->nimg_events, sizeof(*st->img_events),
		      cmp_image_events);
	for (size_t i = 0; i < st->nimg_events && err >= 0; i++) {
		const struct image_event *ev = &st->img_events[i];
		hwt_image_set_time(st->image, ev->time);
		if (ev->ends)
			hwt_image_end_process(st->image, ev->pid, ev->time);
		else if (!ev->noexec)
			err = add_mapping(st, ev);
	}
	/* What is added after the records (kcore) holds throughout. */
	hwt_image_set_time(st->image, 0);
	return err;
}

static void free_image_events(struct file_state *st)
{
	for (size_t i = 0; i < st->nimg_events; i++)
		free(st->img_events[i].name);
	free(st->img_events);
}

/* A context event of @rec's CPU at its time: @task runs from then on, or
 * with @in_switch a switch from @prev to @task (-1: not named) begins. */
static int add_ctx(struct file_state *st, const struct hwt_pd_record *rec,
		   struct hwt_task task, bool in_switch, struct hwt_task prev,
		   bool itrace_start)
{
	if (!(rec->sid.present & PERF_SAMPLE_CPU))
		return 0;
	struct hwt_ctx_event ev = {
		.time = rec->sid.present & PERF_SAMPLE_TIME ? rec->sid.time : 0,
		.cpu = (int32_t)rec->sid.cpu,
		.pid = task.pid,
		.tid = task.tid,
		.prev_pid = prev.pid,
		.prev_tid = prev.tid,
		.in_switch = in_switch,
		.itrace_start = itrace_start,
	};
	return hwt_sideband_add_ctx(&st->sb, &ev);
}

/* The task of @rec's sample_id, or -1/-1 when it has none. */
static struct hwt_task sample_task(const struct hwt_pd_record *rec)
{
	if (!(rec->sid.present & PERF_SAMPLE_TID))
		return (struct hwt_task){-1, -1};
	return (struct hwt_task){(int32_t)rec->sid.pid, (int32_t)rec->sid.tid};
}

static int add_loss(struct file_state *st, const struct hwt_pd_record *rec,
		    enum hwt_elem_type type, enum hwt_gap_reason reason,
		    uint64_t aux_offset, uint64_t bytes, const char *text)
{
	struct hwt_loss_event ev;
	memset(&ev, 0, sizeof(ev));
	ev.cpu = rec->sid.present & PERF_SAMPLE_CPU ? (int32_t)rec->sid.cpu : -1;
	ev.time = rec->sid.present & PERF_SAMPLE_TIME ? rec->sid.time : 0;
	ev.aux_offset = aux_offset;
	snprintf(ev.text, sizeof(ev.text), "%s", text);
	ev.elem.type = type;
	ev.elem.fields = HWT_FIELD_OFFSET;
	ev.elem.trace_offset = aux_offset;
	if (ev.cpu >= 0) {
		ev.elem.fields |= HWT_FIELD_CPU;
		ev.elem.cpu = ev.cpu;
	}
	if (rec->sid.present & PERF_SAMPLE_TIME) {
		ev.elem.fields |= HWT_FIELD_TIME;
		ev.elem.time = ev.time;
	}
	if (type == HWT_ELEM_GAP) {
		ev.elem.u.gap.reason = reason;
		if (bytes) {
			ev.elem.fields |= HWT_FIELD_GAP_BYTES;
			ev.elem.u.gap.bytes = bytes;
		}
	}
	return hwt_sideband_add_loss(&st->sb, &ev);
}

/* A COMM record's name, for the capture's threads (@tid, @pid in @ids). */
static int note_name(struct hwt_file_facts *f, const struct hwt_pd_record *rec,
		     const struct hwt_rec_comm *c)
{
	void *n = f->names;
	if (!array_grow(&n, &f->names_cap, sizeof(*f->names), f->nnames + 1))
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	f->names = n;
	char *copy = malloc(c->comm.len + 1);
	if (!copy)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	memcpy(copy, c->comm.s, c->comm.len);
	copy[c->comm.len] = 0;
	f->names[f->nnames++] = (struct hwt_file_name){
		pid_of((uint32_t)c->pid), pid_of((uint32_t)c->tid), time_of(rec),
		c->exec, copy};
	return 0;
}

static int on_record(struct file_state *st, const struct hwt_pd_record *rec)
{
	char text[96];
	struct hwt_rec v;
	/* Each type's fixed fields are there, or the record is passed over
	 * (AUXTRACE and samples have parsers of their own). */
	if (!hwt_rec_parse(rec, &v) && rec->type != HWT_PD_RECORD_AUXTRACE &&
	    rec->type != PERF_RECORD_SAMPLE)
		return 0;

	switch (rec->type) {
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		return on_mmap(st, rec, &v);
	case PERF_RECORD_ITRACE_START: {
		struct hwt_task t = {v.u.itrace_start.pid, v.u.itrace_start.tid};
		if (hwt_sideband_add_thread(&st->sb, t.pid, t.tid) < 0)
			return HWT_ERR_NOMEM;
		return add_ctx(st, rec, t, false, (struct hwt_task){-1, -1}, true);
	}
	case PERF_RECORD_COMM:
		if (st->facts) {
			int nerr = note_name(st->facts, rec, &v.u.comm);
			if (nerr < 0)
				return nerr;
		}
		/* A new program: the old one's mappings are gone. */
		if (v.u.comm.exec && v.u.comm.pid == v.u.comm.tid) {
			int eerr = on_process_end(st, rec, (uint32_t)v.u.comm.pid);
			if (eerr < 0)
				return eerr;
		}
		return hwt_sideband_add_thread(&st->sb, v.u.comm.pid,
					       v.u.comm.tid);
	case PERF_RECORD_EXIT: {
		/* The process ends with its main thread, at the record's
		 * time (its own when no sample_id has one). */
		if (rec->size < 32 || v.u.fork.pid != v.u.fork.tid)
			return 0;
		struct hwt_pd_record r = *rec;
		if (!(r.sid.present & PERF_SAMPLE_TIME)) {
			r.sid.present |= PERF_SAMPLE_TIME;
			r.sid.time = v.u.fork.time;
		}
		return on_process_end(st, &r, (uint32_t)v.u.fork.pid);
	}
	case PERF_RECORD_FORK: {
		/* The new thread's process, and who made it (a per-task
		 * trace event follows it there). */
		int ferr = hwt_sideband_add_fork(&st->sb, v.u.fork.ptid,
						 v.u.fork.tid);
		if (ferr < 0)
			return ferr;
		return hwt_sideband_add_thread(&st->sb, v.u.fork.pid,
					       v.u.fork.tid);
	}
	case PERF_RECORD_SWITCH:
		/* Per-thread switch records: the record's own task goes out
		 * (the switch lasts until the next switch-in on that CPU) or
		 * comes in. */
		if (!(rec->sid.present & PERF_SAMPLE_TID))
			return 0;
		st->sb.have_switch = true;
		if (v.u.sw.out)
			return add_ctx(st, rec, (struct hwt_task){-1, -1}, true,
				       sample_task(rec), false);
		return add_ctx(st, rec, sample_task(rec), false,
			       (struct hwt_task){-1, -1}, false);
	case PERF_RECORD_SWITCH_CPU_WIDE:
		/* Written by the task going out, naming the next, and by the
		 * task coming in, naming the previous one. */
		st->sb.have_switch = true;
		if (v.u.sw.out)
			return add_ctx(st, rec,
				       (struct hwt_task){v.u.sw.next_prev_pid,
							 v.u.sw.next_prev_tid},
				       true, sample_task(rec), false);
		if (rec->sid.present & PERF_SAMPLE_TID)
			return add_ctx(st, rec, sample_task(rec), false,
				       (struct hwt_task){-1, -1}, false);
		return 0;
	case PERF_RECORD_AUX: {
		const struct hwt_rec_aux *a = &v.u.aux;
		/* CoreSight's overwrite-mode offsets are the ends of their
		 * writes (core/perfdata/aux_record_start.c); the AUXTRACE_INFO
		 * that names the PMU comes before the records. */
		uint64_t start;
		bool end_reported = st->have_info &&
				    st->auxtrace_type == HWT_AUXTRACE_CS_ETM;
		if (a->flags & HWT_AUX_FLAG_PMU_FORMAT_MASK) {
			int ferr = note_aux_format(
				st, rec->sid.present & PERF_SAMPLE_CPU ? (int32_t)rec->sid.cpu : -1,
				(uint32_t)a->flags);
			if (ferr < 0)
				return ferr;
		}
		if (hwt_aux_record_start(a->aux_offset, a->aux_size, a->flags,
					 end_reported, &start) < 0) {
			/* No place in the stream: skipped, as perf's cs-etm
			 * reader skips it, and said once after the records. */
			if (!st->aux_unplaced++)
				st->aux_unplaced_at = rec->file_offset;
			return 0;
		}
		if (rec->sid.present & PERF_SAMPLE_TIME) {
			void *n = grow(st->aux_writes, &st->naux_writes,
				       sizeof(*st->aux_writes));
			if (!n)
				return hwt_error(HWT_ERR_NOMEM, "out of memory");
			st->aux_writes = n;
			st->aux_writes[st->naux_writes - 1] = (struct aux_write){
				rec->sid.present & PERF_SAMPLE_CPU ? (int32_t)rec->sid.cpu : -1,
				rec->sid.present & PERF_SAMPLE_TID ? (int32_t)rec->sid.tid : -1,
				start, a->aux_size, rec->sid.time};
		}
		uint64_t end = start + a->aux_size;
		if (a->flags & HWT_AUX_FLAG_TRUNCATED) {
			snprintf(text, sizeof(text),
				 "the AUX buffer was full: trace after 0x%" PRIx64 " lost",
				 end);
			return add_loss(st, rec, HWT_ELEM_GAP, HWT_GAP_TRUNCATED,
					end, 0, text);
		}
		if (a->flags & HWT_AUX_FLAG_COLLISION) {
			snprintf(text, sizeof(text), "sample collision at 0x%" PRIx64,
				 start);
			return add_loss(st, rec, HWT_ELEM_GAP, HWT_GAP_COLLISION,
					start, a->aux_size, text);
		}
		return 0;
	}
	case PERF_RECORD_LOST:
		st->lost_records += v.u.lost.lost;
		snprintf(text, sizeof(text), "%" PRIu64 " records lost",
			 v.u.lost.lost);
		return add_loss(st, rec, HWT_ELEM_GAP, HWT_GAP_LOST, 0, 0, text);
	case HWT_PD_RECORD_AUXTRACE_ERROR: {
		/* Only perf's whole record, with its 64-byte message. */
		const struct hwt_rec_auxtrace_error *e = &v.u.auxtrace_error;
		if (rec->size < 8 + 24 + 8 + 64)
			return 0;
		snprintf(text, sizeof(text), "perf auxtrace error: %.*s",
			 (int)(e->msg.len < 64 ? e->msg.len : 64), e->msg.s);
		struct hwt_pd_record r = *rec;
		r.sid.present |= PERF_SAMPLE_CPU;
		r.sid.cpu = (uint32_t)e->cpu;
		return add_loss(st, &r, HWT_ELEM_ERROR, 0, 0, 0, text);
	}
	case HWT_PD_RECORD_AUXTRACE_INFO:
		if (st->have_info)
			return 0;
		st->auxtrace_type = v.u.auxtrace_info.type;
		st->info_words = v.u.auxtrace_info.npriv;
		st->info = malloc(st->info_words ? st->info_words * 8 : 8);
		if (!st->info)
			return hwt_error(HWT_ERR_NOMEM, "out of memory");
		memcpy(st->info, v.u.auxtrace_info.priv, st->info_words * 8);
		st->have_info = true;
		return 0;
	case HWT_PD_RECORD_AUXTRACE:
		if (st->stream_aux)
			return hwt_aux_queues_add_at(&st->queues, &rec->aux,
						     rec->file_offset, rec->size);
		if (!rec->aux_data)
			return 0;
		return hwt_aux_queues_add(&st->queues, &rec->aux, rec->aux_data);
	case PERF_RECORD_SAMPLE: {
		/* The facts need to know only that there are branch-stack
		 * samples, not to keep them. */
		int err = st->facts && st->brstack.n
				  ? 0
				  : hwt_brstack_store_add(&st->brstack, st->reader, rec);
		if (err >= 0 && !st->facts)
			err = aux_causes_add(&st->causes, st->reader, rec);
		if (err < 0)
			return err;
		return hwt_sample_store_add(&st->samples, st->reader, rec);
	}
	case PERF_RECORD_AUX_OUTPUT_HW_ID: {
		void *n = grow(st->hw_ids, &st->nhw_ids, sizeof(*st->hw_ids));
		if (!n)
			return hwt_error(HWT_ERR_NOMEM, "out of memory");
		st->hw_ids = n;
		st->hw_ids[st->nhw_ids - 1] = (struct cpu_hw_id){
			rec->sid.present & PERF_SAMPLE_CPU ? (int32_t)rec->sid.cpu : -1,
			v.u.hw_id.hw_id};
		return 0;
	}
	default:
		return 0;
	}
}

/* The time of the AUX write that holds stream offset @offset of @cpu (or,
 * per-thread, @tid); 0 when no AUX record says. */
static uint64_t aux_time_of(const struct file_state *st, int32_t cpu,
			    int32_t tid, uint64_t offset)
{
	for (size_t i = 0; i < st->naux_writes; i++) {
		const struct aux_write *w = &st->aux_writes[i];
		if ((cpu >= 0 ? w->cpu != cpu : w->tid != tid) ||
		    offset - w->offset >= w->size)
			continue;
		return w->time;
	}
	return 0;
}

/* aux_causes' time of an element without one: its AUX write's. */
static uint64_t write_time_of(void *arg, const struct hwt_elem *e)
{
	const struct file_state *st = arg;
	if (!(e->fields & HWT_FIELD_OFFSET))
		return 0;
	return aux_time_of(st, e->fields & HWT_FIELD_CPU ? e->cpu : -1,
			   e->fields & HWT_FIELD_TID ? e->tid : -1,
			   e->trace_offset);
}

/* The traced CPU from the cpuid feature ("GenuineIntel,6,78,3"), as
 * "6/78/3" for the decoder's errata; perf does the same. */
static void cpu_from_header(struct hwt_pd_reader *reader, char *buf, size_t size)
{
	const void *data;
	uint64_t len;
	unsigned family, model, stepping;
	char vendor[32], str[128];

	buf[0] = 0;
	if (hwt_pd_reader_feature(reader, HWT_PD_FEAT_CPUID, &data, &len) < 0 ||
	    len <= 4)
		return;
	size_t n = len - 4 < sizeof(str) - 1 ? (size_t)len - 4 : sizeof(str) - 1;
	memcpy(str, (const uint8_t *)data + 4, n);
	str[n] = 0;
	if (sscanf(str, "%31[^,],%u,%u,%u", vendor, &family, &model, &stepping) == 4 &&
	    !strcmp(vendor, "GenuineIntel"))
		snprintf(buf, size, "%u/%u/%u", family, model, stepping);
}

/* Shows the losses of @cpu that lie before @upto in its AUX stream: into
 * the stream's attribution @cs when given, else to @sink. */
static int flush_losses(struct file_state *st, int32_t cpu, uint64_t upto,
			bool *done, struct hwt_ctx_sink *cs,
			const struct hwt_elem_sink *sink)
{
	for (size_t i = 0; i < st->sb.nloss; i++) {
		struct hwt_loss_event *l = &st->sb.loss[i];
		if (done[i] || (l->cpu != cpu && cpu >= 0) || l->aux_offset > upto)
			continue;
		done[i] = true;
		if (l->elem.type == HWT_ELEM_GAP)
			l->elem.u.gap.detail = l->text;
		else
			l->elem.u.error.message = l->text;
		int err = cs ? hwt_ctx_sink_loss(cs, &l->elem)
			     : sink->emit(sink->arg, &l->elem);
		if (err < 0)
			return err;
	}
	return 0;
}

/* The trace event: the first attribute of a dynamic PMU (the hardware
 * events perf knows by fixed type numbers are never AUX events). */
static const struct perf_event_attr *aux_attr(const struct hwt_pd_reader *r)
{
	for (size_t i = 0; r && i < hwt_pd_reader_nr_attrs(r); i++) {
		const struct hwt_pd_attr *a = hwt_pd_reader_attr(r, i);
		if (a && a->attr.type >= PERF_TYPE_MAX)
			return &a->attr;
	}
	return NULL;
}

/* Per-CPU trace without switch records cannot follow the scheduler: say
 * so once, as perf does, in the stream itself. */
static int warn_no_switch(struct file_state *st, const struct hwt_elem_sink *out)
{
	bool per_cpu = false;
	for (size_t i = 0; i < st->queues.n; i++)
		per_cpu |= st->queues.q[i].cpu != (int32_t)UINT32_MAX;
	if (!per_cpu || st->sb.have_switch)
		return 0;
	return hwt_decode_warn(st->opts, out,
		"per-CPU trace without context-switch records: elements are "
		"attributed to the task that started tracing on each CPU (record "
		"with context_switch sideband, as perf record does by default)");
}

/* Overwrite-mode AUX records that place their data before the stream's
 * start: their writes' times and losses are not shown. */
static int warn_aux_unplaced(struct file_state *st,
			     const struct hwt_elem_sink *out)
{
	if (!st->aux_unplaced)
		return 0;
	return hwt_decode_warn(st->opts, out,
		"%s: %" PRIu64 " overwrite-mode PERF_RECORD_AUX record(s) report "
		"more bytes than their offset (the first at file offset 0x%" PRIx64
		"): skipped, as perf skips them", st->path, st->aux_unplaced,
		st->aux_unplaced_at);
}

/* --cpu N on a capture without trace or samples of CPU N: say which CPUs
 * it has (or that it traced threads, not CPUs) instead of an empty result.
 * The CPUs are those of its AUX queues and of its branch-record samples. */
static int warn_cpu_absent(struct file_state *st, const struct hwt_elem_sink *out)
{
	if (!st->opts->filter_cpu)
		return 0;
	struct hwt_cpu_set cpus = {0};
	int err = 0;
	for (size_t i = 0; i < st->queues.n && err >= 0; i++)
		if (st->queues.q[i].cpu != (int32_t)UINT32_MAX)
			err = hwt_cpu_set_add(&cpus, (uint32_t)st->queues.q[i].cpu);
	for (size_t i = 0; i < st->brstack.cpus.n && err >= 0; i++)
		err = hwt_cpu_set_add(&cpus, st->brstack.cpus.cpu[i]);
	if (err >= 0 && cpus.n)
		err = hwt_decode_warn_cpu_absent(st->opts, out, &cpus, "the capture");
	else if (err >= 0 && st->have_info)
		err = hwt_decode_warn(st->opts, out, "--cpu %" PRId32 " matches "
				      "nothing: the capture traced threads, not "
				      "CPUs, so its trace carries no CPU (use --tid)",
				      st->opts->cpu);
	else if (err >= 0)
		err = hwt_decode_warn(st->opts, out, "--cpu %" PRId32 " matches "
				      "nothing: the capture's branch-record "
				      "samples carry no CPU (it was recorded "
				      "without PERF_SAMPLE_CPU; use --tid)",
				      st->opts->cpu);
	hwt_cpu_set_free(&cpus);
	return err;
}

/* The bytes and streams the decode of the queues will go through. */
static void start_progress(struct file_state *st, struct hwt_progress *pr)
{
	uint64_t total = 0;
	uint32_t streams = st->sb.nloss || st->samples.n;
	for (size_t i = 0; i < st->queues.n; i++) {
		const struct hwt_aux_queue *q = &st->queues.q[i];
		if (st->opts->filter_cpu && q->cpu != (int32_t)UINT32_MAX &&
		    q->cpu != st->opts->cpu)
			continue;
		streams++;
		for (size_t j = 0; j < q->npieces; j++)
			total += q->pieces[j].size;
	}
	hwt_progress_start(pr, st->opts, total, streams);
}

/* The pieces of every queue the decode takes, in the order -j 1 feeds
 * them, with the hooks that run between them on the calling thread. */
struct piece_ref {
	struct hwt_aux_queue *q;
	const struct hwt_aux_piece *pc;
	int32_t cpu, tid;
	bool queue_first;
};

struct pieces {
	struct file_state *st;
	struct hwt_ctx_sink *cs;
	struct hwt_progress *pr;
	bool *done;
	const struct hwt_backend *b;
	struct piece_ref *v;
	size_t n;
};

static int list_pieces(struct pieces *ps)
{
	const struct hwt_decode_opts *opts = ps->st->opts;
	size_t total = 0;
	for (size_t i = 0; i < ps->st->queues.n; i++)
		total += ps->st->queues.q[i].npieces;
	ps->v = calloc(total ? total : 1, sizeof(*ps->v));
	if (!ps->v)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	for (size_t i = 0; i < ps->st->queues.n; i++) {
		struct hwt_aux_queue *q = &ps->st->queues.q[i];
		int32_t cpu = q->cpu == (int32_t)UINT32_MAX ? -1 : q->cpu;
		int32_t tid = q->tid == (int32_t)UINT32_MAX ? -1 : q->tid;
		/* A per-thread queue is no CPU's: the decode lets the filter
		 * drop its elements, a packet listing leaves it out. */
		if (opts->filter_cpu && cpu != opts->cpu &&
		    (cpu >= 0 || opts->packet_sink.packet))
			continue;
		for (size_t j = 0; j < q->npieces; j++)
			ps->v[ps->n++] = (struct piece_ref){q, &q->pieces[j],
							    cpu, tid, j == 0};
	}
	return 0;
}

static int piece_load(void *arg, size_t i, struct hwt_aux_chunk *chunk,
		      void **owned)
{
	struct pieces *ps = arg;
	const struct piece_ref *r = &ps->v[i];
	const uint8_t *data;
	int err = hwt_aux_piece_load(r->q, r->pc, ps->st->reader, &data, owned);
	if (err < 0)
		return err;
	*chunk = (struct hwt_aux_chunk){
		.data = data,
		.size = r->pc->size,
		.offset = r->pc->offset,
		.reference = r->pc->reference,
		.idx = r->q->idx,
		.cpu = r->cpu,
		.tid = r->cpu >= 0 ? -1 : r->tid,
		.aux_flags = aux_format_of(ps->st, r->cpu),
		.time = aux_time_of(ps->st, r->cpu, r->tid, r->pc->offset),
		/* Pieces are contiguous AUX data: the next begins elsewhere. */
		.final = true,
	};
	/* The process the attribution gives a per-thread stream. */
	if (r->cpu < 0) {
		chunk->pid = hwt_sideband_thread_pid(&ps->st->sb, r->tid);
		chunk->has_pid = chunk->pid >= 0;
	}
	return 0;
}

/* Per-CPU streams take their task from the sideband; a per-thread stream
 * is its thread. */
static int stream_start(struct pieces *ps, const struct piece_ref *r)
{
	return hwt_ctx_sink_start(ps->cs, &ps->st->sb, r->cpu,
				  r->cpu >= 0 ? -1 : hwt_sideband_thread_pid(&ps->st->sb, r->tid),
				  r->cpu >= 0 ? -1 : r->tid);
}

static int piece_before(void *arg, size_t i)
{
	struct pieces *ps = arg;
	const struct piece_ref *r = &ps->v[i];
	return r->queue_first ? stream_start(ps, r) : 0;
}

/* The piece's bytes count as decoded once its elements are sent. */
static int piece_after(void *arg, size_t i)
{
	struct pieces *ps = arg;
	const struct piece_ref *r = &ps->v[i];
	hwt_progress_chunk_done(ps->pr, r->pc->size);
	return flush_losses(ps->st, r->cpu, r->pc->offset + r->pc->size,
			    ps->done, ps->cs, NULL);
}

/* A batch of a parallel decode into the attribution, in bulk. */
static int piece_send(void *arg, struct par_batch *b)
{
	struct pieces *ps = arg;
	return hwt_ctx_sink_batch(ps->cs, b);
}

static int piece_setup(void *arg, void *priv)
{
	struct pieces *ps = arg;
	int err = 0;
	for (size_t i = 0; i < ps->st->nhw_ids && ps->b->decoder->hw_id &&
			   err >= 0; i++)
		err = ps->b->decoder->hw_id(priv, ps->st->hw_ids[i].cpu,
					    ps->st->hw_ids[i].hw_id);
	return err;
}

/* Marks as shown the losses that a one-thread decode shows after piece @i
 * (piece_after), without showing them. */
static void mark_losses(struct pieces *ps, size_t i)
{
	const struct piece_ref *r = &ps->v[i];
	uint64_t upto = r->pc->offset + r->pc->size;
	for (size_t k = 0; k < ps->st->sb.nloss; k++) {
		const struct hwt_loss_event *l = &ps->st->sb.loss[k];
		if ((l->cpu == r->cpu || r->cpu < 0) && l->aux_offset <= upto)
			ps->done[k] = true;
	}
}

/* The piece of @ps that unit @u names; ps->n when none. */
static size_t unit_piece(const struct pieces *ps, const struct hwt_capture_unit *u)
{
	const struct hwt_aux_queues *qs = &ps->st->queues;
	if (u->queue >= qs->n || u->piece >= qs->q[u->queue].npieces)
		return ps->n;
	const struct hwt_aux_piece *pc = &qs->q[u->queue].pieces[u->piece];
	size_t i = 0;
	while (i < ps->n && ps->v[i].pc != pc)
		i++;
	return i;
}

/* hwt_decode_file_unit: one segment of one piece, as a one-thread decode
 * feeds it (after reset), with the losses that decode shows after the
 * piece when the unit is the piece's last segment, and, in the capture's
 * last unit, those no piece shows. */
static int decode_unit(struct pieces *ps, void *priv)
{
	const struct hwt_capture_unit *u = ps->st->unit;
	const struct hwt_backend *b = ps->b;
	size_t i = unit_piece(ps, u);
	if (i == ps->n)
		return hwt_error(HWT_ERR_INVAL, "%s: no AUX queue %zu piece %zu "
				 "to decode (a unit of another capture, or of "
				 "a CPU the filter leaves out)", ps->st->path,
				 u->queue, u->piece);
	for (size_t k = 0; k < ps->n; k++)
		if (k < i || (k > i && ps->st->unit_last))
			mark_losses(ps, k);
	if (!ps->st->unit_last)
		memset(ps->done, 1, ps->st->sb.nloss * sizeof(*ps->done));
	struct hwt_aux_chunk chunk;
	void *owned = NULL;
	uint64_t *starts = malloc(HWT_MAX_SEGMENTS * sizeof(*starts));
	int err = starts ? piece_load(ps, i, &chunk, &owned)
			 : hwt_error(HWT_ERR_NOMEM, "out of memory");
	if (err >= 0)
		err = stream_start(ps, &ps->v[i]);
	int n = err < 0 ? err : hwt_decode_split(b, priv, &chunk, starts);
	if (n >= 0 && u->segment >= (size_t)n)
		n = hwt_error(HWT_ERR_INVAL, "%s: AUX queue %zu piece %zu is cut "
			      "into %d segments: no segment %zu", ps->st->path,
			      u->queue, u->piece, n, u->segment);
	err = n < 0 ? n : 0;
	if (err >= 0) {
		struct hwt_aux_chunk seg = hwt_decode_segment(&chunk, starts, n,
							      (int)u->segment);
		if (b->decoder->reset)
			b->decoder->reset(priv);
		err = b->decoder->feed(priv, &seg);
	}
	if (err >= 0 && u->segment + 1 == (size_t)n)
		err = flush_losses(ps->st, ps->v[i].cpu,
				   ps->v[i].pc->offset + ps->v[i].pc->size,
				   ps->done, ps->cs, NULL);
	free(starts);
	free(owned);
	return err;
}

/* hwt_decode_file_units: every piece cut as hwt_decode_feed cuts it. */
static int list_units(struct pieces *ps, void *priv)
{
	struct file_state *st = ps->st;
	struct hwt_capture_unit *v = NULL;
	size_t n = 0, cap = 0;
	uint64_t *starts = malloc(HWT_MAX_SEGMENTS * sizeof(*starts));
	int err = starts ? 0 : hwt_error(HWT_ERR_NOMEM, "out of memory");
	for (size_t i = 0; i < ps->n && err >= 0; i++) {
		const struct piece_ref *r = &ps->v[i];
		struct hwt_aux_chunk chunk;
		void *owned = NULL;
		err = piece_load(ps, i, &chunk, &owned);
		int k = err < 0 ? err : hwt_decode_split(ps->b, priv, &chunk, starts);
		err = k < 0 ? k : 0;
		void *grown = v;
		if (err >= 0 && !array_grow(&grown, &cap, sizeof(*v), n + (size_t)k))
			err = hwt_error(HWT_ERR_NOMEM, "out of memory");
		v = grown;
		uint64_t end = r->pc->offset + (r->pc->size ? r->pc->size - 1 : 0);
		for (int j = 0; err >= 0 && j < k; j++) {
			struct hwt_aux_chunk seg = hwt_decode_segment(&chunk, starts, k, j);
			v[n++] = (struct hwt_capture_unit){
				.queue = (size_t)(r->q - st->queues.q),
				.piece = (size_t)(r->pc - r->q->pieces),
				.segment = (size_t)j, .cpu = r->cpu, .tid = r->tid,
				.offset = seg.offset, .size = seg.size,
				.time_from = chunk.time,
				.time_until = aux_time_of(st, r->cpu, r->tid, end),
			};
		}
		free(owned);
	}
	free(starts);
	if (err < 0) {
		free(v);
		return err;
	}
	*st->units_out = v;
	*st->nunits_out = n;
	return 0;
}

static int decode_queues(struct file_state *st, const struct hwt_backend *b,
			 const struct hwt_elem_sink *user_sink)
{
	const struct hwt_decode_opts *opts = st->opts;
	struct hwt_decode_filter filter = {.opts = opts, .next = user_sink};
	struct hwt_elem_sink fsink = hwt_decode_filter_sink(&filter);
	const struct hwt_elem_sink *out = hwt_decode_has_filter(opts) ? &fsink
								     : user_sink;
	/* Each trace on and off named with the aux_action sample that caused
	 * it, once its task is known (after the attribution, before the
	 * filter). */
	struct hwt_elem_sink causes = {0};
	if (st->causes.n) {
		int cerr = aux_causes_finish(&st->causes);
		if (cerr < 0)
			return cerr;
		st->causes.next = out;
		st->causes.time_of = write_time_of;
		st->causes.time_arg = st;
		causes = aux_causes_sink(&st->causes);
	}
	/* Without the kernel in the trace, tasks switch where the trace is
	 * off: each trace_on..trace_off stretch is one task's. */
	const struct perf_event_attr *attr = aux_attr(st->reader);
	struct hwt_ctx_sink cs = {.next = st->causes.n ? &causes : out,
				  .segments = attr && attr->exclude_kernel};
	struct hwt_elem_sink csink = hwt_ctx_sink(&cs);
	/* --disasm: every backend's ranges as instructions with their text. */
	struct hwt_disasm *dis = NULL;
	struct hwt_elem_sink dsink = csink;
	if (opts->disasm && !opts->packet_sink.packet) {
		int derr = hwt_disasm_new(st->image, &csink, &dis);
		if (derr < 0)
			return derr;
		dsink = hwt_disasm_sink(dis);
	}
	/* The calling thread's instance emits through msink, which a
	 * parallel decode may point elsewhere for a while. */
	struct hwt_elem_sink msink = dsink;
	struct hwt_decode_params params = {
		.size = sizeof(params),
		.info = st->info,
		.info_words = st->info_words,
		.image = st->image,
		.sink = &msink,
		.cpu_model = opts->cpu_model,
		.disasm = opts->disasm,
		.pid_at = hwt_sideband_pid_at,
		.pid_at_arg = &st->sb,
		.aux_attr = aux_attr(st->reader),
		.edges_only = hwt_decode_edges_op(b, opts),
	};
	struct hwt_progress pr = {0};
	hwt_progress_params(&pr, opts, &params);
	void *priv = NULL;
	int err = 0;
	bool *done = calloc(st->sb.nloss + 1, sizeof(bool));
	if (!done) {
		hwt_disasm_free(dis);
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	}

	if (!opts->packet_sink.packet) {
		err = b->decoder->create(&params, &priv);
		if (err < 0)
			goto out;
		err = warn_no_switch(st, out);
		if (err >= 0)
			err = warn_aux_unplaced(st, out);
		if (err >= 0)
			err = warn_cpu_absent(st, out);
		if (err >= 0)
			err = piece_setup(&(struct pieces){.st = st, .b = b}, priv);
		if (err < 0)
			goto out;
		start_progress(st, &pr);
	} else {
		err = warn_cpu_absent(st, out);
	}
	struct pieces ps = {.st = st, .cs = &cs, .pr = &pr, .done = done,
			    .b = b};
	err = err < 0 ? err : list_pieces(&ps);
	if (err >= 0 && st->units_out) {
		err = list_units(&ps, priv);
		free(ps.v);
		goto out;
	}
	if (err >= 0 && st->unit) {
		err = decode_unit(&ps, priv);
	} else if (err >= 0 && !opts->packet_sink.packet && opts->jobs > 1 && b->decoder->split) {
		/* --disasm splits ranges in front of the attribution: its
		 * batches go one element at a time. */
		struct hwt_par_source src = {
			.n = ps.n, .load = piece_load, .before = piece_before,
			.after = piece_after, .setup = piece_setup,
			.send = dis ? NULL : piece_send, .arg = &ps,
			.edges = hwt_decode_edges_op(b, opts) ? opts->edges
							      : NULL};
		params.sink = &dsink;
		err = hwt_decode_parallel(b, &params, priv, &msink, &src,
					  opts->jobs);
	} else {
		for (size_t i = 0; i < ps.n && err >= 0; i++) {
			struct hwt_aux_chunk chunk;
			void *owned = NULL;
			err = piece_load(&ps, i, &chunk, &owned);
			if (err >= 0)
				err = piece_before(&ps, i);
			if (err < 0) {
				free(owned);
				break;
			}
			if (opts->packet_sink.packet) {
				const struct hwt_aux_piece *pc = ps.v[i].pc;
				struct hwt_packet_rec rec = {
					.type = HWT_PACKET_REC_AUX_BUFFER,
					.backend = b->name,
					.has_offset = true,
					.offset = pc->offset,
					.aux_idx = ps.v[i].q->idx,
					.aux_cpu = chunk.cpu,
					.aux_tid = ps.v[i].tid,
					.aux_size = pc->size,
				};
				err = opts->packet_sink.packet(opts->packet_sink.arg,
							       &rec);
				if (err >= 0)
					err = b->decoder->packets(&params, &chunk,
								  &opts->packet_sink);
				free(owned);
				continue;
			}
			if (!ps.v[i].queue_first && b->decoder->reset)
				b->decoder->reset(priv);
			err = hwt_decode_feed(b, priv, &chunk, opts);
			free(owned);
			if (err >= 0)
				err = piece_after(&ps, i);
		}
	}
	free(ps.v);
	if (err >= 0 && priv && b->decoder->flush)
		err = b->decoder->flush(priv);
	if (err >= 0)
		err = hwt_ctx_sink_end(&cs);
	if (err >= 0 && !opts->packet_sink.packet) {
		hwt_progress_finish(&pr);
		err = flush_losses(st, -1, UINT64_MAX, done, NULL, out);
	}
	if (err >= 0 && cs.ambiguous)
		err = hwt_decode_warn(opts, out, "%" PRIu64 " elements ran across "
				      "a context switch that the trace's times "
				      "do not place: their task is left out and "
				      "they are marked ambiguous (docs/decode.md, "
				      "\"Which task ran\")",
				      cs.ambiguous);
	if (err >= 0 && !opts->packet_sink.packet)
		err = hwt_decode_filter_report(&filter, user_sink);
out:
	st->decode_errors += cs.errors;
	if (priv && b->decoder->destroy)
		b->decoder->destroy(priv);
	hwt_ctx_sink_free(&cs);
	hwt_disasm_free(dis);
	free(done);
	return err;
}

/* The ISA of the recording machine, from the file's arch feature: that of
 * the code its branch-record hardware (LBR, BRBE) saw. */
static enum hwt_isa isa_of(struct hwt_pd_reader *reader)
{
	char arch[64];
	if (hwt_pd_reader_feature_string(reader, HWT_PD_FEAT_ARCH, arch,
					 sizeof(arch)) < 0)
		return HWT_ISA_UNKNOWN;
	if (!strcmp(arch, "x86_64"))
		return HWT_ISA_X86_64;
	if (!strcmp(arch, "aarch64") || !strcmp(arch, "arm64"))
		return HWT_ISA_A64;
	return HWT_ISA_UNKNOWN;
}

/* Each AUX sample's window alone, into a SAMPLE element, or with
 * --virtual-lbr into branch-stack records. */
static int decode_samples(struct file_state *st, const struct hwt_backend *b,
			  const struct hwt_elem_sink *user_sink)
{
	struct hwt_decode_filter filter = {.opts = st->opts, .next = user_sink};
	struct hwt_elem_sink fsink = hwt_decode_filter_sink(&filter);
	const struct hwt_elem_sink *out =
		hwt_decode_has_filter(st->opts) ? &fsink : user_sink;
	struct hwt_decode_params params = {
		.size = sizeof(params),
		.info = st->info,
		.info_words = st->info_words,
		.cpu_model = st->opts->cpu_model,
		.pid_at = hwt_sideband_pid_at,
		.pid_at_arg = &st->sb,
		.aux_attr = aux_attr(st->reader),
	};
	struct hwt_sample_vlbr vl;
	memset(&vl, 0, sizeof(vl));
	vl.n = st->opts->virtual_lbr;
	int err = 0;
	if (vl.n)
		/* The trace's ISA, not the arch header's: an Intel PT or
		 * BTS capture written on an arm64 host holds x86-64 code. */
		err = hwt_brstack_code_new(st->image,
					   hwt_backend_code_isa(b, &params),
					   &vl.code);
	if (err >= 0)
		err = hwt_sample_store_decode(&st->samples, st->reader, b,
					      &params, st->image,
					      vl.n ? &vl : NULL, out);
	hwt_brstack_code_free(vl.code);
	if (err >= 0 && vl.short_stacks)
		err = hwt_decode_warn(st->opts, out, "virtual LBR: %" PRIu64
				      " of the %" PRIu64 " AUX samples have "
				      "fewer than %u taken branches in their "
				      "window (%" PRIu64 " of them none: no sync "
				      "point, or no branch after it); their "
				      "stacks are shorter",
				      vl.short_stacks, vl.samples, vl.n,
				      vl.empty);
	if (err >= 0 && vl.br.no_code)
		err = hwt_decode_warn(st->opts, out, "virtual LBR: %" PRIu64
				      " of the %" PRIu64 " ranges between "
				      "branches have no range element: their "
				      "code is not in the memory image",
				      vl.br.no_code, vl.br.no_code +
				      vl.br.ranges + vl.br.not_straight);
	return err;
}

/* Each branch-stack sample's records (and, when no trace event left
 * losses to place in its streams, the records lost) to the sink. */
static int decode_brstack(struct file_state *st,
			  const struct hwt_elem_sink *user_sink)
{
	struct hwt_decode_filter filter = {.opts = st->opts, .next = user_sink};
	struct hwt_elem_sink fsink = hwt_decode_filter_sink(&filter);
	const struct hwt_elem_sink *out =
		hwt_decode_has_filter(st->opts) ? &fsink : user_sink;
	/* The streams said, the time-ordered merge passes the elements of
	 * a capture of one CPU (or thread) straight on instead of keeping
	 * them to order; losses of their own make another stream. */
	bool losses = !st->have_info && st->sb.nloss;
	/* With trace, the AUX queues' decode said it for both. */
	if (!st->have_info) {
		int werr = warn_cpu_absent(st, out);
		if (werr < 0)
			return werr;
	}
	struct hwt_progress pr = {0};
	hwt_progress_start(&pr, st->opts, st->brstack.bytes,
			   hwt_brstack_store_streams(&st->brstack) + losses);
	struct hwt_brstack_stats bst;
	int err = hwt_brstack_store_decode(&st->brstack, st->reader, st->image,
					   isa_of(st->reader), out, &bst);
	if (err >= 0)
		hwt_progress_finish(&pr);
	if (err >= 0 && losses) {
		bool *done = calloc(st->sb.nloss, sizeof(*done));
		if (!done)
			return hwt_error(HWT_ERR_NOMEM, "out of memory");
		err = flush_losses(st, -1, UINT64_MAX, done, NULL, out);
		free(done);
	}
	if (err >= 0 && hwt_decode_has_filter(st->opts))
		err = hwt_decode_filter_report(&filter, user_sink);
	if (err >= 0 && bst.no_code)
		err = hwt_decode_warn(st->opts, out, "%" PRIu64 " of the %" PRIu64
				      " ranges between branch records have no "
				      "range element: their code is not in the "
				      "memory image (binaries not found; give "
				      "--symfs DIR); profiles still count them "
				      "from the records",
				      bst.no_code, bst.no_code + bst.ranges +
				      bst.not_straight);
	return err;
}

/* What the records told, copied out of @st for hwt_capture. */
static int fill_facts(struct file_state *st, const struct hwt_backend *b)
{
	struct hwt_file_facts *f = st->facts;
	/* A capture of branch records alone needs no backend. */
	f->backend = b ? b->name : "branch_records";
	f->image = hwt_image_ref(st->image);
	size_t nsec = hwt_image_count(st->image);
	f->build_ids = calloc(nsec ? nsec : 1, sizeof(*f->build_ids));
	f->threads = malloc((st->sb.nthreads ? st->sb.nthreads : 1) *
			    sizeof(*f->threads));
	f->queues = calloc(st->queues.n ? st->queues.n : 1, sizeof(*f->queues));
	if (!f->build_ids || !f->threads || !f->queues)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	for (size_t i = 0; i < st->check.n; i++) {
		const struct hwt_image_expect *e = &st->check.v[i];
		if (e->section < nsec) {
			f->build_ids[e->section].size = e->size;
			memcpy(f->build_ids[e->section].id, e->id, e->size);
		}
	}
	/* A missing file's build id, which no check noted: its MMAP2
	 * record's, else the header's (as add_mapping looks it up). */
	for (size_t i = 0; i < nsec; i++) {
		const struct hwt_image_section *sec = hwt_image_section(st->image, i);
		struct hwt_file_build_id *id = &f->build_ids[i];
		for (size_t k = 0; !id->size && sec->path && k < st->nimg_events; k++) {
			const struct image_event *ev = &st->img_events[k];
			if (ev->has_build_id && ev->pid == sec->pid &&
			    ev->start == sec->vaddr && !strcmp(ev->name, sec->path)) {
				id->size = (uint8_t)ev->build_id_size;
				memcpy(id->id, ev->build_id, ev->build_id_size);
			}
		}
		size_t size = 0;
		const uint8_t *hid = id->size || !sec->path ? NULL :
			header_build_id(st, strncmp(sec->path, "[kernel.kallsyms]", 17)
						    ? sec->path : "[kernel.kallsyms]", &size);
		if (hid) {
			id->size = (uint8_t)size;
			memcpy(id->id, hid, size);
		}
	}
	for (size_t i = 0; i < st->sb.nthreads; i++)
		f->threads[f->nthreads++] = st->sb.threads[i];
	for (size_t i = 0; i < st->queues.n; i++) {
		const struct hwt_aux_queue *q = &st->queues.q[i];
		struct hwt_file_queue *fq = &f->queues[f->nqueues++];
		fq->idx = q->idx;
		fq->cpu = q->cpu == (int32_t)UINT32_MAX ? -1 : q->cpu;
		fq->tid = q->tid == (int32_t)UINT32_MAX ? -1 : q->tid;
		fq->bytes = q->bytes;
		fq->pieces = calloc(q->npieces ? q->npieces : 1, sizeof(*fq->pieces));
		if (!fq->pieces)
			return hwt_error(HWT_ERR_NOMEM, "out of memory");
		for (size_t j = 0; j < q->npieces; j++)
			fq->pieces[fq->npieces++] = (struct hwt_file_piece){
				q->pieces[j].offset, q->pieces[j].size,
				aux_time_of(st, fq->cpu, fq->tid, q->pieces[j].offset)};
	}
	f->lost_records = st->lost_records;
	for (size_t i = 0; i < st->sb.nloss; i++) {
		const struct hwt_elem *e = &st->sb.loss[i].elem;
		if (e->type == HWT_ELEM_ERROR)
			f->trace_errors++;
		else if (e->u.gap.reason == HWT_GAP_TRUNCATED)
			f->truncated++;
		else if (e->u.gap.reason == HWT_GAP_COLLISION)
			f->collisions++;
		else if (e->u.gap.reason == HWT_GAP_LOST)
			f->lost_events++;
	}
	f->samples = st->samples.n;
	return 0;
}

void hwt_file_facts_free(struct hwt_file_facts *f)
{
	if (!f)
		return;
	hwt_image_free(f->image);
	free(f->build_ids);
	for (size_t i = 0; i < f->nnames; i++)
		free(f->names[i].name);
	free(f->names);
	free(f->threads);
	for (size_t i = 0; i < f->nqueues; i++)
		free(f->queues[i].pieces);
	free(f->queues);
	hwt_pd_threads_free(&f->threads_sb);
	memset(f, 0, sizeof(*f));
}

/* hwt_decode_file, or (with @mode) one of its other uses: the facts,
 * one unit, the list of units (the mode's fields of struct file_state). */
static int run_file(const char *path, const struct hwt_decode_opts *opts_in,
		    const struct hwt_elem_sink *sink,
		    const struct file_state *mode)
{
	struct hwt_file_facts *facts = mode ? mode->facts : NULL;
	struct hwt_decode_opts opts;
	struct file_state st;
	struct hwt_pd_reader *reader = NULL;
	struct hwt_pd_record rec;

	if (!path || (!sink && !facts && !hwt_decode_opts_list_packets(opts_in)))
		return hwt_error(HWT_ERR_INVAL, "hwt_decode_file: missing argument");
	int err = hwt_decode_opts_copy(opts_in, &opts);
	if (err >= 0)
		err = hwt_decode_packet_filters_check(&opts, NULL);
	if (err < 0)
		return err;
	memset(&st, 0, sizeof(st));
	st.path = path;
	st.opts = &opts;
	if (mode) {
		st.facts = mode->facts;
		st.unit = mode->unit;
		st.unit_last = mode->unit_last;
		st.units_out = mode->units_out;
		st.nunits_out = mode->nunits_out;
	}
	st.image = hwt_image_new();
	if (!st.image)
		return hwt_error(HWT_ERR_NOMEM, "out of memory for the image");

	err = hwt_pd_reader_open(path, &reader);
	if (err < 0)
		goto out;
	st.reader = reader;
	{
		const void *fdata;
		uint64_t flen;
		st.stream_aux = !hwt_pd_reader_is_pipe(reader) &&
				hwt_pd_reader_feature(reader, HWT_PD_FEAT_COMPRESSED,
						      &fdata, &flen) < 0;
		hwt_pd_reader_set_load_aux(reader, !st.stream_aux);
	}
	/* A file cut short or damaged part way is decoded up to the damage;
	 * the reader's error is returned afterwards. */
	int read_err = 0;
	char read_msg[512] = "";
	while ((err = hwt_pd_reader_next(reader, &rec)) > 0) {
		if (facts && (rec.sid.present & PERF_SAMPLE_TIME)) {
			uint64_t t = rec.sid.time;
			if (!facts->have_time || t < facts->first_time)
				facts->first_time = t;
			if (!facts->have_time || t > facts->last_time)
				facts->last_time = t;
			facts->have_time = true;
		}
		if (facts && (err = hwt_pd_threads_add(&facts->threads_sb, &rec)) < 0)
			goto out;
		err = on_record(&st, &rec);
		if (err < 0)
			goto out;
	}
	if (err < 0) {
		read_err = err;
		snprintf(read_msg, sizeof(read_msg), "%s", hwt_errmsg());
		err = 0;
		if (!st.have_info && !st.brstack.n) {
			err = hwt_error(read_err, "%s", read_msg);
			goto out;
		}
	}

	/* After the records: in pipe mode the features come among them. */
	char cpu_model[48];
	if (!opts.cpu_model) {
		cpu_from_header(reader, cpu_model, sizeof(cpu_model));
		if (cpu_model[0])
			opts.cpu_model = cpu_model;
	}
	if ((err = build_image(&st)) < 0)
		goto out;
	if (opts.kcore && (err = hwt_decode_add_kcore(st.image, opts.kcore)) < 0)
		goto out;
	if (!st.have_info && !st.brstack.n) {
		err = hwt_error(HWT_ERR_NOENT,
				"%s holds no AUXTRACE_INFO record and no "
				"branch-stack samples: it was not recorded with "
				"a hardware trace event or branch records (perf "
				"record -b)", path);
		goto out;
	}
	if (!st.have_info && opts.packet_sink.packet) {
		err = hwt_error(HWT_ERR_NOSUP, "%s: branch records have no "
				"packets to list (it holds no trace stream)", path);
		goto out;
	}
	/* A capture of branch records alone has no backend. */
	const struct hwt_backend *b = NULL;
	if (st.have_info &&
	    !(b = hwt_backend_for_auxtrace((enum hwt_auxtrace_type)st.auxtrace_type))) {
		err = hwt_error(HWT_ERR_NOSUP,
				"%s: no backend decodes AUXTRACE type %" PRIu32,
				path, st.auxtrace_type);
		goto out;
	}
	if (b && (err = hwt_decode_find_backend(b->name, &b)) < 0)
		goto out;
	if (b)
		err = hwt_image_check_run(&st.check, st.image,
					  (enum hwt_auxtrace_type)st.auxtrace_type,
					  &opts);
	if (err < 0)
		goto out;
	if (b && opts.packet_sink.packet && !b->decoder->packets) {
		err = hwt_error(HWT_ERR_NOSUP, "%s: no packet listing", b->name);
		goto out;
	}
	/* A per-CPU buffer that names a task belongs to a trace event that
	 * follows tasks (perf writes the traced pid as its tid). */
	for (size_t i = 0; i < st.queues.n; i++)
		st.sb.per_task |= st.queues.q[i].cpu != (int32_t)UINT32_MAX &&
				  st.queues.q[i].tid != (int32_t)UINT32_MAX;
	if ((err = hwt_sideband_finish(&st.sb)) < 0)
		goto out;
	if (facts) {
		err = fill_facts(&st, b);
		if (err >= 0)
			err = hwt_pd_threads_finish(&facts->threads_sb, reader);
		goto out;
	}
	if ((st.unit || st.units_out) && st.samples.n) {
		err = hwt_error(HWT_ERR_NOSUP, "%s holds AUX samples: their windows "
				"are not cut into units", path);
		goto out;
	}
	if (opts.on_image)
		opts.on_image(opts.on_image_arg, st.image);
	/* --branch-profile: count the branches on their way to the sink. */
	struct hwt_profile_sink ps = {NULL, sink};
	struct hwt_elem_sink psink;
	if (opts.branch_count_sink.branch && !opts.packet_sink.packet) {
		ps.p = hwt_branch_profile_new();
		if (!ps.p) {
			err = hwt_error(HWT_ERR_NOMEM, "out of memory for the profile");
			goto out;
		}
		psink = hwt_profile_sink(&ps);
		sink = &psink;
	}
	/* Intel PT without a CPU model: libipt applies no errata
	 * workarounds, and a CPU's erratum reads as a decode error. */
	bool no_model = b && !opts.cpu_model && !opts.packet_sink.packet &&
			b->auxtrace_type == HWT_AUXTRACE_INTEL_PT;
	err = 0;
	if (hwt_pd_reader_cut_short(reader))
		err = hwt_decode_warn(&opts, sink, "%s was cut short while it was "
				      "recorded (the disk filled up): its trace "
				      "ends early, and the decode ends with it",
				      path);
	/* A worker lost by an isolated decoder fails the decode at its end,
	 * after the rest of the capture. */
	int lost = 0;
	char lost_msg[1024] = "";
	if (err >= 0 && b && hwt_isolate_wanted(b, &opts)) {
		struct hwt_isolation *iso = NULL;
		err = hwt_isolation_open(b, &opts, &iso);
		if (err >= 0)
			err = decode_queues(&st, hwt_isolation_backend(iso), sink);
		lost = hwt_isolation_close(iso, 0);
		if (lost < 0)
			snprintf(lost_msg, sizeof(lost_msg), "%s", hwt_errmsg());
	} else if (err >= 0 && b) {
		err = decode_queues(&st, b, sink);
	}
	if (st.units_out) {
		/* Branch records alone have no AUX queue, hence no unit:
		 * the capture is decoded whole. */
		if (!b) {
			*st.units_out = NULL;
			*st.nunits_out = 0;
		}
		goto out;
	}
	if (b && err >= 0 && st.samples.n && !opts.packet_sink.packet)
		err = decode_samples(&st, b, sink);
	else if (err >= 0 && opts.virtual_lbr && !opts.packet_sink.packet)
		err = hwt_decode_warn(&opts, sink, "--virtual-lbr: %s has no AUX "
				      "samples (samples that carry trace: "
				      "record with --aux-sample), so there is "
				      "no stack to make; it was decoded as it "
				      "is", path);
	if (err >= 0 && st.brstack.n && !opts.packet_sink.packet)
		err = decode_brstack(&st, sink);
	if (err >= 0 && hwt_image_untimed_hits(st.image))
		err = hwt_decode_warn(&opts, sink, "code was read without the "
				      "time it ran (or at a time after its "
				      "mappings ended) at an address whose mapping "
				      "changed during the capture (exec, or code "
				      "unmapped and mapped again): the latest "
				      "mapping there was used, which may not be "
				      "the code that ran");
	if (err >= 0 && no_model && st.decode_errors)
		err = hwt_decode_warn(&opts, sink, "%s names no CPU (it has no "
				      "cpuid feature%s), so no errata workarounds "
				      "were applied, and the decode gave %" PRIu64
				      " errors: give --cpu-model FAMILY/MODEL/STEPPING "
				      "of the traced CPU", path,
				      read_err ? ": the file is cut short before its "
				      "feature sections" : "", st.decode_errors);
	if (err >= 0 && ps.p)
		err = hwt_branch_profile_emit(ps.p, st.image, opts.name_addr,
					      opts.name_addr_arg,
					      &opts.branch_count_sink);
	hwt_branch_profile_free(ps.p);
	if (err >= 0 && read_err)
		err = hwt_error(read_err, "%s (the trace before it was decoded)",
				read_msg);
	if (err >= 0 && lost < 0)
		err = hwt_error(lost, "%s", lost_msg);
out:
	hwt_pd_reader_free(reader);
	hwt_aux_queues_free(&st.queues);
	hwt_sample_store_free(&st.samples);
	hwt_brstack_store_free(&st.brstack);
	aux_causes_free(&st.causes);
	hwt_sideband_free(&st.sb);
	hwt_image_check_free(&st.check);
	free_image_events(&st);
	hwt_image_free(st.image);
	free(st.info);
	free(st.aux_formats);
	free(st.hw_ids);
	free(st.aux_writes);
	return err < 0 ? err : 0;
}

int hwt_decode_file(const char *path, const struct hwt_decode_opts *opts,
		    const struct hwt_elem_sink *sink)
{
	return run_file(path, opts, sink, NULL);
}

int hwt_decode_file_facts(const char *path, const struct hwt_decode_opts *opts,
			  struct hwt_file_facts *facts)
{
	memset(facts, 0, sizeof(*facts));
	int err = run_file(path, opts, NULL, &(struct file_state){.facts = facts});
	if (err < 0)
		hwt_file_facts_free(facts);
	return err;
}

int hwt_decode_file_unit(const char *path, const struct hwt_decode_opts *opts,
			 const struct hwt_elem_sink *sink,
			 const struct hwt_capture_unit *unit, bool last)
{
	return run_file(path, opts, sink,
			&(struct file_state){.unit = unit, .unit_last = last});
}

static int drop(void *arg, const struct hwt_elem *e)
{
	return 0;
}

int hwt_decode_file_units(const char *path, const struct hwt_decode_opts *opts,
			  struct hwt_capture_unit **units, size_t *n)
{
	struct hwt_elem_sink none = {drop, NULL};
	*units = NULL;
	*n = 0;
	return run_file(path, opts, &none,
			&(struct file_state){.units_out = units, .nunits_out = n});
}
