/* Loading a capture into the emulator: its AUXTRACE buffers become the
 * source bytes of one stream per CPU, its sideband records are replayed
 * through the same data rings. */
#include <stdlib.h>
#include <string.h>

#include "core/emulator/emu_internal.h"
#include "core/emulator/emu_replay.h"
#include "hwtrace/backend.h"
#include "hwtrace/error.h"
#include "hwtrace/perfdata.h"

static int add_cpu(struct emu_replay_data *r, int cpu)
{
	int *n;

	for (int i = 0; i < r->ncpus; i++)
		if (r->cpus[i] == cpu)
			return 0;
	n = realloc(r->cpus, (size_t)(r->ncpus + 1) * sizeof(*n));
	if (!n)
		return HWT_ERR_NOMEM;
	r->cpus = n;
	r->cpus[r->ncpus++] = cpu;
	return 0;
}

static int keep_buf(struct emu_replay_data *r, void *buf)
{
	void **n = realloc(r->bufs, (r->nbufs + 1) * sizeof(*n));

	if (!n)
		return HWT_ERR_NOMEM;
	r->bufs = n;
	r->bufs[r->nbufs++] = buf;
	return 0;
}

static int copy_attrs(struct emu_replay_data *r, struct hwt_pd_reader *rd,
		      const char *path)
{
	size_t n = hwt_pd_reader_nr_attrs(rd);
	bool found = false;

	r->attrs = calloc(n ? n : 1, sizeof(*r->attrs));
	r->ids = calloc(n ? n : 1, sizeof(*r->ids));
	r->nids = calloc(n ? n : 1, sizeof(*r->nids));
	r->names = calloc(n ? n : 1, sizeof(*r->names));
	if (!r->attrs || !r->ids || !r->nids || !r->names)
		return HWT_ERR_NOMEM;
	r->nattrs = n;
	for (size_t i = 0; i < n; i++) {
		const struct hwt_pd_attr *a = hwt_pd_reader_attr(rd, i);
		r->attrs[i] = a->attr;
		r->nids[i] = a->nids;
		r->ids[i] = calloc(a->nids ? a->nids : 1, sizeof(uint64_t));
		if (!r->ids[i])
			return HWT_ERR_NOMEM;
		if (a->nids)
			memcpy(r->ids[i], a->ids, a->nids * sizeof(uint64_t));
		if (a->name && !(r->names[i] = strdup(a->name)))
			return HWT_ERR_NOMEM;
		if (!found && a->attr.type >= PERF_TYPE_MAX) {
			r->aux_index = i;
			found = true;
		}
	}
	if (!found)
		return hwt_error(HWT_ERR_FORMAT,
				 "%s: no AUX event among its %zu events: not a trace "
				 "capture", path, n);
	return 0;
}

/* Pass 1: the CPUs of the AUX streams and the id each one's records
 * carry, so sideband can be routed and ids kept. */
static int scan(struct hwt_emu *emu, struct emu_replay_data *r,
		const char *path)
{
	struct hwt_pd_reader *rd;
	struct hwt_pd_record rec;
	int ret;

	ret = hwt_pd_reader_open(path, &rd);
	if (ret < 0)
		return ret;
	ret = copy_attrs(r, rd, path);
	while (ret >= 0 && (ret = hwt_pd_reader_next(rd, &rec)) > 0) {
		if (rec.type == HWT_PD_RECORD_AUXTRACE) {
			if (add_cpu(r, (int32_t)rec.aux.cpu) < 0)
				ret = HWT_ERR_NOMEM;
		} else if (rec.type == PERF_RECORD_AUX &&
			   (rec.sid.present & (PERF_SAMPLE_ID | PERF_SAMPLE_IDENTIFIER)) &&
			   (rec.sid.present & PERF_SAMPLE_CPU)) {
			hwt_emu_stream_set_id(emu, (int)rec.sid.cpu, rec.sid.id);
		} else if (rec.type == HWT_PD_RECORD_AUXTRACE_INFO && !r->info) {
			r->info = malloc(rec.size);
			if (!r->info)
				ret = HWT_ERR_NOMEM;
			else
				memcpy(r->info, rec.data, rec.size);
		} else if (rec.type == HWT_PD_RECORD_TIME_CONV && !r->time_conv) {
			r->time_conv = malloc(rec.size);
			if (!r->time_conv)
				ret = HWT_ERR_NOMEM;
			else
				memcpy(r->time_conv, rec.data, rec.size);
		}
	}
	hwt_pd_reader_free(rd);
	if (ret < 0)
		return ret;
	if (!r->ncpus)
		return hwt_error(HWT_ERR_FORMAT,
				 "%s holds no AUXTRACE data: nothing to replay", path);
	/* Streams whose AUX records carried no id take the AUX event's id
	 * at the CPU's index (perf lists ids in CPU map order). */
	for (int i = 0; i < r->ncpus; i++) {
		struct emu_stream *st = hwt_emu_stream_get(emu, r->cpus[i], true);
		size_t n = r->nids[r->aux_index], k;
		if (!st)
			return HWT_ERR_NOMEM;
		if (st->id_set || !n)
			continue;
		k = r->cpus[i] >= 0 && (size_t)r->cpus[i] < n ? (size_t)r->cpus[i] : 0;
		hwt_emu_stream_set_id(emu, r->cpus[i], r->ids[r->aux_index][k]);
	}
	return 0;
}

