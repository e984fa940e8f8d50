/* Branch records (Intel LBR and Arch LBR, Arm BRBE, AMD BRS and LBRv2):
 * the PERF_SAMPLE_BRANCH_STACK of a sample, one struct perf_branch_entry
 * per record as include/uapi/linux/perf_event.h lays it out, newest
 * first. docs/branch-records.md has the hardware and its limits. */
#ifndef HWTRACE_BRSTACK_H
#define HWTRACE_BRSTACK_H

#include <stdbool.h>
#include <stdint.h>

#include "hwtrace/common.h"
#include "hwtrace/element.h"
#include "hwtrace/os.h"
#include "hwtrace/sample.h"

#ifdef __cplusplus
extern "C" {
#endif

/* branch_sample_type bits newer than some distributions' headers (the
 * kernel's values: PRIV_SAVE since 6.1, COUNTERS since 6.8). */
#define HWT_SAMPLE_BRANCH_PRIV_SAVE (1ull << 18)
#define HWT_SAMPLE_BRANCH_COUNTERS (1ull << 19)

/* The bytes of one record in the sample: from, to and the flags word. */
#define HWT_BRSTACK_ENTRY_SIZE 24u

/* The branch type field (perf's PERF_BR_*), as the hardware or the
 * kernel's software filter classified the branch; 0 when the event did
 * not ask for PERF_SAMPLE_BRANCH_TYPE_SAVE or nothing classified it. */
enum hwt_br_type {
	HWT_BR_UNKNOWN = 0,
	HWT_BR_COND = 1,
	HWT_BR_UNCOND = 2,
	HWT_BR_IND = 3,
	HWT_BR_CALL = 4,
	HWT_BR_IND_CALL = 5,
	HWT_BR_RET = 6,
	HWT_BR_SYSCALL = 7,
	HWT_BR_SYSRET = 8,
	HWT_BR_COND_CALL = 9,
	HWT_BR_COND_RET = 10,
	HWT_BR_ERET = 11,
	HWT_BR_IRQ = 12,
	HWT_BR_SERROR = 13,
	HWT_BR_NO_TX = 14,
	HWT_BR_EXTEND_ABI = 15, /* the kind is in new_type */
};

/* new_type when type is HWT_BR_EXTEND_ABI (perf's PERF_BR_NEW_*; the
 * ARCH_n values are Arm's FIQ and debug entries on BRBE). */
enum hwt_br_new_type {
	HWT_BR_NEW_FAULT_ALGN = 0,
	HWT_BR_NEW_FAULT_DATA = 1,
	HWT_BR_NEW_FAULT_INST = 2,
	HWT_BR_NEW_ARCH_1 = 3, /* arm64: FIQ */
	HWT_BR_NEW_ARCH_2 = 4, /* arm64: debug halt */
	HWT_BR_NEW_ARCH_3 = 5, /* arm64: debug exit */
	HWT_BR_NEW_ARCH_4 = 6, /* arm64: debug instruction */
	HWT_BR_NEW_ARCH_5 = 7, /* arm64: debug data */
};

/* One record, every field of perf_branch_entry's flags word. */
struct hwt_brstack_entry {
	uint64_t from, to;
	uint64_t counters;  /* PERF_SAMPLE_BRANCH_COUNTERS' word, else 0 */
	uint16_t cycles;    /* cycles since the previous record; 0: none */
	uint8_t type;       /* enum hwt_br_type */
	uint8_t new_type;   /* enum hwt_br_new_type */
	uint8_t spec;       /* perf's PERF_BR_SPEC_*: 0 not available */
	uint8_t priv;       /* perf's PERF_BR_PRIV_*: 1 user, 2 kernel, 3 hv */
	bool mispred, predicted, in_tx, abort;
};

/* Record @i (0: the newest) of the branch stack that
 * hwt_aux_sample_parse found in @s (i < s->br_nr). */
HWT_API void hwt_brstack_entry_get(const struct hwt_aux_sample *s, uint64_t i,
				   struct hwt_brstack_entry *out);

/* The element kind the record's type field names. false when it names
 * none (no type saved, a transaction abort): then *kind is untouched. */
HWT_API bool hwt_brstack_kind(const struct hwt_brstack_entry *e,
			      enum hwt_branch_kind *kind);

/* perf record -j's filter list @spec ("any,u", "any_call,save_type",
 * ...; names as perf's, case-insensitive, comma-separated) as
 * branch_sample_type bits in *@mode. As perf, privilege levels alone
 * (u, k, hv) give PERF_SAMPLE_BRANCH_ANY. Errors: HWT_ERR_CONFIG in perf's
 * words ("unknown branch filter NAME, check man page"), led by @what (the
 * option or INI key) and @spec. */
HWT_API int hwt_branch_filter_parse(const char *spec, const char *what,
				    uint64_t *mode);

/* What a CPU's PMU offers for branch records, from sysfs. */
enum hwt_branch_hw_kind {
	HWT_BRANCH_HW_LBR = 1, /* caps/branches: Intel LBR, Arch LBR, AMD LBRv2 */
	HWT_BRANCH_HW_BRS,     /* events/branch-brs: AMD BRS (Zen 3) */
	HWT_BRANCH_HW_BRBE,    /* an Arm PMU's caps/branches: BRBE */
};

struct hwt_branch_hw {
	enum hwt_branch_hw_kind kind;
	unsigned depth;    /* records a sample holds at most */
	unsigned counters; /* caps/branch_counter_nr; 0: no -j counter */
	char pmu[32];      /* "cpu", "cpu_core", "cpu_atom", "armv8_pmuv3_0" */
	/* HWT_BRANCH_HW_LBR of an Arch LBR PMU (caps/pmu_name, see
	 * hwt_branch_hw_probe): its samples carry no top-of-stack index
	 * (hw_idx -1) and every record's type. */
	bool arch_lbr;
	/* caps/branch_counter_width: the bits of each event's count in a
	 * record's PERF_SAMPLE_BRANCH_COUNTERS word (Intel: 2); set when
	 * counters is. */
	unsigned counter_width;
};

/* "LBR", "AMD BRS", "Arm BRBE": the kind's name in messages. */
HWT_API const char *hwt_branch_hw_name(enum hwt_branch_hw_kind kind);

/* Looks for branch records in the sysfs @os reads: the cpu (or hybrid
 * cpu_core, cpu_atom) PMU's caps/branches, else its events/branch-brs,
 * else the caps/branches of an Arm PMU (armv8_*, armv9_*: BRBE, at most
 * 64; docs/branch-records.md says where that file comes from).
 * Errors: HWT_ERR_NOENT when there is neither (no message: not an
 * error on a machine without them), HWT_ERR_FORMAT for a caps/branches
 * that is not a depth (named). */
HWT_API int hwt_branch_hw_probe(const struct hwt_os *os,
				struct hwt_branch_hw *out);

/* Whether @hw (NULL or depth 0: none found) can sample @event (its name,
 * for the message) with branch_sample_type @mode. Errors: HWT_ERR_NOSUP
 * in perf's words where perf has them ("EVENT: PMU Hardware or event type
 * doesn't support branch stack sampling."), saying why and what to do:
 * no branch records, -j counter without caps/branch_counter_nr, AMD BRS
 * with any filter but -j any. */
HWT_API int hwt_branch_filter_check(const struct hwt_branch_hw *hw,
				    uint64_t mode, const char *event);

/* Branch-stack sampling as perf record -b / -j / -c / -F set it up. */
struct hwt_branch_sampling {
	uint64_t mode;   /* branch_sample_type (hwt_branch_filter_parse) */
	uint64_t period; /* a sample every @period events; 0: by @freq */
	uint64_t freq;   /* samples a second; 0 (and no period): perf's 4000 */
	uint64_t config; /* PERF_TYPE_HARDWARE event: PERF_COUNT_HW_* */
};

struct hwt_profile;

/* The [branch] section of a profile into *@out (what is not set keeps
 * its value): filter (perf record -j's names), period, freq. Errors:
 * HWT_ERR_CONFIG naming the key (an unknown filter, a number that is
 * not one, period and freq both). */
HWT_API int hwt_branch_sampling_from_profile(const struct hwt_profile *p,
					     struct hwt_branch_sampling *out);

/* The sampling `hwtrace record -b` takes (perf record's options over a
 * profile): the [branch] section of the profile file @profile (NULL for
 * none), then the options: @any (-b) is every taken branch, @filter
 * (-j's names, NULL for none) the filter, and a nonzero @period (-c) or
 * @freq (-F) replaces the profile's period and freq. The event is
 * PERF_COUNT_HW_BRANCH_INSTRUCTIONS. Errors: those of hwt_profile_load,
 * hwt_branch_sampling_from_profile and hwt_branch_filter_parse (naming
 * -j). */
HWT_API int hwt_branch_sampling_of(const char *profile, bool any,
				   const char *filter, uint64_t period,
				   uint64_t freq,
				   struct hwt_branch_sampling *out);

/* The sampling event's attribute for @bs, checked against @hw
 * (hwt_branch_filter_check, and the hardware's depth): PERF_TYPE_HARDWARE
 * @bs->config, sample_type IP, TID, TIME, PERIOD, BRANCH_STACK and
 * IDENTIFIER, the filter's privilege levels as exclude_* bits (none
 * given: every level, the kernel's), period or frequency. @event names
 * the event in messages. Errors: those of hwt_branch_filter_check;
 * HWT_ERR_CONFIG for period and freq both. */
HWT_API int hwt_branch_attr_build(const struct hwt_branch_sampling *bs,
				  const struct hwt_branch_hw *hw,
				  const char *event,
				  struct perf_event_attr *attr);

/* An event group for branch counters (perf record -e '{A,B,...}', Linux
 * 6.8): the leader samples the branch stack, the members are counted
 * beside it, and the counts of those asking for counters (-j counter, or
 * a member's branch_type=counter term) ride in each record's counter
 * word (hwtrace/brcntr.h), in group order. */
#define HWT_BRANCH_GROUP_MAX 8u

struct hwt_branch_member {
	char name[128];   /* the event as written: "branch-misses",
			     "cpu/event=0xc4,umask=0xfe,branch_type=counter/" */
	char pmu[32];     /* the PMU it names ("cpu/.../"), "" for a bare name */
	uint32_t type;    /* PERF_TYPE_HARDWARE (a name) or PERF_TYPE_RAW */
	uint64_t config;  /* PERF_COUNT_HW_*, or event | umask << 8 */
	uint64_t branch_type; /* its branch_type= terms' branch_sample_type */
};

struct hwt_branch_group {
	unsigned n;       /* members, the leader first: 1 to HWT_BRANCH_GROUP_MAX */
	struct hwt_branch_member m[HWT_BRANCH_GROUP_MAX];
};

/* Parses -e's group @spec, perf's braces around comma-separated events:
 * "{branches,cpu/branch-misses,branch_type=counter/}". An event is a
 * hardware event's name (branches, branch-instructions, branch-misses,
 * cycles, cpu-cycles, instructions) or PMU/TERMS/ whose terms are one
 * such name or event=N and umask=N (the x86 cpu PMU's raw encoding:
 * event in config bits 0-7, umask in 8-15), and any number of
 * branch_type=FILTER (perf record -j's names). Errors: HWT_ERR_CONFIG led
 * by @what (the option or INI key) and @spec: not a group (no braces),
 * an empty or unknown event or term, more than HWT_BRANCH_GROUP_MAX
 * events, a name too long. */
HWT_API int hwt_branch_group_parse(const char *spec, const char *what,
				   struct hwt_branch_group *out);

/* Whether the PMU @hw can record group @g with the sampling's filter
 * @mode (-j's; PERF_SAMPLE_BRANCH_COUNTERS there asks counters of every
 * member, as perf applies -j to every event), as the kernel's
 * intel_pmu_hw_config allows it: some member asks for counters, the
 * leader among them (its samples carry the words); the PMU has them (caps/branch_counter_nr); no more members ask than it
 * has; every member is on the PMU of the branch records (a bare name is);
 * no call-stack mode. Errors: HWT_ERR_CONFIG led by @what, naming the
 * members and the sysfs cap. */
HWT_API int hwt_branch_group_check(const struct hwt_branch_group *g,
				   const struct hwt_branch_hw *hw,
				   uint64_t mode, const char *what);

/* Member @i of @g's branch_sample_type under -j's @mode: the leader's is
 * @mode with its terms' filters; another member's only counters
 * (PERF_SAMPLE_BRANCH_COUNTERS, when it asks for them, with @mode's
 * privilege levels), as the kernel takes a member that only counts. */
HWT_API uint64_t hwt_branch_group_member_mode(const struct hwt_branch_group *g,
					      unsigned i, uint64_t mode);

#ifdef __cplusplus
}
#endif

#endif
