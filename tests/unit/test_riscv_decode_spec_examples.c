/* riscv_ntrace against the examples of the N-Trace 1.0 specification
 * (../shared/specs/RISC-V-N-Trace.adoc), each value as the specification
 * gives it:
 *  - "MDO and MSEO Encoding Example": the bytes of an IndirectBranchHist
 *    and its fields (B-TYPE 0, I-CNT 0x7D, U-ADDR 0x7, HIST 0xFFE);
 *  - "Virtual Addresses Optimization": the four F-ADDR encodings and the
 *    addresses they stand for, with and without trTeInstExtendAddrMSB;
 *  - "Address XOR Calculation Examples": F-ADDR 0x1FE02, U-ADDR 0x7B6 and
 *    0x934 are 0x3FC04, 0x3F368, 0x3E100;
 *  - Ownership's PROCESS examples (0x3B2: scontext 0x1D, VU-mode; 0xC:
 *    M-mode);
 *  - "Example of I-CNT Handling" in BTM and HTM (three runs of its code,
 *    assembled here with binutils: the instruction addresses below are
 *    objdump's), "Examples of I-CNT Field Full Generation" (ResourceFull
 *    RCODE 0, and SYNC=4), the exception cases (I-CNT 1 and 5 with
 *    B-TYPE 1, 3) and the incorrect I-CNT 4;
 *  - broken framing (the reserved MSEO 10, a field of 64+ significant
 *    bits, 300 zero bytes) gives decode_error gaps, not a crash. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/riscv-trace/rvt_msg.h"
#include "harness.h"
#include "hwtrace/backend.h"
#include "hwtrace/image.h"

/* The specification's example code, at 0x100 (objdump of the assembled
 * "Example of I-CNT Handling in BTM mode" listing). */
static const uint8_t code1[] = {
	0x2e, 0x95,             /* 100: c.add a0,a1 */
	0x63, 0x0f, 0xc5, 0x0e, /* 102: beq a0,a2,200 */
	0x33, 0x05, 0xb5, 0x00, /* 106: add a0,a0,a1 */
	0x63, 0x1b, 0xd5, 0x1e, /* 10a: bne a0,a3,300 */
	0x2e, 0x95,             /* 10e: c.add */
	0x33, 0x05, 0xb5, 0x00, /* 110: add */
	0x02, 0x90,             /* 114: c.ebreak */
};
static const uint8_t code1_200[] = {0x2e, 0x95, 0x02, 0x90};
static const uint8_t code1_300[] = {0x33, 0x05, 0xb5, 0x00, 0x02, 0x90};
static const uint64_t addrs1[] = {0x100, 0x102, 0x106, 0x10a, 0x10e, 0x110,
				  0x114, 0x200, 0x202, 0x300, 0x304};
/* "Examples of I-CNT Field Full Generation". */
static const uint8_t code2[] = {
	0x2e, 0x95, 0x63, 0x0f, 0xc5, 0x0e, 0x33, 0x05, 0xb5, 0x00,
	0x33, 0x05, 0xb5, 0x00, 0x33, 0x05, 0xb5, 0x00, 0x33, 0x05,
	0xb5, 0x00, 0x33, 0x05, 0xb5, 0x00, 0x2e, 0x95, 0x02, 0x90,
};
static const uint64_t addrs2[] = {0x100, 0x102, 0x106, 0x10a, 0x10e, 0x112,
				  0x116, 0x11a, 0x11c};

/* A message writer: fields LSB first into 6-bit MDO groups, MSEO 01
 * where a variable-length field ends, 11 at the message's end. */
struct w {
	uint8_t out[1024];
	size_t n;
	uint8_t bit[512];
	size_t nbits;
	bool end_at[96];
};

static void put(struct w *w, uint64_t v, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		w->bit[w->nbits++] = (uint8_t)(v >> i & 1);
}

static void msg(struct w *w, unsigned tcode)
{
	w->nbits = 0;
	memset(w->end_at, 0, sizeof(w->end_at));
	put(w, tcode, 6);
}

static void fix(struct w *w, uint64_t v, unsigned n)
{
	put(w, v, n);
}

static void var(struct w *w, uint64_t v)
{
	unsigned n = 1;
	while (n < 64 && v >> n)
		n++;
	put(w, v, n);
	while (w->nbits % 6)
		w->bit[w->nbits++] = 0;
	w->end_at[w->nbits / 6 - 1] = true;
}

