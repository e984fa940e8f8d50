/* A capture's units as JSON lines (hwt_capture_units_write_jsonl,
 * hwtrace/capture.h): what `hwtrace units` prints for a batch engine to
 * plan its work from (docs/scale-out.md). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "hwtrace/capture.h"
#include "hwtrace/error.h"
#include "hwtrace/text.h"

static void put_file(FILE *out, const char *file)
{
	fputs("{\"file\":", out);
	hwt_json_fwrite(out, file, strlen(file));
}

int hwt_capture_units_write_jsonl(FILE *out, const char *file)
{
	if (!out || !file)
		return hwt_error(HWT_ERR_INVAL, "hwt_capture_units_write_jsonl: "
				 "missing argument");
	struct hwt_capture *cap = NULL;
	int err = hwt_capture_open(file, NULL, &cap);
	const struct hwt_capture_unit *u = NULL;
	int64_t n = err ? 0 : hwt_capture_units(cap, &u);
	/* Nothing to cut (AUX samples, branch records alone, no trace): the
	 * capture is one part, decoded whole, its cost the file's size. */
	if (!err && (n == HWT_ERR_NOSUP || n == 0)) {
		struct stat st;
		put_file(out, file);
		fprintf(out, ",\"unit\":0,\"units\":0,\"cost\":%lld}\n",
			stat(file, &st) ? 0LL : (long long)st.st_size);
		n = 0;
	} else if (!err && n < 0) {
		err = (int)n;
	}
	for (int64_t i = 0; !err && i < n; i++) {
		put_file(out, file);
		fprintf(out, ",\"unit\":%" PRId64 ",\"units\":%" PRId64
			",\"queue\":%zu,\"cpu\":%d,\"tid\":%d,\"offset\":%" PRIu64
			",\"size\":%" PRIu64 ",\"time_from\":%" PRIu64
			",\"time_until\":%" PRIu64 ",\"cost\":%" PRIu64 "}\n",
			i + 1, n, u[i].queue, u[i].cpu, u[i].tid, u[i].offset,
			u[i].size, u[i].time_from, u[i].time_until, u[i].size);
	}
	hwt_capture_free(cap);
	return err;
}
