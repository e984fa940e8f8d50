/* libipt configuration from the capture's AUXTRACE_INFO and --cpu. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "backends/x86-pt/pt_decode.h"
#include "hwtrace/error.h"

uint64_t pt_tsc_to_time(const struct pt_time_conv *tc, uint64_t tsc)
{
	if (!tc->valid)
		return tsc;
	/* Split so that tsc * mult cannot overflow (perf's tsc_to_perf_time). */
	uint64_t quot = tsc >> tc->shift;
	uint64_t rem = tsc & ((1ull << tc->shift) - 1);
	return tc->zero + quot * tc->mult + ((rem * tc->mult) >> tc->shift);
}

static int parse_num(const char **p, unsigned long max, unsigned long *out)
{
	char *end;

	errno = 0;
	unsigned long v = strtoul(*p, &end, 0);
	if (end == *p || errno || v > max)
		return -1;
	*out = v;
	*p = end;
	return 0;
}

int pt_cpu_parse(const char *s, struct pt_cpu *cpu)
{
	unsigned long family, model, stepping = 0;
	const char *p = s;

	if (parse_num(&p, 0xffff, &family) || *p++ != '/' ||
	    parse_num(&p, 0xff, &model))
		return -1;
	if (*p == '/') {
		p++;
		if (parse_num(&p, 0xff, &stepping))
			return -1;
	}
	if (*p)
		return -1;
	memset(cpu, 0, sizeof(*cpu));
	cpu->vendor = pcv_intel;
	cpu->family = (uint16_t)family;
	cpu->model = (uint8_t)model;
	cpu->stepping = (uint8_t)stepping;
	return 0;
}

/* One "key=value" of the raw options. */
static int apply_option(struct pt_config *config, const char *key,
			const char *value)
{
	uint64_t v;
	char *end;
	unsigned n;

	errno = 0;
	v = strtoull(value, &end, 0);
	/* strtoull takes "-1" as the largest number. */
	if (end == value || *end || errno || *value == '-')
		return hwt_error(HWT_ERR_CONFIG,
				 "intel_pt option %s=%s: not a number", key, value);
	/* The fields' widths (the SDM's IA32_RTIT_CTL and CPUID leaf 0x15):
	 * a larger value would be cut to something else without a word. */
	uint64_t max = !strcmp(key, "mtc_freq") ? 15 :
		       !strcmp(key, "nom_freq") ? 255 :
		       !strncmp(key, "cpuid_0x15_", 11) ? UINT32_MAX : UINT64_MAX;
	if (v > max)
		return hwt_error(HWT_ERR_CONFIG, "intel_pt option %s=%s: out of "
				 "range (valid: 0 to %" PRIu64 ")", key, value, max);
	if (!strcmp(key, "mtc_freq"))
		config->mtc_freq = (uint8_t)v;
	else if (!strcmp(key, "nom_freq"))
		config->nom_freq = (uint8_t)v;
	else if (!strcmp(key, "cpuid_0x15_eax"))
		config->cpuid_0x15_eax = (uint32_t)v;
	else if (!strcmp(key, "cpuid_0x15_ebx"))
		config->cpuid_0x15_ebx = (uint32_t)v;
	else if (sscanf(key, "addr%u_", &n) == 1 && n < 4 && strlen(key) >= 7) {
		struct pt_conf_addr_filter *f = &config->addr_filter;
		uint64_t *a[4] = {&f->addr0_a, &f->addr1_a, &f->addr2_a, &f->addr3_a};
		uint64_t *b[4] = {&f->addr0_b, &f->addr1_b, &f->addr2_b, &f->addr3_b};
		const char *what = key + 6;
		if (!strcmp(what, "cfg") && v > 2)
			return hwt_error(HWT_ERR_CONFIG, "intel_pt option %s=%s: "
					 "not an address range setting (valid: "
					 "0 off, 1 filter, 2 stop)", key, value);
		if (!strcmp(what, "cfg")) {
			f->config.addr_cfg &= ~(0xfull << (4 * n));
			f->config.addr_cfg |= v << (4 * n);
		} else if (!strcmp(what, "a")) {
			*a[n] = v;
		} else if (!strcmp(what, "b")) {
			*b[n] = v;
		} else {
			goto unknown;
		}
	} else {
		goto unknown;
	}
	return 0;
unknown:
	return hwt_error(HWT_ERR_CONFIG,
			 "unknown intel_pt option '%s=%s' (known: mtc_freq, nom_freq, "
			 "cpuid_0x15_eax, cpuid_0x15_ebx, addrN_cfg, addrN_a, "
			 "addrN_b for N 0-3)", key, value);
}

