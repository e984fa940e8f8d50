/* Test helper: a fixed-size list of taken branches, filled from our
 * decoder's elements or from perf script's "FROM => TO" lines, so tests
 * can compare the two. Define HWT_TEST_MAX_BRANCHES before including. */
#ifndef HWT_TESTS_BRANCH_LIST_H
#define HWT_TESTS_BRANCH_LIST_H

#include <stdint.h>
#include <stdlib.h>

#include "hwtrace/element.h"

#ifndef HWT_TEST_MAX_BRANCHES
#error "define HWT_TEST_MAX_BRANCHES before including branch_list.h"
#endif

struct br {
	uint64_t from, to;
};

struct brlist {
	struct br v[HWT_TEST_MAX_BRANCHES];
	size_t n;
};

/* An element sink: keeps each branch element, drops the rest. */
static inline int add_branch(void *arg, const struct hwt_elem *e)
{
	struct brlist *l = arg;
	if (e->type == HWT_ELEM_BRANCH && l->n < HWT_TEST_MAX_BRANCHES) {
		l->v[l->n].from = e->u.branch.from;
		l->v[l->n].to = e->u.branch.to;
		l->n++;
	}
	return 0;
}

/* Keeps the branch of one perf script line; @arrow points at its "=>".
 * FROM is the last word before the arrow, TO the word after it. */
static inline void add_perf_branch(struct brlist *l, const char *line,
			    const char *arrow)
{
	const char *q = arrow;

	while (q > line && q[-1] == ' ')
		q--;
	while (q > line && q[-1] != ' ')
		q--;
	if (l->n < HWT_TEST_MAX_BRANCHES) {
		l->v[l->n].from = strtoull(q, NULL, 16);
		l->v[l->n].to = strtoull(arrow + 2, NULL, 16);
		l->n++;
	}
}

#endif
