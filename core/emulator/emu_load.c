/* Loading a capture into the emulator: each PERF_RECORD_AUX becomes one
 * write of its bytes (found in the AUXTRACE buffers) with its flags, in
 * the stream of its CPU, so the replay has the original's record
 * boundaries and losses; its sideband records are replayed through the
 * same data rings, in file order; bytes no record reports (records lost
 * to a full data ring) become writes of their own at their place. A
 * stream whose records do not map onto its AUXTRACE bytes (overwrite mode,
 * records without a CPU) replays its AUXTRACE bytes as a plain source
 * instead. */
#include <limits.h>
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

static int keep_auxtrace(struct emu_replay_data *r,
			 const struct hwt_pd_record *rec)
{
	struct emu_replay_buf *n;
	void *copy = NULL;

	if (rec->aux.size) {
		copy = malloc(rec->aux.size);
		if (!copy || keep_buf(r, copy) < 0) {
			free(copy);
			return HWT_ERR_NOMEM;
		}
		memcpy(copy, rec->aux_data, rec->aux.size);
	}
	n = realloc(r->abufs, (r->nabufs + 1) * sizeof(*n));
	if (!n)
		return HWT_ERR_NOMEM;
	r->abufs = n;
	r->abufs[r->nabufs++] = (struct emu_replay_buf){
		(int32_t)rec->aux.cpu, rec->aux.offset, rec->aux.size, copy};
	r->aux_bytes += rec->aux.size;
	return 0;
}

static int keep_aux(struct emu_replay_data *r, const struct hwt_pd_record *rec)
{
	const uint64_t *body = (const uint64_t *)((const uint8_t *)rec->data + 8);
	struct emu_replay_aux *n;

	if (rec->size < 8 + 24)
		return 0;
	n = realloc(r->auxs, (r->nauxs + 1) * sizeof(*n));
	if (!n)
		return HWT_ERR_NOMEM;
	r->auxs = n;
	r->auxs[r->nauxs++] = (struct emu_replay_aux){
		rec->sid.present & PERF_SAMPLE_CPU ? (int)rec->sid.cpu : INT_MIN,
		body[0], body[1], body[2],
		rec->sid.present & PERF_SAMPLE_TIME ? rec->sid.time : 0};
	return 0;
}

/* The stream an AUX record belongs to: its CPU's, the only one, or none
 * (INT_MIN). */
static int aux_stream(const struct emu_replay_data *r, int cpu)
{
	for (int i = 0; i < r->ncpus && cpu != INT_MIN; i++)
		if (r->cpus[i] == cpu)
			return cpu;
	return r->ncpus == 1 ? r->cpus[0] : INT_MIN;
}

/* The buffer of @cpu holding stream byte @pos: of those that do, the one
 * starting last, since a buffer's size counts the padding to 8 bytes that
 * overlaps the start of the next one. */
static const struct emu_replay_buf *buf_at(const struct emu_replay_data *r,
					   int cpu, uint64_t pos)
{
	const struct emu_replay_buf *best = NULL;

	for (size_t i = 0; i < r->nabufs; i++) {
		const struct emu_replay_buf *b = &r->abufs[i];
		if (b->cpu == cpu && b->offset <= pos && pos < b->offset + b->size &&
		    (!best || b->offset >= best->offset))
			best = b;
	}
	return best;
}

/* Where the first buffer of @cpu starting in (@lo, @hi) starts (a later
 * buffer takes over from an earlier one's padding there), else @hi. */
static uint64_t next_start(const struct emu_replay_data *r, int cpu,
			   uint64_t lo, uint64_t hi)
{
	for (size_t i = 0; i < r->nabufs; i++) {
		const struct emu_replay_buf *o = &r->abufs[i];
		if (o->cpu == cpu && o->offset > lo && o->offset < hi)
			hi = o->offset;
	}
	return hi;
}

/* Bytes [from, to) of the AUX stream of @cpu, from its AUXTRACE buffers:
 * borrowed from one buffer, or copied together from several. NULL with
 * *err 0 when some of them are not in the file. */
