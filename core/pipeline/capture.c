/* A capture opened once: its facts as typed accessors. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/pipeline/pipeline_internal.h"
#include "hwtrace/backend.h"
#include "hwtrace/error.h"

/* Copies @s into *@dst (NULL stays NULL); false when out of memory. */
static bool copy_str(char **dst, const char *s)
{
	*dst = s ? strdup(s) : NULL;
	return !s || *dst;
}

/* The options every cursor of @cap decodes with, their strings copied. */
static int copy_opts(struct hwt_capture *cap, const struct hwt_capture_opts *o)
{
	struct hwt_decode_opts *d = &cap->dopts;
	d->size = sizeof(*d);
	d->lookup.size = sizeof(d->lookup);
	if (!o)
		return 0;
	if (!copy_str(&cap->symfs, o->lookup.symfs) ||
	    !copy_str(&cap->buildid_dir, o->lookup.buildid_dir) ||
	    !copy_str(&cap->vmlinux, o->lookup.vmlinux) ||
	    !copy_str(&cap->kcore, o->kcore) ||
	    !copy_str(&cap->cpu_model, o->cpu_model))
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	d->lookup.symfs = cap->symfs;
	d->lookup.buildid_dir = cap->buildid_dir;
	d->lookup.vmlinux = cap->vmlinux;
	d->kcore = cap->kcore;
	d->cpu_model = cap->cpu_model;
	d->ignore_build_ids = o->ignore_build_ids;
	if (o->nmaps) {
		cap->maps = calloc(o->nmaps, sizeof(*cap->maps));
		if (!cap->maps)
			return hwt_error(HWT_ERR_NOMEM, "out of memory");
		for (size_t i = 0; i < o->nmaps; i++) {
			char *p;
			if (!copy_str(&p, o->maps[i].path))
				return hwt_error(HWT_ERR_NOMEM, "out of memory");
			cap->maps[cap->nmaps++] = (struct hwt_map_spec){p, o->maps[i].vaddr};
		}
		d->maps = cap->maps;
		d->nmaps = cap->nmaps;
	}
	return 0;
}

static struct hwt_capture *capture_new(enum hwt_capture_kind kind,
				       const char *path)
{
	struct hwt_capture *cap = calloc(1, sizeof(*cap));
	if (!cap)
		return NULL;
	cap->kind = kind;
	if (!copy_str(&cap->path, path)) {
		free(cap);
		return NULL;
	}
	return cap;
}

static int cmp_cpu(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
	return x < y ? -1 : x > y;
}

/* The accessors' arrays, from the decode pipeline's facts. */
static int facts_to_views(struct hwt_capture *cap)
{
	const struct hwt_file_facts *f = &cap->facts;
	size_t nsec = hwt_image_count(f->image);
	cap->cpus = calloc(f->nqueues + 1, sizeof(*cap->cpus));
	cap->queues = calloc(f->nqueues + 1, sizeof(*cap->queues));
	cap->threads = calloc(f->nthreads + 1, sizeof(*cap->threads));
	cap->names = calloc(f->nnames + 1, sizeof(*cap->names));
	cap->mmaps = calloc(nsec + 1, sizeof(*cap->mmaps));
	if (!cap->cpus || !cap->queues || !cap->threads || !cap->names ||
	    !cap->mmaps)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	for (size_t i = 0; i < f->nqueues; i++) {
		const struct hwt_file_queue *q = &f->queues[i];
		cap->queues[cap->nqueues++] = (struct hwt_capture_queue){
			q->idx, q->cpu, q->tid, q->npieces, q->bytes};
		bool seen = q->cpu < 0;
		for (size_t j = 0; j < cap->ncpus && !seen; j++)
			seen = cap->cpus[j] == q->cpu;
		if (!seen)
			cap->cpus[cap->ncpus++] = q->cpu;
	}
	qsort(cap->cpus, cap->ncpus, sizeof(*cap->cpus), cmp_cpu);
	for (size_t i = 0; i < f->nthreads; i++)
		cap->threads[cap->nthreads++] = (struct hwt_capture_thread){
			f->threads[i].pid, f->threads[i].tid};
	for (size_t i = 0; i < f->nnames; i++)
		cap->names[i] = (struct hwt_capture_name){
			f->names[i].pid, f->names[i].tid, f->names[i].time,
			f->names[i].exec, f->names[i].name};
	for (size_t i = 0; i < nsec; i++) {
		const struct hwt_image_section *s = hwt_image_section(f->image, i);
		struct hwt_capture_mmap *m = &cap->mmaps[cap->nmmaps++];
		*m = (struct hwt_capture_mmap){
			.pid = s->pid, .vaddr = s->vaddr, .size = s->size,
			.file_offset = s->file_offset, .valid_from = s->valid_from,
			.valid_until = s->valid_until, .path = s->path,
			.found_at = s->data ? s->found_at : NULL,
			.missing = !s->data, .missing_detail = s->missing_detail,
			.build_id_size = f->build_ids[i].size,
		};
		memcpy(m->build_id, f->build_ids[i].id, sizeof(m->build_id));
	}
	return 0;
}

