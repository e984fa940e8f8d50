/* Per-CPU Intel PT trace attributed by sideband: two processes run on
 * cpu 0 one after the other, each with different code mapped at the same
 * address. ITRACE_START and a pair of SWITCH_CPU_WIDE records (out, then
 * in) say who ran when;
 * the trace's TSC packets say when each part ran. hwt_decode_file must
 * read each part's code from its own process's mappings (the two codes
 * have different instruction lengths, so the ranges show which was read)
 * and give each element that process's pid/tid, and cpu 0.
 *
 * The trace is made with libipt's encoder; the expected ranges follow
 * from the code bytes below and the TNT bits written. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <intel-pt.h>

#include "harness.h"
#include "hwtrace/decode.h"
#include "hwtrace/error.h"
#include "hwtrace/perfdata.h"
#include "pt_percpu_capture.h"

#define ORG 0x400000ull
#define PID_A 100
#define PID_B 200
#define T_A 1000   /* TSC of A's part; perf time = TSC (mult 1, shift 0) */
#define T_SWITCH 3000
#define T_SWITCH_IN 3100
#define T_B 5000

/* A: 400000 inc rax (3); 400003 jne 400000 (2); 400005 ret */
static const uint8_t code_a[] = {0x48, 0xff, 0xc0, 0x75, 0xfb, 0xc3};
/* B: 400000 nop; 400001 nop; 400002 jne 400000 (2); 400004 ret */
static const uint8_t code_b[] = {0x90, 0x90, 0x75, 0xfc, 0xc3};

static char tmp[] = "/tmp/hwt-pt-sideband-XXXXXX";

static int enc(struct pt_encoder *e, struct pt_packet *p)
{
	int n = pt_enc_next(e, p);
	memset(p, 0, sizeof(*p));
	return n < 0;
}

/* PSB+ at @tsc with tracing off, enabled at ORG (TIP.PGE), a taken and a
 * not-taken conditional branch, a TSC, then an asynchronous disable at
 * @end. */
static int part(struct pt_encoder *e, uint64_t tsc, uint64_t end)
{
	struct pt_packet p;
	int err = 0;
	memset(&p, 0, sizeof(p));
	p.type = ppt_psb;
	err |= enc(e, &p);
	p.type = ppt_tsc;
	p.payload.tsc.tsc = tsc;
	err |= enc(e, &p);
	p.type = ppt_mode;
	p.payload.mode.leaf = pt_mol_exec;
	p.payload.mode.bits.exec.csl = 1;
	err |= enc(e, &p);
	p.type = ppt_psbend;
	err |= enc(e, &p);
	p.type = ppt_tip_pge;
	p.payload.ip.ipc = pt_ipc_sext_48;
	p.payload.ip.ip = ORG;
	err |= enc(e, &p);
	p.type = ppt_tnt_8;
	p.payload.tnt.bit_size = 2;
	p.payload.tnt.payload = 2; /* taken, then not taken */
	err |= enc(e, &p);
	/* A second time stamp, before the disable: the part ran within
	 * [tsc, tsc + 1000], so the switch between the parts is not in a
	 * span of trace that no time stamp bounds. */
	p.type = ppt_tsc;
	p.payload.tsc.tsc = tsc + 1000;
	err |= enc(e, &p);
	p.type = ppt_fup;
	p.payload.ip.ipc = pt_ipc_sext_48;
	p.payload.ip.ip = end;
	err |= enc(e, &p);
	p.type = ppt_tip_pgd;
	p.payload.ip.ipc = pt_ipc_suppressed;
	err |= enc(e, &p);
	return err;
}

