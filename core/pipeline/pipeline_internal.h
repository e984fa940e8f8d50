/* The capture handle and what its cursors share (core/pipeline/). */
#ifndef HWT_CORE_PIPELINE_INTERNAL_H
#define HWT_CORE_PIPELINE_INTERNAL_H

#include "core/decode/decode_internal.h"
#include "hwtrace/capture.h"

struct hwt_capture {
	enum hwt_capture_kind kind;
	char *path;            /* the file, the raw stream or the directory */
	char *backend;         /* raw: the backend's name; else NULL */
	char *backend_options; /* raw: its options, or NULL */
	const char *backend_name;
	/* The decode options every cursor starts from; their strings are
	 * the copies below. */
	struct hwt_decode_opts dopts;
	char *symfs, *buildid_dir, *vmlinux, *kcore, *cpu_model;
	struct hwt_map_spec *maps;
	size_t nmaps;
	struct hwt_file_facts facts;   /* perf.data */
	int32_t *cpus;
	size_t ncpus;
	struct hwt_capture_thread *threads;
	size_t nthreads;
	struct hwt_capture_name *names;
	struct hwt_capture_mmap *mmaps;
	size_t nmmaps;
	struct hwt_capture_queue *queues;
	size_t nqueues;
	struct hwt_capture_unit *units; /* once hwt_capture_units listed them */
	size_t nunits;
	bool units_listed;
	bool read_once;        /* a pipe or FIFO: no second read for cursors */
};

#endif
