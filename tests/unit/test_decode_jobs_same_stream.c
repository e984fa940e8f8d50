/* hwt_decode_file with 2, 3 and 8 threads gives exactly the element
 * stream of one thread, on generated per-CPU Intel PT captures built to
 * stress the cut between units: three CPUs, each with pieces (AUXTRACE
 * buffers that do not continue each other, some joined from several
 * buffers that do) whose first PSB lies 0 to 15 bytes from the piece's
 * start, behind padding or bytes that are no packet, with PSB+ inside,
 * overflows, bytes that are no packet between PSBs (decode errors), a
 * piece cut inside a packet, jumps into code whose file is missing (the
 * file is named in the first such gap only, which the threads must keep),
 * and AUX losses between pieces. Every field of every element, strings
 * included, is compared. The one-thread stream itself is checked for what
 * was written (as many overflow gaps as OVF packets, the missing file
 * named once, one error per bad byte run that decoding reached), and
 * against libipt's block decoder alone (the fast path, pt_fast.c, off).
 *
 * From seed 4 on, the code at ORG is replaced half way through the
 * capture (an MMAP2 of another file there, timed between the pieces'
 * TSCs): every thread must read the code of the time it decodes, and the
 * one-thread stream holds ranges of both files. Progress reports are the
 * same bytes for every thread count: done 0 first, never backwards, the
 * last done == total. Then all again with small batches, so that some
 * go through the workers' temporary files. A raw stream of such pieces
 * (--raw, no CYC: cut like a capture's) gives the same too.
 *
 * The trace is made with libipt's encoder. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <intel-pt.h>

#include "backends/x86-pt/pt_decode.h"
#include "core/decode/decode_internal.h"
#include "harness.h"
#include "hwtrace/decode.h"
#include "hwtrace/error.h"
#include "hwtrace/perfdata.h"
#include "elem_text.h"
#include "bench/pt_edges_trace.h"
#include "pt_enc_psb.h"
#include "test_pt_capture.h"

#define ORG 0x400000ull     /* code_a, found */
#define ORG_MISSING 0x500000ull /* a file that is not there */
#define NCPU 3
#define NPIECES 18

/* 400000 inc rax (3); 400003 jne 400000 (2); 400005 ret */
static const uint8_t code[] = {0x48, 0xff, 0xc0, 0x75, 0xfb, 0xc3};
/* The replacement: 400000 nop; 400001 inc rax (3); 400004 jne 400000
 * (2); 400006 ret */
static const uint8_t code_b[] = {0x90, 0x48, 0xff, 0xc0, 0x75, 0xfa, 0xc3};

static char tmp[] = "/tmp/hwt-jobs-XXXXXX";

struct gen {
	struct pt_encoder *e;
	uint8_t *buf;
	size_t cap;
	uint64_t tsc;
	unsigned seed;
	unsigned ovf, bad;
	bool big; /* pieces of thousands of elements */
	bool untimed; /* no TSC anywhere, as qemu's trace has none */
};

static unsigned rnd(struct gen *g)
{
	g->seed = g->seed * 1103515245u + 12345u;
	return (g->seed >> 16) & 0x7fff;
}

static int enc(struct gen *g, struct pt_packet *p)
{
	return pt_enc_put(g->e, p);
}

static uint64_t pos(struct gen *g)
{
	uint64_t off = 0;
	pt_enc_get_offset(g->e, &off);
	return off;
}

/* Raw bytes at the encoder's position (padding or no packet at all). */
static void raw(struct gen *g, const uint8_t *bytes, size_t n)
{
	uint64_t off = pos(g);
	memcpy(g->buf + off, bytes, n);
	pt_enc_sync_set(g->e, off + n);
}

/* Every TNT bit written is a taken jne: with tracing on, the loop is at
 * ORG. */
static int psb(struct gen *g, bool enabled)
{
	g->tsc += 1000;
	if (!g->untimed)
		return pt_enc_psb_plus(g->e, g->tsc, enabled ? ORG : 0);
	struct pt_packet p;
	memset(&p, 0, sizeof(p));
	p.type = ppt_psb;
	int err = enc(g, &p);
	p.type = ppt_mode;
	p.payload.mode.leaf = pt_mol_exec;
	p.payload.mode.bits.exec.csl = 1;
	err |= enc(g, &p);
	if (enabled)
		err |= pt_enc_ip(g->e, ppt_fup, ORG);
	p.type = ppt_psbend;
	return err | enc(g, &p);
}

