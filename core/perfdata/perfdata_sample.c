/* The sample_id fields of records: where perf_event_open(2) puts them. */
#include "core/perfdata/perfdata_format.h"
#include "hwtrace/error.h"

static int parse_trailer(const uint8_t *rec, uint16_t size, uint64_t st,
			 struct hwt_pd_sample_id *sid)
{
	/* Trailer order: TID, TIME, ID, STREAM_ID, CPU, IDENTIFIER. */
	size_t n = !!(st & PERF_SAMPLE_TID) + !!(st & PERF_SAMPLE_TIME) +
		   !!(st & PERF_SAMPLE_ID) + !!(st & PERF_SAMPLE_STREAM_ID) +
		   !!(st & PERF_SAMPLE_CPU) + !!(st & PERF_SAMPLE_IDENTIFIER);
	const uint8_t *p;

	if (n * 8 + PD_EVENT_HEADER_SIZE > size)
		return HWT_ERR_FORMAT;
	p = rec + size - n * 8;
	if (st & PERF_SAMPLE_TID) {
		sid->pid = pd_u32(p);
		sid->tid = pd_u32(p + 4);
		sid->present |= PERF_SAMPLE_TID;
		p += 8;
	}
	if (st & PERF_SAMPLE_TIME) {
		sid->time = pd_u64(p);
		sid->present |= PERF_SAMPLE_TIME;
		p += 8;
	}
	if (st & PERF_SAMPLE_ID) {
		sid->id = pd_u64(p);
		sid->present |= PERF_SAMPLE_ID;
		p += 8;
	}
	if (st & PERF_SAMPLE_STREAM_ID) {
		sid->stream_id = pd_u64(p);
		sid->present |= PERF_SAMPLE_STREAM_ID;
		p += 8;
	}
	if (st & PERF_SAMPLE_CPU) {
		sid->cpu = pd_u32(p);
		sid->present |= PERF_SAMPLE_CPU;
		p += 8;
	}
	if (st & PERF_SAMPLE_IDENTIFIER) {
		sid->id = pd_u64(p);
		sid->present |= PERF_SAMPLE_ID | PERF_SAMPLE_IDENTIFIER;
	}
	return 0;
}

static int parse_sample(const uint8_t *rec, uint16_t size, uint64_t st,
			struct hwt_pd_sample_id *sid)
{
	/* Leading order: IDENTIFIER, IP, TID, TIME, ADDR, ID, STREAM_ID, CPU. */
	const uint8_t *p = rec + PD_EVENT_HEADER_SIZE, *end = rec + size;
#define NEED() do { if (p + 8 > end) return HWT_ERR_FORMAT; } while (0)
	if (st & PERF_SAMPLE_IDENTIFIER) {
		NEED();
		sid->id = pd_u64(p);
		sid->present |= PERF_SAMPLE_ID | PERF_SAMPLE_IDENTIFIER;
		p += 8;
	}
	if (st & PERF_SAMPLE_IP) {
		NEED();
		p += 8;
	}
	if (st & PERF_SAMPLE_TID) {
		NEED();
		sid->pid = pd_u32(p);
		sid->tid = pd_u32(p + 4);
		sid->present |= PERF_SAMPLE_TID;
		p += 8;
	}
	if (st & PERF_SAMPLE_TIME) {
		NEED();
		sid->time = pd_u64(p);
		sid->present |= PERF_SAMPLE_TIME;
		p += 8;
	}
	if (st & PERF_SAMPLE_ADDR) {
		NEED();
		p += 8;
	}
	if (st & PERF_SAMPLE_ID) {
		NEED();
		sid->id = pd_u64(p);
		sid->present |= PERF_SAMPLE_ID;
		p += 8;
	}
	if (st & PERF_SAMPLE_STREAM_ID) {
		NEED();
		sid->stream_id = pd_u64(p);
		sid->present |= PERF_SAMPLE_STREAM_ID;
		p += 8;
	}
	if (st & PERF_SAMPLE_CPU) {
		NEED();
		sid->cpu = pd_u32(p);
		sid->present |= PERF_SAMPLE_CPU;
	}
#undef NEED
	return 0;
}

int hwt_pd_parse_sample_id(const void *record, uint64_t sample_type,
			   bool sample_id_all, struct hwt_pd_sample_id *sid)
{
	const uint8_t *rec = record;
	uint32_t type = pd_u32(rec);
	uint16_t size = pd_u16(rec + 6);

	memset(sid, 0, sizeof(*sid));
	if (size < PD_EVENT_HEADER_SIZE)
		return HWT_ERR_FORMAT;
	if (type == PERF_RECORD_SAMPLE)
		return parse_sample(rec, size, sample_type, sid);
	if (type >= PD_USER_TYPE_START || !sample_id_all)
		return 0;
	return parse_trailer(rec, size, sample_type, sid);
}
