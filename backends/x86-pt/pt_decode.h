/* Internals of the intel_pt decoder (libipt). */
#ifndef HWT_BACKENDS_X86_PT_PT_DECODE_H
#define HWT_BACKENDS_X86_PT_PT_DECODE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <intel-pt.h>

#include "hwtrace/backend.h"
#include "hwtrace/image.h"

/* Word indexes of perf's intel_pt AUXTRACE_INFO priv[] (intel-pt.h's
 * INTEL_PT_* enum, as intel_pt_info_fill writes them). */
enum {
	PT_INFO_PMU_TYPE,
	PT_INFO_TIME_SHIFT,
	PT_INFO_TIME_MULT,
	PT_INFO_TIME_ZERO,
	PT_INFO_CAP_USER_TIME_ZERO,
	PT_INFO_TSC_BIT,
	PT_INFO_NORET_BIT,
	PT_INFO_HAVE_SCHED_SWITCH,
	PT_INFO_SNAPSHOT_MODE,
	PT_INFO_PER_CPU_MMAPS,
	PT_INFO_MTC_BIT,
	PT_INFO_MTC_FREQ_BITS,
	PT_INFO_TSC_CTC_N,
	PT_INFO_TSC_CTC_D,
	PT_INFO_CYC_BIT,
	PT_INFO_MAX_NONTURBO_RATIO,
	PT_INFO_FILTER_STR_LEN,
	PT_INFO_WORDS_MIN = PT_INFO_MAX_NONTURBO_RATIO + 1,
};

/* perf's TSC -> perf time conversion (perf_event_mmap_page time_*). */
struct pt_time_conv {
	bool valid;
	uint16_t shift;
	uint32_t mult;
	uint64_t zero;
};

uint64_t pt_tsc_to_time(const struct pt_time_conv *tc, uint64_t tsc);

/* Fills the parts of @config that do not depend on the trace buffer: cpu
 * and errata from "FAMILY/MODEL[/STEPPING]", timing parameters from the
 * AUXTRACE_INFO words. Errors: HWT_ERR_CONFIG naming the bad cpu string. */
int pt_config_setup(struct pt_config *config, struct pt_time_conv *tc,
		    const struct hwt_decode_params *params);

/* Parses "FAMILY/MODEL[/STEPPING]" (decimal or 0x hex). */
int pt_cpu_parse(const char *s, struct pt_cpu *cpu);

/* libipt's view of the hwtrace image: file-backed sections go through one
 * image section cache shared by every stream; copied buffers and missing
 * files are served by a read callback. */
struct pt_image_adapter;

int pt_image_adapter_new(struct hwt_image *image, bool sandboxed,
			 struct pt_image_adapter **out);
void pt_image_adapter_free(struct pt_image_adapter *ad);
/* Builds the images again when sections were added to the hwtrace image
 * since they were built, and returns true: the libipt images handed out
 * before are gone. */
bool pt_image_adapter_refresh(struct pt_image_adapter *ad);
/* The libipt image for @pid (HWT_PID_ANY: every section) at perf time
 * @time (HWT_TIME_UNKNOWN: the latest sections), built on first use; it
 * holds until *until (exclusive). NULL when out of memory. */
struct pt_image *pt_image_adapter_get(struct pt_image_adapter *ad, int32_t pid,
				      uint64_t time, uint64_t *until);

/* Instruction lengths for splitting ranges into instructions (--disasm). */
struct pt_insn_len;

struct pt_insn_len *pt_insn_len_new(void);
void pt_insn_len_free(struct pt_insn_len *il);
/* Length of the instruction at @ip whose bytes start at @code (@size bytes
 * available), in @mode. Returns 0 when it cannot be decoded. */
unsigned int pt_insn_len_at(struct pt_insn_len *il, enum pt_exec_mode mode,
			    uint64_t ip, const uint8_t *code, size_t size);
/* What a libipt block holds (pt_block_shape.c): the direct calls and
 * jumps it went through, each cutting it into address ranges. */
struct pt_shape_cut {
	uint64_t from, to; /* the branch and its target */
	uint16_t insns;    /* instructions since the block's start or the
			    * cut before, the branch included */
	uint8_t len;       /* the branch's length */
	uint8_t kind;      /* HWT_BRANCH_CALL or HWT_BRANCH_JUMP */
};

