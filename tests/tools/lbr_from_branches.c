/* lbr_from_branches IN OUT PERIOD DEPTH [save_type] [filter=SPEC]: makes
 * OUT, a capture of branch
 * records as a sampling LBR would have written it, from IN, a capture
 * of every taken branch (sw_branch, Intel BTS): the ground truth. After
 * each PERIOD-th taken branch a cycles-like event "overflows" and its
 * sample carries the last DEPTH branches (at most as many as ran),
 * newest first, PERF_SAMPLE_BRANCH_STACK with branch_sample_type
 * any,u, its period PERIOD, its IP the newest branch's target, its time
 * and task that branch's. OUT keeps IN's sideband (the dummy event's
 * MMAP2, COMM, ... records), build ids and string features, and has no
 * trace event: what `perf record -b -c PERIOD` writes. With save_type,
 * each record also names its branch's type and privilege (user) as
 * `-j any,u,save_type,priv` has the kernel write them. With filter=SPEC
 * (perf record -j's names; any, any_call, any_ret, cond and ind_jmp
 * are emulated, with u), a stack keeps only the branches the filter
 * passes, as the hardware or the kernel's software filter keeps them,
 * and the period still counts every branch. Prints the samples and
 * records written. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hwtrace/brstack.h"
#include "hwtrace/decode.h"
#include "hwtrace/error.h"
#include "hwtrace/perfdata.h"
#include "unit/pd_copy.h"

#define LBR_ID 7001

struct branch {
	uint64_t from, to, time;
	int32_t pid, tid;
	enum hwt_branch_kind kind;
};

struct branches {
	struct branch *v;
	size_t n, cap;
	int err;
};

static int on_elem(void *arg, const struct hwt_elem *e)
{
	struct branches *b = arg;
	if (e->type != HWT_ELEM_BRANCH)
		return 0;
	if (b->n == b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 4096;
		void *p = realloc(b->v, cap * sizeof(*b->v));
		if (!p)
			return hwt_error(HWT_ERR_NOMEM, "out of memory");
		b->v = p;
		b->cap = cap;
	}
	b->v[b->n++] = (struct branch){e->u.branch.from, e->u.branch.to,
				       e->fields & HWT_FIELD_TIME ? e->time : 0,
				       e->pid, e->tid, e->u.branch.kind};
	return 0;
}

/* The sideband of IN's dummy event, and whether a record belongs in OUT
 * (no trace: no AUXTRACE, its info and index, AUX, ITRACE_START). */
static bool keep(uint32_t type)
{
	return hwt_test_pd_copyable(type) && type != PERF_RECORD_SAMPLE &&
	       type != PERF_RECORD_AUX && type != PERF_RECORD_ITRACE_START &&
	       type != HWT_PD_RECORD_AUXTRACE_INFO &&
	       type != HWT_PD_RECORD_AUXTRACE && type != HWT_PD_RECORD_TIME_CONV;
}

static void put64(uint8_t **p, uint64_t v)
{
	memcpy(*p, &v, 8);
	*p += 8;
}

/* perf_branch_entry's flags word for @k: type at bit 20, priv (user) at
 * bit 30; 0 for a kind perf has no type of. */
static uint64_t type_flags(enum hwt_branch_kind k)
{
	static const uint8_t types[] = {
		[HWT_BRANCH_CALL] = HWT_BR_CALL, [HWT_BRANCH_RETURN] = HWT_BR_RET,
		[HWT_BRANCH_JUMP] = HWT_BR_UNCOND, [HWT_BRANCH_COND] = HWT_BR_COND,
		[HWT_BRANCH_INDIRECT] = HWT_BR_IND,
		[HWT_BRANCH_SYSCALL] = HWT_BR_SYSCALL,
		[HWT_BRANCH_SYSRET] = HWT_BR_SYSRET,
	};
	uint64_t t = (unsigned)k < sizeof(types) ? types[k] : 0;
	return t ? t << 20 | 1ull << 30 : 0;
}

