/* decode --edges against the full decode, in process: for every stream of
 * libipt's ptt suite (raw, its code at the .ptt's org) and for generated
 * traces with every kind of taken branch (conditional, direct call,
 * compressed and uncompressed return, indirect jump, interrupt and iretq;
 * a trace of TNT packets alone, whose cached runs cross calls and returns;
 * raw and in a perf.data),
 * an overflow and a decode error, the edge map holds exactly the (from, to)
 * pairs of the full decode's branch elements with their counts, and counts
 * its overflow gaps and error elements; the AFL bitmap equals one computed
 * here from those branches. The clean traces take the packet path alone.
 * A perf.data of many pieces (one thread's, which the packet path takes,
 * and two CPUs', which the element decoder takes) gives the same map and
 * stats with 1, 2, 3 and 8 threads. A slice of a generated trace that
 * starts inside a packet, and the slice eight times over, give the full
 * decode's edges and counts too, with no error. Recursion as deep as the
 * return stack (cached TNT runs that push and pop many addresses, replayed
 * with the stack full, refused where the stack holds other addresses and
 * recorded again) gives the full decode's edges and counts too. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "pt_edges_files.h"
#include "hwtrace/decode.h"
#include "hwtrace/edges.h"
#include "ptt_streams.h"
#include "test_pt_capture.h"

/* The full decode's branches, kept as a plain list. */
struct branches {
	struct hwt_edge *v; /* count 1 each until counted */
	size_t n, cap;
	uint64_t overflows, errors;
};

static int collect(void *arg, const struct hwt_elem *e)
{
	struct branches *b = arg;
	if (e->type == HWT_ELEM_GAP && e->u.gap.reason == HWT_GAP_OVERFLOW)
		b->overflows++;
	if (e->type == HWT_ELEM_ERROR)
		b->errors++;
	/* A target whose source the trace does not give (read from the
	 * packets where code is missing) is no edge. */
	if (e->type != HWT_ELEM_BRANCH || (e->fields & HWT_FIELD_NO_FROM))
		return 0;
	if (b->n == b->cap) {
		b->cap = b->cap ? b->cap * 2 : 64;
		b->v = realloc(b->v, b->cap * sizeof(*b->v));
		if (!b->v)
			return -1;
	}
	b->v[b->n++] = (struct hwt_edge){e->u.branch.from, e->u.branch.to, 1};
	return 0;
}

static int cmp_edge(const void *a, const void *b)
{
	const struct hwt_edge *x = a, *y = b;
	if (x->from != y->from)
		return x->from < y->from ? -1 : 1;
	return x->to < y->to ? -1 : x->to > y->to;
}

/* Sorts and merges equal pairs, summing their counts. */
static void count(struct branches *b)
{
	if (!b->n)
		return;
	qsort(b->v, b->n, sizeof(*b->v), cmp_edge);
	size_t k = 0;
	for (size_t i = 1; i < b->n; i++) {
		if (!cmp_edge(&b->v[k], &b->v[i]))
			b->v[k].count++;
		else
			b->v[++k] = b->v[i];
	}
	b->n = k + 1;
}

/* AFL's slot, written out again here: H(a) = high half of a * golden. */
static uint8_t *bitmap_of(const struct branches *b, size_t size)
{
	uint8_t *map = calloc(1, size);
	for (size_t i = 0; map && i < b->n; i++) {
		uint32_t f = (uint32_t)((b->v[i].from * 0x9e3779b97f4a7c15ull) >> 32);
		uint32_t t = (uint32_t)((b->v[i].to * 0x9e3779b97f4a7c15ull) >> 32);
		size_t s = (t ^ (f >> 1)) & (size - 1);
		uint64_t c = map[s] + b->v[i].count;
		map[s] = c > 255 ? 255 : (uint8_t)c;
	}
	return map;
}

