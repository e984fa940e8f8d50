/* Decoding: a perf.data capture, a raw trace stream with memory maps, or an
 * OpenCSD snapshot directory, into the element stream. */
#ifndef HWTRACE_DECODE_H
#define HWTRACE_DECODE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "hwtrace/common.h"
#include "hwtrace/edges.h"
#include "hwtrace/element.h"
#include "hwtrace/image.h"
#include "hwtrace/listing.h"
#include "hwtrace/output.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A `--map FILE@ADDR` memory image for raw decoding. */
struct hwt_map_spec {
	const char *path;
	uint64_t vaddr;
};

/* How far a decode is, for progress reports (hwt_decode_opts.progress). */
struct hwt_decode_progress {
	uint64_t done;    /* bytes of trace decoded so far */
	uint64_t total;   /* bytes of trace the decode will read */
	/* Element streams the decode can produce: its trace streams (one
	 * per CPU or thread), plus one when the capture also holds losses
	 * or AUX samples, whose elements may carry other CPUs. With 1,
	 * every element comes from one stream, in order. */
	uint32_t streams;
};

/* Options of every decode entry point. Zero-initialise, then set size. */
/* hwt_decode_opts.isolate. */
enum hwt_isolate {
	HWT_ISOLATE_DEFAULT = 0, /* the decoders known to need it */
	HWT_ISOLATE_ON,          /* every backend's decoder */
	HWT_ISOLATE_OFF,         /* none: all decode in this process */
};

