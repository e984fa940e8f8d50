/* Call stacks rebuilt from the element stream, per thread.
 *
 * A call pushes a frame; a return pops to the frame it returns to (frames
 * above it end without returning: longjmp, exception unwinding); a return
 * with nothing to pop means the trace began inside a function (its caller
 * becomes an inferred frame that starts at the thread's first element); a
 * jump to the start of a function is a tail call (the top frame is
 * replaced) unless it is a part split off the function running there
 * (NAME.cold: the same frame), and an indirect jump into a function
 * further down the stack unwinds to it (longjmp, exception landing
 * pads); syscalls, interrupts and exceptions nest a new level which
 * their return (sysret, eret, rt_sigreturn) unwinds. A gap, a decode error
 * or trace going off (unless it comes back on where it went off; a
 * trace_off marked HWT_FIELD_TRACE_END never does) ends every
 * open frame with that marker: nothing is guessed across lost trace.
 *
 * Works on any backend's elements, in any order of threads: each element is
 * routed to its thread's stack by its tid (or, without one, its cpu). */
#ifndef HWTRACE_STACK_H
#define HWTRACE_STACK_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "hwtrace/common.h"
#include "hwtrace/decode.h"
#include "hwtrace/element.h"
#include "hwtrace/merge.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How a frame began. */
enum hwt_frame_start {
	HWT_FRAME_CALLED,   /* a call branch */
	HWT_FRAME_INFERRED, /* trace began inside it (it was never seen called) */
	HWT_FRAME_TAIL,     /* a jump to the start of a function replaced its caller */
	HWT_FRAME_TRAP,     /* a syscall, interrupt or exception entered it */
};

/* How a frame ended. */
enum hwt_frame_end {
	HWT_FRAME_OPEN,      /* not ended yet (on_enter) */
	HWT_FRAME_RETURNED,  /* a return to its caller (sysret/eret for traps) */
	HWT_FRAME_NO_RETURN, /* a return further down the stack unwound it
			      * (longjmp, exception unwinding) */
	HWT_FRAME_REPLACED,  /* a tail call replaced it */
	HWT_FRAME_GAP,       /* trace was lost here */
	HWT_FRAME_ERROR,     /* the decoder failed here */
	HWT_FRAME_TRACE_OFF, /* tracing stopped */
	HWT_FRAME_END,       /* the end of the trace */
};

/* One function activation. */
struct hwt_frame {
	uint64_t func;        /* entry address (call target); inferred frames:
			       * the first address seen in them */
	uint64_t call_site;   /* the branch's source address; 0 when inferred */
	uint64_t return_addr; /* where a return ends it; 0 when unknown */
	bool has_time;        /* call_time/return_time are set */
	uint64_t call_time;   /* inferred frames: the thread's first time */
	uint64_t return_time; /* on_exit only */
	uint64_t self_time;   /* on_exit: return - call time less the
			       * callees' (0 without time) */
	/* Instructions and taken branches executed in this frame alone
	 * (self) and including the frames it called (total). On_exit only. */
	uint64_t insns_self, insns_total;
	uint64_t branches_self, branches_total;
	int depth;            /* 0 for the thread's first frame; callers that
			       * were inferred later have negative depths */
	int32_t pid, tid, cpu;  /* -1 when unknown */
	enum hwt_frame_start start;
	enum hwt_frame_end end;
	/* The frame that called it (NULL for the outermost): valid during
	 * the callback only. Walk it for a full stack. */
	const struct hwt_frame *caller;
};

/* Where frames go. Either callback may be NULL. They return 0 to go on or
 * a negative error to stop (which the stack's sink then returns). The frame
 * is valid only during the call. on_enter sees a frame as it is pushed
 * (an inferred caller when it is discovered); on_exit sees it complete. */
