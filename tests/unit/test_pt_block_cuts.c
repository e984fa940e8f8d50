/* libipt's blocks run on through direct calls and jumps; the decoder cuts
 * them there, so that every range is one run of contiguous instructions
 * and every taken branch is an element. The code below has a block with
 * one direct call, run three times (its shape is walked once, then
 * cached), and a block with four direct branches (more than a cache entry
 * keeps: walked each time), one of them a call to the next instruction,
 * which is no taken branch; and 5000 blocks, more than the table of
 * shapes first holds. The expected elements follow from the code
 * bytes and the TNT bits written, by hand; with --disasm every range is
 * one instruction.
 *
 * 400000 e8 0b 00 00 00  call 400010
 * 400005 75 f9           jne 400000
 * 400007 e9 14 00 00 00  jmp 400020
 * 40000c 90 x4
 * 400010 48 ff c0        inc rax
 * 400013 c3              ret
 * 400014 90 x12
 * 400020 eb 02           jmp 400024
 * 400022 90 90
 * 400024 e8 00 00 00 00  call 400029
 * 400029 e9 02 00 00 00  jmp 400030
 * 40002e 90 90
 * 400030 48 ff c8        dec rax
 * 400033 74 cb           jz 400000
 * 400035 c3              ret
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <intel-pt.h>

#include "harness.h"
#include "pt_enc_psb.h"
#include "hwtrace/decode.h"
#include "hwtrace/error.h"

#define ORG 0x400000ull

static const uint8_t code[] = {
	0xe8, 0x0b, 0x00, 0x00, 0x00, 0x75, 0xf9, 0xe9, 0x14, 0x00, 0x00, 0x00,
	0x90, 0x90, 0x90, 0x90, 0x48, 0xff, 0xc0, 0xc3, 0x90, 0x90, 0x90, 0x90,
	0x90, 0x90, 0x90, 0x90, 0x90, 0x90, 0x90, 0x90, 0xeb, 0x02, 0x90, 0x90,
	0xe8, 0x00, 0x00, 0x00, 0x00, 0xe9, 0x02, 0x00, 0x00, 0x00, 0x90, 0x90,
	0x48, 0xff, 0xc8, 0x74, 0xcb, 0xc3,
};

static char dir[] = "/tmp/hwt-pt-cuts-XXXXXX";
static char code_path[64], trace_path[64];

/* Writes @ncode bytes of @code to @cpath, and to @tpath a trace in which
 * tracing starts at ORG, the conditional branches (compressed returns
 * included) go as @taken[0..@nbits) says, and tracing stops at
 * @off_at. */
static int write_capture(const char *cpath, const uint8_t *code_bytes,
			 size_t ncode, const char *tpath, const uint8_t *taken,
			 size_t nbits, uint64_t off_at)
{
	static uint8_t buf[8192];
	struct pt_config c;
	pt_config_init(&c);
	c.begin = buf;
	c.end = buf + sizeof(buf);
	struct pt_encoder *e = pt_alloc_encoder(&c);
	if (!e)
		return 1;
	/* No time: a TSC of 0 is none. Tracing off until the TIP.PGE. */
	int err = pt_enc_psb_plus(e, 0, 0);
	err |= pt_enc_ip(e, ppt_tip_pge, ORG);
	struct pt_packet p;
	memset(&p, 0, sizeof(p));
	/* Six bits a packet, the first branch in the highest bit. */
	for (size_t i = 0; i < nbits && !err; i += 6) {
		p.type = ppt_tnt_8;
		for (size_t j = i; j < nbits && j < i + 6; j++) {
			p.payload.tnt.payload = p.payload.tnt.payload << 1 | taken[j];
			p.payload.tnt.bit_size++;
		}
		err |= pt_enc_put(e, &p);
	}
	err |= pt_enc_ip(e, ppt_fup, off_at);
	err |= pt_enc_ip(e, ppt_tip_pgd, 0);
	uint64_t size = 0;
	err |= pt_enc_get_offset(e, &size) < 0;
	pt_free_encoder(e);
	FILE *f = fopen(tpath, "wb");
	err |= !f || fwrite(buf, 1, size, f) != size;
	if (f)
		fclose(f);
	f = fopen(cpath, "wb");
	err |= !f || fwrite(code_bytes, 1, ncode, f) != ncode;
	if (f)
		fclose(f);
	return err;
}