static const uint8_t *stream_bytes(struct emu_replay_data *r, int cpu,
				   uint64_t from, uint64_t to, int *err)
{
	const struct emu_replay_buf *b = buf_at(r, cpu, from);
	uint8_t *copy;

	*err = 0;
	if (!b)
		return NULL;
	if (to <= b->offset + b->size && next_start(r, cpu, from, to) == to)
		return b->data + (from - b->offset);
	copy = malloc(to - from);
	if (!copy) {
		*err = HWT_ERR_NOMEM;
		return NULL;
	}
	for (uint64_t pos = from; pos < to;) {
		uint64_t n;
		b = buf_at(r, cpu, pos);
		if (!b) {
			free(copy);
			return NULL;
		}
		n = b->offset + b->size - pos;
		if (n > to - pos)
			n = to - pos;
		n = next_start(r, cpu, pos, pos + n) - pos;
		memcpy(copy + (pos - from), b->data + (pos - b->offset), n);
		pos += n;
	}
	if (keep_buf(r, copy) < 0) {
		free(copy);
		*err = HWT_ERR_NOMEM;
		return NULL;
	}
	return copy;
}

/* A stream is replayed record by record when it has AUX records, none
 * in overwrite mode (whose offsets are the driver's own), and all of
 * their bytes are in the file. */
static int mark_structured(struct emu_replay_data *r)
{
	bool unknown = false;
	int err;

	r->structured = calloc((size_t)r->ncpus, sizeof(*r->structured));
	if (!r->structured)
		return HWT_ERR_NOMEM;
	for (size_t k = 0; k < r->nauxs; k++) {
		const struct emu_replay_aux *a = &r->auxs[k];
		int cpu = aux_stream(r, a->cpu);
		if (cpu == INT_MIN && a->size)
			unknown = true;
		for (int i = 0; i < r->ncpus; i++)
			if (r->cpus[i] == cpu)
				r->structured[i] = true;
	}
	for (size_t k = 0; k < r->nauxs && !unknown; k++) {
		const struct emu_replay_aux *a = &r->auxs[k];
		int cpu = aux_stream(r, a->cpu);
		bool ok = !(a->flags & PERF_AUX_FLAG_OVERWRITE) &&
			  (!a->size || stream_bytes(r, cpu, a->offset,
						    a->offset + a->size, &err));
		if (!a->size || ok)
			err = 0;
		if (err < 0)
			return err;
		for (int i = 0; i < r->ncpus && !ok; i++)
			if (r->cpus[i] == cpu)
				r->structured[i] = false;
	}
	if (unknown)
		memset(r->structured, 0, (size_t)r->ncpus * sizeof(*r->structured));
	return 0;
}

