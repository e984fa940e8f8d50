/* The time-ordered merge: streams of two CPUs and a per-thread stream with
 * interleaved times come out in non-decreasing time, every element exactly
 * once with its strings intact; ties go to the lower CPU; an element older
 * than its stream's last is counted and kept in stream order; untimed
 * captures keep stream order; 600,000 elements (several MB spilled to the
 * temporary file) come back whole; elements of every type, with every
 * field and pointer set or not, come back through the temporary file's
 * compact records exactly as they went in, repeated ones too (a record of
 * one byte each, which a test of a million repeats measures through the
 * bytes spilled); the codec's table of where
 * each type keeps its pointer agrees with hwt_elem_pointer. */
#include <stdbool.h>

#include "core/merge/merge_codec.h"
#include "harness.h"
#include "hwtrace/error.h"
#include "hwtrace/merge.h"

struct got {
	struct hwt_elem *v;
	char (*text)[32];
	size_t n, cap;
};

static int collect(void *arg, const struct hwt_elem *e)
{
	struct got *g = arg;
	if (g->n == g->cap) {
		g->cap = g->cap ? g->cap * 2 : 1024;
		g->v = realloc(g->v, g->cap * sizeof(*g->v));
		g->text = realloc(g->text, g->cap * sizeof(*g->text));
	}
	g->v[g->n] = *e;
	const char *s = e->type == HWT_ELEM_ERROR ? e->u.error.message
		      : e->type == HWT_ELEM_RANGE ? e->u.range.text : NULL;
	snprintf(g->text[g->n], sizeof(g->text[0]), "%s", s ? s : "");
	g->n++;
	return 0;
}

static struct hwt_elem elem(int32_t cpu, int32_t tid, uint64_t time,
			    uint64_t addr)
{
	struct hwt_elem e = {.type = HWT_ELEM_RANGE};
	e.fields = HWT_FIELD_TID | (time ? HWT_FIELD_TIME : 0) |
		   (cpu >= 0 ? HWT_FIELD_CPU : 0);
	e.cpu = cpu;
	e.tid = tid;
	e.time = time;
	e.u.range.start = addr;
	e.u.range.end = addr + 4;
	e.u.range.insns = 1;
	return e;
}

static void test_interleaved(void)
{
	struct got g = {0};
	struct hwt_elem_sink out = {collect, &g};
	struct hwt_merge *m;
	CHECK_INT(hwt_merge_new(&out, &m), 0);
	struct hwt_elem_sink in = hwt_merge_sink(m);
	/* CPU 3 first, as a decoder emits its queues; then CPU 0; then a
	 * per-thread stream (no cpu) of tid 9. An untimed element follows
	 * each stream's time. */
	uint64_t t3[] = {10, 20, 20, 35, 15 /* backwards */, 40};
	uint64_t t0[] = {5, 20, 30, 0 /* untimed */, 45};
	uint64_t t9[] = {20, 50};
	for (size_t i = 0; i < 6; i++) {
		struct hwt_elem e = elem(3, 300, t3[i], 0x3000 + i);
		CHECK_INT(in.emit(in.arg, &e), 0);
	}
	for (size_t i = 0; i < 5; i++) {
		struct hwt_elem e = elem(0, 100, t0[i], 0x1000 + i);
		CHECK_INT(in.emit(in.arg, &e), 0);
	}
	for (size_t i = 0; i < 2; i++) {
		struct hwt_elem e = elem(-1, 9, t9[i], 0x9000 + i);
		CHECK_INT(in.emit(in.arg, &e), 0);
	}
	CHECK_INT(hwt_merge_finish(m), 0);
	uint64_t want[] = {0x1000, 0x3000, 0x1001, 0x3001, 0x3002, 0x9000,
			   0x1002, 0x1003, 0x3003, 0x3004, 0x3005, 0x1004,
			   0x9001};
	CHECK_INT(g.n, 13);
	for (size_t i = 0; i < g.n && i < 13; i++)
		CHECK_U64(g.v[i].u.range.start, want[i]);
	/* The clamped element keeps its own time field. */
	CHECK_U64(g.v[9].time, 15);
	struct hwt_merge_stats st;
	hwt_merge_get_stats(m, &st);
	CHECK_U64(st.streams, 3);
	CHECK_U64(st.elements, 13);
	CHECK_U64(st.timed, 12);
	CHECK_U64(st.time_backwards, 1);
	CHECK_U64(st.spilled_bytes, 0);
	hwt_merge_free(m);
	free(g.v);
	free(g.text);
}

