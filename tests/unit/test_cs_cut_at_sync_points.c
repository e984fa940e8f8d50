/* A raw ETMv4/ETE stream cut at its sync points (cs_sync_points.c) decodes,
 * segment by segment in decoders of their own, to the element stream one
 * decoder gives running through it.
 *
 * The streams are the source_data buffers of OpenCSD's snapshots (ETE
 * models and an ETMv4 board), each repeated COPIES times: every copy
 * starts with a trace unit's sync sequence, so a stream has COPIES sync
 * points, and at each the decoder running through carries the copy
 * before's state (a taken branch waiting for its target, the context,
 * the time) into the next. The test cuts at every sync point the scan
 * accepts and checks how many it accepted against the packets of each
 * buffer (see want_cuts). The segments are decoded each in a new
 * decoder, and all in one after another, as a thread reuses its decoder
 * for the units it takes: what one segment's trace said (its time, its
 * thread) must not reach the next. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backends/arm-cs/cs_snapshot.h"
#include "backends/arm-cs/cs_sync_points.h"
#include "tests/unit/decode_in_process.h"
#include "core/decode/decode_internal.h"
#include "elem_text.h"
#include "harness.h"
#include "hwtrace/backend.h"
#include "hwtrace/decode.h"

#define COPIES 5

/* The snapshots with raw (source_data) ETMv4/ETE buffers, and how many of
 * a buffer's COPIES sync points are places to cut. */
static const struct {
	const char *name;
	unsigned cuts;
	const char *why;
} want_cuts[] = {
	{"ete_mem", COPIES, "A-sync, Trace Info, Trace On, Address+Context"},
	{"tme_simple", COPIES, "as ete_mem, each transaction closed"},
	{"q_elem", COPIES, "as ete_mem, Q packets after it"},
	{"ete_spec_1", 1, "a unit that traces speculatively (TRCIDR8 0xff)"},
	{"init-short-addr", 1, "ETMv4: Context, Trace On, Context, then a "
			       "short address"},
	{"ts_marker", 1, "time stamps in each copy, none in the sync "
			 "sequence"},
	{"src_addr", 1, "ETE source address packets, which may read the "
			"address history, stop the scan"},
	{"ete-ite-instr", 1, "an ETE instrumentation packet, which the "
			     "ETMv4 packet processor cannot read, stops the "
			     "scan in the first copy"},
};

static int collect(void *arg, const struct hwt_elem *e)
{
	return elem_text_add(arg, e);
}

/* The --raw options that describe @s. */
static void raw_options(const struct hwt_cs_source *s, char *buf, size_t len)
{
	if (s->proto == HWT_CS_PROTO_ETE)
		snprintf(buf, len, "ete,traceid=0x%x,configr=0x%x,idr0=0x%x,"
			 "idr1=0x%x,idr2=0x%x,idr8=0x%x,devarch=0x%x",
			 s->trace_id, s->cfg.ete.reg_configr,
			 s->cfg.ete.reg_idr0, s->cfg.ete.reg_idr1,
			 s->cfg.ete.reg_idr2, s->cfg.ete.reg_idr8,
			 s->cfg.ete.reg_devarch);
	else
		snprintf(buf, len, "etmv4,raw,traceid=0x%x,configr=0x%x,"
			 "idr0=0x%x,idr1=0x%x,idr2=0x%x,idr8=0x%x",
			 s->trace_id, s->cfg.etmv4.reg_configr,
			 s->cfg.etmv4.reg_idr0, s->cfg.etmv4.reg_idr1,
			 s->cfg.etmv4.reg_idr2, s->cfg.etmv4.reg_idr8);
}

/* Feeds @c to a fresh decoder, appending its elements to @text. */
static int decode_chunk(const struct hwt_decode_params *p,
			const struct hwt_aux_chunk *c)
{
	const struct hwt_backend *b = hwt_backend_find("cs_etm");
	void *priv = NULL;
	int err = b->decoder->create(p, &priv);
	if (!err)
		err = b->decoder->feed(priv, c);
	if (priv)
		b->decoder->destroy(priv);
	return err;
}

