/* The header records of a live recording: the session's events, the
 * backend's PERF_RECORD_AUXTRACE_INFO and TIME_CONV, in the order perf
 * record writes them (attributes, then the decoder's metadata, then data). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hwtrace/error.h"
#include "hwtrace/recorder.h"
#include "recorder_internal.h"

/* Longest priv[] a backend may fill: CoreSight's per-CPU blocks on a
 * large machine stay well under it. */
#define HWT_INFO_PRIV_MAX 512

/* The session facts a backend's AUXTRACE_INFO needs: the time conversion
 * of the first AUX event's user page, and how context switches reach the
 * file (the sideband event has context_switch set: CPU-wide switch
 * records when every task of a CPU is traced, the traced task's own
 * otherwise), and the address filters given to the kernel. */
static void info_ctx(const struct hwt_session *s,
		     const struct hwt_session_opts *so,
		     struct hwt_record_info_ctx *ctx)
{
	struct hwt_pd_time_conv tc;

	memset(ctx, 0, sizeof(*ctx));
	ctx->size = sizeof(*ctx);
	if (hwt_session_time_conv(s, &tc) == 0 && tc.cap_user_time_zero) {
		ctx->cap_user_time_zero = true;
		ctx->time_shift = (uint16_t)tc.time_shift;
		ctx->time_mult = (uint32_t)tc.time_mult;
		ctx->time_zero = tc.time_zero;
	}
	if (so->sideband)
		ctx->sched_switch = so->per_thread || so->pid > 0 ? 2 : 3;
	ctx->filter = so->aux_filter && *so->aux_filter ? so->aux_filter : NULL;
}

int hwt_recorder_auxtrace_info(const struct hwt_backend *backend,
			       const struct hwt_pmu *pmu,
			       const struct hwt_session *s,
			       const struct hwt_session_opts *so,
			       void *rec, size_t max)
{
	uint64_t priv[HWT_INFO_PRIV_MAX];
	struct hwt_record_info_ctx ctx;
	int nw;

	if (!s || !so || !rec)
		return hwt_error(HWT_ERR_INVAL, "AUXTRACE_INFO: no session");
	if (!backend || !backend->record || !backend->record->info)
		return hwt_error(HWT_ERR_NOSUP, "backend %s cannot record: it "
				 "has no AUXTRACE_INFO writer",
				 backend ? backend->name : "?");
	info_ctx(s, so, &ctx);
	nw = backend->record->info(so->os ? so->os : hwt_os_linux(), pmu,
				   &so->aux_attr, so->cpus, so->ncpus,
				   so->snapshot, &ctx, priv, HWT_INFO_PRIV_MAX);
	if (nw < 0)
		return nw == HWT_ERR_NOSUP ?
			       hwt_error(nw, "backend %s cannot record: it has "
					 "no AUXTRACE_INFO writer", backend->name) :
			       nw;
	size_t sz = 16 + (size_t)nw * 8;
	if (sz > max || sz > UINT16_MAX)
		return hwt_error(HWT_ERR_INVAL, "backend %s: AUXTRACE_INFO of "
				 "%zu bytes does not fit a record",
				 backend->name, sz);
	struct perf_event_header h = {HWT_PD_RECORD_AUXTRACE_INFO, 0,
				      (uint16_t)sz};
	uint8_t *out = rec;
	uint32_t type = backend->auxtrace_type, pad = 0;
	memcpy(out, &h, sizeof(h));
	memcpy(out + 8, &type, 4);
	memcpy(out + 12, &pad, 4);
	memcpy(out + 16, priv, (size_t)nw * 8);
	return (int)sz;
}

int hwt_recorder_add_session_attrs(struct hwt_pd_writer *w,
				   const struct hwt_session *s, size_t first,
				   size_t n)
{
	const struct perf_event_attr *a;
	const uint64_t *ids;
	size_t nids;
	const char *name;
	int ret = 0;

	for (size_t i = first; ret >= 0 && i - first < n &&
			       hwt_session_attr(s, i, &a, &ids, &nids, &name) == 0; i++)
		ret = hwt_pd_writer_add_attr(w, a, ids, nids, name);
	return ret < 0 ? ret : 0;
}

int hwt_recorder_write_header(struct hwt_recorder *r,
			      const struct hwt_backend *backend,
			      const struct hwt_pmu *pmu,
			      const struct hwt_session_opts *so)
{
	int ret;

	if (!r || !so)
		return hwt_error(HWT_ERR_INVAL, "recorder: no session options");
	ret = hwt_recorder_add_session_attrs(r->w, r->s, 0, SIZE_MAX);
	if (ret < 0)
		return ret;
	size_t max = 16 + HWT_INFO_PRIV_MAX * 8;
	uint64_t *rec = calloc(1, max);
	if (!rec)
		return hwt_error(HWT_ERR_NOMEM, "recorder: out of memory");
	ret = hwt_recorder_auxtrace_info(backend, pmu, r->s, so, rec, max);
	if (ret >= 0)
		ret = hwt_pd_writer_record(r->w, rec);
	free(rec);
	if (ret >= 0) {
		struct hwt_pd_time_conv tc;
		if (hwt_session_time_conv(r->s, &tc) == 0)
			ret = hwt_pd_writer_time_conv(r->w, &tc);
	}
	return ret < 0 ? ret : 0;
}
