/* The emulator's cut of a replayed ETMv4 stream at a probe's branch
 * (core/emulator/emu_cs_cut.c), as its trace unit writes it for a
 * resume at count_loop's entry and a pause at its return in simpleperf's
 * capture, the event opened paused: the restart frames at the call's
 * atom, the sink's frames after those it replaced, up to the frame of
 * the return's atom, and the pause frames there. That trace decodes,
 * through hwtrace's cs_etm decoder, to trace on at count_loop (0x1054)
 * and then exactly the capture's own decode from after the call to the
 * return included: the loop's two branches as often as perf 6.1's
 * `perf script --itrace=b` of the capture (the stored listing) has them,
 * 100 each, and the return, whose target the decoder leaves 0 at the
 * end of the trace. Without the cut (the frames written
 * from the call's frame as they are) the decode is not that. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "etm_lister.h"
#include "etm_decode.h"
#include "core/emulator/emu_cs.h"

#define PERF_SCRIPT HWT_TESTDATA "/perf-data/simpleperf-etm/perf_etm.data.perf-script-itrace-b.txt"
#define RUN_AT 0x582b2b0000ull /* etm_test_loop's file offset 0 */

static const struct hwt_etm_cfg cfg = { 4, 4 };

/* Lines of the stored perf script listing with branch @from => @to. */
static long perf_count(uint64_t from, uint64_t to)
{
	FILE *f = fopen(PERF_SCRIPT, "r");
	char line[512], a[32], b[32];
	long n = 0;
	snprintf(a, sizeof(a), " %llx ", (unsigned long long)from);
	snprintf(b, sizeof(b), "=> %12llx ", (unsigned long long)to);
	while (f && fgets(line, sizeof(line), f)) {
		char *p = strstr(line, a);
		if (p && strstr(p, "=>") && strstr(line, b + 3) &&
		    strstr(strstr(p, "=>"), b + 3))
			n++;
	}
	if (f)
		fclose(f);
	return f ? n : -1;
}

/* The branch @from -> @to of the capture's decode: its packet and the
 * number of its atom there (the ranges of that packet before it, one an
 * atom). Its index in @e, or -1. */
static long find_branch(const struct elems *e, uint64_t from, uint64_t to,
			uint32_t *pkt, unsigned int *k)
{
	for (size_t i = 0; i < e->n; i++) {
		if (e->v[i].type != HWT_ELEM_BRANCH || e->v[i].a != from ||
		    e->v[i].b != to)
			continue;
		*pkt = (uint32_t)e->v[i].off;
		*k = 0;
		for (size_t j = 0; j < i; j++)
			*k += e->v[j].type == HWT_ELEM_RANGE && e->v[j].off == *pkt;
		*k -= 1;
		return (long)i;
	}
	return -1;
}

static long count(const struct elems *e, uint64_t from, uint64_t to)
{
	long n = 0;
	for (size_t i = 0; i < e->n; i++)
		n += e->v[i].type == HWT_ELEM_BRANCH && e->v[i].a == from &&
		     e->v[i].b == to;
	return n;
}

