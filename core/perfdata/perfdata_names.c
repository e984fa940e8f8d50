/* Names of perf.data record types and feature sections, as perf prints them. */
#include <stdio.h>

#include "core/perfdata/perfdata_format.h"

static const char *const kernel_types[] = {
	[PERF_RECORD_MMAP] = "MMAP",
	[PERF_RECORD_LOST] = "LOST",
	[PERF_RECORD_COMM] = "COMM",
	[PERF_RECORD_EXIT] = "EXIT",
	[PERF_RECORD_THROTTLE] = "THROTTLE",
	[PERF_RECORD_UNTHROTTLE] = "UNTHROTTLE",
	[PERF_RECORD_FORK] = "FORK",
	[PERF_RECORD_READ] = "READ",
	[PERF_RECORD_SAMPLE] = "SAMPLE",
	[PERF_RECORD_MMAP2] = "MMAP2",
	[PERF_RECORD_AUX] = "AUX",
	[PERF_RECORD_ITRACE_START] = "ITRACE_START",
	[PERF_RECORD_LOST_SAMPLES] = "LOST_SAMPLES",
	[PERF_RECORD_SWITCH] = "SWITCH",
	[PERF_RECORD_SWITCH_CPU_WIDE] = "SWITCH_CPU_WIDE",
	[PERF_RECORD_NAMESPACES] = "NAMESPACES",
	[PERF_RECORD_KSYMBOL] = "KSYMBOL",
	[PERF_RECORD_BPF_EVENT] = "BPF_EVENT",
	[PERF_RECORD_CGROUP] = "CGROUP",
	[PERF_RECORD_TEXT_POKE] = "TEXT_POKE",
	[21] = "AUX_OUTPUT_HW_ID",
};

static const char *const user_types[] = {
	"ATTR", "EVENT_TYPE", "TRACING_DATA", "BUILD_ID", "FINISHED_ROUND",
	"ID_INDEX", "AUXTRACE_INFO", "AUXTRACE", "AUXTRACE_ERROR",
	"THREAD_MAP", "CPU_MAP", "STAT_CONFIG", "STAT", "STAT_ROUND",
	"EVENT_UPDATE", "TIME_CONV", "FEATURE", "COMPRESSED", "FINISHED_INIT",
	"COMPRESSED2",
};

/* simpleperf's own record types, from 32769. */
static const char *const simpleperf_types[] = {
	"SIMPLEPERF_KERNEL_SYMBOL", "SIMPLEPERF_DSO", "SIMPLEPERF_SYMBOL",
	"SIMPLEPERF_SPLIT", "SIMPLEPERF_SPLIT_END", "SIMPLEPERF_EVENT_ID",
	"SIMPLEPERF_CALLCHAIN", "SIMPLEPERF_UNWINDING_RESULT",
	"SIMPLEPERF_TRACING_DATA", "SIMPLEPERF_DEBUG",
};

const char *hwt_pd_record_type_name(uint32_t type)
{
	size_t n;

	if (type < sizeof(kernel_types) / sizeof(kernel_types[0]))
		return kernel_types[type];
	n = sizeof(user_types) / sizeof(user_types[0]);
	if (type >= PD_USER_TYPE_START && type < PD_USER_TYPE_START + n)
		return user_types[type - PD_USER_TYPE_START];
	n = sizeof(simpleperf_types) / sizeof(simpleperf_types[0]);
	if (type > PD_SIMPLEPERF_TYPE_START &&
	    type <= PD_SIMPLEPERF_TYPE_START + n)
		return simpleperf_types[type - PD_SIMPLEPERF_TYPE_START - 1];
	return NULL;
}

const char *pd_type_label(uint32_t type, char *buf, size_t size)
{
	const char *name = hwt_pd_record_type_name(type);

	if (name)
		snprintf(buf, size, "%s (%u)", name, type);
	else
		snprintf(buf, size, "unknown type %u", type);
	return buf;
}

static const char *const feature_names[] = {
	[HWT_PD_FEAT_TRACING_DATA] = "trace_info",
	[HWT_PD_FEAT_BUILD_ID] = "build_id",
	[HWT_PD_FEAT_HOSTNAME] = "hostname",
	[HWT_PD_FEAT_OSRELEASE] = "osrelease",
	[HWT_PD_FEAT_VERSION] = "version",
	[HWT_PD_FEAT_ARCH] = "arch",
	[HWT_PD_FEAT_NRCPUS] = "nrcpus",
	[HWT_PD_FEAT_CPUDESC] = "cpudesc",
	[HWT_PD_FEAT_CPUID] = "cpuid",
	[HWT_PD_FEAT_TOTAL_MEM] = "total_mem",
	[HWT_PD_FEAT_CMDLINE] = "cmdline",
	[HWT_PD_FEAT_EVENT_DESC] = "event_desc",
	[HWT_PD_FEAT_CPU_TOPOLOGY] = "cpu_topology",
	[HWT_PD_FEAT_NUMA_TOPOLOGY] = "numa_topology",
	[HWT_PD_FEAT_BRANCH_STACK] = "branch_stack",
	[HWT_PD_FEAT_PMU_MAPPINGS] = "pmu_mappings",
	[HWT_PD_FEAT_GROUP_DESC] = "group_desc",
	[HWT_PD_FEAT_AUXTRACE] = "auxtrace",
	[HWT_PD_FEAT_STAT] = "stat",
	[HWT_PD_FEAT_CACHE] = "cache",
	[HWT_PD_FEAT_SAMPLE_TIME] = "sample_time",
	[HWT_PD_FEAT_MEM_TOPOLOGY] = "mem_topology",
	[HWT_PD_FEAT_CLOCKID] = "clockid",
	[HWT_PD_FEAT_DIR_FORMAT] = "dir_format",
	[HWT_PD_FEAT_BPF_PROG_INFO] = "bpf_prog_info",
	[HWT_PD_FEAT_BPF_BTF] = "bpf_btf",
	[HWT_PD_FEAT_COMPRESSED] = "compressed",
	[HWT_PD_FEAT_CPU_PMU_CAPS] = "cpu_pmu_caps",
	[HWT_PD_FEAT_CLOCK_DATA] = "clock_data",
	[HWT_PD_FEAT_HYBRID_TOPOLOGY] = "hybrid_topology",
	[HWT_PD_FEAT_PMU_CAPS] = "pmu_caps",
	[HWT_PD_FEAT_HWTRACE_CUT_SHORT] = "hwtrace_cut_short",
	[HWT_PD_FEAT_HWTRACE_TRIGGER] = "hwtrace_trigger",
};

static const char *const simpleperf_features[] = {
	"simpleperf_file", "simpleperf_meta_info", "simpleperf_debug_unwind",
	"simpleperf_debug_unwind_file", "simpleperf_file2",
};

const char *hwt_pd_feature_name(unsigned int bit)
{
	size_t n = sizeof(simpleperf_features) / sizeof(simpleperf_features[0]);

	if (bit < sizeof(feature_names) / sizeof(feature_names[0]))
		return feature_names[bit];
	if (bit >= PD_SIMPLEPERF_FEAT_START && bit < PD_SIMPLEPERF_FEAT_START + n)
		return simpleperf_features[bit - PD_SIMPLEPERF_FEAT_START];
	return NULL;
}
