/* Malformed sysfs files give a clean cs_etm info error naming the file. */
#include "harness.h"
#include "hwtrace/error.h"
#include "hwtrace/os.h"
#include "backends/arm-cs/cs_info.h"

#define FIXTURES HWT_SOURCE_DIR "/tests/fixtures/meta/"

static void test_bad_registers(void)
{
	struct hwt_os *os = hwt_os_linux_new(FIXTURES "bad");
	int cpu0[] = {0}, cpu1[] = {1};
	uint64_t priv[64];

	CHECK_INT(hwt_cs_info(os, NULL, NULL, cpu0, 1, false, NULL, priv, 64),
		  HWT_ERR_FORMAT);
	CHECK_CONTAINS(hwt_errmsg(), "cs_etm/cpu0/mgmt/trcdevarch");
	CHECK_CONTAINS(hwt_errmsg(), "0x123456789");
	CHECK_INT(hwt_cs_info(os, NULL, NULL, cpu1, 1, false, NULL, priv, 64),
		  HWT_ERR_FORMAT);
	CHECK_CONTAINS(hwt_errmsg(), "cs_etm/cpu1/trcidr/trcidr0");
	CHECK_CONTAINS(hwt_errmsg(), "\"0xzz\"");
	hwt_os_free(os);
}

static void test_bad_cpu_list(void)
{
	struct hwt_os *os = hwt_os_linux_new(FIXTURES "bad-online");
	int cpus[] = {0};
	uint64_t priv[64];

	CHECK_INT(hwt_cs_info(os, NULL, NULL, NULL, 0, false, NULL, priv, 64),
		  HWT_ERR_FORMAT);
	CHECK_CONTAINS(hwt_errmsg(), "devices/system/cpu/online");
	CHECK_CONTAINS(hwt_errmsg(), "\"0-1,x\"");
	CHECK_INT(hwt_cs_info(os, NULL, NULL, cpus, 1, false, NULL, priv, 64),
		  HWT_ERR_FORMAT);
	hwt_os_free(os);
}

static void test_bad_cpu_numbers(void)
{
	struct hwt_os *os = hwt_os_linux_new(FIXTURES "mixed");
	int neg[] = {-1}, huge[] = {HWT_CS_MAX_CPUS};
	uint64_t priv[64];

	CHECK_INT(hwt_cs_info(os, NULL, NULL, neg, 1, false, NULL, priv, 64),
		  HWT_ERR_CONFIG);
	CHECK_CONTAINS(hwt_errmsg(), "CPU -1 is out of range");
	CHECK_INT(hwt_cs_info(os, NULL, NULL, huge, 1, false, NULL, priv, 64),
		  HWT_ERR_CONFIG);
	hwt_os_free(os);
}

int main(void)
{
	RUN(test_bad_registers);
	RUN(test_bad_cpu_list);
	RUN(test_bad_cpu_numbers);
	return hwt_test_summary();
}
