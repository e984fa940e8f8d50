/* `decode --snapshot` isolated (core/decode/decode_snapshot.c, the
 * snapshot_dir op's run_buffer, hwt_isolation_call): each trace buffer is
 * decoded by OpenCSD in a sandboxed worker forked once the buffer is read
 * and the image built.
 *
 * The oracle for every snapshot of the shared test data is the same
 * decode in this process (HWT_ISOLATE_OFF), whose elements
 * test_cs_snapshot_matches_opencsd checks against trc_pkt_lister. A wild
 * read in a real decode is made by the test's on_image callback, which
 * takes the read permission off the memory dumps' mappings after the
 * image is built and before the first worker is forked: the worker
 * faults at its first code read, this process never reads them. The
 * hang, the call the filter refuses and a decoder's own error are
 * hwt_isolation_call's, with calls of the test's own. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/decode/decode_isolate.h"
#include "elem_text.h"
#include "harness.h"
#include "hwtrace/backend.h"
#include "hwtrace/decode.h"
#include "hwtrace/error.h"

#define SS HWT_TESTDATA "/opencsd/"

static const char *const snapshots[] = {
	"Snowball", "a57_single_step", "ete-ite-instr", "ete_mem",
	"ete_spec_1", "init-short-addr", "q_elem", "src_addr",
	"tme_simple", "trace_cov_a15", "ts_marker",
};

/* What a decode gave, and what the test's callbacks did during it. */
struct run {
	struct elem_text text;
	int images;       /* on_image calls */
	int errors;       /* error elements */
	char error[1200]; /* the first one's message (the text's lines are
			   * cut at 512 bytes) */
	const char *protect; /* take the read permission off this dir's
			      * mappings in on_image, give it back at the
			      * first error element */
};

/* The mappings of files under @dir_in (the image's memory dumps) get
 * @prot. /proc/self/maps names them by their real path: a test data
 * path through ".." (a checkout's ../shared) or a symlink is resolved. */
static void protect_dumps(const char *dir_in, int prot)
{
	char dir[PATH_MAX + 1];
	if (!realpath(dir_in, dir))
		abort();
	strcat(dir, "/");
	FILE *f = fopen("/proc/self/maps", "r");
	char line[4096];
	while (f && fgets(line, sizeof(line), f)) {
		unsigned long lo, hi;
		char *path = strchr(line, '/');
		if (!path || sscanf(line, "%lx-%lx", &lo, &hi) != 2 ||
		    strncmp(path, dir, strlen(dir)) != 0)
			continue;
		if (mprotect((void *)lo, hi - lo, prot))
			abort();
	}
	if (f)
		fclose(f);
}

static void on_image(void *arg, struct hwt_image *image)
{
	struct run *r = arg;
	r->images += image != NULL;
	if (r->protect)
		protect_dumps(r->protect, PROT_NONE);
}

static int add(void *arg, const struct hwt_elem *e)
{
	struct run *r = arg;
	if (e->type == HWT_ELEM_ERROR && !r->errors++) {
		snprintf(r->error, sizeof(r->error), "%s", e->u.error.message);
		if (r->protect)
			protect_dumps(r->protect, PROT_READ);
	}
	return elem_text_add(&r->text, e);
}

static int decode(const char *dir, enum hwt_isolate isolate, bool disasm,
		  struct run *r)
{
	const char *protect = r->protect;
	memset(r, 0, sizeof(*r));
	r->protect = protect;
	struct hwt_decode_opts o = {.size = sizeof(o), .isolate = isolate,
				    .isolate_timeout_ms = 5000,
				    .disasm = disasm, .on_image = on_image,
				    .on_image_arg = r};
	struct hwt_elem_sink sink = {add, r};
	return hwt_decode_snapshot_dir(dir, &o, &sink);
}

static size_t lines(const char *s)
{
	size_t n = 0;
	for (; s && (s = strchr(s, '\n')); s++)
		n++;
	return n;
}

/* Every snapshot, with and without --disasm: the same elements, strings
 * included, and the image given to on_image once, in this process. */