struct hwt_decode_opts {
	size_t size;                     /* sizeof(struct hwt_decode_opts) */
	struct hwt_image_lookup lookup;  /* --symfs, --buildid-dir, --vmlinux */
	const char *kcore;               /* --kcore DIR, or NULL */
	const struct hwt_map_spec *maps; /* --map, raw decoding */
	size_t nmaps;
	const char *cpu_model;           /* --cpu FAMILY/MODEL/STEPPING */
	bool filter_cpu;                 /* only elements of cpu */
	int32_t cpu;
	bool filter_tid;                 /* only elements of tid */
	int32_t tid;
	bool filter_time;                /* only elements in [time_start, time_end] */
	uint64_t time_start, time_end;
	/* Non-NULL: list packets, not elements, as text lines here (the
	 * text printer of listing.h); packet_sink takes them as records. */
	FILE *packets;
	bool disasm;                     /* the output wants instructions */
	/* Non-NULL: after decoding, write the branch-count profile of every
	 * branch and every AUX sample's branch stack here ("FROM->TO COUNT",
	 * addresses as FILE+0xOFFSET where the image knows the file);
	 * branch_count_sink takes it as records. */
	FILE *branch_profile;
	/* Non-NULL: called once the memory image is complete (every MMAP
	 * record read, --map and snapshot dumps added), before the first
	 * element, so that element consumers such as a symbolizer
	 * (symbols.h) can look addresses up in it. The image is borrowed
	 * and valid until the decode call returns. */
	void (*on_image)(void *arg, struct hwt_image *image);
	void *on_image_arg;
	/* Non-NULL: the branch profile gains two columns, the names of FROM
	 * and TO ("sym+0xoff", "?" when unknown), from this callback, which
	 * writes a name into @buf and returns its length (0: unknown), e.g.
	 * hwt_symbolizer_name (symbols.h). */
	int (*name_addr)(void *arg, int32_t pid, uint64_t addr, char *buf,
			 size_t size);
	void *name_addr_arg;
	/* Use the files found for a capture's mappings even when their build
	 * id or ELF machine is not the capture's (perf's --ignore-build-ids);
	 * by default such a file is treated as missing. */
	bool ignore_build_ids;
	/* Non-NULL: warnings (the trace can be decoded, but not as well as
	 * it could be, a filter or input looks wrong, a file found for a
	 * mapping was refused or used anyway) go here, one sentence each,
	 * instead of into the element stream as errors. */
	void (*warn)(void *arg, const char *message);
	void *warn_arg;
	/* Non-NULL: called with how far the decode is, first with done 0
	 * before the first element, then from time to time while it
	 * decodes (between chunks, and within a chunk where the backend
	 * says how far it is: Intel PT every few thousand blocks), and last
	 * with done == total. Only hwt_decode_file and hwt_decode_raw call
	 * it. The callback must be cheap; it may not call back into the
	 * decode. */
	void (*progress)(void *arg, const struct hwt_decode_progress *p);
	void *progress_arg;
	/* Non-NULL (`--edges`): chunks go through the backend's edges op
	 * (backend.h) into this map where it has one and no --tid, --time or
	 * --disasm asks for elements; the sink gets the rest of the element
	 * stream, which the caller counts with hwt_edges_sink. */
	struct hwt_edges *edges;
	/* Threads decoding a perf.data capture's trace (`decode -j`): 0 or
	 * 1 decodes on the calling thread alone. With more, the trace is cut
	 * into units (every AUXTRACE piece of every CPU or thread, and the
	 * segments the backend's split op gives), each decoded by a decoder
	 * instance of its own thread; elements are buffered per unit and sent
	 * to the sink in unit order on the calling thread, so the stream is
	 * the same for every value. With @edges and the backend's edges op,
	 * units are whole pieces, each thread counts into a map of its own,
	 * and the maps are added to @edges at the end: the same edges,
	 * counts and stats for every value. Raw input is one piece, decoded
	 * on every thread when the split op cuts it; backends without a
	 * split op, snapshot directories and packets decode on one thread
	 * whatever the value. Progress is counted on the calling thread,
	 * a piece's bytes once its elements are sent. */
	unsigned int jobs;
	/* `--elf FILE[@BIAS]`, raw decoding: ELF files whose load segments
	 * are the code (hwt_image_add_elf), each at its segments' addresses
	 * plus its vaddr; added after @maps. */
	const struct hwt_map_spec *elfs;
	size_t nelfs;
	/* Whether the trace decoders run in sandboxed worker processes
	 * (docs/decode.md, "Isolated decoders"), where a decoder library
	 * that crashes or hangs on crafted trace costs only the bytes it
	 * was decoding, named by an error element, and the decode returns
	 * HWT_ERR_DECODE at its end. HWT_ISOLATE_DEFAULT isolates the
	 * decoders known to need it (cs_etm's, OpenCSD). Perf.data and
	 * raw input; a snapshot directory and a packet listing decode in
	 * the process. */
	enum hwt_isolate isolate;
	/* An isolated decoder that says nothing for this long (while it
	 * decodes a chunk, it sends its elements as it goes) is stopped;
	 * 0: 30000 ms. */
	unsigned int isolate_timeout_ms;
	/* `--virtual-lbr N` (docs/aux-sampling.md, "Virtual LBR"): 0, or
	 * 1 to HWT_VIRTUAL_LBR_MAX. Each AUX sample of a perf.data capture
	 * is handed out as branch-stack records instead of a SAMPLE element:
	 * the newest N taken branches of its window, the BRANCH elements
	 * (HWT_FIELD_SAMPLED, the sample's period as weight, newest at depth
	 * 0, oldest first) and RANGE elements a branch-record (LBR) sample
	 * gives, so every profile takes AUX samples and LBR samples alike. */
	unsigned int virtual_lbr;
	/* packet_sink.packet non-NULL: list packets, not elements, as
	 * records (listing.h) to this sink; @packets is then not used. */
	struct hwt_packet_sink packet_sink;
	/* branch_count_sink.branch non-NULL: the branch-count profile, as
	 * for @branch_profile, as records to this sink, most taken first;
	 * @branch_profile is then not used. */
	struct hwt_branch_count_sink branch_count_sink;
};

/* The most records --virtual-lbr takes a sample (perf's itrace l and L
 * sizes stop there too). */
#define HWT_VIRTUAL_LBR_MAX 1024u

/* Decodes every AUXTRACE buffer of the perf.data file @path with the
 * backend its AUXTRACE_INFO names, building the memory image from its
 * MMAP/MMAP2 records. Elements go to @sink. Errors: those of the reader
 * (naming the file and offset), HWT_ERR_NOSUP (no decoder for this trace,
 * saying why), and whatever the sink returns. */
HWT_API int hwt_decode_file(const char *path, const struct hwt_decode_opts *opts,
			    const struct hwt_elem_sink *sink);

/* Decodes the raw trace stream in @trace_path with the backend named
 * @backend ("intel_pt", "intel_bts", "cs_etm"), memory from opts->maps.
 * @backend_options may carry backend settings after a comma, e.g.
 * "cs_etm,etmv4,traceid=0x10"; NULL for none. */
