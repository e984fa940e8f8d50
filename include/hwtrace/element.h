/* The vendor-neutral element stream (DESIGN.md §3). Every decoder emits
 * struct hwt_elem; every output format reads only this. */
#ifndef HWTRACE_ELEMENT_H
#define HWTRACE_ELEMENT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "hwtrace/common.h"

#ifdef __cplusplus
extern "C" {
#endif

enum hwt_elem_type {
	HWT_ELEM_RANGE,     /* instructions [start, end) executed in order */
	HWT_ELEM_BRANCH,    /* a taken branch from -> to */
	HWT_ELEM_TRACE_ON,  /* tracing (re)starts at an address */
	HWT_ELEM_TRACE_OFF, /* tracing stops (after an address, when known) */
	HWT_ELEM_TIMESTAMP, /* a time stamp with nothing else attached */
	HWT_ELEM_CONTEXT,   /* the execution context changed */
	HWT_ELEM_GAP,       /* trace is missing here: why and how much */
	HWT_ELEM_ERROR,     /* the decoder failed at an offset */
	HWT_ELEM_SAMPLE,    /* a sample with the branches that led to it */
};

enum hwt_branch_kind {
	HWT_BRANCH_CALL,
	HWT_BRANCH_RETURN,
	HWT_BRANCH_JUMP,
	HWT_BRANCH_COND,
	HWT_BRANCH_INDIRECT,
	HWT_BRANCH_SYSCALL,
	HWT_BRANCH_SYSRET,
	HWT_BRANCH_EXCEPTION,
	HWT_BRANCH_INTERRUPT,
	HWT_BRANCH_ERET,
};

enum hwt_isa {
	HWT_ISA_UNKNOWN,
	HWT_ISA_X86_64,
	HWT_ISA_X86_32,
	HWT_ISA_X86_16,
	HWT_ISA_A64,
	HWT_ISA_A32,
	HWT_ISA_T32,
	HWT_ISA_RV32, /* RISC-V, XLEN 32 (RV32GC) */
	HWT_ISA_RV64, /* RISC-V, XLEN 64 (RV64GC) */
};

enum hwt_gap_reason {
	HWT_GAP_TRUNCATED,    /* the kernel's AUX buffer was full */
	HWT_GAP_COLLISION,    /* the hardware collided with itself */
	HWT_GAP_LOST,         /* records lost (PERF_RECORD_LOST) */
	HWT_GAP_OVERFLOW,     /* the trace unit's own overflow packet */
	HWT_GAP_DECODE_ERROR, /* the decoder had to resynchronise */
	HWT_GAP_NO_SYNC,      /* no synchronisation point yet */
	HWT_GAP_NO_IMAGE,     /* code at an address is not in the memory image */
};

/* One entry of a sample's branch stack. */
struct hwt_branch_entry {
	uint64_t from, to;
	enum hwt_branch_kind kind;
};

/* Which optional common fields of an element are known. */
enum hwt_elem_field {
	HWT_FIELD_CPU = 1u << 0,
	HWT_FIELD_PID = 1u << 1,
	HWT_FIELD_TID = 1u << 2,
	HWT_FIELD_TIME = 1u << 3,
	HWT_FIELD_OFFSET = 1u << 4,   /* trace_offset */
	HWT_FIELD_EL = 1u << 5,       /* context.el */
	HWT_FIELD_VMID = 1u << 6,     /* context.vmid */
	HWT_FIELD_EXC_NUM = 1u << 7,  /* branch.exception */
	HWT_FIELD_GAP_BYTES = 1u << 8, /* gap.bytes */
	HWT_FIELD_AT = 1u << 9,       /* trace_on/trace_off.at */
	/* Per-CPU trace only: the element ran in one of several tasks (the
	 * two sides of a context switch, or more) and neither the trace's
	 * timestamps nor its structure tell which, so pid and tid are left
	 * out rather than guessed. Without this bit and without
	 * HWT_FIELD_PID/TID the task is simply unknown (no sideband). */
	HWT_FIELD_TASK_AMBIGUOUS = 1u << 10,
	/* trace_off: the thread's trace ends here for good (the tracer
	 * stopped: --stop, the thread's exit), it does not come back on
	 * where it went off. */
	HWT_FIELD_TRACE_END = 1u << 11,
	/* A branch record of a sampled branch stack (LBR, BRBE, BRS;
	 * hwtrace/brstack.h): branch.weight, depth, flags and priv hold. */
	HWT_FIELD_SAMPLED = 1u << 12,
	HWT_FIELD_CYCLES = 1u << 13,  /* branch.cycles */
	/* Nothing said what kind of branch it was (a record without its
	 * type, code not found): branch.kind means nothing. */
	HWT_FIELD_NO_KIND = 1u << 14,
	/* A branch whose target the trace gives and whose source it does
	 * not (an Intel PT TIP read without the code): branch.from means
	 * nothing. */
	HWT_FIELD_NO_FROM = 1u << 15,
	/* The record's counters word (PERF_SAMPLE_BRANCH_COUNTERS, -j
	 * counter): branch.counters. */
	HWT_FIELD_BR_COUNTERS = 1u << 16,
};

/* What a branch record says of its branch (branch.flags). */
enum hwt_branch_flag {
	HWT_BRANCH_MISPRED = 1u << 0,   /* the prediction was wrong */
	HWT_BRANCH_PREDICTED = 1u << 1, /* the prediction was right */
	HWT_BRANCH_IN_TX = 1u << 2,     /* inside a transaction */
	HWT_BRANCH_ABORT = 1u << 3,     /* a transaction abort */
	/* The record before it in its stack (depth + 1) is the taken
	 * branch before it (the event recorded every taken branch), and
	 * nothing known says the code between did not run straight. */
	HWT_BRANCH_CONSECUTIVE = 1u << 4,
};

struct hwt_elem {
	enum hwt_elem_type type;
	uint32_t fields; /* enum hwt_elem_field bits */
	int32_t cpu;
	int32_t pid;
	int32_t tid;
	uint64_t time;         /* perf time (ns) when converted, else raw */
	uint64_t trace_offset; /* byte offset in the trace stream */
	union {
		struct {
			uint64_t start, end; /* half-open */
			uint64_t insns;
			enum hwt_isa isa;
			/* The instruction's text ("mov eax, 1") when the
			 * decoder was asked for instructions (`--disasm`)
			 * and the range holds one; NULL otherwise. */
			const char *text;
		} range;
		struct {
			uint64_t from, to;
			enum hwt_branch_kind kind;
			uint32_t exception; /* exception or interrupt number */
			/* HWT_FIELD_SAMPLED: the sample's period (0: none),
			 * the record's place in its stack (0: the newest;
			 * a stack's records come oldest first), enum
			 * hwt_branch_flag bits, and the privilege level
			 * (perf's PERF_BR_PRIV_*: 0 unknown, 1 user, 2
			 * kernel, 3 hypervisor). */
			uint64_t weight;
			uint16_t cycles; /* HWT_FIELD_CYCLES */
			uint16_t depth;
			uint8_t flags;
			uint8_t priv;
			/* HWT_FIELD_BR_COUNTERS and the capture says which
			 * events the word counts (hwtrace/brcntr.h): the
			 * bits of each count and the number of counts,
			 * hwt_brcntr_count's @width and @nr (1 to 64, 1 to
			 * HWT_BRCNTR_MAX_EVENTS); both 0 when it does not. */
			uint8_t counter_width;
			uint8_t counter_events;
			/* HWT_FIELD_BR_COUNTERS: the occurrences of the
			 * sampled group's events since the record before,
			 * caps/branch_counter_width bits each, the group's
			 * first event in the lowest bits (as the kernel
			 * writes the word). */
			uint64_t counters;
		} branch;
		struct {
			uint64_t at;
			/* What paused (TRACE_OFF) or resumed (TRACE_ON) the
			 * trace, when the capture says: the name of the
			 * aux_pause or aux_resume event (perf_event_attr
			 * aux_action) whose sample the decode matched to
			 * this element, as the file names it; NULL when no
			 * such sample caused it (the trace's start, the
			 * kernel's entries and exits). cause_time and
			 * cause_ip are that sample's time and IP. The rule
			 * is docs/decode.md's "What paused or resumed the
			 * trace". */
			const char *cause;
			uint64_t cause_time, cause_ip;
		} trace; /* TRACE_ON and TRACE_OFF */
		struct {
			uint32_t el;
			uint32_t vmid;
		} context;
		struct {
			enum hwt_gap_reason reason;
			uint64_t bytes;
			const char *detail; /* e.g. the missing file; may be NULL */
		} gap;
		struct {
			const char *message; /* never NULL */
		} error;
		struct {
			uint64_t ip;
			uint64_t period;   /* 0 when the sample has none */
			uint64_t window;   /* bytes of trace it carried */
			/* Where decoding could start in the window; equal
			 * to window when it holds no sync point (then the
			 * stack is empty: nothing is guessed). */
			uint64_t sync;
			/* Newest first, as LBR stacks are shown. */
			const struct hwt_branch_entry *branches;
			size_t nbranches;
		} sample;
	} u;
};

/* Clears @elem to all zero bytes and sets its @type: what every decoder
 * does before filling an element in. A memset of the whole structure
 * compiles to `rep stos`, whose start-up cost was a large part of emitting
 * one element; a memset of the fields before the union and one of the
 * union compile to a few plain stores, and clear the padding as well. */
static inline void hwt_elem_clear(struct hwt_elem *elem, enum hwt_elem_type type)
{
	memset(elem, 0, offsetof(struct hwt_elem, u));
	memset(&elem->u, 0, sizeof(elem->u));
	elem->type = type;
}

/* For code that keeps elements past a sink call (queues, buffers, files):
 * the one pointer an element may hold, a range's text, a gap's detail, an
 * error's message, a trace on/off's cause or a sample's branch array. hwt_elem_pointer gives where
 * @elem keeps it (NULL: its type has none), to read or replace it;
 * hwt_elem_payload what it points to and its size in bytes (a string's
 * with its NUL), NULL and 0 when nothing. */
static inline const void **hwt_elem_pointer(struct hwt_elem *elem)
{
	switch (elem->type) {
	case HWT_ELEM_RANGE:
		return (const void **)&elem->u.range.text;
	case HWT_ELEM_GAP:
		return (const void **)&elem->u.gap.detail;
	case HWT_ELEM_ERROR:
		return (const void **)&elem->u.error.message;
	case HWT_ELEM_SAMPLE:
		return (const void **)&elem->u.sample.branches;
	case HWT_ELEM_TRACE_ON:
	case HWT_ELEM_TRACE_OFF:
		return (const void **)&elem->u.trace.cause;
	default:
		return NULL;
	}
}

static inline const void *hwt_elem_payload(const struct hwt_elem *elem,
					   size_t *size)
{
	/* Only read through: the cast spares a second switch by type. */
	const void **ptr = hwt_elem_pointer((struct hwt_elem *)elem);
	const void *p = ptr ? *ptr : NULL;
	if (elem->type == HWT_ELEM_SAMPLE)
		*size = p ? elem->u.sample.nbranches *
				    sizeof(*elem->u.sample.branches) : 0;
	else
		*size = p ? strlen((const char *)p) + 1 : 0;
	return p;
}

/* Where decoders send elements. @emit returns 0 to continue, or a negative
 * hwt_err to stop decoding (which the decoder then returns). The element and
 * the strings it points to are valid only during the call. */
struct hwt_elem_sink {
	int (*emit)(void *arg, const struct hwt_elem *elem);
	void *arg;
};

/* Names used by every output format; never NULL. */
HWT_API const char *hwt_elem_type_name(enum hwt_elem_type type);
HWT_API const char *hwt_branch_kind_name(enum hwt_branch_kind kind);
HWT_API const char *hwt_isa_name(enum hwt_isa isa);
HWT_API const char *hwt_gap_reason_name(enum hwt_gap_reason reason);

#ifdef __cplusplus
}
#endif

#endif