struct outcome {
	bool same;          /* edges and counts equal */
	bool counts_same;   /* overflows and errors equal */
	uint64_t fallbacks, total, overflows, errors;
	bool bitmap_same;
};

/* Decodes @data (a perf.data) when given, otherwise the raw @pt. */
static int decode(const char *data, const char *pt,
		  const struct hwt_decode_opts *opts,
		  const struct hwt_elem_sink *sink)
{
	return data ? hwt_decode_file(data, opts, sink)
		    : hwt_decode_raw("intel_pt", NULL, pt, opts, sink);
}

static struct outcome compare_jobs(const char *pt, const char *bin,
				   uint64_t org, const char *data,
				   unsigned int jobs)
{
	struct outcome o = {0};
	struct hwt_map_spec map = {bin, org};
	struct hwt_decode_opts opts = {.size = sizeof(opts), .maps = &map,
				       .nmaps = 1, .jobs = jobs};
	struct branches want = {0};
	struct hwt_elem_sink full = {collect, &want};
	if (data)
		opts.nmaps = 0;
	if (decode(data, pt, &opts, &full) < 0)
		return o;
	count(&want);

	struct hwt_edges *edges = hwt_edges_new();
	opts.edges = edges;
	struct hwt_elem_sink sink = hwt_edges_sink(edges);
	int err = decode(data, pt, &opts, &sink);
	struct hwt_edge *got = NULL;
	size_t n = 0;
	if (!err && !hwt_edges_sorted(edges, &got, &n)) {
		o.same = n == want.n &&
			 (!n || !memcmp(got, want.v, n * sizeof(*got)));
		const struct hwt_edges_stats *st = hwt_edges_stats(edges);
		o.counts_same = st->overflows == want.overflows &&
				st->errors == want.errors;
		o.fallbacks = st->fallbacks;
		o.overflows = st->overflows;
		o.errors = st->errors;
		o.total = hwt_edges_total(edges);
		uint8_t *mine = bitmap_of(&want, 65536), *theirs = malloc(65536);
		o.bitmap_same = mine && theirs &&
				!hwt_edges_bitmap(edges, theirs, 65536) &&
				!memcmp(mine, theirs, 65536);
		free(mine);
		free(theirs);
	}
	free(got);
	free(want.v);
	hwt_edges_free(edges);
	return o;
}

static struct outcome compare(const char *pt, const char *bin, uint64_t org,
			      const char *data)
{
	return compare_jobs(pt, bin, org, data, 1);
}

struct ptt_tally {
	int same, counts, bitmaps, packet_only;
};

static void ptt_stream_matches(const struct ptt_stream *st, void *arg)
{
	struct ptt_tally *t = arg;
	struct outcome o = compare(st->pt, st->bin, st->org, NULL);
	if (!o.same || !o.counts_same || !o.bitmap_same)
		fprintf(stderr, "%s: edges %s, overflows/errors %s, "
			"bitmap %s\n", st->name, o.same ? "same" : "DIFFER",
			o.counts_same ? "same" : "DIFFER",
			o.bitmap_same ? "same" : "DIFFERS");
	t->same += o.same;
	t->counts += o.counts_same;
	t->bitmaps += o.bitmap_same;
	t->packet_only += !o.fallbacks;
}

static void ptt_streams_match(void)
{
	struct ptt_tally t = {0};
	int streams = ptt_for_each(ptt_stream_matches, &t);
	int same = t.same, counts = t.counts, bitmaps = t.bitmaps,
	    packet_only = t.packet_only;
	/* 230 of the suite's streams have their code beside them. */
	CHECK_INT(streams, 230);
	CHECK_INT(same, streams);
	CHECK_INT(counts, streams);
	CHECK_INT(bitmaps, streams);
	/* Those that need nothing the packet walk leaves to the block
	 * decoder (overflows, errors, TSX and power events, ...). */
	CHECK_INT(packet_only, 128);
}

