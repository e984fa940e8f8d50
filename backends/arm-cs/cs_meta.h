/* The cs_etm PERF_RECORD_AUXTRACE_INFO priv[] layout, as Linux perf writes
 * it (tools/perf/util/cs-etm.h): a header of three words, then one block
 * per traced CPU, in CPU order. Each block starts with a magic number that
 * names the tracer (ETMv3/PTM, ETMv4, ETE), the CPU and the number of
 * trace parameters that follow.
 *
 * Header version 0 (older perf, simpleperf) has no parameter count: the
 * blocks have the fixed lengths HWT_CS_*_NR_PARAMS_V0. Version 1 (perf up
 * to 6.2, and what hwtrace writes so perf 6.1 reads it) has the count.
 * Version 2 (perf 6.3 on) is version 1 with trace IDs carried by
 * PERF_RECORD_AUX_OUTPUT_HW_ID and one more parameter (TS_SOURCE) per
 * ETMv4/ETE block; readers take the count from the block and ignore
 * parameters they do not know. Shared by the recorder (cs_info.c) and the
 * decoder. */
#ifndef HWT_BACKENDS_ARM_CS_META_H
#define HWT_BACKENDS_ARM_CS_META_H

#include <stdint.h>

/* Header words. */
enum {
	HWT_CS_HDR_VERSION = 0,
	HWT_CS_HDR_PMU_TYPE_CPUS = 1, /* PMU type << 32 | number of CPUs */
	HWT_CS_HDR_SNAPSHOT = 2,
	HWT_CS_HDR_WORDS = 3,
};

#define HWT_CS_HEADER_VERSION_0 0u
#define HWT_CS_HEADER_VERSION_1 1u
#define HWT_CS_HEADER_VERSION_2 2u
/* The version hwtrace writes: the newest one perf 6.1 accepts. */
#define HWT_CS_HEADER_VERSION_WRITTEN HWT_CS_HEADER_VERSION_1

#define HWT_CS_MAGIC_ETMV3 0x3030303030303030ull
#define HWT_CS_MAGIC_ETMV4 0x4040404040404040ull
#define HWT_CS_MAGIC_ETE 0x5050505050505050ull

/* Words common to every per-CPU block (version 1 and 2; version 0 blocks
 * have only MAGIC and CPU before the parameters). */
enum {
	HWT_CS_BLK_MAGIC = 0,
	HWT_CS_BLK_CPU = 1,
	HWT_CS_BLK_NR_PARAMS = 2,
	HWT_CS_BLK_COMMON_WORDS = 3,
};

/* ETMv3 / PTM block, word indexes from the block start (version 1). */
enum {
	HWT_CS_ETMV3_ETMCR = HWT_CS_BLK_COMMON_WORDS,
	HWT_CS_ETMV3_ETMTRACEIDR,
	HWT_CS_ETMV3_ETMCCER,
	HWT_CS_ETMV3_ETMIDR,
	HWT_CS_ETMV3_WORDS,
};
#define HWT_CS_ETMV3_NR_PARAMS (HWT_CS_ETMV3_WORDS - HWT_CS_BLK_COMMON_WORDS)
#define HWT_CS_ETMV3_NR_PARAMS_V0 4

/* ETMv4 block (version 1; version 2 appends TS_SOURCE). */
enum {
	HWT_CS_ETMV4_TRCCONFIGR = HWT_CS_BLK_COMMON_WORDS,
	HWT_CS_ETMV4_TRCTRACEIDR,
	HWT_CS_ETMV4_TRCIDR0,
	HWT_CS_ETMV4_TRCIDR1,
	HWT_CS_ETMV4_TRCIDR2,
	HWT_CS_ETMV4_TRCIDR8,
	HWT_CS_ETMV4_TRCAUTHSTATUS,
	HWT_CS_ETMV4_WORDS,
	HWT_CS_ETMV4_TS_SOURCE_V2 = HWT_CS_ETMV4_WORDS,
};
#define HWT_CS_ETMV4_NR_PARAMS (HWT_CS_ETMV4_WORDS - HWT_CS_BLK_COMMON_WORDS)
#define HWT_CS_ETMV4_NR_PARAMS_V0 7

/* ETE block: the ETMv4 registers plus TRCDEVARCH (version 1; version 2
 * appends TS_SOURCE). ETE never had a version 0 block. */
enum {
	HWT_CS_ETE_TRCCONFIGR = HWT_CS_BLK_COMMON_WORDS,
	HWT_CS_ETE_TRCTRACEIDR,
	HWT_CS_ETE_TRCIDR0,
	HWT_CS_ETE_TRCIDR1,
	HWT_CS_ETE_TRCIDR2,
	HWT_CS_ETE_TRCIDR8,
	HWT_CS_ETE_TRCAUTHSTATUS,
	HWT_CS_ETE_TRCDEVARCH,
	HWT_CS_ETE_WORDS,
	HWT_CS_ETE_TS_SOURCE_V2 = HWT_CS_ETE_WORDS,
};
#define HWT_CS_ETE_NR_PARAMS (HWT_CS_ETE_WORDS - HWT_CS_BLK_COMMON_WORDS)

/* Trace IDs in version 0/1 metadata follow the kernel's old fixed rule;
 * a version 2 file (or an AUX_OUTPUT_HW_ID record) overrides them. */
#define HWT_CS_LEGACY_TRACE_ID(cpu) (0x10u + 2u * (uint32_t)(cpu))

/* perf_event_attr.config bits of cs_etm (include/linux/coresight-pmu.h)
 * and the TRCCONFIGR bits perf derives from them for ETMv4/ETE. */
#define HWT_CS_OPT_BRANCH_BROADCAST 8
#define HWT_CS_OPT_CYCACC 12
#define HWT_CS_OPT_CTXTID 14
#define HWT_CS_OPT_CTXTID2 15
#define HWT_CS_OPT_TS 28
#define HWT_CS_OPT_RETSTK 29

#define HWT_CS_TRCCONFIGR_BB 3
#define HWT_CS_TRCCONFIGR_CYCACC 4
#define HWT_CS_TRCCONFIGR_CTXTID 6
#define HWT_CS_TRCCONFIGR_VMID 7
#define HWT_CS_TRCCONFIGR_TS 11
#define HWT_CS_TRCCONFIGR_RETSTK 12
#define HWT_CS_TRCCONFIGR_VMID_OPT 15

/* TRCDEVARCH of an ETE: ARCHVER (bits 15:12) 5, ARCHPART (11:0) 0xa13. */
#define HWT_CS_DEVARCH_ARCHVER(v) (((v) >> 12) & 0xfu)
#define HWT_CS_DEVARCH_ARCHPART(v) ((v) & 0xfffu)
#define HWT_CS_DEVARCH_IS_ETE(v) \
	(HWT_CS_DEVARCH_ARCHVER(v) == 5u && HWT_CS_DEVARCH_ARCHPART(v) == 0xa13u)

#endif
