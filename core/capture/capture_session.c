/* A capture session: events, rings, and moving their contents to a sink. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "core/capture/capture_internal.h"
#include "core/capture/ring_aux.h"
#include "hwtrace/ring_data.h"
#include "hwtrace/error.h"
#include "hwtrace/session.h"

#define MAX_EVENTS (3 + HWT_SESSION_MAX_PROBES + HWT_SESSION_MAX_BRANCH_MEMBERS)

/* One ring: the AUX event (or the lone sideband event) of a CPU or a
 * thread, and the sideband event whose records it receives. */
struct ring {
	int cpu;
	int tid;
	int fd;            /* owns the mapping */
	int sb_fd;         /* sideband event redirected here, or -1 */
	int samp_fd;       /* AUX sampling event redirected here, or -1 */
	int probe_fds[HWT_SESSION_MAX_PROBES]; /* pause/resume probes, or -1 */
	int member_fds[HWT_SESSION_MAX_BRANCH_MEMBERS]; /* branch group, or -1 */
	void *map;
	size_t map_len;
	void *aux;
	size_t aux_len;
	bool have_aux;
	bool have_branch;  /* fd is a branch-stack sampling event */
	struct hwt_ring_data data;
	struct hwt_ring_aux auxr;
	uint64_t next_aux;     /* where the next PERF_RECORD_AUX should start */
	bool reenable;
	struct hwt_capture_stats st;
};

struct attr_slot {
	struct perf_event_attr attr;
	uint64_t *ids;
	size_t nids;
	const char *name;
};

struct hwt_session {
	struct hwt_session_opts o;
	const struct hwt_os *os;
	struct ring *rings;
	size_t nrings;
	struct attr_slot attrs[MAX_EVENTS];
	size_t nattrs;
	long page;
	bool opened, stopped;
	bool user_disabled; /* hwt_session_enable(false): never re-enable */
	hwt_record_observer observer;
	void *observer_arg;
};

void hwt_session_set_observer(struct hwt_session *s, hwt_record_observer fn,
			      void *arg)
{
	s->observer = fn;
	s->observer_arg = arg;
}

static bool pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

int hwt_session_new(const struct hwt_session_opts *opts,
		    struct hwt_session **out)
{
	struct hwt_session *s;

	*out = NULL;
	if (!opts || (!opts->aux && !opts->sideband && !opts->branch))
		return hwt_error(HWT_ERR_INVAL, "session: nothing to record");
	if (opts->nprobes > HWT_SESSION_MAX_PROBES)
		return hwt_error(HWT_ERR_CONFIG, "session: %zu pause/resume "
				 "events; at most %d", opts->nprobes,
				 HWT_SESSION_MAX_PROBES);
	if (opts->aux && opts->branch)
		return hwt_error(HWT_ERR_INVAL, "session: branch-stack sampling "
				 "takes no AUX event");
	if (opts->size >= offsetof(struct hwt_session_opts, nbranch_members) +
			  sizeof(opts->nbranch_members) &&
	    opts->nbranch_members &&
	    (!opts->branch || !opts->branch_members ||
	     opts->nbranch_members > HWT_SESSION_MAX_BRANCH_MEMBERS))
		return hwt_error(HWT_ERR_INVAL, "session: %zu branch group "
				 "members: at most %d, with their attributes, "
				 "beside a branch event", opts->nbranch_members,
				 HWT_SESSION_MAX_BRANCH_MEMBERS);
	if (!opts->per_thread && opts->ncpus <= 0)
		return hwt_error(HWT_ERR_INVAL, "session: no CPUs to record on");
	if (opts->per_thread && opts->pid <= 0)
		return hwt_error(HWT_ERR_INVAL, "session: per-thread needs a pid");
	s = calloc(1, sizeof(*s));
	if (!s)
		return hwt_error(HWT_ERR_NOMEM, "no memory for a session");
	memcpy(&s->o, opts, opts->size && opts->size < sizeof(s->o) ? opts->size :
								    sizeof(s->o));
	/* AUX sampling reads the trace from the samples, never the ring. */
	if (s->o.aux_sample)
		s->o.snapshot = true;
	s->os = opts->os ? opts->os : hwt_os_linux();
	s->page = sysconf(_SC_PAGESIZE);
	if (!s->o.data_pages)
		s->o.data_pages = 128;
	if (!s->o.aux_pages)
		s->o.aux_pages = s->o.snapshot ? 16 : 1024;
	if (!pow2(s->o.data_pages) || !pow2(s->o.aux_pages)) {
		free(s);
		return hwt_error(HWT_ERR_CONFIG,
				 "ring sizes must be powers of two pages: data %u, "
				 "AUX %u (-m DATA_PAGES,AUX_PAGES)",
				 opts->data_pages, opts->aux_pages);
	}
	s->nrings = opts->per_thread ? 1 : (size_t)opts->ncpus;
	s->rings = calloc(s->nrings, sizeof(*s->rings));
	if (!s->rings) {
		hwt_session_free(s);
		return hwt_error(HWT_ERR_NOMEM, "no memory for a session");
	}
	for (size_t i = 0; i < s->nrings; i++) {
		struct ring *r = &s->rings[i];
		r->cpu = opts->per_thread ? -1 : opts->cpus[i];
		/* A per-CPU buffer of a session that follows a task names
		 * it, as perf does: decoders then know that the buffer holds
		 * only that task's (and its children's) trace. */
		r->tid = opts->per_thread || opts->pid > 0 ? opts->pid : -1;
		r->fd = -1;
		r->sb_fd = -1;
		r->samp_fd = -1;
		for (size_t k = 0; k < HWT_SESSION_MAX_PROBES; k++)
			r->probe_fds[k] = -1;
		for (size_t k = 0; k < HWT_SESSION_MAX_BRANCH_MEMBERS; k++)
			r->member_fds[k] = -1;
		r->st.cpu = r->cpu;
	}
	*out = s;
	return 0;
}