struct hwt_stack_ops {
	int (*on_enter)(void *arg, const struct hwt_frame *frame);
	int (*on_exit)(void *arg, const struct hwt_frame *frame);
	void *arg;
	/* Optional, from symbols: the first address of the function holding
	 * @addr in process @pid (-1 when unknown) in *start; false when not
	 * known. With it, a jump to a function's first instruction is a tail
	 * call, and an indirect jump into a function further down the stack
	 * (longjmp, an exception's landing pad) unwinds to that frame at
	 * once; without it neither is recognised. */
	bool (*function_start)(void *sym_arg, int32_t pid, uint64_t addr,
			       uint64_t *start);
	void *sym_arg;
	/* Optional, from symbols: the first address of the function whose
	 * code holds @addr, counting the parts a compiler splits off a
	 * function (NAME.cold, NAME.part.N, NAME.constprop.N, NAME.isra.N)
	 * as their parent's; false when not known. A jump between a function
	 * and its own parts, either way, stays in its frame (no tail call),
	 * and a landing pad in a part unwinds to its parent's frame. NULL:
	 * every symbol is a function of its own (function_start). */
	bool (*function_parent)(void *sym_arg, int32_t pid, uint64_t addr,
				uint64_t *start);
	/* Optional: a return shows the caller of the thread's outermost
	 * frame, which is still open. @caller (start HWT_FRAME_INFERRED, one
	 * level down, call_time the thread's first time: it ran all along)
	 * is entered (on_enter) right after that frame ends (on_exit); a
	 * writer that prints in time order names it here, at @time (the
	 * return's), before the return. */
	int (*on_caller)(void *arg, const struct hwt_frame *caller,
			 uint64_t time);
};

/* Names of functions for the writers built on stacks (calls, reports,
 * timelines), from symbols (hwtrace/symbols.h) or anything else. @name
 * returns the function holding @addr in process @pid (-1 when unknown)
 * and sets *start to its first address, or returns NULL when it does not
 * know; the string stays valid until the next call. A NULL @name: every
 * function is shown by its address. */
struct hwt_func_namer {
	const char *(*name)(void *arg, int32_t pid, uint64_t addr,
			    uint64_t *start);
	void *arg;
	/* Optional: as hwt_stack_ops.function_parent, with @arg. */
	bool (*parent)(void *arg, int32_t pid, uint64_t addr, uint64_t *start);
	/* Optional: what to call code @name does not know, such as
	 * "libgcc_s.so.1+0x16547" for code in a known binary without a
	 * symbol (hwt_symbol_dso_name); NULL when it knows nothing, and
	 * the writers show the address in hex. Valid until the next call. */
	const char *(*unnamed)(void *arg, int32_t pid, uint64_t addr);
	/* Optional: the binary holding the code, as perf report's dso
	 * column names it (the file's basename, "[kernel.kallsyms]"); NULL
	 * when unknown. Never holds a '/'. Valid until the next call. */
	const char *(*dso)(void *arg, int32_t pid, uint64_t addr);
};

/* What the stacks saw, for the user: every case where the trace or the
 * program did something a plain call/return nesting does not explain. */
struct hwt_stack_stats {
	uint64_t calls, returns;  /* call and return branches */
	uint64_t inferred;          /* callers inferred from returns */
	uint64_t no_return;         /* frames unwound without their return */
	uint64_t tail_calls;
	uint64_t traps;             /* syscall/interrupt/exception levels */
	uint64_t unmatched_returns; /* returns to no frame on a non-empty level */
	uint64_t cut_by_gap;        /* frames ended by a gap or decode error */
	uint64_t time_backwards;    /* elements older than their thread's last
				     * (their time was clamped) */
	uint64_t max_depth;
	uint64_t threads;
	/* Frames entered (hwt_frame_is_call): the calls every output
	 * counts. Of them: by a call instruction (calls), tail_calls and
	 * traps. */
	uint64_t entered;
	uint64_t cut_by_trace_off;  /* frames ended where tracing stopped
				     * (--stop, a thread's exit, a filter) */
};

struct hwt_stack;

/* A new set of per-thread stacks. @ops is copied. Errors: NULL when out of
 * memory. */
HWT_API struct hwt_stack *hwt_stack_new(const struct hwt_stack_ops *ops);

/* Frees every thread's stack without reporting open frames (call
 * hwt_stack_finish first for that); NULL is a no-op. */
