/* sw_branch captures through the capture engine: the stepping engine is
 * the live source of an emulated AUX PMU laid out as intel_bts (one
 * per-thread stream per traced thread, paced so nothing is lost), and a
 * capture session per thread reads its rings into perf.data as
 * hwtrace record reads a kernel's. The sideband is what perf synthesizes
 * for a process at exec (COMM, MMAP2 of its executable mappings) followed
 * by what the kernel writes for a dummy event on it, each record pushed
 * into the emulated data ring; the emulated driver adds ITRACE_START and
 * a PERF_RECORD_AUX per write. */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "backends/sw-branch/swb_buildid.h"
#include "backends/sw-branch/swb_sideband.h"
#include "backends/sw-branch/swb_trace.h"
#include "backends/sw-branch/swb_window.h"
#include "hwtrace/bts_format.h"
#include "hwtrace/backend.h"
#include "hwtrace/elfid.h"
#include "hwtrace/emulator.h"
#include "hwtrace/error.h"
#include "hwtrace/perfdata.h"
#include "hwtrace/session.h"

/* The perf event type the capture declares for its trace event, and the
 * emulated PMU's. There is no kernel PMU behind it; the decoder matches
 * the event by this number (AUXTRACE_INFO priv[0]), as perf does. */
#define SWB_PMU_TYPE HWT_BTS_SW_BRANCH_PMU_TYPE
/* Sample ids when the kernel gives none (no sideband event): */
#define SWB_AUX_ID 1
#define SWB_DUMMY_ID 2
#define SWB_SAMPLE_TYPE (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
			 PERF_SAMPLE_IDENTIFIER)
#define DEFAULT_CHUNK (64u * 1024)
#define DEFAULT_DATA_PAGES 128u
#define DEFAULT_SNAPSHOT_RECORDS 16384u

struct sample_id {
	uint32_t pid, tid;
	uint64_t time;
	uint64_t id;
};

/* One traced thread: the stepper's chunk not yet pushed, and the capture
 * thread's session on its stream. */
struct swb_thread {
	pid_t tid;
	uint32_t idx;
	uint8_t *chunk;
	size_t len;
	struct hwt_session *s;   /* capture thread only */
	bool done;               /* its stream ended and was read (lock) */
	struct swb_out *o;
};

struct swb_out {
	struct hwt_pd_writer *w;
	const struct hwt_swb_opts *opts;
	pid_t pid;
	pid_t sb_tid;    /* whose stream sideband records go into; 0: pid's */
	struct hwt_swb_sideband sb;   /* the kernel's sideband, when it opened */
	bool kernel_sideband;
	uint64_t aux_id, dummy_id;
	struct hwt_swb_maps written;  /* executable mappings written so far */
	struct hwt_swb_binaries binaries; /* every file mapped executable */
	size_t cap;      /* chunk size: one write of the emulated trace unit */
	uint32_t data_pages, aux_pages;
	struct hwt_emu *emu;
	struct hwt_writer_sink *wsink;
	struct hwt_capture_sink sink;
	/* Shared with the capture thread, under lock: */
	pthread_mutex_t lock;
	pthread_cond_t done_cond;     /* a thread's stream was read to its end */
	struct swb_thread **threads;
	size_t nthreads;
	bool closed;                  /* every stream was closed */
	/* The capture thread's: */
	pthread_t capture;
	bool capture_running;
	bool capture_ended;           /* lock */
	int capture_err;
	char capture_msg[1024];
	struct hwt_swb_stats *stats;
	/* The flight recorder (opts->trigger): what is kept in memory, the
	 * sideband event's attribute for each window's file, and how many
	 * windows were written. */
	bool snapshot;
	struct hwt_swb_window win;
	struct perf_event_attr dummy;
	unsigned windows;
};

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void put_sid(uint8_t *p, pid_t pid, uint64_t id)
{
	struct sample_id s = {(uint32_t)pid, (uint32_t)pid, now_ns(), id};
	memcpy(p, &s, sizeof(s));
}

/* A sideband record into the data ring of the main thread's stream (of
 * a new thread's, for what led up to its start). */
static int emit(struct swb_out *o, const void *rec)
{
	if (o->snapshot)
		return hwt_swb_window_sideband(&o->win, rec);
	return hwt_emu_stream_push_record(o->emu, -1,
					  o->sb_tid ? o->sb_tid : o->pid, rec);
}

/* The AUXTRACE_INFO of perf's intel_bts: pmu type, time conversion (here
 * the identity: our "TSC" is perf time), and snapshot mode. */
