/* The typed fields of a CoreSight packet record (`decode --packets`,
 * hwtrace/listing.h) after its trace ID ("id", every protocol's): for
 * ETMv4 and ETE instruction trace, the values
 * OpenCSD decoded into its packet struct that a listing's reader most
 * often wants: the address an address packet gives, an atom packet's
 * E/N pattern, a timestamp, a cycle count. Other protocols give the
 * text line only. */
#ifdef HWT_HAVE_OPENCSD
#include <opencsd/c_api/opencsd_c_api.h>
#include <opencsd/etmv4/trc_pkt_types_etmv4.h>

#include "backends/arm-cs/cs_tree_internal.h"

static bool address_packet(ocsd_etmv4_i_pkt_type t)
{
	return t == ETM4_PKT_I_ADDR_CTXT_L_32IS0 ||
	       t == ETM4_PKT_I_ADDR_CTXT_L_32IS1 ||
	       t == ETM4_PKT_I_ADDR_CTXT_L_64IS0 ||
	       t == ETM4_PKT_I_ADDR_CTXT_L_64IS1 ||
	       t == ETM4_PKT_I_ADDR_MATCH || t == ETM4_PKT_I_ADDR_S_IS0 ||
	       t == ETM4_PKT_I_ADDR_S_IS1 || t == ETM4_PKT_I_ADDR_L_32IS0 ||
	       t == ETM4_PKT_I_ADDR_L_32IS1 || t == ETM4_PKT_I_ADDR_L_64IS0 ||
	       t == ETM4_PKT_I_ADDR_L_64IS1;
}

static bool atom_packet(ocsd_etmv4_i_pkt_type t)
{
	return t == ETM4_PKT_I_ATOM_F1 || t == ETM4_PKT_I_ATOM_F2 ||
	       t == ETM4_PKT_I_ATOM_F3 || t == ETM4_PKT_I_ATOM_F4 ||
	       t == ETM4_PKT_I_ATOM_F5 || t == ETM4_PKT_I_ATOM_F6;
}

size_t hwt_cs_packet_fields(ocsd_trace_protocol_t proto, const void *pkt,
			    struct hwt_packet_field *f, size_t max)
{
	size_t n = 0;

	/* ETE's packets are ETMv4's struct (OpenCSD decodes both with it). */
	if ((proto != OCSD_PROTOCOL_ETMV4I && proto != OCSD_PROTOCOL_ETE) ||
	    max < 3)
		return 0;
	const ocsd_etmv4_i_pkt *p = pkt;
	if (address_packet(p->type)) {
		f[n++] = (struct hwt_packet_field){"addr", p->v_addr.val};
	} else if (atom_packet(p->type)) {
		/* "atoms" atoms, the oldest in bit 0 of "en" (1: E). */
		f[n++] = (struct hwt_packet_field){"atoms", p->atom.num};
		f[n++] = (struct hwt_packet_field){"en", p->atom.En_bits};
	} else if (p->type == ETM4_PKT_I_TIMESTAMP) {
		f[n++] = (struct hwt_packet_field){"timestamp", p->ts.timestamp};
	}
	return n;
}
#endif
