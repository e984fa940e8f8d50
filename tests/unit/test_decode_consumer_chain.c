/* hwt_decode_consumer (hwtrace/decode_consumer.h): perf script's -F lines
 * and the --comm filter in front of a decode, with the capture's thread
 * names, on the real ETM capture (simpleperf, Android) whose `perf script
 * --itrace=b` output perf 6.1 wrote beside it. The oracle: perf's 208
 * lines. Ours are the same lines byte for byte (comm, tid, flags, ip, dso,
 * addr) but for two places the two decoders are known to differ, and are
 * compared there field by field: the first trace on comes before any
 * sideband names its thread (perf takes the thread of the next sample,
 * hwtrace prints ":-1 -1" for an element of no thread), and the trace off
 * after a return, which perf marks "tr end  return" and hwtrace as a
 * branch that goes nowhere; hwtrace lists a last trace off perf leaves
 * out. The filters: --comm of the program keeps every line of its thread,
 * --comm of another name keeps none; without the capture's names (a pipe)
 * comm is perf's ":TID". hwt_capture_comm names the thread as perf
 * does. Then the refusals, and that a failed set-up
 * leaves the decode's image hook as it was. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"
#include "hwtrace/capture.h"
#include "hwtrace/decode_consumer.h"
#include "hwtrace/error.h"
#include "hwtrace/output.h"
#include "hwtrace/script.h"
#include "hwtrace/sym_setup.h"
#include "hwtrace/symbols.h"

#define DIR HWT_TESTDATA "/perf-data/simpleperf-etm"
#define CAPTURE DIR "/perf_etm.data"
#define FIELDS "comm,tid,flags,ip,dso,addr"
#define MAXLINES 512

struct lines {
	char *buf;
	char *line[MAXLINES];
	size_t n;
};

/* Splits @buf (owned by @l) into its lines; with @branches only, the
 * lines that are branches (perf's file starts with its warnings). */
static void split(struct lines *l, char *buf, int branches)
{
	l->buf = buf;
	l->n = 0;
	for (char *s = buf, *nl; s && *s; s = nl ? nl + 1 : NULL) {
		nl = strchr(s, '\n');
		if (nl)
			*nl = 0;
		if (branches && !strstr(s, " => "))
			continue;
		if (l->n < MAXLINES)
			l->line[l->n++] = s;
	}
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return NULL;
	char *buf = malloc(1 << 20);
	size_t n = buf ? fread(buf, 1, (1 << 20) - 1, f) : 0;
	fclose(f);
	if (buf)
		buf[n] = 0;
	return buf;
}

static char symfs[64];

/* --symfs holding the program where its MMAP2 record says it was. */
static int make_symfs(void)
{
	char dir[128];
	strcpy(symfs, "/tmp/hwt-consumer-symfs-XXXXXX");
	if (!mkdtemp(symfs))
		return -1;
	const char *parts[] = {"/data", "/data/local", "/data/local/tmp"};
	for (size_t i = 0; i < 3; i++) {
		snprintf(dir, sizeof(dir), "%s%s", symfs, parts[i]);
		if (mkdir(dir, 0700))
			return -1;
	}
	snprintf(dir, sizeof(dir), "%s/data/local/tmp/etm_test_loop", symfs);
	return symlink(DIR "/etm_test_loop", dir);
}

static void remove_symfs(void)
{
	char path[128];
	const char *parts[] = {"/data/local/tmp/etm_test_loop",
			       "/data/local/tmp", "/data/local", "/data", ""};
	for (size_t i = 0; i < 5; i++) {
		snprintf(path, sizeof(path), "%s%s", symfs, parts[i]);
		if (i == 0)
			unlink(path);
		else
			rmdir(path);
	}
}

/* Decodes the capture through a consumer made of @co (its out a memory
 * stream), the printer's sink being @printer; the lines into @l. */
static int decode_through(struct hwt_decode_consumer_opts co,
			  struct lines *l)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *out = open_memstream(&buf, &size);
	if (!out)
		return -1;
	struct hwt_output *printer = hwt_output_new(out, HWT_OUTPUT_TEXT);
	struct hwt_decode_opts opts = {.size = sizeof(opts)};
	opts.lookup.size = sizeof(opts.lookup);
	opts.lookup.symfs = symfs;
	/* The binaries' names for the dso field and the filters, hooked
	 * into the decode before the consumer, as hwtrace decode does. */
	struct hwt_sym_opts so = {.size = sizeof(so), .symfs = symfs,
				  .no_host_kallsyms = true};
	struct hwt_symbolizer *sym = NULL;
	if (hwt_symbolizer_new(&so, &sym))
		return -1;
	hwt_symbolizer_hook(sym, &opts, co.script_fields ? NULL : printer);
	co.sym = sym;
	co.out = out;
	co.next = hwt_output_sink(printer);
	struct hwt_decode_consumer *c = NULL;
	int err = hwt_decode_consumer_new(&co, &opts, &c);
	if (!err) {
		struct hwt_elem_sink sink = hwt_decode_consumer_sink(c);
		err = hwt_decode_file(CAPTURE, &opts, &sink);
	}
	if (err)
		fprintf(stderr, "decode: %s\n", hwt_errmsg());
	hwt_decode_consumer_free(c);
	hwt_output_free(printer);
	hwt_symbolizer_free(sym);
	fclose(out);
	split(l, buf, 0);
	return err;
}