static int write_capture(const char *path, const char *file_a,
			 const char *file_b, const uint8_t *trace, size_t size,
			 bool with_switch)
{
	struct hwt_pd_writer *w;
	int err = pt_percpu_open(path, true, &w);
	if (err)
		return err;
	for (uint32_t pid = PID_A; pid <= PID_B && !err; pid += PID_B - PID_A) {
		uint32_t comm[4] = {pid, pid, 0, 0};
		memcpy(comm + 2, pid == PID_A ? "a" : "b", 2);
		err = pt_percpu_record(w, PERF_RECORD_COMM, 0, comm, sizeof(comm),
				       pid, pid, 1);
	}
	if (!err)
		err = pt_percpu_mmap2(w, PID_A, ORG, sizeof(code_a), file_a);
	if (!err)
		err = pt_percpu_mmap2(w, PID_B, ORG, sizeof(code_b), file_b);
	/* ITRACE_START: A is traced on cpu 0 from time 10. */
	uint32_t pa[2] = {PID_A, PID_A}, pb[2] = {PID_B, PID_B};
	if (!err)
		err = pt_percpu_record(w, PERF_RECORD_ITRACE_START, 0, pa, 8,
				       PID_A, PID_A, 10);
	/* A switches out for B at T_SWITCH; B, switched in, says so at
	 * T_SWITCH_IN. */
	if (!err && with_switch)
		err = pt_percpu_record(w, PERF_RECORD_SWITCH_CPU_WIDE,
				       PERF_RECORD_MISC_SWITCH_OUT, pb, 8, PID_A,
				       PID_A, T_SWITCH);
	if (!err && with_switch)
		err = pt_percpu_record(w, PERF_RECORD_SWITCH_CPU_WIDE, 0, pa, 8,
				       PID_B, PID_B, T_SWITCH_IN);
	/* Traced CPU-wide (perf record -a): the buffer names no task. */
	struct hwt_pd_auxtrace aux = {.size = size, .idx = 0, .tid = UINT32_MAX,
				      .cpu = 0};
	if (!err)
		err = hwt_pd_writer_auxtrace(w, &aux, trace);
	int cerr = hwt_pd_writer_close(w);
	return err ? err : cerr;
}

struct seen {
	char text[2048];
};

static int collect(void *arg, const struct hwt_elem *e)
{
	struct seen *s = arg;
	size_t len = strlen(s->text);
	if (e->type == HWT_ELEM_RANGE)
		snprintf(s->text + len, sizeof(s->text) - len,
			 "range %llx-%llx/%llu cpu%d pid%d tid%d t%llu\n",
			 (unsigned long long)e->u.range.start,
			 (unsigned long long)e->u.range.end,
			 (unsigned long long)e->u.range.insns,
			 e->fields & HWT_FIELD_CPU ? e->cpu : -9,
			 e->fields & HWT_FIELD_PID ? e->pid : -9,
			 e->fields & HWT_FIELD_TID ? e->tid : -9,
			 e->fields & HWT_FIELD_TIME ? (unsigned long long)e->time : 0);
	else if (e->type == HWT_ELEM_BRANCH)
		snprintf(s->text + len, sizeof(s->text) - len,
			 "branch %llx-%llx pid%d\n",
			 (unsigned long long)e->u.branch.from,
			 (unsigned long long)e->u.branch.to,
			 e->fields & HWT_FIELD_PID ? e->pid : -9);
	else if (e->type == HWT_ELEM_GAP)
		snprintf(s->text + len, sizeof(s->text) - len, "gap\n");
	else if (e->type == HWT_ELEM_ERROR)
		snprintf(s->text + len, sizeof(s->text) - len, "error %.40s\n",
			 e->u.error.message);
	return 0;
}

