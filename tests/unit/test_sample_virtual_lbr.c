/* decode --virtual-lbr N against Linux perf's own virtual LBR: perf 6.1's
 * `perf script --itrace=LN -F ip,period,brstack` decodes each AUX
 * sample's window and gives the sample a branch stack of the newest N
 * branches ("synthesize last branch entries on existing event records").
 * On the AUX sampling captures of six ptt streams (sample_ptt_capture.h),
 * hwtrace's records of every sample must be perf's entries, depth for
 * depth, with the sample's period as weight, its time, cpu and tid, and
 * as many as the window has branches up to N (the second oracle: the
 * same window's full branch stack, decoded without the option).
 * Samples whose window has no branch (no PSB in it yet) get no records
 * from hwtrace and an empty stack from perf. And the records are the
 * elements the branch-record path makes of the same stacks written as
 * LBR samples (same_elements_as_lbr). */
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"
#include "hwtrace/decode.h"
#include "hwtrace/sample.h"
#include "sample_ptt_capture.h"

#define MAXB 1100

struct stack {
	uint64_t ip, time, period;
	uint64_t from[MAXB], to[MAXB];
	size_t n;
	bool ok;        /* cpu, tid, weight and depths as they must be */
};

static struct stack ours[PTT_MAX_SAMPLES], theirs[PTT_MAX_SAMPLES];
static size_t nours, ntheirs;
/* Without the option: each window's branch count. */
static size_t full_n[PTT_MAX_SAMPLES], nfull;
static uint64_t ranges, ranges_bad, warned_short;

/* Every sampled branch and range of a decode, field for field, for the
 * comparison of the two paths (NULL: not kept). */
struct logged {
	struct hwt_elem e;
};
struct elem_log {
	struct logged v[8192];
	size_t n;
};
static struct elem_log *logging;

/* The sampled records of one decode, a stack per sample time. */
static int collect(void *arg, const struct hwt_elem *e)
{
	(void)arg;
	if (e->type == HWT_ELEM_SAMPLE && nfull < PTT_MAX_SAMPLES)
		full_n[nfull++] = e->u.sample.nbranches;
	if (e->type == HWT_ELEM_ERROR &&
	    strstr(e->u.error.message, "virtual LBR: "))
		warned_short = strtoull(e->u.error.message + 13, NULL, 10);
	if (logging && logging->n < 8192 &&
	    (e->type == HWT_ELEM_RANGE ||
	     (e->type == HWT_ELEM_BRANCH && (e->fields & HWT_FIELD_SAMPLED))))
		logging->v[logging->n++].e = *e;
	if (e->type == HWT_ELEM_RANGE && nours) {
		const struct stack *s = &ours[nours - 1];
		/* Between two records: from the older one's target. */
		ranges++;
		ranges_bad += !s->n || e->u.range.start != s->to[s->n - 1] ||
			      e->time != s->time;
	}
	if (e->type != HWT_ELEM_BRANCH || !(e->fields & HWT_FIELD_SAMPLED))
		return 0;
	struct stack *s = nours ? &ours[nours - 1] : NULL;
	if (!s || s->time != e->time) {
		if (nours >= PTT_MAX_SAMPLES)
			return 0;
		s = &ours[nours++];
		memset(s, 0, sizeof(*s));
		s->time = e->time;
		s->period = e->u.branch.weight;
		s->ok = true;
	}
	/* Oldest first, so depth counts down to 0. */
	if (s->n >= MAXB)
		return 0;
	s->from[s->n] = e->u.branch.from;
	s->to[s->n] = e->u.branch.to;
	s->n++;
	s->ok = s->ok && e->cpu == 0 && e->tid == PT_CAPTURE_PID &&
		e->pid == PT_CAPTURE_PID && e->u.branch.weight == s->period &&
		(e->fields & (HWT_FIELD_CPU | HWT_FIELD_TID | HWT_FIELD_TIME)) ==
			(HWT_FIELD_CPU | HWT_FIELD_TID | HWT_FIELD_TIME);
	return 0;
}

/* Reverses each of our stacks into newest first and checks the depths
 * ran n-1 .. 0 (collect saw them in order). */
static void newest_first(void)
{
	for (size_t k = 0; k < nours; k++) {
		struct stack *s = &ours[k];
		for (size_t i = 0; i < s->n / 2; i++) {
			uint64_t f = s->from[i], t = s->to[i];
			s->from[i] = s->from[s->n - 1 - i];
			s->to[i] = s->to[s->n - 1 - i];
			s->from[s->n - 1 - i] = f;
			s->to[s->n - 1 - i] = t;
		}
	}
}

