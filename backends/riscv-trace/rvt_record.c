/* The rvtrace PMU's record ops: the [rvtrace] profile keys that say how
 * the trace encoder is set up, and the AUXTRACE_INFO that carries them
 * to the decoder. The series' driver has one format term (event,
 * config:0-0) and no encoder setting a decoder could read back, so what
 * the decoder must know is given by the profile and kept in the file. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "backends/riscv-trace/rvt_record.h"
#include "hwtrace/config.h"
#include "hwtrace/error.h"
#include "hwtrace/pmu.h"

/* The profile keys of the encoder settings, as --raw's option names. */
static const char *const encoder_keys[] = {"xlen", "callstack", "src", "ts",
					   "extaddr"};

/* configure() runs before info() for the same session on the recording
 * thread; the settings it read wait here for info(). */
static _Thread_local struct rvt_opts session_opts;
static _Thread_local bool session_configured;

static int rvt_configure(const struct hwt_os *os, const struct hwt_pmu *pmu,
			 const struct hwt_profile *p,
			 struct perf_event_attr *attr)
{
	struct rvt_opts o;

	(void)os;
	(void)pmu;
	(void)attr;
	rvt_opts_default(&o);
	for (size_t i = 0; i < sizeof(encoder_keys) / sizeof(encoder_keys[0]);
	     i++) {
		char key[32], where[256];
		const char *val;
		int err;

		snprintf(key, sizeof(key), "rvtrace:%s", encoder_keys[i]);
		val = hwt_profile_get(p, key);
		if (!val)
			continue;
		snprintf(where, sizeof(where), "%s: [rvtrace]",
			 hwt_config_term_where(p, "rvtrace", encoder_keys[i]));
		if ((err = rvt_opts_set(&o, encoder_keys[i], val, where)) < 0)
			return err;
	}
	session_opts = o;
	session_configured = true;
	return 0;
}

static int rvt_info(const struct hwt_os *os, const struct hwt_pmu *pmu,
		    const struct perf_event_attr *attr, const int *cpus,
		    int ncpus, bool snapshot,
		    const struct hwt_record_info_ctx *ctx, uint64_t *priv,
		    size_t max)
{
	struct rvt_opts o;

	(void)os;
	(void)attr;
	(void)cpus;
	(void)ncpus;
	(void)snapshot;
	(void)ctx;
	if (!pmu)
		return hwt_error(HWT_ERR_INVAL, "rvtrace info: no PMU given");
	if (max < RVT_INFO_WORDS)
		return hwt_error(HWT_ERR_INVAL, "rvtrace info: needs %d words, "
				 "room for %zu", RVT_INFO_WORDS, max);
	if (session_configured)
		o = session_opts;
	else
		rvt_opts_default(&o);
	priv[RVT_INFO_PMU_TYPE] = pmu->type;
	priv[RVT_INFO_VERSION] = RVT_INFO_V1;
	priv[RVT_INFO_XLEN] = o.xlen;
	priv[RVT_INFO_CALLSTACK] = o.callstack;
	priv[RVT_INFO_SRC_BITS] = o.src_bits;
	priv[RVT_INFO_TS] = (uint64_t)o.ts;
	priv[RVT_INFO_EXTADDR] = o.extaddr;
	return RVT_INFO_WORDS;
}

int rvt_info_opts(const uint64_t *priv, size_t n, struct rvt_opts *o)
{
	rvt_opts_default(o);
	if (n < 1 || !priv)
		return hwt_error(HWT_ERR_FORMAT, "riscv_ntrace: the AUXTRACE_INFO "
				 "record has no words (the series' layout has "
				 "one, the PMU type)");
	/* The series' perf tool writes the PMU type alone: the encoder's
	 * settings are not known, and the defaults stand. */
	if (n == 1)
		return 0;
	if (priv[RVT_INFO_VERSION] >> 32 != RVT_INFO_MAGIC)
		return hwt_error(HWT_ERR_FORMAT, "riscv_ntrace: AUXTRACE_INFO word "
				 "1 is %#" PRIx64 ", not hwtrace's version word "
				 "(%#" PRIx64 "): a layout this hwtrace does not "
				 "know", priv[RVT_INFO_VERSION], RVT_INFO_V1);
	if (priv[RVT_INFO_VERSION] != RVT_INFO_V1)
		return hwt_error(HWT_ERR_FORMAT, "riscv_ntrace: AUXTRACE_INFO "
				 "layout version %" PRIu64 "; this hwtrace reads "
				 "version 1 (a newer hwtrace wrote the file)",
				 priv[RVT_INFO_VERSION] & 0xffffffffu);
	if (n < RVT_INFO_WORDS)
		return hwt_error(HWT_ERR_FORMAT, "riscv_ntrace: AUXTRACE_INFO has "
				 "%zu words; version 1 has %d", n, RVT_INFO_WORDS);
	if ((priv[RVT_INFO_XLEN] != 32 && priv[RVT_INFO_XLEN] != 64) ||
	    priv[RVT_INFO_CALLSTACK] > RVT_MAX_CALLSTACK ||
	    priv[RVT_INFO_SRC_BITS] > RVT_MAX_SRC_BITS ||
	    priv[RVT_INFO_TS] > RVT_TS_OFF || priv[RVT_INFO_EXTADDR] > 1)
		return hwt_error(HWT_ERR_FORMAT, "riscv_ntrace: AUXTRACE_INFO "
				 "settings out of range (xlen %" PRIu64
				 ", callstack %" PRIu64 ", src %" PRIu64
				 ", ts %" PRIu64 ", extaddr %" PRIu64 ")",
				 priv[RVT_INFO_XLEN], priv[RVT_INFO_CALLSTACK],
				 priv[RVT_INFO_SRC_BITS], priv[RVT_INFO_TS],
				 priv[RVT_INFO_EXTADDR]);
	o->xlen = (unsigned)priv[RVT_INFO_XLEN];
	o->callstack = (unsigned)priv[RVT_INFO_CALLSTACK];
	o->src_bits = (unsigned)priv[RVT_INFO_SRC_BITS];
	o->ts = (enum rvt_ts_mode)priv[RVT_INFO_TS];
	o->extaddr = priv[RVT_INFO_EXTADDR] != 0;
	return 0;
}

int rvt_params_opts(const struct hwt_decode_params *p, struct rvt_opts *o)
{
	return p->info ? rvt_info_opts(p->info, p->info_words, o)
		       : rvt_opts_parse(p->raw_options, o);
}

bool rvt_perf_padding(const uint8_t *p, size_t n, uint64_t end)
{
	if (!n || n >= 8 || end % 8)
		return false;
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return false;
	return true;
}

const struct hwt_record_ops rvt_record_ops = {
	.configure = rvt_configure,
	.info = rvt_info,
};