/* A generated trace, raw (@perf_data false) or in a perf.data of one
 * thread with an MMAP2 of the code, its edges counted with @jobs
 * threads. */
static struct outcome generated_jobs(int what, size_t size, bool perf_data,
				     unsigned int jobs)
{
	char dir[] = "/tmp/hwt-edges-XXXXXX", pt[64], bin[64], data[64];
	struct outcome o = {0};
	if (!mkdtemp(dir))
		return o;
	snprintf(pt, sizeof(pt), "%s/trace.pt", dir);
	snprintf(bin, sizeof(bin), "%s/code.bin", dir);
	snprintf(data, sizeof(data), "%s/perf.data", dir);
	size_t n;
	uint8_t *trace = pt_edges_files(what, size, pt, bin, &n);
	bool ok = trace != NULL;
	struct pt_capture cap = {.code_path = bin, .code_addr = PT_EDGES_ORG,
				 .code_size = sizeof(pt_edges_code), .trace = trace,
				 .trace_size = n};
	if (ok && perf_data)
		ok = pt_capture_write(data, &cap) == 0;
	if (ok)
		o = compare_jobs(pt, bin, PT_EDGES_ORG, perf_data ? data : NULL,
				 jobs);
	free(trace);
	unlink(pt);
	unlink(bin);
	unlink(data);
	rmdir(dir);
	return o;
}

static struct outcome generated(int what, size_t size, bool perf_data)
{
	return generated_jobs(what, size, perf_data, 1);
}

static void generated_traces_match(void)
{
	/* Every branch kind, on the packet path alone. */
	struct outcome o = generated(PT_EDGES_INTERRUPTS, 256 * 1024, false);
	CHECK(o.same);
	CHECK(o.bitmap_same);
	CHECK_U64(o.fallbacks, 0);
	CHECK(o.total > 50000);
	/* Compressed returns only: TNT runs cached across calls and
	 * returns. */
	o = generated(PT_EDGES_INTERRUPTS | PT_EDGES_DIRECT, 256 * 1024, false);
	CHECK(o.same);
	CHECK(o.bitmap_same);
	CHECK_U64(o.fallbacks, 0);
	CHECK(o.total > 500000);
	/* A raw stream is cut at its PSBs for edges alone (its PSB+ have
	 * no time stamp), and counted on 2 and 3 threads: the same map.
	 * Some of its PSB+ come after a direct jump, which the segment
	 * before counts. */
	for (unsigned int jobs = 2; jobs <= 3; jobs++) {
		o = generated_jobs(PT_EDGES_INTERRUPTS | PT_EDGES_DIRECT,
				   256 * 1024, false, jobs);
		CHECK(o.same);
		CHECK(o.bitmap_same);
		CHECK_U64(o.fallbacks, 0);
		o = generated_jobs(PT_EDGES_INTERRUPTS | PT_EDGES_OVERFLOW,
				   64 * 1024, false, jobs);
		CHECK(o.same);
		CHECK(o.counts_same);
		CHECK_U64(o.overflows, 1);
		CHECK_U64(o.fallbacks, 1);
	}
	/* A traced kernel's PIPs (in each PSB+, with each interrupt, and
	 * before each iretq, bound to a MOV CR3 or the iretq): the packet
	 * path, on one thread and three, raw and in a perf.data. */
	for (unsigned int jobs = 1; jobs <= 3; jobs += 2) {
		for (int perf_data = 0; perf_data < 2; perf_data++) {
			o = generated_jobs(PT_EDGES_INTERRUPTS | PT_EDGES_PIP,
					   64 * 1024, perf_data, jobs);
			CHECK(o.same);
			CHECK(o.bitmap_same);
			CHECK_U64(o.fallbacks, 0);
			CHECK(o.total > 10000);
		}
	}
	/* An overflow: counted, not fatal, the rest still decoded. */
	o = generated(PT_EDGES_INTERRUPTS | PT_EDGES_OVERFLOW, 64 * 1024, false);
	CHECK(o.same);
	CHECK(o.counts_same);
	CHECK(o.bitmap_same);
	CHECK_U64(o.overflows, 1);
	CHECK_U64(o.fallbacks, 1);
	CHECK(o.total > 10000);
	/* A decode error: counted, the decode resynchronises. */
	o = generated(PT_EDGES_ERROR, 64 * 1024, false);
	CHECK(o.same);
	CHECK(o.counts_same);
	CHECK(o.bitmap_same);
	CHECK_U64(o.errors, 1);
	CHECK(o.total > 10000);
	/* The same traces in a perf.data (one thread, code from its MMAP2
	 * record): the packet path, and an overflow through the block
	 * decoder. */
	o = generated(PT_EDGES_INTERRUPTS, 64 * 1024, true);
	CHECK(o.same);
	CHECK_U64(o.fallbacks, 0);
	CHECK(o.total > 10000);
	o = generated(PT_EDGES_INTERRUPTS | PT_EDGES_OVERFLOW, 64 * 1024, true);
	CHECK(o.same);
	CHECK(o.counts_same);
	CHECK_U64(o.overflows, 1);
}

