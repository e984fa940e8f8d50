/* intel_pt's AUXTRACE_INFO priv words, as perf's intel_pt_info_fill. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "hwtrace/error.h"
#include "hwtrace/os.h"
#include "hwtrace/pmu.h"
#include "backends/x86-pt/pt_meta.h"

#define PT_SYSFS "bus/event_source/devices/intel_pt"

size_t hwt_pt_info_words(const char *filter)
{
	size_t len = filter ? strlen(filter) : 0;

	/* The string keeps its NUL; perf rounds it up to whole words. */
	return HWT_PT_PRIV_FIXED_WORDS + (len ? (len + 1 + 7) / 8 : 0) + 1;
}

int hwt_pt_info_fill(const struct hwt_pt_info_in *in, uint64_t *priv,
		     size_t max)
{
	size_t len = in->filter ? strlen(in->filter) : 0;
	size_t words = hwt_pt_info_words(in->filter);
	uint64_t *p;

	if (words > max)
		return hwt_error(HWT_ERR_NOSPC,
				 "intel_pt AUXTRACE_INFO needs %zu words, room for %zu",
				 words, max);
	priv[HWT_PT_PRIV_PMU_TYPE] = in->pmu_type;
	priv[HWT_PT_PRIV_TIME_SHIFT] = in->time_shift;
	priv[HWT_PT_PRIV_TIME_MULT] = in->time_mult;
	priv[HWT_PT_PRIV_TIME_ZERO] = in->time_zero;
	priv[HWT_PT_PRIV_CAP_USER_TIME_ZERO] = in->cap_user_time_zero;
	priv[HWT_PT_PRIV_TSC_BIT] = in->tsc_bit;
	priv[HWT_PT_PRIV_NORETCOMP_BIT] = in->noretcomp_bit;
	priv[HWT_PT_PRIV_HAVE_SCHED_SWITCH] = (uint64_t)(int64_t)in->have_sched_switch;
	priv[HWT_PT_PRIV_SNAPSHOT_MODE] = in->snapshot;
	priv[HWT_PT_PRIV_PER_CPU_MMAPS] = in->per_cpu_mmaps;
	priv[HWT_PT_PRIV_MTC_BIT] = in->mtc_bit;
	priv[HWT_PT_PRIV_MTC_FREQ_BITS] = in->mtc_freq_bits;
	priv[HWT_PT_PRIV_TSC_CTC_N] = in->tsc_ctc_n;
	priv[HWT_PT_PRIV_TSC_CTC_D] = in->tsc_ctc_d;
	priv[HWT_PT_PRIV_CYC_BIT] = in->cyc_bit;
	priv[HWT_PT_PRIV_MAX_NONTURBO_RATIO] = in->max_nonturbo_ratio;
	priv[HWT_PT_PRIV_FILTER_STR_LEN] = len;
	p = &priv[HWT_PT_PRIV_FIXED_WORDS];
	if (len) {
		size_t n = (len + 1 + 7) / 8;

		memset(p, 0, n * 8);
		memcpy(p, in->filter, len);
		p += n;
	}
	*p = in->cap_event_trace;
	return (int)words;
}

void hwt_pt_cpuid_tsc_ctc(uint32_t *n, uint32_t *d)
{
	*n = 0;
	*d = 0;
#if defined(__x86_64__) || defined(__i386__)
	unsigned int eax = 0, ebx = 0, ecx = 0, edx = 0;

	/* __get_cpuid fails (and perf then records 0/0) when the CPU's
	 * highest basic leaf is below 0x15, as on AMD. */
	if (__get_cpuid(0x15, &eax, &ebx, &ecx, &edx)) {
		*n = ebx;
		*d = eax;
	}
#endif
}

/* A format field's bits: @one is the config value of "term=1" (0 when the
 * field is not in attr.config, as perf leaves it), @mask all its bits. */
struct field_bits {
	uint64_t one;
	uint64_t mask;
};