/* "key=value,key=value" from `--raw intel_pt,OPTIONS:FILE`. */
static int apply_raw_options(struct pt_config *config, const char *options)
{
	char buf[512];
	if (strlen(options) >= sizeof(buf))
		return hwt_error(HWT_ERR_CONFIG, "intel_pt options too long");
	strcpy(buf, options);
	for (char *save, *opt = strtok_r(buf, ",", &save); opt;
	     opt = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(opt, '=');
		if (!eq)
			return hwt_error(HWT_ERR_CONFIG,
					 "intel_pt option '%s': expected KEY=VALUE", opt);
		*eq = 0;
		int err = apply_option(config, opt, eq + 1);
		if (err < 0)
			return err;
	}
	return 0;
}

int pt_config_setup(struct pt_config *config, struct pt_time_conv *tc,
		    const struct hwt_decode_params *params)
{
	pt_config_init(config);
	memset(tc, 0, sizeof(*tc));

	config->decode.callback = pt_ext_packet_callback;

	/* Blocks in libipt's default mode, its fastest, run on through
	 * direct calls and jumps: pt_block_shape.c cuts them there. */
	config->flags.variant.block.end_on_call = 0;
	config->flags.variant.block.end_on_jump = 0;

	if (params->cpu_model && params->cpu_model[0]) {
		if (pt_cpu_parse(params->cpu_model, &config->cpu))
			return hwt_error(HWT_ERR_CONFIG,
					 "--cpu-model %s: not a traced CPU (valid: "
					 "FAMILY/MODEL[/STEPPING], family 1 to "
					 "65535, model and stepping 0 to 255, e.g. "
					 "6/142/10)", params->cpu_model);
		if (!config->cpu.family)
			return hwt_error(HWT_ERR_CONFIG,
					 "--cpu-model %s: unknown cpu (family 0; "
					 "valid: family 1 to 65535, e.g. 6/142/10)",
					 params->cpu_model);
		/* A model newer than libipt's errata table decodes without
		 * errata workarounds, as on a cpu that needs none. */
		if (pt_cpu_errata(&config->errata, &config->cpu) < 0)
			memset(&config->errata, 0, sizeof(config->errata));
	}

	const uint64_t *info = params->info;
	if (info && params->info_words >= PT_INFO_WORDS_MIN) {
		if (info[PT_INFO_CAP_USER_TIME_ZERO] &&
		    info[PT_INFO_TIME_MULT] && info[PT_INFO_TIME_SHIFT] < 64) {
			tc->valid = true;
			tc->shift = (uint16_t)info[PT_INFO_TIME_SHIFT];
			tc->mult = (uint32_t)info[PT_INFO_TIME_MULT];
			tc->zero = info[PT_INFO_TIME_ZERO];
		}
		config->cpuid_0x15_eax = (uint32_t)info[PT_INFO_TSC_CTC_D];
		config->cpuid_0x15_ebx = (uint32_t)info[PT_INFO_TSC_CTC_N];
		config->nom_freq = (uint8_t)info[PT_INFO_MAX_NONTURBO_RATIO];
		/* The MTC period lives in the event's config (mtc_period=, in
		 * the bits the info names); perf's default is 3. */
		uint64_t bits = info[PT_INFO_MTC_FREQ_BITS];
		const struct perf_event_attr *attr = params->aux_attr;
		if (attr && bits && (attr->config & info[PT_INFO_MTC_BIT]))
			config->mtc_freq = (uint8_t)((attr->config & bits) >>
						     __builtin_ctzll(bits));
		else if (!attr && bits && info[PT_INFO_MTC_BIT])
			config->mtc_freq = 3;
	}
	if (params->raw_options && params->raw_options[0])
		return apply_raw_options(config, params->raw_options);
	return 0;
}
