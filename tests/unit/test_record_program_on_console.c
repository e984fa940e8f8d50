/* hwt_record_program_on_console, what `hwtrace record -e sw_branch` does
 * once its options are resolved: /bin/true stepped for its first 3000
 * instructions (--max 3000) under ptrace into a perf.data file, the
 * lines on the console's stream exactly those hwt_record_print_program_end
 * prints of the same options and summary (and no progress line: the
 * console did not ask for it), the file a perf.data file (its magic);
 * a console without a stream, and a backend that is not its own trace
 * source, refused with nothing printed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "hwtrace/error.h"
#include "hwtrace/record_console.h"
#include "hwtrace/recorder.h"
#include "hwtrace/swbranch.h"

static char dir[] = "/tmp/hwt-record-on-console.XXXXXX";

static char *end_lines(const struct hwt_swb_opts *o,
		       const struct hwt_swb_stats *st)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	hwt_record_print_program_end(f, "P", o, st);
	fclose(f);
	return text;
}

static void recorded_and_told(void)
{
	const struct hwt_backend *be = hwt_record_program_backend("sw_branch");
	char out[160];
	snprintf(out, sizeof(out), "%s/o.data", dir);
	char *argv[] = {"/bin/true", NULL};
	struct hwt_swb_opts o = {.size = sizeof(o), .argv = argv,
				 .output = out, .max_insns = 3000,
				 .quiet_child = true};
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	struct hwt_program_console c = {.size = sizeof(c), .out = f,
					.prefix = "P"};
	struct hwt_swb_stats st;
	memset(&st, 0, sizeof(st));

	CHECK(be != NULL);
	int err = hwt_record_program_on_console(be, &o, &c, &st);
	CHECK_INT(err, 0);
	if (err)
		fprintf(stderr, "%s\n", hwt_errmsg());
	fclose(f);
	CHECK_U64(st.insns, 3000);
	/* One 24-byte BTS record a branch, and the records that mark where
	 * tracing begins and ends. */
	CHECK(st.branches > 0 && st.bytes % 24 == 0 &&
	      st.bytes >= 24 * st.branches && st.bytes <= 24 * (st.branches + 4));
	char *want = end_lines(&o, &st);
	CHECK(want && strstr(want, "P: wrote ") != NULL);
	CHECK_STR(text, want);
	CHECK(text && !strchr(text, '\r'));
	free(want);
	free(text);
	FILE *data = fopen(out, "rb");
	char magic[9] = {0};
	CHECK(data != NULL);
	if (data) {
		CHECK_INT(fread(magic, 1, 8, data), 8);
		fclose(data);
	}
	CHECK_STR(magic, "PERFILE2");
	unlink(out);
}

static void refused_silently(void)
{
	char out[160];
	snprintf(out, sizeof(out), "%s/never.data", dir);
	char *argv[] = {"/bin/true", NULL};
	struct hwt_swb_opts o = {.size = sizeof(o), .argv = argv,
				 .output = out, .max_insns = 10};
	struct hwt_program_console none = {.size = sizeof(none)};
	CHECK_INT(hwt_record_program_on_console(
			  hwt_record_program_backend("sw_branch"), &o, &none,
			  NULL), HWT_ERR_INVAL);

	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	struct hwt_program_console c = {.size = sizeof(c), .out = f,
					.prefix = "P"};
	CHECK_INT(hwt_record_program_on_console(hwt_backend_find("intel_pt"),
						&o, &c, NULL), HWT_ERR_NOSUP);
	fclose(f);
	CHECK_STR(text, "");
	free(text);
	CHECK(access(out, F_OK) != 0);
}

int main(void)
{
	if (!mkdtemp(dir)) {
		perror(dir);
		return 1;
	}
	RUN(recorded_and_told);
	RUN(refused_silently);
	rmdir(dir);
	return hwt_test_summary();
}
