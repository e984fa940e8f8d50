/* `hwtrace dump`, each record (hwtrace/pd_dump.h): the line `perf report
 * -D` prints for it, "CPU TIME 0xOFFSET [0xSIZE]: PERF_RECORD_NAME" and
 * the record's fields, read through its typed view (hwtrace/records.h),
 * which checked every field against the record's size. */
#include <ctype.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "hwtrace/error.h"
#include "hwtrace/pd_dump.h"
#include "hwtrace/perfdata.h"
#include "hwtrace/records.h"
#include "hwtrace/text.h"

/* A little-endian u64 at @p (perf.data is little-endian; so is every
 * host hwtrace runs on). */
static uint64_t u64_at(const uint8_t *p)
{
	uint64_t v;
	memcpy(&v, p, 8);
	return v;
}

/* --hex: an AUXTRACE payload, 16 bytes a line. */
static void hexdump(FILE *out, const uint8_t *data, uint64_t len)
{
	for (uint64_t i = 0; i < len; i += 16) {
		fprintf(out, ".  %04" PRIx64 ": ", i);
		for (uint64_t j = i; j < i + 16; j++) {
			if (j < len)
				fprintf(out, " %02x", data[j]);
			else
				fprintf(out, "   ");
		}
		fprintf(out, "  ");
		for (uint64_t j = i; j < i + 16 && j < len; j++)
			fputc(isprint(data[j]) ? data[j] : '.', out);
		fputc('\n', out);
	}
}

/* perf's print_binary layout: 16 bytes a line, then their characters,
 * short lines padded, so the text compares with `perf report -D`. */
static void hexdump_perf(FILE *out, const uint8_t *data, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		if ((i & 15) == 0)
			fprintf(out, ".  %04zx: ", i);
		fprintf(out, " %02x", data[i]);
		if ((i & 15) == 15 || i == len - 1) {
			for (size_t j = 0; j < 15 - (i & 15); j++)
				fprintf(out, "   ");
			fprintf(out, "  ");
			for (size_t j = i & ~(size_t)15; j <= i; j++)
				fputc(isprint(data[j]) ? data[j] : '.', out);
			for (size_t j = i & 15; j < 15; j++)
				fputc(' ', out);
			fputc('\n', out);
		}
	}
}

/* A bounded string field: NUL-terminated within the record or cut. */
static void print_str(FILE *out, struct hwt_rec_str str)
{
	/* Names from the capture: never raw control bytes on a terminal. */
	hwt_term_fwrite(out, str.s, str.len);
}

static void print_mmap2_prot(FILE *out, uint32_t prot, uint32_t flags)
{
	fprintf(out, "%c%c%c%c", prot & 1 ? 'r' : '-', prot & 2 ? 'w' : '-',
		prot & 4 ? 'x' : '-', flags & 1 ? 's' : 'p');
}

/* perf's one-line sample summary: misc, pid/tid, ip, period, addr. */
static void print_sample(FILE *out, const struct hwt_pd_record *rec,
			 const struct hwt_pd_attr *attr)
{
	struct hwt_rec_sample_head h;
	hwt_rec_sample_head(rec, attr ? attr->attr.sample_type : 0, &h);
	fprintf(out, "(IP, 0x%x): %d/%d: %#" PRIx64 " period: %" PRIu64 " addr: %#"
		PRIx64, rec->misc, (int)h.pid, (int)h.tid, h.ip, h.period, h.addr);
}

/* The body of one record after "PERF_RECORD_<NAME>", from its typed view
 * (hwtrace/records.h), which checked every field against rec->size. */