static int write_info(struct hwt_pd_writer *w)
{
	struct {
		struct perf_event_header h;
		uint32_t type, reserved;
		uint64_t priv[HWT_BTS_INFO_WORDS];
	} rec;

	memset(&rec, 0, sizeof(rec));
	rec.h.type = HWT_PD_RECORD_AUXTRACE_INFO;
	rec.h.size = sizeof(rec);
	rec.type = HWT_AUXTRACE_INTEL_BTS;
	rec.priv[HWT_BTS_INFO_PMU_TYPE] = SWB_PMU_TYPE;
	rec.priv[HWT_BTS_INFO_TIME_SHIFT] = 0;
	rec.priv[HWT_BTS_INFO_TIME_MULT] = 1;
	rec.priv[HWT_BTS_INFO_TIME_ZERO] = 0;
	rec.priv[HWT_BTS_INFO_CAP_USER_TIME_ZERO] = 1;
	rec.priv[HWT_BTS_INFO_SNAPSHOT_MODE] = 0;
	return hwt_pd_writer_record(w, &rec);
}

static int write_comm(struct swb_out *o, pid_t pid, const char *exe)
{
	uint8_t rec[sizeof(struct perf_event_header) + 8 + 16 +
		    sizeof(struct sample_id)];
	struct perf_event_header *h = (void *)rec;
	char name[64] = "", path[64];

	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	FILE *f = fopen(path, "re");
	if (f) {
		if (fgets(name, sizeof(name), f))
			name[strcspn(name, "\n")] = 0;
		fclose(f);
	}
	if (!name[0]) {
		const char *slash = strrchr(exe, '/');
		snprintf(name, sizeof(name), "%s", slash ? slash + 1 : exe);
	}
	memset(rec, 0, sizeof(rec));
	h->type = PERF_RECORD_COMM;
	h->size = sizeof(rec);
	uint32_t ids[2] = {(uint32_t)pid, (uint32_t)pid};
	memcpy(rec + sizeof(*h), ids, 8);
	memcpy(rec + sizeof(*h) + 8, name, strnlen(name, 15));
	put_sid(rec + sizeof(*h) + 24, pid, o->dummy_id);
	return emit(o, rec);
}

static int write_mmap2(struct swb_out *o, pid_t pid, const struct hwt_swb_map *m,
		       const char *name)
{
	uint8_t rec[sizeof(struct perf_event_header) + 64 + 4096 +
		    sizeof(struct sample_id)];
	struct perf_event_header *h = (void *)rec;
	size_t nlen = strlen(name) + 1, padded = (nlen + 7) & ~(size_t)7;
	uint8_t *p = rec + sizeof(*h);

	if (padded > 4096)
		return 0; /* perf would truncate it too; the range stays unnamed */
	memset(rec, 0, sizeof(rec));
	h->type = PERF_RECORD_MMAP2;
	h->misc = PERF_RECORD_MISC_USER;
	uint32_t ids[2] = {(uint32_t)pid, (uint32_t)pid};
	uint64_t geom[3] = {m->start, m->end - m->start, m->offset};
	uint32_t dev[2] = {m->maj, m->min};
	uint64_t ino[2] = {m->ino, 0};
	uint32_t prot = 0, flags = m->prot[3] == 's' ? MAP_SHARED : MAP_PRIVATE;
	prot |= m->prot[0] == 'r' ? PROT_READ : 0;
	prot |= m->prot[1] == 'w' ? PROT_WRITE : 0;
	prot |= m->prot[2] == 'x' ? PROT_EXEC : 0;
	memcpy(p, ids, 8); p += 8;
	memcpy(p, geom, 24); p += 24;
	/* The build id in place of device and inode, as the kernel writes
	 * MMAP2 for an event with build_id set, when the file has one. */
	struct hwt_elf_id id;
	if (hwt_elf_id_from_file(name, &id) == 1 && id.build_id_size) {
		h->misc |= PERF_RECORD_MISC_MMAP_BUILD_ID;
		p[0] = id.build_id_size;
		memcpy(p + 4, id.build_id, id.build_id_size);
		p += 24;
	} else {
		hwt_error_clear();
		memcpy(p, dev, 8); p += 8;
		memcpy(p, ino, 16); p += 16;
	}
	memcpy(p, &prot, 4); p += 4;
	memcpy(p, &flags, 4); p += 4;
	memcpy(p, name, nlen); p += padded;
	put_sid(p, pid, o->dummy_id);
	p += sizeof(struct sample_id);
	h->size = (uint16_t)(p - rec);
	return emit(o, rec);
}

