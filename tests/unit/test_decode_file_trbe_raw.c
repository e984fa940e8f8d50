/* The decode pipeline hands the cs_etm decoder what perf.data says about
 * each CPU's trace: the PMU format bits of its PERF_RECORD_AUX records and
 * its PERF_RECORD_AUX_OUTPUT_HW_ID trace IDs.
 *
 * 1. TRBE: a per-CPU capture of an ETE (CPU 3) whose PERF_RECORD_AUX says
 *    PERF_AUX_FLAG_CORESIGHT_FORMAT_RAW (0x100) holds ete_mem's raw
 *    session1.bin. hwt_decode_file decodes it as trc_pkt_lister 1.3.3 does
 *    (expected-1.3.3/ete_mem.ppl.xz, last run: 2008 instruction ranges);
 *    the same file without the flag takes the bytes for formatted frames
 *    and gives next to nothing, and so does the flag on another CPU's
 *    AUX records.
 * 2. Trace IDs: a formatted (ETR-style) capture of CPU 0 holding
 *    a57_single_step's CSTMC_TRACE_FIFO.bin, whose frames carry trace ID
 *    0x10 (device2.ini TRCTRACEIDR). Metadata naming 0x12 decodes nothing;
 *    an AUX_OUTPUT_HW_ID of 0x10 makes it decode as the reference listing
 *    (one range 0xfffeb448-0xfffeb44c of one instruction, then a debug
 *    halt exception); right metadata with an HW_ID of 0x12 decodes
 *    nothing, so the record wins over the metadata.
 * 3. Threads: the TRBE capture with ete_mem's buffer 40 times over in one
 *    AUX buffer, so that it is cut at its sync points
 *    (cs_sync_points.c), decodes to the same element stream with 1, 2, 3
 *    and 8 threads, cut at every sync point and at the default
 *    distance. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "harness.h"
#include "dummy_attr.h"
#include "elem_text.h"
#include "opencsd_listing.h"
#include "backends/arm-cs/cs_meta.h"
#include "backends/arm-cs/cs_sync_points.h"
#include "hwtrace/backend.h"
#include "hwtrace/decode.h"
#include "hwtrace/error.h"
#include "hwtrace/perfdata.h"

#define OCSD HWT_TESTDATA "/opencsd"
#define ETE_MEM OCSD "/ete_mem"
#define A57 OCSD "/a57_single_step"
#define CS_PMU_TYPE 8 /* any number: the AUXTRACE_INFO names it */
#define ID_CS 1
#define ID_DUMMY 2

/* PERF_RECORD_AUX_OUTPUT_HW_ID (Linux 5.16); older headers lack it. */
#define REC_AUX_OUTPUT_HW_ID 21

struct map {
	const char *file;
	uint64_t addr, len;
};

/* ete_mem/cpu_0.ini: the memory dumps of the traced core. */
static const struct map ete_maps[] = {
	{ETE_MEM "/bindir/code_14_0_exec", 0x010003d4, 0x3b0},
	{ETE_MEM "/bindir/code_12_0_exec", 0x010000b8, 0x1dc},
	{ETE_MEM "/bindir/OTHERS_exec", 0x00010000, 0x48110},
	{ETE_MEM "/bindir/code_57_0_exec", 0x80000438, 0x1c},
	{ETE_MEM "/bindir/code_58_0_exec", 0x80100fe0, 0xc},
	{ETE_MEM "/bindir/code_11_0_exec", 0x010000a8, 0x4},
	{ETE_MEM "/bindir/code_13_0_exec", 0x01000298, 0x13c},
	{ETE_MEM "/bindir/code_9_0_exec", 0x01000090, 0x10},
	{ETE_MEM "/bindir/VAL_NON_DET_CODE_exec", 0x00090000, 0x1888c},
	{ETE_MEM "/bindir/checkpoint_56_0_exec", 0x70000008, 0x60},
	{ETE_MEM "/bindir/checkpoint_55_0_exec", 0x70000000, 0x8},
	{ETE_MEM "/bindir/code_7_0_exec", 0x01000000, 0x84},
};