static void print_fields(FILE *out, const struct hwt_pd_record *rec,
			 const struct hwt_pd_attr *attr, bool hex)
{
	struct hwt_rec v;
	int parsed = hwt_rec_parse(rec, &v);

	switch (rec->type) {
	case PERF_RECORD_MMAP:
		if (!parsed)
			break;
		fprintf(out, " %d/%d: [%#" PRIx64 "(%#" PRIx64 ") @ %#" PRIx64
			"]: %c ", v.u.mmap.pid, v.u.mmap.tid, v.u.mmap.addr,
			v.u.mmap.len, v.u.mmap.pgoff,
			rec->misc & PERF_RECORD_MISC_MMAP_DATA ? 'r' : 'x');
		print_str(out, v.u.mmap.filename);
		break;
	case PERF_RECORD_MMAP2: {
		const struct hwt_rec_mmap2 *m = &v.u.mmap2;
		if (!parsed)
			break;
		fprintf(out, " %d/%d: [%#" PRIx64 "(%#" PRIx64 ") @ %#" PRIx64,
			m->pid, m->tid, m->addr, m->len, m->pgoff);
		if (m->has_build_id) {
			fprintf(out, " build id ");
			for (int i = 0; i < m->build_id_size; i++)
				fprintf(out, "%02x", m->build_id[i]);
		} else {
			fprintf(out, " %02x:%02x %" PRIu64 " %" PRIu64, m->maj, m->min,
				m->ino, m->ino_generation);
		}
		fprintf(out, "]: ");
		print_mmap2_prot(out, m->prot, m->flags);
		fputc(' ', out);
		print_str(out, m->filename);
		break;
	}
	case PERF_RECORD_COMM:
		if (!parsed)
			break;
		fprintf(out, "%s: ", v.u.comm.exec ? " exec" : "");
		print_str(out, v.u.comm.comm);
		fprintf(out, ":%d/%d", v.u.comm.pid, v.u.comm.tid);
		break;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		if (parsed)
			fprintf(out, "(%d:%d):(%d:%d)", v.u.fork.pid, v.u.fork.tid,
				v.u.fork.ppid, v.u.fork.ptid);
		break;
	case PERF_RECORD_LOST:
	case PERF_RECORD_LOST_SAMPLES:
		if (parsed)
			fprintf(out, " lost %" PRIu64, v.u.lost.lost);
		break;
	case PERF_RECORD_AUX: {
		uint64_t flags = v.u.aux.flags;

		if (!parsed)
			break;
		fprintf(out, " offset: %#" PRIx64 " size: %#" PRIx64 " flags: %#" PRIx64
			" [%s%s%s%s]", v.u.aux.aux_offset, v.u.aux.aux_size, flags,
			flags & PERF_AUX_FLAG_TRUNCATED ? "T" : "",
			flags & PERF_AUX_FLAG_OVERWRITE ? "O" : "",
			flags & PERF_AUX_FLAG_PARTIAL ? "P" : "",
			flags & PERF_AUX_FLAG_COLLISION ? "C" : "");
		break;
	}
	case PERF_RECORD_ITRACE_START:
		if (parsed)
			fprintf(out, " pid: %u tid: %u", (unsigned)v.u.itrace_start.pid,
				(unsigned)v.u.itrace_start.tid);
		break;
	case PERF_RECORD_SWITCH:
		fprintf(out, " %s", rec->misc & PERF_RECORD_MISC_SWITCH_OUT ? "OUT" : "IN ");
		break;
	case PERF_RECORD_SWITCH_CPU_WIDE:
		if (!parsed)
			break;
		fprintf(out, " %s  %s pid/tid: %5d/%-5d",
			!v.u.sw.out ? "IN         " : !v.u.sw.preempt
					? "OUT        " : "OUT preempt",
			v.u.sw.out ? "next" : "prev", v.u.sw.next_prev_pid,
			v.u.sw.next_prev_tid);
		break;
	case 21: /* PERF_RECORD_AUX_OUTPUT_HW_ID */
		if (parsed)
			fprintf(out, " hw_id: %#" PRIx64, v.u.hw_id.hw_id);
		break;
	case PERF_RECORD_SAMPLE:
		print_sample(out, rec, attr);
		break;
	case HWT_PD_RECORD_AUXTRACE_INFO:
		if (!parsed)
			break;
		fprintf(out, " type: %u", v.u.auxtrace_info.type);
		for (size_t i = 0; i < v.u.auxtrace_info.npriv; i++)
			fprintf(out, "%s%016" PRIx64, i % 8 ? " " : "\n.  priv: ",
				u64_at(v.u.auxtrace_info.priv + 8 * i));
		break;
	case HWT_PD_RECORD_AUXTRACE:
		fprintf(out, " size: %#" PRIx64 "  offset: %#" PRIx64 "  ref: %#" PRIx64
			"  idx: %u  tid: %d  cpu: %d", rec->aux.size,
			rec->aux.offset, rec->aux.reference, rec->aux.idx,
			(int)rec->aux.tid, (int)rec->aux.cpu);
		if (rec->aux_data && hex) {
			fputc('\n', out);
			hexdump(out, rec->aux_data, rec->aux.size);
		} else if (rec->aux_data) {
			/* A summary: the size and the first bytes. */
			fprintf(out, "\n. ... AUX data: %" PRIu64 " bytes:", rec->aux.size);
			for (uint64_t i = 0; i < rec->aux.size && i < 16; i++)
				fprintf(out, " %02x", rec->aux_data[i]);
			fprintf(out, "%s", rec->aux.size > 16 ? " ..." : "");
		}
		break;
	case HWT_PD_RECORD_AUXTRACE_ERROR: {
		const struct hwt_rec_auxtrace_error *e = &v.u.auxtrace_error;
		if (!parsed)
			break;
		fprintf(out, " type: %u code: %u cpu: %d pid: %d tid: %d ip: %#"
			PRIx64, e->type, e->code, e->cpu, e->pid, e->tid, e->ip);
		if (e->has_msg) {
			fprintf(out, " msg: ");
			print_str(out, e->msg);
		}
		break;
	}
	case HWT_PD_RECORD_TIME_CONV: {
		const struct hwt_rec_time_conv *t = &v.u.time_conv;
		if (parsed)
			fprintf(out, "\n... Time Shift      %" PRIu64
				"\n... Time Multiplier %" PRIu64
				"\n... Time Zero       %" PRIu64, t->time_shift,
				t->time_mult, t->time_zero);
		if (parsed && t->extended)
			fprintf(out, "\n... Time Cycles     %" PRIu64
				"\n... Time Mask       %#" PRIx64
				"\n... Cap Time Zero   %u"
				"\n... Cap Time Short  %u", t->time_cycles,
				t->time_mask, t->cap_user_time_zero,
				t->cap_user_time_short);
		break;
	}
	case HWT_PD_RECORD_HEADER_FEATURE:
		if (parsed)
			fprintf(out, " feature %" PRIu64, v.u.header_feature.feat_id);
		break;
	}
}