static void end(struct w *w)
{
	size_t groups = w->nbits / 6;
	for (size_t g = 0; g < groups; g++) {
		unsigned mdo = 0;
		for (unsigned i = 0; i < 6; i++)
			mdo |= (unsigned)w->bit[6 * g + i] << i;
		unsigned mseo = g + 1 == groups ? 3 : w->end_at[g] ? 1 : 0;
		w->out[w->n++] = (uint8_t)(mdo << 2 | mseo);
	}
}

static void sync_msg(struct w *w, unsigned sync, uint64_t icnt, uint64_t addr)
{
	msg(w, 9);
	fix(w, sync, 4);
	var(w, icnt);
	var(w, addr >> 1);
	end(w);
}

static void correlation(struct w *w, uint64_t icnt, bool htm, uint64_t hist)
{
	msg(w, 33);
	fix(w, 0, 4); /* EVCODE 0: entry into debug mode */
	fix(w, htm, 2);
	var(w, icnt);
	if (htm)
		var(w, hist);
	end(w);
}

/* A fresh stream: ProgTraceSync (SYNC 3, exit from debug mode) at
 * 0x100, where the example's code starts. */
static void start(struct w *w)
{
	*w = (struct w){0};
	sync_msg(w, 3, 0, 0x100);
}

static void direct_branch(struct w *w, uint64_t icnt)
{
	msg(w, 3);
	var(w, icnt);
	end(w);
}

static void indirect_branch(struct w *w, unsigned btype, uint64_t icnt,
			    uint64_t uaddr)
{
	msg(w, 4);
	fix(w, btype, 2);
	var(w, icnt);
	var(w, uaddr);
	end(w);
}

/* What a decode gave: the PCs of its ranges (through the address list),
 * its branches and other elements, as text. */
struct got {
	char pcs[512], rest[1024];
	const uint64_t *addrs;
	size_t naddrs;
};

static int collect(void *arg, const struct hwt_elem *e)
{
	struct got *g = arg;
	size_t l;
	switch (e->type) {
	case HWT_ELEM_RANGE:
		for (size_t i = 0; i < g->naddrs; i++) {
			if (g->addrs[i] < e->u.range.start || g->addrs[i] >= e->u.range.end)
				continue;
			l = strlen(g->pcs);
			snprintf(g->pcs + l, sizeof(g->pcs) - l, "%llx ",
				 (unsigned long long)g->addrs[i]);
		}
		return 0;
	case HWT_ELEM_BRANCH:
		l = strlen(g->rest);
		snprintf(g->rest + l, sizeof(g->rest) - l, "%s %llx->%llx; ",
			 hwt_branch_kind_name(e->u.branch.kind),
			 (unsigned long long)e->u.branch.from,
			 (unsigned long long)e->u.branch.to);
		return 0;
	case HWT_ELEM_CONTEXT:
		l = strlen(g->rest);
		if (e->fields & HWT_FIELD_PID)
			snprintf(g->rest + l, sizeof(g->rest) - l,
				 "context el %u pid %d; ", e->u.context.el, e->pid);
		else
			snprintf(g->rest + l, sizeof(g->rest) - l,
				 "context el %u; ", e->u.context.el);
		return 0;
	case HWT_ELEM_GAP:
		l = strlen(g->rest);
		snprintf(g->rest + l, sizeof(g->rest) - l, "gap %s; ",
			 hwt_gap_reason_name(e->u.gap.reason));
		return 0;
	default:
		l = strlen(g->rest);
		snprintf(g->rest + l, sizeof(g->rest) - l, "%s; ",
			 hwt_elem_type_name(e->type));
		return 0;
	}
}

static const struct hwt_backend *b;

static void decode(const struct w *w, struct hwt_image *image,
		   const char *options, const uint64_t *addrs, size_t naddrs,
		   struct got *g)
{
	memset(g, 0, sizeof(*g));
	g->addrs = addrs;
	g->naddrs = naddrs;
	struct hwt_elem_sink sink = {collect, g};
	struct hwt_decode_params p = {.size = sizeof(p), .image = image,
				      .sink = &sink, .raw_options = options};
	struct hwt_aux_chunk c = {.data = w->out, .size = w->n, .cpu = -1,
				  .tid = -1};
	void *priv = NULL;
	CHECK_INT(b->decoder->create(&p, &priv), 0);
	CHECK_INT(b->decoder->feed(priv, &c), 0);
	CHECK_INT(b->decoder->flush(priv), 0);
	b->decoder->destroy(priv);
}