static void each_part_reads_its_process(void)
{
	char file_a[300], file_b[300], data[300];
	snprintf(file_a, sizeof(file_a), "%s/a.bin", tmp);
	snprintf(file_b, sizeof(file_b), "%s/b.bin", tmp);
	snprintf(data, sizeof(data), "%s/perf.data", tmp);
	FILE *f = fopen(file_a, "wb");
	CHECK(f && fwrite(code_a, 1, sizeof(code_a), f) == sizeof(code_a));
	if (f)
		fclose(f);
	f = fopen(file_b, "wb");
	CHECK(f && fwrite(code_b, 1, sizeof(code_b), f) == sizeof(code_b));
	if (f)
		fclose(f);

	static uint8_t trace[4096];
	struct pt_config c;
	pt_config_init(&c);
	c.begin = trace;
	c.end = trace + sizeof(trace);
	struct pt_encoder *e = pt_alloc_encoder(&c);
	CHECK(e != NULL);
	if (!e)
		return;
	CHECK_INT(part(e, T_A, ORG + 5), 0);
	CHECK_INT(part(e, T_B, ORG + 4), 0);
	uint64_t size = 0;
	pt_enc_get_offset(e, &size);
	pt_free_encoder(e);

	CHECK_INT(write_capture(data, file_a, file_b, trace, size, true), 0);

	struct seen s = {{0}};
	struct hwt_decode_opts opts = {.size = sizeof(opts)};
	struct hwt_elem_sink sink = {collect, &s};
	CHECK_INT(hwt_decode_file(data, &opts, &sink), 0);
	/* A: inc, jne taken back, inc, jne not taken; disabled at 400005.
	 * B: nop, nop, jne taken back, nop, nop, jne not taken; disabled at
	 * 400004. A part's second range has the part's second time: libipt
	 * reads the TSC after the TNT packet once it used the packet's last
	 * bit. Each part's second range may have run after the switch by its
	 * times alone; the trace leaves out the kernel, so each
	 * trace_on..trace_off stretch is one task's, the one its first
	 * range's times place. */
	CHECK_STR(s.text,
		  "range 400000-400005/2 cpu0 pid100 tid100 t1000\n"
		  "branch 400003-400000 pid100\n"
		  "range 400000-400005/2 cpu0 pid100 tid100 t2000\n"
		  "range 400000-400004/3 cpu0 pid200 tid200 t5000\n"
		  "branch 400002-400000 pid200\n"
		  "range 400000-400004/3 cpu0 pid200 tid200 t6000\n");

	/* --tid keeps one process's part. */
	memset(&s, 0, sizeof(s));
	opts.filter_tid = true;
	opts.tid = PID_B;
	CHECK_INT(hwt_decode_file(data, &opts, &sink), 0);
	CHECK_STR(s.text,
		  "range 400000-400004/3 cpu0 pid200 tid200 t5000\n"
		  "branch 400002-400000 pid200\n"
		  "range 400000-400004/3 cpu0 pid200 tid200 t6000\n");

	/* --time keeps what ran in [START, END]. */
	memset(&s, 0, sizeof(s));
	opts.filter_tid = false;
	opts.filter_time = true;
	opts.time_start = 0;
	opts.time_end = T_SWITCH;
	CHECK_INT(hwt_decode_file(data, &opts, &sink), 0);
	CHECK_STR(s.text,
		  "range 400000-400005/2 cpu0 pid100 tid100 t1000\n"
		  "branch 400003-400000 pid100\n"
		  "range 400000-400005/2 cpu0 pid100 tid100 t2000\n");

	/* Without the switch record everything is A's: B's part is read
	 * from A's code, which B's trace does not fit (libipt finds the
	 * mismatch at B's disable), and the stream says why up front. */
	CHECK_INT(write_capture(data, file_a, file_b, trace, size, false), 0);
	memset(&s, 0, sizeof(s));
	opts.filter_time = false;
	CHECK_INT(hwt_decode_file(data, &opts, &sink), 0);
	CHECK_STR(s.text,
		  "error per-CPU trace without context-switch rec\n"
		  "range 400000-400005/2 cpu0 pid100 tid100 t1000\n"
		  "branch 400003-400000 pid100\n"
		  "range 400000-400005/2 cpu0 pid100 tid100 t2000\n"
		  "range 400000-400005/2 cpu0 pid100 tid100 t5000\n"
		  "branch 400003-400000 pid100\n"
		  "range 400000-400005/2 cpu0 pid100 tid100 t6000\n"
		  "range 400005-400006/1 cpu0 pid100 tid100 t6000\n"
		  "error trace stream does not match query\n"
		  "gap\n");
}

int main(void)
{
	CHECK(mkdtemp(tmp) != NULL);
	RUN(each_part_reads_its_process);
	char cmd[300];
	snprintf(cmd, sizeof(cmd), getenv("HWT_KEEP") ? "true %s" : "rm -rf '%s'", tmp);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", tmp);
	return hwt_test_summary();
}