int main(void)
{
	size_t aux_len = 0;
	uint8_t *aux = etm_capture_aux(&aux_len);
	CHECK(aux != NULL);
	if (!aux)
		return hwt_test_summary();
	static struct elems orig, got;
	CHECK_INT(decode(aux, aux_len, &orig), 0);

	const uint64_t call_from = RUN_AT + 0x10a0, entry = RUN_AT + 0x1054;
	const uint64_t ret_from = RUN_AT + 0x1088, ret_to = RUN_AT + 0x10a4;
	uint32_t call_pkt = 0, ret_pkt = 0;
	unsigned int call_k = 0, ret_k = 0;
	long call_i = find_branch(&orig, call_from, entry, &call_pkt, &call_k);
	long ret_i = find_branch(&orig, ret_from, ret_to, &ret_pkt, &ret_k);
	/* trc_pkt_lister: the call is the first atom of the F6 packet at
	 * 299, the return the second of the F2 at 309 (its address, 0x10a4,
	 * the packet at 310). */
	CHECK(call_i >= 0 && ret_i > call_i);
	CHECK_INT(call_pkt, 299);
	CHECK_INT(call_k, 0);
	CHECK_INT(ret_pkt, 309);
	CHECK_INT(ret_k, 1);

	struct hwt_emu_cs_cut c;
	const char *why = NULL;
	CHECK_INT(hwt_emu_cs_cut_open(aux, aux_len, 0x1e, &cfg, &c, &why), 0);
	static uint8_t rec[4096];
	uint8_t part[HWT_EMU_CS_CUT_ROOM];
	uint64_t rframe = 0, replaced = 0, pframe = 0;
	long r = hwt_emu_cs_resume_frames(&c, call_pkt, call_k, entry, part,
					  &rframe, &replaced);
	CHECK(r > 0 && r <= HWT_EMU_CS_CUT_ROOM && r % 16 == 0);
	size_t n = 0;
	if (r > 0) {
		memcpy(rec, part, (size_t)r);
		n = (size_t)r;
	}
	long p = hwt_emu_cs_pause_frames(&c, ret_pkt, ret_k, part, &pframe);
	CHECK(p > 0 && p <= HWT_EMU_CS_CUT_ROOM && p % 16 == 0);
	/* The call's frame is the one at 288; the return's, 304. */
	CHECK_U64(rframe, 288);
	CHECK_U64(pframe, 304);
	CHECK(rframe + replaced <= pframe);
	if (r > 0 && p > 0 && rframe + replaced <= pframe) {
		memcpy(rec + n, aux + rframe + replaced, pframe - rframe - replaced);
		n += pframe - rframe - replaced;
		memcpy(rec + n, part, (size_t)p);
		n += (size_t)p;
	}
	CHECK_INT(decode(rec, n, &got), 0);

	/* Trace on at the entry, then the capture's elements after the call
	 * up to the return. */
	CHECK(got.n > 0 && got.v[0].type == HWT_ELEM_TRACE_ON);
	CHECK_U64(got.n ? got.v[0].a : 0, entry);
	long same = 0, differ = 0;
	size_t k = 1;
	for (long i = call_i + 1; i < ret_i; i++, k++) {
		if (k < got.n && got.v[k].type == orig.v[i].type &&
		    got.v[k].a == orig.v[i].a && got.v[k].b == orig.v[i].b)
			same++;
		else
			differ++;
	}
	CHECK_INT(differ, 0);
	/* The return, last: the trace ends after its target's address
	 * packet, and the decoder gives a branch at the end of the trace
	 * no target (as at the capture's own trace end, 0x10ec). */
	CHECK_INT((long)got.n, 1 + same + 1);
	CHECK(k < got.n && got.v[k].type == HWT_ELEM_BRANCH &&
	      got.v[k].a == ret_from && got.v[k].b == 0);
	long loop1 = perf_count(RUN_AT + 0x106c, RUN_AT + 0x1074);
	long loop2 = perf_count(RUN_AT + 0x1080, RUN_AT + 0x105c);
	CHECK_INT(loop1, 100);
	CHECK_INT(loop2, 100);
	CHECK_INT(count(&got, RUN_AT + 0x106c, RUN_AT + 0x1074), loop1);
	CHECK_INT(count(&got, RUN_AT + 0x1080, RUN_AT + 0x105c), loop2);
	CHECK_INT(count(&got, ret_from, ret_to), 0);
	CHECK_INT(count(&got, call_from, entry), 0);
	printf("resumed at the call (Idx %u atom %u), paused at the return "
	       "(Idx %u atom %u): %zu bytes of frames, %ld elements as the "
	       "capture's\n", call_pkt, call_k, ret_pkt, ret_k, n, same);

	/* The control: the sink's frames from the call's as they are,
	 * after the restart's head, do not decode to that. */
	memcpy(rec, aux + rframe, pframe + 16 - rframe);
	CHECK_INT(decode(rec, pframe + 16 - rframe, &got), 0);
	CHECK(count(&got, RUN_AT + 0x1080, RUN_AT + 0x105c) != loop2);

	/* A resume at the return: its atom ends its packet and the
	 * target's address packet ends the frame at 304, so the restart
	 * takes in the sink's frame at 320 too (which goes on with the
	 * previous frame's ID): the decode is trace on at 0x10a4 and the
	 * capture's elements after the return. */
	r = hwt_emu_cs_resume_frames(&c, ret_pkt, ret_k, ret_to, part, &rframe,
				     &replaced);
	CHECK(r > 0 && r <= HWT_EMU_CS_CUT_ROOM);
	CHECK_U64(rframe, 304);
	CHECK_U64(replaced, 32);
	n = 0;
	if (r > 0 && rframe + replaced <= aux_len) {
		memcpy(rec, part, (size_t)r);
		n = (size_t)r;
		memcpy(rec + n, aux + rframe + replaced, aux_len - rframe - replaced);
		n += aux_len - rframe - replaced;
	}
	CHECK_INT(decode(rec, n, &got), 0);
	CHECK(got.n > 0 && got.v[0].type == HWT_ELEM_TRACE_ON &&
	      got.v[0].a == ret_to);
	long after = 0;
	differ = 0;
	k = 1;
	for (size_t i = (size_t)ret_i + 1; i < orig.n; i++) {
		if (orig.v[i].type == HWT_ELEM_TRACE_ON)
			continue;
		if (k < got.n && got.v[k].type == orig.v[i].type &&
		    got.v[k].a == orig.v[i].a && got.v[k].b == orig.v[i].b)
			after++;
		else
			differ++;
		k++;
	}
	CHECK_INT(differ, 0);
	CHECK(after > 0);
	CHECK_INT((long)got.n, 1 + after);

	hwt_emu_cs_cut_close(&c);
	/* A stream of two trace IDs is refused, by name. */
	static uint8_t two[512];
	memcpy(two, aux, aux_len);
	two[256] = 0x41; /* an ID change to 0x20 at the frame at 256 */
	CHECK_INT(hwt_emu_cs_cut_open(two, aux_len, 0x1e, &cfg, &c, &why) ==
			  -EOPNOTSUPP, 1);
	CHECK_STR(why, "the buffer holds the trace of several trace IDs");
	hwt_emu_cs_cut_close(&c);
	/* A frame that changes to ID 0 leaving its data byte (the end of a
	 * TraceInfo) to 0x1e, then back to 0x1e with no byte in between:
	 * trc_pkt_lister gives the Trace On after it the index of that byte,
	 * 16, and so does the deformatter; the cut cannot name the two bytes
	 * apart. */
	static const uint8_t dup[32] = {
		0x3d, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		0x00, 0x00, 0x00, 0x00, 0x80, 0x01, 0x00, 0x80, /* A-sync, 01 01 */
		0x01, 0x00, 0x3d, 0x04, 0x04, 0x04, 0x04, 0x04, /* ID 0 (its byte */
		0x04, 0x04, 0x04, 0x04, 0x04, 0x04, 0x04, 0x01, /* 0x1e's), 0x1e */
	};
	uint32_t didx[32];
	uint8_t dout[32];
	struct hwt_cs_deframed dres;
	CHECK_INT(hwt_emu_cs_deframe(dup, 32, 0x1e, dout, didx, 32, &dres), 0);
	CHECK(dres.n > 15 && dout[14] == 0x00 && dout[15] == 0x04);
	CHECK(didx[14] == 16 && didx[15] == 16);
	static struct lister_pkt dl[32];
	CHECK_INT(etm_lister(dup, 32, dl, 32), 2 + 12);
	CHECK(!strcmp(dl[1].name, "I_TRACE_INFO") && dl[1].idx == 12);
	CHECK(!strcmp(dl[2].name, "I_TRACE_ON") && dl[2].idx == 16);
	CHECK_INT(hwt_emu_cs_cut_open(dup, 32, 0x1e, &cfg, &c, &why), -EOPNOTSUPP);
	CHECK_STR(why, "the stream's frames change trace ID where the decoder's "
		       "byte indexes repeat");
	hwt_emu_cs_cut_close(&c);
	free(aux);
	return hwt_test_summary();
}
