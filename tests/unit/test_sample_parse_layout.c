/* PERF_RECORD_SAMPLE layout as include/uapi/linux/perf_event.h documents
 * it: the AUX data is found after every field the sample_type, read_format,
 * branch_sample_type and register masks put before it; records cut short
 * or with lengths running past their end are refused, never read past. */
#include "core/perfdata/perfdata_format.h"
#include "harness.h"
#include "hwtrace/error.h"
#include "hwtrace/sample.h"
#include "sample_rec.h"

static void every_field_before_aux_is_skipped(void)
{
	struct perf_event_attr a;
	memset(&a, 0, sizeof(a));
	a.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | PERF_SAMPLE_ID |
			PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD |
			PERF_SAMPLE_READ | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_RAW |
			PERF_SAMPLE_BRANCH_STACK | PERF_SAMPLE_REGS_USER |
			PERF_SAMPLE_STACK_USER | PERF_SAMPLE_WEIGHT |
			PERF_SAMPLE_DATA_SRC | PERF_SAMPLE_TRANSACTION |
			PERF_SAMPLE_REGS_INTR | PERF_SAMPLE_PHYS_ADDR |
			PERF_SAMPLE_CGROUP | PERF_SAMPLE_DATA_PAGE_SIZE |
			PERF_SAMPLE_CODE_PAGE_SIZE | PERF_SAMPLE_AUX;
	a.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID |
			PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_LOST;
	a.branch_sample_type = PERF_SAMPLE_BRANCH_HW_INDEX;
	a.sample_regs_user = 0x7;  /* 3 registers */
	a.sample_regs_intr = 0x30; /* 2 registers */

	len = 8;
	u64(77);                       /* identifier */
	u64(0x401000);                 /* ip */
	pd_put32(rec + len, 10), pd_put32(rec + len + 4, 11), len += 8;
	u64(123456);                   /* time */
	u64(0xdead);                   /* addr */
	u64(77);                       /* id */
	u64(78);                       /* stream id */
	pd_put32(rec + len, 3), pd_put32(rec + len + 4, 0), len += 8;
	u64(100000);                   /* period */
	/* read, group: nr, time_enabled, then {value, id, lost} per member */
	u64(2), u64(999), u64(1), u64(77), u64(0), u64(2), u64(78), u64(0);
	u64(3), u64(1), u64(2), u64(3); /* callchain */
	pd_put32(rec + len, 12), len += 4; /* raw: u32 size + 12 bytes = 16 */
	memset(rec + len, 0xee, 12), len += 12;
	u64(2), u64(5);                /* branch stack: nr, hw_idx */
	u64(1), u64(2), u64(3), u64(4), u64(5), u64(6);
	u64(2), u64(1), u64(2), u64(3); /* regs user: abi 64-bit, 3 regs */
	u64(16), u64(0), u64(0), u64(16); /* stack user: size, data, dyn_size */
	u64(7);                        /* weight */
	u64(8);                        /* data_src */
	u64(9);                        /* transaction */
	u64(2), u64(1), u64(2);        /* regs intr: abi, 2 regs */
	u64(0x1234000);                /* phys addr */
	u64(42);                       /* cgroup */
	u64(4096), u64(4096);          /* data and code page sizes */
	size_t aux_at = len + 8;
	u64(16);                       /* aux size */
	for (int i = 0; i < 16; i++)
		rec[len++] = (uint8_t)(0xa0 + i);
	finish();

	struct hwt_aux_sample s;
	CHECK_INT(hwt_aux_sample_parse(rec, &a, &s), 0);
	CHECK_U64(s.ip, 0x401000);
	CHECK_INT(s.pid, 10);
	CHECK_INT(s.tid, 11);
	CHECK_U64(s.time, 123456);
	CHECK_U64(s.id, 77);
	CHECK_INT(s.cpu, 3);
	CHECK_U64(s.period, 100000);
	CHECK_U64(s.aux_size, 16);
	CHECK_U64(s.aux_pos, aux_at);
	CHECK(s.aux == rec + aux_at);
	CHECK_INT(s.aux[15], 0xaf);

	/* Cut anywhere before the end: refused. */
	size_t full = len;
	for (size_t cut = 8; cut < full; cut += 8) {
		len = cut;
		finish();
		if (hwt_aux_sample_parse(rec, &a, &s) != HWT_ERR_FORMAT)
			HWT_FAIL("a record cut at %zu bytes was accepted", cut);
	}
}

static void lengths_past_the_end_are_refused(void)
{
	struct perf_event_attr a;
	struct hwt_aux_sample s;
	memset(&a, 0, sizeof(a));
	a.sample_type = PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_AUX;
	len = 8;
	u64(UINT64_MAX / 4); /* a callchain that would wrap the pointer */
	u64(0);
	finish();
	CHECK_INT(hwt_aux_sample_parse(rec, &a, &s), HWT_ERR_FORMAT);

	a.sample_type = PERF_SAMPLE_AUX;
	len = 8;
	u64(UINT64_MAX - 3); /* aux size */
	u64(0);
	finish();
	CHECK_INT(hwt_aux_sample_parse(rec, &a, &s), HWT_ERR_FORMAT);
	CHECK(s.aux == NULL);

	/* No AUX data (size 0): parsed, nothing to decode. */
	len = 8;
	u64(0);
	finish();
	CHECK_INT(hwt_aux_sample_parse(rec, &a, &s), 0);
	CHECK_U64(s.aux_size, 0);
	CHECK(s.aux == NULL);

	/* Not a sample at all. */
	struct perf_event_header h = {PERF_RECORD_MMAP, 0, 16};
	memcpy(rec, &h, sizeof(h));
	CHECK_INT(hwt_aux_sample_parse(rec, &a, &s), HWT_ERR_FORMAT);
}

static void size_limits_are_perfs(void)
{
	char warn[512];
	CHECK_INT(hwt_aux_sample_size_check(0, -1, "--aux-sample", warn,
					    sizeof(warn)), HWT_ERR_CONFIG);
	CHECK_INT(hwt_aux_sample_size_check(60 * 1024 + 1, -1, "--aux-sample",
					    warn, sizeof(warn)), HWT_ERR_CONFIG);
	CHECK_INT(hwt_aux_sample_size_check(60 * 1024, -1, "--aux-sample", warn,
					    sizeof(warn)), 0);
	CHECK_STR(warn, "");
	/* perf warns when size <= psb period + 256 (perf-intel-pt.txt). */
	CHECK_INT(hwt_aux_sample_size_check(4096, -1, "x", warn, sizeof(warn)), 0);
	CHECK_STR(warn, "");
	CHECK_INT(hwt_aux_sample_size_check(4096, 1, "x", warn, sizeof(warn)), 0);
	CHECK_CONTAINS(warn, "psb_period=1");
	CHECK_INT(hwt_aux_sample_size_check(4096 + 256, 1, "x", warn, sizeof(warn)),
		  0);
	CHECK_CONTAINS(warn, "may be too small for the PSB period (4096 bytes");
	CHECK_INT(hwt_aux_sample_size_check(4096 + 257, 1, "x", warn, sizeof(warn)),
		  0);
	CHECK_STR(warn, "");
}

int main(void)
{
	RUN(every_field_before_aux_is_skipped);
	RUN(lengths_past_the_end_are_refused);
	RUN(size_limits_are_perfs);
	return hwt_test_summary();
}