static void test_same_as_in_process(void)
{
	size_t total = 0;
	for (size_t i = 0; i < sizeof(snapshots) / sizeof(*snapshots); i++) {
		char dir[512];
		snprintf(dir, sizeof(dir), SS "%s", snapshots[i]);
		for (int disasm = 0; disasm < 2; disasm++) {
			struct run in, iso;
			CHECK_INT(decode(dir, HWT_ISOLATE_OFF, disasm, &in), 0);
			CHECK_INT(decode(dir, HWT_ISOLATE_ON, disasm, &iso), 0);
			CHECK(in.text.s && iso.text.s &&
			      !strcmp(in.text.s, iso.text.s));
			CHECK_INT(iso.images, 1);
			if (!disasm)
				total += lines(iso.text.s);
			free(in.text.s);
			free(iso.text.s);
		}
	}
	/* The positive control: the elements of all eleven snapshots, as
	 * many as `hwtrace decode --no-isolate --snapshot` prints lines for
	 * them (2555 Snowball, 749 q_elem, ...). */
	CHECK_INT((int)total, 11865);
}

/* q_elem's one core traces one of its two sources ([core_trace_sources]
 * names cpu_0 twice, the last wins), so only ETB_2 decodes. The test's
 * copy of it in @dst gives ETB_1's source a core of its own, cpu_1 (the
 * same memory dumps), so that two buffers decode, those of
 * @buffers ("buffer2,buffer1"): the same files, linked, and new INIs. */
static const char *const linked[] = {
	"cpu_0.ini", "ETE_0_s1.ini", "ETE_0_s2.ini", "session1.bin",
	"session2.bin", "bindir_64",
};
static const char *const written[] = {"cpu_1.ini", "snapshot.ini",
				      "trace.ini"};

static void write_file(const char *dir, const char *name, const char *text)
{
	char path[1024];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	if (!f || fputs(text, f) < 0 || fclose(f))
		abort();
}

static void two_core_copy(const char *dst, const char *buffers)
{
	char a[1024], b[1024], text[4096];
	if (mkdir(dst, 0700))
		abort();
	for (size_t i = 0; i < sizeof(linked) / sizeof(*linked); i++) {
		snprintf(a, sizeof(a), SS "q_elem/%s", linked[i]);
		snprintf(b, sizeof(b), "%s/%s", dst, linked[i]);
		if (symlink(a, b))
			abort();
	}
	/* cpu_1.ini: cpu_0.ini under the other name. */
	FILE *in = fopen(SS "q_elem/cpu_0.ini", "r");
	size_t n = in ? fread(text, 1, sizeof(text) - 1, in) : 0;
	if (!in || n == 0 || n == sizeof(text) - 1)
		abort();
	fclose(in);
	text[n] = 0;
	char *name = strstr(text, "name=cpu_0");
	if (!name)
		abort();
	name[strlen("name=cpu_")] = '1';
	write_file(dst, "cpu_1.ini", text);
	write_file(dst, "snapshot.ini",
		   "[snapshot]\nversion=1.0\n\n[device_list]\n"
		   "device0=cpu_0.ini\ndevice1=ETE_0_s1.ini\n"
		   "device2=ETE_0_s2.ini\ndevice3=cpu_1.ini\n\n"
		   "[trace]\nmetadata=trace.ini\n");
	snprintf(text, sizeof(text),
		 "[trace_buffers]\nbuffers=%s\n\n"
		 "[buffer2]\nname=ETB_2\nfile=session2.bin\nformat=source_data\n\n"
		 "[buffer1]\nname=ETB_1\nfile=session1.bin\nformat=source_data\n\n"
		 "[source_buffers]\nETE_0_s1=ETB_1\nETE_0_s2=ETB_2\n\n"
		 "[core_trace_sources]\ncpu_0=ETE_0_s2\ncpu_1=ETE_0_s1\n",
		 buffers);
	write_file(dst, "trace.ini", text);
}

static void rm_copy(const char *dst)
{
	char b[1024];
	for (size_t i = 0; i < sizeof(linked) / sizeof(*linked); i++) {
		snprintf(b, sizeof(b), "%s/%s", dst, linked[i]);
		unlink(b);
	}
	for (size_t i = 0; i < sizeof(written) / sizeof(*written); i++) {
		snprintf(b, sizeof(b), "%s/%s", dst, written[i]);
		unlink(b);
	}
	rmdir(dst);
}