static bool written(const struct swb_out *o, const struct hwt_swb_map *m)
{
	for (size_t i = 0; i < o->written.n; i++) {
		const struct hwt_swb_map *w = &o->written.v[i];
		if (w->start == m->start && w->end == m->end &&
		    !strcmp(w->path, m->path))
			return true;
	}
	return false;
}

/* MMAP2 records for the executable file mappings of @maps not written
 * yet (the vDSO has no file to decode from and stays unnamed). */
static int write_new_mappings(struct swb_out *o, pid_t pid,
			      const struct hwt_swb_maps *maps)
{
	int err;

	for (size_t i = 0; i < maps->n; i++) {
		const struct hwt_swb_map *m = &maps->v[i];
		if (!m->exec || !m->path || written(o, m))
			continue;
		if ((err = write_mmap2(o, pid, m, m->path)))
			return err;
		void *n = realloc(o->written.v, (o->written.n + 1) *
				  sizeof(*o->written.v));
		if (!n)
			return hwt_error(HWT_ERR_NOMEM, "out of memory for sw_branch");
		o->written.v = n;
		struct hwt_swb_map *w = &o->written.v[o->written.n];
		*w = *m;
		w->path = strdup(m->path);
		if (!w->path)
			return hwt_error(HWT_ERR_NOMEM, "out of memory for sw_branch");
		o->written.n++;
	}
	return 0;
}

static int copy_record(void *arg, const struct perf_event_header *h)
{
	return emit(arg, h);
}

/* The sideband the kernel wrote since the last call, or, without the
 * kernel's event, records made from /proc/PID/maps as perf synthesizes
 * them for a running process. */
static int sideband(struct swb_out *o, pid_t pid, const struct hwt_swb_maps *maps)
{
	int err = hwt_swb_binaries_note(&o->binaries, maps);
	if (err)
		return err;
	if (o->kernel_sideband)
		return hwt_swb_sideband_drain(&o->sb, copy_record, o);
	return maps ? write_new_mappings(o, pid, maps) : 0;
}

static void dummy_attr(struct perf_event_attr *a)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = PERF_TYPE_SOFTWARE;
	a->config = PERF_COUNT_SW_DUMMY;
	a->sample_period = 1;
	a->sample_type = SWB_SAMPLE_TYPE;
	a->sample_id_all = 1;
	a->exclude_kernel = 1;
	a->exclude_hv = 1;
	a->mmap = 1;
	a->mmap2 = 1;
	a->comm = 1;
	a->task = 1;
	/* The same clock as the AUXTRACE references and synthesized records. */
	a->use_clockid = 1;
	a->clockid = CLOCK_MONOTONIC;
}

static int add_attrs(struct swb_out *o, struct hwt_pd_writer *w,
		     const struct perf_event_attr *dummy)
{
	struct perf_event_attr a;
	int err;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = SWB_PMU_TYPE;
	a.sample_period = 1;
	a.sample_type = SWB_SAMPLE_TYPE;
	a.sample_id_all = 1;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	a.disabled = 1;
	a.enable_on_exec = 1;
	a.use_clockid = 1;
	a.clockid = CLOCK_MONOTONIC;
	if ((err = hwt_pd_writer_add_attr(w, &a, &o->aux_id, 1, "sw_branch//u")))
		return err;
	return hwt_pd_writer_add_attr(w, dummy, &o->dummy_id, 1, "dummy:u");
}

/* Whether the capture thread has ended with an error (then the stepper
 * stops: nothing it pushes would be written). */
static int capture_error(struct swb_out *o)
{
	int err;

	pthread_mutex_lock(&o->lock);
	err = o->capture_err;
	pthread_mutex_unlock(&o->lock);
	return err;
}

/* The AUXTRACE buffers of thread @ctx: its own queue index, as perf
 * numbers per-thread queues. */
static int thread_aux(void *ctx, const struct hwt_pd_auxtrace *hdr,
		      const void *d1, uint64_t l1, const void *d2)
{
	struct swb_thread *th = ctx;
	struct hwt_pd_auxtrace h = *hdr;

	h.idx = th->idx;
	return th->o->sink.auxtrace(th->o->sink.ctx, &h, d1, l1, d2);
}

static int thread_record(void *ctx, const struct perf_event_header *h)
{
	struct swb_thread *th = ctx;
	return th->o->sink.record(th->o->sink.ctx, h);
}