static void framing_example(void)
{
	static const uint8_t bytes[] = {0xff, 0x70, 0xd0, 0x1d, 0x1d, 0xf8,
					0xff, 0xff};
	struct rvt_opts o = {.xlen = 64};
	struct rvt_msg m;
	size_t used;
	const char *why;

	CHECK_INT(rvt_msg_next(bytes, sizeof(bytes), 0, &o, &m, &used, &why),
		  RVT_FRAME_IDLE);
	CHECK_INT(used, 1);
	CHECK_INT(rvt_msg_next(bytes + 1, sizeof(bytes) - 1, 1, &o, &m, &used,
			       &why), RVT_FRAME_MSG);
	CHECK_INT(used, 6);
	CHECK_INT(m.tcode, 28);
	CHECK_U64(m.v[RVT_F_BTYPE], 0);
	CHECK_U64(m.v[RVT_F_ICNT], 0x7d);
	CHECK_INT(m.bits[RVT_F_ICNT], 10);
	CHECK_U64(m.v[RVT_F_UADDR], 0x7);
	CHECK_INT(m.bits[RVT_F_UADDR], 6);
	CHECK_U64(m.v[RVT_F_HIST], 0xffe);
	CHECK_INT(m.bits[RVT_F_HIST], 12);
	CHECK(!rvt_msg_has(&m, RVT_F_TSTAMP));
	CHECK_INT(rvt_msg_next(bytes + 7, 1, 7, &o, &m, &used, &why),
		  RVT_FRAME_IDLE);
}

/* ProgTraceSync (SYNC 0, I-CNT 0) whose F-ADDR is the example's bytes,
 * the last one ending the message. */
static uint64_t faddr_of(const uint8_t *field, size_t n, bool extaddr)
{
	uint8_t buf[16] = {0x24, 0x01};
	struct rvt_opts o = {.xlen = 64, .extaddr = extaddr};
	struct rvt_msg m;
	size_t used;
	const char *why;

	memcpy(buf + 2, field, n);
	buf[n + 1] |= 3;
	if (rvt_msg_next(buf, n + 2, 0, &o, &m, &used, &why) != RVT_FRAME_MSG)
		return 1;
	return rvt_addr_field(m.v[RVT_F_FADDR], m.bits[RVT_F_FADDR], &o);
}

/* The "address" field of each record the packet lister gives. */
struct addrs {
	uint64_t v[8];
	size_t n, packets;
};

static int record_addr(void *arg, const struct hwt_packet_rec *rec)
{
	struct addrs *a = arg;
	if (rec->type != HWT_PACKET_REC_PACKET)
		return 0;
	a->packets++;
	for (size_t i = 0; i < rec->nfields; i++)
		if (!strcmp(rec->fields[i].name, "address") && a->n < 8)
			a->v[a->n++] = rec->fields[i].value;
	return 0;
}

static void address_examples(void)
{
	static const uint8_t a[] = {0xfc, 0xfc, 0xfc, 0xfc, 0xfc, 0x7d};
	static const uint8_t b2[] = {0xfc, 0xfc, 0xfc, 0xfc, 0x7c, 0xf1};
	static const uint8_t c[] = {0xfc, 0xfc, 0xfc, 0xfc, 0xfc, 0xfc, 0x01};
	static const uint8_t d[] = {0xfc, 0xfc, 0xfc, 0xfc, 0xfc, 0xfc,
				    0xfc, 0xfc, 0xfc, 0xfc, 0x15};

	CHECK_U64(faddr_of(a, sizeof(a), true), 0xffffffffeull);
	CHECK_U64(faddr_of(b2, sizeof(b2), true), 0xfffffffe3ffffffeull);
	CHECK_U64(faddr_of(b2, sizeof(b2), false), 0x1e3ffffffeull);
	CHECK_U64(faddr_of(c, sizeof(c), true), 0x1ffffffffeull);
	CHECK_U64(faddr_of(d, sizeof(d), true), 0xbffffffffffffffeull);

	/* XOR: through --packets, which names each target. */
	struct w w = {0};
	sync_msg(&w, 0, 0, 0x3fc04);
	indirect_branch(&w, 0, 1, 0x7b6);
	indirect_branch(&w, 0, 1, 0x934);
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	struct hwt_decode_params p = {.size = sizeof(p)};
	struct hwt_aux_chunk ch = {.data = w.out, .size = w.n, .cpu = -1,
				   .tid = -1};
	struct hwt_packet_sink sink = {hwt_packet_print_text, f};
	CHECK_INT(b->decoder->packets(&p, &ch, &sink), 0);
	fclose(f);
	CHECK(strstr(text, "FADDR[18]=0x1fe02 -> 0x3fc04\n") != NULL);
	CHECK(strstr(text, "UADDR[12]=0x7b6 -> 0x3f368\n") != NULL);
	CHECK(strstr(text, "UADDR[12]=0x934 -> 0x3e100\n") != NULL);
	free(text);
	/* The same targets as the records' typed fields. */
	struct addrs got = {.n = 0};
	struct hwt_packet_sink fields = {record_addr, &got};
	CHECK_INT(b->decoder->packets(&p, &ch, &fields), 0);
	CHECK_INT(got.packets, 3);
	CHECK_INT(got.n, 3);
	CHECK_INT(got.v[0], 0x3fc04);
	CHECK_INT(got.v[1], 0x3f368);
	CHECK_INT(got.v[2], 0x3e100);
}

