/* The kernel's AUX pause/resume as hwtrace writes it: aux_action is the
 * u32 that PERF_ATTR_SIZE_VER6 (120) added after aux_sample_size, with
 * aux_start_paused, aux_pause and aux_resume as its bits 0, 1 and 2
 * (include/uapi/linux/perf_event.h, Linux 6.13); the uprobe event's
 * config:0 is retprobe (/sys/bus/event_source/devices/uprobe/format).
 * Support follows the kernel release: 6.13 added aux_action. */
#include <string.h>

#include "harness.h"
#include "hwtrace/auxaction.h"
#include "hwtrace/emulator.h"
#include "hwtrace/error.h"

static void the_bits_sit_where_the_uapi_puts_them(void)
{
	struct perf_event_attr a;
	const uint8_t *b = (const uint8_t *)&a;

	CHECK_U64(HWT_AUX_ACTION_OFFSET, PERF_ATTR_SIZE_VER6 - 4);
	memset(&a, 0, sizeof(a));
	hwt_attr_set_aux_action(&a, HWT_AUX_START_PAUSED | HWT_AUX_RESUME);
	CHECK_INT(b[116], 0x05);
	for (size_t i = 0; i < sizeof(a); i++)
		if (i != 116)
			CHECK_INT(b[i], 0);
	CHECK_INT(hwt_attr_aux_action(&a), 5);
	CHECK_INT(a.aux_sample_size, 0);
}

static void kernel_and_pmu_decide(void)
{
	char why[256];

	CHECK(!hwt_aux_action_supported("intel_pt", "6.12.30", why, sizeof(why)));
	CHECK(strstr(why, "6.13") != NULL);
	CHECK(hwt_aux_action_supported("intel_pt", "6.13.0-1-amd64", why, sizeof(why)));
	CHECK(hwt_aux_action_supported("intel_pt", "7.0", why, sizeof(why)));
	CHECK(hwt_aux_action_supported("cs_etm", "6.17.1", why, sizeof(why)));
	CHECK(!hwt_aux_action_supported("intel_bts", "6.18", why, sizeof(why)));
	CHECK(!hwt_aux_action_supported("intel_pt", "garbage", why, sizeof(why)));
}

static void bad_specs_are_config_errors(void)
{
	struct hwt_aux_action a;

	CHECK_INT(hwt_aux_action_parse("resume:", "/proc/self/exe", &a), HWT_ERR_CONFIG);
	CHECK_INT(hwt_aux_action_parse("stop:main", "/proc/self/exe", &a), HWT_ERR_CONFIG);
	CHECK_INT(hwt_aux_action_parse("pause:main@", NULL, &a), HWT_ERR_CONFIG);
	CHECK_INT(hwt_aux_action_parse("resume:main", NULL, &a), HWT_ERR_CONFIG);
	CHECK_INT(hwt_aux_action_parse("resume:no_such_function_here@/proc/self/exe",
				       NULL, &a), HWT_ERR_CONFIG);
	CHECK(strstr(hwt_errmsg(), "no_such_function_here") != NULL);
	CHECK(strstr(hwt_errmsg(), "--trigger") != NULL);
}

/* This test's own main, as a return probe that pauses. */
static void a_return_probe_through_the_emulator(void)
{
	struct hwt_emu_opts eo = {.size = sizeof(eo)};
	struct hwt_emu *emu = NULL;
	struct hwt_aux_action a;
	struct perf_event_attr attr;

	CHECK_INT(hwt_aux_action_parse("pause:main%return@/proc/self/exe", NULL, &a), 0);
	CHECK_INT(a.action, HWT_AUX_PAUSE);
	CHECK(a.at_return);
	CHECK_STR(a.func, "main");
	CHECK_STR(a.name, "probe:main__return/aux-action=pause/");
	CHECK_INT(hwt_emu_new(&eo, &emu), 0);
	if (!emu)
		return;
	CHECK_INT(hwt_aux_action_attr(hwt_emu_os(emu), &a, &attr), 0);
	CHECK_INT(attr.type, HWT_EMU_UPROBE_TYPE);
	CHECK_U64(attr.config, 1);
	CHECK_U64(attr.config2, a.offset);
	CHECK_STR((const char *)(uintptr_t)attr.config1, a.binary);
	CHECK_INT(hwt_attr_aux_action(&attr), HWT_AUX_PAUSE);
	CHECK_U64(attr.sample_period, 1);
	hwt_emu_free(emu);
}

int main(void)
{
	RUN(the_bits_sit_where_the_uapi_puts_them);
	RUN(kernel_and_pmu_decide);
	RUN(bad_specs_are_config_errors);
	RUN(a_return_probe_through_the_emulator);
	return hwt_test_summary();
}