static int tip(struct gen *g, enum pt_packet_type type, uint64_t ip)
{
	return pt_enc_ip(g->e, type, ip);
}

static int tnt(struct gen *g)
{
	struct pt_packet p;
	memset(&p, 0, sizeof(p));
	p.type = ppt_tnt_8;
	p.payload.tnt.bit_size = (uint8_t)(1 + rnd(g) % 6);
	p.payload.tnt.payload = (1u << p.payload.tnt.bit_size) - 1;
	int err = enc(g, &p);
	if (!err && !g->untimed && rnd(g) % 4 == 0) {
		/* TSC between branches: ranges get new times. */
		p.type = ppt_tsc;
		g->tsc += 10;
		p.payload.tsc.tsc = g->tsc;
		err = enc(g, &p);
	}
	return err;
}

/* One piece: where its first PSB lies, then traced loops with PSB+,
 * overflows, bad bytes and a visit to the missing file. */
static size_t piece(struct gen *g, unsigned k)
{
	static const uint8_t junk[] = {0x02, 0xa7, 0x02, 0xa7, 0x02, 0xa7,
				       0x02, 0xa7, 0x02, 0xa7, 0x02, 0xa7,
				       0x02, 0xa7, 0x02, 0xa7};
	static const uint8_t pad[16] = {0};
	struct pt_config c;
	int err = 0;

	memset(g->buf, 0, g->cap);
	pt_config_init(&c);
	c.begin = g->buf;
	c.end = g->buf + g->cap;
	g->e = pt_alloc_encoder(&c);
	if (!g->e)
		return 0;
	/* The first PSB k % 16 bytes in, behind padding or junk. */
	raw(g, k % 3 == 1 ? junk : pad, k % 16);
	unsigned psbs = 1 + rnd(g) % 4;
	for (unsigned i = 0; i < psbs && !err; i++) {
		bool enabled = i > 0;
		err |= psb(g, enabled);
		if (!enabled)
			err |= tip(g, ppt_tip_pge, ORG);
		unsigned n = g->big ? 2500 + rnd(g) % 1000 : 1 + rnd(g) % 12;
		for (unsigned j = 0; j < n && !err; j++) {
			err |= tnt(g);
			switch (g->big && j < 2400 ? 3 : rnd(g) % 16) {
			case 0: {
				/* Lost packets, then trace resumes at ORG. */
				struct pt_packet p;
				memset(&p, 0, sizeof(p));
				p.type = ppt_ovf;
				err |= enc(g, &p);
				err |= tip(g, ppt_fup, ORG);
				g->ovf++;
				break;
			}
			case 1:
				/* No packet: an error, then the next PSB. */
				raw(g, junk, 2 + rnd(g) % 6);
				g->bad++;
				j = n;
				break;
			case 2:
				/* Off and on again into the missing file. */
				err |= tip(g, ppt_tip_pgd, 0);
				err |= tip(g, ppt_tip_pge, ORG_MISSING);
				j = n;
				break;
			default:
				break;
			}
		}
	}
	if (!err && rnd(g) % 3)
		err |= tip(g, ppt_tip_pgd, 0);
	size_t size = err ? 0 : (size_t)pos(g);
	/* Some pieces end inside a packet. */
	if (size > 8 && k % 5 == 4)
		size -= 1 + k % 3;
	pt_free_encoder(g->e);
	return size;
}

/* A PERF_RECORD_AUX saying the buffer of @cpu was full after @off. */
static void aux_lost(uint8_t *rec, uint32_t cpu, uint64_t off)
{
	memset(rec, 0, 128);
	uint64_t body[3] = {off, 0, 0x1 /* TRUNCATED */};
	memcpy(rec + 8, body, sizeof(body));
	size_t n = 8 + sizeof(body);
	n += pt_capture_sample_id(rec + n, 2, 2);
	memcpy(rec + n - 16, &cpu, 4); /* the sample_id's cpu */
	pt_capture_header(rec, PERF_RECORD_AUX, 0, n);
}

