/* Isolated decoders (core/decode/decode_isolate.c) with a backend of the
 * test's own, whose decoder does what each segment of its raw stream
 * says: 'e' emits elements of every kind that has a string (and a
 * warning), 'b' emits a few MB of ranges with a gap whose text is
 * bigger than a part of the worker's ring (core/decode/isolate_proto.h)
 * among them, 's' reads an unmapped address, 'h' spins forever, 'o' opens a
 * file (which the sandbox refuses). Its split op cuts the stream before
 * every '|', so one raw decode feeds several segments in order. The
 * oracle for what survives is the same backend decoded in the process
 * (HWT_ISOLATE_OFF) on the segments that do not fail. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "harness.h"
#include "elem_text.h"
#include "hwtrace/backend.h"
#include "hwtrace/decode.h"
#include "hwtrace/error.h"

struct probe {
	const struct hwt_decode_params *p;
	struct hwt_decode_params params;
};

static int probe_create(const struct hwt_decode_params *params, void **priv)
{
	struct probe *d = calloc(1, sizeof(*d));
	if (!d)
		return HWT_ERR_NOMEM;
	d->params = *params;
	*priv = d;
	return 0;
}

static void probe_destroy(void *priv)
{
	free(priv);
}

static int emit_all(struct probe *d, const struct hwt_aux_chunk *c)
{
	static const struct hwt_branch_entry stack[2] = {{0x10, 0x20, HWT_BRANCH_CALL},
							 {0x30, 0x40, HWT_BRANCH_RETURN}};
	const struct hwt_elem_sink *s = d->params.sink;
	struct hwt_elem e;
	int err = 0;
	for (int i = 0; i < 3000 && !err; i++) { /* more than one batch */
		hwt_elem_clear(&e, HWT_ELEM_RANGE);
		e.fields = HWT_FIELD_OFFSET;
		e.trace_offset = c->offset;
		e.u.range.start = 0x1000 + (uint64_t)i * 4;
		e.u.range.end = e.u.range.start + 4;
		e.u.range.insns = 1;
		e.u.range.text = i % 2 ? "nop" : NULL;
		err = s->emit(s->arg, &e);
	}
	if (d->params.warn)
		d->params.warn(d->params.warn_arg, "probe: a warning");
	hwt_elem_clear(&e, HWT_ELEM_GAP);
	e.u.gap.reason = HWT_GAP_NO_IMAGE;
	e.u.gap.detail = "/lib/missing.so";
	if (!err)
		err = s->emit(s->arg, &e);
	hwt_elem_clear(&e, HWT_ELEM_ERROR);
	e.u.error.message = "probe: an error";
	if (!err)
		err = s->emit(s->arg, &e);
	hwt_elem_clear(&e, HWT_ELEM_SAMPLE);
	e.u.sample.branches = stack;
	e.u.sample.nbranches = 2;
	if (!err)
		err = s->emit(s->arg, &e);
	return err;
}

/* Ranges that fill the worker's ring several times over (a part is
 * read and given back many times), a gap with a text longer than a part
 * in their middle, each range of its own context so that a part holds
 * both kinds of record. */
static int emit_big(struct probe *d, const struct hwt_aux_chunk *c)
{
	enum { RANGES = 60000, DETAIL = 300 * 1024 };
	const struct hwt_elem_sink *s = d->params.sink;
	char *detail = malloc(DETAIL + 1);
	if (!detail)
		return HWT_ERR_NOMEM;
	for (int i = 0; i < DETAIL; i++)
		detail[i] = (char)('a' + i % 26);
	detail[DETAIL] = 0;
	struct hwt_elem e;
	int err = 0;
	for (int i = 0; i < RANGES && !err; i++) {
		if (i == RANGES / 2) {
			hwt_elem_clear(&e, HWT_ELEM_GAP);
			e.u.gap.reason = HWT_GAP_NO_IMAGE;
			e.u.gap.detail = detail;
			err = s->emit(s->arg, &e);
		}
		hwt_elem_clear(&e, HWT_ELEM_RANGE);
		e.fields = HWT_FIELD_OFFSET | (i % 3 ? 0 : HWT_FIELD_TID);
		e.tid = i % 7;
		e.trace_offset = c->offset + (uint64_t)i;
		e.u.range.start = 0x4000 + (uint64_t)i * 8;
		e.u.range.end = e.u.range.start + 8;
		e.u.range.insns = 2;
		if (!err)
			err = s->emit(s->arg, &e);
	}
	free(detail);
	return err;
}

