/* Intel PT decode speed, measured in one run beside two peers on the same
 * trace:
 *  - a bare libipt block-decoder loop (pt_blk_next and pt_blk_event until
 *    the end, counting instructions), with libipt's default block options
 *    and, for reference, with blocks ending at every branch (each block
 *    one address range), and with each block handed to a counting sink as
 *    a range and a branch element (what a sink called per element costs,
 *    before any decoding work of hwtrace's own);
 *  - perf 6.1's `perf script --itrace=b` (output to /dev/null) on a
 *    perf.data holding the same trace, written with hwt_pd_writer with an
 *    MMAP2 record pointing at the code.
 * hwtrace decodes the raw stream (hwt_decode_raw) and the perf.data
 * (hwt_decode_file) into a counting sink.
 *
 * The trace is made here with libipt's packet encoder: a loop whose
 * conditional branch follows a pseudo-random pattern and whose call and
 * compressed return run on about half the iterations, with a PSB+ every
 * 4 KiB, as a real capture has. With "kernel", the trace is one of a
 * traced kernel: a PIP in each PSB+, and a MOV CR3 (and its PIP) in one
 * call in 256, about every 250 bytes of trace, as a kernel that switches
 * page tables on each entry and exit makes (a real capture of one had a
 * PIP every 320 bytes). hwtrace is also timed with its fast path off
 * (HWTRACE_PT_FAST=0), which leaves the decode to libipt's block
 * decoder. Each time is the median of three runs,
 * in CPU seconds (user + system, perf's included), with the spread
 * (least..most) beside it; the ratios are of the medians. hwtrace and
 * the libipt loops take turns run by run.
 *
 * Usage: bench_pt_decode [TRACE_KIB [kernel]]   (default 1024)
 *        bench_pt_decode --write DIR [TRACE_KIB [kernel]]
 * The second form only writes DIR/code.bin, DIR/trace.pt and
 * DIR/perf.data (whose MMAP2 names DIR/code.bin) and times nothing, for
 * timing command lines on them (bench_cli_decode.sh). */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <intel-pt.h>

#include "bench/libipt_loop.h"

#include "hwtrace/decode.h"
#include "hwtrace/error.h"
#include "hwtrace/perfdata.h"

#define RUNS 3
#define ORG 0x400000ull
#define PMU_TYPE 8
#define PID 4242

/*
 * 400000: 48 ff c0        inc rax
 * 400003: a8 01           test al, 1
 * 400005: 74 05           jz 40000c
 * 400007: e8 14 00 00 00  call 400020
 * 40000c: 48 39 d8        cmp rax, rbx
 * 40000f: 75 ef           jne 400000
 * 400011: c3              ret
 * 400020: 48 83 c1 01     add rcx, 1
 * 400024: c3              ret
 */
static const uint8_t user_code[0x25] = {
	0x48, 0xff, 0xc0, 0xa8, 0x01, 0x74, 0x05, 0xe8, 0x14, 0x00, 0x00, 0x00,
	0x48, 0x39, 0xd8, 0x75, 0xef, 0xc3, [0x20] = 0x48, 0x83, 0xc1, 0x01,
	0xc3,
};

/* With "kernel", the function at 400020 is
 * 400020: a8 02           test al, 2
 * 400022: 74 03           jz 400027
 * 400024: 0f 22 d8        mov cr3, rax
 * 400027: 48 83 c1 01     add rcx, 1
 * 40002b: c3              ret
 */
static const uint8_t kernel_code[0x2c] = {
	0x48, 0xff, 0xc0, 0xa8, 0x01, 0x74, 0x05, 0xe8, 0x14, 0x00, 0x00, 0x00,
	0x48, 0x39, 0xd8, 0x75, 0xef, 0xc3, [0x20] = 0xa8, 0x02, 0x74, 0x03,
	0x0f, 0x22, 0xd8, 0x48, 0x83, 0xc1, 0x01, 0xc3,
};

static bool kernel;
static const uint8_t *code = user_code;
static size_t code_size = sizeof(user_code);

/* CPU time, of this process and of its waited-for children (perf): on a
 * shared machine, time spent waiting for a core is not decoding. */
