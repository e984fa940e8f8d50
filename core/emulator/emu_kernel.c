/* The kernel emulator's system calls: perf_event_open, mmap, ioctl, poll
 * and close as the kernel answers them for AUX PMUs. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/capture/barrier.h"
#include "core/emulator/emu_cs.h"
#include "core/emulator/emu_internal.h"
#include "hwtrace/addrfilter.h"
#include "hwtrace/auxaction.h"
#include "hwtrace/backend.h"
#include "hwtrace/error.h"

static const char *const aux_pmu_prefixes[] = {
	"intel_pt", "intel_bts", "cs_etm", "arm_spe", "hisi_ptt",
};

static struct emu_event *find_event(struct hwt_emu *emu, int fd)
{
	for (struct emu_event *ev = emu->events; ev; ev = ev->next)
		if (ev->fd == fd && !ev->closed)
			return ev;
	return NULL;
}

struct emu_stream *hwt_emu_stream_get(struct hwt_emu *emu, int cpu,
				      bool create)
{
	return hwt_emu_stream_at(emu, cpu, -1, create);
}

struct emu_stream *hwt_emu_stream_at(struct hwt_emu *emu, int cpu, int tid,
				     bool create)
{
	struct emu_stream *s;

	if (tid != -1)
		cpu = -1;
	for (size_t i = 0; i < emu->nstreams; i++)
		if (emu->streams[i]->cpu == cpu && emu->streams[i]->key_tid == tid)
			return emu->streams[i];
	if (!create)
		return NULL;
	if (emu->nstreams == emu->streams_cap) {
		size_t ncap = emu->streams_cap ? emu->streams_cap * 2 : 8;
		struct emu_stream **n = realloc(emu->streams, ncap * sizeof(*n));
		if (!n)
			return NULL;
		emu->streams = n;
		emu->streams_cap = ncap;
	}
	s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	s->cpu = cpu;
	s->key_tid = tid;
	s->pid = tid;
	s->tid = tid;
	emu->streams[emu->nstreams++] = s;
	return s;
}

static int emu_sysfs_read(void *ctx, const char *path, char *buf, size_t size)
{
	struct hwt_emu *emu = ctx;
	int ret = emu->sysfs ? emu->sysfs->ops->sysfs_read(emu->sysfs->ctx, path,
							  buf, size) : -ENOENT;

	/* The emulated uprobe PMU (emu_probe.c), unless the fixture has one. */
	if (ret == -ENOENT && !strcmp(path, "bus/event_source/devices/uprobe/type"))
		ret = snprintf(buf, size, "%u\n", HWT_EMU_UPROBE_TYPE);
	return ret;
}

static int emu_procfs_read(void *ctx, const char *path, char *buf, size_t size)
{
	const struct hwt_os *real = hwt_os_linux();
	return real->ops->procfs_read(real->ctx, path, buf, size);
}

static int emu_sysfs_list(void *ctx, const char *path, hwt_dir_cb cb,
			  void *arg)
{
	struct hwt_emu *emu = ctx;

	if (!emu->sysfs)
		return -ENOENT;
	return emu->sysfs->ops->sysfs_list(emu->sysfs->ctx, path, cb, arg);
}

static struct emu_pmu *find_pmu(struct hwt_emu *emu, uint32_t type)
{
	for (size_t i = 0; i < emu->npmus; i++)
		if (emu->pmus[i].type == type)
			return &emu->pmus[i];
	return NULL;
}

/* As perf_event_set_addr_filter: only a PMU with address filters takes
 * them, and no more ranges than it has. */
static int set_filter(struct hwt_emu *emu, struct emu_event *ev,
		      const char *text)
{
	const struct emu_pmu *pmu = find_pmu(emu, ev->attr.type);
	size_t n = hwt_addr_filter_count(text);

	if (!ev->aux_pmu || !pmu || strlen(text) >= sizeof(ev->filter))
		return -EINVAL;
	if (pmu->nr_addr_filters >= 0 && n > (size_t)pmu->nr_addr_filters)
		return -EINVAL;
	snprintf(ev->filter, sizeof(ev->filter), "%s", text);
	return 0;
}

int hwt_emu_event_filter(struct hwt_emu *emu, int cpu, char *buf, size_t size)
{
	int ret = HWT_ERR_NOENT;

	if (!emu || !buf || !size)
		return HWT_ERR_INVAL;
	pthread_mutex_lock(&emu->lock);
	for (struct emu_event *ev = emu->events; ev; ev = ev->next)
		if (ev->aux_pmu && ev->cpu == cpu) {
			snprintf(buf, size, "%s", ev->filter);
			ret = 0;
			break;
		}
	pthread_mutex_unlock(&emu->lock);
	return ret;
}