/* A wild read in the first buffer (ETB_2, session2.bin) costs that
 * buffer: one error element names it, the second buffer (ETB_1) decodes
 * in a fresh worker as it does alone, and the decode fails at its end. */
static void test_wild_read_costs_the_buffer(void)
{
	char tmp[] = "/tmp/snapiso-XXXXXX";
	if (!mkdtemp(tmp))
		abort();
	char both[600], alone[600];
	snprintf(both, sizeof(both), "%s/both", tmp);
	snprintf(alone, sizeof(alone), "%s/etb1", tmp);
	two_core_copy(both, "buffer2,buffer1");
	two_core_copy(alone, "buffer1");
	struct run tail = {0}, whole = {0}, first = {0}, iso = {0};
	CHECK_INT(decode(alone, HWT_ISOLATE_OFF, false, &tail), 0);
	CHECK_INT(decode(both, HWT_ISOLATE_OFF, false, &whole), 0);
	CHECK_INT(decode(SS "q_elem", HWT_ISOLATE_OFF, false, &first), 0);
	/* The positive control: both buffers have elements (ETB_2's are
	 * q_elem's own), the whole is ETB_2's and then ETB_1's. */
	CHECK(lines(tail.text.s) > 100);
	CHECK(lines(first.text.s) > 100);
	CHECK_INT((int)lines(whole.text.s),
		  (int)(lines(first.text.s) + lines(tail.text.s)));

	iso.protect = SS "q_elem/";
	CHECK_INT(decode(both, HWT_ISOLATE_ON, false, &iso), HWT_ERR_DECODE);
	/* The bytes: the whole buffer file's (729). */
	struct stat st;
	CHECK_INT(stat(SS "q_elem/session2.bin", &st), 0);
	CHECK_INT((int)st.st_size, 729);
	char msg[1024];
	snprintf(msg, sizeof(msg), "cs_etm decoder's worker process was "
		 "killed by signal 11 (Segmentation fault) while it decoded "
		 "the snapshot's buffer ETB_2 (%s/session2.bin), bytes "
		 "0x0-0x%llx: those bytes are not decoded, the rest of the "
		 "trace is (docs/decode.md, \"Isolated decoders\")", both,
		 (unsigned long long)st.st_size);
	char want[1200];
	snprintf(want, sizeof(want), "1 part of the trace could not be "
		 "decoded: the cs_etm decoder's worker process crashed or "
		 "stopped answering (the error elements name each stream and "
		 "byte range; the first: %s)", msg);
	CHECK_STR(hwt_errmsg(), want);
	CHECK_INT(iso.errors, 1);
	CHECK_STR(iso.error, msg);
	/* The error element first (what the worker had not handed over
	 * was lost with it), then the second buffer's elements exactly. */
	char head[64];
	snprintf(head, sizeof(head), "%d 10 c0 p0 t0 @0 o0 cs_etm decoder's ",
		 HWT_ELEM_ERROR);
	const char *rest = iso.text.s ? strchr(iso.text.s, '\n') : NULL;
	CHECK(rest && !strncmp(iso.text.s, head, strlen(head)));
	CHECK(rest && tail.text.s && !strcmp(rest + 1, tail.text.s));
	free(tail.text.s);
	free(whole.text.s);
	free(first.text.s);
	free(iso.text.s);
	rm_copy(both);
	rm_copy(alone);
	rmdir(tmp);
}

/* hwt_isolation_call with calls of the test's own. */
static const struct hwt_decoder_ops probe_ops = {0};
static const struct hwt_backend probe = {
	.name = "snapiso_probe",
	.description = "the snapshot isolation test's backend",
	.decoder = &probe_ops,
};

/* Set in this process just before the call: the worker sees it. */
static uint64_t before_fork;

static int call_emit(void *ctx, const struct hwt_elem_sink *sink)
{
	(void)ctx;
	struct hwt_elem e;
	int err = 0;
	/* Three parts of the ring and more. */
	for (uint64_t i = 0; i < 40000 && !err; i++) {
		hwt_elem_clear(&e, HWT_ELEM_RANGE);
		e.u.range.start = before_fork + i * 4;
		e.u.range.end = e.u.range.start + 4;
		e.u.range.insns = 1;
		err = sink->emit(sink->arg, &e);
	}
	return err;
}