/* a57_single_step/device1.ini [dump1]. */
static const struct map a57_maps[] = {
	{A57 "/mem_Cortex-A57_0.bin", 0xfffeb448, 4096},
};

struct capture {
	const uint64_t *info;
	size_t info_words;
	int32_t cpu;
	bool aux_other_cpu; /* PERF_RECORD_AUX of CPU cpu - 1 instead */
	uint64_t aux_flags;
	bool have_hw_id;
	uint64_t hw_id;
	const struct map *maps;
	size_t nmaps;
	const uint8_t *trace;
	size_t trace_size;
};

static void header(uint8_t *rec, uint32_t type, size_t size)
{
	struct perf_event_header h = {type, 0, (uint16_t)size};
	memcpy(rec, &h, sizeof(h));
}

/* sample_id_all trailer for TID | TIME | CPU | IDENTIFIER. */
static size_t sample_id(uint8_t *p, int32_t cpu, uint64_t time, uint64_t id)
{
	uint32_t pidtid[2] = {UINT32_MAX, UINT32_MAX};
	uint32_t c[2] = {(uint32_t)cpu, 0};
	memcpy(p, pidtid, 8);
	memcpy(p + 8, &time, 8);
	memcpy(p + 16, c, 8);
	memcpy(p + 24, &id, 8);
	return 32;
}

static int write_capture(const char *path, const struct capture *c)
{
	struct hwt_pd_writer *w;
	int err = hwt_pd_writer_open(path, &w);
	if (err)
		return err;
	const uint64_t sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
				     PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER;
	struct perf_event_attr cs = {
		.type = CS_PMU_TYPE,
		.size = sizeof(cs),
		.sample_type = sample_type,
		.sample_id_all = 1,
		.disabled = 1,
	};
	struct perf_event_attr dummy = hwt_test_dummy_attr(sample_type);
	uint64_t id_cs = ID_CS, id_dummy = ID_DUMMY;
	err = hwt_pd_writer_add_attr(w, &cs, &id_cs, 1, "cs_etm//");
	if (!err)
		err = hwt_pd_writer_add_attr(w, &dummy, &id_dummy, 1, "dummy:u");
	if (!err)
		err = hwt_pd_writer_auxtrace_info(w, HWT_AUXTRACE_CS_ETM, c->info,
						  c->info_words);

	static uint8_t rec[8192];
	for (size_t i = 0; i < c->nmaps && !err; i++) {
		/* Code that belongs to no process (pid -1), as perf writes the
		 * kernel's: the trace runs at EL1/EL2. */
		memset(rec, 0, sizeof(rec));
		uint32_t pidtid[2] = {UINT32_MAX, UINT32_MAX};
		uint64_t mm[3] = {c->maps[i].addr, c->maps[i].len, 0};
		uint32_t prot_flags[2] = {PROT_READ | PROT_EXEC, MAP_PRIVATE};
		memcpy(rec + 8, pidtid, 8);
		memcpy(rec + 16, mm, sizeof(mm));
		memcpy(rec + 64, prot_flags, 8);
		size_t fn = strlen(c->maps[i].file) + 1;
		memcpy(rec + 72, c->maps[i].file, fn);
		size_t n = 72 + ((fn + 7) & ~(size_t)7);
		n += sample_id(rec + n, c->cpu, 1, ID_DUMMY);
		header(rec, PERF_RECORD_MMAP2, n);
		err = hwt_pd_writer_record(w, rec);
	}

	/* The kernel's trace ID of the CPU's trace unit comes before its
	 * first AUX data. */
	if (!err && c->have_hw_id) {
		memset(rec, 0, 64);
		memcpy(rec + 8, &c->hw_id, 8);
		size_t n = 16 + sample_id(rec + 16, c->cpu, 2, ID_CS);
		header(rec, REC_AUX_OUTPUT_HW_ID, n);
		err = hwt_pd_writer_record(w, rec);
	}

	/* PERF_RECORD_AUX: offset 0, the whole trace, the format flags. */
	memset(rec, 0, 64);
	uint64_t a[3] = {0, c->trace_size, c->aux_flags};
	memcpy(rec + 8, a, 24);
	header(rec, PERF_RECORD_AUX,
	       32 + sample_id(rec + 32, c->aux_other_cpu ? c->cpu - 1 : c->cpu, 3,
			      ID_CS));
	if (!err)
		err = hwt_pd_writer_record(w, rec);

	struct hwt_pd_auxtrace aux = {
		.size = c->trace_size,
		.idx = (uint32_t)c->cpu,
		.tid = UINT32_MAX,
		.cpu = (uint32_t)c->cpu,
	};
	if (!err)
		err = hwt_pd_writer_auxtrace(w, &aux, c->trace);
	int cerr = hwt_pd_writer_close(w);
	return err ? err : cerr;
}

