/* The N-Trace decoder's state, shared by its message handling
 * (rvt_decoder.c) and its walk through the program (rvt_walk.c). */
#ifndef HWT_RVT_DECODE_H
#define HWT_RVT_DECODE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "backends/riscv-trace/rvt_insn.h"
#include "backends/riscv-trace/rvt_msg.h"
#include "backends/riscv-trace/rvt_options.h"
#include "hwtrace/backend.h"

/* A walk that cannot go on: the trace does not fit the code (or the
 * options). The detail is in rvt_dec.detail. */
#define RVT_FAIL 1
/* The code is not in the memory image (rvt_dec.detail names it). */
#define RVT_NO_IMAGE 2

/* One trace source (a hart; the SRC field tells them apart). */
struct rvt_hart {
	uint32_t src;
	bool synced;       /* the PC is known */
	uint64_t pc;
	uint64_t ref;      /* the last full address sent: U-ADDR's base */
	/* Halfwords of code the trace has counted (ResourceFull I-CNT) but
	 * the walk has not passed yet; negative when a history walk went
	 * ahead of the count. */
	int64_t icnt_left;
	/* The implicit-return stack: the encoder's, oldest first; a push
	 * on a full stack drops the oldest. */
	uint64_t stack[RVT_MAX_CALLSTACK];
	unsigned depth;
	/* The range being built: instructions from rstart to rend. */
	bool range_open;
	uint64_t rstart, rend, rinsns;
	bool have_time;
	uint64_t time;
	/* RepeatBranch repeats the last branch message, to the same
	 * target. */
	bool have_last;
	struct rvt_msg last;
	uint64_t last_target;
	/* Bytes skipped while waiting for a synchronizing message. */
	bool skipping;
	uint64_t skip_from, skip_bytes;
	bool skip_have_time; /* the time when the skipping started */
	uint64_t skip_time;
};

/* Instructions decoded before, by address (the image of a raw decode
 * does not change): most of a walk is loops. */
#define RVT_ICACHE 4096

struct rvt_icache_entry {
	uint64_t pc; /* 1 (no instruction's address) when empty */
	struct rvt_insn in;
};

struct rvt_dec {
	struct rvt_opts o;
	struct hwt_image *image;
	struct hwt_image_section *sec; /* the last one code was read from */
	struct rvt_icache_entry icache[RVT_ICACHE];
	const struct hwt_elem_sink *sink;
	void (*warn)(void *arg, const char *message);
	void *warn_arg;
	bool vendor_warned;
	/* The frame before was not a stop (a correlation or error message):
	 * a sync message now is not a point where rvt_split may cut. False
	 * at a stream's start, as there. */
	bool not_after_stop;
	/* Decoding a perf capture, whose AUXTRACE records perf pads with
	 * zero bytes to a multiple of 8. */
	bool capture;
	struct rvt_hart *harts;
	size_t nharts, cap;
	int32_t cpu, tid;   /* of the chunk being fed */
	uint64_t offset;    /* of the message being handled */
	char detail[256];
	/* A message cut by the end of a chunk, waiting for the next one. */
	uint8_t pend[2 * RVT_MAX_MSG];
	size_t npend;
	uint64_t pend_off;
};

/* Element helpers (rvt_walk.c). */
void rvt_elem_init(const struct rvt_dec *d, const struct rvt_hart *h,
		   struct hwt_elem *e, enum hwt_elem_type type);
int rvt_emit(const struct rvt_dec *d, const struct hwt_elem *e);
int rvt_range_flush(struct rvt_dec *d, struct rvt_hart *h);
int rvt_taken(struct rvt_dec *d, struct rvt_hart *h, uint64_t from,
	      uint64_t to, enum hwt_branch_kind kind);
void rvt_range_add(struct rvt_hart *h, uint64_t pc, unsigned size);

/* Reads and classifies the instruction at @pc: 0, RVT_NO_IMAGE or
 * RVT_FAIL (not an instruction the walk knows). */
int rvt_fetch(struct rvt_dec *d, uint64_t pc, struct rvt_insn *in);

/* Walks from h->pc through the conditional branches whose outcomes
 * @hist holds (stop bit first), up to the instruction after the last
 * one. 0, a sink's error, RVT_FAIL or RVT_NO_IMAGE. */
int rvt_walk_hist(struct rvt_dec *d, struct rvt_hart *h, uint64_t hist);

/* How a counted walk ends. */
enum rvt_walk_end {
	RVT_END_STOP,     /* anything: an exception, a trap, trace off */
	RVT_END_BRANCH,   /* the last instruction is a taken branch */
	RVT_END_INDIRECT, /* the last instruction jumps to the message's
			   * address (when it is a jump at all) */
};

/* Walks @halfwords of code from h->pc, the conditional branches not
 * taken, as @end says for the last instruction. With RVT_END_INDIRECT,
 * *last is the last instruction (at h->pc) when it is an indirect jump,
 * not yet walked; *have_last says whether there was one. */
int rvt_walk_count(struct rvt_dec *d, struct rvt_hart *h, int64_t halfwords,
		   enum rvt_walk_end end, struct rvt_insn *last,
		   bool *have_last);

/* Finishes the indirect jump *last at h->pc to @target: the stack (calls
 * push, returns pop), the range and the branch. */
int rvt_jump_to(struct rvt_dec *d, struct rvt_hart *h,
		const struct rvt_insn *last, uint64_t target);

/* The decoder's message loop over one chunk (rvt_decoder.c). */
int rvt_dec_feed(struct rvt_dec *d, const struct hwt_aux_chunk *c);

/* The packets op (rvt_packets.c): the messages of @chunk, a record each. */
int rvt_packets(const struct hwt_decode_params *params,
		const struct hwt_aux_chunk *chunk,
		const struct hwt_packet_sink *sink);

#endif
