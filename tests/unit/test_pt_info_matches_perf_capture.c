/* intel_pt's AUXTRACE_INFO priv words equal, word for word, those perf
 * wrote into a real capture (quipper's perf.data.intel_pt-4.14, Skylake,
 * kernel 4.14), when built from a sysfs fixture holding that machine's
 * intel_pt files and the session facts of that capture. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "file_bytes.h"
#include "harness.h"
#include "hwtrace/backend.h"
#include "hwtrace/error.h"
#include "hwtrace/os.h"
#include "hwtrace/pmu.h"
#include "backends/x86-pt/pt_meta.h"

#define CAPTURE HWT_TESTDATA "/perf-data/quipper/perf.data.intel_pt-4.14"
#define FIXTURE HWT_SOURCE_DIR "/tests/fixtures/meta/intel-skl"

/* perf report -D of the capture: TIME_CONV at file offset 0x2e8 (32
 * bytes), AUXTRACE_INFO at 0x308 (0x98 bytes: 17 priv words). */
#define TIME_CONV_OFF 0x2e8
#define INFO_OFF 0x308
#define INFO_SIZE 0x98

static uint8_t file_bytes[0x400];
static int have_file;

static void load_capture(void)
{
	have_file = hwt_test_read_head(CAPTURE, file_bytes, sizeof(file_bytes));
}

/* The capture's facts that are not in sysfs: perf's TIME_CONV record, its
 * SWITCH_CPU_WIDE sideband (have_sched_switch 3) and the Skylake's CPUID
 * 0x15 ratio 100/2 (perf report -D prints "TSC:CTC numerator 100,
 * denominator 2"). */
static struct hwt_record_info_ctx capture_ctx(void)
{
	struct hwt_record_info_ctx ctx = {.size = sizeof(ctx)};
	const uint8_t *tc = file_bytes + TIME_CONV_OFF;

	ctx.cap_user_time_zero = true;
	ctx.time_shift = (uint16_t)hwt_test_le64(tc + 8);
	ctx.time_mult = (uint32_t)hwt_test_le64(tc + 16);
	ctx.time_zero = hwt_test_le64(tc + 24);
	ctx.sched_switch = 3;
	ctx.tsc_ctc_given = true;
	ctx.tsc_ctc_n = 100;
	ctx.tsc_ctc_d = 2;
	return ctx;
}

static void test_words_equal_capture(void)
{
	const uint8_t *rec = file_bytes + INFO_OFF;
	struct hwt_record_info_ctx ctx;
	struct perf_event_attr attr = {.type = 6};
	int cpus[] = {0, 1, 2, 3};
	uint64_t priv[64];
	struct hwt_os *os;
	int n;

	CHECK(have_file);
	if (!have_file)
		return;
	/* The record is what perf report -D says it is. */
	CHECK_INT(rec[0] | rec[1] << 8, 70);
	CHECK_INT(rec[6] | rec[7] << 8, INFO_SIZE);
	CHECK_U64(hwt_test_le64(rec + 8) & 0xffffffff, HWT_AUXTRACE_INTEL_PT);
	CHECK_INT(hwt_test_le64(file_bytes + TIME_CONV_OFF) & 0xffffffff, 79);

	os = hwt_os_linux_new(FIXTURE);
	CHECK(os != NULL);
	ctx = capture_ctx();
	n = hwt_pt_info(os, NULL, &attr, cpus, 4, false, &ctx, priv, 64);
	/* perf 6.1 appends the Cap Event Trace word to the 4.14 layout. */
	CHECK_INT(n, 18);
	if (n != 18) {
		fprintf(stderr, "error: %s\n", hwt_errmsg());
		hwt_os_free(os);
		return;
	}
	for (int i = 0; i < 17; i++) {
		uint64_t want = hwt_test_le64(rec + 16 + 8 * i);

		if (priv[i] != want)
			fprintf(stderr, "priv[%d] differs\n", i);
		CHECK_U64(priv[i], want);
	}
	/* The values perf printed for that record, spelled out. */
	CHECK_U64(priv[HWT_PT_PRIV_PMU_TYPE], 6);
	CHECK_U64(priv[HWT_PT_PRIV_TIME_SHIFT], 31);
	CHECK_U64(priv[HWT_PT_PRIV_TIME_MULT], 1789569706);
	CHECK_U64(priv[HWT_PT_PRIV_TIME_ZERO], 18446744041015200657ull);
	CHECK_U64(priv[HWT_PT_PRIV_TSC_BIT], 0x400);
	CHECK_U64(priv[HWT_PT_PRIV_NORETCOMP_BIT], 0x800);
	CHECK_U64(priv[HWT_PT_PRIV_MTC_BIT], 0x200);
	CHECK_U64(priv[HWT_PT_PRIV_MTC_FREQ_BITS], 0x3c000);
	CHECK_U64(priv[HWT_PT_PRIV_CYC_BIT], 0x2);
	CHECK_U64(priv[HWT_PT_PRIV_MAX_NONTURBO_RATIO], 12);
	CHECK_U64(priv[HWT_PT_PRIV_PER_CPU_MMAPS], 1);
	CHECK_U64(priv[HWT_PT_PRIV_FIXED_WORDS], 0); /* no caps/event_trace */
	hwt_os_free(os);
}

/* The same values come out of a PMU description (what the PMU scan
 * builds) without touching the format files. */