struct counts {
	unsigned long ranges, insns, decode_errors, exceptions;
	int32_t want_cpu;
	unsigned long other_cpu; /* ranges not of want_cpu */
	uint64_t first_start, first_end;
};

/* A TRBE capture of ETE_0_s1.ini's trace unit on CPU 3 (as perf
 * describes it) holding @trace, with ete_mem's memory. */
static struct capture trbe_capture(const uint8_t *trace, size_t size)
{
	static const uint64_t info[HWT_CS_HDR_WORDS + HWT_CS_ETE_WORDS] = {
		HWT_CS_HEADER_VERSION_1, ((uint64_t)CS_PMU_TYPE << 32) | 1, 0,
		HWT_CS_MAGIC_ETE, 3, HWT_CS_ETE_NR_PARAMS,
		OCSD_ETE_0_S1_REGS,
	};
	return (struct capture){
		.info = info,
		.info_words = sizeof(info) / 8,
		.cpu = 3,
		.aux_flags = HWT_AUX_FLAG_CORESIGHT_FORMAT_RAW,
		.maps = ete_maps,
		.nmaps = sizeof(ete_maps) / sizeof(ete_maps[0]),
		.trace = trace,
		.trace_size = size,
	};
}

static int count(void *arg, const struct hwt_elem *e)
{
	struct counts *c = arg;
	switch (e->type) {
	case HWT_ELEM_RANGE:
		if (!c->ranges) {
			c->first_start = e->u.range.start;
			c->first_end = e->u.range.end;
		}
		c->ranges++;
		c->insns += e->u.range.insns;
		break;
	case HWT_ELEM_BRANCH:
		c->exceptions += e->u.branch.kind == HWT_BRANCH_EXCEPTION;
		break;
	case HWT_ELEM_ERROR:
		/* The capture has no switch records on purpose: the
		 * pipeline's note about that is not a decode error. */
		if (!strstr(e->u.error.message, "context-switch"))
			c->decode_errors++;
		return 0;
	default:
		break;
	}
	if (e->type == HWT_ELEM_RANGE &&
	    (!(e->fields & HWT_FIELD_CPU) || e->cpu != c->want_cpu))
		c->other_cpu++;
	return 0;
}

static size_t read_file(const char *path, uint8_t *buf, size_t size)
{
	FILE *f = fopen(path, "rb");
	size_t n = f ? fread(buf, 1, size, f) : 0;
	if (f)
		fclose(f);
	return n;
}

static char tmpdir[] = "/tmp/hwt-decode-trbe-XXXXXX";

