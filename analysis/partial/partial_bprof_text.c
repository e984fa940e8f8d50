/* The branch-profile partial's lines (docs/scale-out.md): after the
 * header, "named 0|1" (whether the profile has names), then one line a
 * branch, sorted by its texts:
 *   branch FROM TO FROM_SYM TO_SYM COUNT FROM_ADDR TO_ADDR
 * the texts as partial_put_text writes them ("~" for no name), the
 * addresses (the lowest pair the branch was counted at) in 0x-hex. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/partial/partial_internal.h"
#include "hwtrace/error.h"

int partial_bprof_write(const struct hwt_partial *p, FILE *out, size_t *lines)
{
	const struct bprof_branch **v = partial_bprof_sorted(p, false);
	if (!v)
		return hwt_error(HWT_ERR_NOMEM, "out of memory for the branch "
				 "profile");
	fprintf(out, "named %d\n", p->named ? 1 : 0);
	for (size_t i = 0; i < p->nbranches; i++) {
		const char *t[] = {v[i]->from, v[i]->to, v[i]->from_sym,
				   v[i]->to_sym};
		fputs("branch", out);
		for (size_t k = 0; k < 4; k++) {
			fputc(' ', out);
			partial_put_text(out, t[k]);
		}
		fprintf(out, " %" PRIu64 " 0x%" PRIx64 " 0x%" PRIx64 "\n",
			v[i]->count, v[i]->from_addr, v[i]->to_addr);
	}
	*lines = p->nbranches;
	free(v);
	return 0;
}

int partial_bprof_read_head(struct partial_reader *r, struct hwt_partial *p)
{
	int err = partial_next_line(r);
	if (!err && strcmp(r->fields[0], "named"))
		err = partial_bad(r, "no named line");
	if (!err)
		err = partial_want_fields(r, 2);
	if (!err && strcmp(r->fields[1], "0") && strcmp(r->fields[1], "1"))
		err = partial_bad(r, "named is neither 0 nor 1");
	if (!err)
		p->named = r->fields[1][0] == '1';
	return err;
}

int partial_bprof_read_line(struct partial_reader *r, struct hwt_partial *p)
{
	if (strcmp(r->fields[0], "branch"))
		return partial_bad(r, "a line of no known kind");
	int err = partial_want_fields(r, 8);
	char *t[4];
	for (size_t k = 0; k < 4 && !err; k++)
		err = partial_text_field(r, r->fields[1 + k], &t[k]);
	if (err)
		return err;
	if (!t[0] || !t[1] || !*t[0] || !*t[1])
		return partial_bad(r, "a branch end whose text is absent or "
				   "empty");
	if (!p->named && (t[2] || t[3]))
		return partial_bad(r, "a name in a profile without names");
	struct bprof_branch b = {t[0], t[1], t[2], t[3], 0, 0, 0};
	err = partial_number(r, r->fields[5], 10, &b.count);
	if (!err)
		err = partial_number(r, r->fields[6], 16, &b.from_addr);
	if (!err)
		err = partial_number(r, r->fields[7], 16, &b.to_addr);
	if (err)
		return err;
	if (!b.count)
		return partial_bad(r, "a branch taken 0 times");
	bool added;
	err = partial_bprof_add(p, &b, &added);
	if (!err && !added)
		return partial_bad(r, "a branch listed twice");
	return err;
}