/* perf's lines: "IP PERIOD FROM/TO/M/X/A/C ..." newest first. */
static int perf_stacks(const char *path, unsigned n)
{
	char cmd[700];
	snprintf(cmd, sizeof(cmd), "perf script -i '%s' --itrace=L%u "
		 "-F ip,period,brstack 2>/dev/null", path, n);
	FILE *p = popen(cmd, "r");
	if (!p)
		return -1;
	static char line[1 << 16];
	ntheirs = 0;
	while (fgets(line, sizeof(line), p) && ntheirs < PTT_MAX_SAMPLES) {
		struct stack *s = &theirs[ntheirs++];
		char *q = line;
		memset(s, 0, sizeof(*s));
		s->period = strtoull(q, &q, 10);
		s->ip = strtoull(q, &q, 16);
		while (*q && s->n < MAXB) {
			while (*q == ' ')
				q++;
			if (*q != '0')
				break;
			s->from[s->n] = strtoull(q, &q, 16);
			if (*q++ != '/')
				break;
			s->to[s->n++] = strtoull(q, &q, 16);
			while (*q && *q != ' ' && *q != '\n')
				q++;
		}
	}
	return pclose(p) == 0 ? 0 : -1;
}

static void decode(const char *path, unsigned n)
{
	struct hwt_decode_opts opts;
	memset(&opts, 0, sizeof(opts));
	opts.size = sizeof(opts);
	opts.virtual_lbr = n;
	nours = nfull = 0;
	warned_short = 0;
	struct hwt_elem_sink sink = {collect, NULL};
	CHECK_INT(hwt_decode_file(path, &opts, &sink), 0);
	newest_first();
}

static void records_equal_perfs(void)
{
	char dir[] = "/tmp/hwt-vlbr-XXXXXX", path[128];
	CHECK(mkdtemp(dir) != NULL);
	static const unsigned sizes[] = {1, 8, 64, 1024};
	size_t compared = 0, entries = 0, short_total = 0;
	for (size_t i = 0; i < sizeof(ptt_sample_streams) /
				sizeof(*ptt_sample_streams); i++) {
		const char *name = ptt_sample_streams[i];
		char bin[512];
		uint64_t org;
		size_t nsamples;
		snprintf(path, sizeof(path), "%s/%s.data", dir, name);
		CHECK_INT(ptt_sample_capture(name, path, bin, sizeof(bin), &org,
					     &nsamples), 0);
		/* The second oracle: each window's branches, undecorated. */
		decode(path, 0);
		CHECK_INT(nfull, nsamples);
		size_t nfull_kept = nfull, full[PTT_MAX_SAMPLES];
		memcpy(full, full_n, sizeof(full));
		for (size_t z = 0; z < sizeof(sizes) / sizeof(*sizes); z++) {
			unsigned n = sizes[z];
			decode(path, n);
			if (perf_stacks(path, n) < 0) {
				HWT_FAIL("%s: perf script --itrace=L%u failed (is "
					 "linux-perf installed?)", name, n);
				continue;
			}
			CHECK_INT(ntheirs, nsamples);
			/* Windows with branches give a stack; the others none. */
			size_t with = 0, shorter = 0;
			for (size_t k = 0; k < nfull_kept; k++) {
				with += full[k] > 0;
				shorter += full[k] < n;
			}
			CHECK_INT(nours, with);
			CHECK_U64(warned_short, shorter);
			short_total += shorter;
			/* Our k-th stack is the sample whose window is the
			 * k-th with branches; perf lists every sample. */
			size_t k = 0;
			for (size_t t = 0; t < ntheirs && k < nours; t++) {
				const struct stack *b = &theirs[t];
				size_t want = full[t] < n ? full[t] : n;
				if (!full[t]) {
					CHECK_INT(b->n, 0);
					continue;
				}
				const struct stack *a = &ours[k++];
				CHECK(a->ok);
				/* ip 0x1000 + p, time 1000 + p, period 2000 + p */
				CHECK_U64(a->time, b->ip - 0x1000 + 1000);
				CHECK_U64(a->period, b->period);
				CHECK_U64(a->period, PTT_SAMPLE_PERIOD(b->ip - 0x1000));
				CHECK_INT(a->n, want);
				bool same = a->n == b->n;
				for (size_t j = 0; same && j < a->n; j++)
					same = a->from[j] == b->from[j] &&
					       a->to[j] == b->to[j];
				if (!same)
					HWT_FAIL("%s L%u sample ip 0x%" PRIx64
						 ": %zu records, perf %zu entries, "
						 "not the same", name, n, b->ip,
						 a->n, b->n);
				entries += a->n;
				compared++;
			}
		}
		if (!getenv("HWT_KEEP"))
			unlink(path);
	}
	fprintf(stderr, "%zu stacks, %zu records equal to perf's, %zu short "
		"stacks, %" PRIu64 " ranges\n", compared, entries, short_total,
		ranges);
	CHECK(compared > 0);
	CHECK(entries > 0);
	CHECK_U64(ranges_bad, 0);
	CHECK(ranges > 0);
	if (!getenv("HWT_KEEP"))
		rmdir(dir);
}

