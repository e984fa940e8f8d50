/* A command's symbol options made into a symbolizer hooked into a decode:
 * the kernel symbol file chosen (--kallsyms, else the --kcore
 * directory's) and checked once at the start, this machine's kernel names
 * kept away from a capture of another machine, and the symbolizer given
 * to the decode's options and output. */
#ifndef HWTRACE_SYM_SETUP_H
#define HWTRACE_SYM_SETUP_H

#include <stddef.h>
#include <stdio.h>

#include "hwtrace/common.h"
#include "hwtrace/decode.h"
#include "hwtrace/output.h"
#include "hwtrace/symbols.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Zero-initialise, then set size. Strings are borrowed for the call and
 * as hwt_sym_opts says for the symbolizer's life. */
struct hwt_sym_setup {
	size_t size;                 /* sizeof(struct hwt_sym_setup) */
	/* srcline, no_demangle, kallsyms, perf_map_dir, no_host_kallsyms,
	 * and warn / warn_arg: every warning of the setup and of the
	 * symbolizer after it, without a prefix (the caller adds its
	 * command's name). sym.size need not be set. */
	struct hwt_sym_opts sym;
	/* --symfs, --buildid-dir and --vmlinux of the decode; NULL: those
	 * of sym. */
	const struct hwt_image_lookup *lookup;
	/* The perf.data file decoded (whose host says whether this
	 * machine's /proc/kallsyms names its kernel); NULL for a raw trace
	 * or a snapshot. */
	const char *capture;
	/* A --kcore directory: its kallsyms file when sym.kallsyms is NULL. */
	const char *kcore;
};

/* Creates the symbolizer of @setup into *@out. A kernel symbol file that
 * cannot be read is warned about once ("warning: --kallsyms FILE: ...:
 * kernel addresses get no names") and left out, this machine's included;
 * a capture recorded on another machine or kernel gets no names from
 * this machine's /proc/kallsyms, and a warning says so and what to pass.
 * Errors: those of hwt_symbolizer_new (HWT_ERR_NOMEM, HWT_ERR_INVAL for
 * a size too small). */
HWT_API int hwt_symbolizer_setup(const struct hwt_sym_setup *setup,
				 struct hwt_symbolizer **out);

/* Gives @sym to a decode: its images (opts->on_image), the names of its
 * addresses (opts->name_addr) and, when @output is not NULL, the
 * output's annotator. @sym must outlive the decode. */
HWT_API void hwt_symbolizer_hook(struct hwt_symbolizer *sym,
				 struct hwt_decode_opts *opts,
				 struct hwt_output *output);

/* hwt_symbolizer_setup, then hwt_symbolizer_hook of the new symbolizer
 * into @opts and @output (may be NULL): a command's symbols made ready for
 * its decode in one call. Nothing is hooked when it fails (*@out NULL).
 * Errors: those of hwt_symbolizer_setup. */
HWT_API int hwt_symbolizer_start(const struct hwt_sym_setup *setup,
				 struct hwt_decode_opts *opts,
				 struct hwt_output *output,
				 struct hwt_symbolizer **out);

/* A function namer (hwtrace/stack.h) over whatever symbolizer *@slot
 * holds when it is called, not when it is made: a command can give its
 * stacks the namer before its symbols start, or when they never do (an
 * empty slot names nothing, so the writers show addresses). @slot must
 * outlive the namer. */
HWT_API struct hwt_func_namer hwt_symbolizer_slot_namer(struct hwt_symbolizer *const *slot);

struct hwt_pd_reader;
struct hwt_pd_summary;

/* The text of `hwtrace info` (hwt_pd_summary_print of @s, the summary
 * of the file @r reads) with each binary's "symbols:" and "debug info:"
 * lines as a symbolizer looking under @symfs too (NULL: this machine's
 * files alone) finds them; without those lines when no symbolizer can be
 * made. The symbolizer's warnings go to @warn (NULL: none) with
 * @warn_arg, without a prefix. Errors: those of hwt_pd_summary_print. */
HWT_API int hwt_pd_summary_print_symbols(FILE *out,
					 const struct hwt_pd_reader *r,
					 const struct hwt_pd_summary *s,
					 const char *symfs,
					 void (*warn)(void *arg,
						      const char *message),
					 void *warn_arg);

#ifdef __cplusplus
}
#endif

#endif