static void sideband_attr(const struct hwt_session *s,
			  struct perf_event_attr *a)
{
	if (s->o.sideband_attr) {
		*a = *s->o.sideband_attr;
	} else {
		memset(a, 0, sizeof(*a));
		a->sample_period = 1;
	}
	a->size = sizeof(*a);
	a->type = PERF_TYPE_SOFTWARE;
	a->config = PERF_COUNT_SW_DUMMY;
	a->sample_type |= PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU |
			  PERF_SAMPLE_IDENTIFIER;
	a->sample_id_all = 1;
	a->mmap = 1;
	a->mmap2 = 1;
	a->comm = 1;
	a->comm_exec = 1;
	a->task = 1;
	a->context_switch = 1;
	a->write_backward = s->o.sideband_backward && !s->o.aux && !s->o.branch;
	a->disabled = 1;
	a->enable_on_exec = s->o.enable_on_exec;
	a->inherit = !s->o.per_thread && s->o.pid > 0;
}

static int add_id(struct attr_slot *slot, uint64_t id)
{
	uint64_t *n = realloc(slot->ids, (slot->nids + 1) * sizeof(*n));

	if (!n)
		return hwt_error(HWT_ERR_NOMEM, "no memory for sample ids");
	slot->ids = n;
	slot->ids[slot->nids++] = id;
	return 0;
}