static double now(void)
{
	struct timespec ts;
	struct rusage ru;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	getrusage(RUSAGE_CHILDREN, &ru);
	return ts.tv_sec + ts.tv_nsec / 1e9 + ru.ru_utime.tv_sec +
	       ru.ru_utime.tv_usec / 1e6 + ru.ru_stime.tv_sec +
	       ru.ru_stime.tv_usec / 1e6;
}

struct gen {
	struct pt_encoder *enc;
	uint64_t bits;
	uint8_t nbits;
	uint64_t insns;
};

static int put(struct gen *g, struct pt_packet *p)
{
	int n = pt_enc_next(g->enc, p);
	return n < 0 ? n : 0;
}

static int flush_tnt(struct gen *g)
{
	if (!g->nbits)
		return 0;
	struct pt_packet p;
	memset(&p, 0, sizeof(p));
	p.type = ppt_tnt_8;
	p.payload.tnt.bit_size = g->nbits;
	p.payload.tnt.payload = g->bits;
	g->bits = 0;
	g->nbits = 0;
	return put(g, &p);
}

static int tnt(struct gen *g, int taken)
{
	g->bits = g->bits << 1 | (taken ? 1 : 0);
	if (++g->nbits == 6)
		return flush_tnt(g);
	return 0;
}

static int pip(struct gen *g, uint64_t cr3)
{
	struct pt_packet p;
	memset(&p, 0, sizeof(p));
	p.type = ppt_pip;
	p.payload.pip.cr3 = cr3;
	return put(g, &p);
}

static int psb_plus(struct gen *g)
{
	struct pt_packet p;
	int err = flush_tnt(g);
	memset(&p, 0, sizeof(p));
	p.type = ppt_psb;
	err |= put(g, &p);
	if (kernel)
		err |= pip(g, 0x1234000);
	memset(&p, 0, sizeof(p));
	p.type = ppt_fup;
	p.payload.ip.ipc = pt_ipc_sext_48;
	p.payload.ip.ip = ORG;
	err |= put(g, &p);
	memset(&p, 0, sizeof(p));
	p.type = ppt_mode;
	p.payload.mode.leaf = pt_mol_exec;
	p.payload.mode.bits.exec.csl = 1;
	err |= put(g, &p);
	memset(&p, 0, sizeof(p));
	p.type = ppt_psbend;
	err |= put(g, &p);
	return err;
}

/* Fills @buf with about @size bytes of trace; returns the bytes used. */
static size_t make_trace(uint8_t *buf, size_t size, uint64_t *insns)
{
	struct pt_config c;
	pt_config_init(&c);
	c.begin = buf;
	c.end = buf + size + 4096;
	struct gen g = {.enc = pt_alloc_encoder(&c)};
	uint32_t lfsr = 0xace1u;
	uint64_t off = 0, next_psb = 0;

	while (g.enc) {
		if (pt_enc_get_offset(g.enc, &off) < 0 || off >= size)
			break;
		if (off >= next_psb) {
			if (psb_plus(&g))
				break;
			next_psb += 4096;
		}
		lfsr = (lfsr >> 1) ^ (-(lfsr & 1u) & 0xb400u);
		int skip = lfsr & 1;
		/* inc, test, jz; call, add, ret when not skipped (in the
		 * kernel: call, test, jz, one time in 256 mov cr3, add,
		 * ret); cmp, jne */
		tnt(&g, skip);
		if (!skip && kernel) {
			bool cr3 = (lfsr & 0x1fe) == 0x1fe;
			tnt(&g, !cr3);
			if (cr3) {
				/* The PIP follows the branches before it. */
				if (flush_tnt(&g) || pip(&g, 0x1234000))
					break;
				g.insns += 1;
			}
			g.insns += 2;
		}
		if (!skip) {
			tnt(&g, 1); /* the compressed return */
			g.insns += 3;
		}
		tnt(&g, 1);
		g.insns += 5;
	}
	flush_tnt(&g);
	pt_enc_get_offset(g.enc, &off);
	pt_free_encoder(g.enc);
	*insns = g.insns;
	return (size_t)off;
}

