/* Known faults of OpenCSD 1.3.3 (Debian's) on crafted ETMv4/ETE streams
 * (cs_fault_scan.h), the same that tests/fuzz/fuzz_opencsd_guard.h keeps
 * the fuzz targets from: a mispredict or cancel packet makes
 * TrcPktDecodeEtmV4I read through a deque iterator it has just
 * invalidated (Linaro/OpenCSD issue 52, fixed in later releases), and an
 * address in the last 4 KiB below 2^64 wraps its memory access cache
 * around (TrcMemAccCache::blockInCache), which then copies from far
 * outside the page. Exception packets too have made it dereference a
 * wild pointer (processException), but on streams too rare to tell from
 * the ordinary ones, which all have exception packets: those are left to
 * the isolated decode (docs/coresight.md, "Untrusted trace"). */
#include "backends/arm-cs/cs_fault_scan.h"

#include <opencsd/etmv4/trc_pkt_types_etmv4.h>

/* Addresses from here up wrap OpenCSD's cache around. */
#define WRAPPING_ADDRESS 0xFFFFFFFFFFFFF000ull

/* The packet sets the address: the packet's v_addr is the processor's
 * last one, which before the first address packet holds whatever its
 * memory held (so testing it on every packet made a decode on threads
 * refuse a clean stream now and then). */
static bool names_address(const ocsd_etmv4_i_pkt *p)
{
	switch (p->type) {
	case ETM4_PKT_I_ADDR_CTXT_L_32IS0:
	case ETM4_PKT_I_ADDR_CTXT_L_32IS1:
	case ETM4_PKT_I_ADDR_CTXT_L_64IS0:
	case ETM4_PKT_I_ADDR_CTXT_L_64IS1:
	case ETM4_PKT_I_ADDR_MATCH:
	case ETM4_PKT_I_ADDR_S_IS0:
	case ETM4_PKT_I_ADDR_S_IS1:
	case ETM4_PKT_I_ADDR_L_32IS0:
	case ETM4_PKT_I_ADDR_L_32IS1:
	case ETM4_PKT_I_ADDR_L_64IS0:
	case ETM4_PKT_I_ADDR_L_64IS1:
	case ETE_PKT_I_SRC_ADDR_MATCH:
	case ETE_PKT_I_SRC_ADDR_S_IS0:
	case ETE_PKT_I_SRC_ADDR_S_IS1:
	case ETE_PKT_I_SRC_ADDR_L_32IS0:
	case ETE_PKT_I_SRC_ADDR_L_32IS1:
	case ETE_PKT_I_SRC_ADDR_L_64IS0:
	case ETE_PKT_I_SRC_ADDR_L_64IS1:
		return true;
	case ETM4_PKT_I_Q:
		return p->Q_pkt.addr_present;
	default:
		return false;
	}
}

static const char *fault_of(const ocsd_etmv4_i_pkt *p)
{
	switch (p->type) {
	case ETM4_PKT_I_MISPREDICT:
	case ETM4_PKT_I_CANCEL_F1_MISPRED:
		return "a mispredict packet";
	case ETM4_PKT_I_CANCEL_F1:
	case ETM4_PKT_I_CANCEL_F2:
	case ETM4_PKT_I_CANCEL_F3:
		return "a cancel packet";
	default:
		break;
	}
	if (names_address(p) && p->v_addr.val >= WRAPPING_ADDRESS)
		return "an address in the last 4 KiB of the address space";
	return NULL;
}

void hwt_cs_fault_check(struct hwt_cs_fault *f, ocsd_trace_protocol_t proto,
			const void *pkt, uint64_t offset)
{
	/* ETE is split as ETMv4 (cs_decode_tree.c). */
	if (f->found || proto != OCSD_PROTOCOL_ETMV4I)
		return;
	const char *what = fault_of(pkt);
	if (what) {
		f->found = true;
		f->what = what;
		f->offset = offset;
	}
}