static int open_one(struct hwt_session *s, struct attr_slot *slot, int cpu,
		    int group_fd, int *fd_out)
{
	const struct hwt_os *os = s->os;
	pid_t pid = s->o.per_thread || s->o.pid > 0 ? s->o.pid : -1;
	uint64_t id = 0;
	int fd, err;

	fd = os->ops->perf_event_open(os->ctx, &slot->attr, pid, cpu, group_fd,
				      PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return hwt_capture_explain(os, fd, "perf_event_open", slot->name,
					   &slot->attr, cpu, 0);
	*fd_out = fd;
	err = os->ops->ioctl(os->ctx, fd, PERF_EVENT_IOC_ID,
			     (unsigned long)&id);
	if (err < 0)
		return hwt_error(HWT_ERR_IO, "PERF_EVENT_IOC_ID on %s: %s",
				 slot->name, strerror(-err));
	return add_id(slot, id);
}

/* The kernel's answer to PERF_EVENT_IOC_SET_FILTER, in words. */
static int set_filter(struct hwt_session *s, struct ring *r, const char *pmu)
{
	int err = s->os->ops->ioctl(s->os->ctx, r->fd, PERF_EVENT_IOC_SET_FILTER,
				    (unsigned long)s->o.aux_filter);
	char where[32];

	if (err >= 0)
		return 0;
	if (r->cpu >= 0)
		snprintf(where, sizeof(where), "cpu %d", r->cpu);
	else
		snprintf(where, sizeof(where), "thread %d", r->tid);
	if (err == -EINVAL)
		return hwt_error(HWT_ERR_CONFIG, "%s on %s refused the address "
				 "filters \"%s\" (EINVAL): the PMU cannot filter "
				 "that (more ranges than its nr_addr_filters, a "
				 "range it cannot place, or a file not mapped "
				 "executable); check with hwtrace config check",
				 pmu, where, s->o.aux_filter);
	if (err == -EOPNOTSUPP)
		return hwt_error(HWT_ERR_NOSUP, "%s on %s does not support the "
				 "address filters \"%s\" (EOPNOTSUPP): this "
				 "hardware cannot filter by address, or not with "
				 "these actions; remove the filter", pmu, where,
				 s->o.aux_filter);
	return hwt_error(HWT_ERR_IO, "PERF_EVENT_IOC_SET_FILTER \"%s\" on %s "
			 "of %s: %s", s->o.aux_filter, where, pmu, strerror(-err));
}

static int map_ring(struct hwt_session *s, struct ring *r, const char *name,
		    bool backward)
{
	const struct hwt_os *os = s->os;
	uint64_t data_size = (uint64_t)s->o.data_pages * (uint64_t)s->page;
	size_t len = (size_t)(data_size + (uint64_t)s->page);
	int prot = backward ? PROT_READ : PROT_READ | PROT_WRITE;
	int err;

	err = os->ops->mmap(os->ctx, r->fd, len, prot, 0, &r->map);
	if (err < 0) {
		r->map = NULL;
		return hwt_capture_explain(os, err, "mmap of the data ring", name,
					   NULL, r->cpu, len);
	}
	r->map_len = len;
	err = hwt_ring_data_init(&r->data, r->map, (uint64_t)s->page, data_size,
				 backward);
	if (err < 0)
		return err;
	if (!r->have_aux)
		return 0;
	{
		struct perf_event_mmap_page *up = r->map;
		uint64_t aux_size = (uint64_t)s->o.aux_pages * (uint64_t)s->page;
		prot = s->o.snapshot ? PROT_READ : PROT_READ | PROT_WRITE;
		up->aux_offset = len;
		up->aux_size = aux_size;
		err = os->ops->mmap(os->ctx, r->fd, aux_size, prot, len, &r->aux);
		if (err < 0) {
			r->aux = NULL;
			return hwt_capture_explain(os, err, "mmap of the AUX ring", name,
						   NULL, r->cpu, aux_size);
		}
		r->aux_len = aux_size;
		err = hwt_ring_aux_init(&r->auxr, r->map, r->aux, aux_size,
					s->o.snapshot);
		if (!err && s->o.backend && s->o.backend->record)
			r->auxr.alignment = s->o.backend->record->alignment;
		return err;
	}
}

/* A pause/resume probe in the AUX event's group, its samples in that
 * event's ring (the kernel wants the AUX event as the group leader). */
static int open_probe(struct hwt_session *s, struct ring *r,
		      struct attr_slot *p, int *fd)
{
	int err = open_one(s, p, r->cpu, r->fd, fd);

	if (err < 0)
		return err;
	err = s->os->ops->ioctl(s->os->ctx, *fd, PERF_EVENT_IOC_SET_OUTPUT,
				(unsigned long)r->fd);
	if (err < 0)
		return hwt_error(HWT_ERR_IO, "PERF_EVENT_IOC_SET_OUTPUT of %s on "
				 "cpu %d: %s", p->name, r->cpu, strerror(-err));
	return 0;
}

/* The sample fields that say where a record's event id is: perf reads a
 * file of several events only when every event puts its id at the same
 * place, in samples and in the trailers of other records. */
#define ID_LAYOUT_TYPES                                                      \
	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |         \
	 PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | PERF_SAMPLE_ID |              \
	 PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU)

/* A replayed capture keeps its event's sample layout (its records are
 * copied as they are), so a probe written beside it takes the same id
 * layout instead of its own. A capture whose event has no id at all is
 * left alone: nothing can put a second event beside it for perf. */
static void probe_take_id_layout(struct perf_event_attr *probe,
				 const struct perf_event_attr *aux)
{
	if (!(aux->sample_type & (PERF_SAMPLE_ID | PERF_SAMPLE_IDENTIFIER)))
		return;
	probe->sample_type = (probe->sample_type & ~ID_LAYOUT_TYPES) |
			     (aux->sample_type & ID_LAYOUT_TYPES);
	probe->sample_id_all = aux->sample_id_all;
}