static bool is_aux_type(struct hwt_emu *emu, uint32_t type)
{
	for (size_t i = 0; i < emu->npmus; i++)
		if (emu->pmus[i].type == type)
			return true;
	return false;
}
struct emu_event *hwt_emu_event_new(struct hwt_emu *emu,
				     const struct perf_event_attr *attr,
				     int pid, int cpu, int *err)
{
	struct emu_event *ev = calloc(1, sizeof(*ev));
	if (!ev) {
		*err = -ENOMEM;
		return NULL;
	}
	ev->fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (ev->fd < 0) {
		*err = -errno;
		free(ev);
		return NULL;
	}
	memcpy(&ev->attr, attr, attr->size && attr->size < sizeof(*attr) ?
					    attr->size : sizeof(*attr));
	ev->cpu = cpu;
	ev->pid = pid;
	ev->emu = emu;
	/* No exec happens in the emulator: enable_on_exec means now. */
	ev->enabled = !attr->disabled || attr->enable_on_exec;
	return ev;
}


int hwt_emu_refuse(struct hwt_emu *emu, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(emu->refusal, sizeof(emu->refusal), fmt, ap);
	va_end(ap);
	return -EOPNOTSUPP;
}

int hwt_emu_refuse_unlocked(struct hwt_emu *emu, const char *why)
{
	pthread_mutex_lock(&emu->lock);
	int err = hwt_emu_refuse(emu, "%s", why);
	pthread_mutex_unlock(&emu->lock);
	return err;
}

static int emu_open_refusal(void *ctx, char *buf, size_t size)
{
	struct hwt_emu *emu = ctx;

	pthread_mutex_lock(&emu->lock);
	int n = snprintf(buf, size, "%s", emu->refusal);
	pthread_mutex_unlock(&emu->lock);
	return n < 0 ? 0 : (size_t)n < size ? n : (int)size - 1;
}

static int emu_perf_event_open(void *ctx, struct perf_event_attr *attr,
			       int pid, int cpu, int group_fd,
			       unsigned long flags)
{
	struct hwt_emu *emu = ctx;
	struct emu_event *ev;
	bool aux;

	pthread_mutex_lock(&emu->lock);
	emu->refusal[0] = '\0';
	pthread_mutex_unlock(&emu->lock);

	/* AUX sampling: a sampling event in an AUX event's group. */
	if (attr->sample_type & PERF_SAMPLE_AUX)
		return hwt_emu_open_sampler(emu, attr, pid, cpu, group_fd);
	/* A uprobe that pauses or resumes an AUX event's trace. */
	if (hwt_emu_is_probe_type(attr->type))
		return hwt_emu_open_probe(emu, attr, pid, cpu, group_fd);
	/* Branch records: a sampling event of the CPU's PMU. */
	if (attr->sample_type & PERF_SAMPLE_BRANCH_STACK)
		return hwt_emu_open_brsampler(emu, attr, pid, cpu,
					      group_fd);
	/* A counting member of a branch sampler's group. */
	if (group_fd != -1 && (attr->type == PERF_TYPE_HARDWARE ||
			       attr->type == PERF_TYPE_RAW))
		return hwt_emu_open_brmember(emu, attr, pid, cpu, group_fd);
	if (attr->type == PERF_TYPE_SOFTWARE) {
		if (attr->config != PERF_COUNT_SW_DUMMY)
			return -EOPNOTSUPP;
		aux = false;
	} else {
		pthread_mutex_lock(&emu->lock);
		aux = is_aux_type(emu, attr->type);
		pthread_mutex_unlock(&emu->lock);
		if (!aux)
			return -ENOENT;
	}
	if (pid == -1 && cpu == -1)
		return -EINVAL;
	int err;
	if (!(ev = hwt_emu_event_new(emu, attr, pid, cpu, &err)))
		return err;
	ev->aux_pmu = aux;
	pthread_mutex_lock(&emu->lock);
	ev->id = emu->next_id++;
	if (aux) {
		const struct emu_pmu *pmu = find_pmu(emu, attr->type);
		ev->cs_sink = pmu && !strncmp(pmu->name, "cs_etm", 6);
		ev->bts_format = pmu && !strcmp(pmu->name, "intel_bts");
		ev->pt_format = pmu && !strcmp(pmu->name, "intel_pt");
		ev->paused = hwt_attr_aux_action(attr) & HWT_AUX_START_PAUSED;
		ev->stream = NULL;
		if (cpu == -1 && pid != -1)
			ev->stream = hwt_emu_stream_at(emu, -1, pid, false);
		if (!ev->stream)
			ev->stream = hwt_emu_stream_get(emu, cpu, false);
		if (!ev->stream && cpu == -1 && emu->nstreams &&
		    emu->streams[0]->key_tid == -1)
			ev->stream = emu->streams[0];
		if (ev->stream && ev->stream->ev)
			ev->stream = NULL; /* already served */
		if (ev->stream) {
			ev->stream->ev = ev;
			if (ev->stream->id_set)
				ev->id = ev->stream->id;
			if (!ev->stream->task_set && pid != -1) {
				ev->stream->pid = pid;
				ev->stream->tid = pid;
			}
		}
	}
	ev->next = emu->events;
	emu->events = ev;
	pthread_mutex_unlock(&emu->lock);
	return ev->fd;
}

