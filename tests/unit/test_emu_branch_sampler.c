/* The emulator's branch-record sampler through a capture session: a
 * made-up ground truth of 10,000 branches (branch i from 0x1000 + 16 i to
 * 0x9000 + 16 i, its kind cycling call, return, jump, cond), sampled every
 * 10th branch by Intel LBR 8 deep into a one-page data ring (the writer
 * waits for the reader: nothing lost however often the ring wraps).
 * Each sample is read here from its bytes, by the layout of
 * include/uapi/linux/perf_event.h: IDENTIFIER, IP, TID, TIME, CPU,
 * PERIOD, then nr and nr records (and with -j counter nr counter words);
 * every field is what the truth says. A filter keeps only its kinds; a
 * fixture that claims 128 records gets the emulator's 64 at most. The
 * branch counters of intel-lbr-counters (2 bits): each record's count of
 * the truth's branches since the filter's previous kept one, itself
 * included, counted here by walking the truth back, saturating at 3.
 * The emulated kernel refuses what the hardware would: a machine without
 * branch records, AMD BRS with a filter, no period, counters without
 * caps/branch_counter_nr. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"
#include "hwtrace/brstack.h"
#include "hwtrace/emulator.h"
#include "hwtrace/error.h"
#include "hwtrace/session.h"

#define NBR 10000u
#define PERIOD 10u

struct seen {
	uint64_t samples, bad, records, sideband;
	uint64_t count_sum; /* of the counter words (-j counter) */
	uint64_t mode;
	unsigned depth;
	bool typed; /* Arch LBR: every record's type saved */
};

static const uint8_t kinds[4] = {HWT_BRANCH_CALL, HWT_BRANCH_RETURN,
				 HWT_BRANCH_JUMP, HWT_BRANCH_COND};

static uint64_t word(const uint8_t *p, size_t i)
{
	uint64_t v;
	memcpy(&v, p + 8 + 8 * i, 8);
	return v;
}

/* Whether the filter of @s keeps branch @i. */
static bool kept(const struct seen *s, size_t i)
{
	if (s->mode & PERF_SAMPLE_BRANCH_ANY)
		return true;
	return ((s->mode & PERF_SAMPLE_BRANCH_COND) &&
		kinds[i % 4] == HWT_BRANCH_COND) ||
	       ((s->mode & PERF_SAMPLE_BRANCH_ANY_CALL) &&
		kinds[i % 4] == HWT_BRANCH_CALL) ||
	       ((s->mode & PERF_SAMPLE_BRANCH_ANY_RETURN) &&
		kinds[i % 4] == HWT_BRANCH_RETURN);
}

/* The record's flags word: 0, or on Arch LBR (s->typed) the type
 * perf_event.h's PERF_BR_* gives the kind, at bit 20 (call 4, return
 * 6, jump 2, conditional 1). */
static uint64_t flags_of(const struct seen *s, size_t i)
{
	static const uint64_t types[4] = {4, 6, 2, 1};
	return s->typed ? types[i % 4] << 20 : 0;
}

/* The branches from the one after the filter's kept branch before @i
 * to @i, as a 2-bit counter holds them. */
static uint64_t branches_since_kept(const struct seen *s, size_t i)
{
	size_t j = i;
	while (j-- > 0 && !kept(s, j))
		;
	uint64_t n = i - j; /* j wrapped to SIZE_MAX: i + 1 since the start */
	return n < 3 ? n : 3;
}

