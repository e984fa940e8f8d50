/* sw_branch captures as perf.data: the stepping engine's BTS records
 * become AUXTRACE buffers (each announced by a PERF_RECORD_AUX) of a
 * per-thread intel_bts-style event; the sideband is what perf synthesizes
 * for a process at exec (COMM, MMAP2 of its executable mappings) followed
 * by what the kernel writes for a dummy event on it, and ITRACE_START. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "backends/sw-branch/swb_sideband.h"
#include "backends/sw-branch/swb_trace.h"
#include "backends/x86-bts/bts_format.h"
#include "hwtrace/backend.h"
#include "hwtrace/error.h"
#include "hwtrace/perfdata.h"

/* The perf event type the capture declares for its trace event. There is
 * no kernel PMU behind it; the decoder matches the event by this number
 * (AUXTRACE_INFO priv[0]), as perf does. */
#define SWB_PMU_TYPE 0x5357u
/* Sample ids when the kernel gives none (no sideband event): */
#define SWB_AUX_ID 1
#define SWB_DUMMY_ID 2
#define SWB_SAMPLE_TYPE (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
			 PERF_SAMPLE_IDENTIFIER)
#define DEFAULT_CHUNK (64u * 1024)

struct sample_id {
	uint32_t pid, tid;
	uint64_t time;
	uint64_t id;
};

/* One thread's BTS stream: the chunk not yet written. */
struct swb_stream {
	pid_t tid;
	uint32_t idx;
	uint8_t *chunk;
	size_t len;
	uint64_t offset; /* of the chunk in the thread's AUX stream */
};

struct swb_out {
	struct hwt_pd_writer *w;
	const struct hwt_swb_opts *opts;
	pid_t pid;
	struct swb_stream *streams;
	size_t nstreams;
	struct hwt_swb_sideband sb;   /* the kernel's sideband, when it opened */
	bool kernel_sideband;
	uint64_t aux_id, dummy_id;
	struct hwt_swb_maps written;  /* executable mappings written so far */
	size_t cap;      /* chunk size */
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
	return hwt_pd_writer_record(o->w, rec);
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
	memcpy(p, dev, 8); p += 8;
	memcpy(p, ino, 16); p += 16;
	memcpy(p, &prot, 4); p += 4;
	memcpy(p, &flags, 4); p += 4;
	memcpy(p, name, nlen); p += padded;
	put_sid(p, pid, o->dummy_id);
	p += sizeof(struct sample_id);
	h->size = (uint16_t)(p - rec);
	return hwt_pd_writer_record(o->w, rec);
}

static int write_itrace_start(struct swb_out *o, pid_t pid, pid_t tid)
{
	uint8_t rec[sizeof(struct perf_event_header) + 8 + sizeof(struct sample_id)];
	struct perf_event_header *h = (void *)rec;
	uint32_t ids[2] = {(uint32_t)pid, (uint32_t)tid};
	struct sample_id s = {(uint32_t)pid, (uint32_t)tid, now_ns(), o->aux_id};

	memset(rec, 0, sizeof(rec));
	h->type = PERF_RECORD_ITRACE_START;
	h->size = sizeof(rec);
	memcpy(rec + sizeof(*h), ids, 8);
	memcpy(rec + sizeof(*h) + 8, &s, sizeof(s));
	return hwt_pd_writer_record(o->w, rec);
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
	struct swb_out *o = arg;
	return hwt_pd_writer_record(o->w, h);
}

/* The sideband the kernel wrote since the last call, or, without the
 * kernel's event, records made from /proc/PID/maps as perf synthesizes
 * them for a running process. */
static int sideband(struct swb_out *o, pid_t pid, const struct hwt_swb_maps *maps)
{
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

static int add_attrs(struct swb_out *o, const struct perf_event_attr *dummy)
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
	if ((err = hwt_pd_writer_add_attr(o->w, &a, &o->aux_id, 1, "sw_branch//u")))
		return err;
	return hwt_pd_writer_add_attr(o->w, dummy, &o->dummy_id, 1, "dummy:u");
}

/* At exec: the kernel's sideband event (when this machine allows it), the
 * attributes, AUXTRACE_INFO, and the process as it is before the dynamic
 * loader runs. */