static uint8_t *read_copies(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	static uint8_t one[1 << 16];
	size_t n = f ? fread(one, 1, sizeof(one), f) : 0;
	if (f)
		fclose(f);
	uint8_t *all = n ? malloc(n * COPIES) : NULL;
	for (int i = 0; all && i < COPIES; i++)
		memcpy(all + i * n, one, n);
	*size = n * COPIES;
	return all;
}

static void cut_buffer(const struct hwt_cs_ss_buffer *buf,
		       struct hwt_image *image, unsigned want, const char *why)
{
	char opts[256], what[300];
	size_t size;
	uint8_t *data = read_copies(buf->path, &size);
	CHECK(data != NULL);
	if (!data)
		return;
	raw_options(&buf->sources[0], opts, sizeof(opts));

	struct elem_text whole = {0}, cut = {0}, reused = {0};
	struct hwt_elem_sink to_whole = {collect, &whole}, to_cut = {collect, &cut};
	struct hwt_elem_sink to_reused = {collect, &reused};
	struct hwt_decode_params p = {.size = sizeof(p), .image = image,
				      .raw_options = opts, .sink = &to_whole};
	struct hwt_aux_chunk c = {.data = data, .size = size, .cpu = -1,
				  .tid = -1, .final = true};
	CHECK_INT(decode_chunk(&p, &c), 0);

	const struct hwt_backend *b = hwt_backend_find("cs_etm");
	void *priv = NULL;
	static uint64_t starts[HWT_MAX_SEGMENTS];
	int n = -1;
	cs_split_bytes = 1;
	p.sink = &to_reused;
	if (b->decoder->create(&p, &priv) == 0) {
		n = b->decoder->split(priv, &c, starts, HWT_MAX_SEGMENTS);
		/* The segments one after the other in one decoder, as a
		 * thread decodes the units it takes. */
		for (int i = 0; i < n; i++) {
			struct hwt_aux_chunk seg =
				hwt_decode_segment(&c, starts, n, i);
			CHECK_INT(b->decoder->feed(priv, &seg), 0);
		}
		b->decoder->destroy(priv);
	}
	snprintf(what, sizeof(what), "%s (%s)", buf->path, why);
	printf("%s: %d segments of %zu bytes\n", what, n, size);
	CHECK_INT(n, (int)want);
	p.sink = &to_cut;
	for (int i = 0; i < n; i++) {
		struct hwt_aux_chunk seg = hwt_decode_segment(&c, starts, n, i);
		CHECK_INT(decode_chunk(&p, &seg), 0);
	}
	CHECK(whole.s && cut.s && !strcmp(whole.s, cut.s));
	elem_text_diff(what, &whole, &cut);
	CHECK(whole.s && reused.s && !strcmp(whole.s, reused.s));
	elem_text_diff(what, &whole, &reused);
	cs_split_bytes = 16 * 1024;
	free(whole.s);
	free(cut.s);
	free(reused.s);
	free(data);
}

static void every_cut_decodes_as_one(void)
{
	unsigned buffers = 0;
	for (size_t i = 0; i < sizeof(want_cuts) / sizeof(*want_cuts); i++) {
		char dir[512];
		struct hwt_cs_snapshot *ss = NULL;
		snprintf(dir, sizeof(dir), HWT_TESTDATA "/opencsd/%s",
			 want_cuts[i].name);
		CHECK_INT(hwt_cs_snapshot_load(dir, &ss), 0);
		if (!ss)
			continue;
		struct hwt_image *image = hwt_image_new();
		CHECK_INT(hwt_cs_snapshot_add_dumps(ss, image), 0);
		/* The first raw buffer: the others of a snapshot are later
		 * sessions of the same unit. */
		for (size_t k = 0; k < ss->nbuffers; k++) {
			const struct hwt_cs_ss_buffer *buf = &ss->buffers[k];
			if (buf->frame_flags || buf->nsources != 1)
				continue;
			cut_buffer(buf, image, want_cuts[i].cuts,
				   want_cuts[i].why);
			buffers++;
			break;
		}
		hwt_image_free(image);
		hwt_cs_snapshot_free(ss);
	}
	CHECK_INT(buffers, sizeof(want_cuts) / sizeof(*want_cuts));
}

