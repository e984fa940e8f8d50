/* The cs_etm AUXTRACE_INFO parser: perf's layouts (tools/perf/util/cs-etm.h)
 * for header versions 0, 1 and 2, trace IDs from AUX_OUTPUT_HW_ID, and
 * clean errors for every truncation. Values for the simpleperf capture are
 * those `perf report -D` printed for it (perf_etm.data.perf-report-D.txt). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "backends/arm-cs/cs_decode_meta.h"
#include "backends/arm-cs/cs_meta.h"
#include "hwtrace/error.h"

#define SIMPLEPERF HWT_TESTDATA "/perf-data/simpleperf-etm/perf_etm.data"

/* perf report -D: "0x408 [0x2a8]: PERF_RECORD_AUXTRACE_INFO type: 3". The
 * priv words follow the 8-byte header and the type/reserved words. */
static size_t read_simpleperf_info(uint64_t *words, size_t max)
{
	FILE *f = fopen(SIMPLEPERF, "rb");
	if (!f)
		return 0;
	size_t n = (0x2a8 - 16) / 8;
	if (n > max || fseek(f, 0x408 + 16, SEEK_SET) != 0 ||
	    fread(words, 8, n, f) != n)
		n = 0;
	fclose(f);
	return n;
}

static void simpleperf_info_has_eight_etmv4(void)
{
	uint64_t w[128];
	size_t n = read_simpleperf_info(w, 128);
	struct hwt_cs_meta m;
	CHECK_INT(n, 83);
	CHECK_INT(hwt_cs_meta_parse(w, n, &m), 0);
	CHECK_U64(m.version, 1);
	CHECK_INT(m.ncpus, 8);
	if (m.ncpus != 8)
		return;
	for (size_t i = 0; i < 8; i++) {
		CHECK_INT(m.cpus[i].cpu, i);
		CHECK_INT(m.cpus[i].proto, HWT_CS_PROTO_ETMV4);
		/* TRCTRACEIDR 10, 12, ... 1e */
		CHECK_INT(m.cpus[i].trace_id, 0x10 + 2 * i);
		CHECK(m.id_known[i]);
		CHECK_U64(m.cpus[i].cfg.etmv4.reg_configr, 0x40);
		CHECK_U64(m.cpus[i].cfg.etmv4.reg_idr0, 0x28000ea1);
		CHECK_U64(m.cpus[i].cfg.etmv4.reg_idr2, 0x20001088);
	}
	CHECK_U64(m.cpus[0].cfg.etmv4.reg_idr1, 0x4100f422);
	CHECK_U64(m.cpus[7].cfg.etmv4.reg_idr1, 0x4100f423);
	hwt_cs_meta_release(&m);

	/* Every shorter record is refused, none crashes. */
	int refused = 0;
	for (size_t len = 0; len < n; len++) {
		uint64_t *copy = malloc(len * 8 + 1);
		memcpy(copy, w, len * 8);
		if (hwt_cs_meta_parse(copy, len, &m) == HWT_ERR_FORMAT)
			refused++;
		else
			hwt_cs_meta_release(&m);
		free(copy);
	}
	CHECK_INT(refused, n);
}

/* Version 0 (older perf, simpleperf): no parameter count in the blocks. */
static void version0_blocks_have_fixed_length(void)
{
	uint64_t w[] = {
		0, (8ull << 32) | 2, 0,
		HWT_CS_MAGIC_ETMV4, 3, 0x40, 0x16, 0x28000ea1, 0x4100f423,
		0x20001088, 0, 0x8c,
		HWT_CS_MAGIC_ETMV3, 5, 0x000e2c42, 0x1a, 0x344008f2, 0x410cf250,
	};
	struct hwt_cs_meta m;
	CHECK_INT(hwt_cs_meta_parse(w, sizeof(w) / 8, &m), 0);
	CHECK_INT(m.ncpus, 2);
	CHECK_INT(m.cpus[0].cpu, 3);
	CHECK_INT(m.cpus[0].trace_id, 0x16);
	CHECK_U64(m.cpus[0].cfg.etmv4.reg_idr1, 0x4100f423);
	CHECK_INT(m.cpus[1].cpu, 5);
	/* ETMIDR 0x410cf250 (an ETM3.5): bits 9:8 are not both set. */
	CHECK_INT(m.cpus[1].proto, HWT_CS_PROTO_ETMV3);
	CHECK_INT(m.cpus[1].trace_id, 0x1a);
	CHECK_U64(m.cpus[1].cfg.etmv3.reg_ctrl, 0x000e2c42);
	CHECK_U64(m.cpus[1].cfg.etmv3.reg_ccer, 0x344008f2);
	hwt_cs_meta_release(&m);
}