/* The edge map of --edges on @data with @jobs threads: its edges sorted,
 * and its stats. */
struct edge_map {
	struct hwt_edge *v;
	size_t n;
	struct hwt_edges_stats st;
	int err;
};

static struct edge_map edges_with_jobs(const char *data, unsigned int jobs)
{
	struct edge_map m = {0};
	struct hwt_edges *edges = hwt_edges_new();
	struct hwt_decode_opts opts = {.size = sizeof(opts), .edges = edges,
				       .jobs = jobs};
	struct hwt_elem_sink sink = hwt_edges_sink(edges);
	m.err = edges ? hwt_decode_file(data, &opts, &sink) : -1;
	if (!m.err)
		m.err = hwt_edges_sorted(edges, &m.v, &m.n);
	if (!m.err)
		m.st = *hwt_edges_stats(edges);
	hwt_edges_free(edges);
	return m;
}

/* --edges on @cap (written to a perf.data) with 2, 3 and 8 threads
 * against one; returns the one-thread map's stats. */
static struct hwt_edges_stats same_with_jobs(const char *what,
					     const struct pt_capture *cap,
					     bool errors)
{
	char dir[] = "/tmp/hwt-edges-XXXXXX", data[64];
	struct hwt_edges_stats st = {0};
	if (!mkdtemp(dir))
		return st;
	snprintf(data, sizeof(data), "%s/perf.data", dir);
	CHECK_INT(pt_capture_write(data, cap), 0);
	struct edge_map one = edges_with_jobs(data, 1);
	CHECK_INT(one.err, 0);
	CHECK(one.n > 0);
	st = one.st;
	static const unsigned int jobs[] = {2, 3, 8};
	for (size_t i = 0; i < sizeof(jobs) / sizeof(jobs[0]); i++) {
		struct edge_map m = edges_with_jobs(data, jobs[i]);
		CHECK_INT(m.err, 0);
		bool same = m.n == one.n && (!m.n || !memcmp(m.v, one.v,
						m.n * sizeof(*m.v)));
		bool stats = !memcmp(&m.st, &one.st, sizeof(m.st));
		if (!same || !stats)
			fprintf(stderr, "%s, %u threads: edges %s, stats %s\n",
				what, jobs[i], same ? "same" : "DIFFER",
				stats ? "same" : "DIFFER");
		CHECK(same);
		CHECK(stats);
		free(m.v);
	}
	/* And the map is the full decode's branches, with 2 threads. */
	struct outcome o = compare_jobs(NULL, NULL, 0, data, 2);
	CHECK(o.same);
	/* The full decode of a perf.data without a cpuid feature adds an
	 * error element saying that no errata workarounds were applied
	 * when the trace had decode errors; the edges count the trace's. */
	if (!errors)
		CHECK(o.counts_same);
	free(one.v);
	unlink(data);
	rmdir(dir);
	return st;
}

