/* The report's stacks as a call-path tree (analysis/report/ only).
 *
 * A node is a call path: its parent's path with one more frame. Nodes are
 * found by (parent id, frame id) in a hash map, so each distinct path is
 * one entry of a few words however deep it is, and a frame's name is
 * stored once, in the report's table of frame names. Memory is linear in
 * the number of distinct paths, not in their total length; the folded
 * text ("a;b;c COUNT") is made only when it is written. */
#ifndef HWT_ANALYSIS_REPORT_CALL_TREE_H
#define HWT_ANALYSIS_REPORT_CALL_TREE_H

#include <stdio.h>

#include "analysis/util/pairmap.h"
#include "analysis/util/strmap.h"

/* The values of a node (and of a stack's counters): instructions, time
 * and calls of the frames that ended with that path, and S_SEEN, 1 once
 * a frame ended there (a stack with nothing counted is still a stack). */
enum { S_INSNS, S_TIME, S_CALLS, S_SEEN };

/* Node ids: 0 is the root (the empty path); node N is nodes.e[N - 1],
 * whose a is its parent's id and b its frame: the index of its name in
 * the report's frame names (hwt_strmap entries in order of insertion). */
struct call_tree {
	struct hwt_pairmap nodes;
	uint64_t *scratch;   /* a path's frames, for call_tree_graft */
	size_t scratch_cap;
};

/* The id of the frame named @name in @frames, the name folded as flame
 * graphs want it (no spaces or semicolons: each made '_'); -1 when out of
 * memory. */
int call_tree_frame(struct hwt_strmap *frames, const char *name,
		    uint64_t *id);

/* The node of @parent's path with frame @frame below it, created on
 * first sight; 0 when out of memory. */
uint64_t call_tree_child(struct call_tree *t, uint64_t parent,
			 uint64_t frame);

/* The S_* values of @node (not the root). */
uint64_t *call_tree_values(struct call_tree *t, uint64_t node);

/* The node of @node's path put under @under's path (the frames of @under,
 * then those of @node); 0 when out of memory. */
uint64_t call_tree_graft(struct call_tree *t, uint64_t under, uint64_t node);

/* *@dst made a copy of @src; -1 when out of memory. */
int call_tree_copy(struct call_tree *dst, const struct call_tree *src);

void call_tree_free(struct call_tree *t);

/* Writes every seen node whose value @which is not 0 as "a;b;c COUNT",
 * sorted by its text (bytewise), names through hwt_term_fwrite. Walks the
 * tree: only one path's text is held at a time. */
int call_tree_write_folded(const struct call_tree *t,
			   const struct hwt_strmap *frames, unsigned which,
			   FILE *out);

/* Adds every seen node's text to @full with its S_INSNS, S_TIME and
 * S_CALLS (for a partial result, which keeps stacks as text). */
int call_tree_add_text(const struct call_tree *t,
		       const struct hwt_strmap *frames,
		       struct hwt_strmap *full);

#endif
