/* Per-CPU Intel PT trace of two threads (101 and 102 of process 100) that
 * take turns on cpu 0, six slices with five switches, as perf record -a
 * writes it: ITRACE_START, then at each switch a SWITCH_CPU_WIDE out record
 * (written by the thread leaving, naming the next) and, 4000 ns later, an
 * in record (written by the thread coming in). In each slice its thread
 * runs its own loop (101 at 0x401000, 102 at 0x402000), so every element's
 * address says who really ran it. Each slice is TSC, TIP.PGE, taken jne,
 * TSC, taken jne, TSC, not-taken jne, FUP + TIP.PGD (a kernel entry).
 *
 * Checked for every element of every slice: a pid/tid it gets is the one
 * that ran (never a wrong one), and how many are left ambiguous:
 * - user-only trace, a TSC in every slice: every element, including those
 *   whose times alone span a switch, gets its thread (none ambiguous);
 * - the same with slice 3 carrying no TSC of its own: slice 3's elements
 *   are ambiguous (their times span three slices), the others still exact;
 * - the same trace said to include the kernel (so a trace_on..trace_off
 *   stretch may hold a switch): what the times alone place is exact, the
 *   elements whose time span holds a switch are ambiguous;
 * - both again with per-thread SWITCH records, which name only their own
 *   task: the same counts;
 * - kernel traced, recorded for the process (per-task) while 101 takes
 *   turns with a task of another process, which leaves no trace: every
 *   element is 101's, exactly, with CPU-wide switch records and with
 *   per-thread ones (which that task does not write);
 * and the decode's warning counts the ambiguous elements. */
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

#define PID 100
#define T1 101
#define T2 102
#define ADDR1 0x401000ull
#define ADDR2 0x402000ull
#define SLICES 6
#define SLICE_NS 10000

/* 101: inc rax; jne 401000; ret. 102: nop; nop; jne 402000; ret. */
static const uint8_t code1[] = {0x48, 0xff, 0xc0, 0x75, 0xfb, 0xc3};
static const uint8_t code2[] = {0x90, 0x90, 0x75, 0xfc, 0xc3};

static char tmp[] = "/tmp/hwt-pt-attr-XXXXXX";

/* Who runs the odd slices: 102, or a task of another process. */
static int32_t other_pid = PID, other_tid = T2;
/* Switch records as a per-task sideband event writes them (SWITCH: only
 * the task's own, no next or previous task named), not CPU-wide ones. */
static bool per_thread_switch;

static int32_t thread_of(int slice) { return slice % 2 ? other_tid : T1; }
/* Slice s: in record at base, TSCs at base + 100, 2000, 4000, out record
 * at base + 6000, next slice's in record at base + 10000. */
static uint64_t slice_base(int slice) { return 10000 + (uint64_t)slice * SLICE_NS; }

static int enc(struct pt_encoder *e, struct pt_packet *p)
{
	int n = pt_enc_next(e, p);
	memset(p, 0, sizeof(*p));
	return n < 0;
}

static int tsc(struct pt_encoder *e, uint64_t t)
{
	struct pt_packet p = {.type = ppt_tsc};
	p.payload.tsc.tsc = t;
	return enc(e, &p);
}

static int tnt1(struct pt_encoder *e, int taken)
{
	struct pt_packet p = {.type = ppt_tnt_8};
	p.payload.tnt.bit_size = 1;
	p.payload.tnt.payload = (uint64_t)taken;
	return enc(e, &p);
}

static int ip_packet(struct pt_encoder *e, enum pt_packet_type type,
		     uint64_t ip, enum pt_ip_compression ipc)
{
	struct pt_packet p = {.type = type};
	p.payload.ip.ipc = ipc;
	p.payload.ip.ip = ip;
	return enc(e, &p);
}

static int mode_exec(struct pt_encoder *e)
{
	struct pt_packet p = {.type = ppt_mode};
	p.payload.mode.leaf = pt_mol_exec;
	p.payload.mode.bits.exec.csl = 1;
	return enc(e, &p);
}

/* An encoder into @buf that has written a PSB+ with a TSC, or NULL. */
static struct pt_encoder *start_trace(uint8_t *buf, size_t size)
{
	struct pt_config c;
	pt_config_init(&c);
	c.begin = buf;
	c.end = buf + size;
	struct pt_encoder *e = pt_alloc_encoder(&c);
	if (!e)
		return NULL;
	struct pt_packet p = {.type = ppt_psb};
	int err = enc(e, &p);
	err |= tsc(e, slice_base(0) + 50);
	err |= mode_exec(e);
	p.type = ppt_psbend;
	err |= enc(e, &p);
	if (err) {
		pt_free_encoder(e);
		return NULL;
	}
	return e;
}

