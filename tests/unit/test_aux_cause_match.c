/* The cause of a trace on/off (core/decode/aux_cause.c), over a perf.data
 * file written here: a resume event, a pause event (perf_event_attr
 * aux_action, named in event_desc) and an ordinary sampling event, with
 * samples of two threads; then hand-made TRACE_ON/TRACE_OFF elements
 * through the cause sink. The rule is docs/decode.md's: the latest sample
 * of the element's kind of its thread (its CPU when it names none) at or
 * before its time (the AUX write's time when it has none), unless an
 * element before took it. Cases: the probe's own on/off (named), a
 * user-only trace's kernel entry and return in between (not named: the
 * kind is not theirs, the resume is taken), a thread without samples, an
 * untimed element of a CPU, and the ordinary event's sample, which causes
 * nothing. The writers' text and jsonl of a named element are checked
 * exactly, and one without a cause prints as before; a cause longer
 * than a line holds cuts the text line and is left out of a JSON one. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "core/decode/aux_cause.h"
#include "hwtrace/auxaction.h"
#include "hwtrace/error.h"
#include "hwtrace/output.h"
#include "hwtrace/perfdata.h"

#define ST (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | \
	    PERF_SAMPLE_TIME | PERF_SAMPLE_CPU)

/* A PERF_RECORD_SAMPLE of sample_type ST, fields in the kernel's order. */
struct sample_rec {
	struct perf_event_header h;
	uint64_t id, ip;
	uint32_t pid, tid;
	uint64_t time;
	uint32_t cpu, res;
};

static void add_attr(struct hwt_pd_writer *w, uint64_t id, uint32_t action,
		     const char *name)
{
	struct perf_event_attr a;
	memset(&a, 0, sizeof(a));
	a.type = PERF_TYPE_SOFTWARE;
	a.size = sizeof(a);
	a.sample_period = 1;
	a.sample_type = ST;
	a.sample_id_all = 1;
	hwt_attr_set_aux_action(&a, action);
	CHECK_INT(hwt_pd_writer_add_attr(w, &a, &id, 1, name), 0);
}

static void add_sample(struct hwt_pd_writer *w, uint64_t id, uint32_t tid,
		       uint32_t cpu, uint64_t time, uint64_t ip)
{
	struct sample_rec r = {
		.h = {PERF_RECORD_SAMPLE, 2 /* PERF_RECORD_MISC_USER */,
		      sizeof(r)},
		.id = id, .ip = ip, .pid = tid, .tid = tid, .time = time,
		.cpu = cpu};
	CHECK_INT(hwt_pd_writer_record(w, &r), 0);
}

/* The elements the sink passed on, kept. */
struct got {
	struct hwt_elem e[16];
	size_t n;
};

static int keep(void *arg, const struct hwt_elem *e)
{
	struct got *g = arg;
	if (g->n < 16)
		g->e[g->n++] = *e;
	return 0;
}

/* The untimed elements' AUX write: at 600. */
static uint64_t write_time(void *arg, const struct hwt_elem *e)
{
	(void)arg;
	return e->fields & HWT_FIELD_OFFSET ? 600 : 0;
}

static struct hwt_elem onoff(enum hwt_elem_type type, int32_t tid,
			     int32_t cpu, uint64_t time)
{
	struct hwt_elem e;
	hwt_elem_clear(&e, type);
	e.fields = HWT_FIELD_CPU | HWT_FIELD_AT;
	e.cpu = cpu;
	e.u.trace.at = 0x1000 + time;
	if (tid >= 0) {
		e.fields |= HWT_FIELD_TID | HWT_FIELD_PID;
		e.tid = e.pid = tid;
	}
	if (time) {
		e.fields |= HWT_FIELD_TIME;
		e.time = time;
	} else {
		e.fields |= HWT_FIELD_OFFSET;
		e.trace_offset = 64;
	}
	return e;
}

static const char *RESUME = "probe:f/aux-action=resume/";
static const char *PAUSE = "probe:f__return/aux-action=pause/";

static void check_cause(const struct hwt_elem *e, const char *name,
			uint64_t time, uint64_t ip)
{
	if (!name) {
		CHECK(e->u.trace.cause == NULL);
		return;
	}
	CHECK(e->u.trace.cause != NULL);
	if (!e->u.trace.cause)
		return;
	CHECK_STR(e->u.trace.cause, name);
	CHECK_U64(e->u.trace.cause_time, time);
	CHECK_U64(e->u.trace.cause_ip, ip);
}

