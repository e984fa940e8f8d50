/* Packets that trip known faults of OpenCSD 1.3.3's ETMv4/ETE element
 * decoder (cs_fault_scan.c), found by splitting a chunk into packets
 * before it is decoded, so that the decode can say so first. */
#ifndef HWT_CS_FAULT_SCAN_H
#define HWT_CS_FAULT_SCAN_H

#include <stdbool.h>
#include <stdint.h>

#include <opencsd/c_api/opencsd_c_api.h>

struct hwt_cs_fault {
	bool found;
	const char *what;  /* the first such packet, in words */
	uint64_t offset;   /* its offset in the stream */
};

/* Notes in @f whether the packet @pkt of @proto (at @offset) is one. */
void hwt_cs_fault_check(struct hwt_cs_fault *f, ocsd_trace_protocol_t proto,
			const void *pkt, uint64_t offset);

#endif
