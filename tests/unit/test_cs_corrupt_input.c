/* Bad input never crashes the CoreSight decoder: random and bit-flipped
 * trace through every protocol and both framings, cut-off buffers, and
 * snapshot directories with broken INI values all end in a clean result
 * (elements, gaps, errors, or an error code with a message). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"
#include "hwtrace/backend.h"
#include "hwtrace/decode.h"
#include "hwtrace/error.h"

struct counts {
	unsigned long elems, errors, gaps;
};

static int count(void *arg, const struct hwt_elem *e)
{
	struct counts *c = arg;
	c->elems++;
	if (e->type == HWT_ELEM_ERROR) {
		c->errors++;
		if (!e->u.error.message || !*e->u.error.message)
			HWT_FAIL("error element without a message");
	}
	if (e->type == HWT_ELEM_GAP)
		c->gaps++;
	return 0;
}

static uint32_t rng = 12345;

static uint8_t next_byte(void)
{
	rng = rng * 1103515245u + 12345u;
	return (uint8_t)(rng >> 16);
}

/* Feeds @n bytes through the raw-option decoder for @opts. */
static int decode_bytes(const char *opts, const uint8_t *data, size_t n,
			uint32_t flags, struct counts *c)
{
	const struct hwt_backend *b = hwt_backend_find("cs_etm");
	if (!b || !b->decoder)
		return HWT_ERR_NOSUP;
	struct hwt_image *image = hwt_image_new();
	uint8_t code[4096];
	for (size_t i = 0; i < sizeof(code); i++)
		code[i] = next_byte();
	hwt_image_add_buffer(image, HWT_PID_ANY, 0x1000, code, sizeof(code),
			     "random code");
	struct hwt_elem_sink sink = {count, c};
	struct hwt_decode_params p = {.size = sizeof(p), .image = image,
				      .sink = &sink, .raw_options = opts};
	void *priv;
	int err = b->decoder->create(&p, &priv);
	if (!err) {
		struct hwt_aux_chunk ch = {.data = data, .size = n, .cpu = -1,
					   .tid = -1, .aux_flags = flags};
		err = b->decoder->feed(priv, &ch);
		if (!err && b->decoder->flush)
			err = b->decoder->flush(priv);
		b->decoder->destroy(priv);
		/* The packet layer of the same bytes. */
		FILE *devnull = fopen("/dev/null", "w");
		if (devnull) {
			struct hwt_packet_sink text = {hwt_packet_print_text,
						       devnull};
			int perr = b->decoder->packets(&p, &ch, &text);
			if (perr && perr != HWT_ERR_NOSUP)
				HWT_FAIL("packets on bad input: %d", perr);
			fclose(devnull);
		}
	}
	hwt_image_free(image);
	return err;
}

static void random_trace_is_survived(void)
{
	static const char *const protos[] = {
		"etmv4,traceid=0x10", "ete,traceid=1", "ptm,traceid=0x10",
		"etmv3,traceid=0x10", "etmv4,raw,traceid=0x10",
		"ete,formatted,traceid=0x10",
	};
	static uint8_t buf[1 << 14];
	for (size_t p = 0; p < sizeof(protos) / sizeof(protos[0]); p++) {
		for (int round = 0; round < 8; round++) {
			size_t n = (size_t)round * 2000 + 1;
			for (size_t i = 0; i < n; i++)
				buf[i] = next_byte();
			/* Some rounds start with an alignment sync, so the
			 * decoder gets past its first packet. */
			if (round & 1)
				memset(buf, 0, 11), buf[11] = 0x80;
			struct counts c = {0};
			int err = decode_bytes(protos[p], buf, n, 0, &c);
			CHECK_INT(err, 0);
		}
	}
}

/* Every prefix of the real simpleperf buffer, as a formatted stream with
 * trace ID 0x1e. */
