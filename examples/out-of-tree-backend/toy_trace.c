/* toy_trace: an out-of-tree hwtrace backend for a made-up trace IP, built
 * against the installed headers only (docs/porting.md walks through it).
 *
 * The "hardware": a PMU named toy_trace whose trace unit writes one 16-byte
 * record per taken branch, {u64 from, u64 to}, little-endian, into the perf
 * AUX area. Its AUXTRACE_INFO carries two words: a magic with the format
 * version, and the record size.
 *
 * Build (against an installed hwtrace):
 *   cc -shared -fPIC $(pkg-config --cflags hwtrace) toy_trace.c -o toy_trace.so
 * Use:
 *   hwtrace --plugin ./toy_trace.so record -e toy_trace ... -o toy.data
 *   hwtrace --plugin ./toy_trace.so decode toy.data
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <hwtrace/backend.h>
#include <hwtrace/error.h>

/* Not one of perf's auxtrace types: a file of this IP is decoded by this
 * backend only. */
#define TOY_AUXTRACE_TYPE 0x746f79u /* "toy" */
#define TOY_MAGIC 0x544f590000000001ull /* "TOY", format version 1 */
#define TOY_RECORD_SIZE 16

/* --- the recording half --- */

/* AUXTRACE_INFO priv[]: what a decoder on another machine needs. */
static int toy_info(const struct hwt_os *os, const struct hwt_pmu *pmu,
		    const struct perf_event_attr *attr, const int *cpus,
		    int ncpus, bool snapshot,
		    const struct hwt_record_info_ctx *ctx, uint64_t *priv,
		    size_t max)
{
	if (max < 2)
		return hwt_error(HWT_ERR_INVAL, "toy_trace: AUXTRACE_INFO needs "
				 "2 words, %zu given", max);
	priv[0] = TOY_MAGIC;
	priv[1] = TOY_RECORD_SIZE;
	return 2;
}

static const struct hwt_record_ops toy_record = {
	.info = toy_info,
	/* Whole records only: a snapshot never starts inside one. */
	.alignment = TOY_RECORD_SIZE,
};

/* --- the decoding half --- */

struct toy_decoder {
	const struct hwt_elem_sink *sink;
};

static int toy_create(const struct hwt_decode_params *params, void **priv)
{
	struct toy_decoder *d;

	if (params->info && (params->info_words < 2 || params->info[0] != TOY_MAGIC ||
			     params->info[1] != TOY_RECORD_SIZE))
		return hwt_error(HWT_ERR_FORMAT, "toy_trace: AUXTRACE_INFO is "
				 "not format version 1 (magic %#llx)",
				 params->info_words ?
					 (unsigned long long)params->info[0] : 0ull);
	d = calloc(1, sizeof(*d));
	if (!d)
		return hwt_error(HWT_ERR_NOMEM, "toy_trace: out of memory");
	d->sink = params->sink;
	*priv = d;
	return 0;
}

static uint64_t le64(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static int toy_feed(void *priv, const struct hwt_aux_chunk *chunk)
{
	struct toy_decoder *d = priv;
	struct hwt_elem e;
	uint64_t at;
	int err;

	for (at = 0; at + TOY_RECORD_SIZE <= chunk->size; at += TOY_RECORD_SIZE) {
		memset(&e, 0, sizeof(e));
		e.type = HWT_ELEM_BRANCH;
		e.fields = HWT_FIELD_OFFSET;
		e.trace_offset = chunk->offset + at;
		if (chunk->cpu >= 0) {
			e.cpu = chunk->cpu;
			e.fields |= HWT_FIELD_CPU;
		}
		e.u.branch.from = le64(chunk->data + at);
		e.u.branch.to = le64(chunk->data + at + 8);
		e.u.branch.kind = HWT_BRANCH_JUMP;
		if ((err = d->sink->emit(d->sink->arg, &e)) < 0)
			return err;
	}
	if (at < chunk->size) {
		/* A record cut short: say so, as every loss must be. */
		memset(&e, 0, sizeof(e));
		e.type = HWT_ELEM_GAP;
		e.fields = HWT_FIELD_OFFSET | HWT_FIELD_GAP_BYTES;
		e.trace_offset = chunk->offset + at;
		e.u.gap.reason = HWT_GAP_TRUNCATED;
		e.u.gap.bytes = chunk->size - at;
		if ((err = d->sink->emit(d->sink->arg, &e)) < 0)
			return err;
	}
	return 0;
}

static void toy_destroy(void *priv)
{
	free(priv);
}

static const struct hwt_decoder_ops toy_decoder_ops = {
	.create = toy_create,
	.feed = toy_feed,
	.destroy = toy_destroy,
};

static const struct hwt_backend toy_backend = {
	.name = "toy_trace",
	.pmu_name = "toy_trace",
	.description = "toy branch trace (an out-of-tree example backend)",
	.auxtrace_type = (enum hwt_auxtrace_type)TOY_AUXTRACE_TYPE,
	.record = &toy_record,
	.decoder = &toy_decoder_ops,
};

/* Called by `hwtrace --plugin`; a program linking libhwtrace calls
 * hwt_backend_register(&toy_backend) the same way. */
int hwt_plugin_init(void);
int hwt_plugin_init(void)
{
	return hwt_backend_register(&toy_backend);
}