static void jobs_give_same_edges(void)
{
	char bin[] = "/tmp/hwt-edges-code-XXXXXX";
	int fd = mkstemp(bin);
	static const int kinds[] = {PT_EDGES_INTERRUPTS,
				    PT_EDGES_INTERRUPTS | PT_EDGES_OVERFLOW,
				    PT_EDGES_ERROR};
	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		size_t size = 512 * 1024;
		uint8_t *trace = malloc(size + 4096);
		size_t n = trace ? pt_edges_make(trace, size + 4096, size,
						 kinds[k]) : 0;
		uint8_t code[sizeof(pt_edges_code)];
		pt_edges_code_for(kinds[k], code);
		CHECK(fd >= 0 && n > size / 2);
		if (fd < 0 || !n || pwrite(fd, code, sizeof(code), 0) !=
		    (ssize_t)sizeof(code)) {
			free(trace);
			break;
		}
		/* One thread in pieces of about 48 KiB, cut at PSBs: the
		 * packet path takes them. */
		struct pt_capture cap = {.code_path = bin,
					 .code_addr = PT_EDGES_ORG,
					 .code_size = sizeof(code),
					 .trace = trace, .trace_size = n,
					 .piece_size = 48 * 1024};
		char what[64];
		snprintf(what, sizeof(what), "trace %d, one thread", kinds[k]);
		bool errors = kinds[k] & PT_EDGES_ERROR;
		struct hwt_edges_stats st = same_with_jobs(what, &cap, errors);
		if (kinds[k] & PT_EDGES_OVERFLOW)
			CHECK_U64(st.overflows, 1);
		if (kinds[k] & PT_EDGES_ERROR)
			CHECK_U64(st.errors, 1);
		/* The pieces not cut by an overflow or error go through
		 * the packets alone. */
		CHECK(st.fallbacks <= 1);
		/* Two CPUs, half the trace each: per-CPU streams go
		 * through the element decoder, cut into segments. */
		size_t half = pt_psb_find(trace, n / 2, n);
		struct pt_capture_buffer bufs[2] = {
			{.cpu = 0, .data = trace, .size = half},
			{.cpu = 1, .data = trace + half, .size = n - half}};
		cap.piece_size = 0;
		cap.buffers = bufs;
		cap.nbuffers = 2;
		snprintf(what, sizeof(what), "trace %d, two CPUs", kinds[k]);
		st = same_with_jobs(what, &cap, errors);
		CHECK_U64(st.fallbacks, 2);
		free(trace);
	}
	if (fd >= 0) {
		close(fd);
		unlink(bin);
	}
}

/* @n bytes of @bytes, @times over, written to a file and compared as a
 * raw stream (its code @bin at @org) with @jobs threads. */
static struct outcome repeated(const uint8_t *bytes, size_t n, int times,
			       const char *bin, uint64_t org, unsigned int jobs)
{
	char pt[] = "/tmp/hwt-edges-slice-XXXXXX";
	struct outcome o = {0};
	int fd = mkstemp(pt);
	if (fd < 0)
		return o;
	bool ok = true;
	for (int i = 0; i < times && ok; i++)
		ok = write(fd, bytes, n) == (ssize_t)n;
	close(fd);
	if (ok)
		o = compare_jobs(pt, bin, org, NULL, jobs);
	unlink(pt);
	return o;
}

/* A stream that starts anywhere and one that repeats: a slice of a
 * trace from the middle of a packet (bytes 512 KiB to 1 MiB of a
 * generated trace: decoded from its first PSB) and the slice eight times
 * over (each copy's start joins the last one's cut packet, up to the
 * next PSB). The edges are the full decode's branches, with its counts,
 * on 1 and 2 threads, with no error. */