static void sample_id(uint8_t *p, uint64_t time)
{
	uint32_t pidtid[2] = {PID, PID}, cpu[2] = {0, 0};
	uint64_t id = 2;
	memcpy(p, pidtid, 8);
	memcpy(p + 8, &time, 8);
	memcpy(p + 16, cpu, 8);
	memcpy(p + 24, &id, 8);
}

static void header(uint8_t *rec, uint32_t type, size_t size)
{
	struct perf_event_header h = {type, 0, (uint16_t)size};
	memcpy(rec, &h, sizeof(h));
}

static int write_perf_data(const char *path, const char *bin,
			   const uint8_t *trace, size_t size)
{
	struct hwt_pd_writer *w;
	int err = hwt_pd_writer_open(path, &w);
	if (err)
		return err;
	const uint64_t st = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU |
			    PERF_SAMPLE_IDENTIFIER;
	struct perf_event_attr pt = {
		.type = PMU_TYPE, .size = sizeof(pt),
		.sample_type = st | PERF_SAMPLE_IP, .sample_id_all = 1,
		.exclude_kernel = 1, .disabled = 1,
	};
	struct perf_event_attr dummy = {
		.type = PERF_TYPE_SOFTWARE, .size = sizeof(dummy),
		.config = PERF_COUNT_SW_DUMMY, .sample_type = st,
		.sample_id_all = 1, .mmap = 1, .mmap2 = 1, .comm = 1,
		.exclude_kernel = 1,
	};
	uint64_t id1 = 1, id2 = 2;
	err = hwt_pd_writer_add_attr(w, &pt, &id1, 1, "intel_pt//u");
	if (!err)
		err = hwt_pd_writer_add_attr(w, &dummy, &id2, 1, "dummy:u");

	uint8_t rec[512];
	memset(rec, 0, sizeof(rec));
	uint64_t priv[17] = {PMU_TYPE, 0, 1, 0, 0, 0x400, 0x800, 0, 0, 0,
			     0x200, 0x3c000, 0, 0, 0x2, 0, 0};
	uint32_t type_res[2] = {1, 0};
	header(rec, HWT_PD_RECORD_AUXTRACE_INFO, 16 + sizeof(priv));
	memcpy(rec + 8, type_res, 8);
	memcpy(rec + 16, priv, sizeof(priv));
	if (!err)
		err = hwt_pd_writer_record(w, rec);

	uint32_t pidtid[2] = {PID, PID};
	memset(rec, 0, sizeof(rec));
	memcpy(rec + 8, pidtid, 8);
	memcpy(rec + 16, "bench", 6);
	sample_id(rec + 24, 1);
	header(rec, PERF_RECORD_COMM, 24 + 32);
	if (!err)
		err = hwt_pd_writer_record(w, rec);

	memset(rec, 0, sizeof(rec));
	memcpy(rec + 8, pidtid, 8);
	uint64_t mm[3] = {ORG, code_size, 0};
	memcpy(rec + 16, mm, sizeof(mm));
	uint32_t prot_flags[2] = {PROT_READ | PROT_EXEC, MAP_PRIVATE};
	memcpy(rec + 64, prot_flags, 8);
	size_t fn = strlen(bin) + 1, n = 72 + ((fn + 7) & ~(size_t)7);
	memcpy(rec + 72, bin, fn);
	sample_id(rec + n, 2);
	header(rec, PERF_RECORD_MMAP2, n + 32);
	if (!err)
		err = hwt_pd_writer_record(w, rec);

	struct hwt_pd_auxtrace aux = {.size = size, .tid = PID, .cpu = UINT32_MAX};
	if (!err)
		err = hwt_pd_writer_auxtrace(w, &aux, trace);
	int cerr = hwt_pd_writer_close(w);
	return err ? err : cerr;
}

static uint64_t counted_insns, counted_elems;

/* The median and spread of RUNS times. */
struct timing {
	double med, lo, hi;
};

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static struct timing summarize(double *t)
{
	qsort(t, RUNS, sizeof(*t), cmp_double);
	return (struct timing){t[RUNS / 2], t[0], t[RUNS - 1]};
}