static int write_capture(const char *path, const char *file,
			 const char *file_b, unsigned seed, unsigned *ovf,
			 unsigned *bad)
{
	enum { NBUF = NCPU * NPIECES * 3, NLOST = NCPU * NPIECES / 4 + 1 };
	static struct pt_capture_buffer bufs[NBUF];
	static uint8_t lost[NLOST][128], missing[512], remap[512];
	static const void *extra[NLOST + 2];
	size_t nbufs = 0, nextra = 0, nlost = 0;
	struct gen g = {.cap = 1 << 16, .seed = seed, .big = seed == 7};
	uint8_t *all = malloc((size_t)NCPU * NPIECES * g.cap);
	g.buf = malloc(g.cap);
	uint64_t offset[NCPU] = {0};
	int err = all && g.buf ? 0 : HWT_ERR_NOMEM;

	pt_capture_mmap2(missing, "/nonexistent/hwt-jobs-missing.so",
			 ORG_MISSING, 0x1000, NULL, 0, 2);
	extra[nextra++] = missing;
	for (unsigned k = 0; k < NCPU * NPIECES && !err; k++) {
		uint32_t cpu = k % NCPU;
		if (file_b && k == NCPU * NPIECES / 2) {
			/* code_b replaces code at ORG from the time reached
			 * (perf time = TSC: the capture has no TIME_CONV). */
			pt_capture_mmap2(remap, file_b, ORG, sizeof(code_b), NULL,
					 0, 2);
			struct perf_event_header h;
			memcpy(&h, remap, sizeof(h));
			uint64_t t = g.tsc + 5;
			memcpy(remap + h.size - 24, &t, 8);
			extra[nextra++] = remap;
		}
		size_t size = piece(&g, k / NCPU);
		if (!size) {
			err = HWT_ERR_INVAL;
			break;
		}
		uint8_t *data = all + (size_t)k * g.cap;
		memcpy(data, g.buf, size);
		/* A piece of one to three buffers that continue each other. */
		size_t parts = 1 + k % 3, at = 0;
		for (size_t p = 0; p < parts; p++) {
			size_t n = p + 1 == parts ? size - at : size / parts;
			bufs[nbufs++] = (struct pt_capture_buffer){cpu, offset[cpu],
								   data + at, n};
			offset[cpu] += n;
			at += n;
		}
		/* The next piece does not continue this one: a loss between. */
		if (k % 4 == 1) {
			aux_lost(lost[nlost], cpu, offset[cpu]);
			extra[nextra++] = lost[nlost++];
		}
		offset[cpu] += 4096;
	}
	struct pt_capture c = {
		.code_path = file, .code_addr = ORG, .code_size = sizeof(code),
		.extra = extra, .nextra = nextra, .buffers = bufs,
		.nbuffers = nbufs,
	};
	if (!err)
		err = pt_capture_write(path, &c);
	free(g.buf);
	free(all);
	*ovf = g.ovf;
	*bad = g.bad;
	return err;
}

/* Every field of every element, one line each. */
struct text {
	struct elem_text all; /* every element */
	unsigned ovf, errors, named, ranges;
	unsigned ranges_b; /* of code_b's loop */
	uint64_t n, stop_after; /* stop_after: refuse the element after */
};

static int collect(void *arg, const struct hwt_elem *e)
{
	struct text *t = arg;
	if (t->stop_after && t->n++ == t->stop_after)
		return HWT_ERR_NOSPC;
	switch (e->type) {
	case HWT_ELEM_RANGE:
		t->ranges++;
		/* Its last instruction, at 400004, or its end, 400006:
		 * code's are at 400003 and 400005. */
		t->ranges_b += e->u.range.start == ORG + 1 ||
			       e->u.range.end == ORG + 4 ||
			       e->u.range.end == ORG + 6;
		break;
	case HWT_ELEM_GAP:
		t->ovf += e->u.gap.reason == HWT_GAP_OVERFLOW;
		t->named += e->u.gap.detail &&
			    strstr(e->u.gap.detail, "hwt-jobs-missing.so") != NULL;
		break;
	case HWT_ELEM_ERROR:
		t->errors++;
		break;
	default:
		break;
	}
	return elem_text_add(&t->all, e);
}