/* A capture of branch records as `perf record -b -j any,u` writes them:
 * one sample per stack of perf's (theirs[]), with its ip, time, period
 * and entries, the same code mapped. */
static int write_lbr_capture(const char *path, const char *bin, uint64_t org)
{
	struct stat st;
	struct hwt_pd_writer *w = NULL;
	if (stat(bin, &st) || hwt_pd_writer_open(path, &w) < 0)
		return -1;
	uint64_t stype = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			 PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER;
	struct perf_event_attr cyc = {
		.type = PERF_TYPE_HARDWARE, .size = sizeof(cyc),
		.config = PERF_COUNT_HW_CPU_CYCLES, .sample_period = 1000,
		.sample_type = stype | PERF_SAMPLE_PERIOD | PERF_SAMPLE_BRANCH_STACK,
		.branch_sample_type = PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_USER,
		.sample_id_all = 1, .exclude_kernel = 1,
	};
	struct perf_event_attr dummy = {
		.type = PERF_TYPE_SOFTWARE, .size = sizeof(dummy),
		.config = PERF_COUNT_SW_DUMMY, .sample_type = stype & ~PERF_SAMPLE_IP,
		.sample_id_all = 1, .mmap = 1, .mmap2 = 1, .comm = 1, .task = 1,
		.exclude_kernel = 1,
	};
	uint64_t id_dummy = 2, id_cyc = 3;
	int err = hwt_pd_writer_add_attr(w, &cyc, &id_cyc, 1, "cycles:u");
	if (!err)
		err = hwt_pd_writer_add_attr(w, &dummy, &id_dummy, 1, "dummy:u");
	static uint8_t rec[65536];
	uint32_t pidtid[2] = {PT_CAPTURE_PID, PT_CAPTURE_PID};
	memset(rec, 0, 256);
	memcpy(rec + 8, pidtid, 8);
	memcpy(rec + 16, "ptt", 4);
	size_t n = 24 + pt_capture_sample_id(rec + 24, 1, id_dummy);
	pt_capture_header(rec, PERF_RECORD_COMM, 0, n);
	if (!err)
		err = hwt_pd_writer_record(w, rec);
	if (!err)
		err = ptt_write_mmap2(w, bin, org, (uint64_t)st.st_size, id_dummy);
	for (size_t k = 0; k < ntheirs && !err; k++) {
		const struct stack *b = &theirs[k];
		if (!b->n)
			continue; /* perf record -b writes no empty stacks */
		uint8_t *q = rec + 8;
		pd_put64(q, id_cyc), q += 8;
		pd_put64(q, b->ip), q += 8;
		pd_put32(q, PT_CAPTURE_PID), pd_put32(q + 4, PT_CAPTURE_PID), q += 8;
		pd_put64(q, b->ip - 0x1000 + 1000), q += 8;
		pd_put64(q, 0), q += 8;
		pd_put64(q, b->period), q += 8;
		pd_put64(q, b->n), q += 8;
		for (size_t j = 0; j < b->n; j++) {
			pd_put64(q, b->from[j]), pd_put64(q + 8, b->to[j]);
			pd_put64(q + 16, 0), q += 24;
		}
		pt_capture_header(rec, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER,
				  (size_t)(q - rec));
		err = hwt_pd_writer_record(w, rec);
	}
	int cerr = hwt_pd_writer_close(w);
	return err ? err : cerr;
}

/* Whether the instruction at @addr of @bin (mapped at @org) is a far
 * call or return, by its opcode (Intel SDM: CALL FF /3 and 9A, RET far
 * CA and CB, with an optional REX.W). */
static bool is_far(const char *bin, uint64_t org, uint64_t addr)
{
	uint8_t op[3] = {0};
	FILE *f = fopen(bin, "rb");
	if (!f)
		return false;
	bool got = fseek(f, (long)(addr - org), SEEK_SET) == 0 &&
		   fread(op, 1, sizeof(op), f) >= 2;
	fclose(f);
	const uint8_t *p = (op[0] & 0xf0) == 0x40 ? op + 1 : op;
	return got && (p[0] == 0x9a || p[0] == 0xca || p[0] == 0xcb ||
		       (p[0] == 0xff && ((p[1] >> 3) & 7) == 3));
}

/* The two paths to branch-stack elements give the same ones: an AUX
 * sample capture decoded with --virtual-lbr 8, and a capture of branch
 * records holding perf's --itrace=L8 stacks of it, decoded as LBR
 * samples, give the same BRANCH and RANGE elements in the same order,
 * every field (the kind: the trace decoder's on one side, the
 * instruction's at the source on the other). */