static int count(void *arg, const struct hwt_elem *e)
{
	(void)arg;
	counted_elems++;
	if (e->type == HWT_ELEM_RANGE)
		counted_insns += e->u.range.insns;
	return 0;
}

static double one_raw(const char *pt, const char *bin)
{
	struct hwt_map_spec map = {bin, ORG};
	struct hwt_decode_opts opts = {.size = sizeof(opts), .maps = &map, .nmaps = 1};
	struct hwt_elem_sink sink = {count, NULL};
	counted_insns = counted_elems = 0;
	double t = now();
	if (hwt_decode_raw("intel_pt", NULL, pt, &opts, &sink) < 0) {
		fprintf(stderr, "hwtrace: %s\n", hwt_errmsg());
		exit(1);
	}
	return now() - t;
}

static double one_file(const char *data)
{
	struct hwt_decode_opts opts = {.size = sizeof(opts)};
	struct hwt_elem_sink sink = {count, NULL};
	counted_insns = counted_elems = 0;
	double t = now();
	if (hwt_decode_file(data, &opts, &sink) < 0) {
		fprintf(stderr, "hwtrace: %s\n", hwt_errmsg());
		exit(1);
	}
	return now() - t;
}

static double one_libipt(uint8_t *trace, size_t size, const char *bin,
			 bool end_on_branch, bool elements, uint64_t *insns)
{
	struct hwt_elem_sink sink = {count, NULL};
	counted_insns = counted_elems = 0;
	double t = now();
	*insns = libipt_block_loop(trace, size, bin, code_size, ORG,
				   end_on_branch, elements ? &sink : NULL);
	return now() - t;
}

static struct timing time_perf(const char *data)
{
	char cmd[4400];
	snprintf(cmd, sizeof(cmd),
		 "perf script -i '%s' --itrace=b >/dev/null 2>&1", data);
	double runs[RUNS];
	for (int r = 0; r < RUNS; r++) {
		double t = now();
		if (system(cmd) != 0)
			return (struct timing){-1, -1, -1};
		t = now() - t;
		runs[r] = t;
	}
	return summarize(runs);
}

static void print_row(const char *what, const struct timing *t, double mb,
		      uint64_t insns)
{
	printf("%-34s %8.4f s (%.4f..%.4f)  %7.1f MB/s", what, t->med, t->lo,
	       t->hi, mb / t->med);
	if (insns)
		printf("  %7.1f Minsn/s  (%" PRIu64 " insns)", insns / t->med / 1e6,
		       insns);
	putchar('\n');
}