static int call_hang(void *ctx, const struct hwt_elem_sink *sink)
{
	(void)ctx;
	(void)sink;
	for (;;)
		__asm__ volatile("");
	return 0;
}

static int call_open(void *ctx, const struct hwt_elem_sink *sink)
{
	(void)ctx;
	(void)sink;
	int fd = open("/etc/hostname", O_RDONLY);
	if (fd >= 0)
		close(fd);
	return 0;
}

static int call_error(void *ctx, const struct hwt_elem_sink *sink)
{
	(void)ctx;
	(void)sink;
	return hwt_error(HWT_ERR_FORMAT, "probe: buffer %d is not a trace", 7);
}

static int run_call(int (*fn)(void *, const struct hwt_elem_sink *),
		    struct run *r, int *close_err)
{
	memset(r, 0, sizeof(*r));
	struct hwt_decode_opts o = {.size = sizeof(o),
				    .isolate_timeout_ms = 300};
	struct hwt_isolation *iso;
	int err = hwt_isolation_open(&probe, &o, &iso);
	CHECK_INT(err, 0);
	if (err)
		return err;
	struct hwt_elem_sink sink = {add, r};
	err = hwt_isolation_call(iso, &sink, NULL, NULL, fn, NULL,
				 "the test's bytes 0x0-0x10");
	*close_err = hwt_isolation_close(iso, err);
	return err;
}

static void test_call_elements(void)
{
	struct run in = {0}, iso;
	int closed;
	before_fork = 0x7000;
	struct hwt_elem_sink sink = {add, &in};
	CHECK_INT(call_emit(NULL, &sink), 0);
	CHECK_INT(run_call(call_emit, &iso, &closed), 0);
	CHECK_INT(closed, 0);
	CHECK_INT(lines(iso.text.s), 40000);
	CHECK(in.text.s && iso.text.s && !strcmp(in.text.s, iso.text.s));
	CHECK_CONTAINS(iso.text.s, " 7000-7004/1 ");
	free(in.text.s);
	free(iso.text.s);
}

/* A lost worker: the error element, 0 from the call, the close's error. */
static void check_lost(int (*fn)(void *, const struct hwt_elem_sink *),
		       const char *how)
{
	struct run r;
	int closed;
	CHECK_INT(run_call(fn, &r, &closed), 0);
	char msg[600];
	snprintf(msg, sizeof(msg), "snapiso_probe decoder's worker process "
		 "%s while it decoded the test's bytes 0x0-0x10: those bytes are "
		 "not decoded, the rest of the trace is (docs/decode.md, "
		 "\"Isolated decoders\")", how);
	CHECK_INT(r.errors, 1);
	CHECK_STR(r.error, msg);
	CHECK_INT((int)lines(r.text.s), 1);
	CHECK_INT(closed, HWT_ERR_DECODE);
	CHECK_CONTAINS(hwt_errmsg(), "1 part of the trace could not be decoded");
	CHECK_CONTAINS(hwt_errmsg(), how);
	free(r.text.s);
}

static void test_call_hang(void)
{
	check_lost(call_hang, "did not answer for 300 ms (it was stopped)");
}

/* The call's worker is under the filter: open() ends it. */
static void test_call_sandboxed(void)
{
	check_lost(call_open, "was stopped by its sandbox (signal 31: it made "
		   "a system call decoding does not need, as a sanitizer's "
		   "report of a crash does)");
}

static void test_call_error(void)
{
	struct run r;
	int closed;
	CHECK_INT(run_call(call_error, &r, &closed), HWT_ERR_FORMAT);
	CHECK_STR(hwt_errmsg(), "probe: buffer 7 is not a trace");
	CHECK_INT(closed, HWT_ERR_FORMAT);
	CHECK(r.text.s == NULL);
}

int main(void)
{
	RUN(test_same_as_in_process);
	RUN(test_wild_read_costs_the_buffer);
	RUN(test_call_elements);
	RUN(test_call_hang);
	RUN(test_call_sandboxed);
	RUN(test_call_error);
	return hwt_test_summary();
}