/* The return (compressed) and jne taken twice; the third time the jne
 * falls through to the four-branch block, whose jz falls through;
 * tracing off at 400035. */
static int write_trace(void)
{
	static const uint8_t taken[] = {1, 1, 1, 1, 1, 0, 0};
	return write_capture(code_path, code, sizeof(code), trace_path, taken,
			     sizeof(taken), ORG + 0x35);
}

static char got[64][48];
static int ngot;

static int collect(void *arg, const struct hwt_elem *e)
{
	static const char *kinds[] = {"call", "return", "jump", "cond"};
	(void)arg;
	if (ngot == 64)
		return 0;
	char *s = got[ngot++];
	switch (e->type) {
	case HWT_ELEM_RANGE:
		snprintf(s, sizeof(got[0]), "range %llx %llx %llu",
			 (unsigned long long)e->u.range.start,
			 (unsigned long long)e->u.range.end,
			 (unsigned long long)e->u.range.insns);
		break;
	case HWT_ELEM_BRANCH:
		snprintf(s, sizeof(got[0]), "branch %llx %llx %s",
			 (unsigned long long)e->u.branch.from,
			 (unsigned long long)e->u.branch.to,
			 e->u.branch.kind < 4 ? kinds[e->u.branch.kind] : "other");
		break;
	case HWT_ELEM_TRACE_ON:
	case HWT_ELEM_TRACE_OFF:
		snprintf(s, sizeof(got[0]), "%s %llx",
			 e->type == HWT_ELEM_TRACE_ON ? "on" : "off",
			 (unsigned long long)e->u.trace.at);
		break;
	default:
		snprintf(s, sizeof(got[0]), "element type %d", (int)e->type);
		break;
	}
	return 0;
}

static void decode(bool disasm)
{
	struct hwt_map_spec map = {code_path, ORG};
	struct hwt_decode_opts opts = {
		.size = sizeof(opts), .maps = &map, .nmaps = 1, .disasm = disasm,
	};
	struct hwt_elem_sink sink = {collect, NULL};
	ngot = 0;
	int err = hwt_decode_raw("intel_pt", NULL, trace_path, &opts, &sink);
	if (err < 0)
		fprintf(stderr, "%s\n", hwt_errmsg());
	CHECK_INT(err, 0);
}

/* The elements are @want; its first @nwant only when @prefix. */
static void check_list(const char *const *want, int nwant, bool prefix)
{
	if (prefix)
		CHECK(ngot >= nwant);
	else
		CHECK_INT(ngot, nwant);
	for (int i = 0; i < nwant && i < ngot; i++)
		CHECK_STR(got[i], want[i]);
}

#define LOOP_TAKEN                                                            \
	"range 400000 400005 1", "branch 400000 400010 call",                   \
		"range 400010 400014 2", "branch 400013 400005 return",         \
		"range 400005 400007 1", "branch 400005 400000 cond"

static void test_blocks_cut_at_direct_branches(void)
{
	static const char *const want[] = {
		"on 400000",
		LOOP_TAKEN,
		LOOP_TAKEN,
		"range 400000 400005 1", "branch 400000 400010 call",
		"range 400010 400014 2", "branch 400013 400005 return",
		"range 400005 400007 1",
		/* the jne fell through: four direct branches in one block */
		"range 400007 40000c 1", "branch 400007 400020 jump",
		"range 400020 400022 1", "branch 400020 400024 jump",
		/* a call to the next instruction: a cut, no taken branch */
		"range 400024 400029 1",
		"range 400029 40002e 1", "branch 400029 400030 jump",
		"range 400030 400035 2",
		"off 400035",
	};
	decode(false);
	check_list(want, (int)(sizeof(want) / sizeof(want[0])), false);
}

