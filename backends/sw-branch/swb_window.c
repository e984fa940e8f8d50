/* sw_branch's flight recorder memory and window writer. A window is the
 * records each thread has kept at the moment its trigger fired, written
 * with the whole sideband so far so that it decodes on its own. */
#include <stdlib.h>
#include <string.h>

#include "backends/sw-branch/swb_window.h"
#include "hwtrace/bts_format.h"
#include "hwtrace/error.h"

void hwt_swb_window_init(struct hwt_swb_window *w, size_t records)
{
	memset(w, 0, sizeof(*w));
	w->cap = records ? records : 1;
}

static struct hwt_swb_ring *ring_of(struct hwt_swb_window *w, pid_t tid)
{
	for (size_t i = 0; i < w->nrings; i++)
		if (w->rings[i].tid == tid)
			return &w->rings[i];
	void *n = realloc(w->rings, (w->nrings + 1) * sizeof(*w->rings));
	if (!n)
		return NULL;
	w->rings = n;
	struct hwt_swb_ring *r = &w->rings[w->nrings];
	memset(r, 0, sizeof(*r));
	r->tid = tid;
	r->rec = malloc(w->cap * HWT_BTS_RECORD_SIZE);
	if (!r->rec)
		return NULL;
	w->nrings++;
	return r;
}

int hwt_swb_window_record(struct hwt_swb_window *w, pid_t tid,
			  const uint8_t *rec)
{
	struct hwt_swb_ring *r = ring_of(w, tid);

	if (!r)
		return hwt_error(HWT_ERR_NOMEM, "out of memory for the sw_branch "
				 "snapshot of thread %d", (int)tid);
	memcpy(r->rec + r->head * HWT_BTS_RECORD_SIZE, rec, HWT_BTS_RECORD_SIZE);
	r->head = (r->head + 1) % w->cap;
	if (r->n < w->cap)
		r->n++;
	r->total++;
	return 0;
}

int hwt_swb_window_sideband(struct hwt_swb_window *w,
			    const struct perf_event_header *h)
{
	if (w->sb_len + h->size > w->sb_cap) {
		size_t ncap = w->sb_cap ? 2 * w->sb_cap : 16384;
		while (ncap < w->sb_len + h->size)
			ncap *= 2;
		void *n = realloc(w->sb, ncap);
		if (!n)
			return hwt_error(HWT_ERR_NOMEM, "out of memory for the "
					 "sw_branch snapshot's sideband");
		w->sb = n;
		w->sb_cap = ncap;
	}
	memcpy(w->sb + w->sb_len, h, h->size);
	w->sb_len += h->size;
	return 0;
}

static uint64_t record_time(const uint8_t *rec)
{
	struct hwt_bts_record r;

	hwt_bts_record_read(rec, &r);
	return r.flags & HWT_BTS_FLAG_SWB_TIME ? r.flags >> HWT_BTS_SWB_TIME_SHIFT
					       : 0;
}

struct sample_id {
	uint32_t pid, tid;
	uint64_t time, id;
};

static int write_thread(struct hwt_pd_writer *pw, const struct hwt_swb_ring *r,
			size_t cap, uint32_t idx, pid_t pid, uint64_t aux_id)
{
	size_t len = (r->n + 1) * HWT_BTS_RECORD_SIZE;
	uint8_t *data = calloc(1, len);
	int err;

	if (!data)
		return hwt_error(HWT_ERR_NOMEM, "out of memory writing a "
				 "sw_branch window");
	size_t first = (r->head + cap - r->n) % cap;
	for (size_t i = 0; i < r->n; i++)
		memcpy(data + i * HWT_BTS_RECORD_SIZE,
		       r->rec + (first + i) % cap * HWT_BTS_RECORD_SIZE,
		       HWT_BTS_RECORD_SIZE);
	uint64_t t0 = r->n ? record_time(data) : 0;
	struct sample_id sid = {(uint32_t)pid, (uint32_t)r->tid, t0, aux_id};
	uint64_t offset = (r->total - r->n) * HWT_BTS_RECORD_SIZE;
	struct {
		struct perf_event_header h;
		uint32_t pid, tid;
		struct sample_id sid;
	} start = {{PERF_RECORD_ITRACE_START, 0, sizeof(start)},
		   (uint32_t)pid, (uint32_t)r->tid, sid};
	struct {
		struct perf_event_header h;
		uint64_t offset, size, flags;
		struct sample_id sid;
	} aux = {{PERF_RECORD_AUX, 0, sizeof(aux)}, offset, len, 0, sid};
	struct hwt_pd_auxtrace hdr = {
		.size = len, .offset = offset, .reference = t0, .idx = idx,
		.tid = (uint32_t)r->tid, .cpu = UINT32_MAX,
	};
	if (!(err = hwt_pd_writer_record(pw, &start)) &&
	    !(err = hwt_pd_writer_record(pw, &aux)))
		err = hwt_pd_writer_auxtrace(pw, &hdr, data);
	free(data);
	return err;
}

int hwt_swb_window_write(const struct hwt_swb_window *w,
			 struct hwt_pd_writer *pw, pid_t pid, uint64_t aux_id)
{
	int err = 0;

	for (size_t off = 0; off < w->sb_len && !err;) {
		const struct perf_event_header *h = (const void *)(w->sb + off);
		err = hwt_pd_writer_record(pw, h);
		off += h->size;
	}
	for (size_t i = 0; i < w->nrings && !err; i++)
		err = write_thread(pw, &w->rings[i], w->cap, (uint32_t)i, pid,
				   aux_id);
	return err ? err : hwt_pd_writer_finished_round(pw);
}

bool hwt_swb_window_reaches(const struct hwt_swb_window *w, pid_t tid,
			    uint64_t since_ns)
{
	for (size_t i = 0; i < w->nrings; i++) {
		const struct hwt_swb_ring *r = &w->rings[i];
		if (r->tid != tid)
			continue;
		if (r->total == r->n)
			return true;
		size_t first = (r->head + w->cap - r->n) % w->cap;
		return record_time(r->rec + first * HWT_BTS_RECORD_SIZE) <= since_ns;
	}
	return false;
}

void hwt_swb_window_free(struct hwt_swb_window *w)
{
	for (size_t i = 0; i < w->nrings; i++)
		free(w->rings[i].rec);
	free(w->rings);
	free(w->sb);
	memset(w, 0, sizeof(*w));
}
