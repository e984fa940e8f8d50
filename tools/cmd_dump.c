/* hwtrace dump: the header, features and every record of a perf.data file,
 * in the spirit of `perf report -D`. */
#include <ctype.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "dump_header.h"
#include "hwtrace/error.h"
#include "hwtrace/perfdata.h"
#include "hwtrace/records.h"
#include "hwtrace/text.h"

struct dump_opts {
	bool hex;
	bool raw;
	bool header_only;
};

static void usage(FILE *out)
{
	fprintf(out,
		"usage: hwtrace dump [--hex] [--raw] [--header-only] FILE\n\n"
		"Print the header, the event attributes, the feature sections and\n"
		"every record of a perf.data file (perf's file or pipe mode, or a\n"
		"simpleperf file), with each record's byte offset and size as\n"
		"`perf report -D` shows them. FILE '-' reads pipe-mode data from\n"
		"standard input.\n\n"
		"  --hex          dump AUXTRACE payloads in hex (default: summarised)\n"
		"  --raw          dump every record's bytes too, as perf -D does\n"
		"  --header-only  stop after the header, events and features\n"
		"  -h, --help     show this help\n\n"
		"Exit status: 0 when the whole file was read, 1 when it is corrupt\n"
		"or truncated (the records before the damage are printed), 2 on a\n"
		"usage error.\n");
}

uint64_t dump_u64_at(const uint8_t *p)
{
	uint64_t v;
	memcpy(&v, p, 8);
	return v;
}

static void hexdump(const uint8_t *data, uint64_t len)
{
	for (uint64_t i = 0; i < len; i += 16) {
		printf(".  %04" PRIx64 ": ", i);
		for (uint64_t j = i; j < i + 16; j++) {
			if (j < len)
				printf(" %02x", data[j]);
			else
				printf("   ");
		}
		printf("  ");
		for (uint64_t j = i; j < i + 16 && j < len; j++)
			putchar(isprint(data[j]) ? data[j] : '.');
		putchar('\n');
	}
}

/* perf's print_binary layout: 16 bytes a line, then their characters,
 * short lines padded, so the text compares with `perf report -D`. */
static void hexdump_perf(const uint8_t *data, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		if ((i & 15) == 0)
			printf(".  %04zx: ", i);
		printf(" %02x", data[i]);
		if ((i & 15) == 15 || i == len - 1) {
			for (size_t j = 0; j < 15 - (i & 15); j++)
				printf("   ");
			printf("  ");
			for (size_t j = i & ~(size_t)15; j <= i; j++)
				putchar(isprint(data[j]) ? data[j] : '.');
			for (size_t j = i & 15; j < 15; j++)
				putchar(' ');
			putchar('\n');
		}
	}
}

/* A bounded string field: NUL-terminated within the record or cut. */
static void print_str(struct hwt_rec_str str)
{
	/* Names from the capture: never raw control bytes on a terminal. */
	hwt_term_fwrite(stdout, str.s, str.len);
}

static void print_mmap2_prot(uint32_t prot, uint32_t flags)
{
	printf("%c%c%c%c", prot & 1 ? 'r' : '-', prot & 2 ? 'w' : '-',
	       prot & 4 ? 'x' : '-', flags & 1 ? 's' : 'p');
}

/* perf's one-line sample summary: misc, pid/tid, ip, period, addr. */
static void print_sample(const struct hwt_pd_record *rec,
			 const struct hwt_pd_attr *attr)
{
	struct hwt_rec_sample_head h;
	hwt_rec_sample_head(rec, attr ? attr->attr.sample_type : 0, &h);
	printf("(IP, 0x%x): %d/%d: %#" PRIx64 " period: %" PRIu64 " addr: %#"
	       PRIx64, rec->misc, (int)h.pid, (int)h.tid, h.ip, h.period, h.addr);
}

/* The body of one record after "PERF_RECORD_<NAME>", from its typed view
 * (hwtrace/records.h), which checked every field against rec->size. */