static struct hwt_decode_consumer_opts fields_opts(const char *fields)
{
	struct hwt_decode_consumer_opts co = {
		.size = sizeof(co), .file = CAPTURE, .script_fields = 0,
		.out = NULL, .comms = NULL, .dsos = NULL, .syms = NULL,
		.sym = NULL, .next = {NULL, NULL},
	};
	CHECK_INT(hwt_script_fields_parse(fields, &co.script_fields), 0);
	return co;
}

static struct lines perf;

static void fields_match_perf_script(void)
{
	struct lines ours;
	CHECK_INT(decode_through(fields_opts(FIELDS), &ours), 0);
	CHECK_U64(perf.n, 208);
	CHECK_U64(ours.n, 209);
	if (perf.n != 208 || ours.n != 209)
		goto out;
	for (size_t i = 1; i < 208; i++) {
		if (i != 3)
			CHECK_STR(ours.line[i], perf.line[i]);
	}
	/* The first trace on: the same branch, before its thread is named. */
	CHECK_STR(strstr(ours.line[0], "tr strt"), strstr(perf.line[0], "tr strt"));
	CHECK(strncmp(ours.line[0], "             :-1    -1 ", 23) == 0);
	/* The trace off after a return: the same addresses. */
	CHECK_STR(strstr(ours.line[3], " 582b2b10ec "), strstr(perf.line[3], " 582b2b10ec "));
	CHECK(strstr(perf.line[3], "tr end  return") != NULL);
out:
	free(ours.buf);
}

static void comm_filter_keeps_the_thread(void)
{
	struct lines all, kept, none;
	CHECK_INT(decode_through(fields_opts(FIELDS), &all), 0);
	struct hwt_decode_consumer_opts co = fields_opts(FIELDS);
	co.comms = "etm_test_loop";
	CHECK_INT(decode_through(co, &kept), 0);
	/* Every line but the one of no thread. */
	CHECK_U64(kept.n, 208);
	for (size_t i = 0; i < kept.n && i + 1 < all.n; i++)
		CHECK_STR(kept.line[i], all.line[i + 1]);
	co.comms = "sh,etm_test";
	CHECK_INT(decode_through(co, &none), 0);
	CHECK_U64(none.n, 0);
	free(all.buf);
	free(kept.buf);
	free(none.buf);
}

/* --dso: the branches whose source is in the program (the dso column
 * before "=>"); a trace on comes from nowhere and is not among them. */
static void dso_filter_keeps_the_program(void)
{
	struct lines all, kept;
	CHECK_INT(decode_through(fields_opts(FIELDS), &all), 0);
	struct hwt_decode_consumer_opts co = fields_opts(FIELDS);
	co.dsos = "etm_test_loop";
	CHECK_INT(decode_through(co, &kept), 0);
	size_t j = 0, trace_on = 0;
	for (size_t i = 0; i < all.n; i++) {
		trace_on += strstr(all.line[i], "tr strt") != NULL;
		if (!strstr(all.line[i], "(/data/local/tmp/etm_test_loop) =>"))
			continue;
		if (j < kept.n)
			CHECK_STR(kept.line[j], all.line[i]);
		j++;
	}
	CHECK_U64(kept.n, j);
	CHECK(trace_on > 0);
	CHECK_U64(kept.n + trace_on, all.n);
	free(all.buf);
	free(kept.buf);
}

/* The filter alone in front of the printer: --comm without -F. */
static void comm_filter_before_the_printer(void)
{
	struct lines all, kept;
	struct hwt_decode_consumer_opts co = fields_opts("ip");
	co.script_fields = 0;
	CHECK_INT(decode_through(co, &all), 0);
	co.comms = "etm_test_loop";
	CHECK_INT(decode_through(co, &kept), 0);
	CHECK(all.n > kept.n);
	CHECK(kept.n > 200);
	/* What the filter keeps is the printer's own lines, in order. */
	size_t j = 0;
	for (size_t i = 0; i < all.n && j < kept.n; i++)
		if (!strcmp(all.line[i], kept.line[j]))
			j++;
	CHECK_U64(j, kept.n);
	free(all.buf);
	free(kept.buf);
}