static void test_match(const char *path)
{
	struct hwt_pd_writer *w = NULL;
	CHECK_INT(hwt_pd_writer_open(path, &w), 0);
	if (!w)
		return;
	add_attr(w, 1, HWT_AUX_RESUME, RESUME);
	add_attr(w, 2, HWT_AUX_PAUSE, PAUSE);
	add_attr(w, 3, 0, "cycles:u");
	add_sample(w, 1, 7, 1, 100, 0xa00);  /* thread 7: resume */
	add_sample(w, 3, 7, 1, 120, 0xc00);  /* an ordinary sample */
	add_sample(w, 1, 8, 2, 150, 0xa00);  /* thread 8 (CPU 2): resume */
	add_sample(w, 2, 7, 1, 200, 0xb00);  /* thread 7: pause */
	add_sample(w, 1, 7, 1, 300, 0xa00);  /* resume again */
	CHECK_INT(hwt_pd_writer_close(w), 0);

	struct hwt_pd_reader *r = NULL;
	CHECK_INT(hwt_pd_reader_open(path, &r), 0);
	if (!r)
		return;
	struct aux_causes c;
	memset(&c, 0, sizeof(c));
	struct hwt_pd_record rec;
	while (hwt_pd_reader_next(r, &rec) == 1)
		CHECK_INT(aux_causes_add(&c, r, &rec), 0);
	hwt_pd_reader_free(r);
	CHECK_INT(c.n, 4); /* the ordinary event's sample is not kept */
	CHECK_INT(aux_causes_finish(&c), 0);

	struct got g = {.n = 0};
	struct hwt_elem_sink next = {keep, &g};
	c.next = &next;
	c.time_of = write_time;
	struct hwt_elem_sink s = aux_causes_sink(&c);
	struct hwt_elem in[] = {
		onoff(HWT_ELEM_TRACE_ON, 7, 1, 100),  /* the resume's */
		onoff(HWT_ELEM_TRACE_OFF, 7, 1, 150), /* kernel entry */
		onoff(HWT_ELEM_TRACE_ON, 7, 1, 160),  /* kernel return */
		onoff(HWT_ELEM_TRACE_OFF, 7, 1, 200), /* the pause's */
		onoff(HWT_ELEM_TRACE_ON, 7, 1, 310),  /* the resume at 300's */
		onoff(HWT_ELEM_TRACE_OFF, 7, 1, 399), /* the pause is taken */
		onoff(HWT_ELEM_TRACE_ON, 9, 1, 1000), /* no samples of 9 */
		onoff(HWT_ELEM_TRACE_ON, -1, 2, 0),   /* CPU 2, at its write */
		onoff(HWT_ELEM_TRACE_ON, -1, 2, 0),   /* again: taken */
		onoff(HWT_ELEM_TRACE_ON, 7, 1, 99),   /* before any sample */
	};
	struct hwt_elem range;
	hwt_elem_clear(&range, HWT_ELEM_RANGE);
	range.u.range.start = 0xa00;
	range.u.range.end = 0xa04;
	for (size_t i = 0; i < sizeof(in) / sizeof(in[0]); i++)
		CHECK_INT(s.emit(s.arg, &in[i]), 0);
	CHECK_INT(s.emit(s.arg, &range), 0);
	CHECK_INT(g.n, 11);
	check_cause(&g.e[0], RESUME, 100, 0xa00);
	check_cause(&g.e[1], NULL, 0, 0);
	check_cause(&g.e[2], NULL, 0, 0);
	check_cause(&g.e[3], PAUSE, 200, 0xb00);
	check_cause(&g.e[4], RESUME, 300, 0xa00);
	check_cause(&g.e[5], NULL, 0, 0);
	check_cause(&g.e[6], NULL, 0, 0);
	check_cause(&g.e[7], RESUME, 150, 0xa00);
	check_cause(&g.e[8], NULL, 0, 0);
	check_cause(&g.e[9], NULL, 0, 0);
	CHECK_INT(g.e[10].type, HWT_ELEM_RANGE);
	CHECK_U64(g.e[10].u.range.end, 0xa04);
	/* Everything else passes unchanged. */
	for (size_t i = 0; i < 10; i++) {
		struct hwt_elem a = g.e[i];
		a.u.trace.cause = NULL;
		a.u.trace.cause_time = a.u.trace.cause_ip = 0;
		CHECK(!memcmp(&a, &in[i], sizeof(a)));
	}

	/* The writers: the cause ends the line, in both formats. */
	char buf[512];
	hwt_elem_format(&g.e[3], HWT_OUTPUT_TEXT, buf, sizeof(buf));
	CHECK_STR(buf, "[001]      7 200: trace off at 0x10c8 "
		       "(pause: probe:f__return/aux-action=pause/)");
	hwt_elem_format(&g.e[0], HWT_OUTPUT_JSONL, buf, sizeof(buf));
	CHECK_STR(buf, "{\"type\":\"trace_on\",\"cpu\":1,\"pid\":7,\"tid\":7,"
		       "\"at\":\"0x1064\",\"time\":100,"
		       "\"cause\":\"probe:f/aux-action=resume/\","
		       "\"cause_time\":100,\"cause_ip\":\"0xa00\"}");
	hwt_elem_format(&g.e[1], HWT_OUTPUT_TEXT, buf, sizeof(buf));
	CHECK_STR(buf, "[001]      7 150: trace off at 0x1096");
	/* The buffered output writes the same lines. */
	char *mem = NULL;
	size_t memlen = 0;
	FILE *f = open_memstream(&mem, &memlen);
	CHECK(f != NULL);
	if (f) {
		struct hwt_output *o = hwt_output_new(f, HWT_OUTPUT_TEXT);
		struct hwt_elem_sink os = hwt_output_sink(o);
		CHECK_INT(os.emit(os.arg, &g.e[7]), 0);
		CHECK_INT(os.emit(os.arg, &g.e[8]), 0);
		hwt_output_free(o);
		fclose(f);
		CHECK_STR(mem, "[002] trace on  at 0x1000 "
			       "(resume: probe:f/aux-action=resume/)\n"
			       "[002] trace on  at 0x1000\n");
		free(mem);
	}
	aux_causes_free(&c);
}