/* Whether a stack of filter @mode keeps a branch of kind @k. */
static bool keeps(uint64_t mode, enum hwt_branch_kind k)
{
	if (mode & PERF_SAMPLE_BRANCH_ANY)
		return true;
	return ((mode & PERF_SAMPLE_BRANCH_ANY_CALL) &&
		(k == HWT_BRANCH_CALL || k == HWT_BRANCH_SYSCALL)) ||
	       ((mode & PERF_SAMPLE_BRANCH_ANY_RETURN) &&
		(k == HWT_BRANCH_RETURN || k == HWT_BRANCH_SYSRET ||
		 k == HWT_BRANCH_ERET)) ||
	       ((mode & PERF_SAMPLE_BRANCH_COND) && k == HWT_BRANCH_COND) ||
	       ((mode & PERF_SAMPLE_BRANCH_IND_JUMP) && k == HWT_BRANCH_INDIRECT);
}

/* Writes the sample after branch @newest; *nr its records. */
static int write_sample(struct hwt_pd_writer *w, const struct branches *b,
			size_t newest, unsigned depth, uint64_t period,
			bool save_type, uint64_t mode, size_t *nr)
{
	static uint8_t rec[8 + 6 * 8 + 8 + 64 * 24];
	const struct branch *top = &b->v[newest];
	uint8_t *p = rec + 8;
	put64(&p, LBR_ID);                      /* identifier */
	put64(&p, top->to);                     /* ip */
	put64(&p, (uint64_t)(uint32_t)top->pid | (uint64_t)(uint32_t)top->tid << 32);
	put64(&p, top->time);
	put64(&p, period);
	uint8_t *nr_at = p;
	p += 8;
	*nr = 0;
	for (size_t i = newest + 1; i-- > 0 && *nr < depth;) {
		if (!keeps(mode, b->v[i].kind))
			continue;
		put64(&p, b->v[i].from);
		put64(&p, b->v[i].to);
		/* flags: no prediction, no cycles (the tracer has none) */
		put64(&p, save_type ? type_flags(b->v[i].kind) : 0);
		(*nr)++;
	}
	put64(&nr_at, *nr);
	struct perf_event_header h = {PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER,
				      (uint16_t)(p - rec)};
	memcpy(rec, &h, sizeof(h));
	return hwt_pd_writer_record(w, rec);
}