static bool pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

static int map_data(struct emu_event *ev, size_t len, void **addr)
{
	long page = sysconf(_SC_PAGESIZE);
	uint64_t data = len - (uint64_t)page;
	void *p;

	if (len < (size_t)page || len % (size_t)page ||
	    (data && !pow2(data / (uint64_t)page)))
		return -EINVAL;
	if (ev->map || ev->output)
		return -EINVAL;
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		 -1, 0);
	if (p == MAP_FAILED)
		return -ENOMEM;
	ev->map = p;
	ev->map_len = len;
	ev->up = p;
	ev->data = (uint8_t *)p + page;
	ev->data_size = data;
	ev->up->data_offset = (uint64_t)page;
	ev->up->data_size = data;
	/* perf time from the TSC, as an x86 kernel publishes it (see
	 * emulator.h): time = time_zero + (tsc * time_mult) >> time_shift. */
	if (!ev->emu->no_time_conv) {
		ev->up->cap_user_time = 1;
		ev->up->cap_user_time_zero = 1;
		ev->up->time_shift = HWT_EMU_TIME_SHIFT;
		ev->up->time_mult = HWT_EMU_TIME_MULT;
		ev->up->time_zero = HWT_EMU_TIME_ZERO;
	}
	*addr = p;
	return 0;
}

static int map_aux(struct hwt_emu *emu, struct emu_event *ev, size_t len,
		   int prot, uint64_t offset, void **addr)
{
	long page = sysconf(_SC_PAGESIZE);
	struct perf_event_mmap_page *up = ev->up;
	void *p;

	if (!up || ev->aux)
		return -EINVAL;
	if (!ev->aux_pmu)
		return -EOPNOTSUPP;
	if (offset != up->aux_offset || len != up->aux_size ||
	    offset % (uint64_t)page || len % (size_t)page ||
	    !pow2(len / (uint64_t)page) ||
	    offset < up->data_offset + up->data_size)
		return -EINVAL;
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		 -1, 0);
	if (p == MAP_FAILED)
		return -ENOMEM;
	ev->aux = p;
	ev->aux_len = len;
	ev->overwrite = !(prot & PROT_WRITE);
	ev->watermark = ev->attr.aux_watermark ? ev->attr.aux_watermark : len / 2;
	if (ev->watermark > len)
		ev->watermark = len;
	*addr = p;
	if (ev->stream) {
		ev->stop = false;
		ev->rate_t0 = hwt_emu_now_ns();
		ev->rate_base = ev->stream->st.produced;
		if (pthread_create(&ev->thread, NULL, hwt_emu_producer_main, ev))
			return -EAGAIN;
		ev->thread_running = true;
	}
	(void)emu;
	return 0;
}

static int emu_mmap(void *ctx, int fd, size_t len, int prot, uint64_t offset,
		    void **addr)
{
	struct hwt_emu *emu = ctx;
	struct emu_event *ev;
	int ret;

	pthread_mutex_lock(&emu->lock);
	ev = find_event(emu, fd);
	if (!ev)
		ret = -EBADF;
	else if (offset == 0) {
		ret = map_data(ev, len, addr);
		if (!ret && ev->attr.sample_type & PERF_SAMPLE_BRANCH_STACK)
			ret = hwt_emu_brsampler_start(ev);
	}
	else
		ret = map_aux(emu, ev, len, prot, offset, addr);
	pthread_mutex_unlock(&emu->lock);
	return ret;
}