static int decode(const struct capture *cap, int32_t cpu, struct counts *c)
{
	char path[128];
	snprintf(path, sizeof(path), "%s/perf.data", tmpdir);
	int err = write_capture(path, cap);
	CHECK_INT(err, 0);
	if (err)
		return err;
	memset(c, 0, sizeof(*c));
	c->want_cpu = cpu;
	struct hwt_decode_opts opts = {.size = sizeof(opts)};
	struct hwt_elem_sink sink = {count, c};
	err = hwt_decode_file(path, &opts, &sink);
	unlink(path);
	return err;
}

static void raw_flag_selects_trbe_decode(void)
{
	unsigned long want_insns;
	long want = listing_ranges(OCSD "/expected-1.3.3/ete_mem.ppl.xz",
				   &want_insns);
	CHECK_INT(want, 2008);

	static uint8_t trace[1 << 16];
	size_t n = read_file(ETE_MEM "/session1.bin", trace, sizeof(trace));
	CHECK_INT(n, 1906);

	struct capture cap = trbe_capture(trace, n);
	/* The ID the kernel gives this trace unit; a raw stream has no IDs
	 * in it, so it changes nothing. */
	cap.have_hw_id = true;
	cap.hw_id = 0x2;
	struct counts c;
	CHECK_INT(decode(&cap, 3, &c), 0);
	CHECK_INT(c.ranges, want);
	CHECK_INT(c.insns, want_insns);
	CHECK_INT(c.decode_errors, 0);
	CHECK_INT(c.other_cpu, 0);
	printf("raw-flagged CPU 3 AUX data: %lu ranges, %lu instructions "
	       "(listing: %ld, %lu)\n", c.ranges, c.insns, want, want_insns);

	/* The same file with plain PERF_RECORD_AUX flags: formatted frames,
	 * which these bytes are not. */
	cap.aux_flags = 0;
	CHECK_INT(decode(&cap, 3, &c), 0);
	CHECK(c.ranges < (unsigned long)want / 10);
	CHECK(c.insns < want_insns / 10);
	printf("same data without the raw flag: %lu ranges, %lu instructions\n",
	       c.ranges, c.insns);

	/* The flag on CPU 2's AUX records says nothing about CPU 3's data:
	 * each CPU's trace unit has its own sink. */
	cap.aux_flags = HWT_AUX_FLAG_CORESIGHT_FORMAT_RAW;
	cap.aux_other_cpu = true;
	CHECK_INT(decode(&cap, 3, &c), 0);
	CHECK(c.ranges < (unsigned long)want / 10);
	CHECK(c.insns < want_insns / 10);
}

static int collect(void *arg, const struct hwt_elem *e)
{
	return elem_text_add(arg, e);
}

static int decode_text(const char *path, unsigned jobs, struct elem_text *t)
{
	struct hwt_decode_opts opts = {.size = sizeof(opts), .jobs = jobs};
	struct hwt_elem_sink sink = {collect, t};
	memset(t, 0, sizeof(*t));
	return hwt_decode_file(path, &opts, &sink);
}

static void threads_decode_cut_trbe_as_one(void)
{
	enum { COPIES = 40 };
	static uint8_t trace[1906 * COPIES];
	size_t n = read_file(ETE_MEM "/session1.bin", trace, sizeof(trace));
	CHECK_INT(n, 1906);
	for (int i = 1; i < COPIES; i++)
		memcpy(trace + i * n, trace, n);
	struct capture cap = trbe_capture(trace, n * COPIES);
	char path[128];
	snprintf(path, sizeof(path), "%s/perf.data", tmpdir);
	CHECK_INT(write_capture(path, &cap), 0);

	struct elem_text one, many;
	CHECK_INT(decode_text(path, 1, &one), 0);
	/* Every copy's 2008 ranges (as trc_pkt_lister lists one copy). */
	unsigned long ranges = 0;
	/* One pass, not strstr from each hit: ASan's strstr measures the
	 * whole rest of the text at each call (2 minutes on these 3 MB). */
	for (const char *p = one.s; p && *p; p++)
		ranges += p[0] == '\n' && p[1] == '0' && p[2] == ' ';
	CHECK_INT(ranges, 2008 * COPIES);
	static const size_t sizes[] = {1, 16 * 1024};
	for (size_t k = 0; k < 2; k++) {
		cs_split_bytes = sizes[k];
		for (unsigned jobs = 2; jobs <= 8; jobs += jobs == 3 ? 5 : 1) {
			char what[80];
			CHECK_INT(decode_text(path, jobs, &many), 0);
			CHECK(one.s && many.s && !strcmp(one.s, many.s));
			snprintf(what, sizeof(what), "TRBE x%d, cuts %zu bytes "
				 "apart, -j%u", COPIES, sizes[k], jobs);
			elem_text_diff(what, &one, &many);
			free(many.s);
		}
	}
	cs_split_bytes = 16 * 1024;
	free(one.s);
	unlink(path);
}

