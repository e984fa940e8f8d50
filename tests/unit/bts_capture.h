/* Test helper: a perf.data of generated Intel BTS or sw_branch records,
 * for tests and benchmarks of their decode. Two threads' per-thread
 * streams, each in pieces (AUXTRACE buffers that do not continue each
 * other, each written as two that do), of records of a loop at BTS_ORG
 * (`inc rax; jne BTS_ORG; ret`): its branch, and now and then an all-zero
 * record, tracing ended and begun again, a branch into code no file maps
 * (a gap), one from an address the walk cannot reach (a decode error), an
 * interrupt into the kernel and back, a sw_branch record without the
 * tracer's time, the kernel's padding where its buffer wrapped, and
 * pieces that end inside a record. What each stream holds is counted as
 * the decoder must show it. */
#ifndef HWT_TESTS_UNIT_BTS_CAPTURE_H
#define HWT_TESTS_UNIT_BTS_CAPTURE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hwtrace/backend.h"
#include "hwtrace/bts_format.h"
#include "hwtrace/perfdata.h"
#include "test_pt_capture.h"

#define BTS_ORG 0x400000ull
#define BTS_UNMAPPED 0x900000ull
#define BTS_KERNEL 0xffffffff81000000ull
#define BTS_NTHREADS 2
#define BTS_PMU 7

/* 400000 inc rax (3); 400003 jne 400000 (2); 400005 ret: the start of
 * the file the capture maps at BTS_ORG, a page long, as code is (an
 * instruction is cached only when its section holds the longest one
 * after it). */
static const uint8_t bts_capture_code[] = {0x48, 0xff, 0xc0, 0x75, 0xfb, 0xc3};
#define BTS_CODE_SIZE 4096u

/* Writes the code file; 0 or -1. */
static inline int bts_capture_write_code(const char *path)
{
	static uint8_t page[BTS_CODE_SIZE];
	memcpy(page, bts_capture_code, sizeof(bts_capture_code));
	FILE *f = fopen(path, "wb");
	if (!f)
		return -1;
	size_t n = fwrite(page, 1, sizeof(page), f);
	return fclose(f) == 0 && n == sizeof(page) ? 0 : -1;
}

struct bts_capture {
	const char *code_path; /* bts_capture_write_code's */
	bool swb;              /* sw_branch records, with the tracer's time */
	unsigned seed;
	unsigned npieces;      /* per thread */
	unsigned records;      /* a piece has records to 3 * records - 1 */
};

/* What a generated stream holds, for checking the uncut decode. */
struct bts_written {
	unsigned branches;  /* records with from and to */
	unsigned ranges;    /* branches after a walkable branch's target */
	unsigned unmapped;  /* ranges that start in unmapped code */
	unsigned bad;       /* ranges the walk cannot follow */
	unsigned cut_ends;  /* pieces that end inside a record */
};

struct bts_gen {
	uint8_t *buf;
	size_t len, cap;
	uint64_t off;     /* stream offset of buf[0] */
	uint64_t time;
	bool swb;
	unsigned seed;
	/* Where the last branch went: what the next range starts at. */
	bool have_last;
	uint64_t last_to;
	struct bts_written *w;
};

static inline unsigned bts_rnd(struct bts_gen *g)
{
	g->seed = g->seed * 1103515245u + 12345u;
	return (g->seed >> 16) & 0x7fff;
}

static inline void bts_put(struct bts_gen *g, const void *bytes, size_t n)
{
	if (g->len + n > g->cap) {
		g->cap = (g->len + n) * 2;
		g->buf = realloc(g->buf, g->cap);
	}
	memcpy(g->buf + g->len, bytes, n);
	g->len += n;
}

static inline void bts_rec(struct bts_gen *g, uint64_t from, uint64_t to, bool timed)
{
	uint8_t r[HWT_BTS_RECORD_SIZE];
	uint64_t flags = HWT_BTS_FLAG_PREDICTED;
	g->time += 1 + bts_rnd(g) % 50;
	if (g->swb)
		flags = timed ? g->time << HWT_BTS_SWB_TIME_SHIFT |
					HWT_BTS_FLAG_SWB_TIME
			      : 0;
	hwt_bts_record_write(r, &(struct hwt_bts_record){from, to, flags});
	bts_put(g, r, sizeof(r));
}

/* A branch record, counted as the decoder will show it: the code from
 * the last target to it is walked when that is the loop (the kernel and
 * BTS_UNMAPPED have no file), and cannot be to BTS_ORG + 1, inside `inc`. */