/* 32 bytes: a table entry is a likely cache miss per block on code
 * spread wide, and two share a line. */
struct pt_block_shape {
	/* The block: its start and code. Its start, length, mode and code
	 * fix its path through direct branches, and so its end. */
	uint64_t ip, tag;
	uint16_t ninsn; /* 0: an empty slot */
	uint8_t mode;
	uint8_t last_len; /* length of its last instruction; 0: unknown */
	uint16_t ncuts;
	/* Its path could not be followed to its end: it is not cut, and the
	 * caller has said so (reported) or has yet to. */
	bool uncut, reported;
	uint32_t first_cut; /* its cuts: pt_shapes.cuts[first_cut...] */
};

_Static_assert(sizeof(struct pt_block_shape) == 32, "two shapes a cache line");

/* Every block shape the decoder has met, in a hash table that grows
 * (open addressing, linear probing), as libipt's own block cache keeps
 * an entry per byte of code. */
struct pt_shapes {
	struct pt_block_shape *slot;
	size_t mask, used;
	struct pt_block_shape scratch; /* a shape not kept */
	/* Moves on whenever kept shapes move or go (the table grows or is
	 * emptied): a shape's place is good while gen is the same. */
	uint32_t gen;
	struct pt_shape_cut *cuts;     /* every kept shape's, then the walk's */
	size_t ncuts, cuts_cap;
	/* The walk's libipt instruction decoder and the trace it reads:
	 * tracing starts at an IP (at fup_ip) in a mode (trace_mode). */
	struct pt_insn_decoder *walker;
	uint8_t trace[64];
	size_t fup_ip;
	int trace_mode;
};

struct pt_shapes *pt_shapes_new(void);
/* Forgets every shape: for images built again, which may be other
 * code at the same address. The table keeps its size. */
void pt_shapes_clear(struct pt_shapes *s);
void pt_shapes_free(struct pt_shapes *s);

static inline uint64_t pt_shape_hash(uint64_t ip, uint16_t ninsn)
{
	uint64_t h = (ip ^ (uint64_t)ninsn << 48) * 0x9e3779b97f4a7c15ull;
	return h ^ h >> 29;
}

/* The shapes' walker, libipt's instruction decoder without trace, for
 * other walks of the code (pt_fast.c): started at @ip in @mode over
 * @img, it runs through the instructions that need no trace, and gives
 * the first one that does with a negative status. Both return the
 * walker's status or a negative pt_error_code. */
int pt_shapes_walk_start(struct pt_shapes *s, uint64_t ip,
			 enum pt_exec_mode mode, struct pt_image *img);
int pt_shapes_walk_next(struct pt_shapes *s, int status, struct pt_insn *insn);

/* Walks @b's path, and keeps its shape unless the block is truncated. */
struct pt_block_shape *pt_shape_walk(struct pt_shapes *s, const struct pt_block *b,
				     uint64_t tag, struct pt_image *img);

/* The shape of @b, decoded from @img (the libipt image the block was),
 * known or walked now. Shapes know code by libipt's section id, or by
 * @img when there is none (b->isid 0: code read through the image's
 * callback). The result holds until the next call. Inline: it is asked
 * once per block, and nearly always found. */
static inline struct pt_block_shape *pt_shape_of(struct pt_shapes *s,
						 const struct pt_block *b,
						 struct pt_image *img)
{
	uint64_t tag = b->isid > 0 ? (uint64_t)b->isid
				   : (uint64_t)(uintptr_t)img | 1ull << 63;
	size_t i = pt_shape_hash(b->ip, b->ninsn) & s->mask;
	for (;; i = (i + 1) & s->mask) {
		struct pt_block_shape *sh = &s->slot[i];
		if (!sh->ninsn)
			break;
		if (sh->ip == b->ip && sh->tag == tag && sh->ninsn == b->ninsn &&
		    sh->mode == b->mode && !b->truncated)
			return sh;
	}
	return pt_shape_walk(s, b, tag, img);
}

static inline const struct pt_shape_cut *pt_shape_cuts(const struct pt_shapes *s,
							const struct pt_block_shape *sh)
{
	return s->cuts + sh->first_cut;
}

/* The split op (pt_split.c): a chunk cut at PSBs where a decoder that
 * starts there gives what one running through gives. Segments are about
 * pt_split_bytes long (tests make them shorter). */