static int on_exec(void *arg, pid_t pid, const char *exe,
		   const struct hwt_swb_maps *maps)
{
	struct swb_out *o = arg;
	struct perf_event_attr dummy;
	int err;

	o->pid = pid;
	dummy_attr(&dummy);
	if (!o->opts->proc_sideband && !hwt_swb_sideband_open(&o->sb, pid, &dummy)) {
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
	if ((err = add_attrs(o, &dummy)) || (err = write_info(o->w)) ||
	    (err = write_comm(o, pid, exe)))
		return err;
	return write_new_mappings(o, pid, maps);
}

static int on_start(void *arg, pid_t pid, const char *exe,
		    const struct hwt_swb_maps *maps)
{
	return sideband(arg, pid, maps);
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
 * each buffer ends with one all-zero (padding) record, as the kernel's
 * driver pads its buffers with zeros. */
static int flush_chunk(struct swb_out *o, struct swb_stream *st)
{
	if (!st->len)
		return 0;
	memset(st->chunk + st->len, 0, HWT_BTS_RECORD_SIZE);
	st->len += HWT_BTS_RECORD_SIZE;
	/* As the kernel reports each AUX write in the data ring. */
	uint8_t rec[sizeof(struct perf_event_header) + 24 + sizeof(struct sample_id)];
	struct perf_event_header *h = (void *)rec;
	uint64_t body[3] = {st->offset, st->len, 0};
	struct sample_id sid = {(uint32_t)o->pid, (uint32_t)st->tid, now_ns(),
				o->aux_id};
	memset(rec, 0, sizeof(rec));
	h->type = PERF_RECORD_AUX;
	h->size = sizeof(rec);
	memcpy(rec + sizeof(*h), body, sizeof(body));
	memcpy(rec + sizeof(*h) + sizeof(body), &sid, sizeof(sid));
	int err = hwt_pd_writer_record(o->w, rec);
	if (err)
		return err;
	struct hwt_pd_auxtrace aux = {
		.size = st->len, .offset = st->offset, .reference = now_ns(),
		.idx = st->idx, .tid = (uint32_t)st->tid, .cpu = (uint32_t)-1,
	};
	err = hwt_pd_writer_auxtrace(o->w, &aux, st->chunk);
	st->offset += st->len;
	st->len = 0;
	return err;
}

/* The stream of thread @tid; a new thread's starts with ITRACE_START, as
 * the kernel writes when it starts tracing a task. */
static int stream_of(struct swb_out *o, pid_t tid, struct swb_stream **out)
{
	for (size_t i = 0; i < o->nstreams; i++) {
		if (o->streams[i].tid == tid) {
			*out = &o->streams[i];
			return 0;
		}
	}
	void *n = realloc(o->streams, (o->nstreams + 1) * sizeof(*o->streams));
	if (!n)
		return hwt_error(HWT_ERR_NOMEM, "out of memory for sw_branch");
	o->streams = n;
	struct swb_stream *st = &o->streams[o->nstreams];
	memset(st, 0, sizeof(*st));
	st->tid = tid;
	st->idx = (uint32_t)o->nstreams;
	st->chunk = malloc(o->cap);
	if (!st->chunk)
		return hwt_error(HWT_ERR_NOMEM, "out of memory for sw_branch");
	o->nstreams++;
	*out = st;
	/* Thread starts are in the kernel's sideband (FORK) up to here. */
	int err = sideband(o, o->pid, NULL);
	return err ? err : write_itrace_start(o, o->pid, tid);
}

static int on_record(void *arg, pid_t tid, const uint8_t *rec)
{
	struct swb_out *o = arg;
	struct swb_stream *st = NULL;
	int err = stream_of(o, tid, &st);

	if (err)
		return err;
	memcpy(st->chunk + st->len, rec, HWT_BTS_RECORD_SIZE);
	st->len += HWT_BTS_RECORD_SIZE;
	if (st->len + HWT_BTS_RECORD_SIZE >= o->cap)
		return flush_chunk(o, st);
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
	for (size_t i = 0; opts->argv[i]; i++) {
		size_t n = strlen(opts->argv[i]) + 1;
		if (len + n > sizeof(cmdline))
			break;
		memcpy(cmdline + len, opts->argv[i], n);
		len += n;
	}
	if (len)
		hwt_pd_writer_set_feature(w, HWT_PD_FEAT_CMDLINE, cmdline, len);
}

static int record(const struct hwt_swb_opts *opts, struct hwt_swb_stats *stats)
{
	struct swb_out o = {0};
	int err;

	o.cap = opts->chunk_size ? (size_t)opts->chunk_size : DEFAULT_CHUNK;
	o.cap -= o.cap % HWT_BTS_RECORD_SIZE;
	if (o.cap < 2 * HWT_BTS_RECORD_SIZE)
		o.cap = 2 * HWT_BTS_RECORD_SIZE;
	if ((err = hwt_pd_writer_open(opts->output, &o.w)))
		return err;
	set_features(o.w, opts);
	o.opts = opts;
	o.sb.fd = -1;
	struct hwt_swb_trace_cbs cbs = {
		.on_exec = on_exec, .on_start = on_start,
		.on_mapped = on_mapped, .on_record = on_record,
		.on_end = on_end, .arg = &o,
	};
	err = hwt_swb_trace(opts, &cbs, stats);
	stats->kernel_sideband = o.kernel_sideband;
	for (size_t i = 0; i < o.nstreams && !err; i++)
		err = flush_chunk(&o, &o.streams[i]);
	int cerr = hwt_pd_writer_close(o.w);
	if (!err)
		err = cerr;
	if (err)
		unlink(opts->output);
	hwt_swb_sideband_close(&o.sb);
	hwt_swb_maps_clear(&o.written);
	for (size_t i = 0; i < o.nstreams; i++)
		free(o.streams[i].chunk);
	free(o.streams);
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
	if (!opts_in || !opts_in->size || !opts->output || !opts->argv ||
	    !opts->argv[0])
		return hwt_error(HWT_ERR_INVAL, "sw_branch needs options with "
				 "size set, a program and an output file");
	/* The tracing runs in a process of its own: it waits for any of the
	 * traced program's threads (waitpid(-1)), which must not take the
	 * status of the caller's other children. */
	if (pipe(p))
		return hwt_error(HWT_ERR_IO, "pipe: %s", strerror(errno));
	fflush(NULL);
	pid_t tracer = fork();
	if (tracer < 0) {
		close(p[0]);
		close(p[1]);
		return hwt_error(HWT_ERR_IO, "fork: %s", strerror(errno));
	}
	if (tracer == 0) {
		close(p[0]);
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
	close(p[1]);
	size_t got = 0;
	while (got < sizeof(res)) {
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

/* The recording half as the core sees it: sw_branch has no PMU to
 * configure; hwtrace record runs it through hwt_swb_record. */
const struct hwt_record_ops hwt_swb_record_ops = {0};