static void test_words_from_pmu_struct(void)
{
	struct hwt_pmu_format formats[] = {
		{.name = "cyc", .word = 0, .nranges = 1, .ranges = {{1, 1}}},
		{.name = "mtc", .word = 0, .nranges = 1, .ranges = {{9, 9}}},
		{.name = "tsc", .word = 0, .nranges = 1, .ranges = {{10, 10}}},
		{.name = "noretcomp", .word = 0, .nranges = 1, .ranges = {{11, 11}}},
		{.name = "mtc_period", .word = 0, .nranges = 1, .ranges = {{14, 17}}},
	};
	struct hwt_pmu_cap caps[] = {{.name = "event_trace", .value = "1"}};
	struct hwt_pmu pmu = {.name = "intel_pt", .type = 6,
			      .nformats = 5, .formats = formats,
			      .ncaps = 1, .caps = caps};
	const uint8_t *rec = file_bytes + INFO_OFF;
	struct hwt_record_info_ctx ctx;
	int cpus[] = {0, 1, 2, 3};
	uint64_t priv[64];
	struct hwt_os *os = hwt_os_linux_new(FIXTURE);
	int n;

	if (!have_file) {
		CHECK(have_file);
		hwt_os_free(os);
		return;
	}
	ctx = capture_ctx();
	n = hwt_pt_info(os, &pmu, NULL, cpus, 4, false, &ctx, priv, 64);
	CHECK_INT(n, 18);
	for (int i = 0; i < 17 && n == 18; i++)
		CHECK_U64(priv[i], hwt_test_le64(rec + 16 + 8 * i));
	CHECK_U64(priv[17], 1); /* caps/event_trace = 1 */
	hwt_os_free(os);
}

/* perf stores the filter NUL-terminated and zero-padded to whole words,
 * after FILTER_STR_LEN, and the Cap Event Trace word after it. */
static void test_filter_string_padding(void)
{
	const char *filter = "filter main @ /bin/ls"; /* 21 bytes */
	struct hwt_record_info_ctx ctx = {.size = sizeof(ctx), .filter = filter,
					  .tsc_ctc_given = true};
	uint64_t priv[64];
	uint8_t bytes[24];
	struct hwt_os *os = hwt_os_linux_new(FIXTURE);
	int n;

	memset(priv, 0xee, sizeof(priv));
	n = hwt_pt_info(os, NULL, NULL, NULL, 0, true, &ctx, priv, 64);
	/* 17 + ceil(22 / 8) = 3 + 1 */
	CHECK_INT(n, 21);
	CHECK_U64(priv[HWT_PT_PRIV_FILTER_STR_LEN], 21);
	CHECK_U64(priv[HWT_PT_PRIV_SNAPSHOT_MODE], 1);
	CHECK_U64(priv[HWT_PT_PRIV_PER_CPU_MMAPS], 0);
	CHECK_U64(priv[HWT_PT_PRIV_CAP_USER_TIME_ZERO], 0);
	CHECK_U64(priv[HWT_PT_PRIV_TIME_MULT], 0);
	CHECK_U64(priv[HWT_PT_PRIV_HAVE_SCHED_SWITCH], 0);
	memcpy(bytes, &priv[17], 24);
	CHECK(memcmp(bytes, filter, 21) == 0);
	CHECK_INT(bytes[21] | bytes[22] | bytes[23], 0);
	CHECK_U64(priv[20], 0);
	CHECK_U64(hwt_pt_info_words(filter), 21);
	CHECK_U64(hwt_pt_info_words("12345678"), 17 + 2 + 1);
	CHECK_U64(hwt_pt_info_words(NULL), 18);
	hwt_os_free(os);
}

/* This machine's CPUID: an AMD EPYC whose highest basic leaf (the
 * kernel's "cpuid level") is below 0x15 has no TSC:CTC ratio, and perf
 * then records 0/0. */
static void test_tsc_ctc_from_this_cpu(void)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[512];
	long level = -1;
	uint32_t n = 1, d = 1;

	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "cpuid level", 11)) {
			level = strtol(strchr(line, ':') + 1, NULL, 10);
			break;
		}
	if (f)
		fclose(f);
	hwt_pt_cpuid_tsc_ctc(&n, &d);
	CHECK(level >= 0);
	if (level >= 0 && level < 0x15) {
		CHECK_U64(n, 0);
		CHECK_U64(d, 0);
	} else {
		fprintf(stderr, "note: cpuid level %ld has leaf 0x15 (%u/%u); "
			"only the 0/0 case is checked on this machine\n", level, n, d);
	}
}

static void test_errors_name_the_problem(void)
{
	struct perf_event_attr attr = {.type = 8};
	uint64_t priv[64];
	struct hwt_os *os = hwt_os_linux_new(FIXTURE);
	struct hwt_os *bad = hwt_os_linux_new(HWT_SOURCE_DIR "/tests/fixtures/meta/none");

	CHECK_INT(hwt_pt_info(os, NULL, &attr, NULL, 0, false, NULL, priv, 64),
		  HWT_ERR_CONFIG);
	CHECK_CONTAINS(hwt_errmsg(), "type 8");
	CHECK_INT(hwt_pt_info(os, NULL, NULL, NULL, 0, false, NULL, priv, 17),
		  HWT_ERR_NOSPC);
	CHECK_CONTAINS(hwt_errmsg(), "needs 18 words");
	CHECK_INT(hwt_pt_info(bad, NULL, NULL, NULL, 0, false, NULL, priv, 64),
		  HWT_ERR_NOENT);
	CHECK_CONTAINS(hwt_errmsg(), "intel_pt/type");
	CHECK_INT(hwt_pt_info(os, NULL, NULL, NULL, 0, false, NULL, NULL, 64),
		  HWT_ERR_INVAL);
	hwt_os_free(os);
	hwt_os_free(bad);
}

int main(void)
{
	load_capture();
	RUN(test_words_equal_capture);
	RUN(test_words_from_pmu_struct);
	RUN(test_filter_string_padding);
	RUN(test_tsc_ctc_from_this_cpu);
	RUN(test_errors_name_the_problem);
	return hwt_test_summary();
}