static void test_untimed_keeps_stream_order(void)
{
	struct got g = {0};
	struct hwt_elem_sink out = {collect, &g};
	struct hwt_merge *m;
	CHECK_INT(hwt_merge_new(&out, &m), 0);
	struct hwt_elem_sink in = hwt_merge_sink(m);
	struct hwt_elem a = elem(2, 1, 0, 0x20), b = elem(1, 1, 0, 0x10);
	struct hwt_elem err = {.type = HWT_ELEM_ERROR, .fields = HWT_FIELD_CPU,
			       .cpu = 2};
	err.u.error.message = "decoder lost sync";
	CHECK_INT(in.emit(in.arg, &a), 0);
	CHECK_INT(in.emit(in.arg, &b), 0);
	CHECK_INT(in.emit(in.arg, &err), 0);
	CHECK_INT(hwt_merge_finish(m), 0);
	CHECK_INT(g.n, 3);
	CHECK_U64(g.v[0].u.range.start, 0x20);
	CHECK_INT(g.v[1].type, HWT_ELEM_ERROR);
	CHECK_STR(g.text[1], "decoder lost sync");
	CHECK_U64(g.v[2].u.range.start, 0x10);
	hwt_merge_free(m);
	free(g.v);
	free(g.text);
}

/* Two CPUs of 300,000 elements each, with text, alternating in time:
 * several chunks each go through the temporary file. */
static void test_spills(void)
{
	enum { N = 300000 };
	struct got g = {0};
	struct hwt_elem_sink out = {collect, &g};
	struct hwt_merge *m;
	CHECK_INT(hwt_merge_new(&out, &m), 0);
	struct hwt_elem_sink in = hwt_merge_sink(m);
	char text[32];
	for (int cpu = 1; cpu >= 0; cpu--)
		for (uint64_t i = 0; i < N; i++) {
			struct hwt_elem e = elem(cpu, cpu, 2 * i + (uint64_t)cpu + 1, i);
			snprintf(text, sizeof(text), "insn %d.%llu", cpu,
				 (unsigned long long)i);
			e.u.range.text = text;
			CHECK(in.emit(in.arg, &e) == 0);
		}
	CHECK_INT(hwt_merge_finish(m), 0);
	CHECK_INT(g.n, 2 * N);
	size_t bad = 0, per_cpu[2] = {0, 0};
	for (size_t i = 0; i < g.n; i++) {
		int cpu = (int)(i % 2);
		uint64_t k = i / 2;
		snprintf(text, sizeof(text), "insn %d.%llu", cpu,
			 (unsigned long long)k);
		if (g.v[i].cpu != cpu || g.v[i].u.range.start != k ||
		    g.v[i].time != i + 1 || strcmp(g.text[i], text))
			bad++;
		per_cpu[g.v[i].cpu & 1]++;
	}
	CHECK_INT(bad, 0);
	CHECK_INT(per_cpu[0], N);
	CHECK_INT(per_cpu[1], N);
	struct hwt_merge_stats st;
	hwt_merge_get_stats(m, &st);
	CHECK(st.spilled_bytes > 10u * 1024 * 1024);
	hwt_merge_free(m);
	free(g.v);
	free(g.text);
}

/* A pseudo-random element of every type in turn, with its strings and
 * branches; @k picks it, the same @k gives the same element. */
static uint64_t mix(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdull;
	k ^= k >> 33;
	return k;
}

struct any_elem {
	struct hwt_elem e;
	char text[24];
	struct hwt_branch_entry br[3];
};

