/* Element filters by thread name, binary and function, as perf script's
 * --comms, --dsos and --symbols filter samples: `hwtrace decode --comm
 * NAME,... --dso NAME,... --sym NAME,...`. An element's code is where it
 * starts: a range's start, a branch's source, trace off's address; trace
 * on comes from nowhere (perf: "tr strt" from 0) and passes only filters
 * that name no binary or function. Elements about the stream (gaps,
 * errors, contexts) pass every code filter, and --comm by their thread:
 * what was lost is never hidden. */
#ifndef HWTRACE_FILTER_H
#define HWTRACE_FILTER_H

#include <stdbool.h>
#include <stdint.h>

#include "hwtrace/common.h"
#include "hwtrace/element.h"
#include "hwtrace/stack.h"
#include "hwtrace/symbols.h"

#ifdef __cplusplus
extern "C" {
#endif

struct hwt_elem_filter_opts {
	size_t size;        /* sizeof(struct hwt_elem_filter_opts) */
	/* Comma-separated lists; NULL: no filter of that kind. A binary
	 * matches by its path as recorded or its file name. Borrowed. */
	const char *comms, *dsos, *syms;
	struct hwt_symbolizer *sym; /* required with dsos or syms */
	/* A thread's name, required with comms (as hwt_script_opts.comm). */
	const char *(*comm)(void *arg, int32_t pid, int32_t tid);
	void *comm_arg;
	struct hwt_elem_sink next;  /* where the elements that pass go */
};

struct hwt_elem_filter;

/* Checks a --comm, --dso or --sym list as the commands take it: names
 * separated by commas, no empty list nor empty name in it (a filter that
 * would match nothing by a slip of the shell). @option names it in the
 * message. Returns 0, or HWT_ERR_CONFIG: "OPTION 'LIST': expected
 * NAME[,NAME...] without empty names". */
HWT_API int hwt_filter_list_check(const char *option, const char *list);

/* --dso and --sym look each address's function up: with symbols off
 * (--no-symbols, @no_symbols true) they could match nothing. @dsos and
 * @syms are the lists, NULL when not given. Returns 0, or HWT_ERR_CONFIG:
 * "--dso and --sym need symbols: not with --no-symbols". */
HWT_API int hwt_filter_symbols_check(bool no_symbols, const char *dsos,
				     const char *syms);

/* Errors: HWT_ERR_NOMEM, HWT_ERR_INVAL (size; a list without the
 * symbolizer or thread names it needs). */
HWT_API int hwt_elem_filter_new(const struct hwt_elem_filter_opts *opts,
				struct hwt_elem_filter **filter);
HWT_API void hwt_elem_filter_free(struct hwt_elem_filter *filter);

/* The sink that filters into opts.next; valid while @filter is. */
HWT_API struct hwt_elem_sink hwt_elem_filter_sink(struct hwt_elem_filter *filter);

/* Frame filters, the same lists for the commands built on call stacks
 * (report, timeline, export): the stacks are rebuilt from every element,
 * and only the frames that match go on, unchanged (their counts include
 * the callees filtered out), as perf report's --comms, --dsos and
 * --symbols keep the matching rows of the whole report. A frame matches
 * by its thread's name and by the binary and function its entry address
 * is in; a frame of no thread matches no --comm. */
struct hwt_frame_filter_opts {
	size_t size;        /* sizeof(struct hwt_frame_filter_opts) */
	/* What matches: the lists, symbolizer and thread names of an
	 * element filter (its next is not used). */
	struct hwt_elem_filter_opts match;
	/* Where the matching frames go; its function_start, function_parent
	 * and sym_arg are the filter's ops' too (the stacks need them for
	 * every frame). */
	struct hwt_stack_ops next;
	/* Optional (NULL callbacks): where the frames that do not match go,
	 * to count what was filtered out (hwt_report_hidden_ops). */
	struct hwt_stack_ops dropped;
};

struct hwt_frame_filter;

/* Errors: HWT_ERR_NOMEM, HWT_ERR_INVAL (sizes; as hwt_elem_filter_new). */
HWT_API int hwt_frame_filter_new(const struct hwt_frame_filter_opts *opts,
				 struct hwt_frame_filter **filter);
HWT_API void hwt_frame_filter_free(struct hwt_frame_filter *filter);

/* The stack ops that filter into opts.next; valid while @filter is. */
HWT_API struct hwt_stack_ops hwt_frame_filter_ops(struct hwt_frame_filter *filter);

#ifdef __cplusplus
}
#endif

#endif
