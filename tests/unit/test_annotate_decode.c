/* hwt_annotate_decode, the decode of `hwtrace annotate`: on a generated
 * Intel BTS capture (tests/unit/bts_capture.h) the hook the caller had
 * on the decode's images still sees each of them, as many as a plain
 * hwt_decode_file shows it, and is put back afterwards; the decode asks
 * for one range per instruction; a decode without a hook of the caller's
 * works too; and a capture that is not there fails as hwt_decode_file
 * fails on it, with its message. The counts the annotation takes from
 * such a decode are checked against the program's loops end to end in
 * tests/integration/test_annotate_counts_match_loops.sh. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "bts_capture.h"
#include "hwtrace/annotate.h"
#include "hwtrace/decode.h"
#include "hwtrace/error.h"
#include "hwtrace/sym_setup.h"
#include "hwtrace/symbols.h"

static char tmp[] = "/tmp/hwt-annotate-decode.XXXXXX";

static int drop(void *arg, const struct hwt_elem *e)
{
	(void)arg;
	(void)e;
	return 0;
}

static struct hwt_elem_sink discard_sink(void)
{
	return (struct hwt_elem_sink){drop, NULL};
}

struct hook {
	unsigned calls;
	bool had_image;
};

static void on_image(void *arg, struct hwt_image *image)
{
	struct hook *h = arg;
	h->calls++;
	h->had_image |= image != NULL;
}

/* Images a plain decode of @data shows a hook. */
static unsigned plain_images(const char *data)
{
	struct hook h = {0};
	struct hwt_decode_opts o = {.size = sizeof(o), .on_image = on_image,
				    .on_image_arg = &h};
	struct hwt_elem_sink sink = discard_sink();
	CHECK_INT(hwt_decode_file(data, &o, &sink), 0);
	return h.calls;
}

static void hooks_kept(const char *data)
{
	struct hwt_sym_opts so = {.size = sizeof(so)};
	struct hwt_symbolizer *sym = NULL;
	CHECK_INT(hwt_symbolizer_new(&so, &sym), 0);
	struct hwt_annotate_opts ao = {sizeof(ao), sym, NULL};
	struct hwt_annotate *an = NULL;
	CHECK_INT(hwt_annotate_new(&ao, &an), 0);
	if (!an) {
		hwt_symbolizer_free(sym);
		return;
	}
	struct hook h = {0};
	struct hwt_decode_opts o = {.size = sizeof(o), .on_image = on_image,
				    .on_image_arg = &h};
	CHECK_INT(hwt_annotate_decode(an, data, &o), 0);
	unsigned want = plain_images(data);
	CHECK(want > 0);
	CHECK_INT(h.calls, want);
	CHECK(h.had_image);
	CHECK(o.on_image == on_image && o.on_image_arg == &h);
	CHECK(o.disasm);

	/* No hook of the caller's: the annotation's alone. */
	struct hwt_decode_opts bare = {.size = sizeof(bare)};
	CHECK_INT(hwt_annotate_decode(an, data, &bare), 0);
	CHECK(bare.on_image == NULL && bare.on_image_arg == NULL);
	hwt_annotate_free(an);
	hwt_symbolizer_free(sym);
}

static const char *capture_path;

static void hooks_kept_on_capture(void)
{
	hooks_kept(capture_path);
}

static void missing_capture(void)
{
	char missing[300], want[1024];
	snprintf(missing, sizeof(missing), "%s/none.data", tmp);
	struct hwt_decode_opts o = {.size = sizeof(o)};
	struct hwt_elem_sink sink = discard_sink();
	int plain = hwt_decode_file(missing, &o, &sink);
	CHECK(plain < 0);
	snprintf(want, sizeof(want), "%s", hwt_errmsg());
	CHECK_CONTAINS(want, missing);

	struct hwt_sym_opts so = {.size = sizeof(so)};
	struct hwt_symbolizer *sym = NULL;
	CHECK_INT(hwt_symbolizer_new(&so, &sym), 0);
	struct hwt_annotate_opts ao = {sizeof(ao), sym, NULL};
	struct hwt_annotate *an = NULL;
	CHECK_INT(hwt_annotate_new(&ao, &an), 0);
	if (an) {
		hwt_error_clear();
		CHECK_INT(hwt_annotate_decode(an, missing, &o), plain);
		CHECK_STR(hwt_errmsg(), want);
	}
	hwt_annotate_free(an);
	hwt_symbolizer_free(sym);
}

int main(void)
{
	if (!mkdtemp(tmp)) {
		perror(tmp);
		return 1;
	}
	char code[300], data[300];
	snprintf(code, sizeof(code), "%s/code.bin", tmp);
	snprintf(data, sizeof(data), "%s/bts.data", tmp);
	CHECK_INT(bts_capture_write_code(code), 0);
	struct bts_written w[BTS_NTHREADS];
	struct bts_capture c = {.code_path = code, .seed = 2, .npieces = 2,
				.records = 20};
	CHECK_INT(bts_capture_write(data, &c, w), 0);
	static char data_path[300];
	memcpy(data_path, data, sizeof(data_path));
	capture_path = data_path;
	RUN(hooks_kept_on_capture);
	RUN(missing_capture);
	unlink(data);
	unlink(code);
	rmdir(tmp);
	return hwt_test_summary();
}