static void slices_and_repeats_match(void)
{
	static const int kinds[] = {PT_EDGES_INTERRUPTS,
				    PT_EDGES_INTERRUPTS | PT_EDGES_DIRECT,
				    PT_EDGES_INTERRUPTS | PT_EDGES_PIP};
	char bin[] = "/tmp/hwt-edges-code-XXXXXX";
	int fd = mkstemp(bin);
	CHECK(fd >= 0);
	for (size_t k = 0; fd >= 0 && k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		size_t size = 1u << 20;
		uint8_t *trace = malloc(size + 4096);
		size_t n = trace ? pt_edges_make(trace, size + 4096, size,
						 kinds[k]) : 0;
		uint8_t code[sizeof(pt_edges_code)];
		pt_edges_code_for(kinds[k], code);
		CHECK(n > size - 4096);
		if (n < size || pwrite(fd, code, sizeof(code), 0) !=
		    (ssize_t)sizeof(code)) {
			free(trace);
			break;
		}
		for (int times = 1; times <= 8; times += 7) {
			for (unsigned int jobs = 1; jobs <= 2; jobs++) {
				struct outcome o = repeated(trace + 524288, 524288,
							    times, bin,
							    PT_EDGES_ORG, jobs);
				if (!o.same || !o.counts_same)
					fprintf(stderr, "trace %d, slice x%d, "
						"-j%u: edges %s, errors %s\n",
						kinds[k], times, jobs,
						o.same ? "same" : "DIFFER",
						o.counts_same ? "same" : "DIFFER");
				CHECK(o.same);
				CHECK(o.counts_same);
				CHECK_U64(o.errors, 0);
				CHECK(o.total > 50000u * (unsigned)times);
			}
		}
		free(trace);
	}
	if (fd >= 0) {
		close(fd);
		unlink(bin);
	}
}

/* Recursion as deep as the return stack: the code, at PT_EDGES_ORG,
 *   400000: e8 0b 00 00 00  call 400010
 *   400005: eb f9           jmp 400000
 *   400010: a8 01           test al, 1
 *   400012: 74 05           jz 400019            TNT
 *   400014: e8 f7 ff ff ff  call 400010
 *   400019: c3              ret                  TNT (compressed)
 * and a trace of one PSB+ and TNT packets: each round recurses d times
 * (d from 0 to 63, pseudo-random), so the stack holds up to 64 return
 * addresses, then returns d + 1 times. A TNT packet's bits push up to 6
 * return addresses or pop them, and the same packet at 400019 returns to
 * 400019 or to 400005 by what the stack holds: cached runs are replayed
 * with many pushes, with a stack almost or quite full, and refused where
 * the addresses they pop are not the stack's. The last two thirds recurse
 * 7 times, then 3 times a round: the packet 0xbe met at 400014 returns to
 * 400019 twice in the first (d = 7 puts a packet's start at the last
 * call) and then to 400005 in the second, so its run is replayed, refused,
 * recorded again in its slot and replayed again, and the replays before
 * must count as the first run's. Returns the taken branches the rounds
 * make (2d + 4 each), 0 on failure. */
static const uint8_t deep_code[0x1a] = {
	0xe8, 0x0b, 0x00, 0x00, 0x00, 0xeb, 0xf9,
	[0x10] = 0xa8, 0x01, 0x74, 0x05, 0xe8, 0xf7, 0xff, 0xff, 0xff, 0xc3,
};

/* The same with a loop in the deepest call (@full_stack below):
 *   400012: 74 06           jz 40001a
 *   40001a: 75 fe           jnz 40001a           TNT
 *   40001c: c3              ret                  TNT (compressed) */
static const uint8_t deep_loop_code[0x1d] = {
	0xe8, 0x0b, 0x00, 0x00, 0x00, 0xeb, 0xf9,
	[0x10] = 0xa8, 0x01, 0x74, 0x06, 0xe8, 0xf7, 0xff, 0xff, 0xff, 0xc3,
	0x75, 0xfe, 0xc3,
};

