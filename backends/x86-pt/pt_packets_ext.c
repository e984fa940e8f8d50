/* Packets newer than libipt 2.0 (TRIG, and event tracing's CFE and EVD),
 * decoded through libipt's unknown-packet callback so that the packet
 * listing shows them and the flow decoder steps over them. */
#include <inttypes.h>
#include <string.h>

#include "backends/x86-pt/pt_decode.h"

enum {
	OPC_TRIG = 0xd9,
	OPC_EXT = 0x02,
	EXT_CFE = 0x13,
	EXT_EVD = 0x53,
	TRIG_IP = 0x80,
	TRIG_ICNTV = 0x40,
	TRIG_MULT = 0x20,
};

int pt_ext_packet_size(const uint8_t *pos, const uint8_t *end)
{
	size_t left = (size_t)(end - pos);
	size_t size = 0;

	if (left < 1)
		return -pte_eos;
	if (pos[0] == OPC_TRIG) {
		if (left < 2)
			return -pte_eos;
		size = pos[1] & TRIG_ICNTV ? 5 : 3;
	} else if (pos[0] == OPC_EXT && left >= 2 && pos[1] == EXT_CFE) {
		size = 4;
	} else if (pos[0] == OPC_EXT && left >= 2 && pos[1] == EXT_EVD) {
		size = 11;
	} else {
		return -pte_bad_opc;
	}
	return size <= left ? (int)size : -pte_eos;
}

int pt_ext_packet_callback(struct pt_packet_unknown *unknown,
			   const struct pt_config *config, const uint8_t *pos,
			   void *context)
{
	(void)context;
	int size = pt_ext_packet_size(pos, config->end);
	if (size > 0) {
		unknown->packet = pos;
		unknown->priv = NULL;
	}
	return size;
}

static const char *cfe_type(unsigned type)
{
	static const char *const names[] = {
		[1] = "intr", [2] = "iret", [3] = "smi", [4] = "rsm",
		[5] = "sipi", [6] = "init", [7] = "vmentry", [8] = "vmexit",
		[9] = "vmexit_intr", [10] = "shutdown", [12] = "uintr",
		[13] = "uiret", [14] = "swintr", [15] = "syscall",
	};
	return type < sizeof(names) / sizeof(names[0]) && names[type]
		       ? names[type]
		       : "unknown";
}

static const char *evd_type(unsigned type)
{
	return type == 0 ? "cr2" : type == 1 ? "vmxq" : type == 2 ? "vmxr"
								  : "unknown";
}

const char *pt_ext_packet_format(const uint8_t *p, char *pay, size_t n,
				 char *track, size_t tn)
{
	pay[0] = track[0] = 0;
	if (p[0] == OPC_TRIG) {
		int len = snprintf(pay, n, "%02x%s%s", p[2],
				   p[1] & TRIG_IP ? ", ip" : "",
				   p[1] & TRIG_MULT ? ", mult" : "");
		if (p[1] & TRIG_ICNTV && len > 0 && (size_t)len < n)
			snprintf(pay + len, n - (size_t)len, ", icnt: %u",
				 (unsigned)(p[3] | p[4] << 8));
		return "trig";
	}
	if (p[1] == EXT_CFE) {
		unsigned type = p[2] & 0x1f;
		const char *ip = p[2] & 0x80 ? ", ip" : "";
		/* Only these types carry a vector. */
		if (type == 5)
			snprintf(pay, n, "%u: %x%s", type, p[3], ip);
		else if (type == 1 || type == 9 || type == 12 || type == 14)
			snprintf(pay, n, "%u: %u%s", type, p[3], ip);
		else
			snprintf(pay, n, "%u%s", type, ip);
		snprintf(track, tn, "type %s", cfe_type(type));
		return "cfe";
	}
	uint64_t payload;
	memcpy(&payload, p + 3, 8);
	snprintf(pay, n, "%u: %" PRIx64, p[2] & 0x1fu, payload);
	snprintf(track, tn, "type %s", evd_type(p[2] & 0x1f));
	return "evd";
}