int hwt_capture_open(const char *path, const struct hwt_capture_opts *opts,
		     struct hwt_capture **out)
{
	if (!path || !out)
		return hwt_error(HWT_ERR_INVAL, "hwt_capture_open: missing argument");
	struct hwt_capture *cap = capture_new(HWT_CAPTURE_PERF_DATA, path);
	if (!cap)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	struct stat sb;
	cap->read_once = !strcmp(path, "-") ||
			 (stat(path, &sb) == 0 && S_ISFIFO(sb.st_mode));
	int err = copy_opts(cap, opts);
	if (err >= 0)
		err = hwt_decode_file_facts(path, &cap->dopts, &cap->facts);
	if (err >= 0) {
		cap->backend_name = cap->facts.backend;
		err = facts_to_views(cap);
	}
	if (err < 0) {
		hwt_capture_free(cap);
		return err;
	}
	*out = cap;
	return 0;
}

/* The maps of a raw stream as mappings of every process. */
static int maps_to_views(struct hwt_capture *cap)
{
	cap->mmaps = calloc(cap->nmaps + 1, sizeof(*cap->mmaps));
	if (!cap->mmaps)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	for (size_t i = 0; i < cap->nmaps; i++) {
		struct stat sb;
		bool found = stat(cap->maps[i].path, &sb) == 0 &&
			     S_ISREG(sb.st_mode) && access(cap->maps[i].path, R_OK) == 0;
		cap->mmaps[cap->nmmaps++] = (struct hwt_capture_mmap){
			.pid = HWT_PID_ANY, .vaddr = cap->maps[i].vaddr,
			.size = found ? (uint64_t)sb.st_size : 0,
			.valid_until = HWT_TIME_END, .path = cap->maps[i].path,
			.found_at = found ? cap->maps[i].path : NULL,
			.missing = !found,
		};
	}
	return 0;
}

int hwt_capture_open_raw(const char *backend, const char *backend_options,
			 const char *trace_path,
			 const struct hwt_capture_opts *opts,
			 struct hwt_capture **out)
{
	if (!backend || !trace_path || !out)
		return hwt_error(HWT_ERR_INVAL, "hwt_capture_open_raw: missing argument");
	const struct hwt_backend *b = hwt_backend_find(backend);
	if (!b)
		return hwt_error(HWT_ERR_NOENT, "no backend named %s (hwtrace list "
				 "names them)", backend);
	if (access(trace_path, R_OK) != 0)
		return hwt_error(HWT_ERR_NOENT, "%s: cannot read the raw trace",
				 trace_path);
	struct hwt_capture *cap = capture_new(HWT_CAPTURE_RAW, trace_path);
	if (!cap)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	int err = copy_opts(cap, opts);
	if (err >= 0 && (!copy_str(&cap->backend, backend) ||
			 !copy_str(&cap->backend_options, backend_options)))
		err = hwt_error(HWT_ERR_NOMEM, "out of memory");
	if (err >= 0) {
		cap->backend_name = b->name;
		err = maps_to_views(cap);
	}
	if (err < 0) {
		hwt_capture_free(cap);
		return err;
	}
	*out = cap;
	return 0;
}

int hwt_capture_open_snapshot(const char *dir,
			      const struct hwt_capture_opts *opts,
			      struct hwt_capture **out)
{
	if (!dir || !out)
		return hwt_error(HWT_ERR_INVAL, "hwt_capture_open_snapshot: missing argument");
	struct stat sb;
	if (stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode))
		return hwt_error(HWT_ERR_NOENT, "%s: not a snapshot directory", dir);
	const struct hwt_backend *b = NULL;
	for (size_t i = 0; (b = hwt_backend_at(i)); i++)
		if (b->decoder && b->decoder->snapshot_dir)
			break;
	if (!b)
		return hwt_error(HWT_ERR_NOENT, "%s: no backend of this build reads "
				 "snapshot directories", dir);
	struct hwt_capture *cap = capture_new(HWT_CAPTURE_SNAPSHOT_DIR, dir);
	if (!cap)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	int err = copy_opts(cap, opts);
	if (err < 0) {
		hwt_capture_free(cap);
		return err;
	}
	cap->backend_name = b->name;
	*out = cap;
	return 0;
}