/* Called with the lock held; drops it while joining. */
static void stop_producer(struct hwt_emu *emu, struct emu_event *ev)
{
	if (!ev->thread_running)
		return;
	ev->stop = true;
	pthread_cond_broadcast(&emu->cond);
	pthread_mutex_unlock(&emu->lock);
	pthread_join(ev->thread, NULL);
	pthread_mutex_lock(&emu->lock);
	ev->thread_running = false;
}

static int emu_munmap(void *ctx, void *addr, size_t len)
{
	struct hwt_emu *emu = ctx;
	int ret = -EINVAL;

	pthread_mutex_lock(&emu->lock);
	for (struct emu_event *ev = emu->events; ev; ev = ev->next) {
		if (addr == ev->aux && len == ev->aux_len) {
			stop_producer(emu, ev);
			munmap(ev->aux, ev->aux_len);
			ev->aux = NULL;
			ret = 0;
			break;
		}
		if (addr == ev->map && len == ev->map_len) {
			stop_producer(emu, ev);
			munmap(ev->map, ev->map_len);
			ev->map = NULL;
			ev->up = NULL;
			ev->data = NULL;
			ret = 0;
			break;
		}
	}
	pthread_mutex_unlock(&emu->lock);
	return ret;
}

static int emu_ioctl(void *ctx, int fd, unsigned long request,
		     unsigned long arg)
{
	struct hwt_emu *emu = ctx;
	struct emu_event *ev, *target;
	int ret = 0;

	pthread_mutex_lock(&emu->lock);
	ev = find_event(emu, fd);
	if (!ev) {
		ret = -EBADF;
		goto out;
	}
	switch (request) {
	case PERF_EVENT_IOC_ENABLE:
		if (!ev->enabled) {
			ev->enabled = true;
			ev->kernel_disabled = false;
			ev->rate_t0 = hwt_emu_now_ns();
			ev->rate_base = ev->stream ? ev->stream->st.produced : 0;
		} else if (ev->stream) {
			ev->stream->st.idle_enables++;
		}
		pthread_cond_broadcast(&emu->cond);
		break;
	case PERF_EVENT_IOC_DISABLE:
		hwt_emu_aux_window_end(ev);
		ev->enabled = false;
		ev->kernel_disabled = false;
		break;
	case PERF_EVENT_IOC_ID:
		*(uint64_t *)arg = ev->id;
		break;
	case PERF_EVENT_IOC_SET_OUTPUT:
		if ((int)arg == -1) {
			ev->output = NULL;
			break;
		}
		target = find_event(emu, (int)arg);
		if (!target || target == ev || ev->map ||
		    (target->cpu != ev->cpu && ev->cpu != -1))
			ret = -EINVAL;
		else
			ev->output = target;
		break;
	case PERF_EVENT_IOC_SET_FILTER:
		ret = set_filter(emu, ev, (const char *)arg);
		break;
	case PERF_EVENT_IOC_PAUSE_OUTPUT:
	case PERF_EVENT_IOC_RESET:
		break;
	default:
		ret = -ENOTTY;
	}
out:
	pthread_mutex_unlock(&emu->lock);
	return ret;
}

/* Finished: the source is exhausted and the producer is gone, so nothing
 * more will come (the kernel's POLLHUP when the traced task is gone). */
static bool event_finished(const struct emu_event *ev)
{
	if (ev->attr.sample_type & PERF_SAMPLE_BRANCH_STACK)
		return ev->br_done;
	if (!ev->aux_pmu)
		return false;
	if (!ev->stream)
		return ev->aux != NULL;
	return ev->stream->st.finished;
}

static int emu_poll(void *ctx, struct pollfd *fds, unsigned int nfds,
		    int timeout_ms)
{
	struct hwt_emu *emu = ctx;
	bool hup = false;
	int ret;

	pthread_mutex_lock(&emu->lock);
	for (unsigned int i = 0; i < nfds; i++) {
		struct emu_event *ev = find_event(emu, fds[i].fd);
		if (ev && event_finished(ev))
			hup = true;
	}
	pthread_mutex_unlock(&emu->lock);
	ret = poll(fds, nfds, hup ? 0 : timeout_ms);
	if (ret < 0)
		return -errno;
	ret = 0;
	pthread_mutex_lock(&emu->lock);
	for (unsigned int i = 0; i < nfds; i++) {
		struct emu_event *ev = find_event(emu, fds[i].fd);
		if (ev) {
			uint64_t v;
			if (fds[i].revents & POLLIN) {
				if (read(ev->fd, &v, sizeof(v)) < 0)
					fds[i].revents &= (short)~POLLIN;
			}
			if (event_finished(ev))
				fds[i].revents |= POLLHUP;
		}
		if (fds[i].revents)
			ret++;
	}
	pthread_mutex_unlock(&emu->lock);
	return ret;
}