static void test_disasm_ranges_are_instructions(void)
{
	static const char *const want[] = {
		"on 400000",
		"range 400000 400005 1", "branch 400000 400010 call",
		"range 400010 400013 1", "range 400013 400014 1",
		"branch 400013 400005 return",
	};
	decode(true);
	check_list(want, (int)(sizeof(want) / sizeof(want[0])), true);
	/* The four-branch block's last part: dec and jz, one each. */
	CHECK(ngot > 4);
	if (ngot > 4) {
		CHECK_STR(got[ngot - 3], "range 400030 400033 1");
		CHECK_STR(got[ngot - 2], "range 400033 400035 1");
		CHECK_STR(got[ngot - 1], "off 400035");
	}
}

/* More block shapes than the first table holds (4096 slots, grown at
 * half full): UNITS units of "jmp +0; jz +2", each a block of two
 * instructions cut at its jump, whose jz falls through, then a jz back
 * to the first, taken once: the second pass finds every shape kept. */
#define UNITS 5000

static int write_many(const char *cpath, const char *tpath)
{
	static uint8_t many[UNITS * 4 + 7];
	for (int i = 0; i < UNITS; i++) {
		uint8_t unit[4] = {0xeb, 0x00, 0x74, 0x02};
		memcpy(many + 4 * i, unit, 4);
	}
	int32_t back = -(UNITS * 4 + 6);
	many[UNITS * 4] = 0x0f;
	many[UNITS * 4 + 1] = 0x84;
	memcpy(many + UNITS * 4 + 2, &back, 4);
	many[UNITS * 4 + 6] = 0xc3;
	/* Each pass: UNITS not taken, then the jz back: taken, then not. */
	static uint8_t taken[2 * (UNITS + 1)];
	taken[UNITS] = 1;
	return write_capture(cpath, many, sizeof(many), tpath, taken,
			     sizeof(taken), ORG + UNITS * 4 + 6);
}

static uint64_t many_ranges, many_bad, many_other;

static int check_many(void *arg, const struct hwt_elem *e)
{
	(void)arg;
	if (e->type != HWT_ELEM_RANGE) {
		many_other++;
		return 0;
	}
	/* Range k of a pass: the jmp (even k) or the jz (odd k) of unit
	 * k / 2, then the jz back. */
	uint64_t k = many_ranges % (2 * UNITS + 1);
	uint64_t at = ORG + 4 * (k / 2) + 2 * (k % 2);
	uint64_t size = k == 2 * UNITS ? 6 : 2;
	if (e->u.range.start != at || e->u.range.end != at + size ||
	    e->u.range.insns != 1)
		many_bad++;
	many_ranges++;
	return 0;
}

static void test_many_shapes_kept(void)
{
	char cpath[80], tpath[80];
	snprintf(cpath, sizeof(cpath), "%s/many.bin", dir);
	snprintf(tpath, sizeof(tpath), "%s/many.pt", dir);
	CHECK_INT(write_many(cpath, tpath), 0);
	struct hwt_map_spec map = {cpath, ORG};
	struct hwt_decode_opts opts = {.size = sizeof(opts), .maps = &map, .nmaps = 1};
	struct hwt_elem_sink sink = {check_many, NULL};
	CHECK_INT(hwt_decode_raw("intel_pt", NULL, tpath, &opts, &sink), 0);
	CHECK_U64(many_ranges, 2 * (2 * UNITS + 1));
	CHECK_U64(many_bad, 0);
	CHECK_U64(many_other, 3); /* tracing on, the jz back, tracing off */
	unlink(cpath);
	unlink(tpath);
}

int main(void)
{
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	snprintf(code_path, sizeof(code_path), "%s/code.bin", dir);
	snprintf(trace_path, sizeof(trace_path), "%s/trace.pt", dir);
	if (write_trace()) {
		fprintf(stderr, "cannot write the trace\n");
		return 1;
	}
	RUN(test_blocks_cut_at_direct_branches);
	RUN(test_disasm_ranges_are_instructions);
	RUN(test_many_shapes_kept);
	unlink(code_path);
	unlink(trace_path);
	rmdir(dir);
	return hwt_test_summary();
}