/* The progress reports of a decode, checked as they come. */
struct reports {
	unsigned n, backwards, first_not_zero;
	uint64_t last_done, total;
};

static void on_progress(void *arg, const struct hwt_decode_progress *p)
{
	struct reports *r = arg;
	r->first_not_zero += r->n == 0 && p->done != 0;
	r->backwards += r->n && p->done < r->last_done;
	r->last_done = p->done;
	r->total = p->total;
	r->n++;
}

static int decode(const char *data, unsigned jobs, bool disasm, struct text *t,
		  uint64_t stop_after, struct reports *r)
{
	struct hwt_decode_opts opts = {.size = sizeof(opts), .jobs = jobs,
				       .disasm = disasm,
				       .progress = r ? on_progress : NULL,
				       .progress_arg = r};
	struct hwt_elem_sink sink = {collect, t};
	memset(t, 0, sizeof(*t));
	if (r)
		memset(r, 0, sizeof(*r));
	t->stop_after = stop_after;
	return hwt_decode_file(data, &opts, &sink);
}

static void write_code(const char *path, const uint8_t *bytes, size_t n)
{
	FILE *f = fopen(path, "wb");
	CHECK(f && fwrite(bytes, 1, n, f) == n);
	if (f)
		fclose(f);
}

/* @many (then freed), of @jobs threads, is @one's stream; the first
 * difference is shown. */
static void same_as_one(const char *kind, unsigned seed, unsigned jobs,
			const struct text *one, struct text *many)
{
	CHECK(many->all.s && !strcmp(many->all.s, one->all.s));
	char what[64];
	snprintf(what, sizeof(what), "%sseed %u -j%u against -j1", kind, seed,
		 jobs);
	elem_text_diff(what, &one->all, &many->all);
	free(many->all.s);
}

static void same_for_every_job_count(unsigned seed, bool disasm)
{
	char file[300], file_b[300], data[300];
	snprintf(file, sizeof(file), "%s/code.bin", tmp);
	snprintf(file_b, sizeof(file_b), "%s/code_b.bin", tmp);
	snprintf(data, sizeof(data), "%s/perf-%u.data", tmp, seed);
	write_code(file, code, sizeof(code));
	write_code(file_b, code_b, sizeof(code_b));
	bool remap = seed >= 4;
	unsigned ovf = 0, bad = 0;
	CHECK_INT(write_capture(data, file, remap ? file_b : NULL, seed, &ovf,
				&bad), 0);

	struct text one, many;
	struct reports r1, rn;
	CHECK_INT(decode(data, 1, disasm, &one, 0, &r1), 0);
	CHECK(one.all.s != NULL);
	if (!one.all.s)
		return;
	/* What was written is there. */
	/* Overflows after bad bytes or a jump into the missing file are
	 * skipped with them, up to the next PSB. */
	CHECK(one.ovf > 0 && one.ovf <= ovf);
	CHECK(one.ranges > 100);
	CHECK(bad > 0 && one.errors > 0 && one.errors <= bad + NCPU * NPIECES);
	CHECK_INT(one.named, 1);
	/* Code of both times, or of the one file. */
	if (remap)
		CHECK(one.ranges_b > 0 && one.ranges_b < one.ranges);
	else
		CHECK_INT(one.ranges_b, 0);
	CHECK(r1.n >= 2 && r1.total > 0);
	/* libipt's block decoder alone gives the same: the fast path
	 * (pt_fast.c) hands it what it does not take. */
	pt_fast_default = 0;
	CHECK_INT(decode(data, 1, disasm, &many, 0, NULL), 0);
	pt_fast_default = 1;
	CHECK(many.all.s && !strcmp(many.all.s, one.all.s));
	char what[64];
	snprintf(what, sizeof(what), "seed %u libipt alone against the fast "
		 "path", seed);
	elem_text_diff(what, &many.all, &one.all);
	free(many.all.s);
	CHECK_INT(r1.first_not_zero, 0);
	CHECK_INT(r1.backwards, 0);
	CHECK_U64(r1.last_done, r1.total);
	for (unsigned jobs = 2; jobs <= 8; jobs += jobs == 3 ? 5 : 1) {
		CHECK_INT(decode(data, jobs, disasm, &many, 0, &rn), 0);
		CHECK_INT(rn.first_not_zero, 0);
		CHECK_INT(rn.backwards, 0);
		CHECK_U64(rn.total, r1.total);
		CHECK_U64(rn.last_done, r1.total);
		CHECK(rn.n >= 2);
		CHECK_U64(many.all.len, one.all.len);
		same_as_one("", seed, jobs, &one, &many);
	}
	/* A sink that refuses an element stops the decode there, with its
	 * error, whatever the threads had decoded ahead. */
	for (unsigned jobs = 1; jobs <= 3; jobs += 2) {
		struct text cut;
		CHECK_INT(decode(data, jobs, disasm, &cut, one.ranges, NULL),
			  HWT_ERR_NOSPC);
		CHECK(cut.all.s && !strncmp(cut.all.s, one.all.s, cut.all.len));
		CHECK(cut.all.len > 0 && cut.all.len < one.all.len);
		free(cut.all.s);
	}
	free(one.all.s);
	unlink(data);
}

