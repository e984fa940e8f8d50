/* `hwtrace decode -F FIELD,...`: one line per branch (and per trace start
 * and end), with the fields perf script's -F names, in perf script's
 * order and layout, so that a capture reads the same in both: comm, tid,
 * pid, cpu, time, flags, ip, sym, symoff, dso, addr, insn, srcline. */
#ifndef HWTRACE_SCRIPT_H
#define HWTRACE_SCRIPT_H

#include <stdint.h>
#include <stdio.h>

#include "hwtrace/common.h"
#include "hwtrace/element.h"
#include "hwtrace/image.h"
#include "hwtrace/symbols.h"

#ifdef __cplusplus
extern "C" {
#endif

enum hwt_script_field {
	HWT_SCRIPT_COMM = 1u << 0,
	HWT_SCRIPT_TID = 1u << 1,
	HWT_SCRIPT_PID = 1u << 2,
	HWT_SCRIPT_CPU = 1u << 3,
	HWT_SCRIPT_TIME = 1u << 4,
	HWT_SCRIPT_FLAGS = 1u << 5,
	HWT_SCRIPT_IP = 1u << 6,
	HWT_SCRIPT_SYM = 1u << 7,
	HWT_SCRIPT_SYMOFF = 1u << 8,
	HWT_SCRIPT_DSO = 1u << 9,
	HWT_SCRIPT_ADDR = 1u << 10,
	HWT_SCRIPT_INSN = 1u << 11,
	HWT_SCRIPT_SRCLINE = 1u << 12,
};

/* Parses a comma-separated list of field names into hwt_script_field
 * bits. Errors: HWT_ERR_CONFIG naming the field that is not one and the
 * valid ones. */
HWT_API int hwt_script_fields_parse(const char *list, uint32_t *fields);

struct hwt_script_opts {
	size_t size;        /* sizeof(struct hwt_script_opts) */
	uint32_t fields;    /* hwt_script_field bits */
	FILE *out;
	/* Names for sym, symoff, dso and srcline (srcline needs it created
	 * with srcline); NULL: "[unknown]". Borrowed. */
	struct hwt_symbolizer *sym;
	/* The thread's name for comm; NULL or a NULL answer: ":TID", as
	 * perf shows a thread it has no name for. */
	const char *(*comm)(void *arg, int32_t pid, int32_t tid);
	void *comm_arg;
};

struct hwt_script;

/* Errors: HWT_ERR_NOMEM, HWT_ERR_INVAL (size, no out). */
HWT_API int hwt_script_new(const struct hwt_script_opts *opts,
			   struct hwt_script **script);
HWT_API void hwt_script_free(struct hwt_script *script);

/* The memory image the insn field reads the branch instructions' bytes
 * from (for hwt_decode_opts.on_image; the script holds a reference). */
HWT_API void hwt_script_set_image(struct hwt_script *script,
				  struct hwt_image *image);

/* The sink that writes the lines; valid while @script is. Its errors:
 * HWT_ERR_IO. */
HWT_API struct hwt_elem_sink hwt_script_sink(struct hwt_script *script);

#ifdef __cplusplus
}
#endif

#endif