extern size_t pt_split_bytes;
int pt_split(void *priv, const struct hwt_aux_chunk *chunk, uint64_t *starts,
	     size_t max);
/* What a PSB+ must hold for pt_psb_plus_size, besides what it restates:
 * a time stamp (where the time after a cut must be exact), and a TMA
 * (where MTC is on). */
enum { PSB_NEED_TSC = 1, PSB_NEED_TMA = 2 };
/* The bytes of the PSB+ at @at (a PSB up to its PSBEND, at most @end),
 * when it holds only what a PSB+ restates and the packets @need asks
 * for; a negative pt_error_code otherwise. */
int pt_psb_plus_size(const struct pt_config *base, const uint8_t *at,
		     const uint8_t *end, unsigned int need);

/* The ptdump-like packet listing of one buffer, a record a line. */
int pt_packets_dump(const struct hwt_decode_params *params,
		    const struct hwt_aux_chunk *chunk,
		    const struct hwt_packet_sink *sink);

#endif

/* One decoder instance serves every stream of a capture, so that the image
 * section cache is shared; per-stream state is reset at each chunk. */
struct pt_dec {
	struct hwt_decode_params params;
	struct pt_config config;
	struct pt_time_conv tc;
	struct pt_image_adapter *ad;
	struct pt_insn_len *il;  /* made at first need (--disasm) */
	struct pt_shapes *shapes;
	int stop; /* the sink's error: stop decoding */

	/* The stream being decoded. */
	int32_t cpu, tid;
	int32_t pid; /* the stream's process, with HWT_FIELD_PID in base_fields */
	uint32_t base_fields;
	bool have_time;
	uint64_t tsc, time; /* the last time stamp, and it in perf time */
	/* The block before: its last instruction may be a taken branch whose
	 * target the next block shows. */
	bool pend;
	uint64_t pend_from, pend_next;
	enum pt_insn_class pend_class;
	uint8_t pend_op[16];   /* its bytes, read when needed */
	bool pend_op_valid;
	uint8_t pend_len;      /* its length, 0 when unknown */
	/* Its kind (enum hwt_branch_kind), or 0xff: judged by its
	 * opcode. */
	uint8_t pend_kind;
	/* The range and branch elements every block emits, with the
	 * stream's fields and time already in (stamp()). */
	struct hwt_elem range_elem, branch_elem;
	/* range_elem is a range not yet handed over, which the next block
	 * may go on (emit_range). With --disasm, a run of instructions split
	 * when it is let go: held_last and held_last_len are its last
	 * instruction's address and length (0 when unknown), held_mode its
	 * mode. */
	bool held;
	uint64_t held_last;
	unsigned held_last_len;
	enum pt_exec_mode held_mode;
	bool timing;           /* the trace has time: ask for it per block */
	/* Whose memory image the block decoder reads. */
	struct pt_block_decoder *dec;
	struct pt_image *img;  /* the one it reads: block shapes' tag */
	int32_t img_pid;
	uint64_t pid_time;     /* the time img_pid was asked for */
	/* The perf time of the code decoded (HWT_TIME_UNKNOWN before the
	 * first time stamp), and the span [img_from, img_until) of the
	 * libipt image in use. */
	uint64_t code_time;
	uint64_t img_from, img_until;
	bool timed_image;      /* the image changes over time */
	uint64_t fail_ip; /* where the last error struck */
	/* A segment of a split chunk ends at seg_end (UINT64_MAX: the
	 * chunk is whole), where the next segment's PSB+ starts; seg_over
	 * once that PSB+'s status updates are in. */
	uint64_t seg_end;
	bool seg_over;
	char msg[160];
	struct pt_edges *edges; /* --edges state, made on first use */
	/* The fast path (pt_fast.c), NULL when turned off; while it decodes
	 * a chunk, qry is its libipt query decoder (and dec is NULL). */
	struct pt_fast *fast;
	struct pt_query_decoder *qry;
	/* The elements of this chunk handed to the sink, and how many of
	 * the next ones to drop: those the fast path sent before it gave
	 * the chunk up, which the block decoder gives again. */
	uint64_t sent, skip;
	/* The last chunk the split op scanned for time packets, and what
	 * it found (pt_split.c): a decode asks once to choose its threads,
	 * again to cut. */
	const uint8_t *timing_data;
	uint64_t timing_size;
	unsigned int timing_flags;
};