static void make_any(uint64_t k, int32_t cpu, uint64_t time,
		     struct any_elem *a)
{
	uint64_t r = mix(k + 1);
	struct hwt_elem *e = &a->e;
	hwt_elem_clear(e, (enum hwt_elem_type)(k % (HWT_ELEM_SAMPLE + 1)));
	e->fields = HWT_FIELD_CPU | HWT_FIELD_TIME | (uint32_t)(r & 0x3c);
	e->cpu = cpu;
	e->pid = (int32_t)(r >> 8 & 0xffff) - 1;
	e->tid = (int32_t)(r >> 24 & 0xff);
	e->time = time;
	e->trace_offset = r % 3 ? k * 16 : UINT64_MAX - k;
	snprintf(a->text, sizeof(a->text), "s%llu", (unsigned long long)k);
	const char *text = r >> 40 & 1 ? a->text : NULL;
	switch (e->type) {
	case HWT_ELEM_RANGE:
		e->u.range.start = 0x400000 + (r >> 20 & 0xffff);
		e->u.range.end = e->u.range.start + (r & 31);
		e->u.range.insns = r & 7;
		e->u.range.isa = (enum hwt_isa)(r % 7);
		e->u.range.text = text;
		break;
	case HWT_ELEM_BRANCH:
		e->u.branch.from = r;
		e->u.branch.to = ~r;
		e->u.branch.kind = (enum hwt_branch_kind)(r % 5);
		e->u.branch.exception = (uint32_t)(r >> 50);
		break;
	case HWT_ELEM_GAP:
		e->u.gap.reason = (enum hwt_gap_reason)(r % 3);
		e->u.gap.bytes = r >> 30;
		e->u.gap.detail = text;
		break;
	case HWT_ELEM_ERROR:
		e->u.error.message = text ? text : "";
		break;
	case HWT_ELEM_SAMPLE:
		e->u.sample.ip = r;
		e->u.sample.period = r >> 3;
		e->u.sample.window = r >> 5;
		e->u.sample.sync = r >> 7;
		e->u.sample.nbranches = r % 4;
		for (size_t i = 0; i < e->u.sample.nbranches; i++)
			a->br[i] = (struct hwt_branch_entry){r + i, r - i,
							     HWT_BRANCH_CALL};
		e->u.sample.branches = e->u.sample.nbranches ? a->br : NULL;
		break;
	default:
		e->u.trace.at = r;
		break;
	}
}

/* The element's pointer, whichever its type has; NULL when none. */
static const void *pointer_in(struct hwt_elem *e)
{
	switch (e->type) {
	case HWT_ELEM_RANGE:
		return e->u.range.text;
	case HWT_ELEM_GAP:
		return e->u.gap.detail;
	case HWT_ELEM_ERROR:
		return e->u.error.message;
	case HWT_ELEM_SAMPLE:
		return e->u.sample.branches;
	default:
		return NULL;
	}
}

static void clear_pointer(struct hwt_elem *e)
{
	switch (e->type) {
	case HWT_ELEM_RANGE:
		e->u.range.text = NULL;
		break;
	case HWT_ELEM_GAP:
		e->u.gap.detail = NULL;
		break;
	case HWT_ELEM_ERROR:
		e->u.error.message = NULL;
		break;
	case HWT_ELEM_SAMPLE:
		e->u.sample.branches = NULL;
		break;
	default:
		break;
	}
}

struct exact {
	size_t n, bad_fields, bad_data, misaligned;
};

/* Compares @got with @want, counting into @x what differs: its fields,
 * what its pointer points to, and a sample's branches not at an 8-byte
 * boundary. */
static void compare_exact(struct exact *x, const struct hwt_elem *got,
			  const struct any_elem *want)
{
	struct hwt_elem g = *got, w = want->e;
	const void *gp = pointer_in(&g), *wp = pointer_in(&w);
	if (g.type == HWT_ELEM_SAMPLE) {
		if (gp && (uintptr_t)gp % 8)
			x->misaligned++;
		bool same = (gp == NULL) == (wp == NULL);
		for (size_t i = 0; same && wp && i < g.u.sample.nbranches; i++)
			same = g.u.sample.branches[i].from == want->br[i].from &&
			       g.u.sample.branches[i].to == want->br[i].to &&
			       g.u.sample.branches[i].kind == want->br[i].kind;
		x->bad_data += !same;
	} else if ((gp == NULL) != (wp == NULL) ||
		   (wp && strcmp(gp, wp))) {
		x->bad_data++;
	}
	clear_pointer(&g);
	clear_pointer(&w);
	x->bad_fields += memcmp(&g, &w, sizeof(g)) != 0;
}

static int check_exact(void *arg, const struct hwt_elem *got)
{
	struct exact *x = arg;
	/* The two CPUs alternate by time: the n-th out is CPU n % 2's
	 * (n / 2)-th element. */
	struct any_elem want;
	make_any(x->n, (int32_t)(x->n % 2), x->n + 1, &want);
	compare_exact(x, got, &want);
	x->n++;
	return 0;
}