static void ownership_examples(struct hwt_image *image)
{
	struct w w;
	struct got g;

	start(&w);
	msg(&w, 2);
	var(&w, 0x3b2);
	end(&w);
	msg(&w, 2);
	var(&w, 0xc);
	end(&w);
	decode(&w, image, NULL, addrs1, 11, &g);
	CHECK_STR(g.rest, "trace_on; context el 0 pid 29; context el 3; ");
}

/* One run of the example: @w's messages after ProgTraceSync at 0x100. */
static void run(struct hwt_image *image, struct w *w, const char *pcs,
		const char *rest, const uint64_t *addrs, size_t n)
{
	struct got g;
	decode(w, image, "callstack=0", addrs, n, &g);
	CHECK_STR(g.pcs, pcs);
	CHECK_STR(g.rest, rest);
	if (strcmp(g.pcs, pcs) || strcmp(g.rest, rest))
		fprintf(stderr, "  got %s| %s\n", g.pcs, g.rest);
}

static void icnt_examples(struct hwt_image *image)
{
	struct w w;
	const char *run1 = "100 102 200 ", *run2 = "100 102 106 10a 300 ",
		   *run3 = "100 102 106 10a 10e 110 ";

	/* BTM: DirectBranch I-CNT 3, then ProgTraceCorrelation I-CNT 1. */
	start(&w);
	direct_branch(&w, 3);
	correlation(&w, 1, false, 0);
	run(image, &w, run1, "trace_on; cond 102->200; trace_off; ", addrs1, 11);
	start(&w);
	direct_branch(&w, 7);
	correlation(&w, 2, false, 0);
	run(image, &w, run2, "trace_on; cond 10a->300; trace_off; ", addrs1, 11);
	start(&w);
	correlation(&w, 10, false, 0);
	run(image, &w, run3, "trace_on; trace_off; ", addrs1, 11);
	/* The same first run with a DirectBranchSync (SYNC 2, F-ADDR the
	 * target): no new trace_on. */
	start(&w);
	msg(&w, 11);
	fix(&w, 2, 4);
	var(&w, 3);
	var(&w, 0x200 >> 1);
	end(&w);
	correlation(&w, 1, false, 0);
	run(image, &w, run1, "trace_on; cond 102->200; trace_off; ", addrs1, 11);

	/* HTM: one ProgTraceCorrelation with I-CNT and HIST each time. */
	start(&w);
	correlation(&w, 4, true, 0x3);
	run(image, &w, run1, "trace_on; cond 102->200; trace_off; ", addrs1, 11);
	start(&w);
	correlation(&w, 9, true, 0x5);
	run(image, &w, run2, "trace_on; cond 10a->300; trace_off; ", addrs1, 11);
	start(&w);
	correlation(&w, 10, true, 0x4);
	run(image, &w, run3, "trace_on; trace_off; ", addrs1, 11);

	/* Exceptions: I-CNT 1 (at 0x102), I-CNT 5 (before 0x10a), handler
	 * at 0x200; B-TYPE 1 (exception) and 3 (interrupt). */
	start(&w);
	indirect_branch(&w, 1, 1, (0x100 ^ 0x200) >> 1);
	correlation(&w, 1, false, 0);
	run(image, &w, "100 200 ", "trace_on; exception 102->200; trace_off; ",
	    addrs1, 11);
	start(&w);
	indirect_branch(&w, 3, 5, (0x100 ^ 0x200) >> 1);
	correlation(&w, 1, false, 0);
	run(image, &w, "100 102 106 200 ",
	    "trace_on; interrupt 10a->200; trace_off; ", addrs1, 11);

	/* I-CNT 4 would end inside the add at 0x106: an error. */
	start(&w);
	correlation(&w, 4, false, 0);
	run(image, &w, "100 102 ", "trace_on; gap decode_error; ", addrs1, 11);
}

