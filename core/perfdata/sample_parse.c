/* PERF_RECORD_SAMPLE as perf_event_open(2) lays it out, up to the AUX
 * data that comes last but for the page sizes. */
#include <inttypes.h>

#include "core/perfdata/perfdata_format.h"
#include "hwtrace/error.h"
#include "hwtrace/sample.h"

struct cursor {
	const uint8_t *p, *end;
	bool bad;
};

static uint64_t take(struct cursor *c)
{
	if (c->bad || c->end - c->p < 8) {
		c->bad = true;
		return 0;
	}
	uint64_t v = pd_u64(c->p);
	c->p += 8;
	return v;
}

static void skip(struct cursor *c, uint64_t n)
{
	if (c->bad || (uint64_t)(c->end - c->p) < n) {
		c->bad = true;
		return;
	}
	c->p += n;
}

static void skip_read(struct cursor *c, uint64_t fmt)
{
	uint64_t per = 1 + !!(fmt & PERF_FORMAT_ID) + !!(fmt & PERF_FORMAT_LOST);
	uint64_t times = !!(fmt & PERF_FORMAT_TOTAL_TIME_ENABLED) +
			 !!(fmt & PERF_FORMAT_TOTAL_TIME_RUNNING);
	if (fmt & PERF_FORMAT_GROUP) {
		uint64_t nr = take(c);
		if (nr > 65536)
			c->bad = true;
		skip(c, (times + nr * per) * 8);
	} else {
		skip(c, (times + per) * 8);
	}
}

static void skip_regs(struct cursor *c, uint64_t mask)
{
	/* abi 0 (PERF_SAMPLE_REGS_ABI_NONE): no registers follow. */
	if (take(c))
		skip(c, 8u * (uint64_t)__builtin_popcountll(mask));
}

int hwt_aux_sample_parse(const void *record, const struct perf_event_attr *attr,
			 struct hwt_aux_sample *s)
{
	const uint8_t *rec = record;
	memset(s, 0, sizeof(*s));
	if (!rec || !attr || pd_u32(rec) != PERF_RECORD_SAMPLE ||
	    pd_u16(rec + 6) < PD_EVENT_HEADER_SIZE)
		return hwt_error(HWT_ERR_FORMAT, "not a PERF_RECORD_SAMPLE");
	uint64_t st = attr->sample_type;
	struct cursor c = {rec + PD_EVENT_HEADER_SIZE, rec + pd_u16(rec + 6), false};
	uint64_t v;

	s->present = st;
	if (st & PERF_SAMPLE_IDENTIFIER)
		s->id = take(&c);
	if (st & PERF_SAMPLE_IP)
		s->ip = take(&c);
	if (st & PERF_SAMPLE_TID) {
		v = take(&c);
		s->pid = (uint32_t)v;
		s->tid = (uint32_t)(v >> 32);
	}
	if (st & PERF_SAMPLE_TIME)
		s->time = take(&c);
	if (st & PERF_SAMPLE_ADDR)
		s->addr = take(&c);
	if (st & PERF_SAMPLE_ID)
		s->id = take(&c);
	if (st & PERF_SAMPLE_STREAM_ID)
		take(&c);
	if (st & PERF_SAMPLE_CPU)
		s->cpu = (uint32_t)take(&c);
	if (st & PERF_SAMPLE_PERIOD)
		s->period = take(&c);
	if (st & PERF_SAMPLE_READ)
		skip_read(&c, attr->read_format);
	if (st & PERF_SAMPLE_CALLCHAIN) {
		v = take(&c);
		if (v > 65536)
			c.bad = true;
		skip(&c, v * 8);
	}
	if (st & PERF_SAMPLE_RAW) {
		/* u32 size, then size bytes; the whole is padded to 8. */
		if (c.bad || c.end - c.p < 4) {
			c.bad = true;
		} else {
			uint32_t n = pd_u32(c.p);
			skip(&c, ((uint64_t)n + 4 + 7) & ~7ull);
		}
	}
	if (st & PERF_SAMPLE_BRANCH_STACK) {
		v = take(&c);
		if (v > 65536)
			c.bad = true;
		if (attr->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX)
			take(&c);
		skip(&c, v * 24);
	}
	if (st & PERF_SAMPLE_REGS_USER)
		skip_regs(&c, attr->sample_regs_user);
	if (st & PERF_SAMPLE_STACK_USER) {
		v = take(&c);
		skip(&c, v);
		if (v)
			take(&c); /* dyn_size */
	}
	if (st & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT))
		take(&c);
	if (st & PERF_SAMPLE_DATA_SRC)
		take(&c);
	if (st & PERF_SAMPLE_TRANSACTION)
		take(&c);
	if (st & PERF_SAMPLE_REGS_INTR)
		skip_regs(&c, attr->sample_regs_intr);
	if (st & PERF_SAMPLE_PHYS_ADDR)
		take(&c);
	if (st & PERF_SAMPLE_CGROUP)
		take(&c);
	if (st & PERF_SAMPLE_DATA_PAGE_SIZE)
		take(&c);
	if (st & PERF_SAMPLE_CODE_PAGE_SIZE)
		take(&c);
	if (st & PERF_SAMPLE_AUX) {
		v = take(&c);
		if (!c.bad && v) {
			s->aux = c.p;
			s->aux_pos = (uint64_t)(c.p - rec);
			s->aux_size = v;
		}
		skip(&c, v);
	}
	if (c.bad) {
		memset(s, 0, sizeof(*s));
		return hwt_error(HWT_ERR_FORMAT,
				 "PERF_RECORD_SAMPLE of %u bytes is too short "
				 "for its sample_type 0x%" PRIx64,
				 pd_u16(rec + 6), st);
	}
	return 0;
}

int hwt_aux_sample_size_check(uint64_t size, int psb_period, const char *what,
			      char *warn, size_t warn_size)
{
	if (warn_size)
		warn[0] = 0;
	if (!size || size > HWT_AUX_SAMPLE_MAX_SIZE)
		return hwt_error(HWT_ERR_CONFIG,
				 "%s: AUX sample size %" PRIu64 " is out of range: "
				 "use 1 to %u bytes (a sample record is at most "
				 "64 KiB with its other fields)",
				 what, size, HWT_AUX_SAMPLE_MAX_SIZE);
	if (psb_period >= 0 && psb_period < 32) {
		uint64_t period = 1ull << (psb_period + 11);
		if (size <= period + 256 && warn_size)
			snprintf(warn, warn_size,
				 "%s: AUX sample size %" PRIu64 " may be too "
				 "small for the PSB period (%" PRIu64 " bytes, "
				 "psb_period=%d): windows without a PSB decode "
				 "to nothing; use more than %" PRIu64 " bytes or "
				 "a smaller psb_period",
				 what, size, period, psb_period, period + 256);
	}
	return 0;
}