static int open_session(struct swb_out *o, struct swb_thread *th)
{
	struct hwt_session_opts so;
	int err;

	memset(&so, 0, sizeof(so));
	so.size = sizeof(so);
	so.os = hwt_emu_os(o->emu);
	so.aux = true;
	memset(&so.aux_attr, 0, sizeof(so.aux_attr));
	so.aux_attr.size = sizeof(so.aux_attr);
	so.aux_attr.type = SWB_PMU_TYPE;
	so.aux_attr.sample_period = 1;
	so.aux_attr.sample_type = SWB_SAMPLE_TYPE;
	so.aux_attr.sample_id_all = 1;
	so.aux_attr.exclude_kernel = 1;
	so.aux_attr.exclude_hv = 1;
	so.aux_attr_as_is = true;
	so.backend = hwt_backend_for_auxtrace(HWT_AUXTRACE_INTEL_BTS);
	so.pid = th->tid;
	so.per_thread = true;
	so.data_pages = o->data_pages;
	so.aux_pages = o->aux_pages;
	so.sink = (struct hwt_capture_sink){th, thread_record, thread_aux};
	if ((err = hwt_session_new(&so, &th->s)) < 0)
		return err;
	return hwt_session_open(th->s);
}

/* The capture thread: a session per traced thread, opened as the thread
 * appears, read until its stream ends. */
static void *capture_main(void *arg)
{
	struct swb_out *o = arg;
	int err = 0;

	for (;;) {
		bool closed, active = false;
		size_t n;

		pthread_mutex_lock(&o->lock);
		n = o->nthreads;
		closed = o->closed;
		pthread_mutex_unlock(&o->lock);
		uint64_t before = hwt_pd_writer_data_size(o->w);
		for (size_t i = 0; i < n && !err; i++) {
			pthread_mutex_lock(&o->lock);
			struct swb_thread *th = o->threads[i];
			bool done = th->done;
			pthread_mutex_unlock(&o->lock);
			if (done)
				continue;
			if (!th->s && (err = open_session(o, th)) < 0)
				break;
			active = true;
			err = hwt_session_poll(th->s, n > 1 ? 2 : 20, NULL, 0);
			if (err == 1) {
				err = hwt_session_stop(th->s);
				pthread_mutex_lock(&o->lock);
				th->done = true;
				pthread_cond_broadcast(&o->done_cond);
				pthread_mutex_unlock(&o->lock);
			}
		}
		/* As perf record: a round marker after each pass that wrote. */
		if (!err && hwt_pd_writer_data_size(o->w) != before)
			err = hwt_pd_writer_finished_round(o->w);
		if (err < 0 || (closed && !active))
			break;
		if (!active) {
			struct timespec ts = {0, 2000000};
			nanosleep(&ts, NULL);
		}
	}
	pthread_mutex_lock(&o->lock);
	if (err < 0) {
		o->capture_err = err;
		snprintf(o->capture_msg, sizeof(o->capture_msg), "%s", hwt_errmsg());
	}
	o->capture_ended = true;
	pthread_cond_broadcast(&o->done_cond);
	pthread_mutex_unlock(&o->lock);
	return NULL;
}

/* The emulated trace unit writes one pushed chunk at a time, so every
 * write (and so every AUXTRACE buffer) ends on a whole record; its AUX
 * ring holds at least two. */
static void size_rings(struct swb_out *o)
{
	long page = sysconf(_SC_PAGESIZE);
	uint64_t aux;

	o->data_pages = o->opts->data_pages ? o->opts->data_pages
					    : DEFAULT_DATA_PAGES;
	o->aux_pages = o->opts->aux_pages;
	if (!o->aux_pages) {
		o->aux_pages = 1;
		while ((uint64_t)o->aux_pages * (uint64_t)page < 2 * o->cap)
			o->aux_pages *= 2;
	}
	aux = (uint64_t)o->aux_pages * (uint64_t)page;
	if (o->cap > aux / 2)
		o->cap = (size_t)(aux / 2);
	o->cap -= o->cap % HWT_BTS_RECORD_SIZE;
	if (o->cap < 2 * HWT_BTS_RECORD_SIZE)
		o->cap = 2 * HWT_BTS_RECORD_SIZE;
}