HWT_API void hwt_stack_free(struct hwt_stack *stack);

/* A sink that feeds elements to the stacks; valid while @stack is. Its
 * errors: HWT_ERR_NOMEM and whatever a callback returns. */
HWT_API struct hwt_elem_sink hwt_stack_sink(struct hwt_stack *stack);

/* The end of the trace: every open frame of every thread ends
 * (HWT_FRAME_END, or HWT_FRAME_TRACE_OFF where its trace went off last)
 * at the thread's last time, innermost first, threads in the order of
 * those times (then of appearance), so the callbacks never go back in
 * time. Errors: HWT_ERR_NOMEM, whatever a callback returns. */
HWT_API int hwt_stack_finish(struct hwt_stack *stack);

/* The counters so far. */
HWT_API void hwt_stack_get_stats(const struct hwt_stack *stack,
				 struct hwt_stack_stats *stats);

/* Sets @ops' function_start (and function_parent when @namer has a
 * parent) from @namer, which must outlive the stacks: what `hwtrace
 * report` and `decode --calls` give their stacks, so that jumps to a
 * function's entry are tail calls and landing pads unwind. A namer
 * without a name callback leaves @ops as it is. */
HWT_API void hwt_stack_use_namer(struct hwt_stack_ops *ops,
				 const struct hwt_func_namer *namer);

/* Rebuilds the call stacks of every element @cur has left (hwt_cursor_run
 * into hwt_stack_sink) with @ops, named by @namer (may be NULL; see
 * hwt_stack_use_namer), and ends every open frame at the end
 * (hwt_stack_finish): the stacks `hwtrace report` builds from its decode.
 * *@stats (may be NULL) gets what the stacks saw. Returns 0, the
 * cursor's error or a callback's; HWT_ERR_NOMEM. */
struct hwt_cursor;
HWT_API int hwt_stack_run_cursor(struct hwt_cursor *cur,
				 const struct hwt_stack_ops *ops,
				 const struct hwt_func_namer *namer,
				 struct hwt_stack_stats *stats);

/* Whether @frame counts as a call wherever hwtrace counts calls (report's
 * table and header, the summaries, folded stacks weighted by calls, the
 * export's calls): it was entered, by a call, a tail call or a trap (a
 * signal handler, a syscall into a traced kernel, an interrupt), not
 * inferred from a return. */
HWT_API bool hwt_frame_is_call(const struct hwt_frame *frame);

/* "called", "inferred", ... and "returned", "no_return", ...; never NULL. */
HWT_API const char *hwt_frame_start_name(enum hwt_frame_start start);
HWT_API const char *hwt_frame_end_name(enum hwt_frame_end end);

/* A capture decoded in time order (every CPU's and thread's elements
 * merged, hwtrace/merge.h) into per-thread call stacks: what `report`,
 * `timeline`, `export` and `decode --calls` rebuild. */
struct hwt_symbolizer;  /* hwtrace/symbols.h */

struct hwt_stack_decode {
	size_t size;                        /* sizeof(struct hwt_stack_decode) */
	const char *file;                   /* the capture */
	const struct hwt_decode_opts *opts; /* its progress is called as given */
	bool per_cpu;                       /* stream order: no merge */
	struct hwt_stack_ops ops;           /* where frames go */
	/* Optional: every element, in the same order, before the stacks
	 * see it (timelines mark gaps and trace on/off). */
	const struct hwt_elem_sink *elements;
	/* Optional: every element after the stacks saw it (so their frames
	 * are those the element ran in). */
	const struct hwt_elem_sink *after;
	/* Optional: decodes into @sink instead of hwt_decode_file(file),
	 * e.g. one unit of the capture; returns as hwt_decode_file. */
	int (*decode)(void *arg, const struct hwt_decode_opts *opts,
		      const struct hwt_elem_sink *sink);
	void *decode_arg;
	/* Optional: the --comm, --dso and --sym filters (hwtrace/filter.h),
	 * comma-separated lists, NULL: none. The stacks see every element;
	 * only the frames that match go to ops (the others to dropped, when
	 * its callbacks are set) and only the elements that match to
	 * elements and after. Thread names come from file's capture (none
	 * from a pipe, "-"); sym names the code, required with dsos or
	 * syms. A size that ends before comms: no filters. */
	const char *comms, *dsos, *syms;
	struct hwt_symbolizer *sym;
	struct hwt_stack_ops dropped;
	/* Optional: names the functions for the stacks (hwt_stack_use_namer
	 * on ops): their starts make jumps to them tail calls. NULL, or a
	 * size that ends before it: ops as given. */
	const struct hwt_func_namer *namer;
	/* Optional: decode only this unit of file's capture (1 for the
	 * first of hwt_capture_units) through hwt_capture_decode_unit, in
	 * stream order, as `report --unit` does; 0: the whole capture. Not
	 * with decode. */
	size_t unit;
};