static void bits_from_format(const struct hwt_pmu_format *fmt,
			     struct field_bits *out)
{
	out->one = 0;
	out->mask = 0;
	for (unsigned int i = 0; i < fmt->nranges && i < HWT_PMU_MAX_RANGES; i++) {
		unsigned int lo = fmt->ranges[i].lo, hi = fmt->ranges[i].hi;

		if (lo > hi || hi > 63)
			continue;
		out->mask |= (hi == 63 ? ~0ull : (1ull << (hi + 1)) - 1) &
			     ~((1ull << lo) - 1);
	}
	if (fmt->word == 0 && fmt->nranges > 0 && fmt->ranges[0].lo <= 63)
		out->one = 1ull << fmt->ranges[0].lo;
}

/* Parses "config:10", "config:14-17" or "config1:0-3,8". */
static int parse_format_text(const char *text, const char *path,
			     struct hwt_pmu_format *fmt)
{
	const char *p = text;
	char *end;

	memset(fmt, 0, sizeof(*fmt));
	if (strncmp(p, "config", 6) != 0)
		goto bad;
	p += 6;
	if (*p >= '1' && *p <= '3')
		fmt->word = *p++ - '0';
	if (*p++ != ':')
		goto bad;
	while (*p) {
		unsigned long lo, hi;

		if (fmt->nranges == HWT_PMU_MAX_RANGES)
			goto bad;
		errno = 0;
		lo = strtoul(p, &end, 10);
		if (end == p || errno || lo > 63)
			goto bad;
		hi = lo;
		p = end;
		if (*p == '-') {
			p++;
			hi = strtoul(p, &end, 10);
			if (end == p || errno || hi > 63 || hi < lo)
				goto bad;
			p = end;
		}
		fmt->ranges[fmt->nranges].lo = (uint8_t)lo;
		fmt->ranges[fmt->nranges].hi = (uint8_t)hi;
		fmt->nranges++;
		if (*p == ',')
			p++;
		else if (*p)
			goto bad;
	}
	if (fmt->nranges == 0)
		goto bad;
	return 0;
bad:
	return hwt_error(HWT_ERR_FORMAT,
			 "sysfs/%s: \"%s\" is not a format field like \"config:10\" "
			 "or \"config:14-17\"", path, text);
}

/* A missing term gives 0 bits, as perf records it. */
static int term_bits(const struct hwt_os *os, const struct hwt_pmu *pmu,
		     const char *term, struct field_bits *out)
{
	struct hwt_pmu_format fmt;
	char path[256], text[128];
	int n;

	out->one = 0;
	out->mask = 0;
	if (pmu) {
		for (size_t i = 0; i < pmu->nformats; i++) {
			if (!strcmp(pmu->formats[i].name, term)) {
				bits_from_format(&pmu->formats[i], out);
				return 0;
			}
		}
		return 0;
	}
	snprintf(path, sizeof(path), PT_SYSFS "/format/%s", term);
	n = hwt_os_sysfs_read(os, path, text, sizeof(text));
	if (n == HWT_ERR_NOENT)
		return 0;
	if (n < 0)
		return n;
	n = parse_format_text(text, path, &fmt);
	if (n < 0)
		return n;
	bits_from_format(&fmt, out);
	return 0;
}

/* A decimal number in a file of the PMU's directory; @def when absent. */
static int pmu_file_u64(const struct hwt_os *os, const char *name,
			uint64_t def, uint64_t *value)
{
	char path[256], text[64], *end;
	int n;

	*value = def;
	snprintf(path, sizeof(path), PT_SYSFS "/%s", name);
	n = hwt_os_sysfs_read(os, path, text, sizeof(text));
	if (n == HWT_ERR_NOENT)
		return 0;
	if (n < 0)
		return n;
	errno = 0;
	*value = strtoull(text, &end, 10);
	if (errno || end == text || *end)
		return hwt_error(HWT_ERR_FORMAT,
				 "sysfs/%s: expected a decimal number, found \"%s\"",
				 path, text);
	return 0;
}