int hwt_session_open(struct hwt_session *s)
{
	struct attr_slot *aux = NULL, *sb = NULL, *samp = NULL, *br = NULL;
	int err;

	if (s->opened)
		return hwt_error(HWT_ERR_INVAL, "session: already open");
	s->opened = true;
	if (s->o.aux) {
		aux = &s->attrs[s->nattrs++];
		aux->attr = s->o.aux_attr;
		aux->attr.size = sizeof(aux->attr);
		if (!s->o.aux_attr_as_is) {
			aux->attr.sample_id_all = 1;
			aux->attr.sample_type |= PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
						 PERF_SAMPLE_CPU |
						 PERF_SAMPLE_IDENTIFIER;
		}
		aux->attr.disabled = 1;
		aux->attr.enable_on_exec = s->o.enable_on_exec;
		aux->name = s->o.backend ? s->o.backend->name : "aux";
	}
	if (aux && s->o.aux_sample) {
		samp = &s->attrs[s->nattrs++];
		samp->attr = s->o.sample_attr;
		samp->attr.size = sizeof(samp->attr);
		samp->attr.sample_type |= PERF_SAMPLE_AUX;
		if (!s->o.aux_attr_as_is) {
			samp->attr.sample_id_all = 1;
			samp->attr.sample_type |= PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
						  PERF_SAMPLE_CPU |
						  PERF_SAMPLE_IDENTIFIER;
		}
		samp->name = s->o.sample_name ? s->o.sample_name : "sample";
	}
	struct attr_slot *probes = &s->attrs[s->nattrs];
	for (size_t k = 0; aux && k < s->o.nprobes; k++) {
		struct attr_slot *p = &s->attrs[s->nattrs++];
		p->attr = s->o.probe_attrs[k];
		p->attr.size = sizeof(p->attr);
		if (s->o.aux_attr_as_is)
			probe_take_id_layout(&p->attr, &aux->attr);
		p->name = s->o.probe_names ? s->o.probe_names[k] : "probe";
	}
	if (!aux && s->o.branch) {
		br = &s->attrs[s->nattrs++];
		br->attr = s->o.branch_attr;
		br->attr.size = sizeof(br->attr);
		if (!s->o.aux_attr_as_is) {
			br->attr.sample_id_all = 1;
			br->attr.sample_type |= PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
						PERF_SAMPLE_CPU |
						PERF_SAMPLE_IDENTIFIER;
		}
		br->attr.disabled = 1;
		br->attr.enable_on_exec = s->o.enable_on_exec;
		br->name = s->o.branch_name ? s->o.branch_name : "branches";
	}
	struct attr_slot *members = &s->attrs[s->nattrs];
	for (size_t k = 0; br && k < s->o.nbranch_members; k++) {
		struct attr_slot *m = &s->attrs[s->nattrs++];
		m->attr = s->o.branch_members[k];
		m->attr.size = sizeof(m->attr);
		m->attr.enable_on_exec = 0;
		m->name = s->o.branch_member_names ? s->o.branch_member_names[k]
						    : "member";
	}
	if (s->o.sideband) {
		sb = &s->attrs[s->nattrs++];
		sideband_attr(s, &sb->attr);
		sb->name = "dummy";
	}
	for (size_t i = 0; i < s->nrings; i++) {
		struct ring *r = &s->rings[i];
		const char *name;
		if (aux) {
			err = open_one(s, aux, r->cpu, -1, &r->fd);
			if (err < 0)
				return err;
			r->have_aux = true;
			if (s->o.aux_filter && *s->o.aux_filter &&
			    (err = set_filter(s, r, aux->name)) < 0)
				return err;
		}
		if (br) {
			err = open_one(s, br, r->cpu, -1, &r->fd);
			if (err < 0)
				return err;
			r->have_branch = true;
			for (size_t k = 0; k < s->o.nbranch_members; k++)
				if ((err = open_one(s, &members[k], r->cpu, r->fd,
						    &r->member_fds[k])) < 0)
					return err;
		}
		if (samp) {
			err = open_one(s, samp, r->cpu, r->fd, &r->samp_fd);
			if (err < 0)
				return err;
			err = s->os->ops->ioctl(s->os->ctx, r->samp_fd,
						PERF_EVENT_IOC_SET_OUTPUT,
						(unsigned long)r->fd);
			if (err < 0)
				return hwt_error(HWT_ERR_IO,
						 "PERF_EVENT_IOC_SET_OUTPUT of the "
						 "sampling event on cpu %d: %s",
						 r->cpu, strerror(-err));
		}
		for (size_t k = 0; aux && k < s->o.nprobes; k++)
			if ((err = open_probe(s, r, &probes[k], &r->probe_fds[k])) < 0)
				return err;
		if (sb) {
			err = open_one(s, sb, r->cpu, -1,
				       aux || br ? &r->sb_fd : &r->fd);
			if (err < 0)
				return err;
			if (aux || br) {
				err = s->os->ops->ioctl(s->os->ctx, r->sb_fd,
							PERF_EVENT_IOC_SET_OUTPUT,
							(unsigned long)r->fd);
				if (err < 0)
					return hwt_error(HWT_ERR_IO,
							 "PERF_EVENT_IOC_SET_OUTPUT of the "
							 "sideband event on cpu %d: %s",
							 r->cpu, strerror(-err));
			}
		}
		name = aux ? aux->name : br ? br->name : "dummy";
		err = map_ring(s, r, name,
			       !aux && !br && sb && sb->attr.write_backward);
		if (err < 0)
			return err;
	}
	if (!s->o.enable_on_exec)
		return hwt_session_enable(s, true);
	return 0;
}