/* The pieces of a CPU one after the other, as a raw stream in @pt;
 * returns its size (0 when it could not be written). */
static size_t write_raw(const char *pt, unsigned seed, bool untimed,
			unsigned *ovf)
{
	struct gen g = {.cap = 1 << 16, .seed = seed, .big = seed == 7,
			.untimed = untimed};
	g.buf = malloc(g.cap);
	uint8_t *all = malloc((size_t)NPIECES * g.cap);
	size_t n = 0;
	for (unsigned k = 0; g.buf && all && k < NPIECES; k++) {
		size_t size = piece(&g, k);
		CHECK(size > 0);
		memcpy(all + n, g.buf, size);
		n += size;
	}
	if (all)
		write_code(pt, all, n);
	free(all);
	free(g.buf);
	*ovf = g.ovf;
	return n;
}

/* A raw stream (--raw): the pieces of a CPU one after the other, with
 * TSCs between branches, overflows, bad bytes, a visit to unmapped code
 * and pieces that end inside a packet. It has no CYC packet, so it is cut
 * at its PSBs like a capture's stream (pt_split.c), and 2, 3 and 8
 * threads must give one thread's elements, times included. */
static void raw_same_for_every_job_count(unsigned seed)
{
	char file[300], pt[300];
	snprintf(file, sizeof(file), "%s/code.bin", tmp);
	snprintf(pt, sizeof(pt), "%s/raw-%u.pt", tmp, seed);
	write_code(file, code, sizeof(code));
	unsigned ovf = 0;
	write_raw(pt, seed, false, &ovf);

	struct hwt_map_spec map = {file, ORG};
	struct text one, many;
	struct hwt_decode_opts opts = {.size = sizeof(opts), .maps = &map,
				       .nmaps = 1, .jobs = 1};
	struct hwt_elem_sink sink = {collect, &one};
	memset(&one, 0, sizeof(one));
	CHECK_INT(hwt_decode_raw("intel_pt", NULL, pt, &opts, &sink), 0);
	CHECK(one.all.s != NULL && one.ranges > 100);
	CHECK(ovf > 0 && one.ovf > 0 && one.ovf <= ovf);
	for (unsigned jobs = 2; jobs <= 8 && one.all.s; jobs += jobs == 3 ? 5 : 1) {
		opts.jobs = jobs;
		sink.arg = &many;
		memset(&many, 0, sizeof(many));
		CHECK_INT(hwt_decode_raw("intel_pt", NULL, pt, &opts, &sink), 0);
		same_as_one("raw ", seed, jobs, &one, &many);
	}
	free(one.all.s);
	unlink(pt);
}

/* The untimed stream's decode with @jobs threads, raw or (@data) from a
 * perf.data holding it as one thread's trace. */
static int decode_untimed(const char *pt, const char *data,
			  const struct hwt_map_spec *map, unsigned jobs,
			  struct text *t)
{
	struct hwt_decode_opts opts = {.size = sizeof(opts), .maps = map,
				       .nmaps = data ? 0 : 1, .jobs = jobs};
	struct hwt_elem_sink sink = {collect, t};
	memset(t, 0, sizeof(*t));
	return data ? hwt_decode_file(data, &opts, &sink)
		    : hwt_decode_raw("intel_pt", NULL, pt, &opts, &sink);
}