static int start_capture(struct swb_out *o)
{
	struct hwt_emu_opts eo = {
		.size = sizeof(eo),
		.burst = o->cap,
		/* The stepper never waits for the reader: the emulated trace
		 * unit does, so nothing is lost. */
		.paced = true,
	};
	int err;

	if ((err = hwt_emu_new(&eo, &o->emu)) < 0 ||
	    (err = hwt_emu_add_pmu(o->emu, "sw_branch", SWB_PMU_TYPE)) < 0 ||
	    (err = hwt_emu_set_time_conv(o->emu, false)) < 0 ||
	    (err = hwt_emu_set_aux_alignment(o->emu, HWT_BTS_RECORD_SIZE)) < 0 ||
	    (err = hwt_writer_sink_new(o->w, true, &o->wsink)) < 0)
		return err;
	o->sink = hwt_writer_sink_get(o->wsink);
	return 0;
}

/* The stream of thread @tid; a new one gets its session in the capture
 * thread, and the kernel's sideband up to its start (its FORK) first. */
static int stream_of(struct swb_out *o, pid_t tid, struct swb_thread **out)
{
	for (size_t i = 0; i < o->nthreads; i++) {
		if (o->threads[i]->tid == tid) {
			*out = o->threads[i];
			return 0;
		}
	}
	struct swb_thread *th = calloc(1, sizeof(*th));
	if (!th || !(th->chunk = malloc(o->cap))) {
		free(th);
		return hwt_error(HWT_ERR_NOMEM, "out of memory for sw_branch");
	}
	th->tid = tid;
	th->o = o;
	int err = hwt_emu_stream_set_thread(o->emu, o->pid, tid, o->aux_id);
	if (!err && tid != o->pid && o->kernel_sideband) {
		o->sb_tid = tid;
		err = hwt_swb_sideband_drain(&o->sb, copy_record, o);
		o->sb_tid = 0;
	}
	pthread_mutex_lock(&o->lock);
	void *n = err ? NULL : realloc(o->threads, (o->nthreads + 1) *
				       sizeof(*o->threads));
	if (n) {
		o->threads = n;
		th->idx = (uint32_t)o->nthreads;
		o->threads[o->nthreads++] = th;
	}
	pthread_mutex_unlock(&o->lock);
	if (!n) {
		free(th->chunk);
		free(th);
		return err ? err : hwt_error(HWT_ERR_NOMEM,
					     "out of memory for sw_branch");
	}
	*out = th;
	return 0;
}

/* At exec: the kernel's sideband event (when this machine allows it), the
 * attributes, AUXTRACE_INFO, the process as it is before the dynamic
 * loader runs, and the capture of the main thread's stream. */
static int on_exec(void *arg, pid_t pid, const char *exe,
		   const struct hwt_swb_maps *maps)
{
	struct swb_out *o = arg;
	struct perf_event_attr dummy;
	struct swb_thread *th;
	int err;

	o->pid = pid;
	dummy_attr(&dummy);
	/* Build ids in the kernel's MMAP2 records (Linux 5.12 and later;
	 * an older kernel refuses the bit and gets the event without it). */
	dummy.build_id = 1;
	bool opened = !o->opts->proc_sideband &&
		      !hwt_swb_sideband_open(&o->sb, pid, &dummy);
	if (!opened && !o->opts->proc_sideband) {
		dummy.build_id = 0;
		opened = !hwt_swb_sideband_open(&o->sb, pid, &dummy);
	}
	if (!opened)
		dummy.build_id = 0;
	if (opened) {
		o->kernel_sideband = true;
		o->dummy_id = o->sb.id;
		/* Not an id of this capture's kernel event; perf's synthesized
		 * branch event takes this + 1000000000. */
		o->aux_id = o->sb.id + 1;
	} else {
		hwt_error_clear();
		o->dummy_id = SWB_DUMMY_ID;
		o->aux_id = SWB_AUX_ID;
	}
	if (o->snapshot) {
		/* Each window's file gets the attributes and AUXTRACE_INFO;
		 * the sideband is kept for all of them. */
		o->dummy = dummy;
		return (err = write_comm(o, pid, exe)) ||
		       (err = write_new_mappings(o, pid, maps)) ? err :
		       hwt_swb_binaries_note(&o->binaries, maps);
	}
	if ((err = add_attrs(o, o->w, &dummy)) || (err = write_info(o->w)) ||
	    (err = stream_of(o, pid, &th)) || (err = write_comm(o, pid, exe)) ||
	    (err = write_new_mappings(o, pid, maps)) ||
	    (err = hwt_swb_binaries_note(&o->binaries, maps)))
		return err;
	if (pthread_create(&o->capture, NULL, capture_main, o))
		return hwt_error(HWT_ERR_NOMEM, "sw_branch: no capture thread");
	o->capture_running = true;
	return 0;
}