/* Version 2: trace IDs come from PERF_RECORD_AUX_OUTPUT_HW_ID. */
static void version2_ids_come_from_hw_id(void)
{
	uint64_t w[] = {
		2, (8ull << 32) | 2, 0,
		/* ETE on CPU 0 with 9 parameters (TS_SOURCE appended). */
		HWT_CS_MAGIC_ETE, 0, 9, 0x40, 0x80000000, 0x28000ea1,
		0x4100fff0, 0xd0001088, 0, 0xcc, 0x47705a13, 1,
		/* PTM on CPU 1 (ETMIDR 0x411cf301: bits 9:8 set). */
		HWT_CS_MAGIC_ETMV3, 1, 4, 0x10001000, 0x80000000, 0x8ea,
		0x411cf301,
	};
	struct hwt_cs_meta m;
	CHECK_INT(hwt_cs_meta_parse(w, sizeof(w) / 8, &m), 0);
	CHECK_INT(m.ncpus, 2);
	CHECK_INT(m.cpus[0].proto, HWT_CS_PROTO_ETE);
	CHECK_U64(m.cpus[0].cfg.ete.reg_devarch, 0x47705a13);
	CHECK_INT(m.cpus[1].proto, HWT_CS_PROTO_PTM);
	CHECK(!m.id_known[0]);
	CHECK(!m.id_known[1]);
	/* Major version 0, trace ID 0x21 in bits 7:0. */
	CHECK_INT(hwt_cs_meta_set_hw_id(&m, 0, 0x21), 1);
	CHECK(m.id_known[0]);
	CHECK_INT(m.cpus[0].trace_id, 0x21);
	CHECK_U64(m.cpus[0].cfg.ete.reg_traceidr, 0x21);
	CHECK_INT(hwt_cs_meta_set_hw_id(&m, 0, 0x21), 0);
	/* Minor version 1 with a sink ID in bits 39:8 is still major 0. */
	CHECK_INT(hwt_cs_meta_set_hw_id(&m, 1, (1ull << 56) | (3ull << 8) | 0x22), 1);
	CHECK_INT(m.cpus[1].trace_id, 0x22);
	CHECK_U64(m.cpus[1].cfg.ptm.reg_trc_id, 0x22);
	CHECK_INT(hwt_cs_meta_set_hw_id(&m, 1, 1ull << 60), HWT_ERR_FORMAT);
	CHECK_INT(hwt_cs_meta_set_hw_id(&m, 9, 0x30), HWT_ERR_NOENT);
	CHECK_CONTAINS(hwt_errmsg(), "CPU 9");
	hwt_cs_meta_release(&m);
}

static void bad_magic_names_the_word(void)
{
	uint64_t w[] = {1, (8ull << 32) | 1, 0, 0x1234, 0, 7, 0, 0, 0, 0, 0, 0, 0};
	struct hwt_cs_meta m;
	CHECK_INT(hwt_cs_meta_parse(w, sizeof(w) / 8, &m), HWT_ERR_FORMAT);
	CHECK_CONTAINS(hwt_errmsg(), "word 3");
	uint64_t v9[] = {9, (8ull << 32) | 1, 0};
	CHECK_INT(hwt_cs_meta_parse(v9, 3, &m), HWT_ERR_FORMAT);
	CHECK_CONTAINS(hwt_errmsg(), "version 9");
}

static void raw_options_configure_one_source(void)
{
	struct hwt_cs_meta m;
	bool formatted;
	CHECK_INT(hwt_cs_meta_from_options("etmv4,traceid=0x1e,configr=0x40",
					   &m, &formatted), 0);
	CHECK(formatted);
	CHECK_INT(m.ncpus, 1);
	CHECK_INT(m.cpus[0].trace_id, 0x1e);
	CHECK_U64(m.cpus[0].cfg.etmv4.reg_traceidr, 0x1e);
	CHECK_U64(m.cpus[0].cfg.etmv4.reg_configr, 0x40);
	hwt_cs_meta_release(&m);
	CHECK_INT(hwt_cs_meta_from_options("ete,traceid=2", &m, &formatted), 0);
	CHECK(!formatted);
	CHECK_INT(m.cpus[0].proto, HWT_CS_PROTO_ETE);
	hwt_cs_meta_release(&m);
	CHECK_INT(hwt_cs_meta_from_options("etmv4,bogus=1", &m, &formatted),
		  HWT_ERR_CONFIG);
	CHECK_CONTAINS(hwt_errmsg(), "bogus");
	CHECK_INT(hwt_cs_meta_from_options("traceid=zz", &m, &formatted),
		  HWT_ERR_CONFIG);
}

int main(void)
{
	RUN(simpleperf_info_has_eight_etmv4);
	RUN(version0_blocks_have_fixed_length);
	RUN(version2_ids_come_from_hw_id);
	RUN(bad_magic_names_the_word);
	RUN(raw_options_configure_one_source);
	return hwt_test_summary();
}
