/* hwt_decode_snapshot_dir: the core's half of `decode --snapshot DIR`.
 * The directory's format belongs to a backend (its decoder's snapshot_dir
 * op); the filters and --disasm are the core's, as for every input. */
#include <stdlib.h>

#include "core/decode/cpu_set.h"
#include "core/decode/decode_internal.h"
#include "core/decode/decode_isolate.h"
#include "hwtrace/decode.h"
#include "hwtrace/error.h"
#include "hwtrace/insn.h"

/* The backend that reads snapshot directories. Only CoreSight defines the
 * format today; when its decoder is missing, its reason is the answer. */
static int find_snapshot_backend(const char *dir,
				 const struct hwt_backend **out)
{
	const struct hwt_backend *b;
	for (size_t i = 0; (b = hwt_backend_at(i)); i++)
		if (b->decoder && b->decoder->snapshot_dir) {
			*out = b;
			return 0;
		}
	const struct hwt_backend *cs = hwt_backend_find("cs_etm");
	return hwt_error(HWT_ERR_NOSUP,
			 "%s: no decoder in this build reads snapshot "
			 "directories: %s", dir,
			 cs && cs->no_decoder_reason ? cs->no_decoder_reason
						     : "none registered");
}

/* The CPUs of the directory's trace sources, as the backend names them. */
struct source_cpus {
	struct hwt_cpu_set set;
	int err;
};

static void on_source_cpu(void *arg, int32_t cpu)
{
	struct source_cpus *sc = arg;
	if (cpu >= 0 && !sc->err)
		sc->err = hwt_cpu_set_add(&sc->set, (uint32_t)cpu);
}

/* params.run_buffer of an isolated decode: each buffer in a worker of its
 * own, forked once the backend has read the buffer and built the image,
 * so that the worker holds both; its elements come back to the sink of
 * this process, where --disasm reads the same image. A lost worker costs
 * its buffer, the next one decodes in a fresh worker. What a worker
 * marks in its copy of the image (a missing file reported once) does
 * not come back, which a snapshot cannot tell: its loader refuses a
 * memory dump that is missing. */
struct isolated_run {
	struct hwt_isolation *iso;
	const struct hwt_elem_sink *sink;
	const struct hwt_decode_opts *opts;
	const struct hwt_elem_sink *user_sink;
};

/* A worker's warning (a kernel that refused the sandbox) as the decode's. */
static void run_warn(void *arg, const char *message)
{
	struct isolated_run *r = arg;
	hwt_decode_warn(r->opts, r->user_sink, "%s", message);
}

static int run_isolated(void *arg, const char *what,
			int (*decode)(void *ctx, const struct hwt_elem_sink *sink),
			void *ctx)
{
	struct isolated_run *r = arg;
	return hwt_isolation_call(r->iso, r->sink, run_warn, r, decode, ctx,
				  what);
}

int hwt_decode_snapshot_dir(const char *dir,
			    const struct hwt_decode_opts *opts_in,
			    const struct hwt_elem_sink *user_sink)
{
	struct hwt_decode_opts opts;
	if (!dir || (!user_sink && !hwt_decode_opts_list_packets(opts_in)))
		return hwt_error(HWT_ERR_INVAL,
				 "hwt_decode_snapshot_dir: no directory or sink");
	int err = hwt_decode_opts_copy(opts_in, &opts);
	if (err)
		return err;
	const struct hwt_backend *backend = NULL;
	err = find_snapshot_backend(dir, &backend);
	if (!err)
		err = hwt_decode_packet_filters_check(&opts, "a snapshot directory");
	if (err)
		return err;
	/* --cpu, --tid and --time apply as to any other input. */
	struct hwt_decode_filter filter = {.opts = &opts, .next = user_sink,
					   .trace_alone = true};
	struct hwt_elem_sink fsink = hwt_decode_filter_sink(&filter);
	const struct hwt_elem_sink *sink =
		hwt_decode_has_filter(&opts) ? &fsink : user_sink;
	struct hwt_image *image = hwt_image_new();
	if (!image)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	/* --disasm: ranges as instructions with their text. The disasm sink
	 * reads the image when elements pass, after the backend has loaded
	 * the directory's memory dumps into it. */
	struct hwt_disasm *dis = NULL;
	struct hwt_elem_sink dsink;
	if (opts.disasm && !opts.packet_sink.packet && sink &&
	    !(err = hwt_disasm_new(image, sink, &dis))) {
		dsink = hwt_disasm_sink(dis);
		sink = &dsink;
	}
	struct hwt_decode_params params = {
		.size = sizeof(params),
		.image = image,
		.sink = sink,
		.cpu_model = opts.cpu_model,
		.disasm = opts.disasm,
		.on_image = opts.on_image,
		.on_image_arg = opts.on_image_arg,
	};
	struct source_cpus cpus = {{0}, 0};
	if (opts.filter_cpu) {
		params.on_source_cpu = on_source_cpu;
		params.on_source_cpu_arg = &cpus;
	}
	/* Isolated as hwt_isolate_wanted says (cs_etm's default; never
	 * --packets): the backend hands each buffer's decode to
	 * run_isolated. Otherwise OpenCSD decodes in this process. */
	struct hwt_isolation *iso = NULL;
	struct isolated_run run = {NULL, sink, &opts, user_sink};
	if (!err && hwt_isolate_wanted(backend, &opts) &&
	    !(err = hwt_isolation_open(backend, &opts, &iso))) {
		run.iso = iso;
		params.run_buffer = run_isolated;
		params.run_buffer_arg = &run;
	}
	if (!err)
		err = backend->decoder->snapshot_dir(
			dir, &params, opts.packet_sink.packet ? &opts.packet_sink : NULL);
	if (!err)
		err = cpus.err;
	/* After the decode: the backend names its sources as it reads the
	 * directory, within the op. */
	if (!err)
		err = hwt_decode_warn_cpu_absent(&opts, user_sink, &cpus.set,
						 "the snapshot");
	if (!err && hwt_decode_has_filter(&opts) && !opts.packet_sink.packet)
		err = hwt_decode_filter_report(&filter, user_sink);
	/* A lost worker's buffer fails the decode once the rest is out. */
	err = hwt_isolation_close(iso, err);
	hwt_cpu_set_free(&cpus.set);
	hwt_disasm_free(dis);
	hwt_image_free(image);
	return err;
}
