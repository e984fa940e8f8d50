/* hwt_decode_opts.progress: a raw Intel PT stream of 64 KiB (a loop of
 * 5-instruction iterations, PSB+ every 4 KiB, made with libipt's encoder)
 * decoded with a progress callback. The first report is done 0 of the
 * stream's size with one stream, before any element; reports never go
 * back; the decoder reports from inside the one chunk (the stream has far
 * more than 8192 blocks); the last report is done == total. The same
 * with --edges on 2 threads, reported segment by segment. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <intel-pt.h>

#include "harness.h"
#include "hwtrace/decode.h"
#include "hwtrace/edges.h"

#define ORG 0x400000ull
#define TRACE_BYTES (64 * 1024)

/* 400000: inc rax; 400003: test al, 1; 400005: jne 400000 */
static const uint8_t code[] = {0x48, 0xff, 0xc0, 0xa8, 0x01, 0x75, 0xf9};

struct record {
	int calls, inside, backwards, elems_before_first;
	uint64_t first_done, first_total, last_done, last_total, prev;
	uint32_t streams;
	uint64_t elems;
};

static void on_progress(void *arg, const struct hwt_decode_progress *p)
{
	struct record *r = arg;
	if (!r->calls++) {
		r->first_done = p->done;
		r->first_total = p->total;
		r->streams = p->streams;
		r->elems_before_first = (int)r->elems;
	} else if (p->done < r->prev) {
		r->backwards++;
	}
	r->inside += p->done > 0 && p->done < p->total;
	r->prev = p->done;
	r->last_done = p->done;
	r->last_total = p->total;
}

static int count(void *arg, const struct hwt_elem *e)
{
	(void)e;
	((struct record *)arg)->elems++;
	return 0;
}

static size_t make_trace(uint8_t *buf, size_t size)
{
	struct pt_config c;
	pt_config_init(&c);
	c.begin = buf;
	c.end = buf + size + 4096;
	struct pt_encoder *e = pt_alloc_encoder(&c);
	uint64_t off = 0, next_psb = 0;
	struct pt_packet p;
	while (e && pt_enc_get_offset(e, &off) >= 0 && off < size) {
		if (off >= next_psb) {
			memset(&p, 0, sizeof(p));
			p.type = ppt_psb;
			pt_enc_next(e, &p);
			p.type = ppt_fup;
			p.payload.ip.ipc = pt_ipc_sext_48;
			p.payload.ip.ip = ORG;
			pt_enc_next(e, &p);
			memset(&p, 0, sizeof(p));
			p.type = ppt_mode;
			p.payload.mode.leaf = pt_mol_exec;
			p.payload.mode.bits.exec.csl = 1;
			pt_enc_next(e, &p);
			memset(&p, 0, sizeof(p));
			p.type = ppt_psbend;
			pt_enc_next(e, &p);
			next_psb += 4096;
		}
		memset(&p, 0, sizeof(p));
		p.type = ppt_tnt_8;
		p.payload.tnt.bit_size = 6;
		p.payload.tnt.payload = 0x3f; /* six taken jne */
		pt_enc_next(e, &p);
	}
	pt_enc_get_offset(e, &off);
	pt_free_encoder(e);
	return (size_t)off;
}

static void reports_from_start_to_end(void)
{
	char dir[] = "/tmp/hwt-progress-XXXXXX", bin[64], pt[64];
	CHECK(mkdtemp(dir) != NULL);
	snprintf(bin, sizeof(bin), "%s/code.bin", dir);
	snprintf(pt, sizeof(pt), "%s/trace.pt", dir);
	static uint8_t trace[TRACE_BYTES + 8192];
	size_t size = make_trace(trace, TRACE_BYTES);
	FILE *f = fopen(bin, "wb");
	CHECK(f && fwrite(code, 1, sizeof(code), f) == sizeof(code));
	fclose(f);
	f = fopen(pt, "wb");
	CHECK(f && fwrite(trace, 1, size, f) == size);
	fclose(f);

	struct record r;
	memset(&r, 0, sizeof(r));
	struct hwt_map_spec map = {bin, ORG};
	struct hwt_decode_opts opts = {.size = sizeof(opts), .maps = &map,
				       .nmaps = 1, .progress = on_progress,
				       .progress_arg = &r};
	struct hwt_elem_sink sink = {count, &r};
	CHECK_INT(hwt_decode_raw("intel_pt", NULL, pt, &opts, &sink), 0);
	CHECK(r.elems > 20000);
	CHECK_INT(r.elems_before_first, 0);
	CHECK_U64(r.first_done, 0);
	CHECK_U64(r.first_total, size);
	CHECK_INT((int)r.streams, 1);
	CHECK_INT(r.backwards, 0);
	CHECK(r.inside > 0);
	CHECK_U64(r.last_done, size);
	CHECK_U64(r.last_total, size);

	/* --edges on 2 threads: the stream's segments are counted by the
	 * edges op, which reports nothing itself; the parallel decode
	 * reports each segment as it is done, in order. */
	memset(&r, 0, sizeof(r));
	struct hwt_edges *edges = hwt_edges_new();
	opts.edges = edges;
	opts.jobs = 2;
	struct hwt_elem_sink counted = hwt_edges_sink(edges);
	CHECK_INT(hwt_decode_raw("intel_pt", NULL, pt, &opts, &counted), 0);
	CHECK(hwt_edges_total(edges) > 20000);
	CHECK_U64(r.first_done, 0);
	CHECK_INT(r.backwards, 0);
	CHECK(r.inside >= 4);
	CHECK_U64(r.last_done, size);
	hwt_edges_free(edges);

	unlink(bin);
	unlink(pt);
	rmdir(dir);
}

int main(void)
{
	RUN(reports_from_start_to_end);
	return hwt_test_summary();
}