static void print_fields(const struct hwt_pd_record *rec,
			 const struct hwt_pd_attr *attr, const struct dump_opts *o)
{
	struct hwt_rec v;
	int parsed = hwt_rec_parse(rec, &v);

	switch (rec->type) {
	case PERF_RECORD_MMAP:
		if (!parsed)
			break;
		printf(" %d/%d: [%#" PRIx64 "(%#" PRIx64 ") @ %#" PRIx64
		       "]: %c ", v.u.mmap.pid, v.u.mmap.tid, v.u.mmap.addr,
		       v.u.mmap.len, v.u.mmap.pgoff,
		       rec->misc & PERF_RECORD_MISC_MMAP_DATA ? 'r' : 'x');
		print_str(v.u.mmap.filename);
		break;
	case PERF_RECORD_MMAP2: {
		const struct hwt_rec_mmap2 *m = &v.u.mmap2;
		if (!parsed)
			break;
		printf(" %d/%d: [%#" PRIx64 "(%#" PRIx64 ") @ %#" PRIx64,
		       m->pid, m->tid, m->addr, m->len, m->pgoff);
		if (m->has_build_id) {
			printf(" build id ");
			for (int i = 0; i < m->build_id_size; i++)
				printf("%02x", m->build_id[i]);
		} else {
			printf(" %02x:%02x %" PRIu64 " %" PRIu64, m->maj, m->min,
			       m->ino, m->ino_generation);
		}
		printf("]: ");
		print_mmap2_prot(m->prot, m->flags);
		putchar(' ');
		print_str(m->filename);
		break;
	}
	case PERF_RECORD_COMM:
		if (!parsed)
			break;
		printf("%s: ", v.u.comm.exec ? " exec" : "");
		print_str(v.u.comm.comm);
		printf(":%d/%d", v.u.comm.pid, v.u.comm.tid);
		break;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		if (parsed)
			printf("(%d:%d):(%d:%d)", v.u.fork.pid, v.u.fork.tid,
			       v.u.fork.ppid, v.u.fork.ptid);
		break;
	case PERF_RECORD_LOST:
	case PERF_RECORD_LOST_SAMPLES:
		if (parsed)
			printf(" lost %" PRIu64, v.u.lost.lost);
		break;
	case PERF_RECORD_AUX: {
		uint64_t flags = v.u.aux.flags;

		if (!parsed)
			break;
		printf(" offset: %#" PRIx64 " size: %#" PRIx64 " flags: %#" PRIx64
		       " [%s%s%s%s]", v.u.aux.aux_offset, v.u.aux.aux_size, flags,
		       flags & PERF_AUX_FLAG_TRUNCATED ? "T" : "",
		       flags & PERF_AUX_FLAG_OVERWRITE ? "O" : "",
		       flags & PERF_AUX_FLAG_PARTIAL ? "P" : "",
		       flags & PERF_AUX_FLAG_COLLISION ? "C" : "");
		break;
	}
	case PERF_RECORD_ITRACE_START:
		if (parsed)
			printf(" pid: %u tid: %u", (unsigned)v.u.itrace_start.pid,
			       (unsigned)v.u.itrace_start.tid);
		break;
	case PERF_RECORD_SWITCH:
		printf(" %s", rec->misc & PERF_RECORD_MISC_SWITCH_OUT ? "OUT" : "IN ");
		break;
	case PERF_RECORD_SWITCH_CPU_WIDE:
		if (!parsed)
			break;
		printf(" %s  %s pid/tid: %5d/%-5d",
		       !v.u.sw.out ? "IN         " : !v.u.sw.preempt
					? "OUT        " : "OUT preempt",
		       v.u.sw.out ? "next" : "prev", v.u.sw.next_prev_pid,
		       v.u.sw.next_prev_tid);
		break;
	case 21: /* PERF_RECORD_AUX_OUTPUT_HW_ID */
		if (parsed)
			printf(" hw_id: %#" PRIx64, v.u.hw_id.hw_id);
		break;
	case PERF_RECORD_SAMPLE:
		print_sample(rec, attr);
		break;
	case HWT_PD_RECORD_AUXTRACE_INFO:
		if (!parsed)
			break;
		printf(" type: %u", v.u.auxtrace_info.type);
		for (size_t i = 0; i < v.u.auxtrace_info.npriv; i++)
			printf("%s%016" PRIx64, i % 8 ? " " : "\n.  priv: ",
			       dump_u64_at(v.u.auxtrace_info.priv + 8 * i));
		break;
	case HWT_PD_RECORD_AUXTRACE:
		printf(" size: %#" PRIx64 "  offset: %#" PRIx64 "  ref: %#" PRIx64
		       "  idx: %u  tid: %d  cpu: %d", rec->aux.size,
		       rec->aux.offset, rec->aux.reference, rec->aux.idx,
		       (int)rec->aux.tid, (int)rec->aux.cpu);
		if (rec->aux_data && o->hex) {
			putchar('\n');
			hexdump(rec->aux_data, rec->aux.size);
		} else if (rec->aux_data) {
			/* A summary: the size and the first bytes. */
			printf("\n. ... AUX data: %" PRIu64 " bytes:", rec->aux.size);
			for (uint64_t i = 0; i < rec->aux.size && i < 16; i++)
				printf(" %02x", rec->aux_data[i]);
			printf("%s", rec->aux.size > 16 ? " ..." : "");
		}
		break;
	case HWT_PD_RECORD_AUXTRACE_ERROR: {
		const struct hwt_rec_auxtrace_error *e = &v.u.auxtrace_error;
		if (!parsed)
			break;
		printf(" type: %u code: %u cpu: %d pid: %d tid: %d ip: %#"
		       PRIx64, e->type, e->code, e->cpu, e->pid, e->tid, e->ip);
		if (e->has_msg) {
			printf(" msg: ");
			print_str(e->msg);
		}
		break;
	}
	case HWT_PD_RECORD_TIME_CONV: {
		const struct hwt_rec_time_conv *t = &v.u.time_conv;
		if (parsed)
			printf("\n... Time Shift      %" PRIu64
			       "\n... Time Multiplier %" PRIu64
			       "\n... Time Zero       %" PRIu64, t->time_shift,
			       t->time_mult, t->time_zero);
		if (parsed && t->extended)
			printf("\n... Time Cycles     %" PRIu64
			       "\n... Time Mask       %#" PRIx64
			       "\n... Cap Time Zero   %u"
			       "\n... Cap Time Short  %u", t->time_cycles,
			       t->time_mask, t->cap_user_time_zero,
			       t->cap_user_time_short);
		break;
	}
	case HWT_PD_RECORD_HEADER_FEATURE:
		if (parsed)
			printf(" feature %" PRIu64, v.u.header_feature.feat_id);
		break;
	}
}

