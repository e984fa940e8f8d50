/* N-Trace messages: the byte stream's framing (6 MDO bits and 2 MSEO bits
 * a byte, idle bytes 0xff) and each message's fields, fixed and
 * variable-length, as the N-Trace 1.0 specification lays them out. */
#ifndef HWT_RVT_MSG_H
#define HWT_RVT_MSG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "backends/riscv-trace/rvt_options.h"

enum rvt_tcode {
	RVT_TC_OWNERSHIP = 2,
	RVT_TC_DIRECT_BRANCH = 3,
	RVT_TC_INDIRECT_BRANCH = 4,
	RVT_TC_ERROR = 8,
	RVT_TC_PROG_TRACE_SYNC = 9,
	RVT_TC_DIRECT_BRANCH_SYNC = 11,
	RVT_TC_INDIRECT_BRANCH_SYNC = 12,
	RVT_TC_RESOURCE_FULL = 27,
	RVT_TC_INDIRECT_BRANCH_HIST = 28,
	RVT_TC_INDIRECT_BRANCH_HIST_SYNC = 29,
	RVT_TC_REPEAT_BRANCH = 30,
	RVT_TC_PROG_TRACE_CORRELATION = 33,
};

/* Every field a message may carry (the specification's names). */
enum rvt_field {
	RVT_F_SRC,
	RVT_F_SYNC,
	RVT_F_BTYPE,
	RVT_F_ETYPE,
	RVT_F_RCODE,
	RVT_F_EVCODE,
	RVT_F_CDF,
	RVT_F_PROCESS,
	RVT_F_ECODE,
	RVT_F_RDATA,
	RVT_F_HREPEAT,
	RVT_F_BCNT,
	RVT_F_ICNT,
	RVT_F_FADDR,
	RVT_F_UADDR,
	RVT_F_HIST,
	RVT_F_TSTAMP,
	RVT_F_COUNT
};

#define RVT_MAX_MSG 256 /* longer "messages" are taken as corrupt trace */

struct rvt_msg {
	uint64_t offset;  /* of the first byte, in the stream */
	uint32_t size;    /* bytes, the first to the last */
	uint8_t tcode;
	bool known;       /* a message of the specification's (else only
			   * TCODE and SRC are read) */
	uint32_t present; /* 1u << enum rvt_field */
	uint8_t nfields;
	uint8_t order[RVT_F_COUNT];  /* the fields in the order sent */
	uint8_t bits[RVT_F_COUNT];   /* MDO bits each took */
	uint64_t v[RVT_F_COUNT];     /* addresses: the field's value (<< 1
				      * for the address itself) */
};

static inline bool rvt_msg_has(const struct rvt_msg *m, enum rvt_field f)
{
	return m->present & (1u << f);
}

/* The outcome of rvt_msg_next. */
enum rvt_frame {
	RVT_FRAME_MSG,   /* a message: @m is filled */
	RVT_FRAME_IDLE,  /* idle bytes, or bytes that begin no message */
	RVT_FRAME_SHORT, /* the bytes end inside a message */
	RVT_FRAME_BAD,   /* a message that breaks the rules: *why says how */
};

/* Reads what starts at @p[0..@n) (the stream's offset @offset): one
 * message, or a run of bytes between messages. *used is how many bytes
 * it took (0 for RVT_FRAME_SHORT). *why (for RVT_FRAME_BAD) is static. */
enum rvt_frame rvt_msg_next(const uint8_t *p, size_t n, uint64_t offset,
			    const struct rvt_opts *o, struct rvt_msg *m,
			    size_t *used, const char **why);

/* Whether a message is a synchronizing one (has SYNC and F-ADDR). */
bool rvt_tcode_is_sync(unsigned tcode);

/* The message's name ("ProgTraceSync"), "Vendor" (56..62) or
 * "Reserved". */
const char *rvt_tcode_name(unsigned tcode);

/* The field's name as the specification's reference code spells it
 * ("ICNT", "FADDR"). */
const char *rvt_field_name(enum rvt_field f);

/* The address an F-ADDR/U-ADDR field of @bits MDO bits stands for:
 * @v << 1, MSB-extended when @o->extaddr (trTeInstExtendAddrMSB), cut to
 * XLEN bits. */
uint64_t rvt_addr_field(uint64_t v, unsigned bits, const struct rvt_opts *o);

#endif