/* @trace (@n bytes) to @pt, and as one thread's trace in the perf.data
 * @data, its code @file at ORG (@code_size bytes). */
static void write_untimed(const char *pt, const char *data, const char *file,
			  size_t code_size, const uint8_t *trace, size_t n)
{
	write_code(pt, trace, n);
	struct pt_capture cap = {.code_path = file, .code_addr = ORG,
				 .code_size = code_size, .trace = trace,
				 .trace_size = n};
	CHECK_INT(pt_capture_write(data, &cap), 0);
}

/* Untimed trace (no TSC, MTC or CYC packet, as qemu writes it): nothing
 * carries time over a PSB, so it is cut at every PSB+ that restates the
 * state (pt_split.c), raw and in a perf.data, and 2, 3 and 8 threads give
 * exactly one thread's elements, overflows, errors and missing code
 * included. */
static void untimed_same_for_every_job_count(unsigned seed)
{
	char file[300], pt[300], data[300];
	snprintf(file, sizeof(file), "%s/code.bin", tmp);
	snprintf(pt, sizeof(pt), "%s/untimed-%u.pt", tmp, seed);
	snprintf(data, sizeof(data), "%s/untimed-%u.data", tmp, seed);
	write_code(file, code, sizeof(code));
	unsigned ovf = 0;
	size_t n = write_raw(pt, seed, true, &ovf);
	uint8_t *trace = malloc(n ? n : 1);
	FILE *f = fopen(pt, "rb");
	CHECK(trace && f && fread(trace, 1, n, f) == n);
	if (f)
		fclose(f);
	if (trace)
		write_untimed(pt, data, file, sizeof(code), trace, n);
	free(trace);

	struct hwt_map_spec map = {file, ORG};
	for (int in_file = 0; in_file < 2; in_file++) {
		const char *d = in_file ? data : NULL;
		struct text one, many;
		CHECK_INT(decode_untimed(pt, d, &map, 1, &one), 0);
		CHECK(one.all.s != NULL && one.ranges > 100);
		CHECK(ovf > 0 && one.ovf > 0 && one.ovf <= ovf);
		for (unsigned jobs = 2; jobs <= 8 && one.all.s;
		     jobs += jobs == 3 ? 5 : 1) {
			CHECK_INT(decode_untimed(pt, d, &map, jobs, &many), 0);
			same_as_one(in_file ? "untimed perf.data " : "untimed raw ",
				    seed, jobs, &one, &many);
		}
		free(one.all.s);
	}
	unlink(pt);
	unlink(data);
}

/* Under ThreadSanitizer, which runs this test ten times slower, the
 * untimed streams are fewer and shorter: still many PSB+ cuts, decoded on
 * 1, 2, 3 and 8 threads, which is what it looks at. */
#ifdef __SANITIZE_THREAD__
#define UNTIMED_CUT_BYTES (64 * 1024)
#define UNTIMED_SEEDS 2
#else
#define UNTIMED_CUT_BYTES (256 * 1024)
#define UNTIMED_SEEDS 4
#endif

/* A clean untimed trace (bench/pt_edges_trace.h: conditional branches,
 * calls, compressed returns, interrupts, a PSB+ every 4 KiB) cut at every
 * PSB+ gives, with 1, 2, 3 and 8 threads, exactly what one decoder that
 * runs through it whole gives (segments longer than the stream: no cut),
 * raw and in a perf.data. */