static int on_record(void *ctx, const struct perf_event_header *h)
{
	struct seen *s = ctx;
	const uint8_t *p = (const void *)h;
	if (h->type != PERF_RECORD_SAMPLE) {
		s->sideband += h->type == PERF_RECORD_COMM;
		return 0;
	}
	size_t newest = (size_t)(s->samples + 1) * PERIOD - 1;
	s->samples++;
	/* ip, tid, time, cpu, period */
	if (word(p, 1) != 0x9000 + 16 * newest || word(p, 2) != (7ull << 32 | 7) ||
	    word(p, 3) != 1000 + newest || word(p, 4) != 0 || word(p, 5) != PERIOD)
		s->bad++;
	uint64_t nr = word(p, 6);
	size_t at = 7, i = newest + 1;
	bool counters = s->mode & HWT_SAMPLE_BRANCH_COUNTERS;
	for (uint64_t k = 0; k < nr; k++) {
		while (i-- > 0 && !kept(s, i))
			;
		if (word(p, at + 3 * k) != 0x1000 + 16 * i ||
		    word(p, at + 3 * k + 1) != 0x9000 + 16 * i ||
		    word(p, at + 3 * k + 2) != flags_of(s, i))
			s->bad++;
		/* The counters follow the nr records, in their order. */
		if (counters) {
			uint64_t c = word(p, at + 3 * nr + k);
			s->bad += c != branches_since_kept(s, i);
			s->count_sum += c;
		}
	}
	s->records += nr;
	if (nr > s->depth || h->size != 8 + 7 * 8 + (counters ? 32 : 24) * nr)
		s->bad++;
	return 0;
}

static int on_aux(void *ctx, const struct hwt_pd_auxtrace *a, const void *d1,
		  uint64_t l1, const void *d2)
{
	(void)ctx, (void)a, (void)d1, (void)l1, (void)d2;
	return HWT_ERR_INVAL; /* a branch session has no AUX */
}

static struct hwt_emu *machine_at(const char *root)
{
	struct hwt_emu_opts eo = {.size = sizeof(eo), .sysfs_root = root,
				  .paced = true};
	struct hwt_emu *emu = NULL;
	CHECK_INT(hwt_emu_new(&eo, &emu), 0);
	return emu;
}

static struct hwt_emu *machine(const char *fixture)
{
	char root[4096];
	snprintf(root, sizeof(root), "%s/tests/fixtures/sysfs/%s", HWT_SOURCE_DIR,
		 fixture);
	return machine_at(root);
}

static void truth(struct hwt_emu *emu)
{
	static struct hwt_emu_branch v[NBR];
	for (size_t i = 0; i < NBR; i++)
		v[i] = (struct hwt_emu_branch){0x1000 + 16 * i, 0x9000 + 16 * i,
					       1000 + i, 7, 7, kinds[i % 4], 0};
	CHECK_INT(hwt_emu_branch_source(emu, v, NBR), 0);
	/* A COMM record of 8-byte multiple size goes first. */
	uint8_t comm[8 + 8 + 8] = {0};
	struct perf_event_header h = {PERF_RECORD_COMM, 0, sizeof(comm)};
	memcpy(comm, &h, sizeof(h));
	memcpy(comm + 16, "prog", 4);
	CHECK_INT(hwt_emu_branch_record(emu, comm), 0);
}

static void sample_on(struct hwt_emu *emu, unsigned depth, uint64_t mode,
		      uint64_t want_records)
{
	truth(emu);
	struct seen seen = {0, 0, 0, 0, 0, mode, depth, false};
	struct hwt_session_opts so;
	memset(&so, 0, sizeof(so));
	so.size = sizeof(so);
	so.os = hwt_emu_os(emu);
	so.branch = true;
	so.per_thread = true;
	so.pid = getpid();
	so.data_pages = 1;
	so.sink = (struct hwt_capture_sink){&seen, on_record, on_aux};
	struct hwt_branch_hw hw;
	CHECK_INT(hwt_branch_hw_probe(so.os, &hw), 0);
	seen.typed = hw.arch_lbr;
	struct hwt_branch_sampling bs = {mode, PERIOD, 0,
					 PERF_COUNT_HW_BRANCH_INSTRUCTIONS};
	CHECK_INT(hwt_branch_attr_build(&bs, &hw, "branches", &so.branch_attr), 0);
	struct hwt_session *s = NULL;
	CHECK_INT(hwt_session_new(&so, &s), 0);
	CHECK_INT(hwt_session_open(s), 0);
	int r;
	while ((r = hwt_session_poll(s, 100, NULL, 0)) == 0)
		;
	CHECK_INT(r, 1);
	CHECK_INT(hwt_session_stop(s), 0);
	CHECK_U64(seen.samples, NBR / PERIOD);
	CHECK_U64(seen.bad, 0);
	CHECK_U64(seen.records, want_records);
	CHECK_U64(seen.sideband, 1);
	if (mode & HWT_SAMPLE_BRANCH_COUNTERS)
		CHECK_U64(seen.count_sum > 0, 1);
	struct hwt_emu_branch_stats st;
	CHECK_INT(hwt_emu_branch_stats(emu, &st), 0);
	CHECK_U64(st.samples, NBR / PERIOD);
	CHECK_U64(st.lost, 0);
	hwt_session_free(s);
	hwt_emu_free(emu);
}