void hwt_capture_free(struct hwt_capture *cap)
{
	if (!cap)
		return;
	hwt_file_facts_free(&cap->facts);
	for (size_t i = 0; i < cap->nmaps; i++)
		free((char *)cap->maps[i].path);
	free(cap->maps);
	free(cap->path);
	free(cap->backend);
	free(cap->backend_options);
	free(cap->symfs);
	free(cap->buildid_dir);
	free(cap->vmlinux);
	free(cap->kcore);
	free(cap->cpu_model);
	free(cap->cpus);
	free(cap->threads);
	free(cap->names);
	free(cap->mmaps);
	free(cap->queues);
	free(cap->units);
	free(cap);
}

enum hwt_capture_kind hwt_capture_kind(const struct hwt_capture *cap)
{
	return cap->kind;
}

const char *hwt_capture_backend(const struct hwt_capture *cap)
{
	return cap->backend_name;
}

size_t hwt_capture_cpus(const struct hwt_capture *cap, const int32_t **cpus)
{
	*cpus = cap->cpus;
	return cap->ncpus;
}

size_t hwt_capture_threads(const struct hwt_capture *cap,
			   const struct hwt_capture_thread **threads)
{
	*threads = cap->threads;
	return cap->nthreads;
}

size_t hwt_capture_names(const struct hwt_capture *cap,
			 const struct hwt_capture_name **names)
{
	*names = cap->names;
	return cap->facts.nnames;
}

const char *hwt_capture_name_at(const struct hwt_capture *cap, int32_t tid,
				uint64_t time)
{
	const char *first = NULL, *at = NULL;
	uint64_t best = 0;
	for (size_t i = 0; i < cap->facts.nnames; i++) {
		const struct hwt_capture_name *n = &cap->names[i];
		if (n->tid != tid)
			continue;
		if (!first)
			first = n->name;
		if (n->time <= time && (!at || n->time >= best)) {
			at = n->name;
			best = n->time;
		}
	}
	return at ? at : first;
}

size_t hwt_capture_mmaps(const struct hwt_capture *cap,
			 const struct hwt_capture_mmap **mmaps)
{
	*mmaps = cap->mmaps;
	return cap->nmmaps;
}

int hwt_capture_time_span(const struct hwt_capture *cap, uint64_t *first,
			  uint64_t *last)
{
	if (!cap->facts.have_time)
		return hwt_error(HWT_ERR_NOENT, "%s: no record of the capture "
				 "carries a time", cap->path);
	*first = cap->facts.first_time;
	*last = cap->facts.last_time;
	return 0;
}

void hwt_capture_losses(const struct hwt_capture *cap,
			struct hwt_capture_losses *losses)
{
	*losses = (struct hwt_capture_losses){
		.lost_events = cap->facts.lost_events,
		.lost_records = cap->facts.lost_records,
		.truncated = cap->facts.truncated,
		.collisions = cap->facts.collisions,
		.trace_errors = cap->facts.trace_errors,
	};
}

size_t hwt_capture_queues(const struct hwt_capture *cap,
			  const struct hwt_capture_queue **queues)
{
	*queues = cap->queues;
	return cap->nqueues;
}

size_t hwt_capture_tasks(const struct hwt_capture *cap,
			 const struct hwt_capture_task **tasks)
{
	*tasks = cap->facts.threads_sb.tasks;
	return cap->facts.threads_sb.ntasks;
}

const char *hwt_capture_thread_name(const struct hwt_capture *cap,
				    int32_t tid)
{
	return hwt_pd_threads_last_name(&cap->facts.threads_sb, tid);
}

const char *hwt_capture_comm(void *cap, int32_t pid, int32_t tid)
{
	(void)pid;
	return cap ? hwt_capture_thread_name(cap, tid) : NULL;
}

size_t hwt_capture_switches(const struct hwt_capture *cap,
			    const struct hwt_capture_switch **switches)
{
	*switches = cap->facts.threads_sb.switches;
	return cap->facts.threads_sb.nswitches;
}

size_t hwt_capture_build_ids(const struct hwt_capture *cap,
			     const struct hwt_capture_build_id **ids)
{
	*ids = cap->facts.threads_sb.ids;
	return cap->facts.threads_sb.nids;
}
