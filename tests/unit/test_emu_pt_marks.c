/* The Intel PT packets the emulator's trace unit writes when aux_pause
 * and aux_resume switch its TraceEn (core/emulator/emu_pt_packets.c),
 * read back with libipt's packet decoder: a pause is FUP (the IP) and
 * TIP.PGD without an IP; a resume is PSB, TSC, MODE.Exec 64-bit, PSBEND
 * and TIP.PGE (the IP). The TSC is the perf time's under the
 * AUXTRACE_INFO's conversion, worked by hand for a 2 GHz TSC that
 * started 5 s before the perf clock's zero (time_shift 31, time_mult
 * 2^31 * 1e9 / 2e9 = 1073741824, time_zero 2^64 - 5e9): perf time 1 s is
 * TSC 2 * (1e9 + 5e9) = 12e9, and perf time 2.5 s is TSC 15e9. */
#include <string.h>

#include <intel-pt.h>

#include "harness.h"
#include "core/emulator/emu_internal.h"

#define IP 0x555555555133ull

struct pkts {
	struct pt_packet v[16];
	int n;
	int bytes;
};

static void read_packets(const uint8_t *buf, size_t len, struct pkts *p)
{
	struct pt_config c;
	pt_config_init(&c);
	c.begin = (uint8_t *)buf;
	c.end = (uint8_t *)buf + len;
	struct pt_packet_decoder *d = pt_pkt_alloc_decoder(&c);
	memset(p, 0, sizeof(*p));
	CHECK(d != NULL);
	if (!d)
		return;
	CHECK_INT(pt_pkt_sync_set(d, 0), 0);
	while (p->n < 16) {
		int n = pt_pkt_next(d, &p->v[p->n], sizeof(p->v[0]));
		if (n <= 0) {
			CHECK_INT(n, -pte_eos);
			break;
		}
		p->bytes += n;
		p->n++;
	}
	pt_pkt_free_decoder(d);
}

/* An intel_pt AUXTRACE_INFO record with the conversion above. */
static void info_2ghz(uint64_t rec[6])
{
	struct perf_event_header h = {70, 0, 6 * 8};
	memset(rec, 0, 6 * 8);
	memcpy(rec, &h, sizeof(h));
	rec[1] = 1;                       /* type: intel_pt */
	rec[2] = 8;                       /* priv[0]: PMU type */
	rec[3] = 31;                      /* time_shift */
	rec[4] = 1073741824;              /* time_mult */
	rec[5] = (uint64_t)0 - 5000000000ull; /* time_zero */
}

static void pause_is_fup_and_tip_pgd(void)
{
	uint8_t buf[EMU_PT_MARK_MAX];
	struct pkts p;
	size_t n = hwt_emu_pt_trace_off(buf, IP);

	read_packets(buf, n, &p);
	CHECK_INT(p.n, 2);
	CHECK_INT(p.bytes, (int)n);
	CHECK_INT(p.v[0].type, ppt_fup);
	CHECK_INT(p.v[0].payload.ip.ipc, pt_ipc_sext_48);
	CHECK_U64(p.v[0].payload.ip.ip, IP);
	CHECK_INT(p.v[1].type, ppt_tip_pgd);
	CHECK_INT(p.v[1].payload.ip.ipc, pt_ipc_suppressed);
}

static void check_resume(uint64_t time, uint64_t want_tsc)
{
	uint8_t buf[EMU_PT_MARK_MAX];
	uint64_t info[6];
	struct pkts p;

	info_2ghz(info);
	size_t n = hwt_emu_pt_trace_on(buf, IP + 7, time, info);
	CHECK(n <= EMU_PT_MARK_MAX);
	read_packets(buf, n, &p);
	CHECK_INT(p.n, 5);
	CHECK_INT(p.bytes, (int)n);
	CHECK_INT(p.v[0].type, ppt_psb);
	CHECK_INT(p.v[1].type, ppt_tsc);
	CHECK_U64(p.v[1].payload.tsc.tsc, want_tsc);
	CHECK_INT(p.v[2].type, ppt_mode);
	CHECK_INT(p.v[2].payload.mode.leaf, pt_mol_exec);
	CHECK_INT(p.v[2].payload.mode.bits.exec.csl, 1);
	CHECK_INT(p.v[2].payload.mode.bits.exec.csd, 0);
	CHECK_INT(p.v[3].type, ppt_psbend);
	CHECK_INT(p.v[4].type, ppt_tip_pge);
	CHECK_INT(p.v[4].payload.ip.ipc, pt_ipc_sext_48);
	CHECK_U64(p.v[4].payload.ip.ip, IP + 7);
}

static void resume_is_psb_plus_and_tip_pge(void)
{
	check_resume(1000000000ull, 12000000000ull);
	check_resume(2500000000ull, 15000000000ull);
}

/* Without a conversion (or a time) the PSB+ has no TSC. */
static void resume_without_a_clock(void)
{
	uint8_t buf[EMU_PT_MARK_MAX];
	struct pkts p;
	size_t n = hwt_emu_pt_trace_on(buf, IP, 1000000000ull, NULL);

	read_packets(buf, n, &p);
	CHECK_INT(p.n, 4);
	CHECK_INT(p.v[1].type, ppt_mode);
	CHECK_INT(p.v[3].type, ppt_tip_pge);
}

int main(void)
{
	RUN(pause_is_fup_and_tip_pgd);
	RUN(resume_is_psb_plus_and_tip_pge);
	RUN(resume_without_a_clock);
	return hwt_test_summary();
}