static void cut_off_buffers_are_survived(void)
{
	static uint8_t buf[0x180];
	FILE *f = fopen(HWT_TESTDATA "/perf-data/simpleperf-etm/perf_etm.data", "rb");
	CHECK(f != NULL);
	if (!f)
		return;
	/* perf report -D: the AUXTRACE record at 0x26a8, 0x30 bytes. */
	CHECK_INT(fseek(f, 0x26a8 + 0x30, SEEK_SET), 0);
	CHECK_INT(fread(buf, 1, sizeof(buf), f), sizeof(buf));
	fclose(f);
	unsigned long total = 0;
	for (size_t n = 0; n <= sizeof(buf); n++) {
		struct counts c = {0};
		CHECK_INT(decode_bytes("etmv4,traceid=0x1e,configr=0x40", buf, n,
				       0, &c), 0);
		total += c.elems;
	}
	/* Flipped bits in the whole buffer. */
	for (size_t bit = 0; bit < sizeof(buf) * 8; bit += 7) {
		buf[bit / 8] ^= (uint8_t)(1u << (bit % 8));
		struct counts c = {0};
		CHECK_INT(decode_bytes("etmv4,traceid=0x1e,configr=0x40", buf,
				       sizeof(buf), 0, &c), 0);
		buf[bit / 8] ^= (uint8_t)(1u << (bit % 8));
	}
	CHECK(total > 0);
}

static void write_file(const char *dir, const char *name, const char *text)
{
	char path[600];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* A snapshot of a57_single_step with one file replaced. */
static int decode_variant(const char *file, const char *text, struct counts *c)
{
	char dir[] = "/tmp/hwt-cs-bad-XXXXXX", cmd[1024];
	if (!mkdtemp(dir))
		return HWT_ERR_IO;
	snprintf(cmd, sizeof(cmd), "cp -r %s/opencsd/a57_single_step/. %s/",
		 HWT_TESTDATA, dir);
	if (system(cmd) != 0)
		return HWT_ERR_IO;
	write_file(dir, file, text);
	struct hwt_decode_opts opts = {.size = sizeof(opts)};
	struct hwt_elem_sink sink = {count, c};
	int err = hwt_decode_snapshot_dir(dir, &opts, &sink);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", dir);
	return err;
}

static void broken_snapshots_are_refused(void)
{
	struct counts c = {0};
	CHECK_INT(decode_variant("trace.ini", "[trace_buffers]\n", &c),
		  HWT_ERR_FORMAT);
	CHECK_CONTAINS(hwt_errmsg(), "buffers=");
	CHECK_INT(decode_variant("trace.ini",
				 "[trace_buffers]\nbuffers=buffer0\n[buffer0]\n"
				 "name=X\nfile=CSTMC_TRACE_FIFO.bin\n", &c),
		  HWT_ERR_FORMAT);
	CHECK_CONTAINS(hwt_errmsg(), "no trace buffer");
	CHECK_INT(decode_variant("device2.ini",
				 "[device]\nname=CSETM_0\nclass=trace_source\n"
				 "type=ETM4.1\n[regs]\nTRCCONFIGR=0x1\n", &c),
		  HWT_ERR_FORMAT);
	CHECK_CONTAINS(hwt_errmsg(), "TRCTRACEIDR");
	CHECK_INT(decode_variant("device2.ini",
				 "[device]\nname=CSETM_0\nclass=trace_source\n"
				 "type=ETM4.1\n[regs]\nTRCCONFIGR=banana\n", &c),
		  HWT_ERR_FORMAT);
	CHECK_CONTAINS(hwt_errmsg(), "TRCCONFIGR=banana");
	CHECK_INT(decode_variant("device1.ini",
				 "[device]\nname=Cortex-A57_0\nclass=core\n"
				 "type=Cortex-A57\n[dump1]\nfile=nothere.bin\n"
				 "address=0x1000\n", &c),
		  HWT_ERR_NOENT);
	CHECK_CONTAINS(hwt_errmsg(), "nothere.bin");
	CHECK_INT(decode_variant("snapshot.ini", "garbage without sections\n=\n[\n", &c),
		  HWT_ERR_FORMAT);
	/* A trace buffer of random bytes decodes to gaps, not a failure. */
	char junk[4096];
	for (size_t i = 0; i + 1 < sizeof(junk); i++)
		junk[i] = (char)(next_byte() | 1);
	junk[sizeof(junk) - 1] = '\0';
	memset(&c, 0, sizeof(c));
	CHECK_INT(decode_variant("CSTMC_TRACE_FIFO.bin", junk, &c), 0);
}

int main(void)
{
	RUN(random_trace_is_survived);
	RUN(cut_off_buffers_are_survived);
	RUN(broken_snapshots_are_refused);
	return hwt_test_summary();
}