/* What the stacks and the merge of a stack decode saw. */
struct hwt_stack_decode_result {
	struct hwt_stack_stats stack;
	struct hwt_merge_stats merge;   /* zero with per_cpu */
	bool merged;   /* merged by time: the elements carried time stamps */
};

/* Decodes @run's capture (or its unit), merges its streams (unless
 * per_cpu), rebuilds the stacks and ends every open frame at the end,
 * even after a decode that failed part way; @result is filled either
 * way: the whole run of `report`, `timeline`, `export` and `decode
 * --calls`, filters, namer and --unit included. Errors: those of the
 * decode, of the ops and sinks, HWT_ERR_NOMEM, HWT_ERR_INVAL (a NULL or
 * short @run, a unit with a decode callback). */
HWT_API int hwt_stack_decode(const struct hwt_stack_decode *run,
			     struct hwt_stack_decode_result *result);

struct hwt_sym_setup;

/* Several captures decoded one after the other into the same stacks, as
 * `report FILE...` and `export FILE...` take them. Zero-initialise, then
 * set size. */
struct hwt_stack_decode_files {
	size_t size;                  /* sizeof(struct hwt_stack_decode_files) */
	/* Every capture's run: this one with its file set to files[i]. */
	struct hwt_stack_decode each;
	const char *const *files;
	size_t nfiles;
	/* Every capture after the first must have the first's clock
	 * (hwt_report_clock_check): one table has one time unit. */
	bool same_clock;
	/* Optional: the symbolizer *@sym (the first capture's, started by
	 * the caller) is freed and started anew from @symbols (its capture
	 * set to the file) for each capture after the first, hooked into
	 * @sym_opts, which is each.opts: each capture's code has its own
	 * symbols. The filters (each.sym) are given *@sym. */
	const struct hwt_sym_setup *symbols;
	struct hwt_symbolizer **sym;
	struct hwt_decode_opts *sym_opts;
	/* Optional: called before capture @i is decoded (after its
	 * symbols are started) and after it was (every capture, whatever
	 * its decode returned); a nonzero return stops the run with it. */
	int (*begin)(void *arg, size_t i, const char *file);
	int (*end)(void *arg, size_t i, int err);
	void *arg;
	/* Filled for each capture decoded: nfiles of them. */
	struct hwt_stack_decode_result *results;
};

/* Decodes @run's captures in turn through hwt_stack_decode: the clock
 * check and the symbols restarted before each capture after the first,
 * the hooks around each. Stops at the first error. Returns 0 or the
 * error: the clock check's, the symbolizer's, the hooks', the decode's;
 * HWT_ERR_INVAL for a NULL or short @run, no files, no results, or a
 * symbolizer slot without its setup or options. */
HWT_API int hwt_stack_decode_files(const struct hwt_stack_decode_files *run);

/* The summary line of @result on @out, after @prefix ("hwtrace report:
 * "): calls by kind, returns, threads, depth, and what ended frames;
 * before it, a line saying an untimed capture's streams are in stream
 * order (not with @per_cpu). */
HWT_API void hwt_stack_decode_print_summary(FILE *out, const char *prefix,
					    const struct hwt_stack_decode_result *result,
					    bool per_cpu);

#ifdef __cplusplus
}
#endif

#endif
