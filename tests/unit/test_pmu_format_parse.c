/* Format fields: the kernel's "config:0-3,8" strings, packing values into
 * split ranges as perf does, and refusing what does not fit. */
#include <string.h>

#include "harness.h"
#include "hwtrace/error.h"
#include "hwtrace/pmu.h"

static struct hwt_pmu_format parse(const char *text, int *ret)
{
	struct hwt_pmu_format f;

	memset(&f, 0, sizeof(f));
	snprintf(f.name, sizeof(f.name), "t");
	*ret = hwt_pmu_format_parse(text, "test", &f);
	return f;
}

static void single_bit_and_range(void)
{
	int ret;
	struct hwt_pmu_format f = parse("config:13", &ret);

	CHECK_INT(ret, 0);
	CHECK_INT(f.word, 0);
	CHECK_INT(f.nranges, 1);
	CHECK_INT(f.ranges[0].lo, 13);
	CHECK_INT(f.ranges[0].hi, 13);
	CHECK_U64(hwt_pmu_format_mask(&f), 0x2000);

	f = parse("config:24-27", &ret);
	CHECK_INT(ret, 0);
	CHECK_INT(hwt_pmu_format_width(&f), 4);
	CHECK_U64(hwt_pmu_format_mask(&f), 0x0f000000);

	f = parse("config2:32-63", &ret);
	CHECK_INT(ret, 0);
	CHECK_INT(f.word, 2);
	CHECK_U64(hwt_pmu_format_mask(&f), 0xffffffff00000000ull);

	f = parse("config3:0-11", &ret);
	CHECK_INT(ret, 0);
	CHECK_INT(f.word, 3);
	f = parse("config1:0-63", &ret);
	CHECK_INT(ret, 0);
	CHECK_INT(f.word, 1);
	CHECK_INT(hwt_pmu_format_width(&f), 64);
}

/* perf packs the low value bits into the first range: "config:0-3,8" with
 * value 0x1f gives bits 0-3 = 0xf and bit 8 = 1. */
static void split_range_packs_low_bits_first(void)
{
	struct perf_event_attr attr;
	int ret;
	struct hwt_pmu_format f = parse("config:0-3,8", &ret);

	CHECK_INT(ret, 0);
	CHECK_INT(f.nranges, 2);
	CHECK_INT(hwt_pmu_format_width(&f), 5);
	CHECK_U64(hwt_pmu_format_mask(&f), 0x10f);
	memset(&attr, 0, sizeof(attr));
	attr.config = 0xf0; /* bits outside the field stay */
	CHECK_INT(hwt_pmu_format_set(&f, 0x1f, &attr), 0);
	CHECK_U64(attr.config, 0x1ff);
	CHECK_INT(hwt_pmu_format_set(&f, 0x10, &attr), 0);
	CHECK_U64(attr.config, 0x1f0);
	CHECK_U64(hwt_pmu_format_get(&f, &attr), 0x10);
	CHECK_INT(hwt_pmu_format_set(&f, 0x5, &attr), 0);
	CHECK_U64(attr.config, 0xf5);
	CHECK_U64(hwt_pmu_format_get(&f, &attr), 0x5);
}

static void value_that_does_not_fit_is_refused(void)
{
	struct perf_event_attr attr;
	int ret;
	struct hwt_pmu_format f = parse("config:24-27", &ret);

	snprintf(f.name, sizeof(f.name), "psb_period");
	memset(&attr, 0, sizeof(attr));
	CHECK_INT(hwt_pmu_format_set(&f, 15, &attr), 0);
	CHECK_U64(attr.config, 0x0f000000);
	CHECK_INT(hwt_pmu_format_set(&f, 16, &attr), HWT_ERR_CONFIG);
	CHECK_STR(hwt_errmsg(), "value 16 does not fit psb_period (4 bits of "
				"config); the largest value is 15");
	CHECK_U64(attr.config, 0x0f000000);
}

static void config2_sink_id(void)
{
	struct perf_event_attr attr;
	int ret;
	struct hwt_pmu_format f = parse("config2:0-31", &ret);

	memset(&attr, 0, sizeof(attr));
	CHECK_INT(hwt_pmu_format_set(&f, 0xa6509eae, &attr), 0);
	CHECK_U64(attr.config2, 0xa6509eae);
	CHECK_U64(attr.config, 0);
	CHECK_INT(hwt_pmu_format_set(&f, 0x100000000ull, &attr), HWT_ERR_CONFIG);
}

static void config3_is_not_in_this_attr(void)
{
	struct perf_event_attr attr;
	int ret;
	struct hwt_pmu_format f = parse("config3:0-11", &ret);

	snprintf(f.name, sizeof(f.name), "cc_threshold");
	memset(&attr, 0, sizeof(attr));
	CHECK_INT(hwt_pmu_format_set(&f, 4, &attr), HWT_ERR_NOSUP);
	CHECK_CONTAINS(hwt_errmsg(), "cc_threshold lives in config3");
}

static void malformed_text_is_refused(void)
{
	static const char *const bad[] = {
		"", "config", "config:", "config:64", "config:5-3", "conf:1",
		"config:1-", "config:1,", "config:1 x", "config4:1",
		"config:0-3,4-7,8,9,10,11,12,13,14",
	};
	int ret;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		parse(bad[i], &ret);
		CHECK_INT(ret, HWT_ERR_FORMAT);
	}
	parse("config:64", &ret);
	CHECK_STR(hwt_errmsg(), "test: cannot parse format \"config:64\": "
				"expected a bit number 0-63");
	/* sysfs files end in a newline. */
	parse("config:0-3\n", &ret);
	CHECK_INT(ret, 0);
}

int main(void)
{
	RUN(single_bit_and_range);
	RUN(split_range_packs_low_bits_first);
	RUN(value_that_does_not_fit_is_refused);
	RUN(config2_sink_id);
	RUN(config3_is_not_in_this_attr);
	RUN(malformed_text_is_refused);
	return hwt_test_summary();
}