static int emu_close(void *ctx, int fd)
{
	struct hwt_emu *emu = ctx;
	struct emu_event *ev;

	pthread_mutex_lock(&emu->lock);
	ev = find_event(emu, fd);
	if (!ev) {
		pthread_mutex_unlock(&emu->lock);
		return -EBADF;
	}
	stop_producer(emu, ev);
	for (struct emu_event *o = emu->events; o; o = o->next)
		if (o->output == ev)
			o->output = NULL;
	ev->closed = true;
	close(ev->fd);
	ev->fd = -1;
	pthread_mutex_unlock(&emu->lock);
	return 0;
}

static int emu_event_enabled(void *ctx, int fd)
{
	struct hwt_emu *emu = ctx;
	struct emu_event *ev;
	int ret;

	pthread_mutex_lock(&emu->lock);
	ev = find_event(emu, fd);
	ret = !ev ? -EBADF : ev->enabled ? 1 : 0;
	pthread_mutex_unlock(&emu->lock);
	return ret;
}

static const struct hwt_os_ops emu_ops = {
	.size = sizeof(struct hwt_os_ops),
	.sysfs_read = emu_sysfs_read,
	.procfs_read = emu_procfs_read,
	.sysfs_list = emu_sysfs_list,
	.perf_event_open = emu_perf_event_open,
	.mmap = emu_mmap,
	.munmap = emu_munmap,
	.ioctl = emu_ioctl,
	.poll = emu_poll,
	.close = emu_close,
	.event_enabled = emu_event_enabled,
	.open_refusal = emu_open_refusal,
};

static int add_pmu_locked(struct hwt_emu *emu, const char *name, uint32_t type)
{
	struct emu_pmu *n = realloc(emu->pmus, (emu->npmus + 1) * sizeof(*n));

	if (!n)
		return hwt_error(HWT_ERR_NOMEM, "no memory for emulated PMU %s", name);
	emu->pmus = n;
	snprintf(n[emu->npmus].name, sizeof(n[emu->npmus].name), "%s", name);
	n[emu->npmus].type = type;
	n[emu->npmus].nr_addr_filters = -1;
	emu->npmus++;
	return 0;
}

/* A fixture PMU is an AUX PMU when hwtrace knows its name, or when a
 * registered backend (an out-of-tree one too) drives it. */
static bool is_aux_pmu_name(const char *name)
{
	const struct hwt_backend *b;

	for (size_t i = 0; i < sizeof(aux_pmu_prefixes) / sizeof(*aux_pmu_prefixes);
	     i++)
		if (!strncmp(name, aux_pmu_prefixes[i], strlen(aux_pmu_prefixes[i])))
			return true;
	for (size_t i = 0; (b = hwt_backend_at(i)); i++)
		if (b->pmu_name && !strcmp(b->pmu_name, name))
			return true;
	return false;
}

static int fixture_pmu(void *arg, const char *name, int is_dir)
{
	struct hwt_emu *emu = arg;
	char path[512];
	uint64_t type;

	if (is_aux_pmu_name(name)) {
		snprintf(path, sizeof(path), "bus/event_source/devices/%s/type", name);
		if (hwt_os_sysfs_read_u64(emu->sysfs, path, &type) == 0 &&
		    add_pmu_locked(emu, name, (uint32_t)type) == 0) {
			uint64_t nr;
			snprintf(path, sizeof(path),
				 "bus/event_source/devices/%s/nr_addr_filters", name);
			emu->pmus[emu->npmus - 1].nr_addr_filters =
				hwt_os_sysfs_read_u64(emu->sysfs, path, &nr) < 0 ? 0 :
				nr > 64 ? 64 : (int)nr;
		}
	}
	return 0;
}