/* A stream with more sync points than the split may give segments has
 * its cuts spread over all of it: ete_mem x5 (9,530 bytes) in at most 3
 * segments cuts at least 9530 / 3 + 1 = 3,177 bytes apart, so at the
 * second copy (3,812) and the fourth (7,624). */
static void cuts_spread_over_the_stream(void)
{
	struct hwt_cs_snapshot *ss = NULL;
	CHECK_INT(hwt_cs_snapshot_load(HWT_TESTDATA "/opencsd/ete_mem", &ss), 0);
	if (!ss)
		return;
	char opts[256];
	size_t size;
	uint8_t *data = read_copies(ss->buffers[0].path, &size);
	raw_options(&ss->buffers[0].sources[0], opts, sizeof(opts));
	const struct hwt_backend *b = hwt_backend_find("cs_etm");
	struct hwt_decode_params p = {.size = sizeof(p), .raw_options = opts};
	struct hwt_aux_chunk c = {.data = data, .size = size, .cpu = -1,
				  .tid = -1};
	uint64_t starts[3] = {9, 9, 9};
	void *priv = NULL;
	cs_split_bytes = 1;
	CHECK(data && b->decoder->create(&p, &priv) == 0);
	if (data && priv) {
		CHECK_INT(b->decoder->split(priv, &c, starts, 3), 3);
		CHECK_INT(starts[0], 0);
		CHECK_INT(starts[1], 2 * 1906);
		CHECK_INT(starts[2], 4 * 1906);
		/* Room for all: every copy. */
		static uint64_t all[HWT_MAX_SEGMENTS];
		CHECK_INT(b->decoder->split(priv, &c, all, HWT_MAX_SEGMENTS),
			  COPIES);
	}
	if (priv)
		b->decoder->destroy(priv);
	cs_split_bytes = 16 * 1024;
	free(data);
	hwt_cs_snapshot_free(ss);
}

struct timed {
	unsigned elems, timed;
};

static int count_timed(void *arg, const struct hwt_elem *e)
{
	struct timed *t = arg;
	t->elems++;
	t->timed += (e->fields & HWT_FIELD_TIME) != 0;
	return 0;
}

/* A decoder that decoded one chunk decodes the next as a new one would:
 * ts_marker's buffer, whose time stamps set the time, then ete_mem's,
 * which has none, in one decoder: no element of the second has a time. */
static void a_chunk_starts_afresh(void)
{
	struct hwt_cs_snapshot *ts = NULL, *mem = NULL;
	CHECK_INT(hwt_cs_snapshot_load(HWT_TESTDATA "/opencsd/ts_marker", &ts), 0);
	CHECK_INT(hwt_cs_snapshot_load(HWT_TESTDATA "/opencsd/ete_mem", &mem), 0);
	if (!ts || !mem)
		return;
	char opts[256];
	size_t ts_size, mem_size;
	uint8_t *ts_data = read_copies(ts->buffers[0].path, &ts_size);
	uint8_t *mem_data = read_copies(mem->buffers[0].path, &mem_size);
	raw_options(&ts->buffers[0].sources[0], opts, sizeof(opts));
	struct hwt_image *image = hwt_image_new();
	CHECK_INT(hwt_cs_snapshot_add_dumps(ts, image), 0);
	CHECK_INT(hwt_cs_snapshot_add_dumps(mem, image), 0);
	struct timed first = {0}, second = {0};
	struct hwt_elem_sink sink = {count_timed, &first};
	struct hwt_decode_params p = {.size = sizeof(p), .raw_options = opts,
				      .image = image, .sink = &sink};
	const struct hwt_backend *b = hwt_backend_find("cs_etm");
	void *priv = NULL;
	CHECK(ts_data && mem_data && b->decoder->create(&p, &priv) == 0);
	if (priv) {
		struct hwt_aux_chunk c = {.data = ts_data, .size = ts_size,
					  .cpu = -1, .tid = -1};
		CHECK_INT(b->decoder->feed(priv, &c), 0);
		sink.arg = &second;
		c.data = mem_data;
		c.size = mem_size;
		CHECK_INT(b->decoder->feed(priv, &c), 0);
		b->decoder->destroy(priv);
	}
	printf("ts_marker: %u of %u elements with a time; ete_mem after it: "
	       "%u of %u\n", first.timed, first.elems, second.timed,
	       second.elems);
	CHECK(first.timed > 1000);
	CHECK(second.elems > 1000);
	CHECK_INT(second.timed, 0);
	free(ts_data);
	free(mem_data);
	hwt_image_free(image);
	hwt_cs_snapshot_free(ts);
	hwt_cs_snapshot_free(mem);
}