static int make(const char *in, const char *out, uint64_t period,
		unsigned depth, bool save_type, uint64_t mode, size_t *samples,
		size_t *records)
{
	struct branches b = {0};
	struct hwt_decode_opts o;
	memset(&o, 0, sizeof(o));
	o.size = sizeof(o);
	struct hwt_elem_sink sink = {on_elem, &b};
	int err = hwt_decode_file(in, &o, &sink);
	if (err < 0) {
		free(b.v);
		return err;
	}
	struct hwt_pd_reader *r;
	struct hwt_pd_writer *w;
	if ((err = hwt_pd_reader_open(in, &r)) < 0) {
		free(b.v);
		return err;
	}
	if ((err = hwt_pd_writer_open(out, &w)) < 0) {
		hwt_pd_reader_free(r);
		free(b.v);
		return err;
	}
	/* IN's sideband event (its records' sample_id layout, with
	 * PERF_SAMPLE_IDENTIFIER first as in the new event), then the
	 * sampling event. */
	const struct hwt_pd_attr *side = NULL;
	for (size_t i = 0; i < hwt_pd_reader_nr_attrs(r); i++) {
		const struct hwt_pd_attr *a = hwt_pd_reader_attr(r, i);
		if (a->attr.type == PERF_TYPE_SOFTWARE)
			side = a;
	}
	if (!side || !(side->attr.sample_type & PERF_SAMPLE_IDENTIFIER))
		err = hwt_error(HWT_ERR_FORMAT, "%s: no sideband event with "
				"PERF_SAMPLE_IDENTIFIER", in);
	if (!err)
		err = hwt_pd_writer_add_attr(w, &side->attr, side->ids, side->nids,
					     side->name);
	struct perf_event_attr a;
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_HARDWARE;
	a.config = PERF_COUNT_HW_CPU_CYCLES;
	a.sample_period = period;
	a.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD |
			PERF_SAMPLE_BRANCH_STACK;
	a.branch_sample_type = mode | PERF_SAMPLE_BRANCH_USER;
	if (save_type)
		a.branch_sample_type |= PERF_SAMPLE_BRANCH_TYPE_SAVE |
					HWT_SAMPLE_BRANCH_PRIV_SAVE;
	a.exclude_kernel = a.exclude_hv = 1;
	a.sample_id_all = 1;
	uint64_t id = LBR_ID;
	if (!err)
		err = hwt_pd_writer_add_attr(w, &a, &id, 1, "cycles:u");
	uint32_t avail, online;
	if (!err && hwt_pd_reader_nr_cpus(r, &avail, &online) == 0)
		err = hwt_pd_writer_set_nr_cpus(w, avail, online);
	if (!err)
		err = hwt_test_pd_copy_strings(r, w);
	struct hwt_pd_build_id bid;
	for (size_t i = 0; !err && hwt_pd_reader_build_id(r, i, &bid) > 0; i++)
		err = hwt_pd_writer_add_build_id(w, bid.pid, bid.misc, bid.id,
						 bid.size, bid.filename);
	/* The sideband first: every mapping is in place before the first
	 * branch ran (sw_branch starts at main). */
	struct hwt_pd_record rec;
	while (!err && (err = hwt_pd_reader_next(r, &rec)) == 1) {
		err = 0;
		if (keep(rec.type))
			err = hwt_pd_writer_record(w, rec.data);
	}
	*samples = *records = 0;
	for (size_t k = period; !err && k <= b.n; k += period) {
		size_t nr;
		err = write_sample(w, &b, k - 1, depth, period, save_type, mode, &nr);
		(*samples)++;
		*records += nr;
	}
	free(b.v);
	return hwt_test_pd_copy_close(r, w, err);
}

int main(int argc, char **argv)
{
	bool save_type = false;
	uint64_t mode = PERF_SAMPLE_BRANCH_ANY;
	int bad = argc < 5;
	for (int i = 5; i < argc && !bad; i++) {
		if (!strcmp(argv[i], "save_type"))
			save_type = true;
		else if (!strncmp(argv[i], "filter=", 7))
			bad = hwt_branch_filter_parse(argv[i] + 7, "filter=", &mode) < 0 ||
			      (mode & ~(uint64_t)(PERF_SAMPLE_BRANCH_ANY |
						  PERF_SAMPLE_BRANCH_ANY_CALL |
						  PERF_SAMPLE_BRANCH_ANY_RETURN |
						  PERF_SAMPLE_BRANCH_COND |
						  PERF_SAMPLE_BRANCH_IND_JUMP |
						  PERF_SAMPLE_BRANCH_USER));
		else
			bad = 1;
	}
	unsigned long period = bad ? 0 : strtoul(argv[3], NULL, 0);
	unsigned long depth = bad ? 0 : strtoul(argv[4], NULL, 0);
	if (!period || !depth || depth > 64) {
		fprintf(stderr, "usage: lbr_from_branches IN OUT PERIOD DEPTH "
			"[save_type] [filter=any|any_call|any_ret|cond|ind_jmp[,u]] "
			"(DEPTH 1-64)\n");
		return 2;
	}
	size_t samples, records;
	if (make(argv[1], argv[2], period, (unsigned)depth, save_type,
		 mode & ~(uint64_t)PERF_SAMPLE_BRANCH_USER, &samples, &records) < 0) {
		fprintf(stderr, "lbr_from_branches: %s\n", hwt_errmsg());
		return 1;
	}
	printf("%zu samples, %zu records\n", samples, records);
	return 0;
}
