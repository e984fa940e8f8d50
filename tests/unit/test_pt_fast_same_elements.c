/* The fast Intel PT path (backends/x86-pt/pt_fast.c) gives exactly the
 * elements of libipt's block decoder alone (HWTRACE_PT_FAST=0): every
 * field of every element, time and strings included, on every stream of
 * libipt's ptt suite that has its code beside it (with no CPU model and
 * with one whose errata libipt works around), and on generated traces
 * with every kind of near branch (conditional, direct and indirect jumps
 * and calls, compressed and uncompressed returns), PSB+ at the branch
 * target and past a direct jump, time packets (TSC, MTC, CYC, CBR)
 * between TNT packets, interrupts, an overflow, and PIPs (in each PSB+,
 * with an interrupt's TIP, and bound to a MOV CR3 or an iretq), which the
 * fast path decodes alone (its counters say so), and a decode error, which
 * it leaves to the block decoder: that must give the elements already
 * sent again. Raw and in a perf.data, on one thread and cut into segments
 * on three, with and without --disasm. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backends/x86-pt/pt_decode.h"
#include "elem_text.h"
#include "harness.h"
#include "pt_edges_files.h"
#include "hwtrace/decode.h"
#include "ptt_streams.h"
#include "test_pt_capture.h"

static int add(void *arg, const struct hwt_elem *e)
{
	return elem_text_add(arg, e);
}

/* One decode of @data (a perf.data) or of the raw @pt with its code @bin
 * at @org, by the fast path (@fast) or libipt's block decoder alone. */
/* The CPU model the raw decodes name: "" for none, or one whose errata
 * libipt works around (6/78, Skylake: SKD022, SKL014). */
static const char *cpu_model = "";

static int decode(const char *data, const char *pt, const char *raw_opts,
		  const char *bin, uint64_t org, unsigned int jobs, bool disasm,
		  bool fast, struct elem_text *t)
{
	pt_fast_default = fast;
	struct hwt_map_spec map = {bin, org};
	struct hwt_decode_opts opts = {
		.size = sizeof(opts), .maps = &map, .nmaps = data ? 0 : 1,
		.jobs = jobs, .disasm = disasm,
		.cpu_model = cpu_model[0] ? cpu_model : NULL,
	};
	struct hwt_elem_sink sink = {add, t};
	int err = data ? hwt_decode_file(data, &opts, &sink)
		       : hwt_decode_raw("intel_pt", raw_opts, pt, &opts, &sink);
	pt_fast_default = 1;
	return err;
}

/* The first line where @a and @b differ, for the report. */
static void first_difference(const char *what, const char *a, const char *b)
{
	const char *a0 = a;
	size_t line = 1;
	while (*a && *a == *b) {
		line += *a == '\n';
		a++;
		b++;
	}
	while (a > a0 && a[-1] != '\n') {
		a--;
		b--;
	}
	fprintf(stderr, "%s: line %zu differs\n  fast:  %.*s\n  libipt: %.*s\n",
		what, line, (int)strcspn(a, "\n"), a, (int)strcspn(b, "\n"), b);
}

struct counts {
	unsigned long long done, given_up;
};

static struct counts counters(void)
{
	struct counts c = {atomic_load(&pt_fast_done),
			   atomic_load(&pt_fast_given_up)};
	return c;
}

/* Both decodes; true when they give the same elements and result. @c
 * gets the fast path's chunks, decoded and given up. */
static bool same(const char *what, const char *data, const char *pt,
		 const char *raw_opts, const char *bin, uint64_t org,
		 unsigned int jobs, bool disasm, struct counts *c)
{
	struct elem_text fast = {0}, slow = {0};
	struct counts before = counters();
	int err_fast = decode(data, pt, raw_opts, bin, org, jobs, disasm, true,
			      &fast);
	struct counts after = counters();
	int err_slow = decode(data, pt, raw_opts, bin, org, jobs, disasm, false,
			      &slow);
	if (c) {
		c->done = after.done - before.done;
		c->given_up = after.given_up - before.given_up;
	}
	bool ok = err_fast == err_slow && fast.len == slow.len &&
		  (!fast.len || !memcmp(fast.s, slow.s, fast.len));
	if (!ok) {
		fprintf(stderr, "%s (jobs %u%s): results %d and %d, %zu and %zu "
			"bytes of elements\n", what, jobs,
			disasm ? ", --disasm" : "", err_fast, err_slow, fast.len,
			slow.len);
		if (fast.s && slow.s)
			first_difference(what, fast.s, slow.s);
	}
	free(fast.s);
	free(slow.s);
	return ok;
}

struct ptt_tally {
	int equal;
	unsigned long long done;
};

static void ptt_stream_same(const struct ptt_stream *st, void *arg)
{
	struct ptt_tally *t = arg;
	struct counts c;
	bool ok = same(st->name, NULL, st->pt, NULL, st->bin, st->org, 1, false,
		       &c);
	t->done += c.done;
	ok &= same(st->name, NULL, st->pt, NULL, st->bin, st->org, 1, true, NULL);
	t->equal += ok;
}