/* Decodes one chunk completely, resynchronising at the next PSB after
 * every error. Returns 0, or the sink's error, or HWT_ERR_NOMEM. */
int pt_dec_chunk(struct pt_dec *d, const struct hwt_aux_chunk *chunk);

/* What the block decoder's loop does with a block and an event, and its
 * other steps, for the fast path to do the same (pt_decode_blk.c). */
void pt_on_block(struct pt_dec *d, const struct pt_block *b);
/* The same, with @b's shape (pt_shape_of) already known. */
void pt_on_shaped_block(struct pt_dec *d, const struct pt_block *b,
			struct pt_block_shape *sh);
void pt_on_event(struct pt_dec *d, const struct pt_event *ev);
/* The last block's final instruction went to @to (known) or somewhere
 * the trace does not say. */
void pt_end_pending(struct pt_dec *d, uint64_t to, bool known);
void pt_release_held(struct pt_dec *d);
void pt_emit_gap(struct pt_dec *d, enum hwt_gap_reason reason, uint64_t offset,
		 uint64_t bytes, const char *detail);
/* Hands @e over with the stream's fields and time (as every element). */
void pt_emit(struct pt_dec *d, struct hwt_elem *e);
/* The trace's time is TSC @tsc from now on. */
void pt_set_time(struct pt_dec *d, uint64_t tsc);
/* The packet-only flow (pt_packet_flow.c): where the walk of the code
 * stopped at @lost_ip for want of code, the bytes [@from, @to) of the
 * buffer @config reads still say where trace went on and off, which
 * asynchronous branches were taken and where indirect branches went;
 * emits those. @synced_at is the sync point (PSB) the walk started
 * from, at or before @from; @chunk_offset the buffer's offset in the
 * stream. */
void pt_packet_flow(struct pt_dec *d, const struct pt_config *config,
		    uint64_t chunk_offset, uint64_t synced_at, uint64_t from,
		    uint64_t to, uint64_t lost_ip);
/* The code runs at perf time @time from now on. */
void pt_follow(struct pt_dec *d, uint64_t time);
/* The image @chunk starts with (d->img); NULL when out of memory. */
struct pt_image *pt_chunk_image(struct pt_dec *d,
				const struct hwt_aux_chunk *chunk);

/* The fast path (pt_fast.c): libipt's query decoder and a table of the
 * code's blocks, in place of libipt's block decoder, for the trace it
 * knows; it gives up a chunk at anything else, and the block decoder
 * decodes that chunk again from its start. */
struct pt_fast;
struct pt_fast *pt_fast_new(void);
void pt_fast_free(struct pt_fast *f);
/* Forgets every block: for images built again. */
void pt_fast_clear(struct pt_fast *f);
/* Off with HWTRACE_PT_FAST=0 in the environment; tests set this. */
extern int pt_fast_default;
/* The chunks the fast path decoded, and those it gave up, in this
 * process (tests read them). */
extern atomic_ullong pt_fast_done, pt_fast_given_up;
/* Decodes @chunk as pt_dec_chunk does (readied by it, to be read with
 * @config), and returns what it returns, or PT_FAST_GAVE_UP after
 * d->sent elements. */
enum { PT_FAST_GAVE_UP = 1 };
int pt_fast_chunk(struct pt_dec *d, const struct hwt_aux_chunk *chunk,
		  const struct pt_config *config);

/* The edges op (pt_edges.c): one chunk into @map, from the packets where
 * it can, through pt_dec_chunk where it cannot. */
struct pt_edges;
int pt_edges_chunk(void *priv, const struct hwt_aux_chunk *chunk,
		   struct hwt_edges *map);
void pt_edges_free(struct pt_edges *e);

/* Packets libipt 2.0 does not know (TRIG, CFE, EVD). The callback goes in
 * pt_config.decode; the size is that of the packet at @pos, or a negative
 * pt_error_code. */
int pt_ext_packet_size(const uint8_t *pos, const uint8_t *end);
int pt_ext_packet_callback(struct pt_packet_unknown *unknown,
			   const struct pt_config *config, const uint8_t *pos,
			   void *context);
/* Formats such a packet as ptdump does; returns its name. */
const char *pt_ext_packet_format(const uint8_t *p, char *pay, size_t n,
				 char *track, size_t tn);