static void hw_id_selects_trace_id(void)
{
	/* device2.ini (CSETM_0, an ETMv4.1) for CPU 0, with a trace ID set
	 * per case. */
	uint64_t info[HWT_CS_HDR_WORDS + HWT_CS_ETMV4_WORDS] = {
		HWT_CS_HEADER_VERSION_1, ((uint64_t)CS_PMU_TYPE << 32) | 1, 0,
		HWT_CS_MAGIC_ETMV4, 0, HWT_CS_ETMV4_NR_PARAMS,
		0x1,        /* TRCCONFIGR */
		0x12,       /* TRCTRACEIDR: not the 0x10 of the frames */
		0x08000ca1, /* TRCIDR0 */
		0x4200f410, /* TRCIDR1 */
		0x20001088, /* TRCIDR2 */
		0x0,        /* TRCIDR8 */
		0xcc,       /* TRCAUTHSTATUS */
	};
	static uint8_t trace[4096];
	size_t n = read_file(A57 "/CSTMC_TRACE_FIFO.bin", trace, sizeof(trace));
	CHECK_INT(n, 128);
	unsigned long want_insns;
	CHECK_INT(listing_ranges(OCSD "/expected-1.3.3/a57_single_step.ppl.xz",
				 &want_insns), 1);
	CHECK_INT(want_insns, 1);

	struct capture cap = {
		.info = info,
		.info_words = sizeof(info) / 8,
		.cpu = 0,
		.maps = a57_maps,
		.nmaps = 1,
		.trace = trace,
		.trace_size = n,
	};
	struct counts c;

	/* Metadata alone: the decoder listens for 0x12. */
	CHECK_INT(decode(&cap, 0, &c), 0);
	CHECK_INT(c.ranges, 0);

	/* HW_ID (version 0, trace ID 0x10) for CPU 0. */
	cap.have_hw_id = true;
	cap.hw_id = 0x10;
	CHECK_INT(decode(&cap, 0, &c), 0);
	CHECK_INT(c.ranges, 1);
	CHECK_INT(c.insns, want_insns);
	CHECK_U64(c.first_start, 0xfffeb448);
	CHECK_U64(c.first_end, 0xfffeb44c);
	CHECK_INT(c.exceptions, 1);
	CHECK_INT(c.decode_errors, 0);
	CHECK_INT(c.other_cpu, 0);

	/* Right metadata, wrong HW_ID: the record decides. */
	info[HWT_CS_HDR_WORDS + HWT_CS_ETMV4_TRCTRACEIDR] = 0x10;
	cap.hw_id = 0x12;
	CHECK_INT(decode(&cap, 0, &c), 0);
	CHECK_INT(c.ranges, 0);
}

int main(void)
{
	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 1;
	}
	RUN(raw_flag_selects_trbe_decode);
	RUN(hw_id_selects_trace_id);
	RUN(threads_decode_cut_trbe_as_one);
	rmdir(tmpdir);
	return hwt_test_summary();
}