/* Every type, field and pointer through the compact records. */
static void test_every_type_round_trips(void)
{
	enum { N = 120000 };
	struct exact x = {0};
	struct hwt_elem_sink out = {check_exact, &x};
	struct hwt_merge *m;
	CHECK_INT(hwt_merge_new(&out, &m), 0);
	struct hwt_elem_sink in = hwt_merge_sink(m);
	for (int32_t cpu = 1; cpu >= 0; cpu--)
		for (uint64_t i = 0; i < N; i++) {
			struct any_elem a;
			uint64_t k = 2 * i + (uint64_t)cpu;
			make_any(k, cpu, k + 1, &a);
			CHECK(in.emit(in.arg, &a.e) == 0);
		}
	CHECK_INT(hwt_merge_finish(m), 0);
	CHECK_INT(x.n, 2 * N);
	CHECK_INT(x.bad_fields, 0);
	CHECK_INT(x.bad_data, 0);
	CHECK_INT(x.misaligned, 0);
	struct hwt_merge_stats st;
	hwt_merge_get_stats(m, &st);
	CHECK(st.spilled_bytes > 1024u * 1024);
	hwt_merge_free(m);
}

/* Each element of every type three times over at one time, then the
 * next: the second and third are repeats where nothing points anywhere.
 * All come back exactly, in order. */
static int check_repeat(void *arg, const struct hwt_elem *got)
{
	struct exact *x = arg;
	uint64_t k = x->n / 3;
	struct any_elem want;
	make_any(k, 0, 10 * k, &want);
	compare_exact(x, got, &want);
	x->n++;
	return 0;
}

static void test_repeats_round_trip(void)
{
	enum { N = 30000 };
	struct exact x = {0};
	struct hwt_elem_sink out = {check_repeat, &x};
	struct hwt_merge *m;
	CHECK_INT(hwt_merge_new(&out, &m), 0);
	struct hwt_elem_sink in = hwt_merge_sink(m);
	for (uint64_t k = 0; k < N; k++)
		for (int i = 0; i < 3; i++) {
			struct any_elem a;
			make_any(k, 0, 10 * k, &a);
			CHECK(in.emit(in.arg, &a.e) == 0);
		}
	CHECK_INT(hwt_merge_finish(m), 0);
	CHECK_INT(x.n, 3 * N);
	CHECK_INT(x.bad_fields, 0);
	CHECK_INT(x.bad_data, 0);
	CHECK_INT(x.misaligned, 0);
	hwt_merge_free(m);

	/* A million copies of one range: a byte each, but for the first of
	 * each block of 4096 records, in the file (all but the last chunk
	 * of up to 256 KiB, kept in memory). */
	enum { R = 1000000 };
	struct got g = {0};
	out = (struct hwt_elem_sink){collect, &g};
	CHECK_INT(hwt_merge_new(&out, &m), 0);
	in = hwt_merge_sink(m);
	struct hwt_elem e = elem(0, 7, 1000, 0x400000);
	for (size_t i = 0; i < R; i++)
		CHECK(in.emit(in.arg, &e) == 0);
	struct hwt_merge_stats st;
	hwt_merge_get_stats(m, &st);
	CHECK(st.spilled_bytes > R - 256u * 1024);
	CHECK(st.spilled_bytes <= R + (R / 4096 + 1) * 64u);
	CHECK_INT(hwt_merge_finish(m), 0);
	CHECK_INT(g.n, R);
	size_t bad = 0;
	for (size_t i = 0; i < g.n; i++)
		bad += memcmp(&g.v[i], &e, sizeof(e)) != 0;
	CHECK_INT(bad, 0);
	hwt_merge_free(m);
	free(g.v);
	free(g.text);
}

/* The writer finds an element's pointer by a table, the rest of the
 * library by hwt_elem_pointer's switch. */
static void test_pointer_table(void)
{
	for (unsigned t = 0; t < MERGE_ELEM_TYPES; t++) {
		struct hwt_elem e;
		hwt_elem_clear(&e, (enum hwt_elem_type)t);
		const void **ptr = hwt_elem_pointer(&e);
		size_t want = ptr ? (size_t)((const char *)ptr -
					     (const char *)&e) / 8
				  : 0;
		printf("type %u: pointer word %zu\n", t, want);
		CHECK_INT(merge_ptr_word[t], want);
	}
}

int main(void)
{
	test_pointer_table();
	test_interleaved();
	test_untimed_keeps_stream_order();
	test_spills();
	test_every_type_round_trips();
	test_repeats_round_trip();
	hwt_merge_free(NULL);
	printf("%d checks, %d failed\n", hwt_test_checks, hwt_test_failures);
	return hwt_test_failures != 0;
}