int hwt_emu_new(const struct hwt_emu_opts *opts, struct hwt_emu **out)
{
	struct hwt_emu *emu = calloc(1, sizeof(*emu));

	*out = NULL;
	if (!emu)
		return hwt_error(HWT_ERR_NOMEM, "no memory for the kernel emulator");
	if (opts)
		memcpy(&emu->opts, opts, opts->size && opts->size < sizeof(*opts) ?
						 opts->size : sizeof(*opts));
	emu->opts.size = sizeof(emu->opts);
	if (!emu->opts.burst)
		emu->opts.burst = 4096;
	pthread_mutex_init(&emu->lock, NULL);
	pthread_cond_init(&emu->cond, NULL);
	emu->next_id = 1;
	emu->os.ops = &emu_ops;
	emu->os.ctx = emu;
	if (emu->opts.sysfs_root) {
		emu->sysfs = hwt_os_linux_new(emu->opts.sysfs_root);
		if (!emu->sysfs) {
			hwt_emu_free(emu);
			return hwt_error(HWT_ERR_NOMEM, "no memory for the emulator");
		}
		emu->sysfs->ops->sysfs_list(emu->sysfs->ctx,
					    "bus/event_source/devices", fixture_pmu,
					    emu);
	}
	emu->opts.sysfs_root = NULL;
	*out = emu;
	return 0;
}

void hwt_emu_free(struct hwt_emu *emu)
{
	struct emu_event *ev, *next;

	if (!emu)
		return;
	pthread_mutex_lock(&emu->lock);
	for (ev = emu->events; ev; ev = ev->next)
		stop_producer(emu, ev);
	pthread_mutex_unlock(&emu->lock);
	for (ev = emu->events; ev; ev = next) {
		next = ev->next;
		if (ev->aux)
			munmap(ev->aux, ev->aux_len);
		if (ev->map)
			munmap(ev->map, ev->map_len);
		if (!ev->closed)
			close(ev->fd);
		free(ev->hits);
		if (ev->cs_cut) {
			hwt_emu_cs_cut_close(ev->cs_cut);
			free(ev->cs_cut);
		}
		free(ev);
	}
	for (size_t i = 0; i < emu->nstreams; i++) {
		struct emu_stream *s = emu->streams[i];
		for (size_t j = 0; j < s->nitems; j++)
			if (s->items[j].kind == EMU_ITEM_RECORD || s->items[j].owned)
				free((void *)s->items[j].data);
		free(s->items);
		free(s->segs);
		free(s);
	}
	free(emu->streams);
	free(emu->pmus);
	hwt_emu_replay_free(emu->replay);
	hwt_emu_branch_free(emu->branch_src);
	hwt_os_free(emu->sysfs);
	pthread_mutex_destroy(&emu->lock);
	pthread_cond_destroy(&emu->cond);
	free(emu);
}

const struct hwt_os *hwt_emu_os(struct hwt_emu *emu)
{
	return &emu->os;
}

int hwt_emu_set_head_in_buffer(struct hwt_emu *emu, bool in_buffer)
{
	int ret = 0;

	pthread_mutex_lock(&emu->lock);
	for (struct emu_event *ev = emu->events; ev; ev = ev->next)
		if (ev->thread_running)
			ret = hwt_error(HWT_ERR_BUSY,
					"emulator: AUX buffers are already written");
	if (!ret)
		emu->opts.head_in_buffer = in_buffer;
	pthread_mutex_unlock(&emu->lock);
	return ret;
}

int hwt_emu_add_pmu(struct hwt_emu *emu, const char *name, uint32_t type)
{
	int ret;

	pthread_mutex_lock(&emu->lock);
	ret = is_aux_type(emu, type) ? 0 : add_pmu_locked(emu, name, type);
	pthread_mutex_unlock(&emu->lock);
	return ret;
}

/* A replayed stream's ITRACE_START: the producer writes none of its
 * own, and on a CPU's stream the first one names the task (pid, tid
 * after the header) that ran when the trace started, which the samples
 * of the stream's events (probes, AUX samples) then carry instead of
 * none (-1) unless the stream is given one. */
static void itrace_start_task(struct emu_stream *s, const struct emu_item *it)
{
	uint32_t pidtid[2];

	s->has_itrace_start = true;
	if (s->task_set || s->key_tid != -1 || s->pid != -1 || it->len < 16)
		return;
	memcpy(pidtid, it->data + 8, sizeof(pidtid));
	s->pid = (int)pidtid[0];
	s->tid = (int)pidtid[1];
}

static int push_item_at(struct hwt_emu *emu, int cpu, int tid,
			struct emu_item item, bool live)
{
	struct emu_stream *s;
	int ret = 0;

