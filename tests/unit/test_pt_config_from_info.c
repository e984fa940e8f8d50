/* The PT decoder's configuration: perf's intel_pt AUXTRACE_INFO words (as
 * perf report -D prints them for the quipper capture) and the event's
 * config (as perf evlist -v prints it), TSC to perf time
 * with perf's split formula (checked against 128-bit arithmetic), and the
 * --cpu FAMILY/MODEL[/STEPPING] syntax. */
#include "backends/x86-pt/pt_decode.h"
#include "harness.h"
#include "hwtrace/error.h"

/* perf.data.intel_pt-4.14.perf-report-D.txt, PERF_RECORD_AUXTRACE_INFO */
static const uint64_t quipper_info[17] = {
	6,                    /* PMU Type */
	31,                   /* Time Shift */
	1789569706,           /* Time Muliplier */
	18446744041015200657ull, /* Time Zero */
	1,                    /* Cap Time Zero */
	0x400,                /* TSC bit */
	0x800,                /* NoRETComp bit */
	3,                    /* Have sched_switch */
	0,                    /* Snapshot mode */
	1,                    /* Per-cpu maps */
	0x200,                /* MTC bit */
	0x3c000,              /* MTC freq bits */
	100,                  /* TSC:CTC numerator */
	2,                    /* TSC:CTC denominator */
	0x2,                  /* CYC bit */
	12,                   /* Max non-turbo ratio */
	0,                    /* Filter string len. */
};

static void config_from_quipper_info(void)
{
	struct pt_config c;
	struct pt_time_conv tc;
	struct hwt_decode_params p = {
		.size = sizeof(p),
		.info = quipper_info,
		.info_words = 17,
		.cpu_model = "6/78/3", /* the capture's cpuid feature */
	};
	CHECK_INT(pt_config_setup(&c, &tc, &p), 0);
	CHECK(tc.valid);
	CHECK_INT(tc.shift, 31);
	CHECK_U64(tc.mult, 1789569706);
	CHECK_U64(tc.zero, 18446744041015200657ull);
	/* CPUID.15H: EAX is the denominator, EBX the numerator. */
	CHECK_INT(c.cpuid_0x15_eax, 2);
	CHECK_INT(c.cpuid_0x15_ebx, 100);
	CHECK_INT(c.nom_freq, 12);
	CHECK_INT(c.mtc_freq, 3); /* perf's default mtc_period */
	CHECK_INT(c.cpu.family, 6);
	CHECK_INT(c.cpu.model, 78);
	CHECK_INT(c.cpu.stepping, 3);
	/* Skylake (6/78) has BDM70/SKD024 and SKD022; libipt sets them. */
	CHECK_INT(c.errata.bdm70, 1);
	CHECK_INT(c.errata.skd022, 1);
	/* libipt's default blocks, which run on through direct calls and
	 * jumps (the decoder cuts them there). */
	CHECK_INT(c.flags.variant.block.end_on_call, 0);
	CHECK_INT(c.flags.variant.block.end_on_jump, 0);

	/* The MTC period from the event's config: `perf evlist -v` gives
	 * the capture's intel_pt config as 0x300e601 (mtc, mtc_period=3). */
	struct perf_event_attr attr = {.type = 6, .config = 0x300e601};
	p.aux_attr = &attr;
	CHECK_INT(pt_config_setup(&c, &tc, &p), 0);
	CHECK_INT(c.mtc_freq, 3);
	attr.config = 0x200 | (6ull << 14); /* mtc, mtc_period=6 */
	CHECK_INT(pt_config_setup(&c, &tc, &p), 0);
	CHECK_INT(c.mtc_freq, 6);
	attr.config = 6ull << 14; /* MTC off */
	CHECK_INT(pt_config_setup(&c, &tc, &p), 0);
	CHECK_INT(c.mtc_freq, 0);
	p.aux_attr = NULL;

	/* Cut short: fewer words than perf writes. */
	const struct hwt_backend *b = hwt_backend_find("intel_pt");
	CHECK(b && b->decoder);
	if (b && b->decoder) {
		struct hwt_elem_sink sink = {NULL, NULL};
		void *priv = NULL;
		p.info_words = 10;
		p.sink = &sink;
		CHECK_INT(b->decoder->create(&p, &priv), HWT_ERR_FORMAT);
		CHECK_CONTAINS(hwt_errmsg(), "AUXTRACE_INFO has 10 words");
	}
}