static int decode_raw(const char *opts_s, const char *path,
		      const struct hwt_cs_snapshot *ss, unsigned jobs,
		      struct elem_text *text)
{
	struct hwt_map_spec maps[32];
	size_t nmaps = 0;
	for (size_t i = 0; i < ss->ndumps && nmaps < 32; i++) {
		CHECK_INT(ss->dumps[i].offset, 0);
		maps[nmaps++] = (struct hwt_map_spec){ss->dumps[i].path,
						      ss->dumps[i].address};
	}
	/* The cuts are under test: decode_in_process.h. */
	struct hwt_decode_opts o = {.size = sizeof(o), .maps = maps,
				    .nmaps = nmaps, .jobs = jobs,
				    DECODE_IN_PROCESS};
	struct hwt_elem_sink sink = {collect, text};
	memset(text, 0, sizeof(*text));
	return hwt_decode_raw("cs_etm", opts_s, path, &o, &sink);
}

/* The threaded decode of a raw stream (hwt_decode_raw, as `hwtrace decode
 * --raw -j N` runs it) gives one stream for every number of threads, cut
 * at every sync point and at the default distance. */
static void threads_decode_as_one(void)
{
	char opts[256], path[] = "/tmp/hwt-cs-cut-XXXXXX";
	struct hwt_cs_snapshot *ss = NULL;
	CHECK_INT(hwt_cs_snapshot_load(HWT_TESTDATA "/opencsd/ete_mem", &ss), 0);
	if (!ss)
		return;
	raw_options(&ss->buffers[0].sources[0], opts, sizeof(opts));
	FILE *f = fopen(ss->buffers[0].path, "rb");
	static uint8_t one[4096];
	size_t n = f ? fread(one, 1, sizeof(one), f) : 0;
	if (f)
		fclose(f);
	CHECK_INT(n, 1906);
	int fd = mkstemp(path);
	f = fd >= 0 ? fdopen(fd, "wb") : NULL;
	for (int i = 0; f && i < 64; i++)
		fwrite(one, 1, n, f);
	CHECK(f && fclose(f) == 0);

	struct elem_text ref, got;
	CHECK_INT(decode_raw(opts, path, ss, 1, &ref), 0);
	CHECK(ref.s && strlen(ref.s) > 1000000);
	static const size_t sizes[] = {1, 16 * 1024};
	for (size_t k = 0; k < 2; k++) {
		cs_split_bytes = sizes[k];
		for (unsigned jobs = 2; jobs <= 8; jobs += jobs == 3 ? 5 : 1) {
			char what[96];
			CHECK_INT(decode_raw(opts, path, ss, jobs, &got), 0);
			CHECK(got.s && ref.s && !strcmp(got.s, ref.s));
			snprintf(what, sizeof(what), "ete_mem x64, cuts %zu "
				 "bytes apart, -j%u", sizes[k], jobs);
			elem_text_diff(what, &ref, &got);
			free(got.s);
		}
	}
	cs_split_bytes = 16 * 1024;
	free(ref.s);
	unlink(path);
	hwt_cs_snapshot_free(ss);
}

int main(void)
{
	RUN(every_cut_decodes_as_one);
	RUN(cuts_spread_over_the_stream);
	RUN(a_chunk_starts_afresh);
	RUN(threads_decode_as_one);
	return hwt_test_summary();
}
