/* One CoreSight trace source (ETMv3, PTM, ETMv4, ETE) and the register
 * values its OpenCSD decoder is configured with. The metadata parser only
 * fills these in, so it builds even without OpenCSD: then the register
 * sets are declared here, with OpenCSD's names and layout. */
#ifndef HWT_CS_SOURCE_H
#define HWT_CS_SOURCE_H

#include <stdint.h>

#if defined(__has_include)
#if __has_include(<opencsd/c_api/opencsd_c_api.h>)
#include <opencsd/c_api/opencsd_c_api.h>
#define HWT_CS_OCSD_HEADERS 1
#endif
#endif

#ifndef HWT_CS_OCSD_HEADERS
typedef enum {
	ARCH_UNKNOWN = 0x0000,
	ARCH_V7 = 0x0700,
	ARCH_V8 = 0x0800,
	ARCH_V8r3 = 0x0803,
	ARCH_AA64 = 0x0864,
} ocsd_arch_version_t;

typedef enum {
	profile_Unknown,
	profile_CortexM,
	profile_CortexR,
	profile_CortexA,
} ocsd_core_profile_t;

typedef struct {
	uint32_t reg_idr, reg_ctrl, reg_ccer, reg_trc_id;
	ocsd_arch_version_t arch_ver;
	ocsd_core_profile_t core_prof;
} ocsd_etmv3_cfg, ocsd_ptm_cfg;

typedef struct {
	uint32_t reg_idr0, reg_idr1, reg_idr2, reg_idr8, reg_idr9, reg_idr10,
		reg_idr11, reg_idr12, reg_idr13, reg_configr, reg_traceidr;
	ocsd_arch_version_t arch_ver;
	ocsd_core_profile_t core_prof;
} ocsd_etmv4_cfg;

typedef struct {
	uint32_t reg_idr0, reg_idr1, reg_idr2, reg_idr8, reg_devarch,
		reg_configr, reg_traceidr;
	ocsd_arch_version_t arch_ver;
	ocsd_core_profile_t core_prof;
} ocsd_ete_cfg;
#endif

enum hwt_cs_proto {
	HWT_CS_PROTO_ETMV3,
	HWT_CS_PROTO_PTM,
	HWT_CS_PROTO_ETMV4,
	HWT_CS_PROTO_ETE,
};

/* One trace source (ETM/PTM/ETE) and its decoder configuration. */
struct hwt_cs_source {
	enum hwt_cs_proto proto;
	int32_t cpu;      /* -1 when unknown */
	uint8_t trace_id; /* CoreSight trace ID (7 bits) */
	union {
		ocsd_etmv3_cfg etmv3;
		ocsd_ptm_cfg ptm;
		ocsd_etmv4_cfg etmv4;
		ocsd_ete_cfg ete;
	} cfg;
};

#endif