/* With @full_stack (deep_loop_code), every round recurses 63 times and
 * loops 12 times in the deepest call, the stack full (64 addresses): a
 * run that pushes nothing is replayed there, and must not write past the
 * top, which is the oldest address, popped at the round's end. */
static uint64_t deep_calls_make(uint8_t *buf, size_t cap, size_t *n,
				bool full_stack)
{
	struct pt_config c;
	pt_config_init(&c);
	c.begin = buf;
	c.end = buf + cap;
	struct pt_edges_gen g = {.enc = pt_alloc_encoder(&c)};
	uint64_t taken = 0, off = 0;
	uint32_t lfsr = 0xace1u;
	if (!g.enc)
		return 0;
	pt_edges_psb(&g, PT_EDGES_ORG);
	while (!g.err && pt_enc_get_offset(g.enc, &off) >= 0 &&
	       off + 256 < cap) {
		lfsr = (lfsr >> 1) ^ (-(lfsr & 1u) & 0xb400u);
		unsigned int d = full_stack ? 63 : off < cap / 3 ? lfsr & 63
					    : off < cap * 2 / 3 ? 7 : 3;
		for (unsigned int i = 0; i < d; i++)
			pt_edges_tnt(&g, 0); /* jz not taken: call */
		pt_edges_tnt(&g, 1);         /* jz taken: to the ret */
		for (unsigned int i = 0; full_stack && i <= 12; i++)
			pt_edges_tnt(&g, i < 12); /* the loop */
		for (unsigned int i = 0; i <= d; i++)
			pt_edges_tnt(&g, 1); /* compressed returns */
		taken += 2 * d + 4 + (full_stack ? 12 : 0);
	}
	pt_edges_flush(&g);
	pt_enc_get_offset(g.enc, &off);
	pt_free_encoder(g.enc);
	*n = (size_t)off;
	return g.err ? 0 : taken;
}

static void deep_calls_match_one(bool full_stack)
{
	char pt[] = "/tmp/hwt-edges-deep-XXXXXX", bin[] = "/tmp/hwt-edges-code-XXXXXX";
	size_t cap = 64 * 1024, n = 0;
	uint8_t *trace = malloc(cap);
	uint64_t rounds_taken = trace ? deep_calls_make(trace, cap, &n,
							full_stack) : 0;
	const uint8_t *code = full_stack ? deep_loop_code : deep_code;
	size_t code_size = full_stack ? sizeof(deep_loop_code) : sizeof(deep_code);
	int fp = mkstemp(pt), fb = mkstemp(bin);
	CHECK(rounds_taken > 100000);
	CHECK(fp >= 0 && fb >= 0);
	if (rounds_taken && fp >= 0 && fb >= 0 &&
	    write(fp, trace, n) == (ssize_t)n &&
	    write(fb, code, code_size) == (ssize_t)code_size) {
		struct outcome o = compare(pt, bin, PT_EDGES_ORG, NULL);
		CHECK(o.same);
		CHECK(o.counts_same);
		CHECK(o.bitmap_same);
		CHECK_U64(o.fallbacks, 0);
		CHECK_U64(o.errors, 0);
		/* The rounds' branches but the last jump back, after the
		 * last packet (where the decode stops). */
		CHECK_U64(o.total, rounds_taken - 1);
	}
	if (fp >= 0) {
		close(fp);
		unlink(pt);
	}
	if (fb >= 0) {
		close(fb);
		unlink(bin);
	}
	free(trace);
}

static void deep_calls_match(void)
{
	deep_calls_match_one(false);
	deep_calls_match_one(true);
}

int main(void)
{
	RUN(ptt_streams_match);
	RUN(generated_traces_match);
	RUN(jobs_give_same_edges);
	RUN(slices_and_repeats_match);
	RUN(deep_calls_match);
	return hwt_test_summary();
}