static void untimed_cut_same_as_whole(void)
{
	char file[300], pt[300], data[300], what[80];
	snprintf(file, sizeof(file), "%s/edges-code.bin", tmp);
	snprintf(pt, sizeof(pt), "%s/edges.pt", tmp);
	snprintf(data, sizeof(data), "%s/edges.data", tmp);
	int kind = PT_EDGES_INTERRUPTS | PT_EDGES_DIRECT;
	size_t size = UNTIMED_CUT_BYTES, n = 0;
	uint8_t *trace = malloc(size + 4096);
	uint8_t ecode[sizeof(pt_edges_code)];
	pt_edges_code_for(kind, ecode);
	write_code(file, ecode, sizeof(ecode));
	if (trace)
		n = pt_edges_make(trace, size + 4096, size, kind);
	CHECK(n > size / 2);
	if (n)
		write_untimed(pt, data, file, sizeof(ecode), trace, n);
	free(trace);

	struct hwt_map_spec map = {file, PT_EDGES_ORG};
	size_t saved = pt_split_bytes;
	for (int in_file = 0; in_file < 2 && n; in_file++) {
		const char *d = in_file ? data : NULL;
		struct text whole, many;
		pt_split_bytes = SIZE_MAX;
		CHECK_INT(decode_untimed(pt, d, &map, 1, &whole), 0);
		CHECK(whole.all.s != NULL && whole.ranges > 10000);
		CHECK_INT(whole.errors, 0);
		pt_split_bytes = 1;
		for (unsigned jobs = 1; jobs <= 8 && whole.all.s;
		     jobs += jobs == 3 ? 5 : 1) {
			CHECK_INT(decode_untimed(pt, d, &map, jobs, &many), 0);
			CHECK(many.all.s && !strcmp(many.all.s, whole.all.s));
			snprintf(what, sizeof(what), "untimed %s, cut, -j%u "
				 "against whole", in_file ? "perf.data" : "raw",
				 jobs);
			elem_text_diff(what, &whole.all, &many.all);
			free(many.all.s);
		}
		free(whole.all.s);
	}
	pt_split_bytes = saved;
	unlink(pt);
	unlink(data);
	unlink(file);
}

/* Seeds 1 to 7 in the plain build. Under a sanitizer, which makes this
 * test its stage's longest, the seeds that each bring a case of their
 * own: 1, 4 (the code replaced half way), 6 (disassembly), 7 (long
 * pieces); 2, 3 and 5 differ from 1 only in their random pieces. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
static const unsigned pass_seeds[] = {1, 4, 6, 7};
#else
static const unsigned pass_seeds[] = {1, 2, 3, 4, 5, 6, 7};
#endif
#define NPASS_SEEDS (sizeof(pass_seeds) / sizeof(*pass_seeds))

int main(void)
{
	if (!mkdtemp(tmp)) {
		perror("mkdtemp");
		return 1;
	}
	/* Seed 7: pieces long enough that elements are sent while their
	 * decode runs, before it reaches the missing file. */
	for (size_t i = 0; i < NPASS_SEEDS; i++)
		same_for_every_job_count(pass_seeds[i], pass_seeds[i] == 6);
	/* Small batches: a unit fills its memory before its end, and the
	 * batches that must wait for it (after the missing file) go to the
	 * worker's file and are read back. */
	CHECK_U64(hwt_par_batches.spilled, 0);
	hwt_par_batches = (struct hwt_par_batches){.elems = 256,
						   .max_in_memory = 2};
	for (size_t i = 0; i < NPASS_SEEDS; i++)
		same_for_every_job_count(pass_seeds[i], pass_seeds[i] == 6);
	CHECK(hwt_par_batches.spilled > 0);
	/* Intel PT chunks cut at every PSB where they may be (pt_split.c):
	 * every PSB+ with a TSC and nothing it does not restate. */
	pt_split_bytes = 1;
	static const unsigned cut_seeds[] = {1, 4, 6, 7};
	for (size_t i = 0; i < sizeof(cut_seeds) / sizeof(*cut_seeds); i++)
		same_for_every_job_count(cut_seeds[i], cut_seeds[i] == 6);
	for (size_t i = 0; i < sizeof(cut_seeds) / sizeof(*cut_seeds); i++)
		raw_same_for_every_job_count(cut_seeds[i]);
	for (size_t i = 0; i < UNTIMED_SEEDS; i++)
		untimed_same_for_every_job_count(cut_seeds[i]);
	untimed_cut_same_as_whole();
	char path[300];
	snprintf(path, sizeof(path), "%s/code.bin", tmp);
	unlink(path);
	snprintf(path, sizeof(path), "%s/code_b.bin", tmp);
	unlink(path);
	rmdir(tmp);
	return hwt_test_summary();
}
