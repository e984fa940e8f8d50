/* hwt_decode_raw_spec_parse and hwt_decode_input
 * (hwtrace/decode_input.h). --raw's BACKEND[,OPTS]:TRACE split at the
 * first ':' (a trace path keeps its own colons and commas), the options
 * after the backend's first ','; the refusals keep the spec whole and
 * carry the command's usage message. hwt_decode_input hands each kind to
 * its decode: the errors are those decodes' own (the oracle: the same
 * call made directly gives the same code and message). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"
#include "hwtrace/decode_input.h"
#include "hwtrace/error.h"

static void spec_split(void)
{
	struct hwt_decode_input in;
	char a[] = "cs_etm,etmv4,traceid=0x10:/tmp/x:y,z.bin";
	CHECK_INT(hwt_decode_raw_spec_parse(a, &in), 0);
	CHECK_U64(in.size, sizeof(in));
	CHECK_INT(in.kind, HWT_CAPTURE_RAW);
	CHECK_STR(in.backend, "cs_etm");
	CHECK_STR(in.backend_options, "etmv4,traceid=0x10");
	CHECK_STR(in.path, "/tmp/x:y,z.bin");
	char b[] = "intel_pt:trace.bin";
	CHECK_INT(hwt_decode_raw_spec_parse(b, &in), 0);
	CHECK_STR(in.backend, "intel_pt");
	CHECK(in.backend_options == NULL);
	CHECK_STR(in.path, "trace.bin");
}

static void spec_refused(void)
{
	const char *bad[] = {"intel_pt", ":trace.bin", "intel_pt:"};
	struct hwt_decode_input in;
	for (size_t i = 0; i < 3; i++) {
		char spec[32];
		strcpy(spec, bad[i]);
		CHECK_INT(hwt_decode_raw_spec_parse(spec, &in), HWT_ERR_CONFIG);
		char want[96];
		snprintf(want, sizeof(want), "--raw %s: expected "
			 "BACKEND[,OPTS]:TRACE", bad[i]);
		CHECK_STR(hwt_errmsg(), want);
		CHECK_STR(spec, bad[i]);
	}
	CHECK_INT(hwt_decode_raw_spec_parse(NULL, &in), HWT_ERR_INVAL);
}

static int drop(void *arg, const struct hwt_elem *e)
{
	(void)arg;
	(void)e;
	return 0;
}

/* Each kind reaches its own decode: the same error as the direct call. */
static void kinds_dispatched(void)
{
	struct hwt_decode_opts opts = {.size = sizeof(opts)};
	struct hwt_elem_sink sink = {drop, NULL};
	const char *nowhere = "/nonexistent/hwt-decode-input";
	char direct[512];

	struct hwt_decode_input in = {.size = sizeof(in),
		.kind = HWT_CAPTURE_PERF_DATA, .path = nowhere,
		.backend = NULL, .backend_options = NULL};
	int want = hwt_decode_file(nowhere, &opts, &sink);
	CHECK(want < 0);
	snprintf(direct, sizeof(direct), "%s", hwt_errmsg());
	CHECK_INT(hwt_decode_input(&in, &opts, &sink), want);
	CHECK_STR(hwt_errmsg(), direct);

	in.kind = HWT_CAPTURE_SNAPSHOT_DIR;
	want = hwt_decode_snapshot_dir(nowhere, &opts, &sink);
	CHECK(want < 0);
	snprintf(direct, sizeof(direct), "%s", hwt_errmsg());
	CHECK_INT(hwt_decode_input(&in, &opts, &sink), want);
	CHECK_STR(hwt_errmsg(), direct);

	in.kind = HWT_CAPTURE_RAW;
	in.backend = "no_such_backend";
	want = hwt_decode_raw("no_such_backend", NULL, nowhere, &opts, &sink);
	CHECK(want < 0);
	snprintf(direct, sizeof(direct), "%s", hwt_errmsg());
	CHECK_INT(hwt_decode_input(&in, &opts, &sink), want);
	CHECK_STR(hwt_errmsg(), direct);

	in.backend = NULL;
	CHECK_INT(hwt_decode_input(&in, &opts, &sink), HWT_ERR_INVAL);
	in.kind = HWT_CAPTURE_PERF_DATA;
	in.size = 0;
	CHECK_INT(hwt_decode_input(&in, &opts, &sink), HWT_ERR_INVAL);
	CHECK_INT(hwt_decode_input(NULL, &opts, &sink), HWT_ERR_INVAL);
}

/* --map FILE@ADDR and --elf FILE[@BIAS]: split at the last '@', the
 * number as the command reads numbers. */