static void ptt_streams(void)
{
	struct ptt_tally t = {0};
	int streams = ptt_for_each(ptt_stream_same, &t);
	CHECK_INT(streams, 230);
	CHECK_INT(t.equal, streams);
	/* The streams whose chunk the fast path decodes to its end: those
	 * with nothing it leaves to the block decoder (errors, VMCS, TSX,
	 * PTWRITE and power events, 32-bit code, ...). Six of them have
	 * PIPs: pip-far_call, pip_mov_cr3-pip_mov_cr3, psb-pip-psb,
	 * psb-pip-tip_pge, ptet-vmexit-vmentry and tip_pgd-pip-tip_pge. */
	CHECK_INT(t.done, 109);
	fprintf(stderr, "ptt: %d streams, %llu decoded by the fast path alone\n",
		streams, t.done);
	/* Again on a CPU with errata whose workarounds move disables. */
	cpu_model = "6/78";
	t = (struct ptt_tally){0};
	CHECK_INT(ptt_for_each(ptt_stream_same, &t), 230);
	CHECK_INT(t.equal, 230);
	CHECK_INT(t.done, 112);
	fprintf(stderr, "ptt, cpu %s: %llu decoded by the fast path alone\n",
		cpu_model, t.done);
	cpu_model = "";
}

/* A generated trace of @what, @size bytes, raw and in a perf.data of one
 * thread (cut into pieces of 8 KiB), decoded both ways with 1 and 3
 * threads, with and without --disasm. @clean: one with nothing the fast
 * path gives up, whose every chunk it must decode. */
static void generated(int what, size_t size, bool clean)
{
	char dir[] = "/tmp/hwt-fast-XXXXXX", pt[64], bin[64], data[64];
	CHECK(mkdtemp(dir) != NULL);
	snprintf(pt, sizeof(pt), "%s/trace.pt", dir);
	snprintf(bin, sizeof(bin), "%s/code.bin", dir);
	snprintf(data, sizeof(data), "%s/perf.data", dir);
	size_t n;
	uint8_t *trace = pt_edges_files(what, size, pt, bin, &n);
	bool ok = trace && n > size / 2;
	struct pt_capture cap = {.code_path = bin, .code_addr = PT_EDGES_ORG,
				 .code_size = sizeof(pt_edges_code), .trace = trace,
				 .trace_size = n, .piece_size = 8 * 1024};
	ok &= pt_capture_write(data, &cap) == 0;
	CHECK(ok);
	const char *opts = what & PT_EDGES_TIMING ? PT_EDGES_TIMING_OPTS : NULL;
	char what_s[64];
	snprintf(what_s, sizeof(what_s), "generated %#x", (unsigned)what);
	static const unsigned int jobs[] = {1, 3};
	for (size_t j = 0; ok && j < sizeof(jobs) / sizeof(jobs[0]); j++) {
		for (int disasm = 0; disasm < 2; disasm++) {
			struct counts c;
			CHECK(same(what_s, NULL, pt, opts, bin, PT_EDGES_ORG,
				   jobs[j], disasm, &c));
			if (clean) {
				CHECK(c.done > 0);
				CHECK_INT(c.given_up, 0);
			} else {
				CHECK(c.given_up > 0);
			}
			CHECK(same(what_s, data, NULL, NULL, NULL, 0, jobs[j],
				   disasm, &c));
			if (clean) {
				CHECK(c.done > 0);
				CHECK_INT(c.given_up, 0);
			}
		}
	}
	free(trace);
	unlink(pt);
	unlink(bin);
	unlink(data);
	rmdir(dir);
}

static void generated_traces(void)
{
	generated(0, 24 * 1024, true);
	generated(PT_EDGES_DIRECT, 24 * 1024, true);
	generated(PT_EDGES_TIMING, 24 * 1024, true);
	generated(PT_EDGES_TIMING | PT_EDGES_DIRECT, 24 * 1024, true);
	generated(PT_EDGES_TIMING | PT_EDGES_INTERRUPTS, 24 * 1024, true);
	generated(PT_EDGES_TIMING | PT_EDGES_OVERFLOW, 24 * 1024, true);
	generated(PT_EDGES_TIMING | PT_EDGES_ERROR, 24 * 1024, false);
	/* A PIP in each PSB+, as when the kernel is traced: libipt 2.0.5
	 * makes it a status update at the FUP's IP. */
	generated(PT_EDGES_TIMING | PT_EDGES_PIP, 24 * 1024, true);
	generated(PT_EDGES_TIMING | PT_EDGES_INTERRUPTS | PT_EDGES_PIP,
		  24 * 1024, true);
}

int main(void)
{
	unsetenv("HWTRACE_PT_FAST");
	RUN(ptt_streams);
	RUN(generated_traces);
	return hwt_test_summary();
}
