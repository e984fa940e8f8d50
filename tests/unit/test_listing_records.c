/* Listings as records (include/hwtrace/listing.h): the intel_bts packet
 * lister gives each 24-byte record of a buffer as a record whose typed
 * fields are the bytes written here (little-endian from, to, flags, the
 * layout perf's intel-bts.c reads), a note for the buffer and one for a
 * record cut short; a sink's error stops the listing and is its result;
 * the jsonl printer escapes as RFC 8259 asks and leaves unknown names
 * out; a printer whose FILE cannot be written says so. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "hwtrace/backend.h"
#include "hwtrace/error.h"
#include "hwtrace/listing.h"

static void put64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

struct seen {
	struct hwt_packet_rec rec[8];
	uint64_t from[8], to[8], flags[8];
	size_t n;
	size_t fail_at; /* return an error at this record (0: never) */
};

static int collect(void *arg, const struct hwt_packet_rec *rec)
{
	struct seen *s = arg;
	if (s->fail_at && s->n + 1 == s->fail_at)
		return hwt_error(HWT_ERR_IO, "test sink full");
	if (s->n == 8)
		return 0;
	s->rec[s->n] = *rec;
	for (size_t i = 0; i < rec->nfields; i++) {
		const struct hwt_packet_field *f = &rec->fields[i];
		if (!strcmp(f->name, "from"))
			s->from[s->n] = f->value;
		else if (!strcmp(f->name, "to"))
			s->to[s->n] = f->value;
		else if (!strcmp(f->name, "flags"))
			s->flags[s->n] = f->value;
	}
	s->n++;
	return 0;
}

static void bts_records(void)
{
	const struct hwt_backend *b = hwt_backend_find("intel_bts");
	if (!b || !b->decoder || !b->decoder->packets) {
		HWT_FAIL("no intel_bts packet lister");
		return;
	}
	/* Two records and 5 bytes of a third. */
	uint8_t buf[2 * 24 + 5] = {0};
	put64(buf, 0x401000);
	put64(buf + 8, 0x401234);
	put64(buf + 16, 0x10);
	put64(buf + 24, 0xffffffff81000000ull);
	put64(buf + 32, 0x7f0000001000ull);
	put64(buf + 40, 0);
	struct hwt_decode_params p = {.size = sizeof(p)};
	struct hwt_aux_chunk ch = {.data = buf, .size = sizeof(buf),
				   .offset = 0x1000, .cpu = -1, .tid = -1};
	struct seen s = {.n = 0};
	struct hwt_packet_sink sink = {collect, &s};

	CHECK_INT(b->decoder->packets(&p, &ch, &sink), 0);
	CHECK_INT(s.n, 4);
	CHECK_INT(s.rec[0].type, HWT_PACKET_REC_NOTE);
	CHECK(!s.rec[0].has_offset);
	for (size_t i = 1; i <= 2; i++) {
		CHECK_INT(s.rec[i].type, HWT_PACKET_REC_PACKET);
		CHECK_STR(s.rec[i].backend, "intel_bts");
		CHECK_STR(s.rec[i].kind, "branch");
		CHECK(s.rec[i].has_offset);
		CHECK_U64(s.rec[i].offset, 0x1000 + 24 * (i - 1));
	}
	CHECK_U64(s.from[1], 0x401000);
	CHECK_U64(s.to[1], 0x401234);
	CHECK_U64(s.flags[1], 0x10);
	CHECK_U64(s.from[2], 0xffffffff81000000ull);
	CHECK_U64(s.to[2], 0x7f0000001000ull);
	CHECK_U64(s.flags[2], 0);
	CHECK_INT(s.rec[3].type, HWT_PACKET_REC_NOTE);
	CHECK_U64(s.rec[3].offset, 0x1000 + 48);

	/* The sink's error at the second record ends the listing there. */
	struct seen f = {.n = 0, .fail_at = 2};
	sink.arg = &f;
	CHECK_INT(b->decoder->packets(&p, &ch, &sink), HWT_ERR_IO);
	CHECK_INT(f.n, 1);
}

