/* The one parser of record bodies (hwtrace/records.h): offsets are the
 * kernel's, each checked against the record's size before it is read. */
#include <string.h>

#include "hwtrace/records.h"
#include "perfdata_format.h"

#ifndef PERF_RECORD_MISC_MMAP_BUILD_ID
#define PERF_RECORD_MISC_MMAP_BUILD_ID (1 << 14)
#endif
#define REC_AUX_OUTPUT_HW_ID 21


static int32_t i32(const uint8_t *p)
{
	return (int32_t)pd_u32(p);
}

/* The string at @at of @rec, up to its NUL or the record's end. */
static struct hwt_rec_str str_at(const uint8_t *p, size_t size, size_t at)
{
	struct hwt_rec_str s = {(const char *)p + at, 0};
	const uint8_t *nul = at < size ? memchr(p + at, 0, size - at) : NULL;
	s.len = nul ? (size_t)(nul - (p + at)) : size - at;
	return s;
}

static void parse_mmap2(const uint8_t *p, size_t size, uint16_t misc,
			struct hwt_rec_mmap2 *m)
{
	m->pid = i32(p + 8);
	m->tid = i32(p + 12);
	m->addr = pd_u64(p + 16);
	m->len = pd_u64(p + 24);
	m->pgoff = pd_u64(p + 32);
	m->has_build_id = misc & PERF_RECORD_MISC_MMAP_BUILD_ID;
	if (m->has_build_id) {
		m->build_id_size = p[40] < 20 ? p[40] : 20;
		m->build_id = p + 44;
	} else {
		m->maj = pd_u32(p + 40);
		m->min = pd_u32(p + 44);
		m->ino = pd_u64(p + 48);
		m->ino_generation = pd_u64(p + 56);
	}
	m->prot = pd_u32(p + 64);
	m->flags = pd_u32(p + 68);
	m->filename = str_at(p, size, 72);
}

/* The fixed part of each type's body, header included. */
static size_t fixed_size(uint32_t type)
{
	switch (type) {
	case PERF_RECORD_MMAP: return 40;
	case PERF_RECORD_MMAP2: return 72;
	case PERF_RECORD_COMM: return 16;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT: return 24;
	case PERF_RECORD_LOST: return 24;
	case PERF_RECORD_LOST_SAMPLES: return 16;
	case PERF_RECORD_AUX: return 32;
	case PERF_RECORD_ITRACE_START: return 16;
	case PERF_RECORD_SWITCH: return 8;
	case PERF_RECORD_SWITCH_CPU_WIDE: return 16;
	case REC_AUX_OUTPUT_HW_ID: return 16;
	case HWT_PD_RECORD_AUXTRACE_ERROR: return 32;
	case HWT_PD_RECORD_AUXTRACE_INFO: return 16;
	case HWT_PD_RECORD_TIME_CONV: return 32;
	case HWT_PD_RECORD_HEADER_FEATURE: return 16;
	}
	return 0;
}

