/* The riscv_ntrace backend: RISC-V N-Trace 1.0 (Nexus messages), raw
 * streams and captures of the rvtrace PMU (rvt_record.c), decoded
 * against the program image. */
#include <stdlib.h>
#include <string.h>

#include "backends/riscv-trace/rvt_decode.h"
#include "backends/riscv-trace/rvt_record.h"
#include "backends/riscv-trace/rvt_split.h"
#include "hwtrace/error.h"

static int rvt_create(const struct hwt_decode_params *params, void **priv)
{
	struct rvt_dec *d = calloc(1, sizeof(*d));
	if (!d)
		return hwt_error(HWT_ERR_NOMEM, "riscv_ntrace: out of memory");
	int err = rvt_params_opts(params, &d->o);
	if (err < 0) {
		free(d);
		return err;
	}
	for (size_t i = 0; i < RVT_ICACHE; i++)
		d->icache[i].pc = 1;
	d->capture = params->info != NULL;
	d->image = params->image;
	d->sink = params->sink;
	d->warn = params->warn;
	d->warn_arg = params->warn_arg;
	*priv = d;
	return 0;
}

static int rvt_feed(void *priv, const struct hwt_aux_chunk *chunk)
{
	return rvt_dec_feed(priv, chunk);
}

static void rvt_reset(void *priv)
{
	struct rvt_dec *d = priv;

	d->nharts = 0;
	d->npend = 0;
	d->sec = NULL;
	d->not_after_stop = false;
}

static int rvt_flush(void *priv)
{
	struct rvt_dec *d = priv;
	struct hwt_aux_chunk end = {.cpu = d->cpu, .tid = d->tid,
				    .offset = d->pend_off + d->npend,
				    .final = true};
	int err = d->npend ? rvt_dec_feed(d, &end) : 0;

	for (size_t i = 0; i < d->nharts && err >= 0; i++)
		err = rvt_range_flush(d, &d->harts[i]);
	return err;
}

static void rvt_destroy(void *priv)
{
	struct rvt_dec *d = priv;

	if (d)
		free(d->harts);
	free(d);
}

/* RV32 or RV64 as the encoder's XLEN in the info (or --raw) says. */
static enum hwt_isa rvt_code_isa(const struct hwt_decode_params *params)
{
	struct rvt_opts o;
	if (rvt_params_opts(params, &o) < 0)
		return HWT_ISA_UNKNOWN;
	return o.xlen == 32 ? HWT_ISA_RV32 : HWT_ISA_RV64;
}

static const struct hwt_decoder_ops rvt_decoder_ops = {
	.create = rvt_create,
	.feed = rvt_feed,
	.flush = rvt_flush,
	.reset = rvt_reset,
	.destroy = rvt_destroy,
	.packets = rvt_packets,
	.split = rvt_split,
	.code_isa = rvt_code_isa,
};

const struct hwt_backend hwt_backend_riscv_ntrace = {
	.name = "riscv_ntrace",
	.pmu_name = "rvtrace",
	.description = "RISC-V N-Trace 1.0 (the rvtrace PMU, raw streams)",
	.auxtrace_type = HWT_AUXTRACE_RISCV_TRACE,
	.record = &rvt_record_ops,
	.decoder = &rvt_decoder_ops,
};