static void icnt_full_examples(struct hwt_image *image)
{
	const char *all = "100 102 106 10a 10e 112 116 11a ";
	struct w w;

	/* ResourceFull RCODE 0 (RDATA 9), then I-CNT 5 and HIST 0x2. */
	start(&w);
	msg(&w, 27);
	fix(&w, 0, 4);
	var(&w, 9);
	end(&w);
	correlation(&w, 5, true, 0x2);
	run(image, &w, all, "trace_on; trace_off; ", addrs2, 9);
	/* BTM with SYNC=4: ProgTraceSync I-CNT 9 at F-ADDR 0x112. */
	start(&w);
	sync_msg(&w, 4, 9, 0x112);
	correlation(&w, 5, false, 0);
	run(image, &w, all, "trace_on; trace_off; ", addrs2, 9);
	/* An Error message: messages were lost. */
	start(&w);
	msg(&w, 8);
	fix(&w, 0, 4);
	var(&w, 4);
	end(&w);
	sync_msg(&w, 7, 0, 0x10e);
	correlation(&w, 4, false, 0);
	run(image, &w, "10e 112 ", "trace_on; gap overflow; trace_on; trace_off; ",
	    addrs2, 9);
}

static void broken_framing(struct hwt_image *image)
{
	struct w w;
	struct got g;

	/* MSEO 10 inside a message. */
	start(&w);
	w.out[w.n++] = 0x0c;
	w.out[w.n++] = 0x06;
	w.out[w.n++] = 0x07;
	decode(&w, image, NULL, addrs1, 11, &g);
	CHECK_STR(g.rest, "trace_on; gap decode_error; ");
	/* 66 significant bits in I-CNT. */
	w = (struct w){0};
	w.out[w.n++] = 0x0c; /* DirectBranch */
	for (int i = 0; i < 10; i++)
		w.out[w.n++] = 0xfc;
	w.out[w.n++] = 0xff;
	decode(&w, image, NULL, addrs1, 11, &g);
	CHECK_STR(g.rest, "gap decode_error; ");
	/* Zeros: one "message" longer than any. */
	w = (struct w){0};
	memset(w.out, 0, 300);
	w.n = 300;
	decode(&w, image, NULL, addrs1, 11, &g);
	CHECK_STR(g.rest, "gap decode_error; ");
}

int main(void)
{
	struct hwt_image *image = hwt_image_new();
	b = hwt_backend_find("riscv_ntrace");
	CHECK(image && b && b->decoder);
	if (!image || !b || !b->decoder)
		return 1;
	CHECK_INT(hwt_image_add_buffer(image, HWT_PID_ANY, 0x100, code1,
				       sizeof(code1), "code1"), 0);
	CHECK_INT(hwt_image_add_buffer(image, HWT_PID_ANY, 0x200, code1_200,
				       sizeof(code1_200), "code1"), 0);
	CHECK_INT(hwt_image_add_buffer(image, HWT_PID_ANY, 0x300, code1_300,
				       sizeof(code1_300), "code1"), 0);
	struct hwt_image *image2 = hwt_image_new();
	CHECK_INT(hwt_image_add_buffer(image2, HWT_PID_ANY, 0x100, code2,
				       sizeof(code2), "code2"), 0);

	framing_example();
	address_examples();
	ownership_examples(image);
	icnt_examples(image);
	icnt_full_examples(image2);
	broken_framing(image);

	hwt_image_free(image);
	hwt_image_free(image2);
	printf("%d checks, %d failed\n", hwt_test_checks, hwt_test_failures);
	return hwt_test_failures != 0;
}
