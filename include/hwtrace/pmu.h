/* Trace-PMU discovery: what /sys/bus/event_source/devices says about the
 * AUX-area PMUs of a machine (intel_pt, intel_bts, cs_etm, and others that
 * are named but not supported yet), read through the OS seam so a fixture
 * tree can stand in for /sys.
 *
 * A format field is what the kernel publishes in <pmu>/format/<term>:
 * "config:0-3,8" means the term's value is spread over bits 0..3 and then
 * bit 8 of perf_event_attr.config, low bits first (the way perf packs it).
 * hwt_pmu_format_set packs a value into such a field. */
#ifndef HWTRACE_PMU_H
#define HWTRACE_PMU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>

#include "hwtrace/common.h"

#ifdef __cplusplus
extern "C" {
#endif

struct hwt_os;

#define HWT_PMU_NAME_MAX 64
#define HWT_PMU_VALUE_MAX 64
#define HWT_PMU_MAX_RANGES 8

/* The PMUs hwtrace knows by name. */
enum hwt_pmu_kind {
	HWT_PMU_OTHER_AUX,  /* an AUX PMU hwtrace cannot drive yet */
	HWT_PMU_INTEL_PT,
	HWT_PMU_INTEL_BTS,
	HWT_PMU_CS_ETM,
	HWT_PMU_ARM_SPE,
};

/* One run of bits [lo, hi] of a config word. */
struct hwt_bit_range {
	uint8_t lo, hi;
};

/* A format term: word 0 is attr.config, 1 config1, 2 config2, 3 config3
 * (config3 exists in kernels 6.3 and later). */
struct hwt_pmu_format {
	char name[HWT_PMU_NAME_MAX];
	int word;
	unsigned int nranges;
	struct hwt_bit_range ranges[HWT_PMU_MAX_RANGES];
};

/* A caps/<name> file, kept as the text the kernel wrote (intel_pt writes
 * hexadecimal without "0x": "3f" means 0x3f). */
struct hwt_pmu_cap {
	char name[HWT_PMU_NAME_MAX];
	char value[HWT_PMU_VALUE_MAX];
};

/* A CoreSight sink as cs_etm/sinks/<name> lists it; @id goes into
 * attr.config2 (format term sinkid) to select it. */
struct hwt_pmu_sink {
	char name[HWT_PMU_NAME_MAX];
	uint32_t id;
};

enum hwt_trace_unit_kind {
	HWT_TU_UNKNOWN,
	HWT_TU_ETMV3,
	HWT_TU_PTM,
	HWT_TU_ETMV4,
	HWT_TU_ETE,
};

/* A register file of a trace unit: "trcidr0" (from trcidr/) or
 * "trcauthstatus" (from mgmt/). */
struct hwt_trace_reg {
	char name[32];
	uint64_t value;
};

/* The trace unit of one CPU (cs_etm/cpu<N>/). */
struct hwt_trace_unit {
	int cpu;
	enum hwt_trace_unit_kind kind;
	size_t nregs;
	struct hwt_trace_reg *regs;
	/* /sys/bus/coresight/devices/trbe<cpu> exists: this CPU has a TRBE,
	 * its own per-CPU sink. */
	bool trbe;
};

struct hwt_pmu {
	char name[HWT_PMU_NAME_MAX];
	enum hwt_pmu_kind kind;
	uint32_t type;         /* the attr.type to open it with */
	bool supported;        /* a compiled-in backend drives it */
	size_t nformats;
	struct hwt_pmu_format *formats;
	size_t ncaps;
	struct hwt_pmu_cap *caps;
	int nr_addr_filters;   /* -1 when the PMU has no such file */
	size_t nsinks;         /* cs_etm only */
	struct hwt_pmu_sink *sinks;
	size_t nunits;         /* cs_etm only, in CPU order */
	struct hwt_trace_unit *units;
};

/* The trace PMUs of a machine, plus what is needed to explain their
 * absence. */
struct hwt_pmu_list {
	size_t count;
	struct hwt_pmu *pmus;
	/* Every PMU directory name found (trace or not), for messages. */
	size_t nall;
	char (*all)[HWT_PMU_NAME_MAX];
	bool have_coresight_bus; /* /sys/bus/coresight/devices exists */
	char cpu_vendor[64];     /* from /proc/cpuinfo; "" when unknown */
	char cpus_online[64];    /* devices/system/cpu/online; "" when absent */
};

/* Scans @os's sysfs for trace PMUs. On success stores a new list in *out
 * (free with hwt_pmu_list_free); a machine without any gives an empty list,
 * not an error. Errors: HWT_ERR_NOMEM; HWT_ERR_FORMAT when a PMU's file is
 * malformed (the message names the file); HWT_ERR_IO, HWT_ERR_PERM. */
HWT_API int hwt_pmu_scan(const struct hwt_os *os, struct hwt_pmu_list **out);

/* Frees a list from hwt_pmu_scan; NULL is a no-op. */
HWT_API void hwt_pmu_list_free(struct hwt_pmu_list *list);

/* The PMU named @name in @list, or NULL. The result is owned by @list. */
HWT_API const struct hwt_pmu *hwt_pmu_list_find(const struct hwt_pmu_list *list,
						const char *name);

/* Format term, cap, sink, trace unit and register look-ups; NULL when
 * absent. Results are owned by their PMU. */
HWT_API const struct hwt_pmu_format *hwt_pmu_format(const struct hwt_pmu *pmu,
						    const char *term);
HWT_API const char *hwt_pmu_cap(const struct hwt_pmu *pmu, const char *name);
HWT_API const struct hwt_pmu_sink *hwt_pmu_sink(const struct hwt_pmu *pmu,
						const char *name);
HWT_API const struct hwt_trace_unit *
hwt_pmu_trace_unit(const struct hwt_pmu *pmu, int cpu);
HWT_API bool hwt_trace_unit_reg(const struct hwt_trace_unit *unit,
				const char *name, uint64_t *value);

/* A cap read as the kernel prints it: hexadecimal for intel_pt. Returns
 * false when the cap is absent or not a number. */
HWT_API bool hwt_pmu_cap_u64(const struct hwt_pmu *pmu, const char *name,
			     uint64_t *value);

/* Parses a format file's text ("config:0-3,8", "config2:32-63") into *fmt
 * (its name is left alone). Errors: HWT_ERR_FORMAT, with a message quoting
 * @text; @what names the file for it. */
HWT_API int hwt_pmu_format_parse(const char *text, const char *what,
				 struct hwt_pmu_format *fmt);

/* The number of value bits of a format field, and the mask its bits take
 * in their config word. */
HWT_API unsigned int hwt_pmu_format_width(const struct hwt_pmu_format *fmt);
HWT_API uint64_t hwt_pmu_format_mask(const struct hwt_pmu_format *fmt);

/* Packs @value into @fmt's bits of @attr (clearing them first), low value
 * bits into the first range. Errors: HWT_ERR_CONFIG when @value does not
 * fit (the message gives the field and the largest value);
 * HWT_ERR_NOSUP for config3, which this build's perf_event_attr lacks. */
HWT_API int hwt_pmu_format_set(const struct hwt_pmu_format *fmt,
			       uint64_t value, struct perf_event_attr *attr);

/* Looks @term up in @pmu's formats and packs @value. Errors: as
 * hwt_pmu_format_set, plus HWT_ERR_NOENT when @pmu has no such term. */
HWT_API int hwt_pmu_term_set(const struct hwt_pmu *pmu, const char *term,
			     uint64_t value, struct perf_event_attr *attr);

/* Reads @fmt's value back out of @attr. */
HWT_API uint64_t hwt_pmu_format_get(const struct hwt_pmu_format *fmt,
				    const struct perf_event_attr *attr);

/* Printable names: "ETMv4", "intel_pt", ... Never NULL. */
HWT_API const char *hwt_trace_unit_kind_name(enum hwt_trace_unit_kind kind);

#ifdef __cplusplus
}
#endif

#endif