static void sample(uint64_t mode, uint64_t want_records)
{
	sample_on(machine("intel-lbr8"), 8, mode, want_records);
}

static void every_branch(void)
{
	/* The newest 8 of each sample's 10 branches. */
	sample(PERF_SAMPLE_BRANCH_ANY, (NBR / PERIOD) * 8);
}

static void conditional_only(void)
{
	/* Branches 3, 7, 11, ... are conditional: the first sample
	 * (branches 0-9) finds 2 of them, the second (0-19) 5, the third
	 * (0-29) 7, and from the fourth on the stack is full: 8. */
	sample(PERF_SAMPLE_BRANCH_COND, 2 + 5 + 7 + (NBR / PERIOD - 3) * 8);
}

/* -j counter on intel-lbr-counters (Arch LBR, 32 records, counters of
 * 2 bits).
 * Calls and returns (branches 0, 1, 4, 5, ...): counts 1 (the first
 * call; each return, right after its call) and 3 (a call after a jump
 * and a conditional); the first samples keep 6, 10, 16, 20, 26 and 30
 * (the calls and returns of branches 0-9, 0-19, ...), the stack is full
 * from the seventh on. Conditionals (3, 7, ...): 4 branches since the last, saturated to
 * 3. */
static void counters(void)
{
	sample_on(machine("intel-lbr-counters"), 32,
		  PERF_SAMPLE_BRANCH_ANY_CALL | PERF_SAMPLE_BRANCH_ANY_RETURN |
			  HWT_SAMPLE_BRANCH_COUNTERS,
		  6 + 10 + 16 + 20 + 26 + 30 + (NBR / PERIOD - 6) * 32);
	sample_on(machine("intel-lbr-counters"), 32,
		  PERF_SAMPLE_BRANCH_COND | HWT_SAMPLE_BRANCH_COUNTERS,
		  2 + 5 + 7 + 10 + 12 + 15 + 17 + 20 + 22 + 25 + 27 + 30 +
			  (NBR / PERIOD - 12) * 32);
	/* Positive control of the reading: the same filter without
	 * counters has the plain layout. */
	sample_on(machine("intel-lbr-counters"), 32, PERF_SAMPLE_BRANCH_COND,
		  2 + 5 + 7 + 10 + 12 + 15 + 17 + 20 + 22 + 25 + 27 + 30 +
			  (NBR / PERIOD - 12) * 32);
}

/* A fixture claiming 128 LBR records (more than any hardware has): the
 * stacks are 64 deep at most, the first samples as deep as the branches
 * so far (10, 20, ..., 60). */