static int on_start(void *arg, pid_t pid, const char *exe,
		    const struct hwt_swb_maps *maps)
{
	int err = capture_error(arg);
	return err ? err : sideband(arg, pid, maps);
}

/* Code mapped while the process was stepped (dlopen), described when
 * execution first reaches it. */
static int on_mapped(void *arg, pid_t pid, const struct hwt_swb_maps *maps)
{
	return sideband(arg, pid, maps);
}

/* Whatever else was mapped by the end. perf time orders synthesized
 * records after the trace, but decoders build the image from every
 * mapping before they decode, as perf does at the end of a file. */
static int on_end(void *arg, pid_t pid, const struct hwt_swb_maps *maps)
{
	return sideband(arg, pid, maps);
}

/* perf's intel_bts decoder does not look at a buffer's last 24 bytes, so
 * each write ends with one all-zero (padding) record, as the kernel's
 * driver pads its buffers with zeros. */
static int flush_chunk(struct swb_out *o, struct swb_thread *th)
{
	if (!th->len)
		return 0;
	memset(th->chunk + th->len, 0, HWT_BTS_RECORD_SIZE);
	th->len += HWT_BTS_RECORD_SIZE;
	int err = hwt_emu_stream_push_aux(o->emu, -1, th->tid, th->chunk, th->len);
	th->len = 0;
	return err ? err : capture_error(o);
}

static int on_record(void *arg, pid_t tid, const uint8_t *rec)
{
	struct swb_out *o = arg;
	struct swb_thread *th = NULL;

	if (o->snapshot)
		return hwt_swb_window_record(&o->win, tid, rec);
	int err = stream_of(o, tid, &th);
	if (err)
		return err;
	memcpy(th->chunk + th->len, rec, HWT_BTS_RECORD_SIZE);
	th->len += HWT_BTS_RECORD_SIZE;
	if (th->len + HWT_BTS_RECORD_SIZE >= o->cap)
		return flush_chunk(o, th);
	return 0;
}

static void set_features(struct hwt_pd_writer *w, const struct hwt_swb_opts *opts)
{
	struct utsname u;
	char cmdline[4096];
	size_t len = 0;

	if (!uname(&u)) {
		hwt_pd_writer_set_feature(w, HWT_PD_FEAT_HOSTNAME, u.nodename,
					  strlen(u.nodename) + 1);
		hwt_pd_writer_set_feature(w, HWT_PD_FEAT_OSRELEASE, u.release,
					  strlen(u.release) + 1);
		hwt_pd_writer_set_feature(w, HWT_PD_FEAT_ARCH, u.machine,
					  strlen(u.machine) + 1);
	}
	hwt_pd_writer_set_feature(w, HWT_PD_FEAT_VERSION, "hwtrace sw_branch",
				  sizeof("hwtrace sw_branch"));
	/* A program attached to (-p) was not started with a command line
	 * here: the feature keeps the writer's default, hwtrace's own. */
	for (size_t i = 0; opts->argv && opts->argv[i]; i++) {
		size_t n = strlen(opts->argv[i]) + 1;
		if (len + n > sizeof(cmdline))
			break;
		memcpy(cmdline + len, opts->argv[i], n);
		len += n;
	}
	if (len)
		hwt_pd_writer_set_feature(w, HWT_PD_FEAT_CMDLINE, cmdline, len);
}

/* A trigger fired: the records kept and the sideband so far, written as
 * OUTPUT.N, a capture of its own, with the trigger's description. The
 * file is complete when its name appears (the output opener writes a
 * temporary and renames it at close). */