/* The size written by @e (0 after an error), which it frees. */
static size_t end_trace(struct pt_encoder *e, int err)
{
	uint64_t n = 0;
	pt_enc_get_offset(e, &n);
	pt_free_encoder(e);
	return err ? 0 : (size_t)n;
}

/* The trace of all slices (@odd: also of the odd ones); slice @untimed
 * (-1: none) has no TSC. */
static size_t make_trace(uint8_t *buf, size_t size, int untimed, bool odd)
{
	struct pt_encoder *e = start_trace(buf, size);
	if (!e)
		return 0;
	int err = 0;
	for (int s = 0; s < SLICES; s++) {
		if (s % 2 && !odd)
			continue;
		uint64_t base = slice_base(s);
		uint64_t addr = thread_of(s) == T1 ? ADDR1 : ADDR2;
		uint64_t end = addr + (thread_of(s) == T1 ? 5 : 4);
		bool timed = s != untimed;
		if (timed)
			err |= tsc(e, base + 100);
		err |= mode_exec(e);
		err |= ip_packet(e, ppt_tip_pge, addr, pt_ipc_sext_48);
		err |= tnt1(e, 1);
		if (timed)
			err |= tsc(e, base + 2000);
		err |= tnt1(e, 1);
		if (timed)
			err |= tsc(e, base + 4000);
		err |= tnt1(e, 0);
		err |= ip_packet(e, ppt_fup, end, pt_ipc_sext_48);
		err |= ip_packet(e, ppt_tip_pgd, 0, pt_ipc_suppressed);
	}
	return end_trace(e, err);
}

/* The sample_id pid of thread @tid. */
static uint32_t pid_of(int32_t tid) { return tid == other_tid ? (uint32_t)other_pid : PID; }

/* @per_task: recorded for process PID (the buffer names it), else
 * CPU-wide. */
static int write_capture(const char *path, const char *f1, const char *f2,
			 const uint8_t *trace, size_t size, bool user_only,
			 bool per_task)
{
	struct hwt_pd_writer *w;
	int err = pt_percpu_open(path, user_only, &w);
	if (err)
		return err;
	uint32_t comm[6] = {PID, T1, 0, 0, 0, 0};
	memcpy(comm + 2, "prog", 5);
	if (!err)
		err = pt_percpu_record(w, PERF_RECORD_COMM, 0, comm, sizeof(comm),
				       PID, T1, 1);
	/* FORK: pid, ppid, tid, ptid, time: 101 makes thread 102. */
	uint32_t fork[6] = {PID, PID, T2, T1, 0, 0};
	if (!err)
		err = pt_percpu_record(w, PERF_RECORD_FORK, 0, fork, sizeof(fork),
				       PID, T1, 2);
	if (!err)
		err = pt_percpu_mmap2(w, PID, ADDR1, sizeof(code1), f1);
	if (!err)
		err = pt_percpu_mmap2(w, PID, ADDR2, sizeof(code2), f2);
	uint32_t who[2] = {PID, T1};
	if (!err)
		err = pt_percpu_record(w, PERF_RECORD_ITRACE_START, 0, who, 8, PID,
				       T1, slice_base(0));
	for (int s = 0; s + 1 < SLICES && !err; s++) {
		int32_t from = thread_of(s), to = thread_of(s + 1);
		uint32_t next[2] = {pid_of(to), (uint32_t)to};
		uint32_t prev[2] = {pid_of(from), (uint32_t)from};
		uint32_t type = per_thread_switch ? PERF_RECORD_SWITCH
						  : PERF_RECORD_SWITCH_CPU_WIDE;
		size_t len = per_thread_switch ? 0 : 8;
		/* A per-task sideband event is only in the traced process. */
		if (!per_thread_switch || pid_of(from) == PID)
			err = pt_percpu_record(w, type, PERF_RECORD_MISC_SWITCH_OUT,
					       next, len, pid_of(from),
					       (uint32_t)from, slice_base(s) + 6000);
		if (!err && (!per_thread_switch || pid_of(to) == PID))
			err = pt_percpu_record(w, type, 0, prev, len, pid_of(to),
					       (uint32_t)to, slice_base(s + 1));
	}
	struct hwt_pd_auxtrace aux = {.size = size, .idx = 0,
				      .tid = per_task ? PID : UINT32_MAX, .cpu = 0};
	if (!err)
		err = hwt_pd_writer_auxtrace(w, &aux, trace);
	int cerr = hwt_pd_writer_close(w);
	return err ? err : cerr;
}

struct tally {
	int elems, exact, ambiguous, wrong, unattributed;
	int ambiguous_of_t2; /* ambiguous elements that 102 ran */
	char first_wrong[160];
	char warning[256];
};