/* No names (a pipe): perf's ":TID" in the comm column, 16 wide. */
static void no_names_from_a_pipe(void)
{
	struct lines ours;
	struct hwt_decode_consumer_opts co = fields_opts(FIELDS);
	co.file = "-";
	CHECK_INT(decode_through(co, &ours), 0);
	CHECK_U64(ours.n, 209);
	if (ours.n == 209) {
		char want[512];
		snprintf(want, sizeof(want), "%16s%s", ":17235",
			 perf.line[1] + 16);
		CHECK_STR(ours.line[1], want);
		CHECK(strncmp(perf.line[1], "   etm_test_loop", 16) == 0);
	}
	free(ours.buf);
}

/* The callback the chain names threads through: the name perf script
 * prints for tid 17235, none for a tid the capture never names nor
 * without a capture. */
static void capture_comm_names_threads(void)
{
	struct hwt_capture *cap = NULL;
	CHECK_INT(hwt_capture_open(CAPTURE, NULL, &cap), 0);
	CHECK(strncmp(perf.line[0], "   etm_test_loop 17235 ", 23) == 0);
	CHECK_STR(hwt_capture_comm(cap, 17235, 17235), "etm_test_loop");
	CHECK_STR(hwt_capture_comm(cap, -1, 17235), "etm_test_loop");
	CHECK(hwt_capture_comm(cap, 17235, 17236) == NULL);
	CHECK(hwt_capture_comm(NULL, 17235, 17235) == NULL);
	hwt_capture_free(cap);
}

static int images_seen;

static void count_image(void *arg, struct hwt_image *image)
{
	(void)arg;
	(void)image;
	images_seen++;
}

static void refusals(void)
{
	struct hwt_decode_consumer *c = (void *)&c;
	struct hwt_decode_opts opts = {.size = sizeof(opts)};
	opts.on_image = count_image;
	CHECK_INT(hwt_decode_consumer_new(NULL, &opts, &c), HWT_ERR_INVAL);
	CHECK(c == NULL);
	struct hwt_decode_consumer_opts co = fields_opts(FIELDS);
	co.size = 0;
	CHECK_INT(hwt_decode_consumer_new(&co, &opts, &c), HWT_ERR_INVAL);
	co = fields_opts(FIELDS);
	CHECK_INT(hwt_decode_consumer_new(&co, &opts, &c), HWT_ERR_INVAL);
	CHECK_STR(hwt_errmsg(), "hwt_decode_consumer_new: -F fields need an "
		  "output and the decode's options");
	co.out = stdout;
	CHECK_INT(hwt_decode_consumer_new(&co, NULL, &c), HWT_ERR_INVAL);

	/* The writer made, then the filter refused (--sym needs names): the
	 * decode's image hook is the one it had. */
	co.syms = "main";
	CHECK_INT(hwt_decode_consumer_new(&co, &opts, &c), HWT_ERR_INVAL);
	CHECK(c == NULL);
	CHECK(opts.on_image == count_image);
	CHECK(opts.on_image_arg == NULL);

	/* Names from a file that is not there: the capture's error. */
	co = fields_opts("ip");
	co.script_fields = 0;
	co.file = "/nonexistent/hwt-consumer.data";
	co.comms = "sh";
	CHECK(hwt_decode_consumer_new(&co, &opts, &c) < 0);
	CHECK(strstr(hwt_errmsg(), "/nonexistent/hwt-consumer.data") != NULL);
	/* Nothing asked that needs names: the file is not opened. */
	co.comms = NULL;
	co.syms = NULL;
	CHECK_INT(hwt_decode_consumer_new(&co, &opts, &c), 0);
	hwt_decode_consumer_free(c);
	hwt_decode_consumer_free(NULL);
}

/* The writer's image hook calls the one set before it. */
static void image_hook_chained(void)
{
	struct hwt_decode_opts opts = {.size = sizeof(opts)};
	opts.lookup.size = sizeof(opts.lookup);
	opts.lookup.symfs = symfs;
	opts.on_image = count_image;
	FILE *out = fopen("/dev/null", "w");
	struct hwt_decode_consumer_opts co = fields_opts("ip,addr,insn");
	co.out = out;
	struct hwt_decode_consumer *c = NULL;
	CHECK_INT(hwt_decode_consumer_new(&co, &opts, &c), 0);
	CHECK(opts.on_image != count_image);
	images_seen = 0;
	struct hwt_elem_sink sink = hwt_decode_consumer_sink(c);
	CHECK_INT(hwt_decode_file(CAPTURE, &opts, &sink), 0);
	CHECK(images_seen > 0);
	hwt_decode_consumer_free(c);
	if (out)
		fclose(out);
}

int main(void)
{
	CHECK_INT(make_symfs(), 0);
	split(&perf, slurp(DIR "/perf_etm.data.perf-script-itrace-b.txt"), 1);
	RUN(fields_match_perf_script);
	RUN(comm_filter_keeps_the_thread);
	RUN(dso_filter_keeps_the_program);
	RUN(comm_filter_before_the_printer);
	RUN(no_names_from_a_pipe);
	RUN(capture_comm_names_threads);
	RUN(refusals);
	RUN(image_hook_chained);
	free(perf.buf);
	remove_symfs();
	return hwt_test_summary();
}
