/* The emulator's restart of a cut ETMv4 stream (core/emulator/
 * emu_cs_reencode.c) on simpleperf's real ETMv4 capture: the packets of
 * trace ID 0x1e from a packet boundary to the end, after the restart
 * (A-sync, the stream's TraceInfo, Trace On, the address and context
 * there), framed again, decode through hwtrace's cs_etm decoder to
 * exactly the ranges and branches the capture's own decode gives from
 * that packet on, with trace on at the restart address first. The
 * address is where the capture's decode goes on at that packet (the
 * first range it gives for it). Windows: the first atoms after the
 * second trace on (0x108c in main), the middle of count_loop's loop, and
 * after the return to main (0x10a4). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "etm_lister.h"
#include "etm_decode.h"
#include "core/emulator/emu_cs.h"

/* TRCIDR2 0x20001088: 4-byte VMIDs and context IDs. */
static const struct hwt_etm_cfg cfg = { 4, 4 };

static uint8_t *aux;
static size_t aux_len;
static uint8_t stream[4096];
static uint32_t idx[4096];
static size_t stream_len;
static struct elems orig;

/* The restart at the packet of formatted index @at, @shift bytes off the
 * address the capture's decode goes on at. Returns how many of the
 * capture's ranges and branches from that packet on the restarted
 * stream's decode gives, in order, or -1 when it gives something else
 * (or no trace on at the address first). */
static long window(uint32_t at, int64_t shift, size_t *nbranches)
{
	size_t b = 0;
	while (b < stream_len && idx[b] != at)
		b++;
	struct hwt_etm_scan sc;
	CHECK_INT(hwt_etm_scan_to(stream, stream_len, b, &cfg, &sc), 0);
	CHECK_U64(sc.boundary, b);
	CHECK(sc.have_ctxt);
	struct hwt_etm_restart r = sc.r;
	size_t first = 0;
	while (first < orig.n && (orig.v[first].off < at ||
				  orig.v[first].type != HWT_ELEM_RANGE))
		first++;
	r.addr = orig.v[first].a + (uint64_t)shift;
	static uint8_t frames[8192];
	CHECK(hwt_etm_restart_len(stream_len - b) <= sizeof(frames));
	long w = hwt_etm_restart_frames(&r, &cfg, stream + b, stream_len - b,
					0x1e, frames);
	CHECK(w > 0 && w % 16 == 0);
	static struct elems got;
	CHECK_INT(decode(frames, (size_t)w, &got), 0);
	if (got.n < 1 || got.v[0].type != HWT_ELEM_TRACE_ON ||
	    got.v[0].a != r.addr)
		return -1;
	size_t k = 1;
	*nbranches = 0;
	for (size_t i = 0; i < orig.n; i++) {
		if (orig.v[i].off < at || orig.v[i].type == HWT_ELEM_TRACE_ON)
			continue;
		if (k >= got.n || got.v[k].type != orig.v[i].type ||
		    got.v[k].a != orig.v[i].a || got.v[k].b != orig.v[i].b)
			return -1;
		*nbranches += orig.v[i].type == HWT_ELEM_BRANCH;
		k++;
	}
	return k == got.n ? (long)k - 1 : -1;
}

int main(void)
{
	aux = etm_capture_aux(&aux_len);
	CHECK(aux != NULL);
	if (!aux)
		return hwt_test_summary();
	struct hwt_cs_deframed res;
	CHECK_INT(hwt_emu_cs_deframe(aux, aux_len, 0x1e, stream, idx,
				     sizeof(stream), &res), 0);
	stream_len = res.n;
	CHECK_INT(decode(aux, aux_len, &orig), 0);
	CHECK(orig.n > 0 && orig.n < MAXE);

	/* Idx 299: the first atoms after the trace on at 0x108c; 304: the
	 * fifth F6 atom packet, inside count_loop's loop; 320: the atom
	 * after the return's address (0x10a4). */
	static const uint32_t at[] = { 299, 304, 320 };
	for (size_t i = 0; i < 3; i++) {
		size_t nb = 0;
		long n = window(at[i], 0, &nb);
		printf("restart at Idx %u: %ld elements, %zu branches as the "
		       "capture's decode\n", at[i], n, nb);
		CHECK(n > 0);
		CHECK(nb > 0);
		/* The control: one instruction off, the decode is not the
		 * capture's. */
		CHECK_INT(window(at[i], 4, &nb), -1);
	}
	free(aux);
	return hwt_test_summary();
}