static void depth_beyond_hardware(void)
{
	char dir[] = "/tmp/hwt_lbr128_XXXXXX", path[512];
	if (!mkdtemp(dir))
		HWT_FAIL("mkdtemp");
	static const char *const parts[] = {
		"bus", "bus/event_source", "bus/event_source/devices",
		"bus/event_source/devices/cpu", "bus/event_source/devices/cpu/caps"};
	for (size_t i = 0; i < sizeof(parts) / sizeof(*parts); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, parts[i]);
		mkdir(path, 0700);
	}
	static const char *const files[][2] = {
		{"bus/event_source/devices/cpu/type", "4\n"},
		{"bus/event_source/devices/cpu/caps/branches", "128\n"}};
	for (size_t i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, files[i][0]);
		FILE *f = fopen(path, "w");
		if (!f)
			HWT_FAIL("%s", path);
		fputs(files[i][1], f);
		fclose(f);
	}
	sample_on(machine_at(dir), 64, PERF_SAMPLE_BRANCH_ANY,
		  10 + 20 + 30 + 40 + 50 + 60 + (NBR / PERIOD - 6) * 64);
	for (size_t i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, files[i][0]);
		unlink(path);
	}
	for (size_t i = sizeof(parts) / sizeof(*parts); i-- > 0;) {
		snprintf(path, sizeof(path), "%s/%s", dir, parts[i]);
		rmdir(path);
	}
	rmdir(dir);
}

static void refusals(void)
{
	struct perf_event_attr a;
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_HARDWARE;
	a.config = PERF_COUNT_HW_BRANCH_INSTRUCTIONS;
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_BRANCH_STACK;
	a.sample_period = 10;
	a.branch_sample_type = PERF_SAMPLE_BRANCH_ANY_CALL;
	struct hwt_emu *emu = machine("no-trace");
	const struct hwt_os *os = hwt_emu_os(emu);
	CHECK_INT(os->ops->perf_event_open(os->ctx, &a, getpid(), -1, -1, 0),
		  -EOPNOTSUPP);
	hwt_emu_free(emu);
	emu = machine("amd-brs");
	os = hwt_emu_os(emu);
	CHECK_INT(os->ops->perf_event_open(os->ctx, &a, getpid(), -1, -1, 0),
		  -EINVAL);
	a.branch_sample_type = PERF_SAMPLE_BRANCH_ANY;
	int fd = os->ops->perf_event_open(os->ctx, &a, getpid(), -1, -1, 0);
	CHECK_INT(fd >= 0, 1);
	if (fd >= 0)
		os->ops->close(os->ctx, fd);
	a.sample_period = 0;
	CHECK_INT(os->ops->perf_event_open(os->ctx, &a, getpid(), -1, -1, 0),
		  -EINVAL);
	hwt_emu_free(emu);
	/* Counters where sysfs has none (intel-lbr8), as the kernel's
	 * intel_pmu_hw_config; on intel-lbr-counters the same opens. */
	a.sample_period = 10;
	a.branch_sample_type = PERF_SAMPLE_BRANCH_ANY | HWT_SAMPLE_BRANCH_COUNTERS;
	emu = machine("intel-lbr8");
	os = hwt_emu_os(emu);
	CHECK_INT(os->ops->perf_event_open(os->ctx, &a, getpid(), -1, -1, 0),
		  -EINVAL);
	hwt_emu_free(emu);
	emu = machine("intel-lbr-counters");
	os = hwt_emu_os(emu);
	fd = os->ops->perf_event_open(os->ctx, &a, getpid(), -1, -1, 0);
	CHECK_INT(fd >= 0, 1);
	/* A sibling in the sampler's group is not emulated: refused, not
	 * sampled as if it were alone. */
	if (fd >= 0) {
		CHECK_INT(os->ops->perf_event_open(os->ctx, &a, getpid(), -1,
						   fd, 0),
			  -EOPNOTSUPP);
		os->ops->close(os->ctx, fd);
	}
	hwt_emu_free(emu);
}

int main(void)
{
	RUN(every_branch);
	RUN(conditional_only);
	RUN(counters);
	RUN(depth_beyond_hardware);
	RUN(refusals);
	return hwt_test_summary();
}