static bool structured(const struct emu_replay_data *r, int cpu)
{
	for (int i = 0; i < r->ncpus; i++)
		if (r->cpus[i] == cpu)
			return r->structured[i];
	return false;
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
	if (ret >= 0)
		ret = hwt_emu_replay_keep_build_ids(r, rd);
	while (ret >= 0 && (ret = hwt_pd_reader_next(rd, &rec)) > 0) {
		if (rec.type == HWT_PD_RECORD_AUXTRACE) {
			if (add_cpu(r, (int32_t)rec.aux.cpu) < 0 ||
			    keep_auxtrace(r, &rec) < 0)
				ret = HWT_ERR_NOMEM;
		} else if (rec.type == PERF_RECORD_AUX) {
			if (keep_aux(r, &rec) < 0)
				ret = HWT_ERR_NOMEM;
			if ((rec.sid.present & (PERF_SAMPLE_ID | PERF_SAMPLE_IDENTIFIER)) &&
			    (rec.sid.present & PERF_SAMPLE_CPU))
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
	ret = mark_structured(r);
	if (ret < 0)
		return ret;
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

/* Bytes [from, to) of a structured stream that no record reports (their
 * records were lost to a full data ring) as one write, when the file has
 * them; the writes after them keep their places. */
static int replay_unreported(struct hwt_emu *emu, struct emu_replay_data *r,
			     int cpu, uint64_t from, uint64_t to, uint64_t time)
{
	const uint8_t *data;
	int err;

	if (to <= from)
		return 0;
	data = stream_bytes(r, cpu, from, to, &err);
	if (!data)
		return err;
	return hwt_emu_stream_write(emu, cpu, data, to - from, 0, time);
}

/* One PERF_RECORD_AUX of a structured stream as one write; *next is where
 * the stream's next write starts. */
static int replay_aux(struct hwt_emu *emu, struct emu_replay_data *r, int cpu,
		      const struct emu_replay_aux *a, uint64_t *next)
{
	const uint8_t *data = NULL;
	int err = replay_unreported(emu, r, cpu, *next, a->offset, a->time);

	if (err < 0)
		return err;
	if (a->size)
		data = stream_bytes(r, cpu, a->offset, a->offset + a->size, &err);
	if (err < 0)
		return err;
	if (a->offset + a->size > *next)
		*next = a->offset + a->size;
	return hwt_emu_stream_write(emu, cpu, data, a->size, a->flags, a->time);
}

/* Where the AUXTRACE bytes of @cpu start (@last false) or end. */
static uint64_t stream_edge(const struct emu_replay_data *r, int cpu, bool last)
{
	uint64_t v = last ? 0 : UINT64_MAX;

	for (size_t i = 0; i < r->nabufs; i++) {
		const struct emu_replay_buf *b = &r->abufs[i];
		if (b->cpu != cpu)
			continue;
		if (!last && b->offset < v)
			v = b->offset;
		if (last && b->offset + b->size > v)
			v = b->offset + b->size;
	}
	return v;
}

/* Pass 2: the records in file order, each AUX record as one write. */
static int replay_records(struct hwt_emu *emu, struct emu_replay_data *r,
			  const char *path)
{
	struct hwt_pd_reader *rd;
	struct hwt_pd_record rec;
	size_t nbuf = 0, naux = 0;
	uint64_t *next = calloc((size_t)r->ncpus, sizeof(*next));
	int ret;

	if (!next)
		return HWT_ERR_NOMEM;
	for (int i = 0; i < r->ncpus; i++)
		next[i] = stream_edge(r, r->cpus[i], false);
	ret = hwt_pd_reader_open(path, &rd);
	if (ret < 0) {
		free(next);
		return ret;
	}
	hwt_pd_reader_set_load_aux(rd, false);
	while ((ret = hwt_pd_reader_next(rd, &rec)) > 0) {
		if (rec.type == HWT_PD_RECORD_AUXTRACE && nbuf < r->nabufs) {
			const struct emu_replay_buf *b = &r->abufs[nbuf++];
			if (b->size && !structured(r, b->cpu))
				ret = hwt_emu_stream_aux(emu, b->cpu, b->data, b->size, 1);
		} else if (rec.type == PERF_RECORD_AUX && rec.size >= 8 + 24 &&
			   naux < r->nauxs) {
			const struct emu_replay_aux *a = &r->auxs[naux++];
			int cpu = aux_stream(r, a->cpu);
			for (int i = 0; i < r->ncpus && cpu != INT_MIN; i++)
				if (r->cpus[i] == cpu && r->structured[i])
					ret = replay_aux(emu, r, cpu, a, &next[i]);
		} else if (replayed(rec.type) && rec.size % 8 == 0) {
			ret = hwt_emu_stream_record(emu, stream_of(r, &rec), rec.data);
		}
		if (ret < 0)
			break;
	}
	hwt_pd_reader_free(rd);
	/* Unreported bytes at the end; up to 7 are a buffer's padding. */
	for (int i = 0; i < r->ncpus && ret >= 0; i++) {
		uint64_t end = stream_edge(r, r->cpus[i], true);
		if (r->structured[i] && end > next[i] + 7)
			ret = replay_unreported(emu, r, r->cpus[i], next[i], end, 0);
	}
	free(next);
	return ret;
}

int hwt_emu_load_capture(struct hwt_emu *emu, const char *path)
{
	struct emu_replay_data *r = calloc(1, sizeof(*r));
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
	ret = replay_records(emu, r, path);
	if (ret == HWT_ERR_NOMEM)
		return hwt_error(ret, "no memory to load %s", path);
	return ret < 0 ? ret : 0;
}