/* Who really ran an address: the loop it lies in. */
static int32_t truth(uint64_t addr)
{
	if (addr >= ADDR1 && addr < ADDR1 + sizeof(code1))
		return T1;
	if (addr >= ADDR2 && addr < ADDR2 + sizeof(code2))
		return T2;
	return -1;
}

static int count(void *arg, const struct hwt_elem *e)
{
	struct tally *t = arg;
	uint64_t addr;
	switch (e->type) {
	case HWT_ELEM_RANGE:
		addr = e->u.range.start;
		break;
	case HWT_ELEM_BRANCH:
		addr = e->u.branch.from;
		break;
	case HWT_ELEM_TRACE_ON:
	case HWT_ELEM_TRACE_OFF:
		if (!(e->fields & HWT_FIELD_AT))
			return 0;
		addr = e->u.trace.at;
		break;
	default:
		return 0;
	}
	int32_t who = truth(addr);
	t->elems++;
	if (e->fields & HWT_FIELD_TASK_AMBIGUOUS) {
		t->ambiguous++;
		t->ambiguous_of_t2 += who == T2;
		if (e->fields & (HWT_FIELD_PID | HWT_FIELD_TID))
			t->wrong++;
	} else if (!(e->fields & HWT_FIELD_TID)) {
		t->unattributed++;
	} else if (e->tid == who && e->pid == PID && (e->fields & HWT_FIELD_PID)) {
		t->exact++;
	} else {
		if (!t->wrong++)
			snprintf(t->first_wrong, sizeof(t->first_wrong),
				 "type %d at %llx time %llu: tid %d, ran %d",
				 (int)e->type, (unsigned long long)addr,
				 (unsigned long long)e->time, e->tid, who);
	}
	return 0;
}

static void on_warn(void *arg, const char *msg)
{
	struct tally *t = arg;
	snprintf(t->warning, sizeof(t->warning), "%s", msg);
}

static void decode(const char *data, struct tally *t)
{
	memset(t, 0, sizeof(*t));
	struct hwt_decode_opts opts = {.size = sizeof(opts), .warn = on_warn,
				       .warn_arg = t};
	struct hwt_elem_sink sink = {count, t};
	CHECK_INT(hwt_decode_file(data, &opts, &sink), 0);
	CHECK_STR(t->first_wrong, "");
	CHECK_INT(t->wrong, 0);
	CHECK_INT(t->unattributed, 0);
}

static void write_file(const char *path, const uint8_t *b, size_t n)
{
	FILE *f = fopen(path, "wb");
	CHECK(f && fwrite(b, 1, n, f) == n);
	if (f)
		fclose(f);
}

/* Writes the capture of @n bytes of trace, decodes it into @t and checks
 * how many elements there are, placed and ambiguous (a macro: a failure
 * names the line of the case). */
#define EXPECT_COUNTS(t, user_only, per_task, n_elems, n_exact, n_ambiguous) \
	do {                                                                  \
		CHECK_INT(write_capture(data, f1, f2, trace, n, user_only,    \
					per_task), 0);                        \
		decode(data, &(t));                                           \
		CHECK_INT((t).elems, n_elems);                                \
		CHECK_INT((t).exact, n_exact);                                \
		CHECK_INT((t).ambiguous, n_ambiguous);                        \
	} while (0)

/* Writes the two loops' code files; @data is the capture's path. */
static void code_files(char f1[300], char f2[300], char data[300],
		       const char *name)
{
	snprintf(f1, 300, "%s/t1.bin", tmp);
	snprintf(f2, 300, "%s/t2.bin", tmp);
	snprintf(data, 300, "%s/%s", tmp, name);
	write_file(f1, code1, sizeof(code1));
	write_file(f2, code2, sizeof(code2));
}