static int probe_feed(void *priv, const struct hwt_aux_chunk *c)
{
	struct probe *d = priv;
	size_t i = c->size && c->data[0] == '|' ? 1 : 0;
	if (i >= c->size)
		return 0;
	switch (c->data[i]) {
	case 's': {
		/* An address no mapping has: a page unmapped just now. */
		long page = sysconf(_SC_PAGESIZE);
		volatile int *p = mmap(NULL, (size_t)page, PROT_READ,
				       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			abort();
		munmap((void *)p, (size_t)page);
		return *p;
	}
	case 'h':
		for (;;)
			__asm__ volatile("");
	case 'o': {
		int fd = open("/etc/hostname", O_RDONLY);
		if (fd >= 0)
			close(fd);
		return 0;
	}
	case 'x':
		return hwt_error(HWT_ERR_FORMAT, "probe: a format error");
	case 'b':
		return emit_big(d, c);
	default:
		return emit_all(d, c);
	}
}

static int probe_split(void *priv, const struct hwt_aux_chunk *c,
		       uint64_t *starts, size_t max)
{
	(void)priv;
	size_t n = 1;
	starts[0] = 0;
	for (uint64_t i = 1; i < c->size && n < max; i++)
		if (c->data[i] == '|')
			starts[n++] = i;
	return (int)n;
}

static const struct hwt_decoder_ops probe_ops = {
	.create = probe_create,
	.feed = probe_feed,
	.destroy = probe_destroy,
	.split = probe_split,
};

static const struct hwt_backend probe_backend = {
	.name = "isolate_probe",
	.description = "the isolated-decoder test's backend",
	.decoder = &probe_ops,
};

struct run {
	struct elem_text text;
	int warnings;
	char warning[1024];
};

static int add(void *arg, const struct hwt_elem *e)
{
	return elem_text_add(&((struct run *)arg)->text, e);
}

/* A parallel decode's threads each warn through it. */
static pthread_mutex_t warn_lock = PTHREAD_MUTEX_INITIALIZER;

static void on_warn(void *arg, const char *message)
{
	struct run *r = arg;
	pthread_mutex_lock(&warn_lock);
	r->warnings++;
	snprintf(r->warning, sizeof(r->warning), "%s", message);
	pthread_mutex_unlock(&warn_lock);
}

static char path[64];

/* More text than the worker's ring holds (1 MB): a segment of it went
 * round the ring. */
#define ISO_TEST_RING (1u << 20)

static int decode(const char *stream, enum hwt_isolate isolate,
		  unsigned int jobs, struct run *r)
{
	int fd = memfd_create("isolate-stream", 0);
	if (fd < 0 || write(fd, stream, strlen(stream)) != (ssize_t)strlen(stream))
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	memset(r, 0, sizeof(*r));
	struct hwt_decode_opts o = {.size = sizeof(o), .isolate = isolate,
				    .isolate_timeout_ms = 300, .jobs = jobs,
				    .warn = on_warn, .warn_arg = r};
	struct hwt_elem_sink sink = {add, r};
	int err = hwt_decode_raw("isolate_probe", NULL, path, &o, &sink);
	close(fd);
	return err;
}

/* The lines of @t that are error elements. */
static int count_errors(const struct run *r)
{
	int n = 0;
	for (const char *p = r->text.s; p && *p; p = strchr(p, '\n') + 1) {
		n += p[0] == '0' + HWT_ELEM_ERROR && p[1] == ' ';
		if (!strchr(p, '\n'))
			break;
	}
	return n;
}

/* Elements, strings and warnings come back as the process decodes them. */
static void test_same_as_in_process(void)
{
	struct run in, iso;
	CHECK_INT(decode("e|e|e", HWT_ISOLATE_OFF, 1, &in), 0);
	CHECK_INT(decode("e|e|e", HWT_ISOLATE_ON, 1, &iso), 0);
	CHECK(in.text.s && iso.text.s && !strcmp(in.text.s, iso.text.s));
	CHECK_INT(iso.warnings, 3);
	CHECK_STR(iso.warning, "probe: a warning");
	CHECK_CONTAINS(iso.text.s, "/lib/missing.so");
	CHECK_CONTAINS(iso.text.s, "probe: an error");
	free(in.text.s);
	/* On two threads, each with its own worker. */
	struct run two;
	CHECK_INT(decode("e|e|e", HWT_ISOLATE_ON, 2, &two), 0);
	CHECK(two.text.s && iso.text.s && !strcmp(two.text.s, iso.text.s));
	free(iso.text.s);
	free(two.text.s);
}

/* More elements than the worker's ring holds, and a record bigger than a
 * part of it, come back whole and in order. */
static void test_ring_wraps(void)
{
	struct run in, iso;
	CHECK_INT(decode("b|e|b", HWT_ISOLATE_OFF, 1, &in), 0);
	CHECK_INT(decode("b|e|b", HWT_ISOLATE_ON, 1, &iso), 0);
	CHECK(in.text.s && iso.text.s && !strcmp(in.text.s, iso.text.s));
	/* The positive control: the long text and the ranges are there. */
	CHECK_CONTAINS(iso.text.s, "xyzabcdefghijklmnopqrstuvwxyzabc");
	CHECK(iso.text.s && strlen(iso.text.s) > 4u * 1024 * 1024);
	free(in.text.s);
	free(iso.text.s);
}

/* A worker that crashes, hangs or makes a refused call costs its
 * segment: the error names its bytes, the next segment decodes in a new
 * worker, and the decode fails at its end. */
static void check_lost(const char *stream, const char *how)
{
	struct run in, iso;
	/* The oracle: the same stream with the failing segment empty. */
	char good[16];
	snprintf(good, sizeof(good), "e|%c|e", 'z');
	CHECK_INT(decode(good, HWT_ISOLATE_OFF, 1, &in), 0);
	CHECK_INT(decode(stream, HWT_ISOLATE_ON, 1, &iso), HWT_ERR_DECODE);
	CHECK_CONTAINS(hwt_errmsg(), "1 part of the trace could not be decoded");
	CHECK_CONTAINS(hwt_errmsg(), how);
	CHECK_INT(count_errors(&iso), 3);
	CHECK_CONTAINS(iso.text.s, "isolate_probe decoder's worker process");
	CHECK_CONTAINS(iso.text.s, how);
	CHECK_CONTAINS(iso.text.s, "the raw stream, AUX buffer 0, bytes 0x1-0x3");
	/* Line by line the same but for the lost segment's: its elements
	 * there (in) against one error (iso). */
	size_t in_lines = 0, iso_lines = 0;
	for (const char *p = in.text.s; p && (p = strchr(p, '\n')); p++)
		in_lines++;
	for (const char *p = iso.text.s; p && (p = strchr(p, '\n')); p++)
		iso_lines++;
	CHECK_INT(in_lines, 3 * 3003);
	CHECK_INT(iso_lines, 2 * 3003 + 1);
	/* The first and last segment's elements are the process's. */
	size_t seg = strlen(in.text.s) / 3;
	CHECK(iso.text.s && !strncmp(iso.text.s, in.text.s, seg));
	CHECK(iso.text.s && strlen(iso.text.s) > seg &&
	      !strcmp(iso.text.s + strlen(iso.text.s) - seg,
		      in.text.s + strlen(in.text.s) - seg));
	free(in.text.s);
	free(iso.text.s);
}

static void test_crash(void)
{
	check_lost("e|s|e", "was killed by signal 11");
}

/* A worker lost after it has gone round its ring many times: the next
 * worker starts the ring again, and the segments around the lost one
 * are the process's, to the byte. */
static void test_crash_after_ring_wrapped(void)
{
	struct run first, two, three, iso;
	CHECK_INT(decode("b", HWT_ISOLATE_OFF, 1, &first), 0);
	CHECK_INT(decode("b|e", HWT_ISOLATE_OFF, 1, &two), 0);
	CHECK_INT(decode("b|e|b", HWT_ISOLATE_OFF, 1, &three), 0);
	CHECK_INT(decode("b|s|b", HWT_ISOLATE_ON, 1, &iso), HWT_ERR_DECODE);
	CHECK_INT(count_errors(&iso), 1);
	CHECK_CONTAINS(iso.text.s, "was killed by signal 11");
	CHECK_CONTAINS(iso.text.s, "while it decoded the raw stream, AUX "
		       "buffer 0, bytes 0x1-0x3");
	size_t head = first.text.s ? strlen(first.text.s) : 0;
	size_t tail = three.text.s && two.text.s
			      ? strlen(three.text.s) - strlen(two.text.s) : 0;
	CHECK(head > ISO_TEST_RING && tail > ISO_TEST_RING);
	CHECK(iso.text.s && strlen(iso.text.s) > head + tail &&
	      !strncmp(iso.text.s, first.text.s, head) &&
	      !strcmp(iso.text.s + strlen(iso.text.s) - tail,
		      three.text.s + strlen(three.text.s) - tail));
	free(first.text.s);
	free(two.text.s);
	free(three.text.s);
	free(iso.text.s);
}

static void test_hang(void)
{
	check_lost("e|h|e", "did not answer for 300 ms");
}

static void test_refused_call(void)
{
	check_lost("e|o|e", "was stopped by its sandbox (signal 31");
}

/* A decoder's own error is returned as in the process, message too. */
static void test_decoder_error(void)
{
	struct run in, iso;
	int e1 = decode("e|x|e", HWT_ISOLATE_OFF, 1, &in);
	char msg[256];
	snprintf(msg, sizeof(msg), "%s", hwt_errmsg());
	CHECK_INT(e1, HWT_ERR_FORMAT);
	CHECK_INT(decode("e|x|e", HWT_ISOLATE_ON, 1, &iso), HWT_ERR_FORMAT);
	CHECK_STR(hwt_errmsg(), msg);
	CHECK(in.text.s && iso.text.s && !strcmp(in.text.s, iso.text.s));
	free(in.text.s);
	free(iso.text.s);
}

/* Positive control: without isolation the crash would be this
 * process's, so only the default (not isolated for this backend) and
 * OFF are checked to decode in the process: a stream that only opens a
 * file decodes there without a word. */
static void test_default_in_process(void)
{
	struct run r;
	CHECK_INT(decode("e|o|e", HWT_ISOLATE_DEFAULT, 1, &r), 0);
	CHECK_INT(count_errors(&r), 2);
	free(r.text.s);
}

int main(void)
{
	if (hwt_backend_register(&probe_backend) < 0) {
		fprintf(stderr, "register: %s\n", hwt_errmsg());
		return 1;
	}
	RUN(test_same_as_in_process);
	RUN(test_ring_wraps);
	RUN(test_crash);
	RUN(test_crash_after_ring_wrapped);
	RUN(test_hang);
	RUN(test_refused_call);
	RUN(test_decoder_error);
	RUN(test_default_in_process);
	return hwt_test_summary();
}
