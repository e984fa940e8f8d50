/* The packets an Intel PT trace unit writes when its TraceEn is switched
 * (Intel SDM vol. 3C, "Packet Generation Enable Controls"), for the
 * emulator's aux_pause and aux_resume.
 *
 * Pausing clears TraceEn while the thread is stopped at an instruction:
 * the trace ends with an asynchronous disable, a FUP with the IP it
 * stopped at and a TIP.PGD with no IP (the thread does not go on in the
 * trace). Resuming sets TraceEn: the unit starts with a PSB+ (PSB, TSC,
 * MODE.Exec, PSBEND) and, as the thread goes on, a TIP.PGE to the IP
 * where it does. A decoder shows the first as trace off at that IP and
 * the second as trace on at the next one, timed by the PSB+'s TSC.
 * Addresses go in the 6-byte sign-extended form; user space code is
 * 64-bit here, as in the captures the emulator replays. */
#include <string.h>

#include "core/emulator/emu_internal.h"

#define PT_FUP 0x1d
#define PT_TIP_PGE 0x11
#define PT_TIP_PGD 0x01
#define PT_IP_SEXT48 (3u << 5)  /* IPBytes 011: 6 bytes, sign-extended */
#define PT_TSC 0x19
#define PT_MODE 0x99
#define PT_MODE_EXEC_64 0x01    /* MODE.Exec, CS.L set: 64-bit code */
#define PT_PSB_LEN 16

static size_t put_ip(uint8_t *buf, uint8_t type, uint64_t ip)
{
	buf[0] = type | PT_IP_SEXT48;
	for (int i = 0; i < 6; i++)
		buf[1 + i] = (uint8_t)(ip >> (8 * i));
	return 7;
}

size_t hwt_emu_pt_trace_off(uint8_t *buf, uint64_t ip)
{
	size_t n = put_ip(buf, PT_FUP, ip);
	buf[n++] = PT_TIP_PGD; /* IPBytes 000: suppressed */
	return n;
}

/* perf time @time as the TSC, by the conversion in intel_pt's
 * AUXTRACE_INFO (priv[1..3]: time_shift, time_mult, time_zero), the
 * inverse of perf's tsc_to_perf_time; false when it has none. */
static bool tsc_of(const void *info, uint64_t time, uint64_t *tsc)
{
	struct perf_event_header h;
	uint64_t shift, mult, zero;

	if (!info || !time)
		return false;
	memcpy(&h, info, sizeof(h));
	if (h.size < 16 + 4 * 8)
		return false;
	memcpy(&shift, (const uint8_t *)info + 16 + 8, 8);
	memcpy(&mult, (const uint8_t *)info + 16 + 16, 8);
	memcpy(&zero, (const uint8_t *)info + 16 + 24, 8);
	if (!mult || shift > 63)
		return false;
	/* Modulo 2^64, as perf adds time_zero (which is often "negative":
	 * the TSC started before the perf clock's zero). */
	uint64_t t = time - zero;
	*tsc = (uint64_t)(((unsigned __int128)(t / mult) << shift) +
			  (((unsigned __int128)(t % mult) << shift) / mult));
	return true;
}

size_t hwt_emu_pt_trace_on(uint8_t *buf, uint64_t ip, uint64_t time,
			   const void *info)
{
	uint64_t tsc;
	size_t n = 0;

	for (int i = 0; i < PT_PSB_LEN; i += 2) {
		buf[n++] = 0x02;
		buf[n++] = 0x82;
	}
	if (tsc_of(info, time, &tsc)) {
		buf[n++] = PT_TSC;
		for (int i = 0; i < 7; i++)
			buf[n++] = (uint8_t)(tsc >> (8 * i));
	}
	buf[n++] = PT_MODE;
	buf[n++] = PT_MODE_EXEC_64;
	buf[n++] = 0x02; /* PSBEND */
	buf[n++] = 0x23;
	return n + put_ip(buf + n, PT_TIP_PGE, ip);
}
