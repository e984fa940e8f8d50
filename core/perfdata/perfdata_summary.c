/* One pass over a file's records, counted (hwtrace/pd_summary.h), on the
 * typed views of their bodies. */
#include <stdlib.h>
#include <string.h>

#include "hwtrace/error.h"
#include "hwtrace/pd_summary.h"
#include "hwtrace/records.h"

/* The summary and the arrays behind its views. */
struct summary {
	struct hwt_pd_summary pub;      /* first: hwt_pd_summary_free casts */
	struct hwt_pd_summary_cpu *cpus;
	size_t ncpus, cpus_cap;
	struct hwt_pd_summary_thread *threads;
	size_t nthreads, threads_cap;
	char **commands;
	size_t ncommands, commands_cap;
	struct hwt_pd_summary_binary *bins;
	size_t nbins, bins_cap;
};

static bool grow(void *vp, size_t *cap, size_t n, size_t elem)
{
	void **v = vp;
	if (n < *cap)
		return true;
	size_t c = *cap ? *cap * 2 : 16;
	void *p = realloc(*v, c * elem);
	if (!p)
		return false;
	*v = p;
	*cap = c;
	return true;
}

static int add_cpu_bytes(struct summary *s, int32_t cpu, uint64_t bytes)
{
	size_t i = 0;
	while (i < s->ncpus && s->cpus[i].cpu != cpu)
		i++;
	if (i == s->ncpus) {
		if (!grow(&s->cpus, &s->cpus_cap, s->ncpus, sizeof(*s->cpus)))
			return HWT_ERR_NOMEM;
		s->cpus[s->ncpus++] = (struct hwt_pd_summary_cpu){cpu, 0, 0};
	}
	s->cpus[i].bytes += bytes;
	s->cpus[i].buffers++;
	return 0;
}

static struct hwt_pd_summary_thread *add_thread(struct summary *s, int32_t pid,
						int32_t tid)
{
	for (size_t i = 0; i < s->nthreads; i++)
		if (s->threads[i].tid == tid && s->threads[i].pid == pid)
			return &s->threads[i];
	if (!grow(&s->threads, &s->threads_cap, s->nthreads, sizeof(*s->threads)))
		return NULL;
	struct hwt_pd_summary_thread *t = &s->threads[s->nthreads++];
	*t = (struct hwt_pd_summary_thread){.pid = pid, .tid = tid};
	return t;
}

static int add_command(struct summary *s, const char *comm)
{
	for (size_t i = 0; i < s->ncommands; i++)
		if (!strcmp(s->commands[i], comm))
			return 0;
	if (!grow(&s->commands, &s->commands_cap, s->ncommands,
		  sizeof(*s->commands)) ||
	    !(s->commands[s->ncommands] = strdup(comm)))
		return HWT_ERR_NOMEM;
	s->ncommands++;
	return 0;
}

static int add_binary(struct summary *s, const char *path, int32_t pid)
{
	for (size_t i = 0; i < s->nbins; i++)
		if (!strcmp(s->bins[i].path, path)) {
			s->bins[i].maps++;
			return 0;
		}
	char *copy = strdup(path);
	if (!copy || !grow(&s->bins, &s->bins_cap, s->nbins, sizeof(*s->bins))) {
		free(copy);
		return HWT_ERR_NOMEM;
	}
	s->bins[s->nbins++] = (struct hwt_pd_summary_binary){copy, 1, pid};
	return 0;
}

/* A string field (which may run to the record's end without its NUL) as
 * a C string, cut to @size - 1 bytes. */
static void field_str(struct hwt_rec_str str, char *buf, size_t size)
{
	size_t n = str.len < size - 1 ? str.len : size - 1;
	memcpy(buf, str.s, n);
	buf[n] = '\0';
}

static int take_comm(struct summary *s, const struct hwt_rec_comm *c)
{
	char name[4096];
	field_str(c->comm, name, sizeof(name));
	struct hwt_pd_summary_thread *t = add_thread(s, c->pid, c->tid);
	if (!t)
		return HWT_ERR_NOMEM;
	size_t n = strnlen(name, sizeof(t->comm) - 1);
	memcpy(t->comm, name, n);
	t->comm[n] = '\0';
	return add_command(s, name);
}