static inline void bts_branch(struct bts_gen *g, uint64_t from, uint64_t to, bool timed)
{
	if (g->have_last) {
		bool walkable = g->last_to == BTS_ORG;
		g->w->ranges += walkable && from != BTS_ORG + 1;
		g->w->unmapped += !walkable;
		g->w->bad += walkable && from == BTS_ORG + 1;
	}
	bts_rec(g, from, to, timed);
	g->w->branches++;
	g->have_last = true;
	g->last_to = to;
}

/* Where the kernel's padding would fit: 8 or 16 bytes before a page. */
static inline uint64_t bts_pad_room(const struct bts_gen *g)
{
	uint64_t at = g->off + g->len;
	uint64_t n = ((at | 4095) + 1) - at;
	return n == 8 || n == 16 ? n : 0;
}

/* The kernel's padding, now and then where it fits. */
static inline void bts_maybe_pad(struct bts_gen *g)
{
	uint64_t n = bts_pad_room(g);
	if (n && bts_rnd(g) % 2) {
		static const uint8_t zeros[16];
		bts_put(g, zeros, (size_t)n);
	}
}

/* Tracing begins at BTS_ORG. Where padding would fit, a record that
 * begins with zeros (its `from`) reads as padding: a branch goes first. */
static inline void bts_begin(struct bts_gen *g, bool timed)
{
	if (bts_pad_room(g))
		bts_branch(g, BTS_ORG + 3, BTS_ORG, true);
	bts_rec(g, 0, BTS_ORG, timed);
	g->have_last = true;
	g->last_to = BTS_ORG;
}

/* One piece of @n records. */
static inline void bts_piece(struct bts_gen *g, unsigned n)
{
	/* Tracing begins; in some pieces without the time, which then
	 * is the piece's own, not the one before's. */
	g->have_last = false;
	bts_begin(g, bts_rnd(g) % 4 != 0);
	for (unsigned i = 0; i < n; i++) {
		unsigned k = bts_rnd(g) % 64;
		/* Padding is followed by a record whose `from` is set. */
		if (k != 0)
			bts_maybe_pad(g);
		if (k == 0) {
			static const uint8_t zero[HWT_BTS_RECORD_SIZE];
			bts_put(g, zero, sizeof(zero));
		} else if (k == 1) {
			/* Tracing ends, after a range of the loop: every
			 * branch but to BTS_UNMAPPED and BTS_KERNEL, which
			 * the next record leaves, goes to BTS_ORG. */
			g->w->ranges += g->have_last;
			bts_rec(g, BTS_ORG + 5, 0, true);
			g->have_last = false;
			bts_begin(g, true);
		} else if (k == 2) {
			bts_branch(g, BTS_ORG + 3, BTS_UNMAPPED, true);
			bts_branch(g, BTS_UNMAPPED + 0x10, BTS_ORG, true);
		} else if (k == 3) {
			bts_branch(g, BTS_ORG + 1, BTS_ORG, true); /* mid-instruction */
		} else if (k == 4) {
			bts_branch(g, BTS_ORG + 3, BTS_KERNEL, true);
			bts_branch(g, BTS_KERNEL + 0x20, BTS_ORG, true);
		} else {
			bts_branch(g, BTS_ORG + 3, BTS_ORG, k != 5);
		}
	}
}

/* A capture of about @mib MiB a thread, in four pieces each, for
 * benchmarks and large tests: a record is 24 bytes. */
static inline struct bts_capture bts_capture_sized(const char *code_path,
						   bool swb, size_t mib)
{
	return (struct bts_capture){.code_path = code_path, .swb = swb,
				    .seed = 1, .npieces = 4,
				    .records = (unsigned)((mib << 20) / 24 / 4)};
}

/* Writes the capture @c describes; @w gets what each thread's stream
 * holds. */
/* Opens @path and writes what comes before the trace: the attrs of the
 * BTS (or sw_branch) event and its sideband, the AUXTRACE_INFO, and the
 * mapping of @code_path at BTS_ORG. */
static inline int bts_capture_begin_with(const char *path, bool swb,
					 const char *code_path,
					 const struct perf_event_attr *extra,
					 uint64_t extra_id, const char *extra_name,
					 struct hwt_pd_writer **out);

static inline int bts_capture_begin(const char *path, bool swb,
				    const char *code_path,
				    struct hwt_pd_writer **out)
{
	return bts_capture_begin_with(path, swb, code_path, NULL, 0, NULL, out);
}