static void same_elements_as_lbr(void)
{
	char dir[] = "/tmp/hwt-vlbr-XXXXXX", path[128], lbr[160];
	CHECK(mkdtemp(dir) != NULL);
	static struct elem_log virt, real;
	size_t compared = 0, far = 0;
	for (size_t i = 0; i < sizeof(ptt_sample_streams) /
				sizeof(*ptt_sample_streams); i++) {
		const char *name = ptt_sample_streams[i];
		char bin[512];
		uint64_t org;
		size_t nsamples;
		snprintf(path, sizeof(path), "%s/%s.data", dir, name);
		snprintf(lbr, sizeof(lbr), "%s/%s.lbr.data", dir, name);
		CHECK_INT(ptt_sample_capture(name, path, bin, sizeof(bin), &org,
					     &nsamples), 0);
		if (perf_stacks(path, 8) < 0) {
			HWT_FAIL("%s: perf script --itrace=L8 failed", name);
			continue;
		}
		CHECK_INT(write_lbr_capture(lbr, bin, org), 0);
		virt.n = real.n = 0;
		logging = &virt;
		decode(path, 8);
		logging = &real;
		decode(lbr, 0);
		logging = NULL;
		CHECK_INT(virt.n, real.n);
		for (size_t k = 0; k < virt.n && k < real.n; k++) {
			const struct hwt_elem *a = &virt.v[k].e, *b = &real.v[k].e;
			bool same = a->type == b->type && a->fields == b->fields &&
				    a->cpu == b->cpu && a->pid == b->pid &&
				    a->tid == b->tid && a->time == b->time;
			if (same && a->type == HWT_ELEM_RANGE)
				same = a->u.range.start == b->u.range.start &&
				       a->u.range.end == b->u.range.end &&
				       a->u.range.insns == b->u.range.insns &&
				       a->u.range.isa == b->u.range.isa;
			else if (same)
				same = a->u.branch.from == b->u.branch.from &&
				       a->u.branch.to == b->u.branch.to &&
				       a->u.branch.weight == b->u.branch.weight &&
				       a->u.branch.depth == b->u.branch.depth &&
				       a->u.branch.flags == b->u.branch.flags &&
				       a->u.branch.priv == b->u.branch.priv &&
				       a->u.branch.cycles == b->u.branch.cycles;
			/* A far transfer's kind: Intel PT's decoder says a
			 * far call or a far return (ERET: the return of a
			 * far call or an interrupt); an LBR record without
			 * its type has the instruction, and a far call, jump
			 * and return are one class there (HWT_INSN_FAR: a
			 * jump). */
			if (same && a->type == HWT_ELEM_BRANCH &&
			    a->u.branch.kind != b->u.branch.kind &&
			    b->u.branch.kind == HWT_BRANCH_JUMP &&
			    (a->u.branch.kind == HWT_BRANCH_CALL ||
			     a->u.branch.kind == HWT_BRANCH_ERET) &&
			    is_far(bin, org, a->u.branch.from)) {
				far++;
				b = a; /* the rest must still be equal */
			}
			if (same)
				same = a == b || a->u.branch.kind == b->u.branch.kind;
			if (!same) {
				HWT_FAIL("%s: element %zu (%s at %" PRIu64 ") differs "
					 "from the LBR capture's: type %d/%d fields "
					 "0x%x/0x%x kind %d/%d flags 0x%x/0x%x", name,
					 k, a->type == HWT_ELEM_RANGE ? "range" :
					 "branch", a->time, a->type, b->type,
					 a->fields, b->fields, a->u.branch.kind,
					 b->u.branch.kind, a->u.branch.flags,
					 b->u.branch.flags);
				break;
			}
			compared++;
		}
		if (!getenv("HWT_KEEP")) {
			unlink(path);
			unlink(lbr);
		}
	}
	fprintf(stderr, "%zu elements the same from both paths, %zu of them far "
		"transfers whose kind only the trace gives\n", compared, far);
	CHECK(compared > 0);
	/* ret_near_far's far call and far return are in its stacks. */
	CHECK(far > 0);
	if (!getenv("HWT_KEEP"))
		rmdir(dir);
}

/* A size past perf's limit is refused by the library too. */
static void size_limit(void)
{
	struct hwt_decode_opts opts;
	memset(&opts, 0, sizeof(opts));
	opts.size = sizeof(opts);
	opts.virtual_lbr = HWT_VIRTUAL_LBR_MAX + 1;
	struct hwt_elem_sink sink = {collect, NULL};
	CHECK_INT(hwt_decode_file("/nonexistent.data", &opts, &sink),
		  HWT_ERR_CONFIG);
	CHECK(strstr(hwt_errmsg(), "1025") != NULL);
}

int main(void)
{
	RUN(records_equal_perfs);
	RUN(same_elements_as_lbr);
	RUN(size_limit);
	return hwt_test_summary();
}