	pthread_mutex_lock(&emu->lock);
	s = hwt_emu_stream_at(emu, cpu, tid, true);
	if (!s) {
		ret = hwt_error(HWT_ERR_NOMEM, "no memory for an emulator stream");
		goto out;
	}
	if (live && s->closed) {
		ret = hwt_error(HWT_ERR_INVAL,
				"emulator stream of cpu %d, task %d is closed", cpu,
				tid);
		goto out;
	}
	/* Its event already ended (it was opened before the stream became
	 * live): what is pushed now would never be produced. */
	if (live && s->st.finished) {
		ret = hwt_error(HWT_ERR_INVAL,
				"emulator stream of cpu %d, task %d ended before "
				"this push: name its thread or push before its "
				"event opens", cpu, tid);
		goto out;
	}
	if (live)
		s->live = true;
	if (s->ev && !live) {
		ret = hwt_error(HWT_ERR_BUSY,
				"emulator stream of cpu %d is already producing", cpu);
		goto out;
	}
	if (s->nitems == s->cap) {
		size_t ncap = s->cap ? s->cap * 2 : 16;
		struct emu_item *n = realloc(s->items, ncap * sizeof(*n));
		if (!n) {
			ret = hwt_error(HWT_ERR_NOMEM, "no memory for an emulator stream");
			goto out;
		}
		s->items = n;
		s->cap = ncap;
	}
	s->items[s->nitems++] = item;
	if (item.kind == EMU_ITEM_AUX)
		s->src_total += item.len * item.repeat;
	else if (((const struct perf_event_header *)item.data)->type ==
		 PERF_RECORD_ITRACE_START)
		itrace_start_task(s, &item);
	/* Wake a producer waiting for its live source. */
	if (live)
		pthread_cond_broadcast(&emu->cond);
out:
	pthread_mutex_unlock(&emu->lock);
	return ret;
}

static int push_item(struct hwt_emu *emu, int cpu, struct emu_item item)
{
	return push_item_at(emu, cpu, -1, item, false);
}

int hwt_emu_stream_aux(struct hwt_emu *emu, int cpu, const void *data,
		       uint64_t len, uint64_t repeat)
{
	struct emu_item item = {EMU_ITEM_AUX, data, len, repeat ? repeat : 1,
				false, false, 0, 0};

	if (!len)
		return 0;
	return push_item(emu, cpu, item);
}

int hwt_emu_stream_write(struct hwt_emu *emu, int cpu, const void *data,
			 uint64_t len, uint64_t flags, uint64_t time)
{
	struct emu_item item = {EMU_ITEM_AUX, data, len, 1, false, true, flags,
				time};

	return push_item(emu, cpu, item);
}

static int copy_record(const void *record, struct emu_item *item)
{
	const struct perf_event_header *h = record;
	uint8_t *copy;

	if (h->size < sizeof(*h) || h->size % 8)
		return hwt_error(HWT_ERR_FORMAT,
				 "emulator: record of type %u has size %u", h->type,
				 h->size);
	copy = malloc(h->size);
	if (!copy)
		return hwt_error(HWT_ERR_NOMEM, "no memory for an emulator record");
	memcpy(copy, record, h->size);
	*item = (struct emu_item){EMU_ITEM_RECORD, copy, h->size, 1, false,
				 false, 0, 0};
	return 0;
}

int hwt_emu_stream_push_aux(struct hwt_emu *emu, int cpu, int tid,
			    const void *data, uint64_t len)
{
	struct emu_item item = {EMU_ITEM_AUX, NULL, len, 1, true, false, 0, 0};
	uint8_t *copy;
	int ret;

	if (!len)
		return 0;
	copy = malloc(len);
	if (!copy)
		return hwt_error(HWT_ERR_NOMEM, "no memory for emulator trace bytes");
	memcpy(copy, data, len);
	item.data = copy;
	ret = push_item_at(emu, cpu, tid, item, true);
	if (ret < 0)
		free(copy);
	return ret;
}

int hwt_emu_stream_push_record(struct hwt_emu *emu, int cpu, int tid,
			       const void *record)
{
	struct emu_item item = {0};
	int ret = copy_record(record, &item);

	if (ret < 0)
		return ret;
	ret = push_item_at(emu, cpu, tid, item, true);
	if (ret < 0)
		free((void *)item.data);
	return ret;
}

int hwt_emu_stream_close(struct hwt_emu *emu, int cpu, int tid)
{
	struct emu_stream *s;

	pthread_mutex_lock(&emu->lock);
	s = hwt_emu_stream_at(emu, cpu, tid, true);
	if (s) {
		s->live = true;
		s->closed = true;
		pthread_cond_broadcast(&emu->cond);
	}
	pthread_mutex_unlock(&emu->lock);
	return s ? 0 : hwt_error(HWT_ERR_NOMEM, "no memory for an emulator stream");
}

