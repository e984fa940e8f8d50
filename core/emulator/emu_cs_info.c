/* The trace unit of one CPU in a replayed cs_etm AUXTRACE_INFO (perf's
 * layout, backends/arm-cs/cs_meta.h): its trace ID and the packet sizes
 * the emulator's cut needs, or why it cannot cut that unit's trace. The
 * cut knows ETMv4 without cycle counts, conditional trace or VMIDs. */
#include <errno.h>

#include "core/emulator/emu_cs.h"

/* perf's layout (tools/perf/util/cs-etm.h), as backends/arm-cs/cs_meta.h
 * gives it to the backend; the core reads it without the backend's
 * headers. Header: version, PMU type << 32 | CPUs, snapshot; then per CPU
 * a block of magic, CPU, NR_PARAMS and the registers. */
#define HDR_VERSION 0
#define HDR_PMU_TYPE_CPUS 1
#define HDR_WORDS 3
#define VERSION_1 1u
#define BLK_MAGIC 0
#define BLK_CPU 1
#define BLK_NR_PARAMS 2
#define BLK_COMMON 3
#define MAGIC_ETMV4 0x4040404040404040ull
#define ETMV4_TRCCONFIGR (BLK_COMMON + 0)
#define ETMV4_TRCTRACEIDR (BLK_COMMON + 1)
#define ETMV4_TRCIDR2 (BLK_COMMON + 4)
#define ETMV4_NR_PARAMS 7
#define TRCCONFIGR_CYCACC (1u << 4)
#define TRCCONFIGR_VMID (1u << 7)
#define TRCCONFIGR_COND_MASK (7u << 8)

int hwt_emu_cs_source(const uint64_t *priv, size_t words, int cpu,
		      uint8_t *trace_id, struct hwt_etm_cfg *cfg,
		      const char **why)
{
	*why = "the AUXTRACE_INFO does not describe the CPU's trace unit";
	if (words < HDR_WORDS)
		return -EOPNOTSUPP;
	if (priv[HDR_VERSION] != VERSION_1) {
		/* Version 0 blocks have no sizes; version 2 trace IDs come
		 * from AUX_OUTPUT_HW_ID records, which the replay does not
		 * follow here. */
		*why = "the AUXTRACE_INFO is not version 1";
		return -EOPNOTSUPP;
	}
	uint32_t ncpus = (uint32_t)priv[HDR_PMU_TYPE_CPUS];
	size_t at = HDR_WORDS;
	for (uint32_t i = 0; i < ncpus && at + BLK_COMMON <= words; i++) {
		const uint64_t *b = priv + at;
		uint64_t nparams = b[BLK_NR_PARAMS];
		if (nparams > words - at - BLK_COMMON)
			return -EOPNOTSUPP;
		at += BLK_COMMON + nparams;
		if (b[BLK_CPU] != (uint64_t)cpu)
			continue;
		if (b[BLK_MAGIC] != MAGIC_ETMV4 ||
		    nparams < ETMV4_NR_PARAMS) {
			*why = "the CPU's trace unit is not an ETMv4";
			return -EOPNOTSUPP;
		}
		uint64_t configr = b[ETMV4_TRCCONFIGR];
		uint64_t idr2 = b[ETMV4_TRCIDR2];
		if (configr & TRCCONFIGR_CYCACC) {
			*why = "the trace has cycle counts, which the cut does not "
			       "re-encode";
			return -EOPNOTSUPP;
		}
		if (configr & TRCCONFIGR_VMID) {
			*why = "the trace has VMIDs, which the cut does not "
			       "re-encode";
			return -EOPNOTSUPP;
		}
		if (configr & TRCCONFIGR_COND_MASK) {
			*why = "the trace has conditional instruction trace, which "
			       "the cut does not re-encode";
			return -EOPNOTSUPP;
		}
		/* TRCIDR2.CIDSIZE (bits 9:5) and VMIDSIZE (14:10): 0, or
		 * the size in bytes. */
		uint32_t cid = (uint32_t)(idr2 >> 5 & 0x1f);
		uint32_t vmid = (uint32_t)(idr2 >> 10 & 0x1f);
		if ((cid != 0 && cid != 4) ||
		    (vmid != 0 && vmid != 1 && vmid != 2 && vmid != 4)) {
			*why = "the trace unit's TRCIDR2 gives sizes the cut does "
			       "not know";
			return -EOPNOTSUPP;
		}
		cfg->cid_bytes = (uint8_t)cid;
		cfg->vmid_bytes = (uint8_t)vmid;
		*trace_id = (uint8_t)(b[ETMV4_TRCTRACEIDR] & 0x7f);
		*why = NULL;
		return 0;
	}
	return -EOPNOTSUPP;
}