static int read_event_trace(const struct hwt_os *os, const struct hwt_pmu *pmu,
			    bool *cap)
{
	uint64_t v = 0;
	int err;

	*cap = false;
	if (pmu) {
		for (size_t i = 0; i < pmu->ncaps; i++)
			if (!strcmp(pmu->caps[i].name, "event_trace"))
				*cap = strtoul(pmu->caps[i].value, NULL, 10) != 0;
		return 0;
	}
	err = pmu_file_u64(os, "caps/event_trace", 0, &v);
	*cap = v != 0;
	return err;
}

static int read_type(const struct hwt_os *os, const struct hwt_pmu *pmu,
		     const struct perf_event_attr *attr, uint32_t *type)
{
	uint64_t v;
	int err;

	if (pmu) {
		v = pmu->type;
	} else {
		err = hwt_os_sysfs_read_u64(os, PT_SYSFS "/type", &v);
		if (err < 0)
			return err;
	}
	if (attr && attr->type != v)
		return hwt_error(HWT_ERR_CONFIG,
				 "intel_pt: the event was set up with PMU type %u but "
				 "intel_pt has type %llu; configure it for intel_pt",
				 attr->type, (unsigned long long)v);
	*type = (uint32_t)v;
	return 0;
}

int hwt_pt_info(const struct hwt_os *os, const struct hwt_pmu *pmu,
		    const struct perf_event_attr *attr, const int *cpus,
		    int ncpus, bool snapshot,
		    const struct hwt_record_info_ctx *ctx, uint64_t *priv,
		    size_t max)
{
	struct hwt_pt_info_in in;
	struct field_bits f;
	int err;

	if (!priv || (!os && !pmu))
		return hwt_error(HWT_ERR_INVAL, "intel_pt info: no %s given",
				 priv ? "PMU or OS" : "output buffer");
	if (ctx && ctx->size < sizeof(*ctx))
		return hwt_error(HWT_ERR_INVAL,
				 "intel_pt info: context of %zu bytes, expected %zu",
				 ctx->size, sizeof(*ctx));
	memset(&in, 0, sizeof(in));
	err = read_type(os, pmu, attr, &in.pmu_type);
	if (err < 0)
		return err;
	if ((err = term_bits(os, pmu, "tsc", &f)) < 0)
		return err;
	in.tsc_bit = f.one;
	if ((err = term_bits(os, pmu, "noretcomp", &f)) < 0)
		return err;
	in.noretcomp_bit = f.one;
	if ((err = term_bits(os, pmu, "mtc", &f)) < 0)
		return err;
	in.mtc_bit = f.one;
	if ((err = term_bits(os, pmu, "mtc_period", &f)) < 0)
		return err;
	in.mtc_freq_bits = f.mask;
	if ((err = term_bits(os, pmu, "cyc", &f)) < 0)
		return err;
	in.cyc_bit = f.one;
	/* max_nonturbo_ratio is a file of the PMU directory, not a cap; the
	 * PMU scan does not keep it, so it is always read. */
	if (os && (err = pmu_file_u64(os, "max_nonturbo_ratio", 0,
				      &in.max_nonturbo_ratio)) < 0)
		return err;
	if ((err = read_event_trace(os, pmu, &in.cap_event_trace)) < 0)
		return err;

	if (ctx && ctx->tsc_ctc_given) {
		in.tsc_ctc_n = ctx->tsc_ctc_n;
		in.tsc_ctc_d = ctx->tsc_ctc_d;
	} else {
		hwt_pt_cpuid_tsc_ctc(&in.tsc_ctc_n, &in.tsc_ctc_d);
	}
	if (ctx && ctx->cap_user_time_zero && ctx->time_mult) {
		in.cap_user_time_zero = true;
		in.time_shift = ctx->time_shift;
		in.time_mult = ctx->time_mult;
		in.time_zero = ctx->time_zero;
	}
	in.have_sched_switch = ctx ? ctx->sched_switch : 0;
	in.filter = ctx ? ctx->filter : NULL;
	in.snapshot = snapshot;
	in.per_cpu_mmaps = cpus && ncpus > 0;
	return hwt_pt_info_fill(&in, priv, max);
}