static int dump_records(struct hwt_pd_reader *r, const struct dump_opts *o)
{
	struct hwt_pd_record rec;
	const uint64_t *counts;
	uint64_t total = 0;
	int n;

	while ((n = hwt_pd_reader_next(r, &rec)) > 0) {
		const char *name = hwt_pd_record_type_name(rec.type);
		const struct hwt_pd_attr *attr;
		uint32_t cpu;

		putchar('\n');
		if (o->raw) {
			printf("%#" PRIx64 "@%s [%#x]: event: %u\n", rec.file_offset,
			       hwt_pd_reader_path(r), rec.size, rec.type);
			printf(".\n. ... raw event: size %u bytes\n", rec.size);
			hexdump_perf(rec.data, rec.size);
			putchar('\n');
		}
		attr = rec.sid.present & PERF_SAMPLE_ID ?
		       hwt_pd_reader_attr_by_id(r, rec.sid.id) : NULL;
		if (!attr)
			attr = hwt_pd_reader_attr(r, 0);
		/* perf prints the sample's cpu and time: for kernel records
		 * whose event does not sample the cpu, (u32)-1. */
		cpu = rec.sid.cpu;
		if (!(rec.sid.present & PERF_SAMPLE_CPU) && rec.type < 64 && attr &&
		    (rec.type == PERF_RECORD_SAMPLE || attr->attr.sample_id_all))
			cpu = UINT32_MAX;
		printf("%u %" PRIu64 " ", cpu, rec.sid.time);
		printf("0x%" PRIx64 " [0x%x]: PERF_RECORD_", rec.file_offset,
		       rec.size);
		if (name)
			printf("%s", name);
		else
			printf("UNKNOWN(%u)", rec.type);
		print_fields(&rec, attr, o);
		putchar('\n');
	}
	if (hwt_pd_reader_is_pipe(r)) {
		/* Pipe mode carried the events and features as records. */
		printf("\n");
		dump_print_events(r);
	}
	counts = hwt_pd_reader_counts(r);
	printf("\n# records by type\n");
	for (uint32_t t = 0; t < HWT_PD_NR_COUNTED_TYPES; t++) {
		const char *name = hwt_pd_record_type_name(t);

		if (!counts[t])
			continue;
		total += counts[t];
		if (t == HWT_PD_NR_COUNTED_TYPES - 1)
			printf("#   %-20s %10" PRIu64 "\n", "other", counts[t]);
		else if (name)
			printf("#   %-20s %10" PRIu64 "\n", name, counts[t]);
		else
			printf("#   type %-15u %10" PRIu64 "\n", t, counts[t]);
	}
	printf("#   %-20s %10" PRIu64 "\n", "TOTAL", total);
	fflush(stdout);
	return n < 0 ? cli_report(n) : EXIT_OK;
}

int cmd_dump(int argc, char **argv)
{
	struct dump_opts o = {0};
	struct hwt_pd_reader *r;
	const char *path = NULL;
	int err, ret;

	if (cli_wants_help(argc, argv)) {
		usage(stdout);
		return EXIT_OK;
	}
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--hex"))
			o.hex = true;
		else if (!strcmp(argv[i], "--raw"))
			o.raw = true;
		else if (!strcmp(argv[i], "--header-only"))
			o.header_only = true;
		else if (argv[i][0] == '-' && argv[i][1])
			return cli_usage_error("dump", "unknown option '%s'",
					       argv[i]);
		else if (path)
			return cli_usage_error("dump", "one FILE only, got '%s' "
					       "and '%s'", path, argv[i]);
		else
			path = argv[i];
	}
	if (!path)
		return cli_usage_error("dump", "a perf.data FILE is required");
	err = hwt_pd_reader_open(path, &r);
	if (err)
		return cli_report(err);
	dump_print_header(r);
	ret = o.header_only ? EXIT_OK : dump_records(r, &o);
	hwt_pd_reader_free(r);
	return ret;
}