static char *printed(int (*print)(void *, const struct hwt_packet_rec *),
		     const struct hwt_packet_rec *rec)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (!f)
		return NULL;
	CHECK_INT(print(f, rec), 0);
	fclose(f);
	return text;
}

static void packet_printers(void)
{
	struct hwt_packet_rec note = {
		.type = HWT_PACKET_REC_NOTE,
		.backend = "intel_pt",
		.has_offset = true,
		.offset = 42,
		.kind = "error",
		.text = "a \"quoted\"\\ \ttab \x01",
		.aux_cpu = -1,
		.aux_tid = -1,
	};
	char *t = printed(hwt_packet_print_jsonl, &note);
	CHECK_STR(t, "{\"type\":\"packet\",\"offset\":42,\"text\":"
		     "\"a \\\"quoted\\\"\\\\ \\ttab \\u0001\"}\n");
	free(t);
	t = printed(hwt_packet_print_text, &note);
	CHECK_STR(t, "a \"quoted\"\\ \ttab \x01\n");
	free(t);

	struct hwt_packet_rec aux = {
		.type = HWT_PACKET_REC_AUX_BUFFER,
		.has_offset = true,
		.offset = 0x200,
		.aux_idx = 3,
		.aux_cpu = -1,
		.aux_tid = 77,
		.aux_size = 0x40,
	};
	t = printed(hwt_packet_print_jsonl, &aux);
	CHECK_STR(t, "{\"type\":\"aux_buffer\",\"idx\":3,\"tid\":77,"
		     "\"offset\":512,\"size\":64}\n");
	free(t);
	t = printed(hwt_packet_print_text, &aux);
	CHECK_STR(t, "# AUXTRACE idx 3 cpu -1 tid 77 offset 0x200 size 0x40\n");
	free(t);
}

static char *printed_branch(
	int (*print)(void *, const struct hwt_branch_count_rec *),
	const struct hwt_branch_count_rec *rec)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (!f)
		return NULL;
	CHECK_INT(print(f, rec), 0);
	fclose(f);
	return text;
}

static void branch_printers(void)
{
	/* A path with a space, which no column split of the text could
	 * have told apart. */
	struct hwt_branch_count_rec r = {
		.pid = 5,
		.from = "/tmp/my dir/a.out+0x10",
		.to = "0x7000",
		.count = 9,
		.named = true,
		.from_sym = "main+0x4",
		.to_sym = NULL,
	};
	char *t = printed_branch(hwt_branch_count_print_text, &r);
	CHECK_STR(t, "/tmp/my dir/a.out+0x10->0x7000 9 main+0x4 ?\n");
	free(t);
	t = printed_branch(hwt_branch_count_print_jsonl, &r);
	CHECK_STR(t, "{\"type\":\"branch_count\",\"from\":\"/tmp/my dir/a.out+0x10\","
		     "\"to\":\"0x7000\",\"count\":9,\"from_sym\":\"main+0x4\"}\n");
	free(t);
	r.from_sym = "[unknown]";
	r.named = false;
	t = printed_branch(hwt_branch_count_print_text, &r);
	CHECK_STR(t, "/tmp/my dir/a.out+0x10->0x7000 9\n");
	free(t);
}

static void write_error(void)
{
	FILE *ro = fopen("/dev/null", "r");
	if (!ro) {
		HWT_FAIL("cannot open /dev/null");
		return;
	}
	struct hwt_packet_rec rec = {.type = HWT_PACKET_REC_PACKET,
				     .text = "x", .aux_cpu = -1, .aux_tid = -1};
	CHECK_INT(hwt_packet_print_text(ro, &rec), HWT_ERR_IO);
	CHECK_INT(hwt_packet_print_jsonl(ro, &rec), HWT_ERR_IO);
	fclose(ro);
}

int main(void)
{
	bts_records();
	packet_printers();
	branch_printers();
	write_error();
	printf("%d checks, %d failed\n", hwt_test_checks, hwt_test_failures);
	return hwt_test_failures != 0;
}
