/* hwt_record_profile_output (hwtrace/recorder.h): where record writes
 * without -o. The oracle is the profile files written here: one whose
 * [session] output is "trace one.data" gives that (copied into the
 * caller's buffer), one without the key, an empty value, no profile and
 * a file that does not exist give perf.data, and the last leaves no
 * error set (it is reported where the profile is read for the capture);
 * a buffer too small for the value gives its beginning. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "hwtrace/error.h"
#include "hwtrace/recorder.h"

static char dir[] = "/tmp/hwt-profile-output-XXXXXX";

static const char *write_profile(const char *name, const char *text)
{
	static char path[4096];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	CHECK(f != NULL);
	if (f) {
		fputs(text, f);
		fclose(f);
	}
	return path;
}

static void output_of_profiles(void)
{
	char buf[64];
	const char *p = write_profile("named.ini",
				      "[session]\nbackend = intel_pt\n"
				      "output = trace one.data\n");
	const char *got = hwt_record_profile_output(p, buf, sizeof(buf));
	CHECK_STR(got, "trace one.data");
	CHECK(got == buf);
	/* Cut to the buffer. */
	char small[6];
	CHECK_STR(hwt_record_profile_output(p, small, sizeof(small)), "trace");

	p = write_profile("unnamed.ini", "[session]\nbackend = intel_pt\n");
	CHECK_STR(hwt_record_profile_output(p, buf, sizeof(buf)), "perf.data");
	p = write_profile("empty.ini", "[session]\noutput =\n");
	CHECK_STR(hwt_record_profile_output(p, buf, sizeof(buf)), "perf.data");
	CHECK_STR(hwt_record_profile_output(NULL, buf, sizeof(buf)), "perf.data");

	hwt_error_clear();
	CHECK_STR(hwt_record_profile_output("/nonexistent/p.ini", buf, sizeof(buf)),
		  "perf.data");
	CHECK_STR(hwt_errmsg(), "");
}

int main(void)
{
	if (!mkdtemp(dir)) {
		perror(dir);
		return EXIT_FAILURE;
	}
	RUN(output_of_profiles);
	char path[4096];
	const char *names[] = {"named.ini", "unnamed.ini", "empty.ini"};
	for (size_t i = 0; i < 3; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		unlink(path);
	}
	rmdir(dir);
	return hwt_test_summary();
}
