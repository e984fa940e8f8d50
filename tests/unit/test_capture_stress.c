/* Producer and reader on two threads, hammering one AUX ring and its data
 * ring: run under ThreadSanitizer (label tsan) this proves the barriers of
 * core/capture/barrier.h are where they must be; everywhere it proves that every
 * byte is captured or counted lost, and captured bytes are their source. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "hwtrace/emulator.h"
#include "hwtrace/error.h"
#include "hwtrace/session.h"

#define PMU_TYPE 42
#define SRC_LEN (1u << 20)
#define REPEAT 32

struct sink {
	const uint8_t *src;
	uint64_t bytes, bad, chunks, wraps, records;
	struct hwt_emu *emu;
	uint64_t next_offset;
	bool contiguous;
};

static int on_record(void *ctx, const struct perf_event_header *h)
{
	((struct sink *)ctx)->records++;
	return 0;
}

static int on_aux(void *ctx, const struct hwt_pd_auxtrace *hdr,
		  const void *d1, uint64_t l1, const void *d2)
{
	struct sink *k = ctx;

	if (hdr->offset != k->next_offset)
		k->contiguous = false;
	k->next_offset = hdr->offset + hdr->size;
	k->chunks++;
	k->wraps += d2 != NULL;
	k->bytes += hdr->size;
	/* Bytes are checked after the run against the segment map; here
	 * only touch them all so a race on them would be seen. */
	{
		const uint8_t *p = d1;
		uint64_t sum = 0;
		for (uint64_t i = 0; i < l1; i++)
			sum += p[i];
		p = d2;
		for (uint64_t i = 0; d2 && i < hdr->size - l1; i++)
			sum += p[i];
		k->bad += sum == UINT64_MAX;
	}
	return 0;
}

static uint8_t *copy_out;
static uint64_t copy_len;

static int on_aux_copy(void *ctx, const struct hwt_pd_auxtrace *hdr,
		       const void *d1, uint64_t l1, const void *d2)
{
	copy_out = realloc(copy_out, copy_len + hdr->size);
	memcpy(copy_out + copy_len, d1, l1);
	if (d2)
		memcpy(copy_out + copy_len + l1, d2, hdr->size - l1);
	copy_len += hdr->size;
	return on_aux(ctx, hdr, d1, l1, d2);
}

static void test_producer_and_reader_threads_account_every_byte(void)
{
	static const int cpu0[] = {0};
	struct hwt_emu_opts eo = {.size = sizeof(eo), .rate = 40u << 20, .burst = 2048};
	uint8_t *src = malloc(SRC_LEN);
	struct hwt_session_opts so;
	struct hwt_session *s = NULL;
	struct hwt_emu *emu = NULL;
	struct hwt_capture_stats cs;
	struct hwt_emu_stats es;
	const struct hwt_emu_segment *segs;
	size_t nsegs, k = 0;
	struct sink sk = {.contiguous = true};
	uint64_t covered = 0, bad = 0;
	int ret, guard = 0;

	for (uint32_t i = 0; i < SRC_LEN; i++)
		src[i] = (uint8_t)(i * 7 + (i >> 8));
	CHECK_INT(hwt_emu_new(&eo, &emu), 0);
	CHECK_INT(hwt_emu_add_pmu(emu, "intel_pt", PMU_TYPE), 0);
	CHECK_INT(hwt_emu_stream_aux(emu, 0, src, SRC_LEN, REPEAT), 0);
	memset(&so, 0, sizeof(so));
	so.size = sizeof(so);
	so.os = hwt_emu_os(emu);
	so.aux = true;
	so.aux_attr.type = PMU_TYPE;
	so.aux_attr.size = sizeof(so.aux_attr);
	so.aux_attr.aux_watermark = 8192;
	so.cpus = cpu0;
	so.ncpus = 1;
	so.pid = -1;
	so.data_pages = 2;
	so.aux_pages = 8;
	so.sink = (struct hwt_capture_sink){&sk, on_record, on_aux_copy};
	CHECK_INT(hwt_session_new(&so, &s), 0);
	CHECK_INT(hwt_session_open(s), 0);
	while ((ret = hwt_session_poll(s, 1, NULL, 0)) == 0 && guard++ < 1000000)
		;
	CHECK_INT(ret, 1);
	CHECK_INT(hwt_session_stop(s), 0);
	CHECK_INT(hwt_session_stats(s, 0, &cs), 0);
	CHECK_INT(hwt_emu_stream_stats(emu, 0, &es), 0);
	CHECK_U64(es.produced, (uint64_t)SRC_LEN * REPEAT);
	CHECK_U64(cs.aux_bytes + es.dropped, (uint64_t)SRC_LEN * REPEAT);
	CHECK_U64(sk.bytes, cs.aux_bytes);
	CHECK_U64(cs.truncated, es.truncations);
	CHECK_U64(cs.lost_records, es.lost_records);
	CHECK_U64(cs.unmatched, 0);
	CHECK(sk.contiguous);
	CHECK_INT(hwt_emu_stream_segments(emu, 0, &segs, &nsegs), 0);
	for (uint64_t pos = 0; pos < copy_len; pos++) {
		while (k < nsegs && segs[k].aux_pos + segs[k].len <= pos)
			k++;
		if (k == nsegs || pos < segs[k].aux_pos) {
			bad++;
			continue;
		}
		covered++;
		if (copy_out[pos] !=
		    src[(segs[k].src_pos + pos - segs[k].aux_pos) % SRC_LEN])
			bad++;
	}
	CHECK_U64(covered, copy_len);
	CHECK_U64(bad, 0);
	fprintf(stderr, "  %llu captured, %llu dropped, %llu truncations, "
		"%llu chunks (%llu wrapped), %llu records\n",
		(unsigned long long)cs.aux_bytes, (unsigned long long)es.dropped,
		(unsigned long long)es.truncations, (unsigned long long)sk.chunks,
		(unsigned long long)sk.wraps, (unsigned long long)sk.records);
	hwt_session_free(s);
	hwt_emu_free(emu);
	free(src);
	free(copy_out);
}

int main(void)
{
	RUN(test_producer_and_reader_threads_account_every_byte);
	return hwt_test_summary();
}