/* @rec's body, by its view (0 when its type has none or it is short). */
static int take_view(struct summary *s, const struct hwt_pd_record *rec)
{
	struct hwt_pd_summary *p = &s->pub;
	char name[4096];
	struct hwt_rec v;
	if (!hwt_rec_parse(rec, &v))
		return 0;
	switch (rec->type) {
	case PERF_RECORD_COMM:
		return take_comm(s, &v.u.comm);
	case PERF_RECORD_FORK:
		return add_thread(s, v.u.fork.pid, v.u.fork.tid) ? 0 : HWT_ERR_NOMEM;
	case PERF_RECORD_MMAP:
		if (rec->size <= 40) /* no name */
			return 0;
		field_str(v.u.mmap.filename, name, sizeof(name));
		return add_binary(s, name, v.u.mmap.pid);
	case PERF_RECORD_MMAP2:
		if (rec->size <= 72)
			return 0;
		field_str(v.u.mmap2.filename, name, sizeof(name));
		return add_binary(s, name, v.u.mmap2.pid);
	case PERF_RECORD_LOST:
		p->lost_records++;
		p->lost_events += v.u.lost.lost;
		return 0;
	case PERF_RECORD_LOST_SAMPLES:
		p->lost_samples += v.u.lost.lost;
		return 0;
	case HWT_PD_RECORD_AUXTRACE_INFO:
		p->auxtrace_type = v.u.auxtrace_info.type;
		p->have_auxtrace_info = true;
		return 0;
	case PERF_RECORD_AUX:
		p->aux_records++;
		p->aux_bytes += v.u.aux.aux_size;
		p->aux_truncated += !!(v.u.aux.flags & PERF_AUX_FLAG_TRUNCATED);
		p->aux_collisions += !!(v.u.aux.flags & PERF_AUX_FLAG_COLLISION);
		p->aux_partial += !!(v.u.aux.flags & PERF_AUX_FLAG_PARTIAL);
		return 0;
	}
	return 0;
}

static int take(struct summary *s, const struct hwt_pd_record *rec)
{
	struct hwt_pd_summary *p = &s->pub;
	p->records++;
	p->samples += rec->type == PERF_RECORD_SAMPLE;
	if (rec->sid.present & PERF_SAMPLE_TIME && rec->sid.time) {
		if (!p->have_time || rec->sid.time < p->first_time)
			p->first_time = rec->sid.time;
		if (!p->have_time || rec->sid.time > p->last_time)
			p->last_time = rec->sid.time;
		p->have_time = true;
	}
	int err = take_view(s, rec);
	if (!err && rec->type == HWT_PD_RECORD_AUXTRACE) {
		p->auxtrace_bytes += rec->aux.size;
		p->auxtrace_buffers++;
		err = add_cpu_bytes(s, (int32_t)rec->aux.cpu, rec->aux.size);
	}
	p->auxtrace_errors += rec->type == HWT_PD_RECORD_AUXTRACE_ERROR;
	/* Kernel records name their thread in sample_id too. */
	if (!err && rec->type < 64 && rec->sid.present & PERF_SAMPLE_TID &&
	    (int32_t)rec->sid.tid > 0 &&
	    !add_thread(s, (int32_t)rec->sid.pid, (int32_t)rec->sid.tid))
		err = HWT_ERR_NOMEM;
	return err;
}

static int by_cpu(const void *a, const void *b)
{
	const struct hwt_pd_summary_cpu *x = a, *y = b;
	return x->cpu < y->cpu ? -1 : x->cpu > y->cpu;
}

int hwt_pd_summarize(struct hwt_pd_reader *reader, struct hwt_pd_summary **out)
{
	*out = NULL;
	struct summary *s = calloc(1, sizeof(*s));
	if (!s)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	hwt_pd_reader_set_load_aux(reader, false);
	struct hwt_pd_record rec;
	int n;
	while ((n = hwt_pd_reader_next(reader, &rec)) > 0)
		if (take(s, &rec) < 0) {
			hwt_pd_summary_free(&s->pub);
			return hwt_error(HWT_ERR_NOMEM, "out of memory summarising "
					 "%s", hwt_pd_reader_path(reader));
		}
	if (s->ncpus)
		qsort(s->cpus, s->ncpus, sizeof(*s->cpus), by_cpu);
	struct hwt_pd_summary *p = &s->pub;
	p->cpus = s->cpus;
	p->ncpus = s->ncpus;
	p->threads = s->threads;
	p->nthreads = s->nthreads;
	p->commands = (const char *const *)s->commands;
	p->ncommands = s->ncommands;
	p->binaries = s->bins;
	p->nbinaries = s->nbins;
	*out = p;
	return n < 0 ? n : 0;
}

void hwt_pd_summary_free(struct hwt_pd_summary *summary)
{
	if (!summary)
		return;
	struct summary *s = (struct summary *)summary;
	for (size_t i = 0; i < s->ncommands; i++)
		free(s->commands[i]);
	for (size_t i = 0; i < s->nbins; i++)
		free((char *)s->bins[i].path);
	free(s->commands);
	free(s->bins);
	free(s->threads);
	free(s->cpus);
	free(s);
}