static void map_specs_split(void)
{
	struct hwt_map_spec m;
	char map[] = "lib@x.so@0x400000";
	CHECK_INT(hwt_decode_map_spec_parse(map, false, &m), 0);
	CHECK_STR(m.path, "lib@x.so");
	CHECK_U64(m.vaddr, 0x400000);
	char dec[] = "code.bin@4096";
	CHECK_INT(hwt_decode_map_spec_parse(dec, false, &m), 0);
	CHECK_STR(m.path, "code.bin");
	CHECK_U64(m.vaddr, 4096);
	char oct[] = "code.bin@010";
	CHECK_INT(hwt_decode_map_spec_parse(oct, false, &m), 0);
	CHECK_U64(m.vaddr, 8);
	char elf[] = "prog";
	CHECK_INT(hwt_decode_map_spec_parse(elf, true, &m), 0);
	CHECK_STR(m.path, "prog");
	CHECK_U64(m.vaddr, 0);
	char biased[] = "prog@0x1000";
	CHECK_INT(hwt_decode_map_spec_parse(biased, true, &m), 0);
	CHECK_STR(m.path, "prog");
	CHECK_U64(m.vaddr, 0x1000);
	/* An --elf whose '@' is no bias keeps it in the file's name. */
	char named[] = "build@host/prog";
	CHECK_INT(hwt_decode_map_spec_parse(named, true, &m), 0);
	CHECK_STR(m.path, "build@host/prog");
	CHECK_U64(m.vaddr, 0);
	char lead[] = "@0x10";
	CHECK_INT(hwt_decode_map_spec_parse(lead, true, &m), 0);
	CHECK_STR(m.path, "@0x10");
	CHECK_U64(m.vaddr, 0);
}

static void map_refused(const char *spec)
{
	char buf[64], want[128];
	struct hwt_map_spec m = {"untouched", 7};
	snprintf(buf, sizeof(buf), "%s", spec);
	snprintf(want, sizeof(want), "--map %s: expected FILE@ADDR", spec);
	CHECK_INT(hwt_decode_map_spec_parse(buf, false, &m), HWT_ERR_CONFIG);
	CHECK_STR(hwt_errmsg(), want);
	CHECK_STR(buf, spec);
	CHECK_STR(m.path, "untouched");
}

static void map_specs_refused(void)
{
	map_refused("code.bin");
	map_refused("@0x1000");
	map_refused("code.bin@");
	map_refused("code.bin@0x10zz");
	map_refused("code.bin@-1");
	struct hwt_map_spec m;
	char spec[] = "a@1";
	CHECK_INT(hwt_decode_map_spec_parse(NULL, false, &m), HWT_ERR_INVAL);
	CHECK_INT(hwt_decode_map_spec_parse(spec, false, NULL), HWT_ERR_INVAL);
}

/* A perf.data FILE that is a directory: a snapshot's (snapshot.ini)
 * is told to use --snapshot; files and paths not there pass (the decode
 * reports those). */
static void directory_inputs_refused(void)
{
	char dir[] = "/tmp/hwt-input-check-XXXXXX";
	CHECK(mkdtemp(dir) != NULL);
	char file[128], ini[128], want[512];
	snprintf(file, sizeof(file), "%s/perf.data", dir);
	snprintf(ini, sizeof(ini), "%s/snapshot.ini", dir);
	struct hwt_decode_input in = {
		.size = sizeof(in), .kind = HWT_CAPTURE_PERF_DATA, .path = dir,
	};
	CHECK_INT(hwt_decode_input_check(&in), HWT_ERR_CONFIG);
	snprintf(want, sizeof(want), "%s is a directory, not a perf.data "
		 "capture (a snapshot directory is given with --snapshot "
		 "DIR)", dir);
	CHECK_STR(hwt_errmsg(), want);
	FILE *f = fopen(ini, "w");
	CHECK(f != NULL);
	if (f)
		fclose(f);
	CHECK_INT(hwt_decode_input_check(&in), HWT_ERR_CONFIG);
	snprintf(want, sizeof(want), "%s is a directory, an OpenCSD snapshot "
		 "(it holds snapshot.ini): decode it with --snapshot %s", dir,
		 dir);
	CHECK_STR(hwt_errmsg(), want);
	/* The same directory as a snapshot is what it says. */
	in.kind = HWT_CAPTURE_SNAPSHOT_DIR;
	CHECK_INT(hwt_decode_input_check(&in), 0);
	in.kind = HWT_CAPTURE_PERF_DATA;
	f = fopen(file, "w");
	CHECK(f != NULL);
	if (f)
		fclose(f);
	in.path = file;
	CHECK_INT(hwt_decode_input_check(&in), 0);
	in.path = "/nonexistent/perf.data";
	CHECK_INT(hwt_decode_input_check(&in), 0);
	in.path = "-";
	CHECK_INT(hwt_decode_input_check(&in), 0);
	in.size = 0;
	CHECK_INT(hwt_decode_input_check(&in), HWT_ERR_INVAL);
	CHECK_INT(hwt_decode_input_check(NULL), HWT_ERR_INVAL);
	unlink(file);
	unlink(ini);
	rmdir(dir);
}

int main(void)
{
	RUN(spec_split);
	RUN(spec_refused);
	RUN(kinds_dispatched);
	RUN(map_specs_split);
	RUN(map_specs_refused);
	RUN(directory_inputs_refused);
	return hwt_test_summary();
}
