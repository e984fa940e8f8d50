/* PERF_RECORD_SAMPLE as perf_event_open(2) lays it out, up to the AUX
 * data that comes last but for the page sizes, and the branch records
 * of PERF_SAMPLE_BRANCH_STACK. */
#include <inttypes.h>

#include "core/perfdata/perfdata_format.h"
#include "hwtrace/brstack.h"
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
		/* nr, hw_idx, the records, then one counter word per record. */
		uint64_t bst = attr->branch_sample_type;
		v = take(&c);
		if (v > 65536)
			c.bad = true;
		if (bst & PERF_SAMPLE_BRANCH_HW_INDEX) {
			s->br_hw_idx = take(&c);
			s->has_hw_idx = !c.bad;
		}
		if (!c.bad && v)
			s->br = c.p;
		skip(&c, v * HWT_BRSTACK_ENTRY_SIZE);
		if ((bst & HWT_SAMPLE_BRANCH_COUNTERS) && !c.bad && v)
			s->br_cntr = c.p;
		if (bst & HWT_SAMPLE_BRANCH_COUNTERS)
			skip(&c, v * 8);
		s->br_nr = v;
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

void hwt_brstack_entry_get(const struct hwt_aux_sample *s, uint64_t i,
			   struct hwt_brstack_entry *out)
{
	const uint8_t *p = s->br + i * HWT_BRSTACK_ENTRY_SIZE;
	/* The flags word is a bitfield of the writer's byte order; perf.data
	 * files are read as little-endian (x86, arm64), where the first
	 * member is bit 0. */
	uint64_t f = pd_u64(p + 16);
	memset(out, 0, sizeof(*out));
	out->from = pd_u64(p);
	out->to = pd_u64(p + 8);
	out->counters = s->br_cntr ? pd_u64(s->br_cntr + i * 8) : 0;
	out->mispred = f & 1;
	out->predicted = f >> 1 & 1;
	out->in_tx = f >> 2 & 1;
	out->abort = f >> 3 & 1;
	out->cycles = (uint16_t)(f >> 4);
	out->type = (uint8_t)(f >> 20 & 0xf);
	out->spec = (uint8_t)(f >> 24 & 0x3);
	out->new_type = (uint8_t)(f >> 26 & 0xf);
	out->priv = (uint8_t)(f >> 30 & 0x7);
}

bool hwt_brstack_kind(const struct hwt_brstack_entry *e,
		      enum hwt_branch_kind *kind)
{
	static const signed char by_type[16] = {
		[HWT_BR_UNKNOWN] = -1,
		[HWT_BR_COND] = HWT_BRANCH_COND,
		[HWT_BR_UNCOND] = HWT_BRANCH_JUMP,
		[HWT_BR_IND] = HWT_BRANCH_INDIRECT,
		[HWT_BR_CALL] = HWT_BRANCH_CALL,
		[HWT_BR_IND_CALL] = HWT_BRANCH_CALL,
		[HWT_BR_RET] = HWT_BRANCH_RETURN,
		[HWT_BR_SYSCALL] = HWT_BRANCH_SYSCALL,
		[HWT_BR_SYSRET] = HWT_BRANCH_SYSRET,
		[HWT_BR_COND_CALL] = HWT_BRANCH_CALL,
		[HWT_BR_COND_RET] = HWT_BRANCH_RETURN,
		[HWT_BR_ERET] = HWT_BRANCH_ERET,
		[HWT_BR_IRQ] = HWT_BRANCH_INTERRUPT,
		[HWT_BR_SERROR] = HWT_BRANCH_EXCEPTION,
		[HWT_BR_NO_TX] = -1,
		[HWT_BR_EXTEND_ABI] = -1,
	};
	int k = by_type[e->type & 0xf];
	if (e->type == HWT_BR_EXTEND_ABI)
		/* Faults and debug entries are exceptions; Arm's FIQ an
		 * interrupt. */
		k = e->new_type == HWT_BR_NEW_ARCH_1 ? HWT_BRANCH_INTERRUPT
		    : e->new_type <= HWT_BR_NEW_ARCH_5 ? HWT_BRANCH_EXCEPTION
						       : -1;
	if (k < 0)
		return false;
	*kind = (enum hwt_branch_kind)k;
	return true;
}