static uint64_t ref_time(uint64_t tsc, const struct pt_time_conv *tc)
{
	unsigned __int128 prod = (unsigned __int128)tsc * tc->mult;
	return tc->zero + (uint64_t)(prod >> tc->shift);
}

static void tsc_to_perf_time(void)
{
	struct pt_time_conv tc = {true, 31, 1789569706, 18446744041015200657ull};
	/* The first TSC of the cpu0 buffer (aux-idx0-cpu0.bin.ptdump). */
	uint64_t tsc = 0xbc4cd2cfe8ull;
	CHECK_U64(pt_tsc_to_time(&tc, tsc), ref_time(tsc, &tc));
	/* 641.2579 s: within the capture's sideband times (641.255..641.26 s
	 * in perf report -D). */
	CHECK(pt_tsc_to_time(&tc, tsc) > 641255000000ull);
	CHECK(pt_tsc_to_time(&tc, tsc) < 641260000000ull);
	/* Large TSCs, where tsc * mult overflows 64 bits. */
	for (uint64_t t = 1; t && t < (1ull << 62); t = t * 7 + 12345)
		CHECK_U64(pt_tsc_to_time(&tc, t), ref_time(t, &tc));
	/* Without a conversion the raw TSC is kept. */
	struct pt_time_conv none = {0};
	CHECK_U64(pt_tsc_to_time(&none, tsc), tsc);
}

static void cpu_syntax(void)
{
	struct pt_cpu c;
	CHECK_INT(pt_cpu_parse("6/142/10", &c), 0);
	CHECK_INT(c.family, 6);
	CHECK_INT(c.model, 142);
	CHECK_INT(c.stepping, 10);
	CHECK_INT(c.vendor, pcv_intel);
	CHECK_INT(pt_cpu_parse("6/0x8e", &c), 0);
	CHECK_INT(c.model, 142);
	CHECK_INT(c.stepping, 0);
	CHECK(pt_cpu_parse("6", &c) < 0);
	CHECK(pt_cpu_parse("6/", &c) < 0);
	CHECK(pt_cpu_parse("a/b", &c) < 0);
	CHECK(pt_cpu_parse("6/300", &c) < 0);
	CHECK(pt_cpu_parse("6/142/10/1", &c) < 0);

	struct pt_config cfg;
	struct pt_time_conv tc;
	struct hwt_decode_params p = {.size = sizeof(p), .cpu_model = "6,142"};
	CHECK_INT(pt_config_setup(&cfg, &tc, &p), HWT_ERR_CONFIG);
	CHECK_CONTAINS(hwt_errmsg(), "--cpu-model 6,142: not a traced CPU");
}

static void raw_options(void)
{
	struct pt_config c;
	struct pt_time_conv tc;
	struct hwt_decode_params p = {
		.size = sizeof(p),
		.raw_options = "addr0_cfg=1,addr0_a=0x1000,addr0_b=0x10ff,"
			       "mtc_freq=4,cpuid_0x15_eax=1,cpuid_0x15_ebx=4",
	};
	CHECK_INT(pt_config_setup(&c, &tc, &p), 0);
	CHECK_INT(c.addr_filter.config.ctl.addr0_cfg, 1);
	CHECK_U64(c.addr_filter.addr0_a, 0x1000);
	CHECK_U64(c.addr_filter.addr0_b, 0x10ff);
	CHECK_INT(c.mtc_freq, 4);
	CHECK_INT(c.cpuid_0x15_eax, 1);
	CHECK_INT(c.cpuid_0x15_ebx, 4);

	p.raw_options = "addr4_cfg=1";
	CHECK_INT(pt_config_setup(&c, &tc, &p), HWT_ERR_CONFIG);
	CHECK_CONTAINS(hwt_errmsg(), "unknown intel_pt option 'addr4_cfg=1'");
	p.raw_options = "mtc_freq";
	CHECK_INT(pt_config_setup(&c, &tc, &p), HWT_ERR_CONFIG);
	CHECK_CONTAINS(hwt_errmsg(), "expected KEY=VALUE");
	p.raw_options = "mtc_freq=x";
	CHECK_INT(pt_config_setup(&c, &tc, &p), HWT_ERR_CONFIG);
	CHECK_CONTAINS(hwt_errmsg(), "mtc_freq=x: not a number");
}

int main(void)
{
	RUN(config_from_quipper_info);
	RUN(tsc_to_perf_time);
	RUN(cpu_syntax);
	RUN(raw_options);
	return hwt_test_summary();
}