int hwt_emu_stream_set_thread(struct hwt_emu *emu, int pid, int tid,
			      uint64_t id)
{
	struct emu_stream *s;

	pthread_mutex_lock(&emu->lock);
	s = hwt_emu_stream_at(emu, -1, tid, true);
	if (s) {
		s->pid = pid;
		s->tid = tid;
		s->task_set = true;
		s->id = id;
		s->id_set = true;
		/* A thread is named before its first push: an event opened
		 * in between must wait for the pushes, not end at once as
		 * an empty replayed stream does (the thread's trace would
		 * then go nowhere). */
		s->live = true;
	}
	pthread_mutex_unlock(&emu->lock);
	return s ? 0 : hwt_error(HWT_ERR_NOMEM, "no memory for an emulator stream");
}

int hwt_emu_stream_record(struct hwt_emu *emu, int cpu, const void *record)
{
	const struct perf_event_header *h = record;
	struct emu_item item = {EMU_ITEM_RECORD, NULL, h->size, 1, false, false,
				0, 0};
	uint8_t *copy;
	int ret;

	if (h->size < sizeof(*h) || h->size % 8)
		return hwt_error(HWT_ERR_FORMAT,
				 "emulator: record of type %u has size %u", h->type,
				 h->size);
	copy = malloc(h->size);
	if (!copy)
		return hwt_error(HWT_ERR_NOMEM, "no memory for an emulator record");
	memcpy(copy, record, h->size);
	item.data = copy;
	ret = push_item(emu, cpu, item);
	if (ret < 0)
		free(copy);
	return ret;
}

int hwt_emu_stream_set_id(struct hwt_emu *emu, int cpu, uint64_t id)
{
	struct emu_stream *s;

	pthread_mutex_lock(&emu->lock);
	s = hwt_emu_stream_get(emu, cpu, true);
	if (s) {
		s->id = id;
		s->id_set = true;
	}
	pthread_mutex_unlock(&emu->lock);
	return s ? 0 : hwt_error(HWT_ERR_NOMEM, "no memory for an emulator stream");
}

int hwt_emu_stream_set_task(struct hwt_emu *emu, int cpu, int pid, int tid)
{
	struct emu_stream *s;

	pthread_mutex_lock(&emu->lock);
	s = hwt_emu_stream_get(emu, cpu, true);
	if (s) {
		s->pid = pid;
		s->tid = tid;
		s->task_set = true;
	}
	pthread_mutex_unlock(&emu->lock);
	return s ? 0 : hwt_error(HWT_ERR_NOMEM, "no memory for an emulator stream");
}

int hwt_emu_stream_stats(struct hwt_emu *emu, int cpu,
			 struct hwt_emu_stats *stats)
{
	return hwt_emu_stream_stats_at(emu, cpu, -1, stats);
}

int hwt_emu_stream_stats_at(struct hwt_emu *emu, int cpu, int tid,
			    struct hwt_emu_stats *stats)
{
	struct emu_stream *s;

	pthread_mutex_lock(&emu->lock);
	s = hwt_emu_stream_at(emu, cpu, tid, false);
	if (s)
		*stats = s->st;
	pthread_mutex_unlock(&emu->lock);
	return s ? 0 : hwt_error(HWT_ERR_NOENT, "emulator: no stream for cpu %d", cpu);
}

int hwt_emu_stream_segments(struct hwt_emu *emu, int cpu,
			    const struct hwt_emu_segment **segs, size_t *count)
{
	struct emu_stream *s;

	pthread_mutex_lock(&emu->lock);
	s = hwt_emu_stream_get(emu, cpu, false);
	if (s) {
		*segs = s->segs;
		*count = s->nsegs;
	}
	pthread_mutex_unlock(&emu->lock);
	return s ? 0 : hwt_error(HWT_ERR_NOENT, "emulator: no stream for cpu %d", cpu);
}

int hwt_emu_stream_source_byte(struct hwt_emu *emu, int cpu, uint64_t src_pos)
{
	struct emu_stream *s = hwt_emu_stream_get(emu, cpu, false);

	if (!s)
		return -1;
	for (size_t i = 0; i < s->nitems; i++) {
		const struct emu_item *it = &s->items[i];
		uint64_t total;
		if (it->kind != EMU_ITEM_AUX)
			continue;
		total = it->len * it->repeat;
		if (src_pos < total)
			return it->data[src_pos % it->len];
		src_pos -= total;
	}
	return -1;
}