int hwt_pd_dump_record(FILE *out, const struct hwt_pd_reader *r,
		       const struct hwt_pd_record *rec,
		       const struct hwt_pd_dump_opts *o)
{
	const char *name = hwt_pd_record_type_name(rec->type);
	const struct hwt_pd_attr *attr;
	uint32_t cpu;
	/* Options of an older, smaller struct are left off. */
	bool raw = o && o->size >= offsetof(struct hwt_pd_dump_opts, raw) +
					   sizeof(o->raw) && o->raw;
	bool hex = o && o->size >= offsetof(struct hwt_pd_dump_opts, hex) +
					   sizeof(o->hex) && o->hex;

	fputc('\n', out);
	if (raw) {
		fprintf(out, "%#" PRIx64 "@%s [%#x]: event: %u\n", rec->file_offset,
			hwt_pd_reader_path(r), rec->size, rec->type);
		fprintf(out, ".\n. ... raw event: size %u bytes\n", rec->size);
		hexdump_perf(out, rec->data, rec->size);
		fputc('\n', out);
	}
	attr = rec->sid.present & PERF_SAMPLE_ID ?
	       hwt_pd_reader_attr_by_id(r, rec->sid.id) : NULL;
	if (!attr)
		attr = hwt_pd_reader_attr(r, 0);
	/* perf prints the sample's cpu and time: for kernel records
	 * whose event does not sample the cpu, (u32)-1. */
	cpu = rec->sid.cpu;
	if (!(rec->sid.present & PERF_SAMPLE_CPU) && rec->type < 64 && attr &&
	    (rec->type == PERF_RECORD_SAMPLE || attr->attr.sample_id_all))
		cpu = UINT32_MAX;
	fprintf(out, "%u %" PRIu64 " ", cpu, rec->sid.time);
	fprintf(out, "0x%" PRIx64 " [0x%x]: PERF_RECORD_", rec->file_offset,
		rec->size);
	if (name)
		fprintf(out, "%s", name);
	else
		fprintf(out, "UNKNOWN(%u)", rec->type);
	print_fields(out, rec, attr, hex);
	fputc('\n', out);
	if (ferror(out))
		return hwt_error(HWT_ERR_IO, "writing the dump of the record at "
				 "0x%" PRIx64 " failed", rec->file_offset);
	return 0;
}