int hwt_session_attr(const struct hwt_session *s, size_t index,
		     const struct perf_event_attr **attr, const uint64_t **ids,
		     size_t *nids, const char **name)
{
	if (index >= s->nattrs)
		return HWT_ERR_NOENT;
	*attr = &s->attrs[index].attr;
	*ids = s->attrs[index].ids;
	*nids = s->attrs[index].nids;
	*name = s->attrs[index].name;
	return 0;
}

size_t hwt_session_pollfds(struct hwt_session *s, struct pollfd *fds,
			   size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < s->nrings && n < max; i++) {
		if (s->rings[i].fd < 0)
			continue;
		fds[n].fd = s->rings[i].fd;
		fds[n].events = POLLIN;
		fds[n].revents = 0;
		n++;
	}
	return n;
}

/* The AUX event is enabled last and disabled first, so that its
 * companions (sideband, sampler, aux_action probes) see all of the trace:
 * a probe enabled after the trace started would miss the calls that ran
 * in between, and a paused trace would then never resume. A kernel group
 * enable (PERF_IOC_FLAG_GROUP) would be atomic; separate fds need the
 * order. */
static int ioctl_all(struct hwt_session *s, struct ring *r, unsigned long req)
{
	int fds[3 + HWT_SESSION_MAX_PROBES];
	int n = 0;

	if (req != PERF_EVENT_IOC_ENABLE)
		fds[n++] = r->fd;
	fds[n++] = r->sb_fd;
	fds[n++] = r->samp_fd;
	for (size_t k = 0; k < HWT_SESSION_MAX_PROBES; k++)
		fds[n++] = r->probe_fds[k];
	if (req == PERF_EVENT_IOC_ENABLE)
		fds[n++] = r->fd;
	for (int k = 0; k < n; k++) {
		int err;
		if (fds[k] < 0)
			continue;
		err = s->os->ops->ioctl(s->os->ctx, fds[k], req, 0);
		if (err < 0)
			return hwt_error(HWT_ERR_IO, "%s of the event on cpu %d: %s",
					 req == PERF_EVENT_IOC_ENABLE ?
						 "PERF_EVENT_IOC_ENABLE" :
						 "PERF_EVENT_IOC_DISABLE",
					 r->cpu, strerror(-err));
	}
	return 0;
}

int hwt_session_enable(struct hwt_session *s, bool enable)
{
	s->user_disabled = !enable;
	for (size_t i = 0; i < s->nrings; i++) {
		int err = ioctl_all(s, &s->rings[i], enable ? PERF_EVENT_IOC_ENABLE :
							       PERF_EVENT_IOC_DISABLE);
		if (err < 0)
			return err;
	}
	return 0;
}

static void note_aux(struct ring *r, const struct perf_event_header *h)
{
	const uint64_t *body = (const uint64_t *)(h + 1);
	uint64_t offset, size, flags;

	if (h->size < sizeof(*h) + 24)
		return;
	offset = body[0];
	size = body[1];
	flags = body[2];
	r->st.aux_records++;
	r->st.aux_reported += size;
	/* In full-trace mode records tile the AUX stream; in overwrite mode
	 * the offsets are the driver's own business. */
	if (!r->auxr.snapshot) {
		if (offset != r->next_aux)
			r->st.unmatched++;
		r->next_aux = offset + size;
	}
	if (flags & HWT_AUX_FLAG_TRUNCATED) {
		r->st.truncated++;
		r->reenable = true;
	}
	if (flags & HWT_AUX_FLAG_COLLISION)
		r->st.collision++;
	if (flags & HWT_AUX_FLAG_PARTIAL)
		r->st.partial++;
}