/* The same with one more event, @extra (NULL: none), id @extra_id. */
static inline int bts_capture_begin_with(const char *path, bool swb,
					 const char *code_path,
					 const struct perf_event_attr *extra,
					 uint64_t extra_id, const char *extra_name,
					 struct hwt_pd_writer **out)
{
	struct hwt_pd_writer *pw;
	int err = hwt_pd_writer_open(path, &pw);
	if (err)
		return err;
	uint64_t pmu = swb ? HWT_BTS_SW_BRANCH_PMU_TYPE : BTS_PMU;
	const uint64_t sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
				     PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER;
	struct perf_event_attr bts = {
		.type = (uint32_t)pmu, .size = sizeof(bts),
		.sample_type = sample_type | PERF_SAMPLE_IP,
		.sample_id_all = 1, .exclude_kernel = 1, .disabled = 1,
	};
	struct perf_event_attr dummy = hwt_test_dummy_attr(sample_type);
	uint64_t id_bts = 1, id_dummy = 2;
	err = hwt_pd_writer_add_attr(pw, &bts, &id_bts, 1, "intel_bts//u");
	if (!err)
		err = hwt_pd_writer_add_attr(pw, &dummy, &id_dummy, 1, "dummy:u");
	if (!err && extra)
		err = hwt_pd_writer_add_attr(pw, extra, &extra_id, 1, extra_name);
	/* intel_bts's priv[]: pmu type, time shift, mult, zero,
	 * cap_user_time_zero, snapshot mode. */
	uint64_t priv[HWT_BTS_INFO_WORDS] = {pmu, 0, 1, 0, 0, 0};
	if (!err)
		err = hwt_pd_writer_auxtrace_info(pw, HWT_AUXTRACE_INTEL_BTS, priv,
						  HWT_BTS_INFO_WORDS);
	uint8_t rec[1024];
	pt_capture_mmap2(rec, code_path, BTS_ORG, BTS_CODE_SIZE, NULL, 0,
			 id_dummy);
	if (!err)
		err = hwt_pd_writer_record(pw, rec);
	if (err) {
		hwt_pd_writer_discard(pw);
		return err;
	}
	*out = pw;
	return 0;
}

static inline int bts_capture_write(const char *path,
				    const struct bts_capture *c,
				    struct bts_written w[BTS_NTHREADS])
{
	bool swb = c->swb;
	struct hwt_pd_writer *pw;
	int err = bts_capture_begin(path, swb, c->code_path, &pw);
	if (err)
		return err;
	for (uint32_t t = 0; t < BTS_NTHREADS && !err; t++) {
		struct bts_gen g = {.swb = swb, .seed = c->seed * 7 + t,
				   .time = 1000, .w = &w[t]};
		memset(&w[t], 0, sizeof(w[t]));
		for (unsigned p = 0; p < c->npieces && !err; p++) {
			g.len = 0;
			bts_piece(&g, c->records + bts_rnd(&g) % (2 * c->records));
			/* Some end inside a record, the last always: the
			 * start of one, 1 to 15 bytes, which the AUXTRACE
			 * record's padding to 8 bytes leaves short. */
			if (p + 1 == c->npieces || bts_rnd(&g) % 2) {
				uint8_t part[HWT_BTS_RECORD_SIZE];
				memcpy(part, g.buf + g.len - sizeof(part),
				       sizeof(part));
				w[t].cut_ends++;
				bts_put(&g, part, 1 + bts_rnd(&g) % 15);
			}
			/* In two buffers that continue each other (the
			 * first a multiple of 8 bytes, as perf pads them). */
			size_t half = g.len / 2 & ~(size_t)7;
			struct hwt_pd_auxtrace aux = {
				.size = half, .offset = g.off, .reference = p,
				.idx = t, .tid = PT_CAPTURE_PID + (int)t,
				.cpu = UINT32_MAX,
			};
			err = hwt_pd_writer_auxtrace(pw, &aux, g.buf);
			aux.offset += half;
			aux.size = g.len - half;
			if (!err)
				err = hwt_pd_writer_auxtrace(pw, &aux, g.buf + half);
			/* Trace lost before the next piece. */
			g.off += ((g.len + 7) & ~(size_t)7) + 4096 +
				 8 * (bts_rnd(&g) % 512);
		}
		free(g.buf);
	}
	int cerr = hwt_pd_writer_close(pw);
	return err ? err : cerr;
}


#endif
