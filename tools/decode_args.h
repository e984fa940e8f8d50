/* hwtrace decode's command line: its options, parsed and checked (one
 * input, options that go together), and its help text. */
#ifndef HWT_TOOLS_DECODE_ARGS_H
#define HWT_TOOLS_DECODE_ARGS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "hwtrace/decode_progress.h"
#include "decode_symbols.h"
#include "hwtrace/decode.h"
#include "hwtrace/decode_input.h"
#include "hwtrace/decode_request.h"
#include "hwtrace/merge.h"
#include "hwtrace/output.h"

struct decode_args {
	struct hwt_decode_opts opts;
	struct hwt_map_spec *maps;
	struct hwt_map_spec *elfs; /* --elf */
	enum hwt_output_format format;
	bool packets;
	bool profile;
	bool calls;
	bool per_cpu;
	bool edges;
	uint64_t bitmap;   /* --edges-bitmap SIZE, 0 when not given */
	bool partial;      /* --partial: the edges or branch profile as a
			    * partial result */
	size_t unit;       /* --unit N, 0 when not given */
	const char *output;
	char *raw;         /* BACKEND[,OPTS]:TRACE, split in place */
	const char *snapshot;
	const char *file;
	/* What the options ask for, checked (hwt_decode_request_check). */
	struct hwt_decode_request request;
	/* The one input, FILE, --snapshot or --raw (split), set once the
	 * command line is good. */
	struct hwt_decode_input input;
	struct decode_symbols symbols;
	uint32_t script_fields;      /* -F (hwt_script_field bits), 0: none */
	const char *comms, *dsos, *syms; /* --comm, --dso, --sym; NULL: none */
	bool quiet;
	/* Filled by hwtrace decode while it runs, not by the parser. */
	struct hwt_progress_line progress;
	/* Counts the elements and hands them to the printer, a filter or
	 * -F's script (the merged decode counts them itself). */
	struct hwt_decode_counter *counter;
	FILE *out;               /* where the elements go, */
	struct hwt_output *lines; /* through this output */
};

/* hwtrace decode --help. */
void decode_usage(FILE *out);

/* Parses argv into @a (zeroed by the caller); a usage error is printed
 * and its exit status returned, 0 when the command line is good. The
 * caller frees a->maps and a->elfs either way. */
int decode_args_parse(int argc, char **argv, struct decode_args *a);

#endif