int main(int argc, char **argv)
{
	const char *keep = NULL;
	if (argc > 2 && !strcmp(argv[1], "--write")) {
		keep = argv[2];
		argc -= 2;
		argv += 2;
	}
	size_t kib = argc > 1 ? strtoul(argv[1], NULL, 0) : 1024;
	kernel = argc > 2 && !strcmp(argv[2], "kernel");
	if (kernel) {
		code = kernel_code;
		code_size = sizeof(kernel_code);
	}
	char tmp[] = "/tmp/hwt-bench-pt-XXXXXX", bin[4200], pt[4200], data[4200];
	const char *dir = keep ? keep : mkdtemp(tmp);
	if (!dir || !kib || strlen(dir) > 4000)
		return 2;
	snprintf(bin, sizeof(bin), "%s/code.bin", dir);
	snprintf(pt, sizeof(pt), "%s/trace.pt", dir);
	snprintf(data, sizeof(data), "%s/perf.data", dir);

	size_t cap = kib * 1024;
	uint8_t *trace = malloc(cap + 8192);
	uint64_t made_insns = 0;
	size_t size = make_trace(trace, cap, &made_insns);
	FILE *f = fopen(bin, "wb");
	int ok = f && fwrite(code, 1, code_size, f) == code_size;
	if (f)
		ok &= fclose(f) == 0;
	f = fopen(pt, "wb");
	ok &= f && fwrite(trace, 1, size, f) == size;
	if (f)
		ok &= fclose(f) == 0;
	if (!ok || write_perf_data(data, bin, trace, size) < 0) {
		fprintf(stderr, "cannot write the inputs in %s: %s\n", dir,
			hwt_errmsg());
		return 1;
	}

	if (keep) {
		printf("%s: %zu bytes of trace, %" PRIu64 " instructions\n",
		       data, size, made_insns);
		free(trace);
		return 0;
	}
	double mb = size / 1e6;
	/* The library and the libipt loops take turns, run after run, so
	 * that a change in the machine's load falls on all of them. */
	double raw[RUNS], slow[RUNS], file[RUNS], ipt[RUNS], ipt2[RUNS],
		ipt_sink[RUNS];
	uint64_t raw_insns = 0, raw_elems = 0, slow_insns = 0, file_insns = 0,
		 ipt_insns = 0, ipt2_insns = 0, sink_insns = 0, sink_elems = 0;
	for (int r = 0; r < RUNS; r++) {
		raw[r] = one_raw(pt, bin);
		raw_insns = counted_insns;
		raw_elems = counted_elems;
		setenv("HWTRACE_PT_FAST", "0", 1);
		slow[r] = one_raw(pt, bin);
		slow_insns = counted_insns;
		unsetenv("HWTRACE_PT_FAST");
		file[r] = one_file(data);
		file_insns = counted_insns;
		ipt[r] = one_libipt(trace, size, bin, false, false, &ipt_insns);
		ipt2[r] = one_libipt(trace, size, bin, true, false, &ipt2_insns);
		ipt_sink[r] = one_libipt(trace, size, bin, false, true, &sink_insns);
		sink_elems = counted_elems;
	}
	struct timing t_raw = summarize(raw), t_slow = summarize(slow),
		      t_file = summarize(file),
		      t_ipt = summarize(ipt), t_ipt2 = summarize(ipt2),
		      t_sink = summarize(ipt_sink);
	struct timing t_perf = time_perf(data);

	printf("trace%s: %.2f MB, %" PRIu64 " instructions encoded; CPU s, "
	       "median (least..most) of %d runs\n", kernel ? " (kernel)" : "",
	       mb, made_insns, RUNS);
	print_row("hwtrace decode --raw", &t_raw, mb, raw_insns);
	printf("    (%" PRIu64 " elements)\n", raw_elems);
	print_row("  same, HWTRACE_PT_FAST=0", &t_slow, mb, slow_insns);
	print_row("hwtrace decode perf.data", &t_file, mb, file_insns);
	print_row("libipt block decoder, bare loop", &t_ipt, mb, ipt_insns);
	print_row("  same, blocks end at every branch", &t_ipt2, mb, ipt2_insns);
	print_row("  same, a sink called per element", &t_sink, mb, sink_insns);
	printf("    (%" PRIu64 " elements)\n", sink_elems);
	if (t_perf.med > 0)
		print_row("perf script --itrace=b >/dev/null", &t_perf, mb, 0);
	else
		printf("perf script --itrace=b: could not run perf\n");
	printf("ratio hwtrace raw / bare libipt speed: %.2f\n",
	       t_ipt.med / t_raw.med);
	printf("ratio hwtrace raw with HWTRACE_PT_FAST=0 / bare libipt speed: "
	       "%.2f\n", t_ipt.med / t_slow.med);
	printf("ratio hwtrace raw / libipt with blocks ending at every branch: "
	       "%.2f\n", t_ipt2.med / t_raw.med);
	printf("ratio libipt with a sink called per element / bare libipt "
	       "speed: %.2f\n", t_ipt.med / t_sink.med);
	if (t_perf.med > 0)
		printf("ratio hwtrace perf.data / perf script speed: %.2f\n",
		       t_perf.med / t_file.med);

	char cmd[4300];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", dir);
	free(trace);
	/* The decoders must agree on the work they did. */
	if (raw_insns != ipt_insns || file_insns != ipt_insns ||
	    slow_insns != ipt_insns ||
	    ipt2_insns != ipt_insns || sink_insns != ipt_insns) {
		fprintf(stderr, "instruction counts differ: hwtrace %" PRIu64
			"/%" PRIu64 ", libipt %" PRIu64 "\n", raw_insns,
			file_insns, ipt_insns);
		return 1;
	}
	return 0;
}