static int on_trigger(void *arg, const struct hwt_swb_fire *f)
{
	struct swb_out *o = arg;
	struct hwt_pd_writer *w;
	char path[4096], what[1024];
	int err;

	if (o->kernel_sideband &&
	    (err = hwt_swb_sideband_drain(&o->sb, copy_record, o)))
		return err;
	o->windows++;
	if ((size_t)snprintf(path, sizeof(path), "%s.%u", o->opts->output,
			     o->windows) >= sizeof(path))
		return hwt_error(HWT_ERR_CONFIG, "%s: too long a name for the "
				 "snapshot windows", o->opts->output);
	if ((err = hwt_pd_writer_open(path, &w)))
		return err;
	set_features(w, o->opts);
	hwt_swb_fire_describe(f, o->windows,
			      hwt_swb_window_reaches(&o->win, f->tid, f->entry_ns),
			      what, sizeof(what));
	if ((err = add_attrs(o, w, &o->dummy)) || (err = write_info(w)) ||
	    (err = hwt_swb_window_write(&o->win, w, o->pid, o->aux_id)) ||
	    (err = hwt_swb_binaries_write(&o->binaries, w, o->pid)) ||
	    (err = hwt_pd_writer_set_feature(w, HWT_PD_FEAT_HWTRACE_TRIGGER,
					     what, strlen(what)))) {
		hwt_pd_writer_discard(w);
		return err;
	}
	if ((err = hwt_pd_writer_close(w)))
		return err;
	if (o->opts->window_written)
		o->opts->window_written(o->opts->progress_arg, path, f->tid);
	return 0;
}

/* Pushes what is left and ends every stream, one thread after the
 * other, each read to its end before the next one's last write: the
 * threads' last buffers are in the file in the order the threads
 * started. */
static int finish_capture(struct swb_out *o, int err, struct hwt_swb_stats *stats)
{
	for (size_t i = 0; i < o->nthreads; i++) {
		struct swb_thread *th = o->threads[i];
		if (!err)
			err = flush_chunk(o, th);
		hwt_emu_stream_close(o->emu, -1, th->tid);
		pthread_mutex_lock(&o->lock);
		while (!err && o->capture_running && !th->done && !o->capture_ended)
			pthread_cond_wait(&o->done_cond, &o->lock);
		pthread_mutex_unlock(&o->lock);
	}
	pthread_mutex_lock(&o->lock);
	o->closed = true;
	if (err && !o->capture_err)
		o->capture_err = err; /* the capture stops too */
	pthread_mutex_unlock(&o->lock);
	if (o->capture_running) {
		pthread_join(o->capture, NULL);
		o->capture_running = false;
	}
	if (!err && o->capture_err) {
		err = o->capture_err;
		hwt_error(err, "%s", o->capture_msg);
	}
	for (size_t i = 0; i < o->nthreads; i++) {
		struct swb_thread *th = o->threads[i];
		size_t n = stats->nrings;
		if (th->s && n < HWT_SWB_MAX_RINGS &&
		    hwt_session_stats(th->s, 0, &stats->rings[n]) == 0 &&
		    hwt_emu_stream_stats_at(o->emu, -1, th->tid,
					    &stats->trace[n]) == 0)
			stats->nrings++;
	}
	return err;
}

static int record(const struct hwt_swb_opts *opts, struct hwt_swb_stats *stats)
{
	struct swb_out o = {0};
	int err;

	if ((err = hwt_swb_check_arch()))
		return err; /* before the output file is opened */
	o.cap = opts->chunk_size ? (size_t)opts->chunk_size : DEFAULT_CHUNK;
	o.opts = opts;
	o.sb.fd = -1;
	pthread_mutex_init(&o.lock, NULL);
	pthread_cond_init(&o.done_cond, NULL);
	size_rings(&o);
	struct hwt_swb_trace_cbs cbs = {
		.on_exec = on_exec, .on_start = on_start,
		.on_mapped = on_mapped, .on_record = on_record,
		.on_end = on_end, .arg = &o,
	};
	if (opts->trigger) {
		/* The flight recorder: windows only, each a file of its own. */
		o.snapshot = true;
		hwt_swb_window_init(&o.win, opts->snapshot_records ?
				    (size_t)opts->snapshot_records :
				    DEFAULT_SNAPSHOT_RECORDS);
		cbs.on_trigger = on_trigger;
		err = hwt_swb_trace(opts, &cbs, stats);
		stats->kernel_sideband = o.kernel_sideband;
		goto out;
	}
	if ((err = hwt_pd_writer_open(opts->output, &o.w)))
		return err;
	set_features(o.w, opts);
	if ((err = start_capture(&o)) < 0)
		goto out;
	err = hwt_swb_trace(opts, &cbs, stats);
	stats->kernel_sideband = o.kernel_sideband;
	err = finish_capture(&o, err, stats);
	if (!err)
		err = hwt_swb_binaries_write(&o.binaries, o.w, o.pid);
out:
	/* A failed capture leaves whatever was at the output path alone. */
	if (err)
		hwt_pd_writer_discard(o.w);
	else if (o.w)
		err = hwt_pd_writer_close(o.w);
	hwt_swb_window_free(&o.win);
	for (size_t i = 0; i < o.nthreads; i++) {
		hwt_session_free(o.threads[i]->s);
		free(o.threads[i]->chunk);
		free(o.threads[i]);
	}
	free(o.threads);
	hwt_emu_free(o.emu);
	hwt_writer_sink_free(o.wsink);
	hwt_swb_sideband_close(&o.sb);
	hwt_swb_maps_clear(&o.written);
	hwt_swb_binaries_free(&o.binaries);
	pthread_mutex_destroy(&o.lock);
	pthread_cond_destroy(&o.done_cond);
	return err;
}

