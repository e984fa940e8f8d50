/* The cs_etm decoder reads the AUXTRACE_INFO the recorder writes: each
 * traced CPU becomes an OpenCSD configuration of the right protocol with
 * the fixture's register values and the legacy trace ID. */
#include <string.h>

#include "harness.h"
#include "hwtrace/error.h"
#include "hwtrace/os.h"
#include "backends/arm-cs/cs_decode_meta.h"
#include "backends/arm-cs/cs_info.h"

#define FIXTURES HWT_SOURCE_DIR "/tests/fixtures/meta/"

static void test_ete_ptm_etmv4_round_trip(void)
{
	/* timestamp and contextid: TRCCONFIGR 0x840; ETMCR the config. */
	struct perf_event_attr attr = {.type = 9,
				       .config = (1ull << 28) | (1ull << 14)};
	struct hwt_os *os = hwt_os_linux_new(FIXTURES "mixed");
	struct hwt_cs_meta meta;
	int cpus[] = {0, 1, 2};
	uint64_t priv[64];
	int n;

	n = hwt_cs_info(os, NULL, &attr, cpus, 3, true, NULL, priv, 64);
	hwt_os_free(os);
	CHECK_INT(n, 31);
	if (n != 31)
		return;
	memset(&meta, 0, sizeof(meta));
	CHECK_INT(hwt_cs_meta_parse(priv, (size_t)n, &meta), 0);
	CHECK_U64(meta.version, 1);
	CHECK(meta.snapshot);
	CHECK_U64(meta.ncpus, 3);
	if (meta.ncpus != 3) {
		hwt_cs_meta_release(&meta);
		return;
	}
	CHECK_INT(meta.cpus[0].proto, HWT_CS_PROTO_ETE);
	CHECK_INT(meta.cpus[0].cpu, 0);
	CHECK_INT(meta.cpus[0].trace_id, 0x10);
	CHECK_U64(meta.cpus[0].cfg.ete.reg_idr0, 0x2801cea1);
	CHECK_U64(meta.cpus[0].cfg.ete.reg_idr1, 0x4100fff0);
	CHECK_U64(meta.cpus[0].cfg.ete.reg_idr2, 0xd0001088);
	CHECK_U64(meta.cpus[0].cfg.ete.reg_devarch, 0x47705a13);
	CHECK_U64(meta.cpus[0].cfg.ete.reg_configr, 0x840);

	/* ETMIDR 0x411cf312 has bits 9:8 set: a PTM. */
	CHECK_INT(meta.cpus[1].proto, HWT_CS_PROTO_PTM);
	CHECK_INT(meta.cpus[1].cpu, 1);
	CHECK_INT(meta.cpus[1].trace_id, 0x12);
	CHECK_U64(meta.cpus[1].cfg.ptm.reg_idr, 0x411cf312);
	CHECK_U64(meta.cpus[1].cfg.ptm.reg_ccer, 0x34c01ac2);
	CHECK_U64(meta.cpus[1].cfg.ptm.reg_ctrl, (1u << 28) | (1u << 14));

	CHECK_INT(meta.cpus[2].proto, HWT_CS_PROTO_ETMV4);
	CHECK_INT(meta.cpus[2].cpu, 2);
	CHECK_INT(meta.cpus[2].trace_id, 0x14);
	CHECK_U64(meta.cpus[2].cfg.etmv4.reg_idr0, 0x28000ea1);
	CHECK_U64(meta.cpus[2].cfg.etmv4.reg_idr1, 0x4100f422);
	CHECK_U64(meta.cpus[2].cfg.etmv4.reg_idr2, 0x20001088);
	CHECK_U64(meta.cpus[2].cfg.etmv4.reg_idr8, 0);
	CHECK_U64(meta.cpus[2].cfg.etmv4.reg_configr, 0x840);
	CHECK_U64(meta.cpus[2].cfg.etmv4.reg_traceidr, 0x14);
	hwt_cs_meta_release(&meta);
}

int main(void)
{
	RUN(test_ete_ptm_etmv4_round_trip);
	return hwt_test_summary();
}