static void every_switch_boundary(void)
{
	char f1[300], f2[300], data[300];
	code_files(f1, f2, data, "perf.data");
	static uint8_t trace[8192];
	struct tally t;

	/* Per slice: trace_on, range + branch, range + branch, range,
	 * trace_off: 7 elements, 42 in all. */
	size_t n = make_trace(trace, sizeof(trace), -1, true);
	CHECK(n > 0);
	EXPECT_COUNTS(t, true, false, 42, 42, 0);
	CHECK_STR(t.warning, "");

	/* Slice 3 without its own time stamps: its 7 elements could be
	 * either thread's, the rest are still exact. */
	n = make_trace(trace, sizeof(trace), 3, true);
	CHECK(n > 0);
	EXPECT_COUNTS(t, true, false, 42, 35, 7);
	CHECK_INT(t.ambiguous_of_t2, 7); /* slice 3 is 102's */
	CHECK_STR(t.warning, "7 elements ran across a context switch that the "
		  "trace's times do not place: their task is left out and they "
		  "are marked ambiguous (docs/decode.md, \"Which task ran\")");

	/* Kernel traced: only times count. An element ran between the time
	 * of the elements before it and of those after: the middle of each
	 * slice is placed, the edges next to a switch are not. */
	n = make_trace(trace, sizeof(trace), -1, true);
	/* Slice 0: its first two runs (10100: trace_on, range; 12000:
	 * branch, range) lie before the first switch-out (16000); its last
	 * run (14000: branch, range, trace_off) may have run up to the next
	 * time, 20100, past the switch. Slices 1 to 4: only the middle run
	 * (branch, range) lies between the slice's switch-in and switch-out.
	 * Slice 5: all but its first run (60100, which ran after slice 4's
	 * last time, 54000, so perhaps before the switch). 4 + 4 * 2 + 5 =
	 * 17 placed, 25 ambiguous. */
	EXPECT_COUNTS(t, false, false, 42, 17, 25);

	/* Recorded for process 100 with per-thread switch records (each
	 * names only its own task: the next task of a switch-out is the one
	 * of the next switch-in): the same, user-only and kernel traced. */
	per_thread_switch = true;
	EXPECT_COUNTS(t, true, true, 42, 42, 0);
	EXPECT_COUNTS(t, false, true, 42, 17, 25);
	per_thread_switch = false;

	/* Recorded for process 100 (perf record -- prog), taking turns with
	 * task 999 of another process: 999 has no trace event, so the odd
	 * slices leave no trace, and every span's candidates (101 or 999)
	 * come down to 101: all 21 elements of slices 0, 2, 4 are placed,
	 * kernel trace and all. */
	other_pid = 999;
	other_tid = 999;
	n = make_trace(trace, sizeof(trace), -1, false);
	EXPECT_COUNTS(t, false, true, 21, 21, 0);
	/* With per-thread switch records 999 writes none: a switch-out of
	 * 101 lasts until 101's next switch-in, which names the task coming
	 * in; all 21 are 101's again. */
	per_thread_switch = true;
	EXPECT_COUNTS(t, false, true, 21, 21, 0);
	per_thread_switch = false;
	/* The same capture CPU-wide: 999 might have run the spans that hold a
	 * switch, those of the last run of each slice (3 elements) and of the
	 * first of slices 2 and 4 (2): 8 placed, 13 ambiguous. */
	EXPECT_COUNTS(t, false, false, 21, 8, 13);
	other_pid = PID;
	other_tid = T2;
}

/* 101's loop for @iters taken branches under one TSC, then the trace
 * stops: far more elements than the sink holds while their run is open. */
static size_t make_long_trace(uint8_t *buf, size_t size, int iters)
{
	struct pt_encoder *e = start_trace(buf, size);
	if (!e)
		return 0;
	struct pt_packet p;
	int err = 0;
	err |= ip_packet(e, ppt_tip_pge, ADDR1, pt_ipc_sext_48);
	for (int i = 0; i < iters; i += 6) {
		p.type = ppt_tnt_8;
		p.payload.tnt.bit_size = 6;
		p.payload.tnt.payload = 0x3f;
		err |= enc(e, &p);
	}
	err |= tnt1(e, 0);
	err |= ip_packet(e, ppt_fup, ADDR1 + 5, pt_ipc_sext_48);
	err |= ip_packet(e, ppt_tip_pgd, 0, pt_ipc_suppressed);
	return end_trace(e, err);
}

/* A run longer than the sink holds (one TSC for 144,003 elements): the
 * oldest elements are decided while their run is still open, from the
 * widest span they may have (to the end of the trace). CPU-wide, the
 * switch records later on hand the CPU to 102, so that span may hold 102:
 * all ambiguous, none wrong. Recorded for process 100 and taking turns
 * with an untraced task of another process: all are 101's. */
static void long_run(void)
{
	char f1[300], f2[300], data[300];
	code_files(f1, f2, data, "long.data");
	static uint8_t trace[1 << 16];
	/* 72,000 taken branches: a range and a branch each, then the last
	 * range and the trace_on/off: 144,003 elements. */
	size_t n = make_long_trace(trace, sizeof(trace), 72000);
	CHECK(n > 0);
	struct tally t;
	EXPECT_COUNTS(t, false, false, 144003, 0, 144003);
	other_pid = 999;
	other_tid = 999;
	EXPECT_COUNTS(t, false, true, 144003, 144003, 0);
	other_pid = PID;
	other_tid = T2;
}

int main(void)
{
	CHECK(mkdtemp(tmp) != NULL);
	RUN(every_switch_boundary);
	RUN(long_run);
	char cmd[300];
	snprintf(cmd, sizeof(cmd), getenv("HWT_KEEP") ? "true %s" : "rm -rf '%s'", tmp);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", tmp);
	return hwt_test_summary();
}