/* What the tracer process reports back. */
struct result {
	int err;
	struct hwt_swb_stats stats;
	char msg[1024];
};

int hwt_swb_record(const struct hwt_swb_opts *opts_in,
		   struct hwt_swb_stats *stats)
{
	struct hwt_swb_opts opts_copy, *opts = &opts_copy;
	struct hwt_swb_stats local;
	struct result res;
	int p[2], status;

	if (!stats)
		stats = &local;
	memset(stats, 0, sizeof(*stats));
	/* Callers built against an older, shorter struct get zeroes for the
	 * fields they do not know. */
	memset(&opts_copy, 0, sizeof(opts_copy));
	if (opts_in && opts_in->size)
		memcpy(&opts_copy, opts_in, opts_in->size < sizeof(opts_copy) ?
		       opts_in->size : sizeof(opts_copy));
	if (!opts_in || !opts_in->size || !opts->output ||
	    (!opts->attach_pid && (!opts->argv || !opts->argv[0])))
		return hwt_error(HWT_ERR_INVAL, "sw_branch needs options with "
				 "size set, a program and an output file");
	/* The tracing runs in a process of its own: it waits for any of the
	 * traced program's threads (waitpid(-1)), which must not take the
	 * status of the caller's other children. */
	if (pipe(p))
		return hwt_error(HWT_ERR_IO, "pipe: %s", strerror(errno));
	fflush(NULL);
	/* A stop request forwarded before the tracer has its handler would
	 * kill it: SIGTERM waits until then. */
	sigset_t term, old_mask;
	sigemptyset(&term);
	sigaddset(&term, SIGTERM);
	sigprocmask(SIG_BLOCK, &term, &old_mask);
	pid_t parent = getpid();
	pid_t tracer = fork();
	if (tracer < 0) {
		sigprocmask(SIG_SETMASK, &old_mask, NULL);
		close(p[0]);
		close(p[1]);
		return hwt_error(HWT_ERR_IO, "fork: %s", strerror(errno));
	}
	if (tracer == 0) {
		close(p[0]);
		/* Never outlive the caller: killed with it, the tracer takes
		 * the program it still steps along (PTRACE_O_EXITKILL). */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(1);
		hwt_swb_trace_catch_stop();
		sigprocmask(SIG_SETMASK, &old_mask, NULL);
		memset(&res, 0, sizeof(res));
		res.err = record(opts, &res.stats);
		if (res.err)
			snprintf(res.msg, sizeof(res.msg), "%s", hwt_errmsg());
		size_t done = 0;
		while (done < sizeof(res)) {
			ssize_t n = write(p[1], (char *)&res + done, sizeof(res) - done);
			if (n <= 0)
				break;
			done += (size_t)n;
		}
		_exit(0);
	}
	sigprocmask(SIG_SETMASK, &old_mask, NULL);
	close(p[1]);
	size_t got = 0;
	sig_atomic_t forwarded = 0;
	while (got < sizeof(res)) {
		/* Each stop request of the caller goes on to the tracer. */
		while (opts->stop_requests && forwarded < *opts->stop_requests) {
			forwarded++;
			kill(tracer, SIGTERM);
		}
		struct pollfd pfd = {p[0], POLLIN, 0};
		if (poll(&pfd, 1, 100) <= 0)
			continue; /* nothing yet, or a signal */
		ssize_t n = read(p[0], (char *)&res + got, sizeof(res) - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	close(p[0]);
	while (waitpid(tracer, &status, 0) < 0 && errno == EINTR)
		;
	if (got != sizeof(res))
		return hwt_error(HWT_ERR_IO, "the sw_branch tracer process (pid %d) "
				 "ended without a result (wait status 0x%x)",
				 (int)tracer, status);
	*stats = res.stats;
	if (res.err)
		return hwt_error(res.err, "%s", res.msg[0] ? res.msg
							    : hwt_errstr(res.err));
	return 0;
}
