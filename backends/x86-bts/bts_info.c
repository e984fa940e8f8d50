/* intel_bts's AUXTRACE_INFO priv words (perf's intel_bts_info_fill) and
 * where a snapshot starts in its overwrite-mode buffer. */
#include <string.h>

#include "hwtrace/error.h"
#include "hwtrace/os.h"
#include "hwtrace/pmu.h"
#include "backends/x86-bts/bts_meta.h"

#define BTS_SYSFS_TYPE "bus/event_source/devices/intel_bts/type"

/* perf looks at the last 512 64-bit words. */
#define BTS_WRAP_WINDOW 4096u

int hwt_bts_info(const struct hwt_os *os, const struct hwt_pmu *pmu,
		     const struct perf_event_attr *attr, const int *cpus,
		     int ncpus, bool snapshot,
		     const struct hwt_record_info_ctx *ctx, uint64_t *priv,
		     size_t max)
{
	uint64_t type;
	int err;

	if (!priv || (!os && !pmu))
		return hwt_error(HWT_ERR_INVAL, "intel_bts info: no %s given",
				 priv ? "PMU or OS" : "output buffer");
	if (ctx && ctx->size < sizeof(*ctx))
		return hwt_error(HWT_ERR_INVAL,
				 "intel_bts info: context of %zu bytes, expected %zu",
				 ctx->size, sizeof(*ctx));
	if (max < HWT_BTS_PRIV_WORDS)
		return hwt_error(HWT_ERR_NOSPC,
				 "intel_bts AUXTRACE_INFO needs %d words, room for %zu",
				 HWT_BTS_PRIV_WORDS, max);
	if (pmu) {
		type = pmu->type;
	} else {
		err = hwt_os_sysfs_read_u64(os, BTS_SYSFS_TYPE, &type);
		if (err < 0)
			return err;
	}
	if (attr && attr->type != type)
		return hwt_error(HWT_ERR_CONFIG,
				 "intel_bts: the event was set up with PMU type %u but "
				 "intel_bts has type %llu; configure it for intel_bts",
				 attr->type, (unsigned long long)type);

	memset(priv, 0, HWT_BTS_PRIV_WORDS * sizeof(*priv));
	priv[HWT_BTS_PRIV_PMU_TYPE] = type;
	if (ctx && ctx->cap_user_time_zero && ctx->time_mult) {
		priv[HWT_BTS_PRIV_TIME_SHIFT] = ctx->time_shift;
		priv[HWT_BTS_PRIV_TIME_MULT] = ctx->time_mult;
		priv[HWT_BTS_PRIV_TIME_ZERO] = ctx->time_zero;
		priv[HWT_BTS_PRIV_CAP_USER_TIME_ZERO] = 1;
	}
	priv[HWT_BTS_PRIV_SNAPSHOT_MODE] = snapshot;
	return HWT_BTS_PRIV_WORDS;
}


static bool tail_written(const uint8_t *aux, uint64_t size)
{
	uint64_t from = size > BTS_WRAP_WINDOW ? size - BTS_WRAP_WINDOW : 0;

	for (uint64_t i = from; i < size; i++)
		if (aux[i])
			return true;
	return false;
}

int hwt_bts_find_snapshot(const uint8_t *aux, uint64_t aux_size,
			  uint64_t head, uint64_t prev_head, uint64_t *start,
			  uint64_t *len, bool *wrapped)
{
	uint64_t h, old;

	if (!aux || !aux_size || !start || !len || !wrapped)
		return hwt_error(HWT_ERR_INVAL,
				 "intel_bts snapshot: no buffer or output given");
	/* The driver reports an offset inside the buffer, always at a record
	 * boundary: the hardware wraps at the last whole record, and the
	 * record ops' alignment makes the core drop the unwritten tail. */
	h = head % aux_size;
	*wrapped = tail_written(aux, aux_size);
	if (*wrapped) {
		*start = h;
		*len = aux_size;
		return 0;
	}
	old = prev_head % aux_size;
	*start = old;
	*len = old <= h ? h - old : aux_size - old + h;
	return 0;
}
