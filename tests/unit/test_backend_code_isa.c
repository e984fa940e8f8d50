/* The backends' code_isa op: the ISA --virtual-lbr walks a window's
 * code in is the trace's, whatever machine wrote the file. Intel PT, BTS
 * and sw_branch (BTS records of x86-64 programs) say x86-64 for any
 * info; CoreSight says it by its first CPU block's magic, whose values
 * are perf's (tools/perf/util/cs-etm.h: __perf_cs_etmv3_magic
 * 0x3030303030303030, __perf_cs_etmv4_magic 0x4040..., __perf_cs_ete_magic
 * 0x5050...): A32 for an ETMv3/PTM, A64 for an ETMv4 or ETE, unknown for
 * another magic or no block; N-Trace by its info's XLEN word (the layout
 * in docs/riscv.md: PMU type, version word "HWRV" << 32 | 1, XLEN, ...),
 * unknown for a foreign version word. */
#include "harness.h"
#include "hwtrace/backend.h"

static enum hwt_isa isa_of(const char *backend, const uint64_t *info,
			   size_t words)
{
	const struct hwt_backend *b = hwt_backend_find(backend);
	CHECK(b != NULL);
	struct hwt_decode_params p = {.size = sizeof(p), .info = info,
				      .info_words = words};
	return b ? hwt_backend_code_isa(b, &p) : HWT_ISA_UNKNOWN;
}

static bool has_decoder(const char *backend)
{
	const struct hwt_backend *b = hwt_backend_find(backend);
	if (b && b->decoder)
		return true;
	HWT_SKIP_PART("%s: built without its decoder", backend);
	return false;
}

static void x86(void)
{
	static const uint64_t any[4] = {7, 8, 9, 10};
	if (has_decoder("intel_pt"))
		CHECK_INT(isa_of("intel_pt", any, 4), HWT_ISA_X86_64);
	CHECK_INT(isa_of("intel_bts", any, 4), HWT_ISA_X86_64);
	CHECK_INT(isa_of("sw_branch", NULL, 0), HWT_ISA_X86_64);
}

static void coresight(void)
{
	if (!has_decoder("cs_etm"))
		return;
	/* Header: version 1, PMU type 9 << 32 | 1 CPU, not a snapshot; then
	 * the block's magic and CPU 0. */
	uint64_t info[5] = {1, 9ull << 32 | 1, 0, 0, 0};
	info[3] = 0x3030303030303030ull;
	CHECK_INT(isa_of("cs_etm", info, 5), HWT_ISA_A32);
	info[3] = 0x4040404040404040ull;
	CHECK_INT(isa_of("cs_etm", info, 5), HWT_ISA_A64);
	info[3] = 0x5050505050505050ull;
	CHECK_INT(isa_of("cs_etm", info, 5), HWT_ISA_A64);
	info[3] = 0x6060606060606060ull;
	CHECK_INT(isa_of("cs_etm", info, 5), HWT_ISA_UNKNOWN);
	CHECK_INT(isa_of("cs_etm", info, 3), HWT_ISA_UNKNOWN);
	CHECK_INT(isa_of("cs_etm", NULL, 0), HWT_ISA_UNKNOWN);
}

static void riscv(void)
{
	const uint64_t version = 0x48575256ull << 32 | 1;
	uint64_t info[7] = {9, version, 64, 0, 0, 0, 0};
	CHECK_INT(isa_of("riscv_ntrace", info, 7), HWT_ISA_RV64);
	info[2] = 32;
	CHECK_INT(isa_of("riscv_ntrace", info, 7), HWT_ISA_RV32);
	info[1] = 0x1234ull << 32 | 1;
	CHECK_INT(isa_of("riscv_ntrace", info, 7), HWT_ISA_UNKNOWN);
}

int main(void)
{
	RUN(x86);
	RUN(coresight);
	RUN(riscv);
	return hwt_test_summary();
}