HWT_API int hwt_decode_raw(const char *backend, const char *backend_options,
			   const char *trace_path,
			   const struct hwt_decode_opts *opts,
			   const struct hwt_elem_sink *sink);

/* Decodes an OpenCSD trace snapshot directory (snapshot.ini and the files
 * it names). Errors name the directory and the INI file and key. */
HWT_API int hwt_decode_snapshot_dir(const char *dir,
				    const struct hwt_decode_opts *opts,
				    const struct hwt_elem_sink *sink);

/* What a decode's elements were, by kind: the summary line of hwtrace
 * decode (hwt_decode_counts_print). */
struct hwt_decode_counts {
	uint64_t elems;
	uint64_t ranges, insns;     /* RANGE elements and their instructions */
	uint64_t branches;
	/* Branches whose source the trace does not give (read from the
	 * packets where the code was missing: HWT_FIELD_NO_FROM). */
	uint64_t branches_no_from;
	uint64_t errors;
	uint64_t gaps;
	uint64_t gap_by[HWT_GAP_NO_IMAGE + 1]; /* by hwt_gap_reason */
	uint64_t gap_bytes;                    /* of trace the gaps skipped */
	uint64_t samples, sample_branches;     /* AUX samples, their branches */
	uint64_t samples_nosync; /* samples without a sync point in their window */
};

/* Counts @elem into @counts. */
HWT_API void hwt_decode_count(struct hwt_decode_counts *counts,
			      const struct hwt_elem *elem);

/* A sink that counts each element into counts and hands it on to next
 * (hwt_decode_counter_sink). */
struct hwt_decode_counter {
	struct hwt_decode_counts counts;
	struct hwt_elem_sink next;
};
HWT_API struct hwt_elem_sink hwt_decode_counter_sink(struct hwt_decode_counter *c);

/* Writes @counts as one line to @out, after @prefix ("hwtrace decode: "):
 * ranges and instructions, branches, errors, gaps by reason and the bytes
 * they skipped, AUX samples when there are any. */
HWT_API void hwt_decode_counts_print(FILE *out, const char *prefix,
				     const struct hwt_decode_counts *counts);

/* A whole time-ordered decode of a perf.data capture (hwtrace decode's
 * default order): its streams decoded on opts->jobs threads, merged by
 * time (hwt_merge), and the merged elements written out. Implemented in
 * analysis/decode_run/, since it drives the element printer. */
struct hwt_decode_merged {
	size_t size;                        /* sizeof(struct hwt_decode_merged) */
	const char *file;                   /* the capture */
	const struct hwt_decode_opts *opts; /* its progress is called as given */
	/* Where the merged elements go, in time order, on one thread at a
	 * time: the printer's sink, or a filter or script in front of it. */
	struct hwt_elem_sink consumer;
	/* Non-NULL when consumer is this printer's sink alone: with
	 * opts->jobs > 1 the read-back is then cut into slices that
	 * opts->jobs lanes format at once, each with a printer of its own
	 * in @format (and @annotator's names, its annotate called under a
	 * lock), written to @out in order. Without, a thread of its own
	 * runs the consumer beside the read-back (hwtrace/pipe.h). */
	struct hwt_output *output;
	FILE *out;
	enum hwt_output_format format;
	const struct hwt_output_annotator *annotator; /* NULL: none */
	/* Called now and then while the merge writes its elements: @done of
	 * @total (first with 0 once the decode is done); NULL: not called. */
	void (*written)(void *arg, uint64_t done, uint64_t total);
	void *written_arg;
};

/* What a merged decode did. */
struct hwt_decode_merged_result {
	struct hwt_decode_counts counts; /* of the elements written */
	uint64_t streams;                /* the merge's input streams */
	bool timed;  /* false: no timestamps, streams one after the other */
};

/* Runs @run. @result is filled even when it fails part way (the counts
 * of what was written before). Errors: those of hwt_decode_file, of the
 * consumer, HWT_ERR_IO writing @out, HWT_ERR_NOMEM, HWT_ERR_INVAL (a
 * NULL or short @run). */
HWT_API int hwt_decode_merged(const struct hwt_decode_merged *run,
			      struct hwt_decode_merged_result *result);

#ifdef __cplusplus
}
#endif

#endif