static int read_data(struct hwt_session *s, struct ring *r)
{
	const struct perf_event_header *h;
	int err = 0, rerr;

	if (!r->map)
		return 0;
	hwt_ring_data_begin(&r->data);
	while ((h = hwt_ring_data_next(&r->data, &rerr))) {
		r->st.records++;
		if (h->type == PERF_RECORD_AUX)
			note_aux(r, h);
		else if (h->type == PERF_RECORD_LOST &&
			 h->size >= sizeof(*h) + 16) {
			r->st.lost_events++;
			r->st.lost_records += ((const uint64_t *)(h + 1))[1];
		}
		if (s->observer)
			s->observer(s->observer_arg, h);
		if (s->o.sink.record) {
			err = s->o.sink.record(s->o.sink.ctx, h);
			if (err < 0)
				break;
		}
	}
	hwt_ring_data_end(&r->data);
	if (!err && rerr < 0)
		err = rerr;
	return err;
}

static uint64_t reference(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int emit_aux(struct hwt_session *s, struct ring *r, size_t idx,
		    uint64_t offset, const void *d1, uint64_t l1,
		    const void *d2, uint64_t l2)
{
	struct hwt_pd_auxtrace hdr = {
		.size = l1 + l2,
		.offset = offset,
		.reference = reference(),
		.idx = (uint32_t)idx,
		.tid = (uint32_t)r->tid,
		.cpu = (uint32_t)r->cpu,
	};
	int err = 0;

	if (s->o.sink.auxtrace)
		err = s->o.sink.auxtrace(s->o.sink.ctx, &hdr, d1, l1, l2 ? d2 : NULL);
	if (err < 0)
		return err;
	r->st.aux_bytes += l1 + l2;
	r->st.aux_chunks++;
	return 0;
}

/* Whether the AUX event of @r is still enabled; when the OS cannot tell
 * (the Linux kernel), false: it may have been disabled. */
static bool event_enabled(const struct hwt_session *s, const struct ring *r)
{
	const struct hwt_os_ops *ops = s->os->ops;

	if (ops->size < offsetof(struct hwt_os_ops, event_enabled) +
				sizeof(ops->event_enabled) ||
	    !ops->event_enabled)
		return false;
	return ops->event_enabled(s->os->ctx, r->fd) == 1;
}

/* Full-trace mode. Before the final read only whole 8-byte words are taken,
 * so no AUXTRACE record needs padding inside the stream. */
static int read_aux(struct hwt_session *s, struct ring *r, size_t idx,
		    bool all)
{
	struct hwt_aux_span sp[2];
	uint64_t total, l1, l2;
	bool no_room;
	int n, err;

	if (!r->have_aux || r->auxr.snapshot || !r->aux)
		return 0;
	n = hwt_ring_aux_peek(&r->auxr, sp);
	if (n < 0)
		return n;
	if (n == 0)
		goto reenable;
	l1 = sp[0].len;
	l2 = n == 2 ? sp[1].len : 0;
	total = l1 + l2;
	/* perf_aux_output_begin() disables the event without a record when
	 * CIRC_SPACE(aux_head, aux_tail, size) is 0: the ring holds size - 1
	 * bytes or more. aux_head only grows and aux_tail is ours, so the
	 * ring was never fuller since the last read than it is now. */
	no_room = total + 1 >= r->aux_len;
	if (!all)
		total &= ~(uint64_t)7;
	if (total < l1)
		l1 = total;
	l2 = total - l1;
	if (total) {
		err = emit_aux(s, r, idx, sp[0].offset, sp[0].data, l1,
			       n == 2 ? sp[1].data : NULL, l2);
		if (err < 0)
			return err;
		hwt_ring_aux_consume(&r->auxr, sp[0].offset + total);
	}
	/* Asked once the tail moved: a disable for want of room happened
	 * before this answer or not at all. */
	if (no_room && !event_enabled(s, r))
		r->reenable = true;
	/* Records reported more than the ring holds: not matched. */
	if (r->next_aux > r->auxr.pos + 7)
		r->st.unmatched++;
reenable:
	if (r->reenable && !s->stopped && !s->user_disabled) {
		r->reenable = false;
		err = s->os->ops->ioctl(s->os->ctx, r->fd, PERF_EVENT_IOC_ENABLE, 0);
		if (err < 0)
			return hwt_error(HWT_ERR_IO,
					 "re-enabling the AUX event on cpu %d: %s",
					 r->cpu, strerror(-err));
		r->st.reenables++;
	}
	return 0;
}

static int read_all(struct hwt_session *s, bool all)
{
	for (size_t i = 0; i < s->nrings; i++) {
		/* The data ring first: aux_head is published before the
		 * PERF_RECORD_AUX that reports it, so every record read has
		 * its bytes below the aux_head read after it. */
		int err = read_data(s, &s->rings[i]);
		if (err < 0)
			return err;
		err = read_aux(s, &s->rings[i], i, all);
		if (err < 0)
			return err;
	}
	return 0;
}

int hwt_session_read(struct hwt_session *s)
{
	return read_all(s, false);
}

int hwt_session_poll(struct hwt_session *s, int timeout_ms,
		     struct pollfd *extra, size_t nextra)
{
	size_t n = s->nrings + nextra, nr, hup = 0, naux = 0;
	struct pollfd *fds = calloc(n ? n : 1, sizeof(*fds));
	int ret;

	if (!fds)
		return hwt_error(HWT_ERR_NOMEM, "no memory to poll");
	nr = hwt_session_pollfds(s, fds, s->nrings);
	for (size_t i = 0; i < nextra; i++)
		fds[nr + i] = extra[i];
	ret = s->os->ops->poll(s->os->ctx, fds, (unsigned int)(nr + nextra),
			       timeout_ms);
	if (ret < 0 && ret != -EINTR) {
		free(fds);
		return hwt_error(HWT_ERR_IO, "poll: %s", strerror(-ret));
	}
	for (size_t i = 0, k = 0; i < s->nrings; i++) {
		if (s->rings[i].fd < 0)
			continue;
		if (ret > 0 && (fds[k].revents & POLLIN))
			s->rings[i].st.wakeups++;
		/* A branch-sampling ring ends as an AUX ring does. */
		if (s->rings[i].have_aux || s->rings[i].have_branch) {
			naux++;
			if (ret > 0 && (fds[k].revents & POLLHUP))
				hup++;
		}
		k++;
	}
	for (size_t i = 0; i < nextra; i++)
		extra[i].revents = ret > 0 ? fds[nr + i].revents : 0;
	free(fds);
	ret = read_all(s, false);
	if (ret < 0)
		return ret;
	return naux && hup == naux;
}

int hwt_session_snapshot(struct hwt_session *s)
{
	hwt_find_snapshot_fn find = NULL;

	if (!s->o.snapshot)
		return hwt_error(HWT_ERR_INVAL, "session: not in snapshot mode (-S)");
	if (s->o.backend && s->o.backend->record)
		find = s->o.backend->record->find_snapshot;
	for (size_t i = 0; i < s->nrings; i++) {
		struct ring *r = &s->rings[i];
		struct hwt_aux_span sp;
		bool wrapped = false;
		int n, err;

		if (!r->have_aux || !r->aux)
			continue;
		err = s->os->ops->ioctl(s->os->ctx, r->fd, PERF_EVENT_IOC_DISABLE, 0);
		if (err < 0)
			return hwt_error(HWT_ERR_IO,
					 "disabling the AUX event on cpu %d: %s", r->cpu,
					 strerror(-err));
		err = read_data(s, r);
		n = err < 0 ? err : hwt_ring_aux_snapshot(&r->auxr, find, &sp, &wrapped);
		if (n > 0 && s->o.snapshot_size && sp.len > s->o.snapshot_size) {
			/* The newest bytes are at the end of the copy; with
			 * records (intel_bts), whole ones, at least one. */
			uint64_t keep = s->o.snapshot_size;
			unsigned int al = r->auxr.alignment;
			if (al && keep % al)
				keep = keep < al ? al : keep - keep % al;
			if (keep < sp.len) {
				sp.data += sp.len - keep;
				sp.offset += sp.len - keep;
				sp.len = keep;
			}
		}
		if (n > 0)
			err = emit_aux(s, r, i, sp.offset, sp.data, sp.len, NULL, 0);
		else
			err = n;
		if (!s->stopped) {
			int e2 = s->os->ops->ioctl(s->os->ctx, r->fd,
						   PERF_EVENT_IOC_ENABLE, 0);
			if (!err && e2 < 0)
				err = hwt_error(HWT_ERR_IO,
						"re-enabling the AUX event on cpu %d: %s",
						r->cpu, strerror(-e2));
		}
		if (err < 0)
			return err;
		r->st.snapshots++;
		if (wrapped)
			r->st.snapshot_wraps++;
	}
	return 0;
}

static void unmap_close(struct hwt_session *s)
{
	const struct hwt_os *os = s->os;

	for (size_t i = 0; i < s->nrings; i++) {
		struct ring *r = &s->rings[i];
		if (r->aux)
			os->ops->munmap(os->ctx, r->aux, r->aux_len);
		if (r->map)
			os->ops->munmap(os->ctx, r->map, r->map_len);
		r->aux = NULL;
		r->map = NULL;
		hwt_ring_aux_fini(&r->auxr);
		hwt_ring_data_fini(&r->data);
		for (size_t k = 0; k < HWT_SESSION_MAX_PROBES; k++) {
			if (r->probe_fds[k] >= 0)
				os->ops->close(os->ctx, r->probe_fds[k]);
			r->probe_fds[k] = -1;
		}
		for (size_t k = 0; k < HWT_SESSION_MAX_BRANCH_MEMBERS; k++) {
			if (r->member_fds[k] >= 0)
				os->ops->close(os->ctx, r->member_fds[k]);
			r->member_fds[k] = -1;
		}
		if (r->samp_fd >= 0)
			os->ops->close(os->ctx, r->samp_fd);
		if (r->sb_fd >= 0)
			os->ops->close(os->ctx, r->sb_fd);
		if (r->fd >= 0)
			os->ops->close(os->ctx, r->fd);
		r->fd = r->sb_fd = r->samp_fd = -1;
	}
}

int hwt_session_stop(struct hwt_session *s)
{
	int err = 0;

	if (s->stopped || !s->opened)
		return 0;
	s->stopped = true;
	for (size_t i = 0; i < s->nrings; i++)
		ioctl_all(s, &s->rings[i], PERF_EVENT_IOC_DISABLE);
	for (size_t i = 0; i < s->nrings; i++)
		s->rings[i].reenable = false;
	err = read_all(s, true);
	unmap_close(s);
	return err;
}

int hwt_session_time_conv(const struct hwt_session *s,
			  struct hwt_pd_time_conv *tc)
{
	const struct perf_event_mmap_page *up = NULL;
	uint32_t seq;

	for (size_t i = 0; i < s->nrings && !up; i++)
		up = s->rings[i].map;
	if (!up || !up->cap_user_time_zero)
		return hwt_error(HWT_ERR_NOSUP,
				 "the kernel publishes no time conversion "
				 "(cap_user_time_zero) in the user page");
	/* The kernel rewrites these under the page's lock sequence. Each
	 * field is read with acquire so the closing read of the sequence
	 * cannot move before them (a seqlock reader without a fence). */
	do {
		struct perf_event_mmap_page caps;
		seq = __atomic_load_n(&up->lock, __ATOMIC_ACQUIRE);
		tc->time_shift = __atomic_load_n(&up->time_shift, __ATOMIC_ACQUIRE);
		tc->time_mult = __atomic_load_n(&up->time_mult, __ATOMIC_ACQUIRE);
		tc->time_zero = __atomic_load_n(&up->time_zero, __ATOMIC_ACQUIRE);
		tc->time_cycles = __atomic_load_n(&up->time_cycles, __ATOMIC_ACQUIRE);
		tc->time_mask = __atomic_load_n(&up->time_mask, __ATOMIC_ACQUIRE);
		caps.capabilities = __atomic_load_n(&up->capabilities,
						    __ATOMIC_ACQUIRE);
		tc->cap_user_time_zero = caps.cap_user_time_zero;
		tc->cap_user_time_short = caps.cap_user_time_short;
	} while (__atomic_load_n(&up->lock, __ATOMIC_ACQUIRE) != seq);
	return 0;
}

size_t hwt_session_nr_rings(const struct hwt_session *s)
{
	return s->nrings;
}

int hwt_session_stats(const struct hwt_session *s, size_t ring,
		      struct hwt_capture_stats *stats)
{
	if (ring >= s->nrings)
		return hwt_error(HWT_ERR_NOENT, "session: no ring %zu", ring);
	*stats = s->rings[ring].st;
	return 0;
}

void hwt_session_free(struct hwt_session *s)
{
	if (!s)
		return;
	if (s->opened && !s->stopped) {
		s->stopped = true;
		unmap_close(s);
	}
	for (size_t i = 0; i < s->nattrs; i++)
		free(s->attrs[i].ids);
	free(s->rings);
	free(s);
}