static bool replayed(uint32_t type)
{
	return type < HWT_PD_RECORD_HEADER_ATTR && type != PERF_RECORD_AUX &&
	       type != PERF_RECORD_LOST;
}

static int stream_of(const struct emu_replay_data *r,
		     const struct hwt_pd_record *rec)
{
	if (rec->sid.present & PERF_SAMPLE_CPU)
		for (int i = 0; i < r->ncpus; i++)
			if (r->cpus[i] == (int)rec->sid.cpu)
				return r->cpus[i];
	return r->cpus[0];
}

int hwt_emu_load_capture(struct hwt_emu *emu, const char *path)
{
	struct emu_replay_data *r = calloc(1, sizeof(*r));
	struct hwt_pd_reader *rd = NULL;
	struct hwt_pd_record rec;
	const struct hwt_backend *be;
	int ret;

	if (!r)
		return hwt_error(HWT_ERR_NOMEM, "no memory to load %s", path);
	if (emu->replay) {
		free(r);
		return hwt_error(HWT_ERR_BUSY, "emulator: a capture is loaded already");
	}
	emu->replay = r;
	ret = scan(emu, r, path);
	if (ret < 0)
		return ret == HWT_ERR_NOMEM ?
			       hwt_error(ret, "no memory to load %s", path) : ret;
	if (!r->info)
		return hwt_error(HWT_ERR_FORMAT,
				 "%s has no AUXTRACE_INFO record: the decoder "
				 "metadata is missing", path);
	be = hwt_backend_for_auxtrace(
		(enum hwt_auxtrace_type)((const uint32_t *)r->info)[2]);
	/* Intel PT's driver reports aux_head inside the buffer in snapshot
	 * mode; the others let it run free. */
	emu->opts.head_in_buffer = ((const uint32_t *)r->info)[2] ==
				   HWT_AUXTRACE_INTEL_PT;
	ret = hwt_emu_add_pmu(emu, be && be->pmu_name ? be->pmu_name : "replay",
			      r->attrs[r->aux_index].type);
	if (ret < 0)
		return ret;
	ret = hwt_pd_reader_open(path, &rd);
	if (ret < 0)
		return ret;
	while ((ret = hwt_pd_reader_next(rd, &rec)) > 0) {
		if (rec.type == HWT_PD_RECORD_AUXTRACE && rec.aux.size) {
			void *copy = malloc(rec.aux.size);
			if (!copy || keep_buf(r, copy) < 0) {
				free(copy);
				ret = hwt_error(HWT_ERR_NOMEM, "no memory to load %s", path);
				break;
			}
			memcpy(copy, rec.aux_data, rec.aux.size);
			r->aux_bytes += rec.aux.size;
			ret = hwt_emu_stream_aux(emu, (int32_t)rec.aux.cpu, copy,
						 rec.aux.size, 1);
		} else if (replayed(rec.type) && rec.size % 8 == 0) {
			ret = hwt_emu_stream_record(emu, stream_of(r, &rec), rec.data);
		}
		if (ret < 0)
			break;
	}
	hwt_pd_reader_free(rd);
	return ret < 0 ? ret : 0;
}