int hwt_rec_parse(const struct hwt_pd_record *rec, struct hwt_rec *out)
{
	const uint8_t *p = rec->data;
	size_t size = rec->size, need = fixed_size(rec->type);
	memset(out, 0, sizeof(*out));
	out->type = rec->type;
	if (!need || size < need || !p)
		return 0;
	switch (rec->type) {
	case PERF_RECORD_MMAP:
		out->u.mmap = (struct hwt_rec_mmap){
			i32(p + 8), i32(p + 12), pd_u64(p + 16), pd_u64(p + 24),
			pd_u64(p + 32), str_at(p, size, 40)};
		break;
	case PERF_RECORD_MMAP2:
		parse_mmap2(p, size, rec->misc, &out->u.mmap2);
		break;
	case PERF_RECORD_COMM:
		out->u.comm = (struct hwt_rec_comm){
			i32(p + 8), i32(p + 12),
			(rec->misc & PERF_RECORD_MISC_COMM_EXEC) != 0,
			str_at(p, size, 16)};
		break;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		/* {pid, ppid, tid, ptid, time} */
		out->u.fork = (struct hwt_rec_fork){
			i32(p + 8), i32(p + 12), i32(p + 16), i32(p + 20),
			size >= 32 ? pd_u64(p + 24) : 0};
		break;
	case PERF_RECORD_LOST:
		out->u.lost = (struct hwt_rec_lost){pd_u64(p + 8), pd_u64(p + 16)};
		break;
	case PERF_RECORD_LOST_SAMPLES:
		out->u.lost = (struct hwt_rec_lost){0, pd_u64(p + 8)};
		break;
	case PERF_RECORD_AUX:
		out->u.aux = (struct hwt_rec_aux){pd_u64(p + 8), pd_u64(p + 16),
						  pd_u64(p + 24)};
		break;
	case PERF_RECORD_ITRACE_START:
		out->u.itrace_start = (struct hwt_rec_itrace_start){
			i32(p + 8), i32(p + 12)};
		break;
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE: {
		bool wide = rec->type == PERF_RECORD_SWITCH_CPU_WIDE;
		out->u.sw = (struct hwt_rec_switch){
			.out = rec->misc & PERF_RECORD_MISC_SWITCH_OUT,
			.preempt = rec->misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT,
			.cpu_wide = wide,
			.next_prev_pid = wide ? i32(p + 8) : -1,
			.next_prev_tid = wide ? i32(p + 12) : -1,
		};
		break;
	}
	case REC_AUX_OUTPUT_HW_ID:
		out->u.hw_id.hw_id = pd_u64(p + 8);
		break;
	case HWT_PD_RECORD_AUXTRACE_ERROR: {
		/* {type, code, cpu, pid, tid, fmt, ip, time (fmt 1 on), msg[64]} */
		struct hwt_rec_auxtrace_error *e = &out->u.auxtrace_error;
		e->type = pd_u32(p + 8);
		e->code = pd_u32(p + 12);
		e->cpu = i32(p + 16);
		e->pid = i32(p + 20);
		e->tid = i32(p + 24);
		e->fmt = pd_u32(p + 28);
		e->ip = size >= 40 ? pd_u64(p + 32) : 0;
		size_t msg = e->fmt ? 48 : 40;
		e->time = e->fmt && size >= 48 ? pd_u64(p + 40) : 0;
		e->has_msg = size > msg;
		if (e->has_msg)
			e->msg = str_at(p, size, msg);
		break;
	}
	case HWT_PD_RECORD_AUXTRACE_INFO:
		/* {type, reserved, priv[]} */
		out->u.auxtrace_info = (struct hwt_rec_auxtrace_info){
			pd_u32(p + 8), p + 16, (size - 16) / 8};
		break;
	case HWT_PD_RECORD_TIME_CONV: {
		/* {shift, mult, zero[, cycles, mask, cap_zero, cap_short]} */
		struct hwt_rec_time_conv *t = &out->u.time_conv;
		t->time_shift = pd_u64(p + 8);
		t->time_mult = pd_u64(p + 16);
		t->time_zero = pd_u64(p + 24);
		t->extended = size >= 56;
		if (t->extended) {
			t->time_cycles = pd_u64(p + 32);
			t->time_mask = pd_u64(p + 40);
			t->cap_user_time_zero = p[48];
			t->cap_user_time_short = p[49];
		}
		break;
	}
	case HWT_PD_RECORD_HEADER_FEATURE:
		out->u.header_feature.feat_id = pd_u64(p + 8);
		break;
	}
	return 1;
}

int hwt_rec_sample_head(const struct hwt_pd_record *rec, uint64_t sample_type,
			struct hwt_rec_sample_head *out)
{
	/* The fields before PERF_SAMPLE_READ, each one u64, in order. */
	static const uint64_t order[] = {
		PERF_SAMPLE_IDENTIFIER, PERF_SAMPLE_IP, PERF_SAMPLE_TID,
		PERF_SAMPLE_TIME, PERF_SAMPLE_ADDR, PERF_SAMPLE_ID,
		PERF_SAMPLE_STREAM_ID, PERF_SAMPLE_CPU, PERF_SAMPLE_PERIOD,
	};
	memset(out, 0, sizeof(*out));
	if (rec->type != PERF_RECORD_SAMPLE || !rec->data || rec->size < 8)
		return 0;
	const uint8_t *p = (const uint8_t *)rec->data + 8;
	const uint8_t *end = (const uint8_t *)rec->data + rec->size;
	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		if (!(sample_type & order[i]))
			continue;
		if (end - p < 8)
			break;
		uint64_t v = pd_u64(p);
		p += 8;
		out->present |= order[i];
		switch (order[i]) {
		case PERF_SAMPLE_IDENTIFIER:
		case PERF_SAMPLE_ID: out->id = v; break;
		case PERF_SAMPLE_IP: out->ip = v; break;
		case PERF_SAMPLE_TID:
			out->pid = (uint32_t)v;
			out->tid = (uint32_t)(v >> 32);
			break;
		case PERF_SAMPLE_TIME: out->time = v; break;
		case PERF_SAMPLE_ADDR: out->addr = v; break;
		case PERF_SAMPLE_STREAM_ID: out->stream_id = v; break;
		case PERF_SAMPLE_CPU: out->cpu = (uint32_t)v; break;
		case PERF_SAMPLE_PERIOD: out->period = v; break;
		}
	}
	return 1;
}