/* A name longer than a line holds (the file's event_desc may say
 * anything): text keeps what fits, a JSON line leaves the cause out
 * rather than cut its string, and both lines still end. */
static void test_long_name(void)
{
	size_t len = 10000;
	char *name = malloc(len + 1);
	CHECK(name != NULL);
	if (!name)
		return;
	memset(name, 'n', len);
	name[len] = 0;
	struct hwt_elem e = onoff(HWT_ELEM_TRACE_ON, 7, 1, 100);
	e.u.trace.cause = name;
	for (int json = 0; json < 2; json++) {
		char *mem = NULL;
		size_t memlen = 0;
		FILE *f = open_memstream(&mem, &memlen);
		CHECK(f != NULL);
		if (!f)
			break;
		struct hwt_output *o = hwt_output_new(f, json ? HWT_OUTPUT_JSONL
							     : HWT_OUTPUT_TEXT);
		struct hwt_elem_sink os = hwt_output_sink(o);
		CHECK_INT(os.emit(os.arg, &e), 0);
		hwt_output_free(o);
		fclose(f);
		if (json) {
			CHECK_STR(mem, "{\"type\":\"trace_on\",\"cpu\":1,"
				       "\"pid\":7,\"tid\":7,\"at\":\"0x1064\","
				       "\"time\":100}\n");
		} else {
			CHECK_CONTAINS(mem, "[001]      7 100: trace on  at 0x1064 (resume: nnnn");
			CHECK(memlen > 4096 && memlen < len);
			CHECK(memlen && mem[memlen - 1] == '\n');
		}
		free(mem);
	}
	free(name);
}

int main(void)
{
	test_long_name();
	char dir[] = "/tmp/hwt-aux-cause-XXXXXX";
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	char path[64];
	snprintf(path, sizeof(path), "%s/causes.data", dir);
	test_match(path);
	unlink(path);
	rmdir(dir);
	printf("%d checks, %d failed\n", hwt_test_checks, hwt_test_failures);
	return hwt_test_failures != 0;
}
